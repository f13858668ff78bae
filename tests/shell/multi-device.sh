#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: one netdev chain hooked on two devices (devices = { a, b }) sees
# and drops traffic arriving on either
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_devices

#   A (veth-a) ---- (veth-b) B (veth-d) ---- (veth-c) C
ns_pair 10.0.1.1/24 10.0.1.2/24
ns_new NS_C
link_ns "$NS_C" veth-c 10.0.2.1/24 "$NS_B" veth-d 10.0.2.2/24

load "$NS_B" <<EOF
table netdev filter {
	chain ingress {
		type filter hook ingress devices = { "$VETH_B", "veth-d" } priority 0; policy accept;
		icmp type echo-request meta iifname "$VETH_B" counter drop comment "from-a"
		icmp type echo-request meta iifname "veth-d" counter drop comment "from-c"
	}
}
EOF

expect_eq "echo from A over $VETH_B is dropped" 0 "$(replies_from "$NS_A" 10.0.1.2 3)"
expect_eq "echo from C over veth-d is dropped" 0 "$(replies_from "$NS_C" 10.0.2.2 2)"
expect_packets "counted 3 on $VETH_B" "$NS_B" 'comment "from-a"' 3
expect_packets "counted 2 on veth-d" "$NS_B" 'comment "from-c"' 2
check "listing names both devices" listing_has "$NS_B" "devices = \{ $VETH_B, veth-d \}"
finish
