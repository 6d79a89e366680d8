/* SPDX-License-Identifier: MIT */
/*
 * i915 follows the GPU priority of the task that submits: see i915_gpuprio.c.
 */

#ifndef __I915_GPUPRIO_H__
#define __I915_GPUPRIO_H__

#include <linux/gpuprio.h>
#include <linux/types.h>

#include <uapi/drm/i915_drm.h>

/*
 * The context priorities Mesa's iris gives its low and high contexts (its
 * medium one is I915_CONTEXT_DEFAULT_PRIORITY): a task's low and high GPU
 * priority bands become these.
 */
#define I915_GPUPRIO_LOW	((I915_CONTEXT_MIN_USER_PRIORITY - 1) / 2)
#define I915_GPUPRIO_HIGH	((I915_CONTEXT_MAX_USER_PRIORITY + 1) / 2)

struct drm_printer;
struct i915_drm_client;
struct i915_gem_context;
struct i915_sched_attr;
struct intel_context;
struct task_struct;

#if IS_ENABLED(CONFIG_GPUPRIO)
int i915_gpuprio_to_priority(u16 gpuprio);
int i915_gpuprio_task_priority(const struct task_struct *tsk);

int i915_gpuprio_context_priority(const struct i915_gem_context *ctx);
void i915_gpuprio_record_execbuf(struct i915_gem_context *ctx,
				 struct i915_sched_attr *attr);
void i915_gpuprio_update_semaphores(struct intel_context *ce, int prio);

void i915_gpuprio_client_fdinfo(struct drm_printer *p,
				const struct i915_drm_client *client);
#else
/*
 * Off means stock i915: a context's priority is its own. Macros, since the
 * context's type is not complete everywhere this header is included.
 */
static inline int i915_gpuprio_task_priority(const struct task_struct *tsk)
{
	return I915_CONTEXT_DEFAULT_PRIORITY;
}

#define i915_gpuprio_context_priority(ctx)	READ_ONCE((ctx)->sched.priority)
#define i915_gpuprio_record_execbuf(ctx, attr)	(*(attr) = (ctx)->sched)

static inline void i915_gpuprio_update_semaphores(struct intel_context *ce,
						  int prio)
{
}

static inline void i915_gpuprio_client_fdinfo(struct drm_printer *p,
					      const struct i915_drm_client *client)
{
}
#endif

#endif /* __I915_GPUPRIO_H__ */
