# shellcheck shell=sh
# What the host's QEMU can do, for the scripts that boot the test guest
# (run-guest.sh, make effect, make bench, make demo), sourced.

# host_has_kvm: whether QEMU can use KVM here. /dev/kvm alone is not
# enough: without vmx/svm, -enable-kvm hangs at "Booting from ROM".
host_has_kvm() {
	[ -w /dev/kvm ] && grep -qE '^flags.*\b(vmx|svm)\b' /proc/cpuinfo
}

# host_info: the host's facts for a report's "host-info" (the guest
# reports its own clock): CPUs, CPU model, QEMU, accelerator, one a line.
host_info() {
	echo "host_nproc $(nproc)"
	echo "host_cpu $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo |
		head -1)"
	echo "qemu $(qemu-system-x86_64 --version | head -1)"
	if host_has_kvm; then
		echo "accel KVM"
	else
		echo "accel TCG"
	fi
}
