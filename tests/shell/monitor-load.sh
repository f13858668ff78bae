#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: "monitor new rules" prints every one of the 10,000 rules of one
# batch, even when it reads none until the batch is done (its receive
# buffer is 16 MB, as nft's); and when events are lost
# anyway (a monitor stopped while batches go, until the kernel drops some),
# it says so on stderr, prints the ruleset as it is then, and goes on with
# the events that come after it, none of those the listing shows again
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
py=/usr/bin/python3
[ -x "$py" ] || py=python3
require_cmd "$py"
forge=$LIB_DIR/nl-forge.py

ns_new NS || exit 99
dir=$(tmpdir)
"$py" - "$dir/big.nft" <<'PY'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('table ip m {\n\tchain c {\n')
    for i in range(1, 10001):
        f.write('\t\tip saddr 10.%d.%d.%d counter\n'
                % (i // 65536, (i // 256) % 256, i % 256))
    f.write('\t}\n}\n')
PY
mons=()
trap 'kill "${mons[@]}" 2>/dev/null; lib_cleanup' EXIT

# start_monitor NAME ARGS...: a monitor writing $dir/NAME and NAME.err,
# listening once a probe table shows up in it; its pid in $mon
start_monitor() {
	local name=$1 i
	shift
	ip netns exec "$NS" $TOOL monitor "$@" >"$dir/$name" 2>"$dir/$name.err" &
	mon=$!
	mons+=("$mon")
	for ((i = 0; i < 50; i++)); do
		tool "$NS" -f - <<'EOF'
table ip probe { chain c { accept; }; }
EOF
		tool "$NS" delete table ip probe
		grep -q 'add rule ip probe c accept$' "$dir/$name" && return 0
		sleep 0.1
	done
	echo "# monitor $name never started"
	exit 99
}
# a rule between others names the one before it, as nft monitor does
count() { grep -Ec "^add rule ip m c (handle [0-9]+ )?ip saddr" "$dir/$1"; }
full() { [ "$(count "$1")" -ge "$2" ]; }

# (stopped while the batch goes: the buffer alone must hold its events)
start_monitor rules new rules
kill -STOP "$mon"
tool "$NS" -f "$dir/big.nft"
kill -CONT "$mon"
retry 200 full rules 10000
expect_eq "monitor prints all 10,000 rules of one batch" 10000 "$(count rules)"
expect_eq "and loses none" "" "$(cat "$dir/rules.err")"
kill "$mon"

# --- lost anyway -----------------------------------------------------------
tool "$NS" flush ruleset
start_monitor all
kill -STOP "$mon"
drops() {
	local p
	for p in $(in_ns "$NS" "$py" "$forge" ports "$mon"); do
		in_ns "$NS" awk -v p="$p" '$2 == 12 && $3 == p { print $9 }' /proc/net/netlink
	done | sort -n | tail -n1
}
# each batch replaces the table: the events pile up, the ruleset does not
for ((i = 0; i < 12; i++)); do
	{ [ $i -gt 0 ] && echo "delete table ip m"; cat "$dir/big.nft"; } |
		tool "$NS" -f - || exit 99
	[ "$(drops)" -gt 0 ] && break
done
if ! [ "$(drops)" -gt 0 ]; then
	echo "# the kernel dropped nothing: the buffer held $((i * 20000)) events"
	exit 77
fi
kill -CONT "$mon"
relisted() { sed -n '/^# events lost/,$p' "$dir/all" | grep -q '^}$'; }
retry 300 relisted
tool "$NS" add table ip after
listed() { grep -q '^add table ip after$' "$dir/all"; }
retry 300 listed
grep -q 'events were lost (receive buffer full) in [0-9]* generation' "$dir/all.err" &&
	ok "lost events are told on stderr" ||
	{ not_ok "lost events are told on stderr"; diag <"$dir/all.err"; }
gen=$(sed -n 's/^# events lost: the ruleset at generation \([0-9]*\)$/\1/p' "$dir/all")
[ -n "$gen" ] && ok "the ruleset is printed again after them" ||
	not_ok "the ruleset is printed again after them"
# the listing: the table as the last batch left it, all its rules
expect_eq "the listing holds the table whole" 10000 \
	"$(sed -n '/^# events lost/,/^}/p' "$dir/all" | grep -c '^		ip saddr')"
after=$(sed -n '/^# events lost/,$p' "$dir/all" | sed '1,/^}$/d')
expect_eq "then only what came after it" "add table ip after
# new generation $((gen + 1)) by process PID (nfh)" \
	"$(printf '%s\n' "$after" | sed 's/process [0-9]*/process PID/')"
finish
