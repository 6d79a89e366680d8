// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nosys-guard - run a command that must not issue some system calls
 *
 * Usage: nosys-guard [-n NR]... [--] command [argument...]
 *        nosys-guard --self-test
 *
 * Installs a seccomp filter that kills the process the moment it issues
 * one of the numbers given with -n (by default __NR_gpuprio_set and
 * __NR_gpuprio_get of the kernel headers it is built with: the test
 * kernel's, from make headers) and executes the command under it. The
 * call never reaches the kernel's syscall table: on Linux 6.13 and later
 * 463 and 464 are setxattrat and getxattrat, which must not run by
 * accident.
 * A command that issues one dies of SIGSYS, which its shell reports as
 * exit status 159 (128 + 31).
 *
 * --self-test checks that the filter works, with getppid() standing in
 * for the forbidden calls: the guard must die of SIGSYS.
 *
 * A kernel without CONFIG_SECCOMP_FILTER refuses the filter (the test
 * guest's has it since suite 25-sandbox needs it): the guard then runs the
 * command as a child under ptrace(2) instead, following its threads and
 * children, stops at the entry of every system call and, at a forbidden
 * one, kills them all before the call runs and exits with status 159
 * itself; otherwise it exits with the command's status (128 + the signal
 * that killed it).
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define MAX_NRS 8

/* 0, or -1 if the kernel has no seccomp filters (EINVAL). */
static int install_filter(const unsigned int *nrs, int count)
{
	struct sock_filter insns[2 * MAX_NRS + 2];
	struct sock_fprog prog = { .filter = insns };
	int i, n = 0;

	insns[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		offsetof(struct seccomp_data, nr));
	for (i = 0; i < count; i++) {
		insns[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ |
			BPF_K, nrs[i], 0, 1);
		insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
			SECCOMP_RET_KILL_PROCESS);
	}
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
		SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;

	/* Lets an unprivileged user install the filter; see seccomp(2). */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		err(2, "prctl(PR_SET_NO_NEW_PRIVS)");
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		if (errno == EINVAL)
			return -1;
		err(2, "prctl(PR_SET_SECCOMP)");
	}
	return 0;
}

static int forbidden(const unsigned int *nrs, int count, pid_t pid)
{
	struct __ptrace_syscall_info info;
	int i;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(info),
		   &info) <= 0 || info.op != PTRACE_SYSCALL_INFO_ENTRY)
		return 0;
	for (i = 0; i < count; i++)
		if (info.entry.nr == nrs[i])
			return 1;
	return 0;
}

/* The command (or, with @argv NULL, a getppid() call) under ptrace. */
static int trace(const unsigned int *nrs, int count, char **argv)
{
	int status, rc = 2, fired = 0;
	pid_t child, w;
	long sig;

	child = fork();
	if (child < 0)
		err(2, "fork");
	if (!child) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			err(2, "ptrace(PTRACE_TRACEME)");
		raise(SIGSTOP);
		if (!argv) {
			syscall(SYS_getppid);
			_exit(1);
		}
		execvp(argv[0], argv);
		err(127, "cannot execute %s", argv[0]);
	}
	if (waitpid(child, &status, 0) != child || !WIFSTOPPED(status))
		errx(2, "the command did not stop for tracing");
	if (ptrace(PTRACE_SETOPTIONS, child, NULL,
		   (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK |
				  PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE |
				  PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)))
		err(2, "ptrace(PTRACE_SETOPTIONS)");
	ptrace(PTRACE_SYSCALL, child, NULL, NULL);

	for (;;) {
		w = waitpid(-1, &status, __WALL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;		/* ECHILD: every tracee is gone */
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (w == child)
				rc = WIFEXITED(status) ? WEXITSTATUS(status) :
				     128 + WTERMSIG(status);
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;
		sig = WSTOPSIG(status);
		if (sig == (SIGTRAP | 0x80)) {
			sig = 0;
			if (!fired && forbidden(nrs, count, w)) {
				fired = 1;
				kill(child, SIGKILL);
				kill(w, SIGKILL);
				continue;
			}
		} else if (status >> 16 || sig == SIGSTOP) {
			sig = 0;	/* an event, or a new tracee's stop */
		}
		ptrace(PTRACE_SYSCALL, w, NULL, (void *)sig);
	}
	return fired ? 128 + SIGSYS : rc;
}

int main(int argc, char **argv)
{
	unsigned int nrs[MAX_NRS];
	int count = 0, i = 1;

	if (argc == 2 && !strcmp(argv[1], "--self-test")) {
		nrs[0] = SYS_getppid;
		if (install_filter(nrs, 1))
			return trace(nrs, 1, NULL) == 128 + SIGSYS ?
			       128 + SIGSYS : 1;
		syscall(SYS_getppid);
		fprintf(stderr, "nosys-guard: the filter did not fire\n");
		return 1;
	}

	for (; i + 1 < argc && !strcmp(argv[i], "-n"); i += 2) {
		if (count == MAX_NRS)
			errx(2, "too many -n");
		nrs[count++] = (unsigned int)strtoul(argv[i + 1], NULL, 0);
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i >= argc)
		errx(2, "usage: nosys-guard [-n NR]... [--] command [arg...]");
	if (!count) {
#ifdef __NR_gpuprio_set
		nrs[count++] = __NR_gpuprio_set;
		nrs[count++] = __NR_gpuprio_get;
#else
		errx(2, "no kernel headers at build time: give -n");
#endif
	}

	if (install_filter(nrs, count))
		return trace(nrs, count, argv + i);
	execvp(argv[i], argv + i);
	err(127, "cannot execute %s", argv[i]);
}
