// SPDX-License-Identifier: MIT
/*
 * Mock selftests of the GuC bucket each task GPU priority ends up in,
 * included by intel_guc_submission.c to reach its static mapping and
 * guc_context_init().
 */

#include <linux/gpuprio.h>

#include "gem/selftests/mock_context.h"
#include "i915_gpuprio.h"
#include "i915_selftest.h"
#include "selftests/mock_gem_device.h"

static int igt_guc_gpuprio_buckets(void *arg)
{
	/* Not static: the LRC priorities are not constant expressions */
	const struct {
		const char *name;
		u16 gpuprio;
		u8 bucket;
		u32 lrc_prio;
	} cases[] = {
		{ "realtime 0", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0),
		  GUC_CLIENT_PRIORITY_HIGH, GEN12_CTX_PRIORITY_HIGH },
		{ "realtime 7", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 7),
		  GUC_CLIENT_PRIORITY_HIGH, GEN12_CTX_PRIORITY_HIGH },
		{ "best effort -20", GPUPRIO_BE_NICE(-20),
		  GUC_CLIENT_PRIORITY_HIGH, GEN12_CTX_PRIORITY_HIGH },
		{ "best effort -1", GPUPRIO_BE_NICE(-1),
		  GUC_CLIENT_PRIORITY_HIGH, GEN12_CTX_PRIORITY_HIGH },
		{ "best effort 0", GPUPRIO_BE_NICE(0),
		  GUC_CLIENT_PRIORITY_KMD_NORMAL, GEN12_CTX_PRIORITY_NORMAL },
		{ "best effort 1", GPUPRIO_BE_NICE(1),
		  GUC_CLIENT_PRIORITY_NORMAL, GEN12_CTX_PRIORITY_LOW },
		{ "best effort 19", GPUPRIO_BE_NICE(19),
		  GUC_CLIENT_PRIORITY_NORMAL, GEN12_CTX_PRIORITY_LOW },
		{ "idle", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0),
		  GUC_CLIENT_PRIORITY_NORMAL, GEN12_CTX_PRIORITY_LOW },
	};
	unsigned int i;
	int nice;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int prio = i915_gpuprio_to_priority(cases[i].gpuprio);
		u8 bucket = map_i915_prio_to_guc_prio(prio);
		u32 lrc_prio = map_guc_prio_to_lrc_desc_prio(bucket);

		if (bucket != cases[i].bucket ||
		    lrc_prio != cases[i].lrc_prio) {
			pr_err("%s: i915 priority %d, GuC bucket %u, LRC priority %u; expected bucket %u, LRC priority %u\n",
			       cases[i].name, prio, bucket, lrc_prio,
			       cases[i].bucket, cases[i].lrc_prio);
			return -EINVAL;
		}
	}

	/* Only the sign of the GPU nice survives */
	for (nice = MIN_NICE; nice <= MAX_NICE; nice++) {
		int prio = i915_gpuprio_to_priority(GPUPRIO_BE_NICE(nice));
		u8 bucket = map_i915_prio_to_guc_prio(prio);
		u8 expected = nice < 0 ? GUC_CLIENT_PRIORITY_HIGH :
			      nice > 0 ? GUC_CLIENT_PRIORITY_NORMAL :
			      GUC_CLIENT_PRIORITY_KMD_NORMAL;

		if (bucket != expected) {
			pr_err("best effort %d: GuC bucket %u, expected %u\n",
			       nice, bucket, expected);
			return -EINVAL;
		}
	}

	return 0;
}

/*
 * A context registered with GuC starts in the bucket of its GEM context's
 * effective priority: the context's own one if set, else the one of the
 * task that created it or submitted to it last.
 */
static int igt_guc_gpuprio_context_init(void *arg)
{
	static const struct {
		const char *name;
		int own;
		int task;
		u8 bucket;
	} cases[] = {
		{ "task high", I915_CONTEXT_DEFAULT_PRIORITY, I915_GPUPRIO_HIGH,
		  GUC_CLIENT_PRIORITY_HIGH },
		{ "task normal", I915_CONTEXT_DEFAULT_PRIORITY,
		  I915_CONTEXT_DEFAULT_PRIORITY, GUC_CLIENT_PRIORITY_KMD_NORMAL },
		{ "task low", I915_CONTEXT_DEFAULT_PRIORITY, I915_GPUPRIO_LOW,
		  GUC_CLIENT_PRIORITY_NORMAL },
		{ "own -700, task high", -700, I915_GPUPRIO_HIGH,
		  GUC_CLIENT_PRIORITY_NORMAL },
		{ "own 700, task low", 700, I915_GPUPRIO_LOW,
		  GUC_CLIENT_PRIORITY_HIGH },
	};
	struct drm_i915_private *i915 = arg;
	struct i915_gem_context *ctx;
	struct intel_context *ce;
	unsigned int i;
	int err = 0;

	ctx = kernel_context(i915, NULL);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);

	/* guc_context_init() only reads the GEM context of @ce */
	ce = kzalloc_obj(*ce);
	if (!ce) {
		err = -ENOMEM;
		goto out_ctx;
	}
	RCU_INIT_POINTER(ce->gem_context, ctx);

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ctx->sched.priority = cases[i].own;
		ctx->gpuprio = cases[i].task;
		guc_context_init(ce);
		if (ce->guc_state.prio != cases[i].bucket) {
			pr_err("%s: GuC bucket %u, expected %u\n",
			       cases[i].name, ce->guc_state.prio,
			       cases[i].bucket);
			err = -EINVAL;
			break;
		}
	}

	kfree(ce);
out_ctx:
	kernel_context_close(ctx);
	return err;
}

int intel_guc_gpuprio_mock_selftests(void)
{
	static const struct i915_subtest tests[] = {
		SUBTEST(igt_guc_gpuprio_buckets),
		SUBTEST(igt_guc_gpuprio_context_init),
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
