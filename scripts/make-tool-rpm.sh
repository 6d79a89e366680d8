#!/bin/sh
# Build the gpunice rpm: the tool, its man pages, bash, zsh and fish
# completion and <gpuprio.h>, gpuprio-broker with its unit, D-Bus and polkit
# files, staged with 'make install DESTDIR=' and packed by rpmbuild, whose
# own scan gives its dependencies (the C library and libsystemd). Like the
# deb (scripts/make-tool-deb.sh) it works on any kernel.
#
# usage: make-tool-rpm.sh <build dir> <output dir>
set -eu

mkdir -p "$1" "$2"
build=$(cd "$1" && pwd) outdir=$(cd "$2" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^# define GPUNICE_VERSION "\(.*\)"$/\1/p' \
	"$repo/tools/gpunice/gpunice.c")
stage=$build/stage

rm -rf "${build:?}"/*
echo "  RPM     gpunice $version"
# rpm's own compiler flags for packages (hardening included).
# BROKER=1: gpuprio-broker and gpunice --ask, or a failed build.
make -s -C "$repo/tools/gpunice" O="$build" BROKER=1 \
	CFLAGS="$(rpm --eval '%{optflags}') -Werror" \
	LDFLAGS="-Wl,-z,relro -Wl,-z,now" "$build/gpunice" \
	"$build/gpuprio-broker"
make -s -C "$repo/tools/gpunice" O="$build" DESTDIR="$stage" PREFIX=/usr \
	BROKER=1 CFLAGS="$(rpm --eval '%{optflags}') -Werror" \
	LDFLAGS="-Wl,-z,relro -Wl,-z,now" install >/dev/null
# Stripped and compressed here: Debian's rpm runs its brp-compress under
# dash, which fails, so rpm's own post-install steps are off (below).
strip --remove-section=.comment --remove-section=.note \
	--strip-unneeded "$stage/usr/bin/gpunice" "$stage/usr/sbin/gpuprio-broker"
find "$stage/usr/share/man" -type f -exec gzip -9n {} +
mkdir -p "$stage/usr/share/licenses/gpunice"
cp "$repo/tools/gpunice/debian/copyright" "$stage/usr/share/licenses/gpunice/"

cat >"$build/gpunice.spec" <<EOF
%global debug_package %{nil}
%global __os_install_post %{nil}
%global _build_id_links none
Name: gpunice
Version: $version
Release: 1
Summary: Show or change the GPU priority of processes
License: GPL-2.0-or-later AND (LGPL-2.1-or-later OR MIT)

%description
gpunice runs a command with a given GPU priority, or shows or changes the
GPU priority of running processes, as ionice does for I/O priorities:
classes none, realtime, best-effort (GPU nice -20 to 19) and idle.

It needs a Linux kernel with the gpunice patches (CONFIG_GPUPRIO); on
other kernels it says so and changes nothing. The package also holds the
man pages of the system calls, of the <gpuprio.h> functions and of
/proc/PID/gpu_nice, bash, zsh and fish completion,
and the <gpuprio.h> header for programs that set their own GPU priority.

%install
cp -a "$stage/." %{buildroot}/

%files
%license /usr/share/licenses/gpunice/copyright
/usr/bin/gpunice
/usr/include/gpuprio.h
/usr/include/linux/gpuprio.h
/usr/share/bash-completion/completions/gpunice
/usr/share/zsh/site-functions/_gpunice
/usr/share/fish/vendor_completions.d/gpunice.fish
/usr/share/man/man1/gpunice.1*
/usr/share/man/man2/gpuprio_get.2*
/usr/share/man/man2/gpuprio_set.2*
/usr/share/man/man3/gpuprio.3*
/usr/share/man/man3/gpuprio_pidfd_open.3*
/usr/share/man/man3/gpuprio_supported.3*
/usr/share/man/man3/gpuprio_syscall_numbers.3*
/usr/share/man/man5/proc_pid_gpu_nice.5*
/usr/sbin/gpuprio-broker
/usr/include/gpuprio-broker.h
/usr/lib/systemd/system/gpuprio-broker.service
/usr/share/dbus-1/system-services/org.gpunice.Broker1.service
/usr/share/dbus-1/system.d/org.gpunice.Broker1.conf
/usr/share/polkit-1/actions/org.gpunice.broker.policy
/usr/share/man/man8/gpuprio-broker.8*
/usr/share/man/man3/gpuprio_broker_raise.3*
/usr/share/man/man3/gpuprio_broker_raise_pidfd.3*
/usr/share/man/man3/gpuprio_broker_drop.3*
EOF

# HOME: rpmbuild reads ~/.rpmmacros, and a build daemon's home may not
# exist; the database path is one of the build's own.
HOME=$build rpmbuild -bb --quiet --define "_topdir $build/rpmbuild" \
	--define "_dbpath $build/rpmdb" "$build/gpunice.spec" >/dev/null
rm -f "$outdir"/gpunice-[0-9]*.rpm
mv "$build"/rpmbuild/RPMS/*/gpunice-*.rpm "$outdir/"
echo "  RPM     $(ls "$outdir"/gpunice-[0-9]*.rpm)"
