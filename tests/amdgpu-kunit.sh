#!/bin/sh
# amdgpu's KUnit suites (drivers/gpu/drm/amd/amdgpu/tests/) in a QEMU guest.
# The tree that tests/amdgpu-compile.sh configured (amdgpu built in, with
# its KUnit test) is built whole and booted with the test initramfs in
# kunit-only mode, running only the amdgpu suites (kunit.filter_glob).
# Without an AMD GPU amdgpu probes nothing; its KUnit suites run at boot on
# GPU schedulers without hardware.
#
# TAP on stdout: the build, the guest ran to the end, a clean kernel log,
# each suite reported; then the guest's KTAP of those suites, whose cases
# tests/summarize.py counts one by one. Exit status 1 if anything failed
# (make mutants can use it), 0 otherwise.
#
# usage: amdgpu-kunit.sh <tree> <initramfs> <result dir>
# LINE (as make exports it; 7.3 by default): on 7.3, user queues too.
# AMDGPU_KUNIT_ARGS: more kernel arguments, such as a drm_sched policy
# (gpu_sched.sched_policy=2, FAIR).
set -u
tree=$1 initrd=$2 results=$3
repo=$(cd "$(dirname "$0")/.." && pwd)
suites="amdgpu_ctx_prio amdgpu_ctx_entity_prio"
[ "${LINE:-7.3}" = 7.3 ] && suites="$suites amdgpu_userq_prio"
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"
tap() { tap_result "$1" "amdgpu-kunit: $2"; } # tap <0 if ok> <name>

rm -rf "$results"
mkdir -p "$results"
echo "  BUILD   $tree/arch/x86/boot/bzImage" >&2
start=$(date +%s)
make -C "$tree" -s -j"${JOBS:-$(nproc)}" bzImage >"$results/build.log" 2>&1
rc=$?
echo "# bzImage built in $(($(date +%s) - start)) s"
tap $rc "the kernel with amdgpu and its KUnit test builds"
if [ $rc -ne 0 ]; then
	tail -n 40 "$results/build.log" | sed 's/^/# /'
	tap_done
	exit 1
fi

GUEST_APPEND="gpunice.kunit-only kunit.filter_glob=amdgpu_*prio${AMDGPU_KUNIT_ARGS:+ $AMDGPU_KUNIT_ARGS}" \
	"$repo/tests/run-guest.sh" "$tree/arch/x86/boot/bzImage" "$initrd" \
	"$results" >&2
echo "# guest ran $(cat "$results/guest-seconds" 2>/dev/null) s"
# The serial console ends lines with CR LF.
tr -d '\r' < "$results/console.log" > "$results/console.txt"
console=$results/console.txt

grep -q '^@@GUEST-DONE' "$console"
tap $? "the guest ran to the end"
"$repo/tests/summarize.py" --kernel-trouble "$console" > "$results/trouble"
tap $? "no panic, BUG, WARNING or other kernel trouble in the log"
sed 's/^/# /' "$results/trouble"
# Each suite's own result line, at the top level of the KTAP: a suite that
# did not run has none.
for suite in $suites; do
	grep -qE "^(not )?ok [0-9]+ $suite\$" "$console"
	tap $? "KUnit suite $suite reported"
done

# The KTAP itself: every case and every suite line, as printed.
sed -n '/^@@SUITE-BEGIN kunit/,/^@@SUITE-END kunit/p' "$console" |
	grep -E '^ *(not )?ok [0-9]+ |^ *#' > "$results/ktap"
cat "$results/ktap"
grep -qE '^ *not ok ' "$results/ktap" && tap_failed=$((tap_failed + 1))
tap_done
