/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * gpuprio.h - gpuprio_set() and gpuprio_get() for applications
 *
 * Copyright (c) 2026 the gpunice authors
 *
 * Dual-licensed: under the GNU Lesser General Public License, version 2.1
 * or (at your option) any later version, or under the MIT licence, at
 * your choice, so that a project under either kind of licence (a
 * BSD-licensed browser, say) may copy it into its tree. The MIT licence:
 *
 * Permission is hereby granted, free of charge, to any person obtaining a
 * copy of this software and associated documentation files (the
 * "Software"), to deal in the Software without restriction, including
 * without limitation the rights to use, copy, modify, merge, publish,
 * distribute, sublicense, and/or sell copies of the Software, and to
 * permit persons to whom the Software is furnished to do so, subject to
 * the following conditions:
 *
 * The above copyright notice and this permission notice shall be included
 * in all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS
 * OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
 * MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.
 * IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
 * CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT,
 * TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
 * SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
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
 * The system call numbers are not fixed: the Linux 6.12 series gives the
 * calls 463 and 464 on x86-64, and from 6.13 on those are setxattrat(2)
 * and getxattrat(2), so a later series numbers them differently. So the
 * wrappers issue no number compiled in: before the first call they read
 * the numbers the running kernel gives the calls, for the caller's ABI,
 * from /proc/sys/kernel/gpuprio_syscalls. A kernel without the feature has no
 * such file: then, or if it cannot be read or does not hold two numbers,
 * the wrappers fail with ENOSYS and issue no system call. The numbers are
 * read once per program (per translation unit that includes this header):
 * a kernel does not renumber its calls while it runs.
 *
 * A program that enters a sandbox (a seccomp-bpf filter, a chroot or a
 * mount namespace without /proc) learns them before it does: it calls
 * gpuprio_syscall_numbers() (which also fills this translation unit's
 * cache) and builds its filter from the two numbers; see
 * gpuprio_syscall_numbers(3) and examples/gpuprio-seccomp.h.
 */
#ifndef _GPUPRIO_H
#define _GPUPRIO_H

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>

/*
 * The values and constants come from the kernel's <linux/gpuprio.h> where
 * the build machine's kernel headers have it. They need not: an
 * application built against older headers gets the copies below, each
 * defined only where the kernel's header has not, token for token as that
 * header has it (tests/host/suites/12-gpuprio-header compares them), so that
 * the two headers may be included in either order. Every value macro yields an
 * int for int arguments, the type the wrappers take.
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
 * Where the running kernel says which numbers it gives the two calls (a
 * test may define another file before including this header).
 */
#ifndef GPUPRIO_SYSCALLS_PATH
#define GPUPRIO_SYSCALLS_PATH	"/proc/sys/kernel/gpuprio_syscalls"
#endif

/* O_CLOEXEC is POSIX.1-2008: a strict C99 program's <fcntl.h> may lack it. */
#ifdef O_CLOEXEC
# define GPUPRIO_O_CLOEXEC_	O_CLOEXEC
#else
# define GPUPRIO_O_CLOEXEC_	0
#endif

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
 * gpuprio_read_syscalls_ - parse GPUPRIO_SYSCALLS_PATH into @nr
 *
 * The file holds two positive decimal numbers, gpuprio_set's then
 * gpuprio_get's, separated by blanks and followed by a newline. Returns 1
 * with @nr filled in, 0 if the file does not exist (the kernel has no such
 * calls), -1 if it exists but cannot be read or holds anything else.
 */
static inline int gpuprio_read_syscalls_(long nr[2])
{
	char buf[64];
	ssize_t len;
	size_t i = 0, n;
	int fd, k;

	do
		fd = open(GPUPRIO_SYSCALLS_PATH, O_RDONLY | GPUPRIO_O_CLOEXEC_);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	do
		len = read(fd, buf, sizeof(buf));
	while (len < 0 && errno == EINTR);
	close(fd);
	if (len <= 0 || (size_t)len == sizeof(buf))
		return -1;
	n = (size_t)len;

	for (k = 0; k < 2; k++) {
		size_t start;
		long v = 0;

		if (k == 1) {
			start = i;
			while (i < n && (buf[i] == ' ' || buf[i] == '\t'))
				i++;
			if (i == start)
				return -1;
		}
		start = i;
		while (i < n && buf[i] >= '0' && buf[i] <= '9') {
			if (v > (0x7fffffffL - 9) / 10)
				return -1;
			v = v * 10 + (buf[i] - '0');
			i++;
		}
		if (i == start || v == 0)
			return -1;
		nr[k] = v;
	}
	if (i + 1 != n || buf[i] != '\n')
		return -1;
	return 1;
}

/*
 * gpuprio_syscall_nr_ - the number the running kernel gives a call
 * @get: 0 for gpuprio_set(2), 1 for gpuprio_get(2)
 *
 * Returns the number, or -1 with errno set to ENOSYS if the kernel does
 * not say (see GPUPRIO_SYSCALLS_PATH). Read once, then cached: relaxed
 * atomics suffice, as every reader stores the same numbers, each on its
 * own (a reader that finds one of them not stored yet reads the file).
 */
static inline long gpuprio_syscall_nr_(int get)
{
	/* 0: not read yet; -1: the kernel has no such file. */
	static long cached[2];
	long nr[2];
	long ret;
	int saved_errno = errno;
	int found;

	ret = __atomic_load_n(&cached[get ? 1 : 0], __ATOMIC_RELAXED);
	if (ret > 0)
		return ret;
	if (ret == 0) {
		found = gpuprio_read_syscalls_(nr);
		if (found > 0) {
			__atomic_store_n(&cached[0], nr[0], __ATOMIC_RELAXED);
			__atomic_store_n(&cached[1], nr[1], __ATOMIC_RELAXED);
			errno = saved_errno;
			return nr[get ? 1 : 0];
		}
		/* Missing is for good; unreadable may be a passing ENOMEM. */
		if (found == 0) {
			__atomic_store_n(&cached[0], -1L, __ATOMIC_RELAXED);
			__atomic_store_n(&cached[1], -1L, __ATOMIC_RELAXED);
		}
	}
	errno = ENOSYS;
	return -1;
}

/*
 * gpuprio_supported - whether the running kernel has GPU priorities
 *
 * Returns 1 if it has and says which numbers it gives the calls, 0 if it
 * has not or if that cannot be told (for instance because /proc is not
 * mounted): the wrappers then fail with ENOSYS. errno is left as it was.
 */
static inline int gpuprio_supported(void)
{
	int saved_errno = errno;
	int ret = gpuprio_syscall_nr_(0) > 0;

	errno = saved_errno;
	return ret;
}

/*
 * gpuprio_syscall_numbers - the numbers the running kernel gives the calls
 * @set_nr: where to store gpuprio_set(2)'s number (may be NULL)
 * @get_nr: where to store gpuprio_get(2)'s number (may be NULL)
 *
 * For a sandbox's system call filter, which is built from numbers: call
 * it before entering the sandbox, while /proc can still be read. It also
 * keeps the numbers for this translation unit's wrappers, so that they
 * need not read the file inside the sandbox.
 * Returns 0 with both stored, or -1 with errno set to ENOSYS and nothing
 * stored if the kernel has no GPU priorities or does not say (as
 * gpuprio_supported() returning 0). Issues no gpuprio system call.
 */
static inline int gpuprio_syscall_numbers(long *set_nr, long *get_nr)
{
	long set = gpuprio_syscall_nr_(0);
	long get;

	if (set < 0)
		return -1;
	get = gpuprio_syscall_nr_(1);
	if (get < 0)
		return -1;
	if (set_nr)
		*set_nr = set;
	if (get_nr)
		*get_nr = get;
	return 0;
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
	long nr = gpuprio_syscall_nr_(0);

	if (nr < 0)
		return -1;
	return (int)syscall(nr, which, who, prio, 0U);
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
	long nr = gpuprio_syscall_nr_(1);

	if (nr < 0)
		return -1;
	return (int)syscall(nr, which, who, 0U);
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
