// SPDX-License-Identifier: MIT
/*
 * Mock selftest of the GuC bucket each task GPU priority ends up in,
 * included by intel_guc_submission.c to reach its static mapping.
 */

#include <linux/gpuprio.h>

#include "i915_gpuprio.h"
#include "i915_selftest.h"

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

int intel_guc_gpuprio_mock_selftests(void)
{
	static const struct i915_subtest tests[] = {
		SUBTEST(igt_guc_gpuprio_buckets),
	};

	int err;

	err = i915_subtests(tests, NULL);
	/* An end marker for log parsers, failures are reported above */
	if (!err)
		pr_info("i915: %s: passed\n", __func__);
	return err;
}
