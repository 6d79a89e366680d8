// SPDX-License-Identifier: MIT
/*
 * Mock selftests for i915 following the task's GPU priority (see
 * i915_gpuprio.c). Included by i915_gem_execbuffer.c, so that requests are
 * submitted through its static eb_request_add(), as an execbuf submits
 * them. They change the GPU priority and CPU nice of the task running them
 * and restore both before returning.
 */

#include <linux/gpuprio.h>
#include <linux/hw_breakpoint.h>
#include <linux/idr.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string_choices.h>

#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <uapi/drm/i915_drm.h>

#include "gem/i915_gem_context.h"
#include "gem/selftests/mock_context.h"
#include "gt/intel_context.h"
#include "gt/intel_engine.h"
#include "i915_drm_client.h"
#include "i915_file_private.h"
#include "i915_gem.h"
#include "i915_gpuprio.h"
#include "i915_request.h"
#include "i915_scheduler.h"
#include "i915_selftest.h"
#include "mock_gem_device.h"
#include "mock_request.h"

struct gpuprio_task_state {
	u16 gpuprio;
	int nice;
};

static void gpuprio_save_task(struct gpuprio_task_state *st)
{
	st->gpuprio = task_gpuprio_raw(current);
	st->nice = task_nice(current);
}

/* Without CONFIG_GPUPRIO a task can only follow its CPU nice. */
static bool gpuprio_set_task_value(u16 gpuprio, int nice)
{
	if (!gpuprio_test_set_raw(current, gpuprio))
		return false;
	set_user_nice(current, nice);
	return true;
}

static void gpuprio_restore_task(const struct gpuprio_task_state *st)
{
	gpuprio_set_task_value(st->gpuprio, st->nice);
}

/*
 * Give the task the highest (realtime 0) or lowest (idle) GPU priority,
 * or the CPU nice closest to it without CONFIG_GPUPRIO.
 *
 * Return: the i915 priority its next request gets.
 */
static int gpuprio_set_task_extreme(bool high)
{
	u16 v = GPUPRIO_PRIO_VALUE(high ? GPUPRIO_CLASS_RT : GPUPRIO_CLASS_IDLE,
				   0);

	if (gpuprio_set_task_value(v, 0))
		return high ? I915_GPUPRIO_HIGH : I915_GPUPRIO_LOW;

	gpuprio_set_task_value(GPUPRIO_DEFAULT, high ? MIN_NICE : MAX_NICE);
	/* A negative CPU nice alone never raises the GPU above normal */
	return high ? I915_CONTEXT_DEFAULT_PRIORITY : I915_GPUPRIO_LOW;
}

static const struct gpuprio_case {
	const char *name;
	u16 gpuprio;
	int nice;
	int priority;
} gpuprio_cases[] = {
	{ "best effort -20", GPUPRIO_BE_NICE(-20), 0, I915_GPUPRIO_HIGH },
	{ "best effort -1", GPUPRIO_BE_NICE(-1), 0, I915_GPUPRIO_HIGH },
	{ "best effort 0 at CPU nice 5", GPUPRIO_BE_NICE(0), 5, 0 },
	{ "best effort 10", GPUPRIO_BE_NICE(10), 0, I915_GPUPRIO_LOW },
	{ "best effort 19 at CPU nice -5", GPUPRIO_BE_NICE(19), -5,
	  I915_GPUPRIO_LOW },
	{ "realtime 0",
	  GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0), 0, I915_GPUPRIO_HIGH },
	{ "realtime 7 at CPU nice 10",
	  GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 7), 10, I915_GPUPRIO_HIGH },
	{ "idle at CPU nice -5",
	  GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0), -5, I915_GPUPRIO_LOW },
	{ "unset at CPU nice 0", GPUPRIO_DEFAULT, 0, 0 },
	{ "unset at CPU nice 7", GPUPRIO_DEFAULT, 7, I915_GPUPRIO_LOW },
	{ "unset at CPU nice -4", GPUPRIO_DEFAULT, -4, 0 },
	{ "unset at CPU nice -10", GPUPRIO_DEFAULT, -10, 0 },
	{ "unset at CPU nice 19", GPUPRIO_DEFAULT, 19, I915_GPUPRIO_LOW },
};

static int igt_gpuprio_mapping(void *arg)
{
	int nice, level;

	/* Mesa's iris: its low, medium and high context priorities */
	if (I915_GPUPRIO_LOW != -512 || I915_GPUPRIO_HIGH != 512) {
		pr_err("levels %d and %d are not iris' low and high\n",
		       I915_GPUPRIO_LOW, I915_GPUPRIO_HIGH);
		return -EINVAL;
	}

	/* Three bands only: the sign of the GPU nice */
	for (nice = MIN_NICE; nice <= MAX_NICE; nice++) {
		int prio = i915_gpuprio_to_priority(GPUPRIO_BE_NICE(nice));
		int expected = nice < 0 ? I915_GPUPRIO_HIGH :
			       nice > 0 ? I915_GPUPRIO_LOW : 0;

		if (prio != expected) {
			pr_err("best effort nice %d mapped to %d\n", nice, prio);
			return -EINVAL;
		}
	}

	for (level = 0; level < GPUPRIO_RT_LEVELS; level++) {
		u16 v = GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, level);
		int prio = i915_gpuprio_to_priority(v);

		if (prio != I915_GPUPRIO_HIGH) {
			pr_err("realtime level %d mapped to %d\n", level, prio);
			return -EINVAL;
		}
	}

	if (i915_gpuprio_to_priority(GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE,
							0)) !=
	    I915_GPUPRIO_LOW) {
		pr_err("idle is not the low band\n");
		return -EINVAL;
	}

	/* Unresolved or unknown values are harmless */
	if (i915_gpuprio_to_priority(GPUPRIO_DEFAULT) !=
	    I915_CONTEXT_DEFAULT_PRIORITY ||
	    i915_gpuprio_to_priority(GPUPRIO_PRIO_VALUE(7, 0)) !=
	    I915_CONTEXT_DEFAULT_PRIORITY) {
		pr_err("unresolved value not mapped to the default\n");
		return -EINVAL;
	}

	return 0;
}

/* Context creation records the creating task's priority. */
static int igt_gpuprio_create(void *arg)
{
	struct drm_i915_private *i915 = arg;
	struct gpuprio_task_state saved;
	unsigned int i, skipped = 0;
	int err = 0;

	gpuprio_save_task(&saved);

	for (i = 0; i < ARRAY_SIZE(gpuprio_cases); i++) {
		const struct gpuprio_case *c = &gpuprio_cases[i];
		struct i915_gem_context *ctx;

		if (!gpuprio_set_task_value(c->gpuprio, c->nice)) {
			skipped++;
			continue;
		}

		ctx = kernel_context(i915, NULL);
		if (IS_ERR(ctx)) {
			err = PTR_ERR(ctx);
			break;
		}

		if (ctx->gpuprio != c->priority ||
		    i915_gpuprio_context_priority(ctx) != c->priority ||
		    ctx->sched.priority != I915_CONTEXT_DEFAULT_PRIORITY) {
			pr_err("%s: context created with gpuprio %d, effective %d, own %d, expected %d\n",
			       c->name, ctx->gpuprio,
			       i915_gpuprio_context_priority(ctx),
			       ctx->sched.priority, c->priority);
			err = -EINVAL;
		}
		kernel_context_close(ctx);
		if (err)
			break;
	}

	gpuprio_restore_task(&saved);
	if (skipped)
		pr_info("%u case(s) need CONFIG_GPUPRIO, skipped\n", skipped);
	return err;
}

/* An unset GPU priority follows the CPU nice, also after it changes. */
static int igt_gpuprio_create_follows_nice(void *arg)
{
	struct drm_i915_private *i915 = arg;
	struct i915_gem_context *ctx[2];
	struct gpuprio_task_state saved;
	int err = 0;

	gpuprio_save_task(&saved);

	gpuprio_set_task_value(GPUPRIO_DEFAULT, 3);
	ctx[0] = kernel_context(i915, NULL);
	set_user_nice(current, -2);
	ctx[1] = kernel_context(i915, NULL);
	gpuprio_restore_task(&saved);

	if (IS_ERR(ctx[0]) || IS_ERR(ctx[1])) {
		err = IS_ERR(ctx[0]) ? PTR_ERR(ctx[0]) : PTR_ERR(ctx[1]);
		goto out;
	}

	/* A negative CPU nice alone never raises the GPU above normal */
	if (ctx[0]->gpuprio != I915_GPUPRIO_LOW || ctx[1]->gpuprio != 0) {
		pr_err("contexts created at CPU nice 3 then -2 got %d and %d\n",
		       ctx[0]->gpuprio, ctx[1]->gpuprio);
		err = -EINVAL;
	}

out:
	if (!IS_ERR(ctx[1]))
		kernel_context_close(ctx[1]);
	if (!IS_ERR(ctx[0]))
		kernel_context_close(ctx[0]);
	return err;
}

/*
 * Give the mock engine what execlists gives an engine that can preempt.
 * Return: false if this build never uses semaphores (no timeslices).
 */
static bool gpuprio_engine_semaphores(struct intel_engine_cs *engine)
{
	engine->flags |= I915_ENGINE_HAS_SEMAPHORES | I915_ENGINE_HAS_TIMESLICES;
	if (intel_engine_has_timeslices(engine))
		return true;

	pr_info("no timeslices (CONFIG_DRM_I915_TIMESLICE_DURATION=0): semaphores are never used, skipped\n");
	return false;
}

/*
 * Only contexts at normal priority or above may busy-wait on semaphores,
 * as decided when their engines are set up: from the creating task's
 * priority while the context has none of its own.
 */
static int igt_gpuprio_semaphores(void *arg)
{
	static const struct {
		const char *name;
		u16 gpuprio;
		int nice;
		bool semaphores;
	} cases[] = {
		{ "unset at CPU nice 0", GPUPRIO_DEFAULT, 0, true },
		{ "best effort -5", GPUPRIO_BE_NICE(-5), 0, true },
		{ "best effort 10", GPUPRIO_BE_NICE(10), 0, false },
		{ "unset at CPU nice 7", GPUPRIO_DEFAULT, 7, false },
		{ "idle", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0), 0, false },
	};
	struct drm_i915_private *i915 = arg;
	struct intel_engine_cs *engine = to_gt(i915)->engine[RCS0];
	unsigned long flags = engine->flags;
	struct gpuprio_task_state saved;
	unsigned int i;
	int err = 0;

	if (!gpuprio_engine_semaphores(engine))
		goto out_flags;

	gpuprio_save_task(&saved);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct i915_gem_context *ctx;
		struct intel_context *ce;
		bool used;

		gpuprio_set_task_value(cases[i].gpuprio, cases[i].nice);
		ctx = kernel_context(i915, NULL);
		if (IS_ERR(ctx)) {
			err = PTR_ERR(ctx);
			break;
		}

		ce = i915_gem_context_get_engine(ctx, RCS0);
		if (IS_ERR(ce)) {
			err = PTR_ERR(ce);
		} else {
			used = intel_context_use_semaphores(ce);
			intel_context_put(ce);
			if (used != cases[i].semaphores) {
				pr_err("%s: semaphores %s, expected %s\n",
				       cases[i].name, str_yes_no(used),
				       str_yes_no(cases[i].semaphores));
				err = -EINVAL;
			}
		}
		kernel_context_close(ctx);
		if (err)
			break;
	}
	gpuprio_restore_task(&saved);

out_flags:
	engine->flags = flags;
	return err;
}

/*
 * The mock engine has no scheduler: give it the one of execlists so that a
 * request's attributes are recorded in its scheduling node.
 */
static void gpuprio_mock_scheduler(struct drm_i915_private *i915, bool on)
{
	struct intel_engine_cs *engine = to_gt(i915)->engine[RCS0];

	engine->sched_engine->schedule = on ? i915_schedule : NULL;
}

static struct i915_request *
gpuprio_request(struct i915_gem_context *ctx, unsigned long delay)
{
	struct intel_context *ce;
	struct i915_request *rq;

	ce = i915_gem_context_get_engine(ctx, RCS0);
	if (IS_ERR(ce))
		return ERR_CAST(ce);

	rq = mock_request(ce, delay);
	intel_context_put(ce);
	if (!IS_ERR(rq))
		i915_request_get(rq);
	return rq;
}

/* Submit @rq to @ctx the way an execbuf does, after its batch. */
static int gpuprio_execbuf_add(struct i915_gem_context *ctx,
			       struct i915_request *rq)
{
	struct i915_execbuffer eb = {
		.i915 = ctx->i915,
		.context = rq->context,
		.gem_context = ctx,
	};
	int err;

	err = eb_request_add(&eb, rq, 0, true);
	if (err)
		pr_err("eb_request_add() failed with %d\n", err);
	return err;
}

static int gpuprio_check_rq(const char *what, struct i915_request *rq,
			    int expected)
{
	int prio = READ_ONCE(rq->sched.attr.priority);

	if (prio == expected)
		return 0;

	pr_err("%s: request priority %d, expected %d\n", what, prio, expected);
	return -EINVAL;
}

/* A request of @ctx submitted by execbuf, with a reference for the checks. */
static struct i915_request *
gpuprio_execbuf(struct i915_gem_context *ctx, unsigned long delay)
{
	struct i915_request *rq;
	int err;

	rq = gpuprio_request(ctx, delay);
	if (IS_ERR(rq))
		return rq;

	err = gpuprio_execbuf_add(ctx, rq);
	if (err) {
		i915_request_put(rq);
		return ERR_PTR(err);
	}
	return rq;
}

/*
 * Each execbuf reads the submitting task's priority again: a change
 * between two submissions changes the second request only. The context's
 * own priority wins, and requests added by other means than execbuf keep
 * the context's own priority.
 */
static int igt_gpuprio_submit(void *arg)
{
	struct drm_i915_private *i915 = arg;
	struct i915_request *rq[5] = {};
	struct gpuprio_task_state saved;
	struct i915_gem_context *ctx[2];
	struct i915_sched_attr attr;
	unsigned int n;
	int err = 0;
	int i;

	gpuprio_save_task(&saved);
	gpuprio_mock_scheduler(i915, true);

	/* Created at CPU nice 5, submitted from tasks at other values */
	gpuprio_set_task_value(GPUPRIO_DEFAULT, 5);
	ctx[0] = kernel_context(i915, NULL);
	ctx[1] = kernel_context(i915, NULL);
	if (IS_ERR(ctx[0]) || IS_ERR(ctx[1])) {
		err = -ENOMEM;
		goto out_ctx;
	}

	/* The attributes of an execbuf request, for each class */
	for (n = 0; n < ARRAY_SIZE(gpuprio_cases); n++) {
		const struct gpuprio_case *c = &gpuprio_cases[n];

		if (!gpuprio_set_task_value(c->gpuprio, c->nice))
			continue;

		i915_gpuprio_record_execbuf(ctx[1], &attr);
		if (attr.priority != c->priority ||
		    ctx[1]->gpuprio != c->priority) {
			pr_err("%s: execbuf attr %d, context %d, expected %d\n",
			       c->name, attr.priority, ctx[1]->gpuprio,
			       c->priority);
			err = -EINVAL;
			goto out_ctx;
		}
	}

	/* Long delay: nothing completes before the checks */
	gpuprio_set_task_value(GPUPRIO_DEFAULT, 0);
	rq[0] = gpuprio_execbuf(ctx[0], 10 * HZ);
	if (IS_ERR(rq[0])) {
		err = PTR_ERR(rq[0]);
		goto out;
	}
	err = gpuprio_check_rq("first execbuf at nice 0", rq[0], 0);
	if (!err && ctx[0]->gpuprio != 0) {
		pr_err("first execbuf at nice 0 stored %d\n", ctx[0]->gpuprio);
		err = -EINVAL;
	}
	if (err)
		goto out;

	/* Lowered between two submissions on the same context */
	gpuprio_set_task_value(GPUPRIO_DEFAULT, 10);
	rq[1] = gpuprio_execbuf(ctx[0], 0);
	if (IS_ERR(rq[1])) {
		err = PTR_ERR(rq[1]);
		goto out;
	}
	err = gpuprio_check_rq("second execbuf at nice 10", rq[1],
			       I915_GPUPRIO_LOW);
	if (!err)
		err = gpuprio_check_rq("first request after the change",
				       rq[0], 0);
	if (err)
		goto out;

	/* Raised, on another context: the earlier requests keep theirs */
	gpuprio_set_task_value(GPUPRIO_BE_NICE(-5), 0);
	rq[2] = gpuprio_execbuf(ctx[1], 0);
	if (IS_ERR(rq[2])) {
		err = PTR_ERR(rq[2]);
		goto out;
	}
	err = gpuprio_check_rq("execbuf at GPU nice -5", rq[2],
			       I915_GPUPRIO_HIGH);
	if (!err)
		err = gpuprio_check_rq("first request", rq[0], 0);
	if (!err)
		err = gpuprio_check_rq("second request", rq[1],
				       I915_GPUPRIO_LOW);
	if (err)
		goto out;

	/* The context's own priority, from a lowered task */
	gpuprio_set_task_value(GPUPRIO_DEFAULT, 15);
	ctx[1]->sched.priority = 7;
	rq[3] = gpuprio_execbuf(ctx[1], 0);
	ctx[1]->sched.priority = I915_CONTEXT_DEFAULT_PRIORITY;
	if (IS_ERR(rq[3])) {
		err = PTR_ERR(rq[3]);
		goto out;
	}
	err = gpuprio_check_rq("execbuf at priority 7 from nice 15", rq[3], 7);
	if (err)
		goto out;

	/* Not an execbuf: the context's own priority, not its task's */
	rq[4] = gpuprio_request(ctx[0], 0);
	if (IS_ERR(rq[4])) {
		err = PTR_ERR(rq[4]);
		goto out;
	}
	i915_request_add(rq[4]);
	err = gpuprio_check_rq("i915_request_add after execbuf at nice 10",
			       rq[4], I915_CONTEXT_DEFAULT_PRIORITY);

out:
	mock_device_flush(i915);
	for (i = 0; i < ARRAY_SIZE(rq); i++)
		if (!IS_ERR_OR_NULL(rq[i]))
			i915_request_put(rq[i]);
out_ctx:
	for (i = 0; i < ARRAY_SIZE(ctx); i++)
		if (!IS_ERR(ctx[i]))
			kernel_context_close(ctx[i]);
	gpuprio_mock_scheduler(i915, false);
	gpuprio_restore_task(&saved);
	return err;
}

#ifdef CONFIG_HAVE_HW_BREAKPOINT
struct gpuprio_race {
	int *gpuprio;
	int other;
	atomic_t writes;
};

/*
 * Another thread's execbuf on the same context, storing its own priority
 * right after this thread stored its: the watchpoint's handler runs after
 * the write it traps.
 */
static void gpuprio_race_write(struct perf_event *bp,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	struct gpuprio_race *race = bp->overflow_handler_context;

	if (atomic_inc_return(&race->writes) == 1)
		WRITE_ONCE(*race->gpuprio, race->other);
}

/*
 * Two threads submitting to one context each store their priority in it:
 * a request gets the priority of the task that submitted it even when the
 * other thread stores its own between that store and the end of the
 * submission. A hardware watchpoint on ctx->gpuprio plays the other thread,
 * so the interleaving is forced rather than hoped for.
 */
static int igt_gpuprio_race(void *arg)
{
	struct drm_i915_private *i915 = arg;
	struct perf_event * __percpu *bp;
	struct gpuprio_task_state saved;
	struct perf_event_attr wp;
	struct i915_gem_context *ctx;
	struct gpuprio_race race;
	struct i915_request *rq;
	int err = 0;

	gpuprio_save_task(&saved);
	gpuprio_mock_scheduler(i915, true);

	gpuprio_set_task_value(GPUPRIO_DEFAULT, 0);
	ctx = kernel_context(i915, NULL);
	if (IS_ERR(ctx)) {
		err = PTR_ERR(ctx);
		goto out_task;
	}

	/* This thread is lowered, the other one is high */
	gpuprio_set_task_value(GPUPRIO_DEFAULT, 10);
	rq = gpuprio_request(ctx, 0);
	if (IS_ERR(rq)) {
		err = PTR_ERR(rq);
		goto out_ctx;
	}

	race.gpuprio = &ctx->gpuprio;
	race.other = I915_GPUPRIO_HIGH;
	atomic_set(&race.writes, 0);
	hw_breakpoint_init(&wp);
	wp.bp_addr = (unsigned long)&ctx->gpuprio;
	wp.bp_len = HW_BREAKPOINT_LEN_4;
	wp.bp_type = HW_BREAKPOINT_W;
	bp = register_wide_hw_breakpoint(&wp, gpuprio_race_write, &race);
	if (IS_ERR(bp)) {
		pr_err("watchpoint on ctx->gpuprio: error %ld\n", PTR_ERR(bp));
		err = PTR_ERR(bp);
		/* The request is built: it must still be submitted */
		bp = NULL;
	}

	err = gpuprio_execbuf_add(ctx, rq) ?: err;
	if (bp)
		unregister_wide_hw_breakpoint(bp);
	if (err)
		goto out_rq;

	if (!atomic_read(&race.writes)) {
		pr_err("execbuf did not store its priority in the context\n");
		err = -EINVAL;
		goto out_rq;
	}
	err = gpuprio_check_rq("execbuf at nice 10 racing one at high", rq,
			       I915_GPUPRIO_LOW);

out_rq:
	i915_request_put(rq);
	mock_device_flush(i915);
out_ctx:
	kernel_context_close(ctx);
out_task:
	gpuprio_mock_scheduler(i915, false);
	gpuprio_restore_task(&saved);
	return err;
}
#else
static int igt_gpuprio_race(void *arg)
{
	pr_info("no hardware breakpoints to force the race with, skipped\n");
	return 0;
}
#endif

/*
 * A task lowered after it created a context stops busy-waiting on
 * semaphores from its next execbuf on, and resumes when raised again; the
 * context's own priority decides while it has one.
 */
static int igt_gpuprio_execbuf_semaphores(void *arg)
{
	static const struct {
		const char *name;
		int nice;
		int own;
		bool semaphores;
	} steps[] = {
		{ "execbuf at nice 10", 10, I915_CONTEXT_DEFAULT_PRIORITY, false },
		{ "execbuf at nice 0", 0, I915_CONTEXT_DEFAULT_PRIORITY, true },
		{ "execbuf at nice 10, own 1", 10, 1, true },
		{ "execbuf at nice 0, own -1", 0, -1, false },
	};
	struct drm_i915_private *i915 = arg;
	struct intel_engine_cs *engine = to_gt(i915)->engine[RCS0];
	unsigned long flags = engine->flags;
	struct gpuprio_task_state saved;
	struct i915_gem_context *ctx;
	struct intel_context *ce;
	unsigned int i;
	int err = 0;

	if (!gpuprio_engine_semaphores(engine))
		goto out_flags;

	gpuprio_save_task(&saved);
	gpuprio_mock_scheduler(i915, true);
	gpuprio_set_task_value(GPUPRIO_DEFAULT, 0);
	ctx = kernel_context(i915, NULL);
	if (IS_ERR(ctx)) {
		err = PTR_ERR(ctx);
		goto out_task;
	}
	ce = i915_gem_context_get_engine(ctx, RCS0);
	if (IS_ERR(ce)) {
		err = PTR_ERR(ce);
		goto out_ctx;
	}

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		struct i915_request *rq;
		bool used;

		gpuprio_set_task_value(GPUPRIO_DEFAULT, steps[i].nice);
		ctx->sched.priority = steps[i].own;
		rq = gpuprio_execbuf(ctx, 0);
		ctx->sched.priority = I915_CONTEXT_DEFAULT_PRIORITY;
		if (IS_ERR(rq)) {
			err = PTR_ERR(rq);
			break;
		}
		i915_request_put(rq);

		used = intel_context_use_semaphores(ce);
		if (used != steps[i].semaphores) {
			pr_err("%s: semaphores %s, expected %s\n",
			       steps[i].name, str_yes_no(used),
			       str_yes_no(steps[i].semaphores));
			err = -EINVAL;
			break;
		}
	}

	intel_context_put(ce);
	mock_device_flush(i915);
out_ctx:
	kernel_context_close(ctx);
out_task:
	gpuprio_mock_scheduler(i915, false);
	gpuprio_restore_task(&saved);
out_flags:
	engine->flags = flags;
	return err;
}

/* The context's own priority wins; GETPARAM still reads it back. */
static int igt_gpuprio_explicit(void *arg)
{
	struct drm_i915_private *i915 = arg;
	struct gpuprio_task_state saved;
	struct i915_gem_context *ctx;
	struct i915_sched_attr attr;
	int err = 0;

	gpuprio_save_task(&saved);

	gpuprio_set_task_value(GPUPRIO_DEFAULT, 10);
	ctx = kernel_context(i915, NULL);
	if (IS_ERR(ctx)) {
		err = PTR_ERR(ctx);
		goto out_task;
	}

	/* What set_priority() and the proto-context SETPARAM store */
	ctx->sched.priority = 7;
	if (i915_gpuprio_context_priority(ctx) != 7) {
		pr_err("explicit priority 7 not used at creation\n");
		err = -EINVAL;
		goto out;
	}

	gpuprio_set_task_value(GPUPRIO_DEFAULT, -15);
	i915_gpuprio_record_execbuf(ctx, &attr);
	if (attr.priority != 7 || ctx->sched.priority != 7) {
		pr_err("explicit 7 at nice -15: attr %d, own %d\n",
		       attr.priority, ctx->sched.priority);
		err = -EINVAL;
		goto out;
	}

	ctx->sched.priority = I915_CONTEXT_MIN_USER_PRIORITY;
	if (gpuprio_set_task_value(GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0),
				   0)) {
		i915_gpuprio_record_execbuf(ctx, &attr);
		if (attr.priority != I915_CONTEXT_MIN_USER_PRIORITY) {
			pr_err("explicit minimum from a realtime task: attr %d\n",
			       attr.priority);
			err = -EINVAL;
			goto out;
		}
	}

	/* Back to the default: the task's value applies again */
	ctx->sched.priority = I915_CONTEXT_DEFAULT_PRIORITY;
	gpuprio_set_task_value(GPUPRIO_DEFAULT, 6);
	i915_gpuprio_record_execbuf(ctx, &attr);
	if (attr.priority != I915_GPUPRIO_LOW) {
		pr_err("default priority at nice 6: attr %d\n", attr.priority);
		err = -EINVAL;
	}

out:
	kernel_context_close(ctx);
out_task:
	gpuprio_restore_task(&saved);
	return err;
}

/*
 * Priority inheritance only raises: a request lowered by its task does not
 * lower what it waits on, and a raised waiter lifts its signalers.
 */
static int igt_gpuprio_deps(void *arg)
{
	struct drm_i915_private *i915 = arg;
	struct i915_sched_attr low = {
		.priority = I915_CONTEXT_MIN_USER_PRIORITY,
	};
	struct i915_request *rq[3] = {};
	struct gpuprio_task_state saved;
	struct i915_gem_context *ctx;
	int lowest, highest;
	int err = 0;
	int i;

	gpuprio_save_task(&saved);
	gpuprio_mock_scheduler(i915, true);

	ctx = kernel_context(i915, NULL);
	if (IS_ERR(ctx)) {
		err = PTR_ERR(ctx);
		goto out_task;
	}

	/* rq[0] at GPU nice -3 keeps the engine busy; rq[1] waits for it */
	gpuprio_set_task_value(GPUPRIO_BE_NICE(-3), 0);
	rq[0] = gpuprio_execbuf(ctx, 10 * HZ);
	if (IS_ERR(rq[0])) {
		err = PTR_ERR(rq[0]);
		goto out;
	}

	lowest = gpuprio_set_task_extreme(false);
	rq[1] = gpuprio_execbuf(ctx, 0);
	if (IS_ERR(rq[1])) {
		err = PTR_ERR(rq[1]);
		goto out;
	}
	err = gpuprio_check_rq("idle waiter", rq[1], lowest);
	if (!err)
		err = gpuprio_check_rq("signaler of an idle waiter", rq[0],
				       I915_GPUPRIO_HIGH);
	if (err)
		goto out;

	/* Explicitly asking for less changes nothing */
	i915_schedule(rq[1], &low);
	i915_schedule(rq[0], &low);
	err = gpuprio_check_rq("idle waiter rescheduled lower", rq[1],
			       lowest);
	if (!err)
		err = gpuprio_check_rq("signaler rescheduled lower", rq[0],
				       I915_GPUPRIO_HIGH);
	if (err)
		goto out;

	/* A realtime waiter lifts the idle request it waits on */
	highest = gpuprio_set_task_extreme(true);
	rq[2] = gpuprio_execbuf(ctx, 0);
	if (IS_ERR(rq[2])) {
		err = PTR_ERR(rq[2]);
		goto out;
	}
	err = gpuprio_check_rq("realtime waiter", rq[2], highest);
	if (!err)
		err = gpuprio_check_rq("idle request under a realtime waiter",
				       rq[1], highest);
	if (!err && READ_ONCE(rq[0]->sched.attr.priority) < I915_GPUPRIO_HIGH) {
		pr_err("first request lowered to %d\n",
		       rq[0]->sched.attr.priority);
		err = -EINVAL;
	}

out:
	mock_device_flush(i915);
	for (i = 0; i < ARRAY_SIZE(rq); i++)
		if (!IS_ERR_OR_NULL(rq[i]))
			i915_request_put(rq[i]);
	kernel_context_close(ctx);
out_task:
	gpuprio_mock_scheduler(i915, false);
	gpuprio_restore_task(&saved);
	return err;
}

struct gpuprio_fdinfo_buf {
	char text[1024];
	size_t len;
};

static void gpuprio_fdinfo_print(struct drm_printer *p, struct va_format *vaf)
{
	struct gpuprio_fdinfo_buf *buf = p->arg;

	buf->len += scnprintf(buf->text + buf->len,
			      sizeof(buf->text) - buf->len, "%pV", vaf);
}

/*
 * A DRM file of the mock device as i915_driver_open() leaves it. The mock
 * driver has no file operations to open a real one with, so only what
 * i915_gem_open() and i915_drm_client_fdinfo() use is set up.
 */
static struct drm_file *gpuprio_open_drm_file(struct drm_i915_private *i915)
{
	struct drm_file *file;
	int err;

	file = kzalloc_obj(*file);
	if (!file)
		return ERR_PTR(-ENOMEM);

	/* The object IDR, as drm_gem_open() (internal to the DRM core) does */
	idr_init_base(&file->object_idr, 1);
	spin_lock_init(&file->table_lock);
	err = i915_gem_open(i915, file);
	if (err) {
		idr_destroy(&file->object_idr);
		kfree(file);
		return ERR_PTR(err);
	}
	return file;
}

/* What i915_driver_postclose() and the DRM core do when it is closed. */
static void gpuprio_close_drm_file(struct drm_file *file)
{
	struct drm_i915_file_private *fpriv = file->driver_priv;

	i915_gem_context_close(file);
	i915_drm_client_put(fpriv->client);
	kfree_rcu(fpriv, rcu);
	idr_destroy(&file->object_idr);
	kfree(file);
}

/*
 * The drm-gpuprio line of @file's fdinfo, as the DRM core's show_fdinfo
 * prints it through i915_drm_client_fdinfo(), is @expected, or there is
 * none if @expected is NULL.
 */
static int gpuprio_check_fdinfo(const char *what, struct drm_file *file,
				struct gpuprio_fdinfo_buf *buf,
				const char *expected)
{
	struct drm_printer p = {
		.printfn = gpuprio_fdinfo_print,
		.arg = buf,
	};
	const char *line;
	size_t len;

	buf->len = 0;
	buf->text[0] = '\0';
	i915_drm_client_fdinfo(&p, file);
	line = strstr(buf->text, "drm-gpuprio:");
	if (!line && !expected)
		return 0;

	len = line ? strcspn(line, "\n") : 0;
	if (line && expected && len == strlen(expected) &&
	    !strncmp(line, expected, len))
		return 0;

	pr_err("fdinfo %s: '%.*s', expected '%s'\n", what, (int)len,
	       line ?: "", expected ?: "no drm-gpuprio");
	return -EINVAL;
}

/*
 * A DRM file's fdinfo shows the level of its client's most recent execbuf,
 * and whether the context's own priority overrode it.
 */
static int igt_gpuprio_fdinfo(void *arg)
{
	struct drm_i915_private *i915 = arg;
	struct drm_i915_file_private *fpriv;
	struct gpuprio_task_state saved;
	struct gpuprio_fdinfo_buf *buf;
	struct i915_gem_context *ctx;
	struct i915_sched_attr attr;
	struct drm_file *file;
	int err;

	buf = kzalloc_obj(*buf);
	if (!buf)
		return -ENOMEM;

	gpuprio_save_task(&saved);
	gpuprio_set_task_value(GPUPRIO_DEFAULT, 0);
	file = gpuprio_open_drm_file(i915);
	if (IS_ERR(file)) {
		err = PTR_ERR(file);
		goto out_task;
	}
	fpriv = file->driver_priv;

	/* The file's default context, which i915_gem_open() created */
	ctx = i915_gem_context_lookup(fpriv, 0);
	if (IS_ERR(ctx)) {
		err = PTR_ERR(ctx);
		goto out_file;
	}

	err = gpuprio_check_fdinfo("before any execbuf", file, buf, NULL);
	if (err)
		goto out_ctx;

	gpuprio_set_task_value(GPUPRIO_DEFAULT, 4);
	i915_gpuprio_record_execbuf(ctx, &attr);
	gpuprio_set_task_value(GPUPRIO_DEFAULT, 9);
	i915_gpuprio_record_execbuf(ctx, &attr);
	err = gpuprio_check_fdinfo("after execbufs at nice 4 then 9", file, buf,
				   "drm-gpuprio:\tlow");
	if (err)
		goto out_ctx;

	/* The application's own priority overrides the task's band */
	ctx->sched.priority = 7;
	gpuprio_set_task_value(GPUPRIO_DEFAULT, 0);
	i915_gpuprio_record_execbuf(ctx, &attr);
	ctx->sched.priority = I915_CONTEXT_DEFAULT_PRIORITY;
	err = gpuprio_check_fdinfo("after an execbuf at priority 7", file, buf,
				   "drm-gpuprio:\tnormal overridden");

out_ctx:
	i915_gem_context_put(ctx);
out_file:
	gpuprio_close_drm_file(file);
out_task:
	gpuprio_restore_task(&saved);
	kfree(buf);
	return err;
}

int i915_gpuprio_mock_selftests(void)
{
	static const struct i915_subtest tests[] = {
		SUBTEST(igt_gpuprio_mapping),
		SUBTEST(igt_gpuprio_create),
		SUBTEST(igt_gpuprio_create_follows_nice),
		SUBTEST(igt_gpuprio_semaphores),
		SUBTEST(igt_gpuprio_submit),
		SUBTEST(igt_gpuprio_race),
		SUBTEST(igt_gpuprio_execbuf_semaphores),
		SUBTEST(igt_gpuprio_explicit),
		SUBTEST(igt_gpuprio_deps),
		SUBTEST(igt_gpuprio_fdinfo),
	};
	struct drm_i915_private *i915;
	intel_wakeref_t wakeref;
	int err = 0;

	i915 = mock_gem_device();
	if (!i915)
		return -ENOMEM;

	with_intel_runtime_pm(&i915->runtime_pm, wakeref)
		err = i915_subtests(tests, i915);

	mock_destroy_device(i915);

	return err;
}
