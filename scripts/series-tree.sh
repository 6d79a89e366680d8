#!/bin/sh
# make tree: the series as a git branch, to edit with ordinary kernel
# tooling (git commit --fixup, git rebase -i --autosquash, git cherry-pick):
# <tree dir> is a worktree of the pristine tree's repository on branch
# "series", one commit per patch on top of the tag "base". make refresh
# (series-refresh.sh) writes it back into the repository.
#
# A tree holding commits or changes that make refresh has not written back
# is kept: remove the folder yourself (rm -rf) to start again.
#
# usage: series-tree.sh <pristine tree> <pristine repository> <tree dir>
# [<branch>]  (default "series")
set -eu
pristine=$1 branch=${4:-series}
upstream=$(realpath -m "$2") tree=$(realpath -m "$3")
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/series-lib.sh
. "$repo/scripts/series-lib.sh"

series_base "$pristine" "$upstream"
if [ -e "$tree" ]; then
	head=$(git -C "$tree" rev-parse HEAD 2>/dev/null || echo none)
	done=$(git -C "$tree" rev-parse -q --verify refs/worktree/series-written ||
		echo none)
	if [ "$head" != "$done" ] ||
	   [ -n "$(git -C "$tree" status --porcelain)" ]; then
		echo "tree: $tree has work make refresh has not written back;" \
			"run make refresh, or remove it to start again" >&2
		exit 1
	fi
	rm -rf "$tree"
fi
git -C "$upstream" worktree prune
git -C "$upstream" worktree add -q -f -B "$branch" "$tree" base
cd "$tree"
# A backport's delta that no longer applies: its file with conflict
# markers, in the commit that adds it, to resolve and refresh.
SERIES_CONFLICTS=1 series_commit "$repo"
git update-ref refs/worktree/series-written HEAD
echo "  TREE    $tree: branch $branch, $(git rev-list --count base..HEAD)" \
	"commits on base (edit, commit, then make refresh)"
