##   make check-debug   the guest tests on a lockdep/KASAN/UBSAN kernel
# The same tests on a debug kernel (configs/debug.config: lockdep, KASAN,
# UBSAN, ...) built in its own $(OUT)/debug, with the fuzzer and the stress
# test run longer (gpunice.long=1 on the guest's command line), on two CPUs
# (the debug kernel is SMP and preemptible). Any lockdep, KASAN, UBSAN, BUG
# or WARNING line fails the run (tests/summarize.py).
.PHONY: check-debug
check-debug: deps
	@GUEST_APPEND="$(GUEST_APPEND) gpunice.long=1" \
		GUEST_TIMEOUT=$${GUEST_TIMEOUT:-1800} \
		GUEST_SMP=$${GUEST_SMP:-2,sockets=2} \
		$(MAKE) --no-print-directory check OUT=$(OUT)/debug \
		KCONFIG_EXTRA=configs/debug.config \
		CHECK_SUITES="check-guest check-host"

##   make check-kcsan   the fuzz, stress and simgpu suites on a KCSAN kernel
# Issue 38: KCSAN and KASAN exclude each other, so the data-race detector
# gets a kernel of its own: make check-debug's with KCSAN instead of KASAN
# and kmemleak (configs/kcsan.config), built in $(OUT)/debug-kcsan, booted
# to run the suites that race on purpose (gpunice.long=1 as in
# check-debug) after the KUnit suites the kernel runs at boot. A KCSAN
# report ("BUG: KCSAN: data-race in ...") fails the run (tests/summarize.py).
.PHONY: check-kcsan
check-kcsan: deps
	@GUEST_APPEND="$(GUEST_APPEND) gpunice.long=1" \
		GUEST_TIMEOUT=$${GUEST_TIMEOUT:-1800} \
		GUEST_SMP=$${GUEST_SMP:-2,sockets=2} \
		$(MAKE) --no-print-directory check OUT=$(OUT)/debug-kcsan \
		KCONFIG_EXTRA="configs/debug.config configs/kcsan.config" \
		CHECK_SUITES=check-guest \
		SUITES="30-gpuprio-fuzz 40-gpuprio-stress 70-simgpu kunit"

##   make check-bpf-lsm  the debug kernel with the BPF LSM: gpuprio_set()
##                      under a sleepable BPF program (suite 85-bpf-lsm)
# Issue 23, item 7: gpuprio_set() once asked security_task_setscheduler(),
# a hook a BPF LSM program may sleep in, under the RCU read lock,
# task_lock() and tasklist_lock. The debug kernel of make check-debug with
# the BPF LSM and BTF (configs/bpf-lsm.config; no i915), built in its own
# $(OUT)/debug-bpf, boots to run suite 85-bpf-lsm alone (tests/guest/
# bpf_lsm.c): a trivial sleepable program on task_setscheduler, which
# sched_setscheduler() must run and gpuprio_set() never; the verifier
# refusing a sleepable one on task_setgpuprio. Any BUG, WARNING or lockdep
# line fails the run (tests/summarize.py). The old hook, put back by hand
# as in tests/README.md ("The BPF LSM demonstration"), makes the console
# show "BUG: sleeping function called from invalid context" and fails it.
# clang, libbpf-dev and pahole (dwarves) are needed by this target alone.
.PHONY: check-bpf-lsm
check-bpf-lsm: deps
	@scripts/install-deps.sh clang libbpf-dev zlib1g-dev dwarves
	@GUEST_TIMEOUT=$${GUEST_TIMEOUT:-1800} \
		GUEST_SMP=$${GUEST_SMP:-2,sockets=2} \
		$(MAKE) --no-print-directory check OUT=$(OUT)/debug-bpf \
		KCONFIG_EXTRA="configs/debug.config configs/bpf-lsm.config" \
		CHECK_SUITES=check-guest SUITES=85-bpf-lsm GUEST_BPF_LSM=1
