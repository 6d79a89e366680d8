// SPDX-License-Identifier: MIT
/*
 * Cost of following the task's GPU priority on the submission path (see
 * i915_gpuprio.c). A measurement, not a test, that takes seconds: it only
 * runs when i915.st_filter names it (perf_gpuprio_request), never as part
 * of a run of all mock selftests.
 *
 * Each round builds mock requests the way eb_request_add() does, once
 * taking the context's attributes as they are (what i915 did before) and
 * once through i915_gpuprio_record_execbuf(), and times the two attribute
 * builders alone in a tight loop. One line per round goes to the kernel
 * log:
 *
 *   i915_gpuprio_perf: round=R step_ns=S requests=N rq_base_ps=..
 *     rq_gpuprio_ps=.. calls=M attr_base_ps=.. attr_execbuf_ps=..
 *
 * in picoseconds per request or per call. The clock is local_clock(): when
 * i915 starts at boot, the timekeeping clocksource may still be jiffies
 * (4 ms steps), while local_clock() already reads the TSC on x86. Its step
 * S is measured, and each timed loop is made long enough (at least 100
 * steps) that the step does not matter.
 */

#include <linux/math64.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "gem/i915_gem_context.h"
#include "gem/selftests/mock_context.h"
#include "gt/intel_context.h"
#include "i915_gpuprio.h"
#include "i915_request.h"
#include "i915_selftest.h"
#include "mock_gem_device.h"
#include "mock_request.h"

#define PERF_ROUNDS	7
#define PERF_BATCH	64
/* Shortest timed loops, in ns, unless 100 clock steps are longer */
#define PERF_RQ_NS	(20 * NSEC_PER_MSEC)
#define PERF_ATTR_NS	(5 * NSEC_PER_MSEC)

/* The last request of a batch, kept to wait for. */
static struct i915_request *
perf_request(struct intel_context *ce, struct i915_gem_context *ctx,
	     bool gpuprio, struct i915_request *last)
{
	struct intel_timeline *tl;
	struct i915_sched_attr attr;
	struct i915_request *rq;

	rq = mock_request(ce, 0);
	if (IS_ERR(rq))
		return rq;

	/* What eb_request_add() does, with and without the GPU priority */
	tl = i915_request_timeline(rq);
	lockdep_unpin_lock(&tl->mutex, rq->cookie);
	__i915_request_commit(rq);
	if (gpuprio)
		i915_gpuprio_record_execbuf(ctx, &attr);
	else
		attr = ctx->sched;
	__i915_request_queue(rq, &attr);
	mutex_unlock(&tl->mutex);

	if (last)
		i915_request_put(last);
	return i915_request_get(rq);
}

/* Time @batches batches of requests; retiring them is not timed. */
static int perf_requests(struct drm_i915_private *i915,
			 struct intel_context *ce, struct i915_gem_context *ctx,
			 bool gpuprio, unsigned int batches, u64 *ns)
{
	struct i915_request *rq;
	unsigned int b, i;
	u64 t0;

	*ns = 0;
	for (b = 0; b < batches; b++) {
		rq = NULL;
		t0 = local_clock();
		for (i = 0; i < PERF_BATCH; i++) {
			rq = perf_request(ce, ctx, gpuprio, rq);
			if (IS_ERR(rq))
				return PTR_ERR(rq);
		}
		*ns += local_clock() - t0;

		if (i915_request_wait(rq, 0, HZ) < 0) {
			i915_request_put(rq);
			pr_err("mock request did not complete\n");
			return -ETIME;
		}
		i915_request_put(rq);
		mock_device_flush(i915);
	}
	return 0;
}

enum perf_attr { PERF_ATTR_BASE, PERF_ATTR_EXECBUF };

/* The attribute builders alone, @calls times. */
static u64 perf_attr(struct i915_gem_context *ctx, enum perf_attr what,
		     unsigned int calls)
{
	struct i915_sched_attr attr;
	unsigned int i;
	u64 t0 = local_clock();

	for (i = 0; i < calls; i++) {
		switch (what) {
		case PERF_ATTR_BASE:
			attr = ctx->sched;
			break;
		case PERF_ATTR_EXECBUF:
			i915_gpuprio_record_execbuf(ctx, &attr);
			break;
		}
		/* Keep every copy: the loop must not be optimised away */
		OPTIMIZER_HIDE_VAR(attr.priority);
		barrier();
	}
	return local_clock() - t0;
}

/* The smallest step of the clock, over a few steps. */
static u64 perf_clock_step(void)
{
	u64 step = U64_MAX, t0, t1;
	int i;

	for (i = 0; i < 8; i++) {
		t0 = local_clock();
		do {
			t1 = local_clock();
		} while (t1 == t0);
		step = min(step, t1 - t0);
	}
	return step;
}

static u64 to_ps(u64 ns, unsigned int count)
{
	return div_u64(ns * 1000, count);
}

static int perf_gpuprio_request(void *arg)
{
	struct drm_i915_private *i915 = arg;
	unsigned int round, batches, calls;
	struct i915_gem_context *ctx;
	struct intel_context *ce;
	u64 step, ns;
	int err = 0;

	ctx = kernel_context(i915, NULL);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);

	ce = i915_gem_context_get_engine(ctx, RCS0);
	if (IS_ERR(ce)) {
		err = PTR_ERR(ce);
		goto out_ctx;
	}

	/* Loops long enough for the clock: double until they are */
	step = perf_clock_step();
	for (batches = 1; batches < 1 << 16; batches *= 2) {
		err = perf_requests(i915, ce, ctx, false, batches, &ns);
		if (err || ns >= max_t(u64, PERF_RQ_NS, 100 * step))
			break;
	}
	for (calls = 1024; !err && calls < 1 << 30; calls *= 2)
		if (perf_attr(ctx, PERF_ATTR_BASE, calls) >=
		    max_t(u64, PERF_ATTR_NS, 100 * step))
			break;

	for (round = 0; !err && round < PERF_ROUNDS; round++) {
		unsigned int nreq = batches * PERF_BATCH;
		u64 rq_ns[2], attr_ns[2];
		bool first = round & 1;

		/* Alternate which variant goes first */
		err = perf_requests(i915, ce, ctx, first, batches,
				    &rq_ns[first]);
		if (!err)
			err = perf_requests(i915, ce, ctx, !first, batches,
					    &rq_ns[!first]);
		if (err)
			break;

		attr_ns[PERF_ATTR_BASE] = perf_attr(ctx, PERF_ATTR_BASE, calls);
		attr_ns[PERF_ATTR_EXECBUF] = perf_attr(ctx, PERF_ATTR_EXECBUF,
						       calls);

		pr_info("i915_gpuprio_perf: round=%u step_ns=%llu requests=%u rq_base_ps=%llu rq_gpuprio_ps=%llu calls=%u attr_base_ps=%llu attr_execbuf_ps=%llu\n",
			round, step, nreq, to_ps(rq_ns[0], nreq),
			to_ps(rq_ns[1], nreq), calls,
			to_ps(attr_ns[PERF_ATTR_BASE], calls),
			to_ps(attr_ns[PERF_ATTR_EXECBUF], calls));
		cond_resched();
	}

	intel_context_put(ce);
out_ctx:
	mock_device_flush(i915);
	kernel_context_close(ctx);
	return err;
}

/*
 * Whether i915.st_filter names @name, alone or as @caller/@name. Unlike the
 * filter itself, which runs every subtest when empty, no filter selects
 * nothing.
 */
static bool perf_selected(const char *caller, const char *name)
{
	char *filter, *sep, *tok;
	bool selected = false;

	if (!i915_selftest.filter)
		return false;

	filter = kstrdup(i915_selftest.filter, GFP_KERNEL);
	if (!filter)
		return false;

	for (sep = filter; !selected && (tok = strsep(&sep, ","));) {
		char *sl = strchr(tok, '/');

		if (sl) {
			*sl++ = '\0';
			if (strcmp(tok, caller))
				continue;
			tok = sl;
		}
		selected = !strcmp(tok, name);
	}
	kfree(filter);

	return selected;
}

int i915_gpuprio_perf_mock_selftests(void)
{
	static const struct i915_subtest tests[] = {
		SUBTEST(perf_gpuprio_request),
	};
	struct drm_i915_private *i915;
	intel_wakeref_t wakeref;
	int err = 0;

	if (!perf_selected(__func__, "perf_gpuprio_request")) {
		pr_info("i915: %s: not selected, a measurement: i915.st_filter=perf_gpuprio_request runs it\n",
			__func__);
		return 0;
	}

	i915 = mock_gem_device();
	if (!i915)
		return -ENOMEM;

	with_intel_runtime_pm(&i915->runtime_pm, wakeref)
		err = i915_subtests(tests, i915);

	mock_destroy_device(i915);
	return err;
}
