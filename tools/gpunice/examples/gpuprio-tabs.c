// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/*
 * gpuprio-tabs - GPU priorities the way a web browser would use them
 *
 * Copyright (c) 2026 the gpunice authors
 *
 * Dual-licensed: under the GNU General Public License, version 2 or (at
 * your option) any later version, or under the MIT licence, at your
 * choice, so that a browser under either kind of licence may copy it. The
 * MIT licence's text is in <gpuprio.h>.
 *
 * A GPU priority belongs to the thread that submits the work, and a driver
 * applies it to a whole GPU context: work of two tabs in one context
 * cannot be ordered against each other. So each tab gets its own thread,
 * which sets the tab's priority first and only then creates the tab's GPU
 * context (here: opens its own DRM file on the render node), so that the
 * context and any thread the driver starts for it begin at that priority;
 * every submission of the tab is made from that thread. The visible tab
 * follows the CPU nice, a tab playing video runs a little lower, other
 * background tabs lower still, and hidden tabs only when the GPU has
 * nothing else to do.
 *
 * The priorities are chosen so that no privilege is needed at any CPU
 * nice, negative included: without CAP_SYS_NICE a thread may always set a
 * GPU nice from the higher of its CPU nice and 0 up to 19, idle, or none
 * (follow the CPU nice, downward only).
 *
 * The render node is found, not assumed: the first /dev/dri/renderD* that
 * opens and answers DRM_IOCTL_VERSION, or the first of a given driver
 * (--driver), or one named (--device). A render node has no submission
 * ioctl common to all drivers: real programs submit through OpenGL or
 * Vulkan (gpuprio-egl.c and gpuprio-vulkan.c do, on a thread at a chosen
 * GPU nice). Built with GPUPRIO_TABS_SIMGPU, as gpunice's own build does
 * for its test guest, each frame is a job on simgpu, gpunice's test driver
 * (tests/simgpu), which reports the GPU nice the kernel gave the job; on
 * any other driver a tab opens its own DRM file and submits nothing.
 *
 * --sandbox shows the order for a sandboxed process (a browser's GPU or
 * renderer process): the system call numbers are learnt first, then a
 * seccomp-bpf filter is installed that allows a thread to set and read
 * its own GPU priority and nothing else of gpuprio (gpuprio-seccomp.h);
 * then the tabs start. Each tab checks that the filter refuses a call on
 * another thread, the main thread, with EPERM.
 *
 * The program checks what it does: once every tab has set its priority,
 * each tab's thread reads its own back with gpuprio_get() and
 * /proc/thread-self/gpu_nice (another tab's set must not have changed it),
 * and the main thread's priority must not change. Exit status: 0 if all is
 * as expected, 1 if not, 2 for bad usage, 4 (kselftest's "skip") if the
 * kernel has no GPU priorities.
 *
 * Build: cc -pthread $(pkg-config --cflags libdrm) -o gpuprio-tabs \
 *	gpuprio-tabs.c
 * (libdrm's headers only, for <drm.h>; nothing is linked.)
 * The part between the EXAMPLES markers is the example of gpuprio(3): keep
 * the two the same (tests/host/suites/20-gpunice compares them).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <drm.h>		/* libdrm's copy of the kernel's uapi */
#include <gpuprio.h>

#include "gpuprio-seccomp.h"
#ifdef GPUPRIO_TABS_SIMGPU
#include "simgpu_drm.h"
#endif

#define KSFT_SKIP	4
#define NR_TABS		4
#define FRAMES		3
#define NODE_MAX	(sizeof("/dev/dri/") + 256)

struct tab;
static pthread_barrier_t all_set;
static int sandboxed;		/* --sandbox: under the filter */
static pid_t main_tid;		/* for the sandbox's refusal check */
static char node_driver[32];	/* the render node's driver, "" if none */
static void draw_frames(struct tab *tab);

/* gpuprio.3 EXAMPLES begin */
struct tab {
	const char *name;
	int prio;          /* its GPU priority, for gpuprio_set() */
	int err;           /* 0, or why it runs at another priority */
	const char *node;  /* the GPU's render node, NULL if none */
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
	tab->gpu = -1;
	if (tab->node)
		tab->gpu = open(tab->node, O_RDWR | O_CLOEXEC);
	draw_frames(tab);
	if (tab->gpu != -1)
		close(tab->gpu);
	return NULL;
}
/* gpuprio.3 EXAMPLES end */

/*
 * The driver of an open DRM file, as DRM_IOCTL_VERSION names it, into
 * @name (a string, "" on failure). Returns 0, or -1 if it is no DRM file.
 */
static int drm_driver_name(int fd, char *name, size_t len)
{
	struct drm_version v;

	memset(&v, 0, sizeof(v));
	memset(name, 0, len);
	v.name = name;
	v.name_len = len - 1;
	if (ioctl(fd, DRM_IOCTL_VERSION, &v))
		return -1;
	return 0;
}

static int render_minor(const struct dirent *d)
{
	return !strncmp(d->d_name, "renderD", 7) && d->d_name[7] >= '0' &&
	       d->d_name[7] <= '9';
}

static int by_minor(const struct dirent **a, const struct dirent **b)
{
	return atoi((*a)->d_name + 7) - atoi((*b)->d_name + 7);
}

/*
 * Find a render node: @want_path itself if given, else the first of
 * /dev/dri/renderD* (by minor number) that opens and is a DRM device of
 * driver @want_driver (any, if NULL). Fills @path and node_driver.
 * Returns 0, or -1 if there is none (@path is then "").
 */
static int find_render_node(const char *want_path, const char *want_driver,
			    char *path, size_t len)
{
	struct dirent **list = NULL;
	char name[sizeof(node_driver)];
	int i, n, fd, found = -1;

	path[0] = '\0';
	node_driver[0] = '\0';
	if (want_path) {
		fd = open(want_path, O_RDWR | O_CLOEXEC);
		if (fd == -1 || drm_driver_name(fd, name, sizeof(name))) {
			fprintf(stderr, "gpuprio-tabs: %s: %s\n", want_path,
				fd == -1 ? strerror(errno) :
				"not a DRM device");
			if (fd != -1)
				close(fd);
			return -1;
		}
		close(fd);
		snprintf(path, len, "%s", want_path);
		memcpy(node_driver, name, sizeof(node_driver));
		return 0;
	}
	n = scandir("/dev/dri", &list, render_minor, by_minor);
	for (i = 0; i < n; i++) {
		if (found)
			snprintf(path, len, "/dev/dri/%s", list[i]->d_name);
		free(list[i]);
		if (!found)
			continue;
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd == -1)
			continue;
		if (!drm_driver_name(fd, name, sizeof(name)) &&
		    (!want_driver || !strcmp(name, want_driver))) {
			memcpy(node_driver, name, sizeof(node_driver));
			found = 0;
		}
		close(fd);
	}
	free(list);
	if (found)
		path[0] = '\0';
	return found;
}

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
 * One frame's GPU work on the tab's own DRM file, described into @what.
 * Returns 0, or -1 with errno set if the submission failed.
 */
static int submit_frame(struct tab *tab, char *what, size_t len)
{
	if (tab->gpu == -1) {
		snprintf(what, len, " (no GPU)");
		return 0;
	}
#ifdef GPUPRIO_TABS_SIMGPU
	if (!strcmp(node_driver, "simgpu")) {
		struct drm_simgpu_submit job;
		struct drm_simgpu_wait wait;

		memset(&job, 0, sizeof(job));
		job.duration_ns = 1000000;	/* 1 ms of the engine */
		if (ioctl(tab->gpu, DRM_IOCTL_SIMGPU_SUBMIT, &job))
			return -1;
		memset(&wait, 0, sizeof(wait));
		wait.handle = job.handle;
		wait.timeout_ns = 5000000000LL;
		if (ioctl(tab->gpu, DRM_IOCTL_SIMGPU_WAIT, &wait))
			return -1;
		snprintf(what, len, " (simgpu: nice %d, priority %u)",
			 job.nice, job.priority);
		return 0;
	}
#endif
	/* No common submission ioctl: see gpuprio-egl.c, gpuprio-vulkan.c. */
	snprintf(what, len, " (%s: opened, no submission)", node_driver);
	return 0;
}

/*
 * The rest of a tab's thread. Once every tab has set its priority, this
 * thread must still have its own; then each frame is a submission on the
 * tab's own DRM file, made from this thread, at this thread's priority.
 */
static void draw_frames(struct tab *tab)
{
	int cpu_nice = getpriority(PRIO_PROCESS, 0);
	char want[32], got[32], what[64];
	int frame, prio;

	if (tab->node && tab->gpu == -1)
		fprintf(stderr, "gpuprio-tabs: tab %s: %s: %s\n", tab->name,
			tab->node, strerror(errno));
	if (sandboxed && !tab->err) {
		/* Another thread of the process: the filter must refuse. */
		if (gpuprio_set(GPUPRIO_WHO_PROCESS, (int)main_tid,
				GPUPRIO_BE_NICE(19)) != -1 || errno != EPERM) {
			fprintf(stderr, "gpuprio-tabs: tab %s: the sandbox "
				"let it set the main thread\n", tab->name);
			tab->err = EIO;
		} else {
			printf("tab %-10s the sandbox refused its call on "
			       "another thread: EPERM\n", tab->name);
		}
	}
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
		if (submit_frame(tab, what, sizeof(what))) {
			fprintf(stderr, "gpuprio-tabs: tab %s: frame %d: "
				"submission: %s\n", tab->name, frame,
				strerror(errno));
			tab->err = EIO;
			return;
		}
		printf("tab %-10s frame %d submitted at %s%s\n", tab->name,
		       frame, got, what);
	}
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: gpuprio-tabs [--device PATH | --driver NAME] "
		"[--sandbox]\n"
		"  --device PATH  the render node to use\n"
		"  --driver NAME  the first render node of that DRM driver\n"
		"  --sandbox      learn the gpuprio numbers, then run under a "
		"seccomp filter\n"
		"                 that allows only calls on the calling "
		"thread\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "driver", required_argument, NULL, 'D' },
		{ "sandbox", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *want_path = NULL, *want_driver = NULL;
	struct tab tabs[NR_TABS];
	char node[NODE_MAX];
	int before, after, cpu_nice, err, i, c, started, failed = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			want_path = optarg;
			break;
		case 'D':
			want_driver = optarg;
			break;
		case 's':
			sandboxed = 1;
			break;
		case 'h':
			usage(stdout);
			return EXIT_SUCCESS;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc || (want_path && want_driver)) {
		usage(stderr);
		return 2;
	}

	/* Before any sandbox: this reads the numbers, and keeps them. */
	if (!gpuprio_supported()) {
		printf("gpuprio-tabs: this kernel has no GPU priority "
		       "support, skipping\n");
		return KSFT_SKIP;
	}

	if (find_render_node(want_path, want_driver, node, sizeof(node))) {
		if (want_path || want_driver) {
			fprintf(stderr, "gpuprio-tabs: no render node%s%s\n",
				want_driver ? " of driver " : "",
				want_driver ? want_driver : "");
			return EXIT_FAILURE;
		}
		printf("gpuprio-tabs: no render node: the tabs draw "
		       "without a GPU\n");
	} else {
		printf("gpuprio-tabs: render node %s (%s)\n", node,
		       node_driver);
	}

	if (sandboxed) {
		main_tid = (pid_t)syscall(SYS_gettid);
		if (gpuprio_seccomp_enter()) {
			perror("gpuprio-tabs: entering the sandbox");
			return EXIT_FAILURE;
		}
		printf("gpuprio-tabs: in the sandbox: gpuprio calls on the "
		       "calling thread only\n");
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
	for (i = 0; i < NR_TABS; i++)
		tabs[i].node = node[0] ? node : NULL;
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
