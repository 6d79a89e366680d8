#!/bin/sh
# make demo, after the build: boot the guest in demo mode and print the
# walk-through it runs. Exit status 0 only if every step behaved as shown.
#
# usage: demo.sh <bzImage> <initramfs> <result dir>
set -u
kernel=$1 initrd=$2 results=$3
here=$(dirname "$0")

# The effect step times GPU jobs: the guest needs a TSC clock.
GUEST_APPEND="gpunice.demo $("$here/effect/clock-args.sh")" GUEST_TIMEOUT=${GUEST_TIMEOUT:-300} \
	"$here/run-guest.sh" "$kernel" "$initrd" "$results" || exit 1
log=$results/console.log
if ! grep -q '^@@DEMO-END' "$log"; then
	echo "demo: the guest did not finish the walk-through; its console:"
	tail -n 40 "$log"
	exit 1
fi
sed -n '/^@@DEMO-BEGIN/,/^@@DEMO-END/p' "$log" | tr -d '\r' | sed '1d;$d' |
	grep -v '^@@DEMO-FPS '
echo "  (guest booted and ran in $(cat "$results/guest-seconds") s)"
# The effect step's fps over time, as a plot (tests/guest/demo-effect.sh).
"$here/effect/demo-plot.sh" "$log" "$results"
grep -q '^@@DEMO-END rc=0' "$log"
