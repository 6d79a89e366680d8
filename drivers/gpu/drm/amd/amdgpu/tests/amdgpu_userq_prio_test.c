// SPDX-License-Identifier: MIT
/*
 * KUnit tests of the priority amdgpu gives a new user-mode queue:
 * amdgpu_userq_band_priority(), which amdgpu_userq_create() applies to the
 * priority field of the create flags with the band of the creating task.
 * A zero field takes the task's band, never MES HIGH; a non-zero field is
 * the application's choice and wins. Built into amdgpu, so that it calls
 * the driver's own function; no GPU is needed.
 *
 * Each case runs in a kthread of its own, so the GPU priority and CPU nice
 * the cases give their task need no restoring.
 */

#include <kunit/test.h>
#include <linux/gpuprio.h>
#include <linux/kernel.h>
#include <linux/sched.h>

#include "amdgpu.h"
#include "amdgpu_userq.h"

#define UQ_NORMAL_LOW	AMDGPU_USERQ_CREATE_FLAGS_QUEUE_PRIORITY_NORMAL_LOW
#define UQ_LOW		AMDGPU_USERQ_CREATE_FLAGS_QUEUE_PRIORITY_LOW
#define UQ_NORMAL_HIGH	AMDGPU_USERQ_CREATE_FLAGS_QUEUE_PRIORITY_NORMAL_HIGH
#define UQ_HIGH		AMDGPU_USERQ_CREATE_FLAGS_QUEUE_PRIORITY_HIGH

/* Every field and band: 0 takes the band, anything else is kept. */
static void userq_prio_test_band(struct kunit *test)
{
	static const struct {
		int field;
		enum gpuprio_band band;
		int expected;
	} rows[] = {
		{ UQ_NORMAL_LOW, GPUPRIO_BAND_LOW, UQ_LOW },
		{ UQ_NORMAL_LOW, GPUPRIO_BAND_NORMAL, UQ_NORMAL_LOW },
		{ UQ_NORMAL_LOW, GPUPRIO_BAND_HIGH, UQ_NORMAL_HIGH },
		{ UQ_LOW, GPUPRIO_BAND_LOW, UQ_LOW },
		{ UQ_LOW, GPUPRIO_BAND_NORMAL, UQ_LOW },
		{ UQ_LOW, GPUPRIO_BAND_HIGH, UQ_LOW },
		{ UQ_NORMAL_HIGH, GPUPRIO_BAND_LOW, UQ_NORMAL_HIGH },
		{ UQ_NORMAL_HIGH, GPUPRIO_BAND_NORMAL, UQ_NORMAL_HIGH },
		{ UQ_NORMAL_HIGH, GPUPRIO_BAND_HIGH, UQ_NORMAL_HIGH },
		{ UQ_HIGH, GPUPRIO_BAND_LOW, UQ_HIGH },
		{ UQ_HIGH, GPUPRIO_BAND_NORMAL, UQ_HIGH },
		{ UQ_HIGH, GPUPRIO_BAND_HIGH, UQ_HIGH },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    amdgpu_userq_band_priority(rows[i].field,
							       rows[i].band),
				    rows[i].expected, "row %u", i);
}

/*
 * No band gives a queue that asked for nothing what only CAP_SYS_NICE or
 * the DRM master may ask for.
 */
static void userq_prio_test_never_high(struct kunit *test)
{
	static const enum gpuprio_band bands[] = {
		GPUPRIO_BAND_LOW, GPUPRIO_BAND_NORMAL, GPUPRIO_BAND_HIGH,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bands); i++)
		KUNIT_EXPECT_LT_MSG(test,
				    amdgpu_userq_band_priority(UQ_NORMAL_LOW,
							       bands[i]),
				    UQ_HIGH, "band %u", i);
}

/*
 * What amdgpu_userq_create() gives a queue that asked for nothing: the
 * band of the task creating it, here the test's own, through its GPU
 * priority or its CPU nice. Off means stock: without CONFIG_GPUPRIO every
 * task keeps NORMAL_LOW.
 */
static void userq_prio_test_task(struct kunit *test)
{
	static const struct {
		u16 gpuprio;	/* GPUPRIO_DEFAULT: follow the CPU nice */
		int nice;
		int expected;	/* with CONFIG_GPUPRIO */
	} rows[] = {
		{ GPUPRIO_DEFAULT, 0, UQ_NORMAL_LOW },
		{ GPUPRIO_DEFAULT, 5, UQ_LOW },
		/* A CPU boost alone never reaches the high band */
		{ GPUPRIO_DEFAULT, -10, UQ_NORMAL_LOW },
		{ GPUPRIO_BE_NICE(-5), 0, UQ_NORMAL_HIGH },
		{ GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0), 0, UQ_NORMAL_HIGH },
		{ GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0), -5, UQ_LOW },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		int expected = IS_ENABLED(CONFIG_GPUPRIO) ? rows[i].expected :
							    UQ_NORMAL_LOW;
		enum gpuprio_band band;

		gpuprio_test_set_raw(current, rows[i].gpuprio);
		set_user_nice(current, rows[i].nice);
		band = task_gpuprio_band(current);
		KUNIT_EXPECT_EQ_MSG(test,
				    amdgpu_userq_band_priority(UQ_NORMAL_LOW,
							       band),
				    expected, "row %u", i);
	}
}

static struct kunit_case amdgpu_userq_prio_test_cases[] = {
	KUNIT_CASE(userq_prio_test_band),
	KUNIT_CASE(userq_prio_test_never_high),
	KUNIT_CASE(userq_prio_test_task),
	{}
};

static struct kunit_suite amdgpu_userq_prio_test_suite = {
	.name = "amdgpu_userq_prio",
	.test_cases = amdgpu_userq_prio_test_cases,
};

kunit_test_suite(amdgpu_userq_prio_test_suite);
