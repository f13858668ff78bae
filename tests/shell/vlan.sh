#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: netdev ingress matches 802.1Q tags (vlan id, vlan pcp).  The kernel
# has no 8021q, so the tagged frames come from a raw AF_PACKET socket.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress
require_cmd python3

ns_pair "" ""

load "$NS_B" <<EOF
table netdev filter {
	chain ingress {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		vlan id 10 counter drop comment "vid-10"
		vlan id 20 vlan pcp 5 counter comment "vid-20-pcp-5"
		vlan id 20 counter comment "vid-20"
		vlan id 30 counter comment "vid-30"
	}
}
EOF

send_vlan "$NS_A" "$VETH_A" 10 5
send_vlan "$NS_A" "$VETH_A" 20 3
send_vlan "$NS_A" "$VETH_A" 20 2 5
send_vlan "$NS_A" "$VETH_A" 11 4
expect_packets "vlan id 10 counted the 5 frames tagged 10" "$NS_B" 'comment "vid-10"' 5
expect_packets "vlan id 20 vlan pcp 5 counted the 2 frames" "$NS_B" 'comment "vid-20-pcp-5"' 2
expect_packets "vlan id 20 counted all 5 frames tagged 20" "$NS_B" 'comment "vid-20"' 5
expect_packets "no frame tagged 30 was sent" "$NS_B" 'comment "vid-30"' 0
finish
