/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text of /proc/<pid>/gpu_nice, for the test programs: the line the
 * kernel shows for a value, and whether a line read is one it can show.
 * The one copy of that grammar in tests/ (gpuprio_set(2) documents it).
 */
#ifndef TESTS_LIB_GPU_NICE_TEXT_H
#define TESTS_LIB_GPU_NICE_TEXT_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <linux/gpuprio.h>

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

#endif /* TESTS_LIB_GPU_NICE_TEXT_H */
