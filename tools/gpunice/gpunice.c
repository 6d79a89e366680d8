// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gpunice - show or change the GPU priority of processes, or run a command
 * with a given GPU priority
 *
 * It follows ionice(1) and renice(1) of util-linux: the same option letters
 * where they mean the same thing, the same messages and exit codes.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "gpuprio.h"
#ifdef GPUNICE_BROKER
# include "gpuprio-broker.h"
#endif

/*
 * Messages are marked for translation as util-linux marks them. Without
 * ENABLE_NLS (the default) the marks cost nothing and need no gettext.
 */
#ifdef ENABLE_NLS
# include <libintl.h>
# include <locale.h>
# define _(s)			gettext(s)
# ifndef LOCALEDIR
#  define LOCALEDIR		"/usr/share/locale"
# endif
#else
# define _(s)			(s)
#endif
/* For strings kept in tables and translated where they are printed. */
#define N_(s)			(s)

#ifndef GPUNICE_VERSION
# define GPUNICE_VERSION "0.1"
#endif

/* Exit codes of a command that could not be run, as env(1) and ionice(1). */
#define EXIT_EXEC_FAILED	126
#define EXIT_EXEC_ENOENT	127

/* A command given neither -n nor -c runs at nice 10, as nice(1) does. */
#define DEFAULT_BE_NICE		10
/* -c realtime without -n: the middle level, as ionice(1) chooses. */
#define DEFAULT_RT_LEVEL	4

#define NICE_MIN		(-GPUPRIO_BE_NICE_OFFSET)
#define NICE_MAX		(GPUPRIO_BE_LEVELS - GPUPRIO_BE_NICE_OFFSET - 1)
#define LEVEL_MAX		(GPUPRIO_RT_LEVELS - 1)

/* Large enough for any line describe() writes. */
#define DESC_LEN		64

enum target_kind {
	TARGET_SELF,		/* no -p, -g or -u */
	TARGET_PID,
	TARGET_TID,		/* -p with --thread */
	TARGET_PGRP,
	TARGET_USER,
};

static const struct kind_info {
	int which;		/* GPUPRIO_WHO_* */
	int prio_which;		/* PRIO_* for getpriority(2), for CPU nice */
	const char *name;	/* as renice(1) names targets */
} kinds[] = {
	[TARGET_SELF] = { GPUPRIO_WHO_PROCESS, PRIO_PROCESS, N_("process ID") },
	[TARGET_PID]  = { GPUPRIO_WHO_PROCESS, PRIO_PROCESS, N_("process ID") },
	[TARGET_TID]  = { GPUPRIO_WHO_PROCESS, PRIO_PROCESS, N_("thread ID") },
	[TARGET_PGRP] = { GPUPRIO_WHO_PGRP, PRIO_PGRP, N_("process group ID") },
	[TARGET_USER] = { GPUPRIO_WHO_USER, PRIO_USER, N_("user ID") },
};

static const char *const class_names[] = {
	[GPUPRIO_CLASS_NONE] = "none",
	[GPUPRIO_CLASS_RT] = "realtime",
	[GPUPRIO_CLASS_BE] = "best-effort",
	[GPUPRIO_CLASS_IDLE] = "idle",
};

struct gpunice_ctl {
	int class;		/* GPUPRIO_CLASS_*, or -1 without -c */
	const char *nice_arg;	/* -n as given, or NULL */
	enum target_kind kind;
	const char **ids;	/* targets as given on the command line */
	int nids;
	int *who;		/* the same, resolved to numbers */
	unsigned int thread_only:1,
		     ignore:1,
		     list:1,		/* --list */
		     list_all:1,	/* --all */
		     ask:1;		/* --ask: through gpuprio-broker(8) */
};

/*
 * Output may go to a file or pipe: a write error must not pass unnoticed
 * (util-linux's close_stdout() does the same). A closed pipe is the
 * reader's choice, not our failure.
 */
static void close_stdout(void)
{
	int failed = ferror(stdout);

	errno = 0;
	if (fclose(stdout))
		failed = 1;
	if (!failed || errno == EPIPE)
		return;
	if (errno)
		warn(_("write error"));
	else
		warnx(_("write error"));
	_exit(EXIT_FAILURE);
}

static void __attribute__((__noreturn__)) usage(void)
{
	const char *name = program_invocation_short_name;

	printf(_("\nUsage:\n"));
	printf(_(" %s [options] [<command> [<argument>...]]\n"), name);
	printf(_(" %s [options] -p <pid>...\n"), name);
	printf(_(" %s [options] -g <pgid>...\n"), name);
	printf(_(" %s [options] -u <user>...\n"), name);
	printf(_(" %s --list [--all]\n"), name);

	printf(_("\nShow or change the GPU priority of processes, or run a "
		 "command with a given\nGPU priority.\n"));

	printf(_("\nOptions:\n"));
	printf(_(" -c, --class <class>   none, realtime, best-effort or idle "
		 "(or 0 to 3)\n"));
	printf(_(" -n, --nice <num>      best-effort GPU nice, -20 (highest) "
		 "to 19, or realtime\n"
		 "                         level, 0 (highest) to 7; absolute, "
		 "not an increment\n"
		 "                         as in nice(1)\n"));
	printf(_(" -p, --pid <pid>...    act on these processes, all their "
		 "threads\n"));
	printf(_("     --thread          with --pid, act on the given thread "
		 "IDs only\n"));
	printf(_(" -g, --pgrp <pgid>...  act on these process groups\n"));
	printf(_(" -P, --pgid <pgid>...  the same, as ionice(1) spells it\n"));
	printf(_(" -u, --user <user>...  act on the processes of these users "
		 "(names or IDs)\n"));
	printf(_("     --uid <user>...   the same, as ionice(1) spells it\n"));
	printf(_(" -l, --list            list the threads that have a GPU "
		 "priority of their own\n"));
	printf(_("     --all             with --list, also those that follow "
		 "their CPU nice\n"));
	printf(_(" -t, --ignore          ignore failures to set the GPU "
		 "priority\n"));
	printf(_("     --ask             raise through gpuprio-broker(8), "
		 "then run the command\n"));
	printf("\n");
	printf(_(" -h, --help            display this help\n"));
	printf(_(" -V, --version         display version\n"));

	printf(_("\nA command given neither --class nor --nice runs at "
		 "best-effort nice %d.\n"), DEFAULT_BE_NICE);
	printf(_("Without a command or target, show the GPU priority of %s "
		 "itself.\n"), name);

	printf(_("\nFor more details see gpunice(1).\n"));
	exit(EXIT_SUCCESS);
}

static void __attribute__((__noreturn__)) print_version(void)
{
	printf(_("%s from gpunice %s\n"), program_invocation_short_name,
	       GPUNICE_VERSION);
	exit(EXIT_SUCCESS);
}

static void __attribute__((__noreturn__)) errtryhelp(void)
{
	fprintf(stderr, _("Try '%s --help' for more information.\n"),
		program_invocation_short_name);
	exit(EXIT_FAILURE);
}

/* A command line mistake: say what it is, point at --help, exit 1. */
static void __attribute__((__noreturn__, __format__(__printf__, 1, 2)))
bad_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	errtryhelp();
}

/* Parse a whole decimal number within [min, max]; 0 on success. */
static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_class(const char *s)
{
	long n;
	int i;

	if (parse_long(s, 0, GPUPRIO_CLASS_IDLE, &n) == 0)
		return (int)n;
	for (i = 0; i <= GPUPRIO_CLASS_IDLE; i++)
		if (!strcasecmp(s, class_names[i]))
			return i;
	return -1;
}

#ifdef GPUNICE_NO_NSS
/*
 * Static glibc reaches NSS modules through dlopen(), which a static binary
 * in a minimal system (the test initramfs) cannot do, and the linker warns
 * about it: read /etc/passwd directly instead.
 */
static int lookup_user(const char *name, uid_t *uid)
{
	FILE *f = fopen("/etc/passwd", "re");
	struct passwd *pw;
	int ret = -1;

	if (!f)
		return -1;
	while ((pw = fgetpwent(f))) {
		if (!strcmp(pw->pw_name, name)) {
			*uid = pw->pw_uid;
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}
#else
static int lookup_user(const char *name, uid_t *uid)
{
	struct passwd *pw = getpwnam(name);

	if (!pw)
		return -1;
	*uid = pw->pw_uid;
	return 0;
}
#endif

/* User names first, then numbers, as renice(1) resolves them. */
static int resolve_user(const char *s)
{
	uid_t uid;
	long n;

	if (lookup_user(s, &uid) == 0)
		return (int)uid;
	if (parse_long(s, 0, INT_MAX, &n))
		errx(EXIT_FAILURE, _("unknown user: '%s'"), s);
	return (int)n;
}

static int resolve_id(enum target_kind kind, const char *s)
{
	long id;
	int uid;

	if (kind != TARGET_USER) {
		/* 0 would mean the caller itself to the kernel: refuse it. */
		if (parse_long(s, 1, INT_MAX, &id))
			bad_usage(_("invalid %s argument: '%s'"),
				  kind == TARGET_PGRP ? "PGID" :
				  kind == TARGET_TID ? "TID" : "PID", s);
		return (int)id;
	}

	uid = resolve_user(s);
	/*
	 * The kernel reads user ID 0 as "the caller's real user ID", as
	 * setpriority(2) does, so only root itself can name root.
	 */
	if (uid == 0 && getuid() != 0)
		errx(EXIT_FAILURE, _("cannot act on user ID 0 unless run by "
				     "it: the kernel reads 0 as the caller's "
				     "own user ID"));
	return uid;
}

/* Turn -c and -n into a priority value, or -1 when there is none to set. */
static int build_prio(const struct gpunice_ctl *ctl, int have_command)
{
	int class = ctl->class;
	long n;

	if (class < 0) {
		if (!ctl->nice_arg && !have_command)
			return -1;	/* show */
		class = GPUPRIO_CLASS_BE;
	}

	switch (class) {
	case GPUPRIO_CLASS_BE:
		if (!ctl->nice_arg)
			return GPUPRIO_BE_NICE(DEFAULT_BE_NICE);
		if (parse_long(ctl->nice_arg, NICE_MIN, NICE_MAX, &n))
			bad_usage(_("invalid nice: '%s' (best-effort takes "
				    "%d to %d)"), ctl->nice_arg, NICE_MIN,
				  NICE_MAX);
		return GPUPRIO_BE_NICE((int)n);
	case GPUPRIO_CLASS_RT:
		if (!ctl->nice_arg)
			return GPUPRIO_PRIO_VALUE(class, DEFAULT_RT_LEVEL);
		if (parse_long(ctl->nice_arg, 0, LEVEL_MAX, &n))
			bad_usage(_("invalid level: '%s' (realtime takes 0 "
				    "to %d)"), ctl->nice_arg, LEVEL_MAX);
		return GPUPRIO_PRIO_VALUE(class, (int)n);
	default:
		/* As ionice(1) does for its idle and none classes. */
		if (ctl->nice_arg && !ctl->ignore)
			warnx(_("ignoring given nice for the %s class"),
			      class_names[class]);
		return GPUPRIO_PRIO_VALUE(class, 0);
	}
}

/* The GPU nice that a task without a GPU priority of its own gets. */
/*
 * kernel.gpuprio_follow_nice = 0 leaves tasks without a GPU priority at
 * normal; a kernel without the file follows the CPU nice.
 */
static int kernel_follows_cpu_nice(void)
{
	FILE *f = fopen("/proc/sys/kernel/gpuprio_follow_nice", "re");
	int on = 1;

	if (!f)
		return 1;
	if (fscanf(f, "%d", &on) != 1)
		on = 1;
	fclose(f);
	return on != 0;
}

static int follow_cpu_nice(int cpu_nice)
{
	/*
	 * Downward only, as the kernel resolves it: a negative CPU nice
	 * must not reach the levels that need CAP_SYS_NICE.
	 */
	return cpu_nice > 0 ? cpu_nice : 0;
}

/*
 * Write a GPU priority in words, the same for every kind of target: the
 * value in effect. A process group or user has the highest value of its
 * tasks, which the kernel already resolved; a task without a value of its
 * own follows its CPU nice, so say that and which nice it is.
 */
static void describe(char *buf, size_t len, enum target_kind kind, int who,
		     int prio)
{
	unsigned int class = GPUPRIO_PRIO_CLASS(prio);
	unsigned int data = GPUPRIO_PRIO_DATA(prio);
	int cpu_nice;

	switch (class) {
	case GPUPRIO_CLASS_NONE:
		if (!kernel_follows_cpu_nice()) {
			snprintf(buf, len, _("best-effort: nice 0 (kernel."
					     "gpuprio_follow_nice = 0)"));
			break;
		}
		errno = 0;
		cpu_nice = getpriority(kinds[kind].prio_which, who);
		if (cpu_nice == -1 && errno)
			snprintf(buf, len, _("none (follows CPU nice)"));
		else
			snprintf(buf, len, _("best-effort: nice %d "
					     "(follows CPU nice %d)"),
				 follow_cpu_nice(cpu_nice), cpu_nice);
		break;
	case GPUPRIO_CLASS_RT:
		snprintf(buf, len, _("realtime: level %u"), data);
		break;
	case GPUPRIO_CLASS_BE:
		snprintf(buf, len, _("best-effort: nice %d"),
			 GPUPRIO_TO_NICE(prio));
		break;
	case GPUPRIO_CLASS_IDLE:
		snprintf(buf, len, _("idle"));
		break;
	default:
		snprintf(buf, len, _("unknown class %u: data %u"), class,
			 data);
		break;
	}
}

static int get_prio(enum target_kind kind, int who, char *buf, size_t len)
{
	int prio = gpuprio_get(kinds[kind].which, who);

	if (prio < 0)
		return -1;
	describe(buf, len, kind, who, prio);
	return 0;
}

/*
 * Each thread may have its own value (a browser lowers one tab's thread):
 * after the process line, show the threads that differ from it.
 */
static void show_other_threads(pid_t pid, const char *main_desc)
{
	char dir[sizeof("/proc//task") + 3 * sizeof(pid_t)];
	char desc[DESC_LEN];
	struct dirent *d;
	DIR *tasks;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	tasks = opendir(dir);
	if (!tasks)
		return;	/* exited since: the process line stands */
	while ((d = readdir(tasks))) {
		long tid;

		if (parse_long(d->d_name, 1, INT_MAX, &tid) || tid == pid)
			continue;
		/* A thread that exited meanwhile has nothing to show. */
		if (get_prio(TARGET_TID, (int)tid, desc, sizeof(desc)))
			continue;
		if (strcmp(desc, main_desc))
			printf(_("%d (thread of %d): %s\n"), (int)tid,
			       (int)pid, desc);
	}
	closedir(tasks);
}

static int show_one(enum target_kind kind, int who)
{
	char desc[DESC_LEN];

	if (get_prio(kind, who, desc, sizeof(desc))) {
		warn(_("failed to get GPU priority of %d (%s)"), who,
		     _(kinds[kind].name));
		return -1;
	}
	if (kind == TARGET_SELF) {
		printf("%s\n", desc);
		return 0;
	}
	printf("%d: %s\n", who, desc);
	if (kind == TARGET_PID)
		show_other_threads(who, desc);
	return 0;
}

/*
 * --list: what /proc/PID/task/TID/gpu_nice says, for every thread. The
 * file holds "<class> [<value>]" (proc_pid_gpu_nice(5)); reading it costs
 * one open and read per thread, where the system calls would need to find
 * every task again. comm is read only for the threads printed.
 */
static int read_small(int dirfd, const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void list_thread(int taskfd, const char *pid, const char *tid,
			int all)
{
	char path[NAME_MAX + sizeof("/gpu_nice")];
	char text[32], comm[32], value[16];
	char *sep;

	snprintf(path, sizeof(path), "%s/gpu_nice", tid);
	if (read_small(taskfd, path, text, sizeof(text)))
		return;		/* exited meanwhile */
	if (!all && !strncmp(text, "none", 4))
		return;

	/* "idle" has no value; the others have one after a space. */
	sep = strchr(text, ' ');
	snprintf(value, sizeof(value), "%s", sep ? sep + 1 : "-");
	if (sep)
		*sep = '\0';

	snprintf(path, sizeof(path), "%s/comm", tid);
	if (read_small(taskfd, path, comm, sizeof(comm)))
		snprintf(comm, sizeof(comm), "?");
	printf("%7s %7s %-11s %5s %s\n", pid, tid, text, value, comm);
}

static int list_tasks(int all)
{
	struct dirent *p, *t;
	DIR *proc, *tasks;
	int fd, tfd;
	long id;

	proc = opendir("/proc");
	if (!proc)
		err(EXIT_FAILURE, _("cannot open %s"), "/proc");

	printf("%7s %7s %-11s %5s %s\n", _("PID"), _("TID"), _("CLASS"),
	       _("VALUE"), _("COMMAND"));
	while ((p = readdir(proc))) {
		if (parse_long(p->d_name, 1, INT_MAX, &id))
			continue;
		fd = openat(dirfd(proc), p->d_name, O_RDONLY | O_DIRECTORY |
			    O_CLOEXEC);
		if (fd < 0)
			continue;
		tfd = openat(fd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		tasks = tfd < 0 ? NULL : fdopendir(tfd);
		if (!tasks) {
			if (tfd >= 0)
				close(tfd);
			continue;	/* exited meanwhile */
		}
		while ((t = readdir(tasks)))
			if (!parse_long(t->d_name, 1, INT_MAX, &id))
				list_thread(dirfd(tasks), p->d_name,
					    t->d_name, all);
		closedir(tasks);
	}
	closedir(proc);
	return 0;
}

struct tid_set {
	pid_t *tids;
	size_t count;
	size_t size;
};

static int tid_set_has(const struct tid_set *set, pid_t tid)
{
	size_t i;

	for (i = 0; i < set->count; i++)
		if (set->tids[i] == tid)
			return 1;
	return 0;
}

static int tid_set_add(struct tid_set *set, pid_t tid)
{
	if (set->count == set->size) {
		size_t size = set->size ? set->size * 2 : 16;
		pid_t *tids = realloc(set->tids, size * sizeof(*tids));

		if (!tids)
			return -1;
		set->tids = tids;
		set->size = size;
	}
	set->tids[set->count++] = tid;
	return 0;
}

/* The outcome of setting every thread of one process. */
struct thread_walk {
	struct tid_set seen;
	size_t nset;		/* threads changed */
	pid_t bad_tid;		/* last thread that refused, or 0 */
	int bad_errno;
};

/* Set @prio on each thread in @dir not seen before. */
static int walk_threads_once(const char *dir, int prio, struct thread_walk *w)
{
	struct dirent *d;
	DIR *tasks;

	tasks = opendir(dir);
	if (!tasks)
		return -1;

	while ((d = readdir(tasks))) {
		long tid;

		if (parse_long(d->d_name, 1, INT_MAX, &tid))
			continue;	/* "." and ".." */
		if (tid_set_has(&w->seen, (pid_t)tid))
			continue;
		if (tid_set_add(&w->seen, (pid_t)tid)) {
			closedir(tasks);
			return -1;
		}
		if (gpuprio_set(GPUPRIO_WHO_PROCESS, (int)tid, prio) == 0) {
			w->nset++;
			continue;
		}
		/* A thread that exited meanwhile needs no priority. */
		if (errno == ESRCH)
			continue;
		w->bad_tid = (pid_t)tid;
		w->bad_errno = errno;
	}
	closedir(tasks);
	return 0;
}

/*
 * Set @prio on every thread of the process @pid belongs to: any of them
 * may submit GPU work. A thread started during the walk may have copied
 * the old value from a thread not reached yet, so walk again until a pass
 * meets no new thread. On failure, *@bad_tid names the thread that failed.
 */
static int set_all_threads(pid_t pid, int prio, pid_t *bad_tid)
{
	char dir[sizeof("/proc//task") + 3 * sizeof(pid_t)];
	struct thread_walk w = { .bad_tid = 0 };
	size_t before;
	int ret = 0;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	*bad_tid = pid;
	do {
		before = w.seen.count;
		if (walk_threads_once(dir, prio, &w)) {
			if (errno == ENOENT)
				errno = ESRCH;
			ret = -1;
			goto out;
		}
	} while (w.seen.count != before);

	if (w.bad_tid) {
		*bad_tid = w.bad_tid;
		errno = w.bad_errno;
		ret = -1;
	} else if (!w.nset) {
		errno = ESRCH;	/* every thread exited under us */
		ret = -1;
	}
out:
	free(w.seen.tids);
	return ret;
}

/*
 * Set every thread of process @pid through a pidfd, so that a pid reused
 * by another process between lookup and change cannot be hit. Returns 1
 * when the kernel cannot (no pidfd_open(2), @pid not a process, or no
 * GPUPRIO_WHO_PIDFD): the caller then sets the threads one by one.
 */
static int set_process_pidfd(pid_t pid, int prio)
{
	int pidfd, ret, error;

	pidfd = gpuprio_pidfd_open((int)pid);
	if (pidfd < 0)
		return errno == ESRCH ? -1 : 1;
	ret = gpuprio_set(GPUPRIO_WHO_PIDFD, pidfd, prio);
	error = errno;
	close(pidfd);
	/* @prio is valid here: EINVAL is a kernel without pidfd targets. */
	if (ret && error == EINVAL)
		return 1;
	errno = error;
	return ret;
}

/*
 * After a refused change, say what would have allowed it: the errno alone
 * does not tell a user about CAP_SYS_NICE or RLIMIT_NICE.
 */
static void explain_refusal(int error, int prio)
{
	if (error == EACCES)
		warnx(_("a GPU priority above both the current one and the "
			"CPU nice (normal, if the CPU nice is negative) needs "
			"CAP_SYS_NICE or RLIMIT_NICE; see gpunice(1)"));
	else if (error == EPERM && GPUPRIO_PRIO_CLASS(prio) == GPUPRIO_CLASS_RT)
		warnx(_("the realtime class needs CAP_SYS_NICE; "
			"see gpunice(1)"));
	else if (error == EPERM)
		warnx(_("changing another user's processes needs "
			"CAP_SYS_NICE; see gpunice(1)"));
}

/* Set one target and report old and new, as renice(1) does. */
static int set_one(const struct gpunice_ctl *ctl, int who, int prio)
{
	enum target_kind kind = ctl->kind;
	char old[DESC_LEN], new[DESC_LEN];
	const char *what = kinds[kind].name;
	pid_t bad = who;
	int ret;

	if (get_prio(kind, who, old, sizeof(old))) {
		if (!ctl->ignore)
			warn(_("failed to get GPU priority of %d (%s)"), who,
			     _(what));
		return -1;
	}

	if (kind == TARGET_PID) {
		ret = set_process_pidfd(who, prio);
		if (ret > 0)
			ret = set_all_threads(who, prio, &bad);
	} else
		ret = gpuprio_set(kinds[kind].which, who, prio);
	if (ret) {
		if (bad != who)
			what = kinds[TARGET_TID].name;
		if (!ctl->ignore) {
			int error = errno;

			warn(_("failed to set GPU priority of %d (%s)"),
			     (int)bad, _(what));
			explain_refusal(error, prio);
		}
		return -1;
	}

	if (get_prio(kind, who, new, sizeof(new)))
		snprintf(new, sizeof(new), _("unknown"));
	printf(_("%d (%s) old GPU priority %s, new %s\n"), who,
	       _(what), old, new);
	return 0;
}

/* Set our own priority, which the command keeps across execve(2). */
static void __attribute__((__noreturn__))
run_command(const struct gpunice_ctl *ctl, int prio, char **argv)
{
	if (gpuprio_set(GPUPRIO_WHO_PROCESS, 0, prio) && !ctl->ignore) {
		int error = errno;

		/* Our own pid means nothing to the user: name the command. */
		warn(_("failed to set GPU priority for %s"), argv[0]);
		explain_refusal(error, prio);
		exit(EXIT_FAILURE);
	}

	execvp(argv[0], argv);
	err(errno == ENOENT ? EXIT_EXEC_ENOENT : EXIT_EXEC_FAILED,
	    _("failed to execute %s"), argv[0]);
}

/*
 * --ask: the broker raises only threads of the process that asks, so
 * gpunice asks for its own thread, which becomes the command's main
 * thread at execve(2) and keeps the value (its children inherit it).
 */
static void __attribute__((__noreturn__))
ask_and_run(const struct gpunice_ctl *ctl, int prio, char **argv)
{
#ifdef GPUNICE_BROKER
	char why[512];
	int r = gpuprio_broker_raise(0, prio, why, sizeof(why));

	if (r && !ctl->ignore)
		errx(EXIT_FAILURE, _("gpuprio-broker refused to raise %s: %s"),
		     argv[0], why);
	if (r)
		warnx(_("gpuprio-broker refused, running %s unraised: %s"),
		      argv[0], why);
	execvp(argv[0], argv);
	err(errno == ENOENT ? EXIT_EXEC_ENOENT : EXIT_EXEC_FAILED,
	    _("failed to execute %s"), argv[0]);
#else
	(void)ctl;
	(void)prio;
	(void)argv;
	errx(EXIT_FAILURE, _("--ask: this gpunice was built without "
			     "gpuprio-broker support (libsystemd)"));
#endif
}

/* What --ask can do, checked before anything is asked or run. */
static void check_ask(const struct gpunice_ctl *ctl, int prio,
		      int have_command)
{
	int class = GPUPRIO_PRIO_CLASS(prio);

	if (ctl->kind != TARGET_SELF)
		bad_usage(_("--ask takes no --pid, --pgrp or --user: the "
			    "broker raises only threads of the process that "
			    "asks; run the command under gpunice --ask, or "
			    "have it call gpuprio_broker_raise()"));
	if (!have_command)
		bad_usage(_("--ask needs a command to run"));
	if (ctl->class < 0 && !ctl->nice_arg)
		bad_usage(_("--ask needs --nice (a negative one) or --class "
			    "realtime"));
	if (!(class == GPUPRIO_CLASS_RT ||
	      (class == GPUPRIO_CLASS_BE && GPUPRIO_TO_NICE(prio) < 0)))
		bad_usage(_("--ask raises only: give a negative --nice or "
			    "--class realtime (lowering needs no broker)"));
}

static void set_kind(struct gpunice_ctl *ctl, enum target_kind kind,
		     const char *id)
{
	if (ctl->kind != TARGET_SELF && ctl->kind != kind)
		bad_usage(_("can handle only one of --pid, --pgrp or --user "
			    "at once"));
	ctl->kind = kind;
	ctl->ids[ctl->nids++] = id;
}

static void parse_options(struct gpunice_ctl *ctl, int argc, char **argv)
{
	enum { OPT_THREAD = CHAR_MAX + 1, OPT_ALL, OPT_ASK };
	static const struct option longopts[] = {
		{ "class",   required_argument, NULL, 'c' },
		{ "nice",    required_argument, NULL, 'n' },
		{ "pid",     required_argument, NULL, 'p' },
		{ "thread",  no_argument,       NULL, OPT_THREAD },
		{ "pgrp",    required_argument, NULL, 'g' },
		{ "pgid",    required_argument, NULL, 'g' },	/* ionice(1) */
		{ "user",    required_argument, NULL, 'u' },
		{ "uid",     required_argument, NULL, 'u' },	/* ionice(1) */
		{ "ignore",  no_argument,       NULL, 't' },
		{ "list",    no_argument,       NULL, 'l' },
		{ "all",     no_argument,       NULL, OPT_ALL },
		{ "ask",     no_argument,       NULL, OPT_ASK },
		{ "help",    no_argument,       NULL, 'h' },
		{ "version", no_argument,       NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	/* "+": options end at the command, whose own options are its own. */
	while ((c = getopt_long(argc, argv, "+c:n:p:P:g:u:tlhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			ctl->class = parse_class(optarg);
			if (ctl->class < 0)
				bad_usage(_("unknown class: '%s'"), optarg);
			break;
		case 'n':
			ctl->nice_arg = optarg;
			break;
		case 'p':
			set_kind(ctl, TARGET_PID, optarg);
			break;
		case OPT_THREAD:
			ctl->thread_only = 1;
			break;
		case 'g':
		case 'P':
			set_kind(ctl, TARGET_PGRP, optarg);
			break;
		case 'u':
			set_kind(ctl, TARGET_USER, optarg);
			break;
		case 't':
			ctl->ignore = 1;
			break;
		case 'l':
			ctl->list = 1;
			break;
		case OPT_ALL:
			ctl->list_all = 1;
			break;
		case OPT_ASK:
			ctl->ask = 1;
			break;
		case 'h':
			usage();
		case 'V':
			print_version();
		default:
			errtryhelp();
		}
	}

	if (ctl->list_all && !ctl->list)
		bad_usage(_("--all requires --list"));
	if (ctl->list && (ctl->kind != TARGET_SELF || ctl->class >= 0 ||
			  ctl->nice_arg || optind < argc))
		bad_usage(_("--list takes no command, target, class or "
			    "nice"));

	if (ctl->thread_only) {
		if (ctl->kind != TARGET_PID)
			bad_usage(_("--thread requires --pid"));
		ctl->kind = TARGET_TID;
	}
}

int main(int argc, char **argv)
{
	struct gpunice_ctl ctl = { .class = -1, .kind = TARGET_SELF };
	int have_command, prio, i, rc = EXIT_SUCCESS;

#ifdef ENABLE_NLS
	setlocale(LC_ALL, "");
	bindtextdomain("gpunice", LOCALEDIR);
	textdomain("gpunice");
#endif
	atexit(close_stdout);

	/* Every argument may be an ID: argc entries always suffice. */
	ctl.ids = calloc(argc, sizeof(*ctl.ids));
	ctl.who = calloc(argc, sizeof(*ctl.who));
	if (!ctl.ids || !ctl.who)
		err(EXIT_FAILURE, _("cannot allocate memory"));

	parse_options(&ctl, argc, argv);
	argc -= optind;
	argv += optind;

	have_command = ctl.kind == TARGET_SELF && argc > 0;
	if (ctl.kind != TARGET_SELF)
		for (i = 0; i < argc; i++)
			ctl.ids[ctl.nids++] = argv[i];

	/* With --ask, a target is refused, not taken for a command. */
	if (ctl.ask && ctl.kind != TARGET_SELF)
		check_ask(&ctl, 0, 0);
	prio = build_prio(&ctl, have_command);
	if (ctl.ask)
		check_ask(&ctl, prio, have_command);
	if (prio >= 0 && ctl.kind == TARGET_SELF && !have_command)
		bad_usage(_("no command, --pid, --pgrp or --user given"));

	for (i = 0; i < ctl.nids; i++)
		ctl.who[i] = resolve_id(ctl.kind, ctl.ids[i]);

	/*
	 * Only now may a syscall be issued, and only if the kernel says which
	 * numbers it gives the calls: they differ between kernel lines, and
	 * on other kernels the same numbers belong to other calls.
	 */
	if (!gpuprio_supported()) {
		if (ctl.ignore && have_command)
			run_command(&ctl, prio, argv);
		if (ctl.ignore && prio >= 0)
			return EXIT_SUCCESS;
		errx(EXIT_FAILURE, "%s%s%s%s",
		     _("this kernel has no GPU priority support "
		       "(CONFIG_GPUPRIO): "),
		     access(GPUPRIO_SYSCALLS_PATH, R_OK) ?
		     _("cannot read ") : _("no system call numbers in "),
		     GPUPRIO_SYSCALLS_PATH,
		     have_command ? _("; -t runs the command without it") :
		     "");
	}

	if (have_command && ctl.ask)
		ask_and_run(&ctl, prio, argv);
	if (have_command)
		run_command(&ctl, prio, argv);

	if (ctl.list)
		return list_tasks(ctl.list_all) ? EXIT_FAILURE : EXIT_SUCCESS;

	if (ctl.kind == TARGET_SELF)
		return show_one(TARGET_SELF, 0) ? EXIT_FAILURE : EXIT_SUCCESS;

	for (i = 0; i < ctl.nids; i++) {
		if (prio < 0 ? show_one(ctl.kind, ctl.who[i])
			     : set_one(&ctl, ctl.who[i], prio))
			rc = EXIT_FAILURE;
	}
	/* As ionice(1): with --ignore, failing to set is not an error. */
	if (ctl.ignore && prio >= 0)
		rc = EXIT_SUCCESS;
	return rc;
}
