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
 *   from the creating task, so that what is decided for the context before
 *   its first execbuf (semaphores, GuC registration) follows that task;
 * - at every execbuf, from the submitting task. The value is used for that
 *   request and stored in the context, replacing the previous one. A
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
 * The effective priority is only formed where it is used: for the request
 * an execbuf adds, when GuC registers one of the context's engines, and
 * where i915 decides whether the context may busy-wait on semaphores
 * (which it allows at normal priority and above: when the context's
 * engines are set up, when the application sets its priority, and at
 * every execbuf for the context's later requests). The scheduler core, priority inheritance between
 * dependent requests, the execlists and GuC backends, heartbeats and
 * tracing only ever see plain i915 priorities, and requests a GEM context
 * gets by other means than execbuf keep the context's own priority, as
 * before. Priority inheritance only raises a request's priority, so a task
 * lowering its GPU priority never slows down work that a higher-priority
 * request waits on.
 *
 * What the priority does on execlists (6.12: need_preempt() and
 * kick_execlists()): it orders the queue, and from gen9 on a queued request
 * preempts the running context only when its priority is above both the
 * running request's and I915_PRIORITY_NORMAL - 1. Work at the normal or
 * high band thus preempts work at the low band and high preempts normal,
 * but nothing is preempted for low work, and equal priorities share the
 * engine by timeslices. Gen8 has no preemption: there the priority only
 * decides which queued context is submitted next. Under GuC the three
 * bands map to three of the firmware's priorities, between which it
 * schedules.
 */

#include <linux/gpuprio.h>
#include <linux/sched.h>

#include <drm/drm_print.h>
#include <uapi/drm/i915_drm.h>

#include "gem/i915_gem_context_types.h"
#include "gt/intel_context.h"
#include "gt/intel_engine.h"
#include "i915_drm_client.h"
#include "i915_gpuprio.h"
#include "i915_scheduler_types.h"

/* The context priority Mesa's iris gives its low, medium and high contexts. */
static int i915_gpuprio_band_priority(enum gpuprio_band band)
{
	switch (band) {
	case GPUPRIO_BAND_HIGH:
		return I915_GPUPRIO_HIGH;
	case GPUPRIO_BAND_LOW:
		return I915_GPUPRIO_LOW;
	default:
		return I915_CONTEXT_DEFAULT_PRIORITY;
	}
}

/**
 * i915_gpuprio_to_priority - i915 priority of an effective GPU priority
 * @gpuprio: a resolved GPU priority, as returned by task_gpuprio()
 *
 * gpuprio_band() puts it in one of the three bands every driver shares
 * (the table is in Documentation/userspace-api/gpuprio.rst), and each band
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
	return i915_gpuprio_band_priority(gpuprio_band(gpuprio));
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
 * i915_gpuprio_context_priority - effective priority of a context
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
 * i915_gpuprio_record_execbuf - scheduling attributes of an execbuf request
 * @ctx: the GEM context submitted to
 * @attr: filled in for the request
 *
 * Reads the GPU priority of the submitting task (current), stores it in
 * @ctx for what is decided later from the context (semaphores, the GuC
 * registration of its engines) and records, for the client's fdinfo, the
 * band the task gave and whether the context's own priority overrode it.
 *
 * Threads may submit to one context concurrently, each storing its own
 * priority in @ctx: the request gets the value computed here, never one
 * read back from @ctx, and the context's own priority is read once.
 */
void i915_gpuprio_record_execbuf(struct i915_gem_context *ctx,
				 struct i915_sched_attr *attr)
{
	struct i915_drm_client *client = ctx->client;
	enum gpuprio_band band = gpuprio_band(task_gpuprio(current));
	int prio = i915_gpuprio_band_priority(band);
	bool overridden;

	WRITE_ONCE(ctx->gpuprio, prio);

	*attr = ctx->sched;
	attr->priority = READ_ONCE(ctx->sched.priority);
	overridden = attr->priority != I915_CONTEXT_DEFAULT_PRIORITY;
	if (!overridden)
		attr->priority = prio;

	if (client)
		WRITE_ONCE(client->gpuprio_fdinfo,
			   gpuprio_fdinfo_pack(band, overridden));
}

/**
 * i915_gpuprio_update_semaphores - semaphores for a context's next requests
 * @ce: the engine context of an execbuf's request
 * @prio: the request's priority, from i915_gpuprio_record_execbuf()
 *
 * i915 lets a context busy-wait on semaphores at normal priority and
 * above only, so that lowered work does not spin on an engine others need
 * (intel_context_set_gem() and the context's SETPARAM decide it the same
 * way). A task's priority may change after it created the context: apply
 * the rule again to what the task's last execbuf got. The request at hand
 * has already chosen how to wait, so this takes effect from the next one.
 */
void i915_gpuprio_update_semaphores(struct intel_context *ce, int prio)
{
	struct intel_engine_cs *engine = ce->engine;
	bool use;

	if (!intel_engine_has_timeslices(engine))
		return;

	use = prio >= I915_PRIORITY_NORMAL &&
	      intel_engine_has_semaphores(engine);
	if (use == intel_context_use_semaphores(ce))
		return;

	if (use)
		intel_context_set_use_semaphores(ce);
	else
		intel_context_clear_use_semaphores(ce);
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
