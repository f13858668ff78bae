#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: netdev "dup to" sends a copy out of another device while the
# original goes on
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress dup

#   A (veth-a) ---- (veth-b) B (veth-c) ---- (veth-d) C: C sees the copies
ns_pair 10.0.0.1/24 10.0.0.2/24
ip -n "$NS_A" addr add 10.0.0.3/24 dev "$VETH_A"
ns_new NS_C
link_ns "$NS_B" veth-c "" "$NS_C" veth-d ""

load "$NS_C" "sniffer ruleset loads in C" <<EOF
table netdev sniff {
	chain ingress {
		type filter hook ingress device "veth-d" priority 0; policy drop;
		ip saddr 10.0.0.1 icmp type echo-request counter comment "copy-1"
		ip saddr 10.0.0.3 icmp type echo-request counter comment "copy-3"
	}
}
EOF

load "$NS_B" <<EOF
table netdev mirror {
	chain ingress {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		ip saddr 10.0.0.1 icmp type echo-request counter dup to "veth-c" comment "dup"
	}
}
EOF

expect_eq "originals still answered" 4 "$(replies_from "$NS_A" 10.0.0.2 4 10.0.0.1)"
expect_packets "dup rule counted 4" "$NS_B" 'comment "dup"' 4
expect_packets "C received the 4 copies" "$NS_C" 'comment "copy-1"' 4
expect_eq "traffic from 10.0.0.3 answered" 2 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.3)"
expect_packets "traffic the rule does not match is not copied" "$NS_C" 'comment "copy-3"' 0
finish
