#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks, on real echo requests from A to B: fib drops a source B has no
# route back to (reverse path filter) and sees its own address as local;
# numgen inc alternates 0 and 1; jhash with mod 1 and an offset is the
# offset; and the kernel lists the rules back as they were written
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

ns_pair 10.0.0.1/24 10.0.0.2/24
# a source B cannot reach: no route back to it
ip -n "$NS_A" addr add 10.9.0.1/32 dev "$VETH_A"

load "$NS_B" <<'EOF2'
table ip t {
	chain in {
		type filter hook input priority 0; policy accept;
		fib saddr . iif oif missing counter drop comment "rpf"
		icmp type echo-request fib daddr type local counter comment "local"
		icmp type echo-request meta mark set jhash ip saddr . ip daddr mod 1 offset 7
		meta mark 7 counter comment "hashed"
		icmp type echo-request numgen inc mod 2 1 counter drop comment "odd"
	}
}
EOF2

expect_eq "every second echo is dropped" 2 "$(replies_from "$NS_A" 10.0.0.2 4 10.0.0.1)"
expect_packets "numgen inc mod 2 gave 1 twice" "$NS_B" 'comment "odd"' 2
expect_packets "fib: the destination is local" "$NS_B" 'comment "local"' 4
expect_packets "jhash mod 1 offset 7 is 7" "$NS_B" 'comment "hashed"' 4
expect_eq "no reply to a source without a route back" 0 \
	"$(replies_from "$NS_A" 10.0.0.2 2 10.9.0.1)"
expect_packets "fib saddr . iif oif missing dropped them" "$NS_B" 'comment "rpf"' 2
check "listed as written" listing_has "$NS_B" \
	'fib saddr \. iif oif missing counter packets [0-9]+ bytes [0-9]+ drop comment "rpf"'
check "numgen listed" listing_has "$NS_B" 'numgen inc mod 2 1 counter'
check "jhash listed" listing_has "$NS_B" \
	'meta mark set jhash ip saddr \. ip daddr mod 1 offset 7$'
finish
