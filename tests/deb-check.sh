#!/bin/sh
# make deb, checked from the small test config: the linux-image package
# (built by scripts/make-deb.sh in a copy of the built test tree, so that
# only what the local version changes is rebuilt and the test kernel is
# left alone) and the gpunice package, built as a user
# (tests/lib/builder.sh: as root, nobody); their metadata, contents,
# lintian on gpunice, and that apt would install both. TAP on stdout.
#
# usage: deb-check.sh <linux-source tarball> <pristine> <built test tree> <work>
# The checks are single-quoted on purpose: check() evaluates them.
# shellcheck disable=SC2016,SC2012,SC2034
set -u

tarball=$1 pristine=$2 tested=$3 work=$4
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"
# check NAME COMMAND [ARG...]: ok when the command succeeds.
check() { tap_run "$@"; }
# shellcheck source=tests/lib/builder.sh
. "$repo/tests/lib/builder.sh"

# The copy of the tree is kept for the next run, which then copies only
# what changed: removing 1.8 GB takes minutes on a busy disk.
mkdir -p "$work"
find "$work" -mindepth 1 -maxdepth 1 ! -name linux -exec rm -rf {} +
# apt-get takes a package file only by a path with a slash in front.
work=$(cd "$work" && pwd)
start=$(date +%s)
rsync -a --delete "$tested/" "$work/linux/"
cp "$tested/.config" "$work/test.config"
check "make-deb.sh builds the kernel package from the test config as $(builder_name)" \
	as_builder "$work" "JOBS=${JOBS:-2} '$repo/scripts/make-deb.sh' \
	'$tarball' '$pristine' '$work/linux' '$work/test.config' \
	>'$work/kernel.log' 2>&1 || { tail -n 30 '$work/kernel.log'; exit 1; }"
echo "# kernel package: $(( $(date +%s) - start )) s (copy of the tree included)"
check "the test kernel's tree is untouched (no local version)" \
	test "$(make -s -C "$tested" kernelrelease)" = \
	"$(make -s -C "$pristine" kernelversion)"

image=$(ls "$work"/linux-image-*-gpuprio_*.deb 2>/dev/null | head -n 1)
check "one linux-image-*-gpuprio package" test -f "$image"
check "the package is $(builder_name)'s, who built it" \
	test "$(stat -c %U "$image" 2>/dev/null)" = "$(builder_name)"
check "linux-libc-dev is set aside, not offered for install" eval \
	'! ls "$work"/linux-libc-dev_*.deb && ls "$work"/not-installed/linux-libc-dev_*.deb'

field() { dpkg-deb -f "$1" "$2"; }
release=$(field "$image" Package | sed 's/^linux-image-//')
# The line's major.minor, from its pristine source (6.12 or 7.3).
version=$(make -s -C "$pristine" kernelversion | cut -d. -f1,2)
check "kernel package: release $release ends in -gpuprio" \
	eval 'case $release in "$version".*-gpuprio) true ;; *) false ;; esac'
check "kernel package: dpkg-deb -I reads its control fields" eval \
	'dpkg-deb -I "$image" | grep -qx " Architecture: $(dpkg --print-architecture)" &&
	dpkg-deb -I "$image" | grep -q "^ Description: Linux kernel, version $release"'
dpkg-deb -c "$image" >"$work/image.list"
check "kernel package: /boot/vmlinuz, System.map and config of $release" eval \
	'grep -q " ./boot/vmlinuz-$release$" "$work/image.list" &&
	grep -q " ./boot/System.map-$release$" "$work/image.list" &&
	grep -q " ./boot/config-$release$" "$work/image.list"'
dpkg-deb --fsys-tarfile "$image" | tar -xO "./boot/config-$release" \
	>"$work/config" 2>/dev/null
check "kernel package: its config has CONFIG_GPUPRIO=y and the local version" \
	eval 'grep -qx CONFIG_GPUPRIO=y "$work/config" &&
	grep -qx "CONFIG_LOCALVERSION=\"-gpuprio\"" "$work/config"'
dpkg-deb --fsys-tarfile "$image" | tar -xO "./boot/vmlinuz-$release" \
	>"$work/vmlinuz" 2>/dev/null
check "kernel package: the kernel image says $release" \
	grep -aqF "$release (" "$work/vmlinuz"
check "kernel package: its postinst runs the kernel's install hooks" \
	eval 'dpkg-deb -I "$image" postinst | grep -q "run-parts" &&
	dpkg-deb -I "$image" postinst | grep -q "/etc/kernel" &&
	dpkg-deb -I "$image" postinst | grep -q "postinst\.d"'

tool_start=$(date +%s)
check "make-tool-deb.sh builds the gpunice package as $(builder_name)" \
	as_builder "$work" "'$repo/scripts/make-tool-deb.sh' '$work/tool' '$work'"
echo "# gpunice package: $(( $(date +%s) - tool_start )) s"
tool=$(ls "$work"/gpunice_*.deb 2>/dev/null | head -n 1)
check "gpunice package: depends on libc6 and libsystemd0 alone" eval \
	'field "$tool" Depends |
		grep -Eqx "libc6 \(>= [0-9.]+\), libsystemd0 \(>= [0-9]+\)" &&
	[ -z "$(field "$tool" Pre-Depends)" ] &&
	[ -z "$(field "$tool" Recommends)" ]'
check "gpunice package: name, version and section" eval \
	'[ "$(field "$tool" Package)" = gpunice ] &&
	[ "$(field "$tool" Section)" = utils ] &&
	[ -n "$(field "$tool" Version)" ]'
dpkg-deb -c "$tool" >"$work/tool.list"
check "gpunice package: tool, man pages, completion, headers, copyright" eval '
	for f in usr/bin/gpunice usr/share/man/man1/gpunice.1.gz \
		usr/share/man/man2/gpuprio_set.2.gz \
		usr/share/man/man2/gpuprio_get.2.gz \
		usr/share/man/man3/gpuprio.3.gz \
		usr/share/man/man3/gpuprio_supported.3.gz \
		usr/share/man/man3/gpuprio_pidfd_open.3.gz \
		usr/share/man/man3/gpuprio_syscall_numbers.3.gz \
		usr/share/man/man5/proc_pid_gpu_nice.5.gz \
		usr/share/bash-completion/completions/gpunice \
		usr/share/zsh/vendor-completions/_gpunice \
		usr/share/fish/vendor_completions.d/gpunice.fish \
		usr/include/gpuprio.h usr/include/linux/gpuprio.h \
		usr/share/doc/gpunice/copyright; do
		grep -q " \./$f$" "$work/tool.list" || { echo "missing $f"; exit 1; }
	done'
check "gpunice package: the broker, its unit, D-Bus and polkit files, header, man page" eval '(
	for f in usr/sbin/gpuprio-broker \
		usr/lib/systemd/system/gpuprio-broker.service \
		usr/share/dbus-1/system-services/org.gpunice.Broker1.service \
		usr/share/dbus-1/system.d/org.gpunice.Broker1.conf \
		usr/share/polkit-1/actions/org.gpunice.broker.policy \
		usr/include/gpuprio-broker.h \
		usr/share/man/man8/gpuprio-broker.8.gz \
		usr/share/man/man3/gpuprio_broker_raise.3.gz; do
		grep -q " \./$f$" "$work/tool.list" || { echo "missing $f"; exit 1; }
	done)'
check "gpunice package: every file is root's" \
	eval '! grep -v " root/root " "$work/tool.list"'
mkdir -p "$work/x"
dpkg-deb -x "$tool" "$work/x"
check "gpunice package: the tool and the broker link to libc and libsystemd alone" eval \
	'(for b in usr/bin/gpunice usr/sbin/gpuprio-broker; do
		! objdump -p "$work/x/$b" | grep NEEDED |
			grep -Ev "libc\.so\.6|libsystemd\.so\.0" || exit 1
	done)'
check "gpunice package: the unit and the activation file name /usr/sbin/gpuprio-broker" eval \
	'grep -qx "ExecStart=/usr/sbin/gpuprio-broker" \
		"$work/x/usr/lib/systemd/system/gpuprio-broker.service" &&
	grep -qx "Exec=/usr/sbin/gpuprio-broker" \
		"$work/x/usr/share/dbus-1/system-services/org.gpunice.Broker1.service"'
check "gpunice package: the tool runs (--version)" eval \
	'"$work/x/usr/bin/gpunice" --version | grep -q "^gpunice from gpunice "'
# Maintainer: whoever built it, by the kernel package's own rule
# (scripts/make-tool-deb.sh); DEBFULLNAME and DEBEMAIL name that person.
check "gpunice package: Maintainer is its builder, as the kernel package's" \
	eval '[ "$(field "$tool" Maintainer)" = "$(field "$image" Maintainer)" ]'
check "gpunice package: DEBFULLNAME and DEBEMAIL name the maintainer" eval \
	'DEBFULLNAME="gpunice check" DEBEMAIL=check@example.org \
		"$repo/scripts/make-tool-deb.sh" "$work/tool-named" \
		"$work/named" >/dev/null &&
	named=$(ls "$work"/named/gpunice_*.deb) &&
	[ "$(field "$named" Maintainer)" = "gpunice check <check@example.org>" ]'
named=$(ls "$work"/named/gpunice_*.deb 2>/dev/null | head -n 1)
# Lintian checks a package for Debian's archive, whose maintainer has a
# real address: the package with one named (a root@host of the default is
# an error for it, and fine on the machine that built it).
if command -v lintian >/dev/null; then
	check "gpunice package: lintian --info --pedantic reports nothing" eval \
		'[ -f "$named" ] && [ -z "$(lintian --info --pedantic "$named" 2>&1 | grep -v "running with root")" ]'
else
	not_ok "gpunice package: lintian is installed (scripts/install-deps.sh)"
fi
check "apt would install both packages" \
	apt-get install -s -q "$image" "$tool"

# LOCALMODCONFIG=1: only the modules an lsmod listing names stay modules.
# Two modules without dependencies that a user can choose on both lines
# (7.x's CRC libraries, used before, have no prompt), one of them "loaded".
cp "$tested/.config" "$work/lmc.config"
"$pristine/scripts/config" --file "$work/lmc.config" --enable MODULES \
	--module IKCONFIG --module BINFMT_MISC
printf 'Module Size Used by\nconfigs 12288 0\n' > "$work/lsmod.txt"
check "LOCALMODCONFIG=1 LSMOD=file: a config-only run succeeds" \
	sh -c 'LOCALMODCONFIG=1 LSMOD="$1/lsmod.txt" DEB_CONFIG_ONLY=1 \
		"$2/scripts/make-deb.sh" "$3" "$4" "$1/linux" "$1/lmc.config" \
		>"$1/lmc.log" 2>&1 || { cat "$1/lmc.log"; exit 1; }' \
	sh "$work" "$repo" "$tarball" "$pristine"
check "LOCALMODCONFIG=1: the listed module stays, the other goes" eval \
	'grep -qx CONFIG_IKCONFIG=m "$work/linux/.config" &&
	 ! grep -q "^CONFIG_BINFMT_MISC=m" "$work/linux/.config" &&
	 grep -qx CONFIG_GPUPRIO=y "$work/linux/.config"'
check "LOCALMODCONFIG=1 with an unreadable LSMOD fails and says so" eval \
	'! LOCALMODCONFIG=1 LSMOD=/nonexistent DEB_CONFIG_ONLY=1 \
		"$repo/scripts/make-deb.sh" "$tarball" "$pristine" \
		"$work/linux" "$work/lmc.config" 2>"$work/lmc.err" >/dev/null &&
	 grep -q "cannot read LSMOD=/nonexistent" "$work/lmc.err"'
tap_done
