# shellcheck shell=sh
# The series as git commits, shared by make patches (make-patches.sh),
# make tree (series-tree.sh) and make refresh (series-refresh.sh).
# Sourced, not run: it defines functions and the commit identity.
#
# The repository keeps one series per kernel line (LINE: 7.3, the
# upstream line and the default, or 6.12, its backport) in two halves: new
# files, and edits to upstream files as patches/<line>/NNNN-*.patch (git
# format-patch output limited to upstream files), ordered by
# patches/<line>/series; patches/<line>/files says which patch adds which
# new files. The new files at their kernel paths are exactly the upstream
# line's. A backport line takes them as they are, or through its delta,
# patches/<line>/delta/<kernel path>.diff (a unified diff from the
# upstream copy to the line's), and keeps a file no other line adds at
# patches/<line>/new/<kernel path>.

# The line that goes upstream: its new files are the repository's own.
series_upstream=7.3
# The kernel line of the scripts that source this file.
series_line=${LINE:-$series_upstream}

# Fixed dates and committer, so that the same series gives the same commits.
export GIT_AUTHOR_DATE="2026-12-01T00:00:00Z"
export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
export GIT_COMMITTER_NAME="gpunice maintainers"
export GIT_COMMITTER_EMAIL="maintainers@users.noreply.a-seed-5f169c72.example"

# series_base <pristine tree> <dir>: a git repository of the pristine tree
# in <dir>, its one commit tagged "base"; made once (it takes a minute).
series_base() {
	[ -f "$2/.base-ready" ] && return 0
	echo "# making a git tree of the pristine source (once)" >&2
	rm -rf "$2"
	mkdir -p "$2"
	# The contents, not the folder: a pristine tree that is a symbolic link
	# to another working tree's must stay as it is, not become a repository
	# and lose its .unpacked (which would make that tree's next sync unpack
	# it again).
	cp -a "$1/." "$2"
	rm -f "$2/.unpacked"
	# gc.auto 0: a repack of a kernel tree's loose objects takes minutes.
	(cd "$2" && git init -q -b master && git config gc.auto 0 &&
	 git add -f -A &&
	 git -c user.name="$GIT_COMMITTER_NAME" \
		-c user.email="$GIT_COMMITTER_EMAIL" \
		commit -q -m "Linux $(make -s kernelversion) (Debian linux-source)" &&
	 git tag -f base >/dev/null) || return 1
	touch "$2/.base-ready"
}

# series_dir <repository>: the folder of the line's series.
series_dir() {
	echo "$1/patches/$series_line"
}

# series_files <repository> <patch>: the new files the patch adds.
series_files() {
	sed -n "s|^$2 ||p" "$(series_dir "$1")/files"
}

# series_out_of_tree <repository> [<key>]: the line's patches that the
# project's kernels and packages apply but make patches does not mail (the
# last ones of its series), from patches/<line>/out-of-tree; with the key
# "not-mailed", the words the mailed series must not contain.
series_out_of_tree() {
	sed -n "s|^${2:-patch} \([^ ]*\)\$|\1|p" \
		"$(series_dir "$1")/out-of-tree" 2>/dev/null || true
}

# series_delta <repository> <new file> [<line>]: the path of the line's
# delta of the file (it may not exist).
series_delta() {
	echo "$1/patches/${3:-$series_line}/delta/$2.diff"
}

# series_copy <repository> <new file> <destination> [<line>]: write the
# line's copy of a new file: its own file in patches/<line>/new/, or the
# upstream one, through the line's delta where it has one. A delta that no
# longer applies stops it, saying which; with SERIES_CONFLICTS set (make
# tree) it writes the file with conflict markers instead, to resolve.
series_copy() {
	_l=${4:-$series_line}
	if [ -e "$1/patches/$_l/new/$2" ]; then
		cp "$1/patches/$_l/new/$2" "$3"
	elif [ -e "$(series_delta "$1" "$2" "$_l")" ]; then
		# -F0: a hunk whose context moved applies only where its
		# lines are unchanged; fuzz could put it in the wrong place.
		if ! patch -s -F0 -r - --no-backup-if-mismatch -o "$3" \
			"$1/$2" "$(series_delta "$1" "$2" "$_l")" >/dev/null; then
			echo "series: the $_l delta of $2," \
				"patches/$_l/delta/$2.diff, no longer applies" \
				"to $2: redo it (HACKING.md, \"The backport\")" >&2
			# make tree: the file with conflict markers, to
			# resolve there; anything else stops.
			[ -n "${SERIES_CONFLICTS:-}" ] &&
				patch -s --merge -r - --no-backup-if-mismatch \
				-o "$3" "$1/$2" "$(series_delta "$1" "$2" \
				"$_l")" >/dev/null 2>&1
			[ -n "${SERIES_CONFLICTS:-}" ] && return 0
			rm -f "$3"
			return 1
		fi
	else
		cp "$1/$2" "$3"
	fi
}

# checkpatch_unaccepted <repository>: checkpatch --show-types output on
# stdin, without the warnings scripts/checkpatch-accepted lists for their
# file (or, "commit:<id>", for a commit id), and without the total line;
# empty when nothing else is left.
checkpatch_unaccepted() {
	awk -v list="$1/scripts/checkpatch-accepted" '
	BEGIN {
		while ((getline l < list) > 0)
			if (l !~ /^#/ && l != "") { split(l, a, " "); n++
				file[n] = a[1]; type[n] = a[2] }
		RS = ""
	}
	/^total: / { next }
	{
		split($0, w, ":"); f = ""
		if (match($0, /FILE: [^:]+/))
			f = substr($0, RSTART + 6, RLENGTH - 6)
		for (i = 1; i <= n; i++) {
			k = length(file[i])
			if (w[2] != type[i])
				continue
			# "commit:<id>": a commit the tree has no history of.
			if (file[i] ~ /^commit:/ &&
			    index($0, "\047" substr(file[i], 8) "\047"))
				next
			if (substr(f, length(f) - k + 1) == file[i])
				next
		}
		print; print ""
	}'
}

# series_subject <patch file>: its subject, unfolded.
series_subject() {
	awk '!f && /^Subject: / { s = $0; sub(/^Subject: (\[[^]]*\] )?/, "", s)
			f = 1; next }
	     f && /^[ \t]/ { s = s $0; next }
	     f { print s; exit }' "$1"
}

# series_body <patch file>: its message, from after the header to "---".
series_body() {
	awk 'f && /^---$/ { exit } f { print } !f && /^$/ { f = 1 }' "$1"
}

# series_commit <repository>: in the current directory, a checkout of
# "base", one commit per patch of the series, each with its new files.
# Stops at a patch that does not apply, saying which on stderr.
series_commit() {
	while read -r p; do
		for f in $(series_files "$1" "$p"); do
			mkdir -p "$(dirname "$f")"
			series_copy "$1" "$f" "$f" || return 1
		done
		if ! git apply --index "$(series_dir "$1")/$p"; then
			echo "series: $p does not apply" >&2
			return 1
		fi
		# Only the new files: the tree may hold build output (.kunit).
		for f in $(series_files "$1" "$p"); do
			git add -f -- "$f"
		done
		{
			series_subject "$(series_dir "$1")/$p"
			echo
			series_body "$(series_dir "$1")/$p"
		} > "$(git rev-parse --git-dir)/series-msg"
		git -c user.name="$GIT_COMMITTER_NAME" \
			-c user.email="$GIT_COMMITTER_EMAIL" \
			commit -q --author="$(sed -n 's/^From: //p' \
				"$(series_dir "$1")/$p" | head -n 1)" \
			-F "$(git rev-parse --git-dir)/series-msg" || return 1
	done < "$(series_dir "$1")/series"
}
