#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: named sets drop exactly their sources, also after add element and
# delete element; a verdict map sends each source to its own chain; a
# concatenated interval set matches address and protocol together; an
# element with a timeout stops matching once it expires; a dynamic set fills
# from traffic; a per-source limit drops only the excess; the counter of a
# set element counts; a bad interval set changes nothing
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_pair 10.0.0.1/24 10.0.0.2/24
for a in 10.0.0.3 10.0.0.4 10.0.0.5 10.0.0.6 10.0.0.7 10.0.0.8 10.0.0.9; do
	ip -n "$NS_A" addr add "$a/24" dev "$VETH_A"
done

# the concatenation with intervals, where the kernel takes its bytecode
# (tests/lib.sh: concat_byteorder)
pairs=1 pairs_set='' pairs_rule=''
have_feature concat_byteorder || pairs=0
if [ $pairs = 1 ]; then
	pairs_set='set pairs {
		type ipv4_addr . inet_proto
		flags interval
		elements = { 10.0.0.6-10.0.0.6 . icmp }
	}'
	pairs_rule='ip saddr . meta l4proto @pairs counter drop comment "pairs"'
fi

load "$NS_B" <<EOF
table netdev t {
	set blocked {
		type ipv4_addr
		flags interval
		elements = { 10.0.0.3, 10.0.0.200/29 }
	}

	map dispatch {
		type ipv4_addr : verdict
		elements = { 10.0.0.4 : jump four, 10.0.0.5 : jump five }
	}

	$pairs_set

	set brief {
		type ipv4_addr
		flags timeout
	}

	set seen {
		type ipv4_addr
		flags dynamic,timeout
		timeout 1m
	}

	set rl {
		type ipv4_addr
		flags dynamic
	}

	set counted {
		type ipv4_addr
		counter
		elements = { 10.0.0.9 }
	}

	chain four {
		counter comment "four"
	}

	chain five {
		counter comment "five"
	}

	chain ingress {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		ip saddr @blocked counter drop comment "blocked"
		ip saddr vmap @dispatch
		$pairs_rule
		ip saddr @brief counter drop comment "brief"
		icmp type echo-request add @seen { ip saddr }
		ip saddr @counted
		ip saddr 10.0.0.8 icmp type echo-request add @rl { ip saddr limit rate over 2/second burst 2 packets } counter drop comment "limit"
	}
}
EOF

expect_eq "echo from 10.0.0.3 (in the set) is dropped" 0 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.3)"
expect_eq "echo from 10.0.0.1 (not in it) is answered" 2 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.1)"
expect_packets "the set's rule counted 2 echoes" "$NS_B" 'comment "blocked"' 2

check "add element" tool "$NS_B" add element netdev t blocked '{ 10.0.0.1 }'
expect_eq "echo from 10.0.0.1 is dropped once added" 0 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.1)"
check "delete element" tool "$NS_B" delete element netdev t blocked '{ 10.0.0.1 }'
expect_eq "echo from 10.0.0.1 is answered once deleted" 2 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.1)"

expect_eq "echo from 10.0.0.4 is answered" 3 "$(replies_from "$NS_A" 10.0.0.2 3 10.0.0.4)"
expect_eq "echo from 10.0.0.5 is answered" 2 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.5)"
expect_packets "the map sent 10.0.0.4 to chain four" "$NS_B" 'comment "four"' 3
expect_packets "the map sent 10.0.0.5 to chain five" "$NS_B" 'comment "five"' 2

if [ $pairs = 1 ]; then
	expect_eq "echo from 10.0.0.6 (address . icmp in the set) is dropped" 0 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.6)"
	expect_eq "udp from 10.0.0.6 (address . udp not in it) passes" refused "$(udp_send "$NS_A" 10.0.0.2 9 1 10.0.0.6)"
	expect_packets "only the 2 echoes matched the concatenation" "$NS_B" 'comment "pairs"' 2
else
	echo "ok - address . protocol in an interval set # SKIP this kernel ($(uname -r)) refuses nft 1.0.6's byteorder of meta l4proto in the concatenation (EOPNOTSUPP: no multi-register conversions)"
fi

check "add an element with a timeout" tool "$NS_B" add element netdev t brief '{ 10.0.0.7 timeout 2s }'
expect_eq "echo from 10.0.0.7 is dropped while its element lives" 0 "$(replies_from "$NS_A" 10.0.0.2 1 10.0.0.7)"
sleep 2.5
expect_eq "echo from 10.0.0.7 is answered after its timeout" 2 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.7)"

got=$(tool "$NS_B" list set netdev t seen | grep -c 'elements = ')
expect_eq "the dynamic set filled from traffic" 1 "$got"
check "the dynamic set holds 10.0.0.1" listing_has "$NS_B" 'elements = \{.*10\.0\.0\.1[ ,}]'

n=$(ip netns exec "$NS_A" ping -q -n -c 20 -i 0.01 -W 1 -I 10.0.0.8 10.0.0.2 2>/dev/null |
	sed -n 's/.* \([0-9]*\) received.*/\1/p')
check "the per-source limit let the burst through ($n of 20 answered)" \
	test "${n:-0}" -ge 1 -a "${n:-0}" -le 8
expect_packets "and dropped the excess" "$NS_B" 'comment "limit"' $((20 - ${n:-0}))

expect_eq "echo from 10.0.0.9 is answered" 3 "$(replies_from "$NS_A" 10.0.0.2 3 10.0.0.9)"
check "the element's own counter counted them" listing_has "$NS_B" '10\.0\.0\.9 counter packets 3 bytes 252'

before=$(tool "$NS_B" -s list ruleset)
err=$(tool "$NS_B" -f - 2>&1 <<'EOF'
add set netdev t bad { type ipv4_addr; flags interval; elements = { 10.1.0.0/16, 10.1.2.0-10.1.2.9 }; }
EOF
)
check "an overlapping interval set is refused" [ $? -ne 0 ]
check "the error names both elements" grep -q 'interval 10.1.2.0-10.1.2.9 overlaps with 10.1.0.0/16' <<<"$err"
expect_eq "and the ruleset is unchanged" "$before" "$(tool "$NS_B" -s list ruleset)"

# the kernel would refuse an element that expires after its timeout (ERANGE)
err=$(tool "$NS_B" -f - 2>&1 <<'EOF'
add set netdev t late { type ipv4_addr; flags timeout; elements = { 10.1.0.1 timeout 10s expires 20s }; }
EOF
)
check "an element expiring after its timeout is refused" [ $? -ne 0 ]
check "under the element, saying why" grep -q "expires 20s is after the element's timeout, 10s" <<<"$err"
err=$(tool "$NS_B" -f - 2>&1 <<'EOF'
add set netdev t late { type ipv4_addr; flags timeout; timeout 5s; elements = { 10.1.0.1 expires 20s }; }
EOF
)
check "or the set's timeout" grep -q "expires 20s is after the element's timeout, 5s" <<<"$err"
expect_eq "and the ruleset is unchanged again" "$before" "$(tool "$NS_B" -s list ruleset)"
finish
