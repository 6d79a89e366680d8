// SPDX-License-Identifier: MIT
/*
 * i915 follows the GPU priority of the task that submits.
 *
 * A task's GPU priority (see include/uapi/linux/gpuprio.h) is realtime,
 * best effort with a GPU nice, idle, or unset, in which case it follows the
 * task's CPU nice. i915 reads the effective value twice:
 *
 * - when a GEM context is created (the proto context of the context-create
 *   ioctl, and the default context created when the DRM file is opened),
 *   from the creating task, so that work submitted by other means than
 *   execbuf starts from a sensible value;
 * - at every execbuf, from the submitting task. The value is stored in the
 *   context, replacing the previous one, and is used for that request. A
 *   change therefore applies to the next submission; requests already
 *   queued keep the priority they were given.
 *
 * The context's own priority (I915_CONTEXT_PARAM_PRIORITY) wins: the task's
 * value only applies while the context's priority is the default, whether
 * left so or set so explicitly (a user space driver may set the default on
 * every context it creates, which must not opt the application out).
 * GETPARAM returns the context's priority as it was set, never the value
 * derived from the task.
 *
 * The conversion happens where a request's scheduling attributes are built
 * (execbuf, i915_request_add() and GuC context registration), so that the
 * scheduler core, priority inheritance between dependent requests, the
 * execlists and GuC backends, heartbeats and tracing only ever see plain
 * i915 priorities. Priority inheritance only raises a request's priority,
 * so a task lowering its GPU priority never slows down work that a
 * higher-priority request waits on.
 */

#include <linux/gpuprio.h>
#include <linux/minmax.h>
#include <linux/sched.h>

#include <drm/drm_print.h>
#include <uapi/drm/i915_drm.h>

#include "gem/i915_gem_context_types.h"
#include "i915_drm_client.h"
#include "i915_gpuprio.h"
#include "i915_scheduler_types.h"

/**
 * i915_gpuprio_to_priority - i915 priority of an effective GPU priority
 * @gpuprio: a resolved GPU priority, as returned by task_gpuprio()
 *
 * ======================  =============  ===========  =================
 * GPU priority            i915 priority  execlists    GuC bucket
 * ======================  =============  ===========  =================
 * realtime, level L       1023 - L       above all    above default
 * best effort, nice -20   20             above        above default
 * best effort, nice -1    1              above        above default
 * best effort, nice 0     0              default      default
 * best effort, nice 1     -1             below        below default
 * best effort, nice 19    -19            below        below default
 * idle                    -1023          below all    below default
 * ======================  =============  ===========  =================
 *
 * An unset GPU priority is resolved to best effort at the task's CPU nice
 * before it gets here, so a task at CPU nice 10 runs at i915 priority -10.
 *
 * Execlists (gen8+) order ready requests strictly by priority: a higher
 * priority request preempts lower ones, and requests of equal priority
 * share the engine by timeslicing. Every step of the table therefore
 * counts, and the band -19..20 stays around the default priority, with
 * realtime above and idle below the priorities (-1023..1023) that contexts
 * may set for themselves. Legacy ring submission (before gen8) has no
 * priorities at all.
 *
 * GuC submission only has three buckets for user contexts: below default
 * (GUC_CLIENT_PRIORITY_NORMAL) for any negative i915 priority, default
 * (GUC_CLIENT_PRIORITY_KMD_NORMAL) for 0 and above default
 * (GUC_CLIENT_PRIORITY_HIGH) for any positive one, see
 * map_i915_prio_to_guc_prio(). There only the sign of the GPU nice matters:
 * every realtime level and every negative nice become "above default",
 * every positive nice and idle become "below default".
 *
 * Return: an i915 priority between I915_CONTEXT_MIN_USER_PRIORITY and
 * I915_CONTEXT_MAX_USER_PRIORITY; the default priority for an unresolved
 * or unknown value.
 */
int i915_gpuprio_to_priority(u16 gpuprio)
{
	int data = GPUPRIO_PRIO_DATA(gpuprio);
	int prio;

	switch (GPUPRIO_PRIO_CLASS(gpuprio)) {
	case GPUPRIO_CLASS_RT:
		prio = I915_CONTEXT_MAX_USER_PRIORITY - data;
		break;
	case GPUPRIO_CLASS_BE:
		prio = GPUPRIO_BE_NICE_OFFSET - data;
		break;
	case GPUPRIO_CLASS_IDLE:
		prio = I915_CONTEXT_MIN_USER_PRIORITY;
		break;
	default:
		prio = I915_CONTEXT_DEFAULT_PRIORITY;
		break;
	}

	return clamp(prio, I915_CONTEXT_MIN_USER_PRIORITY,
		     I915_CONTEXT_MAX_USER_PRIORITY);
}

/**
 * i915_gpuprio_task_priority - i915 priority for the work of a task
 * @tsk: the task, usually current
 *
 * Return: the effective GPU priority of @tsk mapped to an i915 priority.
 */
int i915_gpuprio_task_priority(const struct task_struct *tsk)
{
	return i915_gpuprio_to_priority(task_gpuprio(tsk));
}

/**
 * i915_gpuprio_context_priority - priority of the next request of a context
 * @ctx: the GEM context
 *
 * Return: the context's own priority if it is not the default, else the
 * priority of the task that submitted to it last (or created it).
 */
int i915_gpuprio_context_priority(const struct i915_gem_context *ctx)
{
	int prio = READ_ONCE(ctx->sched.priority);

	if (prio != I915_CONTEXT_DEFAULT_PRIORITY)
		return prio;

	return READ_ONCE(ctx->gpuprio);
}

/**
 * i915_gpuprio_context_attr - scheduling attributes of a context's request
 * @ctx: the GEM context
 * @attr: filled in with the context's attributes and effective priority
 */
void i915_gpuprio_context_attr(const struct i915_gem_context *ctx,
			       struct i915_sched_attr *attr)
{
	*attr = ctx->sched;
	attr->priority = i915_gpuprio_context_priority(ctx);
}

/**
 * i915_gpuprio_execbuf_attr - scheduling attributes of an execbuf request
 * @ctx: the GEM context submitted to
 * @attr: filled in for the request
 *
 * Reads the GPU priority of the submitting task (current), stores it in
 * @ctx for the context's later requests and records what the request gets
 * for the client's fdinfo.
 */
void i915_gpuprio_execbuf_attr(struct i915_gem_context *ctx,
			       struct i915_sched_attr *attr)
{
	struct i915_drm_client *client = ctx->client;

	WRITE_ONCE(ctx->gpuprio, i915_gpuprio_task_priority(current));
	i915_gpuprio_context_attr(ctx, attr);

	if (client) {
		WRITE_ONCE(client->gpuprio.priority, attr->priority);
		WRITE_ONCE(client->gpuprio.submitted, true);
	}
}

/**
 * i915_gpuprio_client_fdinfo - show what the scheduler used for a client
 * @p: the fdinfo printer
 * @client: the DRM client
 *
 * Prints "i915-gpu-priority: <int>", the i915 priority (-1023..1023, 0 is
 * the default) given to the client's most recent execbuf request: the
 * context's own priority, or the submitting task's GPU priority mapped as
 * by i915_gpuprio_to_priority(). Scheduler bumps for dependencies, waits
 * and heartbeats are not included. The key is absent until the client's
 * first execbuf.
 */
void i915_gpuprio_client_fdinfo(struct drm_printer *p,
				const struct i915_drm_client *client)
{
	if (!READ_ONCE(client->gpuprio.submitted))
		return;

	drm_printf(p, "i915-gpu-priority:\t%d\n",
		   READ_ONCE(client->gpuprio.priority));
}
