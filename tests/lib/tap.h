/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP for the C test programs of tests/, as tests/lib/tap.sh prints it for
 * the shell suites: "ok N - name", "not ok N - name", "# " diagnostics and
 * the plan "1..N", first or last. tests/summarize.py reads it.
 *
 * One program a translation unit: the counters are this file's statics.
 */
#ifndef TESTS_LIB_TAP_H
#define TESTS_LIB_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int tap_n;		/* the number of the last test printed */
static int tap_failed;		/* how many of them failed */

static inline void tap_vline(bool ok, const char *skip, const char *fmt,
			     va_list ap)
{
	printf("%sok %d - ", ok ? "" : "not ", ++tap_n);
	vprintf(fmt, ap);
	if (skip)
		printf(" # SKIP %s", skip);
	putchar('\n');
	/* A test may fork or crash next: what it printed stays in order. */
	fflush(stdout);
	if (!ok)
		tap_failed++;
}

/* One test, passed when @ok; returns @ok. */
static inline bool tap(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline bool tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline(ok, NULL, fmt, ap);
	va_end(ap);
	return ok;
}

/* A test that cannot run here, for the reason @why. */
static inline void tap_skip(const char *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void tap_skip(const char *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline(true, why, fmt, ap);
	va_end(ap);
}

/* The next test is number @n: a program that continues a suite's TAP. */
static inline void tap_first(int n)
{
	tap_n = n - 1;
}

/* The plan, for a program that knows its count before it starts. */
static inline void tap_plan(int n)
{
	printf("1..%d\n", n);
	fflush(stdout);
}

/* Nothing to test here: the empty plan, with the reason. */
static inline void tap_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	fflush(stdout);
}

/* The exit status: 0 only if no test failed. */
static inline int tap_status(void)
{
	return tap_failed ? 1 : 0;
}

/* The plan last, counting what ran; returns tap_status(). */
static inline int tap_done(void)
{
	tap_plan(tap_n);
	return tap_status();
}

#endif /* TESTS_LIB_TAP_H */
