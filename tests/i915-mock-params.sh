#!/bin/sh
# Kernel parameters that run, at boot, the i915 mock selftests this project
# owns plus the upstream ones whose code it touches. i915 names each
# selftest's switch after its line in i915_mock_selftests.h, so read them
# from the tree being tested.
#
# usage: i915-mock-params.sh <kernel tree>
#        i915-mock-params.sh --subtests <kernel tree>
# --subtests prints instead, for the guest's suite 50-i915-mock, the
# subtests each of those selftests must run, "<name> <function>/<subtest>"
# a line, read from the table of the selftest's function in its source.
# I915_MOCK_SELFTESTS: the names to run instead (make mutants leaves out
# the upstream ones: their timing checks fail now and then on a busy host).
set -eu
subtests=
if [ "$1" = --subtests ]; then
	subtests=1
	shift
fi
tree=$1
list=$tree/drivers/gpu/drm/i915/selftests/i915_mock_selftests.h
# sanitycheck: i915 asks for it first; requests: runs i915_request_add().
names=${I915_MOCK_SELFTESTS:-sanitycheck requests gpuprio gpuprio_guc gpuprio_context}

# table FUNCTION: the subtests in the SUBTEST() table of FUNCTION.
table() {
	file=$(grep -rlx --include='*.c' "int $1(void)" \
		"$tree/drivers/gpu/drm/i915")
	[ -n "$file" ] || { echo "i915-mock-params: no $1() in $tree" >&2; exit 1; }
	awk -v f="int $1(void)" '
		$0 == f { on = 1 }
		on && /^}/ { exit }
		on && /SUBTEST\(/ {
			sub(/.*SUBTEST\(/, ""); sub(/\).*/, ""); print
		}' "$file"
}

params="i915.mock_selftests=-1"
for name in $names; do
	line=$(grep -n "^selftest($name," "$list" | cut -d: -f1)
	[ -n "$line" ] || { echo "i915-mock-params: no $name in $list" >&2; exit 1; }
	if [ -n "$subtests" ]; then
		func=$(sed -n "${line}s/^selftest($name, *\([a-z0-9_]*\)).*/\1/p" "$list")
		tests=$(table "$func")
		for t in $tests; do
			echo "$name $func/$t"
		done
	fi
	params="$params i915.igt__${line}__mock_$name=1"
done
[ -n "$subtests" ] || echo "$params"
