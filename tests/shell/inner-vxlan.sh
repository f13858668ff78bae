#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a netdev ingress chain on the underlay of a vxlan tunnel matches
# the packets inside it (nft 1.1's "vxlan ip saddr"): echo requests from
# one inner address are dropped and counted, from another counted and
# answered; the tunnel's own vni is matched too, fields of a few bits
# under a mask and a vlan field after an ip one in it (nft 1.1.1 takes
# that), and the rules list back
# as they were written, to the same bytecode
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress inner

ns_pair 10.0.0.1/24 10.0.0.2/24

# vxlan 42 over the veth pair: A holds two inner addresses, B one
vxlan() {
	ip -n "$1" link add vx0 type vxlan id 42 local "$2" remote "$3" \
		dstport 4789 dev "$4" 2>/dev/null &&
		ip -n "$1" link set vx0 up
}
if ! vxlan "$NS_A" 10.0.0.1 10.0.0.2 "$VETH_A"; then
	echo "# no vxlan devices (CONFIG_VXLAN)"
	exit 77
fi
vxlan "$NS_B" 10.0.0.2 10.0.0.1 "$VETH_B" || exit 99
ip -n "$NS_A" addr add 192.168.42.1/24 dev vx0
ip -n "$NS_A" addr add 192.168.42.3/24 dev vx0
ip -n "$NS_B" addr add 192.168.42.2/24 dev vx0

load "$NS_B" <<RULES
table netdev under {
	chain in {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		udp dport 4789 vxlan vni 43 counter comment "other-vni"
		udp dport 4789 vxlan ip saddr 192.168.42.3 vxlan icmp type echo-request counter drop comment "inner-drop"
		udp dport 4789 vxlan ip saddr 192.168.42.1 vxlan icmp type echo-request counter comment "inner-pass"
		udp dport 4789 vxlan ip hdrlength & 0xe == 4 vxlan ip version & 4 == 4 counter comment "inner-bits"
		udp dport 4789 vxlan ip saddr 192.168.42.0/24 vxlan vlan id 3 counter comment "inner-vlan"
	}
}
RULES

expect_eq "echo from the accepted inner address is answered" 3 \
	"$(replies_from "$NS_A" 192.168.42.2 3 192.168.42.1)"
expect_packets "its echo requests are counted inside the tunnel" "$NS_B" 'comment "inner-pass"' 3
expect_eq "echo from the dropped inner address gets no reply" 0 \
	"$(replies_from "$NS_A" 192.168.42.2 3 192.168.42.3)"
expect_packets "its echo requests are counted and dropped" "$NS_B" 'comment "inner-drop"' 3
expect_packets "the accepted address' counter did not move" "$NS_B" 'comment "inner-pass"' 3
expect_packets "no packet of another vni" "$NS_B" 'comment "other-vni"' 0
expect_packets "fields of a few bits under a mask, in the tunnel (the requests not dropped before)" "$NS_B" 'comment "inner-bits"' 3
expect_packets "no vlan tag in the tunnel" "$NS_B" 'comment "inner-vlan"' 0
check "they list named, in the tunnel" listing_has "$NS_B" \
	'^\s*udp dport 4789 vxlan ip hdrlength & 14 == 4 vxlan ip version & 4 == 4 counter packets 3 bytes [0-9]+ comment "inner-bits"$'
check "the rules list back as written" listing_has "$NS_B" \
	'^\s*udp dport 4789 vxlan ip saddr 192\.168\.42\.3 vxlan icmp type echo-request counter packets 3 bytes [0-9]+ drop comment "inner-drop"$'
check "the vni match lists back" listing_has "$NS_B" \
	'^\s*udp dport 4789 vxlan vni 43 counter packets 0 bytes 0 comment "other-vni"$'

# the listing loads again, lists the same, to the same bytecode
dir=$(tmpdir)
tool "$NS_B" list ruleset >"$dir/listed"
before=$(tool "$NS_B" --offline -c --debug=netlink -f "$dir/listed" 2>&1 | grep -v '^$')
tool "$NS_B" flush ruleset
check "the listing loads back" tool "$NS_B" -f "$dir/listed"
tool "$NS_B" list ruleset >"$dir/relisted"
expect_eq "and lists the same" "$(cat "$dir/listed")" "$(cat "$dir/relisted")"
after=$(tool "$NS_B" --offline -c --debug=netlink -f "$dir/relisted" 2>&1 | grep -v '^$')
expect_eq "with the same bytecode" "$before" "$after"
check "its bytecode reads the inner header" \
	grep -q 'inner type 1 hdrsize 8 flags f \[ payload load 4b @ network header + 12' <<<"$before"
finish
