#!/bin/sh
# Build a linux-image package of Debian's kernel source of a line (6.12 or
# 7.3, as <pristine dir> is) with that line's series applied, with the kernel's own 'make bindeb-pkg', in a tree of its own
# (never the QEMU test kernel's).
#
# usage: make-deb.sh <linux-source tarball> <pristine dir> <tree dir> <config>
#
# <config> is a full kernel config, by default the running system's
# /boot/config-$(uname -r). The packages land next to <tree dir>.
# JOBS: parallel jobs. KDEB_DEBUG_INFO=1 keeps the config's debug info
# (a linux-image-*-dbg package, hours more, many GB more). DEB_CONFIG_ONLY=1
# stops once the config is made, to read it before hours of building.
# A config ending in .gz (/proc/config.gz) is uncompressed first.
# KPKG: the package format, with the kernel's own target for it: deb
# (bindeb-pkg, the default), rpm (binrpm-pkg: kernel-<release>) or pacman
# (pacman-pkg: linux-gpuprio; makepkg does not run as root).
# LOCALMODCONFIG=1 keeps only the modules loaded on this machine (the
# kernel's make localmodconfig), or on the machine whose lsmod output the
# file LSMOD names; LMC_KEEP as in the kernel's make help.
set -eu

tarball=$1 pristine=$2 tree=$3 config=$4
repo=$(cd "$(dirname "$0")/.." && pwd)
outdir=$(dirname "$tree")
jobs=${JOBS:-$(nproc)}
kpkg=${KPKG:-deb}
tag=$(echo "$kpkg" | tr "[:lower:]" "[:upper:]")

step() { printf '  %-7s [%s/4] %s\n' "$tag" "$1" "$2"; }

case $kpkg in
deb|rpm) ;;
pacman)	if [ "$(id -u)" -eq 0 ] && [ -z "${DEB_CONFIG_ONLY:-}" ]; then
		echo "make-deb: makepkg refuses to run as root: make pacman" \
			"as a user (sudo make deps first)" >&2
		exit 1
	fi ;;
*)	echo "make-deb: KPKG=$kpkg: not a package format (deb, rpm, pacman)" >&2
	exit 1 ;;
esac

if [ ! -r "$config" ]; then
	echo "make-deb: cannot read the kernel config '$config';" \
		"name one with KCONFIG_DEB=<file>" >&2
	exit 1
fi

conf_text() { case $config in *.gz) zcat "$config" ;; *) cat "$config" ;; esac; }
modules=$(conf_text | grep -c '=m$' || true)
[ "$modules" = 1 ] && modules="1 module" || modules="$modules modules"
# The kernel that wrote the config (scripts/config-line.sh reads it).
from=$("$repo/scripts/config-line.sh" "$config" 2>/dev/null | cut -d' ' -f2)
cat <<EOF
  $(printf %-7s "$tag") kernel package ($kpkg) from $config ($modules)
          and the series, local version -gpuprio, packages in $outdir
  $(printf %-7s "$tag") Expect for a distribution config (thousands of modules, debug
          info off) about 3 to 6 hours on 2 cores and some 20 GB in
          $tree (an estimate, not measured); a small config such as
          the test kernel's takes minutes.
EOF

mkdir -p "$outdir"
"$repo/scripts/sync-tree.sh" "$tarball" "$pristine" "$tree"
# The line (6.12 or 7.3), read from the source rather than assumed.
line=$(make -s -C "$tree" kernelversion | cut -d. -f1,2)
step 1 "source: Debian's $line with the series ($tree)"

step 2 "config: $config + CONFIG_GPUPRIO=y, LOCALVERSION=-gpuprio"
case $from in
"$line".*) ;;
*)	echo "          the config is from Linux ${from:-unknown}: olddefconfig" \
		"drops what $line does not"
	echo "          know and gives defaults to what the config does not set" ;;
esac
# Sources older than the config's kernel (a 6.18 config on 6.12) drop
# what the source does not know and take defaults for the rest: olddefconfig.
conf_text >"$tree/.config"
cfg() { "$tree/scripts/config" --file "$tree/.config" "$@"; }
# Debian's configs name certificates of Debian's own build tree: cleared.
cfg --enable GPUPRIO --set-str LOCALVERSION -gpuprio \
	--disable LOCALVERSION_AUTO \
	--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS ""
profiles=
if [ -z "${KDEB_DEBUG_INFO:-}" ]; then
	profiles=-Ppkg.linux-upstream.nokerneldbg
	cfg --disable DEBUG_INFO --disable DEBUG_INFO_DWARF4 \
		--disable DEBUG_INFO_DWARF5 \
		--disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT \
		--disable DEBUG_INFO_BTF --enable DEBUG_INFO_NONE
fi
make -s -C "$tree" olddefconfig >/dev/null
if ! grep -qx 'CONFIG_GPUPRIO=y' "$tree/.config"; then
	# Its prompt is only visible with EXPERT, should the default change.
	cfg --enable EXPERT --enable GPUPRIO
	make -s -C "$tree" olddefconfig >/dev/null
fi
if [ -n "${LOCALMODCONFIG:-}" ]; then
	if [ -n "${LSMOD:-}" ]; then
		[ -r "$LSMOD" ] || {
			echo "make-deb: cannot read LSMOD=$LSMOD, the lsmod" \
				"output of the machine to build for" >&2
			exit 1
		}
		LSMOD=$(realpath "$LSMOD")
	else
		LSMOD=$tree/.lsmod
		lsmod > "$LSMOD"
	fi
	before=$(grep -c '=m$' "$tree/.config" || true)
	# oldconfig asks about what streamlining turned off: the defaults.
	yes '' | LSMOD=$LSMOD make -s -C "$tree" localmodconfig \
		> "$tree/.localmodconfig.log" 2>&1 || {
		tail -n 20 "$tree/.localmodconfig.log" >&2
		exit 1
	}
	make -s -C "$tree" olddefconfig >/dev/null
	echo "          localmodconfig: $before modules -> $(grep -c '=m$' \
		"$tree/.config" || true), those loaded in $LSMOD"
fi
for want in CONFIG_GPUPRIO=y 'CONFIG_LOCALVERSION="-gpuprio"'; do
	grep -qx "$want" "$tree/.config" || {
		echo "make-deb: the config did not keep $want" >&2
		exit 1
	}
done
# kernelrelease would read the local version of the last build.
release=$(make -s -C "$tree" kernelversion)-gpuprio
if [ -n "${DEB_CONFIG_ONLY:-}" ]; then
	printf '  %-7s %s\n' "$tag" \
		"$tree/.config made for $release (DEB_CONFIG_ONLY)"
	exit 0
fi

start=$(date +%s)
step 3 "build and package $release with $jobs jobs (started $(date +%H:%M))"
# The user space headers stay the distribution's: linux-libc-dev and
# kernel-headers are built (6.12 has no way to leave them out) and moved
# aside; the pacman build leaves out its api-headers.
mkdir -p "$outdir/not-installed"
case $kpkg in
deb)
	rm -f "$outdir"/linux-*.deb "$outdir"/linux-upstream_*
	make -C "$tree" -j"$jobs" bindeb-pkg DPKG_FLAGS="$profiles" \
		KDEB_COMPRESS=xz
	mv "$outdir"/linux-libc-dev_*.deb "$outdir/not-installed/" \
		2>/dev/null || true
	pkgs=$(ls "$outdir"/linux-*.deb) ;;
rpm)
	# rpmbuild checks build dependencies in an rpm database, which
	# Debian's rpm has empty: the kernel's target adds --nodeps then.
	rm -rf "$tree/rpmbuild/RPMS" "$outdir"/kernel-*.rpm \
		"$outdir"/not-installed/kernel-*.rpm
	make -C "$tree" -j"$jobs" binrpm-pkg
	mv "$tree"/rpmbuild/RPMS/*/kernel-*.rpm "$outdir/"
	mv "$outdir"/kernel-headers-*.rpm "$outdir/not-installed/" \
		2>/dev/null || true
	pkgs=$(ls "$outdir"/kernel-*.rpm) ;;
pacman)
	# makepkg checks makedepends in the pacman database: --nodeps,
	# since Debian's is empty (make deps installs the tools).
	rm -f "$outdir"/linux-gpuprio-*.pkg.tar.*
	PACMAN_PKGBASE=linux-gpuprio PACMAN_EXTRAPACKAGES=headers \
	PKGDEST=$outdir PKGEXT=.pkg.tar.zst \
		make -C "$tree" -j"$jobs" pacman-pkg \
		MAKEPKGOPTS="--nodeps --noconfirm --force"
	pkgs=$(ls "$outdir"/linux-gpuprio-*.pkg.tar.zst) ;;
esac

step 4 "done in $(( ($(date +%s) - start) / 60 )) min:"
for p in $pkgs; do
	echo "          $p"
done
