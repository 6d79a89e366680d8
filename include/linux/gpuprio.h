/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_GPUPRIO_H
#define _LINUX_GPUPRIO_H

#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/capability.h>
#include <linux/jump_label.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/sprintf.h>
#include <linux/types.h>
#include <uapi/linux/gpuprio.h>

/*
 * Rank of an effective GPU priority on one scale, lower is more priority:
 * realtime levels sit below nice -20, idle above nice 19.
 */
#define GPUPRIO_RANK_RT_BASE	(-GPUPRIO_BE_NICE_OFFSET - GPUPRIO_RT_LEVELS)
#define GPUPRIO_RANK_IDLE	GPUPRIO_BE_LEVELS

/*
 * The stored value of a task is a value of include/uapi/linux/gpuprio.h,
 * plus this mark on a negative best-effort nice that was set without
 * CAP_SYS_NICE in the initial user namespace (by RLIMIT_NICE): such a nice
 * ranks as set but stays in the normal band, see gpuprio_band(), because
 * every driver reserves its high band for CAP_SYS_NICE. The mark sits in
 * the top data bit, which no valid value uses, so that the class reads
 * unchanged; gpuprio_value() strips it from what user space is shown.
 */
#define GPUPRIO_NO_HIGH		BIT(GPUPRIO_CLASS_SHIFT - 1)

static inline u16 gpuprio_value(u16 stored)
{
	return stored & ~GPUPRIO_NO_HIGH;
}

/*
 * NONE follows the CPU nice downward only: a negative CPU nice (granted by
 * rtkit, GameMode or inherited) must not reach a driver's high band, which
 * the drivers otherwise reserve for CAP_SYS_NICE. Above normal on the GPU
 * takes an explicit gpuprio_set() that passed can_nice().
 */
static inline int gpuprio_nice_from_cpu(int cpu_nice)
{
	return max(cpu_nice, 0);
}

static inline u16 gpuprio_resolve(u16 prio, int cpu_nice)
{
	if (GPUPRIO_PRIO_CLASS(prio) == GPUPRIO_CLASS_NONE)
		return GPUPRIO_BE_NICE(gpuprio_nice_from_cpu(cpu_nice));
	return prio;
}

/*
 * What drivers use: as gpuprio_resolve(), except that with @follow_nice
 * false (kernel.gpuprio_follow_nice = 0) a task without a GPU priority runs
 * at normal, so that only explicit values act.
 */
static inline u16 gpuprio_resolve_effective(u16 prio, int cpu_nice,
					    bool follow_nice)
{
	if (GPUPRIO_PRIO_CLASS(prio) == GPUPRIO_CLASS_NONE && !follow_nice)
		return GPUPRIO_BE_NICE(0);
	return gpuprio_resolve(prio, cpu_nice);
}

/*
 * Rank of a resolved value, see GPUPRIO_RANK_RT_BASE. A raw NONE has no rank
 * of its own (it follows the CPU nice): passing one is a bug, and it ranks
 * as normal rather than as the nice -20 its data would decode to. The
 * GPUPRIO_NO_HIGH mark does not change the rank.
 */
static inline int gpuprio_rank(u16 prio)
{
	prio = gpuprio_value(prio);
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

/*
 * The three bands every driver maps a task's GPU priority to, each to its
 * own constants; the table is in Documentation/userspace-api/gpuprio.rst.
 * High is only reached by a value set with CAP_SYS_NICE in the initial user
 * namespace: realtime, or a negative nice without GPUPRIO_NO_HIGH.
 */
enum gpuprio_band {
	GPUPRIO_BAND_LOW,
	GPUPRIO_BAND_NORMAL,
	GPUPRIO_BAND_HIGH,
};

/*
 * Level of a resolved (never NONE) value as task_gpuprio() returns it, mark
 * included, see enum gpuprio_band: a function of the stored value alone.
 */
static inline enum gpuprio_band gpuprio_band(u16 prio)
{
	switch (GPUPRIO_PRIO_CLASS(prio)) {
	case GPUPRIO_CLASS_RT:
		return GPUPRIO_BAND_HIGH;
	case GPUPRIO_CLASS_BE:
		if (GPUPRIO_TO_NICE(gpuprio_value(prio)) < 0)
			return prio & GPUPRIO_NO_HIGH ? GPUPRIO_BAND_NORMAL :
							GPUPRIO_BAND_HIGH;
		if (GPUPRIO_TO_NICE(gpuprio_value(prio)) > 0)
			return GPUPRIO_BAND_LOW;
		return GPUPRIO_BAND_NORMAL;
	case GPUPRIO_CLASS_IDLE:
		return GPUPRIO_BAND_LOW;
	default:
		/* Unresolved or unknown: nobody asked for a change */
		return GPUPRIO_BAND_NORMAL;
	}
}

/* The name fdinfo and the documentation give a band. */
static inline const char *gpuprio_band_name(enum gpuprio_band band)
{
	switch (band) {
	case GPUPRIO_BAND_LOW:
		return "low";
	case GPUPRIO_BAND_HIGH:
		return "high";
	default:
		return "normal";
	}
}

/*
 * What fdinfo's drm-gpuprio key (Documentation/gpu/drm-usage-stats.rst)
 * shows of a DRM client's last submission: the band its task gave, and
 * whether the application's own priority overrode it. Packed in one int
 * that a driver stores with WRITE_ONCE() from its submission path; 0
 * until the first submission, which shows no key.
 */
#define GPUPRIO_FDINFO_SET		BIT(0)
#define GPUPRIO_FDINFO_OVERRIDDEN	BIT(1)
#define GPUPRIO_FDINFO_BAND_SHIFT	2

static inline int gpuprio_fdinfo_pack(enum gpuprio_band band,
				      bool overridden)
{
	return GPUPRIO_FDINFO_SET |
	       (overridden ? GPUPRIO_FDINFO_OVERRIDDEN : 0) |
	       band << GPUPRIO_FDINFO_BAND_SHIFT;
}

/* The value of the drm-gpuprio key for @packed: false if there is none. */
static inline bool gpuprio_fdinfo_format(char *buf, size_t len, int packed)
{
	if (!(packed & GPUPRIO_FDINFO_SET))
		return false;

	snprintf(buf, len, "%s%s",
		 gpuprio_band_name(packed >> GPUPRIO_FDINFO_BAND_SHIFT),
		 packed & GPUPRIO_FDINFO_OVERRIDDEN ? " overridden" : "");
	return true;
}

#ifdef CONFIG_GPUPRIO
/*
 * The value is a single u16 written with WRITE_ONCE(), so it can be read
 * without locks from any context, including a driver's submission path.
 * This is the stored value, GPUPRIO_NO_HIGH included.
 */
static inline u16 task_gpuprio_stored(const struct task_struct *p)
{
	return READ_ONCE(p->gpuprio);
}

/* Fork with SCHED_RESET_ON_FORK: keep no boost, as sched_fork() does. */
static inline void gpuprio_reset_on_fork(struct task_struct *p)
{
	u16 prio = gpuprio_value(p->gpuprio);

	if (GPUPRIO_PRIO_CLASS(prio) == GPUPRIO_CLASS_RT ||
	    (GPUPRIO_PRIO_CLASS(prio) == GPUPRIO_CLASS_BE &&
	     GPUPRIO_TO_NICE(prio) < 0))
		p->gpuprio = GPUPRIO_DEFAULT;
}

/*
 * copy_process() under tasklist_lock, before @p is visible to any walk of
 * gpuprio_set(): take the creator's value again, in case a set changed it
 * after dup_task_struct() copied it, so that no new task or thread misses
 * a set (as copy_seccomp() does). @reset_on_fork is the creator's
 * SCHED_RESET_ON_FORK, which sched_fork() has already cleared in @p.
 */
static inline void gpuprio_fork(struct task_struct *p, bool reset_on_fork)
{
	p->gpuprio = READ_ONCE(current->gpuprio);
	if (reset_on_fork)
		gpuprio_reset_on_fork(p);
}

/* Class-specific validation only: no capability is checked here. */
static inline bool gpuprio_value_valid(int prio)
{
	unsigned int data;

	if (prio & ~(GPUPRIO_CLASS_MASK << GPUPRIO_CLASS_SHIFT |
		     GPUPRIO_PRIO_MASK))
		return false;

	data = GPUPRIO_PRIO_DATA(prio);
	switch (GPUPRIO_PRIO_CLASS(prio)) {
	case GPUPRIO_CLASS_NONE:
	case GPUPRIO_CLASS_IDLE:
		return data == 0;
	case GPUPRIO_CLASS_RT:
		return data < GPUPRIO_RT_LEVELS;
	case GPUPRIO_CLASS_BE:
		return data < GPUPRIO_BE_LEVELS;
	default:
		return false;
	}
}

/**
 * gpuprio_check_value - check a GPU priority before applying it to any task
 * @prio: the encoded value
 *
 * Inline, as ioprio_valid() is: every gpuprio_set() and every write of
 * /proc/<pid>/gpu_nice starts with it.
 *
 * Return: 0, -EINVAL for a malformed value, or -EPERM for realtime without
 * CAP_SYS_NICE.
 */
static inline int gpuprio_check_value(int prio)
{
	if (!gpuprio_value_valid(prio))
		return -EINVAL;
	if (GPUPRIO_PRIO_CLASS(prio) == GPUPRIO_CLASS_RT &&
	    !capable(CAP_SYS_NICE))
		return -EPERM;
	return 0;
}

int gpuprio_may_set(struct task_struct *p, u16 prio);
u16 gpuprio_mark(u16 prio);
int gpuprio_set_task_locked(struct task_struct *p, u16 prio);
int gpuprio_set_task(struct task_struct *p, u16 prio);

/*
 * kernel.gpuprio_follow_nice, read at every submission: a static key, so
 * that the submission path pays no call for a sysctl that is rarely
 * written, and with jump labels not even a load.
 */
DECLARE_STATIC_KEY_TRUE(gpuprio_follow_nice_key);

/* Does a task without a GPU priority follow its CPU nice? */
static inline bool gpuprio_cpu_nice_followed(void)
{
	return static_branch_likely(&gpuprio_follow_nice_key);
}

/*
 * For in-kernel tests only: store @prio in @p as it is, with none of the
 * checks of gpuprio_set(), to set up a case.
 *
 * Return: true, @p holds @prio.
 */
static inline bool gpuprio_test_set_raw(struct task_struct *p, u16 prio)
{
	WRITE_ONCE(p->gpuprio, prio);
	return true;
}
#else
/* Off means stock: the drivers see every task at normal. */
static inline bool gpuprio_cpu_nice_followed(void)
{
	return false;
}

static inline u16 task_gpuprio_stored(const struct task_struct *p)
{
	return GPUPRIO_DEFAULT;
}

static inline void gpuprio_reset_on_fork(struct task_struct *p)
{
}

static inline void gpuprio_fork(struct task_struct *p, bool reset_on_fork)
{
}

/* Every task is at GPUPRIO_DEFAULT: a test can ask for nothing else. */
static inline bool gpuprio_test_set_raw(struct task_struct *p, u16 prio)
{
	return prio == GPUPRIO_DEFAULT;
}
#endif

/* The value of @p as user space sets and reads it: NONE is kept. */
static inline u16 task_gpuprio_raw(const struct task_struct *p)
{
	return gpuprio_value(task_gpuprio_stored(p));
}

/*
 * task_gpuprio() with kernel.gpuprio_follow_nice read by the caller, as
 * @follow: a walk over many tasks reads it once.
 */
static inline u16 task_gpuprio_follow(const struct task_struct *p, bool follow)
{
	return gpuprio_resolve_effective(task_gpuprio_stored(p), task_nice(p),
					 follow);
}

/*
 * Effective value of @p, never NONE: NONE follows the CPU nice downward, or
 * is normal with kernel.gpuprio_follow_nice = 0 and without CONFIG_GPUPRIO.
 * It keeps GPUPRIO_NO_HIGH for gpuprio_band(); pass it through
 * gpuprio_value() before showing it to user space.
 */
static inline u16 task_gpuprio(const struct task_struct *p)
{
	return task_gpuprio_follow(p, gpuprio_cpu_nice_followed());
}

/* The band drivers give the work of @p, see enum gpuprio_band. */
static inline enum gpuprio_band task_gpuprio_band(const struct task_struct *p)
{
	return gpuprio_band(task_gpuprio(p));
}

#endif /* _LINUX_GPUPRIO_H */
