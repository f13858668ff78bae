#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: netdev "fwd to" sends the packet out of another device instead of
# up the stack
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress fwd

#   A (veth-a) ---- (veth-b) B (veth-c) ---- (veth-d) C: C gets the packets
ns_pair 10.0.0.1/24 10.0.0.2/24
ip -n "$NS_A" addr add 10.0.0.3/24 dev "$VETH_A"
ns_new NS_C
link_ns "$NS_B" veth-c "" "$NS_C" veth-d ""

load "$NS_C" "sniffer ruleset loads in C" <<EOF
table netdev sniff {
	chain ingress {
		type filter hook ingress device "veth-d" priority 0; policy drop;
		ip saddr 10.0.0.1 icmp type echo-request counter comment "got-1"
		ip saddr 10.0.0.3 icmp type echo-request counter comment "got-3"
	}
}
EOF

load "$NS_B" <<EOF
table netdev steer {
	chain ingress {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		ip saddr 10.0.0.3 icmp type echo-request counter fwd to "veth-c" comment "fwd"
		ip saddr 10.0.0.3 icmp type echo-request counter comment "after-fwd"
	}
}
EOF

expect_eq "forwarded echoes never reach B's stack" 0 "$(replies_from "$NS_A" 10.0.0.2 3 10.0.0.3)"
expect_packets "fwd rule counted 3" "$NS_B" 'comment "fwd"' 3
expect_packets "fwd is final: the next rule saw none" "$NS_B" 'comment "after-fwd"' 0
expect_packets "C received the 3 packets" "$NS_C" 'comment "got-3"' 3
expect_eq "other traffic still answered by B" 2 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.1)"
expect_packets "other traffic is not forwarded" "$NS_C" 'comment "got-1"' 0
finish
