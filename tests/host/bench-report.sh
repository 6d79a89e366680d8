#!/bin/sh
# make bench's gate (tests/bench/report.py): a missed target fails the run
# and leaves docs/BENCHMARKS.md alone; met targets pass and update it;
# --allow-missed reports a miss without failing, and still leaves the
# document alone. Console logs are made up here with per-call figures only:
# what is judged is the report, not the kernel. TAP on stdout.
#
# usage: bench-report.sh <repository>
set -u

repo=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"

# console <dir> <gpuprio_get ns>: one boot, three rounds; every peer 1000 ns
console() {
	mkdir -p "$1/on-1"
	for r in 0 1 2; do
		for op in getpriority ioprio_get setpriority_same \
			ioprio_set_same setpriority_alt ioprio_set_alt \
			timerslack_pread timerslack_open; do
			echo "@@BENCH percall $op - $r 1000"
		done
		for op in gpuprio_set_same gpuprio_set_alt gpu_nice_pread \
			gpu_nice_open; do
			echo "@@BENCH percall $op - $r 1000"
		done
		echo "@@BENCH percall gpuprio_get - $r $2"
	done > "$1/on-1/console.log"
}

# check <name> <gpuprio_get ns> <want exit> <want doc changed: yes/no> [opt]
check() {
	dir=$tmp/$1
	console "$dir" "$2"
	printf '%s\n' '# bench' '<!-- bench:begin -->' 'old' \
		'<!-- bench:end -->' > "$dir/doc.md"
	cp "$dir/doc.md" "$dir/doc.orig"
	"$repo/tests/bench/report.py" "$dir" --doc "$dir/doc.md" ${5:+"$5"} \
		> "$dir/out" 2>&1
	rc=$?
	if cmp -s "$dir/doc.md" "$dir/doc.orig"; then changed=no; else changed=yes; fi
	if [ "$rc" -eq "$3" ] && [ "$changed" = "$4" ]; then
		ok "$1: exit $rc, document changed: $changed"
	else
		not_ok "$1: exit $rc (want $3), document changed: $changed (want $4)"
		tap_diag "$dir/out"
	fi
}

check "every target met" 1050 0 yes
check "gpuprio_get 1.20x its peer fails" 1200 1 no
check "a miss allowed by --allow-missed is reported" 1200 0 no --allow-missed
grep -q 'bench: FAILED, 1 target(s) missed' \
	"$tmp/gpuprio_get 1.20x its peer fails/out"
tap_result $? "the miss is named in the output"
tap_done
