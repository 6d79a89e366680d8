#!/bin/sh
# make rpm and make pacman, checked from the small test config as
# tests/deb-check.sh checks make deb: the kernel package (built by
# scripts/make-deb.sh with KPKG= in a copy of the built test tree, so that
# only what the local version changes is rebuilt) and gpunice in the same
# format, inspected with the format's own tools: names, versions with the
# -gpuprio suffix, the kernel image, modules, the tool, its man pages and
# completion, dependencies no wider than the C library. The packages are
# built as a user (tests/lib/builder.sh: as root, nobody).
# TAP on stdout.
#
# usage: pkg-check.sh <rpm|pacman> <linux-source tarball> <pristine>
#	<built test tree> <work>
# The checks are single-quoted on purpose: check() evaluates them.
# shellcheck disable=SC2016,SC2012,SC2034
set -u

fmt=$1 tarball=$2 pristine=$3 tested=$4 work=$5
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"
# check NAME COMMAND [ARG...]: ok when the command succeeds.
check() { tap_run "$@"; }

mkdir -p "$work"
find "$work" -mindepth 1 -maxdepth 1 ! -name linux -exec rm -rf {} +
work=$(cd "$work" && pwd)
rsync -a --delete "$tested/" "$work/linux/"
cp "$tested/.config" "$work/test.config"

# shellcheck source=tests/lib/builder.sh
. "$repo/tests/lib/builder.sh"
run() { as_builder "$work" "$*"; }

start=$(date +%s)
check "make-deb.sh KPKG=$fmt builds the kernel package from the test config as $(builder_name)" \
	run "KPKG=$fmt JOBS=${JOBS:-2} '$repo/scripts/make-deb.sh' '$tarball' \
	'$pristine' '$work/linux' '$work/test.config' >'$work/kernel.log' 2>&1 ||
	{ tail -n 30 '$work/kernel.log'; exit 1; }"
echo "# kernel package: $(( $(date +%s) - start )) s (copy of the tree included)"
tool_start=$(date +%s)
check "make-tool-$fmt.sh builds the gpunice package as $(builder_name)" \
	run "'$repo/scripts/make-tool-$fmt.sh' '$work/tool' '$work'"
echo "# gpunice package: $(( $(date +%s) - tool_start )) s"
release=$(make -s -C "$work/linux" kernelrelease 2>/dev/null)
# The line's major.minor, from its pristine source (6.12 or 7.3).
version=$(make -s -C "$pristine" kernelversion | cut -d. -f1,2)
check "the tree's release $release ends in -gpuprio" eval \
	'case $release in "$version".*-gpuprio) true ;; *) false ;; esac'

case $fmt in
rpm)
	image=$(ls "$work"/kernel-[0-9]*.rpm 2>/dev/null | head -n 1)
	tool=$(ls "$work"/gpunice-[0-9]*.rpm 2>/dev/null | head -n 1)
	info() { rpm -qp --qf "$2" "$1"; }
	list() { rpm -qlp "$1"; }
	deps() { rpm -qRp "$1" | grep -v '^rpmlib(' | grep -vx 'rtld(GNU_HASH)'; }
	check "kernel package: kernel-<version>, version $release with - as _" \
		eval '[ "$(info "$image" "%{NAME} %{VERSION}")" = \
			"kernel $(echo "$release" | tr - _)" ]'
	check "kernel package: rpm -qip reads it, x86_64" eval \
		'rpm -qip "$image" | grep -q "^Architecture: x86_64"'
	kdir=/lib/modules/$release
	check "kernel-headers is set aside, not offered for install" eval \
		'! ls "$work"/kernel-headers-*.rpm &&
		ls "$work"/not-installed/kernel-headers-*.rpm'
	check "gpunice package: name and version" eval \
		'[ "$(info "$tool" "%{NAME}")" = gpunice ] &&
		[ -n "$(info "$tool" "%{VERSION}")" ]'
	check "gpunice package: depends on the C library and libsystemd alone" eval \
		'deps "$tool" >"$work/deps" && grep -q "^libc\.so\.6" "$work/deps" &&
		grep -q "^libsystemd\.so\.0" "$work/deps" &&
		! grep -v -e "^libc\.so\.6" -e "^libsystemd\.so\.0" "$work/deps"'
	;;
pacman)
	image=$(ls "$work"/linux-gpuprio-[0-9]*.pkg.tar.zst 2>/dev/null | head -n 1)
	tool=$(ls "$work"/gpunice-[0-9]*.pkg.tar.zst 2>/dev/null | head -n 1)
	field() { pacman -Qip "$1" | sed -n "s/^$2 *: //p"; }
	list() { pacman -Qlp "$1" | sed 's/^[^ ]* //'; }
	check "kernel package: linux-gpuprio, version $release with - as _" eval \
		'[ "$(field "$image" Name)" = linux-gpuprio ] &&
		field "$image" Version | grep -qx "$(echo "$release" | tr - _)-[0-9]*"'
	check "kernel package: pacman -Qip reads it, x86_64" eval \
		'[ "$(field "$image" Architecture)" = x86_64 ]'
	kdir=/usr/lib/modules/$release
	check "no api-headers package (the distribution's stay)" eval \
		'! ls "$work"/linux-gpuprio-api-headers-*'
	check "gpunice package: name and version" eval \
		'[ "$(field "$tool" Name)" = gpunice ] &&
		[ -n "$(field "$tool" Version)" ]'
	check "gpunice package: depends on glibc and systemd-libs alone" eval \
		'[ "$(field "$tool" "Depends On" | tr -s " ")" = "glibc systemd-libs" ]'
	;;
esac

check "the packages are $(builder_name)'s, who built them" eval \
	'[ "$(stat -c %U "$image" "$tool" 2>/dev/null | sort -u)" = \
		"$(builder_name)" ]'
list "$image" >"$work/image.list"
check "kernel package: the kernel image $kdir/vmlinuz" \
	grep -qx "$kdir/vmlinuz" "$work/image.list"
check "kernel package: modules in $kdir/kernel" \
	grep -q "^$kdir/kernel/.*\.ko" "$work/image.list"
mkdir -p "$work/x"
case $fmt in
rpm) (cd "$work/x" && rpm2cpio "$image" | cpio -idm --quiet) ;;
pacman) bsdtar -xf "$image" -C "$work/x" 2>/dev/null ;;
esac
check "kernel package: the image says $release" \
	grep -aqF "$release (" "$work/x$kdir/vmlinuz"

list "$tool" >"$work/tool.list"
check "gpunice package: tool, man pages, completion, headers, licence" eval '
	for f in /usr/bin/gpunice /usr/share/man/man1/gpunice.1.gz \
		/usr/share/man/man2/gpuprio_set.2.gz \
		/usr/share/man/man2/gpuprio_get.2.gz \
		/usr/share/man/man3/gpuprio.3.gz \
		/usr/share/man/man3/gpuprio_supported.3.gz \
		/usr/share/man/man3/gpuprio_syscall_numbers.3.gz \
		/usr/share/man/man5/proc_pid_gpu_nice.5.gz \
		/usr/share/bash-completion/completions/gpunice \
		/usr/share/zsh/site-functions/_gpunice \
		/usr/share/fish/vendor_completions.d/gpunice.fish \
		/usr/include/gpuprio.h /usr/include/linux/gpuprio.h \
		/usr/share/licenses/gpunice/copyright; do
		grep -qx "$f" "$work/tool.list" || { echo "missing $f"; exit 1; }
	done'
check "gpunice package: the broker, its unit, D-Bus and polkit files, header, man page" eval '(
	for f in /usr/sbin/gpuprio-broker \
		/usr/lib/systemd/system/gpuprio-broker.service \
		/usr/share/dbus-1/system-services/org.gpunice.Broker1.service \
		/usr/share/dbus-1/system.d/org.gpunice.Broker1.conf \
		/usr/share/polkit-1/actions/org.gpunice.broker.policy \
		/usr/include/gpuprio-broker.h \
		/usr/share/man/man8/gpuprio-broker.8.gz \
		/usr/share/man/man3/gpuprio_broker_raise.3.gz; do
		grep -qx "$f" "$work/tool.list" || { echo "missing $f"; exit 1; }
	done)'
mkdir -p "$work/t"
case $fmt in
rpm) (cd "$work/t" && rpm2cpio "$tool" | cpio -idm --quiet) ;;
pacman) bsdtar -xf "$tool" -C "$work/t" 2>/dev/null ;;
esac
check "gpunice package: the tool and the broker link to libc and libsystemd alone" eval \
	'(for b in usr/bin/gpunice usr/sbin/gpuprio-broker; do
		objdump -p "$work/t/$b" | grep -q "NEEDED.*libsystemd\.so\.0" &&
		! objdump -p "$work/t/$b" | grep NEEDED |
			grep -Ev "libc\.so\.6|libsystemd\.so\.0" || exit 1
	done)'
check "gpunice package: the unit and the activation file name /usr/sbin/gpuprio-broker" eval \
	'grep -qx "ExecStart=/usr/sbin/gpuprio-broker" \
		"$work/t/usr/lib/systemd/system/gpuprio-broker.service" &&
	grep -qx "Exec=/usr/sbin/gpuprio-broker" \
		"$work/t/usr/share/dbus-1/system-services/org.gpunice.Broker1.service"'
check "gpunice package: the tool runs (--version)" eval \
	'"$work/t/usr/bin/gpunice" --version | grep -q "^gpunice from gpunice "'
tap_done
