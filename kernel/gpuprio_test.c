// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the GPU priority encoding, validation and ordering.
 * Included from kernel/gpuprio.c to reach its static helpers.
 */

#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/resource.h>

static void gpuprio_test_encoding(struct kunit *test)
{
	int nice;

	KUNIT_EXPECT_EQ(test, GPUPRIO_DEFAULT, 0);
	KUNIT_EXPECT_EQ(test, GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 3),
			(1 << 13) | 3);
	KUNIT_EXPECT_EQ(test, GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0),
			3 << 13);
	KUNIT_EXPECT_EQ(test, GPUPRIO_BE_NICE(-20), 2 << 13);
	KUNIT_EXPECT_EQ(test, GPUPRIO_BE_NICE(19), (2 << 13) | 39);

	for (nice = MIN_NICE; nice <= MAX_NICE; nice++) {
		u16 prio = GPUPRIO_BE_NICE(nice);

		KUNIT_EXPECT_EQ(test, GPUPRIO_PRIO_CLASS(prio),
				GPUPRIO_CLASS_BE);
		KUNIT_EXPECT_EQ(test, GPUPRIO_TO_NICE(prio), nice);
	}
}

struct gpuprio_valid_case {
	const char *name;
	int prio;
	bool valid;
};

static const struct gpuprio_valid_case gpuprio_valid_cases[] = {
	{ "none", GPUPRIO_DEFAULT, true },
	{ "none with data", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_NONE, 1), false },
	{ "realtime 0", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0), true },
	{ "realtime 7", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 7), true },
	{ "realtime 8", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 8), false },
	{ "best-effort -20", GPUPRIO_BE_NICE(-20), true },
	{ "best-effort 19", GPUPRIO_BE_NICE(19), true },
	{ "best-effort 20", GPUPRIO_BE_NICE(20), false },
	{ "best-effort data max", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_BE,
						     GPUPRIO_PRIO_MASK), false },
	{ "idle", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0), true },
	{ "idle with data", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 1), false },
	{ "class 4", GPUPRIO_PRIO_VALUE(4, 0), false },
	{ "class 7", GPUPRIO_PRIO_VALUE(7, 0), false },
	{ "bit 16", 1 << 16, false },
	{ "bit 16 over none", (1 << 16) | GPUPRIO_DEFAULT, false },
	{ "negative", -1, false },
	{ "int min", INT_MIN, false },
};

static void gpuprio_valid_case_desc(const struct gpuprio_valid_case *c,
				    char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gpuprio_valid, gpuprio_valid_cases, gpuprio_valid_case_desc);

static void gpuprio_test_validation(struct kunit *test)
{
	const struct gpuprio_valid_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, gpuprio_value_valid(c->prio), c->valid);
	KUNIT_EXPECT_EQ(test, gpuprio_check_value(c->prio),
			c->valid ? 0 : -EINVAL);
}

/* A PGRP/USER walk over two tasks whose effective values are @a and @b. */
static int gpuprio_test_best(int a, int b)
{
	struct gpuprio_best best = { .ret = -ESRCH };

	gpuprio_best_keep(&best, a);
	gpuprio_best_keep(&best, b);
	return best.ret;
}

static void gpuprio_test_ordering(struct kunit *test)
{
	static const u16 descending[] = {
		GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0),
		GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 7),
		GPUPRIO_BE_NICE(-20),
		GPUPRIO_BE_NICE(0),
		GPUPRIO_BE_NICE(19),
		GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0),
	};
	int i;

	for (i = 1; i < ARRAY_SIZE(descending); i++) {
		u16 hi = descending[i - 1], lo = descending[i];

		KUNIT_EXPECT_LT(test, gpuprio_rank(hi), gpuprio_rank(lo));
		KUNIT_EXPECT_EQ(test, gpuprio_test_best(hi, lo), hi);
		KUNIT_EXPECT_EQ(test, gpuprio_test_best(lo, hi), hi);
	}
	/* An LSM refusal never replaces a value, and is kept without one. */
	KUNIT_EXPECT_EQ(test, gpuprio_test_best(-EACCES, GPUPRIO_BE_NICE(3)),
			GPUPRIO_BE_NICE(3));
	KUNIT_EXPECT_EQ(test, gpuprio_test_best(GPUPRIO_BE_NICE(3), -EACCES),
			GPUPRIO_BE_NICE(3));
	KUNIT_EXPECT_EQ(test, gpuprio_test_best(-EACCES, -EPERM), -EPERM);
}

static void gpuprio_test_resolve(struct kunit *test)
{
	u16 rt = GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 2);
	u16 idle = GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0);

	KUNIT_EXPECT_EQ(test, gpuprio_resolve(GPUPRIO_DEFAULT, 5),
			GPUPRIO_BE_NICE(5));
	/* A negative CPU nice alone never raises the GPU above normal. */
	KUNIT_EXPECT_EQ(test, gpuprio_resolve(GPUPRIO_DEFAULT, -20),
			GPUPRIO_BE_NICE(0));
	KUNIT_EXPECT_EQ(test, gpuprio_resolve(GPUPRIO_DEFAULT, -10),
			GPUPRIO_BE_NICE(0));
	KUNIT_EXPECT_EQ(test, gpuprio_resolve(GPUPRIO_BE_NICE(7), -3),
			GPUPRIO_BE_NICE(7));
	KUNIT_EXPECT_EQ(test, gpuprio_resolve(rt, 0), rt);
	KUNIT_EXPECT_EQ(test, gpuprio_resolve(idle, 0), idle);
}

/* kernel.gpuprio_follow_nice = 0 only changes tasks without a value. */
static void gpuprio_test_resolve_effective(struct kunit *test)
{
	u16 rt = GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 2);
	u16 idle = GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0);
	int follow;

	KUNIT_EXPECT_EQ(test, gpuprio_resolve_effective(GPUPRIO_DEFAULT, 10, true),
			GPUPRIO_BE_NICE(10));
	KUNIT_EXPECT_EQ(test, gpuprio_resolve_effective(GPUPRIO_DEFAULT, 10, false),
			GPUPRIO_BE_NICE(0));
	KUNIT_EXPECT_EQ(test, gpuprio_resolve_effective(GPUPRIO_DEFAULT, -10, true),
			GPUPRIO_BE_NICE(0));
	KUNIT_EXPECT_EQ(test, gpuprio_resolve_effective(GPUPRIO_DEFAULT, -10, false),
			GPUPRIO_BE_NICE(0));
	for (follow = 0; follow <= 1; follow++) {
		KUNIT_EXPECT_EQ(test,
				gpuprio_resolve_effective(GPUPRIO_BE_NICE(7), 0,
							  follow),
				GPUPRIO_BE_NICE(7));
		KUNIT_EXPECT_EQ(test, gpuprio_resolve_effective(rt, 5, follow), rt);
		KUNIT_EXPECT_EQ(test, gpuprio_resolve_effective(idle, -5, follow),
				idle);
	}
}

/* The one mapping of every driver: Documentation/userspace-api/gpuprio.rst */
static void gpuprio_test_band(struct kunit *test)
{
	int nice, level;

	for (level = 0; level < GPUPRIO_RT_LEVELS; level++)
		KUNIT_EXPECT_EQ(test,
				gpuprio_band(GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT,
								level)),
				GPUPRIO_BAND_HIGH);
	for (nice = MIN_NICE; nice <= MAX_NICE; nice++)
		KUNIT_EXPECT_EQ(test, gpuprio_band(GPUPRIO_BE_NICE(nice)),
				nice < 0 ? GPUPRIO_BAND_HIGH :
				nice > 0 ? GPUPRIO_BAND_LOW :
				GPUPRIO_BAND_NORMAL);
	KUNIT_EXPECT_EQ(test,
			gpuprio_band(GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0)),
			GPUPRIO_BAND_LOW);
	KUNIT_EXPECT_EQ(test, gpuprio_band(GPUPRIO_DEFAULT),
			GPUPRIO_BAND_NORMAL);
	KUNIT_EXPECT_EQ(test, gpuprio_band(GPUPRIO_PRIO_VALUE(5, 0)),
			GPUPRIO_BAND_NORMAL);
	/* CPU nice -10 without a GPU priority is normal, not high */
	KUNIT_EXPECT_EQ(test, gpuprio_band(gpuprio_resolve(GPUPRIO_DEFAULT,
							   -10)),
			GPUPRIO_BAND_NORMAL);
	KUNIT_EXPECT_STREQ(test, gpuprio_band_name(GPUPRIO_BAND_LOW), "low");
	KUNIT_EXPECT_STREQ(test, gpuprio_band_name(GPUPRIO_BAND_NORMAL),
			   "normal");
	KUNIT_EXPECT_STREQ(test, gpuprio_band_name(GPUPRIO_BAND_HIGH),
			   "high");
}

/* The one form of fdinfo's drm-gpuprio key in every driver */
static void gpuprio_test_fdinfo(struct kunit *test)
{
	char buf[32] = "";
	int packed;

	KUNIT_EXPECT_FALSE(test, gpuprio_fdinfo_format(buf, sizeof(buf), 0));
	KUNIT_EXPECT_STREQ(test, buf, "");

	packed = gpuprio_fdinfo_pack(GPUPRIO_BAND_LOW, false);
	KUNIT_EXPECT_TRUE(test, gpuprio_fdinfo_format(buf, sizeof(buf), packed));
	KUNIT_EXPECT_STREQ(test, buf, "low");
	gpuprio_fdinfo_format(buf, sizeof(buf),
			      gpuprio_fdinfo_pack(GPUPRIO_BAND_NORMAL, false));
	KUNIT_EXPECT_STREQ(test, buf, "normal");
	gpuprio_fdinfo_format(buf, sizeof(buf),
			      gpuprio_fdinfo_pack(GPUPRIO_BAND_HIGH, true));
	KUNIT_EXPECT_STREQ(test, buf, "high overridden");
	gpuprio_fdinfo_format(buf, sizeof(buf),
			      gpuprio_fdinfo_pack(GPUPRIO_BAND_LOW, true));
	KUNIT_EXPECT_STREQ(test, buf, "low overridden");
}

/*
 * A negative nice stored with GPUPRIO_NO_HIGH ranks as set but stays in the
 * normal band; the mark never shows in a value user space reads.
 */
static void gpuprio_test_band_no_high(struct kunit *test)
{
	int nice;

	for (nice = MIN_NICE; nice <= MAX_NICE; nice++) {
		u16 marked = GPUPRIO_BE_NICE(nice) | GPUPRIO_NO_HIGH;

		KUNIT_EXPECT_EQ(test, gpuprio_band(marked),
				nice > 0 ? GPUPRIO_BAND_LOW :
				GPUPRIO_BAND_NORMAL);
		KUNIT_EXPECT_EQ(test, gpuprio_rank(marked), nice);
		KUNIT_EXPECT_EQ(test, gpuprio_value(marked),
				GPUPRIO_BE_NICE(nice));
		KUNIT_EXPECT_FALSE(test, gpuprio_value_valid(marked));
	}
	KUNIT_EXPECT_EQ(test, gpuprio_band(GPUPRIO_BE_NICE(-1)),
			GPUPRIO_BAND_HIGH);
}

/*
 * Set @prio on the current task (a KUnit kthread of uid 0) with CAP_SYS_NICE
 * effective or not and RLIMIT_NICE 21 (nice -1 allowed), then return the
 * band drivers give it, or -1 if the set failed.
 */
static int gpuprio_test_set_band(struct kunit *test, u16 prio,
				 bool sys_nice)
{
	struct rlimit *rlim = &current->signal->rlim[RLIMIT_NICE];
	struct rlimit saved_rlim = *rlim;
	u16 saved = task_gpuprio_stored(current);
	const struct cred *old;
	struct cred *cred;
	int band = -1;

	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	if (!sys_nice)
		cap_lower(cred->cap_effective, CAP_SYS_NICE);
	rlim->rlim_cur = 21;
	old = override_creds(cred);
	if (!gpuprio_set_task(current, prio))
		band = task_gpuprio_band(current);
	revert_creds(old);
	put_cred(cred);
	*rlim = saved_rlim;
	if (band >= 0)
		KUNIT_EXPECT_EQ(test, task_gpuprio_raw(current), prio);
	gpuprio_test_set_raw(current, saved);
	return band;
}

/*
 * RLIMIT_NICE lets a task set a negative GPU nice, but only CAP_SYS_NICE in
 * the initial user namespace reaches the drivers' high band.
 */
static void gpuprio_test_rlimit_band(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, gpuprio_test_set_band(test, GPUPRIO_BE_NICE(-1),
						    false),
			GPUPRIO_BAND_NORMAL);
	KUNIT_EXPECT_EQ(test, gpuprio_test_set_band(test, GPUPRIO_BE_NICE(-1),
						    true),
			GPUPRIO_BAND_HIGH);
	/* RLIMIT_NICE 21 stops at nice -1, with or without the band */
	KUNIT_EXPECT_EQ(test, gpuprio_test_set_band(test, GPUPRIO_BE_NICE(-2),
						    false), -1);
	KUNIT_EXPECT_EQ(test, gpuprio_test_set_band(test, GPUPRIO_BE_NICE(5),
						    false),
			GPUPRIO_BAND_LOW);
}

static void gpuprio_test_reset_on_fork(struct kunit *test)
{
	static const struct {
		u16 before, after;
	} cases[] = {
		{ GPUPRIO_DEFAULT, GPUPRIO_DEFAULT },
		{ GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0), GPUPRIO_DEFAULT },
		{ GPUPRIO_BE_NICE(-1), GPUPRIO_DEFAULT },
		{ GPUPRIO_BE_NICE(-1) | GPUPRIO_NO_HIGH, GPUPRIO_DEFAULT },
		{ GPUPRIO_BE_NICE(0), GPUPRIO_BE_NICE(0) },
		{ GPUPRIO_BE_NICE(12), GPUPRIO_BE_NICE(12) },
		{ GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0),
		  GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0) },
	};
	struct task_struct *p;
	int i;

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		gpuprio_test_set_raw(p, cases[i].before);
		gpuprio_reset_on_fork(p);
		KUNIT_EXPECT_EQ(test, task_gpuprio_stored(p), cases[i].after);
	}
}

static struct kunit_case gpuprio_test_cases[] = {
	KUNIT_CASE(gpuprio_test_encoding),
	KUNIT_CASE_PARAM(gpuprio_test_validation, gpuprio_valid_gen_params),
	KUNIT_CASE(gpuprio_test_ordering),
	KUNIT_CASE(gpuprio_test_resolve),
	KUNIT_CASE(gpuprio_test_resolve_effective),
	KUNIT_CASE(gpuprio_test_band),
	KUNIT_CASE(gpuprio_test_fdinfo),
	KUNIT_CASE(gpuprio_test_band_no_high),
	KUNIT_CASE(gpuprio_test_rlimit_band),
	KUNIT_CASE(gpuprio_test_reset_on_fork),
	{}
};

static struct kunit_suite gpuprio_test_suite = {
	.name = "gpuprio",
	.test_cases = gpuprio_test_cases,
};

kunit_test_suite(gpuprio_test_suite);
