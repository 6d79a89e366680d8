/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gpuprio.h - gpuprio_set() and gpuprio_get() for applications
 *
 * The C library has no wrappers for these system calls, so this header
 * provides them over syscall(2). Include it and call
 *
 *	gpuprio_set(GPUPRIO_WHO_PROCESS, 0, GPUPRIO_BE_NICE(10));
 *
 * to make the calling thread's GPU work best effort at GPU nice 10 (only
 * that thread's: see gpuprio(3) for a whole process). It builds as C99 and
 * later and as C++11 and later, and needs no kernel headers that know the
 * feature: copy it into a program's own tree if need be.
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

/*
 * The values and constants come from the kernel's <linux/gpuprio.h> where
 * the build machine's kernel headers have it. They need not: an
 * application built against older headers gets the copies below, each
 * defined only where the kernel's header has not, token for token as that
 * header has it (tests/host/gpuprio-header.sh compares them), so that the
 * two headers may be included in either order. Every value macro yields
 * an int for int arguments, the type the wrappers take.
 */
#if defined(__has_include)
# if __has_include(<linux/gpuprio.h>)
#  include <linux/gpuprio.h>
# endif
#endif

#ifndef GPUPRIO_CLASS_SHIFT
#define GPUPRIO_CLASS_SHIFT	13
#endif
#ifndef GPUPRIO_NR_CLASSES
#define GPUPRIO_NR_CLASSES	8
#endif
#ifndef GPUPRIO_CLASS_MASK
#define GPUPRIO_CLASS_MASK	(GPUPRIO_NR_CLASSES - 1)
#endif
#ifndef GPUPRIO_PRIO_MASK
#define GPUPRIO_PRIO_MASK	((1 << GPUPRIO_CLASS_SHIFT) - 1)
#endif
#ifndef GPUPRIO_PRIO_CLASS
#define GPUPRIO_PRIO_CLASS(v)						\
	(((v) >> GPUPRIO_CLASS_SHIFT) & GPUPRIO_CLASS_MASK)
#endif
#ifndef GPUPRIO_PRIO_DATA
#define GPUPRIO_PRIO_DATA(v)	((v) & GPUPRIO_PRIO_MASK)
#endif
#ifndef GPUPRIO_PRIO_VALUE
#define GPUPRIO_PRIO_VALUE(class, data)					\
	((((class) & GPUPRIO_CLASS_MASK) << GPUPRIO_CLASS_SHIFT) |	\
	 ((data) & GPUPRIO_PRIO_MASK))
#endif
#ifndef GPUPRIO_CLASS_NONE
#define GPUPRIO_CLASS_NONE	0
#endif
#ifndef GPUPRIO_CLASS_RT
#define GPUPRIO_CLASS_RT	1
#endif
#ifndef GPUPRIO_CLASS_BE
#define GPUPRIO_CLASS_BE	2
#endif
#ifndef GPUPRIO_CLASS_IDLE
#define GPUPRIO_CLASS_IDLE	3
#endif
#ifndef GPUPRIO_RT_LEVELS
#define GPUPRIO_RT_LEVELS	8
#endif
#ifndef GPUPRIO_BE_NICE_OFFSET
#define GPUPRIO_BE_NICE_OFFSET	20
#endif
#ifndef GPUPRIO_BE_LEVELS
#define GPUPRIO_BE_LEVELS	40
#endif
#ifndef GPUPRIO_BE_NICE
#define GPUPRIO_BE_NICE(n)						\
	GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_BE, (n) + GPUPRIO_BE_NICE_OFFSET)
#endif
#ifndef GPUPRIO_TO_NICE
#define GPUPRIO_TO_NICE(v)						\
	((int)GPUPRIO_PRIO_DATA(v) - GPUPRIO_BE_NICE_OFFSET)
#endif
#ifndef GPUPRIO_DEFAULT
#define GPUPRIO_DEFAULT		GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_NONE, 0)
#endif
#ifndef GPUPRIO_WHO_PROCESS
#define GPUPRIO_WHO_PROCESS	1
#endif
#ifndef GPUPRIO_WHO_PGRP
#define GPUPRIO_WHO_PGRP	2
#endif
#ifndef GPUPRIO_WHO_USER
#define GPUPRIO_WHO_USER	3
#endif
#ifndef GPUPRIO_WHO_PIDFD
#define GPUPRIO_WHO_PIDFD	4
#endif

/*
 * Kernel headers older than the feature do not name the calls: the numbers
 * of every ABI the kernel series wires up (the same test checks them).
 */
#ifndef __NR_gpuprio_set
# if defined(__alpha__)
#  define __NR_gpuprio_set	573
#  define __NR_gpuprio_get	574
# elif defined(__mips__) && defined(__NR_Linux)
#  define __NR_gpuprio_set	(__NR_Linux + 463)
#  define __NR_gpuprio_get	(__NR_Linux + 464)
# elif defined(__x86_64__) && defined(__ILP32__)
/* x32: __X32_SYSCALL_BIT added */
#  define __NR_gpuprio_set	(0x40000000 + 463)
#  define __NR_gpuprio_get	(0x40000000 + 464)
# elif defined(__arm__) && defined(__NR_SYSCALL_BASE)
#  define __NR_gpuprio_set	(__NR_SYSCALL_BASE + 463)
#  define __NR_gpuprio_get	(__NR_SYSCALL_BASE + 464)
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
 * <unistd.h> declares syscall(2) only in the C library's default and
 * extended modes: glibc when it sets __USE_MISC (_DEFAULT_SOURCE or
 * _GNU_SOURCE, given or implied), musl under _GNU_SOURCE or _BSD_SOURCE
 * (its default mode defines the latter), bionic always. A strict -std=c99
 * or -D_POSIX_C_SOURCE program sees none: then, and only then (another
 * declaration would be redundant), it is declared here as they declare
 * it. C++ compilers define _GNU_SOURCE.
 */
#if (defined(__GLIBC__) && !defined(__USE_MISC)) ||			\
    (!defined(__GLIBC__) && !defined(__BIONIC__) &&			\
     !defined(_GNU_SOURCE) && !defined(_BSD_SOURCE))
long syscall(long number, ...);
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

/*
 * gpuprio_set - set the GPU priority of a thread, process group or user
 * @which: GPUPRIO_WHO_PROCESS, GPUPRIO_WHO_PGRP, GPUPRIO_WHO_USER or
 *	   GPUPRIO_WHO_PIDFD
 * @who: thread ID, process group ID, user ID (0 means the caller's own) or
 *	 a pidfd (every thread of its process). With GPUPRIO_WHO_PROCESS, 0
 *	 is the calling thread only, not its process: for every thread of
 *	 the process, pass GPUPRIO_WHO_PIDFD and gpuprio_pidfd_open(getpid()).
 * @prio: a value built with GPUPRIO_PRIO_VALUE() or GPUPRIO_BE_NICE()
 *
 * The system call's flags argument is passed as 0: none is defined yet.
 * Returns 0, or -1 with errno set; see gpuprio(3) and gpuprio_set(2).
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
 * gpuprio(3) and gpuprio_get(2).
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
