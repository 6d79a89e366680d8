// SPDX-License-Identifier: MIT
/*
 * KUnit tests of the priority of an amdgpu context: an AMDGPU_SCHED
 * override wins, then a priority chosen at creation, then the GPU priority
 * of the task (amdgpu_ctx_priority() and its helpers in amdgpu_ctx.h).
 * They need neither a GPU nor the rest of the driver.
 */

#include <kunit/test.h>
#include <linux/gpuprio.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "../amdgpu_ctx.h"

static const s32 valid_prios[] = {
	AMDGPU_CTX_PRIORITY_VERY_LOW,
	AMDGPU_CTX_PRIORITY_LOW,
	AMDGPU_CTX_PRIORITY_NORMAL,
	AMDGPU_CTX_PRIORITY_HIGH,
	AMDGPU_CTX_PRIORITY_VERY_HIGH,
};

/* What a task's GPU priority maps to: the three rows of the table */
static const s32 task_prios[] = {
	AMDGPU_CTX_PRIORITY_LOW,
	AMDGPU_CTX_PRIORITY_NORMAL,
	AMDGPU_CTX_PRIORITY_HIGH,
};

#ifdef CONFIG_GPUPRIO
/* The test's own task: no permission check needed to restore it. */
static void ctx_prio_test_set_gpuprio(u16 prio)
{
	WRITE_ONCE(current->gpuprio, prio);
}
#else
static void ctx_prio_test_set_gpuprio(u16 prio)
{
}
#endif

/* A context as amdgpu_ctx_init() leaves it, created with @init_prio. */
static void ctx_prio_test_init(struct amdgpu_ctx *ctx, s32 init_prio,
			       s32 task_prio)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->init_priority = amdgpu_ctx_init_priority(init_prio);
	ctx->override_priority = AMDGPU_CTX_PRIORITY_UNSET;
	ctx->task_priority = task_prio;
}

/*
 * Only NORMAL, the default, counts as "no priority of its own"; without
 * CONFIG_GPUPRIO, NORMAL stays NORMAL as in stock amdgpu.
 */
static void ctx_prio_test_explicit_rule(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(valid_prios); i++) {
		s32 prio = valid_prios[i];
		s32 kept = amdgpu_ctx_init_priority(prio);

		if (IS_ENABLED(CONFIG_GPUPRIO) &&
		    prio == AMDGPU_CTX_PRIORITY_NORMAL)
			KUNIT_EXPECT_EQ(test, kept, AMDGPU_CTX_PRIORITY_UNSET);
		else
			KUNIT_EXPECT_EQ(test, kept, prio);
	}
}

struct ctx_prio_test_row {
	u16 gpuprio;	/* GPUPRIO_DEFAULT: follow the CPU nice */
	int nice;
	s32 expected;
};

static const struct ctx_prio_test_row task_rows[] = {
	/* A CPU boost alone never reaches HIGH, which needs CAP_SYS_NICE. */
	{ GPUPRIO_DEFAULT, -20, AMDGPU_CTX_PRIORITY_NORMAL },
	{ GPUPRIO_DEFAULT, -10, AMDGPU_CTX_PRIORITY_NORMAL },
	{ GPUPRIO_DEFAULT, -1, AMDGPU_CTX_PRIORITY_NORMAL },
	{ GPUPRIO_DEFAULT, 0, AMDGPU_CTX_PRIORITY_NORMAL },
	{ GPUPRIO_DEFAULT, 1, AMDGPU_CTX_PRIORITY_LOW },
	{ GPUPRIO_DEFAULT, 19, AMDGPU_CTX_PRIORITY_LOW },
};

#ifdef CONFIG_GPUPRIO
/* A GPU priority of its own wins over the CPU nice (here 0). */
static const struct ctx_prio_test_row gpuprio_rows[] = {
	{ GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 0), 0, AMDGPU_CTX_PRIORITY_HIGH },
	{ GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 7), 0, AMDGPU_CTX_PRIORITY_HIGH },
	{ GPUPRIO_BE_NICE(-1), 0, AMDGPU_CTX_PRIORITY_HIGH },
	{ GPUPRIO_BE_NICE(0), 10, AMDGPU_CTX_PRIORITY_NORMAL },
	{ GPUPRIO_BE_NICE(1), 0, AMDGPU_CTX_PRIORITY_LOW },
	{ GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0), -5, AMDGPU_CTX_PRIORITY_LOW },
};
#endif

/* Off means stock: without CONFIG_GPUPRIO every context is NORMAL. */
static s32 ctx_prio_test_expected(s32 prio)
{
	return IS_ENABLED(CONFIG_GPUPRIO) ? prio : AMDGPU_CTX_PRIORITY_NORMAL;
}

static void ctx_prio_test_rows(struct kunit *test,
			       const struct ctx_prio_test_row *rows,
			       unsigned int n)
{
	struct amdgpu_ctx *ctx;
	unsigned int i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);

	for (i = 0; i < n; i++) {
		ctx_prio_test_set_gpuprio(rows[i].gpuprio);
		set_user_nice(current, rows[i].nice);
		KUNIT_EXPECT_EQ_MSG(test, amdgpu_ctx_task_priority(current),
				    ctx_prio_test_expected(rows[i].expected),
				    "row %u", i);

		/* Created with the default: the task's priority applies. */
		ctx_prio_test_init(ctx, AMDGPU_CTX_PRIORITY_NORMAL,
				   amdgpu_ctx_task_priority(current));
		KUNIT_EXPECT_EQ_MSG(test, amdgpu_ctx_priority(ctx),
				    ctx_prio_test_expected(rows[i].expected),
				    "row %u", i);
	}
}

/* A context without a priority of its own follows the task's. */
static void ctx_prio_test_follows_task(struct kunit *test)
{
	u16 saved_prio = task_gpuprio_raw(current);
	long saved_nice = task_nice(current);

	ctx_prio_test_rows(test, task_rows, ARRAY_SIZE(task_rows));
#ifdef CONFIG_GPUPRIO
	ctx_prio_test_rows(test, gpuprio_rows, ARRAY_SIZE(gpuprio_rows));
#endif
	ctx_prio_test_set_gpuprio(saved_prio);
	set_user_nice(current, saved_nice);
}

/* A priority chosen at creation wins over the task's. */
static void ctx_prio_test_explicit_wins(struct kunit *test)
{
	struct amdgpu_ctx *ctx;
	unsigned int i, j;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);

	for (i = 0; i < ARRAY_SIZE(valid_prios); i++) {
		s32 init = valid_prios[i];

		for (j = 0; j < ARRAY_SIZE(task_prios); j++) {
			s32 expected = init;

			if (IS_ENABLED(CONFIG_GPUPRIO) &&
			    init == AMDGPU_CTX_PRIORITY_NORMAL)
				expected = task_prios[j];
			ctx_prio_test_init(ctx, init, task_prios[j]);
			KUNIT_EXPECT_EQ_MSG(test, amdgpu_ctx_priority(ctx),
					    expected, "init %d task %d",
					    init, task_prios[j]);
		}
	}
}

/* fdinfo's drm-gpuprio: the task's level, and whether it was overridden. */
static void ctx_prio_test_fdinfo(struct kunit *test)
{
	static const struct {
		s32 init, override;
		int nice;
		const char *expected;
	} rows[] = {
		{ AMDGPU_CTX_PRIORITY_NORMAL, AMDGPU_CTX_PRIORITY_UNSET, 5,
		  "low" },
		{ AMDGPU_CTX_PRIORITY_NORMAL, AMDGPU_CTX_PRIORITY_UNSET, -5,
		  "normal" },
		{ AMDGPU_CTX_PRIORITY_LOW, AMDGPU_CTX_PRIORITY_UNSET, 0,
		  "normal overridden" },
		{ AMDGPU_CTX_PRIORITY_NORMAL, AMDGPU_CTX_PRIORITY_NORMAL, 3,
		  "low overridden" },
	};
	long saved_nice = task_nice(current);
	struct amdgpu_ctx *ctx;
	unsigned int i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char text[32] = "";
		bool shown;

		set_user_nice(current, rows[i].nice);
		ctx_prio_test_init(ctx, rows[i].init,
				   amdgpu_ctx_task_priority(current));
		ctx->override_priority = rows[i].override;
		shown = gpuprio_fdinfo_format(text, sizeof(text),
					      amdgpu_ctx_gpuprio_fdinfo(ctx,
									current));
		/* Off means stock: no key */
		KUNIT_EXPECT_EQ_MSG(test, shown, IS_ENABLED(CONFIG_GPUPRIO),
				    "row %u", i);
		if (shown)
			KUNIT_EXPECT_STREQ_MSG(test, text, rows[i].expected,
					       "row %u", i);
	}
	set_user_nice(current, saved_nice);
}

/* An AMDGPU_SCHED override wins over both, NORMAL included. */
static void ctx_prio_test_override_wins(struct kunit *test)
{
	struct amdgpu_ctx *ctx;
	unsigned int i, j, k;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);

	for (i = 0; i < ARRAY_SIZE(valid_prios); i++) {
		for (j = 0; j < ARRAY_SIZE(valid_prios); j++) {
			for (k = 0; k < ARRAY_SIZE(task_prios); k++) {
				ctx_prio_test_init(ctx, valid_prios[j],
						   task_prios[k]);
				ctx->override_priority = valid_prios[i];
				KUNIT_EXPECT_EQ(test, amdgpu_ctx_priority(ctx),
						valid_prios[i]);
			}
		}
	}
}

static struct kunit_case amdgpu_ctx_prio_test_cases[] = {
	KUNIT_CASE(ctx_prio_test_explicit_rule),
	KUNIT_CASE(ctx_prio_test_follows_task),
	KUNIT_CASE(ctx_prio_test_explicit_wins),
	KUNIT_CASE(ctx_prio_test_override_wins),
	KUNIT_CASE(ctx_prio_test_fdinfo),
	{}
};

static struct kunit_suite amdgpu_ctx_prio_test_suite = {
	.name = "amdgpu_ctx_prio",
	.test_cases = amdgpu_ctx_prio_test_cases,
};

kunit_test_suite(amdgpu_ctx_prio_test_suite);

MODULE_DESCRIPTION("KUnit tests for the priority of amdgpu contexts");
MODULE_LICENSE("Dual MIT/GPL");
