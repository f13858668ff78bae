#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: nfh -i on a real pseudo-terminal (tmux): a multi-line table typed
# with a continuation prompt, Tab completion of keywords, a device, a
# header field, a selector kind (osf: its ops table), a chain name, a set name and reference and a rule handle, the caret under a typing error, the listing, and
# Ctrl-C dropping a typed line and an unfinished block (nothing of them
# reaches the kernel), Ctrl-D leaving with status 1 because a command
# failed; then the same
# session through a pipe: no prompts, same output, same status, and quit
# stops reading.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd tmux
require_feature netdev_ingress
# shellcheck disable=SC2086
if ! $TOOL --version 2>/dev/null | grep -q '^nfh '; then
	echo "# the completing shell is nfh's own"
	exit 77
fi

ns_new NS
ip -n "$NS" link add veth-cli type veth peer name veth-peer || exit 99
dir=$(tmpdir)
sock=$dir/tmux.sock
export HOME=$dir

tm() { tmux -S "$sock" "$@"; }
screen() { tm capture-pane -p -t cli | sed -e 's/[[:space:]]*$//' -e '/^$/d'; }
# shellcheck disable=SC2016 # the sh -c scripts take their own $1 $2
# wait_for DESC PATTERN: the screen shows a line matching PATTERN (grep -E)
wait_for() {
	if retry 50 sh -c 'tmux -S "$1" capture-pane -p -t cli | grep -Eq -e "$2"' \
		sh "$sock" "$2"; then
		ok "$1"
	else
		not_ok "$1"
		screen | diag
	fi
}
# the last line on the screen, the one being typed
last_line() { screen | tail -n1; }
wait_last() {
	# shellcheck disable=SC2016
	retry 50 sh -c '[ "$(tmux -S "$1" capture-pane -p -t cli |
		sed -e "s/[[:space:]]*\$//" -e "/^\$/d" | tail -n1)" = "$2" ]' \
		sh "$sock" "$2"
	expect_eq "$1" "$2" "$(last_line)"
}

# shellcheck disable=SC2086
tm new-session -d -s cli -x 150 -y 50 \
	"ip netns exec $NS $TOOL -i; echo \$? >$dir/status" || exit 99
tm set-option -t cli remain-on-exit on >/dev/null
wait_last "prompt" "nfh>"

tm send-keys -t cli 'table netdev t {' Enter
wait_last "an open brace continues the block" "...>"
tm send-keys -t cli 'chain in {' Enter
tm send-keys -t cli 'type filter hook ingress devi' Tab
wait_last "Tab completes a keyword common prefix" "...> type filter hook ingress device"
tm send-keys -t cli 's' Tab
wait_last "Tab completes devices" "...> type filter hook ingress devices"
tm send-keys -t cli BSpace BSpace ' veth-c' Tab
wait_last "Tab completes a device name" "...> type filter hook ingress device veth-cli"
tm send-keys -t cli 'prio' Tab
wait_last "Tab completes priority" "...> type filter hook ingress device veth-cli priority"
tm send-keys -t cli '0' Enter 'coun' Tab
wait_last "Tab completes a statement keyword" "...> counter"
tm send-keys -t cli 'accept' Enter '}' Enter '}' Enter
wait_last "the closed block runs, back to the prompt" "nfh>"

tm send-keys -t cli 'add rule netdev t ' Tab
wait_last "Tab completes the chain name from the kernel" "nfh> add rule netdev t in"
tm send-keys -t cli 'tcp dp' Tab
wait_last "Tab completes a header field" "nfh> add rule netdev t in tcp dport"
tm send-keys -t cli '22 jump o' Tab
wait_last "no chain starts so: nothing completed" "nfh> add rule netdev t in tcp dport 22 jump o"
tm send-keys -t cli BSpace BSpace BSpace BSpace BSpace BSpace 'dropp' Enter
wait_for "the error is reported" '^Error: syntax error'
screen | grep -A2 '^Error: syntax error' >"$dir/err"
expect_eq "the typed line and a caret under the typo" \
"Error: syntax error, unexpected string, expecting a verdict, a statement or end of rule; did you mean \"drop\"?
add rule netdev t in tcp dport 22 dropp
                                  ^^^^^" "$(cat "$dir/err")"
wait_last "the shell goes on" "nfh>"

tm send-keys -t cli 'add rule netdev t in os' Tab
wait_last "Tab completes a selector kind from its ops table" "nfh> add rule netdev t in osf"
tm send-keys -t cli C-u
tm send-keys -t cli 'list rul' Tab
wait_last "Tab completes list ruleset" "nfh> list ruleset"
tm send-keys -t cli Enter
wait_for "the listing shows the typed chain" 'type filter hook ingress device "veth-cli" priority filter; policy accept;'
wait_for "the listing shows the rule" 'counter packets 0 bytes 0 accept'

tm send-keys -t cli 'add set netdev t blocked { type ipv4_addr; }' Enter
wait_last "a set is added" "nfh>"
tm send-keys -t cli 'add rule netdev t in ip saddr @b' Tab
wait_last "Tab completes a set reference" "nfh> add rule netdev t in ip saddr @blocked"
tm send-keys -t cli C-u 'delete set netdev t b' Tab
wait_last "Tab completes a set name" "nfh> delete set netdev t blocked"
tm send-keys -t cli Enter
wait_last "the set is deleted" "nfh>"
tm send-keys -t cli 'delete rule netdev t in handle ' Tab
wait_last "Tab completes the rule's handle" "nfh> delete rule netdev t in handle 2"
tm send-keys -t cli C-u
tm send-keys -t cli 'add table netdev cancelled' C-c
wait_last "Ctrl-C drops the typed line: a fresh prompt" "nfh>"
tm send-keys -t cli 'table netdev cancelled {' Enter
wait_last "a block is open" "...>"
tm send-keys -t cli C-c
wait_last "Ctrl-C drops the unfinished block" "nfh>"
tm send-keys -t cli 'list tables' Enter
wait_for "the shell still runs commands after Ctrl-C" '^table netdev t$'
tm send-keys -t cli C-d
retry 50 test -s "$dir/status"
expect_eq "Ctrl-D leaves; status 1 after a failed command" 1 "$(cat "$dir/status" 2>/dev/null)"
tm kill-server 2>/dev/null
if grep -q 'list\\040ruleset' "$dir/.nfh_history" 2>/dev/null; then
	ok "history kept in ~/.nfh_history"
else
	not_ok "history kept in ~/.nfh_history"
fi
typed=$(tool "$NS" list ruleset)
expect_eq "the kernel holds what was typed" 'table netdev t {
	chain in {
		type filter hook ingress device "veth-cli" priority filter; policy accept;
		counter packets 0 bytes 0 accept
	}
}' "$typed"

# the same session from a pipe
tool "$NS" flush ruleset
rc=0
tool "$NS" -i >"$dir/out" 2>"$dir/err" <<'EOF' || rc=$?
table netdev t {
	chain in {
		type filter hook ingress device veth-cli priority 0
		counter accept
	}
}
add rule netdev t in tcp dport 22 dropp
list ruleset
EOF
expect_eq "pipe: status 1 after a failed command" 1 "$rc"
expect_eq "pipe: the listing, no prompt" "$typed" "$(cat "$dir/out")"
expect_eq "pipe: the error with its caret" \
"Error: syntax error, unexpected string, expecting a verdict, a statement or end of rule; did you mean \"drop\"?
add rule netdev t in tcp dport 22 dropp
                                  ^^^^^" "$(cat "$dir/err")"

rc=0
out=$(printf 'list tables\nquit\nflush ruleset\n' | tool "$NS" -i 2>&1) || rc=$?
expect_eq "pipe: quit stops reading, status 0" "0: table netdev t" "$rc: $out"
finish
