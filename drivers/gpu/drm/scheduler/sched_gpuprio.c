// SPDX-License-Identifier: MIT
/*
 * The GPU priority of a task (include/linux/gpuprio.h), for drivers built on
 * the DRM GPU scheduler.
 *
 * drm_sched serves its run queues strictly in order, one per priority, and
 * keeps KERNEL for the drivers' own work. A task's effective GPU priority is
 * put in one of the three others by gpuprio_level(), the mapping every
 * driver shares (the table is in Documentation/userspace-api/gpuprio.rst):
 * its low, normal and high levels are LOW, NORMAL and HIGH here.
 *
 * Drivers opt in: they read drm_sched_task_priority() when a context or
 * queue is created and again at each submission, and leave alone those
 * whose priority the application chose. There is no notifier: a change
 * applies to the task's next submission.
 *
 * drm_sched_entity_refresh_priority() works around two limits of
 * drm_sched_entity_set_priority(): it does not clamp to the scheduler's
 * number of run queues, and the new priority only takes effect when the
 * entity picks a scheduler again in drm_sched_job_arm(), on an idle entity,
 * which an entity with a single scheduler never does.
 */

#include <linux/export.h>
#include <linux/gpuprio.h>
#include <linux/minmax.h>
#include <linux/sched.h>

#include <drm/gpu_scheduler.h>

/**
 * drm_sched_gpuprio_to_priority - drm_sched priority of a GPU priority
 * @gpuprio: an effective GPU priority, as returned by task_gpuprio(); never
 *	     GPUPRIO_CLASS_NONE
 *
 * Returns HIGH, NORMAL or LOW as gpuprio_level() says, never KERNEL.
 */
enum drm_sched_priority drm_sched_gpuprio_to_priority(u16 gpuprio)
{
	switch (gpuprio_level(gpuprio)) {
	case GPUPRIO_LEVEL_HIGH:
		return DRM_SCHED_PRIORITY_HIGH;
	case GPUPRIO_LEVEL_LOW:
		return DRM_SCHED_PRIORITY_LOW;
	default:
		return DRM_SCHED_PRIORITY_NORMAL;
	}
}
EXPORT_SYMBOL(drm_sched_gpuprio_to_priority);

/**
 * drm_sched_task_priority - drm_sched priority that follows a task
 * @p: the task creating a context or submitting to it, usually current
 *
 * Lock-free, so it can be called from any submission path.
 */
enum drm_sched_priority drm_sched_task_priority(const struct task_struct *p)
{
	return drm_sched_gpuprio_to_priority(task_gpuprio(p));
}
EXPORT_SYMBOL(drm_sched_task_priority);

/* As drm_sched_entity_init() does: the lowest priority that exists. */
static enum drm_sched_priority
drm_sched_priority_clamp(const struct drm_gpu_scheduler *sched,
			 enum drm_sched_priority priority)
{
	if (priority < sched->num_rqs)
		return priority;
	return max_t(s32, (s32)sched->num_rqs - 1, DRM_SCHED_PRIORITY_KERNEL);
}

/**
 * drm_sched_entity_refresh_priority - give an entity a new priority
 * @entity: scheduler entity
 * @priority: the new priority, clamped to the run queues of the entity's
 *	      scheduler
 *
 * Like drm_sched_entity_set_priority(), the new priority applies to the
 * entity's next job once it has no job queued, so that its jobs keep their
 * order. An entity that can move between several schedulers moves at its
 * next drm_sched_job_arm(); one with a single scheduler is moved here, or
 * at a later call if it still has jobs queued. Call it where
 * drm_sched_job_arm() is called, under the same lock, before arming.
 *
 * Returns true if the entity's priority changed.
 */
bool drm_sched_entity_refresh_priority(struct drm_sched_entity *entity,
				       enum drm_sched_priority priority)
{
	struct drm_gpu_scheduler *sched;
	struct drm_sched_rq *rq;
	bool changed;

	spin_lock(&entity->lock);
	if (!entity->rq || entity->stopped) {
		spin_unlock(&entity->lock);
		return false;
	}
	sched = entity->rq->sched;
	priority = drm_sched_priority_clamp(sched, priority);
	changed = entity->priority != priority;
	entity->priority = priority;

	rq = sched->sched_rq[priority];
	if (!entity->sched_list && entity->rq != rq &&
	    !spsc_queue_count(&entity->job_queue)) {
		drm_sched_rq_remove_entity(entity->rq, entity);
		entity->rq = rq;
	}
	spin_unlock(&entity->lock);
	return changed;
}
EXPORT_SYMBOL(drm_sched_entity_refresh_priority);
