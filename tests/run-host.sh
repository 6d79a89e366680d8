#!/bin/sh
# Host-side suites of make check. Each writes TAP to <results>/host-*.tap;
# tests/summarize.py counts them.
#
# usage: run-host.sh <results> <pristine kernel tree> <gpunice build dir>
# The suites table below is run with eval: the functions and variables it
# names are used there.
# shellcheck disable=SC2016,SC2034,SC2317
set -u

results=$(realpath -m "$1") ktree=$(realpath -m "$2")
gpunice_out=$(realpath -m "$3")
repo=$(cd "$(dirname "$0")/.." && pwd)
headers=$(dirname "$ktree")/headers/include
tmp_out=$(mktemp)
mkdir -p "$results"
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"

# Kernel style: checkpatch --strict on every patch and every new kernel file.
# It runs from inside the pristine tree: from this repository's git work tree
# it would misread the patch files as plain files.
checkpatch() {
	while read -r p; do
		(cd "$ktree" && scripts/checkpatch.pl --strict -q \
			"$repo/patches/6.12/$p") > "$tmp_out" 2>&1
		tap_result $? "checkpatch $p" "$tmp_out"
	done < "$repo/patches/6.12/series"
	for f in $(cd "$repo" && find kernel include fs drivers \
		tools/testing/selftests/gpuprio -name '*.[ch]' | sort); do
		(cd "$ktree" && scripts/checkpatch.pl --strict -q -f \
			"$repo/$f") > "$tmp_out" 2>&1
		tap_result $? "checkpatch $f" "$tmp_out"
	done
	tap_done
}

# The uapi header stands alone in C and C++, as headers_install exports it.
uapi_header() {
	printf '#include <linux/gpuprio.h>\nint v = GPUPRIO_BE_NICE(-3);\n' \
		> "$tmp_out.c"
	for cc in "gcc -x c -std=c99" "g++ -x c++"; do
		$cc -Wall -Wextra -Werror -fsyntax-only -I"$repo/include/uapi" \
			"$tmp_out.c" > "$tmp_out" 2>&1
		tap_result $? "uapi header compiles alone: $cc" "$tmp_out"
	done
	rm -f "$tmp_out.c"
	test -f "$headers/linux/gpuprio.h"
	tap_result $? "make headers_install exports linux/gpuprio.h"
	tap_done
}

# The hardware benchmark cannot run here (no i915 render node) but must not
# rot: it is compiled, and without a GPU it must skip with kselftest code 4.
hwbench() {
	bin=$(dirname "$ktree")/hwbench
	# pkg-config's flags are meant to be split into words.
	# shellcheck disable=SC2046
	cc -O2 -Wall -Wextra -Werror $(pkg-config --cflags libdrm) \
		-o "$bin" "$repo/tests/i915/hwbench.c" \
		$(pkg-config --libs libdrm) > "$tmp_out" 2>&1
	tap_result $? "tests/i915/hwbench.c builds warning-free" "$tmp_out"
	if ls /dev/dri/renderD* >/dev/null 2>&1; then
		skip "hwbench" "a render node exists: run it by hand"
	else
		"$bin" > "$tmp_out" 2>&1
		[ $? -eq 4 ]
		tap_result $? "hwbench skips cleanly without an i915 GPU"
		tap_diag "$tmp_out"
	fi
	tap_done
}

# The host suites: a name (its results go to host-<name>.tap) and the
# command that prints its TAP, run from the repository. A new suite is one
# line here; every suite reads only the variables above.
suites='
checkpatch		checkpatch
uapi-header		uapi_header
gpuprio-header		tests/host/gpuprio-header.sh
i915-hwbench		hwbench
gpunice			tests/host/gpunice.sh "$gpunice_out/gpunice" "$headers"
tool-unprivileged	tests/host/tool-unprivileged.sh "$repo"
bench-report		tests/host/bench-report.sh "$repo"
effect-report		tests/host/effect-report.py "$repo"
install-deps		tests/host/install-deps.sh "$repo"
hw-report		tests/host/hw-report.sh "$repo" "$headers"
docs-addresses		tests/host/docs-addresses.sh "$repo"
systemd-examples	tests/host/systemd-examples.sh "$repo"
shellcheck		tests/host/shellcheck.sh "$repo"
'

# A suite that never ends its TAP fails: every result starts as a failure.
echo "$suites" | while read -r name cmd; do
	[ -n "$name" ] || continue
	echo "not ok 1 host-$name did not run to the end" \
		> "$results/host-$name.tap"
done
cd "$repo" || exit 1
echo "$suites" | while read -r name cmd; do
	[ -n "$name" ] || continue
	# Each suite in a subshell: its TAP counters start at 0.
	( eval "$cmd" ) > "$results/host-$name.tap" 2>&1
done
rm -f "$tmp_out"
exit 0
