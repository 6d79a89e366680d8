#!/bin/sh
# make bench, after the builds: boot the kernel with the feature and the one
# without it in turn, each with gpunice.bench on its command line, and keep
# each console log; tests/bench/report.py turns them into the results.
#
# usage: run-bench.sh <bzImage on> <bzImage off> <initramfs> <tree on> \
#                     <result dir> [boots]
#
# One boot of the feature kernel runs the syscalls, the scale test with up
# to 10,000 threads and the i915 gpuprio_perf mock selftest at boot; then
# each kernel boots [boots] times in turn to measure fork, so that the fork
# comparison has rounds from several boots of each. The feature kernel's
# boots run the scale test again after fork: where 10,000 task_structs lie
# differs per boot, and one growth ratio went from 1.02 to 1.41 between
# boots of one kernel. The report pools the rounds of every boot.
set -u
on=$1 off=$2 initrd=$3 tree=$4 results=$5 boots=${6:-3}
here=$(dirname "$0")

# The compared system calls must each start a guest page (BENCH_ALIGN in
# mk/bench.mk): under TCG a loop that straddles a page costs more per turn.
calls="gpuprio_get gpuprio_set getpriority setpriority ioprio_get ioprio_set"
for call in $calls; do
	addr=$(sed -n "s/^\([0-9a-f]*\) T __x64_sys_$call\$/\1/p" \
		"$tree/System.map")
	case $addr in
	"")
		echo "run-bench: __x64_sys_$call is not in $tree/System.map" >&2
		exit 1 ;;
	*000) ;;
	*)
		echo "run-bench: __x64_sys_$call at $addr does not start a page;" \
			"was the kernel built by make bench (BENCH_ALIGN)?" >&2
		exit 1 ;;
	esac
done

# gpuprio_perf is a measurement that only runs when st_filter names it.
i915=$(I915_MOCK_SELFTESTS="sanitycheck gpuprio_perf" \
	"$here/../i915-mock-params.sh" "$tree") || exit 1
i915="$i915 i915.st_filter=perf_gpuprio_request"

# shellcheck source=tests/lib/host.sh
. "$here/../lib/host.sh"
# Host facts for the report (the guest reports its own clock).
{
	host_info
	echo "guest_smp 2 vCPUs, 1G (kernel built with NR_CPUS=1)"
	echo "boots $boots"
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
} > "$results/host-info"

boot() { # boot <name> <bzImage> <append>
	echo "  BENCH   $1"
	GUEST_APPEND="$3" GUEST_TIMEOUT=${GUEST_TIMEOUT:-1200} \
		"$here/../run-guest.sh" "$2" "$initrd" "$results/$1" >/dev/null
	if ! grep -q '^@@BENCH-END rc=0' "$results/$1/console.log"; then
		echo "run-bench: boot $1 did not complete; its console:" >&2
		tail -n 30 "$results/$1/console.log" >&2
		exit 1
	fi
	echo "          $(cat "$results/$1/guest-seconds") s"
}

# Everything but fork first; then the kernels in turn, fork first in each
# boot, so that no fork round follows the i915 selftest or 10,000 threads.
boot "on-full" "$on" "gpunice.bench=info,percall,scale $i915"
i=1
while [ "$i" -le "$boots" ]; do
	boot "on-$i" "$on" "gpunice.bench=fork,scale gpunice.bench_args=-r,7"
	boot "off-$i" "$off" "gpunice.bench=fork gpunice.bench_args=-r,7"
	i=$((i + 1))
done
