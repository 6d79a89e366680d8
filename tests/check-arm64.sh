#!/bin/sh
# Compile check on arm64 (Debian's cross compiler): the generic syscall
# table, checksyscalls and the core build there. TAP on stdout.
#
# usage: check-arm64.sh <linux tarball> <pristine tree> <arm64 tree>
set -u

tarball=$1 pristine=$2 tree=$3
repo=$(cd "$(dirname "$0")/.." && pwd)
kmake="make -s -C $tree ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- -j$(nproc)"
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"

log=$(mktemp)
trap 'rm -f "$log"' EXIT

"$repo/scripts/sync-tree.sh" "$tarball" "$pristine" "$tree" >&2 || exit 1
if [ ! -f "$tree/.config" ] ||
   [ -n "$(find "$repo/configs/arm64-compile.config" -newer \
	"$tree/.config")" ]; then
	$kmake tinyconfig >/dev/null &&
	(cd "$tree" && ARCH=arm64 scripts/kconfig/merge_config.sh -m -Q \
		.config "$repo/configs/arm64-compile.config" >/dev/null) &&
	$kmake olddefconfig >/dev/null
fi

if grep -qx CONFIG_GPUPRIO=y "$tree/.config"; then
	ok "arm64: tinyconfig with CONFIG_GPUPRIO=y"
else
	not_ok "arm64: tinyconfig with CONFIG_GPUPRIO=y"
	tail -n 30 "$log" | sed 's/^/# /'
fi

echo "  BUILD   arm64 kernel (cross, compile check only)" >&2
if $kmake Image >"$log" 2>&1; then
	ok "arm64: kernel builds"
else
	not_ok "arm64: kernel builds"
	tail -n 30 "$log" | sed 's/^/# /'
fi

if grep -q 'gpuprio' "$log"; then
	not_ok "arm64: no compiler or checksyscalls warning mentions gpuprio"
	tail -n 30 "$log" | sed 's/^/# /'
else
	ok "arm64: no compiler or checksyscalls warning mentions gpuprio"
fi

# The syscall table dispatches the numbers user space gets from the uapi
# header (the generic one on arm64) to the two calls.
hdr=$tree/arch/arm64/include/generated/asm/syscall_table_64.h
uapi=$tree/include/uapi/asm-generic/unistd.h
set_nr=$(sed -n 's/^#define __NR_gpuprio_set \([0-9]*\)$/\1/p' "$uapi")
get_nr=$(sed -n 's/^#define __NR_gpuprio_get \([0-9]*\)$/\1/p' "$uapi")
desc="arm64: syscall table has gpuprio_set at ${set_nr:-?} and gpuprio_get at ${get_nr:-?}, as the uapi header"
if [ -n "$set_nr" ] && [ -n "$get_nr" ] && [ -f "$hdr" ] &&
   grep -q "__SYSCALL($set_nr, sys_gpuprio_set)" "$hdr" &&
   grep -q "__SYSCALL($get_nr, sys_gpuprio_get)" "$hdr"; then
	ok "$desc"
else
	: > "$log"
	not_ok "$desc"
	tail -n 30 "$log" | sed 's/^/# /'
fi

if grep -q ' __arm64_sys_gpuprio_set$' "$tree/System.map" 2>/dev/null &&
   grep -q ' __arm64_sys_gpuprio_get$' "$tree/System.map"; then
	ok "arm64: vmlinux has the syscall entry points"
else
	: > "$log"
	not_ok "arm64: vmlinux has the syscall entry points"
	tail -n 30 "$log" | sed 's/^/# /'
fi
tap_done
