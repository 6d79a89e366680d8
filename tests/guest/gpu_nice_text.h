/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fuzzer and the stress test accept as a line read from
 * /proc/<pid>/gpu_nice: a class word with its data in range.
 */
#ifndef GPU_NICE_TEXT_H
#define GPU_NICE_TEXT_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static inline bool text_decodes(const char *s)
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

#endif /* GPU_NICE_TEXT_H */
