// SPDX-License-Identifier: GPL-2.0
/*
 * A deadline set on a job's finished fence lends the job's entity the GPU
 * priority of the task that set it, on the mock scheduler, under whichever
 * policy gpu_sched.sched_policy selects.
 */

#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/gpuprio.h>

#include "sched_tests.h"
#include "../sched_internal.h"

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

struct drm_sched_deadline_case {
	const char *name;
	u16 waiter;			/* the waiter's GPU priority */
	bool cap_sys_nice;		/* whether the waiter has CAP_SYS_NICE */
	enum drm_sched_priority busy;	/* the busy entity's priority */
	enum drm_sched_priority lends;	/* FIFO and round robin */
	enum drm_sched_priority lends_fair;
	int lends_nice;
	bool first;	/* the producer's job runs next under FIFO and RR */
};

static const struct drm_sched_deadline_case drm_sched_deadline_cases[] = {
	{ "default", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_NONE, 0), true,
	  DRM_SCHED_PRIORITY_NORMAL, DRM_SCHED_PRIORITY_NORMAL,
	  DRM_SCHED_PRIORITY_NORMAL, 0, true },
	{ "realtime", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0), true,
	  DRM_SCHED_PRIORITY_HIGH, DRM_SCHED_PRIORITY_HIGH,
	  DRM_SCHED_PRIORITY_HIGH, DRM_SCHED_NICE_MIN, true },
	{ "realtime-without-cap-sys-nice",
	  GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0), false,
	  DRM_SCHED_PRIORITY_HIGH, DRM_SCHED_PRIORITY_NORMAL,
	  DRM_SCHED_PRIORITY_NORMAL, 0, false },
	{ "nice-10", GPUPRIO_BE_NICE(10), true,
	  DRM_SCHED_PRIORITY_NORMAL, DRM_SCHED_PRIORITY_LOW,
	  DRM_SCHED_PRIORITY_NORMAL, 10, false },
};

KUNIT_ARRAY_PARAM_DESC(drm_sched_deadline, drm_sched_deadline_cases, name);

#define DEADLINE_BUSY_JOBS	6

/* Set a deadline on @fence as a task with @c's priority and capability. */
static void drm_sched_set_deadline(struct kunit *test,
				   const struct drm_sched_deadline_case *c,
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
 * fence while a busy entity keeps the scheduler busy: the entity is lent the
 * task's priority (under FAIR the weight of its nice) until the job runs,
 * never above NORMAL without CAP_SYS_NICE. Under FIFO and round robin the
 * job then runs right after the busy entity's job on the engine when the
 * lent priority is at least the busy entity's, and waits for more of its
 * jobs otherwise. One credit and jobs that end when the test says so.
 */
static void drm_sched_test_deadline(struct kunit *test)
{
	const struct drm_sched_deadline_case *c = test->param_value;
	struct drm_mock_sched_job *busy[DEADLINE_BUSY_JOBS], *job;
	struct dma_fence *busy_ran[DEADLINE_BUSY_JOBS], *job_ran, *job_done;
	struct drm_mock_sched_entity *busy_entity, *producer;
	enum drm_sched_priority lent = DRM_SCHED_PRIORITY_COUNT;
	unsigned int i, before = 0;
	struct drm_mock_scheduler *sched;
	ktime_t ran;
	int nice = 0;
	u16 saved;

	saved = task_gpuprio_stored(current);
	if (!gpuprio_test_set_raw(current, c->waiter))
		kunit_skip(test, "every task is at the default GPU priority");
	gpuprio_test_set_raw(current, saved);

	sched = drm_mock_sched_new(test, MAX_SCHEDULE_TIMEOUT);
	sched->base.credit_limit = 1;
	busy_entity = drm_mock_sched_entity_new(test, c->busy, sched);
	producer = drm_mock_sched_entity_new(test, DRM_SCHED_PRIORITY_LOW,
					     sched);
	KUNIT_ASSERT_EQ(test, drm_sched_entity_set_nice(&producer->base,
							DRM_SCHED_NICE_MAX), 0);

	/* Held by the test: a job's pointer to them goes when it is freed. */
	drm_sched_wqueue_stop(&sched->base);
	job = drm_mock_sched_job_new(test, producer);
	drm_mock_sched_job_submit(job);
	job_ran = dma_fence_get(&job->base.s_fence->scheduled);
	job_done = dma_fence_get(&job->base.s_fence->finished);
	for (i = 0; i < DEADLINE_BUSY_JOBS; i++) {
		busy[i] = drm_mock_sched_job_new(test, busy_entity);
		drm_mock_sched_job_submit(busy[i]);
		busy_ran[i] = dma_fence_get(&busy[i]->base.s_fence->scheduled);
	}
	drm_sched_wqueue_start(&sched->base);
	if (drm_sched_policy != DRM_SCHED_POLICY_FAIR)
		KUNIT_ASSERT_TRUE(test, drm_mock_sched_job_wait_scheduled(busy[0],
									  HZ));

	drm_sched_set_deadline(test, c, job_done);
	for (i = 0; i < 1000 && lent == DRM_SCHED_PRIORITY_COUNT; i++) {
		spin_lock(&producer->base.lock);
		lent = producer->base.boost_priority;
		nice = producer->base.boost_nice;
		spin_unlock(&producer->base.lock);
		if (dma_fence_is_signaled(job_ran))
			break;
		usleep_range(1000, 2000);
	}

	if (lent != DRM_SCHED_PRIORITY_COUNT) {
		KUNIT_EXPECT_EQ(test, lent,
				drm_sched_policy == DRM_SCHED_POLICY_FAIR ?
				c->lends_fair : c->lends);
		KUNIT_EXPECT_EQ(test, nice, c->lends_nice);
	} else {
		/* Under FAIR the job may have run first anyway. */
		KUNIT_EXPECT_EQ(test, drm_sched_policy, DRM_SCHED_POLICY_FAIR);
	}

	for (i = 0; i < 100 * (DEADLINE_BUSY_JOBS + 1); i++) {
		if (dma_fence_is_signaled(job_done) &&
		    dma_fence_is_signaled(busy_ran[DEADLINE_BUSY_JOBS - 1]))
			break;
		drm_mock_sched_advance(sched, 1);
		usleep_range(100, 200);
	}
	KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(job_done));

	/* Back to its own priority once its job ran. */
	spin_lock(&producer->base.lock);
	KUNIT_EXPECT_EQ(test, producer->base.boost_priority,
			DRM_SCHED_PRIORITY_COUNT);
	spin_unlock(&producer->base.lock);

	ran = job_ran->timestamp;
	for (i = 0; i < DEADLINE_BUSY_JOBS; i++)
		if (dma_fence_is_signaled(busy_ran[i]) &&
		    ktime_before(busy_ran[i]->timestamp, ran))
			before++;
	kunit_info(test, "%s: lent %d nice %d, %u busy jobs ran before\n",
		   c->name, lent, nice, before);
	if (drm_sched_policy != DRM_SCHED_POLICY_FAIR) {
		if (c->first)
			KUNIT_EXPECT_EQ(test, before, 1);
		else
			KUNIT_EXPECT_GE(test, before, 2);
	}

	drm_mock_sched_advance(sched, 1);
	drm_mock_sched_entity_free(producer);
	drm_mock_sched_entity_free(busy_entity);
	drm_mock_sched_fini(sched);
	dma_fence_put(job_ran);
	dma_fence_put(job_done);
	for (i = 0; i < DEADLINE_BUSY_JOBS; i++)
		dma_fence_put(busy_ran[i]);
}

static struct kunit_case drm_sched_deadline_tests[] = {
	KUNIT_CASE_PARAM(drm_sched_test_deadline, drm_sched_deadline_gen_params),
	{}
};

static struct kunit_suite drm_sched_deadline = {
	.name = "drm_sched_deadline_tests",
	.test_cases = drm_sched_deadline_tests,
};

kunit_test_suite(drm_sched_deadline);
