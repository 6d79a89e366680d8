#!/bin/sh
# make effect, after the build: boot the test kernel once with gpunice.effect
# on its command line (tests/guest/effect.sh runs the scenarios) and keep its
# console log; tests/effect/report.py turns it into the table and the plot.
#
# usage: run-effect.sh <bzImage> <initramfs> <result dir> [runs] [seconds]
#        [rr|fair|none]...
# The boots after the default one (FIFO): rr (the default) runs the rr-*
# rows under round robin, fair (the 7.3 line) every scenario again under
# drm_sched's FAIR policy, each with its console log in <result dir>/rr or
# <result dir>/fair; none, the FIFO boot alone.
# EFFECT_ROWS (make effect's, words separated by spaces or commas): a quick
# run of only the rows whose name, without rr-, starts with one of them.
set -u
kernel=$1 initrd=$2 results=$3 runs=${4:-3} secs=${5:-5}
shift $(($# < 5 ? $# : 5))
[ $# -gt 0 ] || set -- rr
[ "$*" = none ] && set --
here=$(dirname "$0")
rows=$(echo "${EFFECT_ROWS:-}" | tr ' ' ',' | sed 's/,,*/,/g; s/^,//; s/,$//')

# shellcheck source=tests/lib/host.sh
. "$here/../lib/host.sh"
# Host facts for the report (the guest reports its own clock).
{
	host_info
	echo "host_load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
} > "$results/host-info"

# Per round: 16 scenarios (the live one 1.5 times as long) and 6 sweep cells
# of $secs s, 6 cells of the depth sweep of 3 s and 6 share runs of about 5 s.
limit=$((runs * (23 * secs + 120) + 300))
# The round-robin boot: 7 rows of $secs s and 10 share runs; the FAIR boot
# all of them, and one more share run, each share run of 6 s instead of 3.
for b in "$@"; do
	case $b in
	rr | fair) ;;
	*)
		echo "run-effect: boot '$b': rr or fair" >&2
		exit 2 ;;
	esac
done
echo "  EFFECT  $runs runs of $secs s per scenario (guest limit ${limit}s)," \
	"then the boots: ${*:-none}${rows:+; only the rows $rows}"
# The guest needs a TSC clock for high-resolution timers (clock-args.sh).
# A boot without one all the same (tests/guest/effect.sh stops at once) is
# repeated, up to 3 times.
clock=$("$here/clock-args.sh")
boot() { # boot <result dir> <time limit> <kernel arguments>
	for attempt in 1 2 3; do
		GUEST_APPEND="gpunice.effect gpunice.effect_runs=$runs gpunice.effect_seconds=$secs${rows:+ gpunice.effect_rows=$rows} $clock $3 ${EFFECT_APPEND:-}" \
			GUEST_TIMEOUT=${GUEST_TIMEOUT:-$2} \
			"$here/../run-guest.sh" "$kernel" "$initrd" "$1" >/dev/null
		log=$1/console.log
		grep -q '^@@EFFECT error noclock' "$log" || break
		echo "run-effect: boot $attempt: $(sed -n 's/^@@EFFECT error //p' "$log" | tr -d '\r')" >&2
	done
	if ! grep -q '^@@EFFECT-END' "$log"; then
		echo "run-effect: the guest did not finish; its console:" >&2
		tail -n 30 "$log" >&2
		return 1
	fi
	echo "          guest ran $(cat "$1/guest-seconds") s"
}
# drm_sched's default policy (FIFO in 6.12 and 7.3), then round robin or
# FAIR: the scheduler is built in, its parameter is gpu_sched.sched_policy.
# Each guest records the policy it really ran under (effect.sh reads it
# back).
boot "$results" "$limit" "" || exit 1
for b in "$@"; do
	case $b in
	rr) policy=0 limit2=$((runs * (7 * secs + 110) + 300)) ;;
	fair) policy=2 limit2=$((limit + runs * 100)) ;;
	esac
	mkdir -p "$results/$b"
	boot "$results/$b" "$limit2" \
		"gpu_sched.sched_policy=$policy gpunice.effect_set=$b" || exit 1
done
