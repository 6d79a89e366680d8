# shellcheck shell=sh
# Sourced by the guest scripts that use simgpu (effect.sh, demo-effect.sh):
# load_simgpu CREDITS loads it afresh with that credit limit and waits for
# its render node; no file may be open on it. Where simgpu is built in, only
# its own credit limit is there: load_simgpu fails for any other.

simgpu_ko=
for f in /tests/bin/simgpu.ko /lib/modules/*/simgpu.ko; do
	[ -f "$f" ] && simgpu_ko=$f && break
done

load_simgpu() { # load_simgpu <credits>
	if [ -z "$simgpu_ko" ]; then
		[ "$(cat /sys/module/simgpu/parameters/credits 2>/dev/null)" \
			= "$1" ]
		return
	fi
	if [ -d /sys/module/simgpu ]; then
		rmmod simgpu || return 1
	fi
	insmod "$simgpu_ko" credits="$1" || return 1
	i=0
	while ! ls /dev/dri/renderD* >/dev/null 2>&1 && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
