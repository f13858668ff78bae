#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: devices taken out of a flowtable that stays ("delete flowtable
# inet r f { devices = { x0 }; }", Linux 5.8+), on a kernel that has
# flowtables (the test kernel; the hosts' have none, and the test skips).
# Client, router and server namespaces joined by veth pairs; the router's
# flowtable hooks its two routed veths and a third, x0 (priority 5):
#  - x0 taken out: the flowtable lists r0 and r1 alone; monitor and -j
#    monitor print the kernel's event, which names the devices taken out;
#  - taking x0 out again, a device that does not exist, or a block whose
#    priority is not the flowtable's: the kernel refuses (ENOENT, ENOENT,
#    EOPNOTSUPP: the ENOENTs in words, naming the device) and the
#    flowtable is unchanged; nft 1.0.6, where it is
#    the nft there is, sends priority 0 whatever the block says, and is
#    refused the same way for this flowtable (priority 5);
#  - a UDP flow through the router is still offloaded on the devices that
#    stay (the forward chain counts 2 of 22 datagrams);
#  - --offline gives the kernel's answers to batches that add devices and
#    take them out (ENOENT for one added earlier in the batch, EEXIST for
#    one added twice or hooked by another flowtable, EOPNOTSUPP for
#    another priority) and lists the same flowtable after one that loads;
#  - JSON input ("dev" in a delete) and destroy take devices out too; the
#    last ones gone, the flowtable stays, with no devices.
# nfh loads every rule.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3

dir=$(tmpdir)
ns_new C || exit 99
ns_new R || exit 99
ns_new S || exit 99
link_ns "$C" c0 10.0.1.1/24 "$R" r0 10.0.1.254/24 || exit 99
link_ns "$R" r1 10.0.2.254/24 "$S" s0 10.0.2.1/24 || exit 99
ip -n "$R" link add x0 type veth peer name x1 || exit 99
in_ns "$C" ip route add default via 10.0.1.254 || exit 99
in_ns "$S" ip route add default via 10.0.2.254 || exit 99
in_ns "$R" sysctl -qw net.ipv4.ip_forward=1 || exit 99

if ! out=$(tool "$R" -f - 2>&1 <<'EOF'
table inet r {
	flowtable f {
		hook ingress priority 5; devices = { r0, r1, x0 };
	}
	chain forward {
		type filter hook forward priority 0; policy accept;
		ct state invalid drop
		ip protocol udp counter comment "forward"
		ip protocol udp flow add @f
	}
}
EOF
); then
	case $out in
	*"no flowtable support (CONFIG_NF_FLOW_TABLE"* | *"no flow offload support (CONFIG_NFT_FLOW_OFFLOAD"*)
		echo "# kernel lacks flowtables (CONFIG_NF_FLOW_TABLE, CONFIG_NFT_FLOW_OFFLOAD)"
		exit 77 ;;
	esac
	not_ok "the router's flowtable on r0, r1 and x0 loads"
	printf '%s\n' "$out" | diag
	finish
fi
ok "the router's flowtable on r0, r1 and x0 loads"
in_ns "$R" sysctl -qw net.netfilter.nf_conntrack_udp_timeout=600 \
	net.netfilter.nf_flowtable_udp_timeout=300 || exit 99
load "$S" "the server's counting input chain loads" <<'EOF'
table inet s {
	chain in {
		type filter hook input priority 0; policy accept;
		udp dport 5000 counter drop comment "server"
	}
}
EOF
devs() { tool "$R" list flowtable inet r f | sed -n 's/^[[:space:]]*devices = //p'; }

pids=()
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
for flags in "" -j; do
	in_ns "$R" $TOOL $flags monitor >>"$dir/mon$flags" 2>>"$dir/mon$flags.err" &
	pids+=($!)
done
stop() { kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; }
# shellcheck disable=SC2317 # called through retry
listening() {
	grep -q '^delete table ip probe' "$dir/mon" &&
		grep -q '"delete": {"table": {"family": "ip", "name": "probe"' "$dir/mon-j"
}
for ((i = 0; i < 100; i++)); do
	tool "$R" add table ip probe && tool "$R" delete table ip probe
	listening && break
	sleep 0.2
done
check "the monitors listen" listening
for f in mon mon-j; do : >"$dir/$f"; done

# --- x0 taken out ------------------------------------------------------------
check "delete flowtable inet r f { devices = { x0 }; }" \
	tool "$R" delete flowtable inet r f '{ devices = { x0 }; }'
expect_eq "the flowtable stays, on r0 and r1" '{ r0, r1 }' "$(devs)"
before=$(tool "$R" list ruleset)
tool "$R" delete flowtable inet r f '{ devices = { x0 }; }' 2>"$dir/err"
expect_eq "x0 again: refused" 1 $?
expect_eq "with ENOENT, in words" 'Error: Could not process flowtable: flowtable f of table inet r has no device "x0"' "$(head -n 1 "$dir/err")"
tool "$R" delete flowtable inet r f '{ devices = { nosuch }; }' 2>"$dir/err"
expect_eq "a device that does not exist: refused" 1 $?
expect_eq "with ENOENT at that device, in words" 'Error: Could not process flowtable: flowtable f of table inet r has no device "nosuch" (the system has no network device of that name)' "$(head -n 1 "$dir/err")"
tool "$R" delete flowtable inet r f '{ devices = { r0, x0 }; }' 2>"$dir/err"
expect_eq "of two, one it does not hook: refused" 1 $?
expect_eq "with ENOENT naming no device: both named" 'Error: Could not process flowtable: flowtable f of table inet r does not have one of the devices "r0", "x0"' "$(head -n 1 "$dir/err")"
tool "$R" delete flowtable inet r f '{ hook ingress priority 0; devices = { r0 }; }' 2>"$dir/err"
expect_eq "a block with priority 0 (the flowtable's is 5): refused" 1 $?
expect_eq "with EOPNOTSUPP" 'Error: Could not process flowtable: Operation not supported' "$(head -n 1 "$dir/err")"
if command -v nft >/dev/null 2>&1 && nft -v | grep -q 'v1\.0\.6'; then
	in_ns "$R" nft delete flowtable inet r f '{ devices = { r0 }; }' 2>"$dir/err"
	expect_eq "nft 1.0.6 (priority 0 on the wire): refused the same way" 1 $?
	check "with EOPNOTSUPP" grep -q 'Operation not supported' "$dir/err"
fi
expect_eq "the refusals leave the ruleset unchanged" "$before" "$(tool "$R" list ruleset)"

# --- traffic on the devices that stay ----------------------------------------
send() {
	in_ns "$C" python3 - "$1" <<'PY'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("10.0.1.1", 40000))
for i in range(int(sys.argv[1])):
    s.sendto(b"nfhook-flowtable-%d" % i, ("10.0.2.1", 5000))
PY
}
fwd() { packets "$R" 'comment "forward"'; }
server() { packets "$S" 'comment "server"'; }
ct_line() { in_ns "$R" grep 'dport=5000' /proc/net/nf_conntrack; }
# shellcheck disable=SC2317 # called through retry
offloaded() { ct_line | grep -q '\[OFFLOAD\]'; }
send 2
retry 50 packets_are "$S" 'comment "server"' 2
check "datagram 2 offloads the flow" retry 20 offloaded
send 20
retry 50 packets_are "$S" 'comment "server"' 22
expect_eq "22 datagrams reach the server" 22 "$(server)"
expect_eq "offloaded on r0: the forward chain counts 2" 2 "$(fwd)"
echo "# router forward chain: $(fwd) of $(server) datagrams after x0 was taken out"

# --- --offline answers as the kernel does ---------------------------------------
# each batch in the kernel and offline on a copy of the ruleset: the same
# answer (the message without its place), and the same listing after
# (a device an update adds is hooked at the commit: taking it out, or
# adding it again, in the same batch is refused)
same_answer() {
	local k o rs
	rs=$(tool "$R" list ruleset)
	k=$(tool "$R" -f - 2>&1 <<<"$1" | sed -n 's/^.*Error: //p' | head -n 1)
	# shellcheck disable=SC2086 # $TOOL is split into words on purpose
	o=$(printf '%s\n%s\n' "$rs" "$1" | $TOOL --offline -f - 2>&1 |
		sed -n 's/^.*Error: //p' | head -n 1)
	expect_eq "$2: kernel and --offline: ${k:-no error}" "$k" "$o"
}
same_answer 'add flowtable inet r f { hook ingress priority 5; devices = { x0 }; }
delete flowtable inet r f { devices = { x0 }; }' "x0 added, then taken out"
same_answer 'add flowtable inet r f { hook ingress priority 5; devices = { x0 }; }
add flowtable inet r f { hook ingress priority 5; devices = { x0 }; }' "x0 added twice"
same_answer 'add flowtable inet r f { hook ingress priority 0; devices = { x0 }; }' "x0 added at another priority"
same_answer 'delete flowtable inet r f { devices = { r0 }; }
delete flowtable inet r f { devices = { r0 }; }' "r0 taken out twice"
same_answer 'add flowtable inet r g { hook ingress priority 0; devices = { x0 }; }
add flowtable inet r f { hook ingress priority 5; devices = { x0 }; }' "x0 in g, then added to f"
before=$(tool "$R" list ruleset)
same_answer 'add flowtable inet r f { hook ingress priority 5; devices = { x0 }; }
delete flowtable inet r f { devices = { r1 }; }' "x0 added, r1 taken out"
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
offline=$({ printf '%s\n' "$before"; echo 'add flowtable inet r f { hook ingress priority 5; devices = { x0 }; }
delete flowtable inet r f { devices = { r1 }; }'; echo "list flowtables"; } | $TOOL --offline -f - 2>&1)
expect_eq "and lists the same flowtable" "$(tool "$R" list flowtables)" "$offline"
check "r1 back, x0 out" tool "$R" -f - <<'EOF'
add flowtable inet r f { hook ingress priority 5; devices = { r1 }; }
delete flowtable inet r f { devices = { x0 }; }
EOF
expect_eq "the flowtable is on r0 and r1 again" '{ r0, r1 }' "$(devs)"

# --- JSON input, destroy ---------------------------------------------------------
cat >"$dir/del.json" <<'EOF'
{"nftables": [{"delete": {"flowtable": {"family": "inet", "table": "r", "name": "f", "dev": "r1"}}}]}
EOF
check "-j: {\"delete\": {\"flowtable\": {..., \"dev\": \"r1\"}}}" tool "$R" -j -f "$dir/del.json"
expect_eq "the flowtable stays, on r0" '{ r0 }' "$(devs)"
check "destroy flowtable inet r f { hook ingress priority 5; devices = { r0 }; }" \
	tool "$R" destroy flowtable inet r f '{ hook ingress priority 5; devices = { r0 }; }'
expect_eq "the flowtable stays, with no devices" 'table inet r {
	flowtable f {
		hook ingress priority filter + 5
	}
}' "$(tool "$R" list flowtables)"

tool "$R" add table ip end && tool "$R" delete table ip end
retry 100 grep -q '^delete table ip end' "$dir/mon"
retry 100 grep -q '"delete": {"table": {"family": "ip", "name": "end"' "$dir/mon-j"
stop
# 6.12 announces the devices taken out, with the hook and priority
expect_eq "monitor: each deletion with the devices it took out, each update with those it added" \
'delete flowtable inet r f { hook ingress priority filter + 5; devices = { x0 }; } 
add flowtable inet r f { hook ingress priority filter + 5; devices = { x0 }; } 
delete flowtable inet r f { hook ingress priority filter + 5; devices = { r1 }; } 
add flowtable inet r f { hook ingress priority filter + 5; devices = { r1 }; } 
delete flowtable inet r f { hook ingress priority filter + 5; devices = { x0 }; } 
delete flowtable inet r f { hook ingress priority filter + 5; devices = { r1 }; } 
delete flowtable inet r f { hook ingress priority filter + 5; devices = { r0 }; } ' \
	"$(grep flowtable "$dir/mon")"
h=$(tool "$R" -a list flowtables | sed -n 's/^	flowtable f { # handle \([0-9]*\)$/\1/p')
expect_eq "-j monitor: the same" \
"{\"delete\": {\"flowtable\": {\"family\": \"inet\", \"name\": \"f\", \"table\": \"r\", \"handle\": $h, \"hook\": \"ingress\", \"prio\": 5, \"dev\": \"x0\"}}}" \
	"$(grep flowtable "$dir/mon-j" | head -n 1)"
for f in mon mon-j; do
	expect_eq "$f: nothing on stderr" "" "$(cat "$dir/$f.err")"
done
finish
