#!/bin/sh
# make tool as a package build runs it: an unprivileged user whose home does
# not exist (Debian's build daemons: nobody, HOME=/nonexistent). Nothing may
# need a writable home, ccache included, even when the caller's PATH already
# has ccache's masquerading gcc first (as make check's own PATH does). TAP on
# stdout; needs root to become that user, and skips without it.
#
# usage: tool-unprivileged.sh <repository>
set -u

repo=$1
if [ "$(id -u)" -ne 0 ]; then
	echo "ok 1 make tool as nobody # SKIP needs root to switch user"
	echo "1..1"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The tracked files only: a copy of out/ would hide what the build creates.
(cd "$repo" && git ls-files -z | xargs -0 cp --parents -t "$tmp")
chown -R nobody "$tmp"
if su nobody -s /bin/sh -c \
	"cd '$tmp' && HOME=/nonexistent PATH=/usr/lib/ccache:\$PATH make tool" \
	>"$tmp/log" 2>&1; then
	echo "ok 1 make tool as nobody with HOME=/nonexistent"
else
	echo "not ok 1 make tool as nobody with HOME=/nonexistent"
	tail -n 20 "$tmp/log" | sed 's/^/# /'
fi
echo "1..1"
