// SPDX-License-Identifier: MIT
/*
 * The GPU priority of a task (include/linux/gpuprio.h), for drivers built on
 * the DRM GPU scheduler.
 *
 * Under the FIFO and round robin policies drm_sched serves its run queues
 * strictly in order, one per priority, and keeps KERNEL for the drivers' own
 * work; under the FAIR policy it has a single run queue and the priority is
 * the entity's weight. A task's effective GPU priority is put in one of the
 * three priorities below KERNEL by gpuprio_band(), the mapping every driver
 * shares (the table is in Documentation/userspace-api/gpuprio.rst): its low,
 * normal and high bands are LOW, NORMAL and HIGH here.
 *
 * Drivers opt in: they read drm_sched_task_priority() when a context or
 * queue is created and again at each submission, and leave alone those
 * whose priority the application chose. There is no notifier: a change
 * applies to the task's next submission.
 *
 * drm_sched_entity_refresh_priority() works around two limits of
 * drm_sched_entity_set_priority(): it does not clamp to the scheduler's
 * number of run queues, and under FIFO and round robin the new run queue is
 * only taken when the entity picks a scheduler again in drm_sched_job_arm(),
 * on an idle entity, which an entity with a single scheduler never does. A
 * busy entity, one that always has jobs queued as a GPU hog does, would
 * never be idle at that point either, so an entity with a single scheduler
 * is moved to its new run queue at once, jobs queued or not: its jobs stay
 * in order in its own job queue, and only which run queue the scheduler
 * finds them on changes. Under FAIR nothing moves: the scheduler reads the
 * weight from entity->priority and entity->nice each time it accounts the
 * entity's GPU time, and drm_sched_entity_refresh_task() gives the entity
 * the task's GPU nice (drm_sched_entity_set_nice()) instead of a band.
 */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/gpuprio.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/sched.h>

#include <drm/gpu_scheduler.h>

#include "sched_internal.h"

/**
 * drm_sched_gpuprio_to_priority - drm_sched priority of a GPU priority
 * @gpuprio: an effective GPU priority, as returned by task_gpuprio(); never
 *	     GPUPRIO_CLASS_NONE
 *
 * Return: HIGH, NORMAL or LOW as gpuprio_band() says, never KERNEL.
 */
enum drm_sched_priority drm_sched_gpuprio_to_priority(u16 gpuprio)
{
	switch (gpuprio_band(gpuprio)) {
	case GPUPRIO_BAND_HIGH:
		return DRM_SCHED_PRIORITY_HIGH;
	case GPUPRIO_BAND_LOW:
		return DRM_SCHED_PRIORITY_LOW;
	default:
		return DRM_SCHED_PRIORITY_NORMAL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(drm_sched_gpuprio_to_priority);

/**
 * drm_sched_task_priority - drm_sched priority that follows a task
 * @p: the task creating a context or submitting to it, usually current
 *
 * Lock-free, so it can be called from any submission path.
 *
 * Return: the drm_sched priority of @p's effective GPU priority, HIGH,
 * NORMAL or LOW.
 */
enum drm_sched_priority drm_sched_task_priority(const struct task_struct *p)
{
	return drm_sched_gpuprio_to_priority(task_gpuprio(p));
}
EXPORT_SYMBOL_GPL(drm_sched_task_priority);

/**
 * drm_sched_gpuprio_to_nice - drm_sched GPU nice of a GPU priority
 * @gpuprio: an effective GPU priority, as returned by task_gpuprio(); never
 *	     GPUPRIO_CLASS_NONE
 *
 * Return: the nice of a best-effort value, DRM_SCHED_NICE_MIN for realtime
 * and DRM_SCHED_NICE_IDLE for idle, as drm_sched_entity_set_nice() takes
 * it. A negative nice that gpuprio_band() keeps out of the high band is
 * 0: only a value allowed above normal weighs more than normal.
 */
int drm_sched_gpuprio_to_nice(u16 gpuprio)
{
	int nice;

	switch (GPUPRIO_PRIO_CLASS(gpuprio)) {
	case GPUPRIO_CLASS_RT:
		return DRM_SCHED_NICE_MIN;
	case GPUPRIO_CLASS_BE:
		nice = GPUPRIO_TO_NICE(gpuprio_value(gpuprio));
		if (nice < 0 && gpuprio_band(gpuprio) != GPUPRIO_BAND_HIGH)
			return 0;
		return clamp(nice, DRM_SCHED_NICE_MIN, DRM_SCHED_NICE_MAX);
	case GPUPRIO_CLASS_IDLE:
		return DRM_SCHED_NICE_IDLE;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(drm_sched_gpuprio_to_nice);

/**
 * drm_sched_entity_refresh_priority - give an entity a new priority
 * @entity: scheduler entity
 * @priority: the new priority, clamped to the run queues of the entity's
 *	      scheduler; an entity without a run queue yet keeps it for the
 *	      scheduler it picks next
 *
 * Under the FIFO and round robin policies an entity with a single
 * scheduler is moved to the run queue of its new priority here, even with
 * jobs queued: the scheduler takes its next job from there. Its jobs keep
 * their order, they are in its own job queue. An entity that can move
 * between several schedulers takes its new run queue when
 * drm_sched_job_arm() next picks a scheduler for it, once it has no job
 * queued, as with drm_sched_entity_set_priority(). Under the FAIR policy
 * the entity stays on the single run queue and its new priority is the
 * weight of the GPU time it uses from now on.
 * A boost (see sched_boost.c) keeps the entity at least at the priority
 * it lends until it ends.
 *
 * Call it where drm_sched_job_arm() is called, under the same lock, before
 * arming: that lock keeps drm_sched_entity_push_job() of this entity from
 * adding it to a run queue meanwhile.
 *
 * A moved entity with jobs queued wakes the scheduler. Its worker looks at
 * the run queues one at a time, each under its own lock, and may look at
 * the new one before the entity is added there and at the old one after it
 * was removed: it then finds nothing and sleeps, and the pushes that follow
 * do not wake it, since the entity already has jobs queued.
 *
 * Return: true if the entity's priority changed.
 */
bool drm_sched_entity_refresh_priority(struct drm_sched_entity *entity,
				       enum drm_sched_priority priority)
{
	struct drm_gpu_scheduler *sched;
	struct drm_sched_rq *rq;
	bool changed, queued = false;

	spin_lock(&entity->lock);
	if (entity->stopped) {
		spin_unlock(&entity->lock);
		return false;
	}
	/*
	 * Without a run queue (no scheduler of its list was ready when it
	 * last picked one) the entity takes the priority's run queue when it
	 * picks a scheduler, bounded to that scheduler's by
	 * drm_sched_entity_select_rq(); until then it has nothing to move.
	 */
	sched = entity->rq ? entity->rq->sched : NULL;
	if (sched)
		priority = drm_sched_priority_clamp(sched, priority);
	else
		priority = min(priority, DRM_SCHED_PRIORITY_LOW);
	changed = entity->priority != priority;
	entity->priority = priority;

	if (drm_sched_policy != DRM_SCHED_POLICY_FAIR) {
		entity->rq_priority = drm_sched_entity_run_priority(entity);
		rq = sched ? sched->sched_rq[entity->rq_priority] : NULL;
		if (rq && !entity->sched_list && entity->rq != rq)
			queued = drm_sched_entity_move_locked(entity, rq);
	}
	spin_unlock(&entity->lock);
	if (queued)
		drm_sched_wakeup(sched);
	return changed;
}
EXPORT_SYMBOL(drm_sched_entity_refresh_priority);

/**
 * drm_sched_entity_refresh_gpuprio - give an entity a GPU priority
 * @entity: scheduler entity
 * @gpuprio: an effective GPU priority, as returned by task_gpuprio()
 *
 * Under FIFO and round robin, drm_sched_entity_refresh_priority() to the
 * band drm_sched_gpuprio_to_priority() gives. Under FAIR the nice grades the
 * weight instead of the band: the entity's GPU nice becomes
 * drm_sched_gpuprio_to_nice() (drm_sched_entity_set_nice()) and its
 * priority HIGH for a value of the high band, NORMAL for any other, so
 * that a positive nice or idle weighs 1.25^nice against nice 0 rather than
 * dropping to LOW.
 *
 * Return: true if the entity's priority or nice changed.
 */
VISIBLE_IF_KUNIT bool
drm_sched_entity_refresh_gpuprio(struct drm_sched_entity *entity, u16 gpuprio)
{
	enum drm_sched_priority priority;
	int nice, old;

	if (drm_sched_policy != DRM_SCHED_POLICY_FAIR)
		return drm_sched_entity_refresh_priority(entity,
				drm_sched_gpuprio_to_priority(gpuprio));

	priority = gpuprio_band(gpuprio) == GPUPRIO_BAND_HIGH ?
		   DRM_SCHED_PRIORITY_HIGH : DRM_SCHED_PRIORITY_NORMAL;
	nice = drm_sched_gpuprio_to_nice(gpuprio);
	spin_lock(&entity->lock);
	old = entity->nice;
	spin_unlock(&entity->lock);
	if (drm_sched_entity_set_nice(entity, nice))
		return false;
	return drm_sched_entity_refresh_priority(entity, priority) ||
	       old != nice;
}
EXPORT_SYMBOL_IF_KUNIT(drm_sched_entity_refresh_gpuprio);

/**
 * drm_sched_entity_refresh_task - give an entity the GPU priority of a task
 * @entity: scheduler entity
 * @p: the task submitting to @entity, usually current
 *
 * What a driver calls at each submission of a context that follows its
 * task, with the locking of drm_sched_entity_refresh_priority(): under FIFO
 * and round robin the entity is moved to the run queue of
 * drm_sched_task_priority(); under FAIR the task's GPU nice becomes the
 * entity's weight (drm_sched_entity_set_nice()) and nothing moves.
 *
 * Return: true if the entity's priority or nice changed.
 */
bool drm_sched_entity_refresh_task(struct drm_sched_entity *entity,
				   const struct task_struct *p)
{
	return drm_sched_entity_refresh_gpuprio(entity, task_gpuprio(p));
}
EXPORT_SYMBOL_GPL(drm_sched_entity_refresh_task);
