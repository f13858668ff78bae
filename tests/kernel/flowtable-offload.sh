#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: software flow offload through an inet flowtable, with traffic.
# Three namespaces, client - router - server, joined by veth pairs; the
# router forwards and has a flowtable on its two devices, and a forward
# chain that counts UDP and offloads it (`flow add @f`).  One UDP flow (a
# fixed 5-tuple) from the client to the server, counted in the router's
# forward chain and at the server's input hook:
#  - the first datagram goes through the forward chain (its conntrack entry
#    is not confirmed yet, so it is not offloaded), the second too, and is
#    offloaded there ("[OFFLOAD]" in the router's conntrack table);
#  - the rest of the flow reaches the server without touching the forward
#    chain: its counter stays at 2 while the server counts every datagram;
#  - the flowtable deleted (with the rule that offloads to it), the flow
#    leaves it, and each new datagram goes through the forward chain again;
#  - a flowtable added back, with the router's UDP offload timeout at 2 s:
#    the flow is offloaded again, times out when idle, and the next
#    datagram goes through the forward chain again.
# The forward chain's `ct state invalid drop` keeps conntrack on in the
# router when the offload rule goes (without a user, the router's conntrack
# entries go with it), and the UDP conntrack timeout is longer than the
# flowtable's: a flow leaving the flowtable keeps the difference as its
# conntrack timeout (flow_offload_fixup_ct()), so with equal timeouts (the
# defaults, 30 s each) an unreplied UDP flow's entry expires at once.
# nfh loads every rule.  On a kernel without flowtables (the hosts') the
# load fails naming CONFIG_NF_FLOW_TABLE, and the test skips.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3

ns_new C || exit 99
ns_new R || exit 99
ns_new S || exit 99
link_ns "$C" c0 10.0.1.1/24 "$R" r0 10.0.1.254/24 || exit 99
link_ns "$R" r1 10.0.2.254/24 "$S" s0 10.0.2.1/24 || exit 99
in_ns "$C" ip route add default via 10.0.1.254 || exit 99
in_ns "$S" ip route add default via 10.0.2.254 || exit 99
in_ns "$R" sysctl -qw net.ipv4.ip_forward=1 || exit 99

ft_body='{ hook ingress priority 0; devices = { r0, r1 }; counter; }'
offload_rule='ip protocol udp flow add @f comment "offload"'
if ! out=$(tool "$R" -f - 2>&1 <<EOF
table inet r {
	flowtable f $ft_body
	chain forward {
		type filter hook forward priority 0; policy accept;
		ct state invalid drop
		ip protocol udp counter comment "forward"
		$offload_rule
	}
}
EOF
); then
	case $out in
	*"no flowtable support (CONFIG_NF_FLOW_TABLE"* | *"no flow offload support (CONFIG_NFT_FLOW_OFFLOAD"*)
		ok "without flowtables: refused, naming the kernel option"
		echo "# kernel lacks flowtables (CONFIG_NF_FLOW_TABLE, CONFIG_NFT_FLOW_OFFLOAD)"
		exit 77 ;;
	esac
	not_ok "the router's flowtable and forward chain load"
	printf '%s\n' "$out" | diag
	finish
fi
ok "the router's flowtable and forward chain load"
# the flow's conntrack entry and its offload outlive the slowest guest run
# (TCG), and the entry outlives the offload (above); the timeout part below
# sets a short offload timeout
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

# send N: N datagrams of the one flow 10.0.1.1:40000 -> 10.0.2.1:5000
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
# the flow's conntrack entry on the router, and whether it is offloaded
ct_line() { in_ns "$R" grep 'dport=5000' /proc/net/nf_conntrack; }
# shellcheck disable=SC2317 # called through retry and check
{
	offloaded() { ct_line | grep -q '\[OFFLOAD\]'; }
	not_offloaded() { ct_line >/dev/null && ! offloaded; }
}
# server_at N: wait (bounded) until the server has counted N datagrams
server_at() { retry 50 packets_are "$S" 'comment "server"' "$1"; }

send 1
server_at 1
expect_eq "datagram 1 reaches the server" 1 "$(server)"
expect_eq "datagram 1 goes through the forward chain" 1 "$(fwd)"
check "datagram 1 is not offloaded (its conntrack entry was not confirmed)" not_offloaded

send 1
server_at 2
expect_eq "datagram 2 reaches the server" 2 "$(server)"
expect_eq "datagram 2 goes through the forward chain" 2 "$(fwd)"
check "datagram 2 offloads the flow" retry 20 offloaded

send 20
server_at 22
expect_eq "datagrams 3 to 22 reach the server" 22 "$(server)"
expect_eq "offloaded: the forward chain still counts 2" 2 "$(fwd)"
check "the flow is still offloaded" offloaded
echo "# router forward chain: $(fwd) of $(server) datagrams; conntrack: $(ct_line)"

# the flowtable deleted: the flow leaves it, the forward chain sees it again
h=$(tool "$R" -a list chain inet r forward | sed -n 's/.*comment "offload" # handle \([0-9]*\)$/\1/p')
check "delete the offload rule and the flowtable" tool "$R" -f - <<EOF
delete rule inet r forward handle $h
delete flowtable inet r f
EOF
check "the flowtable is gone" test -z "$(tool "$R" list flowtables 2>&1 | grep 'flowtable f')"
check "the flow is no longer offloaded, its conntrack entry stays" retry 50 not_offloaded
send 5
server_at 27
expect_eq "datagrams 23 to 27 reach the server" 27 "$(server)"
expect_eq "without the flowtable: each goes through the forward chain (2 + 5)" 7 "$(fwd)"
echo "# after the delete: forward chain $(fwd) of $(server) datagrams"

# timing out: the flowtable back, with a 2 s UDP offload timeout
in_ns "$R" sysctl -qw net.netfilter.nf_flowtable_udp_timeout=2 || exit 99
check "add the flowtable and the offload rule back" tool "$R" -f - <<EOF
add flowtable inet r f $ft_body
add rule inet r forward $offload_rule
EOF
send 2
server_at 29
expect_eq "datagrams 28 and 29 reach the server" 29 "$(server)"
expect_eq "datagram 28 goes through the forward chain and offloads the flow, 29 does not" 8 "$(fwd)"
check "the flow times out of the flowtable when idle" retry 100 not_offloaded
send 1
server_at 30
expect_eq "datagram 30 reaches the server" 30 "$(server)"
expect_eq "after the timeout: datagram 30 goes through the forward chain again" 9 "$(fwd)"
echo "# after the timeout: forward chain $(fwd) of $(server) datagrams"
finish
