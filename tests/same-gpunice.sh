#!/bin/sh
# make check: the 6.12 and the 7.3 guest run the same gpunice binaries,
# byte for byte (one build, mk/guest.mk), so that each guest's suites test
# the very files the other's do: one user space for both kernel lines,
# which number the calls differently. TAP on stdout.
#
# usage: same-gpunice.sh <6.12 guest-bin> <7.3 guest-bin>
set -u
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
for p in gpunice gpuprio-tabs gpuprio-threads; do
	tap_run "$p: the 7.3 guest's is the 6.12 guest's" cmp "$1/$p" "$2/$p"
done
tap_done
