# shellcheck shell=sh
# TAP for the shell test suites, sourced: "ok N - name", "not ok N - name",
# diagnostics as "# " lines, and the plan "1..N" last (tap_done).
# tests/summarize.py reads it.

tap_n=0
tap_failed=0
tap_shown=

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

# not_ok NAME: a failure, with the files tap_show_on_failure named.
not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	for tap_f in $tap_shown; do
		[ -s "$tap_f" ] && sed "s|^|# ${tap_f##*/}: |" "$tap_f"
	done
	return 0
}

# tap_show_on_failure FILE...: from now on every not_ok shows these files'
# lines as diagnostics, each after the file's name ("# err: ..."): for a
# script that keeps what its last command printed in files. Paths without
# blanks.
tap_show_on_failure() {
	tap_shown=$*
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

# tap_diag FILE...: the files' lines as diagnostics (missing ones: none).
tap_diag() {
	for f in "$@"; do
		[ -s "$f" ] && sed 's/^/# /' "$f"
	done
	return 0
}

# tap_result STATUS NAME [FILE...]: ok when STATUS is 0; otherwise not ok,
# with the files as diagnostics.
tap_result() {
	tap_status=$1 tap_name=$2
	shift 2
	if [ "$tap_status" -eq 0 ]; then
		ok "$tap_name"
	else
		not_ok "$tap_name"
		tap_diag "$@"
	fi
}

# tap_run NAME COMMAND [ARG...]: runs the command; ok when it succeeds,
# otherwise not ok with what it printed as diagnostics.
tap_run() {
	tap_name=$1
	shift
	tap_out=$(mktemp)
	"$@" > "$tap_out" 2>&1
	tap_result $? "$tap_name" "$tap_out"
	rm -f "$tap_out"
}

# tap_add FILE STATUS: the TAP another program printed to FILE, numbered
# on from this script's (it was told tap_n + 1), joins the count; its exit
# STATUS, other than 0, fails the script too.
tap_add() {
	tap_n=$((tap_n + $(grep -cE '^(not )?ok ' "$1")))
	tap_failed=$((tap_failed + $(grep -c '^not ok ' "$1")))
	[ "$2" -eq 0 ] || tap_failed=$((tap_failed + 1))
}

# tap_done: the plan; the status is 0 only if nothing failed.
tap_done() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}
