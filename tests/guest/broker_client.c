// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * broker_client - the test client of gpuprio-broker (suite 75-broker)
 *
 * Runs its arguments as a script of actions, in one process, and prints
 * one line per action: "<action>: ok" or "<action>: <D-Bus error name>:
 * <message>", for the suite to match.
 *
 *   spawn N            start N threads, t1..tN, that wait
 *   raise WHO PRIO     ask the broker; WHO: self (this thread), tN, proc
 *                      (a pidfd of this process, not of a thread),
 *                      pid:PID (a thread of another process); PRIO: a
 *                      nice (-5) or rt:LEVEL
 *   drop WHO           ask the broker to give the raise back
 *   set WHO PRIO       gpuprio_set() by this process itself
 *   show WHO           print /proc/self/task/TID/gpu_nice
 *   sleep MS
 *   watch PID RAISED TIMEOUT_MS
 *                      wait until /proc/PID/gpu_nice reads RAISED (a
 *                      nice or rt:L), then until it no longer does;
 *                      print how long it stayed: "raised_ms=N" or
 *                      "still raised after N ms" (or that it exited)
 * Exit status: 0, or 2 on a bad script.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "gpuprio-broker.h"

#define MAX_THREADS 64

static pid_t tids[MAX_THREADS + 1];
static int nthreads;
static int hold[2];

static void *waiter(void *arg)
{
	char c;

	__atomic_store_n((pid_t *)arg, (pid_t)syscall(SYS_gettid),
			 __ATOMIC_RELEASE);
	while (read(hold[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static void bad(const char *what)
{
	fprintf(stderr, "broker_client: %s\n", what);
	exit(2);
}

static int parse_prio(const char *s)
{
	if (!strncmp(s, "rt:", 3))
		return GPUPRIO_PRIO_VALUE(GPUPRIO_CLASS_RT, atoi(s + 3));
	return GPUPRIO_BE_NICE(atoi(s));
}

/* The thread ID a WHO names in this process (0: pid: or proc). */
static pid_t who_tid(const char *who)
{
	if (!strcmp(who, "self"))
		return (pid_t)syscall(SYS_gettid);
	if (who[0] == 't') {
		int n = atoi(who + 1);

		if (n < 1 || n > nthreads)
			bad("no such thread");
		return tids[n];
	}
	return 0;
}

/* A pidfd for WHO: of one thread, or of this process for "proc". */
static int who_pidfd(const char *who)
{
	int fd;

	if (!strcmp(who, "proc"))
		fd = (int)syscall(SYS_pidfd_open, getpid(), 0U);
	else if (!strncmp(who, "pid:", 4))
		fd = (int)syscall(SYS_pidfd_open, atoi(who + 4),
				  GPUPRIO_PIDFD_THREAD);
	else
		fd = (int)syscall(SYS_pidfd_open, who_tid(who),
				  GPUPRIO_PIDFD_THREAD);
	if (fd < 0)
		perror("broker_client: pidfd_open");
	return fd;
}

static void result(const char *action, int r, const char *why)
{
	if (!r)
		printf("%s: ok\n", action);
	else
		printf("%s: %s\n", action, why[0] ? why : strerror(-r));
	fflush(stdout);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* /proc/PID/gpu_nice as "nice" or "rt:L" or the file's text. */
static void read_value(const char *path, char *buf, size_t len)
{
	char text[64] = "";
	FILE *f = fopen(path, "re");
	int v;

	if (f) {
		if (!fgets(text, sizeof(text), f))
			text[0] = '\0';
		fclose(f);
	}
	text[strcspn(text, "\n")] = '\0';
	if (sscanf(text, "best-effort %d", &v) == 1)
		snprintf(buf, len, "%d", v);
	else if (sscanf(text, "realtime %d", &v) == 1)
		snprintf(buf, len, "rt:%d", v);
	else
		snprintf(buf, len, "%s", text);
}

static void watch(const char *pid, const char *raised, long timeout)
{
	char path[64], v[64];
	long long start = now_ms(), up = 0;

	snprintf(path, sizeof(path), "/proc/%s/gpu_nice", pid);
	for (;;) {
		read_value(path, v, sizeof(v));
		if (!v[0]) {
			/* Gone: a demotion cannot be told from an exit. */
			printf("watch: process %s exited%s\n", pid,
			       up ? " while raised" : "");
			fflush(stdout);
			return;
		}
		if (!up && !strcmp(v, raised))
			up = now_ms();
		if (up && strcmp(v, raised))
			break;
		if (now_ms() - (up ? up : start) > timeout) {
			if (up)
				printf("watch: still raised after %ld ms\n",
				       timeout);
			else
				printf("watch: never raised to %s (reads "
				       "'%s')\n", raised, v);
			fflush(stdout);
			return;
		}
		usleep(2000);
	}
	printf("watch: raised_ms=%lld now '%s'\n", now_ms() - up, v);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	char action[128], why[512];
	int i = 1;

	if (pipe(hold))
		bad("pipe");
	while (i < argc) {
		const char *op = argv[i];
		int fd, r;

		if (!strcmp(op, "spawn") && i + 1 < argc) {
			int n = atoi(argv[i + 1]), k;

			for (k = 0; k < n && nthreads < MAX_THREADS; k++) {
				pthread_t t;

				nthreads++;
				if (pthread_create(&t, NULL, waiter,
						   &tids[nthreads]))
					bad("pthread_create");
				while (!__atomic_load_n(&tids[nthreads],
							__ATOMIC_ACQUIRE))
					usleep(1000);
			}
			i += 2;
		} else if (!strcmp(op, "raise") && i + 2 < argc) {
			snprintf(action, sizeof(action), "raise %s %s",
				 argv[i + 1], argv[i + 2]);
			fd = who_pidfd(argv[i + 1]);
			r = fd < 0 ? -errno :
				gpuprio_broker_raise_pidfd(fd,
					parse_prio(argv[i + 2]), why,
					sizeof(why));
			if (fd >= 0)
				close(fd);
			result(action, r, fd < 0 ? "" : why);
			i += 3;
		} else if (!strcmp(op, "drop") && i + 1 < argc) {
			snprintf(action, sizeof(action), "drop %s",
				 argv[i + 1]);
			r = gpuprio_broker_drop(who_tid(argv[i + 1]), why,
						sizeof(why));
			result(action, r, why);
			i += 2;
		} else if (!strcmp(op, "set") && i + 2 < argc) {
			snprintf(action, sizeof(action), "set %s %s",
				 argv[i + 1], argv[i + 2]);
			r = gpuprio_set(GPUPRIO_WHO_PROCESS,
					who_tid(argv[i + 1]),
					parse_prio(argv[i + 2]));
			result(action, r ? -errno : 0, "");
			i += 3;
		} else if (!strcmp(op, "show") && i + 1 < argc) {
			char path[64], v[64];

			snprintf(path, sizeof(path),
				 "/proc/self/task/%d/gpu_nice",
				 (int)who_tid(argv[i + 1]));
			read_value(path, v, sizeof(v));
			printf("show %s: %s\n", argv[i + 1], v);
			fflush(stdout);
			i += 2;
		} else if (!strcmp(op, "sleep") && i + 1 < argc) {
			usleep((useconds_t)atoi(argv[i + 1]) * 1000);
			i += 2;
		} else if (!strcmp(op, "watch") && i + 3 < argc) {
			watch(argv[i + 1], argv[i + 2], atol(argv[i + 3]));
			i += 4;
		} else {
			bad("usage: see the comment at the top of "
			    "broker_client.c");
		}
	}
	return 0;
}
