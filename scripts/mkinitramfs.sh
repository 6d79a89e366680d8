#!/bin/sh
# Build the test guest's initramfs: static busybox, the guest scripts and
# the static test programs.
#
# usage: mkinitramfs.sh <output.cpio.gz> <dir of static programs> <tests/guest>
#        [<kernel tree>] [<overlay>]
# With the kernel tree, the guest also gets the subtests of the i915 mock
# selftests it runs (tests/guest/suites/50-i915-mock). An overlay, a tree
# copied over the root last, brings the system of the broker's suite
# (tests/broker-root.sh).
set -eu

out=$1 bindir=$2 guestdir=$3 ktree=${4-} overlay=${5-}
root=$(mktemp -d)
chmod 0755 "$root"
trap 'rm -rf "$root"' EXIT

mkdir -p "$root/bin" "$root/sbin" "$root/etc" "$root/proc" "$root/sys" \
	"$root/dev" "$root/tmp" "$root/root" "$root/tests/bin"
cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$guestdir/init" "$root/init"
cp -R "$guestdir/suites" "$root/tests/suites"
cp "$guestdir"/*.sh "$root/tests/"
# The shell test library, at the path the guest scripts source it from.
mkdir -p "$root/tests/lib"
cp "$guestdir"/../lib/*.sh "$root/tests/lib/"
if [ -n "$ktree" ]; then
	"$guestdir/../i915-mock-params.sh" --subtests "$ktree" \
		> "$root/tests/i915-mock-subtests"
fi
cp "$bindir"/* "$root/tests/bin/"
for prog in "$root"/tests/bin/*; do
	ln -s "../tests/bin/${prog##*/}" "$root/bin/${prog##*/}"
done
# The man pages, rendered: the guest has no man(1), so a small one reads them.
man=$guestdir/../../man
mkdir -p "$root/usr/share/man"
for page in $(cd "$man" && echo man*/*.[0-9]); do
	# From the man folder, so that ".so man2/..." links resolve.
	(cd "$man" && mandoc -T utf8 -I os=gpunice "$page") 2>/dev/null |
		col -b > "$root/usr/share/man/${page##*/}.txt"
done
cat > "$root/bin/man" <<'MAN'
#!/bin/sh
# man [section] page: show a rendered page of the gpunice man pages
[ $# -eq 2 ] && set -- "$2.$1"
for f in /usr/share/man/$1.txt /usr/share/man/$1.[0-9].txt; do
	[ -f "$f" ] && exec less "$f"
done
echo "man: no page for $1; have: $(ls /usr/share/man | sed 's/.txt$//')" >&2
exit 1
MAN
chmod 0755 "$root/bin/man"

cat > "$root/etc/passwd" <<PASSWD
root:x:0:0:root:/root:/bin/sh
gpu:x:1000:1000:GPU test user:/tmp:/bin/sh
other:x:2000:2000:another user:/tmp:/bin/sh
messagebus:x:100:101::/nonexistent:/bin/false
polkitd:x:998:998:polkit:/nonexistent:/bin/false
PASSWD
cat > "$root/etc/group" <<GROUP
root:x:0:
gpu:x:1000:
other:x:2000:
messagebus:x:101:
polkitd:x:998:
GROUP

if [ -n "$overlay" ]; then
	cp -R "$overlay/." "$root/"
fi

(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
echo "  INITRD  $out"
