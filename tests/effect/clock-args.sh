#!/bin/sh
# Kernel arguments that give a QEMU TCG guest a TSC clock and with it
# high-resolution timers, for the guests that time GPU jobs (make effect,
# make demo's last step); prints nothing under KVM, where the guest's own
# calibration works.
#
# Under TCG the guest's TSC runs at the host's TSC rate (QEMU reads the
# host's), but the guest calibrates it against its emulated PIT, and on a
# loaded host that fails ("Unable to calibrate against PIT"); the clock is
# then jiffies, every time a multiple of 4 ms. Or the clocksource watchdog
# later sees the TSC skew against the late ticks and drops it. So: the
# host's TSC frequency, and no watchdog on a TSC that is the host's clock.
# "cpu MHz" is the TSC's rate on hosts with a constant TSC (and on virtual
# machines); where it is a momentary CPU clock the guest's time runs off by
# as much, alike for frame periods and job lengths, so the ratios hold.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"
if host_has_kvm; then
	exit 0
fi
khz=$(awk '/^cpu MHz/ { printf "%d", $4 * 1000; exit }' /proc/cpuinfo)
[ -n "$khz" ] && [ "$khz" -gt 0 ] && printf 'tsc_early_khz=%s ' "$khz"
echo "tsc=reliable"
