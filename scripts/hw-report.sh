#!/bin/sh
# What a result from real GPU hardware needs, in one text file to attach to
# a report: the kernel and whether it has GPU priorities, the GPUs and their
# drivers, the DRM clients this user may read with the priorities in effect,
# and the output of the i915 benchmark (make hwbench) where it can run.
#
# It reads /proc and /sys and runs nothing that issues the gpuprio system
# calls where the kernel lacks them (on 6.13 and later their numbers are
# other calls): hwbench runs only where /proc/self/gpu_nice exists. It works
# on any kernel, and under busybox.
#
# usage: hw-report.sh [-o FILE] [-b HWBENCH] [-t SECONDS]
#   -o FILE     write the report there (default: standard output)
#   -b HWBENCH  the hwbench binary, run when an i915 GPU is present
#   -t SECONDS  hwbench's seconds per run (default: its own, 5)
# Run as root to see the DRM clients of every user, not only your own.
# HW_REPORT_SYS names another /sys (tests).
set -u

out=''
hwbench=''
secs=''
while getopts o:b:t: opt; do
	case $opt in
	o) out=$OPTARG ;;
	b) hwbench=$OPTARG ;;
	t) secs=$OPTARG ;;
	*) echo "usage: hw-report.sh [-o FILE] [-b HWBENCH] [-t SECONDS]" >&2
	   exit 2 ;;
	esac
done
sys=${HW_REPORT_SYS:-/sys}

# The kernel's config, wherever this distribution keeps it.
config_gpuprio() {
	rel=$(uname -r)
	for f in /proc/config.gz "/boot/config-$rel" "/lib/modules/$rel/config"; do
		[ -r "$f" ] || continue
		case $f in
		*.gz) line=$(gzip -dc "$f" | grep -E '^(# )?CONFIG_GPUPRIO[= ]') ;;
		*) line=$(grep -E '^(# )?CONFIG_GPUPRIO[= ]' "$f") ;;
		esac
		case $line in
		CONFIG_GPUPRIO=*) echo "${line#CONFIG_GPUPRIO=} ($f)" ;;
		"# CONFIG_GPUPRIO is not set") echo "not set ($f)" ;;
		*) echo "absent: a kernel without the gpunice patches ($f)" ;;
		esac
		return
	done
	echo "unknown (no /proc/config.gz, /boot/config-$rel or" \
		"/lib/modules/$rel/config)"
}

kernel() {
	echo "== kernel"
	echo "release: $(uname -r)"
	echo "version: $(uname -v)"
	echo "machine: $(uname -m)"
	echo "CONFIG_GPUPRIO: $(config_gpuprio)"
	if [ -e /proc/self/gpu_nice ]; then
		echo "gpu_nice: yes (/proc/self/gpu_nice exists: GPU priorities on)"
	else
		echo "gpu_nice: no (no /proc/self/gpu_nice: this kernel has no" \
			"GPU priorities)"
	fi
	f=/proc/sys/kernel/gpuprio_follow_nice
	[ -r $f ] && echo "gpuprio_follow_nice: $(cat $f)"
	echo
}

# attr FILE: its content, or "?" where it cannot be read.
attr() { cat "$1" 2>/dev/null || echo "?"; }
driver_of() {
	if [ -e "$1/driver" ]; then
		basename "$(readlink "$1/driver")"
	else
		echo none
	fi
}

gpus() {
	echo "== GPUs ($sys/class/drm)"
	found=
	for card in "$sys"/class/drm/card[0-9]* "$sys"/class/drm/renderD[0-9]*; do
		[ -e "$card/device" ] || continue
		name=${card##*/}
		# Connectors (card0-DP-1) are not devices.
		case $name in *-*) continue ;; esac
		dev=$(readlink -f "$card/device")
		line="$name: driver $(driver_of "$card/device"), device ${dev##*/}"
		if [ -r "$card/device/vendor" ]; then
			line="$line, PCI $(attr "$card/device/vendor"):$(attr "$card/device/device")"
		fi
		# The DRM driver's own name, where debugfs is there to read
		# (root): a device may have no bus driver (platform devices).
		minor=${name#card}
		minor=${minor#renderD}
		f=$sys/kernel/debug/dri/$minor/name
		if [ -r "$f" ] && read -r drm _ <"$f" 2>/dev/null; then
			line="$line, DRM driver $drm"
		fi
		echo "$line"
		found=1
	done
	[ -n "$found" ] || echo "none"
	for p in enable_guc enable_execlists; do
		f=$sys/module/i915/parameters/$p
		[ -r "$f" ] && echo "i915 $p: $(cat "$f")"
	done
	f=$sys/module/xe/parameters/force_probe
	[ -r "$f" ] && echo "xe force_probe: $(cat "$f")"
	echo

	echo "== display controllers ($sys/bus/pci, class 0x03)"
	found=
	for d in "$sys"/bus/pci/devices/*; do
		class=$(attr "$d/class")
		case $class in 0x03*) ;; *) continue ;; esac
		echo "${d##*/}: class $class, vendor $(attr "$d/vendor")," \
			"device $(attr "$d/device"), subsystem" \
			"$(attr "$d/subsystem_vendor"):$(attr "$d/subsystem_device")," \
			"revision $(attr "$d/revision"), driver $(driver_of "$d")"
		if command -v lspci >/dev/null 2>&1 && [ "$sys" = /sys ]; then
			lspci -nnk -s "${d##*/}" 2>/dev/null | sed 's/^/  /'
		fi
		found=1
	done
	[ -n "$found" ] || echo "none"
	echo
}

# One line a DRM file: its driver, device, client id and the priority
# lines (drm-gpuprio of i915, xe and amdgpu; simgpu-priority-* of the test
# driver).
drm_fdinfo() {
	sed -n -E 's/^(drm-(driver|pdev|client-id|gpuprio)|[a-z0-9]+-priority[a-z0-9-]*):[[:space:]]+/\1=/p' \
		"$1" 2>/dev/null | tr '\n' ' ' | sed 's/ $//'
}

# The CPU nice of a task: field 19 of stat, after the comm in parentheses.
cpu_nice() {
	stat=$(cat "$1/stat" 2>/dev/null) || { echo "?"; return; }
	# shellcheck disable=SC2086 # the fields, one word each
	set -- ${stat##*) }
	echo "${17}"
}

clients() {
	echo "== DRM clients (/proc/PID/fdinfo; only those this user may read)"
	pids=
	for d in /proc/[0-9]*; do
		pid=${d##*/}
		files=$(grep -l '^drm-driver:' "$d"/fdinfo/* 2>/dev/null) || continue
		comm=$(attr "$d/comm")
		for f in $files; do
			echo "pid $pid ($comm) fd ${f##*/}: $(drm_fdinfo "$f")"
		done
		pids="$pids $pid"
	done
	[ -n "$pids" ] || echo "none readable"
	echo

	echo "== effective priorities"
	echo "(gpu_nice: /proc/PID/task/TID/gpu_nice, proc_pid_gpu_nice(5);" \
		"nice: the CPU nice)"
	for pid in $pids; do
		for t in /proc/"$pid"/task/*; do
			[ -d "$t" ] || continue
			echo "pid $pid tid ${t##*/} ($(attr "$t/comm")):" \
				"gpu_nice $(attr "$t/gpu_nice" | sed 's/^?$/absent/')," \
				"nice $(cpu_nice "$t")"
		done
	done
	[ -n "$pids" ] || echo "no DRM client readable"
	if [ -e /proc/self/gpu_nice ]; then
		echo "tasks with a GPU priority of their own:"
		own=
		for t in /proc/[0-9]*/task/*; do
			v=$(cat "$t/gpu_nice" 2>/dev/null) || continue
			case $v in none*) continue ;; esac
			p=${t#/proc/}
			echo "  pid ${p%%/*} tid ${t##*/} ($(attr "$t/comm")): $v"
			own=1
		done
		[ -n "$own" ] || echo "  none"
	fi
	echo
}

bench() {
	echo "== hwbench"
	i915=
	for card in "$sys"/class/drm/card[0-9]*; do
		[ "$(driver_of "$card/device" 2>/dev/null)" = i915 ] && i915=1
	done
	if [ -z "$i915" ]; then
		echo "hwbench: not run: no i915 GPU"
	elif [ ! -e /proc/self/gpu_nice ]; then
		echo "hwbench: not run: this kernel has no GPU priorities"
	elif [ -z "$hwbench" ] || [ ! -x "$hwbench" ]; then
		echo "hwbench: not run: not built (make hwbench, then make" \
			"hw-report again)"
	else
		echo "hwbench: $hwbench ${secs:+-t $secs}"
		# shellcheck disable=SC2086 # no -t without a value
		"$hwbench" ${secs:+-t "$secs"} 2>&1
		echo "hwbench: exit status $?"
	fi
}

report() {
	echo "gpunice hardware report (scripts/hw-report.sh)"
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo
	kernel
	gpus
	clients
	bench
}

if [ -n "$out" ]; then
	report >"$out" || exit 1
else
	report
fi
