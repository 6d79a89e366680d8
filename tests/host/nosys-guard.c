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
 */
#include <err.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#define MAX_NRS 8

static void install_filter(const unsigned int *nrs, int count)
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
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		err(2, "prctl(PR_SET_SECCOMP)");
}

int main(int argc, char **argv)
{
	unsigned int nrs[MAX_NRS];
	int count = 0, i = 1;

	if (argc == 2 && !strcmp(argv[1], "--self-test")) {
		nrs[0] = SYS_getppid;
		install_filter(nrs, 1);
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

	install_filter(nrs, count);
	execvp(argv[i], argv + i);
	err(127, "cannot execute %s", argv[i]);
}
