# shellcheck shell=sh
# A command under test and what it printed, for the suites that check a
# tool's output and messages (tests/host/suites/20-gpunice,
# tests/guest/gpunice.sh), sourced after tap.sh. The caller sets $tmp, a
# folder of its own: run keeps the command's stdout in $tmp/out, its
# stderr in $tmp/err and its exit status in $rc, and a failed check shows
# both files.
# shellcheck disable=SC2154 # $tmp is the caller's
tap_show_on_failure "$tmp/out" "$tmp/err"

# check DESCRIPTION COMMAND...: one test, passing if COMMAND succeeds.
check()
{
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# run COMMAND...: run it, keeping its stdout, stderr and exit status.
run()
{
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

status_is() { [ "$rc" -eq "$1" ]; }
out_is() { [ "$(cat "$tmp/out")" = "$1" ]; }
err_is() { [ "$(cat "$tmp/err")" = "$1" ]; }
out_has() { grep -qF -e "$1" "$tmp/out"; }
err_has() { grep -qF -e "$1" "$tmp/err"; }
out_empty() { [ ! -s "$tmp/out" ]; }
err_empty() { [ ! -s "$tmp/err" ]; }
