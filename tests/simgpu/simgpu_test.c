// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of simgpu (tests/simgpu/simgpu.c) in the test guest, TAP on stdout:
 * the order in which the engine runs jobs of entities of different GPU
 * priorities, the wait bound of the non-preemptive model, priority changes
 * at the next submission, in- and out-fences, ioctl errors, and closing
 * files with jobs queued.
 * Orders and bounds only: never rates.
 *
 * Needs the module loaded, root (to raise a priority), and the GPU priority
 * syscalls (<gpuprio.h>).
 *
 * usage: simgpu_test [first TAP number [params|timeout]]
 * "params": only the tests that depend on the module parameters, for a
 * second load with other ones; "timeout": jobs past timeout_ms, for a load
 * with that parameter.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gpuprio.h>
#include <linux/sync_file.h>

#include "simgpu_drm.h"
#include "../lib/tap.h"

/* enum drm_sched_priority */
#define PRIO_HIGH	1
#define PRIO_NORMAL	2
#define PRIO_LOW	3

#define MS		1000000ULL
#define US		1000ULL
#define MAX_JOBS	4096

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { ns / 1000000000ULL, ns % 1000000000ULL };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static char render_node[64];

/* The render node whose driver is simgpu. */
static int find_simgpu(void)
{
	glob_t g;
	size_t i;

	if (glob("/dev/dri/renderD*", 0, NULL, &g))
		return -1;
	for (i = 0; i < g.gl_pathc; i++) {
		char name[32] = "";
		struct drm_version v = { .name = name,
					 .name_len = sizeof(name) - 1 };
		int fd = open(g.gl_pathv[i], O_RDWR | O_CLOEXEC);

		if (fd < 0)
			continue;
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) &&
		    !strcmp(name, "simgpu")) {
			snprintf(render_node, sizeof(render_node), "%s",
				 g.gl_pathv[i]);
			close(fd);
			globfree(&g);
			return 0;
		}
		close(fd);
	}
	globfree(&g);
	return -1;
}

static int simgpu_open(void)
{
	int fd = open(render_node, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		perror(render_node);
		exit(2);
	}
	return fd;
}

/*
 * drm_sched's run-queue policy, gpu_sched.sched_policy: 0 round robin, 1
 * FIFO (the default), 2 FAIR (on the 7.3 line); -1 if unreadable. Under
 * round robin and FIFO each priority has its run queue and a higher one is
 * always served first; under FAIR there is one run queue and the priority
 * is a weight (sched_rq.c).
 */
#define POLICY_RR	0
#define POLICY_FIFO	1
#define POLICY_FAIR	2
static int policy = -1;

static const char *policy_name(int p)
{
	return p == POLICY_RR ? "RR" : p == POLICY_FIFO ? "FIFO" :
	       p == POLICY_FAIR ? "FAIR" : "unknown";
}

/*
 * The band a job was armed in, as a PRIO_* run queue: its entity's
 * drm_sched priority, except under FAIR, where the series keeps a lowered
 * task's entity NORMAL and weighs it by the task's GPU nice instead
 * (drm_sched_entity_refresh_task()): there NORMAL at a positive nice or
 * idle is the low band.
 */
static uint32_t armed_band(const struct drm_simgpu_submit *s)
{
	if (policy == POLICY_FAIR && s->priority == PRIO_NORMAL && s->nice > 0)
		return PRIO_LOW;
	return s->priority;
}

static int read_policy(void)
{
	FILE *f = fopen("/sys/module/gpu_sched/parameters/sched_policy", "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* 0 or the errno; @band: the band the job was armed in (armed_band()). */
static int submit(int fd, uint64_t duration_ns, uint64_t *handle,
		  uint32_t *band)
{
	struct drm_simgpu_submit s = { .duration_ns = duration_ns };

	if (ioctl(fd, DRM_IOCTL_SIMGPU_SUBMIT, &s))
		return errno;
	if (handle)
		*handle = s.handle;
	if (band)
		*band = armed_band(&s);
	return 0;
}

struct job {
	uint64_t submit_ns, start_ns, end_ns, duration_ns;
	uint32_t band;	/* PRIO_*, armed_band() */
	int owner;	/* which client submitted it */
};

/* 0 or the errno of the wait; fills @job's times. */
static int wait_job(int fd, uint64_t handle, int64_t timeout_ns,
		    struct job *job)
{
	struct drm_simgpu_wait w = { .handle = handle,
				     .timeout_ns = timeout_ns };

	if (ioctl(fd, DRM_IOCTL_SIMGPU_WAIT, &w))
		return errno;
	if (job) {
		job->submit_ns = w.submit_ns;
		job->start_ns = w.start_ns;
		job->end_ns = w.end_ns;
	}
	return 0;
}

static void must(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "simgpu_test: %s: %s\n", what, strerror(err));
		exit(2);
	}
}

static unsigned int module_param(const char *name)
{
	char path[128];
	unsigned int v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/simgpu/parameters/%s", name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%u", &v) != 1) {
		fprintf(stderr, "simgpu_test: cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	return v;
}


static int set_gpuprio(pid_t tid, int prio)
{
	return gpuprio_set(GPUPRIO_WHO_PROCESS, tid, prio) ? errno : 0;
}

/* The value of "key:" in the fdinfo of @fd, or "" */
static void fdinfo(int fd, const char *key, char *val, size_t len)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	FILE *f;

	val[0] = '\0';
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = line + klen;

		if (strncmp(line, key, klen) || *v != ':')
			continue;
		v++;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = '\0';
		snprintf(val, len, "%s", v);
		break;
	}
	fclose(f);
}

/* --- clients ------------------------------------------------------------ */

/*
 * A hog keeps @depth jobs of @job_ns queued back to back; a frame client
 * submits one job, waits for it, then sleeps @gap_ns. Each records its jobs
 * in the shared log.
 */
struct client {
	pthread_t thread;
	pid_t tid;
	int id;
	bool hog;
	uint64_t job_ns;
	int depth;
	uint64_t gap_ns;
	int frames;
	int prio_at_open;	/* GPU priority set before opening, or -1 */
	volatile bool *stop;
	volatile bool ready;
	struct job *log;
	int count;
};

static void client_record(struct client *c, int fd, uint64_t handle,
			  uint32_t band)
{
	struct job *j = &c->log[c->count];

	must(wait_job(fd, handle, INT64_MAX, j), "wait");
	j->band = band;
	j->duration_ns = c->job_ns;
	j->owner = c->id;
	if (c->count < MAX_JOBS - 1)
		c->count++;
}

static void *client_main(void *arg)
{
	struct client *c = arg;
	uint64_t handles[64] = { 0 };
	uint32_t bands[64] = { 0 };
	int fd, head = 0, tail = 0;

	c->tid = syscall(SYS_gettid);
	if (c->prio_at_open >= 0)
		must(set_gpuprio(0, c->prio_at_open), "gpuprio_set");
	fd = simgpu_open();
	c->ready = true;

	if (!c->hog) {
		while (c->count < c->frames && !*c->stop) {
			must(submit(fd, c->job_ns, &handles[0], &bands[0]),
			     "submit");
			client_record(c, fd, handles[0], bands[0]);
			sleep_ns(c->gap_ns);
		}
		close(fd);
		return NULL;
	}
	while (!*c->stop) {
		while (tail - head < c->depth) {
			must(submit(fd, c->job_ns, &handles[tail % 64],
				    &bands[tail % 64]), "submit");
			tail++;
		}
		client_record(c, fd, handles[head % 64], bands[head % 64]);
		head++;
	}
	while (head < tail) {
		client_record(c, fd, handles[head % 64], bands[head % 64]);
		head++;
	}
	close(fd);
	return NULL;
}

static void client_start(struct client *c)
{
	c->log = calloc(MAX_JOBS, sizeof(*c->log));
	if (!c->log || pthread_create(&c->thread, NULL, client_main, c))
		exit(2);
	while (!c->ready)
		sleep_ns(100 * US);
}

/* --- checks ------------------------------------------------------------- */

/* All jobs of the run, in the order the engine ran them. */
struct run {
	struct job *jobs;
	int count;
};

static int by_start(const void *a, const void *b)
{
	const struct job *x = a, *y = b;

	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

static void run_collect(struct run *r, struct client **clients, int n)
{
	int i, total = 0;

	for (i = 0; i < n; i++)
		total += clients[i]->count;
	r->jobs = calloc(total ? total : 1, sizeof(*r->jobs));
	if (!r->jobs)
		exit(2);
	r->count = 0;
	for (i = 0; i < n; i++) {
		memcpy(r->jobs + r->count, clients[i]->log,
		       clients[i]->count * sizeof(*r->jobs));
		r->count += clients[i]->count;
	}
	qsort(r->jobs, r->count, sizeof(*r->jobs), by_start);
}

/*
 * The engine takes a job when one of its credits is free: the job run
 * @credits places earlier has ended by then (jobs end in the order they were
 * handed). So a job at place p was chosen after end[p - credits]; any job of
 * a higher priority already queued (its submit_ns is taken once the
 * scheduler can see it) must have been chosen first. Returns the number of
 * such inversions.
 */
static int run_inversions(const struct run *r, unsigned int credits,
			  int high_owner, int low_owner, uint64_t low_since,
			  char *example, size_t len)
{
	int p, q, bad = 0;

	for (p = credits; p < r->count; p++) {
		const struct job *l = &r->jobs[p];
		uint64_t chosen_after = r->jobs[p - credits].end_ns;

		if (l->owner != low_owner || chosen_after < low_since)
			continue;
		for (q = p + 1; q < r->count; q++) {
			const struct job *h = &r->jobs[q];

			if (h->owner != high_owner)
				continue;
			if (h->submit_ns >= chosen_after)
				continue;
			/* h was queued when l was chosen, yet ran after it */
			if (!bad++)
				snprintf(example, len,
					 "job queued at %llu us started at %llu us, after a lower one chosen after %llu us",
					 (unsigned long long)h->submit_ns / US,
					 (unsigned long long)h->start_ns / US,
					 (unsigned long long)chosen_after / US);
		}
	}
	return bad;
}

/*
 * Frames of @fg submitted after @since for which the scheduler had a
 * choice: a job of @hog queued before the frame was still waiting when the
 * frame was chosen (it started later; jobs start in the order chosen).
 * Without such frames the order checks prove nothing.
 */
static int contended(const struct client *fg, const struct client *hog,
		     uint64_t since)
{
	int i, k, n = 0;

	for (i = 0; i < fg->count; i++) {
		const struct job *h = &fg->log[i];

		if (h->submit_ns < since)
			continue;
		for (k = 0; k < hog->count; k++) {
			const struct job *l = &hog->log[k];

			if (l->submit_ns < h->submit_ns &&
			    l->start_ns > h->start_ns) {
				n++;
				break;
			}
		}
	}
	return n;
}

/* How much later than its duration a job ended, at most, in @r. */
static uint64_t run_max_late(const struct run *r)
{
	uint64_t late, max = 0;
	int i;

	for (i = 0; i < r->count; i++) {
		late = r->jobs[i].end_ns - r->jobs[i].start_ns -
		       r->jobs[i].duration_ns;
		if (late > max)
			max = late;
	}
	return max;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* --- tests -------------------------------------------------------------- */

/*
 * The timer resolution the guest gets: 2 ms jobs one at a time, how much
 * later than 2 ms after its start each one ended. Never earlier.
 */
static void test_timer(void)
{
	enum { N = 100 };
	uint64_t late[N], handle = 0;
	struct job j = { 0 };
	int fd = simgpu_open(), i, early = 0;

	for (i = 0; i < N; i++) {
		must(submit(fd, 2 * MS, &handle, NULL), "submit");
		must(wait_job(fd, handle, INT64_MAX, &j), "wait");
		if (j.end_ns - j.start_ns < 2 * MS)
			early++;
		late[i] = j.end_ns - j.start_ns - 2 * MS;
	}
	close(fd);
	qsort(late, N, sizeof(late[0]), cmp_u64);
	printf("# timer: 2 ms jobs ended late by min %llu us, median %llu us, p90 %llu us, max %llu us (n=%d)\n",
	       (unsigned long long)late[0] / US,
	       (unsigned long long)late[N / 2] / US,
	       (unsigned long long)late[N * 9 / 10] / US,
	       (unsigned long long)late[N - 1] / US, N);
	tap(!early, "timer: no job ends before its duration (%d early of %d)",
	    early, N);
}

/*
 * A hog lowered to LOW with jobs always queued, and a NORMAL client's
 * frames: (a) no LOW job is chosen while a NORMAL one is queued, and (b)
 * each NORMAL job waits at most credits hog jobs plus its own.
 *
 * Under RR and FIFO that is strict priority: the NORMAL run queue is
 * served first. FAIR's rule (7.3's sched_rq.c) predicts the same order
 * here, by another path: a frame's entity has one job at a time, so it
 * leaves the run queue after each and its virtual runtime, saved relative
 * to the queue's minimum, is 0; it rejoins with the LOW hog at the head,
 * and an entity of a higher priority than the head's rejoins just before
 * the minimum (drm_sched_entity_restore_vruntime()), while the hog's
 * virtual runtime only grows. The same assertions hold, and fail, there.
 */
static void test_order_and_bound(unsigned int credits)
{
	volatile bool stop = false;
	struct client hog = {
		.id = 1, .hog = true, .job_ns = 4 * MS, .depth = 4,
		.prio_at_open = GPUPRIO_BE_NICE(19), .stop = &stop,
	};
	struct client fg = {
		.id = 2, .job_ns = 2 * MS, .gap_ns = 3 * MS, .frames = 60,
		.prio_at_open = -1, .stop = &stop,
	};
	struct client *all[] = { &hog, &fg };
	uint64_t bound, slack, worst = 0, worst_slack = 0;
	int i, bad, busy, over = 0, low_ok = 1;
	int max_ahead = 0;
	char example[200] = "";
	struct run r;

	client_start(&hog);
	sleep_ns(20 * MS);
	client_start(&fg);
	pthread_join(fg.thread, NULL);
	stop = true;
	pthread_join(hog.thread, NULL);
	run_collect(&r, all, 2);

	for (i = 0; i < hog.count; i++)
		low_ok &= hog.log[i].band == PRIO_LOW;
	tap(low_ok && hog.count > 0,
	    "hog at nice 19 runs in the low band (%d jobs)", hog.count);

	bad = run_inversions(&r, credits, fg.id, hog.id, 0, example,
			     sizeof(example));
	busy = contended(&fg, &hog, 0);
	tap(!bad && busy >= fg.count / 2,
	    "order: no LOW job chosen while a NORMAL one was queued (%d inversions; %d of %d frames chosen over a queued LOW job)%s%s",
	    bad, busy, fg.count, bad ? ": " : "", example);

	/*
	 * (b) The non-preemptive bound. Counted: no more than "credits" jobs
	 * run ahead of a frame from its submission (those already handed to
	 * the engine). Timed: it ends within credits hog jobs plus its own,
	 * plus a slack of what the guest's CPU side added, measured in this
	 * run: the timer latency of exactly those jobs, the time the engine
	 * sat idle while the frame waited (the scheduler's worker had not
	 * handed it yet), and 1 ms. Both grow with the host's load and on
	 * the debug kernel; the count above does not depend on them.
	 */
	for (i = 0; i < fg.count; i++) {
		const struct job *f = &fg.log[i];
		uint64_t w = f->end_ns > f->submit_ns ?
			     f->end_ns - f->submit_ns : 0;
		uint64_t late = f->end_ns - f->start_ns - f->duration_ns;
		uint64_t busy_ns = 0, idle_ns;
		int k, ahead = 0;

		for (k = 0; k < r.count; k++) {
			const struct job *j = &r.jobs[k];
			uint64_t from, to;

			if (j->start_ns >= f->start_ns || j->end_ns <= f->submit_ns)
				continue;
			ahead++;
			late += j->end_ns - j->start_ns - j->duration_ns;
			from = j->start_ns > f->submit_ns ? j->start_ns :
							    f->submit_ns;
			to = j->end_ns < f->start_ns ? j->end_ns : f->start_ns;
			busy_ns += to - from;
		}
		if (ahead > max_ahead)
			max_ahead = ahead;
		idle_ns = f->start_ns > f->submit_ns + busy_ns ?
			  f->start_ns - f->submit_ns - busy_ns : 0;
		slack = late + idle_ns + 1 * MS;
		bound = credits * hog.job_ns + fg.job_ns + slack;
		if (w > worst)
			worst = w;
		if (slack > worst_slack)
			worst_slack = slack;
		over += w > bound;
	}
	tap(max_ahead <= (int)credits && fg.count == fg.frames,
	    "bound: at most %u jobs ran ahead of any NORMAL one (%d)",
	    credits, max_ahead);
	tap(!over && fg.count == fg.frames,
	    "bound: every NORMAL job done within %u x 4 ms + 2 ms + slack (timer latency of the jobs ahead, engine idle while it waited, 1 ms: at most %llu us): worst %llu us, %d over",
	    credits, (unsigned long long)worst_slack / US,
	    (unsigned long long)worst / US, over);
	printf("# timer: jobs of this run ended late by at most %llu us\n",
	       (unsigned long long)run_max_late(&r) / US);
	free(r.jobs);
	free(hog.log);
	free(fg.log);
}

/*
 * (c) a change of the task's GPU priority applies at its next submission:
 * the entity's priority, its fdinfo, and the run queue it is really on,
 * that priority's under RR and FIFO, the single one (0) under FAIR.
 */
static void test_priority_change(void)
{
	static const char *const names[] = {
		[PRIO_HIGH] = "high", [PRIO_NORMAL] = "normal",
		[PRIO_LOW] = "low",
	};
	static const struct {
		int gpuprio;
		uint32_t band;
		int32_t nice;	/* the entity's under FAIR */
	} steps[] = {
		{ GPUPRIO_DEFAULT, PRIO_NORMAL, 0 },
		{ GPUPRIO_BE_NICE(10), PRIO_LOW, 10 },
		{ GPUPRIO_BE_NICE(-5), PRIO_HIGH, -5 },
		{ GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_IDLE, 0), PRIO_LOW,
		  SIMGPU_NICE_IDLE },
		{ GPUPRIO_DEFAULT, PRIO_NORMAL, 0 },
	};
	int saved = gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	int fd = simgpu_open();
	unsigned int i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		struct drm_simgpu_submit sub = { .duration_ns = 100 * US };
		bool fair = policy == POLICY_FAIR;
		/* Under FAIR the low band is NORMAL at its nice. */
		uint32_t want = fair && steps[i].band == PRIO_LOW ?
				PRIO_NORMAL : steps[i].band;
		uint32_t rq = fair ? 0 : want;
		int32_t nice = fair ? steps[i].nice : 0;
		char val[64];

		must(set_gpuprio(0, steps[i].gpuprio), "gpuprio_set");
		must(ioctl(fd, DRM_IOCTL_SIMGPU_SUBMIT, &sub) ? errno : 0,
		     "submit");
		must(wait_job(fd, sub.handle, INT64_MAX, NULL), "wait");
		fdinfo(fd, "simgpu-priority-sim0", val, sizeof(val));
		tap(sub.priority == want && sub.rq == rq && sub.nice == nice &&
		    !strcmp(val, names[want]),
		    "priority: gpuprio 0x%x applies at the next submission (armed %u, want %u; run queue %u, want %u; nice %d, want %d under %s; fdinfo '%s')",
		    steps[i].gpuprio, sub.priority, want, sub.rq, rq, sub.nice,
		    nice, policy_name(policy), val);
	}
	close(fd);
	if (saved >= 0)
		set_gpuprio(0, saved);
}

/*
 * (c) an entity takes the priority of the task that opens the file, before
 * any submission: drm_sched_task_priority() at creation, the band under
 * every policy (under FAIR the nice weighs from the first submission on,
 * which refreshes the entity before its first job is armed).
 */
static void test_priority_at_open(void)
{
	int saved = gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	char val[64];
	int fd;

	must(set_gpuprio(0, GPUPRIO_BE_NICE(10)), "gpuprio_set");
	fd = simgpu_open();
	fdinfo(fd, "simgpu-priority-sim0", val, sizeof(val));
	tap(!strcmp(val, "low"),
	    "priority: a file opened at GPU nice 10 starts in the low band, before any submission (fdinfo '%s')",
	    val);
	close(fd);
	if (saved >= 0)
		set_gpuprio(0, saved);
}

/*
 * (c) a busy hog (jobs always queued) lowered by another task while it
 * runs: its next job is armed LOW, and from then on no hog job is chosen
 * while a NORMAL frame is queued.
 */
static void test_busy_lowered(unsigned int credits)
{
	volatile bool stop = false;
	struct client hog = {
		.id = 1, .hog = true, .job_ns = 4 * MS, .depth = 4,
		.prio_at_open = -1, .stop = &stop,
	};
	struct client fg = {
		.id = 2, .job_ns = 2 * MS, .gap_ns = 3 * MS, .frames = 60,
		.prio_at_open = -1, .stop = &stop,
	};
	struct client *all[] = { &hog, &fg };
	int i, bad, busy, before = 0, after = 0, wrong = 0;
	uint64_t changed, first_low = UINT64_MAX;
	bool in_flight = true;
	char example[200] = "";
	struct run r;

	client_start(&hog);
	client_start(&fg);
	sleep_ns(150 * MS);
	must(set_gpuprio(hog.tid, GPUPRIO_BE_NICE(19)), "gpuprio_set hog");
	changed = now_ns();
	pthread_join(fg.thread, NULL);
	stop = true;
	pthread_join(hog.thread, NULL);
	run_collect(&r, all, 2);

	for (i = 0; i < hog.count; i++) {
		const struct job *j = &hog.log[i];

		if (j->band == PRIO_LOW && j->submit_ns < first_low)
			first_low = j->submit_ns;
		if (j->submit_ns < changed) {
			before += j->band == PRIO_NORMAL;
			continue;
		}
		/*
		 * submit_ns is taken at the end of the ioctl: the first job
		 * after the change may have been armed just before it.
		 */
		if (in_flight) {
			in_flight = false;
			continue;
		}
		after++;
		wrong += j->band != PRIO_LOW;
	}
	tap(before > 0 && after > 0 && !wrong,
	    "busy hog lowered: every job submitted after the change is LOW (%d NORMAL before, %d after, %d not LOW)",
	    before, after, wrong);

	/* The refresh at the first LOW submission moved its queued jobs. */
	bad = run_inversions(&r, credits, fg.id, hog.id, first_low, example,
			     sizeof(example));
	busy = contended(&fg, &hog, first_low);
	tap(!bad && busy > 0,
	    "busy hog lowered: none of its jobs chosen while a NORMAL one was queued after its next submission (%d inversions; %d frames chosen over a queued hog job)%s%s",
	    bad, busy, bad ? ": " : "", example);
	free(r.jobs);
	free(hog.log);
	free(fg.log);
}

/* (d) bad ioctls get their errno and change nothing */
/*
 * (c) a busy client raised, the engine idle otherwise: its jobs queued LOW,
 * then it is raised and submits again, which moves its entity up with jobs
 * still queued. A scheduler that missed the move and was not woken would
 * leave them queued, nothing else being there to wake it. All its jobs
 * must end within a bound. The LOW jobs are long enough that some are still
 * queued at the raise even on a debug kernel on a loaded host, where 8
 * submissions took more than 8 jobs of 2 ms.
 */
#define RAISED_JOBS	8
#define RAISED_JOB_MS	20
static void test_busy_raised(void)
{
	int saved = gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	uint64_t handle[2 * RAISED_JOBS], raised_ns = 0, last_end = 0;
	struct job j[2 * RAISED_JOBS];
	uint32_t band[2 * RAISED_JOBS];
	int fd = simgpu_open(), i, err = 0, late = 0, wrong = 0;
	int queued = 0;

	must(set_gpuprio(0, GPUPRIO_BE_NICE(19)), "gpuprio_set low");
	for (i = 0; i < 2 * RAISED_JOBS; i++) {
		if (i == RAISED_JOBS)
			must(set_gpuprio(0, GPUPRIO_BE_NICE(-5)),
			     "gpuprio_set high");
		must(submit(fd, RAISED_JOB_MS * MS, &handle[i], &band[i]),
		     "submit");
		wrong += band[i] != (i < RAISED_JOBS ? PRIO_LOW : PRIO_HIGH);
	}
	for (i = 0; i < 2 * RAISED_JOBS; i++) {
		int e = wait_job(fd, handle[i], 5000 * MS, &j[i]);

		if (e && !err)
			err = e;
		if (e)
			continue;
		if (j[i].end_ns > last_end)
			last_end = j[i].end_ns;
	}
	if (!err) {
		raised_ns = j[RAISED_JOBS].submit_ns;
		/* LOW jobs still waiting when the raising submission came. */
		for (i = 0; i < RAISED_JOBS; i++)
			queued += j[i].start_ns > raised_ns;
		late = last_end - raised_ns > 2000 * MS;
	}
	tap(!err && !wrong && queued > 0 && !late,
	    "busy client raised: all its %d jobs end, %llu ms after the raise (bound 2000; %d LOW jobs still queued at the raise; %d armed at a wrong priority; wait: %s)",
	    2 * RAISED_JOBS,
	    err ? 0ULL : (unsigned long long)(last_end - raised_ns) / MS,
	    queued, wrong, err ? strerror(err) : "ok");
	close(fd);
	if (saved >= 0)
		set_gpuprio(0, saved);
}

/*
 * With timeout_ms set: jobs longer than the scheduler's timeout run to
 * their end and are freed (the rmmod and insmod that follow show it).
 */
static void test_timeout(void)
{
	unsigned int timeout = module_param("timeout_ms");
	uint64_t duration = 10ULL * timeout * MS, handle[3];
	int fd = simgpu_open(), i, err = 0, short_run = 0;
	struct job j = { 0 };

	if (!timeout || duration > SIMGPU_MAX_JOB_NS) {
		tap(false, "timeout: needs simgpu loaded with timeout_ms 1-100 (%u)",
		    timeout);
		close(fd);
		return;
	}
	for (i = 0; i < 3; i++)
		must(submit(fd, duration, &handle[i], NULL), "submit");
	for (i = 0; i < 3; i++) {
		int e = wait_job(fd, handle[i], 10000 * MS, &j);

		if (e && !err)
			err = e;
		if (!e && j.end_ns - j.start_ns < duration)
			short_run++;
	}
	tap(!err && !short_run,
	    "timeout: 3 jobs of %llu ms past a %u ms timeout run to their end (%d cut short; wait: %s)",
	    (unsigned long long)duration / MS, timeout, short_run,
	    err ? strerror(err) : "ok");
	close(fd);
}

/* The fd the next open() gets. */
static int lowest_free_fd(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		perror("/dev/null");
		exit(2);
	}
	close(fd);
	return fd;
}

static void test_errors(unsigned int engines)
{
	static const struct {
		struct drm_simgpu_submit s;
		const char *what;
	} bad_submits[] = {
		{ { .duration_ns = 0 }, "0 ns" },
		{ { .duration_ns = SIMGPU_MAX_JOB_NS + 1 }, "1 s + 1 ns" },
		{ { .duration_ns = MS, .flags = 1U << 2 }, "an unknown flag" },
		{ { .duration_ns = MS, .flags = ~0U }, "every flag bit" },
		{ { .duration_ns = MS, .in_fence_fd = 1 },
		  "in_fence_fd without SIMGPU_SUBMIT_IN_FENCE" },
		{ { .duration_ns = MS, .out_fence_fd = 1 },
		  "out_fence_fd set on the way in" },
		{ { .duration_ns = MS, .flags = SIMGPU_SUBMIT_OUT_FENCE,
		    .out_fence_fd = 1 },
		  "SIMGPU_SUBMIT_OUT_FENCE and out_fence_fd set on the way in" },
		{ { .duration_ns = MS, .flags = SIMGPU_SUBMIT_IN_FENCE,
		    .in_fence_fd = -1 }, "an in-fence of fd -1" },
		{ { .duration_ns = MS, .flags = SIMGPU_SUBMIT_IN_FENCE,
		    .in_fence_fd = 0x7fffffff }, "an in-fence of an fd not open" },
		{ { .duration_ns = MS, .flags = SIMGPU_SUBMIT_IN_FENCE |
		    SIMGPU_SUBMIT_OUT_FENCE, .in_fence_fd = -1 },
		  "both fence flags and an in-fence of fd -1" },
		{ { .duration_ns = MS, .engine = ~0U }, "engine ~0" },
		{ { .duration_ns = MS, .engine = ~0U,
		    .flags = SIMGPU_SUBMIT_OUT_FENCE }, "engine ~0 and an out-fence" },
	};
	struct drm_simgpu_wait w;
	uint64_t handle = 0;
	struct job j = { 0 };
	char busy[64];
	unsigned int i;
	int fd = simgpu_open(), err, free_fd, now_fd;

	/* A rejected submission must open no file. */
	free_fd = lowest_free_fd();
	for (i = 0; i < sizeof(bad_submits) / sizeof(bad_submits[0]); i++) {
		struct drm_simgpu_submit s = bad_submits[i].s;

		err = ioctl(fd, DRM_IOCTL_SIMGPU_SUBMIT, &s) ? errno : 0;
		tap(err == EINVAL && !s.handle &&
		    s.out_fence_fd == bad_submits[i].s.out_fence_fd,
		    "errors: submit with %s is EINVAL (%s)",
		    bad_submits[i].what, strerror(err));
	}
	{
		struct drm_simgpu_submit s = { .duration_ns = MS,
					       .engine = engines };

		err = ioctl(fd, DRM_IOCTL_SIMGPU_SUBMIT, &s) ? errno : 0;
		tap(err == EINVAL, "errors: submit to engine %u of %u is EINVAL (%s)",
		    engines, engines, strerror(err));
	}
	{
		/* A file that is no sync_file: the render node itself. */
		struct drm_simgpu_submit s = {
			.duration_ns = MS, .in_fence_fd = fd,
			.flags = SIMGPU_SUBMIT_IN_FENCE | SIMGPU_SUBMIT_OUT_FENCE,
		};

		err = ioctl(fd, DRM_IOCTL_SIMGPU_SUBMIT, &s) ? errno : 0;
		tap(err == EINVAL && !s.handle && !s.out_fence_fd,
		    "errors: submit with an in-fence that is no sync_file (the render node) is EINVAL (%s)",
		    strerror(err));
	}
	now_fd = lowest_free_fd();
	tap(now_fd == free_fd,
	    "errors: the rejected submissions opened no file (lowest free fd %d, was %d)",
	    now_fd, free_fd);
	fdinfo(fd, "drm-engine-sim0", busy, sizeof(busy));
	tap(!strcmp(busy, "0 ns"),
	    "errors: rejected jobs never ran (busy '%s')", busy);

	err = wait_job(fd, 1, 0, NULL);
	tap(err == ENOENT, "errors: wait for a handle never given is ENOENT (%s)",
	    strerror(err));

	/* The first good job gets handle 1: the bad ones took none. */
	must(submit(fd, 200 * MS, &handle, NULL), "submit");
	tap(handle == 1, "errors: the first job after them gets handle 1 (%llu)",
	    (unsigned long long)handle);

	memset(&w, 0, sizeof(w));
	w.handle = handle;
	w.flags = 1;
	err = ioctl(fd, DRM_IOCTL_SIMGPU_WAIT, &w) ? errno : 0;
	tap(err == EINVAL, "errors: wait with flags is EINVAL (%s)",
	    strerror(err));
	w.flags = 0;
	w.pad = 1;
	err = ioctl(fd, DRM_IOCTL_SIMGPU_WAIT, &w) ? errno : 0;
	tap(err == EINVAL, "errors: wait with pad is EINVAL (%s)",
	    strerror(err));
	w.pad = 0;
	w.timeout_ns = -1;
	err = ioctl(fd, DRM_IOCTL_SIMGPU_WAIT, &w) ? errno : 0;
	tap(err == EINVAL, "errors: wait with a negative timeout is EINVAL (%s)",
	    strerror(err));

	err = wait_job(fd, handle, 0, NULL);
	tap(err == ETIME, "errors: polling a running job is ETIME (%s)",
	    strerror(err));
	err = wait_job(fd, handle, 10 * MS, NULL);
	tap(err == ETIME, "errors: waiting 10 ms for a 200 ms job is ETIME (%s)",
	    strerror(err));
	err = wait_job(fd, handle, INT64_MAX, &j);
	tap(!err && j.end_ns - j.start_ns >= 200 * MS,
	    "errors: after them the job still runs its 200 ms (%s, %llu us)",
	    strerror(err), (unsigned long long)(j.end_ns - j.start_ns) / US);
	err = wait_job(fd, handle, 0, NULL);
	tap(err == ENOENT, "errors: a handle waited for is gone: ENOENT (%s)",
	    strerror(err));
	close(fd);
}

/* --- fences --------------------------------------------------------------- */

/* SYNC_IOC_FILE_INFO's status of a sync_file: 1 signalled, 0 not yet. */
static int sync_status(int fd)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(fd, SYNC_IOC_FILE_INFO, &info))
		return -errno;
	return info.status;
}

/*
 * SIMGPU_SUBMIT_OUT_FENCE: a sync_file of the job's finished fence,
 * close-on-exec, active while the job runs and signalled once it ended,
 * that takes a deadline (what make effect's deadline row sets).
 */
static void test_out_fence(void)
{
	struct drm_simgpu_submit s = { .duration_ns = 50 * MS,
				       .flags = SIMGPU_SUBMIT_OUT_FENCE };
	struct sync_set_deadline dl = { 0 };
	struct pollfd pfd = { .events = POLLIN };
	int fd = simgpu_open(), err, before, after, polled, cloexec;
	int dl_err, fd2;

	err = ioctl(fd, DRM_IOCTL_SIMGPU_SUBMIT, &s) ? errno : 0;
	cloexec = !err && s.out_fence_fd > 0 ?
		  fcntl(s.out_fence_fd, F_GETFD) & FD_CLOEXEC : 0;
	tap(!err && s.out_fence_fd > 0 && cloexec,
	    "fences: SIMGPU_SUBMIT_OUT_FENCE gives a sync_file, close-on-exec (fd %d, %s)",
	    s.out_fence_fd, strerror(err));
	if (err || s.out_fence_fd <= 0) {
		close(fd);
		return;
	}
	before = sync_status(s.out_fence_fd);
	dl.deadline_ns = now_ns();
	dl_err = ioctl(s.out_fence_fd, SYNC_IOC_SET_DEADLINE, &dl) ? errno : 0;
	tap(!dl_err, "fences: SYNC_IOC_SET_DEADLINE on the out-fence (%s)",
	    strerror(dl_err));
	pfd.fd = s.out_fence_fd;
	polled = poll(&pfd, 1, 5000);
	must(wait_job(fd, s.handle, INT64_MAX, NULL), "wait");
	after = sync_status(s.out_fence_fd);
	tap(before == 0 && polled == 1 && after == 1,
	    "fences: the out-fence is the job's: active while it runs, signalled when it ends (status %d, poll %d, then status %d)",
	    before, polled, after);

	/* Signalled already, as an in-fence: the job just runs. */
	fd2 = simgpu_open();
	s = (struct drm_simgpu_submit){ .duration_ns = MS,
					.flags = SIMGPU_SUBMIT_IN_FENCE,
					.in_fence_fd = pfd.fd };
	err = ioctl(fd2, DRM_IOCTL_SIMGPU_SUBMIT, &s) ? errno : 0;
	if (!err)
		err = wait_job(fd2, s.handle, INT64_MAX, NULL);
	tap(!err, "fences: a signalled in-fence of another file (%s)",
	    strerror(err));
	close(pfd.fd);
	close(fd2);
	close(fd);
}

/*
 * SIMGPU_SUBMIT_IN_FENCE on one engine: a job that depends on a lowered
 * job does not start before that job's end, though its own priority would
 * have run it first. A queue at the default priority holds the lowered
 * producer back; the consumer and a control job without a fence, both at
 * the default priority, come after the queue. When the scheduler finds the
 * consumer waiting, the consumer lends the producer its priority, so under
 * FIFO the producer, submitted before the control job, runs before it.
 * Under round robin the lent producer takes its turn after the control
 * job's, and under FAIR the order is the weights': there the control job
 * is only printed.
 */
static void test_in_fence(void)
{
	enum { QUEUE = 6 };
	const uint64_t prod_ns = 5 * MS;
	int saved = gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	int fq = simgpu_open(), fp = simgpu_open(), fc = simgpu_open();
	int fdd = simgpu_open(), i;
	struct drm_simgpu_submit p = { .duration_ns = prod_ns,
				       .flags = SIMGPU_SUBMIT_OUT_FENCE };
	struct drm_simgpu_submit c = { .duration_ns = 2 * MS,
				       .flags = SIMGPU_SUBMIT_IN_FENCE };
	struct drm_simgpu_submit d = { .duration_ns = 2 * MS };
	struct job jp = { 0 }, jc = { 0 }, jd = { 0 };
	uint64_t qh[QUEUE];
	uint32_t band;

	for (i = 0; i < QUEUE; i++)
		must(submit(fq, 20 * MS, &qh[i], NULL), "submit");
	must(set_gpuprio(0, GPUPRIO_BE_NICE(10)), "gpuprio_set");
	must(ioctl(fp, DRM_IOCTL_SIMGPU_SUBMIT, &p) ? errno : 0, "submit");
	must(set_gpuprio(0, saved >= 0 ? saved : GPUPRIO_DEFAULT),
	     "gpuprio_set");
	band = armed_band(&p);
	c.in_fence_fd = p.out_fence_fd;
	must(ioctl(fc, DRM_IOCTL_SIMGPU_SUBMIT, &c) ? errno : 0, "submit");
	must(ioctl(fdd, DRM_IOCTL_SIMGPU_SUBMIT, &d) ? errno : 0, "submit");
	/* The dependency holds its own reference to the fence. */
	close(p.out_fence_fd);

	must(wait_job(fc, c.handle, INT64_MAX, &jc), "wait");
	must(wait_job(fp, p.handle, INT64_MAX, &jp), "wait");
	must(wait_job(fdd, d.handle, INT64_MAX, &jd), "wait");
	for (i = 0; i < QUEUE; i++)
		must(wait_job(fq, qh[i], INT64_MAX, NULL), "wait");
	tap(band == PRIO_LOW && jc.start_ns >= jp.start_ns + prod_ns,
	    "fences: a job does not start before the lowered job of its in-fence ends (producer armed in band %u; consumer started %lld us after the producer's end)",
	    band, ((long long)jc.start_ns - (long long)(jp.start_ns + prod_ns)) /
	    (long long)US);
	if (policy == POLICY_FIFO)
		tap(jp.start_ns < jd.start_ns,
		    "fences: the consumer lent the lowered producer its priority: it ran %lld us before a later job at the consumer's priority",
		    ((long long)jd.start_ns - (long long)jp.start_ns) /
		    (long long)US);
	else
		printf("# fences: under %s the control job started %+lld us from the producer's start\n",
		       policy_name(policy),
		       ((long long)jd.start_ns - (long long)jp.start_ns) /
		       (long long)US);
	close(fq);
	close(fp);
	close(fc);
	close(fdd);
}

/*
 * An in-fence of another engine's job (another scheduler): the job waits
 * for that fence to signal, though its own engine is idle.
 */
static void test_in_fence_engines(unsigned int engines)
{
	struct drm_simgpu_submit x = { .duration_ns = 50 * MS, .engine = 0 };
	struct drm_simgpu_submit p = { .duration_ns = 20 * MS, .engine = 0,
				       .flags = SIMGPU_SUBMIT_OUT_FENCE };
	struct drm_simgpu_submit c = { .duration_ns = 2 * MS, .engine = 1,
				       .flags = SIMGPU_SUBMIT_IN_FENCE };
	struct job jp = { 0 }, jc = { 0 };
	int fd0, fd1;

	if (engines < 2) {
		char why[32];

		snprintf(why, sizeof(why), "engines=%u", engines);
		tap_skip(why, "fences: an in-fence of another engine's job");
		return;
	}
	fd0 = simgpu_open();
	fd1 = simgpu_open();
	must(ioctl(fd0, DRM_IOCTL_SIMGPU_SUBMIT, &x) ? errno : 0, "submit");
	must(ioctl(fd0, DRM_IOCTL_SIMGPU_SUBMIT, &p) ? errno : 0, "submit");
	c.in_fence_fd = p.out_fence_fd;
	must(ioctl(fd1, DRM_IOCTL_SIMGPU_SUBMIT, &c) ? errno : 0, "submit");
	close(p.out_fence_fd);
	must(wait_job(fd1, c.handle, INT64_MAX, &jc), "wait");
	must(wait_job(fd0, p.handle, INT64_MAX, &jp), "wait");
	must(wait_job(fd0, x.handle, INT64_MAX, NULL), "wait");
	tap(jc.submit_ns < jp.start_ns && jc.start_ns >= jp.end_ns,
	    "fences: a job on an idle engine waits for its in-fence, another engine's job (submitted %lld us before that job started, started %lld us after its fence signalled)",
	    ((long long)jp.start_ns - (long long)jc.submit_ns) / (long long)US,
	    ((long long)jc.start_ns - (long long)jp.end_ns) / (long long)US);
	close(fd0);
	close(fd1);
}

/* fdinfo in the DRM format, with busy time of the jobs that ran */
static void test_fdinfo(void)
{
	char driver[64], client[64], busy[64];
	uint64_t handle = 0, ns = 0;
	int fd = simgpu_open(), i;

	for (i = 0; i < 5; i++) {
		must(submit(fd, 3 * MS, &handle, NULL), "submit");
		must(wait_job(fd, handle, INT64_MAX, NULL), "wait");
	}
	fdinfo(fd, "drm-driver", driver, sizeof(driver));
	fdinfo(fd, "drm-client-id", client, sizeof(client));
	fdinfo(fd, "drm-engine-sim0", busy, sizeof(busy));
	sscanf(busy, "%llu", (unsigned long long *)&ns);
	tap(!strcmp(driver, "simgpu") && client[0] && ns >= 15 * MS &&
	    strstr(busy, " ns"),
	    "fdinfo: drm-driver '%s', drm-client-id '%s', drm-engine-sim0 '%s' (5 x 3 ms)",
	    driver, client, busy);
	close(fd);
}

/*
 * (e) files closed with jobs queued and running: by close(), by exit, and
 * by SIGKILL. The kernel log (checked by the harness) must stay clean and
 * the module must unload afterwards (checked by the suite).
 */
static void test_close(void)
{
	int fd, i, status;
	uint64_t start, took;
	pid_t pid;

	fd = simgpu_open();
	for (i = 0; i < 6; i++)
		must(submit(fd, 20 * MS, NULL, NULL), "submit");
	start = now_ns();
	close(fd);
	took = now_ns() - start;
	tap(took >= 80 * MS,
	    "close: close() with 6 x 20 ms queued waits for them (%llu ms)",
	    (unsigned long long)took / MS);

	pid = fork();
	if (!pid) {
		fd = simgpu_open();
		for (i = 0; i < 6; i++)
			submit(fd, 20 * MS, NULL, NULL);
		_exit(0);
	}
	tap(waitpid(pid, &status, 0) == pid && WIFEXITED(status),
	    "close: a process exits with 6 x 20 ms jobs queued");

	pid = fork();
	if (!pid) {
		fd = simgpu_open();
		for (i = 0; i < 40; i++)
			submit(fd, 50 * MS, NULL, NULL);
		pause();
		_exit(0);
	}
	sleep_ns(100 * MS);
	kill(pid, SIGKILL);
	start = now_ns();
	tap(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status),
	    "close: a process killed with 40 x 50 ms jobs queued");
	took = now_ns() - start;
	printf("# killed process reaped after %llu ms\n",
	       (unsigned long long)took / MS);
}

/* Engines are independent: one job on each runs at the same time. */
static void test_engines(unsigned int engines)
{
	struct drm_simgpu_submit s[2] = {
		{ .duration_ns = 50 * MS, .engine = 0 },
		{ .duration_ns = 50 * MS, .engine = 1 },
	};
	struct job j[2] = { { 0 } };
	char busy0[64], busy1[64];
	int fd = simgpu_open(), i;

	if (engines < 2) {
		char why[32];

		snprintf(why, sizeof(why), "engines=%u", engines);
		tap_skip(why, "engines: two run at once");
		close(fd);
		return;
	}
	for (i = 0; i < 2; i++)
		must(ioctl(fd, DRM_IOCTL_SIMGPU_SUBMIT, &s[i]) ? errno : 0,
		     "submit");
	for (i = 0; i < 2; i++)
		must(wait_job(fd, s[i].handle, INT64_MAX, &j[i]), "wait");
	fdinfo(fd, "drm-engine-sim0", busy0, sizeof(busy0));
	fdinfo(fd, "drm-engine-sim1", busy1, sizeof(busy1));
	tap(j[1].start_ns < j[0].end_ns && j[0].start_ns < j[1].end_ns &&
	    atoll(busy0) >= (long long)(50 * MS) &&
	    atoll(busy1) >= (long long)(50 * MS),
	    "engines: a job on each of 2 engines runs at the same time (%lld us apart; busy '%s', '%s')",
	    (long long)(j[1].start_ns - j[0].start_ns) / 1000, busy0, busy1);
	close(fd);
}

int main(int argc, char **argv)
{
	unsigned int credits, engines;

	if (argc > 1)
		tap_first(atoi(argv[1]));
	if (find_simgpu()) {
		tap(false, "simgpu: no render node of driver simgpu");
		return 1;
	}
	credits = module_param("credits");
	engines = module_param("engines");
	policy = read_policy();
	printf("# %s, credits=%u engines=%u sched_policy=%d (%s)\n",
	       render_node, credits, engines, policy, policy_name(policy));

	/* With other module parameters: what depends on them. */
	if (argc > 2 && !strcmp(argv[2], "timeout")) {
		test_timeout();
		return tap_status();
	}
	if (argc > 2 && !strcmp(argv[2], "params")) {
		test_engines(engines);
		test_in_fence_engines(engines);
		test_order_and_bound(credits);
		return tap_status();
	}
	test_timer();
	test_errors(engines);
	test_out_fence();
	test_in_fence();
	test_fdinfo();
	test_priority_at_open();
	test_priority_change();
	test_order_and_bound(credits);
	test_busy_lowered(credits);
	test_busy_raised();
	test_close();
	return tap_status();
}
