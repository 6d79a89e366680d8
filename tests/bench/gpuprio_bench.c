// SPDX-License-Identifier: GPL-2.0
/*
 * gpuprio_bench: what the GPU priority syscalls cost, measured against the
 * calls a reviewer compares them with, in the same run (make bench).
 *
 * usage: gpuprio_bench [-t] [-r rounds] [-b batches] [-m ms] [-k steps]
 *                      [-s sizes] [info] [percall] [scale] [fork]
 *
 *   info     the clock the measurements rely on, limits
 *   percall  one call on the caller: gpuprio_get/getpriority/ioprio_get,
 *            gpuprio_set/setpriority/ioprio_set (the same value again and
 *            again, and two values in turn), reading /proc/self/gpu_nice
 *            and /proc/self/timerslack_ns (pread, and open+read+close)
 *   scale    gpuprio_set/get over USER and PGRP, against setpriority/
 *            getpriority and ioprio_set/get, with a helper process of N
 *            threads (-s, default 100,1000,10000; ":" also separates) of uid 1000 in their own
 *            process group
 *   fork     fork + _exit + waitpid
 *
 * Every measurement is a batch of calls timed with clock_gettime
 * (CLOCK_MONOTONIC), lasting at least -m milliseconds (2), -k steps of the
 * clock (20) and 50 calls, started on a clock edge when the clock is coarse
 * (see run_batch()), so that the clock's granularity does not matter.
 * A round runs -b batches (7) of every operation, interleaved, and reports
 * each operation's median batch; -r rounds (5). Output lines, for
 * tests/bench/report.py:
 *
 *   @@BENCH info <key> <value>
 *   @@BENCH <group> <op> <tasks or -> <round> <ns per call>
 *
 * -t instead checks that every figure is sane and prints TAP (the make
 * check smoke test). An operation the kernel lacks (ENOSYS: ioprio without
 * CONFIG_BLOCK, gpuprio without CONFIG_GPUPRIO) is reported as
 * "@@BENCH missing <op>".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/gpuprio.h>
#include <linux/ioprio.h>

#include "../lib/tap.h"

/* The numbers: the test kernel's uapi headers (-isystem out/headers). */
#ifndef __NR_gpuprio_set
#error "no __NR_gpuprio_set: build with the test kernel's headers (make headers)"
#endif

#define BENCH_UID	1000
#define MAX_OPS		32
#define MAX_BATCHES	64

static int rounds = 5, batches = 7;
static double batch_ms = 2.0, min_steps = 20, clock_step = 1;
static int tap_mode;

/* What the operations act on, set before each group. */
static int target_pgid;
static int have_gpuprio;
static int fd_gpu_nice = -1, fd_timerslack = -1;

struct op {
	const char *name;
	long (*fn)(long i);
	long chunk;		/* calls between two clock reads */
	double target;		/* ns per batch */
	int missing;
	double sample[MAX_BATCHES];
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "gpuprio_bench: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, ": %s\n", strerror(errno));
	va_end(ap);
	if (tap_mode) {
		tap(false, "bench ran");
		tap_done();
	}
	exit(1);
}

/* ---- the operations; i is the call's index in its batch ---- */

static const int gpu_vals[2] = { GPUPRIO_BE_NICE(5), GPUPRIO_BE_NICE(6) };
/* IOPRIO_PRIO_VALUE() is an inline function in the 6.12 header */
static const int io_vals[2] = {
	IOPRIO_CLASS_BE << IOPRIO_CLASS_SHIFT | 5,
	IOPRIO_CLASS_BE << IOPRIO_CLASS_SHIFT | 6,
};

static long op_getpriority(long i)
{
	(void)i;
	return syscall(SYS_getpriority, PRIO_PROCESS, 0);
}

static long op_gpuprio_get(long i)
{
	(void)i;
	return syscall(__NR_gpuprio_get, GPUPRIO_WHO_PROCESS, 0, 0U);
}

static long op_ioprio_get(long i)
{
	(void)i;
	return syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0);
}

static long op_setpriority_same(long i)
{
	(void)i;
	return syscall(SYS_setpriority, PRIO_PROCESS, 0, 5);
}

static long op_setpriority_alt(long i)
{
	return syscall(SYS_setpriority, PRIO_PROCESS, 0, 5 + (i & 1));
}

static long op_gpuprio_set_same(long i)
{
	(void)i;
	return syscall(__NR_gpuprio_set, GPUPRIO_WHO_PROCESS, 0, gpu_vals[0], 0U);
}

static long op_gpuprio_set_alt(long i)
{
	return syscall(__NR_gpuprio_set, GPUPRIO_WHO_PROCESS, 0,
		       gpu_vals[i & 1], 0U);
}

static long op_ioprio_set_same(long i)
{
	(void)i;
	return syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, io_vals[0]);
}

static long op_ioprio_set_alt(long i)
{
	return syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, io_vals[i & 1]);
}

static long read_fd(int fd)
{
	char buf[64];

	if (fd < 0) {
		errno = ENOENT;
		return -1;
	}
	return pread(fd, buf, sizeof(buf), 0);
}

static long read_path(const char *path)
{
	char buf[64];
	int fd = open(path, O_RDONLY);
	long n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n;
}

static long op_gpu_nice_pread(long i)
{
	(void)i;
	return read_fd(fd_gpu_nice);
}

static long op_timerslack_pread(long i)
{
	(void)i;
	return read_fd(fd_timerslack);
}

static long op_gpu_nice_open(long i)
{
	(void)i;
	return read_path("/proc/self/gpu_nice");
}

static long op_timerslack_open(long i)
{
	(void)i;
	return read_path("/proc/self/timerslack_ns");
}

/* Scale: the helper's tasks, by user and by process group. */
static long op_gpuprio_set_user(long i)
{
	return syscall(__NR_gpuprio_set, GPUPRIO_WHO_USER, BENCH_UID,
		       gpu_vals[i & 1], 0U);
}

static long op_gpuprio_set_pgrp(long i)
{
	return syscall(__NR_gpuprio_set, GPUPRIO_WHO_PGRP, target_pgid,
		       gpu_vals[i & 1], 0U);
}

static long op_setpriority_user(long i)
{
	return syscall(SYS_setpriority, PRIO_USER, BENCH_UID, 5 + (i & 1));
}

static long op_setpriority_pgrp(long i)
{
	return syscall(SYS_setpriority, PRIO_PGRP, target_pgid, 5 + (i & 1));
}

static long op_ioprio_set_user(long i)
{
	return syscall(SYS_ioprio_set, IOPRIO_WHO_USER, BENCH_UID,
		       io_vals[i & 1]);
}

static long op_ioprio_set_pgrp(long i)
{
	return syscall(SYS_ioprio_set, IOPRIO_WHO_PGRP, target_pgid,
		       io_vals[i & 1]);
}

static long op_gpuprio_get_user(long i)
{
	(void)i;
	return syscall(__NR_gpuprio_get, GPUPRIO_WHO_USER, BENCH_UID, 0U);
}

static long op_gpuprio_get_pgrp(long i)
{
	(void)i;
	return syscall(__NR_gpuprio_get, GPUPRIO_WHO_PGRP, target_pgid, 0U);
}

static long op_getpriority_user(long i)
{
	(void)i;
	return syscall(SYS_getpriority, PRIO_USER, BENCH_UID);
}

static long op_getpriority_pgrp(long i)
{
	(void)i;
	return syscall(SYS_getpriority, PRIO_PGRP, target_pgid);
}

static long op_ioprio_get_user(long i)
{
	(void)i;
	return syscall(SYS_ioprio_get, IOPRIO_WHO_USER, BENCH_UID);
}

static long op_ioprio_get_pgrp(long i)
{
	(void)i;
	return syscall(SYS_ioprio_get, IOPRIO_WHO_PGRP, target_pgid);
}

static long op_fork(long i)
{
	pid_t pid = fork();
	int status;

	(void)i;
	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(0);
	if (waitpid(pid, &status, 0) != pid || status != 0)
		return -1;
	return 0;
}

/* ---- measurement ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double s[MAX_BATCHES];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/*
 * ns per call of one batch: calls in chunks of op->chunk until the clock
 * shows op->target ns have passed. On a coarse clock (the guest's is often
 * jiffies: 4 ms) the batch starts on a clock edge, so the only error is
 * the overshoot of the last chunk, at most 1/200 of the batch; a fine
 * clock is read as rarely.
 */
static double run_batch(struct op *op, long chunk, double target)
{
	double t0, t, start;
	long n = 0, j, err = 0;

	start = t0 = now_ns();
	if (clock_step > 1000)
		while ((start = now_ns()) == t0)
			;
	do {
		for (j = 0; j < chunk; j++)
			err |= op->fn(n + j) < 0;
		n += chunk;
		t = now_ns();
	} while (t - start < target);
	if (err)
		die("%s failed", op->name);
	return (t - start) / n;
}

/*
 * First call: find out whether the kernel has it. Then estimate the cost
 * of a call over a few clock steps (which also warms caches and does what
 * a first call allocates, such as an io_context), and size the batches:
 * at least batch_ms, min_steps clock steps and 50 calls.
 */
static void calibrate(struct op *op)
{
	double est;

	/* The numbers are other syscalls elsewhere: ask /proc first */
	errno = ENOSYS;
	if ((!strncmp(op->name, "gpu", 3) && !have_gpuprio) || op->fn(0) < 0) {
		if (errno != ENOSYS && errno != ENOENT)
			die("%s failed", op->name);
		op->missing = 1;
		printf("@@BENCH missing %s\n", op->name);
		return;
	}
	est = run_batch(op, 1, clock_step * 4 > 2e6 ? clock_step * 4 : 2e6);
	op->target = batch_ms * 1e6;
	if (op->target < min_steps * clock_step)
		op->target = min_steps * clock_step;
	if (op->target < 50 * est)
		op->target = 50 * est;
	op->chunk = op->target / 200 / est;
	if (op->chunk < 1)
		op->chunk = 1;
}

/*
 * Rounds of interleaved batches; each round prints each op's median.
 * In TAP mode, each op gets one result.
 */
static void measure(const char *group, struct op *ops, int nops,
		    const char *tasks)
{
	double round_med[MAX_OPS];
	int r, b, k;

	for (k = 0; k < nops; k++)
		calibrate(&ops[k]);

	for (r = 0; r < rounds; r++) {
		for (b = 0; b < batches; b++) {
			int order[MAX_OPS];

			/* A new order each time: no op always follows another */
			for (k = 0; k < nops; k++)
				order[k] = k;
			for (k = nops - 1; k > 0; k--) {
				int j = rand() % (k + 1), t = order[k];

				order[k] = order[j];
				order[j] = t;
			}
			for (k = 0; k < nops; k++) {
				struct op *op = &ops[order[k]];

				if (!op->missing)
					op->sample[b] = run_batch(op, op->chunk,
								 op->target);
			}
		}
		for (k = 0; k < nops; k++) {
			if (ops[k].missing)
				continue;
			round_med[k] = median(ops[k].sample, batches);
			printf("@@BENCH %s %s %s %d %.1f\n", group, ops[k].name,
			       tasks, r, round_med[k]);
		}
		fflush(stdout);
	}

	if (!tap_mode)
		return;
	for (k = 0; k < nops; k++) {
		if (ops[k].missing) {
			tap_skip("not in this kernel", "%s %s", group,
				 ops[k].name);
			continue;
		}
		/* A syscall under TCG costs ~200 ns, a fork far more */
		tap(round_med[k] > 10 && round_med[k] < 1e8,
		    "%s %s %s: %.0f ns per call", group, ops[k].name, tasks,
		    round_med[k]);
	}
}

#define OP(f) { .name = #f, .fn = op_##f }

static void bench_percall(void)
{
	struct op ops[] = {
		OP(getpriority), OP(gpuprio_get), OP(ioprio_get),
		OP(setpriority_same), OP(gpuprio_set_same),
		OP(ioprio_set_same),
		OP(setpriority_alt), OP(gpuprio_set_alt), OP(ioprio_set_alt),
		OP(gpu_nice_pread), OP(timerslack_pread),
		OP(gpu_nice_open), OP(timerslack_open),
	};

	fd_gpu_nice = open("/proc/self/gpu_nice", O_RDONLY);
	fd_timerslack = open("/proc/self/timerslack_ns", O_RDONLY);
	if (fd_timerslack < 0)
		die("/proc/self/timerslack_ns");
	measure("percall", ops, sizeof(ops) / sizeof(ops[0]), "-");
	if (fd_gpu_nice >= 0)
		close(fd_gpu_nice);
	close(fd_timerslack);
	/* Leave the caller as it was */
	syscall(SYS_setpriority, PRIO_PROCESS, 0, 0);
	syscall(__NR_gpuprio_set, GPUPRIO_WHO_PROCESS, 0, GPUPRIO_DEFAULT, 0U);
}

/* ---- the helper process of the scale test ---- */

static void *idle_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* A process of uid BENCH_UID, leader of its own group, with @tasks tasks. */
static pid_t start_helper(int tasks)
{
	int ready[2];
	pid_t pid;
	char c;

	if (pipe(ready))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
		pthread_attr_t attr;
		pthread_t t;
		int i;

		close(ready[0]);
		tap_mode = 0;	/* the parent reports */
		setpgid(0, 0);
		/*
		 * uid 1000 could not start 10000 threads otherwise; if the
		 * hard limit cannot be lifted (not root), use all of it.
		 */
		if (setrlimit(RLIMIT_NPROC, &unlimited) &&
		    !getrlimit(RLIMIT_NPROC, &unlimited)) {
			unlimited.rlim_cur = unlimited.rlim_max;
			setrlimit(RLIMIT_NPROC, &unlimited);
		}
		if (setgid(BENCH_UID) || setuid(BENCH_UID))
			die("helper credentials");
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 64 * 1024);
		for (i = 1; i < tasks; i++) {
			errno = pthread_create(&t, &attr, idle_thread, NULL);
			if (errno)
				die("thread %d of %d", i, tasks);
		}
		if (write(ready[1], "r", 1) != 1)
			die("helper ready");
		for (;;)
			pause();
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) {
		errno = ECHILD;
		die("helper with %d tasks did not start", tasks);
	}
	close(ready[0]);
	return pid;
}

static void stop_helper(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Let root start enough tasks: threads-max depends on the memory. */
static void raise_limit(const char *path, long want)
{
	char buf[32];
	long have = 0;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fscanf(f, "%ld", &have) != 1)
			have = 0;
		fclose(f);
	}
	if (have >= want)
		return;
	f = fopen(path, "w");
	if (!f)
		return;
	snprintf(buf, sizeof(buf), "%ld\n", want);
	fputs(buf, f);
	fclose(f);
}

static void bench_scale(const char *sizes)
{
	char *list = strdup(sizes), *tok, *save;

	for (tok = strtok_r(list, ",:", &save); tok;
	     tok = strtok_r(NULL, ",:", &save)) {
		struct op ops[] = {
			OP(gpuprio_set_user), OP(setpriority_user),
			OP(ioprio_set_user),
			OP(gpuprio_set_pgrp), OP(setpriority_pgrp),
			OP(ioprio_set_pgrp),
			OP(gpuprio_get_user), OP(getpriority_user),
			OP(ioprio_get_user),
			OP(gpuprio_get_pgrp), OP(getpriority_pgrp),
			OP(ioprio_get_pgrp),
		};
		int tasks = atoi(tok);
		pid_t helper;

		if (tasks < 1)
			continue;
		raise_limit("/proc/sys/kernel/threads-max", 2L * tasks + 1000);
		raise_limit("/proc/sys/kernel/pid_max", 2L * tasks + 1000);
		helper = start_helper(tasks);
		target_pgid = helper;
		measure("scale", ops, sizeof(ops) / sizeof(ops[0]), tok);
		stop_helper(helper);
	}
	free(list);
}

static void bench_fork(void)
{
	struct op ops[] = { OP(fork) };

	measure("fork", ops, 1, "-");
}

/* ---- the clock ---- */

static void print_file(const char *key, const char *path)
{
	char buf[128] = "";
	FILE *f = fopen(path, "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
	printf("@@BENCH info %s %s\n", key, buf[0] ? buf : "?");
}

static void bench_info(void)
{
	struct timespec res;
	struct utsname u;

	uname(&u);
	printf("@@BENCH info kernel %s\n", u.release);
	print_file("clocksource",
		   "/sys/devices/system/clocksource/clocksource0/current_clocksource");
	clock_getres(CLOCK_MONOTONIC, &res);
	printf("@@BENCH info clock_getres_ns %ld\n",
	       res.tv_sec * 1000000000L + res.tv_nsec);
	printf("@@BENCH info clock_step_ns %.0f\n", clock_step);
	printf("@@BENCH info min_steps %.0f\n", min_steps);
	printf("@@BENCH info batch_ms %.1f\n", batch_ms);
	printf("@@BENCH info rounds %d\n", rounds);
	printf("@@BENCH info batches %d\n", batches);
	printf("@@BENCH info nproc %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	print_file("threads_max", "/proc/sys/kernel/threads-max");
	print_file("pid_max", "/proc/sys/kernel/pid_max");
	if (tap_mode)
		tap(clock_step > 0 && clock_step < 1e8,
		    "clock steps by %.0f ns", clock_step);
}

/* The smallest step clock_gettime actually shows, over a few steps */
static double measure_step(void)
{
	double t0, t1, step = 1e18;
	int i;

	for (i = 0; i < 20; i++) {
		t0 = now_ns();
		do
			t1 = now_ns();
		while (t1 == t0);
		if (t1 - t0 < step)
			step = t1 - t0;
	}
	return step;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: gpuprio_bench [-t] [-r rounds] [-b batches] [-m ms] [-k steps] [-s sizes] [info] [percall] [scale] [fork]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *sizes = "100,1000,10000";
	int opt, i, all;

	while ((opt = getopt(argc, argv, "tr:b:m:k:s:")) != -1) {
		switch (opt) {
		case 't':
			tap_mode = 1;
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'b':
			batches = atoi(optarg);
			break;
		case 'm':
			batch_ms = atof(optarg);
			break;
		case 'k':
			min_steps = atof(optarg);
			break;
		case 's':
			sizes = optarg;
			break;
		default:
			usage();
		}
	}
	if (rounds < 1 || batches < 1 || batches > MAX_BATCHES ||
	    batch_ms <= 0)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	have_gpuprio = !access("/proc/self/gpu_nice", F_OK);
	clock_step = measure_step();
	srand(1);	/* the same orders in every run */

	all = optind == argc;
	if (all) {
		bench_info();
		bench_percall();
		bench_scale(sizes);
		bench_fork();
	}
	for (i = optind; i < argc; i++) {
		if (!strcmp(argv[i], "info"))
			bench_info();
		else if (!strcmp(argv[i], "percall"))
			bench_percall();
		else if (!strcmp(argv[i], "scale"))
			bench_scale(sizes);
		else if (!strcmp(argv[i], "fork"))
			bench_fork();
		else
			usage();
	}
	if (tap_mode) {
		return tap_done();
	}
	return 0;
}
