// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Who may ask the broker for what: the thread must be the caller's own,
 * the value within the ceilings, the user within the rate limit and the
 * count of raised threads, and polkit must agree.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "broker.h"
#include "gpuprio.h"

/* PIDFD_THREAD is O_EXCL (Linux 6.9); older headers lack the name. */
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The number after "@key" at the start of a line of @path, or -1 on error. */
static int read_key(const char *path, const char *key, long *val)
{
	char line[256];
	size_t klen = strlen(key);
	FILE *f = fopen(path, "re");
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *end;

		if (strncmp(line, key, klen))
			continue;
		errno = 0;
		*val = strtol(line + klen, &end, 10);
		if (!errno && end != line + klen)
			ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/*
 * The thread a pidfd names, and its process. The pidfd's fdinfo gives the
 * thread ID in our pid namespace ("Pid:", -1 once it exited); the thread's
 * status gives its process. A thread ID may be reused once its thread
 * exited, so the pidfd is read again after the status: if the thread is
 * still alive then, the status read was its own.
 * Returns 0, or -ESRCH (exited), -EBADF (not a pidfd), -errno.
 */
int policy_thread_of(int pidfd, pid_t *tid, pid_t *tgid)
{
	char path[64];
	long pid, again, group;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	if (read_key(path, "Pid:", &pid))
		return -EBADF;
	if (pid <= 0)
		return -ESRCH;	/* -1: exited; 0: outside our namespace */
	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	if (read_key(path, "Tgid:", &group))
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	if (read_key(path, "Pid:", &again) || again != pid)
		return -ESRCH;
	*tid = (pid_t)pid;
	*tgid = (pid_t)group;
	return 0;
}

/*
 * The heart of the broker's safety: it holds CAP_SYS_NICE, so the kernel
 * would let it raise any thread; it must raise only a thread of the
 * process that asks (the bus tells which one that is), never another
 * process, not even one of the same user.
 */
int policy_check_owner(int pidfd, pid_t caller_pid, pid_t *tid, pid_t *tgid,
		       sd_bus_error *error)
{
	int flags, r;

	flags = fcntl(pidfd, F_GETFL);
	if (flags < 0)
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					 "the file descriptor passed is not "
					 "open: %m");
	r = policy_thread_of(pidfd, tid, tgid);
	if (r == -EBADF)
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					 "the file descriptor passed is not "
					 "a pidfd (pidfd_open(2))");
	if (r < 0)
		return sd_bus_error_setf(error, BROKER_ERR_GONE,
					 "the thread of the pidfd has exited");
	/* A process pidfd would make gpuprio_set() change every thread. */
	if (!(flags & PIDFD_THREAD))
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					 "the pidfd names a process, not a "
					 "thread: open it with "
					 "pidfd_open(tid, PIDFD_THREAD)");
	if (*tgid != caller_pid)
		return sd_bus_error_setf(error, BROKER_ERR_NOT_OWN,
					 "thread %d belongs to process %d, "
					 "not to the caller's process %d: the "
					 "broker raises only the caller's own "
					 "threads", (int)*tid, (int)*tgid,
					 (int)caller_pid);
	return 0;
}

/* The value asked for, within the ceilings and the count of threads. */
int policy_check_request(uid_t uid, int prio, const struct raised *existing,
			 sd_bus_error *error)
{
	int class = GPUPRIO_PRIO_CLASS(prio);
	int data = GPUPRIO_PRIO_DATA(prio);

	if (class == GPUPRIO_CLASS_BE) {
		int nice = GPUPRIO_TO_NICE(prio);

		if (nice < -20 || nice > -1)
			return sd_bus_error_setf(error,
						 SD_BUS_ERROR_INVALID_ARGS,
						 "nice %d is not a raise: "
						 "RaiseHigh takes -20 to -1 "
						 "(gpunice lowers without the "
						 "broker)", nice);
		if (nice < cfg.nice_ceiling)
			return sd_bus_error_setf(error, BROKER_ERR_CEILING,
						 "nice %d is above this broker's "
						 "ceiling, nice %d", nice,
						 cfg.nice_ceiling);
	} else if (class == GPUPRIO_CLASS_RT) {
		if (data >= GPUPRIO_RT_LEVELS)
			return sd_bus_error_setf(error,
						 SD_BUS_ERROR_INVALID_ARGS,
						 "realtime level %d is not 0 "
						 "to %d", data,
						 GPUPRIO_RT_LEVELS - 1);
		if (data < cfg.rt_ceiling)
			return sd_bus_error_setf(error, BROKER_ERR_CEILING,
						 "realtime level %d is above "
						 "this broker's ceiling, level "
						 "%d", data, cfg.rt_ceiling);
	} else {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					 "class %d is not a raise", class);
	}
	/* Raising a thread again changes its value, not the count. */
	if (!existing && raised_count(uid) >= cfg.max_threads)
		return sd_bus_error_setf(error, BROKER_ERR_TOO_MANY,
					 "user %u already has %u raised "
					 "threads, the most this broker grants "
					 "(drop one first)", (unsigned int)uid,
					 cfg.max_threads);
	return 0;
}

/*
 * Per user: at most rate_burst requests in rate_interval_ms, counted from
 * the first of the interval, as RealtimeKit counts its actions. Every
 * request counts, granted or not, so that asking in a loop is no way to
 * probe or to load polkit.
 */
struct rate {
	struct rate *next;
	uid_t uid;
	uint64_t start;
	unsigned int count;
};

static struct rate *rates;

int policy_rate(uid_t uid, sd_bus_error *error)
{
	uint64_t now = now_ms();
	struct rate *r;

	for (r = rates; r; r = r->next)
		if (r->uid == uid)
			break;
	if (!r) {
		r = calloc(1, sizeof(*r));
		if (!r)
			return sd_bus_error_set_errno(error, ENOMEM);
		r->uid = uid;
		r->start = now;
		r->next = rates;
		rates = r;
	}
	if (now - r->start >= cfg.rate_interval_ms) {
		r->start = now;
		r->count = 0;
	}
	if (++r->count > cfg.rate_burst)
		return sd_bus_error_setf(error, BROKER_ERR_RATE,
					 "user %u asked more than %u times in "
					 "%llu ms; try again in %llu ms",
					 (unsigned int)uid, cfg.rate_burst,
					 (unsigned long long)cfg.rate_interval_ms,
					 (unsigned long long)(r->start +
					 cfg.rate_interval_ms - now));
	return 0;
}

/*
 * The processes the watchdog demoted, each by a pidfd of its own so that
 * a later process with a reused ID is not held to account. They get no
 * raise again while they live.
 */
struct demoted {
	struct demoted *next;
	int pidfd;
};

static struct demoted *demoted;

void policy_mark_demoted(pid_t tgid)
{
	struct demoted *d;
	int fd = (int)syscall(__NR_pidfd_open, tgid, 0U);

	if (fd < 0)
		return;		/* gone already: nothing to hold */
	d = calloc(1, sizeof(*d));
	if (!d) {
		close(fd);
		return;
	}
	d->pidfd = fd;
	d->next = demoted;
	demoted = d;
}

void policy_forget_demoted(void)
{
	struct demoted **p = &demoted;

	while (*p) {
		struct demoted *d = *p;
		pid_t tid, tgid;

		if (policy_thread_of(d->pidfd, &tid, &tgid) == 0) {
			p = &d->next;
			continue;
		}
		*p = d->next;
		close(d->pidfd);
		free(d);
	}
}

int policy_was_demoted(pid_t tgid, sd_bus_error *error)
{
	struct demoted *d;

	for (d = demoted; d; d = d->next) {
		pid_t tid, group;

		if (policy_thread_of(d->pidfd, &tid, &group) == 0 &&
		    tid == tgid)
			return sd_bus_error_setf(error, BROKER_ERR_DEMOTED,
						 "process %d kept the GPU busy "
						 "and was demoted by the "
						 "watchdog: no more raises for "
						 "it", (int)tgid);
	}
	return 0;
}

/*
 * Ask polkit, without waiting for it: an administrator's password may
 * take a while, and the watchdog must keep running meanwhile. The subject
 * is the caller's bus name, which polkit resolves to its process and user
 * through the bus itself.
 */
int policy_authorize(sd_bus *bus, sd_bus_message *call, int prio,
		     sd_bus_message_handler_t done, void *userdata)
{
	const char *action = GPUPRIO_PRIO_CLASS(prio) == GPUPRIO_CLASS_RT ?
			     POLKIT_ACTION_RT : POLKIT_ACTION_HIGH;
	sd_bus_message *m = NULL;
	/* CheckAuthorizationFlags.AllowUserInteraction */
	uint32_t flags = sd_bus_message_get_allow_interactive_authorization(call)
			 > 0 ? 1 : 0;
	int r;

	r = sd_bus_message_new_method_call(bus, &m,
					   "org.freedesktop.PolicyKit1",
					   "/org/freedesktop/PolicyKit1/Authority",
					   "org.freedesktop.PolicyKit1.Authority",
					   "CheckAuthorization");
	if (r < 0)
		return r;
	r = sd_bus_message_append(m, "(sa{sv})sa{ss}us", "system-bus-name", 1,
				  "name", "s", sd_bus_message_get_sender(call),
				  action, 0, flags, "");
	if (r >= 0)
		/* An interactive check waits for a person: give it time. */
		r = sd_bus_call_async(bus, NULL, m, done, userdata,
				      flags ? 120 * 1000000ULL : 0);
	sd_bus_message_unref(m);
	return r;
}
