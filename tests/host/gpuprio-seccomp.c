// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The filter of tools/gpunice/examples/gpuprio-seccomp.h on the host, with
 * stand-in numbers: getppid(2) for gpuprio_set and getpgrp(2) for
 * gpuprio_get, which ignore their arguments, so the filter's decisions on
 * the arguments can be seen on a kernel without GPU priorities and no
 * gpuprio number is ever issued. TAP on stdout.
 *
 * Every check runs in a child of its own: a filter cannot be taken back.
 * The guest suite 25-sandbox runs the same filter on the real calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpuprio-seccomp.h"
#include "../lib/tap.h"

#define SET_NR	SYS_getppid
#define GET_NR	SYS_getpgrp

/* The child's result: 0 the call was allowed, 1 refused with EPERM. */
enum { ALLOWED = 0, REFUSED = 1, OTHER = 2 };

static int install(long set_nr, long get_nr)
{
	struct sock_filter insns[GPUPRIO_SECCOMP_MAX_INSNS];
	struct sock_fprog prog;

	prog.filter = insns;
	prog.len = gpuprio_seccomp_build(insns, set_nr, get_nr);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

/*
 * Under a filter built for (@set_nr, @get_nr), issue @nr(a0..a3) in a
 * child. Returns ALLOWED, REFUSED, OTHER, or 128 + the signal that killed
 * the child.
 */
static int call(long set_nr, long get_nr, long nr, long a0, long a1, long a2,
		long a3)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		long ret;

		if (install(set_nr, get_nr))
			_exit(3);
		ret = syscall(nr, a0, a1, a2, a3);
		if (ret >= 0)
			_exit(ALLOWED);
		_exit(errno == EPERM ? REFUSED : OTHER);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static const char *name(int r)
{
	static char buf[32];

	switch (r) {
	case ALLOWED:
		return "allowed";
	case REFUSED:
		return "EPERM";
	case OTHER:
		return "another error";
	case 3:
		return "no filter installed";
	}
	snprintf(buf, sizeof(buf), "status %d", r);
	return buf;
}

#define EXPECT(want, nr, a0, a1, a2, a3, what)				\
	do {								\
		int r_ = call(SET_NR, GET_NR, nr, a0, a1, a2, a3);	\
		tap(r_ == (want), "%s: %s", what, name(r_));		\
	} while (0)

int main(void)
{
	long tid = syscall(SYS_gettid);
	int r;

	/* The filter must be live: without it these all pass. */
	r = call(-1, -1, SET_NR, GPUPRIO_WHO_PGRP, 0, 0, 1);
	tap(r == ALLOWED, "control: no gpuprio rule (negative numbers), "
	    "set(PGRP, 0, flags 1) stand-in: %s", name(r));

	EXPECT(ALLOWED, SET_NR, GPUPRIO_WHO_PROCESS, 0, GPUPRIO_BE_NICE(5), 0,
	       "set(PROCESS, 0 = calling thread, nice 5)");
	EXPECT(ALLOWED, SET_NR, GPUPRIO_WHO_PROCESS, 0,
	       GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, 7), 0,
	       "set(PROCESS, 0, realtime 7): any value");
	EXPECT(REFUSED, SET_NR, GPUPRIO_WHO_PROCESS, tid, GPUPRIO_BE_NICE(5),
	       0, "set(PROCESS, own thread ID)");
	EXPECT(REFUSED, SET_NR, GPUPRIO_WHO_PROCESS, 1, GPUPRIO_BE_NICE(5), 0,
	       "set(PROCESS, thread 1)");
	EXPECT(REFUSED, SET_NR, GPUPRIO_WHO_PGRP, 0, GPUPRIO_BE_NICE(5), 0,
	       "set(PGRP, 0)");
	EXPECT(REFUSED, SET_NR, GPUPRIO_WHO_USER, 0, GPUPRIO_BE_NICE(5), 0,
	       "set(USER, 0)");
	EXPECT(REFUSED, SET_NR, GPUPRIO_WHO_PIDFD, 3, GPUPRIO_BE_NICE(5), 0,
	       "set(PIDFD, 3)");
	EXPECT(REFUSED, SET_NR, 0, 0, GPUPRIO_BE_NICE(5), 0,
	       "set(which 0, 0)");
	EXPECT(REFUSED, SET_NR, GPUPRIO_WHO_PROCESS, 0, GPUPRIO_BE_NICE(5), 1,
	       "set(PROCESS, 0) with flags 1");
	EXPECT(REFUSED, SET_NR, GPUPRIO_WHO_PROCESS | (1L << 8), 0, 0, 0,
	       "set(which PROCESS | 0x100, 0)");
	/* The kernel reads the low 32 bits of these int arguments. */
	EXPECT(ALLOWED, SET_NR, GPUPRIO_WHO_PROCESS | (1L << 32), 0, 0, 0,
	       "set(PROCESS + bit 32, 0): the low 32 bits, as the kernel");
	EXPECT(REFUSED, SET_NR, GPUPRIO_WHO_PROCESS, 1L << 32 | 1, 0, 0,
	       "set(PROCESS, bit 32 + 1): low word 1");

	EXPECT(ALLOWED, GET_NR, GPUPRIO_WHO_PROCESS, 0, 0, 0,
	       "get(PROCESS, 0 = calling thread)");
	EXPECT(REFUSED, GET_NR, GPUPRIO_WHO_PROCESS, tid, 0, 0,
	       "get(PROCESS, own thread ID)");
	EXPECT(REFUSED, GET_NR, GPUPRIO_WHO_USER, 0, 0, 0, "get(USER, 0)");
	EXPECT(REFUSED, GET_NR, GPUPRIO_WHO_PIDFD, 3, 0, 0, "get(PIDFD, 3)");
	EXPECT(REFUSED, GET_NR, GPUPRIO_WHO_PROCESS, 0, 1, 0,
	       "get(PROCESS, 0) with flags 1");
	/* get's third argument is its flags; a fourth is ignored. */
	EXPECT(ALLOWED, GET_NR, GPUPRIO_WHO_PROCESS, 0, 0, 7,
	       "get(PROCESS, 0, 0) with junk in a 4th register");

	EXPECT(ALLOWED, SYS_getpid, GPUPRIO_WHO_PGRP, 5, 5, 5,
	       "any other call, any arguments");
#ifdef __x86_64__
	EXPECT(128 + SIGSYS, SYS_getpid | 0x40000000L, 0, 0, 0, 0,
	       "x32 call (getpid | __X32_SYSCALL_BIT): process killed");
	/* An i386 call (int $0x80) is of another ABI: killed first. */
	{
		pid_t pid = fork();
		int status = -1;

		if (!pid) {
			long ret = 20;	/* getpid on i386 */

			if (install(SET_NR, GET_NR))
				_exit(3);
			__asm__ volatile ("int $0x80" : "+a"(ret) : : "memory");
			_exit(ret > 0 ? 0 : 1);
		}
		waitpid(pid, &status, 0);
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)
			tap_skip("no IA32 emulation in this kernel",
				 "i386 call: process killed");
		else
			tap(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS,
			    "i386 call (int $0x80): process killed by SIGSYS "
			    "(status %#x)", status);
	}
#endif

	/* gpuprio_seccomp_enter() on a kernel without GPU priorities. */
	{
		pid_t pid = fork();
		int status = -1;

		if (!pid) {
			if (gpuprio_seccomp_enter())
				_exit(3);
			/* No gpuprio rule: the stand-in's arguments pass. */
			_exit(syscall(SET_NR, GPUPRIO_WHO_PGRP, 0, 0, 1) < 0);
		}
		waitpid(pid, &status, 0);
		tap(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "gpuprio_seccomp_enter() without GPU priorities: only the "
		    "ABI is checked (status %#x)", status);
	}
	tap_done();
	return tap_status();
}
