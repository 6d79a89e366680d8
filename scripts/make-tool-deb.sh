#!/bin/sh
# Build the gpunice package: the tool, its man pages, bash, zsh and fish
# completion and <gpuprio.h>, gpuprio-broker with its unit, D-Bus and polkit
# files, staged with 'make install DESTDIR=' and packed with dpkg-deb. It
# depends on libc6 and libsystemd0 (sd-bus) and works on any kernel: without the feature
# the tool says so (it probes /proc/self/gpu_nice before any system call).
#
# usage: make-tool-deb.sh <build dir> <output dir>
#
# Maintainer: Debian policy (5.6.2) wants a name and an address. The
# project has no mailing address, and a package built here is maintained
# by whoever built it: the field names that person, by the rule the
# kernel's own bindeb-pkg applies to the linux-image package built next to
# it (scripts/package/mkdebian): DEBFULLNAME and DEBEMAIL when set, else
# the user at the build host. Set both before giving the package to others.
set -eu

mkdir -p "$1" "$2"
# make -C changes directory: DESTDIR and O must be absolute.
build=$(cd "$1" && pwd) outdir=$(cd "$2" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^# define GPUNICE_VERSION "\(.*\)"$/\1/p' \
	"$repo/tools/gpunice/gpunice.c")
arch=$(dpkg --print-architecture)
stage=$build/stage
user=${KBUILD_BUILD_USER:-$(id -nu)}
if [ -n "${DEBEMAIL:-}" ]; then
	email=$DEBEMAIL
else
	email=$user@${KBUILD_BUILD_HOST:-$(hostname -f 2>/dev/null || hostname)}
fi
maintainer="${DEBFULLNAME:-$user} <$email>"
# As a sed replacement: its |, & and \ taken literally.
maintainer=$(printf '%s' "$maintainer" | sed 's/[|&\\]/\\&/g')
doc=$stage/usr/share/doc/gpunice

rm -rf "${build:?}"/*
echo "  DEB     gpunice $version ($arch)"

# Debian's hardening flags, all of them (lintian checks for them).
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
# BROKER=1: without libsystemd-dev the build fails rather than leave
# gpuprio-broker and gpunice --ask out.
make -s -C "$repo/tools/gpunice" O="$build" BROKER=1 \
	CFLAGS="$(dpkg-buildflags --get CFLAGS) -Werror" \
	CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)" \
	LDFLAGS="$(dpkg-buildflags --get LDFLAGS)" "$build/gpunice"
# Debian's zsh reads vendor-completions, not site-functions.
make -s -C "$repo/tools/gpunice" O="$build" DESTDIR="$stage" PREFIX=/usr \
	ZSHCOMPDIR=/usr/share/zsh/vendor-completions \
	BROKER=1 CFLAGS="$(dpkg-buildflags --get CFLAGS) -Werror" \
	CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)" \
	LDFLAGS="$(dpkg-buildflags --get LDFLAGS)" install >/dev/null
strip --remove-section=.comment --remove-section=.note \
	--strip-unneeded "$stage/usr/bin/gpunice" "$stage/usr/sbin/gpuprio-broker"
find "$stage/usr/share/man" -type f -exec gzip -9n {} +

mkdir -p "$doc"
sed -e "s/@VERSION@/$version/" -e "s|@MAINTAINER@|$maintainer|" \
	"$repo/tools/gpunice/debian/changelog" |
	gzip -9n >"$doc/changelog.gz"
cp "$repo/tools/gpunice/debian/copyright" "$doc/copyright"
chmod 644 "$doc/changelog.gz" "$doc/copyright"
find "$stage" -type d -exec chmod 755 {} +

# The lowest libc6 that has every versioned symbol the tool uses.
glibc=$(objdump -T "$stage/usr/bin/gpunice" "$stage/usr/sbin/gpuprio-broker" |
	sed -n 's/.*GLIBC_\([0-9][0-9.]*\).*/\1/p' | sort -uV | tail -n 1)
# And the lowest libsystemd0 that has every sd-bus symbol they use.
libsystemd=$(objdump -T "$stage/usr/bin/gpunice" \
	"$stage/usr/sbin/gpuprio-broker" |
	sed -n 's/.*LIBSYSTEMD_\([0-9][0-9]*\).*/\1/p' | sort -un | tail -n 1)

mkdir -p "$stage/DEBIAN"
(cd "$stage" && find usr -type f -exec md5sum {} + | sort -k 2) \
	>"$stage/DEBIAN/md5sums"
chmod 644 "$stage/DEBIAN/md5sums"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" \
	-e "s/@GLIBC@/$glibc/" -e "s/@LIBSYSTEMD@/$libsystemd/" -e "s|@MAINTAINER@|$maintainer|" \
	-e "s/@SIZE@/$(du -sk --exclude=DEBIAN "$stage" | cut -f1)/" \
	"$repo/tools/gpunice/debian/control" >"$stage/DEBIAN/control"

deb=$outdir/gpunice_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "  DEB     $deb"
