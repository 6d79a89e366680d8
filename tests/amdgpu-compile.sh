#!/bin/sh
# Compile check of the amdgpu objects the project touches: tinyconfig +
# gpuprio-test.config (+ line-7.3.config on the 7.3 line) +
# amdgpu-compile.config, then each object alone. An object fails on an
# error or on any compiler warning. TAP on stdout, build output of failures
# as TAP comments. tests/amdgpu-kunit.sh then builds the whole tree and runs
# amdgpu's KUnit suites.
#
# usage: amdgpu-compile.sh <tree>                       (tree already synced)
#        amdgpu-compile.sh <linux tarball> <pristine tree> <tree>
# LINE (as make exports it; 7.3 by default): the line's series, config and
# objects.
set -u

repo=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 3 ]; then
	"$repo/scripts/sync-tree.sh" "$1" "$2" "$3" >&2 || exit 1
	tree=$3
elif [ $# -eq 1 ]; then
	tree=$1
else
	echo "usage: $0 <tree> | <tarball> <pristine> <tree>" >&2
	exit 2
fi

amd=drivers/gpu/drm/amd/amdgpu
objs="$amd/amdgpu_ctx.o $amd/amdgpu_cs.o $amd/amdgpu_sched.o $amd/amdgpu_fdinfo.o
      $amd/tests/amdgpu_ctx_prio_test.o"
symbols="CONFIG_GPUPRIO=y CONFIG_DRM_AMDGPU=y
	 CONFIG_DRM_AMDGPU_CTX_PRIO_KUNIT_TEST=y"
line_cfg=
if [ "${LINE:-7.3}" = 7.3 ]; then
	# User-mode queues, and what the 7.3 test kernel leaves off
	objs="$objs $amd/amdgpu_userq.o $amd/tests/amdgpu_userq_prio_test.o"
	symbols="$symbols CONFIG_DRM_AMDGPU_USERQ_PRIO_KUNIT_TEST=y"
	line_cfg="$repo/configs/line-7.3.config"
fi
kmake="make -C $tree -j$(nproc)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"

echo "1..$(($(echo "$objs" | wc -w) + 1))"

# Configure again only when a fragment changed since the last time.
cfg="$repo/configs/gpuprio-test.config $line_cfg
     $repo/configs/amdgpu-compile.config"
fresh=0
if [ -f "$tree/.config" ]; then
	fresh=1
	for f in $cfg; do
		[ -n "$(find "$f" -newer "$tree/.config")" ] && fresh=0
	done
fi
: >"$log"
# shellcheck disable=SC2086 # $cfg: a list of files
if [ $fresh = 0 ]; then
	echo "  CONFIG  $tree" >&2
	$kmake -s tinyconfig >>"$log" 2>&1 &&
	(cd "$tree" && scripts/kconfig/merge_config.sh -m -Q .config $cfg) \
		>>"$log" 2>&1 &&
	$kmake -s olddefconfig >>"$log" 2>&1
fi
missing=
# One line: the symbols, separated by single spaces.
# shellcheck disable=SC2086,SC2116
symbols_line=$(echo $symbols)
for s in $symbols; do
	grep -qx "$s" "$tree/.config" 2>/dev/null || missing="$missing $s"
done
if [ -z "$missing" ]; then
	ok "amdgpu: config has $symbols_line"
else
	echo "missing after olddefconfig:$missing" >>"$log"
	not_ok "amdgpu: config has $symbols_line"
	tail -n 40 "$log" | sed 's/^/# /'
fi

# Remove each object first so that its warnings show on every run.
for o in $objs; do
	rm -f "$tree/$o"
	echo "  BUILD   $o" >&2
	if $kmake "$o" >"$log" 2>&1 && [ -f "$tree/$o" ] &&
	   ! grep -q 'warning:' "$log"; then
		ok "amdgpu: $o builds without warnings"
	else
		not_ok "amdgpu: $o builds without warnings"
		tail -n 40 "$log" | sed 's/^/# /'
	fi
done
[ "$tap_failed" -eq 0 ]
