/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_GPUPRIO_H
#define _UAPI_LINUX_GPUPRIO_H

/*
 * GPU priority of a task, read by GPU drivers when a context is created and
 * at every submission. Set and read with gpuprio_set(2) and gpuprio_get(2),
 * or through /proc/<pid>/gpu_nice.
 *
 * The system calls are __NR_gpuprio_set and __NR_gpuprio_get of
 * <asm/unistd.h>. A kernel without them (an older one, or one built
 * without CONFIG_GPUPRIO) fails them with ENOSYS.
 *
 * A value holds a class in bits 13-15 and class data in bits 0-12, as
 * ioprio values do.
 */
#define GPUPRIO_CLASS_SHIFT	13
#define GPUPRIO_NR_CLASSES	8
#define GPUPRIO_CLASS_MASK	(GPUPRIO_NR_CLASSES - 1)
#define GPUPRIO_PRIO_MASK	((1 << GPUPRIO_CLASS_SHIFT) - 1)

#define GPUPRIO_PRIO_CLASS(v)	(((v) >> GPUPRIO_CLASS_SHIFT) & GPUPRIO_CLASS_MASK)
#define GPUPRIO_PRIO_DATA(v)	((v) & GPUPRIO_PRIO_MASK)
#define GPUPRIO_PRIO_VALUE(class, data)					\
	((((class) & GPUPRIO_CLASS_MASK) << GPUPRIO_CLASS_SHIFT) |	\
	 ((data) & GPUPRIO_PRIO_MASK))

/* No explicit value: the GPU follows the CPU nice. Data is 0. */
#define GPUPRIO_CLASS_NONE	0
/* Above all normal work. Data is the level, 0 (highest) to 7. */
#define GPUPRIO_CLASS_RT	1
/* Best effort. Data is the GPU nice plus 20: 0 (nice -20) to 39. */
#define GPUPRIO_CLASS_BE	2
/* Below best effort at nice 19, in the drivers' low band. Data is 0. */
#define GPUPRIO_CLASS_IDLE	3

#define GPUPRIO_RT_LEVELS	8
#define GPUPRIO_BE_NICE_OFFSET	20
#define GPUPRIO_BE_LEVELS	40

#define GPUPRIO_BE_NICE(n)						\
	GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_BE, (n) + GPUPRIO_BE_NICE_OFFSET)
#define GPUPRIO_TO_NICE(v)						\
	((int)GPUPRIO_PRIO_DATA(v) - GPUPRIO_BE_NICE_OFFSET)

#define GPUPRIO_DEFAULT		GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_NONE, 0)

/* Values of the "which" argument. */
#define GPUPRIO_WHO_PROCESS	1	/* a thread id, 0 for the caller */
#define GPUPRIO_WHO_PGRP	2	/* a process group id, 0 for the caller's */
#define GPUPRIO_WHO_USER	3	/* a uid, 0 for the caller's real uid */
/* A pidfd: every thread of its process; its one thread if PIDFD_THREAD */
#define GPUPRIO_WHO_PIDFD	4

#endif /* _UAPI_LINUX_GPUPRIO_H */
