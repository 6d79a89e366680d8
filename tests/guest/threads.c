// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gpuprio-threads - a process with N threads besides the main one, all
 * asleep until the process is killed; for tests/guest/gpunice.sh, since
 * busybox has no tool that starts threads.
 *
 * Usage: gpuprio-threads <N>
 * It prints "ready" once every thread is running.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_barrier_t started;

static void *sleeper(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&started);
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t thread;
	int i, n, err;

	n = argc == 2 ? atoi(argv[1]) : 0;
	if (n < 1 || n > 1000) {
		fprintf(stderr, "usage: gpuprio-threads <1-1000>\n");
		return 2;
	}

	pthread_barrier_init(&started, NULL, (unsigned int)n + 1);
	for (i = 0; i < n; i++) {
		err = pthread_create(&thread, NULL, sleeper, NULL);
		if (err) {
			fprintf(stderr, "gpuprio-threads: %s\n", strerror(err));
			return 1;
		}
	}
	pthread_barrier_wait(&started);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
