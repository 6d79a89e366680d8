#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The numbers the kernel's syscall table gives gpuprio_set and gpuprio_get,
# as the uapi headers generated from that table say (make kernel installs
# them in out/headers/include): the one place the tests take them from.
# Prints a shell fragment, "GPUPRIO_NR_SET=N" and "GPUPRIO_NR_GET=N", for
# the ABI the compiler targets; fails if the headers name neither.
#
# usage: tests/gpuprio-nr.sh <installed uapi headers> [compiler flags...]
set -eu

[ $# -ge 1 ] || { echo "usage: $0 <installed uapi headers> [flags]" >&2; exit 2; }
inc=$1
shift
[ -f "$inc/asm/unistd.h" ] || { echo "$0: no $inc/asm/unistd.h" >&2; exit 1; }

# Word splitting of $CC (ccache cc) is wanted.
# shellcheck disable=SC2086
printf '#include <asm/unistd.h>\n@@SET __NR_gpuprio_set\n@@GET __NR_gpuprio_get\n' |
	${CC:-cc} -E -P -nostdinc -isystem "$inc" "$@" -x c - >"${TMPDIR:-/tmp}/gpuprio-nr.$$" || exit 1
for which in SET GET; do
	e=$(sed -n "s/^@@$which //p" "${TMPDIR:-/tmp}/gpuprio-nr.$$")
	# Numbers only (x32 adds __X32_SYSCALL_BIT): a name left unexpanded
	# means the headers do not have the calls.
	if ! echo "$e" | grep -Eqx '[0-9a-fA-FxX +()]+'; then
		echo "$0: the headers in $inc do not number gpuprio ('$e')" >&2
		rm -f "${TMPDIR:-/tmp}/gpuprio-nr.$$"
		exit 1
	fi
	# The text is the expression: $e, not e.
	# shellcheck disable=SC2004
	echo "GPUPRIO_NR_$which=$(($e))"
done
rm -f "${TMPDIR:-/tmp}/gpuprio-nr.$$"
