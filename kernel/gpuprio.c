// SPDX-License-Identifier: GPL-2.0
/*
 * Per-task GPU priority: gpuprio_set(2) and gpuprio_get(2).
 *
 * A task either has an explicit GPU priority (realtime, best effort with a
 * GPU nice, or idle) or none, in which case the GPU follows its CPU nice.
 * GPU drivers read the effective value when a context is created and at
 * every submission, so a change applies to the task's next submission.
 *
 * The permission rules follow setpriority(2), with one difference: raising
 * the GPU priority back up to max(CPU nice, 0) is always allowed, so that
 * a task lowered on the GPU (a background browser tab) can be restored
 * without privilege. Going above both that and the current GPU priority
 * needs can_nice() (CAP_SYS_NICE or RLIMIT_NICE), even when the CPU nice is
 * as low. The drivers' high band needs more: a negative nice set without
 * CAP_SYS_NICE in the initial user namespace is stored with GPUPRIO_NO_HIGH
 * and stays in the normal band, see gpuprio_mark().
 *
 * A set takes task_lock() of each task around its check and its store, so
 * that a check is never made against a value another set is replacing.
 * copy_process() takes the creator's value again under tasklist_lock (see
 * gpuprio_fork()), and every walk over several tasks holds tasklist_lock
 * for reading: a thread or child created during a set ends up with the new
 * value.
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/export.h>
#include <linux/gpuprio.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <uapi/linux/pidfd.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sched/user.h>
#include <linux/security.h>
#include <linux/syscalls.h>
#include <linux/sysctl.h>
#include <linux/uidgid.h>

/* As setpriority(2): the caller owns @p or has CAP_SYS_NICE over it. */
static bool gpuprio_may_change(struct task_struct *p)
{
	const struct cred *cred = current_cred(), *pcred = __task_cred(p);

	if (uid_eq(pcred->uid, cred->euid) || uid_eq(pcred->euid, cred->euid))
		return true;
	return ns_capable(pcred->user_ns, CAP_SYS_NICE);
}

/*
 * A best-effort nice needs can_nice() only when it would give @p more GPU
 * priority than both its current GPU priority and max(CPU nice, 0): a
 * negative CPU nice alone never grants a GPU nice below 0. NONE and idle
 * never raise above that.
 *
 * The current GPU priority is the one kernel.gpuprio_follow_nice = 1 gives,
 * whatever the sysctl: with 0, a task without a value runs at normal, and
 * measuring against that would let a task at CPU nice 10 set a GPU nice 0
 * that outlives the sysctl, which it may not do with the sysctl at 1.
 */
static bool gpuprio_needs_can_nice(struct task_struct *p, u16 prio)
{
	int cpu_nice = task_nice(p);
	int nice;

	if (GPUPRIO_PRIO_CLASS(prio) != GPUPRIO_CLASS_BE)
		return false;

	nice = GPUPRIO_TO_NICE(prio);
	return nice < gpuprio_nice_from_cpu(cpu_nice) &&
	       nice < gpuprio_rank(gpuprio_resolve(task_gpuprio_raw(p),
						  cpu_nice));
}

/**
 * gpuprio_may_set - may the current credentials give @p the GPU priority @prio
 * @p: the task; the caller holds the RCU read lock or a reference
 * @prio: a value that passed gpuprio_check_value()
 *
 * Everything is checked against current_cred(), so that /proc can ask the
 * same question for the credentials its file was opened with.
 *
 * The LSM is asked with security_task_setgpuprio(), whose implementations
 * must not sleep: the walks over several tasks call this under the RCU
 * read lock and tasklist_lock. Reads ask security_task_getgpuprio().
 *
 * Return: 0, -EPERM or -EACCES, or the LSM's refusal.
 */
int gpuprio_may_set(struct task_struct *p, u16 prio)
{
	bool allowed;
	int nice;

	rcu_read_lock();
	allowed = gpuprio_may_change(p);
	rcu_read_unlock();
	if (!allowed)
		return -EPERM;

	nice = gpuprio_rank(gpuprio_resolve(prio, task_nice(p)));
	nice = clamp(nice, MIN_NICE, MAX_NICE);
	if (gpuprio_needs_can_nice(p, prio) && !can_nice(p, nice))
		return -EACCES;

	return security_task_setgpuprio(p, prio);
}

/**
 * gpuprio_mark - the value to store for @prio set with the current credentials
 * @prio: a value that passed gpuprio_check_value(), or one gpuprio_mark()
 *	returned for other credentials (/proc's opener), whose mark is kept
 *
 * A negative nice gets GPUPRIO_NO_HIGH unless the credentials have
 * CAP_SYS_NICE in the initial user namespace, which every driver asks for
 * its high band; RLIMIT_NICE alone keeps the task in the normal band.
 * Realtime already needed CAP_SYS_NICE in gpuprio_check_value().
 *
 * Return: @prio, with GPUPRIO_NO_HIGH added when it applies.
 */
u16 gpuprio_mark(u16 prio)
{
	if (GPUPRIO_PRIO_CLASS(prio) == GPUPRIO_CLASS_BE &&
	    GPUPRIO_TO_NICE(gpuprio_value(prio)) < 0 &&
	    !(prio & GPUPRIO_NO_HIGH) && !capable(CAP_SYS_NICE))
		prio |= GPUPRIO_NO_HIGH;
	return prio;
}

/**
 * gpuprio_set_task_locked - set the GPU priority of one task under task_lock()
 * @p: the task, locked with task_lock() by the caller
 * @prio: as for gpuprio_mark()
 *
 * Return: 0 or a negative errno; on error @p is left unchanged.
 */
int gpuprio_set_task_locked(struct task_struct *p, u16 prio)
{
	int err = gpuprio_may_set(p, gpuprio_value(prio));

	if (err)
		return err;
	WRITE_ONCE(p->gpuprio, gpuprio_mark(prio));
	return 0;
}

/**
 * gpuprio_set_task - set the GPU priority of one task
 * @p: the task; the caller holds the RCU read lock or a reference
 * @prio: a value that passed gpuprio_check_value()
 *
 * The check and the store are made under task_lock(@p), so that two sets
 * of one task cannot interleave them.
 *
 * Return: 0 or a negative errno; on error @p is left unchanged.
 */
int gpuprio_set_task(struct task_struct *p, u16 prio)
{
	int err;

	task_lock(p);
	err = gpuprio_set_task_locked(p, prio);
	task_unlock(p);
	return err;
}

/*
 * setpriority(2)'s rule for groups: go on past a task that fails, report
 * success only if every matched task changed, else the last failure.
 */
static int gpuprio_set_one(struct task_struct *p, u16 prio, int error)
{
	int err = gpuprio_set_task(p, prio);

	if (err)
		return err;
	return error == -ESRCH ? 0 : error;
}

/*
 * Fold @fn over what a pidfd refers to, from -ESRCH: @fn gets the result so
 * far and returns the new one. A PIDFD_THREAD pidfd refers to its thread
 * alone, any other to every live thread of its process, as in
 * pidfd_send_signal(); @thread tells @fn which. -EBADF for an fd that is not
 * a pidfd, -EINVAL (as pidfd_send_signal()) for one whose pid the caller's
 * pid namespace cannot see; a process that has exited has no live thread,
 * so it ends in -ESRCH. The walk holds tasklist_lock so that a thread
 * created meanwhile sees the result, see gpuprio_fork(), and so that no
 * thread exits during it: exit_notify() sets exit_state under it.
 *
 * With @set, once a live thread was found, the threads that have exited but
 * are not released yet get @prio as well, for nothing in the result: they
 * are still on the thread list, gpuprio_get() and /proc still answer for
 * them by their id (a main thread does until the last thread exits), and
 * none of them may show a value the set replaced.
 */
static int gpuprio_pidfd_walk(int fd, u16 prio, bool set,
			      int (*fn)(struct task_struct *, u16, int, bool))
{
	struct task_struct *p, *t;
	unsigned int f_flags;
	struct pid *pid;
	bool thread, live = false;
	int ret = -ESRCH;

	pid = pidfd_get_pid(fd, &f_flags);
	if (IS_ERR(pid))
		return PTR_ERR(pid);
	if (!pid_nr_ns(pid, task_active_pid_ns(current))) {
		put_pid(pid);
		return -EINVAL;
	}
	thread = f_flags & PIDFD_THREAD;
	rcu_read_lock();
	read_lock(&tasklist_lock);
	p = pid_task(pid, PIDTYPE_PID);
	if (p && thread) {
		if (!p->exit_state)
			ret = fn(p, prio, ret, true);
	} else if (p) {
		for_each_thread(p, t) {
			if (!t->exit_state) {
				ret = fn(t, prio, ret, false);
				live = true;
			}
		}
		if (set && live) {
			for_each_thread(p, t) {
				if (t->exit_state)
					gpuprio_set_task(t, prio);
			}
		}
	}
	read_unlock(&tasklist_lock);
	rcu_read_unlock();
	put_pid(pid);
	return ret;
}

static int gpuprio_pidfd_set_one(struct task_struct *p, u16 prio, int error,
				 bool thread)
{
	return gpuprio_set_one(p, prio, error);
}

SYSCALL_DEFINE4(gpuprio_set, int, which, int, who, int, prio,
		unsigned int, flags)
{
	struct task_struct *g, *p;
	struct user_struct *user;
	struct pid *pgrp;
	kuid_t uid;
	int error;

	if (flags)
		return -EINVAL;
	if (which < GPUPRIO_WHO_PROCESS || which > GPUPRIO_WHO_PIDFD)
		return -EINVAL;
	error = gpuprio_check_value(prio);
	if (error)
		return error;
	/* The caller itself, the common case, needs no RCU read lock. */
	if (which == GPUPRIO_WHO_PROCESS && !who)
		return gpuprio_set_task(current, prio);
	/* Every thread of the process, as the PGRP rule does */
	if (which == GPUPRIO_WHO_PIDFD)
		return gpuprio_pidfd_walk(who, prio, true,
					  gpuprio_pidfd_set_one);

	error = -ESRCH;
	rcu_read_lock();
	switch (which) {
	case GPUPRIO_WHO_PROCESS:
		p = find_task_by_vpid(who);
		if (p)
			error = gpuprio_set_one(p, prio, error);
		break;
	case GPUPRIO_WHO_PGRP:
		pgrp = who ? find_vpid(who) : task_pgrp(current);
		read_lock(&tasklist_lock);
		do_each_pid_thread(pgrp, PIDTYPE_PGID, p) {
			error = gpuprio_set_one(p, prio, error);
		} while_each_pid_thread(pgrp, PIDTYPE_PGID, p);
		read_unlock(&tasklist_lock);
		break;
	case GPUPRIO_WHO_USER:
		uid = who ? make_kuid(current_user_ns(), who) : current_uid();
		if (!uid_valid(uid))
			break;
		/* No user_struct means no task of that user: skip the scan. */
		user = find_user(uid);
		if (!user)
			break;
		read_lock(&tasklist_lock);
		for_each_process_thread(g, p) {
			if (uid_eq(task_uid(p), uid) && task_pid_vnr(p))
				error = gpuprio_set_one(p, prio, error);
		}
		read_unlock(&tasklist_lock);
		free_uid(user);
		break;
	}
	rcu_read_unlock();
	return error;
}

/*
 * Effective value of @p, or a negative errno if the LSM hides it. @follow is
 * kernel.gpuprio_follow_nice, read once per call: a walk over many tasks
 * then reads it once and sees one setting of it.
 */
static int gpuprio_get_effective(struct task_struct *p, bool follow)
{
	int err = security_task_getgpuprio(p);

	return err ? err : gpuprio_value(task_gpuprio_follow(p, follow));
}

/* Raw value of @p (NONE kept), or a negative errno if the LSM hides it. */
static int gpuprio_get_raw(struct task_struct *p)
{
	int err = security_task_getgpuprio(p);

	return err ? err : task_gpuprio_raw(p);
}

/*
 * The highest effective value of a PGRP or USER walk. Its rank is kept next
 * to it so that each task is ranked once: a walk may visit every thread of
 * the system, under the RCU read lock (and tasklist_lock for PGRP).
 * Until a value is found, @ret is -ESRCH or the last LSM refusal.
 */
struct gpuprio_best {
	int ret;
	int rank;
};

static inline void gpuprio_best_keep(struct gpuprio_best *best, int value)
{
	int rank;

	if (value < 0) {
		if (best->ret < 0)
			best->ret = value;
		return;
	}
	rank = gpuprio_rank(value);
	if (best->ret < 0 || rank < best->rank) {
		best->ret = value;
		best->rank = rank;
	}
}

/*
 * A step of the pidfd walk: the raw value of a thread pidfd's thread, else
 * the higher of @ret and the effective value of @p. A process has few
 * threads, so ranking @ret again costs little. @prio is only the set's.
 */
static int gpuprio_get_one(struct task_struct *p, u16 prio, int ret,
			   bool thread)
{
	struct gpuprio_best best = { .ret = ret };

	if (thread)
		return gpuprio_get_raw(p);
	if (ret >= 0)
		best.rank = gpuprio_rank(ret);
	gpuprio_best_keep(&best,
			  gpuprio_get_effective(p, gpuprio_cpu_nice_followed()));
	return best.ret;
}

/*
 * What gpuprio_get() returns follows ioprio_get(): for one task (a thread
 * id, or a PIDFD_THREAD pidfd) its raw value, NONE included, so that what
 * is read can be set back unchanged; for several tasks (a process group, a
 * user, the pidfd of a process) the highest effective value among them,
 * NONE resolved as drivers see it (task_gpuprio()), since the NONE of two
 * tasks at different CPU nice do not compare. Neither ever carries
 * GPUPRIO_NO_HIGH: the band is not part of the value.
 */
SYSCALL_DEFINE3(gpuprio_get, int, which, int, who, unsigned int, flags)
{
	struct gpuprio_best best = { .ret = -ESRCH };
	struct task_struct *g, *p;
	struct user_struct *user;
	struct pid *pgrp;
	bool follow;
	kuid_t uid;

	if (flags)
		return -EINVAL;
	/* The caller itself, the common case, needs no RCU read lock. */
	if (which == GPUPRIO_WHO_PROCESS && !who)
		return gpuprio_get_raw(current);
	if (which == GPUPRIO_WHO_PIDFD)
		return gpuprio_pidfd_walk(who, 0, false, gpuprio_get_one);

	/* A walk reads kernel.gpuprio_follow_nice once, see above. */
	follow = gpuprio_cpu_nice_followed();
	rcu_read_lock();
	switch (which) {
	case GPUPRIO_WHO_PROCESS:
		p = find_task_by_vpid(who);
		if (p)
			best.ret = gpuprio_get_raw(p);
		break;
	case GPUPRIO_WHO_PGRP:
		pgrp = who ? find_vpid(who) : task_pgrp(current);
		read_lock(&tasklist_lock);
		do_each_pid_thread(pgrp, PIDTYPE_PGID, p) {
			gpuprio_best_keep(&best,
					  gpuprio_get_effective(p, follow));
		} while_each_pid_thread(pgrp, PIDTYPE_PGID, p);
		read_unlock(&tasklist_lock);
		break;
	case GPUPRIO_WHO_USER:
		uid = who ? make_kuid(current_user_ns(), who) : current_uid();
		if (!uid_valid(uid))
			break;
		user = find_user(uid);
		if (!user)
			break;
		for_each_process_thread(g, p) {
			if (!uid_eq(task_uid(p), uid) || !task_pid_vnr(p))
				continue;
			gpuprio_best_keep(&best,
					  gpuprio_get_effective(p, follow));
		}
		free_uid(user);
		break;
	default:
		best.ret = -EINVAL;
	}
	rcu_read_unlock();
	return best.ret;
}

/*
 * kernel.gpuprio_follow_nice: 1 (the default) lets a task without a GPU
 * priority follow its CPU nice (downward only), 0 keeps such tasks at
 * normal, so that a distribution can ship the feature with only explicit
 * values acting. Drivers read it at each submission, see task_gpuprio().
 */
struct static_key_true gpuprio_follow_nice_key = STATIC_KEY_TRUE_INIT;
EXPORT_SYMBOL_GPL(gpuprio_follow_nice_key);

static int sysctl_gpuprio_follow_nice = 1;
static DEFINE_MUTEX(gpuprio_follow_nice_lock);

/* Writes one at a time, so that the key always ends as the value does. */
static int gpuprio_follow_nice_handler(const struct ctl_table *table,
				       int write, void *buffer, size_t *lenp,
				       loff_t *ppos)
{
	int err;

	guard(mutex)(&gpuprio_follow_nice_lock);
	err = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	if (err || !write)
		return err;
	if (sysctl_gpuprio_follow_nice)
		static_branch_enable(&gpuprio_follow_nice_key);
	else
		static_branch_disable(&gpuprio_follow_nice_key);
	return 0;
}

static const struct ctl_table gpuprio_sysctls[] = {
	{
		.procname	= "gpuprio_follow_nice",
		.data		= &sysctl_gpuprio_follow_nice,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= gpuprio_follow_nice_handler,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

static int __init gpuprio_sysctl_init(void)
{
	register_sysctl_init("kernel", gpuprio_sysctls);
	return 0;
}
late_initcall(gpuprio_sysctl_init);

#ifdef CONFIG_GPUPRIO_KUNIT_TEST
#include "gpuprio_test.c"
#endif
