#!/bin/sh
# Bring a kernel tree up to date with the project: pristine source of the
# kernel line LINE (7.3 by default, or 6.12), the new files of that line's
# series copied in (patches/<line>/files; a backport line's copy through its
# delta, scripts/series-lib.sh), its patches applied. Only files whose
# content changed are touched, so the kernel build stays incremental.
#
# usage: sync-tree.sh <linux-source tarball> <pristine dir> <tree dir>
# GPUNICE_SERIES names another series file, for patches still in the works.
set -eu

tarball=$1 pristine=$2 tree=$3
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/series-lib.sh
. "$repo/scripts/series-lib.sh"
dir=$(series_dir "$repo")
series=${GPUNICE_SERIES:-$dir/series}

unpack() {
	[ -f "$1/.unpacked" ] && return 0
	echo "  UNPACK  $tarball -> $1"
	rm -rf "$1"
	mkdir -p "$1"
	tar -xf "$tarball" -C "$1" --strip-components=1
	touch "$1/.unpacked"
}

unpack "$pristine"
unpack "$tree"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

while read -r p; do
	for f in $(series_files "$repo" "$p"); do
		mkdir -p "$stage/$(dirname "$f")"
		series_copy "$repo" "$f" "$stage/$f" || exit 1
	done
done < "$series"

# Patched files start from their pristine copy.
while read -r p; do
	# A patch's file names have no spaces: one word each.
	# shellcheck disable=SC2013
	for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$dir/$p"); do
		[ -e "$stage/$f" ] && continue
		mkdir -p "$stage/$(dirname "$f")"
		[ -e "$pristine/$f" ] && cp "$pristine/$f" "$stage/$f"
	done
done < "$series"

while read -r p; do
	patch -p1 -s -N --no-backup-if-mismatch -d "$stage" \
		< "$dir/$p" || {
		echo "sync-tree: patch $p does not apply" >&2
		exit 1
	}
done < "$series"

(cd "$stage" && find . -type f | sed 's|^\./||' | sort) > "$stage.list"
trap 'rm -rf "$stage" "$stage.list"' EXIT

changed=0
while read -r f; do
	if ! cmp -s "$stage/$f" "$tree/$f"; then
		mkdir -p "$tree/$(dirname "$f")"
		cp "$stage/$f" "$tree/$f"
		changed=$((changed + 1))
	fi
done < "$stage.list"

# Files the project no longer adds or patches go back to pristine.
if [ -f "$tree/.gpunice-files" ]; then
	comm -23 "$tree/.gpunice-files" "$stage.list" | while read -r f; do
		if [ -e "$pristine/$f" ]; then
			cp "$pristine/$f" "$tree/$f"
		else
			rm -f "$tree/$f"
		fi
	done
fi
cp "$stage.list" "$tree/.gpunice-files"
echo "  SYNC    $tree: $changed file(s) updated"
