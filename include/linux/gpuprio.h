/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_GPUPRIO_H
#define _LINUX_GPUPRIO_H

#include <linux/bug.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/types.h>
#include <uapi/linux/gpuprio.h>

/*
 * Rank of an effective GPU priority on one scale, lower is more priority:
 * realtime levels sit below nice -20, idle above nice 19.
 */
#define GPUPRIO_RANK_RT_BASE	(-GPUPRIO_BE_NICE_OFFSET - GPUPRIO_RT_LEVELS)
#define GPUPRIO_RANK_IDLE	GPUPRIO_BE_LEVELS

/*
 * NONE follows the CPU nice downward only: a negative CPU nice (granted by
 * rtkit, GameMode or inherited) must not reach a driver's high levels, which
 * the drivers otherwise reserve for CAP_SYS_NICE. Above normal on the GPU
 * takes an explicit gpuprio_set() that passed can_nice().
 */
static inline int gpuprio_follow_nice(int cpu_nice)
{
	return max(cpu_nice, 0);
}

static inline u16 gpuprio_resolve(u16 prio, int cpu_nice)
{
	if (GPUPRIO_PRIO_CLASS(prio) == GPUPRIO_CLASS_NONE)
		return GPUPRIO_BE_NICE(gpuprio_follow_nice(cpu_nice));
	return prio;
}

/*
 * Rank of a resolved value, see GPUPRIO_RANK_RT_BASE. A raw NONE has no rank
 * of its own (it follows the CPU nice): passing one is a bug, and it ranks
 * as normal rather than as the nice -20 its data would decode to.
 */
static inline int gpuprio_rank(u16 prio)
{
	switch (GPUPRIO_PRIO_CLASS(prio)) {
	case GPUPRIO_CLASS_RT:
		return GPUPRIO_RANK_RT_BASE + GPUPRIO_PRIO_DATA(prio);
	case GPUPRIO_CLASS_IDLE:
		return GPUPRIO_RANK_IDLE;
	case GPUPRIO_CLASS_BE:
		return GPUPRIO_TO_NICE(prio);
	default:
		WARN_ON_ONCE(1);
		return 0;
	}
}

#ifdef CONFIG_GPUPRIO
/*
 * The value is a single u16 written with WRITE_ONCE(), so it can be read
 * without locks from any context, including a driver's submission path.
 */
static inline u16 task_gpuprio_raw(const struct task_struct *p)
{
	return READ_ONCE(p->gpuprio);
}

/* Fork with SCHED_RESET_ON_FORK: keep no boost, as sched_fork() does. */
static inline void gpuprio_reset_on_fork(struct task_struct *p)
{
	u16 prio = p->gpuprio;

	if (GPUPRIO_PRIO_CLASS(prio) == GPUPRIO_CLASS_RT ||
	    (GPUPRIO_PRIO_CLASS(prio) == GPUPRIO_CLASS_BE &&
	     GPUPRIO_TO_NICE(prio) < 0))
		p->gpuprio = GPUPRIO_DEFAULT;
}

int gpuprio_check_value(int prio);
int gpuprio_may_set(struct task_struct *p, u16 prio);
int gpuprio_set_task(struct task_struct *p, u16 prio);
#else
static inline u16 task_gpuprio_raw(const struct task_struct *p)
{
	return GPUPRIO_DEFAULT;
}

static inline void gpuprio_reset_on_fork(struct task_struct *p)
{
}
#endif

/* Effective value of @p: never NONE, which follows the task's CPU nice. */
static inline u16 task_gpuprio(const struct task_struct *p)
{
	return gpuprio_resolve(task_gpuprio_raw(p), task_nice(p));
}

#endif /* _LINUX_GPUPRIO_H */
