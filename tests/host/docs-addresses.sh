#!/bin/sh
# What the documents and the package metadata tell users about reporting:
# no sentence sends them to a tracker or an address that does not exist, no
# placeholder address (example domains, .invalid, noreply) is left in them,
# the gpunice package names its builder rather than a fixed maintainer, and
# the README and gpunice(1) say to attach the make hw-report file. TAP on
# stdout.
#
# usage: docs-addresses.sh <repository>
set -u

repo=$1
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
# check DESCRIPTION STATUS [what failed]
check() {
	printf '%s\n' "${3:-}" > "$tmp_diag"
	tap_result "$2" "$1" "$tmp_diag"
}
tmp_diag=$(mktemp)
trap 'rm -f "$tmp_diag"' EXIT

# The documents users read: the README, docs/, the man pages, the kernel
# documentation the series adds, and the gpunice package's metadata and
# the tool's own text. (The patches' author identity is not a document.)
cd "$repo" || exit 1
files=$( { git ls-files README.md docs man Documentation tools/gpunice \
	2>/dev/null || find README.md docs man Documentation tools/gpunice \
	-type f; } | grep -vE '\.(png|jpg)$')

# grep_docs ERE: the matching lines of those files, case-insensitive.
grep_docs() {
	# shellcheck disable=SC2086 # one word a file
	grep -nHiE -- "$1" $files 2>/dev/null
}

hits=$(grep_docs 'issue tracker|bug tracker|mailing list|(send|report|mail)[^.]* to the (gpunice )?project')
check "no sentence points to a tracker, list or project address" \
	"$([ -z "$hits" ]; echo $?)" "$hits"

hits=$(grep_docs '[a-z0-9._%+-]+@([a-z0-9-]+\.)*(example|invalid|test|localhost|localdomain)([^a-z0-9.-]|$)|@example\.(com|org|net)|noreply|no-reply')
check "no placeholder address (example domains, .invalid, noreply)" \
	"$([ -z "$hits" ]; echo $?)" "$hits"

# The package template is filled at build time (scripts/make-tool-deb.sh).
grep -qx 'Maintainer: @MAINTAINER@' tools/gpunice/debian/control
check "the gpunice package's Maintainer is filled in by its builder" $?
grep -q '^ -- @MAINTAINER@  ' tools/gpunice/debian/changelog
check "so is its changelog's signature" $?

grep -q 'make hw-report' README.md && grep -qi 'attach' README.md
check "README: attach the make hw-report file" $?
sed -n '/^\.SH REPORTING BUGS/,/^\.SH /p' man/man1/gpunice.1 |
	grep -q 'hw\\-report'
check "gpunice(1) REPORTING BUGS: attach the make hw-report file" $?
tap_done
