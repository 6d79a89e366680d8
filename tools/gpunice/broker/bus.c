// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The broker's D-Bus object: RaiseHigh, RaiseRealtime and Drop, and the
 * limits as properties (gpuprio-broker(8) documents the interface).
 *
 * A request goes: the arguments, the caller's own thread, the rate limit,
 * the demotion record, the ceilings, then polkit (asynchronous), then the
 * ceilings again (other requests may have been granted meanwhile), then
 * the kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker.h"
#include "gpuprio.h"

struct pending {
	sd_bus_message *call;
	int pidfd;		/* our duplicate of the caller's */
	pid_t tid, tgid;
	uid_t uid;
	int prio;
};

static void pending_free(struct pending *p)
{
	if (p->pidfd >= 0)
		close(p->pidfd);
	sd_bus_message_unref(p->call);
	free(p);
}

/* Who is calling, as the bus daemon vouches for it. */
static int caller(sd_bus_message *m, pid_t *pid, uid_t *uid,
		  sd_bus_error *error)
{
	sd_bus_creds *creds = NULL;
	int r;

	r = sd_bus_query_sender_creds(m, SD_BUS_CREDS_PID | SD_BUS_CREDS_EUID,
				      &creds);
	if (r >= 0)
		r = sd_bus_creds_get_pid(creds, pid);
	if (r >= 0)
		r = sd_bus_creds_get_euid(creds, uid);
	sd_bus_creds_unref(creds);
	if (r < 0)
		return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
					 "the bus does not say which process "
					 "is calling: %s", strerror(-r));
	return 0;
}

/* Set the value; the thread is the caller's and every check passed. */
static int grant(struct pending *p, sd_bus_error *error)
{
	struct raised *existing = raised_find(p->tid);
	int old, r;

	r = policy_check_request(p->uid, p->prio, existing, error);
	if (r < 0)
		return r;
	old = existing ? existing->old_prio :
		gpuprio_get(GPUPRIO_WHO_PIDFD, p->pidfd);
	if (old < 0 || gpuprio_set(GPUPRIO_WHO_PIDFD, p->pidfd, p->prio)) {
		if (errno == ESRCH)
			return sd_bus_error_setf(error, BROKER_ERR_GONE,
						 "the thread of the pidfd has "
						 "exited");
		return sd_bus_error_setf(error, BROKER_ERR_FAILED,
					 "gpuprio_set: %m");
	}
	if (existing) {
		existing->new_prio = p->prio;
		return 0;
	}
	r = raised_add(p->pidfd, p->tid, p->tgid, p->uid, old, p->prio);
	if (r < 0) {
		/* Untracked, it must not stay raised. */
		gpuprio_set(GPUPRIO_WHO_PIDFD, p->pidfd, old);
		return sd_bus_error_set_errno(error, -r);
	}
	p->pidfd = -1;	/* the list holds it now */
	fprintf(stderr, "gpuprio-broker: raised thread %d of process %d "
		"(uid %u) to 0x%x\n", (int)p->tid, (int)p->tgid,
		(unsigned int)p->uid, (unsigned int)p->prio);
	return 0;
}

static int on_polkit(sd_bus_message *reply, void *userdata,
		     sd_bus_error *ret_error)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	struct pending *p = userdata;
	int yes = 0, challenge = 0, r;

	(void)ret_error;
	if (sd_bus_message_is_method_error(reply, NULL)) {
		const sd_bus_error *e = sd_bus_message_get_error(reply);

		sd_bus_error_setf(&error, BROKER_ERR_NOT_AUTH,
				  "polkit did not answer: %s: %s", e->name,
				  e->message ? e->message : "");
		goto reply;
	}
	/* (bba{ss}): is_authorized, is_challenge, details (unused) */
	r = sd_bus_message_enter_container(reply, 'r', "bba{ss}");
	if (r >= 0)
		r = sd_bus_message_read(reply, "bb", &yes, &challenge);
	if (r < 0) {
		sd_bus_error_setf(&error, BROKER_ERR_NOT_AUTH,
				  "polkit's answer cannot be read: %s",
				  strerror(-r));
		goto reply;
	}
	if (!yes) {
		const char *action = GPUPRIO_PRIO_CLASS(p->prio) ==
			GPUPRIO_CLASS_RT ? POLKIT_ACTION_RT : POLKIT_ACTION_HIGH;

		sd_bus_error_setf(&error, BROKER_ERR_NOT_AUTH,
				  "polkit does not allow %s to user %u%s",
				  action, (unsigned int)p->uid, challenge ?
				  " without authentication (ask with "
				  "interactive authorization allowed)" : "");
		goto reply;
	}
	grant(p, &error);
reply:
	if (sd_bus_error_is_set(&error))
		sd_bus_reply_method_error(p->call, &error);
	else
		sd_bus_reply_method_return(p->call, NULL);
	sd_bus_error_free(&error);
	pending_free(p);
	return 0;
}

static int raise_common(sd_bus_message *m, int fd, int prio,
			sd_bus_error *error)
{
	struct pending *p;
	pid_t pid;
	uid_t uid;
	int r;

	if (!gpuprio_supported())
		return sd_bus_error_setf(error, BROKER_ERR_NO_SUPPORT,
					 "this kernel has no GPU priorities "
					 "(no /proc/sys/kernel/"
					 "gpuprio_syscalls)");
	r = caller(m, &pid, &uid, error);
	if (r < 0)
		return r;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->prio = prio;
	p->uid = uid;
	/* The message's descriptor goes with the message: keep our own. */
	p->pidfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (p->pidfd < 0) {
		r = sd_bus_error_set_errno(error, errno);
		goto fail;
	}
	r = policy_check_owner(p->pidfd, pid, &p->tid, &p->tgid, error);
	if (r < 0)
		goto fail;
	r = policy_rate(uid, error);
	if (r < 0)
		goto fail;
	r = policy_was_demoted(p->tgid, error);
	if (r < 0)
		goto fail;
	/* Threads that exited since the watchdog's last look count no more. */
	raised_prune();
	r = policy_check_request(uid, prio, raised_find(p->tid), error);
	if (r < 0)
		goto fail;
	p->call = sd_bus_message_ref(m);
	r = policy_authorize(sd_bus_message_get_bus(m), m, prio, on_polkit, p);
	if (r < 0) {
		r = sd_bus_error_setf(error, BROKER_ERR_NOT_AUTH,
				      "cannot ask polkit: %s", strerror(-r));
		goto fail;
	}
	return 1;	/* answered when polkit has */
fail:
	pending_free(p);
	return r;
}

static int method_raise_high(sd_bus_message *m, void *userdata,
			     sd_bus_error *error)
{
	int fd, nice, r;

	(void)userdata;
	r = sd_bus_message_read(m, "hi", &fd, &nice);
	if (r < 0)
		return r;
	if (nice < -20 || nice > -1)
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					 "nice %d is not a raise: RaiseHigh "
					 "takes -20 to -1", nice);
	return raise_common(m, fd, GPUPRIO_BE_NICE(nice), error);
}

static int method_raise_rt(sd_bus_message *m, void *userdata,
			   sd_bus_error *error)
{
	uint32_t level;
	int fd, r;

	(void)userdata;
	r = sd_bus_message_read(m, "hu", &fd, &level);
	if (r < 0)
		return r;
	if (level >= GPUPRIO_RT_LEVELS)
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					 "realtime level %u is not 0 to %d",
					 level, GPUPRIO_RT_LEVELS - 1);
	return raise_common(m, fd,
			    GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, (int)level),
			    error);
}

/* Put back what the thread had before the broker raised it. */
static int method_drop(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
	struct raised *raised;
	pid_t pid, tid, tgid;
	uid_t uid;
	int fd, r;

	(void)userdata;
	r = sd_bus_message_read(m, "h", &fd);
	if (r < 0)
		return r;
	r = caller(m, &pid, &uid, error);
	if (r < 0)
		return r;
	r = policy_check_owner(fd, pid, &tid, &tgid, error);
	if (r < 0)
		return r;
	raised = raised_find(tid);
	if (!raised)
		return sd_bus_error_setf(error, BROKER_ERR_NOT_RAISED,
					 "thread %d was not raised by the "
					 "broker (or the watchdog demoted it)",
					 (int)tid);
	r = raised_drop(raised);
	if (r < 0)
		return sd_bus_error_setf(error, BROKER_ERR_FAILED,
					 "gpuprio_set: %s", strerror(-r));
	return sd_bus_reply_method_return(m, NULL);
}

static int prop_u(sd_bus *bus, const char *path, const char *iface,
		  const char *prop, sd_bus_message *reply, void *userdata,
		  sd_bus_error *error)
{
	(void)bus; (void)path; (void)iface; (void)prop; (void)error;
	return sd_bus_message_append(reply, "u", *(unsigned int *)userdata);
}

static int prop_i(sd_bus *bus, const char *path, const char *iface,
		  const char *prop, sd_bus_message *reply, void *userdata,
		  sd_bus_error *error)
{
	(void)bus; (void)path; (void)iface; (void)prop; (void)error;
	return sd_bus_message_append(reply, "i", *(int *)userdata);
}

static int prop_t(sd_bus *bus, const char *path, const char *iface,
		  const char *prop, sd_bus_message *reply, void *userdata,
		  sd_bus_error *error)
{
	(void)bus; (void)path; (void)iface; (void)prop; (void)error;
	return sd_bus_message_append(reply, "t", *(uint64_t *)userdata);
}

static int prop_bound(sd_bus *bus, const char *path, const char *iface,
		      const char *prop, sd_bus_message *reply, void *userdata,
		      sd_bus_error *error)
{
	(void)bus; (void)path; (void)iface; (void)prop; (void)error;
	(void)userdata;
	return sd_bus_message_append(reply, "t", (uint64_t)(cfg.wd_window_ms +
				     2 * cfg.wd_period_ms));
}

static const sd_bus_vtable broker_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_NAMES("RaiseHigh", "hi", SD_BUS_PARAM(thread)
				 SD_BUS_PARAM(nice), "", , method_raise_high,
				 SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("RaiseRealtime", "hu", SD_BUS_PARAM(thread)
				 SD_BUS_PARAM(level), "", , method_raise_rt,
				 SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("Drop", "h", SD_BUS_PARAM(thread), "", ,
				 method_drop, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_PROPERTY("NiceCeiling", "i", prop_i,
			offsetof(struct broker_config, nice_ceiling),
			SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("RealtimeCeiling", "u", prop_u,
			offsetof(struct broker_config, rt_ceiling),
			SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("MaxThreadsPerUser", "u", prop_u,
			offsetof(struct broker_config, max_threads),
			SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("RateLimitBurst", "u", prop_u,
			offsetof(struct broker_config, rate_burst),
			SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("RateLimitIntervalMSec", "t", prop_t,
			offsetof(struct broker_config, rate_interval_ms),
			SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("WatchdogBusyPercent", "u", prop_u,
			offsetof(struct broker_config, wd_busy_percent),
			SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("WatchdogBoundMSec", "t", prop_bound, 0,
			SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_VTABLE_END
};

int bus_start(sd_bus *bus)
{
	int r;

	/* Each property's getter gets &cfg plus its field's offset. */
	r = sd_bus_add_object_vtable(bus, NULL, BROKER_OBJECT_PATH,
				     BROKER_INTERFACE, broker_vtable, &cfg);
	if (r < 0)
		return r;
	return sd_bus_request_name(bus, BROKER_BUS_NAME, 0);
}
