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
# KTAR_7_3 and KTAR_6_12 name each line's kernel source (the Makefile
# passes its own): Debian's linux-source-7.3 is needed only when KTAR_7_3
# is that package's tarball, the default, and linux-source-6.12 only when
# KTAR_6_12 is. linux-source-7.3 is in trixie-backports alone: as root,
# the script adds that suite from the Debian mirror apt already uses, with
# a pin that lets nothing but linux-source-7.3 come from it (APT_ROOT,
# default /, is where etc/apt is). Without root it installs nothing: it prints
# "missing: ..." and fails, so that the user knows what to run.
set -euf	# -f: "rpmlint?" is a name, not a pattern

debian_ktar=/usr/src/linux-source-6.12.tar.xz
ktar=${KTAR_6_12:-$debian_ktar}
debian_ktar73=/usr/src/linux-source-7.3.tar.xz
ktar73=${KTAR_7_3:-$debian_ktar73}
apt_root=${APT_ROOT:-}
bp_suite=trixie-backports
bp_pkg=linux-source-7.3
bp_name=gpunice-$bp_suite
bp_keyring=/usr/share/keyrings/debian-archive-keyring.gpg

# What needs what. A package ending in "?" is optional: where the
# distribution has no such package, the target that uses it skips that step.
pkgs="
	gcc g++ make flex bison bc libelf-dev libssl-dev cpio xz-utils
	patch perl python3 rsync kmod ccache pkg-config
	qemu-system-x86 busybox-static strace
	mandoc groff-base shellcheck python3-ply python3-git
	libdrm-dev libegl-dev libgles-dev libvulkan-dev
	gcc-aarch64-linux-gnu
	gnuplot-nox
	dpkg-dev debhelper fakeroot lintian libdw-dev
	rpm rpmlint?
	makepkg pacman-package-manager libarchive-tools zstd
	systemd bash-completion zsh fish
	libsystemd-dev dbus-daemon dbus-bin polkitd libxml2-utils
"
# kernel builds; the guest tests; make tool's tests and checkpatch;
# make hwbench, gpuprio-tabs and the EGL and Vulkan examples' build
# check; check-arm64; the plots of demo, bench and effect; the
# packages of make deb, rpm and pacman and their checks (the 7.3 line's
# bindeb-pkg build-depends on libdw-dev as well); systemd-analyze
# for the examples' check; bash-completion, zsh and fish for the
# completions' check; gpuprio-broker's build (sd-bus), the bus daemon and
# polkitd its guest suite copies into the initramfs, xmllint for its policy
# files.
[ "$ktar" = "$debian_ktar" ] && pkgs="linux-source-6.12 $pkgs"
[ "$ktar73" = "$debian_ktar73" ] && pkgs="$bp_pkg $pkgs"
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
	echo "install-deps: warning: KTAR_6_12=$ktar does not exist yet" >&2
fi
if [ "$ktar73" != "$debian_ktar73" ] && [ ! -r "$ktar73" ]; then
	echo "install-deps: warning: KTAR_7_3=$ktar73 does not exist yet" >&2
fi

# The Debian mirror that serves this system's own release (its "main"
# component), as apt-cache policy lists it: the backports suite comes
# from the same place.
debian_mirror() {
	codename=$(sed -n "s/^VERSION_CODENAME=//p" /etc/os-release 2>/dev/null)
	[ -n "$codename" ] || return 0
	apt-cache policy 2>/dev/null | awk -v s="$codename/main" \
		'$1 ~ /^[0-9]+$/ && $3 == s && $2 ~ /^[a-z+]+:/ { print $2; exit }'
}

# write FILE: standard input into APT_ROOT/FILE unless it is already that;
# prints the file's name when it changed.
write() {
	f=$apt_root$1
	tmpf=$(mktemp)
	cat >"$tmpf"
	if [ -f "$f" ] && cmp -s "$tmpf" "$f"; then
		rm -f "$tmpf"
		return 0
	fi
	mkdir -p "${f%/*}"
	mv "$tmpf" "$f"
	chmod 644 "$f"
	echo "$f"
}

# The suite and its pin. Backports are NotAutomatic (priority 100) anyway;
# the pin puts everything of the suite at 1 (never installed or upgraded
# unless asked by version) and only linux-source-7.3 at 500.
add_backports() {
	mirror=$(debian_mirror)
	if [ -z "$mirror" ] || [ ! -r "$bp_keyring" ]; then
		echo "install-deps: no Debian mirror in apt's sources: $bp_suite" \
			"not added" >&2
		return 0
	fi
	write "/etc/apt/sources.list.d/$bp_name.sources" <<EOF
# Added by gpunice's scripts/install-deps.sh for $bp_pkg only: see
# /etc/apt/preferences.d/$bp_name.
Types: deb
URIs: $mirror
Suites: $bp_suite
Components: main
Signed-By: $bp_keyring
EOF
	write "/etc/apt/preferences.d/$bp_name" <<EOF
# Added by gpunice's scripts/install-deps.sh: nothing comes from
# $bp_suite but $bp_pkg.
Package: *
Pin: release n=$bp_suite
Pin-Priority: -1

Package: $bp_pkg
Pin: release n=$bp_suite
Pin-Priority: 500
EOF
}

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
# Files that an older version of this script wrote are brought up to date.
if [ "$(id -u)" -eq 0 ] && [ -f "$apt_root/etc/apt/sources.list.d/$bp_name.sources" ] &&
	[ -n "$(add_backports)" ]; then
	echo "  APT     updated the $bp_suite source and pin"
fi
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing:$missing" >&2
	again="sudo make deps"
	[ "$ktar" = "$debian_ktar" ] || again="$again KTAR_6_12=$ktar"
	[ "$ktar73" = "$debian_ktar73" ] || again="$again KTAR_7_3=$ktar73"
	echo "install-deps: install them as root: $again" \
		"(or sudo apt-get install$missing)" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
case " $missing " in
*" $bp_pkg "*)
	[ -n "$(add_backports)" ] && echo "  APT     added $bp_suite for $bp_pkg" ;;
esac
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
			"6.12 tarball from kernel.org: make deps KTAR_6_12=/path/to/linux-6.12.N.tar.xz" >&2 ;;
	esac
	case " $unknown " in
	*" $bp_pkg "*)
		echo "install-deps: without Debian's $bp_pkg, name a" \
			"7.3 tarball from kernel.org: make deps KTAR_7_3=/path/to/linux-7.3.N.tar.xz" >&2 ;;
	esac
	exit 1
fi
echo "  APT     installing:$missing"
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
