#!/bin/sh
# make effect, in the test guest (gpunice.effect on the kernel command line,
# see tests/effect/run-effect.sh): a foreground frame loop at 60 Hz with
# 2 ms jobs on simgpu, alone and beside a GPU hog under each way of setting
# priorities; the same loop depending every frame on a producer's job
# (inversion-*) and a deadline set on a lowered client's fence (deadline),
# the hog beside them; then the sweep of hog job length by credit limit.
# Every line of gpuload is passed on as "@@EFFECT <scenario> <run> <role>
# <line>"; tests/effect/report.py computes the medians, the table and the
# plot.
#
# gpunice.effect_runs=N (default 3) rounds, each running every scenario once
# (rounds rather than N runs in a row, so that a slow spell of the host hits
# all scenarios alike); gpunice.effect_seconds=S (default 5) per run.
#
# Then the shares: two or three busy clients (gpuload --hog each) on one
# engine, each client's GPU time from its DRM file's fdinfo (drm-engine-sim0,
# simgpu's busy time of the file's jobs), read by this script in /proc over
# a window of $share_secs s in which every client stays busy.
#
# gpunice.effect_set=rr: the boot with drm_sched's round-robin policy
# (gpu_sched.sched_policy=0, run-effect.sh's second boot): only the rows
# named rr-* (alone, contended, gpunice10, the inversion and deadline rows
# and the shares).
# gpunice.effect_set=fair: the boot with the FAIR policy of the 7.3 line
# (gpu_sched.sched_policy=2): every scenario, under its own name.
# gpunice.effect_rows=WORD,...: a quick run (make effect EFFECT_ROWS=...),
# only the rows whose name, without rr-, starts with one of the words.
set -u
arg() { sed -n "s/.*gpunice\.effect_$1=\([0-9a-z,-]*\).*/\1/p" /proc/cmdline; }
runs=$(arg runs)
secs=$(arg seconds)
set=$(arg set)
rows=$(arg rows)
runs=${runs:-3}
secs=${secs:-5}
set=${set:-fifo}
# The depth sweep's and the shares' seconds per run.
depth_secs=3
share_secs=3
# Under FAIR a nice-19 client runs about one job in 70 (about 10 in 3 s, its
# share then off by up to a tenth from the window's edges): a longer window.
[ "$set" = fair ] && share_secs=6
fps=60
job_us=2000
hog_ms=4
depth=4
# The inversion rows' producer: a job of this length at each frame, at
# GPU nice $low_nice in the lowered rows. The deadline row: one job of
# $job_us at GPU nice $low_nice every $dl_period_ms ms, its deadline set
# $dl_after_ms ms after its submission (then the hog's jobs queued before
# it have all been handed to the engine: depth x hog job = 16 ms).
prod_us=1000
low_nice=10
dl_after_ms=20
dl_period_ms=250
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
hog_depth=$depth
start_hog() { # start_hog <job ms> <command prefix...>; gpuload's: $hog_args
	ms=$1
	shift
	# shellcheck disable=SC2086 # $hog_args: options, split on purpose
	"$@" gpuload --hog --job-ms "$ms" --depth $hog_depth $hog_args \
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

frame_secs=$secs
frame() { # frame <command prefix...>: the measured loop, in the foreground
	"$@" gpuload --fps $fps --job-us $job_us --seconds "$frame_secs" \
		>$tmp/fg 2>&1
}

# The drm_sched run queues the run's jobs must have been on, or the run is
# void; tests/effect/report.py checks them against gpuload's per-job counts
# (simgpu's account of the run queue each job's entity was on when armed),
# and that the hog really ran (busy, no error) and contended.
# Each run names the policy drm_sched really ran it under.
policy=$(cat /sys/module/gpu_sched/parameters/sched_policy 2>/dev/null ||
	echo unknown)
want() { # want <scenario> <run> <fg run queue> <hog run queue or -> [prod=Q]
	echo "@@EFFECT $1 $2 want fg=$3 hog=$4 policy=$policy${5:+ $5}"
}

# Is a row in the quick run's selection (all of them without one)?
selected() { # selected <row name>
	[ -z "$rows" ] && return 0
	for _w in $(echo "$rows" | tr ',' ' '); do
		case ${1#rr-} in
		"$_w"*) return 0 ;;
		esac
	done
	return 1
}

scenario() { # scenario <name> <run>
	: >$tmp/hog
	case $1 in
	rr-*)
		# The same rows on the round-robin boot.
		: >$tmp/fg
		scenario "${1#rr-}" "$2" | sed "s/^@@EFFECT ${1#rr-} /@@EFFECT $1 /"
		return ;;
	depth*)
		# The hog's queue depth swept: depth<D> at defaults,
		# depth<D>-low started with gpunice -n 10; shorter runs.
		hog_depth=${1#depth}
		hog_depth=${hog_depth%-low}
		frame_secs=$depth_secs
		case $1 in
		*-low)
			start_hog $hog_ms gpunice -n 10
			q=low ;;
		*)
			start_hog $hog_ms
			q=normal ;;
		esac
		frame
		stop_hog
		hog_depth=$depth
		frame_secs=$secs
		echo "@@EFFECT $1 $2 depth $hog_depth"
		want "$1" "$2" normal $q ;;
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
	inversion-ref|inversion|inversion-noboost)
		# Each frame depends on a small job of a producer (a thread
		# of the fg's process, its own DRM file), the hog at defaults
		# beside them: the producer at defaults (ref), lowered with
		# the frame's job depending on it by in-fence (inversion:
		# what a boost along the dependency can help), or lowered
		# with the fg waiting for its fence on the CPU (noboost: no
		# dependency the kernel knows of).
		case $1 in
		inversion-ref) pp=none dep=fence q=normal ;;
		inversion) pp=$low_nice dep=fence q=low ;;
		inversion-noboost) pp=$low_nice dep=cpu q=low ;;
		esac
		start_hog $hog_ms
		gpuload --inversion --dep "$dep" --producer-prio "$pp" \
			--producer-us $prod_us --fps $fps --job-us $job_us \
			--seconds "$secs" >$tmp/fg 2>&1
		stop_hog
		want "$1" "$2" normal normal "prod=$q" ;;
	deadline)
		# A lowered client's job, the hog at defaults busy; the
		# waiter (defaults) sets a deadline on its fence.
		start_hog $hog_ms
		gpuload --deadline --producer-prio $low_nice --job-us $job_us \
			--after-ms $dl_after_ms --period-ms $dl_period_ms \
			--seconds "$secs" >$tmp/fg 2>&1
		stop_hog
		want "$1" "$2" - normal prod=low ;;
	esac
	emit "$1" "$2" fg $tmp/fg
	emit "$1" "$2" hog $tmp/hog
}

# --- shares between busy clients ------------------------------------------

# The busy time simgpu accounts to the one DRM file of each process
# (drm-engine-sim0 of its fdinfo, ns), or - if it has none; one awk reads
# them all, so that the clients' figures are taken at about one moment.
busy_all() { # busy_all <pid>...
	files=/dev/null
	for p in "$@"; do
		# busybox awk stops at a file it cannot open
		[ -d /proc/"$p"/fdinfo ] && files="$files /proc/$p/fdinfo/*"
	done
	# shellcheck disable=SC2086 # $files: globs on purpose
	awk -v pids="$*" '
	BEGIN { n = split(pids, p, " "); for (i = 1; i <= n; i++) v[p[i]] = "-" }
	/^drm-engine-sim0:/ { split(FILENAME, f, "/"); v[f[3]] = $2 }
	END { for (i = 1; i <= n; i++) printf "%s ", v[p[i]] }' \
		$files 2>/dev/null
}

# share <name> <run> <band[/nice]:prefix>...: one busy client (a hog of
# $hog_ms ms jobs, depth $depth) per argument, started by the prefix
# command (- for none), expected in that band (its drm_sched run queue
# under FIFO and round robin) and at that GPU nice (its weight under FAIR;
# the report reads the expectation from its own table). The
# clients start from the last one (the lowest first: it is ready and has
# run before the others come), a window of $share_secs s is measured once
# all of them have jobs armed, and they stop from the first one, the lower
# ones 0.3 s later, so that a starved client's queued job runs and its
# longest gap ends. With --close-on-mark as a prefix word the client is
# sent SIGUSR1 after the window and closes its file; the others stop
# $close_hold s later. With --sync as the last prefix word the client
# waits for each job before it submits the next (depth 1): the
# submit/wait loop of a transcoder or a compute client.
close_hold=3
nth() { # nth <n> <word>...: the n-th word (from 1)
	shift "$1"
	echo "$1"
}
share() {
	name=$1 run=$2
	shift 2
	n=$#
	pids=
	i=$n
	while [ "$i" -ge 1 ]; do
		spec=$(eval "echo \"\${$i}\"")
		pre=${spec#*:}
		opt=
		d=$depth
		case $pre in
		*--close-on-mark*)
			opt=--close-on-mark
			pre=${pre%--close-on-mark*} ;;
		*--sync)
			d=1
			pre=${pre%--sync} ;;
		esac
		[ "$pre" = - ] && pre=
		c=$((i - 1))
		# shellcheck disable=SC2086 # the prefix: words on purpose
		$pre gpuload --hog --job-ms $hog_ms --depth $d $opt \
			>$tmp/c$c 2>&1 &
		pids="$! $pids"
		j=0
		while ! grep -q 'prio=' $tmp/c$c && [ $j -lt 50 ]; do
			sleep 0.1
			j=$((j + 1))
		done
		i=$((i - 1))
	done
	sleep 0.3
	t0=$(gpuload --now)
	# shellcheck disable=SC2086 # $pids: words
	b0=$(busy_all $pids)
	sleep $share_secs
	t1=$(gpuload --now)
	# shellcheck disable=SC2086
	b1=$(busy_all $pids)
	# The clients that close their file are sent SIGUSR1 now.
	closing=
	i=1
	for spec in "$@"; do
		case $spec in
		*--close-on-mark*)
			# shellcheck disable=SC2086 # $pids: words
			kill -USR1 "$(nth $i $pids)"
			closing=1 ;;
		esac
		i=$((i + 1))
	done
	[ -n "$closing" ] && sleep $close_hold
	# Stop: the first client (the highest), then the others.
	stop_at=$(gpuload --now)
	for p in $pids; do
		kill -TERM "$p"
		wait "$p"
		sleep 0.3
	done
	echo "@@EFFECT $name $run window t0_ns=$t0 t1_ns=$t1 stop_ns=$stop_at" \
		"clients=$n policy=$policy"
	i=1
	for spec in "$@"; do
		c=$((i - 1))
		# shellcheck disable=SC2086 # $b0, $b1: words
		echo "@@EFFECT $name $run busy client=$c rq=${spec%%:*}" \
			"b0=$(nth $i $b0) b1=$(nth $i $b1)"
		emit "$name" "$run" "c$c" $tmp/c$c
		i=$((i + 1))
	done
}

# A prefix that sets the CPU nice of the command it runs: its GPU priority
# unset, the command follows it.
# shellcheck disable=SC2016 # expanded by the script written, not here
printf '#!/bin/sh\nrenice -n "$1" $$ >/dev/null || exit 1\nshift\nexec "$@"\n' \
	>$tmp/cpunice
chmod +x $tmp/cpunice

share_scenario() { # share_scenario <name> <run>
	case ${1#rr-} in
	share-equal) share "$1" "$2" normal:- normal:- ;;
	share-equal3) share "$1" "$2" normal:- normal:- normal:- ;;
	share-cpunice10) share "$1" "$2" normal:- "low/10:$tmp/cpunice 10" ;;
	share-n10-sync) share "$1" "$2" normal:- "low/10:gpunice -n 10 --sync" ;;
	share-idle-sync) share "$1" "$2" normal:- \
		"low/idle:gpunice -c idle --sync" ;;
	share-n1 | share-n5 | share-n10 | share-n19)
		share "$1" "$2" normal:- "low/${1#*-n}:gpunice -n ${1#*-n}" ;;
	share-idle) share "$1" "$2" normal:- "low/idle:gpunice -c idle" ;;
	share-raised) share "$1" "$2" "high/-5:gpunice -n -5" normal:- ;;
	share-close) share "$1" "$2" normal:- \
		"low/10:gpunice -n 10 --close-on-mark" ;;
	esac
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
# drm_sched's policy: 0 round robin, 1 FIFO, 2 FAIR (the 7.3 line).
info sched_policy "$policy"
info set "$set"
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
info depth_seconds "$depth_secs"
info share "seconds=$share_secs job_ms=$hog_ms depth=$depth close_hold_s=$close_hold"
info inversion "producer_us=$prod_us producer_nice=$low_nice"
info deadline "job_us=$job_us nice=$low_nice after_ms=$dl_after_ms period_ms=$dl_period_ms"
info rows "${rows:-all}"

if ! load_simgpu 2; then
	echo "@@EFFECT error simgpu with credits=2 could not be loaded"
	exit 1
fi
info credits_default "$(cat /sys/module/simgpu/parameters/credits 2>/dev/null)"

shares="share-equal share-equal3 share-n1 share-n10 share-n19 share-cpunice10
	share-idle share-n10-sync share-idle-sync share-raised"
# FAIR grades the weight per GPU nice step (the 7.3 series): its own row.
[ "$set" = fair ] && shares="$shares share-n5"
# The rows of priority inversion and fence deadlines (issue 40), on every
# boot.
deps="inversion-ref inversion inversion-noboost deadline"
if [ "$set" = rr ]; then
	scens="rr-alone rr-contended rr-gpunice10"
	# shellcheck disable=SC2086
	scens="$scens $(for s in $deps; do printf 'rr-%s ' $s; done)"
	# shellcheck disable=SC2086
	shares=$(for s in $shares; do printf 'rr-%s ' $s; done)
else
	scens="alone contended gpunice10 idle cpunice10 live raised tabs
		gpu-thread shared driver-thread driver-pidfd
		depth2 depth3 depth6 depth2-low depth3-low depth6-low $deps"
	shares="$shares share-close"
fi
run=1
while [ $run -le "$runs" ]; do
	for s in $scens; do
		selected "$s" || continue
		echo "@@EFFECT progress $s $run"
		scenario "$s" "$run"
	done
	for s in $shares; do
		selected "$s" || continue
		echo "@@EFFECT progress $s $run"
		share_scenario "$s" "$run"
	done
	run=$((run + 1))
done

[ "$set" = rr ] && runs=0
# A quick run without a sweep cell skips the sweep.
sweep_any=
for c in 1 2; do
	for ms in 1 4 16; do
		selected "sweep-c$c-j$ms" && sweep_any=1
	done
done
[ -n "$sweep_any" ] || runs=0
run=1
while [ $run -le "$runs" ]; do
	for credits in 1 2; do
		if ! load_simgpu $credits; then
			echo "@@EFFECT error simgpu with credits=$credits could not be loaded"
			rc=1
			continue
		fi
		for ms in 1 4 16; do
			selected "sweep-c$credits-j$ms" || continue
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
