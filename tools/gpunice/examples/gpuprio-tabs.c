// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gpuprio-tabs - GPU priorities the way a web browser would use them
 *
 * A browser draws all its tabs through one GPU process, in which one thread
 * submits the GPU work of every tab. GPU drivers read the submitting
 * thread's GPU priority at each submission, so that thread switches its
 * own priority to the tab's just before submitting for it: the visible tab
 * gets the GPU first, a tab playing video in the background next, other
 * background tabs after them, and hidden tabs only when the GPU has nothing
 * else to do.
 *
 * The tabs' priorities are chosen relative to the CPU nice, so that the
 * program needs no privilege: without CAP_SYS_NICE a thread may move
 * between its CPU nice and 19 and to idle, and back.
 *
 * Each switch is checked with gpuprio_get() and /proc/thread-self/gpu_nice,
 * and the main thread's priority must not change, as priorities belong to
 * threads. Exit status: 0 if all is as expected, 1 if not, 4 (kselftest's
 * "skip") if the kernel has no GPU priorities.
 *
 * Build: cc -pthread -o gpuprio-tabs gpuprio-tabs.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <gpuprio.h>

#define KSFT_SKIP	4
#define ROUNDS		3

struct tab {
	const char *name;
	int prio;
};

/* The order in which the tabs ask for frames, over and over. */
static const char *const frames[] = {
	"visible", "hidden", "visible", "video", "background", "visible",
	"video", "hidden",
};

static int min(int a, int b)
{
	return a < b ? a : b;
}

static void make_tabs(struct tab *tabs, int cpu_nice)
{
	/* Unset: the GPU follows the CPU nice, the most we may ask. */
	tabs[0] = (struct tab){ "visible", GPUPRIO_DEFAULT };
	tabs[1] = (struct tab){ "video",
				GPUPRIO_BE_NICE(min(cpu_nice + 5, 19)) };
	tabs[2] = (struct tab){ "background",
				GPUPRIO_BE_NICE(min(cpu_nice + 10, 19)) };
	tabs[3] = (struct tab){ "hidden",
				GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0) };
}

static const struct tab *find_tab(const struct tab *tabs, const char *name)
{
	int i;

	for (i = 0; strcmp(tabs[i].name, name); i++)
		;
	return &tabs[i];
}

/* What /proc/thread-self/gpu_nice must say for @prio. */
static void expected_text(char *buf, size_t len, int prio, int cpu_nice)
{
	switch (GPUPRIO_PRIO_CLASS(prio)) {
	case GPUPRIO_CLASS_NONE:
		snprintf(buf, len, "none %d", cpu_nice);
		break;
	case GPUPRIO_CLASS_RT:
		snprintf(buf, len, "realtime %u", GPUPRIO_PRIO_DATA(prio));
		break;
	case GPUPRIO_CLASS_BE:
		snprintf(buf, len, "best-effort %d", GPUPRIO_TO_NICE(prio));
		break;
	default:
		snprintf(buf, len, "idle");
		break;
	}
}

static int read_gpu_nice(char *buf, size_t len)
{
	FILE *f = fopen("/proc/thread-self/gpu_nice", "r");
	int ret = -1;

	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = 0;
	}
	fclose(f);
	return ret;
}

/* Make this thread's GPU priority the tab's, and check that it took. */
static int switch_to(const struct tab *tab, int cpu_nice)
{
	char want[32], got[32];
	int prio;

	if (gpuprio_set(GPUPRIO_WHO_PROCESS, 0, tab->prio)) {
		fprintf(stderr, "gpuprio-tabs: tab %s: gpuprio_set: %s\n",
			tab->name, strerror(errno));
		return -1;
	}

	prio = gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	if (prio != tab->prio) {
		fprintf(stderr, "gpuprio-tabs: tab %s: gpuprio_get "
			"returned %#x, want %#x\n", tab->name, prio,
			tab->prio);
		return -1;
	}

	expected_text(want, sizeof(want), tab->prio, cpu_nice);
	if (read_gpu_nice(got, sizeof(got)) || strcmp(got, want)) {
		fprintf(stderr, "gpuprio-tabs: tab %s: gpu_nice says "
			"\"%s\", want \"%s\"\n", tab->name, got, want);
		return -1;
	}
	return 0;
}

/* Stands in for the driver call, which reads the priority right now. */
static void submit(const struct tab *tab, int round)
{
	char text[32];

	read_gpu_nice(text, sizeof(text));
	printf("round %d: tab %-10s submitted at %s\n", round, tab->name,
	       text);
}

/* The GPU thread: switch and submit for each frame; return failures. */
static void *gpu_thread(void *arg)
{
	const struct tab *tabs = arg;
	int cpu_nice = getpriority(PRIO_PROCESS, 0);
	int current = gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	long failures = 0;
	size_t i;
	int round;

	for (round = 1; round <= ROUNDS; round++) {
		for (i = 0; i < sizeof(frames) / sizeof(frames[0]); i++) {
			const struct tab *tab = find_tab(tabs, frames[i]);

			/* A switch costs a system call: skip needless ones. */
			if (tab->prio != current) {
				if (switch_to(tab, cpu_nice)) {
					failures++;
					continue;
				}
				current = tab->prio;
			}
			submit(tab, round);
		}
	}
	return (void *)failures;
}

int main(void)
{
	struct tab tabs[4];
	pthread_t thread;
	int before, after, err;
	void *failures;

	if (!gpuprio_supported()) {
		printf("gpuprio-tabs: this kernel has no GPU priority "
		       "support, skipping\n");
		return KSFT_SKIP;
	}

	before = gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	if (before < 0) {
		perror("gpuprio-tabs: gpuprio_get");
		return EXIT_FAILURE;
	}
	make_tabs(tabs, getpriority(PRIO_PROCESS, 0));

	err = pthread_create(&thread, NULL, gpu_thread, tabs);
	if (err) {
		fprintf(stderr, "gpuprio-tabs: pthread_create: %s\n",
			strerror(err));
		return EXIT_FAILURE;
	}
	pthread_join(thread, &failures);

	after = gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	if (after != before) {
		fprintf(stderr, "gpuprio-tabs: the main thread's priority "
			"changed from %#x to %#x\n", before, after);
		return EXIT_FAILURE;
	}
	if (failures) {
		printf("gpuprio-tabs: %ld switches did not take\n",
		       (long)failures);
		return EXIT_FAILURE;
	}
	printf("gpuprio-tabs: every switch took; the main thread kept its "
	       "own priority\n");
	return EXIT_SUCCESS;
}
