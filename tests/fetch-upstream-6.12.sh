#!/bin/sh
# An upstream Linux 6.12 tarball for make check-extra's host-ktar: the
# release as kernel.org publishes it, without Debian's patches. kernel.org
# itself is out of reach here, so it comes from Debian's registry as the
# source package's .orig.tar.xz (the kernel.org release, repacked by Debian
# without its non-free files). The newest linux-6.12 version whose orig
# tarball the mirror serves wins; it is kept in <dir> and reused.
#
# usage: fetch-upstream-6.12.sh <dir>   (prints the tarball's path)
set -eu
[ $# -eq 1 ] || { echo "usage: fetch-upstream-6.12.sh <dir>" >&2; exit 2; }
mkdir -p "$1"
dir=$(cd "$1" && pwd)
src=linux-6.12

have=$(find "$dir" -maxdepth 1 -name "${src}_*.orig.tar.xz" | sort -V | tail -n 1)
if [ -n "$have" ]; then
	echo "$have"
	exit 0
fi

# deb-src lines for the mirrors apt already uses for this release and its
# security suite, in a private apt state: the system's lists stay as they
# are. apt-cache policy prints "500 <uri> <suite>/main amd64 Packages".
codename=$(sed -n "s/^VERSION_CODENAME=//p" /etc/os-release 2>/dev/null)
apt_dir=$(mktemp -d)
trap 'rm -rf "$apt_dir"' EXIT
apt-cache policy 2>/dev/null |
	awk -v a="$codename/main" -v b="$codename-security/main" '
		$1 ~ /^[0-9]+$/ && ($3 == a || $3 == b) && $2 ~ /^[a-z+]+:/ &&
		!seen[$2 " " $3]++ {
			split($3, s, "/"); print "deb-src " $2 " " s[1] " main"
		}' > "$apt_dir/sources.list"
if [ ! -s "$apt_dir/sources.list" ]; then
	echo "fetch-upstream-6.12: apt has no Debian mirror for" \
		"'$codename' to take $src's source from" >&2
	exit 1
fi
mkdir -p "$apt_dir/lists/partial"
set -- -o Dir::Etc::sourcelist="$apt_dir/sources.list" \
	-o Dir::Etc::sourceparts=- -o Dir::State::Lists="$apt_dir/lists" \
	-o APT::Sandbox::User="$(id -un)"
apt-get "$@" -qq update >&2 || {
	echo "fetch-upstream-6.12: apt-get update of the source lists failed" >&2
	exit 1
}
versions=$(apt-cache "$@" showsrc "$src" 2>/dev/null |
	sed -n 's/^Version: //p' | sort -Vru)
[ -n "$versions" ] || {
	echo "fetch-upstream-6.12: the mirror lists no source of $src" >&2
	exit 1
}
cd "$apt_dir"
for v in $versions; do
	# A version may be listed whose files the mirror no longer serves.
	apt-get "$@" -qq source --download-only "$src=$v" >/dev/null 2>&1 ||
		continue
	orig=$(find . -maxdepth 1 -name "${src}_*.orig.tar.xz" | head -n 1)
	[ -n "$orig" ] || continue
	mv "$orig" "$dir/"
	echo "$dir/${orig#./}"
	exit 0
done
echo "fetch-upstream-6.12: no version of $src could be fetched" \
	"(tried: $(echo "$versions" | tr '\n' ' '))" >&2
exit 1
