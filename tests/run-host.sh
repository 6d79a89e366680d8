#!/bin/sh
# Host-side suites of make check. Each writes TAP to <results>/host-*.tap;
# tests/summarize.py counts them.
#
# usage: run-host.sh <results> <pristine kernel tree> <gpunice build dir>
set -u

results=$1 ktree=$2 gpunice_out=$3
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$results"

# Kernel style: checkpatch --strict on every patch and every new kernel file.
# It runs from inside the pristine tree: from this repository's git work tree
# it would misread the patch files as plain files.
checkpatch() {
	n=0
	while read -r p; do
		n=$((n + 1))
		if out=$(cd "$ktree" && scripts/checkpatch.pl --strict -q \
			"$repo/patches/$p" 2>&1); then
			echo "ok $n checkpatch $p"
		else
			echo "not ok $n checkpatch $p"
			echo "$out" | sed 's/^/# /'
		fi
	done < "$repo/patches/series"
	for f in $(cd "$repo" && find kernel include fs drivers \
		tools/testing/selftests/gpuprio -name '*.[ch]' | sort); do
		n=$((n + 1))
		if out=$(cd "$ktree" && scripts/checkpatch.pl --strict -q -f \
			"$repo/$f" 2>&1); then
			echo "ok $n checkpatch $f"
		else
			echo "not ok $n checkpatch $f"
			echo "$out" | sed 's/^/# /'
		fi
	done
	echo "1..$n"
}

# The uapi header stands alone in C and C++, as headers_install exports it.
uapi_header() {
	n=0
	tmp=$(mktemp -d)
	printf '#include <linux/gpuprio.h>\nint v = GPUPRIO_BE_NICE(-3);\n' \
		> "$tmp/t.c"
	for cc in "gcc -x c -std=c99" "g++ -x c++"; do
		n=$((n + 1))
		if $cc -Wall -Wextra -Werror -fsyntax-only \
			-I"$repo/include/uapi" "$tmp/t.c" 2>"$tmp/err"; then
			echo "ok $n uapi header compiles alone: $cc"
		else
			echo "not ok $n uapi header compiles alone: $cc"
			sed 's/^/# /' "$tmp/err"
		fi
	done
	n=$((n + 1))
	hdr=$(dirname "$ktree")/headers/include/linux/gpuprio.h
	if [ -f "$hdr" ]; then
		echo "ok $n make headers_install exports linux/gpuprio.h"
	else
		echo "not ok $n make headers_install exports linux/gpuprio.h"
	fi
	rm -rf "$tmp"
	echo "1..$n"
}

# The hardware benchmark cannot run here (no i915 render node) but must not
# rot: it is compiled, and without a GPU it must skip with kselftest code 4.
hwbench() {
	bin=$(dirname "$ktree")/hwbench
	# pkg-config's flags are meant to be split into words.
	# shellcheck disable=SC2046
	if cc -O2 -Wall -Wextra -Werror $(pkg-config --cflags libdrm) \
		-o "$bin" "$repo/tests/i915/hwbench.c" \
		$(pkg-config --libs libdrm) 2>"$bin.err"; then
		echo "ok 1 tests/i915/hwbench.c builds warning-free"
	else
		echo "not ok 1 tests/i915/hwbench.c builds warning-free"
		sed 's/^/# /' "$bin.err"
	fi
	if ls /dev/dri/renderD* >/dev/null 2>&1; then
		echo "ok 2 hwbench # SKIP a render node exists: run it by hand"
	else
		"$bin" >"$bin.out" 2>&1
		rc=$?
		if [ $rc -eq 4 ]; then
			echo "ok 2 hwbench skips cleanly without an i915 GPU"
		else
			echo "not ok 2 hwbench skips cleanly without an i915 GPU"
		fi
		sed 's/^/# /' "$bin.out"
	fi
	echo "1..2"
}

for suite in checkpatch uapi-header gpuprio-header i915-hwbench gpunice \
	tool-unprivileged bench-report effect-report install-deps hw-report \
	docs-addresses systemd-examples; do
	echo "not ok 1 host-$suite did not run to the end" \
		> "$results/host-$suite.tap"
done
checkpatch > "$results/host-checkpatch.tap"
uapi_header > "$results/host-uapi-header.tap"
"$repo/tests/host/gpuprio-header.sh" "$(dirname "$ktree")/headers/include" \
	> "$results/host-gpuprio-header.tap" 2>&1
hwbench > "$results/host-i915-hwbench.tap"
"$repo/tests/host/gpunice.sh" "$gpunice_out/gpunice" \
	> "$results/host-gpunice.tap" 2>&1
"$repo/tests/host/tool-unprivileged.sh" "$repo" \
	> "$results/host-tool-unprivileged.tap"
"$repo/tests/host/bench-report.sh" "$repo" > "$results/host-bench-report.tap"
"$repo/tests/host/effect-report.py" "$repo" \
	> "$results/host-effect-report.tap" 2>&1
"$repo/tests/host/install-deps.sh" "$repo" > "$results/host-install-deps.tap"
"$repo/tests/host/hw-report.sh" "$repo" > "$results/host-hw-report.tap"
"$repo/tests/host/docs-addresses.sh" "$repo" \
	> "$results/host-docs-addresses.tap"
"$repo/tests/host/systemd-examples.sh" "$repo" \
	> "$results/host-systemd-examples.tap"
exit 0
