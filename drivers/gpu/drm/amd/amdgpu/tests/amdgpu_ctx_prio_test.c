// SPDX-License-Identifier: MIT
/*
 * KUnit tests of the priority amdgpu gives a context's jobs: the rule in
 * amdgpu_ctx_priority() (an AMDGPU_SCHED override wins, then a priority
 * chosen at creation, then the GPU priority of the task), the entities
 * amdgpu_ctx_get_entity() creates with it and the refresh that each
 * submission does with amdgpu_ctx_follow_task(), on real GPU schedulers of
 * a device that has no hardware behind it, under whichever policy
 * gpu_sched.sched_policy selects. Built into amdgpu, so that it calls the
 * driver's own functions.
 *
 * Each case runs in a kthread of its own, so the GPU priority and CPU nice
 * the cases give their task need no restoring.
 */

#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/gpuprio.h>
#include <linux/hw_breakpoint.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <drm/gpu_scheduler.h>

#include "amdgpu.h"
#include "amdgpu_ctx.h"

static const s32 valid_prios[] = {
	AMDGPU_CTX_PRIORITY_VERY_LOW,
	AMDGPU_CTX_PRIORITY_LOW,
	AMDGPU_CTX_PRIORITY_NORMAL,
	AMDGPU_CTX_PRIORITY_HIGH,
	AMDGPU_CTX_PRIORITY_VERY_HIGH,
};

struct ctx_prio_test_task {
	u16 gpuprio;	/* GPUPRIO_DEFAULT: follow the CPU nice */
	int nice;
	s32 expected;	/* the context priority it gives with CONFIG_GPUPRIO */
	int fair_nice;	/* the GPU nice it gives an entity under FAIR */
};

enum { TEST_TASK_HIGH, TEST_TASK_NORMAL, TEST_TASK_LOW, TEST_TASK_BANDS };

/* How the test's task gets each of the three bands. */
static const struct ctx_prio_test_task task_bands[TEST_TASK_BANDS] = {
	[TEST_TASK_HIGH] = { GPUPRIO_BE_NICE(-5), 0, AMDGPU_CTX_PRIORITY_HIGH,
			     -5 },
	[TEST_TASK_NORMAL] = { GPUPRIO_DEFAULT, 0, AMDGPU_CTX_PRIORITY_NORMAL,
			       0 },
	[TEST_TASK_LOW] = { GPUPRIO_DEFAULT, 5, AMDGPU_CTX_PRIORITY_LOW, 5 },
};

static const struct ctx_prio_test_task task_rows[] = {
	/* A CPU boost alone never reaches HIGH, which needs CAP_SYS_NICE. */
	{ GPUPRIO_DEFAULT, -20, AMDGPU_CTX_PRIORITY_NORMAL },
	{ GPUPRIO_DEFAULT, -1, AMDGPU_CTX_PRIORITY_NORMAL },
	{ GPUPRIO_DEFAULT, 0, AMDGPU_CTX_PRIORITY_NORMAL },
	{ GPUPRIO_DEFAULT, 1, AMDGPU_CTX_PRIORITY_LOW },
	{ GPUPRIO_DEFAULT, 19, AMDGPU_CTX_PRIORITY_LOW },
	/* A GPU priority of its own wins over the CPU nice. */
	{ GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0), 0, AMDGPU_CTX_PRIORITY_HIGH },
	{ GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 7), 0, AMDGPU_CTX_PRIORITY_HIGH },
	{ GPUPRIO_BE_NICE(-1), 0, AMDGPU_CTX_PRIORITY_HIGH },
	{ GPUPRIO_BE_NICE(0), 10, AMDGPU_CTX_PRIORITY_NORMAL },
	{ GPUPRIO_BE_NICE(1), 0, AMDGPU_CTX_PRIORITY_LOW },
	{ GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0), -5,
	  AMDGPU_CTX_PRIORITY_LOW },
};

/* Give the test's own task @t's priority: no permission check needed. */
static void ctx_prio_test_set_task(const struct ctx_prio_test_task *t)
{
	gpuprio_test_set_raw(current, t->gpuprio);
	set_user_nice(current, t->nice);
}

/* Off means stock: without CONFIG_GPUPRIO no task changes anything. */
static s32 ctx_prio_test_task_expected(const struct ctx_prio_test_task *t)
{
	return IS_ENABLED(CONFIG_GPUPRIO) ? t->expected :
					    AMDGPU_CTX_PRIORITY_NORMAL;
}

/* A context as amdgpu_ctx_init() leaves it, created with @init_prio. */
static void ctx_prio_test_init_ctx(struct amdgpu_ctx *ctx,
				   struct amdgpu_ctx_mgr *mgr, s32 init_prio)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->mgr = mgr;
	ctx->init_priority = init_prio;
	ctx->override_priority = AMDGPU_CTX_PRIORITY_UNSET;
}

static struct amdgpu_ctx *ctx_prio_test_alloc_ctx(struct kunit *test)
{
	struct amdgpu_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	return ctx;
}

/* A context created with the default follows its task. */
static void ctx_prio_test_follows_task(struct kunit *test)
{
	struct amdgpu_ctx *ctx = ctx_prio_test_alloc_ctx(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(task_rows); i++) {
		ctx_prio_test_set_task(&task_rows[i]);
		ctx_prio_test_init_ctx(ctx, NULL, AMDGPU_CTX_PRIORITY_NORMAL);
		KUNIT_EXPECT_EQ_MSG(test, amdgpu_ctx_priority(ctx, current),
				    ctx_prio_test_task_expected(&task_rows[i]),
				    "row %u", i);
	}
}

/* A priority chosen at creation wins over the task's; NORMAL is none. */
static void ctx_prio_test_explicit_wins(struct kunit *test)
{
	struct amdgpu_ctx *ctx = ctx_prio_test_alloc_ctx(test);
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(valid_prios); i++) {
		for (j = 0; j < ARRAY_SIZE(task_bands); j++) {
			s32 init = valid_prios[i];
			s32 expected = init;

			if (init == AMDGPU_CTX_PRIORITY_NORMAL)
				expected = ctx_prio_test_task_expected(&task_bands[j]);
			ctx_prio_test_set_task(&task_bands[j]);
			ctx_prio_test_init_ctx(ctx, NULL, init);
			KUNIT_EXPECT_EQ_MSG(test,
					    amdgpu_ctx_priority(ctx, current),
					    expected, "init %d task %u", init, j);
		}
	}
}

/* An AMDGPU_SCHED override wins over both, NORMAL included. */
static void ctx_prio_test_override_wins(struct kunit *test)
{
	struct amdgpu_ctx *ctx = ctx_prio_test_alloc_ctx(test);
	unsigned int i, j, k;

	for (i = 0; i < ARRAY_SIZE(valid_prios); i++) {
		for (j = 0; j < ARRAY_SIZE(valid_prios); j++) {
			for (k = 0; k < ARRAY_SIZE(task_bands); k++) {
				ctx_prio_test_set_task(&task_bands[k]);
				ctx_prio_test_init_ctx(ctx, NULL,
						       valid_prios[j]);
				ctx->override_priority = valid_prios[i];
				KUNIT_EXPECT_EQ(test,
						amdgpu_ctx_priority(ctx,
								    current),
						valid_prios[i]);
			}
		}
	}
}

/* fdinfo's drm-gpuprio: the task's band, and whether it was overridden. */
static void ctx_prio_test_fdinfo(struct kunit *test)
{
	static const struct {
		s32 init, override;
		int nice;
		const char *expected;
	} rows[] = {
		{ AMDGPU_CTX_PRIORITY_NORMAL, AMDGPU_CTX_PRIORITY_UNSET, 5,
		  "low" },
		{ AMDGPU_CTX_PRIORITY_NORMAL, AMDGPU_CTX_PRIORITY_UNSET, -5,
		  "normal" },
		{ AMDGPU_CTX_PRIORITY_LOW, AMDGPU_CTX_PRIORITY_UNSET, 0,
		  "normal overridden" },
		{ AMDGPU_CTX_PRIORITY_NORMAL, AMDGPU_CTX_PRIORITY_NORMAL, 3,
		  "low overridden" },
	};
	struct amdgpu_ctx *ctx = ctx_prio_test_alloc_ctx(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct ctx_prio_test_task t = {
			.gpuprio = GPUPRIO_DEFAULT,
			.nice = rows[i].nice,
		};
		char text[32] = "";
		bool shown;

		ctx_prio_test_set_task(&t);
		ctx_prio_test_init_ctx(ctx, NULL, rows[i].init);
		ctx->override_priority = rows[i].override;
		shown = gpuprio_fdinfo_format(text, sizeof(text),
					      amdgpu_ctx_gpuprio_fdinfo(ctx,
									current));
		/* Off means stock: no key */
		KUNIT_EXPECT_EQ_MSG(test, shown, IS_ENABLED(CONFIG_GPUPRIO),
				    "row %u", i);
		if (shown)
			KUNIT_EXPECT_STREQ_MSG(test, text, rows[i].expected,
					       "row %u", i);
	}
}

/*
 * A device without hardware: gfx has a normal and a high priority pipe,
 * each one scheduler, and SDMA shares the normal pipe's scheduler. Nothing
 * is submitted, so the schedulers never run a job.
 */
struct ctx_prio_test_dev {
	struct amdgpu_device *adev;
	struct drm_gpu_scheduler sched[2];
	unsigned int num_sched;
	struct amdgpu_ctx_mgr mgr;
	struct amdgpu_ctx *ctx[4];
	unsigned int num_ctx;
};

/* The gfx pipes, the first also SDMA's */
#define TEST_PIPE_NORMAL(env)	(&(env)->sched[0])
#define TEST_PIPE_HIGH(env)	(&(env)->sched[1])

static struct dma_fence *ctx_prio_test_run_job(struct drm_sched_job *job)
{
	return NULL;
}

static enum drm_gpu_sched_stat
ctx_prio_test_timedout_job(struct drm_sched_job *job)
{
	return DRM_GPU_SCHED_STAT_RESET;
}

static void ctx_prio_test_free_job(struct drm_sched_job *job)
{
}

static const struct drm_sched_backend_ops ctx_prio_test_sched_ops = {
	.run_job = ctx_prio_test_run_job,
	.timedout_job = ctx_prio_test_timedout_job,
	.free_job = ctx_prio_test_free_job,
};

static void ctx_prio_test_vfree(void *p)
{
	vfree(p);
}

static void ctx_prio_test_add_sched(struct amdgpu_device *adev, u32 hw_ip,
				    u32 hw_prio, struct drm_gpu_scheduler *s)
{
	adev->gpu_sched[hw_ip][hw_prio].sched[0] = s;
	adev->gpu_sched[hw_ip][hw_prio].num_scheds = 1;
}

static int ctx_prio_test_dev_init(struct kunit *test)
{
	struct drm_sched_init_args args = {
		.ops = &ctx_prio_test_sched_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = 1,
		.timeout = MAX_SCHEDULE_TIMEOUT,
		.name = "amdgpu-ctx-prio-test",
	};
	struct ctx_prio_test_dev *env;

	env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, env);
	xa_init_flags(&env->mgr.ctx_handles, XA_FLAGS_ALLOC1);
	test->priv = env;
	/* Too big for kmalloc */
	env->adev = vzalloc(sizeof(*env->adev));
	KUNIT_ASSERT_NOT_NULL(test, env->adev);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							ctx_prio_test_vfree,
							env->adev), 0);
	args.dev = kunit_device_register(test, "amdgpu-ctx-prio-test");
	KUNIT_ASSERT_FALSE(test, IS_ERR(args.dev));
	for (; env->num_sched < ARRAY_SIZE(env->sched); env->num_sched++)
		KUNIT_ASSERT_EQ(test, drm_sched_init(&env->sched[env->num_sched],
						     &args), 0);

	ctx_prio_test_add_sched(env->adev, AMDGPU_HW_IP_GFX,
				AMDGPU_GFX_PIPE_PRIO_NORMAL,
				TEST_PIPE_NORMAL(env));
	ctx_prio_test_add_sched(env->adev, AMDGPU_HW_IP_GFX,
				AMDGPU_GFX_PIPE_PRIO_HIGH, TEST_PIPE_HIGH(env));
	ctx_prio_test_add_sched(env->adev, AMDGPU_HW_IP_DMA,
				AMDGPU_RING_PRIO_DEFAULT, TEST_PIPE_NORMAL(env));
	env->mgr.adev = env->adev;
	return 0;
}

static void ctx_prio_test_dev_exit(struct kunit *test)
{
	struct ctx_prio_test_dev *env = test->priv;
	unsigned int n, i, j;

	if (!env)
		return;
	for (n = 0; n < env->num_ctx; n++) {
		for (i = 0; i < AMDGPU_HW_IP_NUM; i++) {
			for (j = 0; j < AMDGPU_MAX_ENTITY_NUM; j++) {
				struct amdgpu_ctx_entity *e;

				e = env->ctx[n]->entities[i][j];
				if (!e)
					continue;
				drm_sched_entity_destroy(&e->entity);
				kfree(e);
			}
		}
	}
	for (i = 0; i < env->num_sched; i++)
		drm_sched_fini(&env->sched[i]);
	xa_destroy(&env->mgr.ctx_handles);
}

/* The DRM master's override, under the lock AMDGPU_SCHED takes */
static void ctx_prio_test_override(struct kunit *test, struct amdgpu_ctx *ctx,
				   s32 prio)
{
	struct ctx_prio_test_dev *env = test->priv;

	xa_lock(&env->mgr.ctx_handles);
	amdgpu_ctx_priority_override(ctx, prio);
	xa_unlock(&env->mgr.ctx_handles);
}

static struct amdgpu_ctx *ctx_prio_test_dev_ctx(struct kunit *test,
						s32 init_prio)
{
	struct ctx_prio_test_dev *env = test->priv;
	struct amdgpu_ctx *ctx = ctx_prio_test_alloc_ctx(test);

	KUNIT_ASSERT_LT(test, env->num_ctx, ARRAY_SIZE(env->ctx));
	ctx_prio_test_init_ctx(ctx, &env->mgr, init_prio);
	env->ctx[env->num_ctx++] = ctx;
	return ctx;
}

static struct drm_sched_entity *
ctx_prio_test_entity(struct kunit *test, struct amdgpu_ctx *ctx, u32 hw_ip)
{
	struct drm_sched_entity *entity = NULL;

	KUNIT_ASSERT_EQ(test, amdgpu_ctx_get_entity(ctx, hw_ip, 0, 0, &entity),
			0);
	KUNIT_ASSERT_NOT_NULL(test, entity);
	return entity;
}

static enum drm_sched_priority ctx_prio_test_sched_prio(s32 ctx_prio)
{
	switch (ctx_prio) {
	case AMDGPU_CTX_PRIORITY_VERY_LOW:
	case AMDGPU_CTX_PRIORITY_LOW:
		return DRM_SCHED_PRIORITY_LOW;
	case AMDGPU_CTX_PRIORITY_HIGH:
	case AMDGPU_CTX_PRIORITY_VERY_HIGH:
		return DRM_SCHED_PRIORITY_HIGH;
	default:
		return DRM_SCHED_PRIORITY_NORMAL;
	}
}

/* drm_sched's FAIR policy: a single run queue, the priority a weight */
static bool ctx_prio_test_fair(struct drm_gpu_scheduler *sched)
{
	return sched->num_rqs == 1 && sched->num_user_rqs > 1;
}

/*
 * @entity is on @sched's run queue of @ctx_prio, with GPU nice 0. Under
 * FAIR, on its single run queue, and with @task's GPU nice if @task (not
 * NULL) gave @ctx_prio at a submission: a task's band weighs HIGH or NORMAL
 * there, graded by its nice, rather than LOW. A new entity has not been
 * graded yet.
 */
static void ctx_prio_test_expect_rq(struct kunit *test,
				    struct drm_sched_entity *entity,
				    struct drm_gpu_scheduler *sched,
				    s32 ctx_prio,
				    const struct ctx_prio_test_task *task,
				    unsigned int row)
{
	enum drm_sched_priority prio = ctx_prio_test_sched_prio(ctx_prio);
	struct drm_sched_rq *rq = sched->sched_rq[prio];
	int nice = 0;

	if (ctx_prio_test_fair(sched)) {
		rq = sched->sched_rq[0];
		if (task && IS_ENABLED(CONFIG_GPUPRIO)) {
			nice = task->fair_nice;
			if (prio != DRM_SCHED_PRIORITY_HIGH)
				prio = DRM_SCHED_PRIORITY_NORMAL;
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, entity->priority, prio, "row %u", row);
	KUNIT_EXPECT_EQ_MSG(test, entity->nice, nice, "row %u", row);
	KUNIT_EXPECT_PTR_EQ_MSG(test, entity->rq, rq, "row %u", row);
}

/*
 * A new entity takes the priority of the task that creates it on its run
 * queue, HIGH included, and always the normal gfx pipe: the task's
 * priority never picks the high priority pipe.
 */
static void ctx_prio_test_entity_init(struct kunit *test)
{
	struct ctx_prio_test_dev *env = test->priv;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(task_bands); i++) {
		s32 expected = ctx_prio_test_task_expected(&task_bands[i]);
		struct drm_sched_entity *entity;
		struct amdgpu_ctx *ctx;

		ctx_prio_test_set_task(&task_bands[i]);
		ctx = ctx_prio_test_dev_ctx(test, AMDGPU_CTX_PRIORITY_NORMAL);
		entity = ctx_prio_test_entity(test, ctx, AMDGPU_HW_IP_GFX);
		ctx_prio_test_expect_rq(test, entity, TEST_PIPE_NORMAL(env),
					expected, NULL, i);
	}
}

/*
 * A task at HIGH sets the context up, then is demoted: its next submission
 * leaves it nothing of HIGH, neither the run queue nor the high priority
 * pipe, which drm_sched would only leave once the entity is idle.
 */
static void ctx_prio_test_entity_demotion(struct kunit *test)
{
	struct ctx_prio_test_dev *env = test->priv;
	const struct ctx_prio_test_task *high = &task_bands[TEST_TASK_HIGH];
	const struct ctx_prio_test_task *low = &task_bands[TEST_TASK_LOW];
	struct drm_sched_entity *entity;
	struct amdgpu_ctx *ctx;

	ctx_prio_test_set_task(high);
	ctx = ctx_prio_test_dev_ctx(test, AMDGPU_CTX_PRIORITY_NORMAL);
	entity = ctx_prio_test_entity(test, ctx, AMDGPU_HW_IP_GFX);
	ctx_prio_test_expect_rq(test, entity, TEST_PIPE_NORMAL(env),
				ctx_prio_test_task_expected(high), NULL, 0);

	ctx_prio_test_set_task(low);
	amdgpu_ctx_follow_task(ctx, entity, current);
	ctx_prio_test_expect_rq(test, entity, TEST_PIPE_NORMAL(env),
				ctx_prio_test_task_expected(low), low, 1);
	KUNIT_EXPECT_PTR_NE(test, entity->rq->sched, TEST_PIPE_HIGH(env));
}

/* Its own priority, or an override, wins when the entity is created. */
static void ctx_prio_test_entity_init_own(struct kunit *test)
{
	struct ctx_prio_test_dev *env = test->priv;
	struct drm_sched_entity *entity;
	struct amdgpu_ctx *ctx;

	/* A task at HIGH creates it */
	ctx_prio_test_set_task(&task_bands[TEST_TASK_HIGH]);
	ctx = ctx_prio_test_dev_ctx(test, AMDGPU_CTX_PRIORITY_LOW);
	entity = ctx_prio_test_entity(test, ctx, AMDGPU_HW_IP_GFX);
	ctx_prio_test_expect_rq(test, entity, TEST_PIPE_NORMAL(env),
				AMDGPU_CTX_PRIORITY_LOW, NULL, 0);

	/* A task at LOW creates it after an override to HIGH */
	ctx_prio_test_set_task(&task_bands[TEST_TASK_LOW]);
	ctx = ctx_prio_test_dev_ctx(test, AMDGPU_CTX_PRIORITY_NORMAL);
	ctx_prio_test_override(test, ctx, AMDGPU_CTX_PRIORITY_HIGH);
	entity = ctx_prio_test_entity(test, ctx, AMDGPU_HW_IP_GFX);
	ctx_prio_test_expect_rq(test, entity, TEST_PIPE_HIGH(env),
				AMDGPU_CTX_PRIORITY_HIGH, NULL, 1);

	/* A task at LOW creates it with HIGH chosen at creation */
	ctx = ctx_prio_test_dev_ctx(test, AMDGPU_CTX_PRIORITY_HIGH);
	entity = ctx_prio_test_entity(test, ctx, AMDGPU_HW_IP_GFX);
	ctx_prio_test_expect_rq(test, entity, TEST_PIPE_HIGH(env),
				AMDGPU_CTX_PRIORITY_HIGH, NULL, 2);
}

/*
 * Each submission gives the entity its task's priority: SDMA has a single
 * scheduler, which drm_sched_entity_set_priority() would never move.
 */
static void ctx_prio_test_submission(struct kunit *test)
{
	/* Each a change */
	static const unsigned int order[] = {
		TEST_TASK_LOW, TEST_TASK_HIGH, TEST_TASK_NORMAL,
	};
	struct ctx_prio_test_dev *env = test->priv;
	struct drm_sched_entity *entity;
	struct amdgpu_ctx *ctx;
	unsigned int i;

	ctx_prio_test_set_task(&task_bands[TEST_TASK_NORMAL]);
	ctx = ctx_prio_test_dev_ctx(test, AMDGPU_CTX_PRIORITY_NORMAL);
	entity = ctx_prio_test_entity(test, ctx, AMDGPU_HW_IP_DMA);
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		const struct ctx_prio_test_task *t = &task_bands[order[i]];

		ctx_prio_test_set_task(t);
		amdgpu_ctx_follow_task(ctx, entity, current);
		ctx_prio_test_expect_rq(test, entity, TEST_PIPE_NORMAL(env),
					ctx_prio_test_task_expected(t), t, i);
	}
}

/*
 * An override by the DRM master moves the entity at once, at GPU nice 0
 * whatever a task graded it with, and wins over the task at every later
 * submission, as a priority chosen at creation does.
 */
static void ctx_prio_test_submission_own(struct kunit *test)
{
	const struct ctx_prio_test_task *high = &task_bands[TEST_TASK_HIGH];
	struct ctx_prio_test_dev *env = test->priv;
	struct drm_sched_entity *entity;
	struct amdgpu_ctx *ctx;

	ctx_prio_test_set_task(high);
	ctx = ctx_prio_test_dev_ctx(test, AMDGPU_CTX_PRIORITY_NORMAL);
	entity = ctx_prio_test_entity(test, ctx, AMDGPU_HW_IP_DMA);
	amdgpu_ctx_follow_task(ctx, entity, current);
	ctx_prio_test_expect_rq(test, entity, TEST_PIPE_NORMAL(env),
				ctx_prio_test_task_expected(high), high, 3);
	ctx_prio_test_override(test, ctx, AMDGPU_CTX_PRIORITY_LOW);
	ctx_prio_test_expect_rq(test, entity, TEST_PIPE_NORMAL(env),
				AMDGPU_CTX_PRIORITY_LOW, NULL, 0);
	amdgpu_ctx_follow_task(ctx, entity, current);
	ctx_prio_test_expect_rq(test, entity, TEST_PIPE_NORMAL(env),
				AMDGPU_CTX_PRIORITY_LOW, NULL, 1);

	/* Created HIGH, submitted to by a task at LOW */
	ctx = ctx_prio_test_dev_ctx(test, AMDGPU_CTX_PRIORITY_HIGH);
	entity = ctx_prio_test_entity(test, ctx, AMDGPU_HW_IP_DMA);
	ctx_prio_test_set_task(&task_bands[TEST_TASK_LOW]);
	amdgpu_ctx_follow_task(ctx, entity, current);
	ctx_prio_test_expect_rq(test, entity, TEST_PIPE_NORMAL(env),
				AMDGPU_CTX_PRIORITY_HIGH, NULL, 2);
}

#ifdef CONFIG_HAVE_HW_BREAKPOINT
struct ctx_prio_test_race {
	s32 *override;
	s32 value;
	atomic_t hits;
};

/*
 * The DRM master's override, stored right after the submission's first
 * read of it: a watchpoint's handler runs after the access it traps. The
 * override's own refresh of the entity is left out: run before the
 * submission's refresh, it would be undone by it, which is the case
 * tested; run after, it would win by itself.
 */
static void ctx_prio_test_race_store(struct perf_event *bp,
				     struct perf_sample_data *data,
				     struct pt_regs *regs)
{
	struct ctx_prio_test_race *race = bp->overflow_handler_context;

	if (atomic_inc_return(&race->hits) == 1)
		WRITE_ONCE(*race->override, race->value);
}

/*
 * An override that races with a submission wins: the entity ends at the
 * override, not at the priority of the task read before it. A hardware
 * watchpoint on the override plays the DRM master, so the interleaving is
 * forced rather than hoped for.
 */
static void ctx_prio_test_submission_race(struct kunit *test)
{
	struct ctx_prio_test_dev *env = test->priv;
	struct ctx_prio_test_race race = {};
	struct perf_event * __percpu *bp;
	struct drm_sched_entity *entity;
	struct perf_event_attr wp;
	struct amdgpu_ctx *ctx;

	if (!IS_ENABLED(CONFIG_GPUPRIO))
		kunit_skip(test, "no task to follow without CONFIG_GPUPRIO");

	ctx_prio_test_set_task(&task_bands[TEST_TASK_LOW]);
	ctx = ctx_prio_test_dev_ctx(test, AMDGPU_CTX_PRIORITY_NORMAL);
	entity = ctx_prio_test_entity(test, ctx, AMDGPU_HW_IP_DMA);

	race.override = &ctx->override_priority;
	race.value = AMDGPU_CTX_PRIORITY_HIGH;
	hw_breakpoint_init(&wp);
	wp.bp_addr = (unsigned long)&ctx->override_priority;
	wp.bp_len = HW_BREAKPOINT_LEN_4;
	wp.bp_type = HW_BREAKPOINT_RW;
	bp = register_wide_hw_breakpoint(&wp, ctx_prio_test_race_store, &race);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(bp), "watchpoint: error %ld",
			       PTR_ERR(bp));
	amdgpu_ctx_follow_task(ctx, entity, current);
	unregister_wide_hw_breakpoint(bp);

	KUNIT_ASSERT_GT_MSG(test, atomic_read(&race.hits), 0,
			    "the submission never read the override");
	ctx_prio_test_expect_rq(test, entity, TEST_PIPE_NORMAL(env),
				AMDGPU_CTX_PRIORITY_HIGH, NULL, 0);
}

/* Enough for the unbounded loop to show, few enough for it to end */
#define TEST_FLIPS	64

/*
 * A DRM master that changes the override between every two reads of it
 * by the submission, between LOW and HIGH, TEST_FLIPS times.
 */
static void ctx_prio_test_race_flip(struct perf_event *bp,
				    struct perf_sample_data *data,
				    struct pt_regs *regs)
{
	struct ctx_prio_test_race *race = bp->overflow_handler_context;

	if (atomic_inc_return(&race->hits) > TEST_FLIPS)
		return;
	WRITE_ONCE(*race->override,
		   READ_ONCE(*race->override) == AMDGPU_CTX_PRIORITY_LOW ?
		   AMDGPU_CTX_PRIORITY_HIGH : AMDGPU_CTX_PRIORITY_LOW);
}

/*
 * The submission's refresh-until-they-agree ends after a few tries
 * however often the override changes, and then leaves the entity at the
 * lower of the last two priorities it read, never the higher. Starting
 * from either priority, one of the two runs ends with the higher one
 * applied last, whatever the number of tries.
 */
static void ctx_prio_test_submission_race_bounded(struct kunit *test)
{
	static const s32 starts[] = {
		AMDGPU_CTX_PRIORITY_LOW, AMDGPU_CTX_PRIORITY_HIGH,
	};
	struct ctx_prio_test_dev *env = test->priv;
	struct drm_sched_entity *entity;
	struct amdgpu_ctx *ctx;
	unsigned int i;

	if (!IS_ENABLED(CONFIG_GPUPRIO))
		kunit_skip(test, "no task to follow without CONFIG_GPUPRIO");

	ctx_prio_test_set_task(&task_bands[TEST_TASK_NORMAL]);
	ctx = ctx_prio_test_dev_ctx(test, AMDGPU_CTX_PRIORITY_NORMAL);
	entity = ctx_prio_test_entity(test, ctx, AMDGPU_HW_IP_DMA);
	for (i = 0; i < ARRAY_SIZE(starts); i++) {
		struct ctx_prio_test_race race = {};
		struct perf_event * __percpu *bp;
		struct perf_event_attr wp;
		int hits;

		ctx_prio_test_override(test, ctx, starts[i]);

		race.override = &ctx->override_priority;
		hw_breakpoint_init(&wp);
		wp.bp_addr = (unsigned long)&ctx->override_priority;
		wp.bp_len = HW_BREAKPOINT_LEN_4;
		wp.bp_type = HW_BREAKPOINT_RW;
		bp = register_wide_hw_breakpoint(&wp, ctx_prio_test_race_flip,
						 &race);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(bp),
				       "watchpoint: error %ld", PTR_ERR(bp));
		amdgpu_ctx_follow_task(ctx, entity, current);
		unregister_wide_hw_breakpoint(bp);

		hits = atomic_read(&race.hits);
		KUNIT_EXPECT_GT_MSG(test, hits, 1,
				    "start %u: the override never changed", i);
		KUNIT_EXPECT_LE_MSG(test, hits, 8,
				    "start %u: read the override %d times", i,
				    hits);
		ctx_prio_test_expect_rq(test, entity, TEST_PIPE_NORMAL(env),
					AMDGPU_CTX_PRIORITY_LOW, NULL, i);
	}
}
#else
static void ctx_prio_test_submission_race(struct kunit *test)
{
	kunit_skip(test, "no hardware watchpoint to force the race with");
}

static void ctx_prio_test_submission_race_bounded(struct kunit *test)
{
	kunit_skip(test, "no hardware watchpoint to force the race with");
}
#endif

static struct kunit_case amdgpu_ctx_prio_test_cases[] = {
	KUNIT_CASE(ctx_prio_test_follows_task),
	KUNIT_CASE(ctx_prio_test_explicit_wins),
	KUNIT_CASE(ctx_prio_test_override_wins),
	KUNIT_CASE(ctx_prio_test_fdinfo),
	{}
};

static struct kunit_suite amdgpu_ctx_prio_test_suite = {
	.name = "amdgpu_ctx_prio",
	.test_cases = amdgpu_ctx_prio_test_cases,
};

static struct kunit_case amdgpu_ctx_entity_prio_test_cases[] = {
	KUNIT_CASE(ctx_prio_test_entity_init),
	KUNIT_CASE(ctx_prio_test_entity_init_own),
	KUNIT_CASE(ctx_prio_test_entity_demotion),
	KUNIT_CASE(ctx_prio_test_submission),
	KUNIT_CASE(ctx_prio_test_submission_own),
	KUNIT_CASE(ctx_prio_test_submission_race),
	KUNIT_CASE(ctx_prio_test_submission_race_bounded),
	{}
};

static struct kunit_suite amdgpu_ctx_entity_prio_test_suite = {
	.name = "amdgpu_ctx_entity_prio",
	.init = ctx_prio_test_dev_init,
	.exit = ctx_prio_test_dev_exit,
	.test_cases = amdgpu_ctx_entity_prio_test_cases,
};

kunit_test_suites(&amdgpu_ctx_prio_test_suite,
		  &amdgpu_ctx_entity_prio_test_suite);
