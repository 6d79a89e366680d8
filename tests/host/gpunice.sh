#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host tests for gpunice, its header, example, man pages and completion.
#
# Usage: tests/host/gpunice.sh [path/to/gpunice [installed uapi headers]]
#
# The default binary is out/gpunice/gpunice; gpuprio-tabs is looked for
# next to it; the headers default to out/headers/include (make headers).
# Prints TAP and exits 1 if any test failed.
#
# The host kernel has no GPU priorities, and on it (Linux 6.13 and later)
# the numbers the test kernel gives the gpuprio calls may be other calls
# (463 and 464 are setxattrat and getxattrat). So these tests check
# everything that needs no kernel support, that the tool says so where it
# would need it, and that it never issues those numbers: every run that
# could reach them runs under a seccomp filter that kills the process
# first (tests/host/nosys-guard.c, built with the test kernel's headers).
# Without those headers (make tool) the guard has no numbers to forbid:
# that test is skipped and the runs rely on the tool reading its numbers
# from a file the host kernel does not have.
#
# The checks are single-quoted on purpose: check() evaluates them, and the
# variables they read are used there only; $CC and $CXX may be several
# words (ccache cc), split on purpose.
# shellcheck disable=SC2016,SC2034,SC2086

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
GPUNICE=${1:-$top/out/gpunice/gpunice}
HEADERS=${2:-$top/out/headers/include}
TABS=$(dirname "$GPUNICE")/gpuprio-tabs
CC=${CC:-cc}
CXX=${CXX:-c++}
TRY="Try 'gpunice --help' for more information."
NOSUPPORT="gpunice: this kernel has no GPU priority support (CONFIG_GPUPRIO): cannot read /proc/sys/kernel/gpuprio_syscalls"
NOSUPPORT_CMD="$NOSUPPORT; -t runs the command without it"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
# check, run, status_is, out_is...
# shellcheck source=tests/lib/cmd.sh
. "$top/tests/lib/cmd.sh"

# Under the guard, any gpuprio syscall kills the tool (status 159).
guard=$tmp/nosys-guard
guarded=$guard
rung()
{
	run $guarded "$@"
}

err_last_is() { [ "$(tail -n 1 "$tmp/err")" = "$1" ]; }
err_lines() { [ "$(wc -l <"$tmp/err")" -eq "$1" ]; }

# Lines longer than 80 columns, tabs counted as 8, in files or stdin.
too_wide() { expand "$@" | awk 'length > 80 { bad = 1 } END { exit !bad }'; }

# --- the binary and its build ---------------------------------------------

check "gpunice binary exists: $GPUNICE" test -x "$GPUNICE"

build_warning_free()
{
	for defs in "" -DGPUNICE_NO_NSS -DENABLE_NLS; do
		$CC -Wall -Wextra -Werror -O2 $defs \
			-I"$top/tools/gpunice/include" -I"$top/include/uapi" \
			-o "$tmp/gpunice-build" "$top/tools/gpunice/gpunice.c" \
			>"$tmp/err" 2>&1 || return 1
	done
}
check "gpunice.c builds with -Wall -Wextra -Werror (also NO_NSS, NLS)" \
	build_warning_free

# Messages are marked for translation as util-linux marks them: a message
# or printf format with words in it must go through _().
unmarked_messages()
{
	grep -nE '(\<(warnx?|errx?|bad_usage)\(([A-Z_]+, )?|\<f?printf\((std(out|err), )?)"[^"]*[A-Za-z]{2}' \
		"$top/tools/gpunice/gpunice.c" >"$tmp/err"
}
check "gpunice.c marks its messages for translation" eval '! unmarked_messages'

if [ -f "$HEADERS/asm/unistd.h" ]; then
	guard_inc="-isystem $HEADERS"
else
	guard_inc=
fi
check "nosys-guard builds" $CC -Wall -Wextra -Werror -O2 $guard_inc \
	-o "$guard" "$top/tests/host/nosys-guard.c"
if [ -n "$guard_inc" ]; then
	# It forbids what the test kernel's syscall table gives the calls.
	nrs=$("$top/tests/gpuprio-nr.sh" "$HEADERS" 2>&1)
	eval "$nrs"
	check "the guard forbids the test kernel's numbers: $(echo "$nrs" | tr "\n" " ")" \
		eval '[ -n "${GPUPRIO_NR_SET:-}" ] && [ -n "${GPUPRIO_NR_GET:-}" ]'
else
	skip "the guard forbids the test kernel's numbers" \
		"no kernel headers in $HEADERS (make headers)"
	guarded=
fi

# The guard itself must be able to catch a call, or its passes mean nothing.
run "$guard" --self-test
check "nosys-guard kills a forbidden syscall (status 159)" status_is 159

sources_narrow()
{
	! too_wide "$top/tools/gpunice/gpunice.c" \
		"$top/tools/gpunice/include/gpuprio.h" \
		"$top/tools/gpunice/examples/gpuprio-tabs.c" \
		"$top/tests/guest/threads.c" "$top/tests/host/nosys-guard.c"
}
check "C sources fit in 80 columns" sources_narrow

# --- --help and --version ---------------------------------------------------

help_ok()
{
	status_is 0 && err_empty &&
	[ "$(sed -n 1p "$tmp/out")" = "" ] &&
	[ "$(sed -n 2p "$tmp/out")" = "Usage:" ] &&
	out_has " gpunice [options] [<command> [<argument>...]]" &&
	out_has " gpunice [options] -p <pid>..." &&
	out_has " gpunice [options] -g <pgid>..." &&
	out_has " gpunice [options] -u <user>..." &&
	out_has " gpunice --list [--all]" &&
	out_has "Options:" &&
	for opt in " -c, --class <class>" " -n, --nice <num>" \
		" -p, --pid <pid>..." "     --thread" " -g, --pgrp <pgid>..." \
		" -P, --pgid <pgid>..." " -u, --user <user>..." \
		"     --uid <user>..." " -l, --list" "     --all" \
		" -t, --ignore" " -h, --help" " -V, --version"; do
		out_has "$opt" || return 1
	done &&
	out_has "not an increment" &&
	[ "$(tail -n 1 "$tmp/out")" = "For more details see gpunice(1)." ] &&
	! too_wide "$tmp/out"
}
rung "$GPUNICE" --help
check "--help prints util-linux style usage in 80 columns" help_ok
cp "$tmp/out" "$tmp/help"
rung "$GPUNICE" -h
check "-h prints the same as --help" \
	eval 'status_is 0 && cmp -s "$tmp/out" "$tmp/help"'

version_ok()
{
	status_is 0 && err_empty && [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
	grep -qE '^gpunice from gpunice [0-9]+\.[0-9]+' "$tmp/out"
}
rung "$GPUNICE" --version
check "--version prints 'gpunice from gpunice <version>'" version_ok
rung "$GPUNICE" -V
check "-V prints the version" version_ok

# --- bad usage: exit 1, a message, the Try line, nothing issued -------------

# usage_error DESCRIPTION MESSAGE ARGS...
usage_error()
{
	desc=$1
	msg=$2
	shift 2
	rung "$GPUNICE" "$@"
	check "bad usage: $desc" eval 'status_is 1 && out_empty &&
		err_has "$msg" && err_last_is "$TRY" &&
		! err_has "no GPU priority support"'
}

usage_error "unknown long option" "unrecognized option '--bogus'" --bogus
usage_error "unknown short option" "invalid option -- 'x'" -x true
usage_error "--nice without its argument" "requires an argument" -n
usage_error "nice 20 is out of range" "invalid nice: '20'" -n 20 true
usage_error "nice -21 is out of range" "invalid nice: '-21'" -n -21 true
usage_error "nice must be a number" "invalid nice: 'abc'" -n abc true
usage_error "nice must be a whole number" "invalid nice: '5x'" -n 5x true
usage_error "empty nice" "invalid nice: ''" -n "" true
usage_error "realtime level 8 is out of range" "invalid level: '8'" \
	-c realtime -n 8 true
usage_error "realtime level -1 is out of range" "invalid level: '-1'" \
	-c 1 -n -1 true
usage_error "unknown class name" "unknown class: 'fast'" -c fast true
usage_error "class number 4 does not exist" "unknown class: '4'" -c 4 true
usage_error "--pid and --pgrp together" "only one of" -p 1 -g 1
usage_error "--pid and --user together" "only one of" -p 1 -u root
usage_error "--thread without --pid" "--thread requires --pid" --thread true
usage_error "PID 0" "invalid PID argument: '0'" -p 0
usage_error "PID must be a number" "invalid PID argument: 'abc'" -p abc
usage_error "a command after --pid" "invalid PID argument: 'sleep'" \
	-p 1 sleep
usage_error "PGID 0" "invalid PGID argument: '0'" -g 0
# ionice(1)'s spellings: -P and --pgid for -g, --uid for -u.
usage_error "-P is --pgrp" "invalid PGID argument: '0'" -P 0
usage_error "--pgid is --pgrp" "invalid PGID argument: '0'" --pgid 0
usage_error "--pgid and --uid together" "only one of" --pgid 1 --uid root
usage_error "negative TID" "invalid TID argument: '-3'" -p -3 --thread
usage_error "--nice with nothing to act on" "no command, --pid" -n 5
usage_error "--class with nothing to act on" "no command, --pid" -c idle
usage_error "--all without --list" "--all requires --list" --all
usage_error "--list with a process" "--list takes no command" -l -p 1
usage_error "--list with a nice" "--list takes no command" --list -n 3
usage_error "--list with a command" "--list takes no command" -l true

rung "$GPUNICE" -u no_such_user_gpunice
check "unknown user: exit 1 with a message" eval 'status_is 1 &&
	err_is "gpunice: unknown user: '"'no_such_user_gpunice'"'"'
rung "$GPUNICE" --uid no_such_user_gpunice
check "--uid is --user" eval 'status_is 1 &&
	err_is "gpunice: unknown user: '"'no_such_user_gpunice'"'"'

# An unprivileged user naming root would get its own user ID instead.
if [ "$(id -u)" -ne 0 ]; then
	rung "$GPUNICE" -u 0
	check "user ID 0 is refused for non-root" eval 'status_is 1 &&
		err_has "cannot act on user ID 0"'
elif command -v setpriv >/dev/null; then
	rung setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$GPUNICE" -u root
	check "user ID 0 is refused for non-root" eval 'status_is 1 &&
		err_has "cannot act on user ID 0"'
else
	skip "user ID 0 is refused for non-root" "no setpriv"
fi

# --- no kernel support ------------------------------------------------------

if [ -e /proc/sys/kernel/gpuprio_syscalls ]; then
	nosup="this kernel has GPU priorities"
else
	nosup=
fi

# nosupport DESCRIPTION ARGS...: exit 1, the message once, nothing else;
# with a command, the message names -t as the way to run it anyway.
nosupport()
{
	desc=$1
	shift
	expect=$NOSUPPORT
	case $desc in running*) expect=$NOSUPPORT_CMD ;; esac
	if [ -n "$nosup" ]; then
		skip "no support: $desc" "$nosup"
		return
	fi
	rung "$GPUNICE" "$@"
	check "no support: $desc" eval 'status_is 1 && out_empty &&
		err_is "$expect"'
}

pgid=$(ps -o pgid= -p $$ | tr -d ' ')
nosupport "showing itself" 
nosupport "running a command fails and does not run it" \
	sh -c 'echo ran'
nosupport "running a command at nice 5" -n 5 sh -c 'echo ran'
nosupport "running a command as realtime" -c realtime sh -c 'echo ran'
nosupport "showing a process" -p $$
nosupport "setting three processes says it once" -n 5 -p $$ $$ $$
nosupport "setting a thread" -c idle -p $$ --thread
nosupport "showing a process group" -g "$pgid"
nosupport "setting a process group" -n 3 -g "$pgid"
nosupport "showing a user" -u "$(id -un)"
nosupport "setting a user by ID" -c none -u "$(id -u)"
nosupport "listing" --list
nosupport "listing all" -l --all

# ignore DESCRIPTION CONDITION ARGS...
ignore()
{
	desc=$1
	cond=$2
	shift 2
	if [ -n "$nosup" ]; then
		skip "--ignore: $desc" "$nosup"
		return
	fi
	rung "$GPUNICE" "$@"
	check "--ignore: $desc" eval "$cond"
}

ignore "runs the command silently, its status passes through" \
	'status_is 3 && out_is ran && err_empty' \
	-t sh -c 'echo ran; exit 3'
ignore "passes the command its arguments" \
	'status_is 0 && out_is "a b" && err_empty' \
	--ignore -n 7 -- sh -c 'echo "$0 $1"' a b
ignore "silences the warning about a nice for idle" \
	'status_is 0 && out_is ran && err_empty' \
	-t -c idle -n 3 sh -c 'echo ran'
ignore "setting a process reports success" \
	'status_is 0 && out_empty && err_empty' -t -n 5 -p $$
ignore "does not make showing succeed" \
	'status_is 1 && err_is "$NOSUPPORT"' -t -p $$
ignore "a missing command exits 127" \
	'status_is 127 && err_is "gpunice: failed to execute /nonexistent/cmd: No such file or directory"' \
	-t /nonexistent/cmd
printf 'echo not run\n' >"$tmp/not-executable"
chmod 644 "$tmp/not-executable"
ignore "a command that cannot be executed exits 126" \
	'status_is 126 && err_has "failed to execute" &&
	 err_has "Permission denied" && out_empty' \
	-t "$tmp/not-executable"

if [ -n "$nosup" ]; then
	skip "no support: warning for a nice with idle" "$nosup"
else
	rung "$GPUNICE" -c idle -n 3 true
	check "no support: warning for a nice with idle, then the message" \
		eval 'status_is 1 && err_lines 2 &&
		err_has "ignoring given nice for the idle class" &&
		err_last_is "$NOSUPPORT_CMD"'
fi

# --- no gpuprio syscall, seen by strace -------------------------------------

# strace 6.1 does not know the numbers by name: it prints syscall_0x1cf
# for 463; newer ones print setxattrat/getxattrat there.
forbidden='xattrat\('
for nr in ${GPUPRIO_NR_SET:-} ${GPUPRIO_NR_GET:-}; do
	forbidden="$forbidden|syscall_0x$(printf %x "$nr")\\(|syscall_$nr\\("
done
traced_clean()
{
	strace -f -qq -o "$tmp/trace" $guarded "$GPUNICE" "$@" \
		>"$tmp/out" 2>"$tmp/err"
	grep -q 'gpuprio_syscalls' "$tmp/trace" &&
	! grep -qiE "$forbidden" "$tmp/trace"
}
if ! command -v strace >/dev/null; then
	skip "strace: no gpuprio syscall when setting" "no strace"
	skip "strace: no gpuprio syscall when running a command" "no strace"
elif [ -n "$nosup" ]; then
	skip "strace: no gpuprio syscall when setting" "$nosup"
	skip "strace: no gpuprio syscall when running a command" "$nosup"
else
	check "strace: the probe, and no gpuprio syscall, when setting" \
		traced_clean -n 5 -p $$
	check "strace: the probe, and no gpuprio syscall, running a command" \
		traced_clean -t -c realtime true
fi

# --- the example program ----------------------------------------------------

if [ ! -x "$TABS" ]; then
	not_ok "gpuprio-tabs exists: $TABS"
elif [ -n "$nosup" ]; then
	skip "gpuprio-tabs skips without support" "$nosup"
else
	rung "$TABS"
	check "gpuprio-tabs exits 4 (skip) without support, saying why" \
		eval 'status_is 4 && out_has "no GPU priority support"'
fi

# --- the application header -------------------------------------------------

cat >"$tmp/header.c" <<'EOF'
#include <gpuprio.h>

int main(void)
{
	if (!gpuprio_supported())
		return gpuprio_set(GPUPRIO_WHO_PROCESS, 0, GPUPRIO_DEFAULT) == -1
			&& errno == ENOSYS ? 0 : 1;
	return gpuprio_get(GPUPRIO_WHO_PROCESS, 0) < 0;
}
EOF
header_c()
{
	# Strict -std= hides syscall(2); the header must declare it itself.
	$CC -std=c11 -pedantic -Wall -Wextra -Werror \
		-I"$top/tools/gpunice/include" -I"$top/include/uapi" \
		-o "$tmp/header" "$tmp/header.c" >"$tmp/err" 2>&1 &&
	run $guarded "$tmp/header" && status_is 0
}
check "gpuprio.h compiles alone as strict C11; wrappers fail with ENOSYS" header_c

if command -v "$CXX" >/dev/null; then
	cp "$tmp/header.c" "$tmp/header.cc"
	check "gpuprio.h compiles alone as C++17" $CXX -std=c++17 -pedantic -Wall -Wextra -Werror \
		-I"$top/tools/gpunice/include" -I"$top/include/uapi" \
		-fsyntax-only "$tmp/header.cc"
else
	skip "gpuprio.h compiles alone as C++17" "no $CXX"
fi

# --- man pages --------------------------------------------------------------

man=$top/man
pages="man1/gpunice.1 man2/gpuprio_set.2 man2/gpuprio_get.2 man3/gpuprio.3
man3/gpuprio_supported.3 man3/gpuprio_pidfd_open.3 man5/proc_pid_gpu_nice.5"

# man-pages itself writes lower-case titles and .so links, which mandoc
# reports as style issues; nothing else may be reported.
mandoc_clean()
{
	(cd "$man" && mandoc -T lint "$1") 2>&1 | grep -v \
		-e 'lower case character in document title' \
		-e '\.so is fragile, better use ln' \
		-e 'referenced manual not found' >"$tmp/err"
	[ ! -s "$tmp/err" ]
}
groff_clean()
{
	(cd "$man" && groff -ww -z -man -s "$1") >"$tmp/err" 2>&1 &&
	[ ! -s "$tmp/err" ]
}
for page in $pages; do
	if command -v mandoc >/dev/null; then
		check "mandoc -T lint: $page" mandoc_clean "$page"
	else
		skip "mandoc -T lint: $page" "no mandoc"
	fi
	if command -v groff >/dev/null; then
		check "groff -ww -z -man: $page" groff_clean "$page"
	else
		skip "groff -ww -z -man: $page" "no groff"
	fi
done

check "gpuprio_get.2 is a link to gpuprio_set.2" \
	eval '[ "$(cat "$man/man2/gpuprio_get.2")" = ".so man2/gpuprio_set.2" ]'
for f in gpuprio_supported gpuprio_pidfd_open; do
	check "$f.3 is a link to gpuprio.3" \
		eval '[ "$(cat "$man/man3/$f.3")" = ".so man3/gpuprio.3" ]'
done

sections_in_order()
{
	want=$1
	got=$(sed -n 's/^\.SH "*\([^"]*\)"*$/\1/p' "$man/$2" | tr '\n' ',')
	[ "$got" = "$want" ] || { echo "# sections: $got"; return 1; }
}
check "gpuprio_set.2 has the man-pages sections in order" sections_in_order \
	"NAME,LIBRARY,SYNOPSIS,DESCRIPTION,RETURN VALUE,ERRORS,VERSIONS,STANDARDS,HISTORY,NOTES,EXAMPLES,SEE ALSO," \
	man2/gpuprio_set.2

errors_sorted()
{
	sed -n '/^\.SH ERRORS/,/^\.SH/p' "$man/man2/gpuprio_set.2" |
		sed -n '/^\.TP/{n;s/^\.B //p}' >"$tmp/errors"
	[ -s "$tmp/errors" ] && sort -c "$tmp/errors"
}
check "gpuprio_set.2 lists ERRORS alphabetically" errors_sorted

# The EXAMPLES program, unescaped from roff, must build and run safely.
man_example()
{
	sed -n '/^\.\\" SRC BEGIN/,/^\.\\" SRC END/p' \
		"$man/man2/gpuprio_set.2" | sed -e '/^\.\\"/d' -e '/^\.E[XE]$/d' \
		-e 's/^\\&$//' -e 's/\\e/\\/g' -e 's/\\-/-/g' >"$tmp/example.c"
	$CC -Wall -Wextra -Werror -I"$top/include/uapi" \
		-o "$tmp/example" "$tmp/example.c" >"$tmp/err" 2>&1 || return 1
	[ -n "$nosup" ] && return 0
	run $guarded "$tmp/example" $$ 10
	status_is 1 && err_has "no GPU priority support"
}
check "gpuprio_set.2 EXAMPLES compiles and probes before calling" man_example

# gpuprio.3's EXAMPLES is the marked part of gpuprio-tabs.c, its tabs
# expanded to 4 columns as man-pages indents.
man3_example()
{
	sed -n '/gpuprio\.3 EXAMPLES begin/,/gpuprio\.3 EXAMPLES end/p' \
		"$top/tools/gpunice/examples/gpuprio-tabs.c" | sed '1d;$d' |
		expand -t 4 >"$tmp/region"
	sed -n '/^\.\\" SRC BEGIN/,/^\.\\" SRC END/p' "$man/man3/gpuprio.3" |
		sed -e '/^\.\\"/d' -e '/^\.E[XE]$/d' -e 's/^\\&$//' \
		-e 's/\\e/\\/g' -e 's/\\-/-/g' >"$tmp/example"
	[ -s "$tmp/region" ] && diff -u "$tmp/region" "$tmp/example" >"$tmp/err"
}
check "gpuprio.3 EXAMPLES is the marked part of gpuprio-tabs.c" man3_example

if command -v mandoc >/dev/null; then
	# Without the overstrikes that make bold and underline.
	bs=$(printf '\b')
	mandoc -T ascii -O width=80 "$man/man1/gpunice.1" |
		sed "s/.$bs//g" >"$tmp/out"
	check "gpunice.1 renders in 80 columns" eval '! too_wide "$tmp/out"'
	mandoc -T ascii -O width=80 "$man/man3/gpuprio.3" |
		sed "s/.$bs//g" >"$tmp/out"
	check "gpuprio.3 renders in 80 columns" eval '! too_wide "$tmp/out"'
else
	skip "gpunice.1 renders in 80 columns" "no mandoc"
	skip "gpuprio.3 renders in 80 columns" "no mandoc"
fi

# --- bash completion ----------------------------------------------------------

comp=$top/tools/gpunice/bash-completion/gpunice
complete_words()
{
	bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_gpunice_module
		printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" gpunice "$@" \
		>"$tmp/out" 2>"$tmp/err"
}
if command -v bash >/dev/null; then
	check "bash completion parses" bash -n "$comp"
	complete_words -c ""
	check "bash completion: class names" eval 'err_empty &&
		out_has realtime && out_has best-effort && out_has idle &&
		out_has none'
	complete_words --th
	check "bash completion: long options" out_is --thread
	complete_words -n -2
	check "bash completion: nice values" eval 'out_has -20 && out_has -2 &&
		! out_has 19'
	complete_words -u ro
	check "bash completion: user names" out_has root
	complete_words -p "$$" ""
	check "bash completion: more PIDs after -p" out_has "$$"
	complete_words -P ""
	check "bash completion: -P takes process groups" eval \
		'out_has "$(ps -o pgid= -p $$ | tr -d " ")"'
	complete_words --uid ro
	check "bash completion: --uid takes user names" out_has root
	complete_words --li
	check "bash completion: --list" out_is --list
	complete_words --list ""
	check "bash completion: --list takes only --all" out_is --all
	# The wrapped command's own options are its own: a stand-in for
	# bash-completion's _command_offset records where it was handed over.
	complete_with_offset()
	{
		bash -c '
			. "$1"; shift
			_command_offset() { COMPREPLY=("offset:$1"); }
			COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
			_gpunice_module
			printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" gpunice "$@" \
			>"$tmp/out" 2>"$tmp/err"
	}
	complete_with_offset tar -c ""
	check "bash completion: a command's -c is the command's" \
		out_is offset:1
	complete_with_offset -n 5 ssh -p ""
	check "bash completion: a command's -p is the command's" \
		out_is offset:3
	complete_with_offset -c idle ""
	check "bash completion: commands after gpunice's options" \
		eval '! out_has offset:3 && out_has ls'
else
	skip "bash completion" "no bash"
fi

# --- the integration examples in docs/examples ------------------------------

if command -v shellcheck >/dev/null; then
	check "docs/examples scripts are shellcheck-clean" \
		shellcheck "$top/docs/examples/gamemode/gpunice-gamemode"
else
	skip "docs/examples scripts are shellcheck-clean" "no shellcheck"
fi

# --- make install -----------------------------------------------------------

install_ok()
{
	make -s -C "$top/tools/gpunice" O="$tmp/build" DESTDIR="$tmp/root" \
		PREFIX=/usr install >"$tmp/err" 2>&1 || return 1
	for f in bin/gpunice include/gpuprio.h include/linux/gpuprio.h \
		share/man/man1/gpunice.1 share/man/man2/gpuprio_set.2 \
		share/man/man2/gpuprio_get.2 share/man/man3/gpuprio.3 \
		share/man/man3/gpuprio_supported.3 \
		share/man/man3/gpuprio_pidfd_open.3 \
		share/man/man5/proc_pid_gpu_nice.5 \
		share/bash-completion/completions/gpunice; do
		[ -f "$tmp/root/usr/$f" ] || { echo "# missing $f"; return 1; }
	done
	[ -x "$tmp/root/usr/bin/gpunice" ]
}
if command -v make >/dev/null; then
	check "make install honours DESTDIR and PREFIX" install_ok
else
	skip "make install honours DESTDIR and PREFIX" "no make"
fi

tap_done
