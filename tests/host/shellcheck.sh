#!/bin/sh
# Every shell script of the repository passes shellcheck, sources followed
# (-x): the *.sh files and the executables whose first line names sh or
# bash (guest suites, the guest's init, .ci/run). TAP on stdout.
#
# usage: shellcheck.sh <repository>
set -u

repo=$1
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"
cd "$repo" || exit 1
if ! command -v shellcheck >/dev/null; then
	not_ok "shellcheck is installed (make deps)"
	tap_done
	exit 1
fi

# Tracked files in a clone; every file where there is no git.
list=$(git ls-files 2>/dev/null || find . -type f ! -path './out/*' |
	sed 's|^\./||')
for f in $list; do
	[ -f "$f" ] || continue
	case $f in
	*.sh) ;;
	*)	head -n 1 "$f" | grep -qE '^#! */(usr/)?bin/(env +)?(sh|bash)' ||
			continue ;;
	esac
	tap_run "shellcheck $f" shellcheck -x "$f"
done
tap_done
