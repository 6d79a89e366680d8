#!/bin/sh
# Turn the repository into the series sent upstream, for the kernel line
# LINE (7.3 by default, or 6.12): one commit per patch of
# patches/<line>/series, each with the new files patches/<line>/files gives
# it, on top of that line's pristine tree; then git format-patch with the
# cover letter, and prove the result: git am applies it to a clean tree,
# which then holds exactly the tree that make check synced (and, for a
# line whose kernel it builds, built and tested). The line's out-of-tree
# patches (patches/<line>/out-of-tree), the last of its series, are not
# mailed: they go to <out dir>-out-of-tree, the mailed series must not
# contain the words that file names, and they must apply on top of it.
#
# usage: make-patches.sh <pristine tree> <tested tree> <work dir> <out dir>
# Prints TAP, one line per check.
set -u
# Debian's python3 (with python3-ply and python3-git) for checkpatch's
# spdxcheck.py, ahead of any other python3 on PATH.
export PATH="/usr/bin:/bin:$PATH"

pristine=$(realpath -m "$1") tested=$(realpath -m "$2")
work=$(realpath -m "$3") out=$(realpath -m "$4")
repo=$(cd "$(dirname "$0")/.." && pwd)
upstream=$work/upstream
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"

# shellcheck source=scripts/series-lib.sh
. "$repo/scripts/series-lib.sh"
dir=$(series_dir "$repo")
line=$series_line

series_base "$pristine" "$upstream" || { echo "not ok 1 base tree"; exit 1; }
cd "$upstream" || exit 1
git checkout -q -f -B gpunice base && git clean -q -fdx -e .base-ready

# Every new file is claimed by a patch: a shared one by a patch of some
# line, an override of this line by a patch of this line.
claimed=$(mktemp)
claims() {
	sed -e '/^#/d' -e '/^$/d' "$@" | cut -d' ' -f2- | tr ' ' '\n' |
		while read -r f; do
			[ -n "$f" ] && (cd "$repo" && find "$f" -type f 2>/dev/null)
		done | sort -u
}
# The new files at their kernel paths are the upstream line's.
claims "$repo/patches/$series_upstream/files" > "$claimed"
(cd "$repo" && find kernel include fs drivers Documentation \
	tools/testing/selftests/gpuprio -type f 2>/dev/null | sort) |
	comm -23 - "$claimed" > "$claimed.missing"
# This line's own files and deltas, by this line's patches.
sed -e '/^#/d' -e '/^$/d' "$dir/files" | cut -d' ' -f2- |
	tr ' ' '\n' | sort -u > "$claimed"
for sub in new delta; do
	[ -d "$dir/$sub" ] || continue
	(cd "$dir/$sub" && find . -type f | sed -e 's|^\./||' \
		-e "s|\\.diff\$||" | sort) | comm -23 - "$claimed" |
		sed "s|^|patches/$line/$sub/|" >> "$claimed.missing"
done
if [ -s "$claimed.missing" ]; then
	not_ok "every new file belongs to a patch"
	sed 's/^/# unclaimed: /' "$claimed.missing"
else
	ok "every new file belongs to a patch"
fi
rm -f "$claimed" "$claimed.missing"

series_commit "$repo" 2>&1 | sed 's/^/# /'
[ "$(git rev-list --count base..gpunice)" -eq "$(wc -l < "$dir/series")" ] ||
	not_ok "every patch applies in order"
ok "one commit per patch ($(git rev-list --count base..gpunice) commits)"

# The mailed series is the line's series without its out-of-tree patches,
# the last ones (patches/<line>/out-of-tree), which go to $oot instead.
oot=$out-out-of-tree
series_out_of_tree "$repo" > "$work/oot"
n_oot=$(grep -c . "$work/oot")
n_mail=$(($(wc -l < "$dir/series") - n_oot))
if [ "$n_oot" -eq 0 ] || tail -n "$n_oot" "$dir/series" | cmp -s - "$work/oot"
then
	ok "the out-of-tree patches ($n_oot) are the last of the series"
else
	not_ok "the out-of-tree patches ($n_oot) are the last of the series"
	sed 's/^/# out of tree: /' "$work/oot"
fi
mailed=$(git rev-list --reverse base..gpunice | sed -n "${n_mail}p")
rm -rf "$out" "$oot"
mkdir -p "$out"
git format-patch -q --cover-letter --thread=shallow -o "$out" "base..$mailed"
if [ "$n_oot" -gt 0 ]; then
	git format-patch -q -N --start-number $((n_mail + 1)) -o "$oot" \
		"$mailed..gpunice"
	ok "git format-patch wrote $n_oot out-of-tree patch(es), not mailed, to $oot"
fi
python3 - "$out" "$dir/cover-letter.txt" <<'PY'
import glob, sys
out, cover = sys.argv[1], sys.argv[2]
path = glob.glob(out + '/0000-cover-letter.patch')[0]
text = open(cover).read()
subject, blurb = text.split('\n', 1)
s = open(path).read()
s = s.replace('*** SUBJECT HERE ***', subject.strip())
s = s.replace('*** BLURB HERE ***', blurb.strip())
open(path, 'w').write(s)
PY
ok "git format-patch wrote $(find "$out" -type f | wc -l) files to $out"

# What only the out-of-tree patches may add is nowhere in what is mailed.
words=0
for w in $(series_out_of_tree "$repo" not-mailed); do
	words=$((words + 1))
	if grep -l -F -- "$w" "$out"/*.patch > "$work/names"; then
		not_ok "the mailed series has no $w"
		sed 's|^.*/|# in |' "$work/names"
	else
		ok "the mailed series has no $w"
	fi
done
rm -f "$work/oot" "$work/names"

# git am onto a clean tree gives exactly the tree make check tested.
rm -rf "$work/am"
git worktree prune
git worktree add -q --detach "$work/am" base
set --
for p in "$out"/*.patch; do
	case $p in *0000-cover-letter*) ;; *) set -- "$@" "$p" ;; esac
done
if git -C "$work/am" -c user.name=t -c user.email=t@t am -q "$@"; then
	ok "git am applies the series to a clean $line tree"
else
	not_ok "git am applies the series to a clean $line tree"
fi
if [ "$n_oot" -gt 0 ]; then
	if git -C "$work/am" -c user.name=t -c user.email=t@t am -q \
		"$oot"/*.patch; then
		ok "git am applies the out-of-tree patches on top of it"
	else
		not_ok "git am applies the out-of-tree patches on top of it"
	fi
fi
diffs=0
while read -r f; do
	cmp -s "$work/am/$f" "$tested/$f" || {
		echo "# differs from the tested tree: $f"
		diffs=$((diffs + 1))
	}
done < "$tested/.gpunice-files"
if [ $diffs -eq 0 ]; then
	ok "the result is the tree make check synced (the one it builds)"
else
	not_ok "the result is the tree make check synced (the one it builds)"
fi

# kernel-doc -none -Wall: the series adds no warning to the files it adds
# or touches (upstream's own warnings in them stay upstream's).
kdoc=0 checked=0
mkdir -p "$work/kdoc-base"
for f in $(git -C "$work/am" diff --name-only base HEAD -- '*.c' '*.h'); do
	checked=$((checked + 1))
	before=0
	if git cat-file -e "base:$f" 2>/dev/null; then
		git show "base:$f" > "$work/kdoc-base/file"
		before=$(scripts/kernel-doc -none -Wall "$work/kdoc-base/file" 2>&1 |
			grep -c 'warning:')
	fi
	after=$(scripts/kernel-doc -none -Wall "$work/am/$f" 2>&1 |
		grep -c 'warning:')
	if [ "$after" -gt "$before" ]; then
		kdoc=$((kdoc + 1))
		echo "# $f: $before kernel-doc warnings before the series, $after after"
		scripts/kernel-doc -none -Wall "$work/am/$f" 2>&1 | sed 's/^/#   /'
	fi
done
if [ $kdoc -eq 0 ] && [ $checked -gt 0 ]; then
	ok "kernel-doc -none -Wall: no new warning in the files the series adds or touches"
else
	not_ok "kernel-doc -none -Wall: no new warning in the files the series adds or touches"
fi
# rm and prune: git worktree remove takes minutes on a kernel tree.
rm -rf "$work/am" "$work/kdoc-base"
git worktree prune

# checkpatch --strict on what is sent. Its warning that added files may need
# a MAINTAINERS update (FILE_PATH_CHANGES) is answered here, not in the
# commit message: it is accepted when every file the patch adds has an
# entry of its own (get_maintainer.pl names a subsystem besides THE REST).
# A warning scripts/checkpatch-accepted lists for a file, with the reason
# the commit message gives, is accepted too.
# added <patch>: the files it adds.
added() {
	awk '/^diff --git / { f = $4; sub(/^b\//, "", f) }
	     /^new file mode/ { print f }' "$1"
}
# uncovered <patch>: its added files that only THE REST covers.
uncovered() {
	for f in $(added "$1"); do
		scripts/get_maintainer.pl --nogit --nogit-fallback --no-email \
			--no-l --subsystem --norolestats --no-tree -f "$f" \
			2>/dev/null | grep -qv '^THE REST$' || echo "$f"
	done
}
for p in "$out"/*.patch "$oot"/*.patch; do
	case $p in *0000-cover-letter*|"$oot/*.patch") continue ;; esac
	res=$(scripts/checkpatch.pl --strict -q --show-types "$p" 2>&1 |
		checkpatch_unaccepted "$repo")
	rc=0
	if echo "$res" | grep -E '^(ERROR|WARNING|CHECK):' |
		grep -qv '^WARNING:FILE_PATH_CHANGES:'; then
		rc=1
	elif [ -n "$res" ]; then
		un=$(uncovered "$p")
		[ -z "$un" ] || { rc=1; res="$res
no MAINTAINERS entry of its own: $un"; }
	fi
	if [ $rc -eq 0 ]; then
		ok "checkpatch --strict ${p##*/}"
	else
		not_ok "checkpatch --strict ${p##*/}"
		echo "$res" | sed 's/^/# /'
	fi
done
tap_done
