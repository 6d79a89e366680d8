// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_lsm - gpuprio_set() under a sleepable BPF LSM program (issue 23, 7)
 *
 * gpuprio_set() checks each target under the RCU read lock and task_lock(),
 * and walks a process group, a user or a pidfd's threads under
 * tasklist_lock: the LSM hook it asks must not sleep. 6.12's BPF LSM lets
 * a program on task_setscheduler sleep, so gpuprio_set() asks its own
 * task_setgpuprio, which is not in that sleepable set. This program, run
 * by the guest suite 85-bpf-lsm on the debug kernel of make check-bpf-lsm:
 *
 * - loads and attaches a trivial sleepable program on task_setscheduler,
 *   and an ordinary one on task_setgpuprio, each counting its runs for
 *   this process (bpf_lsm.bpf.c);
 * - has the verifier refuse a sleepable program on task_setgpuprio: the
 *   guarantee that no BPF program can sleep there;
 * - sets the GPU priority of a child by thread id, process group, user
 *   and pidfd: task_setgpuprio must run each time and the sleepable
 *   program never;
 * - calls sched_setscheduler(), after which the sleepable program must
 *   have run: a run where it never did would show nothing.
 *
 * A gpuprio_set() that asked task_setscheduler again (the mutant of
 * tests/README.md) runs the sleepable program in atomic context: the
 * kernel prints "BUG: sleeping function called from invalid context",
 * which fails the run (tests/summarize.py), and the counts here fail too.
 *
 * TAP on stdout. The BPF object is built into the program (BPF_OBJ names
 * it at compile time). On a kernel without BTF (not make check-bpf-lsm's)
 * everything is skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <gpuprio.h>
#include "bpf_lsm.h"
#include "../lib/tap.h"

#ifndef BPF_OBJ
#error "BPF_OBJ: the path of bpf_lsm.bpf.o, to build into the program"
#endif

/* The BPF object, as clang wrote it. */
__asm__(".pushsection .rodata\n"
	".balign 8\n"
	".global bpf_lsm_obj\n"
	"bpf_lsm_obj:\n"
	".incbin \"" BPF_OBJ "\"\n"
	".global bpf_lsm_obj_end\n"
	"bpf_lsm_obj_end:\n"
	".popsection\n");
extern const char bpf_lsm_obj[], bpf_lsm_obj_end[];

#define TEST_UID	1000
#define VERDICT		"bpf_lsm_task_setgpuprio is not sleepable"

/* The verifier's log of the refused load. */
static char verifier_log[64 * 1024];

/* libbpf's warnings ("libbpf: ..."), as TAP diagnostics. */
static int print_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	char buf[1024], *line, *save;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("# %s\n", line);
	return 0;
}

/* The object, with only the program named @only loaded (NULL: all but
 * setgpuprio_sleepable). */
static struct bpf_object *open_obj(const char *only)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "bpf_lsm");
	struct bpf_object *obj;
	struct bpf_program *prog;

	obj = bpf_object__open_mem(bpf_lsm_obj,
				   (size_t)(bpf_lsm_obj_end - bpf_lsm_obj),
				   &opts);
	if (!obj)
		return NULL;
	bpf_object__for_each_program(prog, obj) {
		const char *name = bpf_program__name(prog);
		bool load = only ? !strcmp(name, only) :
			    strcmp(name, "setgpuprio_sleepable") != 0;

		bpf_program__set_autoload(prog, load);
	}
	return obj;
}

/* The .bss map, where the programs' one global lives. */
static struct bpf_map *state_map(struct bpf_object *obj)
{
	struct bpf_map *map;
	size_t len;

	bpf_object__for_each_map(map, obj) {
		const char *name = bpf_map__name(map);

		len = strlen(name);
		if (len >= 4 && !strcmp(name + len - 4, ".bss"))
			return map;
	}
	return NULL;
}

static int state_rw(struct bpf_map *map, struct bpf_lsm_state *st, bool write)
{
	int key = 0;

	if (write)
		return bpf_map__update_elem(map, &key, sizeof(key), st,
					    sizeof(*st), BPF_ANY);
	return bpf_map__lookup_elem(map, &key, sizeof(key), st, sizeof(*st),
				    0);
}

/* The verifier must refuse a sleepable program on task_setgpuprio. */
static void refuse_sleepable(void)
{
	struct bpf_object *obj = open_obj("setgpuprio_sleepable");
	struct bpf_program *prog;
	int err = -1;

	if (obj) {
		prog = bpf_object__find_program_by_name(obj,
							"setgpuprio_sleepable");
		bpf_program__set_log_buf(prog, verifier_log,
					 sizeof(verifier_log));
		bpf_program__set_log_level(prog, 1);
		printf("# loading lsm.s/task_setgpuprio: libbpf's complaint"
		       " below is expected\n");
		err = bpf_object__load(obj);
	}
	if (tap(obj && err && strstr(verifier_log, VERDICT),
		"the verifier refuses a sleepable program on task_setgpuprio"))
		printf("# verifier: %s\n", VERDICT);
	else
		printf("# load returned %d; log: %s\n", err, verifier_log);
	bpf_object__close(obj);
}

/*
 * A child, alone in its process group and alone as user TEST_UID, that
 * waits until @hold is closed. Returns its pid, or -1.
 */
static pid_t start_child(int *hold)
{
	int ready[2], wait_fd[2];
	pid_t pid;
	char c;

	if (pipe(ready) || pipe(wait_fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(ready[0]);
		close(wait_fd[1]);
		if (setpgid(0, 0) || setgid(TEST_UID) || setuid(TEST_UID))
			_exit(1);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		while (read(wait_fd[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(ready[1]);
	close(wait_fd[0]);
	if (read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		close(wait_fd[1]);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(ready[0]);
	*hold = wait_fd[1];
	return pid;
}

static void set_prio(const char *what, int which, int who, int prio)
{
	int r = gpuprio_set(which, who, prio);

	tap(r == 0, "gpuprio_set(%s) of the child", what);
	if (r)
		printf("# gpuprio_set: %s\n", strerror(errno));
}

int main(void)
{
	struct bpf_link *sched_link = NULL, *gpuprio_link = NULL;
	struct bpf_lsm_state st = { 0 };
	struct sched_param sp = { 0 };
	struct bpf_object *obj;
	struct bpf_map *map;
	int hold = -1, pidfd, err;
	__u64 during;
	pid_t child;

	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		tap_skip("kernel without BTF, not make check-bpf-lsm's",
			 "BPF LSM programs on task_setscheduler and"
			 " task_setgpuprio");
		return tap_done();
	}
	if (!gpuprio_supported()) {
		tap(false, "the kernel has gpuprio_set() (%s)",
		    GPUPRIO_SYSCALLS_PATH);
		return tap_done();
	}
	libbpf_set_print(print_libbpf);

	obj = open_obj(NULL);
	err = obj ? bpf_object__load(obj) : -1;
	if (!tap(!err, "a sleepable program on task_setscheduler and an"
		 " ordinary one on task_setgpuprio load"))
		return tap_done();
	map = state_map(obj);
	st.tgid = (__u32)getpid();
	if (!tap(map && !state_rw(map, &st, true),
		 "the programs count this process's hook calls"))
		return tap_done();
	sched_link = bpf_program__attach(
		bpf_object__find_program_by_name(obj, "setsched"));
	tap(sched_link != NULL, "lsm.s/task_setscheduler attaches");
	gpuprio_link = bpf_program__attach(
		bpf_object__find_program_by_name(obj, "setgpuprio"));
	tap(gpuprio_link != NULL, "lsm/task_setgpuprio attaches");

	refuse_sleepable();

	child = start_child(&hold);
	if (!tap(child > 0, "a child alone in its process group, as user %d",
		 TEST_UID))
		return tap_done();
	set_prio("thread id", GPUPRIO_WHO_PROCESS, child, GPUPRIO_BE_NICE(5));
	set_prio("process group", GPUPRIO_WHO_PGRP, child, GPUPRIO_BE_NICE(6));
	set_prio("user", GPUPRIO_WHO_USER, TEST_UID, GPUPRIO_BE_NICE(7));
	pidfd = gpuprio_pidfd_open(child);
	set_prio("pidfd", GPUPRIO_WHO_PIDFD, pidfd, GPUPRIO_BE_NICE(8));
	if (pidfd >= 0)
		close(pidfd);

	err = state_rw(map, &st, false);
	tap(!err && st.setgpuprio >= 4,
	    "task_setgpuprio's program ran for each of the 4 sets (runs: %llu)",
	    (unsigned long long)st.setgpuprio);
	during = st.setscheduler;
	tap(!err && during == 0,
	    "gpuprio_set() never ran the sleepable task_setscheduler program"
	    " (runs: %llu)", (unsigned long long)during);

	tap(sched_setscheduler(child, SCHED_BATCH, &sp) == 0,
	    "sched_setscheduler(child, SCHED_BATCH)");
	err = state_rw(map, &st, false);
	tap(!err && st.setscheduler > during,
	    "sched_setscheduler() ran the sleepable program, so it is live"
	    " (runs: %llu)", (unsigned long long)(st.setscheduler - during));

	close(hold);
	waitpid(child, NULL, 0);
	bpf_link__destroy(gpuprio_link);
	bpf_link__destroy(sched_link);
	bpf_object__close(obj);
	return tap_done();
}
