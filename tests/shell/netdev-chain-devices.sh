#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks, with echo requests over two veth pairs into one netdev ingress
# chain: devices added to the chain that is there (add chain ... {
# devices = { ... } }) see packets, and a device deleted from it, in the
# form with the chain's type, hook and priority that nft 1.1 takes
# (delete chain netdev t c { type filter hook ingress devices = { d }
# priority 0; }), sees none while the chain stays with the others (nfh
# deleted the whole chain there)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_pair 10.0.0.1/24 10.0.0.2/24
link_ns "$NS_A" veth-c 10.0.1.1/24 "$NS_B" veth-d 10.0.1.2/24 || exit 99

load "$NS_B" <<'RULES'
table netdev t {
	chain c {
		type filter hook ingress device "veth-b" priority 0; policy accept;
		icmp type echo-request iifname "veth-b" counter comment "on-b"
		icmp type echo-request iifname "veth-d" counter comment "on-d"
	}
}
RULES
check "a device is added to the chain that is there" tool "$NS_B" \
	'add chain netdev t c { type filter hook ingress devices = { veth-d } priority 0; }'
check "the chain lists both" listing_has "$NS_B" \
	'type filter hook ingress devices = \{ veth-b, veth-d \} priority filter; policy accept;'
expect_eq "echoes over the first pair are answered" 2 "$(replies_from "$NS_A" 10.0.0.2 2)"
expect_eq "and over the added one" 2 "$(replies_from "$NS_A" 10.0.1.2 2)"
expect_packets "the chain sees the first device" "$NS_B" 'comment "on-b"' 2
expect_packets "and the added one" "$NS_B" 'comment "on-d"' 2
check "a device is deleted with the chain's whole hook spec" tool "$NS_B" \
	'delete chain netdev t c { type filter hook ingress devices = { veth-b } priority 0; }'
check "the chain stays on the other" listing_has "$NS_B" \
	'type filter hook ingress device "veth-d" priority filter; policy accept;'
replies_from "$NS_A" 10.0.0.2 2 >/dev/null
replies_from "$NS_A" 10.0.1.2 2 >/dev/null
expect_packets "the deleted device's packets no longer reach it" "$NS_B" 'comment "on-b"' 2
expect_packets "the other's still do" "$NS_B" 'comment "on-d"' 4
finish
