#!/bin/sh
# Kernel parameters that run, at boot, the i915 mock selftests this project
# owns plus the upstream ones whose code it touches. i915 names each
# selftest's switch after its line in i915_mock_selftests.h, so read them
# from the tree being tested.
#
# usage: i915-mock-params.sh <kernel tree>
# I915_MOCK_SELFTESTS: the names to run instead (make mutants leaves out
# the upstream ones: their timing checks fail now and then on a busy host).
set -eu
list=$1/drivers/gpu/drm/i915/selftests/i915_mock_selftests.h
# sanitycheck: i915 asks for it first; requests: runs i915_request_add().
params="i915.mock_selftests=-1"
for name in ${I915_MOCK_SELFTESTS:-sanitycheck requests gpuprio gpuprio_guc gpuprio_context}; do
	line=$(grep -n "^selftest($name," "$list" | cut -d: -f1)
	[ -n "$line" ] || { echo "i915-mock-params: no $name in $list" >&2; exit 1; }
	params="$params i915.igt__${line}__mock_$name=1"
done
echo "$params"
