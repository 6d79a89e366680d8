// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF LSM programs of tests/guest/bpf_lsm.c (clang -target bpf): each
 * counts its runs for the test process and allows everything.
 *
 * task_setscheduler is in the BPF LSM's sleepable set: setsched is the
 * trivial sleepable program that an earlier gpuprio_set(), which asked
 * security_task_setscheduler() under the RCU read lock, task_lock() and
 * tasklist_lock, ran in atomic context. task_setgpuprio is not in that
 * set: setgpuprio attaches there as an ordinary program, and the
 * verifier must refuse setgpuprio_sleepable.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_lsm.h"

char LICENSE[] SEC("license") = "GPL";

struct bpf_lsm_state state;

static __always_inline int ours(void)
{
	return bpf_get_current_pid_tgid() >> 32 == state.tgid;
}

SEC("lsm.s/task_setscheduler")
int setsched(unsigned long long *ctx)
{
	if (ours())
		__sync_fetch_and_add(&state.setscheduler, 1);
	return 0;
}

SEC("lsm/task_setgpuprio")
int setgpuprio(unsigned long long *ctx)
{
	if (ours())
		__sync_fetch_and_add(&state.setgpuprio, 1);
	return 0;
}

SEC("lsm.s/task_setgpuprio")
int setgpuprio_sleepable(unsigned long long *ctx)
{
	return 0;
}
