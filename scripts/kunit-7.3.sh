#!/bin/sh
# The drm_sched KUnit suites of Linux 7.3 (upstream's, on its mock
# scheduler, and those patches/7.3 adds) in QEMU, once per run-queue
# policy: gpu_sched.sched_policy 0 (round robin), 1 (FIFO, the default)
# and 2 (FAIR). Fails when a test fails or when a suite did not run.
# Prints TAP (make check's host-kunit-7.3): the series applies, the kernel
# builds, and one result per policy, with the KUnit lines as details.
#
# usage: kunit-7.3.sh <out dir>
#
# KTAR73 names the source tarball (Debian's linux-source-7.3 by default);
# it is unpacked once into OUT/linux-7.3-pristine. OUT/linux-7.3 is a git
# tree whose first commit is that source: each run throws away whatever is
# on top of it and commits patches/7.3/series there, one commit per patch
# with its new files (scripts/series-lib.sh). KUnit's
# build directory (OUT/linux-7.3/.kunit) is kept, so that a later run
# rebuilds only what the patches touch. JOBS: parallel compile jobs.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: kunit-7.3.sh <out dir>" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
ktar=${KTAR73:-/usr/src/linux-source-7.3.tar.xz}
jobs=${JOBS:-$(nproc)}
pristine=$out/linux-7.3-pristine
tree=$out/linux-7.3
series=$repo/patches/7.3/series
logs=$out/kunit-7.3
policies="0 1 2"
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"
# Every suite that must have run, under each policy.
suites="drm_sched_basic_tests drm_sched_basic_priority_tests
	drm_sched_basic_set_priority_tests drm_sched_basic_modify_sched_tests
	drm_sched_nice_tests drm_sched_gpuprio_tests"

if [ ! -r "$ktar" ]; then
	echo "kunit-7.3: no $ktar: run 'sudo make deps' (or name a 7.3" \
		"tarball with KTAR73=)" >&2
	exit 1
fi
for t in git python3 qemu-system-x86_64; do
	command -v "$t" >/dev/null ||
		{ echo "kunit-7.3: $t is missing: run 'sudo make deps'" >&2; exit 1; }
done

# The source, once per tarball: its name, size and time are the stamp.
stamp=$(stat -L -c '%n %s %Y' "$ktar")
if [ "$(cat "$pristine/.gpunice-tarball" 2>/dev/null)" != "$stamp" ]; then
	echo "  UNPACK  $ktar"
	rm -rf "$pristine" "$tree" "$out/linux-7.3.unpack"
	mkdir -p "$out/linux-7.3.unpack"
	tar -xJf "$ktar" -C "$out/linux-7.3.unpack"
	mv "$out/linux-7.3.unpack/"* "$pristine"
	rmdir "$out/linux-7.3.unpack"
	echo "$stamp" >"$pristine/.gpunice-tarball"
fi

git_t() {
	git -C "$tree" -c user.name=gpunice -c user.email=gpunice@localhost \
		-c core.autocrlf=false "$@"
}
if ! git_t rev-parse -q --verify refs/tags/pristine >/dev/null 2>&1; then
	echo "  GIT     $tree (the pristine source as its first commit)"
	rm -rf "$tree"
	cp -a "$pristine" "$tree"
	rm -f "$tree/.gpunice-tarball"
	git_t init -q -b upstream
	# Debian's tree ignores its own top level (.gitignore: /*).
	git_t add -f -A .
	git_t commit -q -m "Linux $(make -s -C "$tree" kernelversion) ($ktar)"
	git_t tag pristine
fi

# Throw away the last run's commits and files, keep KUnit's build directory.
if [ -d "$tree/.git/rebase-apply" ]; then
	git_t am --abort >/dev/null 2>&1 || true
fi
git_t checkout -q -f -B series refs/tags/pristine
git_t clean -q -f -d -x -e /.kunit
# One commit per patch with its new files, as make patches LINE=7.3 makes
# them (scripts/series-lib.sh; make patches proves git am of the result).
n=$(wc -l <"$series")
if ! (cd "$tree" && LINE=7.3 && . "$repo/scripts/series-lib.sh" &&
	series_commit "$repo") >"$logs.apply" 2>&1; then
	sed 's/^/    /' "$logs.apply" >&2
	not_ok "7.3: the $n patches of patches/7.3/series apply"
	tap_done || exit 1
fi
echo "  APPLY   $n patches of patches/7.3/series"
ok "7.3: the $n patches of patches/7.3/series apply"

cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
export CCACHE_BASEDIR="$tree"
mkdir -p "$logs"
rm -f "$logs"/*.log
# kunit.py asks QEMU for "-accel kvm" first, and QEMU takes /dev/kvm even
# where the CPU has no vmx/svm, then hangs before the console says a word.
# Without a usable KVM (host_has_kvm), a qemu-system-x86_64 first in PATH
# drops that accelerator and runs the real one.
# shellcheck source=tests/lib/host.sh
. "$repo/tests/lib/host.sh"
qemu_path=$PATH
if ! host_has_kvm; then
	wrap=$(mktemp -d)
	trap 'rm -rf "$wrap"' EXIT
	real=$(command -v qemu-system-x86_64)
	cat >"$wrap/qemu-system-x86_64" <<-EOF
	#!/bin/sh
	# Written by scripts/kunit-7.3.sh: $real without -accel kvm.
	drop=
	for a; do
		shift
		if [ -n "\$drop" ]; then
			drop=
			[ "\$a" = kvm ] && continue
			set -- "\$@" -accel "\$a"
		elif [ "\$a" = -accel ]; then
			drop=1
		else
			set -- "\$@" "\$a"
		fi
	done
	exec "$real" "\$@"
	EOF
	chmod +x "$wrap/qemu-system-x86_64"
	qemu_path=$wrap:$PATH
fi
kunit() {
	(cd "$tree" && PATH=$qemu_path python3 tools/testing/kunit/kunit.py \
		"$@" --arch=x86_64 --build_dir=.kunit)
}
echo "  BUILD   KUnit kernel (drivers/gpu/drm/scheduler/.kunitconfig)"
if ! kunit build --kunitconfig=drivers/gpu/drm/scheduler --jobs="$jobs" \
	--make_options "CC=$cc" >"$logs/build.log" 2>&1; then
	tail -n 30 "$logs/build.log" >&2
	echo "kunit-7.3: the KUnit kernel did not build ($logs/build.log)" >&2
	not_ok "7.3: the KUnit kernel builds"
	tap_done || exit 1
fi
ok "7.3: the KUnit kernel builds"

passed=0 failed=0 bad=
for pol in $policies; do
	echo "  KUNIT   gpu_sched.sched_policy=$pol"
	rc=0
	kunit exec --timeout=900 --kernel_args "gpu_sched.sched_policy=$pol" \
		'drm_sched*' >"$logs/policy-$pol.log" 2>&1 || rc=$?
	sed -n 's/^\[[0-9:]*\] //p' "$logs/policy-$pol.log" |
		grep -E '^(\[(PASSED|FAILED|SKIPPED|CRASHED)\]|=+ |Testing complete|# |    (Expected|but|.*\.c:[0-9]+))' |
		sed 's/^/    /'
	sum=$(sed -n 's/.*Testing complete\. Ran [0-9]* tests: //p' \
		"$logs/policy-$pol.log")
	p=$(echo "$sum" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
	f=$(echo "$sum" | sed -n 's/.*\(failed\|crashed\): \([0-9]*\).*/\2/p' |
		awk '{ s += $1 } END { print s + 0 }')
	passed=$((passed + ${p:-0}))
	failed=$((failed + f))
	missing=
	for s in $suites; do
		grep -q "$s" "$logs/policy-$pol.log" || missing="$missing $s"
	done
	if [ $rc -ne 0 ] || [ "$f" -ne 0 ] || [ -z "$p" ] || [ -n "$missing" ]; then
		not_ok "7.3: drm_sched KUnit under sched_policy=$pol: ${p:-0} passed, $f failed"
		bad="$bad $pol"
		[ -n "$missing" ] && echo "    suites that did not run:$missing"
		[ -z "$p" ] && tail -n 20 "$logs/policy-$pol.log" | sed 's/^/    /'
	else
		ok "7.3: drm_sched KUnit under sched_policy=$pol: $p passed, 0 failed"
	fi
done
echo "kunit-7.3: $passed passed, $failed failed"
if [ -n "$bad" ]; then
	echo "kunit-7.3: failures under sched_policy$bad ($logs/policy-*.log)" >&2
fi
tap_done
