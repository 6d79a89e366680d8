#!/bin/sh
# make tree and make refresh, round trip: on a copy of the repository's
# series, a tree written back unchanged changes nothing; an edit made the
# way HACKING.md says (git commit --fixup, git rebase --autosquash) lands
# in the one patch and the one new file it belongs to (this line's own
# copy where it has one), and refresh says which other line gets it and
# which has its own copy; what refresh refuses
# (a later commit editing an earlier commit's new file) changes nothing.
#
# usage: series-roundtrip.sh <pristine tree> <pristine repository>
# (the repository make patches keeps in out/patch-work/upstream)
# Prints TAP.
set -u
# The 6.12 line's series (patches/6.12/).
LINE=6.12
export LINE
pristine=$(realpath -m "$1") upstream=$(realpath -m "$2")
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
branch=roundtrip-$$
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"
# check NAME STATUS: ok when the status is 0.
check() { tap_result "$2" "$1"; }
cleanup() {
	# rm and prune: git worktree remove takes minutes on a kernel tree.
	rm -rf "$tmp/tree"
	git -C "$upstream" worktree prune
	git -C "$upstream" branch -q -D "$branch" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
changed() { git -C "$tmp/repo" status --porcelain | sed 's/^...//' | sort; }
in_tree() { git -C "$tmp/tree" -c user.name=t -c user.email=t@t "$@"; }

# A throwaway copy of what the series is made of, as one commit.
mkdir "$tmp/repo"
(cd "$repo" && cp -R --parents scripts patches kernel include fs drivers \
	Documentation tools/testing/selftests/gpuprio "$tmp/repo/")
# A file that the 7.3 line shares (M) gets a 6.12 copy of its own, the
# same as the shared one for now; a 6.12 edit must go there alone.
# Not the first new file, which the edit below (A) takes.
mine=$(grep -v '^#' "$tmp/repo/patches/6.12/files" | cut -d' ' -f2- |
	tr ' ' '\n' | sed 1d | while read -r f; do
		grep -q " $f\( \|$\)" "$tmp/repo/patches/7.3/files" &&
			[ ! -e "$tmp/repo/patches/7.3/new/$f" ] && echo "$f"
	done | head -n 1)
mkdir -p "$(dirname "$tmp/repo/patches/6.12/new/$mine")"
cp "$tmp/repo/$mine" "$tmp/repo/patches/6.12/new/$mine"
p4=$(grep " $mine\( \|$\)" "$tmp/repo/patches/6.12/files" | cut -d' ' -f1)
git -C "$tmp/repo" init -q
git -C "$tmp/repo" add -A
git -C "$tmp/repo" -c user.name=t -c user.email=t@t commit -q -m copy

if ! "$tmp/repo/scripts/series-tree.sh" "$pristine" "$upstream" \
	"$tmp/tree" "$branch" > "$tmp/log" 2>&1; then
	not_ok "make tree builds the series branch"
	tap_diag "$tmp/log"
	tap_done
	exit 1
fi
ok "make tree builds the series branch"
[ "$(in_tree rev-list --count base..HEAD)" -eq \
	"$(wc -l < "$tmp/repo/patches/6.12/series")" ]
check "one commit per patch" $?

"$tmp/repo/scripts/series-refresh.sh" "$tmp/tree" "$tmp/repo" > /dev/null
[ -z "$(changed)" ]
check "make refresh of an unedited tree changes nothing" $?
changed | sed 's/^/# changed: /'

# An edit to a new file of the first patch that adds any (A), and to an
# upstream file that only one later patch (B) edits.
p1=$(sed -n '/^[0-9]/{s/ .*//p;q}' "$tmp/repo/patches/6.12/files")
new1=$(sed -n "s|^$p1 \\([^ ]*\\).*|\\1|p" "$tmp/repo/patches/6.12/files")
i1=$(grep -nx "$p1" "$tmp/repo/patches/6.12/series" | cut -d: -f1)
unique=$(cd "$tmp/repo/patches/6.12" &&
	sed -n 's|^+++ b/||p' [0-9]*.patch | sort | uniq -u)
i2=$i1 p2='' up2=''
while [ -z "$up2" ] && p2=$(sed -n "$((i2 + 1))p" \
		"$tmp/repo/patches/6.12/series") && [ -n "$p2" ]; do
	i2=$((i2 + 1))
	up2=$(for f in $unique; do
		grep -qx "+++ b/$f" "$tmp/repo/patches/6.12/$p2" && echo "$f"
	done | head -n 1)
done
# And an edit to a new file that another line has its own copy of (C, of
# patch P3): refresh must say that this copy did not get the edit.
over='' p3='' own=''
while read -r p files; do
	for f in $files; do
		[ "$f" = "$new1" ] && continue
		[ -e "$tmp/repo/patches/7.3/new/$f" ] &&
			over=$f p3=$p own=patches/7.3/new/$f && break 2
	done
done <<EOF
$(grep -v '^#' "$tmp/repo/patches/6.12/files")
EOF
i3=$(grep -nx "$p3" "$tmp/repo/patches/6.12/series" | cut -d: -f1)
i4=$(grep -nx "$p4" "$tmp/repo/patches/6.12/series" | cut -d: -f1)
echo "/* round trip */" >> "$tmp/tree/$up2"
in_tree commit -q -a --fixup="$(in_tree rev-list --reverse base..HEAD | sed -n "${i2}p")"
echo "/* round trip */" >> "$tmp/tree/$new1"
in_tree commit -q -a --fixup="$(in_tree rev-list --reverse base..HEAD | sed -n "${i1}p")"
echo "/* round trip */" >> "$tmp/tree/$over"
in_tree commit -q -a --fixup="$(in_tree rev-list --reverse base..HEAD | sed -n "${i3}p")"
echo "/* round trip */" >> "$tmp/tree/$mine"
in_tree commit -q -a --fixup="$(in_tree rev-list --reverse base..HEAD | sed -n "${i4}p")"
GIT_SEQUENCE_EDITOR=: in_tree rebase -q -i --autosquash base > /dev/null 2>&1
"$tmp/repo/scripts/series-refresh.sh" "$tmp/tree" "$tmp/repo" > /dev/null \
	2> "$tmp/refresh.err"
printf '%s\n' "$new1" "$over" "patches/6.12/$p2" "patches/6.12/new/$mine" |
	sort > "$tmp/want"
changed | cmp -s - "$tmp/want"
check "a fixup changes exactly its patch and its new file" $?
changed | sed 's/^/# changed: /'
grep -qx "+/\* round trip \*/" "$tmp/repo/patches/6.12/$p2"
check "the edit of an upstream file is a hunk of its patch ($up2)" $?
tail -n 1 "$tmp/repo/$new1" | grep -qx "/\* round trip \*/" &&
	! grep -q "round trip" "$tmp/repo/patches/6.12/$p1"
check "the edit of a new file is in the repository, not in a patch" $?
grep -qF "refresh: $new1 is shared with another line, which gets this change too" \
	"$tmp/refresh.err"
check "refresh says that the 7.3 line shares the edited $new1" $?
grep -qF "refresh: $over changed, and the 7.3 line has its own copy, $own, which did not" \
	"$tmp/refresh.err"
check "refresh says that $own, the 7.3 line's own copy, did not change" $?
grep -qF "refresh: $mine changed in the 6.12 line's own copy, patches/6.12/new/$mine; the shared one, which another line uses, did not" \
	"$tmp/refresh.err"
check "refresh says that the shared $mine, which the 7.3 line uses, did not change" $?
sed 's/^/# /' "$tmp/refresh.err"

# Refused: a commit on top that edits patch A's new file.
git -C "$tmp/repo" add -A
git -C "$tmp/repo" -c user.name=t -c user.email=t@t commit -q -m edited
echo "/* late */" >> "$tmp/tree/$new1"
in_tree commit -q -a -m late
! "$tmp/repo/scripts/series-refresh.sh" "$tmp/tree" "$tmp/repo" \
	> /dev/null 2>&1
check "make refresh refuses a late edit of an earlier commit's new file" $?
[ -z "$(changed)" ]
check "and changes nothing" $?
head=$(in_tree rev-parse HEAD)
! "$tmp/repo/scripts/series-tree.sh" "$pristine" "$upstream" \
	"$tmp/tree" "$branch" > /dev/null 2>&1 &&
	[ "$(in_tree rev-parse HEAD)" = "$head" ]
check "make tree keeps a tree with work not written back" $?
tap_done
