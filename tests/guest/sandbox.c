// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sandbox - the gpuprio calls under the seccomp-bpf filter of
 * tools/gpunice/examples/gpuprio-seccomp.h, on the patched kernel
 * (suite 25-sandbox). TAP on stdout, numbered from argv[1] (default 1).
 *
 * The order a sandboxed process follows: the numbers are learnt first
 * (gpuprio_syscall_numbers(), checked against the test kernel's uapi
 * header), then the filter is installed on every thread (TSYNC), then each
 * thread sets its own priority. Before the filter, the calls it must
 * refuse are made once and succeed (setting another thread of the process
 * is allowed to its owner, root or not): so a refusal afterwards is the
 * filter's, which answers EPERM, and it leaves the target as it was.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <asm/unistd.h>

#include <gpuprio.h>
#include "gpuprio-seccomp.h"
#include "../lib/tap.h"

/* The helper thread: does what the main thread asks, one at a time. */
static int to_helper[2], from_helper[2];
static pid_t main_tid, helper_tid;

static void *helper(void *arg)
{
	char cmd;
	int res[2];

	(void)arg;
	helper_tid = (pid_t)syscall(SYS_gettid);
	res[0] = res[1] = 0;
	if (write(from_helper[1], res, sizeof(res)) != sizeof(res))
		return NULL;
	while (read(to_helper[0], &cmd, 1) == 1 && cmd != 'q') {
		/* 's': set itself to nice 9, then try the main thread. */
		res[0] = gpuprio_set(GPUPRIO_WHO_PROCESS, 0,
				     GPUPRIO_BE_NICE(9)) ? errno : 0;
		res[1] = gpuprio_set(GPUPRIO_WHO_PROCESS, (int)main_tid,
				     GPUPRIO_BE_NICE(19)) ? errno : 0;
		if (write(from_helper[1], res, sizeof(res)) != sizeof(res))
			break;
	}
	return NULL;
}

/* /proc/self/task/TID/gpu_nice, without its newline, into @buf. */
static const char *gpu_nice(pid_t tid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/gpu_nice", (int)tid);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* A refused call: -1 with EPERM. */
static int refused(int ret)
{
	return ret == -1 && errno == EPERM;
}

static const char *err_text(int ret)
{
	static char buf[64];

	if (ret != -1)
		snprintf(buf, sizeof(buf), "returned %d", ret);
	else
		snprintf(buf, sizeof(buf), "%s", strerror(errno));
	return buf;
}

int main(int argc, char **argv)
{
	long set_nr = -1, get_nr = -1;
	char before[32], now[32];
	pthread_t thread;
	int pidfd, ret, res[2];

	tap_first(argc > 1 ? atoi(argv[1]) : 1);
	main_tid = (pid_t)syscall(SYS_gettid);

	/* 1. Before the sandbox: the numbers. */
	ret = gpuprio_syscall_numbers(&set_nr, &get_nr);
	if (!tap(ret == 0 && set_nr == __NR_gpuprio_set &&
		 get_nr == __NR_gpuprio_get,
		 "gpuprio_syscall_numbers: %ld %ld, the syscall table's %d %d",
		 set_nr, get_nr, __NR_gpuprio_set, __NR_gpuprio_get)) {
		return 1;
	}

	if (pipe(to_helper) || pipe(from_helper) ||
	    pthread_create(&thread, NULL, helper, NULL) ||
	    read(from_helper[0], res, sizeof(res)) != sizeof(res)) {
		tap(0, "the helper thread starts");
		return 1;
	}
	pidfd = gpuprio_pidfd_open(getpid());

	/* The control: what the filter will refuse works without it. */
	gpu_nice(helper_tid, before, sizeof(before));
	ret = gpuprio_set(GPUPRIO_WHO_PROCESS, helper_tid, GPUPRIO_BE_NICE(7));
	tap(ret == 0 && gpuprio_get(GPUPRIO_WHO_PROCESS, helper_tid) ==
	    GPUPRIO_BE_NICE(7),
	    "without the filter: set(PROCESS, another thread) works (%s)",
	    err_text(ret));
	ret = gpuprio_set(GPUPRIO_WHO_PROCESS, helper_tid, GPUPRIO_DEFAULT);
	tap(ret == 0 && !strcmp(gpu_nice(helper_tid, now, sizeof(now)),
				 before),
	    "without the filter: and back to \"%s\" (%s)", before,
	    err_text(ret));
	ret = gpuprio_get(GPUPRIO_WHO_PIDFD, pidfd);
	tap(ret >= 0, "without the filter: get(PIDFD) works (%s)",
	    err_text(ret));

	/* 2. The sandbox, on both threads. */
	ret = gpuprio_seccomp_enter();
	if (!tap(ret == 0, "gpuprio_seccomp_enter: the filter is in (%s)",
		 err_text(ret))) {
		return 1;
	}

	/* 3. Inside: a thread sets and reads its own priority. */
	ret = gpuprio_set(GPUPRIO_WHO_PROCESS, 0, GPUPRIO_BE_NICE(5));
	tap(ret == 0, "in the sandbox: set(PROCESS, 0, nice 5) works (%s)",
	    err_text(ret));
	ret = gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	tap(ret == GPUPRIO_BE_NICE(5),
	    "in the sandbox: get(PROCESS, 0) reads it back (%#x)", ret);
	tap(!strcmp(gpu_nice(main_tid, now, sizeof(now)), "best-effort 5"),
	    "in the sandbox: /proc says \"%s\"", now);

	/* Everything else of gpuprio: EPERM from the filter, no change. */
	ret = gpuprio_set(GPUPRIO_WHO_PROCESS, helper_tid, GPUPRIO_BE_NICE(7));
	tap(refused(ret) && !strcmp(gpu_nice(helper_tid, now, sizeof(now)),
				     before),
	    "in the sandbox: set(PROCESS, another thread) refused: %s; it "
	    "is still \"%s\"", err_text(ret), now);
	ret = gpuprio_get(GPUPRIO_WHO_PROCESS, helper_tid);
	tap(refused(ret), "in the sandbox: get(PROCESS, another thread) "
	    "refused: %s", err_text(ret));
	ret = gpuprio_set(GPUPRIO_WHO_PROCESS, main_tid, GPUPRIO_BE_NICE(6));
	tap(refused(ret) && gpuprio_get(GPUPRIO_WHO_PROCESS, 0) ==
	    GPUPRIO_BE_NICE(5),
	    "in the sandbox: set(PROCESS, its own thread ID) refused: %s",
	    err_text(ret));
	ret = gpuprio_set(GPUPRIO_WHO_PIDFD, pidfd, GPUPRIO_BE_NICE(7));
	tap(refused(ret), "in the sandbox: set(PIDFD, its process) "
	    "refused: %s", err_text(ret));
	ret = gpuprio_get(GPUPRIO_WHO_PIDFD, pidfd);
	tap(refused(ret), "in the sandbox: get(PIDFD) refused: %s",
	    err_text(ret));
	ret = gpuprio_set(GPUPRIO_WHO_PGRP, 0, GPUPRIO_BE_NICE(7));
	tap(refused(ret), "in the sandbox: set(PGRP, 0) refused: %s",
	    err_text(ret));
	ret = gpuprio_set(GPUPRIO_WHO_USER, 0, GPUPRIO_BE_NICE(7));
	tap(refused(ret), "in the sandbox: set(USER, 0) refused: %s",
	    err_text(ret));
	ret = gpuprio_get(GPUPRIO_WHO_USER, 0);
	tap(refused(ret), "in the sandbox: get(USER, 0) refused: %s",
	    err_text(ret));
	/* Unknown flags: the kernel's answer would be EINVAL. */
	ret = (int)syscall(set_nr, GPUPRIO_WHO_PROCESS, 0, GPUPRIO_BE_NICE(5),
			   1U);
	tap(refused(ret), "in the sandbox: set(PROCESS, 0) with flags 1 "
	    "refused: %s (the kernel says EINVAL)", err_text(ret));
	tap(!strcmp(gpu_nice(helper_tid, now, sizeof(now)), before),
	    "the other thread kept \"%s\" through all of it", now);

	/* The thread that existed before the filter is held to it too. */
	if (write(to_helper[1], "s", 1) != 1 ||
	    read(from_helper[0], res, sizeof(res)) != sizeof(res))
		res[0] = res[1] = -1;
	tap(res[0] == 0 && !strcmp(gpu_nice(helper_tid, now, sizeof(now)),
				    "best-effort 9"),
	    "the other thread sets itself in the sandbox: \"%s\"", now);
	tap(res[1] == EPERM && gpuprio_get(GPUPRIO_WHO_PROCESS, 0) ==
	    GPUPRIO_BE_NICE(5),
	    "the other thread's call on the main thread is refused (TSYNC): "
	    "%s", res[1] > 0 ? strerror(res[1]) : "no error");

	if (write(to_helper[1], "q", 1) == 1)
		pthread_join(thread, NULL);
	return tap_status();
}
