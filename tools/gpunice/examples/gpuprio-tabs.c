// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gpuprio-tabs - GPU priorities the way a web browser would use them
 *
 * A GPU priority belongs to the thread that submits the work, and a driver
 * applies it to a whole GPU context: work of two tabs in one context
 * cannot be ordered against each other. So each tab gets its own thread,
 * which sets the tab's priority first and only then creates the tab's GPU
 * context (here: opens its own DRM file), so that the context and any
 * thread the driver starts for it begin at that priority; every
 * submission of the tab is made from that thread. The visible tab follows
 * the CPU nice, a tab playing video runs a little lower, other background
 * tabs lower still, and hidden tabs only when the GPU has nothing else to
 * do.
 *
 * The priorities are chosen so that no privilege is needed at any CPU
 * nice, negative included: without CAP_SYS_NICE a thread may always set a
 * GPU nice from the higher of its CPU nice and 0 up to 19, idle, or none
 * (follow the CPU nice, downward only).
 *
 * The program checks what it does: once every tab has set its priority,
 * each tab's thread reads its own back with gpuprio_get() and
 * /proc/thread-self/gpu_nice (another tab's set must not have changed it),
 * and the main thread's priority must not change. Exit status: 0 if all is
 * as expected, 1 if not, 4 (kselftest's "skip") if the kernel has no GPU
 * priorities.
 *
 * Build: cc -pthread -o gpuprio-tabs gpuprio-tabs.c
 * The part between the EXAMPLES markers is the example of gpuprio(3): keep
 * the two the same (tests/host/suites/20-gpunice compares them).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <gpuprio.h>

#define KSFT_SKIP	4
#define NR_TABS		4
#define FRAMES		3

struct tab;
static pthread_barrier_t all_set;
static void draw_frames(struct tab *tab);

/* gpuprio.3 EXAMPLES begin */
struct tab {
	const char *name;
	int prio;          /* its GPU priority, for gpuprio_set() */
	int err;           /* 0, or why it runs at another priority */
	int gpu;           /* its own GPU context: a DRM file */
	pthread_t thread;  /* the thread that submits all its work */
};

/*
 * From what an unset value gives (the CPU nice if positive, else
 * 0) down: none of these needs privilege, whatever the CPU nice.
 */
static void make_tabs(struct tab tabs[4], int cpu_nice)
{
	int base = cpu_nice > 0 ? cpu_nice : 0;

	tabs[0].name = "visible";
	tabs[0].prio = GPUPRIO_DEFAULT;
	tabs[1].name = "video";
	tabs[1].prio = GPUPRIO_BE_NICE(base + 5 < 19 ? base + 5 : 19);
	tabs[2].name = "background";
	tabs[2].prio = GPUPRIO_BE_NICE(base + 10 < 19 ? base + 10 : 19);
	tabs[3].name = "hidden";
	tabs[3].prio = GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0);
}

/*
 * A tab's thread: first its priority, then its GPU context, which
 * the driver creates at that priority; all the tab's work goes
 * from this thread.
 */
static void *tab_main(void *arg)
{
	struct tab *tab = arg;

	if (gpuprio_set(GPUPRIO_WHO_PROCESS, 0, tab->prio) == -1)
		tab->err = errno;  /* the tab still draws */
	tab->gpu = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	draw_frames(tab);
	if (tab->gpu != -1)
		close(tab->gpu);
	return NULL;
}
/* gpuprio.3 EXAMPLES end */

/* The effective GPU nice of a thread without a value, as /proc shows it. */
static int unset_nice(int cpu_nice)
{
	FILE *f = fopen("/proc/sys/kernel/gpuprio_follow_nice", "r");
	int follow = 1;

	if (f) {
		if (fscanf(f, "%d", &follow) != 1)
			follow = 1;
		fclose(f);
	}
	return follow && cpu_nice > 0 ? cpu_nice : 0;
}

/* What /proc/thread-self/gpu_nice must say for @prio. */
static void expected_text(char *buf, size_t len, int prio, int cpu_nice)
{
	switch (GPUPRIO_PRIO_CLASS(prio)) {
	case GPUPRIO_CLASS_NONE:
		snprintf(buf, len, "none %d", unset_nice(cpu_nice));
		break;
	case GPUPRIO_CLASS_RT:
		snprintf(buf, len, "realtime %d", GPUPRIO_PRIO_DATA(prio));
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

	buf[0] = '\0';
	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = 0;
	}
	fclose(f);
	return ret;
}

/*
 * The rest of a tab's thread. Once every tab has set its priority, this
 * thread must still have its own; then each frame stands in for a driver
 * call, which reads the priority at the submission.
 */
static void draw_frames(struct tab *tab)
{
	int cpu_nice = getpriority(PRIO_PROCESS, 0);
	char want[32], got[32];
	int frame, prio;

	pthread_barrier_wait(&all_set);
	if (tab->err) {
		fprintf(stderr, "gpuprio-tabs: tab %s: gpuprio_set: %s\n",
			tab->name, strerror(tab->err));
		return;
	}

	prio = gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	if (prio != tab->prio) {
		fprintf(stderr, "gpuprio-tabs: tab %s: gpuprio_get "
			"returned %#x, want %#x\n", tab->name, prio,
			tab->prio);
		tab->err = EIO;
	}
	expected_text(want, sizeof(want), tab->prio, cpu_nice);
	if (read_gpu_nice(got, sizeof(got)) || strcmp(got, want)) {
		fprintf(stderr, "gpuprio-tabs: tab %s: gpu_nice says "
			"\"%s\", want \"%s\"\n", tab->name, got, want);
		tab->err = EIO;
	}

	for (frame = 1; frame <= FRAMES; frame++) {
		read_gpu_nice(got, sizeof(got));
		printf("tab %-10s frame %d submitted at %s%s\n", tab->name,
		       frame, got, tab->gpu == -1 ? " (no GPU)" : "");
	}
}

int main(void)
{
	struct tab tabs[NR_TABS];
	int before, after, cpu_nice, err, i, started, failed = 0;

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
	errno = 0;
	cpu_nice = getpriority(PRIO_PROCESS, 0);
	if (cpu_nice == -1 && errno) {
		perror("gpuprio-tabs: getpriority");
		return EXIT_FAILURE;
	}
	printf("gpuprio-tabs: CPU nice %d\n", cpu_nice);

	memset(tabs, 0, sizeof(tabs));
	make_tabs(tabs, cpu_nice);
	pthread_barrier_init(&all_set, NULL, NR_TABS);
	for (started = 0; started < NR_TABS; started++) {
		err = pthread_create(&tabs[started].thread, NULL, tab_main,
				     &tabs[started]);
		if (err) {
			fprintf(stderr, "gpuprio-tabs: pthread_create: %s\n",
				strerror(err));
			/* The others wait at the barrier: end here. */
			return EXIT_FAILURE;
		}
	}
	for (i = 0; i < NR_TABS; i++) {
		pthread_join(tabs[i].thread, NULL);
		if (tabs[i].err)
			failed++;
	}

	after = gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	if (after != before) {
		fprintf(stderr, "gpuprio-tabs: the main thread's priority "
			"changed from %#x to %#x\n", before, after);
		return EXIT_FAILURE;
	}
	if (failed) {
		printf("gpuprio-tabs: %d tabs did not run at their own "
		       "priority\n", failed);
		return EXIT_FAILURE;
	}
	printf("gpuprio-tabs: every tab ran at its own priority; the main "
	       "thread kept its own\n");
	return EXIT_SUCCESS;
}
