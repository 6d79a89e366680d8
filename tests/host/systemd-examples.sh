#!/bin/sh
# The systemd examples of docs/examples/systemd run as installed:
# systemd-analyze verify, in a root of their own, accepts the unit and the
# drop-in (on a unit of its own) with gpunice where make install puts it
# (PREFIX=/usr/local) and where the gpunice package does (/usr/bin), and
# refuses them in a root without gpunice, which shows that it checks the
# command. TAP on stdout; skips without systemd-analyze.
#
# usage: systemd-examples.sh <repository>
set -u

repo=$1
ex=$repo/docs/examples/systemd
if ! command -v systemd-analyze >/dev/null; then
	echo "ok 1 - systemd examples # SKIP no systemd-analyze (make deps" \
		"installs systemd)"
	echo "1..1"
	exit 0
fi
units=
for d in /usr/lib/systemd/system /lib/systemd/system; do
	[ -f "$d/sysinit.target" ] && units=$d && break
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# mkroot DIR [PREFIX]: systemd's own units (the examples' default
# dependencies), the two example commands, the examples, and gpunice
# installed by make install PREFIX= when PREFIX is given.
mkroot() {
	r=$1
	mkdir -p "$r/usr/lib/systemd" "$r/usr/local/bin" \
		"$r/etc/systemd/system/kiosk.service.d"
	cp -R "$units" "$r/usr/lib/systemd/system"
	for c in transcode-queue my-kiosk-app; do
		printf '#!/bin/sh\nexec sleep 1\n' >"$r/usr/local/bin/$c"
		chmod 755 "$r/usr/local/bin/$c"
	done
	cp "$ex/transcode.service" "$r/etc/systemd/system/"
	printf '[Service]\nUser=kiosk\nExecStart=/usr/local/bin/my-kiosk-app\n' \
		>"$r/etc/systemd/system/kiosk.service"
	cp "$ex/compositor-boost.conf" "$r/etc/systemd/system/kiosk.service.d/"
	[ $# -lt 2 ] && return 0
	make -s --no-print-directory -C "$repo" install DESTDIR="$r" \
		PREFIX="$2" >"$tmp/install.log" 2>&1
}

# verify DIR UNIT: systemd-analyze verify in that root; its output in
# $tmp/out, its status returned.
verify() {
	systemd-analyze verify --root="$1" "$1/etc/systemd/system/$2" \
		>"$tmp/out" 2>&1
}

# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
# check DESCRIPTION STATUS: what the last verify printed on failure.
check() { tap_result "$2" "$1" "$tmp/out"; }

if [ -z "$units" ]; then
	echo "not ok 1 - systemd's units are installed (sysinit.target)"
	echo "1..1"
	exit 0
fi

for layout in "/usr/local make install" "/usr the gpunice package"; do
	prefix=${layout%% *}
	what=${layout#* }
	r=$tmp/root$(echo "$prefix" | tr / -)
	mkroot "$r" "$prefix"
	[ -x "$r$prefix/bin/gpunice" ]
	status=$?
	[ $status -eq 0 ] || cp "$tmp/install.log" "$tmp/out"
	check "gpunice in $prefix/bin ($what)" $status
	verify "$r" transcode.service && [ ! -s "$tmp/out" ]
	check "transcode.service verifies with gpunice in $prefix/bin ($what)" $?
	verify "$r" kiosk.service && [ ! -s "$tmp/out" ]
	check "compositor-boost.conf verifies with gpunice in $prefix/bin ($what)" $?
done

# Without gpunice the same check fails, naming it: it is checked.
mkroot "$tmp/bare"
! verify "$tmp/bare" transcode.service && grep -q 'gpunice' "$tmp/out"
check "transcode.service is refused where gpunice is not installed" $?
! verify "$tmp/bare" kiosk.service && grep -q 'gpunice' "$tmp/out"
check "the drop-in's ExecStart is checked too (refused without gpunice)" $?
tap_done
