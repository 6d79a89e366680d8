#!/bin/sh
# make refresh: write the series branch of make tree back into the
# repository, for the kernel line LINE (7.3 by default, or 6.12): each
# commit's edits to upstream files as patches/<line>/NNNN-<subject>.patch
# (git format-patch's header and message, then the diffstat and diff of the
# upstream files only), patches/<line>/series in commit order,
# patches/<line>/files with the new files each commit adds, and the new
# files themselves. The upstream line's are written at their kernel paths
# (stderr says which backport line takes a change, and whose delta no
# longer applies); a backport line's, as its deltas against those, or in
# patches/<line>/new/ for a file the upstream series does not add
# (scripts/series-lib.sh). A new file belongs to the commit that adds it: a
# later commit that edits it is refused (squash it with git rebase -i).
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

# up_files: the new files of the upstream line's series.
up_files() {
	sed -e '/^#/d' -e 's/^[^ ]* //' "$repo/patches/$series_upstream/files" |
		tr ' ' '\n' | sed '/^$/d' | sort -u
}

# write_upstream: the upstream line's new files are the repository's own, at
# their kernel paths. A backport line that adds one of them takes the
# change too, through its delta where it has one: say so, and say when
# that delta no longer applies (its next sync-tree stops there).
write_upstream() {
	# shellcheck disable=SC2086 # $new_dirs: a list, split on purpose
	(cd "$repo" && find $new_dirs -type f 2>/dev/null) | sort |
		comm -23 - "$work/new" > "$work/gone"
	while read -r f; do
		for d in "$repo"/patches/*/; do
			d=${d%/} l=${d##*/}
			[ "$l" = "$series_line" ] && continue
			grep -q " $f\( \|$\)" "$d/files" 2>/dev/null || continue
			# The line still adds it: it becomes that line's own.
			mkdir -p "$d/new/$(dirname "$f")"
			series_copy "$repo" "$f" "$d/new/$f" "$l" || exit 1
			rm -f "$d/delta/$f.diff"
			echo "refresh: $f left the $series_line series; the $l" \
				"line still adds it, now as patches/$l/new/$f" >&2
		done
		rm -f "$repo/$f"
	done < "$work/gone"
	while read -r f; do
		git show "HEAD:$f" > "$work/file"
		if ! cmp -s "$work/file" "$repo/$f"; then
			for d in "$repo"/patches/*/; do
				d=${d%/} l=${d##*/}
				[ "$l" = "$series_line" ] && continue
				grep -q " $f\( \|$\)" "$d/files" 2>/dev/null ||
					continue
				[ -e "$d/new/$f" ] && continue
				if [ ! -e "$d/delta/$f.diff" ]; then
					echo "refresh: $f changed; the $l line" \
						"takes the change too" >&2
				elif patch -s -F0 -r - --dry-run -o /dev/null \
					"$work/file" "$d/delta/$f.diff" \
					>/dev/null 2>&1; then
					echo "refresh: $f changed; the $l line" \
						"takes the change too, through" \
						"patches/$l/delta/$f.diff" >&2
				else
					echo "refresh: $f changed, and the $l" \
						"line's delta, patches/$l/delta/$f.diff," \
						"no longer applies to it: redo it" \
						"(HACKING.md, \"The backport\")" >&2
				fi
			done
		fi
		mkdir -p "$(dirname "$repo/$f")"
		cp "$work/file" "$repo/$f"
		if [ -x "$f" ]; then chmod +x "$repo/$f"; else chmod -x "$repo/$f"; fi
	done < "$work/new"
}

# write_backport: a backport line keeps no copy of an upstream new file:
# where its copy differs, the difference is its delta; a file the upstream
# series does not add is the line's own, in patches/<line>/new/.
write_backport() {
	up_files > "$work/up"
	for sub in delta new; do
		[ -d "$dir/$sub" ] || continue
		(cd "$dir/$sub" && find . -type f | sed -e 's|^\./||' \
			-e 's|\.diff$||') | sort | comm -23 - "$work/new" |
			while read -r f; do
				rm -f "$dir/$sub/$f" "$dir/$sub/$f.diff"
			done
	done
	while read -r f; do
		git show "HEAD:$f" > "$work/file"
		if ! grep -qxF "$f" "$work/up"; then
			mkdir -p "$dir/new/$(dirname "$f")"
			cp "$work/file" "$dir/new/$f"
			continue
		fi
		delta=$(series_delta "$repo" "$f")
		if diff -u --label "a/$f" --label "b/$f" "$repo/$f" \
			"$work/file" > "$work/delta"; then
			rm -f "$delta"
			continue
		fi
		cmp -s "$work/delta" "$delta" && continue
		echo "refresh: $f: the change is in the $series_line line's" \
			"delta, ${delta#"$repo/"}; the upstream copy did not" \
			"change (a change for both lines is made on the" \
			"$series_upstream line)" >&2
		mkdir -p "$(dirname "$delta")"
		cp "$work/delta" "$delta"
	done < "$work/new"
	for sub in delta new; do
		[ -d "$dir/$sub" ] && find "$dir/$sub" -depth -type d -empty -delete
	done
	return 0
}

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

# The out-of-tree patches keep their place in patches/<line>/out-of-tree
# under their new number (the name after it is the subject's); one whose
# subject changed or that is gone is said, and left for the list's editor.
if [ -f "$dir/out-of-tree" ]; then
	while IFS= read -r l; do
		case $l in
		"patch "*)
			old=${l#patch } new=''
			while read -r p; do
				if [ "${p#????-}" = "${old#????-}" ]; then
					new=$p
				fi
			done < "$work/series"
			[ -n "$new" ] || { new=$old
				echo "refresh: the out-of-tree patch $old is not in" \
					"the series: update $dir/out-of-tree" >&2; }
			echo "patch $new" ;;
		*) echo "$l" ;;
		esac
	done < "$dir/out-of-tree" > "$work/out-of-tree"
	cp "$work/out-of-tree" "$dir/out-of-tree"
	series_out_of_tree "$repo" > "$work/oot"
	tail -n "$(grep -c . "$work/oot")" "$dir/series" | cmp -s - "$work/oot" ||
		echo "refresh: the out-of-tree patches of $dir/out-of-tree" \
			"are not the last of the series: make patches would" \
			"mail a patch after them" >&2
fi

if [ "$series_line" = "$series_upstream" ]; then
	write_upstream
else
	write_backport
fi
git update-ref refs/worktree/series-written HEAD
echo "  REFRESH $dir: $i patches, $(wc -l < "$work/new") new files"
