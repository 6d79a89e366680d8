// SPDX-License-Identifier: GPL-2.0
/*
 * drm_sched_task_priority() and drm_sched_entity_refresh_priority() on the
 * mock scheduler, under whichever policy gpu_sched.sched_policy selects:
 * with FIFO and round robin a refreshed entity must be on the run queue of
 * its new priority, jobs queued or not; with FAIR it stays on the single
 * run queue and only its weight changes: the priority, and the nice that
 * drm_sched_entity_refresh_task() gives it from the task's GPU priority.
 */

#include <linux/delay.h>
#include <linux/gpuprio.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/mutex.h>

#include "sched_tests.h"
#include "../sched_internal.h"

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

struct drm_sched_gpuprio_map_case {
	const char *name;
	u16 gpuprio;
	enum drm_sched_priority expect;
};

static const struct drm_sched_gpuprio_map_case drm_sched_gpuprio_map_cases[] = {
	{ "realtime-0", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0),
	  DRM_SCHED_PRIORITY_HIGH },
	{ "nice--1", GPUPRIO_BE_NICE(-1), DRM_SCHED_PRIORITY_HIGH },
	{ "nice-0", GPUPRIO_BE_NICE(0), DRM_SCHED_PRIORITY_NORMAL },
	{ "nice-1", GPUPRIO_BE_NICE(1), DRM_SCHED_PRIORITY_LOW },
	{ "idle", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0),
	  DRM_SCHED_PRIORITY_LOW },
};

KUNIT_ARRAY_PARAM_DESC(drm_sched_gpuprio_map, drm_sched_gpuprio_map_cases,
		       name);

static void drm_sched_gpuprio_test_map(struct kunit *test)
{
	const struct drm_sched_gpuprio_map_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, drm_sched_gpuprio_to_priority(c->gpuprio),
			c->expect);
}

static bool drm_sched_gpuprio_rq_lists(struct drm_sched_rq *rq,
				       struct drm_sched_entity *entity)
{
	struct drm_sched_entity *e;
	bool found = false;

	spin_lock(&rq->lock);
	list_for_each_entry(e, &rq->entities, list)
		if (e == entity)
			found = true;
	spin_unlock(&rq->lock);

	return found;
}

/*
 * The entity is where its priority says: on the run queue of @prio, and
 * listed there only when @listed (it has jobs queued), under FIFO and round
 * robin; on the single run queue under FAIR.
 */
static void drm_sched_gpuprio_expect_rq(struct kunit *test,
					struct drm_gpu_scheduler *sched,
					struct drm_sched_entity *entity,
					enum drm_sched_priority prio,
					bool listed)
{
	enum drm_sched_priority p, expect;

	expect = sched->num_rqs == 1 ? DRM_SCHED_PRIORITY_KERNEL : prio;
	KUNIT_EXPECT_EQ(test, entity->priority, prio);
	KUNIT_EXPECT_PTR_EQ(test, entity->rq, sched->sched_rq[expect]);
	if (sched->num_rqs > 1)
		KUNIT_EXPECT_EQ(test, entity->rq_priority, prio);
	for (p = DRM_SCHED_PRIORITY_KERNEL; p < sched->num_rqs; p++)
		KUNIT_EXPECT_EQ_MSG(test,
				    drm_sched_gpuprio_rq_lists(sched->sched_rq[p],
							       entity),
				    listed && p == expect, "run queue %u", p);
}

struct drm_sched_gpuprio_refresh_case {
	const char *name;
	enum drm_sched_priority from;
	enum drm_sched_priority to;
	enum drm_sched_priority expect;
	bool busy;
};

static const struct drm_sched_gpuprio_refresh_case
drm_sched_gpuprio_refresh_cases[] = {
	{ "idle-normal-to-low", DRM_SCHED_PRIORITY_NORMAL,
	  DRM_SCHED_PRIORITY_LOW, DRM_SCHED_PRIORITY_LOW, false },
	{ "idle-normal-to-high", DRM_SCHED_PRIORITY_NORMAL,
	  DRM_SCHED_PRIORITY_HIGH, DRM_SCHED_PRIORITY_HIGH, false },
	{ "busy-normal-to-low", DRM_SCHED_PRIORITY_NORMAL,
	  DRM_SCHED_PRIORITY_LOW, DRM_SCHED_PRIORITY_LOW, true },
	{ "busy-low-to-high", DRM_SCHED_PRIORITY_LOW,
	  DRM_SCHED_PRIORITY_HIGH, DRM_SCHED_PRIORITY_HIGH, true },
	{ "busy-clamped", DRM_SCHED_PRIORITY_NORMAL,
	  DRM_SCHED_PRIORITY_COUNT, DRM_SCHED_PRIORITY_LOW, true },
};

KUNIT_ARRAY_PARAM_DESC(drm_sched_gpuprio_refresh, drm_sched_gpuprio_refresh_cases,
		       name);

/*
 * An entity with a single scheduler, idle or with two jobs queued while the
 * submission worker is stopped, is refreshed to another priority: it must
 * be on the run queue of that priority at once (FIFO, round robin), and
 * its queued jobs must then run in order.
 */
static void drm_sched_gpuprio_test_refresh(struct kunit *test)
{
	const struct drm_sched_gpuprio_refresh_case *c = test->param_value;
	struct drm_mock_sched_job *job[2];
	struct drm_mock_sched_entity *entity;
	struct drm_mock_scheduler *sched;
	unsigned int i;

	sched = drm_mock_sched_new(test, MAX_SCHEDULE_TIMEOUT);
	entity = drm_mock_sched_entity_new(test, c->from, sched);

	drm_sched_wqueue_stop(&sched->base);
	if (c->busy) {
		for (i = 0; i < ARRAY_SIZE(job); i++) {
			job[i] = drm_mock_sched_job_new(test, entity);
			drm_mock_sched_job_set_duration_us(job[i], 1);
			drm_mock_sched_job_submit(job[i]);
		}
	}

	KUNIT_EXPECT_TRUE(test,
			  drm_sched_entity_refresh_priority(&entity->base,
							    c->to));
	drm_sched_gpuprio_expect_rq(test, &sched->base, &entity->base,
				    c->expect, c->busy);
	KUNIT_EXPECT_FALSE(test,
			   drm_sched_entity_refresh_priority(&entity->base,
							     c->to));

	if (!c->busy) {
		for (i = 0; i < ARRAY_SIZE(job); i++) {
			job[i] = drm_mock_sched_job_new(test, entity);
			drm_mock_sched_job_set_duration_us(job[i], 1);
			drm_mock_sched_job_submit(job[i]);
		}
		drm_sched_gpuprio_expect_rq(test, &sched->base, &entity->base,
					    c->expect, true);
	}

	drm_sched_wqueue_start(&sched->base);
	for (i = 0; i < ARRAY_SIZE(job); i++)
		KUNIT_EXPECT_TRUE(test,
				  drm_mock_sched_job_wait_finished(job[i], HZ));
	KUNIT_EXPECT_LT(test, job[0]->finish_at, job[1]->finish_at);

	drm_mock_sched_entity_free(entity);
	drm_mock_sched_fini(sched);
}

/*
 * An entity the scheduler is running, refreshed between low and high while
 * it always has jobs queued, as a GPU hog that gpunice moves: every job
 * must run. A move that let the worker miss the entity would leave the
 * rest of its jobs queued, since a push to a busy entity wakes nobody.
 */
static void drm_sched_gpuprio_test_refresh_running(struct kunit *test)
{
	const unsigned int count = 200;
	struct drm_mock_sched_job **job;
	struct drm_mock_sched_entity *entity;
	struct drm_mock_scheduler *sched;
	unsigned int i;

	job = kunit_kcalloc(test, count, sizeof(*job), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, job);
	sched = drm_mock_sched_new(test, MAX_SCHEDULE_TIMEOUT);
	entity = drm_mock_sched_entity_new(test, DRM_SCHED_PRIORITY_NORMAL,
					   sched);

	for (i = 0; i < count; i++) {
		job[i] = drm_mock_sched_job_new(test, entity);
		drm_mock_sched_job_set_duration_us(job[i], 20);
		drm_mock_sched_job_submit(job[i]);
		drm_sched_entity_refresh_priority(&entity->base, i & 1 ?
						  DRM_SCHED_PRIORITY_LOW :
						  DRM_SCHED_PRIORITY_HIGH);
	}

	for (i = 0; i < count; i++)
		KUNIT_ASSERT_TRUE_MSG(test,
				      drm_mock_sched_job_wait_finished(job[i],
								       HZ),
				      "job %u of %u", i, count);

	drm_mock_sched_entity_free(entity);
	drm_mock_sched_fini(sched);
}

/*
 * A busy entity moved up wakes the scheduler. The state a lost wakeup
 * leaves is made here: submission on, the worker not queued (as after a
 * look at the run queues that missed the entity while it moved between
 * them) and a job queued on the entity. Only the move can get the job run.
 * Under FAIR nothing moves, so there is no such state to leave.
 */
static void drm_sched_gpuprio_test_refresh_wakeup(struct kunit *test)
{
	struct drm_mock_sched_entity *entity;
	struct drm_mock_scheduler *sched;
	struct drm_mock_sched_job *job;
	bool ran;

	if (drm_sched_policy == DRM_SCHED_POLICY_FAIR)
		kunit_skip(test, "FAIR moves no entity, so wakes nobody");

	sched = drm_mock_sched_new(test, MAX_SCHEDULE_TIMEOUT);
	entity = drm_mock_sched_entity_new(test, DRM_SCHED_PRIORITY_LOW,
					   sched);

	drm_sched_wqueue_stop(&sched->base);
	job = drm_mock_sched_job_new(test, entity);
	drm_mock_sched_job_set_duration_us(job, 1);
	drm_mock_sched_job_submit(job);
	/* What drm_sched_wqueue_start() does, without queueing the worker. */
	WRITE_ONCE(sched->base.pause_submit, false);
	ran = drm_mock_sched_job_wait_scheduled(job, HZ / 10);
	KUNIT_EXPECT_FALSE_MSG(test, ran,
			       "the job ran with no wakeup: the state is not made");
	if (!ran) {
		KUNIT_EXPECT_TRUE(test,
				  drm_sched_entity_refresh_priority(&entity->base,
								    DRM_SCHED_PRIORITY_HIGH));
		KUNIT_EXPECT_TRUE_MSG(test,
				      drm_mock_sched_job_wait_finished(job,
								       10 * HZ),
				      "the moved entity's job did not run");
	}

	/* Whatever happened, let the job run and the scheduler end. */
	drm_sched_wqueue_start(&sched->base);
	KUNIT_EXPECT_TRUE(test, drm_mock_sched_job_wait_finished(job, 10 * HZ));
	drm_mock_sched_entity_free(entity);
	drm_mock_sched_fini(sched);
}

/*
 * An entity created while the first scheduler of its list was not yet
 * initialized has no run queue until it picks a scheduler when it arms its
 * first job. A refresh in between must not be lost: the job must run at the
 * new priority, on the run queue of that priority of the scheduler picked.
 */
static void drm_sched_gpuprio_test_refresh_no_rq(struct kunit *test)
{
	struct drm_mock_sched_entity *entity;
	struct drm_gpu_scheduler **scheds;
	struct drm_mock_scheduler *sched;
	struct drm_mock_sched_job *job;
	enum drm_sched_priority expect;

	sched = drm_mock_sched_new(test, MAX_SCHEDULE_TIMEOUT);
	scheds = kunit_kcalloc(test, 2, sizeof(*scheds), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, scheds);
	/* Zeroed: no run queues yet, and not ready, so never picked. */
	scheds[0] = kunit_kzalloc(test, sizeof(*scheds[0]), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, scheds[0]);
	scheds[1] = &sched->base;
	entity = kunit_kzalloc(test, sizeof(*entity), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, entity);
	entity->test = test;
	KUNIT_ASSERT_EQ(test, drm_sched_entity_init(&entity->base,
						    DRM_SCHED_PRIORITY_NORMAL,
						    scheds, 2, NULL), 0);
	KUNIT_ASSERT_NULL(test, entity->base.rq);

	KUNIT_EXPECT_TRUE(test,
			  drm_sched_entity_refresh_priority(&entity->base,
							    DRM_SCHED_PRIORITY_HIGH));

	job = drm_mock_sched_job_new(test, entity);
	drm_mock_sched_job_set_duration_us(job, 1);
	drm_mock_sched_job_submit(job);
	KUNIT_EXPECT_TRUE(test, drm_mock_sched_job_wait_finished(job, HZ));

	expect = sched->base.num_rqs == 1 ? DRM_SCHED_PRIORITY_KERNEL :
		 DRM_SCHED_PRIORITY_HIGH;
	KUNIT_EXPECT_EQ(test, entity->base.priority, DRM_SCHED_PRIORITY_HIGH);
	KUNIT_EXPECT_PTR_EQ(test, entity->base.rq, sched->base.sched_rq[expect]);

	drm_mock_sched_entity_free(entity);
	drm_mock_sched_fini(sched);
}

/*
 * The stress case: the scheduler runs one job at a time, each ending on the
 * mock's hrtimer, and a thread moves the entity whose jobs these are between
 * LOW and HIGH while they are pushed, as a task raised and lowered again and
 * again. No other entity wakes the scheduler, and a push to an entity with
 * jobs queued wakes nobody: one lost wakeup leaves the rest queued.
 */
#define STRESS_JOBS		3000
/* Jobs pushed ahead of the oldest one not finished: the entity is busy. */
#define STRESS_AHEAD		4
#define STRESS_JOB_US		20
/* Far more than a job waits behind STRESS_AHEAD others, even under TCG. */
#define STRESS_TIMEOUT		(5 * HZ)

struct drm_sched_gpuprio_stress {
	struct drm_mock_sched_entity *entity;
	/* The submission lock: arm and push, and the mover's refresh. */
	struct mutex lock;
	/* Moves of the entity while it had jobs queued. */
	unsigned long busy_moves;
};

/* The mover: raise, lower, raise... until stopped. */
static int drm_sched_gpuprio_stress_mover(void *data)
{
	struct drm_sched_gpuprio_stress *env = data;
	struct drm_sched_entity *entity = &env->entity->base;
	enum drm_sched_priority priority = DRM_SCHED_PRIORITY_HIGH;
	bool busy;

	while (!kthread_should_stop()) {
		mutex_lock(&env->lock);
		busy = spsc_queue_count(&entity->job_queue);
		if (drm_sched_entity_refresh_priority(entity, priority) && busy)
			env->busy_moves++;
		mutex_unlock(&env->lock);
		priority = priority == DRM_SCHED_PRIORITY_HIGH ?
			   DRM_SCHED_PRIORITY_LOW : DRM_SCHED_PRIORITY_HIGH;
		cond_resched();
	}
	return 0;
}

static void drm_sched_gpuprio_test_refresh_stress(struct kunit *test)
{
	struct drm_sched_gpuprio_stress *env;
	struct drm_mock_sched_job **job;
	struct drm_mock_scheduler *sched;
	int pushed = 0, late = -1, i;
	struct task_struct *mover;

	if (drm_sched_policy == DRM_SCHED_POLICY_FAIR)
		kunit_skip(test, "FAIR moves no entity, so wakes nobody");

	env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, env);
	job = kunit_kcalloc(test, STRESS_JOBS, sizeof(*job), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, job);
	mutex_init(&env->lock);
	sched = drm_mock_sched_new(test, MAX_SCHEDULE_TIMEOUT);
	/* One job on the GPU at a time: the scheduler picks each one. */
	sched->base.credit_limit = 1;
	env->entity = drm_mock_sched_entity_new(test, DRM_SCHED_PRIORITY_LOW,
						sched);

	mover = kthread_run(drm_sched_gpuprio_stress_mover, env,
			    "gpuprio-mover");
	KUNIT_EXPECT_FALSE(test, IS_ERR(mover));
	if (IS_ERR(mover))
		mover = NULL;

	for (i = 0; mover && i < STRESS_JOBS; i++) {
		if (i >= STRESS_AHEAD &&
		    !drm_mock_sched_job_wait_finished(job[i - STRESS_AHEAD],
						      STRESS_TIMEOUT)) {
			late = i - STRESS_AHEAD;
			break;
		}
		job[i] = drm_mock_sched_job_new(test, env->entity);
		drm_mock_sched_job_set_duration_us(job[i], STRESS_JOB_US);
		mutex_lock(&env->lock);
		drm_mock_sched_job_submit(job[i]);
		mutex_unlock(&env->lock);
		pushed++;
	}
	if (mover)
		kthread_stop(mover);
	KUNIT_EXPECT_EQ_MSG(test, late, -1,
			    "job %d of %d not done %d s after the one before",
			    late, pushed, STRESS_TIMEOUT / HZ);
	KUNIT_EXPECT_EQ(test, pushed, STRESS_JOBS);
	/* The mover really moved the entity with its jobs queued. */
	KUNIT_EXPECT_GT(test, env->busy_moves, STRESS_JOBS / 10);
	kunit_info(test, "%d jobs, %lu moves with jobs queued\n", pushed,
		   env->busy_moves);

	for (i = 0; i < pushed; i++) {
		/* A lost wakeup leaves the rest queued: let them end. */
		if (late >= 0)
			drm_sched_wakeup(&sched->base);
		if (!drm_mock_sched_job_wait_finished(job[i], STRESS_TIMEOUT) &&
		    late < 0)
			late = i;
	}
	KUNIT_EXPECT_EQ_MSG(test, late, -1, "first late job: %d", late);

	drm_mock_sched_entity_free(env->entity);
	drm_mock_sched_fini(sched);
	mutex_destroy(&env->lock);
}

/* vruntime_shift[] of sched_rq.c: upstream's weight of each priority. */
static const unsigned int drm_sched_gpuprio_shift[] = {
	[DRM_SCHED_PRIORITY_KERNEL] = 1,
	[DRM_SCHED_PRIORITY_HIGH] = 2,
	[DRM_SCHED_PRIORITY_NORMAL] = 4,
	[DRM_SCHED_PRIORITY_LOW] = 7,
};

/* @v times 1.25^@nice, that is 5^nice / 4^nice, for |nice| <= 26. */
static u64 drm_sched_gpuprio_nice_scale(u64 v, int nice)
{
	u64 five = 1, four = 1;
	int i;

	for (i = 0; i < abs(nice); i++) {
		five *= 5;
		four *= 4;
	}
	return nice < 0 ? mul_u64_u64_div_u64(v, four, five) :
			  mul_u64_u64_div_u64(v, five, four);
}

struct drm_sched_gpuprio_weight_case {
	const char *name;
	u16 gpuprio;
	/* The priority whose shift the GPU time takes, and the nice. */
	enum drm_sched_priority prio;
	int nice;
};

static const struct drm_sched_gpuprio_weight_case
drm_sched_gpuprio_weight_cases[] = {
	{ "nice-0", GPUPRIO_BE_NICE(0), DRM_SCHED_PRIORITY_NORMAL, 0 },
	{ "nice-5", GPUPRIO_BE_NICE(5), DRM_SCHED_PRIORITY_NORMAL, 5 },
	{ "nice-19", GPUPRIO_BE_NICE(19), DRM_SCHED_PRIORITY_NORMAL, 19 },
	{ "idle", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0),
	  DRM_SCHED_PRIORITY_NORMAL, 26 },
	{ "nice--3", GPUPRIO_BE_NICE(-3), DRM_SCHED_PRIORITY_HIGH, -3 },
	{ "nice--3-no-high", GPUPRIO_BE_NICE(-3) | GPUPRIO_NO_HIGH,
	  DRM_SCHED_PRIORITY_NORMAL, 0 },
	/* Nice -20, which weighs as -3: no nice reaches KERNEL's weight. */
	{ "realtime-0", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0),
	  DRM_SCHED_PRIORITY_HIGH, -3 },
};

KUNIT_ARRAY_PARAM_DESC(drm_sched_gpuprio_weight, drm_sched_gpuprio_weight_cases,
		       name);

/*
 * Under FAIR, a refresh gives a NORMAL entity at nice 3 the task's GPU
 * priority as its weight: the virtual runtime its GPU time then accumulates
 * is that time shifted by the priority's weight and scaled by 1.25^nice,
 * measured on the jobs the scheduler runs after the refresh.
 */
static void drm_sched_gpuprio_test_fair_weight(struct kunit *test)
{
	const struct drm_sched_gpuprio_weight_case *c = test->param_value;
	struct drm_mock_sched_job *job, *blocker, *last;
	struct drm_mock_sched_entity *entity;
	struct drm_sched_entity_stats *stats;
	struct drm_mock_scheduler *sched;
	const unsigned int jobs = 20;
	u64 vruntime, accounted, expect, slack;
	bool scheduled, finished;
	unsigned int i;

	if (drm_sched_policy != DRM_SCHED_POLICY_FAIR)
		kunit_skip(test, "policy %d: the weight is FAIR's",
			   drm_sched_policy);

	sched = drm_mock_sched_new(test, MAX_SCHEDULE_TIMEOUT);
	sched->base.credit_limit = 1;
	entity = drm_mock_sched_entity_new(test, DRM_SCHED_PRIORITY_NORMAL,
					   sched);
	/* Not where the refresh leaves it, so that every case changes it. */
	KUNIT_ASSERT_EQ(test, drm_sched_entity_set_nice(&entity->base, 3), 0);
	KUNIT_EXPECT_TRUE(test,
			  drm_sched_entity_refresh_gpuprio(&entity->base,
							   c->gpuprio));
	KUNIT_EXPECT_PTR_EQ(test, entity->base.rq,
			    sched->base.sched_rq[DRM_SCHED_PRIORITY_KERNEL]);

	drm_sched_wqueue_stop(&sched->base);
	for (i = 0; i < jobs; i++) {
		job = drm_mock_sched_job_new(test, entity);
		drm_mock_sched_job_set_duration_us(job, 1000);
		drm_mock_sched_job_submit(job);
	}
	/* Stays on the mock GPU until advanced, holding everything still. */
	blocker = drm_mock_sched_job_new(test, entity);
	drm_mock_sched_job_submit(blocker);
	/* Keeps the entity queued, so that popping the blocker accounts. */
	last = drm_mock_sched_job_new(test, entity);
	drm_mock_sched_job_set_duration_us(last, 1);
	drm_mock_sched_job_submit(last);
	drm_sched_wqueue_start(&sched->base);

	scheduled = drm_mock_sched_job_wait_scheduled(blocker, 60 * HZ);
	stats = entity->base.stats;
	spin_lock(&stats->lock);
	vruntime = stats->vruntime;
	accounted = stats->prev_runtime;
	spin_unlock(&stats->lock);

	drm_mock_sched_advance(sched, 1);
	finished = drm_mock_sched_job_wait_finished(last, 60 * HZ);
	drm_mock_sched_entity_free(entity);
	drm_mock_sched_fini(sched);

	KUNIT_ASSERT_TRUE(test, scheduled);
	KUNIT_ASSERT_TRUE(test, finished);
	/* Not vacuous: most jobs before the blocker were accounted. */
	KUNIT_ASSERT_GE(test, accounted, (u64)jobs / 2 * 1000 * NSEC_PER_USEC);

	expect = drm_sched_gpuprio_nice_scale(accounted <<
					      drm_sched_gpuprio_shift[c->prio],
					      c->nice);
	kunit_info(test, "%s: GPU time %llu ns, virtual runtime %llu ns, expected %llu\n",
		   c->name, accounted, vruntime, expect);
	/*
	 * 16.16 factors (at most 0.07 % off), and one rounding down per
	 * job.
	 */
	slack = div_u64(expect, 1000) + jobs + 2;
	KUNIT_EXPECT_LE(test, vruntime, expect + slack);
	KUNIT_EXPECT_GE(test, vruntime + slack, expect);
}

/* Jobs of each busy entity after the move in the round robin history case. */
#define RR_TURNS	20

/*
 * Round robin: a busy entity with a long history on one run queue, moved
 * to another where two busy entities take turns, must take its turn there
 * among them, not after as many turns as its old run queue ever gave.
 * Each run queue counts its turns, and the entity carries the count of
 * the last turn it had.
 */
static void drm_sched_gpuprio_test_rr_history(struct kunit *test)
{
	const unsigned int history = 10000, turns = RR_TURNS;
	struct drm_mock_sched_job **old, *job[3][RR_TURNS];
	struct drm_mock_sched_entity *entity[3];
	struct drm_mock_scheduler *sched;
	u64 start, first;
	unsigned int i, k;
	bool done;

	if (drm_sched_policy != DRM_SCHED_POLICY_RR)
		kunit_skip(test, "policy %d: turns are round robin's",
			   drm_sched_policy);

	sched = drm_mock_sched_new(test, MAX_SCHEDULE_TIMEOUT);
	sched->base.credit_limit = 1;
	for (k = 0; k < ARRAY_SIZE(entity); k++)
		entity[k] = drm_mock_sched_entity_new(test, k ?
						      DRM_SCHED_PRIORITY_HIGH :
						      DRM_SCHED_PRIORITY_NORMAL,
						      sched);

	/* The history: the first entity alone and busy on NORMAL. */
	old = kunit_kcalloc(test, history, sizeof(*old), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, old);
	drm_sched_wqueue_stop(&sched->base);
	for (i = 0; i < history; i++) {
		old[i] = drm_mock_sched_job_new(test, entity[0]);
		drm_mock_sched_job_set_duration_us(old[i], 1);
		drm_mock_sched_job_submit(old[i]);
	}
	drm_sched_wqueue_start(&sched->base);
	done = drm_mock_sched_job_wait_finished(old[history - 1], 60 * HZ);
	KUNIT_ASSERT_TRUE(test, done);

	/* Then all three busy, the first moved up to the other two. */
	drm_sched_wqueue_stop(&sched->base);
	for (k = 0; k < ARRAY_SIZE(entity); k++) {
		for (i = 0; i < turns; i++) {
			job[k][i] = drm_mock_sched_job_new(test, entity[k]);
			drm_mock_sched_job_set_duration_us(job[k][i], 100);
			drm_mock_sched_job_submit(job[k][i]);
		}
	}
	drm_sched_entity_refresh_priority(&entity[0]->base,
					  DRM_SCHED_PRIORITY_HIGH);
	drm_sched_wqueue_start(&sched->base);
	done = true;
	for (k = 0; k < ARRAY_SIZE(entity); k++)
		done &= drm_mock_sched_job_wait_finished(job[k][turns - 1],
							 60 * HZ);
	for (k = 0; k < ARRAY_SIZE(entity); k++)
		drm_mock_sched_entity_free(entity[k]);
	drm_mock_sched_fini(sched);
	KUNIT_ASSERT_TRUE(test, done);

	start = old[history - 1]->hw_fence.seqno;
	first = job[0][0]->hw_fence.seqno - start;
	kunit_info(test, "after %u jobs on NORMAL, the moved entity's first job ran %llu-th of %u\n",
		   history, first, turns * 3);
	/* Within the first round of turns on its new run queue. */
	KUNIT_EXPECT_LE(test, first, (u64)ARRAY_SIZE(entity));
}

/* The task's own priority: a task at the default follows nothing here. */
static void drm_sched_gpuprio_test_task(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, drm_sched_task_priority(current),
			drm_sched_gpuprio_to_priority(task_gpuprio(current)));
}

static struct kunit_case drm_sched_gpuprio_tests[] = {
	KUNIT_CASE_PARAM(drm_sched_gpuprio_test_map,
			 drm_sched_gpuprio_map_gen_params),
	KUNIT_CASE(drm_sched_gpuprio_test_task),
	KUNIT_CASE_PARAM(drm_sched_gpuprio_test_refresh,
			 drm_sched_gpuprio_refresh_gen_params),
	KUNIT_CASE(drm_sched_gpuprio_test_refresh_running),
	KUNIT_CASE(drm_sched_gpuprio_test_refresh_wakeup),
	KUNIT_CASE(drm_sched_gpuprio_test_refresh_no_rq),
	KUNIT_CASE(drm_sched_gpuprio_test_refresh_stress),
	KUNIT_CASE_SLOW(drm_sched_gpuprio_test_rr_history),
	KUNIT_CASE_PARAM(drm_sched_gpuprio_test_fair_weight,
			 drm_sched_gpuprio_weight_gen_params),
	{}
};

static struct kunit_suite drm_sched_gpuprio = {
	.name = "drm_sched_gpuprio_tests",
	.test_cases = drm_sched_gpuprio_tests,
};

kunit_test_suite(drm_sched_gpuprio);
