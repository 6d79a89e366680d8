// SPDX-License-Identifier: GPL-2.0
/*
 * simgpu: a simulated GPU behind a real drm_gpu_scheduler, to measure what a
 * task's GPU priority does to the order GPU jobs run in. Test equipment of
 * the gpunice project (tests/simgpu), not part of the series sent upstream.
 *
 * The model. Each engine has one drm_gpu_scheduler with a run queue per
 * drm_sched priority and a credit limit ("credits": how many jobs the
 * scheduler hands to the engine at once, as a ring's depth). A job is only a
 * duration. The engine runs the jobs that run_job hands it one at a time, in
 * the order they were handed, each for its duration on an hrtimer, and
 * signals the job's hardware fence when it ends; nothing preempts it. Each
 * open file has one entity per engine whose priority follows the submitting
 * task through the drm_sched helpers of the series: set from
 * drm_sched_task_priority() when the file is opened, refreshed with
 * drm_sched_entity_refresh_priority() at every submission, just before the
 * job is armed; on a drm_sched with an entity GPU nice (the 7.3 series),
 * drm_sched_entity_refresh_task() instead, which under the FAIR policy
 * gives the entity the task's GPU nice as its weight. That is what amdgpu
 * does for a gfx context on its normal pipe (one scheduler per ring,
 * shared by the entities of every client);
 * amdgpu puts HIGH on its high-priority pipe, another scheduler, and a
 * compute entity that has several schedulers is never moved while busy.
 * xe does not use these helpers: it gives the GuC a new priority for the
 * whole exec queue (patches/0009).
 *
 * The limit. drm_sched only reorders the jobs it has not handed to the
 * engine yet; a running job is never interrupted. A job of the highest
 * priority can so wait for up to "credits" jobs already handed to the
 * engine, whatever their priority: with credits=2 and 4 ms background jobs,
 * a 2 ms foreground job ends at most 2 * 4 + 2 = 10 ms after submission.
 * That is how an amdgpu ring without preemption behaves, and the honest
 * bound of what a drm_sched run queue can do there.
 *
 * Timing. The engine keeps an ideal timeline, as upstream's later mock
 * scheduler does: a job handed to a busy engine starts when the previous
 * one was due to end (finish = previous finish + duration), one handed to
 * an idle engine (or after the previous one was due) starts then. The
 * timer signals, in order, every job due by the time it fires, so a late
 * timer delays the fences it signals but not the jobs after them, and the
 * host's timer lateness does not add up along a queue. A job's end stamp
 * is when its fence signalled, at or after its due time. In the test guest
 * under QEMU TCG (with ACPI, so that the TSC is a high-resolution
 * clocksource) 2 ms jobs alone ended late by a median of 60-170 us, p90
 * 0.1-2 ms, with a tail of up to 12 ms when the host is loaded; never early
 * (tests/simgpu/README).
 *
 * Fences. A submission may depend on a sync_file (its fence added with
 * drm_sched_job_add_dependency() before the job is armed) and may ask for
 * a sync_file of its finished fence back, so that tests can make one
 * client's job wait for another's and set a deadline on a job's fence
 * (SYNC_IOC_SET_DEADLINE), as a compositor does.
 *
 * Lifetimes. A job is referenced by the scheduler until free_job and by its
 * handle in the file until waited for or the file is closed. Closing a file
 * flushes its entities as real drivers do and then waits for the fences of
 * the jobs it never waited for: the engine accounts busy time into the file
 * until a job's hardware fence signals, which comes before its finished
 * fence.
 */

#include <linux/atomic.h>
#include <linux/dma-fence.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sync_file.h>
#include <linux/version.h>
#include <linux/wait_bit.h>
#include <linux/xarray.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_print.h>
#include <drm/gpu_scheduler.h>

#include "simgpu_drm.h"

#ifdef DRM_SCHED_NICE_IDLE
static_assert(SIMGPU_NICE_IDLE == DRM_SCHED_NICE_IDLE);
#endif

#define SIMGPU_MAX_ENGINES	8
/* The scheduler's limit; run_job can hand no more than this at once. */
#define SIMGPU_MAX_CREDITS	64
/* Module exit: by then every job has ended, only free_job can be late. */
#define SIMGPU_LEAK_TIMEOUT_S	30

static unsigned int engines = 1;
module_param(engines, uint, 0444);
MODULE_PARM_DESC(engines, "number of engines (1-8, default 1)");

static unsigned int credits = 2;
module_param(credits, uint, 0444);
MODULE_PARM_DESC(credits,
		 "jobs handed to an engine at once (1-64, default 2)");

/*
 * The engine never hangs, so by default nothing times out, as in the
 * project's KUnit. A timeout is only there to test that path: a job that
 * runs past it is spurious and goes on running (simgpu_timedout_job()).
 */
static unsigned int timeout_ms;
module_param(timeout_ms, uint, 0444);
MODULE_PARM_DESC(timeout_ms,
		 "scheduler job timeout in ms, 0 for none (default 0)");

static const char * const simgpu_priority_names[] = {
	[DRM_SCHED_PRIORITY_KERNEL] = "kernel",
	[DRM_SCHED_PRIORITY_HIGH] = "high",
	[DRM_SCHED_PRIORITY_NORMAL] = "normal",
	[DRM_SCHED_PRIORITY_LOW] = "low",
};

struct simgpu_device;

struct simgpu_engine {
	struct drm_gpu_scheduler sched;
	struct drm_gpu_scheduler *sched_list[1];
	struct simgpu_device *sdev;
	char name[16];
	u64 fence_context;
	u64 fence_seqno;
	/* Protects jobs and fence_seqno; taken in the timer's hard irq. */
	spinlock_t lock;
	/*
	 * The hardware fences' own lock: their callbacks run the scheduler's
	 * completion path, which must not nest in the engine's lock.
	 */
	spinlock_t fence_lock;
	/* Jobs handed by run_job, in order; the first one is running. */
	struct list_head jobs;
	/* How many are on jobs, for the submit ioctl. */
	unsigned int num_jobs;
	struct hrtimer timer;
};

struct simgpu_device {
	struct drm_device drm;
	struct platform_device *pdev;
	unsigned int num_engines;
	/* Jobs not freed yet: module exit waits for them. */
	atomic_t live_jobs;
	struct simgpu_engine engine[SIMGPU_MAX_ENGINES];
};

struct simgpu_file {
	/* Orders arm and push of the entities' jobs, and handle numbers. */
	struct mutex lock;
	u64 next_handle;
	struct xarray jobs;
	struct drm_sched_entity entity[SIMGPU_MAX_ENGINES];
	/* Time the engines spent on this file's jobs, in ns. */
	atomic64_t busy_ns[SIMGPU_MAX_ENGINES];
};

struct simgpu_job {
	struct drm_sched_job base;
	/* One for the scheduler (until free_job), one for the handle. */
	struct kref ref;
	struct simgpu_device *sdev;
	struct simgpu_engine *engine;
	/* Allocated at submission, so that run_job does not allocate. */
	struct dma_fence *hw_fence;
	bool hw_fence_live;
	/* Finished fence of the scheduler, what a wait waits for. */
	struct dma_fence *done;
	atomic64_t *busy_ns;
	u64 duration_ns;
	u64 submit_ns;
	/* On the engine's ideal timeline: start_ns + duration_ns. */
	u64 start_ns;
	u64 finish_ns;
	/* When the timer signalled its hardware fence, >= finish_ns. */
	u64 end_ns;
	/* On engine->jobs once handed to the engine. */
	struct list_head link;
};

static inline struct simgpu_job *to_simgpu_job(struct drm_sched_job *job)
{
	return container_of(job, struct simgpu_job, base);
}

static const char *simgpu_fence_driver_name(struct dma_fence *fence)
{
	return "simgpu";
}

static const char *simgpu_fence_timeline_name(struct dma_fence *fence)
{
	return "engine";
}

static const struct dma_fence_ops simgpu_fence_ops = {
	.get_driver_name = simgpu_fence_driver_name,
	.get_timeline_name = simgpu_fence_timeline_name,
};

static void simgpu_job_release(struct kref *ref)
{
	struct simgpu_job *job = container_of(ref, struct simgpu_job, ref);
	struct simgpu_device *sdev = job->sdev;

	if (job->hw_fence_live)
		dma_fence_put(job->hw_fence);
	else
		kfree(job->hw_fence);
	dma_fence_put(job->done);
	kfree(job);
	if (atomic_dec_and_test(&sdev->live_jobs))
		wake_up_var(&sdev->live_jobs);
}

static void simgpu_job_put(struct simgpu_job *job)
{
	kref_put(&job->ref, simgpu_job_release);
}

/*
 * Hand @job to the engine at @now, behind the jobs it has: it starts when
 * the last of them is due to end, or now if that is past or there is none.
 * Returns true if the engine was idle. The caller holds engine->lock.
 */
static bool simgpu_engine_add_locked(struct simgpu_engine *engine,
				     struct simgpu_job *job, u64 now)
{
	bool idle = list_empty(&engine->jobs);
	struct simgpu_job *last;
	u64 start = now;

	if (!idle) {
		last = list_last_entry(&engine->jobs, struct simgpu_job, link);
		start = max(now, last->finish_ns);
	}
	WRITE_ONCE(job->start_ns, start);
	job->finish_ns = start + job->duration_ns;
	list_add_tail(&job->link, &engine->jobs);
	engine->num_jobs++;
	return idle;
}

static enum hrtimer_restart simgpu_engine_timer(struct hrtimer *timer)
{
	struct simgpu_engine *engine =
		container_of(timer, struct simgpu_engine, timer);
	enum hrtimer_restart restart = HRTIMER_NORESTART;
	struct simgpu_job *job, *tmp;
	u64 now = ktime_get_ns();
	unsigned long flags;
	LIST_HEAD(done);

	spin_lock_irqsave(&engine->lock, flags);
	/* Every job due by now, in order: a late timer ends several. */
	list_for_each_entry_safe(job, tmp, &engine->jobs, link) {
		if (job->finish_ns > now)
			break;
		list_move_tail(&job->link, &done);
		engine->num_jobs--;
		WRITE_ONCE(job->end_ns, now);
		atomic64_add(job->duration_ns, job->busy_ns);
	}
	job = list_first_entry_or_null(&engine->jobs, struct simgpu_job, link);
	if (job) {
		hrtimer_set_expires(timer, ns_to_ktime(job->finish_ns));
		restart = HRTIMER_RESTART;
	}
	spin_unlock_irqrestore(&engine->lock, flags);

	/* Each job may be freed once its fence signalled. */
	list_for_each_entry_safe(job, tmp, &done, link)
		dma_fence_signal(job->hw_fence);
	return restart;
}

static struct dma_fence *simgpu_run_job(struct drm_sched_job *sched_job)
{
	struct simgpu_job *job = to_simgpu_job(sched_job);
	struct simgpu_engine *engine = job->engine;
	unsigned long flags;
	bool idle;

	/* A job whose entity was killed is not run: its fence has an error. */
	if (sched_job->s_fence->finished.error)
		return NULL;

	spin_lock_irqsave(&engine->lock, flags);
	dma_fence_init(job->hw_fence, &simgpu_fence_ops, &engine->fence_lock,
		       engine->fence_context, ++engine->fence_seqno);
	job->hw_fence_live = true;
	/* For the scheduler; the job keeps its own until it is freed. */
	dma_fence_get(job->hw_fence);
	idle = simgpu_engine_add_locked(engine, job, ktime_get_ns());
	if (idle)
		hrtimer_start(&engine->timer, ns_to_ktime(job->finish_ns),
			      HRTIMER_MODE_ABS);
	spin_unlock_irqrestore(&engine->lock, flags);
	return job->hw_fence;
}

/*
 * The engine does not hang: a job that outlived timeout_ms is still running
 * or just ended. drm_sched took it off its pending list before calling
 * this, and before 6.17 only a reset (drm_sched_stop()) puts it back
 * there: without one the job would never be freed. Put it back at the
 * head, where it was, and
 * if it ended meanwhile, queue the free-job work that then missed it
 * (drm_sched_wqueue_start() queues it; simgpu never stops submission).
 */
static enum drm_gpu_sched_stat
simgpu_timedout_job(struct drm_sched_job *sched_job)
{
	struct drm_gpu_scheduler *sched = sched_job->sched;

	dev_info_ratelimited(sched->dev, "%s: job past its timeout, still running\n",
			     sched->name);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
	/*
	 * Since 6.17 the scheduler itself puts the job back on its pending
	 * list, and queues the free-job work, for a driver that says the
	 * engine did not hang.
	 */
	return DRM_GPU_SCHED_STAT_NO_HANG;
#else
	spin_lock(&sched->job_list_lock);
	list_add(&sched_job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
	if (dma_fence_is_signaled(&sched_job->s_fence->finished))
		drm_sched_wqueue_start(sched);
	return DRM_GPU_SCHED_STAT_NOMINAL;
#endif
}

static void simgpu_free_job(struct drm_sched_job *sched_job)
{
	struct simgpu_job *job = to_simgpu_job(sched_job);

	drm_sched_job_cleanup(sched_job);
	simgpu_job_put(job);
}

static const struct drm_sched_backend_ops simgpu_sched_ops = {
	.run_job = simgpu_run_job,
	.timedout_job = simgpu_timedout_job,
	.free_job = simgpu_free_job,
};

static struct simgpu_device *to_simgpu(struct drm_device *drm)
{
	return container_of(drm, struct simgpu_device, drm);
}

static int simgpu_open(struct drm_device *drm, struct drm_file *file)
{
	struct simgpu_device *sdev = to_simgpu(drm);
	enum drm_sched_priority priority = drm_sched_task_priority(current);
	struct simgpu_file *sfile;
	unsigned int i;
	int ret;

	sfile = kzalloc(sizeof(*sfile), GFP_KERNEL);
	if (!sfile)
		return -ENOMEM;
	mutex_init(&sfile->lock);
	xa_init(&sfile->jobs);
	sfile->next_handle = 1;

	for (i = 0; i < sdev->num_engines; i++) {
		ret = drm_sched_entity_init(&sfile->entity[i], priority,
					    sdev->engine[i].sched_list, 1,
					    NULL);
		if (ret)
			goto err_entities;
	}
	file->driver_priv = sfile;
	return 0;

err_entities:
	while (i--)
		drm_sched_entity_destroy(&sfile->entity[i]);
	mutex_destroy(&sfile->lock);
	kfree(sfile);
	return ret;
}

static void simgpu_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct simgpu_device *sdev = to_simgpu(drm);
	struct simgpu_file *sfile = file->driver_priv;
	struct simgpu_job *job;
	unsigned long handle;
	unsigned int i;

	for (i = 0; i < sdev->num_engines; i++)
		drm_sched_entity_destroy(&sfile->entity[i]);

	/*
	 * The entities handed their jobs to the engines or killed them; wait
	 * for the engines to be done with this file's busy time.
	 */
	xa_for_each(&sfile->jobs, handle, job) {
		dma_fence_wait(job->done, false);
		simgpu_job_put(job);
	}
	xa_destroy(&sfile->jobs);
	mutex_destroy(&sfile->lock);
	kfree(sfile);
}

/*
 * The run queue @entity is on, as the index of its scheduler's run queue
 * (DRM_SCHED_PRIORITY_*): where the scheduler looks for its jobs, whatever
 * entity->priority says; and in @nice the entity's GPU nice, read under the
 * same lock as the FAIR policy reads it when it charges the entity's GPU
 * time.
 */
static u32 simgpu_entity_rq(struct drm_sched_entity *entity, s32 *nice)
{
	struct drm_gpu_scheduler *sched;
	u32 i, index = SIMGPU_RQ_NONE;

	spin_lock(&entity->lock);
	if (entity->rq) {
		sched = entity->rq->sched;
		for (i = 0; i < sched->num_rqs; i++)
			if (sched->sched_rq[i] == entity->rq)
				index = i;
	}
#ifdef DRM_SCHED_NICE_IDLE
	*nice = entity->nice;
#else
	*nice = 0;
#endif
	spin_unlock(&entity->lock);
	return index;
}

/*
 * The submitting task's priority now: its band's run queue under FIFO and
 * round robin (the entity moves if it changed), and on a drm_sched with an
 * entity GPU nice its nice as the weight under FAIR.
 */
static void simgpu_entity_follow_task(struct drm_sched_entity *entity)
{
#ifdef DRM_SCHED_NICE_IDLE
	drm_sched_entity_refresh_task(entity, current);
#else
	drm_sched_entity_refresh_priority(entity,
					  drm_sched_task_priority(current));
#endif
}

static unsigned int simgpu_engine_num_jobs(struct simgpu_engine *engine)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&engine->lock, flags);
	n = engine->num_jobs;
	spin_unlock_irqrestore(&engine->lock, flags);
	return n;
}

/*
 * The submission's fields, checked before anything is done, and its
 * in-fence, with a reference, in *@in_fence (NULL without one).
 */
static int simgpu_submit_check(struct simgpu_device *sdev,
			       const struct drm_simgpu_submit *args,
			       struct dma_fence **in_fence)
{
	*in_fence = NULL;
	if (args->flags & ~SIMGPU_SUBMIT_FLAGS)
		return -EINVAL;
	if (!(args->flags & SIMGPU_SUBMIT_IN_FENCE) && args->in_fence_fd)
		return -EINVAL;
	/* An out field: 0 on the way in, as the pad it replaced. */
	if (args->out_fence_fd)
		return -EINVAL;
	if (!args->duration_ns || args->duration_ns > SIMGPU_MAX_JOB_NS)
		return -EINVAL;
	if (args->engine >= sdev->num_engines)
		return -EINVAL;
	if (args->flags & SIMGPU_SUBMIT_IN_FENCE) {
		/* NULL for a bad fd as for a file that is no sync_file. */
		*in_fence = sync_file_get_fence(args->in_fence_fd);
		if (!*in_fence)
			return -EINVAL;
	}
	return 0;
}

static int simgpu_submit_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct simgpu_device *sdev = to_simgpu(drm);
	struct simgpu_file *sfile = file->driver_priv;
	struct drm_simgpu_submit *args = data;
	struct sync_file *sync_file = NULL;
	struct dma_fence *in_fence;
	struct drm_sched_entity *entity;
	struct simgpu_job *job;
	int out_fd = -1;
	u64 handle;
	int ret;

	ret = simgpu_submit_check(sdev, args, &in_fence);
	if (ret)
		return ret;
	entity = &sfile->entity[args->engine];

	/* The out-fence's fd now: once the job is armed it must be pushed. */
	if (args->flags & SIMGPU_SUBMIT_OUT_FENCE) {
		out_fd = get_unused_fd_flags(O_CLOEXEC);
		if (out_fd < 0) {
			dma_fence_put(in_fence);
			return out_fd;
		}
	}

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job) {
		ret = -ENOMEM;
		goto err_fences;
	}
	job->hw_fence = kzalloc(sizeof(*job->hw_fence), GFP_KERNEL);
	if (!job->hw_fence) {
		kfree(job);
		ret = -ENOMEM;
		goto err_fences;
	}
	kref_init(&job->ref);
	atomic_inc(&sdev->live_jobs);
	job->sdev = sdev;
	job->engine = &sdev->engine[args->engine];
	job->busy_ns = &sfile->busy_ns[args->engine];
	job->duration_ns = args->duration_ns;
	INIT_LIST_HEAD(&job->link);

	ret = drm_sched_job_init(&job->base, entity, 1, NULL, file->client_id);
	if (ret)
		goto err_put;

	if (in_fence) {
		/* Takes the reference, even when it fails. */
		ret = drm_sched_job_add_dependency(&job->base, in_fence);
		in_fence = NULL;
		if (ret) {
			drm_sched_job_cleanup(&job->base);
			goto err_put;
		}
	}

	mutex_lock(&sfile->lock);
	handle = sfile->next_handle;
	ret = xa_insert(&sfile->jobs, handle, job, GFP_KERNEL);
	if (ret) {
		mutex_unlock(&sfile->lock);
		drm_sched_job_cleanup(&job->base);
		goto err_put;
	}
	sfile->next_handle++;

	simgpu_entity_follow_task(entity);
	drm_sched_job_arm(&job->base);
	job->done = dma_fence_get(&job->base.s_fence->finished);
	/* NULL if out of memory: the job is armed, it runs all the same. */
	if (out_fd >= 0)
		sync_file = sync_file_create(job->done);
	args->priority = READ_ONCE(entity->priority);
	args->rq = simgpu_entity_rq(entity, &args->nice);
	args->handle = handle;
	/* The scheduler's reference, dropped by free_job. */
	kref_get(&job->ref);
	/*
	 * The submission time is taken once the scheduler can see the job, so
	 * that a job handed to the engine later was chosen while this one was
	 * queued; and without preemption in between, so that it is not taken
	 * after the job ran.
	 */
	preempt_disable();
	args->engine_jobs = simgpu_engine_num_jobs(job->engine);
	drm_sched_entity_push_job(&job->base);
	job->submit_ns = ktime_get_ns();
	preempt_enable();
	mutex_unlock(&sfile->lock);

	if (out_fd >= 0) {
		if (!sync_file) {
			put_unused_fd(out_fd);
			return -ENOMEM;
		}
		fd_install(out_fd, sync_file->file);
		args->out_fence_fd = out_fd;
	}
	return 0;

err_put:
	simgpu_job_put(job);
err_fences:
	dma_fence_put(in_fence);
	if (out_fd >= 0)
		put_unused_fd(out_fd);
	return ret;
}

static int simgpu_wait_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct simgpu_file *sfile = file->driver_priv;
	struct drm_simgpu_wait *args = data;
	struct simgpu_job *job;
	long timeout, ret;

	if (args->flags || args->pad)
		return -EINVAL;
	if (args->timeout_ns < 0)
		return -EINVAL;

	mutex_lock(&sfile->lock);
	job = xa_load(&sfile->jobs, args->handle);
	if (job)
		kref_get(&job->ref);
	mutex_unlock(&sfile->lock);
	if (!job)
		return -ENOENT;

	timeout = nsecs_to_jiffies(args->timeout_ns);
	if (args->timeout_ns && !timeout)
		timeout = 1;
	ret = dma_fence_wait_timeout(job->done, true, timeout);
	if (ret < 0)
		goto out;
	if (!ret && !dma_fence_is_signaled(job->done)) {
		ret = -ETIME;
		goto out;
	}
	ret = job->done->error;
	if (ret)
		goto out;

	/* The times were written before the fence signalled. */
	smp_rmb();
	args->submit_ns = job->submit_ns;
	args->start_ns = READ_ONCE(job->start_ns);
	args->end_ns = READ_ONCE(job->end_ns);

	/* Once waited for, the handle is gone; a concurrent wait may win. */
	mutex_lock(&sfile->lock);
	if (xa_erase(&sfile->jobs, args->handle) == job)
		simgpu_job_put(job);
	mutex_unlock(&sfile->lock);
	ret = 0;
out:
	simgpu_job_put(job);
	return ret;
}

static void simgpu_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct simgpu_device *sdev = to_simgpu(file->minor->dev);
	struct simgpu_file *sfile = file->driver_priv;
	unsigned int i;

	for (i = 0; i < sdev->num_engines; i++) {
		const char *name = sdev->engine[i].name;
		enum drm_sched_priority priority =
			READ_ONCE(sfile->entity[i].priority);

		drm_printf(p, "drm-engine-%s:\t%llu ns\n", name,
			   (u64)atomic64_read(&sfile->busy_ns[i]));
		drm_printf(p, "simgpu-priority-%s:\t%s\n", name,
			   priority < ARRAY_SIZE(simgpu_priority_names) ?
			   simgpu_priority_names[priority] : "unknown");
	}
}

static const struct drm_ioctl_desc simgpu_ioctls[] = {
	DRM_IOCTL_DEF_DRV(SIMGPU_SUBMIT, simgpu_submit_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(SIMGPU_WAIT, simgpu_wait_ioctl, DRM_RENDER_ALLOW),
};

static const struct file_operations simgpu_fops = {
	.owner = THIS_MODULE,
	.open = drm_open,
	.release = drm_release,
	.unlocked_ioctl = drm_ioctl,
	.compat_ioctl = drm_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.show_fdinfo = drm_show_fdinfo,
	.fop_flags = FOP_UNSIGNED_OFFSET,
};

static const struct drm_driver simgpu_driver = {
	.driver_features = DRIVER_RENDER,
	.open = simgpu_open,
	.postclose = simgpu_postclose,
	.show_fdinfo = simgpu_show_fdinfo,
	.ioctls = simgpu_ioctls,
	.num_ioctls = ARRAY_SIZE(simgpu_ioctls),
	.fops = &simgpu_fops,
	.name = "simgpu",
	.desc = "simulated GPU with a timed engine, for tests",
	.major = 1,
	.minor = 0,
};

static int simgpu_engine_init(struct simgpu_device *sdev, unsigned int i)
{
	struct simgpu_engine *engine = &sdev->engine[i];
	struct drm_sched_init_args args = {
		.ops = &simgpu_sched_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = credits,
		.timeout = timeout_ms ? msecs_to_jiffies(timeout_ms) :
			   MAX_SCHEDULE_TIMEOUT,
		.name = engine->name,
		.dev = sdev->drm.dev,
	};

	engine->sdev = sdev;
	snprintf(engine->name, sizeof(engine->name), "sim%u", i);
	spin_lock_init(&engine->lock);
	spin_lock_init(&engine->fence_lock);
	INIT_LIST_HEAD(&engine->jobs);
	engine->fence_context = dma_fence_context_alloc(1);
	/* hrtimer_setup() replaced hrtimer_init() in 6.13. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&engine->timer, simgpu_engine_timer, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS);
#else
	hrtimer_init(&engine->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	engine->timer.function = simgpu_engine_timer;
#endif
	engine->sched_list[0] = &engine->sched;
	return drm_sched_init(&engine->sched, &args);
}

static void simgpu_engines_fini(struct simgpu_device *sdev, unsigned int n)
{
	while (n--) {
		drm_sched_fini(&sdev->engine[n].sched);
		hrtimer_cancel(&sdev->engine[n].timer);
	}
}

static struct simgpu_device *simgpu;

static int __init simgpu_init(void)
{
	struct platform_device *pdev;
	struct simgpu_device *sdev;
	unsigned int i;
	int ret;

	if (!engines || engines > SIMGPU_MAX_ENGINES ||
	    !credits || credits > SIMGPU_MAX_CREDITS)
		return -EINVAL;

	pdev = platform_device_register_simple("simgpu", PLATFORM_DEVID_NONE,
					       NULL, 0);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	if (!devres_open_group(&pdev->dev, NULL, GFP_KERNEL)) {
		ret = -ENOMEM;
		goto err_pdev;
	}

	sdev = devm_drm_dev_alloc(&pdev->dev, &simgpu_driver,
				  struct simgpu_device, drm);
	if (IS_ERR(sdev)) {
		ret = PTR_ERR(sdev);
		goto err_devres;
	}
	sdev->pdev = pdev;
	sdev->num_engines = engines;
	atomic_set(&sdev->live_jobs, 0);

	for (i = 0; i < sdev->num_engines; i++) {
		ret = simgpu_engine_init(sdev, i);
		if (ret)
			goto err_engines;
	}

	ret = drm_dev_register(&sdev->drm, 0);
	if (ret)
		goto err_engines;
	simgpu = sdev;
	return 0;

err_engines:
	simgpu_engines_fini(sdev, i);
err_devres:
	devres_release_group(&pdev->dev, NULL);
err_pdev:
	platform_device_unregister(pdev);
	return ret;
}

static void __exit simgpu_exit(void)
{
	struct simgpu_device *sdev = simgpu;
	struct platform_device *pdev = sdev->pdev;

	drm_dev_unregister(&sdev->drm);
	/*
	 * Every file is closed (each holds the module), so every job ran or
	 * was killed; free_job may still be on its way, and drm_sched_fini()
	 * would leave a job it has not freed.
	 */
	if (!wait_var_event_timeout(&sdev->live_jobs,
				    !atomic_read(&sdev->live_jobs),
				    SIMGPU_LEAK_TIMEOUT_S * HZ)) {
		/*
		 * A leak: say so and leave the device be, since freeing it
		 * under a late free_job would be worse. The tests fail on
		 * the warning.
		 */
		WARN(1, "simgpu: %d jobs not freed after %d s\n",
		     atomic_read(&sdev->live_jobs), SIMGPU_LEAK_TIMEOUT_S);
		return;
	}
	simgpu_engines_fini(sdev, sdev->num_engines);
	devres_release_group(&pdev->dev, NULL);
	platform_device_unregister(pdev);
}

module_init(simgpu_init);
module_exit(simgpu_exit);

MODULE_DESCRIPTION("Simulated GPU with a timed engine behind drm_sched, for tests");
MODULE_LICENSE("GPL");
