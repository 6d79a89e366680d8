#!/bin/sh
# Off means stock: on a kernel built without CONFIG_GPUPRIO (configs/
# no-gpuprio.config), no driver may follow the CPU nice. Checks that i915's
# gpuprio objects were not built, then boots the kernel with only KUnit and
# requires the drivers' suites (drm_sched, xe) to have run and passed:
# built without CONFIG_GPUPRIO, they assert that a task at CPU nice 5 or 7
# leaves contexts and queues at normal and that fdinfo has no drm-gpuprio
# key. On 7.3 drm_sched's suite (tests_gpuprio.c) has no such case yet:
# its drm_sched_gpuprio_test_task compares drm_sched_task_priority() with
# the mapping of task_gpuprio() and sets no CPU nice, so there the check
# proves only that the suite builds and passes without the feature (6.12's
# sched_gpuprio_test_task is the case to carry over). amdgpu's suites need
# amdgpu built in, which only the amdgpu check's own kernel has
# (tests/amdgpu-kunit.sh). TAP on stdout.
#
# usage: check-nogpuprio.sh <kernel tree> <initramfs> <result dir>
set -u
tree=$1 initrd=$2 results=$3
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"
tap() { tap_result "$1" "$2"; } # tap <0 if ok> <name>

! grep -q '^CONFIG_GPUPRIO=y' "$tree/.config"
tap $? "nogpuprio: CONFIG_GPUPRIO is off"
# What is linked, not what lies around: the tree may hold older objects.
syms=$(nm "$tree/vmlinux" 2>/dev/null)
echo "$syms" | grep -q ' i915_request_add$' &&
	! echo "$syms" | grep -qE ' (i915_gpuprio_|intel_guc_gpuprio_)'
tap $? "nogpuprio: i915 linked without i915_gpuprio.o and its selftests"

GUEST_APPEND="gpunice.kunit-only" "$repo/tests/run-guest.sh" \
	"$tree/arch/x86/boot/bzImage" "$initrd" "$results" >&2
console=$results/console.log
grep -q '@@GUEST-DONE' "$console"
tap $? "nogpuprio: the guest ran to the end"

# Each suite's own result line, at the top level of the KTAP: "ok N name"
# (the serial console ends lines with CR LF). drm_sched's suite is named by
# the line: 7.3's is drivers/gpu/drm/scheduler/tests/tests_gpuprio.c, on
# upstream's mock scheduler (CONFIG_DRM_SCHED_KUNIT_TEST); 6.12's own is
# sched_gpuprio_test.c (CONFIG_DRM_SCHED_GPUPRIO_KUNIT_TEST).
case ${LINE:-7.3} in
6.12) sched_suite=drm_sched_gpuprio ;;
*) sched_suite=drm_sched_gpuprio_tests ;;
esac
for suite in $sched_suite xe_exec_queue_gpuprio; do
	tr -d '\r' < "$console" | grep -qE "^ok [0-9]+ $suite\$"
	tap $? "nogpuprio: KUnit $suite passed"
done
# No kernel trouble either, as make check defines it.
"$repo/tests/summarize.py" --kernel-trouble "$console" > "$console.trouble"
tap $? "nogpuprio: no kernel trouble in the log"
sed 's/^/# /' "$console.trouble"

tap_done
