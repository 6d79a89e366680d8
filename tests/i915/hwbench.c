// SPDX-License-Identifier: GPL-2.0
/*
 * hwbench: does a background GPU hog yield to the foreground when it is
 * given a lower GPU priority? Needs an Intel GPU driven by i915 with
 * priority scheduling (gen8+: execlists or GuC) and a kernel with gpuprio.
 *
 * A foreground client submits tiny batches one at a time and measures how
 * many complete per second and their submit-to-completion latency, first
 * alone, then against a background process keeping the same engine busy
 * with preemptible spinning batches, run at GPU nice 0, 10, -10 (only when
 * privileged) and idle. The foreground runs at the default GPU priority.
 *
 * usage: hwbench [-t seconds per run] [-s hog slice ms] [-d render node]
 * Exit status: 0 ran, 4 (kselftest skip) cannot run here, 1 failed.
 *
 * Build: cc -O2 -Wall -Wextra $(pkg-config --cflags libdrm) hwbench.c \
 *	$(pkg-config --libs libdrm)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>
#include <i915_drm.h>

/*
 * The wrappers, which take the numbers from the running kernel (they differ
 * between kernel lines), and the uapi constants.
 */
#include "../../tools/gpunice/include/gpuprio.h"

#define KSFT_SKIP	4

#define MI_NOOP			0
#define MI_ARB_CHECK		(0x05 << 23)
#define MI_BATCH_BUFFER_END	(0x0a << 23)
#define MI_BATCH_BUFFER_START_GEN8 ((0x31 << 23) | (1 << 8) | 1)

#define BO_SIZE		4096
#define SPIN_ADDR(i)	(0x100000ull * ((i) + 1))
#define MAX_SAMPLES	(1 << 20)

struct bo {
	uint32_t handle;
	uint32_t *map;
	uint64_t addr;
};

struct hog_report {
	int err;		/* 0, or errno of gpuprio_set */
	char level[32];		/* drm-gpuprio of fdinfo, "" if absent */
};

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int skip(const char *why)
{
	printf("SKIP: %s\n", why);
	return KSFT_SKIP;
}

static int open_i915(const char *path)
{
	char name[32];
	int i, fd;

	for (i = 128; i < 192; i++) {
		drmVersionPtr v;

		if (path) {
			if (i > 128)
				break;
			snprintf(name, sizeof(name), "%s", path);
		} else {
			snprintf(name, sizeof(name), "/dev/dri/renderD%d", i);
		}
		fd = open(name, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		if (v && !strcmp(v->name, "i915")) {
			drmFreeVersion(v);
			return fd;
		}
		drmFreeVersion(v);
		close(fd);
	}
	return -1;
}

static int getparam(int fd, int param)
{
	int value = 0;
	struct drm_i915_getparam gp = { .param = param, .value = &value };

	if (drmIoctl(fd, DRM_IOCTL_I915_GETPARAM, &gp))
		return -errno;
	return value;
}

static uint32_t context_create(int fd)
{
	struct drm_i915_gem_context_create create = { 0 };
	struct drm_i915_gem_context_param p = {
		.param = I915_CONTEXT_PARAM_PERSISTENCE,
	};

	if (drmIoctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &create)) {
		perror("context create");
		exit(1);
	}
	/* A spinner must not outlive its process: best effort */
	p.ctx_id = create.ctx_id;
	drmIoctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &p);
	return create.ctx_id;
}

static void bo_create(int fd, struct bo *bo, uint64_t addr)
{
	struct drm_i915_gem_create create = { .size = BO_SIZE };
	struct drm_i915_gem_mmap_offset mo = { .flags = I915_MMAP_OFFSET_WC };
	void *map;

	if (drmIoctl(fd, DRM_IOCTL_I915_GEM_CREATE, &create)) {
		perror("gem create");
		exit(1);
	}
	mo.handle = create.handle;
	if (drmIoctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo)) {
		/* Discrete parts only offer the fixed mapping */
		mo.flags = I915_MMAP_OFFSET_FIXED;
		if (drmIoctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo)) {
			perror("gem mmap offset");
			exit(1);
		}
	}
	map = mmap(NULL, BO_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   mo.offset);
	if (map == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	bo->handle = create.handle;
	bo->map = map;
	bo->addr = addr;
}

static int execbuf(int fd, uint32_t ctx, struct bo *bo)
{
	struct drm_i915_gem_exec_object2 obj = {
		.handle = bo->handle,
		.offset = bo->addr,
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)&obj,
		.buffer_count = 1,
		.flags = I915_EXEC_RENDER,
	};

	if (bo->addr)
		obj.flags = EXEC_OBJECT_PINNED |
			    EXEC_OBJECT_SUPPORTS_48B_ADDRESS;
	i915_execbuffer2_set_context_id(eb, ctx);
	return drmIoctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb) ? -errno : 0;
}

/* 0 when idle, -ETIME if still busy after @timeout_ns */
static int bo_wait(int fd, struct bo *bo, int64_t timeout_ns)
{
	struct drm_i915_gem_wait w = {
		.bo_handle = bo->handle,
		.timeout_ns = timeout_ns,
	};

	return drmIoctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w) ? -errno : 0;
}

/* A batch jumping back to its start until MI_BATCH_BUFFER_END replaces it */
static void spin_arm(struct bo *bo)
{
	bo->map[1] = MI_NOOP;
	bo->map[2] = MI_BATCH_BUFFER_START_GEN8;
	bo->map[3] = (uint32_t)bo->addr;
	bo->map[4] = (uint32_t)(bo->addr >> 32);
	__sync_synchronize();
	bo->map[0] = MI_ARB_CHECK;
	__sync_synchronize();
}

static void spin_end(struct bo *bo)
{
	bo->map[0] = MI_BATCH_BUFFER_END;
	__sync_synchronize();
}

/* drm-gpuprio of @fd in /proc/self/fdinfo into @level, "" if absent */
static void fdinfo_level(int fd, char *level, size_t len)
{
	static const char key[] = "drm-gpuprio:";
	char path[64], line[256];
	FILE *f;

	level[0] = '\0';
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, sizeof(key) - 1))
			continue;
		snprintf(level, len, "%s", line + sizeof(key) - 1 +
			 strspn(line + sizeof(key) - 1, " \t"));
		level[strcspn(level, "\n")] = '\0';
		break;
	}
	fclose(f);
}

/* The background process: keeps the engine busy until SIGTERM */
static void hog(const char *path, int gpuprio, int slice_ms, int report_fd)
{
	struct hog_report rep = { 0, "" };
	struct timespec slice = {
		.tv_sec = slice_ms / 1000,
		.tv_nsec = (slice_ms % 1000) * 1000000L,
	};
	struct bo spin[2];
	uint32_t ctx;
	int fd, cur = 0, i;

	signal(SIGTERM, on_term);
	if (gpuprio_set(GPUPRIO_WHO_PROCESS, 0, gpuprio)) {
		rep.err = errno;
		if (write(report_fd, &rep, sizeof(rep)) != sizeof(rep))
			_exit(1);
		_exit(0);
	}

	fd = open_i915(path);
	if (fd < 0)
		_exit(1);
	ctx = context_create(fd);
	for (i = 0; i < 2; i++) {
		bo_create(fd, &spin[i], SPIN_ADDR(i));
		spin_arm(&spin[i]);
		if (execbuf(fd, ctx, &spin[i]))
			_exit(1);
	}
	fdinfo_level(fd, rep.level, sizeof(rep.level));
	if (write(report_fd, &rep, sizeof(rep)) != sizeof(rep))
		_exit(1);

	/* One spinner runs while the next is queued behind it */
	while (!stop) {
		nanosleep(&slice, NULL);
		spin_end(&spin[cur]);
		bo_wait(fd, &spin[cur], -1);
		spin_arm(&spin[cur]);
		if (execbuf(fd, ctx, &spin[cur]))
			break;
		cur ^= 1;
	}
	for (i = 0; i < 2; i++)
		spin_end(&spin[i]);
	for (i = 0; i < 2; i++)
		bo_wait(fd, &spin[i], -1);
	_exit(0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Submit tiny batches one at a time for @secs seconds */
static void foreground(int fd, uint32_t ctx, struct bo *bo, int secs,
		       const char *label, const char *note)
{
	static uint64_t lat[MAX_SAMPLES];
	uint64_t start = now_ns(), end = start + secs * 1000000000ull;
	uint64_t t;
	size_t n = 0;
	int starved = 0;

	while ((t = now_ns()) < end && n < MAX_SAMPLES) {
		if (execbuf(fd, ctx, bo)) {
			perror("execbuf");
			exit(1);
		}
		if (bo_wait(fd, bo, end - t)) {
			starved = 1;
			break;
		}
		lat[n++] = now_ns() - t;
	}
	t = now_ns() - start;

	printf("  %-22s | %12.0f |", label, n * 1e9 / t);
	if (n) {
		qsort(lat, n, sizeof(lat[0]), cmp_u64);
		printf(" %8.1f | %8.1f | %8.1f",
		       lat[n / 2] / 1e3, lat[n * 9 / 10] / 1e3,
		       lat[n * 99 / 100] / 1e3);
	} else {
		printf(" %8s | %8s | %8s", "-", "-", "-");
	}
	printf(" | %s%s\n", note, starved ? " (last batch starved)" : "");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *label;
		int gpuprio;
	} hogs[] = {
		{ "GPU nice 0", GPUPRIO_BE_NICE(0) },
		{ "GPU nice 10", GPUPRIO_BE_NICE(10) },
		{ "GPU nice -10", GPUPRIO_BE_NICE(-10) },
		{ "idle", GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0) },
	};
	const char *path = NULL;
	int secs = 5, slice_ms = 10;
	struct bo batch = { 0 };
	unsigned int i;
	uint32_t ctx;
	int fd, opt;

	while ((opt = getopt(argc, argv, "t:s:d:")) != -1) {
		switch (opt) {
		case 't':
			secs = atoi(optarg);
			break;
		case 's':
			slice_ms = atoi(optarg);
			break;
		case 'd':
			path = optarg;
			break;
		default:
			fprintf(stderr,
				"usage: %s [-t secs] [-s slice_ms] [-d node]\n",
				argv[0]);
			return 1;
		}
	}
	if (secs < 1 || slice_ms < 1)
		return 1;

	fd = open_i915(path);
	if (fd < 0)
		return skip("no i915 render node (/dev/dri/renderD128-191)");
	if (!gpuprio_supported())
		return skip("kernel without gpuprio (no " GPUPRIO_SYSCALLS_PATH ")");
	if (getparam(fd, I915_PARAM_HAS_SCHEDULER) <= 0 ||
	    !(getparam(fd, I915_PARAM_HAS_SCHEDULER) &
	      I915_SCHEDULER_CAP_PRIORITY))
		return skip("i915 without priority scheduling (before gen8?)");
	if (getparam(fd, I915_PARAM_HAS_EXEC_SOFTPIN) <= 0)
		return skip("i915 without softpin, needed by the spinner");

	ctx = context_create(fd);
	bo_create(fd, &batch, 0);
	batch.map[0] = MI_BATCH_BUFFER_END;
	batch.map[1] = MI_NOOP;

	printf("foreground: tiny batches one at a time, %d s per run, default GPU priority\n",
	       secs);
	printf("  %-22s | %12s | %8s | %8s | %8s | %s\n", "background hog",
	       "batches/s", "p50 us", "p90 us", "p99 us",
	       "hog's drm-gpuprio");
	printf("  -----------------------+--------------+----------+----------+----------+-------\n");
	foreground(fd, ctx, &batch, secs, "not running", "");

	for (i = 0; i < sizeof(hogs) / sizeof(hogs[0]); i++) {
		struct hog_report rep;
		char note[64];
		int pfd[2];
		pid_t pid;

		if (pipe(pfd))
			return 1;
		pid = fork();
		if (pid < 0)
			return 1;
		if (!pid) {
			close(pfd[0]);
			hog(path, hogs[i].gpuprio, slice_ms, pfd[1]);
		}
		close(pfd[1]);
		if (read(pfd[0], &rep, sizeof(rep)) != sizeof(rep)) {
			fprintf(stderr, "hog for %s failed\n", hogs[i].label);
			waitpid(pid, NULL, 0);
			return 1;
		}
		close(pfd[0]);
		if (rep.err) {
			printf("  %-22s | skipped: gpuprio_set: %s%s\n",
			       hogs[i].label, strerror(rep.err),
			       rep.err == EACCES || rep.err == EPERM ?
			       " (needs CAP_SYS_NICE or RLIMIT_NICE)" : "");
			waitpid(pid, NULL, 0);
			continue;
		}
		snprintf(note, sizeof(note), "%s",
			 rep.level[0] ? rep.level : "no fdinfo key");

		usleep(200000);	/* let the hog reach its steady state */
		foreground(fd, ctx, &batch, secs, hogs[i].label, note);
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
		/* A starved batch completes once the hog is gone */
		bo_wait(fd, &batch, -1);
	}
	return 0;
}
