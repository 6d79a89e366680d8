# shellcheck shell=sh
# The series as git commits, shared by make patches (make-patches.sh),
# make tree (series-tree.sh) and make refresh (series-refresh.sh).
# Sourced, not run: it defines functions and the commit identity.
#
# The repository keeps the series in two halves: new files at their kernel
# paths, and edits to upstream files as patches/NNNN-*.patch (git
# format-patch output limited to upstream files), ordered by patches/series;
# patches/files says which patch adds which new files.

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
	mkdir -p "$(dirname "$2")"
	cp -a "$1" "$2"
	rm -f "$2/.unpacked"
	(cd "$2" && git init -q -b master && git add -f -A &&
	 git -c user.name="$GIT_COMMITTER_NAME" \
		-c user.email="$GIT_COMMITTER_EMAIL" \
		commit -q -m "Linux $(make -s kernelversion) (Debian linux-source)" &&
	 git tag -f base >/dev/null) || return 1
	touch "$2/.base-ready"
}

# series_files <repository> <patch>: the new files the patch adds.
series_files() {
	sed -n "s|^$2 ||p" "$1/patches/files"
}

# series_subject <patch file>: its subject, unfolded.
series_subject() {
	awk '/^Subject: \[PATCH\] / { s = substr($0, 18); f = 1; next }
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
			cp -R "$1/$f" "$(dirname "$f")/"
		done
		if ! git apply --index "$1/patches/$p"; then
			echo "series: $p does not apply" >&2
			return 1
		fi
		git add -f -A -- . ":!.base-ready"
		{
			series_subject "$1/patches/$p"
			echo
			series_body "$1/patches/$p"
		} > "$(git rev-parse --git-dir)/series-msg"
		git -c user.name="$GIT_COMMITTER_NAME" \
			-c user.email="$GIT_COMMITTER_EMAIL" \
			commit -q --author="$(sed -n 's/^From: //p' \
				"$1/patches/$p" | head -n 1)" \
			-F "$(git rev-parse --git-dir)/series-msg" || return 1
	done < "$1/patches/series"
}
