#!/bin/sh
# Which kernel line of this project a kernel config is for: the oldest line
# at least as new as the kernel that wrote the config, so that olddefconfig
# drops as little of it as it can (a 6.12 config stays on 6.12; a 6.18 or
# 7.x config goes to 7.3, whose source knows what those kernels know); a
# config newer than the newest line goes to the newest line.
#
# usage: config-line.sh <config>   (plain or .gz)
#        config-line.sh --say <line> <config>
# Prints "<line> <version of the config>", for example "7.3 6.18.44".
# With --say, what a package build of <line> says first (mk/deb.mk): the
# line, the config's version, and the nearer line when it is another one.
# Exit status 1, with a message, if the config names no kernel version.
set -eu

lines="6.12 7.3"	# oldest first
say=
if [ "$1" = --say ]; then
	say=$2
	shift 2
fi
config=$1

case $config in
*.gz) text=$(zcat "$config") ;;
*) text=$(cat "$config") ;;
esac
from=$(printf '%s\n' "$text" |
	sed -n 's/^# Linux\/[^ ]* \([0-9][0-9.]*\)[^ ]* Kernel Configuration$/\1/p' |
	head -n 1)
if [ -z "$from" ]; then
	echo "config-line: $config names no kernel version" \
		"(no \"# Linux/<arch> <version> Kernel Configuration\" line)" >&2
	exit 1
fi

# major * 1000 + minor: 6.12 -> 6012.
key() { echo "$1" | awk -F. '{ print $1 * 1000 + $2 }'; }
want=$(key "$from")
pick=
for line in $lines; do
	pick=$line
	[ "$(key "$line")" -ge "$want" ] && break
done
if [ -z "$say" ]; then
	echo "$pick $from"
elif [ "$pick" = "$say" ]; then
	echo "  PKG     the $say line; $config is from Linux $from"
else
	echo "  PKG     the $say line; $config is from Linux $from:" \
		"LINE=$pick builds the $pick line, nearer to it"
fi
