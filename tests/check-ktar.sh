#!/bin/sh
# KTAR_6_12= with an upstream tarball, not Debian's linux-source-6.12: the
# series applies to the kernel.org release (tests/fetch-upstream-6.12.sh
# gets one), the test kernel builds from it, make patches proves the series
# with git am and checkpatch on it, and the guest's core suites pass on
# that kernel. TAP on stdout; build logs in <out dir>.
#
# Before 6.12.114, drm_sched_init() has no struct drm_sched_init_args (the
# stable update "drm/sched: Use struct for drm_sched_init() params"), which
# the series' drm_sched and amdgpu KUnit tests use: on such a release the
# kernel is built without them (configs/before-6.12.114.config), and the
# check says so.
#
# usage: check-ktar.sh <out dir> <initramfs>
# KTAR_UPSTREAM names a tarball to use instead of fetching one.
set -u
[ $# -eq 2 ] || { echo "usage: check-ktar.sh <out dir> <initramfs>" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd) initrd=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
make=${MAKE:-make}
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"

ktar=${KTAR_UPSTREAM:-}
if [ -z "$ktar" ]; then
	ktar=$("$repo/tests/fetch-upstream-6.12.sh" "$out/tarball" \
		2>"$out/fetch.log")
fi
if [ -z "$ktar" ] || [ ! -r "$ktar" ]; then
	not_ok "ktar: an upstream 6.12 tarball"
	tap_diag "$out/fetch.log"
	tap_done
	exit 1
fi
ok "ktar: an upstream 6.12 tarball: ${ktar##*/}"

# The release the tarball holds, from its top Makefile.
release=$(tar -xOJf "$ktar" --wildcards '*/Makefile' --no-wildcards-match-slash |
	awk '/^VERSION =/ { v = $3 } /^PATCHLEVEL =/ { p = $3 }
	     /^SUBLEVEL =/ { print v "." p "." $3; exit }')
build=$out/build
extra='' without=''
sublevel=${release##*.}
if [ "${release%.*}" = 6.12 ] && [ "$sublevel" -lt 114 ]; then
	extra=configs/before-6.12.114.config
	without=" (without the drm_sched and amdgpu KUnit tests: they need 6.12.114)"
fi
$make -C "$repo" --no-print-directory kernel OUT="$build" LINE=6.12 \
	KTAR_6_12="$ktar" KCONFIG_EXTRA="$extra" >"$out/kernel.log" 2>&1
status=$?
tail -n 40 "$out/kernel.log" >"$out/kernel.tail"
tap_result $status "ktar: the series applies to $release and the test kernel builds$without" \
	"$out/kernel.tail"
build=$build/6.12
[ "$($make -s -C "$build/linux" kernelversion 2>/dev/null)" = "$release" ]
tap_result $? "ktar: the kernel built is $release, the tarball's release"

$make -C "$repo" --no-print-directory patches OUT="${build%/6.12}" \
	LINE=6.12 KTAR_6_12="$ktar" >"$out/patches.log" 2>&1
tap_result $? "ktar: make patches on $release: git am, checkpatch, kernel-doc" \
	"$out/patches.log"

GUEST_APPEND="gpunice.suites=10-gpuprio-selftest,20-gpunice" \
	"$repo/tests/run-guest.sh" "$build/linux/arch/x86/boot/bzImage" \
	"$initrd" "$out/guest" >"$out/guest.log" 2>&1
"$repo/tests/summarize.py" "$out/guest" >"$out/guest.summary" 2>&1
tap_result $? "ktar: the kselftests and gpunice pass on $release" \
	"$out/guest.summary"
tap_done
