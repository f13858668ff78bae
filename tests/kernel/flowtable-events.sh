#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: monitor and -e events of flowtables, and device-name prefixes in
# flowtables, on a kernel that has flowtables (the test kernel; the hosts'
# have none, and the test skips there).
#  - nfh monitor, -a monitor and -j monitor print each flowtable added
#    (a block, a command, JSON input) and deleted (by name, by handle),
#    and devices added to a flowtable that exists (the kernel announces
#    the new ones);
#  - -e, -a -e and -j -e echo an added flowtable with its handle, and -j -e
#    after JSON input prints the input with the handle added;
#  - a flowtable on "dq*": on a kernel before 6.17 (no NFTA_DEVICE_PREFIX)
#    the load fails saying so and the ruleset is unchanged; on 6.17 and
#    later it loads, lists as "dq*", and monitor prints it.
# nft 1.0.6 and 1.1.1 print no flowtable events at all (only the
# generation line; checked here with the nft there is): nfh's text is the one-line form nft gives other
# objects, "add flowtable inet t f { hook ingress priority filter;
# devices = { d0, d1 }; counter; } ", and JSON events hold the flowtable
# as nft -j lists it.  A deletion prints what the event holds: 6.12 sends
# the flowtable whole (hook and devices; the flags are 0), and it prints
# so, "delete flowtable inet t f { hook ...; devices = { ... }; } "; an
# event with the name alone prints "delete flowtable inet t f" (and in
# JSON the family, name, table and handle).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3

dir=$(tmpdir)
ns_new NS || exit 99
# a device is in one flowtable of a table at most (the kernel: EEXIST)
# (veth pairs: the hosts' kernels have no dummy devices)
for i in 0 2 4 6; do
	ip -n "$NS" link add "d$i" type veth peer name "d$((i + 1))" || exit 99
done
tool "$NS" add table inet t || exit 99
if ! out=$(tool "$NS" add flowtable inet t probe '{ hook ingress priority 0; devices = { d7 }; }' 2>&1); then
	case $out in
	*"no flowtable support (CONFIG_NF_FLOW_TABLE"*)
		echo "# kernel lacks flowtables (CONFIG_NF_FLOW_TABLE)"
		exit 77 ;;
	esac
	not_ok "a flowtable loads"
	printf '%s\n' "$out" | diag
	finish
fi
tool "$NS" delete flowtable inet t probe || exit 99

pids=()
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
for flags in "" -a -j; do
	in_ns "$NS" $TOOL $flags monitor >>"$dir/mon$flags" 2>>"$dir/mon$flags.err" &
	pids+=($!)
done
# nft's monitor beside them, where there is one, to pin down what it prints
has_nft=$(command -v nft >/dev/null 2>&1 && echo 1)
if [ -n "$has_nft" ]; then
	in_ns "$NS" nft monitor >>"$dir/nft" 2>&1 &
	pids+=($!)
fi
stop() { kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; }
listening() {
	grep -q '^delete table ip probe' "$dir/mon" &&
		grep -q '^delete table ip probe' "$dir/mon-a" &&
		grep -q '"delete": {"table": {"family": "ip", "name": "probe"' "$dir/mon-j" &&
		{ [ -z "$has_nft" ] || grep -q '^delete table ip probe' "$dir/nft"; }
}
for ((i = 0; i < 100; i++)); do
	tool "$NS" add table ip probe && tool "$NS" delete table ip probe
	listening && break
	sleep 0.2
done
check "the monitors listen" listening
for f in mon mon-a mon-j nft; do : >"$dir/$f"; done

# handle NAME: the flowtable's handle, from -a list flowtables
handle() {
	tool "$NS" -a list flowtables | sed -n "s/^	flowtable $1 { # handle \([0-9]*\)\$/\1/p"
}
no_gen() { grep -v '^# new generation '; }

# --- events, and -e ---------------------------------------------------------
check "a flowtable in a table block loads" tool "$NS" -f - <<'EOF'
table inet t {
	flowtable f {
		hook ingress priority filter
		devices = { d1, d0 }
		counter
	}
}
EOF
hf=$(handle f)
got=$(tool "$NS" -e add flowtable inet t g '{ hook ingress priority 10; devices = { d2 }; }' 2>&1)
hg=$(handle g)
expect_eq "-e add flowtable: the flowtable (nft 1.0.6 echoes nothing)" \
	'add flowtable inet t g { hook ingress priority filter + 10; devices = { d2 }; } ' \
	"$(printf '%s\n' "$got" | no_gen)"
# shellcheck disable=SC2317 # called through check
gen_line() { printf '%s\n' "$1" | grep -Eq '^# new generation [0-9]+ by process [0-9]+ \(nfh\)$'; }
check "-e: and the generation line" gen_line "$got"
got=$(tool "$NS" -a -e add flowtable inet t h '{ hook ingress priority -5; devices = { d3 }; }' 2>&1 | no_gen)
hh=$(handle h)
expect_eq "-a -e: with the handle the kernel gave" \
	"add flowtable inet t h { # handle $hh hook ingress priority filter - 5; devices = { d3 }; } " "$got"
got=$(tool "$NS" -j -e add flowtable inet t j '{ hook ingress priority 0; devices = { d4, d5 }; }' 2>&1)
hj=$(handle j)
expect_eq "-j -e: the flowtable as -j lists it" \
	"{\"nftables\": [{\"add\": {\"flowtable\": {\"family\": \"inet\", \"name\": \"j\", \"table\": \"t\", \"handle\": $hj, \"hook\": \"ingress\", \"prio\": 0, \"dev\": [\"d4\", \"d5\"]}}}]}" \
	"$got"
cat >"$dir/in.json" <<'EOF'
{"nftables": [{"add": {"flowtable": {"family": "inet", "table": "t", "name": "k", "hook": "ingress", "prio": 5, "dev": "d6"}}}]}
EOF
got=$(tool "$NS" -j -e -f "$dir/in.json" 2>&1)
hk=$(handle k)
expect_eq "-j -e after JSON input: the input, with the handle" \
	"{\"nftables\": [{\"add\": {\"flowtable\": {\"family\": \"inet\", \"table\": \"t\", \"name\": \"k\", \"hook\": \"ingress\", \"prio\": 5, \"dev\": \"d6\", \"handle\": $hk}}}]}" \
	"$got"
got=$(tool "$NS" -e add flowtable inet t f '{ hook ingress priority filter; devices = { d7 }; }' 2>&1 | no_gen)
# the flags are the command's (none): the kernel takes them, f's counter
# goes
expect_eq "-e: a device added to f: the kernel announces the new one" \
	'add flowtable inet t f { hook ingress priority filter; devices = { d7 }; } ' "$got"
check "f now has three devices" sh -c "ip netns exec $NS $TOOL list flowtable inet t f | grep -q 'devices = { d0, d1, d7 }'"
got=$(tool "$NS" -e delete flowtable inet t g 2>&1 | no_gen)
expect_eq "-e delete: nothing echoed, as nft" "" "$got"
check "delete by handle" tool "$NS" delete flowtable inet t handle "$hh"
check "delete f, j and k" tool "$NS" -f - <<'EOF'
delete flowtable inet t f
delete flowtable inet t j
delete flowtable inet t k
EOF
tool "$NS" add table ip end && tool "$NS" delete table ip end
retry 100 grep -q '^delete table ip end' "$dir/mon"
retry 100 grep -q '"delete": {"table": {"family": "ip", "name": "end"' "$dir/mon-j"
[ -n "$has_nft" ] && retry 100 grep -q '^delete table ip end' "$dir/nft"
stop
if [ -n "$has_nft" ]; then
	expect_eq "nft $(nft -v | sed 's/^nftables v\([^ ]*\).*/\1/') monitor: no flowtable event, the generations alone" \
		'add table ip end
delete table ip end' "$(no_gen <"$dir/nft")"
fi

expect_eq "monitor: each flowtable added and deleted" \
'add flowtable inet t f { hook ingress priority filter; devices = { d0, d1 }; counter; } 
add flowtable inet t g { hook ingress priority filter + 10; devices = { d2 }; } 
add flowtable inet t h { hook ingress priority filter - 5; devices = { d3 }; } 
add flowtable inet t j { hook ingress priority filter; devices = { d4, d5 }; } 
add flowtable inet t k { hook ingress priority filter + 5; devices = { d6 }; } 
add flowtable inet t f { hook ingress priority filter; devices = { d7 }; } 
delete flowtable inet t g { hook ingress priority filter + 10; devices = { d2 }; } 
delete flowtable inet t h { hook ingress priority filter - 5; devices = { d3 }; } 
delete flowtable inet t f { hook ingress priority filter; devices = { d0, d1, d7 }; } 
delete flowtable inet t j { hook ingress priority filter; devices = { d4, d5 }; } 
delete flowtable inet t k { hook ingress priority filter + 5; devices = { d6 }; } 
add table ip end
delete table ip end' "$(no_gen <"$dir/mon")"
expect_eq "-a monitor: with the handles" \
"add flowtable inet t f { # handle $hf hook ingress priority filter; devices = { d0, d1 }; counter; } 
add flowtable inet t g { # handle $hg hook ingress priority filter + 10; devices = { d2 }; } " \
	"$(grep flowtable "$dir/mon-a" | head -n 2)"
got=$(grep flowtable "$dir/mon-j")
expect_eq "-j monitor: added and deleted as listed" \
"{\"add\": {\"flowtable\": {\"family\": \"inet\", \"name\": \"f\", \"table\": \"t\", \"handle\": $hf, \"hook\": \"ingress\", \"prio\": 0, \"dev\": [\"d0\", \"d1\"]}}}
{\"add\": {\"flowtable\": {\"family\": \"inet\", \"name\": \"g\", \"table\": \"t\", \"handle\": $hg, \"hook\": \"ingress\", \"prio\": 10, \"dev\": \"d2\"}}}
{\"delete\": {\"flowtable\": {\"family\": \"inet\", \"name\": \"g\", \"table\": \"t\", \"handle\": $hg, \"hook\": \"ingress\", \"prio\": 10, \"dev\": \"d2\"}}}" \
	"$(printf '%s\n' "$got" | sed -n '1p;2p;7p')"
for f in mon mon-a mon-j; do
	expect_eq "$f: nothing on stderr" "" "$(cat "$dir/$f.err")"
done

# --- device-name prefixes ------------------------------------------------------
before=$(tool "$NS" list ruleset)
out=$(tool "$NS" add flowtable inet t p '{ hook ingress priority 0; devices = { "dq*", d0 }; }' 2>&1)
rc=$?
IFS=. read -r major minor _ <<<"$(uname -r)"
if [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 17 ]; }; then
	expect_eq "before 6.17: a flowtable on a prefix is refused" 1 "$rc"
	expect_eq "saying that prefixes need 6.17" \
		"Error: Could not process flowtable: device-name prefixes (\"dq*\") need Linux 6.17 or later; this kernel is $(uname -r)" \
		"$(printf '%s\n' "$out" | head -n 1)"
	expect_eq "the ruleset is unchanged" "$before" "$(tool "$NS" list ruleset)"
else
	expect_eq "6.17 and later: a flowtable on a prefix loads" 0 "$rc"
	check "and lists the prefix quoted" sh -c "ip netns exec $NS $TOOL list flowtable inet t p | grep -q 'devices = { d0, \"dq\\*\" }'"
fi
finish
