#!/bin/sh
# Fail if an option the fragment asks for did not survive olddefconfig
# (a missing dependency silently drops it).
set -eu
fragment=$1 config=$2
bad=0
grep "^CONFIG_" "$fragment" | while IFS= read -r want; do
	grep -qx "$want" "$config" && continue
	echo "check-config: $want requested but not set" >&2
	echo x
done | grep -q x && bad=1
exit $bad
