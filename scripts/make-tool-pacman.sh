#!/bin/sh
# Build the gpunice pacman package: the tool, its man pages, bash, zsh and
# fish completion and <gpuprio.h>, with makepkg from a PKGBUILD made here,
# which installs them with 'make install DESTDIR=', and gpuprio-broker with
# its unit, D-Bus and polkit files. It depends on glibc and systemd-libs and,
# like the deb (scripts/make-tool-deb.sh), works on any kernel. makepkg
# does not run as root.
#
# usage: make-tool-pacman.sh <build dir> <output dir>
set -eu

if [ "$(id -u)" -eq 0 ]; then
	echo "make-tool-pacman: makepkg refuses to run as root: run it as a" \
		"user" >&2
	exit 1
fi
mkdir -p "$1" "$2"
build=$(cd "$1" && pwd) outdir=$(cd "$2" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^# define GPUNICE_VERSION "\(.*\)"$/\1/p' \
	"$repo/tools/gpunice/gpunice.c")

rm -rf "${build:?}"/*
echo "  PACMAN  gpunice $version"
cat >"$build/PKGBUILD" <<EOF
pkgname=gpunice
pkgver=$version
pkgrel=1
pkgdesc='Show or change the GPU priority of processes'
arch=(\$CARCH)
license=(GPL-2.0-or-later "LGPL-2.1-or-later OR MIT")
depends=(glibc systemd-libs)
options=(!debug)

build() {
	make -s -C "$repo/tools/gpunice" O="$build/o" BROKER=1 \\
		CFLAGS="\$CFLAGS -Werror" LDFLAGS="\$LDFLAGS" "$build/o/gpunice" \\
		"$build/o/gpuprio-broker"
}

package() {
	make -s -C "$repo/tools/gpunice" O="$build/o" DESTDIR="\$pkgdir" \\
		BROKER=1 PREFIX=/usr install
	install -Dm644 "$repo/tools/gpunice/debian/copyright" \\
		"\$pkgdir/usr/share/licenses/gpunice/copyright"
}
EOF
# --nodeps: makepkg checks depends in the pacman database, which on a
# Debian host is empty. The logs, the work tree and the package stay in
# the build and output directories, whoever runs it and whatever HOME.
rm -f "$outdir"/gpunice-[0-9]*.pkg.tar.*
(cd "$build" && HOME=$build BUILDDIR=$build/work PKGDEST=$outdir \
	SRCDEST=$build LOGDEST=$build PKGEXT=.pkg.tar.zst \
	makepkg --nodeps --noconfirm --force >"$build/makepkg.log" 2>&1) || {
	tail -n 20 "$build/makepkg.log" >&2
	exit 1
}
echo "  PACMAN  $(ls "$outdir"/gpunice-[0-9]*.pkg.tar.zst)"
