// SPDX-License-Identifier: MIT
/*
 * KUnit tests of the drm_sched task priority helpers, on a real scheduler
 * whose run_job only records which job ran: no GPU is needed. Jobs are
 * queued while the scheduler's submission is stopped, so that the order
 * they run in once it starts shows which run queue each entity was on.
 */

#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/gpuprio.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include <drm/gpu_scheduler.h>

#define TEST_MAX_JOBS		8
#define TEST_MAX_ENTITIES	4

struct sched_test {
	struct drm_gpu_scheduler sched;
	struct drm_gpu_scheduler *sched_list[1];
	struct drm_sched_entity entities[TEST_MAX_ENTITIES];
	int num_entities;
	struct dma_fence *done[TEST_MAX_JOBS];
	int num_jobs;
	/* Tags of the jobs in the order run_job saw them. */
	int ran[TEST_MAX_JOBS];
	atomic_t num_ran;
	/* drm_sched keeps its run queues in FIFO order (the default policy). */
	bool fifo;
};

struct sched_test_job {
	struct drm_sched_job base;
	struct sched_test *env;
	int tag;
};

static struct dma_fence *sched_test_run_job(struct drm_sched_job *sched_job)
{
	struct sched_test_job *job =
		container_of(sched_job, struct sched_test_job, base);
	int i = atomic_inc_return(&job->env->num_ran) - 1;

	if (i < TEST_MAX_JOBS)
		job->env->ran[i] = job->tag;
	/* No hardware fence: the job is done as soon as it is run. */
	return NULL;
}

static enum drm_gpu_sched_stat
sched_test_timedout_job(struct drm_sched_job *sched_job)
{
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static void sched_test_free_job(struct drm_sched_job *sched_job)
{
	drm_sched_job_cleanup(sched_job);
	kfree(container_of(sched_job, struct sched_test_job, base));
}

static const struct drm_sched_backend_ops sched_test_ops = {
	.run_job = sched_test_run_job,
	.timedout_job = sched_test_timedout_job,
	.free_job = sched_test_free_job,
};

/* A scheduler with @num_rqs run queues, its submission stopped. */
static struct sched_test *sched_test_init(struct kunit *test, u32 num_rqs)
{
	struct drm_sched_init_args args = {
		.ops = &sched_test_ops,
		.num_rqs = num_rqs,
		.credit_limit = TEST_MAX_JOBS,
		.timeout = MAX_SCHEDULE_TIMEOUT,
		.name = "gpuprio-test",
	};
	struct sched_test *env;

	env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, env);
	args.dev = kunit_device_register(test, "drm-sched-gpuprio-test");
	KUNIT_ASSERT_FALSE(test, IS_ERR(args.dev));
	KUNIT_ASSERT_EQ(test, drm_sched_init(&env->sched, &args), 0);
	env->sched_list[0] = &env->sched;
	drm_sched_wqueue_stop(&env->sched);
	test->priv = env;
	return env;
}

/*
 * Wait until free_job has run for every finished job: drm_sched_fini()
 * does not free jobs still on the pending list.
 */
static void sched_test_wait_freed(struct kunit *test, struct sched_test *env)
{
	unsigned long timeout = jiffies + 10 * HZ;
	bool empty;

	for (;;) {
		spin_lock(&env->sched.job_list_lock);
		empty = list_empty(&env->sched.pending_list);
		spin_unlock(&env->sched.job_list_lock);
		if (empty || time_after(jiffies, timeout))
			break;
		usleep_range(1000, 2000);
	}
	KUNIT_EXPECT_TRUE(test, empty);
}

static void sched_test_exit(struct kunit *test)
{
	struct sched_test *env = test->priv;
	int i;

	if (!env)
		return;
	for (i = 0; i < env->num_jobs; i++)
		dma_fence_put(env->done[i]);
	drm_sched_wqueue_start(&env->sched);
	for (i = 0; i < env->num_entities; i++)
		drm_sched_entity_destroy(&env->entities[i]);
	sched_test_wait_freed(test, env);
	drm_sched_fini(&env->sched);
}

static struct drm_sched_entity *
sched_test_entity(struct kunit *test, enum drm_sched_priority priority)
{
	struct sched_test *env = test->priv;
	struct drm_sched_entity *entity;

	KUNIT_ASSERT_LT(test, env->num_entities, TEST_MAX_ENTITIES);
	entity = &env->entities[env->num_entities];
	KUNIT_ASSERT_EQ(test, drm_sched_entity_init(entity, priority,
						    env->sched_list, 1, NULL),
			0);
	env->num_entities++;
	return entity;
}

static void sched_test_push(struct kunit *test,
			    struct drm_sched_entity *entity, int tag)
{
	struct sched_test *env = test->priv;
	struct sched_test_job *job;
	int ret;

	KUNIT_ASSERT_LT(test, env->num_jobs, TEST_MAX_JOBS);
	job = kzalloc(sizeof(*job), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, job);
	job->env = env;
	job->tag = tag;
	ret = drm_sched_job_init(&job->base, entity, 1, NULL, 1);
	if (ret)
		kfree(job);
	KUNIT_ASSERT_EQ(test, ret, 0);
	drm_sched_job_arm(&job->base);
	env->done[env->num_jobs++] = dma_fence_get(&job->base.s_fence->finished);
	drm_sched_entity_push_job(&job->base);
	/* Only the FIFO policy sorts the entities of a run queue in a tree. */
	env->fifo = !RB_EMPTY_NODE(&entity->rb_tree_node);
}

/* Start submission, wait for every job and check the order they ran in. */
static void sched_test_run(struct kunit *test, const int *order, int count)
{
	struct sched_test *env = test->priv;
	int i;

	drm_sched_wqueue_start(&env->sched);
	for (i = 0; i < env->num_jobs; i++)
		KUNIT_ASSERT_GT(test, dma_fence_wait_timeout(env->done[i], false,
							     10 * HZ), 0);
	KUNIT_ASSERT_EQ(test, atomic_read(&env->num_ran), count);
	for (i = 0; i < count; i++)
		KUNIT_EXPECT_EQ_MSG(test, env->ran[i], order[i], "job %d", i);
	sched_test_wait_freed(test, env);
	drm_sched_wqueue_stop(&env->sched);
}

struct sched_gpuprio_case {
	const char *name;
	u16 gpuprio;
	enum drm_sched_priority expected;
};

static const struct sched_gpuprio_case sched_gpuprio_cases[] = {
	{ "realtime 0", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0),
	  DRM_SCHED_PRIORITY_HIGH },
	{ "realtime 7", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 7),
	  DRM_SCHED_PRIORITY_HIGH },
	{ "nice -20", GPUPRIO_BE_NICE(-20), DRM_SCHED_PRIORITY_HIGH },
	{ "nice -1", GPUPRIO_BE_NICE(-1), DRM_SCHED_PRIORITY_HIGH },
	{ "nice 0", GPUPRIO_BE_NICE(0), DRM_SCHED_PRIORITY_NORMAL },
	{ "nice 1", GPUPRIO_BE_NICE(1), DRM_SCHED_PRIORITY_LOW },
	{ "nice 19", GPUPRIO_BE_NICE(19), DRM_SCHED_PRIORITY_LOW },
	{ "idle", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0),
	  DRM_SCHED_PRIORITY_LOW },
};

static void sched_gpuprio_case_desc(const struct sched_gpuprio_case *c,
				    char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sched_gpuprio, sched_gpuprio_cases, sched_gpuprio_case_desc);

static void sched_gpuprio_test_mapping(struct kunit *test)
{
	const struct sched_gpuprio_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, drm_sched_gpuprio_to_priority(c->gpuprio),
			c->expected);
}

#ifdef CONFIG_GPUPRIO
static void sched_test_set_gpuprio(u16 prio)
{
	WRITE_ONCE(current->gpuprio, prio);
}
#else
static void sched_test_set_gpuprio(u16 prio)
{
}
#endif

/* An unset GPU priority follows the CPU nice; a set one does not. */
static void sched_gpuprio_test_task(struct kunit *test)
{
	u16 saved_prio = task_gpuprio_raw(current);
	long saved_nice = task_nice(current);

	sched_test_set_gpuprio(GPUPRIO_DEFAULT);
	set_user_nice(current, 5);
	/* Off means stock: without CONFIG_GPUPRIO nothing follows the task. */
	KUNIT_EXPECT_EQ(test, drm_sched_task_priority(current),
			IS_ENABLED(CONFIG_GPUPRIO) ? DRM_SCHED_PRIORITY_LOW :
			DRM_SCHED_PRIORITY_NORMAL);
	set_user_nice(current, 0);
	KUNIT_EXPECT_EQ(test, drm_sched_task_priority(current),
			DRM_SCHED_PRIORITY_NORMAL);
	/* A CPU boost alone never reaches HIGH. */
	set_user_nice(current, -10);
	KUNIT_EXPECT_EQ(test, drm_sched_task_priority(current),
			DRM_SCHED_PRIORITY_NORMAL);
	if (IS_ENABLED(CONFIG_GPUPRIO)) {
		sched_test_set_gpuprio(GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE,
							  0));
		KUNIT_EXPECT_EQ(test, drm_sched_task_priority(current),
				DRM_SCHED_PRIORITY_LOW);
	}
	sched_test_set_gpuprio(saved_prio);
	set_user_nice(current, saved_nice);
}

/* The premise of the others: run queues are served strictly in order. */
static void sched_gpuprio_test_order(struct kunit *test)
{
	static const int order[] = { 1, 1, 2, 2, 3, 3 };
	struct drm_sched_entity *high, *normal, *low;

	sched_test_init(test, DRM_SCHED_PRIORITY_COUNT);
	low = sched_test_entity(test, DRM_SCHED_PRIORITY_LOW);
	normal = sched_test_entity(test, DRM_SCHED_PRIORITY_NORMAL);
	high = sched_test_entity(test, DRM_SCHED_PRIORITY_HIGH);
	sched_test_push(test, low, 3);
	sched_test_push(test, normal, 2);
	sched_test_push(test, high, 1);
	sched_test_push(test, low, 3);
	sched_test_push(test, normal, 2);
	sched_test_push(test, high, 1);
	sched_test_run(test, order, ARRAY_SIZE(order));
}

/* A single-scheduler entity, which never picks a run queue again itself. */
static void sched_gpuprio_test_refresh_idle(struct kunit *test)
{
	const enum drm_sched_priority high = DRM_SCHED_PRIORITY_HIGH;
	static const int order[] = { 1, 2 };
	struct drm_sched_entity *task, *other;
	struct sched_test *env;

	env = sched_test_init(test, DRM_SCHED_PRIORITY_COUNT);
	task = sched_test_entity(test, DRM_SCHED_PRIORITY_LOW);
	other = sched_test_entity(test, DRM_SCHED_PRIORITY_NORMAL);

	KUNIT_EXPECT_TRUE(test, drm_sched_entity_refresh_priority(task, high));
	KUNIT_EXPECT_FALSE(test, drm_sched_entity_refresh_priority(task, high));
	KUNIT_EXPECT_PTR_EQ(test, task->rq,
			    env->sched.sched_rq[DRM_SCHED_PRIORITY_HIGH]);
	/* Without a job it is on no run queue, as before the move. */
	KUNIT_EXPECT_TRUE(test, list_empty(&task->list));
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_NODE(&task->rb_tree_node));

	sched_test_push(test, other, 2);
	sched_test_push(test, task, 1);
	sched_test_run(test, order, ARRAY_SIZE(order));
}

/* Whether the scheduler can find @entity's jobs on @rq. */
static void sched_test_expect_on_rq(struct kunit *test,
				    struct drm_sched_entity *entity,
				    struct drm_sched_rq *rq)
{
	struct sched_test *env = test->priv;

	KUNIT_EXPECT_PTR_EQ(test, entity->rq, rq);
	KUNIT_EXPECT_FALSE(test, list_empty(&entity->list));
	if (!env->fifo)
		return;
	KUNIT_EXPECT_FALSE(test, RB_EMPTY_NODE(&entity->rb_tree_node));
	KUNIT_EXPECT_PTR_EQ(test, rb_first_cached(&rq->rb_tree_root),
			    &entity->rb_tree_node);
}

/*
 * A busy entity lowered, as a GPU hog that always has jobs queued: its next
 * job already comes from the lower run queue, after the other entity's, and
 * its own jobs keep their order.
 */
static void sched_gpuprio_test_refresh_busy(struct kunit *test)
{
	const enum drm_sched_priority low = DRM_SCHED_PRIORITY_LOW;
	static const int order[] = { 1, 2, 3, 4 };
	struct drm_sched_entity *hog, *other;
	struct sched_test *env;

	env = sched_test_init(test, DRM_SCHED_PRIORITY_COUNT);
	hog = sched_test_entity(test, DRM_SCHED_PRIORITY_HIGH);
	other = sched_test_entity(test, DRM_SCHED_PRIORITY_NORMAL);

	sched_test_push(test, hog, 2);
	sched_test_push(test, hog, 3);
	sched_test_push(test, other, 1);
	KUNIT_EXPECT_TRUE(test, drm_sched_entity_refresh_priority(hog, low));
	sched_test_expect_on_rq(test, hog, env->sched.sched_rq[low]);
	KUNIT_EXPECT_TRUE(test, list_empty(&env->sched.sched_rq
					   [DRM_SCHED_PRIORITY_HIGH]->entities));
	sched_test_push(test, hog, 4);
	sched_test_run(test, order, ARRAY_SIZE(order));
}

/* And a busy entity raised goes before the entity it queued behind. */
static void sched_gpuprio_test_refresh_busy_raise(struct kunit *test)
{
	const enum drm_sched_priority high = DRM_SCHED_PRIORITY_HIGH;
	static const int order[] = { 1, 2, 3 };
	struct drm_sched_entity *task, *other;
	struct sched_test *env;

	env = sched_test_init(test, DRM_SCHED_PRIORITY_COUNT);
	task = sched_test_entity(test, DRM_SCHED_PRIORITY_LOW);
	other = sched_test_entity(test, DRM_SCHED_PRIORITY_NORMAL);

	sched_test_push(test, other, 3);
	sched_test_push(test, task, 1);
	sched_test_push(test, task, 2);
	KUNIT_EXPECT_TRUE(test, drm_sched_entity_refresh_priority(task, high));
	sched_test_expect_on_rq(test, task, env->sched.sched_rq[high]);
	sched_test_run(test, order, ARRAY_SIZE(order));
}

/*
 * A busy entity moved keeps the age of its oldest job in its new run
 * queue's FIFO order: it was waiting before the entity already there.
 */
static void sched_gpuprio_test_refresh_busy_fifo(struct kunit *test)
{
	const enum drm_sched_priority normal = DRM_SCHED_PRIORITY_NORMAL;
	static const int order[] = { 1, 2, 3 };
	struct drm_sched_entity *task, *other;
	struct sched_test *env;

	env = sched_test_init(test, DRM_SCHED_PRIORITY_COUNT);
	task = sched_test_entity(test, DRM_SCHED_PRIORITY_HIGH);
	other = sched_test_entity(test, normal);

	sched_test_push(test, task, 1);
	sched_test_push(test, task, 2);
	/* KUnit may run before a fine clocksource: tell the times apart. */
	msleep(20);
	sched_test_push(test, other, 3);
	if (!env->fifo)
		kunit_skip(test, "drm_sched runs its run queues round-robin");
	KUNIT_EXPECT_TRUE(test, drm_sched_entity_refresh_priority(task, normal));
	sched_test_expect_on_rq(test, task, env->sched.sched_rq[normal]);
	sched_test_run(test, order, ARRAY_SIZE(order));
}

/* Fewer run queues than priorities: the lowest one that exists. */
static void sched_gpuprio_test_clamp(struct kunit *test)
{
	const enum drm_sched_priority low = DRM_SCHED_PRIORITY_LOW;
	static const int order[] = { 1 };
	struct drm_sched_entity *entity;
	struct sched_test *env;

	env = sched_test_init(test, 1);
	entity = sched_test_entity(test, DRM_SCHED_PRIORITY_KERNEL);

	KUNIT_EXPECT_FALSE(test, drm_sched_entity_refresh_priority(entity, low));
	KUNIT_EXPECT_EQ(test, entity->priority, DRM_SCHED_PRIORITY_KERNEL);
	KUNIT_EXPECT_PTR_EQ(test, entity->rq, env->sched.sched_rq[0]);
	sched_test_push(test, entity, 1);
	sched_test_run(test, order, ARRAY_SIZE(order));
}

static void sched_gpuprio_test_clamp_two(struct kunit *test)
{
	const enum drm_sched_priority low = DRM_SCHED_PRIORITY_LOW;
	struct drm_sched_entity *entity;
	struct sched_test *env;

	env = sched_test_init(test, 2);
	entity = sched_test_entity(test, DRM_SCHED_PRIORITY_KERNEL);

	KUNIT_EXPECT_TRUE(test, drm_sched_entity_refresh_priority(entity, low));
	KUNIT_EXPECT_EQ(test, entity->priority, DRM_SCHED_PRIORITY_HIGH);
	KUNIT_EXPECT_PTR_EQ(test, entity->rq,
			    env->sched.sched_rq[DRM_SCHED_PRIORITY_HIGH]);
}

static struct kunit_case sched_gpuprio_tests[] = {
	KUNIT_CASE_PARAM(sched_gpuprio_test_mapping,
			 sched_gpuprio_gen_params),
	KUNIT_CASE(sched_gpuprio_test_task),
	KUNIT_CASE(sched_gpuprio_test_order),
	KUNIT_CASE(sched_gpuprio_test_refresh_idle),
	KUNIT_CASE(sched_gpuprio_test_refresh_busy),
	KUNIT_CASE(sched_gpuprio_test_refresh_busy_raise),
	KUNIT_CASE(sched_gpuprio_test_refresh_busy_fifo),
	KUNIT_CASE(sched_gpuprio_test_clamp),
	KUNIT_CASE(sched_gpuprio_test_clamp_two),
	{}
};

static struct kunit_suite sched_gpuprio_suite = {
	.name = "drm_sched_gpuprio",
	.exit = sched_test_exit,
	.test_cases = sched_gpuprio_tests,
};

kunit_test_suite(sched_gpuprio_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests of the drm_sched task priority helpers");
MODULE_LICENSE("Dual MIT/GPL");
