#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# <gpuprio.h>, the header an application such as a browser copies into its
# own tree, under every C and C++ standard and both compilers. TAP on
# stdout, one line per cell; exits 1 if any failed.
#
# usage: tests/host/gpuprio-header.sh
#
# Each cell compiles and links tests/host/gpuprio-header.c, which
# brace-initialises an int from every value macro and calls every wrapper,
# with -Wall -Wextra -pedantic -Werror -Wredundant-decls -Wconversion
# -Wsign-conversion: once with include/uapi on the include path (a system
# whose kernel headers have <linux/gpuprio.h>) and once without (old kernel
# headers: the header's own fallback definitions). A compiler or standard
# that is not installed is a skip that says so.
#
# Then: the fallback definitions are the uapi header's, token for token
# (they are compared as the preprocessor records them); the header has no
# syscall number of its own, and its wrappers take the numbers from the
# file the kernel publishes them in, or fail with ENOSYS issuing nothing.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
src=$top/tests/host/gpuprio-header.c
inc=$top/tools/gpunice/include
uapi=$top/include/uapi
WARN="-Wall -Wextra -pedantic -Werror -Wredundant-decls -Wconversion
-Wsign-conversion"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
tap_show_on_failure "$tmp/err"
check()
{
	desc=$1
	shift
	: >"$tmp/err"
	if "$@" >>"$tmp/err" 2>&1; then ok "$desc"; else not_ok "$desc"; fi
}

# The build must not find a <linux/gpuprio.h> of its own (one installed
# with make install in /usr/local/include, say): the fallback cells would
# then test nothing.
printf '#include <linux/gpuprio.h>\n' >"$tmp/probe.c"
system_has=$(cc -E "$tmp/probe.c" 2>/dev/null |
	sed -n 's|^# 1 "\(.*/linux/gpuprio\.h\)".*|\1|p' | head -n 1)

# first_std COMPILER STD...: the first -std= of the list that it accepts.
first_std()
{
	c=$1
	shift
	case $c in *++) lang='c++' ;; *) lang=c ;; esac
	for s in "$@"; do
		if echo 'int x;' | $c -std="$s" -x "$lang" -fsyntax-only - \
			>/dev/null 2>&1; then
			echo "$s"
			return 0
		fi
	done
	return 1
}

# cell COMPILER STDS WITH-UAPI EXTRA-FLAGS: compile and link the program.
# STDS is a list of spellings of one standard (c23 c2x), the first
# accepted is used.
cell()
{
	c=$1 stds=$2 with=$3 extra=$4
	if [ "$with" = yes ]; then
		where="with linux/gpuprio.h"
		paths="-I$inc -I$uapi"
	else
		where="without linux/gpuprio.h"
		paths="-I$inc"
	fi
	name="$c -std=${stds%% *}${extra:+ $extra} $where"
	if ! command -v "$c" >/dev/null; then
		skip "$name" "$c is not installed"
		return
	fi
	# Word splitting of the list is wanted.
	# shellcheck disable=SC2086
	if ! std=$(first_std "$c" $stds); then
		skip "$name" "$c accepts none of -std=$(echo $stds | tr ' ' /)"
		return
	fi
	name="$c -std=$std${extra:+ $extra} $where"
	if [ "$with" = no ] && [ -n "$system_has" ]; then
		skip "$name" "the system has $system_has"
		return
	fi
	case $c in *++) lang='c++' ;; *) lang=c ;; esac
	# shellcheck disable=SC2086
	check "$name" $c -x "$lang" -std="$std" $WARN $extra $paths \
		-o "$tmp/cell" "$src"
}

for with in yes no; do
	for c in gcc clang; do
		for stds in c99 c11 c17 "c23 c2x"; do
			cell "$c" "$stds" "$with" ""
		done
	done
	for c in g++ clang++; do
		for stds in c++11 c++14 c++17 c++20 "c++23 c++2b"; do
			cell "$c" "$stds" "$with" ""
		done
	done
done

# Feature test macros decide whether <unistd.h> declares syscall(2): the
# header must declare it exactly when the C library has not.
for c in gcc clang; do
	cell "$c" c99 yes -D_GNU_SOURCE
	cell "$c" c99 yes -D_DEFAULT_SOURCE
	cell "$c" c11 yes -D_POSIX_C_SOURCE=200809L
	cell "$c" c11 yes -D_XOPEN_SOURCE=700
	cell "$c" gnu17 yes ""
done
# musl's <unistd.h> has its own rule (musl-gcc: Debian's musl-tools).
for extra in "" -D_GNU_SOURCE -D_DEFAULT_SOURCE; do
	cell musl-gcc c99 yes "$extra"
done
cell musl-gcc gnu17 no ""

# --- the fallback definitions are the uapi header's ---------------------

# The uapi header's macros, as the preprocessor records them.
uapi_macros()
{
	sed -n 's/^#define[[:space:]]\{1,\}\([A-Z_0-9]\{1,\}\).*/\1/p' \
		"$uapi/linux/gpuprio.h" | grep -v '^_UAPI_LINUX_GPUPRIO_H$'
}
uapi_macros >"$tmp/names"

# defs FILE INCLUDE-FLAGS...: the definitions of those macros that
# #include FILE leaves, one a line, sorted.
defs()
{
	f=$1
	shift
	printf '#include %s\n' "$f" >"$tmp/defs.c"
	cc -std=c99 -dM -E "$@" "$tmp/defs.c" |
		awk 'NR == FNR { want[$1]; next }
		     { name = $2; sub(/\(.*/, "", name) }
		     name in want' "$tmp/names" - | sort
}
same_definitions()
{
	[ -s "$tmp/names" ] || { echo "no macro found in the uapi header"; \
		return 1; }
	defs '<linux/gpuprio.h>' -I"$uapi" >"$tmp/uapi.defs" &&
	defs '<gpuprio.h>' -I"$inc" >"$tmp/fallback.defs" &&
	[ "$(wc -l <"$tmp/uapi.defs")" -eq "$(wc -l <"$tmp/names")" ] &&
	diff "$tmp/uapi.defs" "$tmp/fallback.defs"
}
if [ -n "$system_has" ]; then
	skip "the fallback defines every uapi macro as the uapi header does" \
		"the system has $system_has"
else
	check "the fallback defines every uapi macro as the uapi header does" \
		same_definitions
fi

# Either order of the two headers, in one file: the uapi header named by
# its path so that <gpuprio.h> does not find it and uses its fallback.
both_orders()
{
	c=$1
	case $c in *++) lang='c++' ;; *) lang=c ;; esac
	printf '#include <gpuprio.h>\n#include "%s"\n#include "%s"\n' \
		"$uapi/linux/gpuprio.h" "$src" >"$tmp/after.c"
	printf '#include "%s"\n#include <gpuprio.h>\n#include "%s"\n' \
		"$uapi/linux/gpuprio.h" "$src" >"$tmp/before.c"
	# shellcheck disable=SC2086
	$c -x "$lang" $WARN -I"$inc" -fsyntax-only "$tmp/after.c" &&
	$c -x "$lang" $WARN -I"$inc" -fsyntax-only "$tmp/before.c"
}
for c in gcc clang g++ clang++; do
	desc="$c: <linux/gpuprio.h> before or after the fallback: no redefinition"
	if ! command -v "$c" >/dev/null; then
		skip "$desc" "$c is not installed"
	elif [ -n "$system_has" ]; then
		skip "$desc" "the system has $system_has"
	else
		check "$desc" both_orders "$c"
	fi
done

# --- the numbers come from the running kernel --------------------------

# The header names no syscall number of its own, on any architecture: seen
# through C library headers stubbed empty, nothing predefined but the
# architecture's macros, it defines no __NR_gpuprio_* and the wrappers
# pass syscall() no constant.
stub=$tmp/stub
mkdir -p "$stub/sys"
for h in errno.h fcntl.h unistd.h sys/syscall.h; do : >"$stub/$h"; done
no_numbers()
{
	for arch in __x86_64__ __i386__ __aarch64__ __arm__ __alpha__ __mips__ \
		__powerpc__ __s390__; do
		printf '#include <gpuprio.h>\n@@ __NR_gpuprio_set __NR_gpuprio_get\n' |
			cc -E -P -undef -nostdinc -D"$arch" -I"$stub" -I"$inc" \
			-x c - >"$tmp/nr.i" || return 1
		grep -qx '@@ __NR_gpuprio_set __NR_gpuprio_get' "$tmp/nr.i" ||
			{ echo "$arch: $(grep '^@@' "$tmp/nr.i")"; return 1; }
		! grep -n 'syscall([0-9_]' "$tmp/nr.i" || return 1
	done
}
check "<gpuprio.h> defines no syscall number on any architecture" no_numbers

# What the wrappers make of the file, pointed elsewhere: each issues the
# number the file gives it (getppid and getpid stand in, harmless on any
# kernel), and a file that is missing or holds anything else makes both
# fail with ENOSYS without a system call of those numbers (the guard
# kills the program on either).
cat >"$tmp/parse.c" <<'EOF'
#include <gpuprio.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	int set, get, set_errno, get_errno;

	if (argc == 2 && !strcmp(argv[1], "numbers")) {
		printf("%ld\t%ld\n", (long)SYS_getppid, (long)SYS_getpid);
		return 0;
	}
	set = gpuprio_set(GPUPRIO_WHO_PROCESS, 0, GPUPRIO_DEFAULT);
	set_errno = errno;
	get = gpuprio_get(GPUPRIO_WHO_PROCESS, 0);
	get_errno = errno;
	if (argc == 2 && !strcmp(argv[1], "valid"))
		return !(set == (int)getppid() && get == (int)getpid() &&
			 gpuprio_supported());
	return !(set == -1 && set_errno == ENOSYS && get == -1 &&
		 get_errno == ENOSYS && !gpuprio_supported());
}
EOF
guard=$tmp/nosys-guard
parse_build()
{
	# shellcheck disable=SC2086 # $WARN is a list of flags
	cc -Wall -Wextra -Werror -o "$guard" "$top/tests/host/nosys-guard.c" &&
	cc -std=gnu99 $WARN -I"$inc" -DGPUPRIO_SYSCALLS_PATH="\"$tmp/nrs\"" \
		-o "$tmp/parse" "$tmp/parse.c" && "$tmp/parse" numbers >"$tmp/good"
}
check "the parser test and its guard build" parse_build
if [ -s "$tmp/good" ]; then
	read -r ppid_nr pid_nr <"$tmp/good"
	cp "$tmp/good" "$tmp/nrs"
	check "a file '$ppid_nr<TAB>$pid_nr': set issues $ppid_nr, get $pid_nr" \
		"$tmp/parse" valid
	# Each case: a description and a printf format of the two numbers.
	while IFS='|' read -r desc fmt; do
		rm -f "$tmp/nrs"
		# The format is the case.
		# shellcheck disable=SC2059
		[ "$desc" = missing ] || printf -- "$fmt" "$ppid_nr" "$pid_nr" \
			>"$tmp/nrs"
		check "a file $desc: ENOSYS, neither number issued" \
			"$guard" -n "$ppid_nr" -n "$pid_nr" "$tmp/parse" invalid
	done <<-'CASES'
	missing|
	empty|
	with one number|%s\n%.0s
	without a newline|%s\t%s
	with three numbers|%s\t%s\t1\n
	with a trailing blank|%s\t%s \n
	with two newlines|%s\t%s\n\n
	with a leading blank| %s\t%s\n
	with no blank between|%s%s\n
	with a sign|+%s\t%s\n
	with a negative number|-%s\t%s\n
	with a zero|%.0s0\t%s\n
	with an overflow|99999999999%s\t%s\n
	with letters|%sx\t%s\n
	CASES
fi

tap_done
