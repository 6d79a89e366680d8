/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gpuprio.h - gpuprio_set() and gpuprio_get() for applications
 *
 * The C library has no wrappers for these system calls, so this header
 * provides them over syscall(2). Include it and call
 *
 *	gpuprio_set(GPUPRIO_WHO_PROCESS, 0, GPUPRIO_BE_NICE(10));
 *
 * to make the calling thread's GPU work best effort at GPU nice 10.
 *
 * The syscall numbers are only free in Linux 6.12: from 6.13 on the same
 * numbers are setxattrat(2) and getxattrat(2). Issuing them blindly on such
 * a kernel would run an unrelated system call, so the wrappers first check
 * that /proc/self/gpu_nice exists, which is true exactly when the running
 * kernel has GPU priorities. Without it they fail with ENOSYS and issue
 * nothing. The answer is cached: a kernel does not gain or lose the feature
 * while it runs.
 */
#ifndef _GPUPRIO_H
#define _GPUPRIO_H

#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/gpuprio.h>

/*
 * A strict -std= hides syscall(2) in <unistd.h>; this declaration matches
 * glibc's and musl's, so it is harmless when theirs is visible too.  C++
 * compilers define _GNU_SOURCE, so the library's declaration is always seen.
 */
#ifndef __cplusplus
long syscall(long number, ...);
#endif

/* Kernel headers older than the feature do not name the calls. */
#ifndef __NR_gpuprio_set
# if defined(__alpha__)
#  define __NR_gpuprio_set	573
#  define __NR_gpuprio_get	574
# elif defined(__mips__) && defined(__NR_Linux)
#  define __NR_gpuprio_set	(__NR_Linux + 463)
#  define __NR_gpuprio_get	(__NR_Linux + 464)
# else
#  define __NR_gpuprio_set	463
#  define __NR_gpuprio_get	464
# endif
#endif

#define GPUPRIO_PROBE_PATH	"/proc/self/gpu_nice"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * gpuprio_supported - whether the running kernel has GPU priorities
 *
 * Returns 1 if it has, 0 if it has not or if that cannot be told (for
 * instance because /proc is not mounted): calling the raw numbers is only
 * safe when the answer is known to be yes.
 */
static inline int gpuprio_supported(void)
{
	/* -1: not probed yet. Relaxed atomics: every prober stores the same. */
	static int cached = -1;
	int saved_errno = errno;
	int ret;

	ret = __atomic_load_n(&cached, __ATOMIC_RELAXED);
	if (ret >= 0)
		return ret;

	if (access(GPUPRIO_PROBE_PATH, F_OK) == 0)
		ret = 1;
	else if (errno == ENOENT || errno == ENOTDIR)
		ret = 0;
	else
		ret = -1;	/* e.g. ENOMEM: unknown, ask again next time */

	errno = saved_errno;
	if (ret < 0)
		return 0;
	__atomic_store_n(&cached, ret, __ATOMIC_RELAXED);
	return ret;
}

/* Kernel headers older than the feature do not name pidfd targets. */
#ifndef GPUPRIO_WHO_PIDFD
#define GPUPRIO_WHO_PIDFD	4
#endif

/*
 * gpuprio_set - set the GPU priority of a thread, process group or user
 * @which: GPUPRIO_WHO_PROCESS, GPUPRIO_WHO_PGRP, GPUPRIO_WHO_USER or
 *	   GPUPRIO_WHO_PIDFD
 * @who: thread ID, process group ID, user ID (0 means the caller's own) or
 *	 a pidfd (every thread of its process)
 * @prio: a value built with GPUPRIO_PRIO_VALUE() or GPUPRIO_BE_NICE()
 *
 * The system call's flags argument is passed as 0: none is defined yet.
 * Returns 0, or -1 with errno set; see gpuprio_set(2).
 */
static inline int gpuprio_set(int which, int who, int prio)
{
	if (!gpuprio_supported()) {
		errno = ENOSYS;
		return -1;
	}
	return (int)syscall(__NR_gpuprio_set, which, who, prio, 0U);
}

/*
 * gpuprio_get - read the GPU priority of a thread, process group or user
 *
 * @which and @who as for gpuprio_set(); with GPUPRIO_WHO_PIDFD, the highest
 * effective priority among the threads of the pidfd's process.
 * Returns the priority value (never negative), or -1 with errno set; see
 * gpuprio_get(2).
 */
static inline int gpuprio_get(int which, int who)
{
	if (!gpuprio_supported()) {
		errno = ENOSYS;
		return -1;
	}
	return (int)syscall(__NR_gpuprio_get, which, who, 0U);
}

/*
 * gpuprio_pidfd_open - a pidfd for process @pid, for GPUPRIO_WHO_PIDFD
 *
 * A pidfd keeps naming the process it was opened for: a target given as
 * a pid cannot then be confused with a later process that reused it.
 * Returns the pidfd, or -1 with errno set: ENOSYS where the kernel or the
 * headers predate pidfd_open(2) (Linux 5.3), EINVAL if @pid is a thread
 * that is not a process. Close it with close(2).
 */
static inline int gpuprio_pidfd_open(int pid)
{
#ifdef __NR_pidfd_open
	return (int)syscall(__NR_pidfd_open, pid, 0U);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* _GPUPRIO_H */
