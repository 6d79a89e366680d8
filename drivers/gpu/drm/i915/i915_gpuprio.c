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
 * gpuprio_level() puts it in one of the three levels every driver shares
 * (the table is in Documentation/userspace-api/gpuprio.rst), and each level
 * becomes the context priority Mesa's iris gives its low, medium and high
 * contexts, so that a task-derived priority means what the same choice
 * made by the application means. Execlists and GuC thus see the same
 * three values: no GPU nice becomes a priority of its own.
 *
 * Return: %I915_GPUPRIO_LOW, %I915_CONTEXT_DEFAULT_PRIORITY or
 * %I915_GPUPRIO_HIGH; the default for an unresolved or unknown value.
 */
int i915_gpuprio_to_priority(u16 gpuprio)
{
	switch (gpuprio_level(gpuprio)) {
	case GPUPRIO_LEVEL_HIGH:
		return I915_GPUPRIO_HIGH;
	case GPUPRIO_LEVEL_LOW:
		return I915_GPUPRIO_LOW;
	default:
		return I915_CONTEXT_DEFAULT_PRIORITY;
	}
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
 * @ctx for the context's later requests and records, for the client's
 * fdinfo, the level the task gave and whether the context's own priority
 * overrode it.
 */
void i915_gpuprio_execbuf_attr(struct i915_gem_context *ctx,
			       struct i915_sched_attr *attr)
{
	struct i915_drm_client *client = ctx->client;
	u16 gpuprio = task_gpuprio(current);

	WRITE_ONCE(ctx->gpuprio, i915_gpuprio_to_priority(gpuprio));
	i915_gpuprio_context_attr(ctx, attr);

	if (client)
		WRITE_ONCE(client->gpuprio_fdinfo,
			   gpuprio_fdinfo_pack(gpuprio_level(gpuprio),
					       READ_ONCE(ctx->sched.priority) !=
					       I915_CONTEXT_DEFAULT_PRIORITY));
}

/**
 * i915_gpuprio_client_fdinfo - show the GPU priority a client's task gave
 * @p: the fdinfo printer
 * @client: the DRM client
 *
 * Prints the drm-gpuprio key of Documentation/gpu/drm-usage-stats.rst for
 * the client's most recent execbuf. The key is absent until the client's
 * first execbuf.
 */
void i915_gpuprio_client_fdinfo(struct drm_printer *p,
				const struct i915_drm_client *client)
{
	char text[32];

	if (gpuprio_fdinfo_format(text, sizeof(text),
				  READ_ONCE(client->gpuprio_fdinfo)))
		drm_printf(p, "drm-gpuprio:\t%s\n", text);
}
