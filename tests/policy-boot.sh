#!/bin/sh
# What a boot of the 7.3 test kernel under one drm_sched run-queue policy
# must show, from its console: that it really ran under that policy (as
# simgpu's test reads gpu_sched.sched_policy back in the guest) and that
# drm_sched's KUnit suites, upstream's on its mock scheduler and the
# series' own, ran there. Their results are the console's own kunit suite
# (tests/summarize.py); this only fails where one did not run. TAP on
# stdout.
#
# usage: policy-boot.sh <console log> <policy number>
set -u
policy=$2
# The name simgpu's test prints beside the number (simgpu_test.c).
case $policy in
0) name=RR ;;
1) name=FIFO ;;
2) name=FAIR ;;
*)
	echo "policy-boot: policy $policy: 0, 1 or 2" >&2
	exit 2 ;;
esac
# The serial console ends its lines with CR.
console=$(mktemp)
trap 'rm -f "$console"' EXIT
tr -d '\r' < "$1" > "$console" 2>/dev/null
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# The suites that must have run under every policy: upstream's basic and
# priority ones, and those patches/7.3 adds or extends.
suites="drm_sched_basic_tests drm_sched_basic_priority_tests
	drm_sched_basic_set_priority_tests drm_sched_basic_modify_sched_tests
	drm_sched_nice_tests drm_sched_gpuprio_tests drm_sched_deadline_tests"

if grep -q "sched_policy=$policy ($name)" "$console" 2>/dev/null; then
	ok "the guest ran under gpu_sched.sched_policy=$policy ($name)"
else
	not_ok "the guest ran under gpu_sched.sched_policy=$policy ($name)"
	grep -o 'sched_policy=[0-9]* ([A-Z]*)' "$console" 2>/dev/null |
		sort -u | sed 's/^/# the guest says /'
fi
for s in $suites; do
	# A suite's header and its own result line, at KTAP's first level.
	if grep -q "^ *# Subtest: $s\$" "$console" 2>/dev/null &&
		grep -Eq "^ *(not )?ok [0-9]+ $s\$" "$console"; then
		ok "KUnit suite $s ran under $name"
	else
		not_ok "KUnit suite $s ran under $name"
	fi
done
tap_done
