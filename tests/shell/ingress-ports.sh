#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: netdev ingress drops by tcp dport and udp dport; other ports still
# reach the stack (answered with RST / ICMP port unreachable)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress
require_cmd python3

ns_pair 10.0.0.1/24 10.0.0.2/24

expect_eq "tcp 2222 reaches the host before any rule" refused "$(tcp_probe "$NS_A" 10.0.0.2 2222)"
expect_eq "udp 5353 reaches the host before any rule" refused "$(udp_send "$NS_A" 10.0.0.2 5353 1)"

load "$NS_B" <<EOF
table netdev filter {
	chain ingress {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		tcp dport 2222 counter drop comment "tcp-drop"
		udp dport 5353 counter drop comment "udp-drop"
		udp dport 5354 counter comment "udp-pass"
	}
}
EOF

expect_eq "tcp to dropped port 2222 times out" timeout "$(tcp_probe "$NS_A" 10.0.0.2 2222)"
count=$(packets "$NS_B" 'comment "tcp-drop"')
check "tcp drop counter saw the SYNs ($count)" test "${count:-0}" -ge 1
expect_eq "tcp to port 2223 is still refused by the host" refused "$(tcp_probe "$NS_A" 10.0.0.2 2223)"

expect_eq "udp to dropped port 5353 gets no answer" timeout "$(udp_send "$NS_A" 10.0.0.2 5353 7)"
expect_packets "udp drop counter equals the 7 datagrams sent" "$NS_B" 'comment "udp-drop"' 7
expect_eq "udp to port 5354 reaches the host" refused "$(udp_send "$NS_A" 10.0.0.2 5354 3)"
expect_packets "udp pass counter equals the 3 datagrams sent" "$NS_B" 'comment "udp-pass"' 3
expect_packets "tcp drop counter ignores udp" "$NS_B" 'comment "tcp-drop"' "$count"
finish
