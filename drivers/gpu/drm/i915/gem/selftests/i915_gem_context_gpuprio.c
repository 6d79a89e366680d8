// SPDX-License-Identifier: MIT
/*
 * Mock selftest of the semaphore decision that setting a GEM context's
 * priority makes, which follows the effective priority (see
 * i915_gpuprio.c). Included by i915_gem_context.c to call its static
 * set_priority(), as the SETPARAM ioctl does.
 */

#include <linux/string_choices.h>

#include "gem/selftests/mock_context.h"
#include "gt/intel_context.h"
#include "gt/intel_engine.h"
#include "i915_gpuprio.h"
#include "i915_selftest.h"
#include "selftests/mock_gem_device.h"

static int igt_gpuprio_set_priority_semaphores(void *arg)
{
	static const struct {
		const char *name;
		int task;
		int own;
		bool semaphores;
	} cases[] = {
		{ "task low, own default", I915_GPUPRIO_LOW,
		  I915_CONTEXT_DEFAULT_PRIORITY, false },
		{ "task normal, own default", I915_CONTEXT_DEFAULT_PRIORITY,
		  I915_CONTEXT_DEFAULT_PRIORITY, true },
		{ "task high, own -1", I915_GPUPRIO_HIGH, -1, false },
		{ "task low, own default again", I915_GPUPRIO_LOW,
		  I915_CONTEXT_DEFAULT_PRIORITY, false },
	};
	struct drm_i915_private *i915 = arg;
	struct intel_engine_cs *engine = to_gt(i915)->engine[RCS0];
	unsigned long flags = engine->flags;
	unsigned int scheduler = i915->caps.scheduler;
	struct i915_gem_context *ctx;
	unsigned int i;
	int err = 0;

	/* What execlists gives an engine that can preempt, and i915 then */
	engine->flags |= I915_ENGINE_HAS_SEMAPHORES | I915_ENGINE_HAS_TIMESLICES;
	i915->caps.scheduler |= I915_SCHEDULER_CAP_ENABLED |
				I915_SCHEDULER_CAP_PRIORITY;
	if (!intel_engine_has_timeslices(engine)) {
		pr_info("no timeslices (CONFIG_DRM_I915_TIMESLICE_DURATION=0): semaphores are never used, skipped\n");
		goto out;
	}

	ctx = kernel_context(i915, NULL);
	if (IS_ERR(ctx)) {
		err = PTR_ERR(ctx);
		goto out;
	}

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct drm_i915_gem_context_param args = {
			.param = I915_CONTEXT_PARAM_PRIORITY,
			.value = cases[i].own,
		};
		struct intel_context *ce;
		bool used;

		/* As stored by the last execbuf's task */
		WRITE_ONCE(ctx->gpuprio, cases[i].task);
		err = set_priority(ctx, &args);
		if (err) {
			pr_err("%s: set_priority() failed with %d\n",
			       cases[i].name, err);
			break;
		}

		ce = i915_gem_context_get_engine(ctx, RCS0);
		if (IS_ERR(ce)) {
			err = PTR_ERR(ce);
			break;
		}
		used = intel_context_use_semaphores(ce);
		intel_context_put(ce);
		if (used != cases[i].semaphores) {
			pr_err("%s: semaphores %s, expected %s\n",
			       cases[i].name, str_yes_no(used),
			       str_yes_no(cases[i].semaphores));
			err = -EINVAL;
			break;
		}
	}

	kernel_context_close(ctx);
out:
	i915->caps.scheduler = scheduler;
	engine->flags = flags;
	return err;
}

int i915_gem_context_gpuprio_mock_selftests(void)
{
	static const struct i915_subtest tests[] = {
		SUBTEST(igt_gpuprio_set_priority_semaphores),
	};
	struct drm_i915_private *i915;
	intel_wakeref_t wakeref;
	int err = 0;

	i915 = mock_gem_device();
	if (!i915)
		return -ENOMEM;

	with_intel_runtime_pm(&i915->runtime_pm, wakeref)
		err = i915_subtests(tests, i915);

	mock_destroy_device(i915);

	return err;
}
