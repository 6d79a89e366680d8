// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for gpuprio_set(2), gpuprio_get(2) and /proc/<pid>/gpu_nice.
 *
 * Run as root: the permission tests drop to unprivileged uids themselves.
 * Every test skips when the running kernel has no GPU priority support:
 * the calls fail with ENOSYS there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/gpuprio.h>

#include "../kselftest_harness.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD	O_EXCL
#endif

#define UID_OWN		1000	/* the unprivileged caller */
#define UID_OTHER	2000	/* someone else */
/* The UAPI macros are unsigned; the syscalls take and return int. */
#define NONE		((int)GPUPRIO_DEFAULT)
#define IDLE		((int)GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0))
#define RT(l)		((int)GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, (l)))
#define BE(n)		((int)GPUPRIO_BE_NICE(n))

/* No flags are defined yet: the calls take 0. */
static int sys_gpuprio_set(int which, int who, int prio)
{
	return syscall(__NR_gpuprio_set, which, who, prio, 0U);
}

static int sys_gpuprio_get(int which, int who)
{
	return syscall(__NR_gpuprio_get, which, who, 0U);
}

static int get_pid(pid_t pid)
{
	return sys_gpuprio_get(GPUPRIO_WHO_PROCESS, pid);
}

/* A kernel without the calls fails them with ENOSYS. */
static bool gpuprio_supported(void)
{
	return get_pid(0) >= 0 || errno != ENOSYS;
}

/* Read the small file @path into @buf, NUL-terminated: its length or -errno. */
static ssize_t read_text(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* Read /proc/<pid>/gpu_nice into @buf without the newline. */
static int read_gpu_nice(pid_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/gpu_nice", pid);
	n = read_text(path, buf, len);
	if (n < 0)
		return n;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/* Write @text in one write(2); 0 or -errno. */
static int write_gpu_nice(pid_t pid, const char *text, size_t len)
{
	char path[64];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/gpu_nice", pid);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		ret = -errno;
	close(fd);
	return ret;
}

/* A child that sleeps until killed, with the given uid, nice and value. */
static pid_t spawn_target(uid_t uid, int nice, int prio, pid_t pgid)
{
	int pipefd[2];
	char c;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (pgid >= 0 && setpgid(0, pgid))
			_exit(1);
		if (setpriority(PRIO_PROCESS, 0, nice) ||
		    sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0, prio) ||
		    setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
			_exit(1);
		close(pipefd[0]);
		if (write(pipefd[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	if (read(pipefd[0], &c, 1) != 1) {
		close(pipefd[0]);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(pipefd[0]);
	return pid;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* A pid that surely has no task: a reaped child's, unless recycled. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

/* Every test but the encoding one needs the feature; it skips without. */
FIXTURE(gpuprio) {};

FIXTURE_SETUP(gpuprio)
{
	if (!gpuprio_supported())
		SKIP(return, "kernel has no GPU priority support");
}

FIXTURE_TEARDOWN(gpuprio)
{
}

TEST(encoding)
{
	EXPECT_EQ(0, NONE);
	EXPECT_EQ(13, GPUPRIO_CLASS_SHIFT);
	EXPECT_EQ((2 << 13) | 30, BE(10));
	EXPECT_EQ(10, GPUPRIO_TO_NICE(BE(10)));
	EXPECT_EQ(-20, GPUPRIO_TO_NICE(BE(-20)));
	EXPECT_EQ(GPUPRIO_CLASS_RT, GPUPRIO_PRIO_CLASS(RT(5)));
	EXPECT_EQ(5, GPUPRIO_PRIO_DATA(RT(5)));
	EXPECT_EQ(3 << 13, IDLE);
	EXPECT_EQ(8, GPUPRIO_RT_LEVELS);
}

TEST_F(gpuprio, default_is_none_and_follows_cpu_nice)
{
	char buf[64];

	ASSERT_EQ(NONE, sys_gpuprio_get(GPUPRIO_WHO_PROCESS, 0));
	ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, 7));
	ASSERT_EQ(0, read_gpu_nice(getpid(), buf, sizeof(buf)));
	EXPECT_STREQ("none 7", buf);
	/* A group or user read resolves NONE to best effort at the CPU nice. */
	ASSERT_EQ(0, setpgid(0, 0));
	EXPECT_EQ(BE(7), sys_gpuprio_get(GPUPRIO_WHO_PGRP, 0));
	ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, 12));
	EXPECT_EQ(BE(12), sys_gpuprio_get(GPUPRIO_WHO_PGRP, 0));
	EXPECT_EQ(NONE, sys_gpuprio_get(GPUPRIO_WHO_PROCESS, 0));
}

/* A CPU boost (rtkit, GameMode) must not reach the GPU's high bands. */
TEST_F(gpuprio, none_ignores_negative_cpu_nice)
{
	char buf[64];

	ASSERT_EQ(0, setpgid(0, 0));
	ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, -10));
	ASSERT_EQ(NONE, sys_gpuprio_get(GPUPRIO_WHO_PROCESS, 0));
	ASSERT_EQ(0, read_gpu_nice(getpid(), buf, sizeof(buf)));
	EXPECT_STREQ("none 0", buf);
	EXPECT_EQ(BE(0), sys_gpuprio_get(GPUPRIO_WHO_PGRP, 0));
	ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, 0));
}

#define FOLLOW_SYSCTL "/proc/sys/kernel/gpuprio_follow_nice"

/* Write @text to kernel.gpuprio_follow_nice: 0 or -errno. */
static int write_follow_sysctl(const char *text)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(FOLLOW_SYSCTL, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

static int read_follow_sysctl(void)
{
	char buf[16];
	ssize_t n = read_text(FOLLOW_SYSCTL, buf, sizeof(buf));

	if (n < 0)
		return n;
	return n > 0 ? atoi(buf) : -EIO;
}

/* kernel.gpuprio_follow_nice: what a task without a GPU priority gets. */
FIXTURE(follow) {};

FIXTURE_VARIANT(follow) {
	const char *sysctl;
	const char *none_at_nice_10;
	int pgrp_at_nice_10;
};

FIXTURE_VARIANT_ADD(follow, sysctl_1) { "1", "none 10", BE(10) };
FIXTURE_VARIANT_ADD(follow, sysctl_0) { "0", "none 0", BE(0) };

FIXTURE_SETUP(follow)
{
	if (!gpuprio_supported())
		SKIP(return, "kernel has no GPU priority support");
	ASSERT_EQ(1, read_follow_sysctl());
	ASSERT_EQ(0, write_follow_sysctl(variant->sysctl));
}

FIXTURE_TEARDOWN(follow)
{
	write_follow_sysctl("1");
}

TEST_F(follow, unset_task_at_cpu_nice_10)
{
	char buf[64];

	ASSERT_EQ(0, setpgid(0, 0));
	ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, 10));
	ASSERT_EQ(0, read_gpu_nice(getpid(), buf, sizeof(buf)));
	EXPECT_STREQ(variant->none_at_nice_10, buf);
	EXPECT_EQ(variant->pgrp_at_nice_10,
		  sys_gpuprio_get(GPUPRIO_WHO_PGRP, 0));
	EXPECT_EQ(NONE, sys_gpuprio_get(GPUPRIO_WHO_PROCESS, 0));

	/* Explicit values act either way */
	ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0, BE(15)));
	EXPECT_EQ(BE(15), sys_gpuprio_get(GPUPRIO_WHO_PGRP, 0));
	ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0, IDLE));
	EXPECT_EQ(IDLE, sys_gpuprio_get(GPUPRIO_WHO_PGRP, 0));
	/* Back to none needs nothing, whatever the sysctl */
	EXPECT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0, NONE));
	EXPECT_EQ(variant->pgrp_at_nice_10,
		  sys_gpuprio_get(GPUPRIO_WHO_PGRP, 0));
}

/* Only 0 and 1, as proc_dointvec_minmax() says; a refusal changes nothing. */
TEST_F(follow, bad_values_refused)
{
	static const char * const bad[] = { "2", "-1", "x", "4294967297" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, write_follow_sysctl(bad[i])) {
			TH_LOG("wrote '%s'", bad[i]);
		}
		EXPECT_EQ(atoi(variant->sysctl), read_follow_sysctl());
	}
}

TEST_F(gpuprio, round_trip_every_valid_value)
{
	char buf[64], want[64];
	int values[1 + GPUPRIO_RT_LEVELS + GPUPRIO_BE_LEVELS + 1];
	int i, n = 0;

	values[n++] = NONE;
	for (i = 0; i < GPUPRIO_RT_LEVELS; i++)
		values[n++] = RT(i);
	for (i = -20; i <= 19; i++)
		values[n++] = BE(i);
	values[n++] = IDLE;

	for (i = 0; i < n; i++) {
		int v = values[i];

		ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0, v));
		ASSERT_EQ(v, sys_gpuprio_get(GPUPRIO_WHO_PROCESS, 0));
		ASSERT_EQ(0, read_gpu_nice(getpid(), buf, sizeof(buf)));
		switch (GPUPRIO_PRIO_CLASS(v)) {
		case GPUPRIO_CLASS_RT:
			snprintf(want, sizeof(want), "realtime %d",
				 GPUPRIO_PRIO_DATA(v));
			break;
		case GPUPRIO_CLASS_BE:
			snprintf(want, sizeof(want), "best-effort %d",
				 GPUPRIO_TO_NICE(v));
			break;
		case GPUPRIO_CLASS_IDLE:
			snprintf(want, sizeof(want), "idle");
			break;
		default:
			snprintf(want, sizeof(want), "none %d",
				 getpriority(PRIO_PROCESS, 0));
		}
		EXPECT_STREQ(want, buf);
	}
}

TEST_F(gpuprio, einval_leaves_value_unchanged)
{
	static const int bad_values[] = {
		GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_NONE, 1),
		GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 8),
		GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_BE, 40),
		GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_BE, GPUPRIO_PRIO_MASK),
		GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 1),
		GPUPRIO_PRIO_VALUE(4, 0),
		GPUPRIO_PRIO_VALUE(7, 0),
		1 << 16,
		BE(5) | 1 << 20,
		-1,
		INT_MIN,
	};
	static const int bad_which[] = { 0, 5, -1, 1000 };
	unsigned int i;

	ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0, BE(4)));
	for (i = 0; i < ARRAY_SIZE(bad_values); i++) {
		errno = 0;
		EXPECT_EQ(-1, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0,
					      bad_values[i]));
		EXPECT_EQ(EINVAL, errno) TH_LOG("value %#x", bad_values[i]);
		EXPECT_EQ(BE(4), sys_gpuprio_get(GPUPRIO_WHO_PROCESS, 0));
	}
	for (i = 0; i < ARRAY_SIZE(bad_which); i++) {
		errno = 0;
		EXPECT_EQ(-1, sys_gpuprio_set(bad_which[i], 0, BE(1)));
		EXPECT_EQ(EINVAL, errno);
		errno = 0;
		EXPECT_EQ(-1, sys_gpuprio_get(bad_which[i], 0));
		EXPECT_EQ(EINVAL, errno);
	}
	EXPECT_EQ(BE(4), sys_gpuprio_get(GPUPRIO_WHO_PROCESS, 0));
}

TEST_F(gpuprio, esrch_when_nothing_matches)
{
	pid_t gone;
	int which;

	gone = dead_pid();
	for (which = GPUPRIO_WHO_PROCESS; which <= GPUPRIO_WHO_PGRP; which++) {
		errno = 0;
		EXPECT_EQ(-1, sys_gpuprio_set(which, gone, BE(3)));
		EXPECT_EQ(ESRCH, errno);
		errno = 0;
		EXPECT_EQ(-1, sys_gpuprio_get(which, gone));
		EXPECT_EQ(ESRCH, errno);
	}
	/* A uid with no task at all. */
	errno = 0;
	EXPECT_EQ(-1, sys_gpuprio_set(GPUPRIO_WHO_USER, 54321, BE(3)));
	EXPECT_EQ(ESRCH, errno);
	errno = 0;
	EXPECT_EQ(-1, sys_gpuprio_get(GPUPRIO_WHO_USER, 54321));
	EXPECT_EQ(ESRCH, errno);
}

TEST_F(gpuprio, proc_write_forms)
{
	static const struct {
		const char *text;
		const char *reads;
	} good[] = {
		{ "5", "best-effort 5" },
		{ "  best-effort -3\n", "best-effort -3" },
		{ " 4 ", "best-effort 4" },
		{ "best-effort\t19\n", "best-effort 19" },
		{ "realtime 2", "realtime 2" },
		{ "idle\n", "idle" },
		{ "-20", "best-effort -20" },
		{ "none", "none 0" },
		/* The read form goes back in; its nice is not stored. */
		{ "none 0\n", "none 0" },
		{ "none -20", "none 0" },
		{ "none 19", "none 0" },
	};
	static const char *const bad[] = {
		"", "\n", "foo", "best-effort", "best-effort 20", "20", "-21",
		"realtime 8", "realtime -1", "realtime", "idle 0", "none 20",
		"none -21", "none x",
		"5 6", "5x", "best-effort 5 5", "0x5",
		"best-effort                              1",
	};
	char buf[64];
	unsigned int i;
	pid_t me = getpid();

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		EXPECT_EQ(0, write_gpu_nice(me, good[i].text,
					    strlen(good[i].text)))
			TH_LOG("writing '%s'", good[i].text);
		ASSERT_EQ(0, read_gpu_nice(me, buf, sizeof(buf)));
		EXPECT_STREQ(good[i].reads, buf);
	}
	ASSERT_EQ(0, write_gpu_nice(me, "7", 1));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, write_gpu_nice(me, bad[i], strlen(bad[i])))
			TH_LOG("writing '%s'", bad[i]);
		EXPECT_EQ(BE(7), get_pid(0));
	}
	/* A thread's own file reaches only that thread. */
	ASSERT_EQ(0, read_gpu_nice(me, buf, sizeof(buf)));
	EXPECT_STREQ("best-effort 7", buf);
}

static void *thread_reads_own(void *arg)
{
	int *out = arg;

	out[0] = sys_gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	out[1] = sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0, BE(15));
	out[2] = sys_gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	return NULL;
}

TEST_F(gpuprio, fork_and_thread_inherit)
{
	int status, seen[3];
	pthread_t t;
	pid_t pid;

	ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0, BE(6)));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(get_pid(0) == BE(6) ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));

	ASSERT_EQ(0, pthread_create(&t, NULL, thread_reads_own, seen));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(BE(6), seen[0]);
	EXPECT_EQ(0, seen[1]);
	EXPECT_EQ(BE(15), seen[2]);
	/* The thread's change was its own. */
	EXPECT_EQ(BE(6), get_pid(0));
}

TEST_F(gpuprio, sched_reset_on_fork)
{
	static const struct {
		int before, child;
	} cases[] = {
		{ RT(3), NONE },
		{ BE(-5), NONE },
		{ BE(5), BE(5) },
		{ IDLE, IDLE },
	};
	struct sched_param sp = { 0 };
	unsigned int i;
	int status;
	pid_t pid;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(0, sched_setscheduler(0, SCHED_OTHER |
						SCHED_RESET_ON_FORK, &sp));
		ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0,
					     cases[i].before));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0)
			_exit(get_pid(0) != cases[i].child);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("case %u", i);
	}
}

/* Without SCHED_RESET_ON_FORK a child keeps even a boosted value. */
TEST_F(gpuprio, boost_inherited_without_reset_on_fork)
{
	static const int values[] = { RT(3), RT(0), BE(-5), BE(-20) };
	struct sched_param sp = { 0 };
	unsigned int i;
	int status;
	pid_t pid;

	ASSERT_EQ(0, sched_setscheduler(0, SCHED_OTHER, &sp));
	for (i = 0; i < ARRAY_SIZE(values); i++) {
		ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0,
					     values[i]));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0)
			_exit(get_pid(0) != values[i]);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("value %#x", values[i]);
	}
}

TEST_F(gpuprio, pgrp_set_and_get)
{
	pid_t a, b, c;

	a = spawn_target(0, 0, NONE, 0);
	ASSERT_LT(0, a);
	b = spawn_target(0, 0, NONE, a);
	c = spawn_target(0, 3, NONE, a);
	ASSERT_LT(0, b);
	ASSERT_LT(0, c);

	/* Highest effective: c is unset at CPU nice 3, a and b at nice 0. */
	EXPECT_EQ(BE(0), sys_gpuprio_get(GPUPRIO_WHO_PGRP, a));
	EXPECT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PGRP, a, BE(9)));
	EXPECT_EQ(BE(9), get_pid(a));
	EXPECT_EQ(BE(9), get_pid(b));
	EXPECT_EQ(BE(9), get_pid(c));
	EXPECT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, b, IDLE));
	EXPECT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, c, RT(4)));
	EXPECT_EQ(RT(4), sys_gpuprio_get(GPUPRIO_WHO_PGRP, a));
	EXPECT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, c, BE(12)));
	EXPECT_EQ(BE(9), sys_gpuprio_get(GPUPRIO_WHO_PGRP, a));
	/* The caller's own group is untouched. */
	EXPECT_EQ(NONE, get_pid(0));
	reap(a);
	reap(b);
	reap(c);
}

TEST_F(gpuprio, user_set_and_get)
{
	pid_t a, b, other;

	a = spawn_target(UID_OTHER + 1, 0, NONE, -1);
	b = spawn_target(UID_OTHER + 1, 0, BE(2), -1);
	other = spawn_target(UID_OTHER + 2, 0, NONE, -1);
	ASSERT_LT(0, a);
	ASSERT_LT(0, b);
	ASSERT_LT(0, other);

	EXPECT_EQ(BE(0), sys_gpuprio_get(GPUPRIO_WHO_USER, UID_OTHER + 1));
	EXPECT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_USER, UID_OTHER + 1,
				     BE(11)));
	EXPECT_EQ(BE(11), get_pid(a));
	EXPECT_EQ(BE(11), get_pid(b));
	EXPECT_EQ(NONE, get_pid(other));
	EXPECT_EQ(BE(11), sys_gpuprio_get(GPUPRIO_WHO_USER, UID_OTHER + 1));
	reap(a);
	reap(b);
	reap(other);
}

/* Who makes the call in a permission case. */
enum caller {
	CALLER_ROOT,
	CALLER_USER,		/* uid UID_OWN, no capabilities */
	CALLER_USER_CAP,	/* uid UID_OWN, only CAP_SYS_NICE */
	CALLER_USER_RLIMIT,	/* uid UID_OWN, RLIMIT_NICE 25 (nice -5) */
	CALLER_USERNS,		/* uid UID_OWN, all capabilities in a new user ns */
};

enum target {
	TARGET_SELF,
	TARGET_OWN,		/* another process of UID_OWN */
	TARGET_OTHER,		/* a process of UID_OTHER */
};

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		ret = -1;
	close(fd);
	return ret;
}

/*
 * An unprivileged user's own user namespace, uid 0 in it mapped to UID_OWN:
 * the caller then has every capability, CAP_SYS_NICE included, but only
 * over that namespace. Tasks outside it keep their initial user namespace.
 */
static int enter_userns(void)
{
	char map[32];

	snprintf(map, sizeof(map), "0 %d 1", UID_OWN);
	/* The setuid made /proc/self root's; uid_map is its owner's. */
	if (prctl(PR_SET_DUMPABLE, 1) || unshare(CLONE_NEWUSER) ||
	    write_file("/proc/self/setgroups", "deny") ||
	    write_file("/proc/self/uid_map", map) ||
	    write_file("/proc/self/gid_map", map))
		return -1;
	return 0;
}

/* Drop from root to UID_OWN, keeping only what @who may keep. */
static int become(enum caller who)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { { 0 } };

	if (who == CALLER_ROOT)
		return 0;
	if (who == CALLER_USER_RLIMIT) {
		struct rlimit rl = { 25, 25 };

		if (setrlimit(RLIMIT_NICE, &rl))
			return -1;
	}
	if (prctl(PR_SET_KEEPCAPS, who == CALLER_USER_CAP))
		return -1;
	if (setresgid(UID_OWN, UID_OWN, UID_OWN) ||
	    setresuid(UID_OWN, UID_OWN, UID_OWN))
		return -1;
	if (who == CALLER_USER_CAP) {
		data[0].effective = 1U << CAP_SYS_NICE;
		data[0].permitted = 1U << CAP_SYS_NICE;
	}
	if (syscall(SYS_capset, &hdr, data))
		return -1;
	return who == CALLER_USERNS ? enter_userns() : 0;
}

/*
 * The permission rules do not follow the sysctl: an unprivileged task at
 * CPU nice 10 without a GPU value may go back to GPU nice 10 but not above,
 * even while the sysctl runs it at normal; else the value would outlive
 * the sysctl's return to 1 with more priority than that rule allows.
 */
TEST_F(follow, unprivileged_limit_is_cpu_nice)
{
	int status, err;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (setpriority(PRIO_PROCESS, 0, 10) || become(CALLER_USER))
			_exit(10);
		err = sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0, BE(5)) ? errno : 0;
		if (err != EACCES) {
			fprintf(stderr, "# GPU nice 5: errno %d, expected EACCES\n",
				err);
			_exit(1);
		}
		if (sys_gpuprio_get(GPUPRIO_WHO_PROCESS, 0) != NONE)
			_exit(2);
		if (sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0, BE(10)))
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* The text /proc/<pid>/gpu_nice takes for @prio. */
static void prio_text(int prio, char *buf, size_t len)
{
	switch (GPUPRIO_PRIO_CLASS(prio)) {
	case GPUPRIO_CLASS_RT:
		snprintf(buf, len, "realtime %d", GPUPRIO_PRIO_DATA(prio));
		break;
	case GPUPRIO_CLASS_BE:
		snprintf(buf, len, "best-effort %d", GPUPRIO_TO_NICE(prio));
		break;
	case GPUPRIO_CLASS_IDLE:
		snprintf(buf, len, "idle");
		break;
	default:
		snprintf(buf, len, "none");
	}
}

FIXTURE(perm) {
	pid_t target;
};

/* One row of the permission matrix. */
struct perm_case {
	enum caller caller;
	enum target target;
	int cpu_nice;		/* of the target */
	int before;		/* the target's value, set by root */
	int prio;		/* what the caller asks for */
	int error;		/* expected errno, 0 for success */
};

FIXTURE_VARIANT(perm) {
	struct perm_case row;
};

FIXTURE_SETUP(perm)
{
	uid_t uid = variant->row.target == TARGET_OTHER ? UID_OTHER : UID_OWN;

	if (!gpuprio_supported())
		SKIP(return, "kernel has no GPU priority support");
	self->target = 0;
	if (variant->row.target == TARGET_SELF)
		return;
	self->target = spawn_target(uid, variant->row.cpu_nice, variant->row.before,
				    -1);
	ASSERT_LT(0, self->target);
}

FIXTURE_TEARDOWN(perm)
{
	if (self->target > 0)
		reap(self->target);
}

/*
 * In a child: become the caller, make the change through the syscall or
 * /proc and check both the error and the value it leaves. Exit status 0
 * when both match the variant.
 */
static void perm_child(const struct perm_case *row, pid_t who, bool via_proc)
{
	int ret, err, now, want;
	char text[32];

	if (row->target == TARGET_SELF &&
	    (setpriority(PRIO_PROCESS, 0, row->cpu_nice) ||
	     sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0, row->before)))
		_exit(10);
	if (become(row->caller))
		_exit(11);
	if (!who)
		who = getpid();

	if (via_proc) {
		prio_text(row->prio, text, sizeof(text));
		err = -write_gpu_nice(who, text, strlen(text));
	} else {
		ret = sys_gpuprio_set(GPUPRIO_WHO_PROCESS, who, row->prio);
		err = ret ? errno : 0;
	}
	now = get_pid(who);
	want = row->error ? row->before : row->prio;
	if (err != row->error) {
		fprintf(stderr, "# %s: errno %d (%s), expected %d\n",
			via_proc ? "proc" : "syscall", err, strerror(err),
			row->error);
		_exit(1);
	}
	if (now != want) {
		fprintf(stderr, "# %s: value %#x, expected %#x\n",
			via_proc ? "proc" : "syscall", now, want);
		_exit(2);
	}
	_exit(0);
}

TEST_F(perm, change)
{
	int status, via_proc;
	pid_t pid;

	for (via_proc = 0; via_proc <= 1; via_proc++) {
		/* Both paths start from the same state. */
		if (self->target)
			ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS,
						     self->target,
						     variant->row.before));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0)
			perm_child(&variant->row, self->target, via_proc);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status))
			TH_LOG("via %s", via_proc ? "proc" : "syscall");
	}
}

/* caller, target, target's CPU nice, value before, value asked, errno */
#define R CALLER_ROOT
#define U CALLER_USER
#define UC CALLER_USER_CAP
#define UR CALLER_USER_RLIMIT
#define UN CALLER_USERNS
#define SELF TARGET_SELF
#define OWN TARGET_OWN
#define OTHER TARGET_OTHER

FIXTURE_VARIANT_ADD(perm, root_self_raise) { { R, SELF, 0, NONE, BE(-20), 0 } };
FIXTURE_VARIANT_ADD(perm, root_self_rt) { { R, SELF, 0, NONE, RT(0), 0 } };
FIXTURE_VARIANT_ADD(perm, root_other_rt) { { R, OTHER, 0, NONE, RT(3), 0 } };
FIXTURE_VARIANT_ADD(perm, root_other_raise) { { R, OTHER, 5, BE(10), BE(-20), 0 } };
FIXTURE_VARIANT_ADD(perm, user_self_lower) { { U, SELF, 0, NONE, BE(10), 0 } };
FIXTURE_VARIANT_ADD(perm, user_self_back_to_cpu_nice) { { U, SELF, 5, BE(15), BE(5), 0 } };
FIXTURE_VARIANT_ADD(perm, user_self_back_from_idle) { { U, SELF, 0, IDLE, BE(0), 0 } };
FIXTURE_VARIANT_ADD(perm, user_self_above_cpu_nice) { { U, SELF, 5, BE(15), BE(4), EACCES } };
FIXTURE_VARIANT_ADD(perm, user_self_above_zero) { { U, SELF, 0, NONE, BE(-1), EACCES } };
FIXTURE_VARIANT_ADD(perm, user_self_within_boost) { { U, SELF, 0, BE(-5), BE(-3), 0 } };
FIXTURE_VARIANT_ADD(perm, user_self_above_boost) { { U, SELF, 0, BE(-5), BE(-6), EACCES } };
FIXTURE_VARIANT_ADD(perm, user_self_rt) { { U, SELF, 0, NONE, RT(7), EPERM } };
FIXTURE_VARIANT_ADD(perm, user_self_idle) { { U, SELF, 0, BE(-5), IDLE, 0 } };
FIXTURE_VARIANT_ADD(perm, user_self_none) { { U, SELF, 0, BE(19), NONE, 0 } };
FIXTURE_VARIANT_ADD(perm, user_self_none_from_idle) { { U, SELF, -5, IDLE, NONE, 0 } };
/* A negative CPU nice set by root grants nothing above GPU nice 0. */
FIXTURE_VARIANT_ADD(perm, user_self_cpu_boost_no_gpu) { { U, SELF, -5, NONE, BE(-3), EACCES } };
FIXTURE_VARIANT_ADD(perm, user_self_cpu_boost_back_to_0) { { U, SELF, -5, BE(10), BE(0), 0 } };
FIXTURE_VARIANT_ADD(perm, user_self_cpu_boost_above_0) { { U, SELF, -5, BE(10), BE(-1), EACCES } };
FIXTURE_VARIANT_ADD(perm, rlimit_self_cpu_boost_gpu_boost) { { UR, SELF, -5, NONE, BE(-3), 0 } };
FIXTURE_VARIANT_ADD(perm, user_own_lower) { { U, OWN, 0, NONE, BE(10), 0 } };
FIXTURE_VARIANT_ADD(perm, user_own_above_cpu_nice) { { U, OWN, 0, NONE, BE(-1), EACCES } };
FIXTURE_VARIANT_ADD(perm, user_own_rt) { { U, OWN, 0, NONE, RT(0), EPERM } };
FIXTURE_VARIANT_ADD(perm, user_other_lower) { { U, OTHER, 0, NONE, BE(10), EPERM } };
FIXTURE_VARIANT_ADD(perm, user_other_idle) { { U, OTHER, 0, NONE, IDLE, EPERM } };
FIXTURE_VARIANT_ADD(perm, user_other_none) { { U, OTHER, 0, BE(3), NONE, EPERM } };
FIXTURE_VARIANT_ADD(perm, cap_self_raise) { { UC, SELF, 0, NONE, BE(-20), 0 } };
FIXTURE_VARIANT_ADD(perm, cap_self_rt) { { UC, SELF, 0, NONE, RT(0), 0 } };
FIXTURE_VARIANT_ADD(perm, cap_other_lower) { { UC, OTHER, 0, NONE, BE(10), 0 } };
FIXTURE_VARIANT_ADD(perm, cap_other_raise) { { UC, OTHER, 0, NONE, BE(-20), 0 } };
FIXTURE_VARIANT_ADD(perm, rlimit_self_allowed) { { UR, SELF, 0, NONE, BE(-5), 0 } };
FIXTURE_VARIANT_ADD(perm, rlimit_self_beyond) { { UR, SELF, 0, NONE, BE(-6), EACCES } };
FIXTURE_VARIANT_ADD(perm, rlimit_self_rt) { { UR, SELF, 0, NONE, RT(0), EPERM } };
FIXTURE_VARIANT_ADD(perm, userns_self_above_cpu_nice) { { UN, SELF, 5, BE(15), BE(4), EACCES } };
FIXTURE_VARIANT_ADD(perm, userns_self_rt) { { UN, SELF, 0, NONE, RT(0), EPERM } };
FIXTURE_VARIANT_ADD(perm, userns_own_above_boost) { { UN, OWN, 0, BE(-5), BE(-6), EACCES } };
FIXTURE_VARIANT_ADD(perm, userns_other_lower) { { UN, OTHER, 0, NONE, BE(10), EPERM } };

/*
 * The full matrix: every caller x target x change, from the same state (the
 * target at CPU nice 0, lowered to GPU nice 10 by root). The rules:
 * - root and CAP_SYS_NICE in the initial namespace may do everything;
 * - another user's task is EPERM, whatever the change, to everyone else;
 * - realtime needs CAP_SYS_NICE in the initial namespace: EPERM;
 * - lowering, going back up to the CPU nice, idle and none are free;
 * - above the CPU nice (nice -3) needs the target's RLIMIT_NICE (25, so
 *   down to nice -5, only for the rlimit caller's own process) or
 *   CAP_SYS_NICE in the initial namespace: EACCES.
 * A user namespace's CAP_SYS_NICE counts for none of this: its tasks
 * outside the namespace keep the initial one, and capable() looks there.
 */
#define LOWER BE(15)
#define BACK BE(0)
#define ABOVE BE(-3)
#define RTL RT(4)
FIXTURE_VARIANT_ADD(perm, m_root_self_lower) { { R, SELF, 0, BE(10), LOWER, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_self_back) { { R, SELF, 0, BE(10), BACK, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_self_above) { { R, SELF, 0, BE(10), ABOVE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_self_rt) { { R, SELF, 0, BE(10), RTL, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_self_idle) { { R, SELF, 0, BE(10), IDLE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_self_none) { { R, SELF, 0, BE(10), NONE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_own_lower) { { R, OWN, 0, BE(10), LOWER, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_own_back) { { R, OWN, 0, BE(10), BACK, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_own_above) { { R, OWN, 0, BE(10), ABOVE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_own_rt) { { R, OWN, 0, BE(10), RTL, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_own_idle) { { R, OWN, 0, BE(10), IDLE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_own_none) { { R, OWN, 0, BE(10), NONE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_other_lower) { { R, OTHER, 0, BE(10), LOWER, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_other_back) { { R, OTHER, 0, BE(10), BACK, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_other_above) { { R, OTHER, 0, BE(10), ABOVE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_other_rt) { { R, OTHER, 0, BE(10), RTL, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_other_idle) { { R, OTHER, 0, BE(10), IDLE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_root_other_none) { { R, OTHER, 0, BE(10), NONE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_user_self_lower) { { U, SELF, 0, BE(10), LOWER, 0 } };
FIXTURE_VARIANT_ADD(perm, m_user_self_back) { { U, SELF, 0, BE(10), BACK, 0 } };
FIXTURE_VARIANT_ADD(perm, m_user_self_above) { { U, SELF, 0, BE(10), ABOVE, EACCES } };
FIXTURE_VARIANT_ADD(perm, m_user_self_rt) { { U, SELF, 0, BE(10), RTL, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_user_self_idle) { { U, SELF, 0, BE(10), IDLE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_user_self_none) { { U, SELF, 0, BE(10), NONE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_user_own_lower) { { U, OWN, 0, BE(10), LOWER, 0 } };
FIXTURE_VARIANT_ADD(perm, m_user_own_back) { { U, OWN, 0, BE(10), BACK, 0 } };
FIXTURE_VARIANT_ADD(perm, m_user_own_above) { { U, OWN, 0, BE(10), ABOVE, EACCES } };
FIXTURE_VARIANT_ADD(perm, m_user_own_rt) { { U, OWN, 0, BE(10), RTL, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_user_own_idle) { { U, OWN, 0, BE(10), IDLE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_user_own_none) { { U, OWN, 0, BE(10), NONE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_user_other_lower) { { U, OTHER, 0, BE(10), LOWER, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_user_other_back) { { U, OTHER, 0, BE(10), BACK, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_user_other_above) { { U, OTHER, 0, BE(10), ABOVE, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_user_other_rt) { { U, OTHER, 0, BE(10), RTL, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_user_other_idle) { { U, OTHER, 0, BE(10), IDLE, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_user_other_none) { { U, OTHER, 0, BE(10), NONE, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_cap_self_lower) { { UC, SELF, 0, BE(10), LOWER, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_self_back) { { UC, SELF, 0, BE(10), BACK, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_self_above) { { UC, SELF, 0, BE(10), ABOVE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_self_rt) { { UC, SELF, 0, BE(10), RTL, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_self_idle) { { UC, SELF, 0, BE(10), IDLE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_self_none) { { UC, SELF, 0, BE(10), NONE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_own_lower) { { UC, OWN, 0, BE(10), LOWER, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_own_back) { { UC, OWN, 0, BE(10), BACK, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_own_above) { { UC, OWN, 0, BE(10), ABOVE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_own_rt) { { UC, OWN, 0, BE(10), RTL, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_own_idle) { { UC, OWN, 0, BE(10), IDLE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_own_none) { { UC, OWN, 0, BE(10), NONE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_other_lower) { { UC, OTHER, 0, BE(10), LOWER, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_other_back) { { UC, OTHER, 0, BE(10), BACK, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_other_above) { { UC, OTHER, 0, BE(10), ABOVE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_other_rt) { { UC, OTHER, 0, BE(10), RTL, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_other_idle) { { UC, OTHER, 0, BE(10), IDLE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_cap_other_none) { { UC, OTHER, 0, BE(10), NONE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_self_lower) { { UR, SELF, 0, BE(10), LOWER, 0 } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_self_back) { { UR, SELF, 0, BE(10), BACK, 0 } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_self_above) { { UR, SELF, 0, BE(10), ABOVE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_self_rt) { { UR, SELF, 0, BE(10), RTL, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_self_idle) { { UR, SELF, 0, BE(10), IDLE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_self_none) { { UR, SELF, 0, BE(10), NONE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_own_lower) { { UR, OWN, 0, BE(10), LOWER, 0 } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_own_back) { { UR, OWN, 0, BE(10), BACK, 0 } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_own_above) { { UR, OWN, 0, BE(10), ABOVE, EACCES } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_own_rt) { { UR, OWN, 0, BE(10), RTL, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_own_idle) { { UR, OWN, 0, BE(10), IDLE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_own_none) { { UR, OWN, 0, BE(10), NONE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_other_lower) { { UR, OTHER, 0, BE(10), LOWER, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_other_back) { { UR, OTHER, 0, BE(10), BACK, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_other_above) { { UR, OTHER, 0, BE(10), ABOVE, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_other_rt) { { UR, OTHER, 0, BE(10), RTL, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_other_idle) { { UR, OTHER, 0, BE(10), IDLE, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_rlimit_other_none) { { UR, OTHER, 0, BE(10), NONE, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_userns_self_lower) { { UN, SELF, 0, BE(10), LOWER, 0 } };
FIXTURE_VARIANT_ADD(perm, m_userns_self_back) { { UN, SELF, 0, BE(10), BACK, 0 } };
FIXTURE_VARIANT_ADD(perm, m_userns_self_above) { { UN, SELF, 0, BE(10), ABOVE, EACCES } };
FIXTURE_VARIANT_ADD(perm, m_userns_self_rt) { { UN, SELF, 0, BE(10), RTL, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_userns_self_idle) { { UN, SELF, 0, BE(10), IDLE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_userns_self_none) { { UN, SELF, 0, BE(10), NONE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_userns_own_lower) { { UN, OWN, 0, BE(10), LOWER, 0 } };
FIXTURE_VARIANT_ADD(perm, m_userns_own_back) { { UN, OWN, 0, BE(10), BACK, 0 } };
FIXTURE_VARIANT_ADD(perm, m_userns_own_above) { { UN, OWN, 0, BE(10), ABOVE, EACCES } };
FIXTURE_VARIANT_ADD(perm, m_userns_own_rt) { { UN, OWN, 0, BE(10), RTL, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_userns_own_idle) { { UN, OWN, 0, BE(10), IDLE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_userns_own_none) { { UN, OWN, 0, BE(10), NONE, 0 } };
FIXTURE_VARIANT_ADD(perm, m_userns_other_lower) { { UN, OTHER, 0, BE(10), LOWER, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_userns_other_back) { { UN, OTHER, 0, BE(10), BACK, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_userns_other_above) { { UN, OTHER, 0, BE(10), ABOVE, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_userns_other_rt) { { UN, OTHER, 0, BE(10), RTL, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_userns_other_idle) { { UN, OTHER, 0, BE(10), IDLE, EPERM } };
FIXTURE_VARIANT_ADD(perm, m_userns_other_none) { { UN, OTHER, 0, BE(10), NONE, EPERM } };

TEST_F(gpuprio, pgrp_goes_on_past_a_refused_task)
{
	int status;
	pid_t own, other, caller;

	own = spawn_target(UID_OWN, 0, NONE, 0);
	ASSERT_LT(0, own);
	other = spawn_target(UID_OTHER, 0, NONE, own);
	ASSERT_LT(0, other);

	caller = fork();
	ASSERT_LE(0, caller);
	if (caller == 0) {
		int ret;

		if (become(CALLER_USER))
			_exit(10);
		ret = sys_gpuprio_set(GPUPRIO_WHO_PGRP, own, BE(8));
		_exit(ret == -1 && errno == EPERM ? 0 : 1);
	}
	ASSERT_EQ(caller, waitpid(caller, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(BE(8), get_pid(own));
	EXPECT_EQ(NONE, get_pid(other));
	reap(own);
	reap(other);
}

/*
 * Credentials of a process in the /proc opener tests: its uids, whether it
 * keeps root's permitted capabilities and has them effective, and whether
 * it then enters a user namespace of its own.
 */
struct creds {
	uid_t ruid, euid, suid;
	bool permitted;
	bool effective;
	bool userns;
};

static const struct creds CR_ROOT = { 0, 0, 0, true, true, false };
static const struct creds CR_USER = { UID_OWN, UID_OWN, UID_OWN, false, false, false };
static const struct creds CR_OTHER = { UID_OTHER, UID_OTHER, UID_OTHER, false, false, false };
/* The user's real uid, someone else's effective uid. */
static const struct creds CR_EUID = { UID_OWN, UID_OTHER, UID_OWN, false, false, false };
static const struct creds CR_USERNS = { UID_OWN, UID_OWN, UID_OWN,
					false, false, true };
/* A setuid-root program run by the user. */
static const struct creds CR_SETUID = { UID_OWN, 0, 0, true, true, false };
/* The same after seteuid(getuid()): root's permitted set, none effective. */
static const struct creds CR_DEPUTY = { UID_OWN, UID_OWN, 0, true, false, false };
/* The same with its permitted set effective again. */
static const struct creds CR_DEPUTY_CAPS = { UID_OWN, UID_OWN, 0, true, true, false };

static int take_creds(const struct creds *c)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	int i;

	if (prctl(PR_SET_KEEPCAPS, c->permitted))
		return -1;
	if (setresgid(c->ruid, c->euid, c->suid) ||
	    setresuid(c->ruid, c->euid, c->suid))
		return -1;
	if (syscall(SYS_capget, &hdr, data))
		return -1;
	for (i = 0; i < 2; i++) {
		if (!c->permitted)
			data[i].permitted = 0;
		data[i].effective = c->effective ? data[i].permitted : 0;
		data[i].inheritable = 0;
	}
	if (syscall(SYS_capset, &hdr, data))
		return -1;
	return c->userns ? enter_userns() : 0;
}

/* A child with @c's credentials and the GPU priority @prio, set by root. */
static pid_t spawn_creds(const struct creds *c, int prio)
{
	int pipefd[2];
	char ch;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0, prio) ||
		    take_creds(c))
			_exit(1);
		if (write(pipefd[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	if (read(pipefd[0], &ch, 1) != 1) {
		close(pipefd[0]);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(pipefd[0]);
	return pid;
}

/*
 * Open /proc/<target>/gpu_nice for writing in a child with @c's credentials
 * and take the descriptor over with pidfd_getfd(): the file keeps the
 * child's credentials as its opener's. Returns the descriptor or -1.
 */
static int open_as(const struct creds *c, pid_t target)
{
	int pipefd[2], childfd = -1, pidfd, fd = -1;
	char path[64];
	pid_t pid;

	snprintf(path, sizeof(path), "/proc/%d/gpu_nice", target);
	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (!take_creds(c))
			childfd = open(path, O_WRONLY);
		if (write(pipefd[1], &childfd, sizeof(childfd)) !=
		    sizeof(childfd))
			_exit(1);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	if (read(pipefd[0], &childfd, sizeof(childfd)) == sizeof(childfd) &&
	    childfd >= 0) {
		pidfd = syscall(SYS_pidfd_open, pid, 0);
		if (pidfd >= 0) {
			fd = syscall(SYS_pidfd_getfd, pidfd, childfd, 0);
			close(pidfd);
		}
	}
	close(pipefd[0]);
	reap(pid);
	return fd;
}

/* One row: who the target is, who opens, who writes, what, what happens. */
struct proc_cred_case {
	const struct creds *target;
	const struct creds *opener;
	const struct creds *writer;
	const char *text;
	int value;		/* what the text sets */
	int error;		/* expected errno, 0 for success */
};

FIXTURE(proc_creds) {
	pid_t target;
	int fd;
};

FIXTURE_VARIANT(proc_creds) {
	struct proc_cred_case row;
};

FIXTURE_SETUP(proc_creds)
{
	self->target = 0;
	self->fd = -1;
	if (!gpuprio_supported())
		SKIP(return, "kernel has no GPU priority support");
	self->target = spawn_creds(variant->row.target, NONE);
	ASSERT_LT(0, self->target);
	self->fd = open_as(variant->row.opener, self->target);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(proc_creds)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->target > 0)
		reap(self->target);
}

TEST_F(proc_creds, write)
{
	const struct proc_cred_case *row = &variant->row;
	size_t len = strlen(row->text);
	int status, err;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (take_creds(row->writer))
			_exit(100);
		if (write(self->fd, row->text, len) == (ssize_t)len)
			_exit(0);
		_exit(errno);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	err = WEXITSTATUS(status);
	ASSERT_NE(100, err);
	EXPECT_EQ(row->error, err) TH_LOG("errno %d (%s)", err, strerror(err));
	EXPECT_EQ(row->error ? NONE : row->value, get_pid(self->target));
}

#define PC(t, o, w, text, value, err) \
	{ { &CR_##t, &CR_##o, &CR_##w, text, value, err } }

/* Allowed to both: the baselines the refused rows differ from. */
FIXTURE_VARIANT_ADD(proc_creds, user_user) PC(USER, USER, USER, "10", BE(10), 0);
FIXTURE_VARIANT_ADD(proc_creds, root_root_raise) PC(USER, ROOT, ROOT, "-5", BE(-5), 0);
FIXTURE_VARIANT_ADD(proc_creds, deputy_deputy) PC(SETUID, DEPUTY, DEPUTY, "10", BE(10), 0);
/* Opened by root, written by the target's user: allowed to both. */
FIXTURE_VARIANT_ADD(proc_creds, root_user) PC(USER, ROOT, USER, "10", BE(10), 0);
/* uid: someone else opens or writes. */
FIXTURE_VARIANT_ADD(proc_creds, other_opens) PC(USER, OTHER, USER, "10", BE(10), EPERM);
FIXTURE_VARIANT_ADD(proc_creds, other_writes) PC(USER, USER, OTHER, "10", BE(10), EPERM);
/* euid: the user's real uid with someone else's effective uid. */
FIXTURE_VARIANT_ADD(proc_creds, euid_opens) PC(USER, EUID, USER, "10", BE(10), EPERM);
FIXTURE_VARIANT_ADD(proc_creds, euid_writes) PC(USER, USER, EUID, "10", BE(10), EPERM);
/* user namespace: CAP_SYS_NICE over a namespace the target is not in. */
FIXTURE_VARIANT_ADD(proc_creds, userns_opens) PC(USER, USERNS, ROOT, "-5", BE(-5), EACCES);
FIXTURE_VARIANT_ADD(proc_creds, userns_writes) PC(USER, ROOT, USERNS, "-5", BE(-5), EACCES);
/* capabilities: realtime needs CAP_SYS_NICE on both sides. */
FIXTURE_VARIANT_ADD(proc_creds, user_opens_rt) PC(USER, USER, ROOT, "realtime 0", RT(0), EPERM);
FIXTURE_VARIANT_ADD(proc_creds, user_writes_rt) PC(USER, ROOT, USER, "realtime 0", RT(0), EPERM);
/*
 * permitted capabilities: the user opens the file of their setuid-root
 * process and hands it to a deputy with the user's uid and euid but root's
 * saved uid and permitted set. The user could not make the change directly
 * (cap_safe_nice()), so neither can the deputy on their behalf, whatever
 * its effective set.
 */
FIXTURE_VARIANT_ADD(proc_creds, deputy_writes) PC(SETUID, USER, DEPUTY, "10", BE(10), EPERM);
FIXTURE_VARIANT_ADD(proc_creds, deputy_caps) PC(SETUID, USER, DEPUTY_CAPS, "10", BE(10), EPERM);
FIXTURE_VARIANT_ADD(proc_creds, deputy_opens) PC(SETUID, DEPUTY, USER, "10", BE(10), EPERM);

/* Root keeps its uids and gives up CAP_SYS_NICE alone. */
static int drop_sys_nice(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[0].effective &= ~(1U << CAP_SYS_NICE);
	data[0].permitted &= ~(1U << CAP_SYS_NICE);
	return syscall(SYS_capset, &hdr, data);
}

/* Root opens, then changes its credentials: the write is its new self's. */
TEST_F(gpuprio, proc_root_opener_after_credential_change)
{
	char path[64];
	int status, fd;
	pid_t target, pid;

	target = spawn_target(UID_OTHER, 0, NONE, -1);
	ASSERT_LT(0, target);
	snprintf(path, sizeof(path), "/proc/%d/gpu_nice", target);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		fd = open(path, O_WRONLY);
		if (fd < 0 || take_creds(&CR_USER))
			_exit(10);
		if (write(fd, "10", 2) != -1 || errno != EPERM)
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(NONE, get_pid(target));

	/* Root that dropped CAP_SYS_NICE after opening may not go realtime. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		fd = open(path, O_WRONLY);
		if (fd < 0 || drop_sys_nice())
			_exit(10);
		if (write(fd, "realtime 0", 10) != -1 || errno != EPERM)
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(NONE, get_pid(target));
	reap(target);
}

/*
 * The LSM guard: the user's own setuid-root process holds more permitted
 * capabilities than the user, so the capability module (cap_safe_nice())
 * refuses the change, by syscall and through /proc, and nothing changes.
 */
TEST_F(gpuprio, lsm_refuses_target_with_more_capabilities)
{
	int status, via_proc;
	pid_t target, pid;

	target = spawn_creds(&CR_SETUID, NONE);
	ASSERT_LT(0, target);
	for (via_proc = 0; via_proc <= 1; via_proc++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			int err;

			if (take_creds(&CR_USER))
				_exit(100);
			if (via_proc)
				err = -write_gpu_nice(target, "10", 2);
			else if (sys_gpuprio_set(GPUPRIO_WHO_PROCESS, target,
						 BE(10)))
				err = errno;
			else
				err = 0;
			_exit(err);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_EQ(EPERM, WEXITSTATUS(status))
			TH_LOG("via %s", via_proc ? "proc" : "syscall");
		EXPECT_EQ(NONE, get_pid(target));
	}
	reap(target);
}

TEST_F(gpuprio, unknown_flags_are_einval)
{
	unsigned int bit;

	ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, 0, BE(4)));
	for (bit = 0; bit < 32; bit++) {
		errno = 0;
		EXPECT_EQ(-1, syscall(__NR_gpuprio_set, GPUPRIO_WHO_PROCESS, 0,
				      BE(9), 1U << bit));
		EXPECT_EQ(EINVAL, errno) TH_LOG("set, flag bit %u", bit);
		errno = 0;
		EXPECT_EQ(-1, syscall(__NR_gpuprio_get, GPUPRIO_WHO_PROCESS, 0,
				      1U << bit));
		EXPECT_EQ(EINVAL, errno) TH_LOG("get, flag bit %u", bit);
	}
	EXPECT_EQ(BE(4), get_pid(0));
}

static void *thread_waits(void *arg)
{
	int *pipefd = arg;
	pid_t tid = syscall(SYS_gettid);

	if (write(pipefd[1], &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	for (;;)
		pause();
	return NULL;
}

#define PIDFD_THREADS	3

/*
 * A process of PIDFD_THREADS threads (the main one and two more) whose
 * thread ids are returned in @tids; the process id is tids[0].
 */
static pid_t spawn_threads(pid_t tids[PIDFD_THREADS])
{
	int pipefd[2], i;
	pthread_t t;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		pid_t self = getpid();

		if (write(pipefd[1], &self, sizeof(self)) != sizeof(self))
			_exit(1);
		for (i = 1; i < PIDFD_THREADS; i++)
			if (pthread_create(&t, NULL, thread_waits, pipefd))
				_exit(1);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	for (i = 0; i < PIDFD_THREADS; i++) {
		if (read(pipefd[0], &tids[i], sizeof(tids[i])) !=
		    sizeof(tids[i])) {
			close(pipefd[0]);
			reap(pid);
			return -1;
		}
	}
	close(pipefd[0]);
	return pid;
}

TEST_F(gpuprio, pidfd_sets_every_thread_and_gets_the_highest)
{
	pid_t tids[PIDFD_THREADS], pid;
	int pidfd, i;

	pid = spawn_threads(tids);
	ASSERT_LT(0, pid);
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	ASSERT_LE(0, pidfd);

	EXPECT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PIDFD, pidfd, BE(7)));
	for (i = 0; i < PIDFD_THREADS; i++)
		EXPECT_EQ(BE(7), get_pid(tids[i])) TH_LOG("thread %d", i);
	EXPECT_EQ(BE(7), sys_gpuprio_get(GPUPRIO_WHO_PIDFD, pidfd));

	/* The highest effective value wins, wherever its thread is. */
	ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, tids[2], BE(-3)));
	EXPECT_EQ(BE(-3), sys_gpuprio_get(GPUPRIO_WHO_PIDFD, pidfd));
	ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, tids[1], RT(6)));
	EXPECT_EQ(RT(6), sys_gpuprio_get(GPUPRIO_WHO_PIDFD, pidfd));
	ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PIDFD, pidfd, IDLE));
	EXPECT_EQ(IDLE, sys_gpuprio_get(GPUPRIO_WHO_PIDFD, pidfd));
	/* NONE resolves to the CPU nice, as for a group. */
	ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, tids[0], NONE));
	EXPECT_EQ(BE(0), sys_gpuprio_get(GPUPRIO_WHO_PIDFD, pidfd));
	/* A bad value changes no thread. */
	errno = 0;
	EXPECT_EQ(-1, sys_gpuprio_set(GPUPRIO_WHO_PIDFD, pidfd, BE(20)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(IDLE, get_pid(tids[2]));

	close(pidfd);
	reap(pid);
}

TEST_F(gpuprio, pidfd_of_exited_process_is_esrch)
{
	int pidfd, reaped;
	siginfo_t info;
	pid_t pid;

	for (reaped = 0; reaped <= 1; reaped++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0)
			_exit(0);
		pidfd = syscall(SYS_pidfd_open, pid, 0);
		ASSERT_LE(0, pidfd);
		/* Exited; reaped in the second pass only. */
		ASSERT_EQ(0, waitid(P_PID, pid, &info,
				    WEXITED | (reaped ? 0 : WNOWAIT)));
		errno = 0;
		EXPECT_EQ(-1, sys_gpuprio_set(GPUPRIO_WHO_PIDFD, pidfd, BE(3)));
		EXPECT_EQ(ESRCH, errno) TH_LOG("set, reaped %d", reaped);
		errno = 0;
		EXPECT_EQ(-1, sys_gpuprio_get(GPUPRIO_WHO_PIDFD, pidfd));
		EXPECT_EQ(ESRCH, errno) TH_LOG("get, reaped %d", reaped);
		close(pidfd);
		if (!reaped)
			waitpid(pid, NULL, 0);
	}
}

TEST_F(gpuprio, pidfd_not_a_pidfd_is_ebadf)
{
	int fds[] = { -1, 0, INT_MAX }, i;

	fds[1] = open("/proc/self/gpu_nice", O_RDONLY);
	ASSERT_LE(0, fds[1]);
	for (i = 0; i < (int)ARRAY_SIZE(fds); i++) {
		errno = 0;
		EXPECT_EQ(-1, sys_gpuprio_set(GPUPRIO_WHO_PIDFD, fds[i], BE(3)));
		EXPECT_EQ(EBADF, errno) TH_LOG("set, fd %d", fds[i]);
		errno = 0;
		EXPECT_EQ(-1, sys_gpuprio_get(GPUPRIO_WHO_PIDFD, fds[i]));
		EXPECT_EQ(EBADF, errno) TH_LOG("get, fd %d", fds[i]);
	}
	close(fds[1]);
	EXPECT_EQ(NONE, get_pid(0));
}

/* The permission rules hold for each thread: another user's is refused. */
TEST_F(gpuprio, pidfd_follows_the_permission_rules)
{
	int status, pidfd;
	pid_t target, pid;

	target = spawn_target(UID_OTHER, 0, NONE, -1);
	ASSERT_LT(0, target);
	pidfd = syscall(SYS_pidfd_open, target, 0);
	ASSERT_LE(0, pidfd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (become(CALLER_USER))
			_exit(10);
		if (sys_gpuprio_set(GPUPRIO_WHO_PIDFD, pidfd, BE(10)) != -1)
			_exit(1);
		_exit(errno == EPERM ? 0 : 2);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(NONE, get_pid(target));
	close(pidfd);
	reap(target);
}

/* A PIDFD_THREAD pidfd sets and reads its thread alone, as a thread id does. */
TEST_F(gpuprio, pidfd_thread_sets_and_gets_its_thread_only)
{
	pid_t tids[PIDFD_THREADS], pid;
	int pidfd, i;

	pid = spawn_threads(tids);
	ASSERT_LT(0, pid);
	pidfd = syscall(SYS_pidfd_open, tids[1], PIDFD_THREAD);
	ASSERT_LE(0, pidfd);

	EXPECT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PIDFD, pidfd, BE(5)));
	for (i = 0; i < PIDFD_THREADS; i++)
		EXPECT_EQ(i == 1 ? BE(5) : NONE, get_pid(tids[i]))
			TH_LOG("thread %d", i);
	/* Another thread's higher value is not this thread's. */
	ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PROCESS, tids[2], BE(-3)));
	EXPECT_EQ(BE(5), sys_gpuprio_get(GPUPRIO_WHO_PIDFD, pidfd));
	/* One task: its raw value, NONE included, as for a thread id. */
	ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PIDFD, pidfd, NONE));
	EXPECT_EQ(NONE, sys_gpuprio_get(GPUPRIO_WHO_PIDFD, pidfd));
	EXPECT_EQ(BE(-3), get_pid(tids[2]));
	EXPECT_EQ(NONE, get_pid(tids[0]));

	close(pidfd);
	reap(pid);
}

/*
 * A pidfd whose process the caller's pid namespace cannot see is refused
 * with EINVAL, as pidfd_send_signal() refuses it, for set and get; a pidfd
 * of a task inside the namespace works.
 */
TEST_F(gpuprio, pidfd_outside_the_callers_pid_namespace)
{
	int status, pidfd;
	pid_t target, pid;

	target = spawn_target(0, 0, NONE, -1);
	ASSERT_LT(0, target);
	pidfd = syscall(SYS_pidfd_open, target, 0);
	ASSERT_LE(0, pidfd);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pid_t inner;
		int st;

		if (unshare(CLONE_NEWPID))
			_exit(10);
		inner = fork();
		if (inner < 0)
			_exit(11);
		if (inner == 0) {
			int self;

			/* pid 1 of the new namespace, root, the pidfd inherited */
			if (sys_gpuprio_set(GPUPRIO_WHO_PIDFD, pidfd, BE(10)) != -1 ||
			    errno != EINVAL)
				_exit(1);
			if (sys_gpuprio_get(GPUPRIO_WHO_PIDFD, pidfd) != -1 ||
			    errno != EINVAL)
				_exit(2);
			self = syscall(SYS_pidfd_open, getpid(), 0);
			if (self < 0 ||
			    sys_gpuprio_set(GPUPRIO_WHO_PIDFD, self, BE(11)) ||
			    sys_gpuprio_get(GPUPRIO_WHO_PIDFD, self) != BE(11))
				_exit(3);
			_exit(0);
		}
		if (waitpid(inner, &st, 0) != inner || !WIFEXITED(st))
			_exit(12);
		_exit(WEXITSTATUS(st));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(NONE, get_pid(target));
	close(pidfd);
	reap(target);
}

/*
 * The clone storm: threads of the target create short-lived threads all the
 * time. After a pidfd set returns, no live thread may have the old value: a
 * thread copies its creator's value at fork but joins the thread list
 * later, so without copy_process() taking the value again under
 * tasklist_lock it can miss the set.
 */
#define STORM_SPAWNERS	2
#define STORM_ROUNDS	300

static void *storm_child(void *arg)
{
	usleep(20000);
	return NULL;
}

static void *storm_spawner(void *arg)
{
	pthread_attr_t attr;
	pthread_t t;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (;;) {
		if (pthread_create(&t, &attr, storm_child, NULL))
			usleep(1000);
	}
	return NULL;
}

/* The state letter of thread @tid of @pid in its stat file, '?' if gone. */
static char thread_state(pid_t pid, pid_t tid)
{
	char path[64], buf[256], *end;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return '?';
	end = strrchr(buf, ')');
	return end && end[1] == ' ' ? end[2] : '?';
}

/*
 * Threads of @pid whose value is not @want; -1 if the scan failed. Each one
 * is reported with its state: an exited thread not yet released ('X', or
 * 'Z' for a main thread whose process still runs) still answers by its id.
 */
static int storm_count_stale(pid_t pid, int want)
{
	struct dirent *d;
	char path[64];
	int stale = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		pid_t tid = atoi(d->d_name);
		int v;

		if (tid <= 0)
			continue;
		v = get_pid(tid);
		/* A thread that has exited meanwhile is no longer live. */
		if (v != want && !(v == -1 && errno == ESRCH)) {
			stale++;
			ksft_print_msg("thread %d: value %d, state %c\n",
				       tid, v, thread_state(pid, tid));
		}
	}
	closedir(dir);
	return stale;
}

TEST_F(gpuprio, pidfd_set_during_a_clone_storm)
{
	int round, pidfd, stale = 0, pipefd[2];
	pthread_t t;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		for (round = 0; round < STORM_SPAWNERS; round++)
			if (pthread_create(&t, NULL, storm_spawner, NULL))
				_exit(1);
		if (write(pipefd[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	close(pipefd[0]);
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	ASSERT_LE(0, pidfd);

	for (round = 0; round < STORM_ROUNDS && !stale; round++) {
		int want = round & 1 ? BE(3) : BE(12);

		ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PIDFD, pidfd, want));
		stale = storm_count_stale(pid, want);
		ASSERT_LE(0, stale);
	}
	EXPECT_EQ(0, stale) TH_LOG("round %d: %d thread(s) kept the old value",
				   round, stale);
	close(pidfd);
	reap(pid);
}

/*
 * A process whose main thread has exited while another thread runs: the
 * main thread is a zombie until the last thread exits, and gpuprio_get()
 * and /proc/<pid>/gpu_nice still answer for it by the process id. A pidfd
 * set that succeeds must not leave it behind with the old value.
 */
static void *leader_gone_waits(void *arg)
{
	for (;;)
		pause();
	return NULL;
}

TEST_F(gpuprio, pidfd_set_reaches_an_exited_main_thread)
{
	int i, pidfd;
	pthread_t t;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (pthread_create(&t, NULL, leader_gone_waits, NULL))
			_exit(1);
		syscall(SYS_exit, 0);	/* the main thread alone */
	}
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	ASSERT_LE(0, pidfd);
	for (i = 0; i < 5000 && thread_state(pid, pid) != 'Z'; i++)
		usleep(1000);
	ASSERT_EQ('Z', thread_state(pid, pid));

	ASSERT_EQ(0, sys_gpuprio_set(GPUPRIO_WHO_PIDFD, pidfd, BE(12)));
	EXPECT_EQ(BE(12), sys_gpuprio_get(GPUPRIO_WHO_PIDFD, pidfd));
	EXPECT_EQ(BE(12), get_pid(pid)) TH_LOG("the exited main thread");
	EXPECT_EQ(0, storm_count_stale(pid, BE(12)));
	close(pidfd);
	reap(pid);
}

/*
 * Reads of /proc/<pid>/gpu_nice racing with sets: every line read must be
 * accepted back by the file's own parser (written to a second task), so a
 * line made of two different reads of the value ("none -28" from NONE and
 * realtime 0) fails.
 */
#define RACE_READS	4000

struct race_writer {
	pid_t target;
	int stop;
};

static void *race_set(void *arg)
{
	struct race_writer *w = arg;
	static const int values[] = { NONE, RT(0), NONE, IDLE, NONE, BE(-7) };
	unsigned int i = 0;

	while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED))
		sys_gpuprio_set(GPUPRIO_WHO_PROCESS, w->target,
				values[i++ % ARRAY_SIZE(values)]);
	return NULL;
}

TEST_F(gpuprio, proc_read_races_a_set_and_round_trips)
{
	struct race_writer w = { 0 };
	char path[64], buf[64];
	int i, fd, bad = 0;
	pid_t scratch;
	pthread_t t;
	ssize_t n;

	w.target = spawn_target(0, 3, NONE, -1);
	ASSERT_LT(0, w.target);
	scratch = spawn_target(0, 0, NONE, -1);
	ASSERT_LT(0, scratch);
	snprintf(path, sizeof(path), "/proc/%d/gpu_nice", w.target);
	ASSERT_EQ(0, pthread_create(&t, NULL, race_set, &w));

	for (i = 0; i < RACE_READS && !bad; i++) {
		fd = open(path, O_RDONLY);
		ASSERT_LE(0, fd);
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		ASSERT_LT(0, n);
		buf[n] = '\0';
		if (write_gpu_nice(scratch, buf, n)) {
			bad = 1;
			TH_LOG("read %d: '%.*s' does not parse", i,
			       (int)n - 1, buf);
		}
	}
	__atomic_store_n(&w.stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	EXPECT_EQ(0, bad);
	reap(w.target);
	reap(scratch);
}

TEST_HARNESS_MAIN
