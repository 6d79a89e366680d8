// SPDX-License-Identifier: MIT
/*
 * KUnit tests of user exec queues following the GPU priority of the task
 * that creates and submits to them. Queues are made by the real
 * __xe_exec_queue_alloc() on a fake device and engine, with a fake backend
 * that counts set_priority calls, and execs go through the real
 * xe_exec_ioctl() of a fake client: no GPU is needed.
 *
 * xe_exec_queue_create_ioctl() is out of reach: xe_exec_queue_create()
 * needs a VM and an LRC buffer object, which a fake device cannot make.
 * So are the MULTI_GROUP property, which needs a VM, GuC submission and a
 * buffer object for the group's page, and the GuC backend that sends a
 * policy for the group's context. Multi-queue groups are therefore set up
 * by hand, as exec_queue_set_multi_group() and
 * xe_exec_queue_group_validate() leave them, and undone by hand.
 *
 * Each test case runs in a kthread of its own, so a nice or GPU priority
 * left behind by a failed assertion goes away with it; the tests still put
 * back what they changed.
 */

#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/gpuprio.h>
#include <linux/sched.h>

#include "xe_kunit_helpers.h"
#include "xe_device.h"
#include "xe_exec.h"
#include "xe_hw_engine_types.h"

struct gpuprio_test {
	struct xe_device *xe;
	struct xe_hw_engine *hwe;
	/* The client whose execs go through xe_exec_ioctl() */
	struct drm_file file;
	struct xe_file xef;
	/* What the fake backend saw: its calls that stored a priority */
	int calls;
	enum xe_exec_queue_priority last;
	struct xe_exec_queue *last_q;
	/* set_priority calls on a secondary queue of a group: never */
	int secondary_calls;
	/* set_multi_queue_priority calls */
	int group_calls;
	/* Fail set_priority as the GuC backend does when out of memory. */
	bool fail;
	long saved_nice;
	u16 saved_gpuprio;
};

static int fake_set_priority(struct xe_exec_queue *q,
			     enum xe_exec_queue_priority priority)
{
	struct gpuprio_test *t = kunit_get_current_test()->priv;

	if (xe_exec_queue_is_multi_queue_secondary(q))
		t->secondary_calls++;
	if (t->fail)
		return -ENOMEM;

	t->calls++;
	t->last = priority;
	t->last_q = q;
	WRITE_ONCE(q->sched_props.priority, priority);
	return 0;
}

static int fake_set_multi_queue_priority(struct xe_exec_queue *q,
					 enum xe_multi_queue_priority priority)
{
	struct gpuprio_test *t = kunit_get_current_test()->priv;

	t->group_calls++;
	q->multi_queue.priority = priority;
	return 0;
}

static bool fake_reset_status(struct xe_exec_queue *q)
{
	return false;
}

static const struct xe_exec_queue_ops fake_ops = {
	.set_priority = fake_set_priority,
	.set_multi_queue_priority = fake_set_multi_queue_priority,
	.reset_status = fake_reset_status,
};

static void gpuprio_test_set_task(long nice, u16 gpuprio)
{
	gpuprio_test_set_raw(current, gpuprio);
	set_user_nice(current, nice);
}

/* Off means stock: without CONFIG_GPUPRIO user queues stay at NORMAL. */
static enum xe_exec_queue_priority
gpuprio_test_expected(enum xe_exec_queue_priority prio)
{
	return IS_ENABLED(CONFIG_GPUPRIO) ? prio : XE_EXEC_QUEUE_PRIORITY_NORMAL;
}

static void gpuprio_test_set_nice(long nice)
{
	gpuprio_test_set_task(nice, GPUPRIO_DEFAULT);
}

static void gpuprio_test_restore_task(struct kunit *test)
{
	struct gpuprio_test *t = test->priv;

	gpuprio_test_set_task(t->saved_nice, t->saved_gpuprio);
}

static int gpuprio_test_init(struct kunit *test)
{
	struct gpuprio_test *t;
	struct xe_hw_engine *hwe;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	hwe = kunit_kzalloc(test, sizeof(*hwe), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hwe);
	hwe->eclass = kunit_kzalloc(test, sizeof(*hwe->eclass), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hwe->eclass);

	xe_kunit_helper_xe_device_test_init(test);
	t->xe = test->priv;
	hwe->gt = xe_device_get_gt(t->xe, 0);
	KUNIT_ASSERT_NOT_NULL(test, hwe->gt);
	hwe->class = XE_ENGINE_CLASS_RENDER;
	t->hwe = hwe;
	t->saved_nice = task_nice(current);
	t->saved_gpuprio = task_gpuprio_raw(current);

	t->xef.xe = t->xe;
	t->xef.drm = &t->file;
	mutex_init(&t->xef.exec_queue.lock);
	xa_init_flags(&t->xef.exec_queue.xa, XA_FLAGS_ALLOC1);
	t->file.driver_priv = &t->xef;

	test->priv = t;
	return 0;
}

/*
 * A group made by hand is undone by hand: xe_exec_queue_group_cleanup()
 * would put the primary reference and the group page that only
 * xe_exec_queue_group_validate() and xe_exec_queue_group_init() take.
 */
static void gpuprio_test_free_queue(void *arg)
{
	struct xe_exec_queue *q = arg;

	q->multi_queue.valid = false;
	__xe_exec_queue_free(q);
}

/*
 * A queue as xe_exec_queue_create() allocates it, on the fake backend: a
 * parallel one of width 2, see gpuprio_test_exec().
 */
static struct xe_exec_queue *gpuprio_test_queue(struct kunit *test, u32 flags)
{
	struct gpuprio_test *t = test->priv;
	struct xe_exec_queue *q;

	q = __xe_exec_queue_alloc(t->xe, NULL, BIT(0) | BIT(1), 2, t->hwe,
				  flags, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, q);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							gpuprio_test_free_queue,
							q), 0);
	q->ops = &fake_ops;
	return q;
}

/* Make @q a client's queue, as the end of the create ioctl does. */
static u32 gpuprio_test_install(struct kunit *test, struct xe_exec_queue *q)
{
	struct gpuprio_test *t = test->priv;
	u32 id;

	KUNIT_ASSERT_EQ(test, xa_alloc(&t->xef.exec_queue.xa, &id, q,
				       xa_limit_32b, GFP_KERNEL), 0);
	/* Only for the call: freeing the queue would put the fake file */
	q->xef = &t->xef;
	return id;
}

static void gpuprio_test_uninstall(struct kunit *test,
				   struct xe_exec_queue *q, u32 id)
{
	struct gpuprio_test *t = test->priv;

	q->xef = NULL;
	xa_erase(&t->xef.exec_queue.xa, id);
	/* The lookup's reference is put again on every path */
	KUNIT_EXPECT_EQ(test, kref_read(&q->refcount), 1);
}

/*
 * An exec of @q by the current task, through the real xe_exec_ioctl(): it
 * finds @q in the client's table and applies the task's priority, then
 * fails with -EFAULT reading the batch addresses of a parallel queue from
 * NULL, before it needs a VM, a lock or hardware. Nothing after that point
 * changes the priority. The queues of a real multi-queue group are never
 * parallel, which xe_exec_queue_follow_task() does not look at.
 */
static void gpuprio_test_exec(struct kunit *test, struct xe_exec_queue *q)
{
	struct gpuprio_test *t = test->priv;
	struct drm_xe_exec args = {};
	u32 id;

	id = gpuprio_test_install(test, q);
	args.exec_queue_id = id;
	args.num_batch_buffer = q->width;
	KUNIT_EXPECT_EQ(test, xe_exec_ioctl(&t->xe->drm, &args, &t->file),
			-EFAULT);
	gpuprio_test_uninstall(test, q, id);
}

struct gpuprio_task_case {
	const char *name;
	long nice;
	u16 gpuprio;
	enum xe_exec_queue_priority expected;
};

static const struct gpuprio_task_case gpuprio_task_cases[] = {
	{ "nice 0", 0, GPUPRIO_DEFAULT, XE_EXEC_QUEUE_PRIORITY_NORMAL },
	{ "nice 5", 5, GPUPRIO_DEFAULT, XE_EXEC_QUEUE_PRIORITY_LOW },
	{ "nice -3", -3, GPUPRIO_DEFAULT, XE_EXEC_QUEUE_PRIORITY_NORMAL },
	{ "nice -10", -10, GPUPRIO_DEFAULT, XE_EXEC_QUEUE_PRIORITY_NORMAL },
	{ "gpu nice 10, nice -5", -5, GPUPRIO_BE_NICE(10),
	  XE_EXEC_QUEUE_PRIORITY_LOW },
	{ "gpu nice -10, nice 5", 5, GPUPRIO_BE_NICE(-10),
	  XE_EXEC_QUEUE_PRIORITY_HIGH },
	{ "gpu nice 0, nice 10", 10, GPUPRIO_BE_NICE(0),
	  XE_EXEC_QUEUE_PRIORITY_NORMAL },
	{ "realtime 0", 0, GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0),
	  XE_EXEC_QUEUE_PRIORITY_HIGH },
	{ "idle, nice -5", -5, GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0),
	  XE_EXEC_QUEUE_PRIORITY_LOW },
};

static void gpuprio_task_case_desc(const struct gpuprio_task_case *c,
				   char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gpuprio_task, gpuprio_task_cases, gpuprio_task_case_desc);

static void gpuprio_test_skip_unsupported(struct kunit *test,
					  const struct gpuprio_task_case *c)
{
	if (!IS_ENABLED(CONFIG_GPUPRIO) && c->gpuprio != GPUPRIO_DEFAULT)
		kunit_skip(test, "needs CONFIG_GPUPRIO");
}

/*
 * A new user queue starts at the priority of the task creating it. So does
 * the primary of a multi-queue group, which is a user queue when it is
 * allocated: the MULTI_GROUP property only makes it one after that.
 */
static void gpuprio_test_create_user(struct kunit *test)
{
	const struct gpuprio_task_case *c = test->param_value;
	struct xe_exec_queue *q;

	gpuprio_test_skip_unsupported(test, c);
	gpuprio_test_set_task(c->nice, c->gpuprio);
	q = gpuprio_test_queue(test, EXEC_QUEUE_FLAG_TASK_PRIORITY);
	gpuprio_test_restore_task(test);

	KUNIT_EXPECT_EQ(test, q->sched_props.priority,
			gpuprio_test_expected(c->expected));
}

/* A user queue created at NORMAL takes the submitting task's priority. */
static void gpuprio_test_follow(struct kunit *test)
{
	const struct gpuprio_task_case *c = test->param_value;
	struct gpuprio_test *t = test->priv;
	struct xe_exec_queue *q;

	gpuprio_test_skip_unsupported(test, c);
	gpuprio_test_set_nice(0);
	q = gpuprio_test_queue(test, EXEC_QUEUE_FLAG_TASK_PRIORITY);
	KUNIT_ASSERT_EQ(test, q->sched_props.priority,
			XE_EXEC_QUEUE_PRIORITY_NORMAL);

	gpuprio_test_set_task(c->nice, c->gpuprio);
	gpuprio_test_exec(test, q);
	gpuprio_test_restore_task(test);

	KUNIT_EXPECT_EQ(test, q->sched_props.priority,
			gpuprio_test_expected(c->expected));
	KUNIT_EXPECT_EQ(test, t->calls, IS_ENABLED(CONFIG_GPUPRIO) ? 1 : 0);
}

/*
 * Each exec refreshes the priority; the backend is asked every time, and
 * returns early itself when nothing changes.
 */
static void gpuprio_test_refresh(struct kunit *test)
{
	static const struct {
		long nice;
		enum xe_exec_queue_priority expected;
	} steps[] = {
		{ 0, XE_EXEC_QUEUE_PRIORITY_NORMAL },
		{ 5, XE_EXEC_QUEUE_PRIORITY_LOW },
		{ 5, XE_EXEC_QUEUE_PRIORITY_LOW },
		{ 19, XE_EXEC_QUEUE_PRIORITY_LOW },
		{ 0, XE_EXEC_QUEUE_PRIORITY_NORMAL },
		/* A CPU boost alone never reaches HIGH. */
		{ -1, XE_EXEC_QUEUE_PRIORITY_NORMAL },
		{ -20, XE_EXEC_QUEUE_PRIORITY_NORMAL },
		{ 1, XE_EXEC_QUEUE_PRIORITY_LOW },
	};
	struct gpuprio_test *t = test->priv;
	struct xe_exec_queue *q;
	int i;

	gpuprio_test_set_nice(0);
	q = gpuprio_test_queue(test, EXEC_QUEUE_FLAG_TASK_PRIORITY);

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		gpuprio_test_set_nice(steps[i].nice);
		gpuprio_test_exec(test, q);
		KUNIT_EXPECT_EQ_MSG(test, q->sched_props.priority,
				    gpuprio_test_expected(steps[i].expected),
				    "step %d", i);
		KUNIT_EXPECT_EQ_MSG(test, t->calls,
				    IS_ENABLED(CONFIG_GPUPRIO) ? i + 1 : 0,
				    "step %d", i);
	}
	if (IS_ENABLED(CONFIG_GPUPRIO))
		KUNIT_EXPECT_EQ(test, t->last, XE_EXEC_QUEUE_PRIORITY_LOW);
	gpuprio_test_restore_task(test);
}

/* A change the backend could not take is tried again at the next exec. */
static void gpuprio_test_retry(struct kunit *test)
{
	struct gpuprio_test *t = test->priv;
	struct xe_exec_queue *q;

	if (!IS_ENABLED(CONFIG_GPUPRIO))
		kunit_skip(test, "nothing to retry without CONFIG_GPUPRIO");
	gpuprio_test_set_nice(0);
	q = gpuprio_test_queue(test, EXEC_QUEUE_FLAG_TASK_PRIORITY);

	gpuprio_test_set_nice(10);
	t->fail = true;
	gpuprio_test_exec(test, q);
	KUNIT_EXPECT_EQ(test, q->sched_props.priority,
			XE_EXEC_QUEUE_PRIORITY_NORMAL);

	t->fail = false;
	gpuprio_test_exec(test, q);
	KUNIT_EXPECT_EQ(test, q->sched_props.priority,
			XE_EXEC_QUEUE_PRIORITY_LOW);
	KUNIT_EXPECT_EQ(test, t->calls, 1);
	gpuprio_test_restore_task(test);
}

static const enum xe_exec_queue_priority gpuprio_explicit_cases[] = {
	XE_EXEC_QUEUE_PRIORITY_LOW,
	XE_EXEC_QUEUE_PRIORITY_HIGH,
};

static void gpuprio_explicit_desc(const enum xe_exec_queue_priority *prio,
				  char *desc)
{
	strscpy(desc, *prio == XE_EXEC_QUEUE_PRIORITY_LOW ? "explicit low" :
		"explicit high", KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gpuprio_explicit, gpuprio_explicit_cases,
		  gpuprio_explicit_desc);

/*
 * DRM_XE_EXEC_QUEUE_SET_PROPERTY_PRIORITY other than NORMAL wins over the
 * task. The kthread running the test has CAP_SYS_NICE, which HIGH needs.
 */
static void gpuprio_test_explicit(struct kunit *test)
{
	static const long nices[] = { -20, -1, 0, 1, 19 };
	const enum xe_exec_queue_priority *prio = test->param_value;
	struct gpuprio_test *t = test->priv;
	struct xe_exec_queue *q;
	int i;

	gpuprio_test_set_nice(10);
	q = gpuprio_test_queue(test, EXEC_QUEUE_FLAG_TASK_PRIORITY);
	KUNIT_ASSERT_EQ(test, exec_queue_set_priority(t->xe, q, *prio), 0);

	for (i = 0; i < ARRAY_SIZE(nices); i++) {
		gpuprio_test_set_nice(nices[i]);
		gpuprio_test_exec(test, q);
		KUNIT_EXPECT_EQ_MSG(test, q->sched_props.priority, *prio,
				    "nice %ld", nices[i]);
	}
	KUNIT_EXPECT_EQ(test, t->calls, 0);
	gpuprio_test_restore_task(test);
}

/*
 * Asking for NORMAL, as Mesa's iris and anv do on every queue, is the same
 * as not asking: the queue keeps following its task.
 */
static void gpuprio_test_explicit_normal(struct kunit *test)
{
	struct gpuprio_test *t = test->priv;
	struct xe_exec_queue *q;

	gpuprio_test_set_nice(10);
	q = gpuprio_test_queue(test, EXEC_QUEUE_FLAG_TASK_PRIORITY);
	KUNIT_ASSERT_EQ(test,
			exec_queue_set_priority(t->xe, q,
						XE_EXEC_QUEUE_PRIORITY_NORMAL),
			0);
	KUNIT_EXPECT_EQ(test, q->sched_props.priority,
			gpuprio_test_expected(XE_EXEC_QUEUE_PRIORITY_LOW));
	KUNIT_EXPECT_TRUE(test, q->flags & EXEC_QUEUE_FLAG_TASK_PRIORITY);

	gpuprio_test_set_nice(0);
	gpuprio_test_exec(test, q);
	KUNIT_EXPECT_EQ(test, q->sched_props.priority,
			XE_EXEC_QUEUE_PRIORITY_NORMAL);
	gpuprio_test_set_nice(3);
	gpuprio_test_exec(test, q);
	KUNIT_EXPECT_EQ(test, q->sched_props.priority,
			gpuprio_test_expected(XE_EXEC_QUEUE_PRIORITY_LOW));
	KUNIT_EXPECT_EQ(test, t->calls, IS_ENABLED(CONFIG_GPUPRIO) ? 2 : 0);
	gpuprio_test_restore_task(test);
}

static void gpuprio_test_expect_fdinfo(struct kunit *test,
				       const struct xe_file *xef,
				       const char *expected)
{
	char text[32] = "";

	KUNIT_EXPECT_TRUE(test, gpuprio_fdinfo_format(text, sizeof(text),
						      xef->gpuprio_fdinfo));
	KUNIT_EXPECT_STREQ(test, text, expected);
}

/*
 * fdinfo's drm-gpuprio: the band the task gave the client's last exec,
 * and whether the queue's own priority applied instead.
 */
static void gpuprio_test_fdinfo(struct kunit *test)
{
	struct gpuprio_test *t = test->priv;
	struct xe_file *xef = &t->xef;
	struct xe_exec_queue *q[2];
	char text[32] = "";

	gpuprio_test_set_nice(0);
	q[0] = gpuprio_test_queue(test, EXEC_QUEUE_FLAG_TASK_PRIORITY);
	q[1] = gpuprio_test_queue(test, EXEC_QUEUE_FLAG_TASK_PRIORITY);
	KUNIT_ASSERT_EQ(test,
			exec_queue_set_priority(t->xe, q[1],
						XE_EXEC_QUEUE_PRIORITY_HIGH),
			0);

	gpuprio_test_set_nice(7);
	gpuprio_test_exec(test, q[0]);
	if (!IS_ENABLED(CONFIG_GPUPRIO)) {
		/* Off means stock: no key */
		KUNIT_EXPECT_FALSE(test,
				   gpuprio_fdinfo_format(text, sizeof(text),
							 xef->gpuprio_fdinfo));
		gpuprio_test_restore_task(test);
		return;
	}
	gpuprio_test_expect_fdinfo(test, xef, "low");

	gpuprio_test_set_nice(0);
	gpuprio_test_exec(test, q[1]);
	gpuprio_test_expect_fdinfo(test, xef, "normal overridden");
	gpuprio_test_exec(test, q[0]);
	gpuprio_test_expect_fdinfo(test, xef, "normal");
	gpuprio_test_restore_task(test);
}

#define GPUPRIO_TEST_SECONDARIES	2

/* A multi-queue group: its primary Q0 and secondaries, see the top. */
struct gpuprio_test_group {
	struct xe_exec_queue_group group;
	struct xe_exec_queue *primary;
	struct xe_exec_queue *secondary[GPUPRIO_TEST_SECONDARIES];
};

/*
 * A group of user queues created by the current task: with the flag
 * xe_exec_queue_create_ioctl() passes, and the in-group priority each
 * queue gets by default.
 */
static struct gpuprio_test_group *gpuprio_test_group(struct kunit *test)
{
	struct gpuprio_test_group *g;
	int i;

	g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g);

	g->primary = gpuprio_test_queue(test, EXEC_QUEUE_FLAG_TASK_PRIORITY);
	g->group.primary = g->primary;
	g->primary->multi_queue.group = &g->group;
	g->primary->multi_queue.valid = true;
	g->primary->multi_queue.is_primary = true;
	g->primary->multi_queue.pos = 0;

	for (i = 0; i < GPUPRIO_TEST_SECONDARIES; i++) {
		struct xe_exec_queue *q;

		q = gpuprio_test_queue(test, EXEC_QUEUE_FLAG_TASK_PRIORITY);
		q->multi_queue.group = &g->group;
		q->multi_queue.valid = true;
		q->multi_queue.pos = i + 1;
		KUNIT_ASSERT_TRUE(test,
				  xe_exec_queue_is_multi_queue_secondary(q));
		g->secondary[i] = q;
	}
	return g;
}

/* The secondaries keep the priority they were created with, never sent. */
static void gpuprio_test_expect_secondaries(struct kunit *test,
					    struct gpuprio_test_group *g,
					    enum xe_exec_queue_priority prio)
{
	struct gpuprio_test *t = test->priv;
	int i;

	for (i = 0; i < GPUPRIO_TEST_SECONDARIES; i++)
		KUNIT_EXPECT_EQ_MSG(test, g->secondary[i]->sched_props.priority,
				    prio, "secondary %d", i);
	KUNIT_EXPECT_EQ(test, t->secondary_calls, 0);
}

/*
 * An exec on any queue of a group gives the group's primary, whose priority
 * the GuC schedules the whole group at, the submitting task's priority.
 */
static void gpuprio_test_group_follow(struct kunit *test)
{
	const struct gpuprio_task_case *c = test->param_value;
	struct gpuprio_test *t = test->priv;
	struct gpuprio_test_group *g;
	int i;

	gpuprio_test_skip_unsupported(test, c);
	gpuprio_test_set_nice(0);
	g = gpuprio_test_group(test);

	for (i = 0; i < GPUPRIO_TEST_SECONDARIES; i++) {
		t->last_q = NULL;
		gpuprio_test_set_task(c->nice, c->gpuprio);
		gpuprio_test_exec(test, g->secondary[i]);
		gpuprio_test_restore_task(test);

		KUNIT_EXPECT_EQ_MSG(test, g->primary->sched_props.priority,
				    gpuprio_test_expected(c->expected),
				    "exec on secondary %d", i);
		if (IS_ENABLED(CONFIG_GPUPRIO))
			KUNIT_EXPECT_PTR_EQ_MSG(test, t->last_q, g->primary,
						"exec on secondary %d", i);

		/* Back to normal from the primary itself */
		gpuprio_test_set_nice(0);
		gpuprio_test_exec(test, g->primary);
		KUNIT_EXPECT_EQ(test, g->primary->sched_props.priority,
				XE_EXEC_QUEUE_PRIORITY_NORMAL);
	}
	gpuprio_test_expect_secondaries(test, g, XE_EXEC_QUEUE_PRIORITY_NORMAL);
	KUNIT_EXPECT_EQ(test, t->calls,
			IS_ENABLED(CONFIG_GPUPRIO) ?
			2 * GPUPRIO_TEST_SECONDARIES : 0);
	KUNIT_EXPECT_EQ(test, t->group_calls, 0);
}

/*
 * Tasks of different bands on the queues of one group move the whole
 * group at each exec; no secondary is ever given a priority of its own.
 */
static void gpuprio_test_group_refresh(struct kunit *test)
{
	static const struct {
		int queue;	/* 0 the primary, then the secondaries */
		long nice;
		enum xe_exec_queue_priority expected;
	} steps[] = {
		{ 1, 5, XE_EXEC_QUEUE_PRIORITY_LOW },
		{ 0, 0, XE_EXEC_QUEUE_PRIORITY_NORMAL },
		{ 2, 19, XE_EXEC_QUEUE_PRIORITY_LOW },
		{ 1, -20, XE_EXEC_QUEUE_PRIORITY_NORMAL },
		{ 0, 3, XE_EXEC_QUEUE_PRIORITY_LOW },
		{ 2, 0, XE_EXEC_QUEUE_PRIORITY_NORMAL },
	};
	struct gpuprio_test *t = test->priv;
	struct gpuprio_test_group *g;
	int i;

	gpuprio_test_set_nice(0);
	g = gpuprio_test_group(test);

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		struct xe_exec_queue *q = steps[i].queue ?
			g->secondary[steps[i].queue - 1] : g->primary;

		gpuprio_test_set_nice(steps[i].nice);
		gpuprio_test_exec(test, q);
		KUNIT_EXPECT_EQ_MSG(test, g->primary->sched_props.priority,
				    gpuprio_test_expected(steps[i].expected),
				    "step %d", i);
		KUNIT_EXPECT_EQ_MSG(test, t->calls,
				    IS_ENABLED(CONFIG_GPUPRIO) ? i + 1 : 0,
				    "step %d", i);
	}
	gpuprio_test_expect_secondaries(test, g, XE_EXEC_QUEUE_PRIORITY_NORMAL);
	gpuprio_test_restore_task(test);
}

/*
 * The application's PRIORITY on the primary, other than NORMAL, is the
 * group's: no exec on any of its queues changes it. The secondaries still
 * carry the flag they were created with; the primary's choice decides.
 */
static void gpuprio_test_group_explicit(struct kunit *test)
{
	static const long nices[] = { -20, 0, 7, 19 };
	const enum xe_exec_queue_priority *prio = test->param_value;
	struct gpuprio_test *t = test->priv;
	struct gpuprio_test_group *g;
	int i, j;

	gpuprio_test_set_nice(0);
	g = gpuprio_test_group(test);
	KUNIT_ASSERT_EQ(test, exec_queue_set_priority(t->xe, g->primary, *prio),
			0);

	for (i = 0; i < ARRAY_SIZE(nices); i++) {
		gpuprio_test_set_nice(nices[i]);
		gpuprio_test_exec(test, g->primary);
		for (j = 0; j < GPUPRIO_TEST_SECONDARIES; j++)
			gpuprio_test_exec(test, g->secondary[j]);
		KUNIT_EXPECT_EQ_MSG(test, g->primary->sched_props.priority,
				    *prio, "nice %ld", nices[i]);
	}
	KUNIT_EXPECT_EQ(test, t->calls, 0);
	gpuprio_test_expect_secondaries(test, g, XE_EXEC_QUEUE_PRIORITY_NORMAL);
	if (IS_ENABLED(CONFIG_GPUPRIO))
		gpuprio_test_expect_fdinfo(test, &t->xef, "low overridden");
	gpuprio_test_restore_task(test);
}

/*
 * A secondary created with PRIORITY before MULTI_GROUP in its extension
 * chain passes exec_queue_user_ext_check() and lost the flag; the group
 * still follows its task, as its primary does.
 */
static void gpuprio_test_group_secondary_flag(struct kunit *test)
{
	struct gpuprio_test *t = test->priv;
	struct gpuprio_test_group *g;
	struct xe_exec_queue *q;

	if (!IS_ENABLED(CONFIG_GPUPRIO))
		kunit_skip(test, "nothing follows without CONFIG_GPUPRIO");
	gpuprio_test_set_nice(0);
	g = gpuprio_test_group(test);
	q = g->secondary[0];
	q->flags &= ~EXEC_QUEUE_FLAG_TASK_PRIORITY;

	gpuprio_test_set_nice(5);
	gpuprio_test_exec(test, q);
	KUNIT_EXPECT_EQ(test, g->primary->sched_props.priority,
			XE_EXEC_QUEUE_PRIORITY_LOW);
	KUNIT_EXPECT_PTR_EQ(test, t->last_q, g->primary);
	gpuprio_test_expect_fdinfo(test, &t->xef, "low");
	gpuprio_test_expect_secondaries(test, g, XE_EXEC_QUEUE_PRIORITY_NORMAL);
	gpuprio_test_restore_task(test);
}

/*
 * The priority of each queue within its group (MULTI_QUEUE_PRIORITY), set
 * at any time with DRM_IOCTL_XE_EXEC_QUEUE_SET_PROPERTY, orders the
 * application's queues among themselves: execs of tasks of every band
 * leave it as the application set it.
 */
static void gpuprio_test_group_queue_priority(struct kunit *test)
{
	static const struct {
		long nice;
		u16 gpuprio;
	} tasks[] = {
		{ 19, GPUPRIO_DEFAULT },
		{ 0, GPUPRIO_DEFAULT },
		{ -20, GPUPRIO_DEFAULT },
		{ 0, GPUPRIO_BE_NICE(-10) },
		{ 0, GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0) },
	};
	static const enum xe_multi_queue_priority set[] = {
		XE_MULTI_QUEUE_PRIORITY_LOW,
		XE_MULTI_QUEUE_PRIORITY_HIGH,
	};
	struct gpuprio_test *t = test->priv;
	struct gpuprio_test_group *g;
	int i, j;

	gpuprio_test_set_nice(0);
	g = gpuprio_test_group(test);
	for (j = 0; j < GPUPRIO_TEST_SECONDARIES; j++) {
		struct drm_xe_exec_queue_set_property args = {
			.property = DRM_XE_EXEC_QUEUE_SET_PROPERTY_MULTI_QUEUE_PRIORITY,
			.value = set[j],
		};
		struct xe_exec_queue *q = g->secondary[j];

		args.exec_queue_id = gpuprio_test_install(test, q);
		KUNIT_EXPECT_EQ(test,
				xe_exec_queue_set_property_ioctl(&t->xe->drm,
								 &args,
								 &t->file), 0);
		gpuprio_test_uninstall(test, q, args.exec_queue_id);
	}
	KUNIT_ASSERT_EQ(test, t->group_calls, GPUPRIO_TEST_SECONDARIES);

	for (i = 0; i < ARRAY_SIZE(tasks); i++) {
		if (!IS_ENABLED(CONFIG_GPUPRIO) &&
		    tasks[i].gpuprio != GPUPRIO_DEFAULT)
			continue;
		gpuprio_test_set_task(tasks[i].nice, tasks[i].gpuprio);
		gpuprio_test_exec(test, g->primary);
		for (j = 0; j < GPUPRIO_TEST_SECONDARIES; j++)
			gpuprio_test_exec(test, g->secondary[j]);
		gpuprio_test_restore_task(test);

		KUNIT_EXPECT_EQ_MSG(test, g->primary->multi_queue.priority,
				    XE_MULTI_QUEUE_PRIORITY_NORMAL, "task %d", i);
		for (j = 0; j < GPUPRIO_TEST_SECONDARIES; j++)
			KUNIT_EXPECT_EQ_MSG(test,
					    g->secondary[j]->multi_queue.priority,
					    set[j], "task %d, secondary %d",
					    i, j);
	}
	KUNIT_EXPECT_EQ(test, t->group_calls, GPUPRIO_TEST_SECONDARIES);
	KUNIT_EXPECT_EQ(test, t->secondary_calls, 0);
}

struct gpuprio_other_case {
	const char *name;
	u32 flags;
	enum xe_exec_queue_priority priority;
};

/* The flags their creators in xe give them, and their usual priority. */
static const struct gpuprio_other_case gpuprio_other_cases[] = {
	{ "kernel", EXEC_QUEUE_FLAG_KERNEL, XE_EXEC_QUEUE_PRIORITY_NORMAL },
	{ "gsc", EXEC_QUEUE_FLAG_KERNEL | EXEC_QUEUE_FLAG_PERMANENT,
	  XE_EXEC_QUEUE_PRIORITY_NORMAL },
	{ "migrate", EXEC_QUEUE_FLAG_KERNEL | EXEC_QUEUE_FLAG_PERMANENT |
	  EXEC_QUEUE_FLAG_HIGH_PRIORITY | EXEC_QUEUE_FLAG_MIGRATE |
	  EXEC_QUEUE_FLAG_LOW_LATENCY, XE_EXEC_QUEUE_PRIORITY_KERNEL },
	{ "vm bind", EXEC_QUEUE_FLAG_VM, XE_EXEC_QUEUE_PRIORITY_NORMAL },
	{ "vm bind child", EXEC_QUEUE_FLAG_VM |
	  EXEC_QUEUE_FLAG_BIND_ENGINE_CHILD, XE_EXEC_QUEUE_PRIORITY_NORMAL },
};

static void gpuprio_other_case_desc(const struct gpuprio_other_case *c,
				    char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gpuprio_other, gpuprio_other_cases, gpuprio_other_case_desc);

/* Kernel, migration and VM bind queues never follow a task. */
static void gpuprio_test_other(struct kunit *test)
{
	static const long nices[] = { -20, 0, 19 };
	const struct gpuprio_other_case *c = test->param_value;
	struct gpuprio_test *t = test->priv;
	struct xe_exec_queue *q;
	int i;

	gpuprio_test_set_nice(10);
	q = gpuprio_test_queue(test, c->flags);
	KUNIT_EXPECT_EQ(test, q->sched_props.priority, c->priority);

	for (i = 0; i < ARRAY_SIZE(nices); i++) {
		gpuprio_test_set_nice(nices[i]);
		/* No client execs on these: xe_exec_ioctl() refuses VM queues */
		xe_exec_queue_follow_task(q, current);
		KUNIT_EXPECT_EQ_MSG(test, q->sched_props.priority,
				    c->priority, "nice %ld", nices[i]);
	}
	KUNIT_EXPECT_EQ(test, t->calls, 0);
	gpuprio_test_restore_task(test);
}

static struct kunit_case gpuprio_test_cases[] = {
	KUNIT_CASE_PARAM(gpuprio_test_create_user, gpuprio_task_gen_params),
	KUNIT_CASE_PARAM(gpuprio_test_follow, gpuprio_task_gen_params),
	KUNIT_CASE(gpuprio_test_refresh),
	KUNIT_CASE(gpuprio_test_retry),
	KUNIT_CASE_PARAM(gpuprio_test_explicit, gpuprio_explicit_gen_params),
	KUNIT_CASE(gpuprio_test_explicit_normal),
	KUNIT_CASE(gpuprio_test_fdinfo),
	KUNIT_CASE_PARAM(gpuprio_test_group_follow, gpuprio_task_gen_params),
	KUNIT_CASE(gpuprio_test_group_refresh),
	KUNIT_CASE_PARAM(gpuprio_test_group_explicit,
			 gpuprio_explicit_gen_params),
	KUNIT_CASE(gpuprio_test_group_secondary_flag),
	KUNIT_CASE(gpuprio_test_group_queue_priority),
	KUNIT_CASE_PARAM(gpuprio_test_other, gpuprio_other_gen_params),
	{}
};

static struct kunit_suite xe_exec_queue_gpuprio_suite = {
	.name = "xe_exec_queue_gpuprio",
	.test_cases = gpuprio_test_cases,
	.init = gpuprio_test_init,
};

kunit_test_suite(xe_exec_queue_gpuprio_suite);
