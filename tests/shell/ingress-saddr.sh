#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a netdev ingress rule drops ICMP echo by ip saddr, lets another
# source through, and its counter rises by exactly the packets sent
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_pair 10.0.0.1/24 10.0.0.2/24
ip -n "$NS_A" addr add 10.0.0.3/24 dev "$VETH_A"

check "ping passes before any rule" ping_from "$NS_A" 10.0.0.2 1

load "$NS_B" <<EOF
table netdev filter {
	chain ingress {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		ip saddr 10.0.0.3 counter drop comment "blocked"
		ip saddr 10.0.0.1 icmp type echo-request counter comment "allowed"
	}
}
EOF

expect_eq "echo from blocked source 10.0.0.3 gets no reply" 0 "$(replies_from "$NS_A" 10.0.0.2 5 10.0.0.3)"
expect_packets "drop counter equals the 5 echoes sent" "$NS_B" 'comment "blocked"' 5
expect_eq "echo from 10.0.0.1 is answered" 4 "$(replies_from "$NS_A" 10.0.0.2 4 10.0.0.1)"
expect_packets "accept counter equals the 4 echoes sent" "$NS_B" 'comment "allowed"' 4

replies_from "$NS_A" 10.0.0.2 3 10.0.0.3 >/dev/null
expect_packets "drop counter rises by exactly 3 more" "$NS_B" 'comment "blocked"' 8
finish
