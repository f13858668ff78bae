#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a netdev egress chain drops outgoing packets before they leave and
# counts each one; other traffic still leaves
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_egress
require_cmd python3

ns_pair 10.0.0.1/24 10.0.0.2/24

load "$NS_A" <<EOF
table netdev out {
	chain egress {
		type filter hook egress device "$VETH_A" priority 0; policy accept;
		ip daddr 10.0.0.2 udp dport 5000 counter drop comment "udp-drop"
		ip daddr 10.0.0.2 udp dport 5001 counter comment "udp-pass"
		icmp type echo-request counter drop comment "echo-drop"
	}
}
EOF

expect_eq "udp to port 5000 never arrives" timeout "$(udp_send "$NS_A" 10.0.0.2 5000 5)"
expect_packets "egress drop counter equals the 5 datagrams sent" "$NS_A" 'comment "udp-drop"' 5
expect_eq "udp to port 5001 leaves and reaches the peer" refused "$(udp_send "$NS_A" 10.0.0.2 5001 3)"
expect_packets "egress pass counter equals the 3 datagrams sent" "$NS_A" 'comment "udp-pass"' 3
expect_packets "drop counter unchanged by other ports" "$NS_A" 'comment "udp-drop"' 5
# ping resends when the egress hook drops (ENOBUFS), so only >= here
expect_eq "no echo request leaves: no reply" 0 "$(replies_from "$NS_A" 10.0.0.2 3)"
count=$(packets "$NS_A" 'comment "echo-drop"')
check "echo drop counter saw every echo ($count >= 3)" test "${count:-0}" -ge 3
finish
