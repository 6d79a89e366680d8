#!/bin/sh
# The walk-through of make demo, run as root in the test guest. Each step
# shows a command and what it printed, then checks that it behaved as the
# step says; the last line is the verdict. Exit status 1 if any step did not.

set -u
steps=0
bad=0
out=/tmp/demo.out

say() { printf '\n## %s\n' "$*"; }

# show COMMAND-LINE: print it as typed, run it through sh, keep its output.
show()
{
	printf '$ %s\n' "$1"
	sh -c "$1" >"$out" 2>&1
	rc=$?
	sed 's/^/  /' "$out"
	[ "$rc" -ne 0 ] && printf '  [exit status %d]\n' "$rc"
	return 0
}

# expect DESCRIPTION TEST...: count one step, passing if TEST succeeds.
expect()
{
	desc=$1
	shift
	steps=$((steps + 1))
	if "$@"; then
		printf '  -> as expected: %s\n' "$desc"
	else
		bad=$((bad + 1))
		printf '  -> NOT AS EXPECTED: %s\n' "$desc"
	fi
}

# Conditions for expect, which runs them as its arguments.
# shellcheck disable=SC2317
has() { grep -qF -e "$1" "$out"; }
# shellcheck disable=SC2317
status() { [ "$rc" -eq "$1" ]; }
# shellcheck disable=SC2317
gpu_nice() { cat "/proc/$1/gpu_nice"; }

say "1. Nobody has set a GPU priority: the GPU follows the CPU nice"
show "gpunice"
expect "the shell has no GPU priority of its own" has "best-effort: nice 0 (follows CPU nice 0)"

say "2. Run a command at GPU nice 10; it reads its own value"
show "gpunice -n 10 sh -c 'cat /proc/self/gpu_nice'"
expect "the command runs at best-effort nice 10" has "best-effort 10"

say "3. Children inherit it at fork, like the CPU nice"
show "gpunice -n 7 sh -c 'sh -c \"cat /proc/self/gpu_nice\"'"
expect "the grandchild has best-effort nice 7" has "best-effort 7"

say "4. Set another process, with all its threads"
gpuprio-threads 3 >/tmp/threads.out &
threads=$!
while ! grep -q ready /tmp/threads.out 2>/dev/null; do sleep 0.1; done
show "gpunice -n 5 -p $threads"
show "grep . /proc/$threads/task/*/gpu_nice"
expect "all 4 threads are at best-effort nice 5" \
	[ "$(grep -c 'best-effort 5' "$out")" -eq 4 ]
kill "$threads"

say "5. Set a whole process group"
setsid sh -c 'sleep 300 & sleep 300' &
sleep 0.5
pgid=$(for p in /proc/[0-9]*; do
	[ "$(cat "$p/comm" 2>/dev/null)" = sleep ] || continue
	cut -d' ' -f5 "$p/stat"; break; done)
show "gpunice -n 12 -g $pgid"
show "gpunice -g $pgid"
expect "the group's highest GPU priority is best-effort nice 12" \
	has "$pgid: best-effort: nice 12"
kill -- "-$pgid" 2>/dev/null

say "6. Unset, the GPU follows the CPU nice: renice and watch it move"
sleep 300 &
sleeper=$!
show "gpunice -p $sleeper"
show "renice -n 8 -p $sleeper >/dev/null; gpunice -p $sleeper"
expect "the GPU follows the new CPU nice 8" has "best-effort: nice 8 (follows CPU nice 8)"

say "6b. A CPU boost (rtkit, GameMode) leaves the GPU at normal, not high"
show "renice -10 -p $sleeper >/dev/null; cat /proc/$sleeper/gpu_nice"
expect "CPU nice -10 without a GPU priority is GPU nice 0" has "none 0"

say "6c. kernel.gpuprio_follow_nice=0: only explicit values act"
show "renice 8 -p $sleeper >/dev/null; sysctl -w kernel.gpuprio_follow_nice=0; cat /proc/$sleeper/gpu_nice"
expect "at CPU nice 8 the unset task runs at normal GPU priority" \
	has "none 0"
show "gpunice -n 10 cat /proc/self/gpu_nice"
expect "an explicit value still acts" has "best-effort 10"
show "echo 2 > /proc/sys/kernel/gpuprio_follow_nice"
expect "values other than 0 and 1 are refused" has "Invalid argument"
show "sysctl -w kernel.gpuprio_follow_nice=1; cat /proc/$sleeper/gpu_nice"
expect "back at 1 the task follows its CPU nice 8 again" has "none 8"

say "7. An unprivileged user may lower its GPU priority but not raise it"
show "su gpu -s /bin/sh -c 'gpunice -n 15 cat /proc/self/gpu_nice'"
expect "lowering works without privilege" has "best-effort 15"
show "su gpu -s /bin/sh -c 'gpunice -n -5 true'"
expect "raising above the CPU nice is refused with exit status 1" \
	status 1
show "su gpu -s /bin/sh -c 'gpunice -c realtime true'"
expect "realtime needs CAP_SYS_NICE" status 1

say "8. Realtime and idle, as root"
show "gpunice -c realtime -n 0 cat /proc/self/gpu_nice"
expect "realtime level 0" has "realtime 0"
show "gpunice -c idle cat /proc/self/gpu_nice"
expect "idle" has "idle"
kill "$sleeper" 2>/dev/null

# The effect on a simulated GPU: tests/guest/demo-effect.sh.
if [ -f /tests/demo-effect.sh ]; then
	# shellcheck source=tests/guest/demo-effect.sh
	. /tests/demo-effect.sh
fi

echo
if [ "$bad" -eq 0 ]; then
	echo "VERDICT: all $steps steps behaved as shown"
	exit 0
fi
echo "VERDICT: $bad of $steps steps did not behave as shown"
exit 1
