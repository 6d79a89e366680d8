// SPDX-License-Identifier: GPL-2.0
/*
 * gpuprio_fuzz: random and boundary gpuprio_set(2)/gpuprio_get(2) calls and
 * /proc/<pid>/gpu_nice reads and writes, each checked against a model of the
 * rules of the core issue. TAP on stdout.
 *
 * usage: gpuprio_fuzz [-s seed] [-t seconds] [-n ops] [-p phase] [-v]
 *   -s  seed (default: GPUPRIO_FUZZ_SEED, else from the clock); printed
 *   -t  seconds per phase (default: GPUPRIO_FUZZ_SECONDS, else 2)
 *   -n  at most this many operations per phase (replays a failure exactly)
 *   -p  run only this phase (root, user, rlimit, cap, userns)
 *
 * Each phase runs in a fresh PID and mount namespace, so pids are the same
 * from run to run of one seed, and random pids, process groups and uids
 * reach only the fuzzer's own tasks: pid 1 (the phase's init, root), the
 * caller and a thread of it, and a pool of processes of uids 0, 1000, 2000
 * and mixed real/effective uids, in three process groups, one with threads
 * and one a zombie. The caller is root, uid 1000, uid 1000 with RLIMIT_NICE
 * raised, uid 1000 with only CAP_SYS_NICE, or uid 1000 in a new user
 * namespace. The model knows every task's uids, CPU nice, RLIMIT_NICE,
 * process group and GPU priority, and so the exact result of every call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/gpuprio.h>

#include "../lib/gpu_nice_text.h"

/* The numbers: the test kernel's uapi headers (-isystem out/headers). */
#ifndef __NR_gpuprio_set
#error "no __NR_gpuprio_set: build with the test kernel's headers (make headers)"
#endif

#define NONE		((int)GPUPRIO_DEFAULT)
#define IDLE		((int)GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0))
#define RT(l)		((int)GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, (l)))
#define BE(n)		((int)GPUPRIO_BE_NICE(n))
#define CLASS(v)	((int)GPUPRIO_PRIO_CLASS(v))
#define DATA(v)		((int)GPUPRIO_PRIO_DATA(v))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define UID_OWN		1000
#define UID_OTHER	2000
#define MAX_TASKS	24
#define MAX_ERRNO	160
#define MAX_MSGS	12
#define SWEEP_EVERY	32

/* ---- random numbers: splitmix64, deterministic per seed ---------------- */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rnd(unsigned int n)
{
	return n ? rnd64() % n : 0;
}

static bool chance(unsigned int percent)
{
	return rnd(100) < percent;
}

/* ---- results, shared by the phases' processes with the top one -------- */

struct stats {
	unsigned long ops, calls, sets, gets, writes, reads, sweeps;
	unsigned long err[MAX_ERRNO + 1];	/* [0] is success */
	unsigned long violations;
	int nmsgs;
	char msgs[MAX_MSGS][240];
	bool done;
};

static struct stats *st;
static unsigned long op_index;
static bool verbose;

static void violation(const char *fmt, ...)
{
	va_list ap;

	st->violations++;
	if (st->nmsgs >= MAX_MSGS)
		return;
	va_start(ap, fmt);
	vsnprintf(st->msgs[st->nmsgs], sizeof(st->msgs[0]), fmt, ap);
	va_end(ap);
	if (verbose)
		fprintf(stderr, "# op %lu: %s\n", op_index, st->msgs[st->nmsgs]);
	st->nmsgs++;
}

static void count_err(int e)
{
	st->err[e >= 0 && e <= MAX_ERRNO ? e : MAX_ERRNO]++;
}

/* Calls: -errno or the result. */
static int sys_set(int which, int who, int prio, unsigned int flags)
{
	long r;

	st->calls++;
	r = syscall(__NR_gpuprio_set, which, who, prio, flags);
	return r < 0 ? -errno : (int)r;
}

static int sys_get(int which, int who, unsigned int flags)
{
	long r;

	st->calls++;
	r = syscall(__NR_gpuprio_get, which, who, flags);
	return r < 0 ? -errno : (int)r;
}

/* ---- the model -------------------------------------------------------- */

struct mtask {
	pid_t tid, pgid;
	uid_t uid, euid;
	int nice, rlim, prio;
	bool in_caller_ns;	/* its user namespace is the caller's new one */
	bool is_caller;
	int fd;			/* /proc/<tid>/gpu_nice, opened by the caller */
};

/* Credentials as the kernel compares them. */
struct creds {
	uid_t uid, euid;
	int userns;		/* 0: the initial one, 1: the caller's new one */
	int caps;		/* bits: CAPS_NICE, CAPS_ALL */
};
#define CAPS_NICE	1
#define CAPS_ALL	3

enum phase { PH_ROOT, PH_USER, PH_RLIMIT, PH_CAP, PH_USERNS, NR_PHASES };
static const char *const phase_name[] = {
	"root", "user", "rlimit", "cap", "userns",
};
static const char *const phase_desc[] = {
	"as root",
	"as uid 1000",
	"as uid 1000 with RLIMIT_NICE 30",
	"as uid 1000 with only CAP_SYS_NICE",
	"as uid 1000 inside a new user namespace",
};

static struct mtask tasks[MAX_TASKS];
static int ntasks;
static struct creds me;		/* the caller */
static pid_t dead_pids[4];
static int dead_fd = -1;	/* gpu_nice of a process since reaped */
static int foreign_fd = -1;	/* opened with other credentials */
static pid_t foreign_tid;
static struct creds foreign_creds;	/* ... which are these */

/* NONE follows the CPU nice downward only. */
static int resolve(int prio, int nice)
{
	return CLASS(prio) == GPUPRIO_CLASS_NONE ? BE(gpu_nice_follow(nice)) :
						   prio;
}

static int rank(int prio)
{
	switch (CLASS(prio)) {
	case GPUPRIO_CLASS_RT:
		return -28 + DATA(prio);
	case GPUPRIO_CLASS_IDLE:
		return 40;
	}
	return GPUPRIO_TO_NICE(prio);
}

static bool cap_nice(void)
{
	return me.userns == 0 && (me.caps & CAPS_NICE);
}

static struct mtask *find_tid(pid_t tid)
{
	int i;

	for (i = 0; i < ntasks; i++)
		if (tasks[i].tid == tid)
			return &tasks[i];
	return NULL;
}

static struct mtask *caller_task(void)
{
	int i;

	for (i = 0; i < ntasks; i++)
		if (tasks[i].is_caller)
			return &tasks[i];
	return NULL;
}

/* gpuprio_set_task(): 0 or the errno it gives @t for @prio. */
static int model_set_one(const struct mtask *t, int prio)
{
	int nice;

	if (t->uid != me.euid && t->euid != me.euid &&
	    !(me.caps & CAPS_NICE && (me.userns == 0 || t->in_caller_ns)))
		return EPERM;
	if (CLASS(prio) != GPUPRIO_CLASS_BE)
		return 0;
	nice = GPUPRIO_TO_NICE(prio);
	if (nice < gpu_nice_follow(t->nice) &&
	    nice < rank(resolve(t->prio, t->nice)) && !cap_nice() && nice < 20 - t->rlim)
		return EACCES;
	return 0;
}

/* The tasks a which/who pair names, as the kernel looks them up. */
static int match(int which, int who, struct mtask **out)
{
	struct mtask *c = caller_task();
	int i, n = 0;
	uid_t uid;

	switch (which) {
	case GPUPRIO_WHO_PROCESS:
		out[0] = who ? find_tid(who) : c;
		return out[0] ? 1 : 0;
	case GPUPRIO_WHO_PGRP:
		if (!who)
			who = c->pgid;
		for (i = 0; i < ntasks; i++)
			if (tasks[i].pgid == who)
				out[n++] = &tasks[i];
		return n;
	case GPUPRIO_WHO_USER:
		if (!who)
			uid = me.uid;
		else if (me.userns)
			return 0;	/* only 0 -> 1000 is mapped */
		else if (who == -1)
			return 0;	/* INVALID_UID */
		else
			uid = (uid_t)who;
		for (i = 0; i < ntasks; i++)
			if (tasks[i].uid == uid)
				out[n++] = &tasks[i];
		return n;
	}
	return 0;
}

static const char *ename(int e)
{
	static char buf[8][16];
	static int i;

	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case EBADF: return "EBADF";
	case ESRCH: return "ESRCH";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case ESPIPE: return "ESPIPE";
	case ENOENT: return "ENOENT";
	}
	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "errno %d", e);
	return buf[i];
}

/* @len bytes of @s, printable, for a message. */
static const char *esc(const char *s, size_t len)
{
	static char buf[2][100];
	static int k;
	char *out = buf[k ^= 1];
	size_t i, o = 0;

	for (i = 0; i < len && o < sizeof(buf[0]) - 5; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[o++] = c;
		else
			o += sprintf(out + o, "\\x%02x", c);
	}
	out[o] = '\0';
	return out;
}

/* ---- checks ----------------------------------------------------------- */

/* A mismatch is reported once: the model then follows the kernel. */
static void check_value(struct mtask *t, const char *after)
{
	int v = sys_get(GPUPRIO_WHO_PROCESS, t->tid, 0);

	if (v != t->prio) {
		violation("%s: task %d (uid %u/%u nice %d) holds %#x (%s), expected %#x",
			  after, t->tid, t->uid, t->euid, t->nice, v < 0 ? -v : v,
			  v < 0 ? ename(-v) : "value", t->prio);
		if (v >= 0)
			t->prio = v;
	}
}

/* Read the whole file through @fd in chunks of @chunk bytes. */
static int read_all(int fd, char *buf, size_t len, size_t chunk)
{
	size_t got = 0;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) != 0)
		return -errno;
	while (got < len - 1) {
		st->calls++;
		n = read(fd, buf + got, chunk < len - 1 - got ? chunk : len - 1 - got);
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += n;
	}
	buf[got] = '\0';
	return got;
}

static void check_proc(const struct mtask *t, size_t chunk, bool counted)
{
	char want[40], got[64];
	int n = read_all(t->fd, got, sizeof(got), chunk);

	if (counted) {
		st->reads++;
		count_err(n < 0 ? -n : 0);
	}
	gpu_nice_format(want, sizeof(want), t->prio, t->nice);
	if (n < 0)
		violation("read gpu_nice of %d: %s", t->tid, ename(-n));
	else if (!gpu_nice_decodes(got) || strcmp(got, want))
		violation("gpu_nice of %d reads \"%s\", expected \"%s\"",
			  t->tid, esc(got, strlen(got)), esc(want, strlen(want)));
}

static void sweep(const char *after)
{
	int i;

	st->sweeps++;
	for (i = 0; i < ntasks; i++) {
		check_value(&tasks[i], after);
		check_proc(&tasks[i], 64, false);
	}
}

/* ---- values and arguments --------------------------------------------- */

static int random_valid(void)
{
	unsigned int i = rnd(1 + GPUPRIO_RT_LEVELS + GPUPRIO_BE_LEVELS + 1);

	if (i == 0)
		return NONE;
	if (i <= GPUPRIO_RT_LEVELS)
		return RT(i - 1);
	if (i <= GPUPRIO_RT_LEVELS + GPUPRIO_BE_LEVELS)
		return BE((int)(i - 1 - GPUPRIO_RT_LEVELS) - 20);
	return IDLE;
}

static int random_prio(void)
{
	static const int edge[] = {
		NONE | 1, RT(8), RT(GPUPRIO_PRIO_MASK),
		GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_BE, 40),
		GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_BE, GPUPRIO_PRIO_MASK),
		IDLE | 1, IDLE | GPUPRIO_PRIO_MASK,
		GPUPRIO_PRIO_VALUE(4, 0), GPUPRIO_PRIO_VALUE(5, 1),
		GPUPRIO_PRIO_VALUE(6, 0), GPUPRIO_PRIO_VALUE(7, 7),
		1 << 16, (1 << 16) | BE(0), 1 << 20, -1, -2, INT_MIN, INT_MAX,
		INT_MIN | RT(0), 0xffff, 0x10000 | IDLE,
	};
	unsigned int r = rnd(100);

	if (r < 50)
		return random_valid();
	if (r < 65) {
		/* A class with random data, in range or just past it. */
		return GPUPRIO_PRIO_VALUE(rnd(8), rnd(2) ? rnd(48) : rnd(8192));
	}
	if (r < 85)
		return edge[rnd(ARRAY_SIZE(edge))];
	if (r < 95)
		return (int)(rnd64() & 0xffff);
	return (int)rnd64();
}

/*
 * GPUPRIO_WHO_PIDFD is drawn too: the fuzzer holds no pidfd, so whatever
 * number it passes is no pidfd (EBADF). The pidfd rules are the selftest's.
 */
static int random_which(void)
{
	static const int bad[] = { 0, 5, -1, INT_MIN, INT_MAX, 256 };

	if (chance(92))
		return GPUPRIO_WHO_PROCESS + rnd(3);
	if (chance(40))
		return GPUPRIO_WHO_PIDFD;
	return bad[rnd(ARRAY_SIZE(bad))];
}

/* No flag is defined: any bit set is EINVAL, before anything else. */
static unsigned int random_flags(void)
{
	return chance(97) ? 0 : 1U << rnd(32);
}

static int random_who(int which)
{
	static const int huge[] = {
		-1, -2, INT_MIN, INT_MAX, 1 << 22, (1 << 22) + 1, 32768, 99999,
		65535, 65536, 54321,
	};
	unsigned int r = rnd(100);

	if (r < 10)
		return 0;
	if (r < 55)
		return tasks[rnd(ntasks)].tid;
	if (r < 65)
		return dead_pids[rnd(ARRAY_SIZE(dead_pids))];
	if (r < 75)
		return huge[rnd(ARRAY_SIZE(huge))];
	if (r < 85) {
		if (which == GPUPRIO_WHO_USER) {
			static const int uids[] = {
				0, UID_OWN, UID_OTHER, UID_OWN + 1, 65534,
			};

			return uids[rnd(ARRAY_SIZE(uids))];
		}
		return 1 + rnd(40);
	}
	if (r < 90)
		return -(int)rnd(100);
	return (int)rnd64();
}

/* ---- operations ------------------------------------------------------- */

static void op_set(void)
{
	struct mtask *m[MAX_TASKS];
	int which = random_which(), who = random_who(which);
	int prio = random_prio();
	unsigned int flags = random_flags();
	int n, i, e, ret, want = ESRCH, errs = 0;
	bool allowed[MAX_TASKS];
	const char *why;

	st->sets++;
	ret = sys_set(which, who, prio, flags);
	e = ret < 0 ? -ret : 0;
	count_err(e);
	if (ret > 0)
		violation("gpuprio_set(%d, %d, %#x) returned %d", which, who,
			  prio, ret);

	if (flags) {
		want = EINVAL;
		why = "unknown flags";
	} else if (which < GPUPRIO_WHO_PROCESS || which > GPUPRIO_WHO_PIDFD) {
		want = EINVAL;
		why = "bad which";
	} else if (!gpuprio_value_valid(prio)) {
		want = EINVAL;
		why = "bad value";
	} else if (CLASS(prio) == GPUPRIO_CLASS_RT && !cap_nice()) {
		want = EPERM;
		why = "realtime without CAP_SYS_NICE";
	} else if (which == GPUPRIO_WHO_PIDFD) {
		want = EBADF;
		why = "not a pidfd";
	} else {
		why = "no such task";
		n = match(which, who, m);
		for (i = 0; i < n; i++) {
			int one = model_set_one(m[i], prio);

			allowed[i] = !one;
			if (one) {
				errs |= one == EPERM ? 1 : 2;
				want = one;
			}
		}
		if (n && !errs) {
			want = 0;
		} else if (errs == 3) {
			/* The last refusal wins: it depends on list order. */
			if (e == EPERM || e == EACCES)
				want = e;
			why = "mixed refusals";
		} else if (n) {
			why = "refused";
		}
		/* The model follows what should have happened. */
		if (e == want || errs == 3) {
			for (i = 0; i < n; i++)
				if (allowed[i])
					m[i]->prio = prio;
		}
		for (i = 0; i < n; i++)
			check_value(m[i], "gpuprio_set");
	}
	if (e != want)
		violation("gpuprio_set(%d, %d, %#x): %s, expected %s (%s)",
			  which, who, prio, ename(e), ename(want), why);
}

static void op_get(void)
{
	struct mtask *m[MAX_TASKS];
	int which = random_which(), who = random_who(which);
	unsigned int flags = random_flags();
	int n, i, ret, want;

	st->gets++;
	ret = sys_get(which, who, flags);
	count_err(ret < 0 ? -ret : 0);

	if (flags || which < GPUPRIO_WHO_PROCESS || which > GPUPRIO_WHO_PIDFD) {
		want = -EINVAL;
	} else if (which == GPUPRIO_WHO_PIDFD) {
		want = -EBADF;
	} else {
		n = match(which, who, m);
		want = -ESRCH;
		if (n && which == GPUPRIO_WHO_PROCESS)
			want = m[0]->prio;
		for (i = 0; i < n && which != GPUPRIO_WHO_PROCESS; i++) {
			int v = resolve(m[i]->prio, m[i]->nice);

			if (want < 0 || rank(v) < rank(want))
				want = v;
		}
	}
	if (ret >= 0 && !gpuprio_value_valid(ret))
		violation("gpuprio_get(%d, %d) = %#x: not a valid value",
			  which, who, ret);
	if (ret >= 0 && which != GPUPRIO_WHO_PROCESS &&
	    CLASS(ret) == GPUPRIO_CLASS_NONE)
		violation("gpuprio_get(%d, %d) = %#x: NONE from a group",
			  which, who, ret);
	if (ret != want)
		violation("gpuprio_get(%d, %d) = %s%#x, expected %s%#x", which,
			  who, ret < 0 ? "-" : "", ret < 0 ? -ret : ret,
			  want < 0 ? "-" : "", want < 0 ? -want : want);
}

/* White space as the kernel's isspace() knows it (0xa0 is Latin-1 NBSP). */
static bool kspace(unsigned char c)
{
	return (c >= 9 && c <= 13) || c == ' ' || c == 0xa0;
}

/* kstrtoint(s, 10): [+]digits or -digits, nothing after; -1 if invalid. */
static bool parse_int(const char *s, long long *out)
{
	bool neg = false;
	long long v = 0;

	if (*s == '-') {
		neg = true;
		s++;
	} else if (*s == '+') {
		s++;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		if (v < 1000000000000LL)
			v = v * 10 + (*s - '0');
	}
	*out = neg ? -v : v;
	return true;
}

/*
 * The documented grammar of a write: "<nice>", "best-effort <nice>",
 * "realtime <level>", "idle", "none" or "none <nice>" (the read form, its
 * nice ignored), with surrounding white space; the
 * word and its argument are separated by a space or a tab and any white
 * space after it. Anything else, a NUL byte included, is EINVAL.
 */
static int oracle_parse(const char *buf, size_t len, int *prio)
{
	char s[64], *p, *end, *arg;
	long long n;

	if (len >= sizeof(s) || memchr(buf, 0, len))
		return EINVAL;
	memcpy(s, buf, len);
	s[len] = '\0';
	p = s;
	while (*p && kspace(*p))
		p++;
	end = p + strlen(p);
	while (end > p && kspace(end[-1]))
		*--end = '\0';
	arg = p + strcspn(p, " \t");
	if (!*arg) {
		if (!strcmp(p, "none")) {
			*prio = NONE;
			return 0;
		}
		if (!strcmp(p, "idle")) {
			*prio = IDLE;
			return 0;
		}
		if (!parse_int(p, &n) || n < -20 || n > 19)
			return EINVAL;
		*prio = BE((int)n);
		return 0;
	}
	*arg++ = '\0';
	while (*arg && kspace(*arg))
		arg++;
	if (!parse_int(arg, &n))
		return EINVAL;
	if (!strcmp(p, "best-effort") && n >= -20 && n <= 19) {
		*prio = BE((int)n);
		return 0;
	}
	if (!strcmp(p, "none") && n >= -20 && n <= 19) {
		*prio = NONE;
		return 0;
	}
	if (!strcmp(p, "realtime") && n >= 0 && n <= 7) {
		*prio = RT((int)n);
		return 0;
	}
	return EINVAL;
}

static const char *random_space(void)
{
	static const char *const sp[] = {
		"", "", "", " ", "  ", "\t", "\n", " \n", "\r\n", "\v", "\f",
		"\xa0", " \t ",
	};

	return sp[rnd(ARRAY_SIZE(sp))];
}

/* Text for a write: valid, mutated, random, overlong or at an edge. */
static size_t random_text(char *buf, size_t size)
{
	/* Lengths are explicit: some of these hold NUL bytes. */
#define T(x) { x, sizeof(x) - 1 }
	static const struct {
		const char *s;
		size_t len;
	} edge[] = {
		T("20"), T("-21"), T("19"), T("-20"), T("+5"), T("-0"), T("+0"),
		T("0005"), T("-+5"), T("+-5"), T("--5"), T("2147483647"),
		T("2147483648"), T("-2147483648"), T("-2147483649"),
		T("99999999999999999999"), T("4294967296"), T("0x5"), T("5 "),
		T(" 5"), T("5\n\n"), T("5\n5"), T("realtime 8"), T("realtime -1"),
		T("realtime +7"), T("realtime -0"), T("realtime 07"),
		T("realtime"), T("realtime  "), T("best-effort"),
		T("best-effort -20"), T("best-effort 20"),
		T("best-effort\t\t-1"), T("best-effort\n1"),
		T("best-effort\v 1"), T("best-effort \xa0" "3"), T("idle 0"),
		T("none 0"), T("none\n"), T("idle\t"), T("IDLE"), T("None"),
		T("Best-effort 1"), T("best_effort 1"), T("realtime 1 "),
		T("realtime 1 1"), T("idle idle"), T("\xa0idle\xa0"), T("\n"),
		T(""), T(" "), T("best-effort 1\0junk"), T("5\0"), T("idle\0"),
		T("\0none"), T("\0"), T("none\0\n"), T("none 20"), T("none -20"),
		T("none 5 5"),
	};
#undef T
	size_t len, i;
	char core[40];

	switch (rnd(8)) {
	case 0:
	case 1:
	case 2: {
		int v = random_valid();

		switch (CLASS(v)) {
		case GPUPRIO_CLASS_RT:
			snprintf(core, sizeof(core), "realtime%s%d",
				 rnd(2) ? " " : "\t", DATA(v));
			break;
		case GPUPRIO_CLASS_BE:
			if (rnd(2))
				snprintf(core, sizeof(core), "%d",
					 GPUPRIO_TO_NICE(v));
			else
				snprintf(core, sizeof(core), "best-effort %s%d",
					 random_space(), GPUPRIO_TO_NICE(v));
			break;
		case GPUPRIO_CLASS_IDLE:
			snprintf(core, sizeof(core), "idle");
			break;
		default:
			snprintf(core, sizeof(core), "none");
		}
		len = snprintf(buf, size, "%s%s%s", random_space(), core,
			       random_space());
		if (len >= size)
			len = size - 1;
		if (chance(25))	/* a partial write: a prefix */
			len = rnd(len + 1);
		return len;
	}
	case 3: {
		/* A valid text with one byte changed, added or dropped. */
		len = random_text(buf, size - 1);
		i = rnd(len + 1);
		switch (rnd(3)) {
		case 0:
			if (len)
				buf[i < len ? i : len - 1] = (char)rnd(256);
			break;
		case 1:
			memmove(buf + i + 1, buf + i, len - i);
			buf[i] = (char)rnd(256);
			len++;
			break;
		default:
			if (i < len) {
				memmove(buf + i, buf + i + 1, len - i - 1);
				len--;
			}
		}
		return len;
	}
	case 4:
		len = rnd(40);
		for (i = 0; i < len; i++)
			buf[i] = (char)rnd(256);
		return len;
	case 5:
		/* Overlong: 33 bytes and more, often a valid value padded. */
		len = 33 + rnd(size - 33);
		memset(buf, ' ', len);
		if (rnd(2))
			memcpy(buf, "best-effort 5", 13);
		else
			for (i = 0; i < len; i++)
				buf[i] = (char)rnd(256);
		return len;
	default:
		i = rnd(ARRAY_SIZE(edge));
		memcpy(buf, edge[i].s, edge[i].len);
		return edge[i].len;
	}
}

static char *fault_page;	/* a PROT_NONE page after a readable one */

/*
 * As for uid_map, a write must be allowed to the file's opener too: the
 * kernel runs the realtime check and gpuprio_set_task()'s checks under the
 * opener's credentials, after parsing and before the writer's own.
 */
static int model_opener(const struct mtask *t, int prio)
{
	struct creds writer = me;
	int e;

	me = foreign_creds;
	if (CLASS(prio) == GPUPRIO_CLASS_RT && !cap_nice())
		e = EPERM;
	else
		e = model_set_one(t, prio);
	me = writer;
	return e;
}

static void op_write(void)
{
	struct mtask *t = &tasks[rnd(ntasks)];
	char text[128];
	size_t len = random_text(text, sizeof(text));
	int fd = t->fd, want, prio = 0, e, how = rnd(100), perr;
	const char *src = text;
	bool dead = false, foreign = false, bad_ptr = false, pw = false;
	ssize_t ret;

	if (how < 4 && dead_fd >= 0) {
		fd = dead_fd;
		dead = true;
	} else if (how < 8 && foreign_fd >= 0) {
		fd = foreign_fd;
		t = find_tid(foreign_tid);
		foreign = true;
	}
	st->writes++;
	st->calls++;
	how = rnd(100);
	if (how < 3) {
		/* The text runs into an unmapped page. */
		size_t l = len ? len : 1;

		src = fault_page - rnd(l);
		memcpy((char *)src, text, fault_page - src);
		len = l;
		bad_ptr = true;
		ret = write(fd, src, len);
	} else if (how < 8) {
		pw = true;
		ret = pwrite(fd, src, len, rnd(64));
	} else {
		if (how < 20)
			lseek(fd, rnd(100), SEEK_SET);
		ret = write(fd, src, len);
	}
	e = ret < 0 ? errno : 0;
	count_err(e);

	perr = oracle_parse(text, len, &prio);
	if (pw)
		want = ESPIPE;
	else if (len > 32)
		want = EINVAL;
	else if (bad_ptr)
		want = EFAULT;
	else if (perr)
		want = perr;
	else if (CLASS(prio) == GPUPRIO_CLASS_RT && !cap_nice())
		want = EPERM;
	else if (dead)
		want = ESRCH;
	else if (foreign && (want = model_opener(t, prio)))
		;	/* the opener's refusal comes first */
	else
		want = model_set_one(t, prio);

	if (!want && ret != (ssize_t)len)
		violation("write \"%s\" (%zu bytes) to gpu_nice of %d returned %zd",
			  esc(text, len), len, t->tid, ret);
	if (e != want)
		violation("write \"%s\" (%zu bytes%s%s) to gpu_nice of %d: %s, expected %s",
			  esc(text, len), len, pw ? ", pwrite" : "",
			  bad_ptr ? ", bad buffer" : "", dead ? 0 : t->tid,
			  ename(e), ename(want));
	if (!dead && e == want && !want)
		t->prio = prio;
	if (!dead)
		check_value(t, "gpu_nice write");
}

static void op_read(void)
{
	struct mtask *t = &tasks[rnd(ntasks)];
	char want[40], got[64];
	size_t off;
	ssize_t n;

	if (chance(10) && dead_fd >= 0) {
		st->reads++;
		st->calls++;
		n = pread(dead_fd, got, sizeof(got), 0);
		count_err(n < 0 ? errno : 0);
		if (n >= 0 || errno != ESRCH)
			violation("read of a reaped task's gpu_nice: %zd, %s",
				  n, ename(n < 0 ? errno : 0));
		return;
	}
	if (chance(50)) {
		check_proc(t, 1 + rnd(12), true);
		return;
	}
	/*
	 * pread at an offset: the tail of the line. A seq_file keeps the
	 * record it last showed, so an offset read after the value changed
	 * can see the old line's tail; a read from 0 first shows it afresh.
	 */
	gpu_nice_format(want, sizeof(want), t->prio, t->nice);
	off = rnd(strlen(want) + 3);
	st->reads++;
	st->calls += 2;
	n = pread(t->fd, got, 1, 0);
	if (n == 1)
		n = pread(t->fd, got, sizeof(got) - 1, off);
	count_err(n < 0 ? errno : 0);
	if (n < 0) {
		violation("pread gpu_nice of %d at %zu: %s", t->tid, off,
			  ename(errno));
		return;
	}
	got[n] = '\0';
	if (strcmp(got, off < strlen(want) ? want + off : ""))
		violation("pread gpu_nice of %d at %zu: \"%s\"", t->tid, off,
			  esc(got, n));
}

/* A pid that just exited, and a gpu_nice file whose task is gone. */
static void refresh_dead(void)
{
	char path[64];
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[0]);
	if (pid < 0) {
		close(p[1]);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/gpu_nice", pid);
	if (dead_fd >= 0)
		close(dead_fd);
	dead_fd = open(path, O_RDWR);
	close(p[1]);
	waitpid(pid, NULL, 0);
	memmove(dead_pids + 1, dead_pids,
		sizeof(dead_pids) - sizeof(dead_pids[0]));
	dead_pids[0] = pid;
}

/* ---- a phase ---------------------------------------------------------- */

struct spawn {
	uid_t ruid, euid;
	int nice, rlim, pgrp;	/* pgrp: index of a leader, -1 own */
	int threads;
	bool zombie;
};

static const struct spawn pool[] = {
	{ UID_OWN, UID_OWN, 0, 0, -1, 0, false },		/* G1 */
	{ UID_OWN, UID_OWN, 5, 10, 0, 0, false },
	{ UID_OWN, UID_OWN, -5, 25, -1, 0, false },		/* G2 */
	{ UID_OTHER, UID_OTHER, 0, 0, 2, 0, false },
	{ UID_OTHER, UID_OTHER, 10, 40, -1, 0, false },		/* G3 */
	{ 0, 0, 3, 0, 4, 0, false },
	{ UID_OTHER, UID_OWN, 0, 0, 0, 0, false },
	{ UID_OWN, UID_OTHER, -2, 0, 4, 0, false },
	{ UID_OWN, UID_OWN, 2, 5, 2, 2, false },
	{ UID_OWN, UID_OWN, 7, 0, 0, 0, true },
	{ UID_OTHER, UID_OTHER, -10, 0, 2, 0, true },
};

static void *sleeper(void *arg)
{
	int fd = *(int *)arg;
	pid_t tid = gettid();

	if (write(fd, &tid, sizeof(tid)) != sizeof(tid))
		_exit(3);
	for (;;)
		pause();
	return NULL;
}

/* In the phase's init: a pool process. Returns its tids (process first). */
static int spawn_one(const struct spawn *s, pid_t pgid, int prio, pid_t *tids)
{
	struct rlimit rl = { s->rlim, s->rlim };
	pthread_t th;
	int p[2], i, n = 0;
	pid_t pid;

	if (pipe(p))
		return 0;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (setpgid(0, pgid) || setpriority(PRIO_PROCESS, 0, s->nice) ||
		    setrlimit(RLIMIT_NICE, &rl) ||
		    syscall(__NR_gpuprio_set, GPUPRIO_WHO_PROCESS, 0, prio, 0U) ||
		    setresgid(s->ruid, s->ruid, s->ruid) ||
		    setresuid(s->ruid, s->euid, s->euid))
			_exit(2);
		pid = getpid();
		if (write(p[1], &pid, sizeof(pid)) != sizeof(pid))
			_exit(3);
		for (i = 0; i < s->threads; i++)
			if (pthread_create(&th, NULL, sleeper, &p[1]))
				_exit(4);
		if (s->zombie)
			_exit(0);
		for (;;)
			pause();
	}
	close(p[1]);
	while (n <= s->threads && read(p[0], &tids[n], sizeof(pid_t)) ==
	       sizeof(pid_t))
		n++;
	close(p[0]);
	return n;
}

static void add_task(pid_t tid, pid_t pgid, uid_t uid, uid_t euid, int nice,
		     int rlim, int prio)
{
	struct mtask *t = &tasks[ntasks++];

	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pgid = pgid;
	t->uid = uid;
	t->euid = euid;
	t->nice = nice;
	t->rlim = rlim;
	t->prio = prio;
	t->fd = -1;
}

static int helper_pipe[2];

static void *helper(void *arg)
{
	char c;

	*(pid_t *)arg = gettid();
	if (read(helper_pipe[0], &c, 1) < 0)
		return NULL;
	return NULL;
}

/* Take on the phase's identity; fds opened before it are foreign. */
static int become(enum phase ph)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { { 0 } };
	struct rlimit rl = { 30, 30 };
	char path[64];
	int fd;

	me = (struct creds){ 0, 0, 0, CAPS_ALL };
	if (ph == PH_ROOT) {
		/* A file opened with effective uid 1000 and no capabilities. */
		snprintf(path, sizeof(path), "/proc/%d/gpu_nice", getpid());
		if (setresuid(-1, UID_OWN, -1))
			return -1;
		foreign_fd = open(path, O_RDWR);
		if (setresuid(-1, 0, -1))
			return -1;
		foreign_tid = getpid();
		/* The file keeps its opener's euid and empty effective set. */
		foreign_creds = (struct creds){ 0, UID_OWN, 0, 0 };
		return foreign_fd < 0 ? -1 : 0;
	}
	/* Opened by root, which allows what the writer may do itself. */
	foreign_fd = open("/proc/1/gpu_nice", O_RDWR);
	foreign_tid = 1;
	foreign_creds = (struct creds){ 0, 0, 0, CAPS_ALL };
	if (ph == PH_RLIMIT && setrlimit(RLIMIT_NICE, &rl))
		return -1;
	if (prctl(PR_SET_KEEPCAPS, ph == PH_CAP))
		return -1;
	if (setresgid(UID_OWN, UID_OWN, UID_OWN) ||
	    setresuid(UID_OWN, UID_OWN, UID_OWN))
		return -1;
	me = (struct creds){ UID_OWN, UID_OWN, 0, 0 };
	if (ph == PH_CAP) {
		data[0].effective = 1U << CAP_SYS_NICE;
		data[0].permitted = 1U << CAP_SYS_NICE;
		if (syscall(SYS_capset, &hdr, data))
			return -1;
		me.caps = CAPS_NICE;
	}
	if (ph == PH_USERNS) {
		/* Opened by uid 1000 in the initial namespace. */
		close(foreign_fd);
		snprintf(path, sizeof(path), "/proc/%d/gpu_nice", getpid());
		foreign_fd = open(path, O_RDWR);
		foreign_tid = getpid();
		foreign_creds = (struct creds){ UID_OWN, UID_OWN, 0, 0 };
		/* uid_map is writable by its owner: be dumpable again. */
		if (prctl(PR_SET_DUMPABLE, 1) || unshare(CLONE_NEWUSER))
			return -1;
		fd = open("/proc/self/setgroups", O_WRONLY);
		if (fd < 0 || write(fd, "deny", 4) != 4)
			return -1;
		close(fd);
		fd = open("/proc/self/uid_map", O_WRONLY);
		if (fd < 0 || write(fd, "0 1000 1", 8) != 8)
			return -1;
		close(fd);
		fd = open("/proc/self/gid_map", O_WRONLY);
		if (fd < 0 || write(fd, "0 1000 1", 8) != 8)
			return -1;
		close(fd);
		me.userns = 1;
		me.caps = CAPS_ALL;	/* in the new namespace only */
	}
	return foreign_fd < 0 ? -1 : 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The caller: runs the operations until time or count is up. */
static void caller(enum phase ph, double seconds, unsigned long max_ops)
{
	struct rlimit rl0 = { 0, 0 };
	pthread_t th;
	pid_t htid = 0;
	char path[64];
	double end;
	int i;

	if (setpgid(0, 0) || setpriority(PRIO_PROCESS, 0, 4) ||
	    setrlimit(RLIMIT_NICE, &rl0) ||
	    syscall(__NR_gpuprio_set, GPUPRIO_WHO_PROCESS, 0, BE(8)))
		_exit(20);
	if (become(ph)) {
		fprintf(stderr, "# phase %s: cannot take its identity: %s\n",
			phase_name[ph], strerror(errno));
		_exit(21);
	}
	add_task(getpid(), getpid(), me.uid, me.euid, 4, ph == PH_RLIMIT ? 30 : 0,
		 BE(8));
	tasks[ntasks - 1].is_caller = true;
	tasks[ntasks - 1].in_caller_ns = me.userns;
	if (pipe(helper_pipe) ||
	    pthread_create(&th, NULL, helper, &htid))
		_exit(22);
	while (!__atomic_load_n(&htid, __ATOMIC_SEQ_CST))
		usleep(100);
	add_task(htid, getpid(), me.uid, me.euid, 4, ph == PH_RLIMIT ? 30 : 0,
		 BE(8));
	tasks[ntasks - 1].in_caller_ns = me.userns;

	for (i = 0; i < ntasks; i++) {
		snprintf(path, sizeof(path), "/proc/%d/gpu_nice", tasks[i].tid);
		tasks[i].fd = open(path, O_RDWR);
		if (tasks[i].fd < 0) {
			fprintf(stderr, "# open %s: %s\n", path, strerror(errno));
			_exit(23);
		}
	}
	fault_page = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fault_page == MAP_FAILED ||
	    mprotect(fault_page + 4096, 4096, PROT_NONE))
		_exit(24);
	fault_page += 4096;
	for (i = 0; i < (int)ARRAY_SIZE(dead_pids); i++)
		refresh_dead();

	sweep("start");
	end = now() + seconds;
	for (op_index = 0; !max_ops || op_index < max_ops; op_index++) {
		unsigned int r;

		if ((op_index & 255) == 0 && now() > end)
			break;
		r = rnd(1000);
		if (r < 3)
			refresh_dead();
		else if (r < 450)
			op_set();
		else if (r < 700)
			op_get();
		else if (r < 900)
			op_write();
		else
			op_read();
		st->ops++;
		if (op_index % SWEEP_EVERY == SWEEP_EVERY - 1)
			sweep("sweep");
	}
	sweep("end");
	st->done = true;
	_exit(0);
}

/* pid 1 of the phase's namespace: the pool, then the caller. */
static int phase_init(enum phase ph, double seconds, unsigned long max_ops)
{
	pid_t tids[4], leaders[ARRAY_SIZE(pool)], pid;
	unsigned int i;
	int n, j, status, prio;

	if (setsid() < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("proc", "/proc", "proc", 0, NULL)) {
		fprintf(stderr, "# namespace setup: %s\n", strerror(errno));
		return 30;
	}
	prio = random_valid();
	if (syscall(__NR_gpuprio_set, GPUPRIO_WHO_PROCESS, 0, prio))
		return 31;
	if (setpriority(PRIO_PROCESS, 0, 0))
		return 32;
	add_task(1, 1, 0, 0, 0, 0, prio);

	for (i = 0; i < ARRAY_SIZE(pool); i++) {
		const struct spawn *s = &pool[i];
		pid_t pgid = s->pgrp < 0 ? 0 : leaders[s->pgrp];

		prio = random_valid();
		n = spawn_one(s, pgid, prio, tids);
		if (n != 1 + s->threads) {
			fprintf(stderr, "# pool process %u did not start\n", i);
			return 33;
		}
		leaders[i] = tids[0];
		for (j = 0; j < n; j++)
			add_task(tids[j], pgid ? pgid : tids[0], s->ruid, s->euid,
				 s->nice, s->rlim, prio);
	}
	/* Zombies: their exit is complete once the threads above are in. */
	for (i = 0; i < ARRAY_SIZE(pool); i++) {
		char path[64], state = 0;
		FILE *f;

		if (!pool[i].zombie)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", leaders[i]);
		for (j = 0; j < 1000 && state != 'Z'; j++) {
			f = fopen(path, "r");
			if (!f || fscanf(f, "%*d %*s %c", &state) != 1)
				state = 0;
			if (f)
				fclose(f);
			if (state != 'Z')
				usleep(1000);
		}
	}

	pid = fork();
	if (pid == 0)
		caller(ph, seconds, max_ops);
	if (waitpid(pid, &status, 0) != pid)
		return 34;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "# phase %s: caller ended with status %#x\n",
			phase_name[ph], status);
		return 35;
	}
	return 0;	/* exit kills the pool: we are the namespace's init */
}

static int run_phase(enum phase ph, uint64_t seed, double seconds,
		     unsigned long max_ops)
{
	pid_t pid;
	int status;

	rng_state = seed;
	ntasks = 0;
	pid = fork();
	if (pid == 0) {
		if (unshare(CLONE_NEWPID | CLONE_NEWNS)) {
			fprintf(stderr, "# unshare: %s\n", strerror(errno));
			_exit(40);
		}
		pid = fork();
		if (pid == 0)
			_exit(phase_init(ph, seconds, max_ops));
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			_exit(41);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 42);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void errno_summary(const struct stats *s, char *buf, size_t len)
{
	static const int shown[] = {
		0, EINVAL, ESRCH, EPERM, EACCES, EFAULT, ESPIPE,
	};
	size_t off = 0;
	unsigned int i;
	int e;

	for (i = 0; i < ARRAY_SIZE(shown); i++)
		off += snprintf(buf + off, len - off, "%s%s %lu", i ? ", " : "",
				i ? ename(shown[i]) : "ok", s->err[shown[i]]);
	for (e = 1; e <= MAX_ERRNO; e++) {
		bool known = false;

		for (i = 0; i < ARRAY_SIZE(shown); i++)
			known |= shown[i] == e;
		if (!known && s->err[e])
			off += snprintf(buf + off, len - off, ", %s %lu",
					ename(e), s->err[e]);
	}
}

int main(int argc, char **argv)
{
	struct stats *all, total;
	double seconds = 2, t0, elapsed;
	unsigned long max_ops = 0;
	uint64_t seed;
	const char *env;
	int opt, only = -1, ph, rc, e;
	char buf[512];
	unsigned int k;

	env = getenv("GPUPRIO_FUZZ_SEED");
	seed = env && *env ? strtoull(env, NULL, 0) :
		(uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
	env = getenv("GPUPRIO_FUZZ_SECONDS");
	if (env && *env)
		seconds = atof(env);
	while ((opt = getopt(argc, argv, "s:t:n:p:v")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			seconds = atof(optarg);
			break;
		case 'n':
			max_ops = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			for (ph = 0; ph < NR_PHASES; ph++)
				if (!strcmp(optarg, phase_name[ph]))
					only = ph;
			if (only < 0) {
				fprintf(stderr, "unknown phase %s\n", optarg);
				return 2;
			}
			break;
		case 'v':
			verbose = true;
			break;
		default:
			fprintf(stderr, "usage: %s [-s seed] [-t seconds] [-n ops] [-p phase] [-v]\n",
				argv[0]);
			return 2;
		}
	}
	if (!gpu_nice_tap_start())
		return 0;
	tap_plan((only < 0 ? NR_PHASES : 1) + 2);
	printf("# seed %llu, %.1f s per phase (replay: gpuprio_fuzz -s %llu -t %g)\n",
	       (unsigned long long)seed, seconds, (unsigned long long)seed,
	       seconds);

	all = mmap(NULL, sizeof(*all) * NR_PHASES, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (all == MAP_FAILED)
		return 1;
	memset(&total, 0, sizeof(total));
	t0 = now();
	for (ph = 0; ph < NR_PHASES; ph++) {
		uint64_t pseed = seed ^ (0x1000193ULL * (ph + 1));

		if (only >= 0 && ph != only)
			continue;
		st = &all[ph];
		memset(st, 0, sizeof(*st));
		rc = run_phase(ph, pseed, seconds, max_ops);
		errno_summary(st, buf, sizeof(buf));
		tap(!rc && st->done && !st->violations,
		    "fuzz %s: %lu ops, %lu calls, %lu violations (%s)",
		    phase_desc[ph], st->ops, st->calls, st->violations, buf);
		printf("#   sets %lu, gets %lu, gpu_nice writes %lu, reads %lu, sweeps %lu; replay: gpuprio_fuzz -s %llu -p %s -n %lu\n",
		       st->sets, st->gets, st->writes, st->reads, st->sweeps,
		       (unsigned long long)seed, phase_name[ph], st->ops);
		if (rc || !st->done)
			printf("#   phase ended with status %d%s\n", rc,
			       st->done ? "" : " before finishing");
		for (e = 0; e < st->nmsgs; e++)
			printf("#   %s\n", st->msgs[e]);
		total.ops += st->ops;
		total.calls += st->calls;
		total.violations += st->violations;
		for (k = 0; k <= MAX_ERRNO; k++)
			total.err[k] += st->err[k];
	}
	elapsed = now() - t0;
	errno_summary(&total, buf, sizeof(buf));
	tap(!total.violations,
	    "fuzz total: %lu calls in %.1f s (%.0f calls/s), %lu violations (%s)",
	    total.calls, elapsed, total.calls / elapsed, total.violations,
	    buf);
	/* Coverage: every documented outcome was reached at least once. */
	{
		static const int need[] = {
			0, EINVAL, ESRCH, EPERM, EACCES, EFAULT, ESPIPE,
		};
		char miss[128] = "";
		size_t off = 0;

		for (k = 0; k < ARRAY_SIZE(need); k++)
			if (!total.err[need[k]])
				off += snprintf(miss + off, sizeof(miss) - off,
						" %s", ename(need[k]));
		if (only >= 0 && only != PH_ROOT)
			off = 0;	/* one phase alone need not reach all */
		tap(!off,
		    "fuzz reached success, EINVAL, ESRCH, EPERM, EACCES, EFAULT and ESPIPE%s%s",
		    off ? ": missing" : "", miss);
	}
	return 0;
}
