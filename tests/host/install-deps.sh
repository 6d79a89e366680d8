#!/bin/sh
# scripts/install-deps.sh (make deps) without installing anything: dpkg-query,
# apt-cache, apt-get and id are stand-ins on PATH that answer from files of
# this test and record what apt-get was asked to do. TAP on stdout.
#
# usage: install-deps.sh <repository>
# The checks are strings for eval: their $ expand there, not here, and
# the variables they read are set by run().
# shellcheck disable=SC2016,SC2034
set -u

repo=$1
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"

# dpkg-query -W -f=... PKG: installed when PKG is a line of $tmp/installed.
cat >"$tmp/bin/dpkg-query" <<'EOF'
#!/bin/sh
for p; do :; done
grep -qx "$p" "$FAKE_DIR/installed" || exit 1
printf 'install ok installed'
EOF
# apt-cache policy PKG: a candidate when PKG is not in $tmp/unavailable.
# apt-cache policy: the package files, from $tmp/policy.
cat >"$tmp/bin/apt-cache" <<'EOF'
#!/bin/sh
if [ $# -eq 1 ]; then
	cat "$FAKE_DIR/policy"
	exit 0
fi
for p; do :; done
echo "$p:"
echo "  Installed: (none)"
if grep -qx "$p" "$FAKE_DIR/unavailable"; then
	echo "  Candidate: (none)"
else
	echo "  Candidate: 1.0-1"
fi
EOF
cat >"$tmp/bin/apt-get" <<'EOF'
#!/bin/sh
echo "$*" >>"$FAKE_DIR/apt-get.log"
EOF
cat >"$tmp/bin/id" <<'EOF'
#!/bin/sh
[ "$1" = -u ] && echo "$FAKE_UID"
EOF
chmod +x "$tmp/bin/"*
export FAKE_DIR="$tmp"
# The system's own release, as the script reads it, and a mirror that is
# not the first line (security is): the suite must come from the mirror.
codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
mirror="file:$tmp/repo"
cat >"$tmp/policy" <<EOF
Package files:
 100 /var/lib/dpkg/status
     release a=now
 500 http://security.invalid/debian-security $codename-security/main amd64 Packages
     release o=Debian,n=$codename-security,c=main,b=amd64
 500 $mirror $codename/main amd64 Packages
     release o=Debian,n=$codename,c=main,b=amd64
EOF
# The files the script writes for trixie-backports, under APT_ROOT.
export APT_ROOT="$tmp/root"
src="$APT_ROOT/etc/apt/sources.list.d/gpunice-trixie-backports.sources"
pin="$APT_ROOT/etc/apt/preferences.d/gpunice-trixie-backports"

# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"
tap_show_on_failure "$tmp/out" "$tmp/apt-get.log"
check() {
	if eval "$2"; then ok "$1"; else not_ok "$1"; fi
}

# Every package a target needs, as the real dpkg-query sees this machine's:
# the list comes from the script itself, with no package named twice.
PATH="$tmp/bin:$PATH" "$repo/scripts/install-deps.sh" --list >"$tmp/all" 2>&1
sed 's/?$//' "$tmp/all" >"$tmp/names"
: >"$tmp/out"
: >"$tmp/apt-get.log"

# run UID KTAR INSTALLED-EXCEPT UNAVAILABLE: the script with the fakes.
run() {
	uid=$1 ktar=$2
	: >"$tmp/apt-get.log"
	if [ -n "$ktar" ]; then
		FAKE_UID=$uid KTAR=$ktar PATH="$tmp/bin:$PATH" \
			"$repo/scripts/install-deps.sh" >"$tmp/out" 2>&1
	else
		(unset KTAR KTAR73; FAKE_UID=$uid PATH="$tmp/bin:$PATH" \
			"$repo/scripts/install-deps.sh" >"$tmp/out" 2>&1)
	fi
	rc=$?
}
# except PKG...: every package is installed but these.
except() {
	printf '%s\n' "$@" >"$tmp/except"
	grep -vxF -f "$tmp/except" "$tmp/names" >"$tmp/installed" || true
}
: >"$tmp/unavailable"

check "--list names no package twice" \
	'[ "$(sort "$tmp/names" | uniq -d)" = "" ] && [ -s "$tmp/names" ]'
for p in debhelper kmod fakeroot dpkg-dev lintian rpm makepkg \
	pacman-package-manager systemd qemu-system-x86 gcc-aarch64-linux-gnu \
	gnuplot-nox; do
	check "make deps installs $p (a later target needs it)" \
		"grep -qx '$p' '$tmp/names'"
done
check "make deps installs linux-source-7.3 (the upstream line)" \
	'grep -qx linux-source-7.3 "$tmp/names"'

# Without root: it says what is missing, installs nothing and fails.
except debhelper kmod
run 1000 ""
check "without root: exits non-zero when packages are missing" '[ $rc -ne 0 ]'
check "without root: prints 'missing:' with debhelper and kmod" \
	'grep -q "missing: \(debhelper kmod\|kmod debhelper\)$" "$tmp/out"'
check "without root: does not claim to be installing" \
	'! grep -qi "installing" "$tmp/out"'
check "without root: names the command that installs them" \
	'grep -q "sudo make deps" "$tmp/out"'
check "without root: apt-get is never run" '[ ! -s "$tmp/apt-get.log" ]'

except nothing-missing
run 1000 ""
check "without root, nothing missing: exits 0 silently" \
	'[ $rc -eq 0 ] && [ ! -s "$tmp/out" ]'

# As root: apt-get installs exactly what is missing.
except debhelper rpm makepkg
run 0 ""
check "as root: installs what is missing" \
	'[ $rc -eq 0 ] && grep -q "^install .* debhelper rpm makepkg$" "$tmp/apt-get.log"'

# The kernel source: Debian's package only for Debian's tarball.
except linux-source-6.12 debhelper
run 0 ""
check "default KTAR: linux-source-6.12 is needed" \
	'grep -q "^install .*linux-source-6.12" "$tmp/apt-get.log"'
run 0 "$tmp/linux-6.12.1.tar.xz"
check "KTAR=kernel.org tarball: linux-source-6.12 is not needed" \
	'[ $rc -eq 0 ] && grep -q "^install .*debhelper" "$tmp/apt-get.log" &&
	! grep -q "linux-source" "$tmp/apt-get.log"'
check "KTAR that does not exist yet: a warning names it" \
	'grep -q "KTAR=$tmp/linux-6.12.1.tar.xz does not exist" "$tmp/out"'
except linux-source-6.12
: >"$tmp/linux-6.12.1.tar.xz"
run 1000 "$tmp/linux-6.12.1.tar.xz"
check "KTAR=kernel.org tarball, without root: nothing else missing, exit 0" \
	'[ $rc -eq 0 ] && [ ! -s "$tmp/out" ]'

# A distribution without linux-source-6.12 (Ubuntu): a clear error that
# names KTAR, and nothing half-installed.
except linux-source-6.12 debhelper
echo linux-source-6.12 >"$tmp/unavailable"
run 0 ""
check "no linux-source-6.12 in the lists: fails and points to KTAR=" \
	'[ $rc -ne 0 ] && grep -q "KTAR=" "$tmp/out" &&
	! grep -q "^install" "$tmp/apt-get.log"'

# An optional package the distribution lacks is skipped, not fatal.
opt=$(sed -n 's/?$//p' "$tmp/all" | head -n 1)
except "$opt" debhelper
echo "$opt" >"$tmp/unavailable"
run 0 ""
check "optional ${opt:-package} not in the lists: skipped, the rest installed" \
	'[ -n "$opt" ] && [ $rc -eq 0 ] &&
	grep -q "^install .*debhelper" "$tmp/apt-get.log" &&
	! grep -q "$opt" "$tmp/apt-get.log" && grep -q "skipped: $opt" "$tmp/out"'
: >"$tmp/unavailable"

# linux-source-7.3: as root, trixie-backports is added from the system's
# mirror, pinned so that nothing but linux-source-7.3 comes from it, then
# the package lists are updated and it is installed.
rm -rf "$APT_ROOT"
except linux-source-7.3
run 0 ""
check "linux-source-7.3 missing, as root: installed after adding the suite" \
	'[ $rc -eq 0 ] && grep -q "added trixie-backports" "$tmp/out" &&
	[ "$(sed -n "s/ .*//p" "$tmp/apt-get.log" | tr "\n" " ")" = "update install " ] &&
	grep -q "^install .*linux-source-7.3$" "$tmp/apt-get.log"'
check "the suite is trixie-backports main from the system's own mirror" \
	'[ "$(grep -v "^#" "$src" | tr "\n" "|")" = "Types: deb|URIs: $mirror|Suites: trixie-backports|Components: main|Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg|" ]'
# The pin as stanzas "package|pin|priority", one a line.
stanzas() {
	awk '/^Package:/ { p = $2 } /^Pin:/ { sub(/^Pin: */, ""); n = $0 }
		/^Pin-Priority:/ { print p "|" n "|" $2 }' "$pin"
}
check "pin: every stanza is for trixie-backports, two stanzas" \
	'[ -f "$pin" ] && [ "$(stanzas | wc -l)" -eq 2 ] &&
	! stanzas | grep -v "|release n=trixie-backports|"'
check "pin: everything of the suite below 100 (never chosen by itself)" \
	'stanzas | awk -F"|" "\$1 == \"*\" { f = 1; if (\$3 >= 100) bad = 1 }
		END { exit !(f && !bad) }"'
check "pin: linux-source-7.3 is the only package allowed (500)" \
	'[ "$(stanzas | awk -F"|" "\$3 >= 100 { print \$1 \"=\" \$3 }")" = "linux-source-7.3=500" ]'
cp "$src" "$tmp/src.1"
cp "$pin" "$tmp/pin.1"
touch -d @0 "$src" "$pin"
run 0 ""
check "run again: the files are left as they are, nothing said about them" \
	'[ $rc -eq 0 ] && ! grep -q "added" "$tmp/out" &&
	cmp -s "$src" "$tmp/src.1" && cmp -s "$pin" "$tmp/pin.1" &&
	[ "$(stat -c %Y "$src")" = 0 ]'
sed -i 's/^Pin-Priority: -1$/Pin-Priority: 1/' "$pin"
except nothing-missing
run 0 ""
check "as root, nothing missing: an older pin is brought up to date" \
	'[ $rc -eq 0 ] && grep -q "updated the trixie-backports" "$tmp/out" &&
	cmp -s "$pin" "$tmp/pin.1" && [ ! -s "$tmp/apt-get.log" ]'

# Real apt, offline, on those files: a local trixie-backports (made
# NotAutomatic as Debian's is) that has linux-source-7.3 and a newer gcc
# and a package the system does not have; the pin must let apt choose
# only linux-source-7.3.
mkdir -p "$tmp/repo/dists/trixie-backports/main/binary-amd64" \
	"$tmp/apt/lists/partial" "$tmp/apt/cache/archives/partial"
for v in linux-source-7.3:7.3.4-1~bpo13+1 gcc:99:1-1 newtool:1.0-1; do
	printf 'Package: %s\nVersion: %s\nArchitecture: all\nFilename: pool/x.deb\nSize: 1\nDescription: x\n\n' \
		"${v%%:*}" "${v#*:}"
done >"$tmp/repo/dists/trixie-backports/main/binary-amd64/Packages"
cat >"$tmp/repo/dists/trixie-backports/Release" <<EOF
Origin: Debian Backports
Label: Debian Backports
Suite: stable-backports
Codename: trixie-backports
NotAutomatic: yes
ButAutomaticUpgrades: yes
Architectures: amd64
Components: main
EOF
printf 'Package: gcc\nStatus: install ok installed\nVersion: 4:12.2.0-3\nArchitecture: amd64\nDescription: x\n\n' \
	>"$tmp/apt/status"
# The repository is unsigned: trust it instead of Debian's key, and only
# in this copy of the sources.
mkdir -p "$tmp/aptetc/sources.list.d" "$tmp/aptetc/preferences.d"
sed 's/^Signed-By:.*/Trusted: yes/' "$src" >"$tmp/aptetc/sources.list.d/t.sources"
cp "$pin" "$tmp/aptetc/preferences.d/"
apt() {
	cmd=$1
	shift
	"/usr/bin/$cmd" -o Dir::Etc="$tmp/aptetc" -o Dir::State::status="$tmp/apt/status" \
		-o Dir::State::Lists="$tmp/apt/lists" -o Dir::Cache="$tmp/apt/cache" \
		-o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)" \
		-o APT::Architecture=amd64 -o APT::Architectures::=amd64 "$@"
}
if [ -x /usr/bin/apt-get ]; then
	apt apt-get update -qq >"$tmp/apt.out" 2>&1
	candidate() {
		apt apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p'
	}
	check "real apt with the pin: linux-source-7.3 7.3.4 is the candidate" \
		'[ "$(candidate linux-source-7.3)" = "7.3.4-1~bpo13+1" ]'
	check "real apt with the pin: gcc stays the installed one" \
		'[ "$(candidate gcc)" = "4:12.2.0-3" ] &&
		! apt apt-get -s upgrade 2>/dev/null | grep -q "^Inst"'
	check "real apt with the pin: no other package of the suite can be chosen" \
		'[ "$(candidate newtool)" = "(none)" ]'
else
	skip "real apt with the pin" "no apt-get: real apt not checked"
fi

except linux-source-7.3
rm -rf "$APT_ROOT"
run 1000 ""
check "linux-source-7.3 missing, without root: named, no apt file written" \
	'[ $rc -ne 0 ] && grep -q "missing: linux-source-7.3" "$tmp/out" &&
	[ ! -e "$APT_ROOT" ]'
export KTAR73="$tmp/linux-7.3.4.tar.xz"
run 0 "$tmp/linux-6.12.1.tar.xz"
unset KTAR73
check "KTAR73=kernel.org tarball: no linux-source-7.3, no backports" \
	'[ $rc -eq 0 ] && [ ! -s "$tmp/apt-get.log" ] && [ ! -e "$APT_ROOT" ] &&
	grep -q "KTAR73=$tmp/linux-7.3.4.tar.xz does not exist" "$tmp/out"'

# make deps hands the Makefile's KTAR to the script.
except linux-source-6.12
if FAKE_UID=1000 PATH="$tmp/bin:$PATH" make -s --no-print-directory \
	-C "$repo" deps KTAR="$tmp/linux-6.12.1.tar.xz" >"$tmp/out" 2>&1; then
	made=yes
else
	made=no
fi
check "make deps KTAR=tarball, without root: does not ask for linux-source" \
	'[ $made = yes ] && ! grep -q linux-source "$tmp/out"'
FAKE_UID=1000 PATH="$tmp/bin:$PATH" make -s --no-print-directory \
	-C "$repo" deps >"$tmp/out" 2>&1
check "make deps with Debian's source, without root: missing linux-source-6.12" \
	'grep -q "missing: linux-source-6.12" "$tmp/out"'
tap_done
