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
