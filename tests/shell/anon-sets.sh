#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: anonymous sets (plain, prefix and range intervals, negated) drop
# exactly the listed sources, and list back sorted and merged as nft lists
# them although the kernel dumps interval elements in reverse
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_pair 10.0.0.1/24 10.0.0.2/24
for a in 10.0.0.3 10.0.0.7 10.0.0.9 10.0.0.20; do
	ip -n "$NS_A" addr add "$a/24" dev "$VETH_A"
done

load "$NS_B" <<EOF
table netdev sets {
	chain ingress {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		ip saddr { 10.0.0.9, 10.0.0.3 } counter drop comment "plain"
		ip saddr { 10.0.0.5-10.0.0.7, 192.168.0.0/16 } counter drop comment "interval"
		ip saddr != { 10.0.0.1, 10.0.0.20 } icmp type echo-request counter comment "others"
	}
}
EOF

for a in 10.0.0.3 10.0.0.9; do
	expect_eq "echo from $a (plain set) is dropped" 0 "$(replies_from "$NS_A" 10.0.0.2 2 "$a")"
done
expect_eq "echo from 10.0.0.7 (range in an interval set) is dropped" 0 "$(replies_from "$NS_A" 10.0.0.2 3 10.0.0.7)"
expect_eq "echo from 10.0.0.20 (in no set) is answered" 2 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.20)"
expect_packets "plain set counted 4 echoes" "$NS_B" 'comment "plain"' 4
expect_packets "interval set counted 3 echoes" "$NS_B" 'comment "interval"' 3
expect_packets "negated set saw none of the 2 allowed echoes" "$NS_B" 'comment "others"' 0

want='ip saddr { 10.0.0.3, 10.0.0.9 } counter packets 4 bytes 336 drop comment "plain"
ip saddr { 10.0.0.5-10.0.0.7, 192.168.0.0/16 } counter packets 3 bytes 252 drop comment "interval"
ip saddr != { 10.0.0.1, 10.0.0.20 } icmp type echo-request counter packets 0 bytes 0 comment "others"'
got=$(tool "$NS_B" list ruleset | sed -n 's/^\t\t\(ip saddr.*\)/\1/p')
check "sets list back sorted, ranges and prefixes restored" [ "$got" = "$want" ]
if [ "$got" != "$want" ]; then printf '%s\n' "$got" | diag; fi
finish
