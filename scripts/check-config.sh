#!/bin/sh
# Fail if an option the fragment asks for did not survive olddefconfig
# (a missing dependency silently drops it). When fragments are concatenated,
# the last line about an option wins, as in merge_config.sh, and
# "# CONFIG_X is not set" asks for X to be off.
set -eu
fragment=$1 config=$2
awk '
FNR == NR {
	if (match($0, /^CONFIG_[A-Za-z0-9_]+=/)) {
		opt = substr($0, 1, RLENGTH - 1)
		want[opt] = $0
	} else if ($0 ~ /^# CONFIG_[A-Za-z0-9_]+ is not set$/) {
		want[$2] = ""
	}
	next
}
match($0, /^CONFIG_[A-Za-z0-9_]+=/) {
	have[substr($0, 1, RLENGTH - 1)] = $0
}
END {
	bad = 0
	for (opt in want) {
		if (want[opt] == "" && have[opt] != "" && have[opt] != opt "=n") {
			print "check-config: " opt " asked to be off but is " \
			      "set" > "/dev/stderr"
			bad = 1
		} else if (want[opt] != "" && have[opt] != want[opt]) {
			print "check-config: " want[opt] " requested but not " \
			      "set" > "/dev/stderr"
			bad = 1
		}
	}
	exit bad
}' "$fragment" "$config"
