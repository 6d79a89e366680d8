# shellcheck shell=sh
# Package builds as users run them: tests/deb-check.sh and pkg-check.sh
# build as an unprivileged user, since make deb, rpm and pacman are meant
# to run without root (after sudo make deps). Sourced.

# as_builder DIR COMMAND: run the shell command COMMAND in DIR as this
# user, or, as root, as nobody with a home that does not exist
# (HOME=/nonexistent, as Debian's build daemons run) and without ccache's
# masquerading gcc, which fails where it cannot write its cache. DIR
# becomes nobody's first.
as_builder() {
	if [ "$(id -u)" -ne 0 ]; then
		(cd "$1" && sh -c "$2")
		return
	fi
	chown -R nobody "$1"
	set -- "$1" "$2" "$(echo "$PATH" | tr : '\n' | grep -vx /usr/lib/ccache |
		paste -sd:)"
	su nobody -s /bin/sh -c "cd '$1' && HOME=/nonexistent PATH='$3' $2"
}

# The user as_builder runs as, for the tests' names.
builder_name() {
	if [ "$(id -u)" -ne 0 ]; then id -un; else echo nobody; fi
}
