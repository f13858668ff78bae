#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: dnat through a map whose values are ranges ("type K : interval V")
# rewrites the destination to the range's address (echoes to a virtual
# address are answered by B's second address), and the map lists back with
# its interval values
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

#   A 10.0.0.1 ---- B 10.0.0.2, 10.0.0.3; A reaches 10.9.9.9 and 10.9.9.8
#   through B, whose prerouting maps them to 10.0.0.3
ns_pair 10.0.0.1/24 10.0.0.2/24
ip -n "$NS_B" addr add 10.0.0.3/24 dev "$VETH_B"
ip -n "$NS_A" route add 10.9.9.0/24 via 10.0.0.2

load "$NS_B" <<EOF
table ip nat {
	map virt {
		type ipv4_addr : interval ipv4_addr
		flags interval
		elements = { 10.9.9.9 : 10.0.0.3-10.0.0.3 }
	}
	chain pre {
		type nat hook prerouting priority dstnat; policy accept;
		ip daddr 10.9.9.9 counter dnat ip to ip daddr map @virt comment "named"
		ip daddr 10.9.9.8 counter dnat to ip daddr map { 10.9.9.8 : 10.0.0.3/32 } comment "anon"
	}
	chain in {
		type filter hook input priority filter; policy accept;
		ip daddr 10.0.0.3 icmp type echo-request counter comment "at-3"
	}
}
EOF

expect_eq "echoes to 10.9.9.9 are answered" 3 "$(replies_from "$NS_A" 10.9.9.9 3)"
expect_packets "the named map's rule saw the first echo of the flow" "$NS_B" 'comment "named"' 1
expect_eq "echoes to 10.9.9.8 are answered" 2 "$(replies_from "$NS_A" 10.9.9.8 2)"
expect_packets "the anonymous map's rule saw the first echo of the flow" "$NS_B" 'comment "anon"' 1
expect_packets "B's input saw them all at 10.0.0.3" "$NS_B" 'comment "at-3"' 5
check "the map lists its values as intervals" \
	listing_has "$NS_B" 'type ipv4_addr : interval ipv4_addr'
check "its element lists as a prefix, as nft lists it" \
	listing_has "$NS_B" 'elements = \{ 10\.9\.9\.9 : 10\.0\.0\.3/32 \}'
check "the rule lists its family, as nft lists it" \
	listing_has "$NS_B" 'dnat ip to ip daddr map @virt'
finish
