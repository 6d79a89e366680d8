// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.gpuprio_syscalls: the numbers of gpuprio_set(2) and gpuprio_get(2).
 *
 * The kernels that carry these calls out of tree do not number them alike:
 * a backport to an older line gives them numbers that later kernels use for
 * other calls, and each line numbers them after its own last call. A
 * program built once for all of them must not issue a number compiled into
 * it, and an error from an unknown number cannot tell these calls from
 * others that fail the same way. So the kernel says which numbers it gives
 * them, for the ABI of the task that reads the file. A kernel whose numbers
 * are fixed ABI needs none of this, and a program there probes with ENOSYS.
 */

#include <linux/compat.h>
#include <linux/init.h>
#include <linux/sysctl.h>
#include <linux/unistd.h>

#ifdef __NR_gpuprio_set
/*
 * The numbers of gpuprio_set(2) and gpuprio_get(2) as the calling task
 * passes them to syscall(2): they depend on its ABI. A compat ABI whose
 * numbers are not known here gets -EOPNOTSUPP rather than a guess.
 */
static int gpuprio_syscall_nrs(int nr[2])
{
	if (!in_compat_syscall()) {
		nr[0] = __NR_gpuprio_set;
		nr[1] = __NR_gpuprio_get;
		return 0;
	}
#ifdef __NR_ia32_gpuprio_set
	if (in_ia32_syscall()) {
		nr[0] = __NR_ia32_gpuprio_set;
		nr[1] = __NR_ia32_gpuprio_get;
		return 0;
	}
#endif
#ifdef CONFIG_X86_X32_ABI
	if (in_x32_syscall()) {
		nr[0] = __X32_SYSCALL_BIT | __NR_gpuprio_set;
		nr[1] = __X32_SYSCALL_BIT | __NR_gpuprio_get;
		return 0;
	}
#endif
	return -EOPNOTSUPP;
}

/* Read-only: "<set>\t<get>", the numbers for the ABI of the reader. */
static int proc_gpuprio_syscalls(const struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos)
{
	int nr[2];
	const struct ctl_table t = {
		.data	= nr,
		.maxlen	= sizeof(nr),
		.mode	= table->mode,
	};
	int ret;

	ret = gpuprio_syscall_nrs(nr);
	if (ret)
		return ret;
	return proc_dointvec(&t, write, buffer, lenp, ppos);
}

/* Only where the architecture's table numbers the calls. */
static const struct ctl_table gpuprio_syscalls_sysctls[] = {
	{
		.procname	= "gpuprio_syscalls",
		.mode		= 0444,
		.proc_handler	= proc_gpuprio_syscalls,
	},
};

static int __init gpuprio_syscalls_sysctl_init(void)
{
	register_sysctl_init("kernel", gpuprio_syscalls_sysctls);
	return 0;
}
late_initcall(gpuprio_syscalls_sysctl_init);
#endif
