#!/bin/sh
# make refresh: write the series branch of make tree back into the
# repository, for the kernel line LINE (6.12 by default, or 7.3): each
# commit's edits to upstream files as patches/<line>/NNNN-<subject>.patch
# (git format-patch's header and message, then the diffstat and diff of the
# upstream files only), patches/<line>/series in commit order,
# patches/<line>/files with the new files each commit adds, and the new
# files themselves: at patches/<line>/new/<kernel path> where the line has
# its own copy there, else at their kernel paths, shared by the lines (a
# change to a file another line shares, or to one another line has its own
# copy of, is said on stderr). A new file belongs to the commit that adds
# it: a later commit that edits it is refused (squash it with git rebase
# -i).
#
# usage: series-refresh.sh <tree dir> <repository>
set -eu
tree=$(realpath -m "$1") repo=$(realpath -m "$2")
# shellcheck source=scripts/series-lib.sh
. "$repo/scripts/series-lib.sh"
dir=$(series_dir "$repo")
# The folders of the repository that hold the series' new files.
new_dirs="kernel include fs drivers Documentation tools/testing/selftests/gpuprio"

[ -d "$tree" ] || { echo "refresh: no $tree: make tree first" >&2; exit 1; }
cd "$tree"
if [ -n "$(git status --porcelain)" ]; then
	echo "refresh: $tree has uncommitted changes: commit them first" >&2
	exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git diff --name-only --diff-filter=A base HEAD > "$work/new"
# Pathspec of the upstream files: everything but the new files.
set -- .
while read -r f; do
	set -- "$@" ":(exclude)$f"
done < "$work/new"

i=0
mkdir "$work/patches"
for c in $(git rev-list --reverse base..HEAD); do
	i=$((i + 1))
	git diff-tree -r --no-commit-id --name-only --diff-filter=A "$c" \
		> "$work/added"
	git diff-tree -r --no-commit-id --name-only "$c" |
		grep -Fxf "$work/new" | grep -Fvxf "$work/added" > "$work/late" ||
		true
	if [ -s "$work/late" ]; then
		echo "refresh: commit $i ($(git log -1 --format=%s "$c")) edits" \
			"new files an earlier commit adds:" >&2
		sed 's/^/  /' "$work/late" >&2
		echo "squash it into that commit (git rebase -i)" >&2
		exit 1
	fi
	name=$(git format-patch -1 --start-number "$i" -o "$work/names" "$c")
	name=${name##*/}
	{
		git format-patch -1 --stdout --zero-commit --no-signature \
			--no-stat "$c" | sed '/^diff --git /,$d'
		echo "---"
		git diff --stat=72 --summary "$c^" "$c" -- "$@"
		echo
		# A fixed abbreviation: git's default grows with the number of
		# objects, so the same series would get other index lines in
		# another clone and a round trip would not be clean.
		git diff --abbrev=9 "$c^" "$c" -- "$@"
	} > "$work/patches/$name"
	echo "$name" >> "$work/series"
	[ -s "$work/added" ] &&
		echo "$name $(tr '\n' ' ' < "$work/added" | sed 's/ $//')" \
			>> "$work/files"
done

mkdir -p "$dir"
rm -f "$dir"/[0-9][0-9][0-9][0-9]-*.patch
cp "$work"/patches/*.patch "$dir/"
cp "$work/series" "$dir/series"
{
	sed -n '/^#/p' "$dir/files" 2>/dev/null
	cat "$work/files"
} > "$work/files.new"
cp "$work/files.new" "$dir/files"

# The shared new files other lines use as they are (no override there).
for d in "$repo"/patches/*/; do
	[ "$d" = "$dir/" ] && continue
	[ -f "$d/files" ] || continue
	sed -e '/^#/d' -e 's/^[^ ]* //' "$d/files" | tr ' ' '\n' |
		while read -r f; do
			[ -n "$f" ] && [ ! -e "$d/new/$f" ] && echo "$f"
		done
done | sort -u > "$work/others"

# The new files as the branch has them; those it no longer adds go.
# shellcheck disable=SC2086 # $new_dirs: a list, split on purpose
(cd "$repo" && find $new_dirs -type f 2>/dev/null) | sort |
	comm -23 - "$work/new" | comm -23 - "$work/others" | while read -r f; do
		rm -f "$repo/$f"
	done
(cd "$dir" 2>/dev/null && [ -d new ] && cd new && find . -type f |
	sed 's|^\./||') | sort | comm -23 - "$work/new" | while read -r f; do
		rm -f "$dir/new/$f"
	done
while read -r f; do
	git show "HEAD:$f" > "$work/file"
	if [ -e "$dir/new/$f" ]; then
		dst=$dir/new/$f
		if grep -qxF "$f" "$work/others" &&
		   ! cmp -s "$work/file" "$dst"; then
			echo "refresh: $f changed in the $series_line line's own" \
				"copy, ${dst#"$repo/"}; the shared one, which" \
				"another line uses, did not: carry the change" \
				"there (git cherry-pick)" >&2
		fi
	else
		dst=$repo/$f
		if grep -qxF "$f" "$work/others" &&
		   ! cmp -s "$work/file" "$repo/$f"; then
			echo "refresh: $f is shared with another line, which" \
				"gets this change too (to keep it to this line," \
				"copy the file to patches/$series_line/new/$f" \
				"and refresh again)" >&2
		fi
		# A line with its own copy does not get the change: say so,
		# or a fix made on one line is silently missing on the other.
		cmp -s "$work/file" "$repo/$f" ||
		for o in "$repo"/patches/*/new/"$f"; do
			[ -e "$o" ] || continue
			o=${o#"$repo/"} l=${o#patches/} l=${l%%/*}
			echo "refresh: $f changed, and the $l line has its own" \
				"copy, $o, which did not: carry the change there" \
				"(make tree LINE=$l, git cherry-pick)" >&2
		done
	fi
	mkdir -p "$(dirname "$dst")"
	cp "$work/file" "$dst"
	if [ -x "$f" ]; then chmod +x "$dst"; else chmod -x "$dst"; fi
done < "$work/new"
[ -d "$dir/new" ] && find "$dir/new" -depth -type d -empty -delete
git update-ref refs/worktree/series-written HEAD
echo "  REFRESH $dir: $i patches, $(wc -l < "$work/new") new files"
