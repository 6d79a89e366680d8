#!/bin/sh
# drm_sched and its KUnit tests built as modules: the 7.3 line's series,
# whose KUnit suites (drivers/gpu/drm/scheduler/tests/) join upstream's in
# the drm-sched-tests module, must use nothing the kernel does not export
# to it; modpost says so. The test kernel builds them in, where that goes
# unseen. TAP on stdout, the build's last lines as diagnostics.
#
# usage: sched-modules.sh <linux tarball> <pristine tree> <tree>
set -u
[ $# -eq 3 ] || { echo "usage: $0 <tarball> <pristine> <tree>" >&2; exit 2; }
tree=$3
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
kmake="make -C $tree -j${JOBS:-$(nproc)}"

"$repo/scripts/sync-tree.sh" "$1" "$2" "$tree" >"$log" 2>&1
tap_result $? "sched-modules: the 7.3 series syncs into $tree" "$log"
cfg="$repo/configs/gpuprio-test.config $repo/configs/line-7.3.config
     $repo/configs/sched-modules.config"
stale=1
if [ -f "$tree/.config" ]; then
	stale=0
	for f in $cfg; do
		[ -n "$(find "$f" -newer "$tree/.config")" ] && stale=1
	done
fi
# shellcheck disable=SC2086 # $cfg: a list of files
if [ $stale = 1 ]; then
	{ $kmake -s tinyconfig &&
	  (cd "$tree" && scripts/kconfig/merge_config.sh -m -Q .config $cfg) &&
	  $kmake -s olddefconfig; } >"$log" 2>&1
fi
grep -qx CONFIG_DRM_SCHED=m "$tree/.config" &&
	grep -qx CONFIG_DRM_SCHED_KUNIT_TEST=m "$tree/.config"
tap_result $? "sched-modules: config has DRM_SCHED=m DRM_SCHED_KUNIT_TEST=m" \
	"$log"
$kmake -s >"$log" 2>&1
status=$?
tail -n 30 "$log" >"$log.tail"
tap_result $status "sched-modules: gpu-sched and drm-sched-tests build and link as modules (modpost)" \
	"$log.tail"
rm -f "$log.tail"
[ -f "$tree/drivers/gpu/drm/scheduler/tests/drm-sched-tests.ko" ]
tap_result $? "sched-modules: drm-sched-tests.ko was built"
tap_done
