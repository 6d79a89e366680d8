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
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"

# dpkg-query -W -f=... PKG: installed when PKG is a line of $tmp/installed.
cat >"$tmp/bin/dpkg-query" <<'EOF'
#!/bin/sh
for p; do :; done
grep -qx "$p" "$FAKE_DIR/installed" || exit 1
printf 'install ok installed'
EOF
# apt-cache policy PKG: a candidate when PKG is not in $tmp/unavailable.
cat >"$tmp/bin/apt-cache" <<'EOF'
#!/bin/sh
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

n=0
check() {
	n=$((n + 1))
	if eval "$2"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		sed 's/^/# out: /' "$tmp/out"
		sed 's/^/# apt-get: /' "$tmp/apt-get.log"
	fi
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
		(unset KTAR; FAKE_UID=$uid PATH="$tmp/bin:$PATH" \
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
echo "1..$n"
