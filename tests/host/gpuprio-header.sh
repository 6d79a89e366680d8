#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# <gpuprio.h>, the header an application such as a browser copies into its
# own tree, under every C and C++ standard and both compilers. TAP on
# stdout, one line per cell; exits 1 if any failed.
#
# usage: tests/host/gpuprio-header.sh [exported kernel headers]
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
# (they are compared as the preprocessor records them); the fallback
# syscall numbers are the series' (patches/6.12/) for every ABI it wires up,
# and for x86 those of the patched kernel's exported headers, the optional
# argument (make headers: out/headers/include).
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
exported=${1:-}
src=$top/tests/host/gpuprio-header.c
inc=$top/tools/gpunice/include
uapi=$top/include/uapi
WARN="-Wall -Wextra -pedantic -Werror -Wredundant-decls -Wconversion
-Wsign-conversion"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
not_ok()
{
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $1"
	[ -s "$tmp/err" ] && sed 's/^/# /' "$tmp/err"
	return 0
}
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

# --- the fallback syscall numbers ---------------------------------------

# nr ARCH-FLAGS...: "set get" numbers that <gpuprio.h> falls back to, seen
# through headers that name neither: C library headers stubbed empty,
# nothing predefined but the architecture's macros.
stub=$tmp/stub
mkdir -p "$stub/sys"
: >"$stub/errno.h"
: >"$stub/unistd.h"
: >"$stub/sys/syscall.h"
nr()
{
	printf '#include <gpuprio.h>\n' >"$tmp/nr.c"
	numbers "$tmp/nr.c" -I"$stub" -I"$inc" "$@"
}

# numbers FILE CPP-FLAGS...: "set get", the values of __NR_gpuprio_set and
# __NR_gpuprio_get after FILE, preprocessed with nothing predefined.
numbers()
{
	f=$1
	shift
	printf '@@set __NR_gpuprio_set\n@@get __NR_gpuprio_get\n' >>"$f"
	cc -E -P -undef -nostdinc "$@" "$f" >"$tmp/nr.i" || return 1
	s=$(sed -n 's/^@@set //p' "$tmp/nr.i")
	g=$(sed -n 's/^@@get //p' "$tmp/nr.i")
	# Numbers only: a name left unexpanded would count as 0 in $(( )).
	for e in "$s" "$g"; do
		echo "$e" | grep -Eqx '[0-9a-fA-FxX +()]+' || {
			echo "not a number: '$e'" >&2
			return 1
		}
	done
	# The text is the expression: $s, not s.
	# shellcheck disable=SC2004
	echo "$(($s)) $(($g))"
}

# The numbers of gpuprio_set and gpuprio_get in one table of the series.
table()
{
	awk -v want="$1" '
		/^\+\+\+ b\// { file = substr($2, 3) }
		file == want && /^\+[0-9]+[ \t]+[a-z0-9]+[ \t]+gpuprio_(set|get)[ \t]/ {
			nr[$3] = substr($1, 2)
		}
		file == want && /^\+#define __NR_gpuprio_(set|get) / {
			nr[substr($2, 6)] = $3
		}
		END { if (nr["gpuprio_set"] != "" && nr["gpuprio_get"] != "")
			print nr["gpuprio_set"], nr["gpuprio_get"] }' \
		"$top"/patches/6.12/*.patch
}

# nr_cell NAME TABLE OFFSET ARCH-FLAGS...: the fallback for that ABI is the
# table's numbers plus the ABI's offset.
nr_cell()
{
	desc=$1 tbl=$2 off=$3
	shift 3
	: >"$tmp/err"
	want=$(table "$tbl")
	if [ -z "$want" ]; then
		echo "no gpuprio_set/get in $tbl in patches/" >"$tmp/err"
		not_ok "fallback syscall numbers: $desc"
		return
	fi
	got=$(nr "$@" 2>"$tmp/err")
	# Word splitting of "set get" is wanted.
	# shellcheck disable=SC2086
	want=$(set -- $want; echo "$(($1 + off)) $(($2 + off))")
	if [ "$got" = "$want" ]; then
		ok "fallback syscall numbers: $desc: $got"
	else
		echo "header: '$got', series: '$want'" >>"$tmp/err"
		not_ok "fallback syscall numbers: $desc"
	fi
}

generic=include/uapi/asm-generic/unistd.h
nr_cell "x86_64" arch/x86/entry/syscalls/syscall_64.tbl 0 -D__x86_64__
nr_cell "x32" arch/x86/entry/syscalls/syscall_64.tbl 1073741824 \
	-D__x86_64__ -D__ILP32__
nr_cell "i386" arch/x86/entry/syscalls/syscall_32.tbl 0 -D__i386__
nr_cell "arm64 (asm-generic)" "$generic" 0 -D__aarch64__
nr_cell "riscv64 (asm-generic)" "$generic" 0 -D__riscv
nr_cell "loongarch64 (asm-generic)" "$generic" 0 -D__loongarch__
nr_cell "arm EABI" arch/arm/tools/syscall.tbl 0 -D__arm__ -D__ARM_EABI__ \
	-D__NR_SYSCALL_BASE=0
nr_cell "arm OABI" arch/arm/tools/syscall.tbl 9437184 -D__arm__ \
	-D__NR_SYSCALL_BASE=0x900000
nr_cell "arm64 compat (arm EABI)" arch/arm64/tools/syscall_32.tbl 0 \
	-D__arm__ -D__ARM_EABI__ -D__NR_SYSCALL_BASE=0
nr_cell "alpha" arch/alpha/kernel/syscalls/syscall.tbl 0 -D__alpha__
nr_cell "m68k" arch/m68k/kernel/syscalls/syscall.tbl 0 -D__m68k__
nr_cell "microblaze" arch/microblaze/kernel/syscalls/syscall.tbl 0 \
	-D__microblaze__
nr_cell "mips o32" arch/mips/kernel/syscalls/syscall_o32.tbl 4000 \
	-D__mips__ -D__NR_Linux=4000
nr_cell "mips n64" arch/mips/kernel/syscalls/syscall_n64.tbl 5000 \
	-D__mips__ -D__NR_Linux=5000
nr_cell "mips n32" arch/mips/kernel/syscalls/syscall_n32.tbl 6000 \
	-D__mips__ -D__NR_Linux=6000
nr_cell "parisc" arch/parisc/kernel/syscalls/syscall.tbl 0 -D__hppa__
nr_cell "powerpc" arch/powerpc/kernel/syscalls/syscall.tbl 0 -D__powerpc__
nr_cell "s390" arch/s390/kernel/syscalls/syscall.tbl 0 -D__s390__
nr_cell "sh" arch/sh/kernel/syscalls/syscall.tbl 0 -D__sh__
nr_cell "sparc" arch/sparc/kernel/syscalls/syscall.tbl 0 -D__sparc__
nr_cell "xtensa" arch/xtensa/kernel/syscalls/syscall.tbl 0 -D__xtensa__

# The patched kernel's own exported numbers, for x86's three ABIs.
exported_cell()
{
	desc=$1
	shift
	if [ -z "$exported" ] || [ ! -f "$exported/asm/unistd.h" ]; then
		skip "fallback syscall numbers equal the kernel's: $desc" \
			"no exported headers given (make headers)"
		return
	fi
	printf '#include <asm/unistd.h>\n' >"$tmp/k.c"
	: >"$tmp/err"
	kernel=$(numbers "$tmp/k.c" -I"$exported" "$@" 2>"$tmp/err")
	got=$(nr "$@" 2>>"$tmp/err")
	if [ -n "$kernel" ] && [ "$got" = "$kernel" ]; then
		ok "fallback syscall numbers equal the kernel's: $desc: $got"
	else
		echo "header: '$got', kernel: '$kernel'" >>"$tmp/err"
		not_ok "fallback syscall numbers equal the kernel's: $desc"
	fi
}
exported_cell "x86_64" -D__x86_64__
exported_cell "x32" -D__x86_64__ -D__ILP32__
exported_cell "i386" -D__i386__

echo "1..$n"
[ "$failed" -eq 0 ]
