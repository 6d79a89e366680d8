#!/bin/sh
# make effect, in the test guest (gpunice.effect on the kernel command line,
# see tests/effect/run-effect.sh): a foreground frame loop at 60 Hz with
# 2 ms jobs on simgpu, alone and beside a GPU hog under each way of setting
# priorities, then the sweep of hog job length by credit limit. Every line
# of gpuload is passed on as "@@EFFECT <scenario> <run> <role> <line>";
# tests/effect/report.py computes the medians, the table and the plot.
#
# gpunice.effect_runs=N (default 3) rounds, each running every scenario once
# (rounds rather than N runs in a row, so that a slow spell of the host hits
# all scenarios alike); gpunice.effect_seconds=S (default 5) per run.
set -u
arg() { sed -n "s/.*gpunice\.effect_$1=\([0-9]*\).*/\1/p" /proc/cmdline; }
runs=$(arg runs)
secs=$(arg seconds)
runs=${runs:-3}
secs=${secs:-5}
fps=60
job_us=2000
hog_ms=4
depth=4
tmp=/tmp/effect
mkdir -p $tmp
rc=0

info() { echo "@@EFFECT info $*"; }

# A run's lines, for the report; @role is fg, hog or want.
emit() { # emit <scenario> <run> <role> <file>
	sed -n "s/^gpuload: /@@EFFECT $1 $2 $3 /p" "$4"
	grep -v '^gpuload: ' "$4" | sed "s/^/@@EFFECT $1 $2 stderr /"
}

# shellcheck source=tests/guest/simgpu-load.sh
. /tests/simgpu-load.sh

hog_pid=
hog_args=
start_hog() { # start_hog <job ms> <command prefix...>; gpuload's: $hog_args
	ms=$1
	shift
	# shellcheck disable=SC2086 # $hog_args: options, split on purpose
	"$@" gpuload --hog --job-ms "$ms" --depth $depth $hog_args \
		>$tmp/hog 2>&1 &
	hog_pid=$!
	# Until its first job is armed, then a moment to fill the queue.
	i=0
	while ! grep -q 'prio=' $tmp/hog && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.2
}

stop_hog() {
	[ -n "$hog_pid" ] || return 0
	kill -TERM "$hog_pid" 2>/dev/null
	wait "$hog_pid"
	hog_pid=
}

frame() { # frame <command prefix...>: the measured loop, in the foreground
	"$@" gpuload --fps $fps --job-us $job_us --seconds "$secs" \
		>$tmp/fg 2>&1
}

# The drm_sched run queues the run's jobs must have been on, or the run is
# void; tests/effect/report.py checks them against gpuload's per-job counts
# (simgpu's account of the run queue each job's entity was on when armed),
# and that the hog really ran (busy, no error) and contended.
want() { # want <scenario> <run> <fg run queue> <hog run queue or ->
	echo "@@EFFECT $1 $2 want fg=$3 hog=$4"
}

scenario() { # scenario <name> <run>
	: >$tmp/hog
	case $1 in
	alone)
		frame
		want "$1" "$2" normal - ;;
	contended)
		start_hog $hog_ms
		frame
		stop_hog
		want "$1" "$2" normal normal ;;
	gpunice10)
		start_hog $hog_ms gpunice -n 10
		frame
		stop_hog
		want "$1" "$2" normal low ;;
	idle)
		start_hog $hog_ms gpunice -c idle
		frame
		stop_hog
		want "$1" "$2" normal low ;;
	cpunice10)
		# busybox has renice but no nice(1): the same, then exec.
		start_hog $hog_ms sh -c 'renice -n 10 $$ >/dev/null && exec "$@"' \
			cpunice10
		frame
		stop_hog
		want "$1" "$2" normal low ;;
	raised)
		start_hog $hog_ms
		frame gpunice -n -5
		stop_hog
		want "$1" "$2" high normal ;;
	live)
		# A third of the run at defaults, then the hog is lowered
		# while it runs; the fg marks the moment (SIGUSR1).
		start_hog $hog_ms
		gpuload --fps $fps --job-us $job_us --interval \
			--seconds $((secs * 3 / 2)) >$tmp/fg 2>&1 &
		fg_pid=$!
		sleep $((secs / 2))
		# The time gpunice is started at, against the hog's first job
		# armed LOW: how long the change took to act.
		rm -f $tmp/gpunice.err
		t0=$(gpuload --now)
		kill -USR1 $fg_pid
		gpunice -p "$hog_pid" -n 19 >$tmp/gpunice 2>&1 ||
			sed 's/^/gpunice failed: /' $tmp/gpunice >$tmp/gpunice.err
		wait $fg_pid
		echo "gpuload: change at_ns=$t0" >>$tmp/fg
		cat $tmp/gpunice.err >>$tmp/fg 2>/dev/null
		stop_hog
		want "$1" "$2" normal low ;;
	tabs|gpu-thread|shared)
		# Two tabs of one process, the background one a hog at GPU
		# nice 10: a thread and a file per tab (tabs), one thread
		# switching its priority with a file per tab (gpu-thread) or
		# one file for both (shared, where the fg's jobs queue behind
		# the hog's in one entity whatever the priority).
		gpuload "--$1" --fps $fps --job-us $job_us --job-ms $hog_ms \
			--depth $depth --seconds "$secs" --bg-prio 10 \
			>$tmp/fg 2>&1
		want "$1" "$2" normal low ;;
	driver-thread)
		# The hog's process lowers its main thread after its submitting
		# thread exists: the hog stays at the default priority.
		hog_args="--driver-thread --bg-prio 10"
		start_hog $hog_ms
		hog_args=
		frame
		stop_hog
		want "$1" "$2" normal normal ;;
	driver-pidfd)
		# The same, lowered by a pidfd of the process: every thread.
		hog_args="--driver-thread --pidfd --bg-prio 10"
		start_hog $hog_ms
		hog_args=
		frame
		stop_hog
		want "$1" "$2" normal low ;;
	esac
	emit "$1" "$2" fg $tmp/fg
	emit "$1" "$2" hog $tmp/hog
}

# The sweep: the hog lowered, its job length and the credit limit varied.
sweep() { # sweep <credits> <hog job ms> <run>
	name="sweep-c$1-j$2"
	: >$tmp/hog
	start_hog "$2" gpunice -n 19
	frame
	stop_hog
	want "$name" "$3" normal low
	emit "$name" "$3" fg $tmp/fg
	emit "$name" "$3" hog $tmp/hog
}

# The kernel moves from tsc-early to tsc about 1.5 s after boot, and high
# resolution timers come with it. Under a loaded TCG host the TSC can fail
# its calibration: the clock is then jiffies, every time a multiple of 4 ms,
# and the figures would be meaningless; run-effect.sh boots again.
clocksource() { cat /sys/devices/system/clocksource/clocksource0/current_clocksource; }
resolution() { sed -n 's/^ *\.resolution: \([0-9]*\) nsecs/\1/p' /proc/timer_list | head -1; }
i=0
while { [ "$(clocksource)" != tsc ] || [ "$(resolution)" != 1 ]; } &&
	[ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
info kernel "$(uname -r)"
# drm_sched's policy for entities of one run queue: 0 round robin, 1 FIFO.
info sched_policy "$(cat /sys/module/gpu_sched/parameters/sched_policy 2>/dev/null || echo unknown)"
info clocksource "$(clocksource)"
info hrtimer_resolution_ns "$(resolution)"
dmesg | grep -iE 'clocksource|tsc|hpet|hrtimer|high-res|highres' |
	sed 's/^/@@EFFECT dmesg /'
if [ "$(resolution)" != 1 ]; then
	echo "@@EFFECT error noclock: clocksource $(clocksource), timer" \
		"resolution $(resolution) ns: no high-resolution timers"
	exit 1
fi
info runs "$runs"
info seconds "$secs"
info frame "fps=$fps job_us=$job_us"
info hog "job_ms=$hog_ms depth=$depth"

if ! load_simgpu 2; then
	echo "@@EFFECT error simgpu with credits=2 could not be loaded"
	exit 1
fi
info credits_default "$(cat /sys/module/simgpu/parameters/credits 2>/dev/null)"

run=1
while [ $run -le "$runs" ]; do
	for s in alone contended gpunice10 idle cpunice10 live raised tabs \
		gpu-thread shared driver-thread driver-pidfd; do
		echo "@@EFFECT progress $s $run"
		scenario $s $run
	done
	run=$((run + 1))
done

run=1
while [ $run -le "$runs" ]; do
	for credits in 1 2; do
		if ! load_simgpu $credits; then
			echo "@@EFFECT error simgpu with credits=$credits could not be loaded"
			rc=1
			continue
		fi
		for ms in 1 4 16; do
			echo "@@EFFECT progress sweep-c$credits-j$ms $run"
			sweep $credits $ms $run
		done
	done
	run=$((run + 1))
done
# A clock that fell back to jiffies during the runs voids them all.
if [ "$(resolution)" != 1 ]; then
	echo "@@EFFECT error clock: clocksource $(clocksource) at the end," \
		"timer resolution $(resolution) ns: the runs are void"
	dmesg | grep -iE 'clocksource|tsc' | sed 's/^/@@EFFECT dmesg /'
	rc=1
fi
exit $rc
