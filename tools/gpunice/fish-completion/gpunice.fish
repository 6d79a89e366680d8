# fish completion for gpunice(1)
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The options are gpunice --help's. Options end at the command (getopt's
# "+"), whose own options are its own; after -p, -g or -u every further
# word is an ID of that kind instead.

# The kind of target the line names so far: pid, pgrp, user, list or none.
function __gpunice_kind
    set -l words (commandline -opc)
    set -e words[1]
    set -l skip 0
    for w in $words
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $w
            case -c --class -n --nice
                set skip 1
            case -p --pid
                echo pid
                return
            case -g --pgrp -P --pgid
                echo pgrp
                return
            case -u --user --uid
                echo user
                return
            case -l --list
                echo list
                return
            case '-*'
            case '*'
                # The command: what follows is its own.
                echo command
                return
        end
    end
    echo none
end

# Before the command, with no target and no --list yet.
function __gpunice_options
    test (__gpunice_kind) = none
end

function __gpunice_kind_is
    test (__gpunice_kind) = $argv[1]
end

# The last word before the one being completed is one of the arguments.
function __gpunice_prev_is
    set -l words (commandline -opc)
    contains -- $words[-1] $argv
end

# The command and its arguments, completed as if typed alone.
function __gpunice_command
    set -l words (commandline -opc)
    set -e words[1]
    set -l skip 0
    set -l i 0
    set -l at 0
    for w in $words
        set i (math $i + 1)
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $w
            case -c --class -n --nice
                set skip 1
            case --
                set at (math $i + 1)
                break
            case '-*'
            case '*'
                set at $i
                break
        end
    end
    set i $at
    if test $i -eq 0; or test $i -gt (count $words)
        __fish_complete_command
        return
    end
    complete -C (string join ' ' -- (string escape -- $words[$i..-1]) \
        (commandline -ct))
end

function __gpunice_pgids
    ps -eo pgid= 2>/dev/null | string trim | sort -un
end

complete -c gpunice -f
complete -c gpunice -n __gpunice_options -s c -l class -x -d 'Scheduling class' \
    -a 'none\t"follow the CPU nice (the default)"
realtime\t"before all best-effort work, levels 0 to 7"
best-effort\t"GPU nice -20 (highest) to 19"
idle\t"below best effort at nice 19"
0\tnone 1\trealtime 2\tbest-effort 3\tidle'
complete -c gpunice -n __gpunice_options -s n -l nice -x \
    -d 'Best-effort GPU nice, or realtime level' -a '(seq -20 19)'
# A negative nice looks like an option: offer the values after -n anyway.
complete -c gpunice -n '__gpunice_prev_is -n --nice' -x -a '(seq -20 19)'
complete -c gpunice -n __gpunice_options -s p -l pid -x \
    -d 'Act on these processes, all their threads' -a '(__fish_complete_pids)'
complete -c gpunice -n '__gpunice_options; or __gpunice_kind_is pid' -l thread \
    -d 'With --pid, act on the given thread IDs only'
complete -c gpunice -n __gpunice_options -s g -l pgrp -x \
    -d 'Act on these process groups' -a '(__gpunice_pgids)'
complete -c gpunice -n __gpunice_options -s P -l pgid -x \
    -d 'Act on these process groups' -a '(__gpunice_pgids)'
complete -c gpunice -n __gpunice_options -s u -l user -x \
    -d 'Act on the processes of these users' -a '(__fish_complete_users)'
complete -c gpunice -n __gpunice_options -l uid -x \
    -d 'Act on the processes of these users' -a '(__fish_complete_users)'
complete -c gpunice -n __gpunice_options -s l -l list \
    -d 'List the threads that have a GPU priority of their own'
complete -c gpunice -n '__gpunice_options; or __gpunice_kind_is list' -l all \
    -d 'With --list, also those that follow their CPU nice'
complete -c gpunice -n __gpunice_options -s t -l ignore \
    -d 'Ignore failures to set the GPU priority'
complete -c gpunice -n __gpunice_options -l ask \
    -d 'Raise through gpuprio-broker(8), then run the command'
complete -c gpunice -n __gpunice_options -s h -l help -d 'Display help'
complete -c gpunice -n __gpunice_options -s V -l version -d 'Display version'

# More IDs after -p, -g or -u; otherwise the command, then its own
# completion.
complete -c gpunice -n '__gpunice_kind_is pid' -a '(__fish_complete_pids)'
complete -c gpunice -n '__gpunice_kind_is pgrp' -a '(__gpunice_pgids)'
complete -c gpunice -n '__gpunice_kind_is user' -a '(__fish_complete_users)'
complete -c gpunice -n '__gpunice_options; and not __gpunice_prev_is -c --class -n --nice' \
    -a '(__gpunice_command)'
complete -c gpunice -n '__gpunice_kind_is command' -a '(__gpunice_command)'
