#!/bin/sh
# Install the Debian packages that every target of the Makefile needs, if
# missing: `sudo make deps` once, and any later target runs as a user.
#
# usage: install-deps.sh [--list] [package ...]
#
# Packages named on the command line are needed too. --list prints the
# packages it would check, one a line (a "?" marks one that is skipped
# where the distribution does not have it), and does nothing else.
#
# KTAR names the kernel source (the Makefile passes its own): Debian's
# linux-source-6.12 is needed only when KTAR is that package's tarball,
# the default. Without root it installs nothing: it prints "missing: ..."
# and fails, so that the user knows what to run.
set -euf	# -f: "rpmlint?" is a name, not a pattern

debian_ktar=/usr/src/linux-source-6.12.tar.xz
ktar=${KTAR:-$debian_ktar}

# What needs what. A package ending in "?" is optional: where the
# distribution has no such package, the target that uses it skips that step.
pkgs="
	gcc g++ make flex bison bc libelf-dev libssl-dev cpio xz-utils
	patch perl python3 rsync kmod ccache pkg-config
	qemu-system-x86 busybox-static strace
	mandoc groff-base shellcheck python3-ply python3-git
	libdrm-dev
	gcc-aarch64-linux-gnu
	gnuplot-nox
	dpkg-dev debhelper fakeroot lintian
	rpm rpmlint?
	makepkg pacman-package-manager libarchive-tools zstd
	systemd
"
# kernel builds; the guest tests; make tool's tests and checkpatch;
# make hwbench; check-arm64; the plots of demo, bench and effect; the
# packages of make deb, rpm and pacman and their checks; systemd-analyze
# for the examples' check.
[ "$ktar" = "$debian_ktar" ] && pkgs="linux-source-6.12 $pkgs"
list=
if [ $# -gt 0 ] && [ "$1" = --list ]; then
	list=1
	shift
fi
pkgs="$pkgs $*"

if [ -n "$list" ]; then
	# shellcheck disable=SC2086 # one package a line
	printf '%s\n' $pkgs
	exit 0
fi

if [ "$ktar" != "$debian_ktar" ] && [ ! -r "$ktar" ]; then
	echo "install-deps: warning: KTAR=$ktar does not exist yet" >&2
fi

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null |
		grep -q "install ok installed"
}
# Whether the package lists know a version of the package to install.
available() {
	apt-cache policy "$1" 2>/dev/null |
		sed -n 's/^ *Candidate: //p' | grep -qv '^(none)$'
}

missing=''
optional_missing=''
for p in $pkgs; do
	case $p in
	*\?)	p=${p%\?}
		installed "$p" || optional_missing="$optional_missing $p" ;;
	*)	installed "$p" || missing="$missing $p" ;;
	esac
done

# An optional package that the lists do not have is left out; without root
# the lists may be old, but what they know is still the best guess.
skipped=
for p in $optional_missing; do
	if available "$p"; then
		missing="$missing $p"
	else
		skipped="$skipped $p"
	fi
done
[ -n "$skipped" ] &&
	echo "install-deps: not in this distribution, skipped:$skipped" >&2
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing:$missing" >&2
	again="sudo make deps"
	[ "$ktar" = "$debian_ktar" ] || again="$again KTAR=$ktar"
	echo "install-deps: install them as root: $again" \
		"(or sudo apt-get install$missing)" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || true
unknown=
for p in $missing; do
	available "$p" || unknown="$unknown $p"
done
if [ -n "$unknown" ]; then
	echo "install-deps: missing, and not in this system's package" \
		"lists:$unknown" >&2
	case " $unknown " in
	*" linux-source-6.12 "*)
		echo "install-deps: without Debian's linux-source-6.12, name a" \
			"6.12 tarball from kernel.org: make deps KTAR=/path/to/linux-6.12.N.tar.xz" >&2 ;;
	esac
	exit 1
fi
echo "  APT     installing:$missing"
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
