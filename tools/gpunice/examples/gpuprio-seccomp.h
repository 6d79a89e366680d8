/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * gpuprio-seccomp.h - a seccomp-bpf filter that lets a sandboxed thread
 * set its own GPU priority and nothing else of gpuprio
 *
 * Copyright (c) 2026 the gpunice authors
 *
 * Dual-licensed: under the GNU General Public License, version 2 or (at
 * your option) any later version, or under the MIT licence, at your
 * choice. The MIT licence's text is in <gpuprio.h>.
 *
 * A browser's GPU and renderer processes run under seccomp-bpf filters,
 * and a filter is built from system call numbers. The gpuprio calls have
 * no fixed numbers: <gpuprio.h> reads them from
 * /proc/sys/kernel/gpuprio_syscalls, which a sandboxed process may no
 * longer be able to open. So the order is:
 *
 *   1. before the sandbox: gpuprio_syscall_numbers(&set_nr, &get_nr)
 *      (0, or -1 with ENOSYS on a kernel without GPU priorities), which
 *      also keeps the numbers for the wrappers of this translation unit;
 *   2. enter the sandbox with a filter that allows exactly
 *        gpuprio_set(GPUPRIO_WHO_PROCESS, 0, any value, 0)
 *        gpuprio_get(GPUPRIO_WHO_PROCESS, 0, 0)
 *      that is the calling thread (0 names the calling thread only, see
 *      gpuprio_set(2)), and refuses every other form with EPERM: another
 *      thread by its ID (the calling thread's own ID included), a process
 *      group, a user, a pidfd, a flag;
 *   3. inside: each thread sets its own priority with
 *      gpuprio_set(GPUPRIO_WHO_PROCESS, 0, prio) before it creates its GPU
 *      context, as outside.
 *
 * gpuprio_seccomp_build() writes such a filter; a program merges its
 * instructions into its own policy (where the comment says "the rest of
 * the program's policy"), or, as this file's gpuprio_seccomp_enter() and
 * the example gpuprio-tabs --sandbox do, installs it alone, allowing every
 * other call. The refusal is EPERM, not SIGSYS: a library that asks for
 * more (a whole process by pidfd, say) gets an error it already handles,
 * and the program goes on at the priority it has. Only a call from
 * another ABI than the program's (its architecture checked first, and on
 * x86-64 the x32 calls) kills the process, as browsers' filters do.
 *
 * The arguments are compared on their low 32 bits, which is what the
 * kernel reads of the int arguments of these calls. On a kernel without
 * GPU priorities, pass negative numbers: the filter then has no gpuprio
 * rule, and the numbers that those calls would have (other calls there)
 * are the program's policy's business.
 */
#ifndef GPUPRIO_SECCOMP_H
#define GPUPRIO_SECCOMP_H

#include <errno.h>
#include <stddef.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <gpuprio.h>

/* The ABI the program is built for, as seccomp_data.arch names it. */
#if defined(__x86_64__) && defined(__ILP32__)
# error "x32: this filter is written for the x86-64 ABI"
#elif defined(__x86_64__)
# define GPUPRIO_SECCOMP_ARCH	AUDIT_ARCH_X86_64
#elif defined(__i386__)
# define GPUPRIO_SECCOMP_ARCH	AUDIT_ARCH_I386
#elif defined(__aarch64__)
# define GPUPRIO_SECCOMP_ARCH	AUDIT_ARCH_AARCH64
#elif defined(__arm__)
# define GPUPRIO_SECCOMP_ARCH	AUDIT_ARCH_ARM
#elif defined(__riscv) && __riscv_xlen == 64
# define GPUPRIO_SECCOMP_ARCH	AUDIT_ARCH_RISCV64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
# define GPUPRIO_SECCOMP_ARCH	AUDIT_ARCH_PPC64LE
#elif defined(__s390x__)
# define GPUPRIO_SECCOMP_ARCH	AUDIT_ARCH_S390X
#else
# error "gpuprio-seccomp.h: add this architecture's AUDIT_ARCH_*"
#endif

/* Where the low 32 bits of system call argument @i lie in seccomp_data. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
# define GPUPRIO_SECCOMP_ARG_LO(i)	\
	(offsetof(struct seccomp_data, args) + 8 * (i))
#else
# define GPUPRIO_SECCOMP_ARG_LO(i)	\
	(offsetof(struct seccomp_data, args) + 8 * (i) + 4)
#endif

/* The most instructions gpuprio_seccomp_build() writes. */
#define GPUPRIO_SECCOMP_MAX_INSNS	24

#define GPUPRIO_SECCOMP_STMT_(code, k)					\
	((struct sock_filter)BPF_STMT((code), (k)))
#define GPUPRIO_SECCOMP_JUMP_(code, k, jt, jf)				\
	((struct sock_filter)BPF_JUMP((code), (k), (jt), (jf)))

/*
 * gpuprio_seccomp_build - write the filter into @insns
 * @insns: room for GPUPRIO_SECCOMP_MAX_INSNS instructions
 * @set_nr, @get_nr: from gpuprio_syscall_numbers(), or negative for a
 *		     kernel without GPU priorities
 *
 * Returns the number of instructions written.
 */
static inline unsigned short gpuprio_seccomp_build(struct sock_filter *insns,
						   long set_nr, long get_nr)
{
	unsigned short n = 0;

	/* A call of another ABI has other numbers: kill at once. */
	insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_LD | BPF_W | BPF_ABS,
		offsetof(struct seccomp_data, arch));
	insns[n++] = GPUPRIO_SECCOMP_JUMP_(BPF_JMP | BPF_JEQ | BPF_K,
		GPUPRIO_SECCOMP_ARCH, 1, 0);
	insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_RET | BPF_K,
		SECCOMP_RET_KILL_PROCESS);
	insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_LD | BPF_W | BPF_ABS,
		offsetof(struct seccomp_data, nr));
#ifdef __x86_64__
	/* x32 calls share AUDIT_ARCH_X86_64, with this bit in the number. */
	insns[n++] = GPUPRIO_SECCOMP_JUMP_(BPF_JMP | BPF_JGE | BPF_K,
		0x40000000U /* __X32_SYSCALL_BIT */, 0, 1);
	insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_RET | BPF_K,
		SECCOMP_RET_KILL_PROCESS);
#endif
	if (set_nr > 0 && get_nr > 0) {
		/*
		 * Jump offsets count from the next instruction; the
		 * comments number the instructions from the first after
		 * this point. Each check jumps to DENY (17) when it fails.
		 */
		/* 0 */ insns[n++] = GPUPRIO_SECCOMP_JUMP_(BPF_JMP | BPF_JEQ |
			BPF_K, (unsigned int)set_nr, 2 /* SET, 3 */, 0);
		/* 1 */ insns[n++] = GPUPRIO_SECCOMP_JUMP_(BPF_JMP | BPF_JEQ |
			BPF_K, (unsigned int)get_nr, 8 /* GET, 10 */, 0);
		/* 2: the rest of the program's policy; here, allow. */
		insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_RET | BPF_K,
			SECCOMP_RET_ALLOW);

		/* SET, 3: gpuprio_set(which, who, prio, flags) */
		/* 3 */ insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_LD | BPF_W |
			BPF_ABS, GPUPRIO_SECCOMP_ARG_LO(0));
		/* 4 */ insns[n++] = GPUPRIO_SECCOMP_JUMP_(BPF_JMP | BPF_JEQ |
			BPF_K, GPUPRIO_WHO_PROCESS, 0, 12);
		/* 5 */ insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_LD | BPF_W |
			BPF_ABS, GPUPRIO_SECCOMP_ARG_LO(1));
		/* 6 */ insns[n++] = GPUPRIO_SECCOMP_JUMP_(BPF_JMP | BPF_JEQ |
			BPF_K, 0, 0, 10);
		/* 7 */ insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_LD | BPF_W |
			BPF_ABS, GPUPRIO_SECCOMP_ARG_LO(3));
		/* 8 */ insns[n++] = GPUPRIO_SECCOMP_JUMP_(BPF_JMP | BPF_JEQ |
			BPF_K, 0, 0, 8);
		/* 9 */ insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_RET | BPF_K,
			SECCOMP_RET_ALLOW);

		/* GET, 10: gpuprio_get(which, who, flags) */
		/* 10 */ insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_LD | BPF_W |
			BPF_ABS, GPUPRIO_SECCOMP_ARG_LO(0));
		/* 11 */ insns[n++] = GPUPRIO_SECCOMP_JUMP_(BPF_JMP | BPF_JEQ |
			BPF_K, GPUPRIO_WHO_PROCESS, 0, 5);
		/* 12 */ insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_LD | BPF_W |
			BPF_ABS, GPUPRIO_SECCOMP_ARG_LO(1));
		/* 13 */ insns[n++] = GPUPRIO_SECCOMP_JUMP_(BPF_JMP | BPF_JEQ |
			BPF_K, 0, 0, 3);
		/* 14 */ insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_LD | BPF_W |
			BPF_ABS, GPUPRIO_SECCOMP_ARG_LO(2));
		/* 15 */ insns[n++] = GPUPRIO_SECCOMP_JUMP_(BPF_JMP | BPF_JEQ |
			BPF_K, 0, 0, 1);
		/* 16 */ insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_RET | BPF_K,
			SECCOMP_RET_ALLOW);
		/* DENY, 17: any other form of the two calls. */
		insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_RET | BPF_K,
			SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA));
	} else {
		/* The rest of the program's policy: here, allow. */
		insns[n++] = GPUPRIO_SECCOMP_STMT_(BPF_RET | BPF_K,
			SECCOMP_RET_ALLOW);
	}
	return n;
}

/*
 * gpuprio_seccomp_enter - learn the numbers, then install the filter
 *
 * Sets no_new_privs (which lets a process without CAP_SYS_ADMIN install a
 * filter) and installs the filter on every thread of the process
 * (SECCOMP_FILTER_FLAG_TSYNC), so that threads a library started earlier
 * are held to it too. Returns 0, or -1 with errno set. The numbers are
 * learnt first, by gpuprio_syscall_numbers(): on a kernel without GPU
 * priorities the filter only checks the ABI.
 */
static inline int gpuprio_seccomp_enter(void)
{
	struct sock_filter insns[GPUPRIO_SECCOMP_MAX_INSNS];
	struct sock_fprog prog;
	long set_nr = -1, get_nr = -1;
	long ret;

	if (gpuprio_syscall_numbers(&set_nr, &get_nr))
		set_nr = get_nr = -1;	/* ENOSYS: no such calls here */
	prog.filter = insns;
	prog.len = gpuprio_seccomp_build(insns, set_nr, get_nr);

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	ret = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		      SECCOMP_FILTER_FLAG_TSYNC, &prog);
	if (ret > 0) {
		/* The ID of a thread that could not be synchronised. */
		errno = EAGAIN;
		return -1;
	}
	return ret ? -1 : 0;
}

#endif /* GPUPRIO_SECCOMP_H */
