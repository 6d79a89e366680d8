// SPDX-License-Identifier: MIT
/*
 * Cost of following the task's GPU priority on the submission path (see
 * i915_gpuprio.c), for make bench. Not part of the default selection: it
 * only runs when asked for with i915.igt__<line>__mock_gpuprio_perf=1.
 *
 * Each round builds mock requests the way eb_request_add() does, once
 * taking the context's attributes as they are (what i915 did before) and
 * once through i915_gpuprio_execbuf_attr(), and times the two attribute
 * builders alone in a tight loop. One line per round goes to the kernel
 * log, for tests/bench/report.py:
 *
 *   i915_gpuprio_perf: round=R requests=N rq_base_ps=.. rq_gpuprio_ps=..
 *     calls=M attr_base_ps=.. attr_execbuf_ps=.. attr_context_ps=..
 *
 * in picoseconds per request or per call.
 */

#include <linux/ktime.h>
#include <linux/math64.h>

#include "gem/i915_gem_context.h"
#include "gem/selftests/mock_context.h"
#include "gt/intel_context.h"
#include "i915_gpuprio.h"
#include "i915_request.h"
#include "i915_selftest.h"
#include "mock_gem_device.h"
#include "mock_request.h"

#define PERF_ROUNDS	9
#define PERF_BATCHES	8
#define PERF_BATCH	64
#define PERF_CALLS	100000

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
		i915_gpuprio_execbuf_attr(ctx, &attr);
	else
		attr = ctx->sched;
	__i915_request_queue(rq, &attr);
	mutex_unlock(&tl->mutex);

	if (last)
		i915_request_put(last);
	return i915_request_get(rq);
}

/* Time PERF_BATCHES batches of requests; retiring them is not timed. */
static int perf_requests(struct drm_i915_private *i915,
			 struct intel_context *ce, struct i915_gem_context *ctx,
			 bool gpuprio, u64 *ns)
{
	struct i915_request *rq;
	unsigned int b, i;
	u64 t0;

	*ns = 0;
	for (b = 0; b < PERF_BATCHES; b++) {
		rq = NULL;
		t0 = ktime_get_ns();
		for (i = 0; i < PERF_BATCH; i++) {
			rq = perf_request(ce, ctx, gpuprio, rq);
			if (IS_ERR(rq))
				return PTR_ERR(rq);
		}
		*ns += ktime_get_ns() - t0;

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

enum perf_attr { PERF_ATTR_BASE, PERF_ATTR_EXECBUF, PERF_ATTR_CONTEXT };

/* The attribute builders alone, PERF_CALLS times. */
static u64 perf_attr(struct i915_gem_context *ctx, enum perf_attr what)
{
	struct i915_sched_attr attr;
	unsigned int i;
	u64 t0 = ktime_get_ns();

	for (i = 0; i < PERF_CALLS; i++) {
		switch (what) {
		case PERF_ATTR_BASE:
			attr = ctx->sched;
			break;
		case PERF_ATTR_EXECBUF:
			i915_gpuprio_execbuf_attr(ctx, &attr);
			break;
		case PERF_ATTR_CONTEXT:
			i915_gpuprio_context_attr(ctx, &attr);
			break;
		}
		/* Keep every copy: the loop must not be optimised away */
		OPTIMIZER_HIDE_VAR(attr.priority);
		barrier();
	}
	return ktime_get_ns() - t0;
}

static u64 to_ps(u64 ns, unsigned int count)
{
	return div_u64(ns * 1000, count);
}

static int perf_gpuprio_request(void *arg)
{
	const unsigned int nreq = PERF_BATCHES * PERF_BATCH;
	struct drm_i915_private *i915 = arg;
	struct i915_gem_context *ctx;
	struct intel_context *ce;
	unsigned int round;
	int err = 0;

	ctx = kernel_context(i915, NULL);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);

	ce = i915_gem_context_get_engine(ctx, RCS0);
	if (IS_ERR(ce)) {
		err = PTR_ERR(ce);
		goto out_ctx;
	}

	for (round = 0; round < PERF_ROUNDS; round++) {
		u64 rq_ns[2], attr_ns[3];
		bool first = round & 1;

		/* Alternate which variant goes first */
		err = perf_requests(i915, ce, ctx, first, &rq_ns[first]);
		if (!err)
			err = perf_requests(i915, ce, ctx, !first,
					    &rq_ns[!first]);
		if (err)
			break;

		attr_ns[PERF_ATTR_BASE] = perf_attr(ctx, PERF_ATTR_BASE);
		attr_ns[PERF_ATTR_EXECBUF] = perf_attr(ctx, PERF_ATTR_EXECBUF);
		attr_ns[PERF_ATTR_CONTEXT] = perf_attr(ctx, PERF_ATTR_CONTEXT);

		pr_info("i915_gpuprio_perf: round=%u requests=%u rq_base_ps=%llu rq_gpuprio_ps=%llu calls=%u attr_base_ps=%llu attr_execbuf_ps=%llu attr_context_ps=%llu\n",
			round, nreq, to_ps(rq_ns[0], nreq),
			to_ps(rq_ns[1], nreq), PERF_CALLS,
			to_ps(attr_ns[PERF_ATTR_BASE], PERF_CALLS),
			to_ps(attr_ns[PERF_ATTR_EXECBUF], PERF_CALLS),
			to_ps(attr_ns[PERF_ATTR_CONTEXT], PERF_CALLS));
		cond_resched();
	}

	intel_context_put(ce);
out_ctx:
	mock_device_flush(i915);
	kernel_context_close(ctx);
	return err;
}

int i915_gpuprio_perf_mock_selftests(void)
{
	static const struct i915_subtest tests[] = {
		SUBTEST(perf_gpuprio_request),
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
	if (!err)
		pr_info("i915: %s: passed\n", __func__);
	return err;
}
