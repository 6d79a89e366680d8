// SPDX-License-Identifier: GPL-2.0
/*
 * gpuprio_stress: many threads in several processes set and read each
 * other's GPU priority (syscalls and /proc/<pid>/gpu_nice), fork children
 * that do the same and exit, start and end threads, move their processes
 * between process groups (setpgid) while others set and read those groups,
 * and change their CPU nice, for a bounded time. Then: nothing crashed,
 * every error was one the rules allow, every value read was valid, every
 * survivor holds a valid value (the same through the syscall and /proc),
 * and no task, zombie or descriptor was left behind. TAP on stdout.
 *
 * usage: gpuprio_stress [-t seconds] [-P processes] [-T threads] [-s seed]
 *   env GPUPRIO_STRESS_SECONDS; the last process runs as uid 1000.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/gpuprio.h>

#include "../lib/gpu_nice_text.h"

/* The numbers: the test kernel's uapi headers (-isystem out/headers). */
#ifndef __NR_gpuprio_set
#error "no __NR_gpuprio_set: build with the test kernel's headers (make headers)"
#endif

#define BE(n)		((int)GPUPRIO_BE_NICE(n))
#define CLASS(v)	((int)GPUPRIO_PRIO_CLASS(v))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define MAX_PROCS	8
#define MAX_THREADS	8
#define SPARE		4	/* slots per process for short-lived threads */
#define SLOTS_PER	(MAX_THREADS + SPARE)
#define NR_ANCHORS	3
#define MAX_ERRNO	160
#define UID_OWN		1000

enum { OP_SET_SELF, OP_SET_OTHER, OP_GET, OP_GET_GROUP, OP_SET_GROUP,
	OP_PROC_READ, OP_PROC_WRITE, OP_FORK, OP_THREAD, OP_SETPGID,
	OP_NICE, NR_OPS };
/* NONE follows the CPU nice downward only. */
static const char *const op_name[] = {
	"set self", "set other", "get", "get group", "set group",
	"proc read", "proc write", "fork", "thread", "setpgid", "cpu nice",
};

struct shared {
	int stop;
	pid_t tids[MAX_PROCS * SLOTS_PER];
	pid_t anchors[NR_ANCHORS];
	unsigned long ops[NR_OPS];
	unsigned long err[MAX_ERRNO + 1];
	unsigned long unexpected, invalid, reads_checked, child_failed;
	char first_bad[4][200];
	int nbad;
};

static struct shared *sh;
static int nprocs = 4, nthreads = 4;
static bool unprivileged;	/* this worker runs as uid 1000 */
static int my_index;
static uint64_t seed;

static void add(unsigned long *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

static void bad(const char *what, int e)
{
	int i = __atomic_fetch_add(&sh->nbad, 1, __ATOMIC_RELAXED);

	if (i < (int)ARRAY_SIZE(sh->first_bad))
		snprintf(sh->first_bad[i], sizeof(sh->first_bad[0]),
			 "%s: %s (%d)", what, strerror(e), e);
}

static uint64_t rnd64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rnd(uint64_t *s, unsigned int n)
{
	return rnd64(s) % n;
}

static int random_valid(uint64_t *s)
{
	unsigned int i = rnd(s, 50);

	if (i == 0)
		return GPUPRIO_DEFAULT;
	if (i <= 8)
		return GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, i - 1);
	if (i <= 48)
		return BE((int)i - 9 - 20);
	return GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0);
}

/*
 * Errors the rules allow here: another task may be gone (ESRCH); uid 1000
 * may be refused another user's task or realtime (EPERM) and a raise
 * (EACCES); root is refused nothing. Values are always valid: EINVAL is
 * never right.
 */
static void result(const char *what, long ret, int e, bool to_self)
{
	if (ret >= 0) {
		add(&sh->err[0]);
		return;
	}
	add(&sh->err[e > 0 && e <= MAX_ERRNO ? e : MAX_ERRNO]);
	if (e == ESRCH && !to_self)
		return;
	if ((e == EPERM || e == EACCES) && unprivileged)
		return;
	add(&sh->unexpected);
	bad(what, e);
}

static void check_value(long v)
{
	add(&sh->reads_checked);
	if (!gpuprio_value_valid(v)) {
		add(&sh->invalid);
		bad("invalid value read", (int)v);
	}
}

/*
 * Set or read every thread of an anchor through a pidfd, racing the other
 * workers' per-thread and group calls on the same tasks. Anchors live for
 * the whole run, so the pidfd always names a live process.
 */
static void pidfd_op(uint64_t *s, bool set)
{
	int pidfd = syscall(SYS_pidfd_open, sh->anchors[rnd(s, NR_ANCHORS)], 0);
	long ret;
	int e;

	if (pidfd < 0) {
		add(&sh->unexpected);
		bad("pidfd_open", errno);
		return;
	}
	if (set)
		ret = syscall(__NR_gpuprio_set, GPUPRIO_WHO_PIDFD, pidfd,
			      random_valid(s), 0U);
	else
		ret = syscall(__NR_gpuprio_get, GPUPRIO_WHO_PIDFD, pidfd, 0U);
	e = errno;
	close(pidfd);
	result(set ? "set pidfd" : "get pidfd", ret, e, false);
	if (!set && ret >= 0)
		check_value(ret);
}

static pid_t random_tid(uint64_t *s)
{
	int i;

	for (i = 0; i < 8; i++) {
		pid_t t = __atomic_load_n(&sh->tids[rnd(s, nprocs * SLOTS_PER)],
					  __ATOMIC_RELAXED);

		if (t)
			return t;
	}
	return getpid();
}

static void proc_read(uint64_t *s)
{
	char path[64], buf[64];
	pid_t t = random_tid(s);
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/gpu_nice", t);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		if (errno != ENOENT && errno != ESRCH)
			result("open gpu_nice", -1, errno, false);
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		result("read gpu_nice", -1, errno, false);
	} else {
		buf[n] = '\0';
		add(&sh->reads_checked);
		if (!gpu_nice_decodes(buf)) {
			add(&sh->invalid);
			bad("gpu_nice read does not decode", 0);
		}
	}
	close(fd);
}

static void proc_write(uint64_t *s)
{
	static const char *const texts[] = {
		"5", "best-effort 10", "idle", "none", "realtime 3", "19",
		"-3", "best-effort -20\n",
	};
	const char *text = texts[rnd(s, ARRAY_SIZE(texts))];
	char path[64];
	pid_t t = random_tid(s);
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/gpu_nice", t);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		if (errno != ENOENT && errno != ESRCH)
			result("open gpu_nice", -1, errno, false);
		return;
	}
	n = write(fd, text, strlen(text));
	result("write gpu_nice", n, errno, false);
	close(fd);
}

static void one_op(uint64_t *s, int op);

static void *short_thread(void *arg)
{
	uint64_t s = (uintptr_t)arg;
	int slot = my_index * SLOTS_PER + MAX_THREADS + rnd(&s, SPARE);
	pid_t zero = 0, tid = gettid();
	bool mine;
	int i;

	mine = __atomic_compare_exchange_n(&sh->tids[slot], &zero, tid, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	for (i = 0; i < 20; i++)
		one_op(&s, rnd(&s, OP_FORK));
	if (mine)
		__atomic_store_n(&sh->tids[slot], 0, __ATOMIC_SEQ_CST);
	return NULL;
}

static void do_fork(uint64_t *s)
{
	int status, i;
	pid_t pid;

	pid = fork();
	if (pid < 0) {
		result("fork", -1, errno, true);
		return;
	}
	if (pid == 0) {
		uint64_t cs = rnd64(s) ^ getpid();
		long v;

		for (i = 0; i < 10; i++)
			one_op(&cs, rnd(&cs, OP_FORK));
		v = syscall(__NR_gpuprio_get, GPUPRIO_WHO_PROCESS, 0, 0U);
		_exit(gpuprio_value_valid(v) ? 0 : 3);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		add(&sh->child_failed);
		bad("fork child failed", status);
	}
}

static void one_op(uint64_t *s, int op)
{
	long ret;
	int which;

	add(&sh->ops[op]);
	switch (op) {
	case OP_SET_SELF:
		ret = syscall(__NR_gpuprio_set, GPUPRIO_WHO_PROCESS, 0,
			      random_valid(s), 0U);
		result("set self", ret, errno, true);
		break;
	case OP_SET_OTHER:
		ret = syscall(__NR_gpuprio_set, GPUPRIO_WHO_PROCESS,
			      random_tid(s), random_valid(s), 0U);
		result("set other", ret, errno, false);
		break;
	case OP_GET:
		ret = syscall(__NR_gpuprio_get, GPUPRIO_WHO_PROCESS,
			      random_tid(s), 0U);
		result("get", ret, errno, false);
		if (ret >= 0)
			check_value(ret);
		break;
	case OP_GET_GROUP:
		if (!rnd(s, 4)) {
			pidfd_op(s, false);
			break;
		}
		which = rnd(s, 3) ? GPUPRIO_WHO_PGRP : GPUPRIO_WHO_USER;
		ret = syscall(__NR_gpuprio_get, which, which == GPUPRIO_WHO_USER ?
			      (rnd(s, 2) ? UID_OWN : 0) :
			      rnd(s, 4) ? sh->anchors[rnd(s, NR_ANCHORS)] : 0,
			      0U);
		result("get group", ret, errno, false);
		if (ret >= 0) {
			check_value(ret);
			if (CLASS(ret) == GPUPRIO_CLASS_NONE) {
				add(&sh->invalid);
				bad("group get returned NONE", 0);
			}
		}
		break;
	case OP_SET_GROUP:
		if (!rnd(s, 4)) {
			pidfd_op(s, true);
			break;
		}
		ret = syscall(__NR_gpuprio_set, GPUPRIO_WHO_PGRP,
			      rnd(s, 4) ? sh->anchors[rnd(s, NR_ANCHORS)] : 0,
			      random_valid(s), 0U);
		result("set group", ret, errno, false);
		break;
	case OP_PROC_READ:
		proc_read(s);
		break;
	case OP_PROC_WRITE:
		proc_write(s);
		break;
	case OP_FORK:
		do_fork(s);
		break;
	case OP_THREAD: {
		pthread_t th;

		if (pthread_create(&th, NULL, short_thread,
				   (void *)(uintptr_t)rnd64(s)) == 0)
			pthread_join(th, NULL);
		break;
	}
	case OP_SETPGID: {
		pid_t pg = rnd(s, 4) ? sh->anchors[rnd(s, NR_ANCHORS)] : 0;

		/* Joining a group can race with nothing: the anchors live. */
		if (setpgid(0, pg))
			result("setpgid", -1, errno, true);
		break;
	}
	case OP_NICE:
		/* The CPU nice NONE follows; uid 1000 may only go down. */
		if (setpriority(PRIO_PROCESS, 0, unprivileged ?
				getpriority(PRIO_PROCESS, 0) + (rnd(s, 8) == 0) :
				(int)rnd(s, 25) - 5) && !(unprivileged && errno == EACCES))
			result("setpriority", -1, errno, true);
		break;
	}
}

struct worker_thread {
	int slot;
	uint64_t seed;
};

static void *worker_thread(void *arg)
{
	struct worker_thread *w = arg;
	uint64_t s = w->seed;
	unsigned int r;
	int op;

	__atomic_store_n(&sh->tids[w->slot], gettid(), __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
		r = rnd(&s, 1000);
		if (r < 8)
			op = OP_FORK;
		else if (r < 20)
			op = OP_THREAD;
		else if (r < 40)
			op = OP_SETPGID;
		else if (r < 50)
			op = OP_NICE;
		else
			op = rnd(&s, OP_FORK);
		one_op(&s, op);
	}
	return NULL;
}

/* A worker process: threads until told to stop, then parked until killed. */
static int worker(int index, int park_fd)
{
	struct worker_thread wt[MAX_THREADS];
	pthread_t th[MAX_THREADS];
	char c;
	int i;

	my_index = index;
	unprivileged = index == nprocs - 1;
	if (unprivileged && (setresgid(UID_OWN, UID_OWN, UID_OWN) ||
			     setresuid(UID_OWN, UID_OWN, UID_OWN)))
		return 10;
	for (i = 0; i < nthreads; i++) {
		wt[i].slot = index * SLOTS_PER + i;
		wt[i].seed = seed ^ (uint64_t)(index * 131 + i + 1) * 0x9e37;
		if (pthread_create(&th[i], NULL, worker_thread, &wt[i]))
			return 11;
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	/* Survivors: this process and its main thread stay for the check. */
	for (i = 0; i < nthreads; i++)
		sh->tids[index * SLOTS_PER + i] = 0;
	sh->tids[index * SLOTS_PER] = getpid();
	if (write(park_fd, "p", 1) != 1)
		return 12;
	while (read(park_fd, &c, 1) > 0)
		;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int count_dir(const char *path)
{
	struct dirent *d;
	DIR *dir = opendir(path);
	int n = 0;

	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (d->d_name[0] >= '0' && d->d_name[0] <= '9')
			n++;
	closedir(dir);
	return n;
}

/* Processes and threads in the process groups this test made. */
static void our_tasks(const pid_t *pgids, int npgids, int *procs,
		      int *threads)
{
	char path[64], buf[512], *p;
	struct dirent *d;
	DIR *dir = opendir("/proc");
	int ppid, pgrp, i;
	bool ours;
	FILE *f;

	*procs = *threads = 0;
	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", atoi(d->d_name));
		f = fopen(path, "r");
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (!p || sscanf(p + 1, " %*c %d %d", &ppid, &pgrp) != 2)
			continue;
		for (ours = false, i = 0; i < npgids; i++)
			ours |= pgrp == pgids[i];
		if (!ours)
			continue;
		(*procs)++;
		snprintf(path, sizeof(path), "/proc/%d/task", atoi(d->d_name));
		*threads += count_dir(path);
	}
	if (dir)
		closedir(dir);
}

/* Every thread of @pid: valid through both paths, and the same in both. */
static int check_survivor(pid_t pid, int *checked, char *why, size_t len)
{
	char path[64], buf[64], want[40];
	struct dirent *d;
	DIR *dir;
	int bad_count = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir) {
		snprintf(why, len, "survivor %d is gone", pid);
		return 1;
	}
	while ((d = readdir(dir))) {
		pid_t tid = atoi(d->d_name);
		long v;
		int fd;
		ssize_t n;

		if (tid <= 0)
			continue;
		v = syscall(__NR_gpuprio_get, GPUPRIO_WHO_PROCESS, tid, 0U);
		snprintf(path, sizeof(path), "/proc/%d/task/%d/gpu_nice", pid,
			 tid);
		fd = open(path, O_RDONLY);
		n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		if (fd >= 0)
			close(fd);
		/* A thread joined just before may still be on its way out. */
		if (tid != pid && (v < 0 || n < 0) &&
		    (errno == ESRCH || errno == ENOENT))
			continue;
		(*checked)++;
		if (!gpuprio_value_valid(v) || n <= 0) {
			snprintf(why, len, "task %d: value %ld, read %zd", tid,
				 v, n);
			bad_count++;
			continue;
		}
		buf[n] = '\0';
		gpu_nice_format(want, sizeof(want), v,
				getpriority(PRIO_PROCESS, tid));
		if (!gpu_nice_decodes(buf) || strcmp(buf, want)) {
			snprintf(why, len, "task %d: value %#lx but gpu_nice \"%.*s\"",
				 tid, v, (int)strcspn(buf, "\n"), buf);
			bad_count++;
		}
	}
	closedir(dir);
	return bad_count;
}

int main(int argc, char **argv)
{
	pid_t workers[MAX_PROCS], anchor, pgids[1 + NR_ANCHORS + MAX_PROCS];
	int park[MAX_PROCS][2];
	int base_fds, base_threads, base_procs, after_threads = 0, after_procs;
	int after_fds, npgids;
	int opt, i, status, crashed = 0, survivors_bad = 0, checked = 0;
	double seconds = 3, t0, elapsed;
	unsigned long total = 0;
	char why[200] = "", line[600];
	const char *env;
	size_t off;
	char c;

	env = getenv("GPUPRIO_STRESS_SECONDS");
	if (env && *env)
		seconds = atof(env);
	seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 20;
	while ((opt = getopt(argc, argv, "t:P:T:s:")) != -1) {
		switch (opt) {
		case 't':
			seconds = atof(optarg);
			break;
		case 'P':
			nprocs = atoi(optarg);
			break;
		case 'T':
			nthreads = atoi(optarg);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [-t seconds] [-P processes] [-T threads] [-s seed]\n",
				argv[0]);
			return 2;
		}
	}
	if (nprocs < 2 || nprocs > MAX_PROCS || nthreads < 1 ||
	    nthreads > MAX_THREADS) {
		fprintf(stderr, "2-%d processes, 1-%d threads\n", MAX_PROCS,
			MAX_THREADS);
		return 2;
	}
	if (!gpu_nice_tap_start())
		return 0;
	tap_plan(6);
	printf("# %d processes x %d threads for %.1f s, seed %llu\n",
	       nprocs, nthreads, seconds, (unsigned long long)seed);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	memset(sh, 0, sizeof(*sh));
	if (setpgid(0, 0))
		return 1;
	base_fds = count_dir("/proc/self/fd");
	pgids[0] = getpid();
	our_tasks(pgids, 1, &base_procs, &base_threads);

	/* Process groups to move between: leaders that only sleep. */
	for (i = 0; i < NR_ANCHORS; i++) {
		anchor = fork();
		if (anchor == 0) {
			setpgid(0, 0);
			for (;;)
				pause();
		}
		setpgid(anchor, anchor);
		sh->anchors[i] = anchor;
	}

	t0 = now();
	for (i = 0; i < nprocs; i++) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, park[i]))
			return 1;
		workers[i] = fork();
		if (workers[i] == 0) {
			/* Only main may hold the other workers' ends. */
			for (status = 0; status <= i; status++)
				close(park[status][0]);
			_exit(worker(i, park[i][1]));
		}
		close(park[i][1]);
	}
	usleep(seconds * 1e6);
	__atomic_store_n(&sh->stop, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < nprocs; i++)
		if (read(park[i][0], &c, 1) != 1)
			crashed++;
	elapsed = now() - t0;

	/* Quiet now: every survivor, then the anchors. */
	for (i = 0; i < nprocs; i++)
		survivors_bad += check_survivor(workers[i], &checked, why,
						sizeof(why));
	for (i = 0; i < NR_ANCHORS; i++)
		survivors_bad += check_survivor(sh->anchors[i], &checked, why,
						sizeof(why));

	for (i = 0; i < nprocs; i++) {
		close(park[i][0]);
		if (waitpid(workers[i], &status, 0) != workers[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			crashed++;
			snprintf(why, sizeof(why), "worker %d status %#x", i,
				 status);
		}
	}
	for (i = 0; i < NR_ANCHORS; i++) {
		kill(sh->anchors[i], SIGKILL);
		waitpid(sh->anchors[i], NULL, 0);
	}

	for (i = 0; i < NR_OPS; i++)
		total += sh->ops[i];
	off = snprintf(line, sizeof(line), "stress: %lu ops in %.1f s by %d processes x %d threads (",
		       total, elapsed, nprocs, nthreads);
	for (i = 0; i < NR_OPS; i++)
		off += snprintf(line + off, sizeof(line) - off, "%s%s %lu",
				i ? ", " : "", op_name[i], sh->ops[i]);
	tap(!crashed, "%s)", line);
	tap(!sh->unexpected,
	    "only allowed errors: ok %lu, ESRCH %lu, EPERM %lu, EACCES %lu, unexpected %lu",
	    sh->err[0], sh->err[ESRCH], sh->err[EPERM], sh->err[EACCES],
	    sh->unexpected);
	for (i = 0; i < sh->nbad && i < (int)ARRAY_SIZE(sh->first_bad); i++)
		printf("#   %s\n", sh->first_bad[i]);
	tap(!sh->invalid, "every value read was valid (%lu reads checked)",
	    sh->reads_checked);
	tap(!sh->child_failed,
	    "every fork child exited cleanly (%lu forks, %lu failed)",
	    sh->ops[OP_FORK], sh->child_failed);
	tap(!survivors_bad && checked,
	    "every survivor holds a valid value, the same through gpuprio_get and /proc (%d tasks)",
	    checked);
	if (survivors_bad || crashed)
		printf("#   %s\n", why);

	/* Every group a task of this test may have been in. */
	npgids = 1;
	for (i = 0; i < NR_ANCHORS; i++)
		pgids[npgids++] = sh->anchors[i];
	for (i = 0; i < nprocs; i++)
		pgids[npgids++] = workers[i];
	/* Threads may take a moment to be released after the reap. */
	for (i = 0; i < 100; i++) {
		our_tasks(pgids, npgids, &after_procs, &after_threads);
		if (after_threads <= base_threads && after_procs <= base_procs)
			break;
		usleep(10000);
	}
	after_fds = count_dir("/proc/self/fd");
	errno = 0;
	status = waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
	tap(after_threads <= base_threads && after_procs <= base_procs &&
	    after_fds <= base_fds && status,
	    "nothing left behind: processes %d -> %d, threads %d -> %d, fds %d -> %d, %s",
	    base_procs, after_procs, base_threads, after_threads, base_fds,
	    after_fds, status ? "no child left" : "children left");
	return 0;
}
