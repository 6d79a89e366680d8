// SPDX-License-Identifier: MIT
/*
 * KUnit tests of the drm_sched task priority helpers, on a real scheduler
 * whose run_job only records which job ran: no GPU is needed. Jobs are
 * queued while the scheduler's submission is stopped, so that the order
 * they run in once it starts shows which run queue each entity was on.
 * Other cases run a scheduler as a driver does instead: one job on the
 * engine at a time, ending on a timer or when the case says so.
 */

#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/gpuprio.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

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
static void sched_test_wait_freed(struct kunit *test,
				  struct drm_gpu_scheduler *sched)
{
	unsigned long timeout = jiffies + 10 * HZ;
	bool empty;

	for (;;) {
		spin_lock(&sched->job_list_lock);
		empty = list_empty(&sched->pending_list);
		spin_unlock(&sched->job_list_lock);
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
	sched_test_wait_freed(test, &env->sched);
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
	sched_test_wait_freed(test, &env->sched);
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

/* An unset GPU priority follows the CPU nice; a set one does not. */
static void sched_gpuprio_test_task(struct kunit *test)
{
	u16 saved_prio = task_gpuprio_raw(current);
	long saved_nice = task_nice(current);

	gpuprio_test_set_raw(current, GPUPRIO_DEFAULT);
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
		gpuprio_test_set_raw(current,
				     GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0));
		KUNIT_EXPECT_EQ(test, drm_sched_task_priority(current),
				DRM_SCHED_PRIORITY_LOW);
	}
	gpuprio_test_set_raw(current, saved_prio);
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

/*
 * A busy entity moved up wakes the scheduler. The state a lost wakeup
 * leaves is made here: submission on, the worker not queued (as after a
 * look at the run queues that missed the entity while it moved between
 * them) and a job queued. Only the move can get the job run.
 */
static void sched_gpuprio_test_refresh_busy_wakeup(struct kunit *test)
{
	const enum drm_sched_priority high = DRM_SCHED_PRIORITY_HIGH;
	struct drm_sched_entity *task;
	struct sched_test *env;

	env = sched_test_init(test, DRM_SCHED_PRIORITY_COUNT);
	task = sched_test_entity(test, DRM_SCHED_PRIORITY_LOW);

	sched_test_push(test, task, 1);
	/* What drm_sched_wqueue_start() does, without queueing the worker. */
	WRITE_ONCE(env->sched.pause_submit, false);
	KUNIT_ASSERT_EQ_MSG(test, dma_fence_wait_timeout(env->done[0], false,
							 HZ / 10), 0,
			    "the job ran with no wakeup: the state is not made");
	KUNIT_EXPECT_TRUE(test, drm_sched_entity_refresh_priority(task, high));
	KUNIT_EXPECT_GT_MSG(test, dma_fence_wait_timeout(env->done[0], false,
							 10 * HZ), 0,
			    "the moved entity's job did not run");
	KUNIT_EXPECT_EQ(test, atomic_read(&env->num_ran), 1);
	sched_test_wait_freed(test, &env->sched);
}

/*
 * The stress case: a scheduler that runs, one job on the engine at a time,
 * each ending on an hrtimer, and a thread that moves the entity whose jobs
 * these are between LOW and HIGH while they are pushed, as a task raised
 * and lowered again and again. No other entity wakes the scheduler.
 */
#define STRESS_JOBS		3000
/* Jobs pushed ahead of the oldest one not finished: the entity is busy. */
#define STRESS_AHEAD		4
#define STRESS_JOB_NS		(20 * NSEC_PER_USEC)
/* Far more than a job waits behind STRESS_AHEAD others, even under TCG. */
#define STRESS_TIMEOUT		(5 * HZ)

struct sched_stress {
	struct drm_gpu_scheduler sched;
	struct drm_gpu_scheduler *sched_list[1];
	struct drm_sched_entity entity;
	/* The submission lock: arm and push, and the mover's refresh. */
	struct mutex lock;
	/* Protects running; taken in the timer's hard irq. */
	spinlock_t engine_lock;
	/* The hardware fences' lock. */
	spinlock_t fence_lock;
	u64 fence_context;
	u64 fence_seqno;
	/* The job on the engine (the credit limit is 1): its fence. */
	struct dma_fence *running;
	struct hrtimer timer;
	struct dma_fence **done;
	/* Moves of the entity while it had jobs queued. */
	unsigned long busy_moves;
	/* How long each job takes on the engine; 0 for STRESS_JOB_NS. */
	u64 job_ns;
	/* Jobs end only by sched_stress_end_job(), not on the timer. */
	bool manual;
};

struct sched_stress_job {
	struct drm_sched_job base;
	struct sched_stress *env;
	/* Allocated at submission, initialised by run_job. */
	struct dma_fence *hw_fence;
	bool hw_fence_live;
	/* If not NULL, where run_job writes when the job started. */
	ktime_t *started;
};

static const char *sched_stress_fence_name(struct dma_fence *fence)
{
	return "gpuprio-stress";
}

static const struct dma_fence_ops sched_stress_fence_ops = {
	.get_driver_name = sched_stress_fence_name,
	.get_timeline_name = sched_stress_fence_name,
};

static enum hrtimer_restart sched_stress_timer(struct hrtimer *timer)
{
	struct sched_stress *env = container_of(timer, struct sched_stress,
						timer);
	struct dma_fence *fence;
	unsigned long flags;

	spin_lock_irqsave(&env->engine_lock, flags);
	fence = env->running;
	env->running = NULL;
	spin_unlock_irqrestore(&env->engine_lock, flags);
	if (fence) {
		dma_fence_signal(fence);
		dma_fence_put(fence);
	}
	return HRTIMER_NORESTART;
}

static struct dma_fence *sched_stress_run_job(struct drm_sched_job *sched_job)
{
	struct sched_stress_job *job =
		container_of(sched_job, struct sched_stress_job, base);
	struct sched_stress *env = job->env;
	unsigned long flags;
	bool manual;

	spin_lock_irqsave(&env->engine_lock, flags);
	dma_fence_init(job->hw_fence, &sched_stress_fence_ops,
		       &env->fence_lock, env->fence_context,
		       ++env->fence_seqno);
	job->hw_fence_live = true;
	WARN_ON(env->running);
	/* The engine's reference; the scheduler takes the one returned. */
	env->running = dma_fence_get(job->hw_fence);
	manual = env->manual;
	spin_unlock_irqrestore(&env->engine_lock, flags);
	if (job->started)
		*job->started = ktime_get();
	if (!manual)
		hrtimer_start(&env->timer,
			      ns_to_ktime(env->job_ns ?: STRESS_JOB_NS),
			      HRTIMER_MODE_REL);
	return job->hw_fence;
}

/* End the job on the engine now, as its timer would. */
static void sched_stress_end_job(struct sched_stress *env)
{
	sched_stress_timer(&env->timer);
}

/* Jobs end on their timer again, the one on the engine now. */
static void sched_stress_run_free(struct sched_stress *env)
{
	unsigned long flags;

	spin_lock_irqsave(&env->engine_lock, flags);
	env->manual = false;
	spin_unlock_irqrestore(&env->engine_lock, flags);
	sched_stress_end_job(env);
}

static void sched_stress_free_job(struct drm_sched_job *sched_job)
{
	struct sched_stress_job *job =
		container_of(sched_job, struct sched_stress_job, base);

	drm_sched_job_cleanup(sched_job);
	/* A run fence is freed with its last reference, not the job. */
	if (!job->hw_fence_live)
		kfree(job->hw_fence);
	kfree(job);
}

static const struct drm_sched_backend_ops sched_stress_ops = {
	.run_job = sched_stress_run_job,
	.timedout_job = sched_test_timedout_job,
	.free_job = sched_stress_free_job,
};

/*
 * A job for @entity, its finished fence in done[@i], that depends on
 * @dependency if not NULL (whose reference it takes).
 */
static int sched_stress_push_dep(struct sched_stress *env,
				 struct drm_sched_entity *entity, int i,
				 ktime_t *started, struct dma_fence *dependency)
{
	struct sched_stress_job *job;
	int ret;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job) {
		dma_fence_put(dependency);
		return -ENOMEM;
	}
	job->env = env;
	job->started = started;
	job->hw_fence = kzalloc(sizeof(*job->hw_fence), GFP_KERNEL);
	if (!job->hw_fence) {
		dma_fence_put(dependency);
		kfree(job);
		return -ENOMEM;
	}
	ret = drm_sched_job_init(&job->base, entity, 1, NULL, 1);
	if (ret) {
		dma_fence_put(dependency);
		kfree(job->hw_fence);
		kfree(job);
		return ret;
	}
	/* Which takes the reference, even on error; nothing if NULL. */
	ret = drm_sched_job_add_dependency(&job->base, dependency);
	if (ret) {
		drm_sched_job_cleanup(&job->base);
		kfree(job->hw_fence);
		kfree(job);
		return ret;
	}
	mutex_lock(&env->lock);
	drm_sched_job_arm(&job->base);
	env->done[i] = dma_fence_get(&job->base.s_fence->finished);
	drm_sched_entity_push_job(&job->base);
	mutex_unlock(&env->lock);
	return 0;
}

static int sched_stress_push_to(struct sched_stress *env,
				struct drm_sched_entity *entity, int i,
				ktime_t *started)
{
	return sched_stress_push_dep(env, entity, i, started, NULL);
}

static int sched_stress_push(struct sched_stress *env, int i)
{
	return sched_stress_push_to(env, &env->entity, i, NULL);
}

/* The mover: raise, lower, raise... until stopped. */
static int sched_stress_mover(void *data)
{
	struct sched_stress *env = data;
	enum drm_sched_priority priority = DRM_SCHED_PRIORITY_HIGH;
	bool busy;

	while (!kthread_should_stop()) {
		mutex_lock(&env->lock);
		busy = spsc_queue_count(&env->entity.job_queue);
		if (drm_sched_entity_refresh_priority(&env->entity, priority) &&
		    busy)
			env->busy_moves++;
		mutex_unlock(&env->lock);
		priority = priority == DRM_SCHED_PRIORITY_HIGH ?
			DRM_SCHED_PRIORITY_LOW : DRM_SCHED_PRIORITY_HIGH;
		cond_resched();
	}
	return 0;
}

/* The stress engine's scheduler, running, with room for @jobs fences. */
static struct sched_stress *sched_stress_new(struct kunit *test, int jobs,
					     const char *name)
{
	struct drm_sched_init_args args = {
		.ops = &sched_stress_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = 1,
		.timeout = MAX_SCHEDULE_TIMEOUT,
		.name = name,
	};
	struct sched_stress *env;

	env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, env);
	env->done = kunit_kcalloc(test, jobs, sizeof(*env->done), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, env->done);
	mutex_init(&env->lock);
	spin_lock_init(&env->engine_lock);
	spin_lock_init(&env->fence_lock);
	env->fence_context = dma_fence_context_alloc(1);
	hrtimer_init(&env->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	env->timer.function = sched_stress_timer;
	args.dev = kunit_device_register(test, name);
	KUNIT_ASSERT_FALSE(test, IS_ERR(args.dev));
	KUNIT_ASSERT_EQ(test, drm_sched_init(&env->sched, &args), 0);
	env->sched_list[0] = &env->sched;
	return env;
}

/*
 * Once its entities are destroyed: the scheduler after every job was freed,
 * the engine, and the fences of the @pushed jobs.
 */
static void sched_stress_free(struct kunit *test, struct sched_stress *env,
			      int pushed)
{
	int i;

	sched_test_wait_freed(test, &env->sched);
	drm_sched_fini(&env->sched);
	hrtimer_cancel(&env->timer);
	for (i = 0; i < pushed; i++)
		dma_fence_put(env->done[i]);
	mutex_destroy(&env->lock);
}

static void sched_gpuprio_test_refresh_busy_stress(struct kunit *test)
{
	int pushed = 0, signalled = 0, late = -1, err = 0, i;
	struct task_struct *mover;
	struct sched_stress *env;

	env = sched_stress_new(test, STRESS_JOBS, "drm-sched-gpuprio-stress");
	if (drm_sched_entity_init(&env->entity, DRM_SCHED_PRIORITY_LOW,
				  env->sched_list, 1, NULL)) {
		drm_sched_fini(&env->sched);
		KUNIT_FAIL_AND_ABORT(test, "drm_sched_entity_init failed");
	}

	mover = kthread_run(sched_stress_mover, env, "gpuprio-mover");
	KUNIT_EXPECT_FALSE(test, IS_ERR(mover));
	if (IS_ERR(mover))
		mover = NULL;

	for (i = 0; mover && i < STRESS_JOBS; i++) {
		if (i >= STRESS_AHEAD &&
		    dma_fence_wait_timeout(env->done[i - STRESS_AHEAD], false,
					   STRESS_TIMEOUT) <= 0) {
			late = i - STRESS_AHEAD;
			break;
		}
		err = sched_stress_push(env, i);
		if (err)
			break;
		pushed++;
	}
	if (mover)
		kthread_stop(mover);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ_MSG(test, late, -1,
			    "job %d of %d not done %d s after the one before",
			    late, pushed, STRESS_TIMEOUT / HZ);
	KUNIT_EXPECT_EQ(test, pushed, STRESS_JOBS);
	/* The mover really moved the entity with its jobs queued. */
	KUNIT_EXPECT_GT(test, env->busy_moves, STRESS_JOBS / 10);
	kunit_info(test, "%d jobs, %lu moves with jobs queued\n", pushed,
		   env->busy_moves);

	for (i = 0; i < pushed; i++) {
		/*
		 * A lost wakeup leaves the rest queued: wake the worker, so
		 * that they run and the case ends.
		 */
		if (late >= 0)
			drm_sched_wakeup(&env->sched);
		if (dma_fence_wait_timeout(env->done[i], false,
					   STRESS_TIMEOUT) > 0 &&
		    !env->done[i]->error)
			signalled++;
		else if (late < 0)
			late = i;
	}
	KUNIT_EXPECT_EQ_MSG(test, signalled, pushed, "first late job: %d",
			    late);

	drm_sched_entity_destroy(&env->entity);
	sched_stress_free(test, env, pushed);
}

/*
 * Starvation: the same engine, jobs of 1 ms, a busy NORMAL entity with
 * jobs for four times DRM_SCHED_STARVE_MS and a LOW one with jobs queued
 * beside it. The run queues are served in order of priority, but the LOW
 * one must get a job at least every DRM_SCHED_STARVE_MS while NORMAL is
 * busy (memory management and close() wait on its fences), and wait about
 * that long before its first: measured in real time, with half the bound
 * as slack for the scheduler's work and the clock tick.
 */
#define STARVE_BUSY_JOBS	(4 * DRM_SCHED_STARVE_MS)
#define STARVE_LOWER_JOBS	20

static void sched_gpuprio_test_starvation(struct kunit *test)
{
	const int total = STARVE_BUSY_JOBS + STARVE_LOWER_JOBS;
	const s64 slack = DRM_SCHED_STARVE_MS / 2;
	s64 wait, longest = 0, first = -1;
	struct drm_sched_entity *lower;
	struct sched_stress *env;
	ktime_t *started, start, prev, end;
	int i, err = 0, ran = 0, pushed = 0;
	bool done = true;

	started = kunit_kcalloc(test, STARVE_LOWER_JOBS, sizeof(*started),
				GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, started);
	lower = kunit_kzalloc(test, sizeof(*lower), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lower);
	env = sched_stress_new(test, total, "drm-sched-gpuprio-starve");
	env->job_ns = NSEC_PER_MSEC;
	if (drm_sched_entity_init(&env->entity, DRM_SCHED_PRIORITY_NORMAL,
				  env->sched_list, 1, NULL) ||
	    drm_sched_entity_init(lower, DRM_SCHED_PRIORITY_LOW,
				  env->sched_list, 1, NULL)) {
		drm_sched_fini(&env->sched);
		KUNIT_FAIL_AND_ABORT(test, "drm_sched_entity_init failed");
	}

	drm_sched_wqueue_stop(&env->sched);
	for (i = 0; i < total && !err; i++, pushed++)
		err = i < STARVE_BUSY_JOBS ?
		      sched_stress_push(env, i) :
		      sched_stress_push_to(env, lower, i,
					   &started[i - STARVE_BUSY_JOBS]);
	start = ktime_get();
	drm_sched_wqueue_start(&env->sched);
	KUNIT_EXPECT_EQ(test, err, 0);

	for (i = 0; i < pushed; i++)
		done &= dma_fence_wait_timeout(env->done[i], false,
					       60 * HZ) > 0;
	KUNIT_EXPECT_TRUE(test, done);

	drm_sched_entity_destroy(lower);
	drm_sched_entity_destroy(&env->entity);
	end = done && pushed == total ?
	      env->done[STARVE_BUSY_JOBS - 1]->timestamp : 0;
	sched_stress_free(test, env, pushed);
	KUNIT_ASSERT_TRUE(test, done && pushed == total);

	/* The LOW entity's waits while NORMAL had jobs left. */
	prev = start;
	for (i = 0; i < STARVE_LOWER_JOBS; i++) {
		if (ktime_after(started[i], end))
			break;
		wait = ktime_ms_delta(started[i], prev);
		if (first < 0)
			first = wait;
		longest = max(longest, wait);
		prev = ktime_add_ns(started[i], env->job_ns);
		ran++;
	}
	longest = max(longest, ktime_ms_delta(end, prev));
	kunit_info(test, "NORMAL ran %lld ms, LOW %d jobs meanwhile, the first after %lld ms, waiting at most %lld ms\n",
		   ktime_ms_delta(end, start), ran, first, longest);

	KUNIT_EXPECT_LE(test, longest, DRM_SCHED_STARVE_MS + slack);
	KUNIT_EXPECT_GE(test, first, DRM_SCHED_STARVE_MS - slack);
	KUNIT_EXPECT_GE(test, ran,
			div_s64(ktime_ms_delta(end, start),
				DRM_SCHED_STARVE_MS + slack));
}

/*
 * Priority that follows dependencies, on the same engine with jobs that end
 * when the case says so (one credit), so that the order the engine gets
 * them in is exact: which of @busy (from *@ran on, @count of them) and @job
 * it was handed next; NULL if none within a second. The fences are the
 * jobs' scheduled fences.
 */
static struct dma_fence *sched_stress_next(struct dma_fence **busy,
					   unsigned int count,
					   unsigned int *ran,
					   struct dma_fence *job)
{
	unsigned long end = jiffies + HZ;

	do {
		if (job && dma_fence_is_signaled(job))
			return job;
		if (*ran < count && dma_fence_is_signaled(busy[*ran]))
			return busy[(*ran)++];
		usleep_range(100, 200);
	} while (time_before(jiffies, end));

	return NULL;
}

/* The scheduled fence of the job of done[@i]: done[@i] holds it. */
static struct dma_fence *sched_stress_scheduled(struct sched_stress *env,
						int i)
{
	return &to_drm_sched_fence(env->done[i])->scheduled;
}

/* The run queue @entity is on. */
static struct drm_sched_rq *sched_test_rq_of(struct drm_sched_entity *entity)
{
	struct drm_sched_rq *rq;

	spin_lock(&entity->lock);
	rq = entity->rq;
	spin_unlock(&entity->lock);
	return rq;
}

/* The priority lent to @entity, DRM_SCHED_PRIORITY_COUNT if none. */
static enum drm_sched_priority
sched_test_lent(struct drm_sched_entity *entity)
{
	enum drm_sched_priority lent;

	spin_lock(&entity->lock);
	lent = entity->boost_priority;
	spin_unlock(&entity->lock);
	return lent;
}

/*
 * Once the case is done with the order: the rest of the @pushed jobs run on
 * their timers, then the entities and the engine go.
 */
static void sched_stress_finish(struct kunit *test, struct sched_stress *env,
				struct drm_sched_entity **entities,
				int num_entities, int pushed)
{
	bool done = true;
	int i;

	sched_stress_run_free(env);
	for (i = 0; i < pushed; i++)
		done &= dma_fence_wait_timeout(env->done[i], false,
					       10 * HZ) > 0;
	KUNIT_EXPECT_TRUE(test, done);
	for (i = 0; i < num_entities; i++)
		drm_sched_entity_destroy(entities[i]);
	sched_stress_free(test, env, pushed);
}

struct sched_gpuprio_boost_case {
	const char *name;
	enum drm_sched_priority busy;
	enum drm_sched_priority waiter;
	/* the most jobs of the busy entity that may run before the producer's */
	unsigned int max_before;
	/* the fewest that must */
	unsigned int min_before;
};

static const struct sched_gpuprio_boost_case sched_gpuprio_boost_cases[] = {
	{ "normal-waits-for-low", DRM_SCHED_PRIORITY_NORMAL,
	  DRM_SCHED_PRIORITY_NORMAL, 1, 0 },
	{ "high-waits-for-low", DRM_SCHED_PRIORITY_NORMAL,
	  DRM_SCHED_PRIORITY_HIGH, 0, 0 },
	{ "kernel-waits-for-low", DRM_SCHED_PRIORITY_NORMAL,
	  DRM_SCHED_PRIORITY_KERNEL, 1, 0 },
	{ "kernel-lends-no-more-than-normal", DRM_SCHED_PRIORITY_HIGH,
	  DRM_SCHED_PRIORITY_KERNEL, UINT_MAX, 2 },
};

static void sched_gpuprio_boost_desc(const struct sched_gpuprio_boost_case *c,
				     char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sched_gpuprio_boost, sched_gpuprio_boost_cases,
		  sched_gpuprio_boost_desc);

#define BOOST_BUSY_JOBS	8

/*
 * A job of the waiter entity depends on a job of a LOW producer while a
 * busy entity keeps the engine busy: the producer runs at the waiter's
 * priority until its job is taken, ahead of the busy entity's queued jobs
 * when that is higher than the busy entity's (under round robin after at
 * most one turn of an entity of equal priority), then goes back to LOW: its
 * next job waits. The kernel's own work lends no more than NORMAL.
 */
static void sched_gpuprio_test_boost(struct kunit *test)
{
	const struct sched_gpuprio_boost_case *c = test->param_value;
	struct dma_fence *busy[BOOST_BUSY_JOBS], *job[3], *next;
	struct drm_sched_entity *producer, *waiter;
	struct drm_sched_entity *entities[3];
	unsigned int i, ran = 0, before;
	struct sched_stress *env;
	struct drm_sched_rq *low;
	int pushed = 0, err;

	producer = kunit_kzalloc(test, sizeof(*producer), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, producer);
	waiter = kunit_kzalloc(test, sizeof(*waiter), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, waiter);
	env = sched_stress_new(test, BOOST_BUSY_JOBS + 3,
			       "drm-sched-gpuprio-boost");
	env->manual = true;
	low = env->sched.sched_rq[DRM_SCHED_PRIORITY_LOW];
	if (drm_sched_entity_init(&env->entity, c->busy, env->sched_list, 1,
				  NULL) ||
	    drm_sched_entity_init(producer, DRM_SCHED_PRIORITY_LOW,
				  env->sched_list, 1, NULL) ||
	    drm_sched_entity_init(waiter, c->waiter, env->sched_list, 1,
				  NULL)) {
		drm_sched_fini(&env->sched);
		KUNIT_FAIL_AND_ABORT(test, "drm_sched_entity_init failed");
	}
	entities[0] = waiter;
	entities[1] = producer;
	entities[2] = &env->entity;

	drm_sched_wqueue_stop(&env->sched);
	/* done[0] and done[1] the producer's, done[2] the waiter's on done[0] */
	err = sched_stress_push_to(env, producer, pushed++, NULL);
	err = err ?: sched_stress_push_to(env, producer, pushed++, NULL);
	err = err ?: sched_stress_push_dep(env, waiter, pushed++, NULL,
					   dma_fence_get(env->done[0]));
	for (i = 0; !err && i < BOOST_BUSY_JOBS; i++)
		err = sched_stress_push(env, pushed++);
	if (err)
		pushed--;
	KUNIT_EXPECT_EQ(test, err, 0);
	drm_sched_wqueue_start(&env->sched);
	if (err) {
		sched_stress_finish(test, env, entities, 3, pushed);
		return;
	}
	job[0] = sched_stress_scheduled(env, 0);
	job[1] = sched_stress_scheduled(env, 2);
	job[2] = sched_stress_scheduled(env, 1);
	for (i = 0; i < BOOST_BUSY_JOBS; i++)
		busy[i] = sched_stress_scheduled(env, 3 + i);

	while ((next = sched_stress_next(busy, BOOST_BUSY_JOBS, &ran,
					 job[0])) && next != job[0])
		sched_stress_end_job(env);
	before = ran;
	KUNIT_EXPECT_PTR_EQ(test, next, job[0]);
	KUNIT_EXPECT_PTR_EQ(test, sched_test_rq_of(producer), low);
	kunit_info(test, "%s: %u jobs of the busy entity before the producer's\n",
		   c->name, before);
	KUNIT_EXPECT_LE(test, before, c->max_before);
	KUNIT_EXPECT_GE(test, before, c->min_before);

	/* The waiter's job next, then the producer is back at LOW. */
	sched_stress_end_job(env);
	next = sched_stress_next(busy, BOOST_BUSY_JOBS, &ran, job[1]);
	KUNIT_EXPECT_PTR_EQ(test, next, job[1]);
	if (ran < BOOST_BUSY_JOBS) {
		sched_stress_end_job(env);
		next = sched_stress_next(busy, BOOST_BUSY_JOBS, &ran, job[2]);
		KUNIT_EXPECT_PTR_NE(test, next, job[2]);
	}

	sched_stress_finish(test, env, entities, 3, pushed);
}

struct sched_gpuprio_deadline_case {
	const char *name;
	u16 waiter;			/* the waiter's GPU priority */
	bool cap_sys_nice;		/* whether the waiter has CAP_SYS_NICE */
	enum drm_sched_priority busy;	/* the busy entity's priority */
	enum drm_sched_priority lends;
	bool first;	/* the producer's job runs next */
};

static const struct sched_gpuprio_deadline_case sched_gpuprio_deadline_cases[] = {
	{ "default", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_NONE, 0), true,
	  DRM_SCHED_PRIORITY_NORMAL, DRM_SCHED_PRIORITY_NORMAL, true },
	{ "realtime", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0), true,
	  DRM_SCHED_PRIORITY_HIGH, DRM_SCHED_PRIORITY_HIGH, true },
	{ "realtime-without-cap-sys-nice",
	  GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0), false,
	  DRM_SCHED_PRIORITY_HIGH, DRM_SCHED_PRIORITY_NORMAL, false },
	{ "nice-10", GPUPRIO_BE_NICE(10), true,
	  DRM_SCHED_PRIORITY_NORMAL, DRM_SCHED_PRIORITY_LOW, false },
};

static void
sched_gpuprio_deadline_desc(const struct sched_gpuprio_deadline_case *c,
			    char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sched_gpuprio_deadline, sched_gpuprio_deadline_cases,
		  sched_gpuprio_deadline_desc);

#define DEADLINE_BUSY_JOBS	6

/* Set a deadline on @fence as a task with @c's priority and capability. */
static void
sched_gpuprio_set_deadline(struct kunit *test,
			   const struct sched_gpuprio_deadline_case *c,
			   struct dma_fence *fence)
{
	u16 saved = task_gpuprio_stored(current);
	const struct cred *old;
	struct cred *cred;

	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	if (!c->cap_sys_nice)
		cap_lower(cred->cap_effective, CAP_SYS_NICE);
	old = override_creds(cred);
	gpuprio_test_set_raw(current, c->waiter);

	dma_fence_set_deadline(fence, ktime_get());

	gpuprio_test_set_raw(current, saved);
	revert_creds(old);
	put_cred(cred);
}

/*
 * A task waiting for a job of a LOW entity sets a deadline on its finished
 * fence while a busy entity keeps the engine busy: the entity is lent the
 * task's priority until the job runs, never above NORMAL without
 * CAP_SYS_NICE. The job then runs right after the busy entity's job on the
 * engine when the lent priority is at least the busy entity's, and waits
 * for more of its jobs otherwise.
 */
static void sched_gpuprio_test_deadline(struct kunit *test)
{
	const struct sched_gpuprio_deadline_case *c = test->param_value;
	struct dma_fence *busy[DEADLINE_BUSY_JOBS], *job, *next;
	struct drm_sched_entity *entities[2];
	enum drm_sched_priority lent;
	struct drm_sched_entity *producer;
	unsigned int i, ran = 0, before;
	struct sched_stress *env;
	int pushed = 0, err;
	u16 saved;

	saved = task_gpuprio_stored(current);
	if (!gpuprio_test_set_raw(current, c->waiter))
		kunit_skip(test, "every task is at the default GPU priority");
	gpuprio_test_set_raw(current, saved);

	producer = kunit_kzalloc(test, sizeof(*producer), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, producer);
	env = sched_stress_new(test, DEADLINE_BUSY_JOBS + 1,
			       "drm-sched-gpuprio-deadline");
	env->manual = true;
	if (drm_sched_entity_init(&env->entity, c->busy, env->sched_list, 1,
				  NULL) ||
	    drm_sched_entity_init(producer, DRM_SCHED_PRIORITY_LOW,
				  env->sched_list, 1, NULL)) {
		drm_sched_fini(&env->sched);
		KUNIT_FAIL_AND_ABORT(test, "drm_sched_entity_init failed");
	}
	entities[0] = producer;
	entities[1] = &env->entity;

	drm_sched_wqueue_stop(&env->sched);
	err = sched_stress_push_to(env, producer, pushed++, NULL);
	for (i = 0; !err && i < DEADLINE_BUSY_JOBS; i++)
		err = sched_stress_push(env, pushed++);
	if (err)
		pushed--;
	KUNIT_EXPECT_EQ(test, err, 0);
	drm_sched_wqueue_start(&env->sched);
	if (err) {
		sched_stress_finish(test, env, entities, 2, pushed);
		return;
	}
	job = sched_stress_scheduled(env, 0);
	for (i = 0; i < DEADLINE_BUSY_JOBS; i++)
		busy[i] = sched_stress_scheduled(env, 1 + i);

	/* The busy entity's first job on the engine, the producer's queued. */
	next = sched_stress_next(busy, DEADLINE_BUSY_JOBS, &ran, job);
	KUNIT_EXPECT_PTR_EQ(test, next, busy[0]);

	sched_gpuprio_set_deadline(test, c, env->done[0]);
	/* The boost is the scheduler's work's to apply: let it run. */
	flush_work(&env->sched.work_run_job);
	lent = sched_test_lent(producer);
	KUNIT_EXPECT_EQ(test, lent, c->lends);
	KUNIT_EXPECT_PTR_EQ(test, sched_test_rq_of(producer),
			    env->sched.sched_rq[c->lends]);

	do {
		sched_stress_end_job(env);
		next = sched_stress_next(busy, DEADLINE_BUSY_JOBS, &ran, job);
	} while (next && next != job);
	before = ran;
	KUNIT_EXPECT_PTR_EQ(test, next, job);
	/* Back to its own priority once its job ran. */
	KUNIT_EXPECT_EQ(test, sched_test_lent(producer),
			DRM_SCHED_PRIORITY_COUNT);
	KUNIT_EXPECT_PTR_EQ(test, sched_test_rq_of(producer),
			    env->sched.sched_rq[DRM_SCHED_PRIORITY_LOW]);
	kunit_info(test, "%s: lent %d, %u busy jobs ran before\n", c->name,
		   lent, before);
	if (c->first)
		KUNIT_EXPECT_EQ(test, before, 1);
	else
		KUNIT_EXPECT_GE(test, before, 2);

	sched_stress_finish(test, env, entities, 2, pushed);
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
	KUNIT_CASE(sched_gpuprio_test_refresh_busy_wakeup),
	KUNIT_CASE(sched_gpuprio_test_refresh_busy_stress),
	KUNIT_CASE_SLOW(sched_gpuprio_test_starvation),
	KUNIT_CASE_PARAM(sched_gpuprio_test_boost,
			 sched_gpuprio_boost_gen_params),
	KUNIT_CASE_PARAM(sched_gpuprio_test_deadline,
			 sched_gpuprio_deadline_gen_params),
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
