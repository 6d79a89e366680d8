/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What bpf_lsm.bpf.c and bpf_lsm.c share: the one global of the BPF
 * programs, in their .bss map, which user space reads and writes whole.
 */
#ifndef TESTS_GUEST_BPF_LSM_H
#define TESTS_GUEST_BPF_LSM_H

#include <linux/types.h>

struct bpf_lsm_state {
	__u32 tgid;		/* count only the hooks this process calls */
	__u32 pad;
	__u64 setscheduler;	/* lsm.s/task_setscheduler runs */
	__u64 setgpuprio;	/* lsm/task_setgpuprio runs */
};

#endif /* TESTS_GUEST_BPF_LSM_H */
