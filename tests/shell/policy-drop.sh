#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: an ingress base chain with policy drop drops what no rule accepts
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_pair 10.0.0.1/24 10.0.0.2/24
ip -n "$NS_A" addr add 10.0.0.3/24 dev "$VETH_A"

load "$NS_B" <<EOF
table netdev filter {
	chain ingress {
		type filter hook ingress device "$VETH_B" priority 0; policy drop;
		meta protocol arp accept
		ip saddr 10.0.0.1 counter accept comment "trusted"
	}
}
EOF

expect_eq "trusted 10.0.0.1 is answered" 3 "$(replies_from "$NS_A" 10.0.0.2 3 10.0.0.1)"
expect_packets "accept counter equals the 3 echoes" "$NS_B" 'comment "trusted"' 3
expect_eq "10.0.0.3 falls to policy drop" 0 "$(replies_from "$NS_A" 10.0.0.2 3 10.0.0.3)"
expect_packets "accept counter unchanged" "$NS_B" 'comment "trusted"' 3
check "listing shows policy drop" listing_has "$NS_B" "hook ingress .*policy drop;"

tool "$NS_B" add rule netdev filter ingress ip saddr 10.0.0.3 accept
expect_eq "a rule added on the command line lets 10.0.0.3 in" 2 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.3)"
finish
