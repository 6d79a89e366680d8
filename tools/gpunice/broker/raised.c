// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The threads the broker raised: each held by a pidfd (a duplicate of the
 * caller's), with the value it had before, so that Drop and the watchdog
 * put back exactly that, and a thread that exited is forgotten.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker.h"
#include "gpuprio.h"

static struct raised *head;

struct raised *raised_first(void)
{
	return head;
}

struct raised *raised_find(pid_t tid)
{
	struct raised *r;

	for (r = head; r; r = r->next)
		if (r->tid == tid)
			return r;
	return NULL;
}

unsigned int raised_count(uid_t uid)
{
	unsigned int n = 0;
	struct raised *r;

	for (r = head; r; r = r->next)
		n += r->uid == uid;
	return n;
}

/* Takes @pidfd (the broker's own duplicate) on success. */
int raised_add(int pidfd, pid_t tid, pid_t tgid, uid_t uid, int old_prio,
	       int new_prio)
{
	struct raised *r = calloc(1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->pidfd = pidfd;
	r->tid = tid;
	r->tgid = tgid;
	r->uid = uid;
	r->old_prio = old_prio;
	r->new_prio = new_prio;
	r->next = head;
	head = r;
	return 0;
}

static void unlink_free(struct raised *r)
{
	struct raised **p;

	for (p = &head; *p; p = &(*p)->next)
		if (*p == r) {
			*p = r->next;
			break;
		}
	close(r->pidfd);
	free(r);
}

/* Put back what the thread had; 0, or -errno (the entry goes anyway). */
int raised_drop(struct raised *r)
{
	int ret = 0;

	if (gpuprio_set(GPUPRIO_WHO_PIDFD, r->pidfd, r->old_prio))
		ret = errno == ESRCH ? 0 : -errno;
	unlink_free(r);
	return ret;
}

/* Forget threads that exited: their value went with them. */
void raised_prune(void)
{
	struct raised *r = head, *next;

	for (; r; r = next) {
		pid_t tid, tgid;

		next = r->next;
		if (policy_thread_of(r->pidfd, &tid, &tgid) < 0)
			unlink_free(r);
	}
}

unsigned int raised_demote_all(const char *why)
{
	unsigned int n = 0;

	while (head) {
		struct raised *r = head;
		int err;

		fprintf(stderr, "gpuprio-broker: demoting thread %d of "
			"process %d (uid %u): %s\n", (int)r->tid, (int)r->tgid,
			(unsigned int)r->uid, why);
		err = raised_drop(r);
		if (err)
			fprintf(stderr, "gpuprio-broker: demoting failed: %s\n",
				strerror(-err));
		n++;
	}
	return n;
}
