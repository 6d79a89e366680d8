/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gpuprio-broker: what its parts share.
 *
 * main.c     options, privileges, the event loop
 * bus.c      the D-Bus object org.gpunice.Broker1 and its methods
 * policy.c   who may ask: ownership of the thread, limits, polkit
 * raised.c   the threads the broker raised, and putting them back
 * watchdog.c demoting everything when a raised client holds the GPU
 */
#ifndef GPUPRIO_BROKER_H
#define GPUPRIO_BROKER_H

#include <stdint.h>
#include <sys/types.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#define BROKER_BUS_NAME		"org.gpunice.Broker1"
#define BROKER_OBJECT_PATH	"/org/gpunice/Broker1"
#define BROKER_INTERFACE	"org.gpunice.Broker1"

/* The refusals, each a D-Bus error name of its own (gpuprio-broker(8)). */
#define BROKER_ERR		BROKER_INTERFACE ".Error."
#define BROKER_ERR_NOT_OWN	BROKER_ERR "NotOwnThread"
#define BROKER_ERR_NOT_AUTH	BROKER_ERR "NotAuthorized"
#define BROKER_ERR_CEILING	BROKER_ERR "AboveCeiling"
#define BROKER_ERR_TOO_MANY	BROKER_ERR "TooManyThreads"
#define BROKER_ERR_RATE		BROKER_ERR "RateLimited"
#define BROKER_ERR_NOT_RAISED	BROKER_ERR "NotRaised"
#define BROKER_ERR_DEMOTED	BROKER_ERR "Demoted"
#define BROKER_ERR_NO_SUPPORT	BROKER_ERR "NotSupported"
#define BROKER_ERR_GONE		BROKER_ERR "ThreadGone"
#define BROKER_ERR_FAILED	BROKER_ERR "Failed"

#define POLKIT_ACTION_HIGH	"org.gpunice.broker.raise-high"
#define POLKIT_ACTION_RT	"org.gpunice.broker.raise-realtime"

struct broker_config {
	int nice_ceiling;		/* highest grant: nice N (-20..-1) */
	int rt_ceiling;			/* highest grant: realtime level L */
	unsigned int max_threads;	/* raised threads per user at once */
	unsigned int rate_burst;	/* requests per user ... */
	uint64_t rate_interval_ms;	/* ... per this interval */
	uint64_t wd_window_ms;		/* the watchdog's sample window */
	unsigned int wd_busy_percent;	/* busier than this: a hog */
	uint64_t wd_period_ms;		/* how often it samples */
	int no_polkit;			/* --no-polkit: tests only */
};

extern struct broker_config cfg;

/* A thread the broker raised. */
struct raised {
	struct raised *next;
	int pidfd;		/* the caller's, duplicated: names the thread */
	pid_t tid;		/* as the broker's pid namespace sees it */
	pid_t tgid;
	uid_t uid;
	int old_prio;		/* what it had: put back on Drop or demotion */
	int new_prio;
};

/* policy.c */
int policy_thread_of(int pidfd, pid_t *tid, pid_t *tgid);
int policy_check_owner(int pidfd, pid_t caller_pid, pid_t *tid,
		       pid_t *tgid, sd_bus_error *error);
int policy_check_request(uid_t uid, int prio, const struct raised *existing,
			 sd_bus_error *error);
int policy_rate(uid_t uid, sd_bus_error *error);
int policy_authorize(sd_bus *bus, sd_bus_message *call, int prio,
		     sd_bus_message_handler_t done, void *userdata);
void policy_forget_demoted(void);
void policy_mark_demoted(pid_t tgid);
int policy_was_demoted(pid_t tgid, sd_bus_error *error);

/* raised.c */
struct raised *raised_find(pid_t tid);
unsigned int raised_count(uid_t uid);
struct raised *raised_first(void);
int raised_add(int pidfd, pid_t tid, pid_t tgid, uid_t uid, int old_prio,
	       int new_prio);
int raised_drop(struct raised *r);
void raised_prune(void);
unsigned int raised_demote_all(const char *why);

/* watchdog.c */
int watchdog_start(sd_event *event);

/* bus.c */
int bus_start(sd_bus *bus);

/* main.c: with CAP_SYS_PTRACE raised in the effective set (fdinfo) */
int with_ptrace_cap(int on);

#endif
