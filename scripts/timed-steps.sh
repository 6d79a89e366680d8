#!/bin/sh
# Run each argument as a command, in order, stopping at the first failure;
# print how long each took at the end, so a long build never looks hung.
set -u
report=
status=0
for step in "$@"; do
	start=$(date +%s)
	sh -c "$step" || status=$?
	report="$report
  $(( $(date +%s) - start ))s	$step"
	[ $status -ne 0 ] && break
done
printf '\nTimings:%s\n' "$report"
exit $status
