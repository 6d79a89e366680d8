#!/bin/sh
# make tree and make refresh, round trip, on a copy of the repository's
# series for the kernel line LINE (7.3, the upstream line, by default; or
# 6.12, its backport): a tree written back unchanged changes nothing; an
# edit made the way HACKING.md says (git commit --fixup, git rebase
# --autosquash) lands in the one patch and the one file it belongs to, and
# make tree gives back the tree that was edited. On the upstream line an
# edit of a new file lands at its kernel path, and refresh says which
# backport line takes it and whose delta no longer applies (and the
# backport's sync then stops, saying which); on a backport line it lands
# in the line's delta or own file, never in the upstream copy. What
# refresh refuses (a later commit editing an earlier commit's new file)
# changes nothing.
#
# usage: series-roundtrip.sh <pristine tree> <pristine repository>
# (the line's, as make patches keeps them in $OUT[/<line>]/patch-work/)
# Prints TAP.
set -u
pristine=$(realpath -m "$1") upstream=$(realpath -m "$2")
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
branch=roundtrip-$$
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"
# shellcheck source=scripts/series-lib.sh
. "$repo/scripts/series-lib.sh"
line=$series_line up=$series_upstream
# The backport line the upstream round trip looks at.
back=6.12
# check NAME STATUS [FILE...]: ok when the status is 0, else the files.
check() { _name=$1 _st=$2; shift 2; tap_result "$_st" "$_name" "$@"; }
cleanup() {
	# rm and prune: git worktree remove takes minutes on a kernel tree.
	rm -rf "$tmp/tree" "$tmp/again"
	git -C "$upstream" worktree prune
	git -C "$upstream" branch -q -D "$branch" "$branch-2" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
changed() {
	git -C "$tmp/repo" status --porcelain -uall | sed 's/^...//' | sort
}
in_tree() { git -C "$tmp/tree" -c user.name=t -c user.email=t@t "$@"; }
series() { sed -n "$1p" "$tmp/repo/patches/$line/series"; }
# nth <patch>: its place in the line's series.
nth() { grep -nx "$1" "$tmp/repo/patches/$line/series" | cut -d: -f1; }
# patch_of <file> [line]: the patch that adds a new file.
patch_of() {
	grep " $1\( \|$\)" "$tmp/repo/patches/${2:-$line}/files" | cut -d' ' -f1
}
# new_files: the line's new files, in series order.
new_files() {
	grep -v '^#' "$tmp/repo/patches/$line/files" | cut -d' ' -f2- |
		tr ' ' '\n' | sed '/^$/d'
}
# fixup <file> <text> [<file> <text>...]: append a line to a file of the
# tree, as a fixup of the commit of the patch that adds it (or, for an
# upstream file, of the patch named by FIXUP_PATCH).
fixup() {
	p=${FIXUP_PATCH:-$(patch_of "$1")}
	echo "$2" >> "$tmp/tree/$1"
	in_tree commit -q -a --fixup="$(in_tree rev-list --reverse \
		base..HEAD | sed -n "$(nth "$p")p")"
}

# A throwaway copy of what the series is made of, as one commit.
mkdir "$tmp/repo"
(cd "$repo" && cp -R --parents scripts patches kernel include fs drivers \
	Documentation tools/testing/selftests/gpuprio "$tmp/repo/")
git -C "$tmp/repo" init -q
git -C "$tmp/repo" add -A
git -C "$tmp/repo" -c user.name=t -c user.email=t@t commit -q -m copy

if ! "$tmp/repo/scripts/series-tree.sh" "$pristine" "$upstream" \
	"$tmp/tree" "$branch" > "$tmp/log" 2>&1; then
	not_ok "make tree builds the $line series branch"
	tap_diag "$tmp/log"
	tap_done
	exit 1
fi
ok "make tree builds the $line series branch"
[ "$(in_tree rev-list --count base..HEAD)" -eq \
	"$(wc -l < "$tmp/repo/patches/$line/series")" ]
check "one commit per patch" $?

"$tmp/repo/scripts/series-refresh.sh" "$tmp/tree" "$tmp/repo" > /dev/null
[ -z "$(changed)" ]
check "make refresh of an unedited tree changes nothing" $?
changed | sed 's/^/# changed: /'

# B: an upstream file that only one patch edits, and that patch.
unique=$(cd "$tmp/repo/patches/$line" &&
	sed -n 's|^+++ b/||p' [0-9]*.patch | sort | uniq -u)
up2='' i=0
while [ -z "$up2" ] && i=$((i + 1)) && p2=$(series "$i") && [ -n "$p2" ]; do
	up2=$(for f in $unique; do
		grep -qx "+++ b/$f" "$tmp/repo/patches/$line/$p2" && echo "$f"
	done | head -n 1)
done
FIXUP_PATCH=$p2 fixup "$up2" "/* round trip */"

if [ "$line" = "$up" ]; then
	# A: a new file the backport takes as it is; C: one it takes through
	# its delta, edited where the delta does not touch it; D: one whose
	# delta an edit breaks (the first line the delta changes, edited).
	a='' c='' d=''
	for f in $(new_files); do
		grep -q " $f\( \|$\)" "$tmp/repo/patches/$back/files" || continue
		if [ -e "$tmp/repo/patches/$back/delta/$f.diff" ]; then
			if [ -z "$c" ]; then c=$f; elif [ -z "$d" ]; then d=$f; fi
		elif [ -z "$a" ]; then
			a=$f
		fi
	done
	fixup "$a" "/* round trip */"
	fixup "$c" "/* round trip */"
	# The first line the delta takes away, as the upstream copy has it.
	old=$(sed -n '/^@@/,$p' "$tmp/repo/patches/$back/delta/$d.diff" |
		sed -n 's/^-//p' | sed '/^$/d' | head -n 1)
	n=$(grep -nxF -- "$old" "$tmp/tree/$d" | head -n 1 | cut -d: -f1)
	sed -i "${n}s|\$| /* round trip */|" "$tmp/tree/$d"
	in_tree commit -q -a --fixup="$(in_tree rev-list --reverse \
		base..HEAD | sed -n "$(nth "$(patch_of "$d")")p")"
	want=$(printf '%s\n' "$a" "$c" "$d" "patches/$line/$p2")
else
	# A: a new file with a delta, edited; C: one the line took as it is,
	# edited (it gets a delta); D: a file of the line's own.
	a='' c='' d=''
	for f in $(new_files); do
		if [ -e "$tmp/repo/patches/$line/new/$f" ]; then
			[ -z "$d" ] && d=$f
		elif [ -e "$tmp/repo/patches/$line/delta/$f.diff" ]; then
			[ -z "$a" ] && a=$f
		elif [ -z "$c" ]; then
			c=$f
		fi
	done
	fixup "$a" "/* round trip */"
	fixup "$c" "/* round trip */"
	fixup "$d" "/* round trip */"
	want=$(printf '%s\n' "patches/$line/delta/$a.diff" \
		"patches/$line/delta/$c.diff" "patches/$line/new/$d" \
		"patches/$line/$p2")
fi
GIT_SEQUENCE_EDITOR=: in_tree rebase -q -i --autosquash base > /dev/null 2>&1
"$tmp/repo/scripts/series-refresh.sh" "$tmp/tree" "$tmp/repo" > /dev/null \
	2> "$tmp/refresh.err"
echo "$want" | sort > "$tmp/want"
changed | cmp -s - "$tmp/want"
check "a fixup changes exactly its patch and its file" $?
changed | sed 's/^/# changed: /'
grep -qx "+/\* round trip \*/" "$tmp/repo/patches/$line/$p2"
check "the edit of an upstream file is a hunk of its patch ($up2)" $?

if [ "$line" = "$up" ]; then
	tail -n 1 "$tmp/repo/$a" | grep -qx "/\* round trip \*/" &&
		! grep -q "round trip" "$tmp/repo/patches/$line/$(patch_of "$a")"
	check "the edit of a new file is at its kernel path, not in a patch" $?
	grep -qF "refresh: $a changed; the $back line takes the change too" \
		"$tmp/refresh.err"
	check "refresh says that the $back line takes the edit of $a" $?
	grep -qF "refresh: $c changed; the $back line takes the change too, through patches/$back/delta/$c.diff" \
		"$tmp/refresh.err"
	check "refresh says that the $back line takes $c through its delta" $?
	grep -qF "refresh: $d changed, and the $back line's delta, patches/$back/delta/$d.diff, no longer applies to it" \
		"$tmp/refresh.err"
	check "refresh says that the $back delta of $d no longer applies" $?
	# The backport's copies, as its next sync makes them.
	mkdir -p "$tmp/copy"
	series_copy "$tmp/repo" "$c" "$tmp/copy/c" "$back" 2> "$tmp/copy.err" &&
		tail -n 1 "$tmp/copy/c" | grep -qx "/\* round trip \*/"
	check "the $back copy of $c has the edit and its delta" $?
	! series_copy "$tmp/repo" "$d" "$tmp/copy/d" "$back" 2> "$tmp/copy.err" &&
		grep -qF "series: the $back delta of $d, patches/$back/delta/$d.diff, no longer applies" \
			"$tmp/copy.err"
	check "the $back sync stops at the delta of $d, naming it" $?
	sed 's/^/# /' "$tmp/copy.err"
	SERIES_CONFLICTS=1 series_copy "$tmp/repo" "$d" "$tmp/copy/d" \
		"$back" 2> /dev/null && grep -q '^<<<<<<<' "$tmp/copy/d" &&
		grep -q '^>>>>>>>' "$tmp/copy/d"
	check "make tree LINE=$back gives $d with conflict markers to resolve" $?
else
	git -C "$tmp/repo" diff --quiet -- kernel include fs drivers \
		Documentation tools
	check "the upstream copies of the new files did not change" $?
	grep -qF "refresh: $a: the change is in the $line line's delta, patches/$line/delta/$a.diff" \
		"$tmp/refresh.err"
	check "refresh says that the edit of $a is in the $line delta" $?
fi
sed 's/^/# /' "$tmp/refresh.err"

# Back again: the refreshed repository gives the edited tree.
git -C "$tmp/repo" add -A
git -C "$tmp/repo" -c user.name=t -c user.email=t@t commit -q -m edited
"$tmp/repo/scripts/series-tree.sh" "$pristine" "$upstream" \
	"$tmp/again" "$branch-2" > "$tmp/log" 2>&1 &&
	[ "$(git -C "$tmp/again" rev-parse "HEAD^{tree}")" = \
	  "$(in_tree rev-parse "HEAD^{tree}")" ]
check "make tree from the refreshed series gives the edited tree" $? \
	"$tmp/log"

# Refused: a commit on top that edits patch A's new file.
echo "/* late */" >> "$tmp/tree/$a"
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

# The out-of-tree patches (patches/<line>/out-of-tree) keep their place
# when a commit before them renumbers them: a first commit that edits an
# upstream file, then refresh.
if [ -n "$(series_out_of_tree "$tmp/repo")" ]; then
	in_tree reset -q --hard HEAD~1
	GIT_SEQUENCE_EDITOR="sed -i '1i exec echo round trip >> README \&\& \
git -c user.name=t -c user.email=t@t commit -q -a -m roundtrip'" \
		in_tree rebase -q -i base > /dev/null 2>&1
	"$tmp/repo/scripts/series-refresh.sh" "$tmp/tree" "$tmp/repo" \
		> /dev/null 2> "$tmp/refresh.err"
	n=$(series_out_of_tree "$tmp/repo" | grep -c .)
	series_out_of_tree "$tmp/repo" > "$tmp/oot"
	[ "$(sed -n 1p "$tmp/repo/patches/$line/series")" = \
	  "0001-roundtrip.patch" ] &&
		tail -n "$n" "$tmp/repo/patches/$line/series" |
		cmp -s - "$tmp/oot" && [ ! -s "$tmp/refresh.err" ]
	check "refresh renumbers the out-of-tree patches, still the last" $? \
		"$tmp/refresh.err"
fi
tap_done
