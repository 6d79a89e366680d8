#!/bin/sh
# make tool and the gpunice package as a package build runs them: an
# unprivileged user whose home does not exist (Debian's build daemons:
# nobody, HOME=/nonexistent). Nothing may need a writable home, ccache
# included, even when the caller's PATH already has ccache's masquerading
# gcc first (as make check's own PATH does). TAP on stdout; needs root to
# become that user, and skips without it.
#
# usage: tool-unprivileged.sh <repository>
set -u

repo=$1
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"
if [ "$(id -u)" -ne 0 ]; then
	for what in "make tool" "gpunice package" "gpunice rpm" \
		"gpunice pacman package"; do
		skip "$what as nobody" "needs root to switch user"
	done
	tap_done
	exit
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The tracked files only: a copy of out/ would hide what the build creates.
(cd "$repo" && git ls-files -z | xargs -0 cp --parents -t "$tmp")
chown -R nobody "$tmp"
# as_nobody NAME COMMAND: one test, COMMAND run in the copy as nobody.
as_nobody() {
	if su nobody -s /bin/sh -c "cd '$tmp' && HOME=/nonexistent \
		PATH=/usr/lib/ccache:\$PATH $2" >"$tmp/log" 2>&1; then
		ok "$1 as nobody with HOME=/nonexistent"
	else
		not_ok "$1 as nobody with HOME=/nonexistent"
		tail -n 20 "$tmp/log" | sed 's/^/# /'
	fi
}
as_nobody "make tool" "make tool"
# The gpunice package as make deb builds it (scripts/make-tool-deb.sh).
as_nobody "gpunice package" "scripts/make-tool-deb.sh out/deb/gpunice-build \
	out/deb && dpkg-deb --field out/deb/gpunice_*.deb Package"
# And as make rpm and make pacman build them.
as_nobody "gpunice rpm" "scripts/make-tool-rpm.sh out/rpm/gpunice-build \
	out/rpm && rpm -qp out/rpm/gpunice-[0-9]*.rpm"
as_nobody "gpunice pacman package" "scripts/make-tool-pacman.sh \
	out/pacman/gpunice-build out/pacman &&
	pacman -Qip out/pacman/gpunice-[0-9]*.pkg.tar.zst"
tap_done
