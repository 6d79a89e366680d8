/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gpuprio-broker.h - ask gpuprio-broker(8) to raise a thread's GPU priority
 *
 * The drivers' high band needs CAP_SYS_NICE, which a desktop program does
 * not have: the broker has it, and raises a thread of the process that
 * asks, within its limits and on polkit's word. Include this header after
 * (or instead of) <gpuprio.h> and link with -lsystemd (sd-bus):
 *
 *	char why[256];
 *	int err = gpuprio_broker_raise(0, GPUPRIO_BE_NICE(-10), why,
 *				       sizeof(why));
 *	if (err)
 *		fprintf(stderr, "no raise: %s\n", why);
 *
 * Each function returns 0, or a negative errno with the broker's reason
 * in @why (when not NULL): -EACCES polkit said no, -EPERM not a thread of
 * the caller's process, -ERANGE above the broker's ceiling, -EDQUOT too
 * many raised threads, -EBUSY the rate limit, -ECANCELED the watchdog
 * demoted this process, -ESRCH the thread exited, -ENOENT (drop) not
 * raised, -ENOSYS no GPU priorities in the kernel, -ENOTCONN no broker on
 * the system bus. See gpuprio_broker_raise(3) in gpuprio(3) and
 * gpuprio-broker(8).
 */
#ifndef _GPUPRIO_BROKER_H
#define _GPUPRIO_BROKER_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <systemd/sd-bus.h>

#include "gpuprio.h"

#ifndef GPUPRIO_PIDFD_THREAD
#define GPUPRIO_PIDFD_THREAD	O_EXCL	/* PIDFD_THREAD, Linux 6.9 */
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The broker's refusals, as errno values (in the order of the header). */
static inline int gpuprio_broker_errno_(const sd_bus_error *e)
{
	static const struct {
		const char *name;
		int err;
	} map[] = {
		{ "org.gpunice.Broker1.Error.NotAuthorized", EACCES },
		{ "org.gpunice.Broker1.Error.NotOwnThread", EPERM },
		{ "org.gpunice.Broker1.Error.AboveCeiling", ERANGE },
		{ "org.gpunice.Broker1.Error.TooManyThreads", EDQUOT },
		{ "org.gpunice.Broker1.Error.RateLimited", EBUSY },
		{ "org.gpunice.Broker1.Error.Demoted", ECANCELED },
		{ "org.gpunice.Broker1.Error.ThreadGone", ESRCH },
		{ "org.gpunice.Broker1.Error.NotRaised", ENOENT },
		{ "org.gpunice.Broker1.Error.NotSupported", ENOSYS },
		{ "org.freedesktop.DBus.Error.ServiceUnknown", ENOTCONN },
		{ "org.freedesktop.DBus.Error.NameHasNoOwner", ENOTCONN },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (sd_bus_error_has_name(e, map[i].name))
			return map[i].err;
	i = (size_t)sd_bus_error_get_errno(e);
	return i ? (int)i : EIO;
}

/*
 * gpuprio_broker_call_ - one method call on the system bus's broker
 * @method: "RaiseHigh" (@arg: nice), "RaiseRealtime" (@arg: level) or
 *	    "Drop" (@arg unused)
 */
static inline int gpuprio_broker_call_(const char *method, int pidfd, int arg,
				       char *why, size_t len)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	sd_bus *bus = NULL;
	int r;

	if (why && len)
		why[0] = '\0';
	r = sd_bus_open_system(&bus);
	if (r < 0) {
		if (why && len)
			snprintf(why, len, "cannot connect to the system bus: "
				 "%s", strerror(-r));
		return r;
	}
	/* Realtime may need an administrator's password: let polkit ask. */
	sd_bus_set_allow_interactive_authorization(bus, 1);
	if (!strcmp(method, "Drop"))
		r = sd_bus_call_method(bus, "org.gpunice.Broker1",
				       "/org/gpunice/Broker1",
				       "org.gpunice.Broker1", method, &error,
				       &reply, "h", pidfd);
	else if (!strcmp(method, "RaiseHigh"))
		r = sd_bus_call_method(bus, "org.gpunice.Broker1",
				       "/org/gpunice/Broker1",
				       "org.gpunice.Broker1", method, &error,
				       &reply, "hi", pidfd, arg);
	else
		r = sd_bus_call_method(bus, "org.gpunice.Broker1",
				       "/org/gpunice/Broker1",
				       "org.gpunice.Broker1", method, &error,
				       &reply, "hu", pidfd, (unsigned int)arg);
	if (r < 0) {
		if (sd_bus_error_is_set(&error)) {
			r = -gpuprio_broker_errno_(&error);
			if (why && len)
				snprintf(why, len, "%s: %s", error.name,
					 error.message ? error.message : "");
		} else if (why && len) {
			snprintf(why, len, "%s", strerror(-r));
		}
	}
	sd_bus_error_free(&error);
	sd_bus_message_unref(reply);
	sd_bus_flush_close_unref(bus);
	return r < 0 ? r : 0;
}

/*
 * gpuprio_broker_raise_pidfd - raise the thread of a PIDFD_THREAD pidfd
 * @prio: GPUPRIO_BE_NICE(n) with n from -20 to -1, or
 *	  GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, level)
 *
 * The thread must belong to the calling process.
 */
static inline int gpuprio_broker_raise_pidfd(int pidfd, int prio, char *why,
					     size_t len)
{
	if (GPUPRIO_PRIO_CLASS(prio) == GPUPRIO_CLASS_RT)
		return gpuprio_broker_call_("RaiseRealtime", pidfd,
					    (int)GPUPRIO_PRIO_DATA(prio), why,
					    len);
	if (GPUPRIO_PRIO_CLASS(prio) == GPUPRIO_CLASS_BE &&
	    GPUPRIO_TO_NICE(prio) < 0)
		return gpuprio_broker_call_("RaiseHigh", pidfd,
					    GPUPRIO_TO_NICE(prio), why, len);
	if (why && len)
		snprintf(why, len, "0x%x is not a raise: the broker takes a "
			 "negative best-effort nice or realtime; lower with "
			 "gpuprio_set()", (unsigned int)prio);
	return -EINVAL;
}

/*
 * A pidfd of thread @tid of this process, 0 for the calling thread; on
 * failure -errno, and why in @why.
 */
static inline int gpuprio_broker_thread_pidfd_(int tid, char *why,
						size_t len)
{
	int fd;

#if defined(__NR_pidfd_open) && defined(__NR_gettid)
	if (!tid)
		tid = (int)syscall(__NR_gettid);
	fd = (int)syscall(__NR_pidfd_open, tid, GPUPRIO_PIDFD_THREAD);
#else
	errno = ENOSYS;
	fd = -1;
#endif
	if (fd < 0) {
		fd = -errno;
		if (why && len)
			snprintf(why, len, "pidfd_open(%d, PIDFD_THREAD): %s",
				 tid, strerror(-fd));
	}
	return fd;
}

/*
 * gpuprio_broker_raise - raise thread @tid of this process (0: the
 * calling thread) to @prio through the broker
 */
static inline int gpuprio_broker_raise(int tid, int prio, char *why,
				       size_t len)
{
	int fd = gpuprio_broker_thread_pidfd_(tid, why, len);
	int r;

	if (fd < 0)
		return fd;
	r = gpuprio_broker_raise_pidfd(fd, prio, why, len);
	close(fd);
	return r;
}

/*
 * gpuprio_broker_drop - give back a raise: thread @tid (0: the calling
 * thread) gets the value it had before the broker raised it
 */
static inline int gpuprio_broker_drop(int tid, char *why, size_t len)
{
	int fd = gpuprio_broker_thread_pidfd_(tid, why, len);
	int r;

	if (fd < 0)
		return fd;
	r = gpuprio_broker_call_("Drop", fd, 0, why, len);
	close(fd);
	return r;
}

#ifdef __cplusplus
}
#endif

#endif /* _GPUPRIO_BROKER_H */
