#!/bin/sh
# The system the broker's guest suite (75-broker) needs, as a tree to lay
# over the test initramfs: Debian's dbus-daemon and polkitd with every
# library they load, their configuration and polkit's actions, and the
# broker, a dynamic gpunice (with --ask) and broker_client, installed as
# 'make install' installs them (PREFIX=/usr), and the examples of
# docs/examples that raise through it.
#
# usage: broker-root.sh <output dir> <gpunice build dir> <broker_client>
# The build dir holds gpunice and gpuprio-broker, built with libsystemd.
set -eu

out=$1 build=$2 client=$3
repo=$(cd "$(dirname "$0")/.." && pwd)

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
root=$out.tmp

# A file of the build machine at the same path in the tree.
put() {
	for f in "$@"; do
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f"
	done
}

# A program and the libraries it loads (the dynamic loader among them),
# at the paths ldd finds them, so that the loader's default search finds
# them in the guest too.
put_prog() {
	put "$1"
	ldd "$1" | awk '/=> \// { print $3 } /^\t\/[^ ]*ld-linux/ { print $1 }' |
	while read -r lib; do
		[ -e "$root$lib" ] || put "$lib"
	done
}

for prog in /usr/bin/dbus-daemon /usr/bin/dbus-send \
	/usr/lib/polkit-1/polkitd "$build/gpunice" "$build/gpuprio-broker" \
	"$client"; do
	[ -x "$prog" ] || { echo "broker-root.sh: no $prog" >&2; exit 1; }
	put_prog "$prog"
done
# glibc finds users through the files module; polkitd loads GIO's modules
# directory only if it exists.
put /lib/x86_64-linux-gnu/libnss_files.so.2 2>/dev/null || true
put /usr/share/dbus-1/system.conf \
	/usr/share/dbus-1/system.d/org.freedesktop.PolicyKit1.conf \
	/usr/share/polkit-1/actions/org.freedesktop.policykit.policy

# Ours, where make install PREFIX=/usr puts them.
mkdir -p "$root/usr/sbin" "$root/usr/bin" "$root/tests/bin" \
	"$root/usr/share/polkit-1/actions" "$root/usr/share/polkit-1/rules.d" \
	"$root/etc/polkit-1/rules.d" "$root/usr/share/dbus-1/system-services"
mv "$root$build/gpunice" "$root/usr/bin/gpunice"
mv "$root$build/gpuprio-broker" "$root/usr/sbin/gpuprio-broker"
mv "$root$client" "$root/tests/bin/broker_client"
src=$repo/tools/gpunice/broker
cp "$src/org.gpunice.Broker1.conf" "$root/usr/share/dbus-1/system.d/"
cp "$src/org.gpunice.broker.policy" "$root/usr/share/polkit-1/actions/"
sed 's|@SBINDIR@|/usr/sbin|' "$src/org.gpunice.Broker1.service" \
	> "$root/usr/share/dbus-1/system-services/org.gpunice.Broker1.service"
# The examples that raise through the broker, as a user installs them.
mkdir -p "$root/usr/local/bin" "$root/tests/examples"
cp "$repo/docs/examples/gamemode/gpunice-gamemode" "$root/usr/local/bin/"
cp "$repo/docs/examples/systemd/compositor-boost.conf" \
	"$repo/docs/examples/systemd/compositor-boost.rules" \
	"$root/tests/examples/"
printf 'passwd: files\ngroup: files\n' > "$root/etc/nsswitch.conf"
# dbus-daemon wants a machine ID; GLib (polkitd) looks for the bus in
# /var/run, which Debian links to /run.
mkdir -p "$root/var/lib/dbus" "$root/run/dbus"
ln -s ../run "$root/var/run"
echo 0123456789abcdef0123456789abcdef > "$root/etc/machine-id"
cp "$root/etc/machine-id" "$root/var/lib/dbus/machine-id"
find "$root" -type d -exec chmod 755 {} +

rm -rf "$out"
mv "$out.tmp" "$out"
