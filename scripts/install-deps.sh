#!/bin/sh
# Install the Debian packages the build and the tests need, if missing.
set -eu

pkgs="linux-source-6.12 qemu-system-x86 busybox-static flex bison bc
      libelf-dev libssl-dev cpio xz-utils gcc make patch perl python3
      mandoc groff-base strace rsync
      python3-ply python3-git libdrm-dev pkg-config ccache"
[ $# -gt 0 ] && pkgs="$pkgs $*"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "  APT     installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: need root to install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || true
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
