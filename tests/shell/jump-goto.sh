#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: jump returns to the calling chain, goto does not, return ends a
# regular chain early, and a verdict in a jumped-to chain is final
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_pair 10.0.0.1/24 10.0.0.2/24
ip -n "$NS_A" addr add 10.0.0.3/24 dev "$VETH_A"
ip -n "$NS_A" addr add 10.0.0.4/24 dev "$VETH_A"

load "$NS_B" <<EOF
table netdev filter {
	chain ingress {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		ip saddr 10.0.0.1 icmp type echo-request jump sub
		ip saddr 10.0.0.1 icmp type echo-request counter comment "after-jump"
		ip saddr 10.0.0.3 icmp type echo-request goto sub
		ip saddr 10.0.0.3 icmp type echo-request counter comment "after-goto"
		ip saddr 10.0.0.4 icmp type echo-request jump deny
		ip saddr 10.0.0.4 icmp type echo-request counter comment "after-deny"
	}

	chain sub {
		counter comment "in-sub"
		icmp type echo-request return
		counter comment "after-return"
	}

	chain deny {
		counter drop comment "in-deny"
	}
}
EOF

expect_eq "jumped echoes from 10.0.0.1 are answered" 3 "$(replies_from "$NS_A" 10.0.0.2 3 10.0.0.1)"
expect_eq "goto echoes from 10.0.0.3 are answered" 2 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.3)"
expect_eq "echoes from 10.0.0.4 are dropped in the jumped-to chain" 0 "$(replies_from "$NS_A" 10.0.0.2 4 10.0.0.4)"
expect_packets "sub chain entered once per jump and goto" "$NS_B" 'comment "in-sub"' 5
expect_packets "return skips the rest of sub" "$NS_B" 'comment "after-return"' 0
expect_packets "jump comes back to the next rule" "$NS_B" 'comment "after-jump"' 3
expect_packets "goto does not come back" "$NS_B" 'comment "after-goto"' 0
expect_packets "deny chain counted the 4 echoes" "$NS_B" 'comment "in-deny"' 4
expect_packets "drop in the jumped-to chain is final" "$NS_B" 'comment "after-deny"' 0
finish
