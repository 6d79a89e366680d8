#!/bin/sh
# The host suites of make check: every executable tests/host/suites/NN-name,
# in order, run from the repository with KTREE, HEADERS and GPUNICE_OUT in
# its environment (the contract: tests/README.md). Each one's TAP goes
# to <results>/host-<name>.tap, which tests/summarize.py counts.
#
# usage: run-host.sh <results> <pristine kernel tree> <gpunice build dir>
#        [suite ...]
# Naming suites (as NN-name or name) runs only those.
set -u

[ $# -ge 3 ] || {
	echo "usage: run-host.sh <results> <pristine kernel tree>" \
		"<gpunice build dir> [suite ...]" >&2
	exit 2
}
results=$(realpath -m "$1")
KTREE=$(realpath -m "$2")
GPUNICE_OUT=$(realpath -m "$3")
HEADERS=$(dirname "$KTREE")/headers/include
export KTREE GPUNICE_OUT HEADERS
shift 3
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$results"
cd "$repo" || exit 1

wanted() {
	[ $# -gt 1 ] || return 0
	s=$1
	shift
	for w; do
		[ "$w" = "$s" ] || [ "$w" = "${s#[0-9][0-9]-}" ] && return 0
	done
	return 1
}

for suite in tests/host/suites/[0-9][0-9]-*; do
	s=${suite##*/}
	wanted "$s" "$@" || continue
	name=${s#[0-9][0-9]-}
	# A suite that never ends its TAP fails: its result starts as one.
	echo "not ok 1 host-$name did not run to the end" \
		> "$results/host-$name.tap"
	"$suite" > "$results/host-$name.tap.part" 2>&1
	mv "$results/host-$name.tap.part" "$results/host-$name.tap"
done
exit 0
