#!/bin/sh
# Boot the test kernel under QEMU and keep its console log.
#
# usage: run-guest.sh [--interactive] <bzImage> <initramfs> <result dir>
#
# The guest powers itself off when its tests are done; a guest that hangs is
# killed after GUEST_TIMEOUT seconds. tests/summarize.py judges the log.
set -u

interactive=
if [ "${1-}" = --interactive ]; then
	interactive=1
	shift
fi
kernel=$1 initrd=$2 results=$3
timeout=${GUEST_TIMEOUT:-900}
mkdir -p "$results"

# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/lib/host.sh"
# KVM only where the CPU can really do it.
accel="-accel tcg"
if host_has_kvm; then
	accel="-enable-kvm -cpu host"
fi

# GUEST_SMP: QEMU's -smp. Without ACPI the kernel finds CPUs only in
# SeaBIOS's MP table, which lists one per socket: an SMP kernel (make
# check-debug) needs "2,sockets=2" to really get two.
smp=${GUEST_SMP:-2}
# no_timer_check: under TCG on a loaded host the kernel's check that the
# 8254 timer ticks through the IO-APIC can miss its window and panic the
# boot ("IO-APIC + timer doesn't work"); QEMU's timer works, so skip it.
append="console=ttyS0 panic=-1 loglevel=4 no_timer_check ${GUEST_APPEND:-}"
if [ -n "$interactive" ]; then
	# shellcheck disable=SC2086
	exec qemu-system-x86_64 $accel -m 1G -smp "$smp" -nographic -no-reboot \
		-kernel "$kernel" -initrd "$initrd" \
		-append "$append gpunice.shell"
fi

echo "  BOOT    $kernel (log: $results/console.log, limit ${timeout}s)"
start=$(date +%s)
# shellcheck disable=SC2086
timeout --foreground -k 10 "$timeout" \
	qemu-system-x86_64 $accel -m 1G -smp "$smp" -display none -no-reboot \
	-serial "file:$results/console.log" -monitor none \
	-kernel "$kernel" -initrd "$initrd" -append "$append" \
	</dev/null >"$results/qemu.log" 2>&1
rc=$?
echo $(( $(date +%s) - start )) > "$results/guest-seconds"
[ $rc -eq 124 ] && echo "run-guest: guest killed after ${timeout}s" \
	>> "$results/qemu.log"
echo "$rc" > "$results/qemu.rc"
exit 0
