/* SPDX-License-Identifier: MIT */
/*
 * uAPI of simgpu, the test-only DRM driver with a timed engine behind a real
 * drm_gpu_scheduler (tests/simgpu/simgpu.c). Test equipment: not part of the
 * series sent upstream.
 *
 * A job occupies an engine for a given time. Submission returns a handle
 * (per open file, increasing from 1); waiting on it returns when the job's
 * fence signalled and when the engine started and ended it, so tests can
 * check the order in which the scheduler handed jobs to the engine.
 */
#ifndef _UAPI_SIMGPU_DRM_H
#define _UAPI_SIMGPU_DRM_H

/*
 * The kernel's <drm/drm.h>; a user-space build without the kernel's uapi
 * headers (gpunice's own, for the example gpuprio-tabs) has libdrm's copy,
 * <drm.h> with pkg-config --cflags libdrm.
 */
#if !defined(__KERNEL__) && defined(__has_include)
# if __has_include(<drm/drm.h>)
#  include <drm/drm.h>
# else
#  include <drm.h>
# endif
#else
# include <drm/drm.h>
#endif

#define SIMGPU_MAX_JOB_NS	1000000000ULL	/* 1 s */
/* drm_simgpu_submit.rq when the entity was on no run queue */
#define SIMGPU_RQ_NONE		0xffffffffU
/* drm_simgpu_submit.nice of an entity in the idle class (DRM_SCHED_NICE_IDLE) */
#define SIMGPU_NICE_IDLE	20

/* drm_simgpu_submit.flags */
/* The job depends on the sync_file in_fence_fd. */
#define SIMGPU_SUBMIT_IN_FENCE	(1U << 0)
/* Return a sync_file of the job's finished fence in out_fence_fd. */
#define SIMGPU_SUBMIT_OUT_FENCE	(1U << 1)
#define SIMGPU_SUBMIT_FLAGS	(SIMGPU_SUBMIT_IN_FENCE | SIMGPU_SUBMIT_OUT_FENCE)

/**
 * struct drm_simgpu_submit - queue one job
 * @duration_ns: in, how long the engine is busy with the job, 1..1 s
 * @engine: in, engine index, below the module parameter "engines"
 * @flags: in, 0 or SIMGPU_SUBMIT_* flags; any other bit is EINVAL
 * @handle: out, the job's handle on this file, for DRM_IOCTL_SIMGPU_WAIT
 * @priority: out, the drm_sched priority of the file's entity on that
 *	      engine once the job is armed (DRM_SCHED_PRIORITY_*), the
 *	      value entity->priority holds
 * @in_fence_fd: in, with SIMGPU_SUBMIT_IN_FENCE: a sync_file the job
 *		 depends on (drm_sched_job_add_dependency() before the job
 *		 is armed: the scheduler does not hand the job to the engine
 *		 before that fence signalled, or, for a fence of a job of
 *		 the same engine, before that job was handed to it); not a
 *		 sync_file: EINVAL. Without the flag: must be 0
 * @rq: out, the run queue the entity was really on when the job was armed,
 *	as the index of the scheduler's run queue, read under the entity's
 *	lock (DRM_SCHED_PRIORITY_*, SIMGPU_RQ_NONE if on none): where the
 *	scheduler looks for the job
 * @engine_jobs: out, how many jobs the engine had been handed and not ended
 *	when this one was submitted (other files' jobs, or this file's own
 *	earlier ones): non-zero is a witness of contention
 * @nice: out, the entity's GPU nice when the job was armed, read under its
 *	  lock with @rq: what weighs its GPU time under drm_sched's FAIR
 *	  policy (-20..19, SIMGPU_NICE_IDLE for the idle class); 0 on a
 *	  drm_sched without an entity nice (6.12)
 * @out_fence_fd: out, with SIMGPU_SUBMIT_OUT_FENCE: a new sync_file
 *		  (O_CLOEXEC) of the job's finished fence, the fence
 *		  DRM_IOCTL_SIMGPU_WAIT waits for, for the sync_file ioctls
 *		  (SYNC_IOC_SET_DEADLINE) or another job's in-fence; the
 *		  caller closes it. In: must be 0, with or without the flag
 *
 * The whole submission is checked before anything is done: a bad flag,
 * fence or field returns EINVAL and queues no job, takes no handle and
 * opens no file. Once the job is queued the ioctl only fails with ENOMEM,
 * if the out-fence's sync_file cannot be made: the job runs all the same,
 * @handle is set and @out_fence_fd stays 0.
 */
struct drm_simgpu_submit {
	__u64 duration_ns;
	__u32 engine;
	__u32 flags;
	__u64 handle;
	__u32 priority;
	__s32 in_fence_fd;
	__u32 rq;
	__u32 engine_jobs;
	__s32 nice;
	__s32 out_fence_fd;
};

/**
 * struct drm_simgpu_wait - wait for a job and read its times
 * @handle: in, a handle returned by DRM_IOCTL_SIMGPU_SUBMIT on this file;
 *	    once waited successfully it is gone (ENOENT afterwards)
 * @timeout_ns: in, relative timeout; 0 polls; ETIME if it passes
 * @flags: in, must be 0
 * @pad: must be 0
 * @submit_ns: out, CLOCK_MONOTONIC time of the submit ioctl
 * @start_ns: out, when the engine started the job, on its ideal timeline
 *	      (when the job before it was due to end, or when it was handed
 *	      to an idle engine)
 * @end_ns: out, when the engine signalled its fence: at or after
 *	    start_ns + duration_ns, later by the timer's latency
 */
struct drm_simgpu_wait {
	__u64 handle;
	__s64 timeout_ns;
	__u32 flags;
	__u32 pad;
	__u64 submit_ns;
	__u64 start_ns;
	__u64 end_ns;
};

#define DRM_SIMGPU_SUBMIT	0x00
#define DRM_SIMGPU_WAIT		0x01

#define DRM_IOCTL_SIMGPU_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SIMGPU_SUBMIT, struct drm_simgpu_submit)
#define DRM_IOCTL_SIMGPU_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SIMGPU_WAIT, struct drm_simgpu_wait)

#endif /* _UAPI_SIMGPU_DRM_H */
