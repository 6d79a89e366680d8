/* SPDX-License-Identifier: MIT */
/*
 * i915 follows the GPU priority of the task that submits: see i915_gpuprio.c.
 */

#ifndef __I915_GPUPRIO_H__
#define __I915_GPUPRIO_H__

#include <linux/types.h>

struct drm_printer;
struct i915_drm_client;
struct i915_gem_context;
struct i915_sched_attr;
struct task_struct;

/**
 * struct i915_gpuprio_client - what the scheduler used for a DRM client
 */
struct i915_gpuprio_client {
	/** @priority: i915 priority of the most recent execbuf request */
	int priority;
	/** @submitted: the client has submitted at least once */
	bool submitted;
};

int i915_gpuprio_to_priority(u16 gpuprio);
int i915_gpuprio_task_priority(const struct task_struct *tsk);

int i915_gpuprio_context_priority(const struct i915_gem_context *ctx);
void i915_gpuprio_context_attr(const struct i915_gem_context *ctx,
			       struct i915_sched_attr *attr);
void i915_gpuprio_execbuf_attr(struct i915_gem_context *ctx,
			       struct i915_sched_attr *attr);

void i915_gpuprio_client_fdinfo(struct drm_printer *p,
				const struct i915_drm_client *client);

#endif /* __I915_GPUPRIO_H__ */
