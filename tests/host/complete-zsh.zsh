#!/usr/bin/zsh -f
# What zsh's completion offers for a command line: an interactive zsh -f in
# a pseudo-terminal (zpty), with compinit over the folder given (where the
# completion under test is the only _gpunice), types the line and a TAB; a
# compadd wrapper prints each match it would add, one "HIT:word" a line,
# and the end of the completion prints "<END>". The matches go to stdout.
#
# usage: tests/host/complete-zsh.zsh FPATH-DIR 'gpunice -c '
emulate -L zsh
zmodload zsh/zpty || exit 2
(( $# == 2 )) || { print -u2 "usage: $0 FPATH-DIR LINE"; exit 2 }

init=$(mktemp) || exit 2
trap 'rm -f "$init"; zpty -d comp 2>/dev/null' EXIT
cat >"$init" <<EOF
PS1= PS2= RPS1=
unsetopt beep prompt_sp prompt_cr
fpath=(${(q)1} \$fpath)
autoload -Uz compinit
compinit -u -D
zstyle ':completion:*' insert-tab false
compadd() {
	# Calls that only fill an array (-O, -A, -D) add nothing: pass them on.
	if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then
		builtin compadd "\$@"
		return
	fi
	local -a hits
	builtin compadd -A hits "\$@"
	(( \$#hits )) || return 1
	print -rl -- \${hits/#/HIT:}
}
comp_end() { print -r -- '<'END'>'; exit }
comppostfuncs=(comp_end)
print -r -- '<'READY'>'
EOF

zpty comp zsh -f -i || exit 2
zpty -w comp "source ${(q)init}"
line=
# Wait for the shell to have read its setup (bounded: 20 s).
for i in {1..200}; do
	zpty -r -t comp line && [[ $line == *'<READY>'* ]] && break
	sleep 0.1
done
[[ $line == *'<READY>'* ]] || { print -u2 "zsh did not start"; exit 2 }
zpty -n -w comp "$2"$'\t'
SECONDS=0
while (( SECONDS < 20 )); do
	if zpty -r -t comp line; then
		[[ $line == *'<END>'* ]] && exit 0
		# A hit may follow the echoed line on the same terminal line.
		[[ -n ${ZCOMP_DEBUG-} ]] && print -r -- "RAW:${(q+)line}"
		line=${line//$'\r'/}
		line=${line%$'\n'}
		[[ $line == *HIT:* ]] && print -r -- "${line##*HIT:}"
	else
		sleep 0.1
	fi
done
print -u2 "no end of completion"
exit 2
