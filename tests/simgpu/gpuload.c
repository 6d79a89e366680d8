// SPDX-License-Identifier: GPL-2.0
/*
 * gpuload - GPU load on simgpu, the simulated GPU of the tests
 *
 * Test equipment for make effect and make demo: it plays the two sides of
 * "a game next to a GPU hog" on the render node of simgpu (simgpu.c), whose
 * engine runs one job at a time behind a real drm_gpu_scheduler.
 *
 *   frame  --fps HZ --job-us N --seconds S
 *	A frame loop: submit one job, wait for it, sleep to the next frame
 *	boundary. A frame is missed when its job ends after the frame's
 *	deadline; it is then shown at the first boundary after the job ended
 *	and the next frame starts there, as with vsync. So the fps is 60 while
 *	every job ends in its frame and falls towards 30 as jobs spill over.
 *	Latency is the engine's submit-to-end time of each job (simgpu's
 *	CLOCK_MONOTONIC stamps). SIGUSR1 marks a moment (make effect's live
 *	row marks the gpunice call with it): the fps after the last mark is
 *	reported apart.
 *   hog    --hog --job-ms N --depth D [--seconds S] [--driver-thread]
 *	Keeps D jobs queued back to back until SIGTERM/SIGINT or S seconds,
 *	then waits for its jobs and stops. Each change of the drm_sched run
 *	queue its entity was on when a job was armed is printed when it
 *	happens. --driver-thread (with --bg-prio): the jobs come from a
 *	second thread, started before the main thread sets its own GPU
 *	priority to --bg-prio, as a graphics driver's submission thread.
 *	--pidfd: the main thread sets it on the whole process instead
 *	(GPUPRIO_WHO_PIDFD on a pidfd of its own process).
 *	A hog is also a busy client of make effect's share scenarios (two or
 *	three hogs on one engine): its line gives, from the engine's own
 *	start time of each of its jobs (simgpu's drm_simgpu_wait.start_ns,
 *	stamped when the scheduler handed the job to the engine), the
 *	longest time it was ready but had no job running (max_gap_ms: from
 *	a job's submission, or the end of its previous job on the engine's
 *	timeline if later, to the job's start), and the longest a wait on one
 *	of its fences blocked (max_wait_ms, wall clock around the WAIT
 *	ioctls). --close-on-mark: at SIGUSR1 it stops submitting and closes
 *	its DRM file at once, with its jobs still queued, and reports how
 *	long close() blocked (close_ms).
 *   tabs   --tabs --fps HZ --job-us N --job-ms N --depth D --seconds S
 *	The browser case: two threads of one process, each with its own DRM
 *	file and its own GPU priority set on the thread with gpuprio_set()
 *	before it opens the file (--bg-prio, default best-effort 10, for the
 *	background tab, a hog; --fg-prio, default unset, for the foreground
 *	tab, a frame loop that is measured).
 *   gpu-thread  --gpu-thread, the options of tabs
 *	The same two tabs from one thread, as a browser's GPU process: a
 *	DRM file per tab, the thread's GPU priority switched to the tab's
 *	before each submission.
 *   shared --shared, the options of tabs
 *	As gpu-thread, but both tabs submit to one DRM file (one entity).
 *   inversion  --inversion --fps HZ --job-us N --seconds S
 *		[--producer-us N] [--producer-prio P] [--dep fence|cpu]
 *	Priority inversion: the frame loop's every frame depends on a job
 *	of a producer, a second thread with its own DRM file and its own
 *	GPU priority (--producer-prio, set on that thread), which submits
 *	one job of --producer-us (default 1000) at each frame boundary.
 *	--dep fence (the default): the frame's job takes the producer's
 *	out-fence as its in-fence (simgpu's SIMGPU_SUBMIT_IN_FENCE, a
 *	dependency drm_sched knows of); --dep cpu: the frame loop waits for
 *	the producer's fence on the CPU (poll() on its sync_file), then
 *	submits its job without one, so that the kernel knows of no
 *	dependency. The frame is counted as in the frame loop; the
 *	producer's jobs are counted per run queue (prod_rq_...) with their
 *	submit-to-end latency (prod_p50_us ...), and dep_ok= counts the
 *	frames whose job really came after the producer's: started once the
 *	producer's job was due to end (fence), or submitted once its fence
 *	signalled (cpu).
 *   deadline   --deadline --job-us N --seconds S [--producer-prio P]
 *		[--after-ms D] [--period-ms T]
 *	A fence deadline: every T ms (default 250) a client at --producer-prio
 *	(a second thread, its own DRM file) submits one job of --job-us with
 *	an out-fence; D ms later (default 20) the main thread, the waiter,
 *	sets a deadline on that sync_file (SYNC_IOC_SET_DEADLINE, due at
 *	once), then waits for the job. Per sample: from just before the
 *	deadline was set to the job's end on the engine (simgpu's end_ns),
 *	0 if it had ended by then;
 *	held= counts the samples whose job had not started when the deadline
 *	was set (the deadline had something to do), contended= those
 *	submitted while the engine had other jobs, set_errors= failed
 *	SET_DEADLINE calls.
 *   now    --now
 *	Prints CLOCK_MONOTONIC in ns, for scripts that time events against
 *	the figures above.
 *
 * Every run ends with one line "gpuload: mode=... key=value ..." on stdout,
 * with, per side: how many of its jobs were armed on each drm_sched run
 * queue (rq_kernel= rq_high= rq_normal= rq_low= rq_none=, simgpu's account
 * of the run queue its entity was really on; under drm_sched's FAIR policy
 * there is one, rq_kernel), the same per priority the entity was armed at
 * (pr_kernel= ... pr_none=: the run queue under RR and FIFO, the weight
 * under FAIR), the fraction of its run time
 * the engine spent on its jobs (busy=), and for the frame loop, how many of
 * its jobs were submitted while the engine had other jobs (contended=).
 * --interval adds a line per second of the frame loop ("gpuload: t=...").
 * Exit status: 0 done, 1 the device or an ioctl failed, 2 bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <gpuprio.h>
#include <linux/sync_file.h>
#include "simgpu_drm.h"

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_USEC	1000LL
/* A job may wait behind many others: give up only when this has passed. */
#define WAIT_LIMIT_NS	(30 * NSEC_PER_SEC)
#define MAX_DEPTH	64
#define RENDER_MINOR_FIRST	128
#define RENDER_MINOR_LAST	191

enum { EXIT_DEVICE = 1, EXIT_USAGE = 2 };

/* Who submits for the two tabs of --tabs, --gpu-thread and --shared. */
enum tabs_mode {
	TABS_OFF,
	TABS_THREADS,		/* a thread and a file per tab */
	TABS_GPU_THREAD,	/* one thread, a file per tab */
	TABS_SHARED,		/* one thread, one file for both */
};
static const char *const tabs_mode_names[] = {
	"", "tabs", "gpu-thread", "shared",
};

struct options {
	const char *device;
	unsigned int engine;
	double fps;
	long long job_ns;	/* frame loop */
	long long hog_job_ns;	/* hog, or the background tab */
	unsigned int depth;
	double seconds;		/* 0: the hog runs until signalled */
	bool interval;
	bool hog, now;
	bool driver_thread;	/* the hog submits from a second thread */
	bool pidfd;		/* ... and the process is lowered by pidfd */
	bool close_on_mark;	/* the hog closes its file at SIGUSR1 */
	enum tabs_mode tabs;
	int fg_prio, bg_prio;	/* -1: leave the thread's GPU priority */
	bool inversion, deadline;
	bool dep_cpu;		/* --dep cpu: the frame waits on the CPU */
	long long producer_ns;	/* --inversion's producer job */
	int producer_prio;	/* -1: the thread's own */
	long long after_ns, period_ns;	/* --deadline */
};

/*
 * Jobs per run queue, from simgpu's drm_simgpu_submit.rq, per priority
 * armed (.priority) and per GPU nice the entity had (.nice: its weight
 * under drm_sched's FAIR policy).
 */
#define NUM_RQ	5	/* kernel, high, normal, low, none or unknown */
#define NICE_MIN	(-20)
#define NUM_NICE	(SIMGPU_NICE_IDLE - NICE_MIN + 2)	/* + unknown */

struct rq_count {
	unsigned long long n[NUM_RQ];
	unsigned long long pr[NUM_RQ];
	unsigned long long nice[NUM_NICE];
};

struct frame_stats {
	long long *latency_ns;
	/*
	 * Where latency beyond the job's own length comes from: waiting to
	 * start (other jobs, the scheduler's hand-off) and ending late (the
	 * engine's timer).
	 */
	long long *queued_ns, *overrun_ns;
	size_t frames, missed, cap;
	long long start_ns, end_ns;	/* first frame start, last present */
	/* from the last SIGUSR1 mark on */
	long long mark_ns, after_start_ns;
	size_t marks, frames_after, missed_after;
	unsigned int prio;
	struct rq_count rq;
	/* jobs submitted while the engine had others; engine time on ours */
	size_t contended;
	long long busy_ns;
};

struct hog_stats {
	unsigned long long jobs;
	long long busy_ns, last_end_ns;
	/*
	 * Starvation, on the engine's timeline: when its previous job was
	 * due to end, the longest gap from being ready to a job's start and
	 * where it was; the longest one WAIT blocked, wall clock.
	 */
	long long prev_finish_ns, max_gap_ns, gap_from_ns, gap_to_ns;
	long long max_wait_ns;
	/* first submission, end of submitting */
	long long start_ns, stop_ns;
	bool closed;		/* closed at the mark, jobs still queued */
	unsigned int prio;
	int nice;		/* of the last job armed */
	struct rq_count rq;
	int err;
};

static volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t mark_requested;
/* When the last SIGUSR1 came, written by its handler only. */
static volatile long long mark_time_ns;

static const char *const prio_names[] = {
	"kernel", "high", "normal", "low",
};

static const char *prio_name(unsigned int prio)
{
	if (prio < sizeof(prio_names) / sizeof(prio_names[0]))
		return prio_names[prio];
	return "unknown";
}

static unsigned int rq_index(unsigned int rq)
{
	return rq < NUM_RQ - 1 ? rq : NUM_RQ - 1;
}

static const char *rq_name(unsigned int rq)
{
	return rq < NUM_RQ - 1 ? prio_names[rq] : "none";
}

static unsigned int nice_index(int nice)
{
	if (nice < NICE_MIN || nice > SIMGPU_NICE_IDLE)
		return NUM_NICE - 1;
	return (unsigned int)(nice - NICE_MIN);
}

/* A GPU nice as gpuload prints it: the number, idle or unknown. */
static void print_nice(unsigned int i)
{
	if (i == NUM_NICE - 1)
		fputs("unknown", stdout);
	else if ((int)i + NICE_MIN == SIMGPU_NICE_IDLE)
		fputs("idle", stdout);
	else
		printf("%d", (int)i + NICE_MIN);
}

static void count_job(struct rq_count *c, const struct drm_simgpu_submit *s)
{
	c->n[rq_index(s->rq)]++;
	c->pr[rq_index(s->priority)]++;
	c->nice[nice_index(s->nice)]++;
}

/* " rq_Q=N... pr_Q=N... nice_jobs=NICE:N,..." (the non-zero nices) */
static void print_rq(const char *prefix, const struct rq_count *c)
{
	const char *sep = "";
	unsigned int i;

	for (i = 0; i < NUM_RQ; i++)
		printf(" %srq_%s=%llu", prefix, rq_name(i), c->n[i]);
	for (i = 0; i < NUM_RQ; i++)
		printf(" %spr_%s=%llu", prefix, rq_name(i), c->pr[i]);
	printf(" %snice_jobs=", prefix);
	for (i = 0; i < NUM_NICE; i++) {
		if (!c->nice[i])
			continue;
		fputs(sep, stdout);
		print_nice(i);
		printf(":%llu", c->nice[i]);
		sep = ",";
	}
	if (!*sep)
		putchar('-');
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void sleep_until(long long t)
{
	struct timespec ts = { .tv_sec = t / NSEC_PER_SEC,
			       .tv_nsec = t % NSEC_PER_SEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR && !stop_requested)
		;
}

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void on_mark(int sig)
{
	(void)sig;
	mark_time_ns = now_ns();
	mark_requested = 1;
}

/* No SA_RESTART: a signal must end a blocking wait so the loop sees it. */
static void catch_signal(int sig, void (*handler)(int))
{
	struct sigaction sa = { .sa_handler = handler };

	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void die_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("gpuload: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n(see the comment at the top of tests/simgpu/gpuload.c; "
	      "--help lists the options)\n", stderr);
	exit(EXIT_USAGE);
}

/* --- the device ------------------------------------------------------ */

/* 0 if @fd is simgpu's; else -1 and @why says what it is. */
static int check_simgpu(int fd, char *why, size_t len)
{
	char name[32] = "";
	struct drm_version v = {
		.name_len = sizeof(name) - 1,
		.name = name,
	};

	if (ioctl(fd, DRM_IOCTL_VERSION, &v)) {
		snprintf(why, len, "DRM_IOCTL_VERSION: %s", strerror(errno));
		return -1;
	}
	if (strcmp(name, "simgpu")) {
		snprintf(why, len, "its driver is %s", name);
		return -1;
	}
	return 0;
}

static int open_device(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	char why[80];

	if (fd < 0) {
		fprintf(stderr, "gpuload: %s: open: %s\n", path,
			strerror(errno));
		return -1;
	}
	if (check_simgpu(fd, why, sizeof(why))) {
		fprintf(stderr, "gpuload: %s is not simgpu's render node "
			"(%s)\n", path, why);
		close(fd);
		return -1;
	}
	return fd;
}

/* The first simgpu render node, so that other DRM drivers may be there. */
static int find_device(char *path, size_t len)
{
	char why[80];
	int minor, fd;

	for (minor = RENDER_MINOR_FIRST; minor <= RENDER_MINOR_LAST; minor++) {
		snprintf(path, len, "/dev/dri/renderD%d", minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!check_simgpu(fd, why, sizeof(why)))
			return fd;
		close(fd);
	}
	fprintf(stderr, "gpuload: no simgpu render node in /dev/dri "
		"(is the simgpu module loaded?)\n");
	return -1;
}

static int open_simgpu(const struct options *o)
{
	char path[64];

	if (o->device)
		return open_device(o->device);
	return find_device(path, sizeof(path));
}

/* With SIMGPU_SUBMIT_* @flags; @in_fd the in-fence, if the flag says so. */
static int submit_ex(int fd, unsigned int engine, long long duration_ns,
		     unsigned int flags, int in_fd, struct drm_simgpu_submit *s)
{
	memset(s, 0, sizeof(*s));
	s->duration_ns = (unsigned long long)duration_ns;
	s->engine = engine;
	s->flags = flags;
	if (flags & SIMGPU_SUBMIT_IN_FENCE)
		s->in_fence_fd = in_fd;
	if (ioctl(fd, DRM_IOCTL_SIMGPU_SUBMIT, s)) {
		fprintf(stderr, "gpuload: SIMGPU_SUBMIT of %lld ns on engine "
			"%u (flags %#x): %s\n", duration_ns, engine, flags,
			strerror(errno));
		return -1;
	}
	return 0;
}

static int submit(int fd, unsigned int engine, long long duration_ns,
		  struct drm_simgpu_submit *s)
{
	return submit_ex(fd, engine, duration_ns, 0, -1, s);
}

/*
 * Wait for a job in steps, so that a stop request is seen, but never give
 * up on a job before WAIT_LIMIT_NS: a hog's last jobs must end before the
 * next measurement starts.
 */
/* --close-on-mark: a wait gives up at SIGUSR1, the file is closed. */
static bool abandon_at_mark;

static int wait_job(int fd, unsigned long long handle,
		    struct drm_simgpu_wait *w)
{
	long long limit = now_ns() + WAIT_LIMIT_NS;

	for (;;) {
		memset(w, 0, sizeof(*w));
		w->handle = handle;
		w->timeout_ns = 100 * NSEC_PER_MSEC;
		if (!ioctl(fd, DRM_IOCTL_SIMGPU_WAIT, w))
			return 0;
		if (abandon_at_mark && mark_requested)
			return 1;
		if ((errno != ETIME && errno != EINTR) || now_ns() > limit)
			break;
	}
	fprintf(stderr, "gpuload: SIMGPU_WAIT for job %llu: %s\n", handle,
		errno == ETIME ? "not done after 30 s" : strerror(errno));
	return -1;
}

static int set_thread_prio(int prio, const char *who)
{
	if (prio < 0)
		return 0;
	if (gpuprio_set(GPUPRIO_WHO_PROCESS, 0, prio)) {
		fprintf(stderr, "gpuload: %s: gpuprio_set(%#x): %s\n", who,
			prio, strerror(errno));
		return -1;
	}
	return 0;
}

/* --- the frame loop -------------------------------------------------- */

static void frame_stats_free(struct frame_stats *st)
{
	free(st->latency_ns);
	free(st->queued_ns);
	free(st->overrun_ns);
}

static int frame_stats_init(struct frame_stats *st, const struct options *o)
{
	memset(st, 0, sizeof(*st));
	st->cap = (size_t)(o->fps * o->seconds) + 16;
	st->latency_ns = calloc(st->cap, sizeof(*st->latency_ns));
	st->queued_ns = calloc(st->cap, sizeof(*st->queued_ns));
	st->overrun_ns = calloc(st->cap, sizeof(*st->overrun_ns));
	if (!st->latency_ns || !st->queued_ns || !st->overrun_ns) {
		frame_stats_free(st);
		fprintf(stderr, "gpuload: out of memory\n");
		return -1;
	}
	return 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* Nearest rank; @v sorted. */
static long long percentile(const long long *v, size_t n, int pct)
{
	size_t rank;

	if (!n)
		return 0;
	rank = (n * (size_t)pct + 99) / 100;
	return v[rank ? rank - 1 : 0];
}

struct second {
	long long start_ns;
	size_t frames, missed, first;
};

static void print_second(const struct frame_stats *st, struct second *sec,
			 long long t)
{
	size_t n = st->frames - sec->first;
	long long *v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		return;
	memcpy(v, st->latency_ns + sec->first, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_ll);
	printf("gpuload: t=%.1f fps=%.1f missed=%zu p50_us=%lld p99_us=%lld\n",
	       (double)(t - st->start_ns) / NSEC_PER_SEC,
	       (double)sec->frames * NSEC_PER_SEC / (double)(t - sec->start_ns),
	       sec->missed, percentile(v, n, 50) / NSEC_PER_USEC,
	       percentile(v, n, 99) / NSEC_PER_USEC);
	fflush(stdout);
	free(v);
	sec->start_ns = t;
	sec->frames = 0;
	sec->missed = 0;
	sec->first = st->frames;
}

/*
 * A frame's job, due by @deadline, is done: count it, and return when the
 * next frame starts, the first boundary at or after the job's end (the
 * frame is shown there).
 */
static long long frame_done(struct frame_stats *st, const struct options *o,
			    const struct drm_simgpu_submit *s,
			    const struct drm_simgpu_wait *w, long long deadline)
{
	long long period = (long long)(NSEC_PER_SEC / o->fps);

	st->prio = s->priority;
	count_job(&st->rq, s);
	st->contended += s->engine_jobs > 0;
	st->busy_ns += (long long)(w->end_ns - w->start_ns);
	st->queued_ns[st->frames] = (long long)(w->start_ns - w->submit_ns);
	st->overrun_ns[st->frames] = (long long)(w->end_ns - w->start_ns) -
				     o->job_ns;
	st->latency_ns[st->frames++] = (long long)(w->end_ns - w->submit_ns);
	st->frames_after++;
	if ((long long)w->end_ns > deadline) {
		st->missed++;
		st->missed_after++;
	}
	while (deadline < (long long)w->end_ns)
		deadline += period;
	st->end_ns = deadline;
	return deadline;
}

/*
 * Runs for o->seconds or until *stop; frames start on boundaries of the
 * period counted from the first one.
 */
static int frame_loop(int fd, const struct options *o, struct frame_stats *st,
		      volatile sig_atomic_t *stop)
{
	long long period = (long long)(NSEC_PER_SEC / o->fps);
	long long start, deadline, next, end;
	struct drm_simgpu_submit s;
	struct drm_simgpu_wait w;
	struct second sec = { 0 };

	start = now_ns();
	end = start + (long long)(o->seconds * NSEC_PER_SEC);
	st->start_ns = start;
	sec.start_ns = start;
	for (next = start; next < end && !*stop && st->frames < st->cap;) {
		if (mark_requested) {
			mark_requested = 0;
			st->mark_ns = mark_time_ns;
			st->after_start_ns = next;
			st->marks++;
			st->frames_after = 0;
			st->missed_after = 0;
			if (o->interval) {
				printf("gpuload: mark=%zu t=%.2f\n", st->marks,
				       (double)(st->mark_ns - start) /
				       NSEC_PER_SEC);
				fflush(stdout);
			}
		}
		deadline = next + period;
		if (submit(fd, o->engine, o->job_ns, &s) ||
		    wait_job(fd, s.handle, &w))
			return -1;
		sec.frames++;
		sec.missed += (long long)w.end_ns > deadline;
		next = frame_done(st, o, &s, &w, deadline);
		if (o->interval && next - sec.start_ns >= NSEC_PER_SEC)
			print_second(st, &sec, next);
		sleep_until(next);
	}
	return 0;
}

static void print_frame_result(const char *mode, const struct options *o,
			       struct frame_stats *st)
{
	double secs = (double)(st->end_ns - st->start_ns) / NSEC_PER_SEC;
	long long *v = st->latency_ns;
	size_t n = st->frames;

	qsort(v, n, sizeof(*v), cmp_ll);
	qsort(st->queued_ns, n, sizeof(*v), cmp_ll);
	qsort(st->overrun_ns, n, sizeof(*v), cmp_ll);
	printf("gpuload: mode=%s fps=%.2f missed=%zu frames=%zu seconds=%.2f "
	       "p50_us=%lld p99_us=%lld max_us=%lld target_fps=%g job_us=%lld "
	       "prio=%s", mode, secs > 0 ? n / secs : 0.0, st->missed, n, secs,
	       percentile(v, n, 50) / NSEC_PER_USEC,
	       percentile(v, n, 99) / NSEC_PER_USEC,
	       n ? v[n - 1] / NSEC_PER_USEC : 0, o->fps,
	       o->job_ns / NSEC_PER_USEC, prio_name(st->prio));
	printf(" queued_p50_us=%lld queued_p99_us=%lld overrun_p50_us=%lld "
	       "overrun_p99_us=%lld",
	       percentile(st->queued_ns, n, 50) / NSEC_PER_USEC,
	       percentile(st->queued_ns, n, 99) / NSEC_PER_USEC,
	       percentile(st->overrun_ns, n, 50) / NSEC_PER_USEC,
	       percentile(st->overrun_ns, n, 99) / NSEC_PER_USEC);
	print_rq("", &st->rq);
	printf(" contended=%zu busy=%.3f", st->contended,
	       secs > 0 ? (double)st->busy_ns / NSEC_PER_SEC / secs : 0.0);
	if (st->marks) {
		double after = (double)(st->end_ns - st->after_start_ns) /
			       NSEC_PER_SEC;

		printf(" mark_ns=%lld after_fps=%.2f after_missed=%zu",
		       st->mark_ns, after > 0 ? st->frames_after / after : 0.0,
		       st->missed_after);
	}
}

static int run_frames(const struct options *o)
{
	struct frame_stats st;
	int fd, ret;

	if (set_thread_prio(o->fg_prio, "frame loop"))
		return EXIT_DEVICE;
	fd = open_simgpu(o);
	if (fd < 0)
		return EXIT_DEVICE;
	if (frame_stats_init(&st, o)) {
		close(fd);
		return EXIT_DEVICE;
	}
	ret = frame_loop(fd, o, &st, &stop_requested);
	close(fd);
	if (!ret) {
		print_frame_result("frame", o, &st);
		putchar('\n');
	}
	frame_stats_free(&st);
	return ret ? EXIT_DEVICE : 0;
}

/* --- the hog --------------------------------------------------------- */

/*
 * A hog's job is done: the engine's time on it, not counting again what
 * overlaps its previous job (it starts when that one was due, which may be
 * before its fence signalled).
 */
static void hog_done(struct hog_stats *hs, const struct drm_simgpu_wait *w,
		     long long job_ns)
{
	long long start = (long long)w->start_ns, end = (long long)w->end_ns;
	long long ready = (long long)w->submit_ns;

	/*
	 * Ready from its submission, or from when its previous job was due
	 * to end if that is later (one entity's jobs run in order): until
	 * the engine started it, the client had work and none of it ran.
	 */
	if (hs->prev_finish_ns > ready)
		ready = hs->prev_finish_ns;
	if (start - ready > hs->max_gap_ns) {
		hs->max_gap_ns = start - ready;
		hs->gap_from_ns = ready;
		hs->gap_to_ns = start;
	}
	hs->prev_finish_ns = start + job_ns;
	if (start < hs->last_end_ns)
		start = hs->last_end_ns;
	if (end > start)
		hs->busy_ns += end - start;
	if (end > hs->last_end_ns)
		hs->last_end_ns = end;
	hs->jobs++;
}

/*
 * A hog's job is armed: count its run queue, priority and nice, print a
 * change of any (under FAIR the run queue never changes, the priority and
 * the nice do). The first job armed is a change: *last_rq starts as
 * UINT_MAX.
 */
static void hog_armed(struct hog_stats *hs, const struct drm_simgpu_submit *s,
		      unsigned int *last_rq, const char *who)
{
	bool changed = s->rq != *last_rq || s->priority != hs->prio ||
		       s->nice != hs->nice;

	count_job(&hs->rq, s);
	hs->prio = s->priority;
	hs->nice = s->nice;
	if (!changed)
		return;
	printf("gpuload: %s rq=%s prio=%s nice=", who,
	       rq_name(rq_index(s->rq)), prio_name(s->priority));
	print_nice(nice_index(s->nice));
	printf(" at_ns=%lld\n", now_ns());
	fflush(stdout);
	*last_rq = s->rq;
}

/*
 * Keep o->depth jobs in flight: wait for the oldest, submit the next, so
 * that the engine never idles while the scheduler always has some queued.
 */
static int hog_loop(int fd, const struct options *o, struct hog_stats *hs,
		    volatile sig_atomic_t *stop, long long end, const char *who)
{
	unsigned long long ring[MAX_DEPTH];
	unsigned int head = 0, queued = 0, rq = UINT_MAX;
	struct drm_simgpu_submit s;
	struct drm_simgpu_wait w;
	long long t;
	int ret = 0;

	hs->start_ns = now_ns();
	while (!*stop && now_ns() < end &&
	       !(abandon_at_mark && mark_requested)) {
		if (queued == o->depth) {
			/* The wait is timed even if abandoned at the mark. */
			t = now_ns();
			ret = wait_job(fd, ring[head], &w);
			t = now_ns() - t;
			if (t > hs->max_wait_ns)
				hs->max_wait_ns = t;
			if (ret)
				break;
			hog_done(hs, &w, o->hog_job_ns);
			head = (head + 1) % o->depth;
			queued--;
			continue;
		}
		if (submit(fd, o->engine, o->hog_job_ns, &s)) {
			ret = -1;
			break;
		}
		hog_armed(hs, &s, &rq, who);
		ring[(head + queued) % o->depth] = s.handle;
		queued++;
	}
	hs->stop_ns = now_ns();
	/* --close-on-mark: the caller closes the file, jobs still queued. */
	if (ret > 0 || (ret == 0 && abandon_at_mark && mark_requested)) {
		hs->closed = true;
		return 0;
	}
	/* Leave the engine idle for whatever is measured next. */
	for (; queued; queued--, head = (head + 1) % o->depth) {
		if (wait_job(fd, ring[head], &w))
			return -1;
		hog_done(hs, &w, o->hog_job_ns);
	}
	return ret;
}

/*
 * --driver-thread: the hog's jobs come from a thread that was started
 * before the process lowered itself, as a graphics driver's submission
 * thread is (Mesa starts them with the screen or the context). The main
 * thread then sets its own GPU priority with gpuprio_set(GPUPRIO_WHO_PROCESS,
 * 0, ...), which changes the calling thread only, and does not submit.
 */
struct driver_thread {
	const struct options *o;
	int fd;
	long long end;
	struct hog_stats *hs;
	int ret;
	int go;		/* 1 submit, -1 give up; under lock */
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static void *driver_main(void *arg)
{
	struct driver_thread *d = arg;

	pthread_mutex_lock(&d->lock);
	while (!d->go)
		pthread_cond_wait(&d->cond, &d->lock);
	pthread_mutex_unlock(&d->lock);
	if (d->go > 0)
		d->ret = hog_loop(d->fd, d->o, d->hs, &stop_requested, d->end,
				  "hog");
	return NULL;
}

/*
 * The main thread lowers itself, or with @pidfd the whole process, each
 * thread of it; its own value is read back, so the change really took.
 */
static int lower_caller(int prio, bool pidfd)
{
	int fd, now;

	if (!pidfd) {
		if (set_thread_prio(prio, "main thread"))
			return -1;
	} else {
		fd = gpuprio_pidfd_open(getpid());
		if (fd < 0 || gpuprio_set(GPUPRIO_WHO_PIDFD, fd, prio)) {
			fprintf(stderr, "gpuload: the process, by pidfd: %s\n",
				strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
	}
	now = gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	if (now != prio) {
		fprintf(stderr, "gpuload: main thread: gpuprio_get gives %#x "
			"after gpuprio_set(%#x)\n", now, prio);
		return -1;
	}
	return 0;
}

static int hog_by_driver_thread(int fd, const struct options *o,
				struct hog_stats *hs, long long end)
{
	struct driver_thread d = {
		.o = o, .fd = fd, .end = end, .hs = hs,
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
	};
	pthread_t thread;
	int err;

	err = pthread_create(&thread, NULL, driver_main, &d);
	if (err) {
		fprintf(stderr, "gpuload: pthread_create: %s\n", strerror(err));
		return -1;
	}
	err = lower_caller(o->bg_prio, o->pidfd);
	pthread_mutex_lock(&d.lock);
	d.go = err ? -1 : 1;
	pthread_cond_signal(&d.cond);
	pthread_mutex_unlock(&d.lock);
	pthread_join(thread, NULL);
	return err ? err : d.ret;
}

static int run_hog(const struct options *o)
{
	struct hog_stats hs = { .prio = UINT_MAX };
	long long start = now_ns(), end, close_ns = -1;
	int fd, ret;

	if (!o->driver_thread && set_thread_prio(o->bg_prio, "hog"))
		return EXIT_DEVICE;
	fd = open_simgpu(o);
	if (fd < 0)
		return EXIT_DEVICE;
	end = o->seconds > 0 ?
		start + (long long)(o->seconds * NSEC_PER_SEC) : LLONG_MAX;
	if (o->driver_thread)
		ret = hog_by_driver_thread(fd, o, &hs, end);
	else
		ret = hog_loop(fd, o, &hs, &stop_requested, end, "hog");
	/*
	 * close() returns once the file is released: simgpu's postclose
	 * flushes the entities (drm_sched_entity_flush(), which waits for
	 * their queued jobs to be handed to the engine) and waits for the
	 * jobs' fences.
	 */
	if (hs.closed)
		close_ns = now_ns();
	close(fd);
	if (hs.closed)
		close_ns = now_ns() - close_ns;
	printf("gpuload: mode=hog jobs=%llu busy=%.3f seconds=%.2f job_ms=%lld "
	       "depth=%u driver_thread=%d pidfd=%d prio=%s", hs.jobs,
	       (double)hs.busy_ns / (double)(now_ns() - start),
	       (double)(now_ns() - start) / NSEC_PER_SEC,
	       o->hog_job_ns / NSEC_PER_MSEC, o->depth, o->driver_thread,
	       o->pidfd, prio_name(hs.prio));
	print_rq("", &hs.rq);
	printf(" start_ns=%lld stop_ns=%lld max_gap_ms=%.2f gap_from_ns=%lld "
	       "gap_to_ns=%lld max_wait_ms=%.2f", hs.start_ns, hs.stop_ns,
	       (double)hs.max_gap_ns / NSEC_PER_MSEC, hs.gap_from_ns,
	       hs.gap_to_ns, (double)hs.max_wait_ns / NSEC_PER_MSEC);
	if (hs.closed)
		printf(" mark_ns=%lld close_ms=%.2f", (long long)mark_time_ns,
		       (double)close_ns / NSEC_PER_MSEC);
	printf(" error=%d\n", ret ? 1 : 0);
	return ret ? EXIT_DEVICE : 0;
}

/* --- two tabs in one process ----------------------------------------- */

/* The foreground tab's result line, the background tab's on it (bg_). */
static void print_tabs_result(const struct options *o, struct frame_stats *st,
			      const struct hog_stats *bg, long long bg_start)
{
	print_frame_result(tabs_mode_names[o->tabs], o, st);
	printf(" bg_jobs=%llu bg_job_ms=%lld bg_depth=%u bg_prio=%s "
	       "bg_busy=%.3f", bg->jobs, o->hog_job_ns / NSEC_PER_MSEC,
	       o->depth, prio_name(bg->prio),
	       (double)bg->busy_ns / (double)(now_ns() - bg_start));
	print_rq("bg_", &bg->rq);
	putchar('\n');
}

struct tab {
	const struct options *o;
	int fd;
	struct hog_stats hs;
	int err;
};

static volatile sig_atomic_t background_stop;

static void *background_tab(void *arg)
{
	struct tab *t = arg;

	/* Until the foreground tab is done. */
	t->err = hog_loop(t->fd, t->o, &t->hs, &background_stop, LLONG_MAX,
			  "background");
	return NULL;
}

/* Each thread sets its own priority, then opens its file (its entity). */
static int open_tab(const struct options *o, int prio, const char *who)
{
	if (set_thread_prio(prio, who))
		return -1;
	return open_simgpu(o);
}

struct bg_start {
	struct tab *tab;
	int ready;	/* 1 opened, -1 failed; under lock */
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static void *background_main(void *arg)
{
	struct bg_start *b = arg;
	int fd = open_tab(b->tab->o, b->tab->o->bg_prio, "background tab");

	pthread_mutex_lock(&b->lock);
	b->tab->fd = fd;
	b->ready = fd < 0 ? -1 : 1;
	pthread_cond_signal(&b->cond);
	pthread_mutex_unlock(&b->lock);
	if (fd < 0)
		return NULL;
	return background_tab(b->tab);
}

static int run_tabs(const struct options *o)
{
	struct bg_start b = { .lock = PTHREAD_MUTEX_INITIALIZER,
			      .cond = PTHREAD_COND_INITIALIZER };
	struct tab bg = { .o = o, .fd = -1, .hs = { .prio = UINT_MAX } };
	long long bg_start = now_ns();
	struct frame_stats st;
	pthread_t thread;
	int fd, err, ret;

	if (frame_stats_init(&st, o))
		return EXIT_DEVICE;
	b.tab = &bg;
	err = pthread_create(&thread, NULL, background_main, &b);
	if (err) {
		fprintf(stderr, "gpuload: pthread_create: %s\n", strerror(err));
		return EXIT_DEVICE;
	}
	pthread_mutex_lock(&b.lock);
	while (!b.ready)
		pthread_cond_wait(&b.cond, &b.lock);
	pthread_mutex_unlock(&b.lock);

	fd = b.ready > 0 ? open_tab(o, o->fg_prio, "foreground tab") : -1;
	/* Let the background tab fill the queue before the first frame. */
	if (fd >= 0)
		usleep(o->hog_job_ns / NSEC_PER_USEC * o->depth);
	ret = fd < 0 ? -1 : frame_loop(fd, o, &st, &stop_requested);
	background_stop = 1;
	pthread_join(thread, NULL);
	if (fd >= 0)
		close(fd);
	if (bg.fd >= 0)
		close(bg.fd);
	if (!ret && !bg.err)
		print_tabs_result(o, &st, &bg.hs, bg_start);
	frame_stats_free(&st);
	return ret || bg.err ? EXIT_DEVICE : 0;
}

/* --- one thread submitting for both tabs ------------------------------ */

/* Between looks at the jobs: short against a frame, long against a call. */
#define POLL_NS		(250 * NSEC_PER_USEC)

/* The one thread's GPU priority, set only when a tab needs another. */
static int switch_prio(int *cur, int prio, const char *tab)
{
	if (*cur == prio)
		return 0;
	if (set_thread_prio(prio, tab))
		return -1;
	*cur = prio;
	return 0;
}

/* 1 and @w filled if the job is done, 0 if not yet, -1 on error. */
static int job_done(int fd, unsigned long long handle,
		    struct drm_simgpu_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->handle = handle;
	if (!ioctl(fd, DRM_IOCTL_SIMGPU_WAIT, w))
		return 1;
	if (errno == ETIME || errno == EINTR)
		return 0;
	fprintf(stderr, "gpuload: SIMGPU_WAIT for job %llu: %s\n", handle,
		strerror(errno));
	return -1;
}

struct one_thread {
	int fg_fd, bg_fd;
	int fg_prio, bg_prio, cur_prio;
	unsigned long long ring[MAX_DEPTH];
	unsigned int head, queued, rq;
	struct drm_simgpu_submit frame;	/* the frame's job, if in_frame */
	long long deadline, since;
	bool in_frame;
};

/* The background tab: keep o->depth of its jobs queued. */
static int one_thread_bg(struct one_thread *t, const struct options *o,
			 struct hog_stats *hs)
{
	struct drm_simgpu_submit s;

	if (switch_prio(&t->cur_prio, t->bg_prio, "background tab") ||
	    submit(t->bg_fd, o->engine, o->hog_job_ns, &s))
		return -1;
	hog_armed(hs, &s, &t->rq, "background");
	t->ring[(t->head + t->queued) % o->depth] = s.handle;
	t->queued++;
	return 0;
}

/*
 * The GPU process of a browser: one thread submits for both tabs, a frame
 * at every boundary for the foreground tab and a hog's queue for the
 * background one, each at its tab's priority (switched before the
 * submission, gpuprio_set(GPUPRIO_WHO_PROCESS, 0, ...)). It looks at both
 * tabs' jobs every POLL_NS, as such a process polls its fences; a frame's
 * latency is the engine's own submit-to-end time all the same.
 */
static int one_thread_loop(struct one_thread *t, const struct options *o,
			   struct frame_stats *st, struct hog_stats *hs)
{
	long long period = (long long)(NSEC_PER_SEC / o->fps);
	long long next, end, now;
	struct drm_simgpu_wait w;
	int r;

	st->start_ns = next = now_ns();
	end = next + (long long)(o->seconds * NSEC_PER_SEC);
	for (;;) {
		now = now_ns();
		if (!t->in_frame && (now >= end || stop_requested ||
				     st->frames >= st->cap))
			return 0;
		if (!t->in_frame && now >= next) {
			if (switch_prio(&t->cur_prio, t->fg_prio,
					"foreground tab") ||
			    submit(t->fg_fd, o->engine, o->job_ns, &t->frame))
				return -1;
			t->deadline = next + period;
			t->since = now;
			t->in_frame = true;
			continue;
		}
		if (t->queued < o->depth) {
			if (one_thread_bg(t, o, hs))
				return -1;
			continue;
		}
		r = job_done(t->bg_fd, t->ring[t->head], &w);
		if (r < 0)
			return -1;
		if (r) {
			hog_done(hs, &w, o->hog_job_ns);
			t->head = (t->head + 1) % o->depth;
			t->queued--;
			continue;
		}
		if (t->in_frame) {
			r = job_done(t->fg_fd, t->frame.handle, &w);
			if (r < 0)
				return -1;
			if (r) {
				next = frame_done(st, o, &t->frame, &w,
						  t->deadline);
				t->in_frame = false;
				continue;
			}
			if (now - t->since > WAIT_LIMIT_NS) {
				fprintf(stderr, "gpuload: frame job not done "
					"after 30 s\n");
				return -1;
			}
		}
		sleep_until(t->in_frame || next - now > POLL_NS ?
			    now + POLL_NS : next);
	}
}

/* Waits for the background tab's last jobs. */
static int one_thread_drain(struct one_thread *t, const struct options *o,
			    struct hog_stats *hs)
{
	struct drm_simgpu_wait w;

	for (; t->queued; t->queued--, t->head = (t->head + 1) % o->depth) {
		if (wait_job(t->bg_fd, t->ring[t->head], &w))
			return -1;
		hog_done(hs, &w, o->hog_job_ns);
	}
	return 0;
}

/*
 * --gpu-thread opens a file per tab, each at its tab's priority (the
 * recipe: a GPU context per priority class); --shared one file for both,
 * as tabs that share a context do.
 */
static int run_one_thread(const struct options *o)
{
	struct one_thread t = { .fg_fd = -1, .bg_fd = -1, .rq = UINT_MAX };
	struct hog_stats hs = { .prio = UINT_MAX };
	long long start = now_ns();
	struct frame_stats st;
	int ret = -1;

	t.cur_prio = gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	if (t.cur_prio < 0) {
		fprintf(stderr, "gpuload: gpuprio_get: %s\n", strerror(errno));
		return EXIT_DEVICE;
	}
	t.fg_prio = o->fg_prio >= 0 ? o->fg_prio : t.cur_prio;
	t.bg_prio = o->bg_prio;
	if (frame_stats_init(&st, o))
		return EXIT_DEVICE;
	if (switch_prio(&t.cur_prio, t.bg_prio, "background tab"))
		goto out;
	t.bg_fd = open_simgpu(o);
	if (t.bg_fd < 0)
		goto out;
	if (o->tabs == TABS_SHARED) {
		t.fg_fd = t.bg_fd;
	} else {
		if (switch_prio(&t.cur_prio, t.fg_prio, "foreground tab"))
			goto out;
		t.fg_fd = open_simgpu(o);
		if (t.fg_fd < 0)
			goto out;
	}
	ret = one_thread_loop(&t, o, &st, &hs);
	if (one_thread_drain(&t, o, &hs))
		ret = -1;
	if (!ret)
		print_tabs_result(o, &st, &hs, start);
out:
	if (t.fg_fd >= 0 && t.fg_fd != t.bg_fd)
		close(t.fg_fd);
	if (t.bg_fd >= 0)
		close(t.bg_fd);
	frame_stats_free(&st);
	return ret ? EXIT_DEVICE : 0;
}

/* --- a producer: another client's jobs, on request ---------------------- */

/*
 * A thread with its own GPU priority and DRM file (its own drm_sched
 * entity) that submits one job with an out-fence whenever asked: the other
 * client of --inversion and --deadline. Only its submissions need its
 * priority (simgpu's entity follows the submitting task); the caller waits
 * for its jobs on its file.
 */
struct producer {
	const struct options *o;
	long long job_ns;
	int prio;		/* -1: leave the thread's own */
	int fd;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int asked, answered;	/* under lock */
	int ready;		/* 1 opened, -1 failed; under lock */
	bool quit;
	int err;
	struct drm_simgpu_submit s;	/* the last job's */
};

static void *producer_main(void *arg)
{
	struct producer *p = arg;
	struct drm_simgpu_submit s;
	int fd = -1, err;

	if (!set_thread_prio(p->prio, "producer"))
		fd = open_simgpu(p->o);
	pthread_mutex_lock(&p->lock);
	p->fd = fd;
	p->ready = fd < 0 ? -1 : 1;
	pthread_cond_broadcast(&p->cond);
	while (fd >= 0) {
		while (p->asked == p->answered && !p->quit)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->quit)
			break;
		pthread_mutex_unlock(&p->lock);
		err = submit_ex(fd, p->o->engine, p->job_ns,
				SIMGPU_SUBMIT_OUT_FENCE, -1, &s);
		pthread_mutex_lock(&p->lock);
		p->s = s;
		p->err = err;
		p->answered++;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static int producer_start(struct producer *p, const struct options *o,
			  long long job_ns, int prio)
{
	int err;

	*p = (struct producer){ .o = o, .job_ns = job_ns, .prio = prio,
				.fd = -1 };
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	err = pthread_create(&p->thread, NULL, producer_main, p);
	if (err) {
		fprintf(stderr, "gpuload: pthread_create: %s\n", strerror(err));
		return -1;
	}
	pthread_mutex_lock(&p->lock);
	while (!p->ready)
		pthread_cond_wait(&p->cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
	return p->ready > 0 ? 0 : -1;
}

/* One job of the producer, submitted by its thread; @s its answer. */
static int producer_ask(struct producer *p, struct drm_simgpu_submit *s)
{
	int err;

	pthread_mutex_lock(&p->lock);
	p->asked++;
	pthread_cond_broadcast(&p->cond);
	while (p->answered != p->asked)
		pthread_cond_wait(&p->cond, &p->lock);
	*s = p->s;
	err = p->err;
	pthread_mutex_unlock(&p->lock);
	return err;
}

static void producer_stop(struct producer *p)
{
	pthread_mutex_lock(&p->lock);
	p->quit = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	if (p->fd >= 0)
		close(p->fd);
}

/*
 * Wait on the CPU for a sync_file to signal, as a client that waits for a
 * buffer before it submits: poll() for POLLIN, never past WAIT_LIMIT_NS.
 */
static int wait_sync_file(int fd)
{
	long long limit = now_ns() + WAIT_LIMIT_NS;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int n;

	for (;;) {
		n = poll(&pfd, 1, 100);
		if (n > 0 && (pfd.revents & POLLIN))
			return 0;
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 || now_ns() > limit) {
			errno = n > 0 ? EIO : ETIME;
			break;
		}
	}
	fprintf(stderr, "gpuload: poll on the producer's sync_file: %s\n",
		strerror(errno));
	return -1;
}

/* --- priority inversion ------------------------------------------------ */

struct producer_stats {
	struct rq_count rq;
	long long *latency_ns;	/* submit to end, per job */
	size_t jobs, contended;
	long long busy_ns;
	unsigned int prio;
};

/*
 * The frame loop with a dependency: at each boundary the producer submits
 * its job, then the frame's job depends on it (in-fence), or is submitted
 * once it ended (--dep cpu).
 */
static int inversion_loop(int fd, struct producer *p, const struct options *o,
			  struct frame_stats *st, struct producer_stats *ps,
			  size_t *dep_ok)
{
	long long period = (long long)(NSEC_PER_SEC / o->fps);
	long long deadline, next, end;
	struct drm_simgpu_submit s, prod;
	struct drm_simgpu_wait w, pw;
	int r;

	st->start_ns = now_ns();
	end = st->start_ns + (long long)(o->seconds * NSEC_PER_SEC);
	for (next = st->start_ns; next < end && !stop_requested &&
	     st->frames < st->cap;) {
		deadline = next + period;
		if (producer_ask(p, &prod))
			return -1;
		count_job(&ps->rq, &prod);
		ps->prio = prod.priority;
		ps->contended += prod.engine_jobs > 0;
		if (!o->dep_cpu) {
			r = submit_ex(fd, o->engine, o->job_ns,
				      SIMGPU_SUBMIT_IN_FENCE, prod.out_fence_fd,
				      &s);
			close(prod.out_fence_fd);
			if (r || wait_job(fd, s.handle, &w) ||
			    wait_job(p->fd, prod.handle, &pw))
				return -1;
			*dep_ok += (long long)w.start_ns >=
				   (long long)pw.start_ns + p->job_ns;
		} else {
			r = wait_sync_file(prod.out_fence_fd);
			close(prod.out_fence_fd);
			if (r || wait_job(p->fd, prod.handle, &pw) ||
			    submit(fd, o->engine, o->job_ns, &s) ||
			    wait_job(fd, s.handle, &w))
				return -1;
			*dep_ok += w.submit_ns >= pw.end_ns;
		}
		ps->latency_ns[ps->jobs++] = (long long)(pw.end_ns -
							 pw.submit_ns);
		ps->busy_ns += (long long)(pw.end_ns - pw.start_ns);
		next = frame_done(st, o, &s, &w, deadline);
		sleep_until(next);
	}
	return 0;
}

static int run_inversion(const struct options *o)
{
	struct producer_stats ps = { .prio = UINT_MAX };
	struct frame_stats st;
	struct producer p;
	size_t dep_ok = 0, n;
	double secs;
	int fd, ret = -1;

	if (set_thread_prio(o->fg_prio, "frame loop") ||
	    frame_stats_init(&st, o))
		return EXIT_DEVICE;
	ps.latency_ns = calloc(st.cap, sizeof(*ps.latency_ns));
	fd = ps.latency_ns ? open_simgpu(o) : -1;
	if (fd < 0) {
		free(ps.latency_ns);
		frame_stats_free(&st);
		return EXIT_DEVICE;
	}
	if (!producer_start(&p, o, o->producer_ns, o->producer_prio))
		ret = inversion_loop(fd, &p, o, &st, &ps, &dep_ok);
	producer_stop(&p);
	close(fd);
	if (!ret) {
		secs = (double)(st.end_ns - st.start_ns) / NSEC_PER_SEC;
		n = ps.jobs;
		print_frame_result("inversion", o, &st);
		qsort(ps.latency_ns, n, sizeof(*ps.latency_ns), cmp_ll);
		printf(" dep=%s dep_ok=%zu prod_jobs=%zu prod_job_us=%lld "
		       "prod_prio=%s", o->dep_cpu ? "cpu" : "fence", dep_ok, n,
		       o->producer_ns / NSEC_PER_USEC, prio_name(ps.prio));
		print_rq("prod_", &ps.rq);
		printf(" prod_contended=%zu prod_busy=%.3f prod_p50_us=%lld "
		       "prod_p99_us=%lld prod_max_us=%lld\n", ps.contended,
		       secs > 0 ? (double)ps.busy_ns / NSEC_PER_SEC / secs : 0.0,
		       percentile(ps.latency_ns, n, 50) / NSEC_PER_USEC,
		       percentile(ps.latency_ns, n, 99) / NSEC_PER_USEC,
		       n ? ps.latency_ns[n - 1] / NSEC_PER_USEC : 0);
	}
	free(ps.latency_ns);
	frame_stats_free(&st);
	return ret ? EXIT_DEVICE : 0;
}

/* --- a deadline on a lowered client's fence ------------------------------ */

/* Deadline samples at most: one per --period-ms over --seconds. */
#define MAX_SAMPLES	4096

static int deadline_loop(struct producer *p, const struct options *o,
			 long long *lat, struct producer_stats *ps,
			 size_t *held, size_t *set_errors)
{
	long long end = now_ns() + (long long)(o->seconds * NSEC_PER_SEC);
	struct sync_set_deadline dl;
	struct drm_simgpu_submit s;
	struct drm_simgpu_wait w;
	long long t0, t_set;

	while (!stop_requested && ps->jobs < MAX_SAMPLES &&
	       (t0 = now_ns()) < end) {
		if (producer_ask(p, &s))
			return -1;
		count_job(&ps->rq, &s);
		ps->prio = s.priority;
		ps->contended += s.engine_jobs > 0;
		sleep_until(t0 + o->after_ns);
		/* Due at once: the waiter needs it now. */
		t_set = now_ns();
		memset(&dl, 0, sizeof(dl));
		dl.deadline_ns = (unsigned long long)t_set;
		if (ioctl(s.out_fence_fd, SYNC_IOC_SET_DEADLINE, &dl)) {
			fprintf(stderr, "gpuload: SYNC_IOC_SET_DEADLINE: %s\n",
				strerror(errno));
			(*set_errors)++;
		}
		close(s.out_fence_fd);
		if (wait_job(p->fd, s.handle, &w))
			return -1;
		*held += (long long)w.start_ns > t_set;
		/* A job that ended before the deadline was set: 0. */
		lat[ps->jobs++] = (long long)w.end_ns > t_set ?
				  (long long)w.end_ns - t_set : 0;
		ps->busy_ns += (long long)(w.end_ns - w.start_ns);
		sleep_until(t0 + o->period_ns);
	}
	return 0;
}

static int run_deadline(const struct options *o)
{
	struct producer_stats ps = { .prio = UINT_MAX };
	long long start = now_ns(), *lat;
	size_t held = 0, set_errors = 0, n;
	struct producer p;
	int ret = -1;

	if (set_thread_prio(o->fg_prio, "waiter"))
		return EXIT_DEVICE;
	lat = calloc(MAX_SAMPLES, sizeof(*lat));
	if (!lat) {
		fprintf(stderr, "gpuload: out of memory\n");
		return EXIT_DEVICE;
	}
	if (!producer_start(&p, o, o->job_ns, o->producer_prio))
		ret = deadline_loop(&p, o, lat, &ps, &held, &set_errors);
	producer_stop(&p);
	if (!ret) {
		n = ps.jobs;
		qsort(lat, n, sizeof(*lat), cmp_ll);
		printf("gpuload: mode=deadline samples=%zu held=%zu "
		       "set_errors=%zu job_us=%lld after_ms=%lld period_ms=%lld "
		       "lat_p50_us=%lld lat_p90_us=%lld lat_max_us=%lld "
		       "lat_min_us=%lld prio=%s", n, held, set_errors,
		       o->job_ns / NSEC_PER_USEC, o->after_ns / NSEC_PER_MSEC,
		       o->period_ns / NSEC_PER_MSEC,
		       percentile(lat, n, 50) / NSEC_PER_USEC,
		       percentile(lat, n, 90) / NSEC_PER_USEC,
		       n ? lat[n - 1] / NSEC_PER_USEC : 0,
		       n ? lat[0] / NSEC_PER_USEC : 0, prio_name(ps.prio));
		print_rq("", &ps.rq);
		printf(" contended=%zu busy=%.3f\n", ps.contended,
		       (double)ps.busy_ns / (double)(now_ns() - start));
	}
	free(lat);
	return ret ? EXIT_DEVICE : 0;
}

/* --- arguments ------------------------------------------------------- */

static double parse_number(const char *opt, const char *arg, double min,
			   double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v >= min && v <= max))
		die_usage("%s: '%s' is not a number from %g to %g", opt, arg,
			  min, max);
	return v;
}

/* "none", "idle", "realtime:N" or a best-effort GPU nice N. */
static int parse_prio(const char *opt, const char *arg)
{
	char *end;
	long n;

	if (!strcmp(arg, "none"))
		return GPUPRIO_DEFAULT;
	if (!strcmp(arg, "idle"))
		return GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0);
	if (!strncmp(arg, "realtime:", 9)) {
		n = strtol(arg + 9, &end, 10);
		if (end == arg + 9 || *end || n < 0 ||
		    n >= GPUPRIO_RT_LEVELS)
			die_usage("%s: realtime level '%s' is not 0 to 7",
				  opt, arg + 9);
		return GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, n);
	}
	n = strtol(arg, &end, 10);
	if (end == arg || *end || n < -20 || n > 19)
		die_usage("%s: '%s' is not none, idle, realtime:N or a GPU "
			  "nice from -20 to 19", opt, arg);
	return GPUPRIO_BE_NICE(n);
}

static void usage(void)
{
	puts("usage: gpuload [--device PATH] [--engine N] [--fg-prio P] "
	     "--fps HZ --job-us N\n"
	     "               --seconds S [--interval]\n"
	     "       gpuload [--device PATH] [--engine N] [--bg-prio P] "
	     "--hog --job-ms N\n"
	     "               --depth D [--seconds S]\n"
	     "       gpuload [--device PATH] [--engine N] --tabs --fps HZ "
	     "--job-us N\n"
	     "               --job-ms N --depth D --seconds S "
	     "[--bg-prio P] [--fg-prio P]\n"
	     "       (--gpu-thread or --shared in place of --tabs: one thread "
	     "submits for both)\n"
	     "       gpuload ... --hog ... --driver-thread [--pidfd] "
	     "--bg-prio P\n"
	     "       gpuload ... --hog ... --close-on-mark\n"
	     "       gpuload [--device PATH] [--engine N] --inversion --fps HZ "
	     "--job-us N --seconds S\n"
	     "               [--producer-us N] [--producer-prio P] "
	     "[--dep fence|cpu] [--fg-prio P]\n"
	     "       gpuload [--device PATH] [--engine N] --deadline --job-us N "
	     "--seconds S\n"
	     "               [--producer-prio P] [--after-ms D] "
	     "[--period-ms T] [--fg-prio P]\n"
	     "       gpuload --now\n"
	     "P: none, idle, realtime:N or a GPU nice -20..19 (default: "
	     "the thread's own;\n"
	     "   the background tab: 10)");
}

static void parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "engine", required_argument, NULL, 'e' },
		{ "fps", required_argument, NULL, 'f' },
		{ "job-us", required_argument, NULL, 'j' },
		{ "job-ms", required_argument, NULL, 'J' },
		{ "depth", required_argument, NULL, 'D' },
		{ "seconds", required_argument, NULL, 's' },
		{ "hog", no_argument, NULL, 'H' },
		{ "tabs", no_argument, NULL, 'T' },
		{ "gpu-thread", no_argument, NULL, 'G' },
		{ "shared", no_argument, NULL, 'S' },
		{ "driver-thread", no_argument, NULL, 'R' },
		{ "pidfd", no_argument, NULL, 'P' },
		{ "close-on-mark", no_argument, NULL, 'C' },
		{ "now", no_argument, NULL, 'N' },
		{ "interval", no_argument, NULL, 'i' },
		{ "fg-prio", required_argument, NULL, 'F' },
		{ "bg-prio", required_argument, NULL, 'B' },
		{ "inversion", no_argument, NULL, 'I' },
		{ "deadline", no_argument, NULL, 'L' },
		{ "dep", required_argument, NULL, 'E' },
		{ "producer-us", required_argument, NULL, 'U' },
		{ "producer-prio", required_argument, NULL, 'p' },
		{ "after-ms", required_argument, NULL, 'a' },
		{ "period-ms", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct options){ .fg_prio = -1, .bg_prio = -1,
			       .producer_prio = -1 };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o->device = optarg;
			break;
		case 'e':
			o->engine = (unsigned int)parse_number("--engine",
							       optarg, 0, 255);
			break;
		case 'f':
			o->fps = parse_number("--fps", optarg, 1, 1000);
			break;
		case 'j':
			o->job_ns = (long long)(parse_number("--job-us", optarg,
							     1, 1e6) *
						NSEC_PER_USEC);
			break;
		case 'J':
			o->hog_job_ns = (long long)(parse_number("--job-ms",
								 optarg, 0.001,
								 1000) *
						    NSEC_PER_MSEC);
			break;
		case 'D':
			o->depth = (unsigned int)parse_number("--depth", optarg,
							      1, MAX_DEPTH);
			break;
		case 's':
			o->seconds = parse_number("--seconds", optarg, 0.1,
						  86400);
			break;
		case 'H':
			o->hog = true;
			break;
		case 'T':
		case 'G':
		case 'S':
			if (o->tabs)
				die_usage("--tabs, --gpu-thread and --shared "
					  "exclude each other");
			o->tabs = c == 'T' ? TABS_THREADS :
				  c == 'G' ? TABS_GPU_THREAD : TABS_SHARED;
			break;
		case 'R':
			o->driver_thread = true;
			break;
		case 'P':
			o->pidfd = true;
			break;
		case 'C':
			o->close_on_mark = true;
			break;
		case 'N':
			o->now = true;
			break;
		case 'i':
			o->interval = true;
			break;
		case 'F':
			o->fg_prio = parse_prio("--fg-prio", optarg);
			break;
		case 'B':
			o->bg_prio = parse_prio("--bg-prio", optarg);
			break;
		case 'I':
			o->inversion = true;
			break;
		case 'L':
			o->deadline = true;
			break;
		case 'E':
			if (strcmp(optarg, "fence") && strcmp(optarg, "cpu"))
				die_usage("--dep: '%s' is not fence or cpu",
					  optarg);
			o->dep_cpu = !strcmp(optarg, "cpu");
			break;
		case 'U':
			o->producer_ns = (long long)(parse_number(
				"--producer-us", optarg, 1, 1e6) *
				NSEC_PER_USEC);
			break;
		case 'p':
			o->producer_prio = parse_prio("--producer-prio", optarg);
			break;
		case 'a':
			o->after_ns = (long long)(parse_number("--after-ms",
							       optarg, 1,
							       1000) *
						  NSEC_PER_MSEC);
			break;
		case 'r':
			o->period_ns = (long long)(parse_number("--period-ms",
								optarg, 1,
								10000) *
						   NSEC_PER_MSEC);
			break;
		case 'h':
			usage();
			exit(0);
		default:
			die_usage("unknown option");
		}
	}
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	if (o->hog + !!o->tabs + o->now + o->inversion + o->deadline > 1)
		die_usage("--hog, --tabs (--gpu-thread, --shared), "
			  "--inversion, --deadline and --now exclude each "
			  "other");
	if (!o->inversion && (o->dep_cpu || o->producer_ns))
		die_usage("--dep and --producer-us are for --inversion");
	if (!o->deadline && (o->after_ns || o->period_ns))
		die_usage("--after-ms and --period-ms are for --deadline");
	if (!o->inversion && !o->deadline && o->producer_prio >= 0)
		die_usage("--producer-prio is for --inversion and --deadline");
	if (o->deadline) {
		if (!o->job_ns || !o->seconds || o->fps || o->hog_job_ns ||
		    o->depth || o->bg_prio >= 0)
			die_usage("--deadline needs --job-us and --seconds, "
				  "and takes no --fps, --job-ms, --depth nor "
				  "--bg-prio");
		if (!o->period_ns)
			o->period_ns = 250 * NSEC_PER_MSEC;
		if (!o->after_ns)
			o->after_ns = 20 * NSEC_PER_MSEC;
		if (o->after_ns >= o->period_ns)
			die_usage("--after-ms must be under --period-ms");
		return;
	}
	if (o->inversion && !o->producer_ns)
		o->producer_ns = 1000 * NSEC_PER_USEC;
	if (o->driver_thread && (!o->hog || o->bg_prio < 0))
		die_usage("--driver-thread is for --hog, with --bg-prio");
	if (o->pidfd && !o->driver_thread)
		die_usage("--pidfd is for --driver-thread");
	if (o->close_on_mark && (!o->hog || o->driver_thread))
		die_usage("--close-on-mark is for --hog, without "
			  "--driver-thread");
	if (o->now)
		return;
	if ((o->hog || o->tabs) && (!o->hog_job_ns || !o->depth))
		die_usage("--hog and --tabs need --job-ms and --depth");
	if (!o->hog && (!o->fps || !o->job_ns || !o->seconds))
		die_usage("the frame loop needs --fps, --job-us and --seconds");
	if (o->hog && (o->fps || o->job_ns || o->fg_prio >= 0))
		die_usage("--hog takes no --fps, --job-us nor --fg-prio");
	if (!o->hog && !o->tabs && (o->hog_job_ns || o->depth ||
				    o->bg_prio >= 0))
		die_usage("--job-ms, --depth and --bg-prio are for --hog "
			  "and --tabs");
	if (o->tabs && o->bg_prio < 0)
		o->bg_prio = GPUPRIO_BE_NICE(10);
}

int main(int argc, char **argv)
{
	struct options o;

	parse_args(argc, argv, &o);
	if (o.now) {
		printf("%lld\n", now_ns());
		return 0;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	catch_signal(SIGTERM, on_stop);
	catch_signal(SIGINT, on_stop);
	catch_signal(SIGUSR1, on_mark);
	abandon_at_mark = o.close_on_mark;
	if (o.hog)
		return run_hog(&o);
	if (o.tabs == TABS_THREADS)
		return run_tabs(&o);
	if (o.tabs)
		return run_one_thread(&o);
	if (o.inversion)
		return run_inversion(&o);
	if (o.deadline)
		return run_deadline(&o);
	return run_frames(&o);
}
