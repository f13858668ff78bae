#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: output that cannot be written fails the command: "list ruleset"
# to /dev/full or to a closed standard output exits 1 and says why on
# stderr (--version too, and a "monitor" stops); a command that prints
# nothing still exits 0 there.  With descriptor 1 or 2 closed the netlink
# socket does not take it: a monitor's descriptors 1 and 2 are no sockets,
# and its events do not go into one
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
[ -w /dev/full ] || { echo "# needs /dev/full"; exit 77; }

ns_new NS || exit 99
dir=$(tmpdir)
tool "$NS" add table ip t || exit 99

expect_eq "list ruleset >/dev/full exits 1" "rc=1" \
	"$(tool "$NS" list ruleset >/dev/full 2>"$dir/err"; echo "rc=$?")"
expect_eq "and says so" "Error: write error: No space left on device" \
	"$(cat "$dir/err")"
expect_eq "-j list ruleset >/dev/full exits 1" "rc=1" \
	"$(tool "$NS" -j list ruleset >/dev/full 2>"$dir/err"; echo "rc=$?")"
expect_eq "--version >/dev/full exits 1" "rc=1" \
	"$(tool "$NS" --version >/dev/full 2>"$dir/err"; echo "rc=$?")"
expect_eq "and says so" "nfh: write error: No space left on device" \
	"$(cat "$dir/err")"
expect_eq "a command that prints nothing exits 0 with stdout on /dev/full" \
	"rc=0" "$(tool "$NS" add table ip u >/dev/full 2>"$dir/err"; echo "rc=$?")"
expect_eq "-i: a listing to /dev/full fails the shell" "rc=1" \
	"$(echo 'list ruleset' | tool "$NS" -i >/dev/full 2>"$dir/err"; echo "rc=$?")"

expect_eq "list ruleset with stdout closed exits 1" "rc=1" \
	"$(tool "$NS" list ruleset 1>&- 2>"$dir/err"; echo "rc=$?")"
expect_eq "and says so" "Error: write error: Bad file descriptor" \
	"$(cat "$dir/err")"
expect_eq "list ruleset with stdout and stderr closed exits 1" 1 \
	"$(tool "$NS" list ruleset >&- 2>&-; echo $?)"
out=$(tool "$NS" list ruleset 2>&-)
expect_eq "list ruleset with stderr closed lists" "table ip t {
}
table ip u {
}" "$out"
expect_eq "an error with stderr closed still exits 1" 1 \
	"$(tool "$NS" -f /nonexistent 2>&-; echo $?)"
expect_eq "the ruleset is what it was" "$out" "$(tool "$NS" list ruleset)"

# fd_kind PID FD: "socket", "null" for the null device (by its device
# number: the name readlink gives depends on the reader's root, and in
# kernel/vm's chroot it reads /host/dev/null), or what it is open on
fd_kind() {
	local l
	l=$(readlink "/proc/$1/fd/$2") || return 1
	case $l in
	socket:*) echo socket ;;
	*)
		if [ "$(stat -L -c '%F %t:%T' "/proc/$1/fd/$2")" = \
			"$(stat -L -c '%F %t:%T' /dev/null)" ]; then
			echo null
		else
			echo "$l"
		fi ;;
	esac
}
# nfh_pid PID: PID, or its first descendant that is nfh when $TOOL is a
# wrapper (tests/memcheck runs nfh as a child of tests/memcheck-exec)
nfh_pid() {
	local p=$1 c
	while [ "$(cat "/proc/$p/comm" 2>/dev/null)" != nfh ]; do
		c=$(cat "/proc/$p/task/$p/children" 2>/dev/null) || return 1
		c=${c%% *}
		[ -n "$c" ] || return 1
		p=$c
	done
	echo "$p"
}
# mon_up PID: the monitor has its sockets, 3 (listening) and 4 (its
# first dump), past "ip netns exec" (whose own sockets come first)
mon_up() {
	local p
	p=$(nfh_pid "$1") &&
		[ "$(fd_kind "$p" 3)" = socket ] && [ "$(fd_kind "$p" 4)" = socket ]
}

ip netns exec "$NS" $TOOL monitor >&- 2>&- &
mon=$!
trap 'kill $mon 2>/dev/null; lib_cleanup' EXIT
retry 50 mon_up "$mon"
nfh=$(nfh_pid "$mon")
expect_eq "monitor >&- 2>&-: descriptor 1 is no socket" null "$(fd_kind "$nfh" 1)"
expect_eq "monitor >&- 2>&-: descriptor 2 is no socket" null "$(fd_kind "$nfh" 2)"
tool "$NS" add table ip v
# a monitor that cannot print stops
gone() { ! kill -0 "$mon" 2>/dev/null; }
if retry 50 gone; then
	ok "a monitor with stdout closed stops at its first event"
else
	not_ok "a monitor with stdout closed stops at its first event"
	kill "$mon"
fi
wait "$mon"
expect_eq "exit status 1" 1 "$?"

ip netns exec "$NS" $TOOL monitor >/dev/full 2>"$dir/mon.err" &
mon=$!
retry 50 mon_up "$mon"
tool "$NS" add table ip w
retry 50 gone || kill "$mon"
wait "$mon"
expect_eq "a monitor to /dev/full stops with exit status 1" 1 "$?"
expect_eq "and says so" "Error: monitor: write error: No space left on device" \
	"$(cat "$dir/mon.err")"
finish
