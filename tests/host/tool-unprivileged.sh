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
if [ "$(id -u)" -ne 0 ]; then
	echo "ok 1 make tool as nobody # SKIP needs root to switch user"
	echo "ok 2 gpunice package as nobody # SKIP needs root to switch user"
	echo "ok 3 gpunice rpm as nobody # SKIP needs root to switch user"
	echo "ok 4 gpunice pacman package as nobody # SKIP needs root to switch user"
	echo "1..4"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The tracked files only: a copy of out/ would hide what the build creates.
(cd "$repo" && git ls-files -z | xargs -0 cp --parents -t "$tmp")
chown -R nobody "$tmp"
# as_nobody N NAME COMMAND: one test, COMMAND run in the copy as nobody.
as_nobody() {
	if su nobody -s /bin/sh -c "cd '$tmp' && HOME=/nonexistent \
		PATH=/usr/lib/ccache:\$PATH $3" >"$tmp/log" 2>&1; then
		echo "ok $1 $2 as nobody with HOME=/nonexistent"
	else
		echo "not ok $1 $2 as nobody with HOME=/nonexistent"
		tail -n 20 "$tmp/log" | sed 's/^/# /'
	fi
}
as_nobody 1 "make tool" "make tool"
# The gpunice package as make deb builds it (scripts/make-tool-deb.sh).
as_nobody 2 "gpunice package" "scripts/make-tool-deb.sh out/deb/gpunice-build \
	out/deb && dpkg-deb --field out/deb/gpunice_*.deb Package"
# And as make rpm and make pacman build them.
as_nobody 3 "gpunice rpm" "scripts/make-tool-rpm.sh out/rpm/gpunice-build \
	out/rpm && rpm -qp out/rpm/gpunice-[0-9]*.rpm"
as_nobody 4 "gpunice pacman package" "scripts/make-tool-pacman.sh \
	out/pacman/gpunice-build out/pacman &&
	pacman -Qip out/pacman/gpunice-[0-9]*.pkg.tar.zst"
echo "1..4"
