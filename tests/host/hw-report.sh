#!/bin/sh
# The checks are strings for eval: their $ expand there, not here, and
# rc is read there.
# shellcheck disable=SC2016,SC2034
# make hw-report (scripts/hw-report.sh) on the host, a machine without the
# feature: it writes its file under a seccomp filter that kills it at the
# first gpuprio system call (tests/host/nosys-guard.c), and on a made-up
# /sys with an i915 GPU it names the GPU, its driver and GuC mode, and does
# not run hwbench on a kernel without GPU priorities. The guest checks a
# kernel with them (tests/guest/suites/80-hw-report). TAP on stdout.
#
# usage: hw-report.sh <repository> <kernel headers>
# The guard forbids the numbers of the test kernel's installed uapi headers
# (make headers: out/headers/include), the one place the tests take them.
set -u

repo=$1 headers=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
# check DESCRIPTION EXPRESSION: the report as diagnostics on failure.
check() { eval "$2"; tap_result $? "$1" "$tmp/report"; }
has() { check "$2" "grep -qE -- '$1' '$tmp/report'"; }

guard=$tmp/nosys-guard
cc -Wall -Wextra -O2 -isystem "$headers" -o "$guard" \
	"$repo/tests/host/nosys-guard.c" 2>"$tmp/report" || guard=
check "nosys-guard builds with the numbers of $headers" '[ -n "$guard" ]'

"${guard:-false}" "$repo/scripts/hw-report.sh" -o "$tmp/report" \
	-b "$tmp/no-hwbench" 2>"$tmp/err"
rc=$?
check "writes its report with no gpuprio system call (exit 0, not 159)" \
	'[ $rc -eq 0 ] && [ -s "$tmp/report" ] && [ ! -s "$tmp/err" ]'
has "^release: $(uname -r | sed 's/[.+]/\\&/g')\$" "the kernel release"
has '^CONFIG_GPUPRIO: ' "the kernel's CONFIG_GPUPRIO"
if [ -e /proc/self/gpu_nice ]; then
	has '^gpu_nice: yes ' "says the kernel has GPU priorities"
else
	has '^gpu_nice: no ' "says the kernel has no GPU priorities"
fi
for s in "kernel" "GPUs" "display controllers" "DRM clients" \
	"effective priorities" "hwbench"; do
	has "^== $s" "a section: $s"
done

# A made-up /sys: an Intel GPU on i915 with its connector, GuC mode 3, and
# an audio device that is not a GPU.
sys=$tmp/sys
pci=$sys/devices/pci0000:00
mkdir -p "$pci/0000:00:02.0" "$pci/0000:00:1f.3" "$sys/bus/pci/devices" \
	"$sys/bus/pci/drivers/i915" "$sys/bus/pci/drivers/snd_hda_intel" \
	"$sys/class/drm/card0" "$sys/class/drm/card0-DP-1" \
	"$sys/class/drm/renderD128" "$sys/module/i915/parameters"
echo 3 >"$sys/module/i915/parameters/enable_guc"
mkdir -p "$sys/kernel/debug/dri/0"
echo "i915 dev=0000:00:02.0 unique=0000:00:02.0" >"$sys/kernel/debug/dri/0/name"
dev() { # dev ADDRESS CLASS DEVICE DRIVER
	d=$pci/$1
	echo "$2" >"$d/class"
	echo 0x8086 >"$d/vendor"
	echo "$3" >"$d/device"
	echo 0x1028 >"$d/subsystem_vendor"
	echo 0x0b1a >"$d/subsystem_device"
	echo 0x0c >"$d/revision"
	ln -s "../../../bus/pci/drivers/$4" "$d/driver"
	ln -s "../../../devices/pci0000:00/$1" "$sys/bus/pci/devices/$1"
}
dev 0000:00:02.0 0x030000 0x46a6 i915
dev 0000:00:1f.3 0x040380 0x51c8 snd_hda_intel
for c in card0 card0-DP-1 renderD128; do
	ln -s "../../../devices/pci0000:00/0000:00:02.0" "$sys/class/drm/$c/device"
done
cat >"$tmp/hwbench" <<EOF
#!/bin/sh
echo ran >"$tmp/hwbench-ran"
echo "foreground: made-up hwbench output"
EOF
chmod +x "$tmp/hwbench"

HW_REPORT_SYS=$sys "${guard:-false}" "$repo/scripts/hw-report.sh" \
	-o "$tmp/report" -b "$tmp/hwbench" 2>"$tmp/err"
rc=$?
check "with an i915 GPU in /sys: exit 0" '[ $rc -eq 0 ] && [ ! -s "$tmp/err" ]'
has '^card0: driver i915, device 0000:00:02\.0, PCI 0x8086:0x46a6, DRM driver i915$' \
	"the GPU, its drivers and PCI IDs from /sys/class/drm and debugfs"
has '^renderD128: driver i915, device 0000:00:02\.0, PCI 0x8086:0x46a6$' \
	"its render node (no debugfs of its own)"
check "a connector is not a GPU" "! grep -q '^card0-DP-1' '$tmp/report'"
has '^0000:00:02\.0: class 0x030000, vendor 0x8086, device 0x46a6, subsystem 0x1028:0x0b1a, revision 0x0c, driver i915$' \
	"the display controller from /sys/bus/pci"
check "a device of another class is left out" \
	"! grep -q '^0000:00:1f\\.3' '$tmp/report'"
has '^i915 enable_guc: 3$' "i915's GuC mode"
if [ -e /proc/self/gpu_nice ]; then
	has '^foreground: made-up hwbench output$' "hwbench's output is in it"
else
	has '^hwbench: not run: this kernel has no GPU priorities$' \
		"hwbench is not run on a kernel without GPU priorities"
	check "hwbench was not started" '[ ! -e "$tmp/hwbench-ran" ]'
fi

# make hw-report writes $(OUT)/hw-report.txt.
make -s --no-print-directory -C "$repo" hw-report OUT="$tmp/out" \
	>"$tmp/make.out" 2>&1
check "make hw-report writes OUT/hw-report.txt" \
	'grep -q "^release: " "$tmp/out/hw-report.txt" &&
	grep -q "hw-report.txt: attach it" "$tmp/make.out"'
tap_done
