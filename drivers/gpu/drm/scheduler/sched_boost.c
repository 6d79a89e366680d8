// SPDX-License-Identifier: MIT
/*
 * Priority that follows the work a job waits for.
 *
 * A job of a high priority entity that depends on a job of a lower one waits
 * for whatever holds the lower one back: under FIFO and round robin a busy
 * entity between the two priorities runs first, under FAIR the lower entity
 * waits for its weight's share. So the entity of the job waited for borrows
 * the priority of the waiter until the scheduler takes that job, then goes
 * back to its own. Once taken, a job's place no longer depends on the
 * scheduler: the hardware runs it. Two kinds of waiter lend their priority:
 *
 * - a job of another entity on the same device, when the scheduler finds
 *   that it depends on the job (drm_sched_entity_pop_job());
 * - a task that sets a deadline on the job's finished fence
 *   (dma_fence_set_deadline()), with what that task may have.
 *
 * A boost is asked for on the job's &drm_sched_fence, from any context: the
 * waiter cannot safely reach the entity, which the driver may free once the
 * job is out of its queue. drm_sched_fence_boost() queues the fence on its
 * scheduler's &drm_gpu_scheduler.boosts and wakes the scheduler, whose work
 * finds the entity on its run queues and holds it there as it holds an
 * entity it runs (&drm_sched_entity.entity_idle, which drm_sched_entity_kill()
 * waits for). The boost ends in drm_sched_entity_pop_job(), when the entity's
 * job it was for is taken.
 */

#include <linux/llist.h>
#include <linux/minmax.h>

#include <drm/gpu_scheduler.h>

#include "sched_internal.h"

/**
 * drm_sched_entity_run_priority - the priority an entity is scheduled at
 * @entity: scheduler entity
 *
 * Return: the higher of the entity's priority and the one a boost lends it.
 */
enum drm_sched_priority
drm_sched_entity_run_priority(const struct drm_sched_entity *entity)
{
	return min(entity->priority, entity->boost_priority);
}

/**
 * drm_sched_entity_run_nice - the GPU nice an entity is weighed at
 * @entity: scheduler entity
 *
 * Return: the lower of the entity's GPU nice and the one a boost lends it.
 */
int drm_sched_entity_run_nice(const struct drm_sched_entity *entity)
{
	if (entity->boost_priority == DRM_SCHED_PRIORITY_COUNT)
		return entity->nice;
	return min(entity->nice, entity->boost_nice);
}

/*
 * Put @entity on the run queue of the priority it is scheduled at, under
 * FIFO and round robin, if it is on one of @sched's; under FAIR its weight
 * changes instead, read each time its GPU time is accounted.
 */
static void drm_sched_entity_boost_requeue(struct drm_sched_entity *entity,
					   struct drm_gpu_scheduler *sched)
{
	struct drm_sched_rq *rq;

	lockdep_assert_held(&entity->lock);

	if (drm_sched_policy == DRM_SCHED_POLICY_FAIR)
		return;

	entity->rq_priority = drm_sched_entity_run_priority(entity);
	rq = sched->sched_rq[min_t(u32, entity->rq_priority,
				   sched->num_rqs - 1)];
	if (rq != entity->rq)
		drm_sched_entity_move_locked(entity, rq);
}

/*
 * Lend @priority and @nice to @entity until its job @seqno is taken, unless
 * that job was taken already. Called from the scheduler's work, which holds
 * the entity (its entity_idle is not complete).
 */
static void drm_sched_entity_boost(struct drm_sched_entity *entity,
				   struct drm_gpu_scheduler *sched,
				   u32 seqno, enum drm_sched_priority priority,
				   int nice)
{
	struct dma_fence *last;

	spin_lock(&entity->lock);
	if (entity->stopped || !entity->rq || entity->rq->sched != sched)
		goto out;

	last = rcu_dereference_protected(entity->last_scheduled, true);
	if (last && (s32)(last->seqno - seqno) >= 0)
		goto out;

	if (entity->boost_priority == DRM_SCHED_PRIORITY_COUNT) {
		entity->boost_priority = priority;
		entity->boost_nice = nice;
		entity->boost_seqno = seqno;
	} else {
		entity->boost_priority = min(entity->boost_priority, priority);
		entity->boost_nice = min(entity->boost_nice, nice);
		if ((s32)(seqno - entity->boost_seqno) > 0)
			entity->boost_seqno = seqno;
	}
	drm_sched_entity_boost_requeue(entity, sched);
out:
	spin_unlock(&entity->lock);
}

/**
 * drm_sched_entity_unboost - end the boost of an entity
 * @entity: scheduler entity, its lock held
 * @seqno: sequence number of the job just taken from the entity
 *
 * Called when the scheduler takes a job from @entity: once the last job a
 * boost was for is taken, the entity goes back to its own priority.
 */
void drm_sched_entity_unboost(struct drm_sched_entity *entity, u32 seqno)
{
	lockdep_assert_held(&entity->lock);

	if (entity->boost_priority == DRM_SCHED_PRIORITY_COUNT ||
	    (s32)(seqno - entity->boost_seqno) < 0)
		return;

	entity->boost_priority = DRM_SCHED_PRIORITY_COUNT;
	entity->boost_nice = 0;
	if (entity->rq)
		drm_sched_entity_boost_requeue(entity, entity->rq->sched);
}

/*
 * The entity whose jobs have the scheduled fences of @context, if it is on
 * one of @sched's run queues, held as drm_sched_rq_select_entity() holds the
 * entity it returns: the caller completes its entity_idle.
 */
static struct drm_sched_entity *
drm_sched_find_entity(struct drm_gpu_scheduler *sched, u64 context)
{
	struct drm_sched_entity *entity;
	unsigned int i;

	for (i = 0; i < sched->num_rqs; i++) {
		struct drm_sched_rq *rq = sched->sched_rq[i];

		spin_lock(&rq->lock);
		list_for_each_entry(entity, &rq->entities, list) {
			if (entity->fence_context == context) {
				reinit_completion(&entity->entity_idle);
				spin_unlock(&rq->lock);
				return entity;
			}
		}
		spin_unlock(&rq->lock);
	}

	return NULL;
}

/**
 * drm_sched_apply_boosts - apply the boosts asked for on a scheduler
 * @sched: scheduler instance
 *
 * Called from the scheduler's run-job work, before it selects an entity.
 */
void drm_sched_apply_boosts(struct drm_gpu_scheduler *sched)
{
	struct drm_sched_fence *s_fence, *next;
	struct llist_node *boosts;

	boosts = llist_reverse_order(llist_del_all(&sched->boosts));
	llist_for_each_entry_safe(s_fence, next, boosts, boost_node) {
		struct dma_fence *finished = &s_fence->finished;
		enum drm_sched_priority priority;
		struct drm_sched_entity *entity;
		unsigned long flags;
		int nice;

		dma_fence_lock_irqsave(finished, flags);
		clear_bit(DRM_SCHED_FENCE_FLAG_BOOST_BIT, &finished->flags);
		priority = s_fence->boost_priority;
		nice = s_fence->boost_nice;
		dma_fence_unlock_irqrestore(finished, flags);

		if (!dma_fence_is_signaled(&s_fence->scheduled)) {
			entity = drm_sched_find_entity(sched,
						       s_fence->scheduled.context);
			if (entity) {
				drm_sched_entity_boost(entity, sched,
						       s_fence->scheduled.seqno,
						       priority, nice);
				complete_all(&entity->entity_idle);
			}
		}
		dma_fence_put(finished);
	}
}

/**
 * drm_sched_drop_boosts - forget the boosts asked for on a scheduler
 * @sched: scheduler instance, its work stopped
 */
void drm_sched_drop_boosts(struct drm_gpu_scheduler *sched)
{
	struct drm_sched_fence *s_fence, *next;

	llist_for_each_entry_safe(s_fence, next, llist_del_all(&sched->boosts),
				  boost_node) {
		clear_bit(DRM_SCHED_FENCE_FLAG_BOOST_BIT,
			  &s_fence->finished.flags);
		dma_fence_put(&s_fence->finished);
	}
}

/**
 * drm_sched_fence_boost - lend a priority to the entity of a job
 * @s_fence: the job's scheduler fence
 * @priority: the priority of the waiter, no higher than it may have
 * @nice: the GPU nice of the waiter, which weighs GPU time under FAIR
 *
 * The entity of the job is scheduled at no less than @priority (@nice under
 * FAIR) until the scheduler takes the job; nothing changes if it already is,
 * or if the job was taken. May be called from any context: the boost is
 * applied by the work of the job's scheduler, which this wakes.
 */
void drm_sched_fence_boost(struct drm_sched_fence *s_fence,
			   enum drm_sched_priority priority, int nice)
{
	struct dma_fence *finished = &s_fence->finished;
	unsigned long flags;
	bool queue;

	if (dma_fence_is_signaled(&s_fence->scheduled))
		return;

	dma_fence_lock_irqsave(finished, flags);
	queue = !test_and_set_bit(DRM_SCHED_FENCE_FLAG_BOOST_BIT,
				  &finished->flags);
	if (queue) {
		s_fence->boost_priority = priority;
		s_fence->boost_nice = nice;
	} else {
		s_fence->boost_priority = min(s_fence->boost_priority,
					      priority);
		s_fence->boost_nice = min(s_fence->boost_nice, nice);
	}
	dma_fence_unlock_irqrestore(finished, flags);

	if (!queue)
		return;

	dma_fence_get(finished);
	llist_add(&s_fence->boost_node, &s_fence->sched->boosts);
	drm_sched_wakeup(s_fence->sched);
}
