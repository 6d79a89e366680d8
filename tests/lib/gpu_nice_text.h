/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text of /proc/<pid>/gpu_nice, for the test programs: the line the
 * kernel shows for a value, and whether a line read is one it can show.
 * The one copy of that grammar in tests/ (gpuprio_set(2) documents it).
 * And the start of a program that needs the file and root.
 */
#ifndef TESTS_LIB_GPU_NICE_TEXT_H
#define TESTS_LIB_GPU_NICE_TEXT_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/gpuprio.h>

#include "tap.h"

/* Whether @v is a GPU priority value gpuprio_get() may return. */
static inline bool gpuprio_value_valid(long v)
{
	if (v < 0 || v & ~0xffffL)
		return false;
	switch (GPUPRIO_PRIO_CLASS(v)) {
	case GPUPRIO_CLASS_NONE:
	case GPUPRIO_CLASS_IDLE:
		return GPUPRIO_PRIO_DATA(v) == 0;
	case GPUPRIO_CLASS_RT:
		return GPUPRIO_PRIO_DATA(v) < GPUPRIO_RT_LEVELS;
	case GPUPRIO_CLASS_BE:
		return GPUPRIO_PRIO_DATA(v) < GPUPRIO_BE_LEVELS;
	}
	return false;
}

/* The GPU nice an unset value (class none) shows: the CPU nice, downward. */
static inline int gpu_nice_follow(int cpu_nice)
{
	return cpu_nice > 0 ? cpu_nice : 0;
}

/* The line /proc shows for @prio, for a task at CPU nice @cpu_nice. */
static inline void gpu_nice_format(char *buf, size_t len, int prio,
				   int cpu_nice)
{
	switch (GPUPRIO_PRIO_CLASS(prio)) {
	case GPUPRIO_CLASS_RT:
		snprintf(buf, len, "realtime %d\n",
			 (int)GPUPRIO_PRIO_DATA(prio));
		break;
	case GPUPRIO_CLASS_BE:
		snprintf(buf, len, "best-effort %d\n",
			 (int)GPUPRIO_TO_NICE(prio));
		break;
	case GPUPRIO_CLASS_IDLE:
		snprintf(buf, len, "idle\n");
		break;
	default:
		snprintf(buf, len, "none %d\n", gpu_nice_follow(cpu_nice));
	}
}

/* Whether @s is a line /proc can show: a class word with its data in range. */
static inline bool gpu_nice_decodes(const char *s)
{
	int n;
	char end;

	if (!strcmp(s, "idle\n"))
		return true;
	if (sscanf(s, "none %d%c", &n, &end) == 2 && end == '\n')
		return n >= -20 && n <= 19;
	if (sscanf(s, "best-effort %d%c", &n, &end) == 2 && end == '\n')
		return n >= -20 && n <= 19;
	if (sscanf(s, "realtime %d%c", &n, &end) == 2 && end == '\n')
		return n >= 0 && n <= 7;
	return false;
}

/*
 * The start of a root test program's TAP, line-buffered: false, with the
 * empty plan and its reason, on a kernel without the feature (no
 * /proc/self/gpu_nice) or when not root.
 */
static inline bool gpu_nice_tap_start(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	if (access("/proc/self/gpu_nice", F_OK)) {
		tap_skip_all("kernel has no GPU priority support");
		return false;
	}
	if (getuid() != 0) {
		tap_skip_all("needs root");
		return false;
	}
	return true;
}

#endif /* TESTS_LIB_GPU_NICE_TEXT_H */
