// SPDX-License-Identifier: MIT
/*
 * The GPU priority of a task (include/linux/gpuprio.h), for drivers built on
 * the DRM GPU scheduler.
 *
 * drm_sched serves its run queues strictly in order, one per priority, and
 * keeps KERNEL for the drivers' own work. A task's effective GPU priority is
 * put in one of the three others by gpuprio_band(), the mapping every
 * driver shares (the table is in Documentation/userspace-api/gpuprio.rst):
 * its low, normal and high bands are LOW, NORMAL and HIGH here.
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
 * which an entity with a single scheduler never does. A busy entity, one
 * that always has jobs queued as a GPU hog does, would never be idle at
 * that point either, so an entity with a single scheduler is moved to its
 * new run queue at once, jobs queued or not: its jobs stay in order in its
 * own job queue, and only which run queue the scheduler finds them on
 * changes.
 */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/gpuprio.h>
#include <linux/lockdep.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/sched.h>

#include <drm/gpu_scheduler.h>

/**
 * drm_sched_gpuprio_to_priority - drm_sched priority of a GPU priority
 * @gpuprio: an effective GPU priority, as returned by task_gpuprio(); never
 *	     GPUPRIO_CLASS_NONE
 *
 * Return: HIGH, NORMAL or LOW as gpuprio_band() says, never KERNEL.
 */
VISIBLE_IF_KUNIT enum drm_sched_priority
drm_sched_gpuprio_to_priority(u16 gpuprio)
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
EXPORT_SYMBOL(drm_sched_task_priority);

/*
 * Move a single-scheduler entity to @rq with its place in the scheduler:
 * on @rq's entity list if it was on its old run queue's (it has or had jobs
 * queued), and in @rq's FIFO tree with the submission time of its oldest
 * waiting job if it was in the old tree. The scheduler may be picking this
 * entity right now: it holds no lock of the entity between choosing it and
 * popping its job, and finds its next job on whatever run queue the entity
 * is on by then, as after drm_sched_entity_select_rq().
 *
 * drm_sched_rq_add_entity() and drm_sched_rq_remove_entity() take the run
 * queue's lock under the entity's, as drm_sched_entity_push_job() does.
 *
 * Returns true if the entity is on @rq's entity list: then the caller must
 * wake the scheduler (see drm_sched_entity_refresh_priority()).
 */
static bool drm_sched_entity_move_locked(struct drm_sched_entity *entity,
					 struct drm_sched_rq *rq)
{
	bool listed = !list_empty(&entity->list);
	bool in_tree = !RB_EMPTY_NODE(&entity->rb_tree_node);
	ktime_t oldest = entity->oldest_job_waiting;

	lockdep_assert_held(&entity->lock);

	drm_sched_rq_remove_entity(entity->rq, entity);
	entity->rq = rq;
	if (!listed)
		return false;
	drm_sched_rq_add_entity(rq, entity);
	if (in_tree)
		drm_sched_rq_update_fifo_locked(entity, oldest);
	return true;
}

/**
 * drm_sched_entity_refresh_priority - give an entity a new priority
 * @entity: scheduler entity
 * @priority: the new priority, clamped to the run queues of the entity's
 *	      scheduler
 *
 * An entity with a single scheduler is moved to the run queue of its new
 * priority here, even with jobs queued: the scheduler takes its next job
 * from there. Its jobs keep their order, they are in its own job queue.
 * An entity that can move between several schedulers takes its new
 * priority when drm_sched_job_arm() next picks a scheduler for it, once it
 * has no job queued, as with drm_sched_entity_set_priority().
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
	if (!entity->rq || entity->stopped) {
		spin_unlock(&entity->lock);
		return false;
	}
	sched = entity->rq->sched;
	priority = drm_sched_priority_clamp(sched, priority);
	changed = entity->priority != priority;
	entity->priority = priority;

	rq = sched->sched_rq[priority];
	if (!entity->sched_list && entity->rq != rq)
		queued = drm_sched_entity_move_locked(entity, rq);
	spin_unlock(&entity->lock);
	if (queued)
		drm_sched_wakeup(sched);
	return changed;
}
EXPORT_SYMBOL(drm_sched_entity_refresh_priority);
