#!/bin/sh
# make bench, in the test guest (gpunice.bench=<parts> on the kernel command
# line, see tests/bench/run-bench.sh): run tests/bench/gpuprio_bench for the
# parts asked for, then copy the i915 submission-path figures (the
# gpuprio_perf mock selftest, run at boot when selected) from the kernel log.
set -u
parts=$(sed -n 's/.*gpunice\.bench=\([a-z,]*\).*/\1/p' /proc/cmdline | tr , ' ')
[ -n "$parts" ] || parts="info percall scale fork"
args=$(sed -n 's/.*gpunice\.bench_args=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')

# What the kernel said about its clocks (the bench reports which one is used)
dmesg | grep -iE 'clocksource|tsc' | sed 's/^/# /'
echo "@@BENCH info guest_mem_kb $(sed -n 's/^MemTotal: *\([0-9]*\).*/\1/p' /proc/meminfo)"
# shellcheck disable=SC2086
/tests/bin/gpuprio_bench $args $parts
rc=$?
dmesg | sed -n 's/^\[[^]]*\] //; s/^i915_gpuprio_perf: /@@BENCH i915 /p'
if dmesg | grep -q 'i915_gpuprio_perf_mock_selftests.* failed with error'; then
	echo "bench: the i915 gpuprio_perf selftest failed"
	rc=1
elif grep -q 'mock_gpuprio_perf=1' /proc/cmdline &&
	! dmesg | grep -q 'i915_gpuprio_perf: round='; then
	echo "bench: the i915 gpuprio_perf selftest did not run (st_filter?)"
	rc=1
fi
exit $rc
