#!/bin/sh
# make effect, after the build: boot the test kernel once with gpunice.effect
# on its command line (tests/guest/effect.sh runs the scenarios) and keep its
# console log; tests/effect/report.py turns it into the table and the plot.
#
# usage: run-effect.sh <bzImage> <initramfs> <result dir> [runs] [seconds]
set -u
kernel=$1 initrd=$2 results=$3 runs=${4:-3} secs=${5:-5}
here=$(dirname "$0")

# Host facts for the report (the guest reports its own clock).
{
	echo "host_nproc $(nproc)"
	echo "host_cpu $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	echo "host_load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "qemu $(qemu-system-x86_64 --version | head -1)"
	if [ -w /dev/kvm ] && grep -qE '^flags.*\b(vmx|svm)\b' /proc/cpuinfo; then
		echo "accel KVM"
	else
		echo "accel TCG"
	fi
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
} > "$results/host-info"

# Per round: 12 scenarios (the live one 1.5 times as long) and 6 sweep cells.
limit=$((runs * (19 * secs + 60) + 300))
echo "  EFFECT  $runs runs of $secs s per scenario (guest limit ${limit}s)"
# The guest needs a TSC clock for high-resolution timers (clock-args.sh).
# A boot without one all the same (tests/guest/effect.sh stops at once) is
# repeated, up to 3 times.
clock=$("$here/clock-args.sh")
for attempt in 1 2 3; do
	GUEST_APPEND="gpunice.effect gpunice.effect_runs=$runs gpunice.effect_seconds=$secs $clock ${EFFECT_APPEND:-}" \
		GUEST_TIMEOUT=${GUEST_TIMEOUT:-$limit} \
		"$here/../run-guest.sh" "$kernel" "$initrd" "$results" >/dev/null
	log=$results/console.log
	grep -q '^@@EFFECT error noclock' "$log" || break
	echo "run-effect: boot $attempt: $(sed -n 's/^@@EFFECT error //p' "$log" | tr -d '\r')" >&2
done
if ! grep -q '^@@EFFECT-END' "$log"; then
	echo "run-effect: the guest did not finish; its console:" >&2
	tail -n 30 "$log" >&2
	exit 1
fi
echo "          guest ran $(cat "$results/guest-seconds") s"
