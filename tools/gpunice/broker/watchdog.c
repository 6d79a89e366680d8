// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The watchdog: a raised client that keeps an engine busy starves every
 * other client there, the desktop's compositor included. Every period the
 * broker reads the DRM fdinfo of each process it raised a thread of
 * ("drm-engine-<name>: <ns> ns", the busy time every DRM driver reports
 * per open file, Documentation/gpu/drm-usage-stats.rst), so it needs no
 * driver of its own and no cooperation from the client. A process whose
 * busy time on one engine grew by more than wd_busy_percent of the last
 * wd_window_ms gets everything the broker raised demoted (every client's,
 * as RealtimeKit demotes all on starvation: the broker cannot tell which
 * raise let the hog through), and no raise again while it lives.
 *
 * The bound: busy from time T on, the hog is seen at the first sample at
 * least wd_window_ms after the first sample at or after T, so it is
 * demoted by T + wd_window_ms + 2 * wd_period_ms, plus how late the
 * driver accounts a running job (at its end, for simgpu).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "broker.h"

#define MAX_ENGINES	16
#define MAX_CLIENTS	256
#define MAX_SAMPLES	128

struct sample {
	uint64_t t_ms;
	uint64_t busy_ns[MAX_ENGINES];
};

struct watched {
	struct watched *next;
	pid_t tgid;
	int seen;		/* in this round's raised list */
	char engine[MAX_ENGINES][64];
	unsigned int nengines;
	struct sample ring[MAX_SAMPLES];
	unsigned int head, count;
};

static struct watched *watched;
static unsigned int ring_len;

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int engine_index(struct watched *w, const char *name)
{
	unsigned int i;

	for (i = 0; i < w->nengines; i++)
		if (!strcmp(w->engine[i], name))
			return (int)i;
	if (w->nengines == MAX_ENGINES)
		return -1;
	snprintf(w->engine[w->nengines], sizeof(w->engine[0]), "%s", name);
	return (int)w->nengines++;
}

/*
 * One file's fdinfo: its client ID and per-engine busy time. A DRM file
 * open in several descriptors (dup, fork) shows the same client ID in
 * each: it is counted once.
 */
static void read_fdinfo(struct watched *w, int dirfd, const char *name,
			struct sample *s, unsigned long long *clients,
			unsigned int *nclients)
{
	unsigned long long busy[MAX_ENGINES] = { 0 };
	unsigned long long id = 0;
	int have_id = 0, idx, fd;
	char line[256];
	unsigned int i;
	FILE *f;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	f = fdopen(fd, "re");
	if (!f) {
		close(fd);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char engine[64];
		unsigned long long ns;

		if (sscanf(line, "drm-client-id: %llu", &id) == 1) {
			have_id = 1;
			continue;
		}
		if (sscanf(line, "drm-engine-%63[^:]: %llu ns", engine,
			   &ns) != 2 || !strncmp(engine, "capacity", 8))
			continue;
		idx = engine_index(w, engine);
		if (idx >= 0)
			busy[idx] = ns;
	}
	fclose(f);
	if (!have_id)
		return;		/* not a DRM file */
	for (i = 0; i < *nclients; i++)
		if (clients[i] == id)
			return;
	if (*nclients < MAX_CLIENTS)
		clients[(*nclients)++] = id;
	for (i = 0; i < MAX_ENGINES; i++)
		s->busy_ns[i] += busy[i];
}

/*
 * Another user's fdinfo is readable only with CAP_SYS_PTRACE: the broker
 * raises it in its effective set for these reads alone.
 */
static int sample(struct watched *w, struct sample *s)
{
	unsigned long long clients[MAX_CLIENTS];
	unsigned int nclients = 0;
	char path[64];
	struct dirent *d;
	DIR *dir;

	memset(s, 0, sizeof(*s));
	s->t_ms = now_ms();
	snprintf(path, sizeof(path), "/proc/%d/fdinfo", (int)w->tgid);
	with_ptrace_cap(1);
	dir = opendir(path);
	if (dir) {
		while ((d = readdir(dir)))
			if (d->d_name[0] != '.')
				read_fdinfo(w, dirfd(dir), d->d_name, s,
					    clients, &nclients);
		closedir(dir);
	}
	with_ptrace_cap(0);
	return dir ? 0 : -errno;
}

/* The engine @w kept busiest over the window, in percent, or -1. */
static int busy_percent(struct watched *w, const char **engine)
{
	const struct sample *last, *first = NULL;
	unsigned int i, k;
	int best = -1;

	if (!w->count)
		return -1;
	last = &w->ring[(w->head + ring_len - 1) % ring_len];
	/* The newest sample at least a window older than the last. */
	for (k = 0; k < w->count; k++) {
		const struct sample *s = &w->ring[(w->head + ring_len -
						   w->count + k) % ring_len];

		if (last->t_ms - s->t_ms >= cfg.wd_window_ms)
			first = s;
	}
	if (!first)
		return -1;
	for (i = 0; i < w->nengines; i++) {
		uint64_t busy = last->busy_ns[i] - first->busy_ns[i];
		uint64_t span = (last->t_ms - first->t_ms) * 1000000;
		int pct = (int)(busy * 100 / span);

		if (last->busy_ns[i] < first->busy_ns[i])
			continue;	/* a file closed: its time went */
		if (pct > best) {
			best = pct;
			*engine = w->engine[i];
		}
	}
	return best;
}

static struct watched *watch(pid_t tgid)
{
	struct watched *w;

	for (w = watched; w; w = w->next)
		if (w->tgid == tgid)
			return w;
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->tgid = tgid;
	w->next = watched;
	watched = w;
	return w;
}

static void unwatch_unseen(void)
{
	struct watched **p = &watched;

	while (*p) {
		struct watched *w = *p;

		if (w->seen) {
			w->seen = 0;
			p = &w->next;
			continue;
		}
		*p = w->next;
		free(w);
	}
}

static void tick(void)
{
	struct watched *w, *hog = NULL;
	const char *engine = NULL;
	struct raised *r;
	int pct = -1;

	raised_prune();
	policy_forget_demoted();
	for (r = raised_first(); r; r = r->next) {
		w = watch(r->tgid);
		if (w)
			w->seen = 1;
	}
	unwatch_unseen();

	for (w = watched; w && !hog; w = w->next) {
		struct sample *s = &w->ring[w->head];

		if (sample(w, s))
			continue;	/* exited: pruned next time */
		w->head = (w->head + 1) % ring_len;
		if (w->count < ring_len)
			w->count++;
		pct = busy_percent(w, &engine);
		if (pct >= (int)cfg.wd_busy_percent)
			hog = w;
	}
	if (hog) {
		char why[160];
		pid_t tgid = hog->tgid;

		snprintf(why, sizeof(why), "process %d kept engine %s %d%% "
			 "busy over %llu ms (the limit is %u%%)", (int)tgid,
			 engine, pct, (unsigned long long)cfg.wd_window_ms,
			 cfg.wd_busy_percent);
		policy_mark_demoted(tgid);
		raised_demote_all(why);
		while (watched) {
			w = watched;
			watched = w->next;
			free(w);
		}
	}
}

static int on_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	(void)userdata;
	tick();
	sd_event_source_set_time(s, usec + cfg.wd_period_ms * 1000);
	return sd_event_source_set_enabled(s, SD_EVENT_ON);
}

int watchdog_start(sd_event *event)
{
	uint64_t now;
	int r;

	/* Samples a window and a period apart must both fit. */
	ring_len = (unsigned int)(cfg.wd_window_ms / cfg.wd_period_ms) + 2;
	if (ring_len > MAX_SAMPLES)
		return -E2BIG;
	r = sd_event_now(event, CLOCK_MONOTONIC, &now);
	if (r < 0)
		return r;
	return sd_event_add_time(event, NULL, CLOCK_MONOTONIC,
				 now + cfg.wd_period_ms * 1000, 1000,
				 on_timer, NULL);
}
