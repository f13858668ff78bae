#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: two base chains on one ingress hook run in priority order (not
# file order); a drop in the earlier one hides the packet from the later,
# an accept there does not
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_pair 10.0.0.1/24 10.0.0.2/24
ip -n "$NS_A" addr add 10.0.0.3/24 dev "$VETH_A"

# "late" comes first in the file but has the higher priority number.
load "$NS_B" <<EOF
table netdev filter {
	chain late {
		type filter hook ingress device "$VETH_B" priority 10; policy accept;
		ip saddr 10.0.0.1 icmp type echo-request counter comment "late-1"
		ip saddr 10.0.0.3 icmp type echo-request counter comment "late-3"
	}

	chain early {
		type filter hook ingress device "$VETH_B" priority -10; policy accept;
		ip saddr 10.0.0.1 icmp type echo-request counter accept comment "early-1"
		ip saddr 10.0.0.3 icmp type echo-request counter drop comment "early-3"
	}
}
EOF

expect_eq "echo from 10.0.0.1 is answered" 3 "$(replies_from "$NS_A" 10.0.0.2 3 10.0.0.1)"
expect_eq "echo from 10.0.0.3 is dropped" 0 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.3)"
expect_packets "early chain accepted 3" "$NS_B" 'comment "early-1"' 3
expect_packets "accept in the early chain still reaches the late one" "$NS_B" 'comment "late-1"' 3
expect_packets "early chain dropped 2" "$NS_B" 'comment "early-3"' 2
expect_packets "late chain never saw the dropped ones" "$NS_B" 'comment "late-3"' 0
finish
