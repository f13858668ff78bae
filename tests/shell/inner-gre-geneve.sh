#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: as inner-vxlan.sh, for geneve, gretap and gre tunnels: a netdev
# ingress chain on the underlay drops and counts echo requests by the
# inner source address, and lets another inner address through.  A
# tunnel type whose devices the kernel lacks is left out; with none of
# them the test is skipped.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress inner

# tunnel KIND NS LOCAL REMOTE: a tunnel device tun0 of KIND in NS, up
tunnel() {
	local args
	case $1 in
	geneve)	args="geneve id 42 remote $4" ;;
	*)	args="$1 local $3 remote $4" ;;
	esac
	# shellcheck disable=SC2086 # the words of the device type
	ip -n "$2" link add tun0 type $args 2>/dev/null &&
		ip -n "$2" link set tun0 up
}

# try KIND PREFIX PRE: a namespace pair joined by a tunnel of KIND, inner
# addresses PREFIX.1 and PREFIX.3 on A and PREFIX.2 on B, and in B's
# ingress chain matches inside the tunnel after PRE, the outer match the
# tunnel needs
ran=0
try() {
	local kind=$1 net=$2 pre=$3
	ns_pair 10.0.0.1/24 10.0.0.2/24
	if ! tunnel "$kind" "$NS_A" 10.0.0.1 10.0.0.2; then
		echo "# no $kind devices: left out"
		return 0
	fi
	tunnel "$kind" "$NS_B" 10.0.0.2 10.0.0.1 || exit 99
	ip -n "$NS_A" addr add "$net.1/24" dev tun0
	ip -n "$NS_A" addr add "$net.3/24" dev tun0
	ip -n "$NS_B" addr add "$net.2/24" dev tun0
	ran=$((ran + 1))
	load "$NS_B" "$kind: ruleset loads" <<RULES
table netdev under {
	chain in {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		$pre$kind ip saddr $net.3 $kind icmp type echo-request counter drop comment "inner-drop"
		$pre$kind ip saddr $net.1 $kind icmp type echo-request counter comment "inner-pass"
	}
}
RULES
	expect_eq "$kind: echo from the accepted inner address is answered" 3 \
		"$(replies_from "$NS_A" "$net.2" 3 "$net.1")"
	expect_packets "$kind: its echo requests are counted" "$NS_B" 'comment "inner-pass"' 3
	expect_eq "$kind: echo from the dropped inner address gets no reply" 0 \
		"$(replies_from "$NS_A" "$net.2" 3 "$net.3")"
	expect_packets "$kind: its echo requests are counted and dropped" "$NS_B" 'comment "inner-drop"' 3
	check "$kind: the rule lists back as written" listing_has "$NS_B" \
		"^\s*$pre$kind ip saddr ${net//./\\.}\.3 $kind icmp type echo-request counter packets 3 bytes [0-9]+ drop comment \"inner-drop\"$"
}

try geneve 192.168.44 "udp dport 6081 "
try gretap 192.168.45 ""
try gre 192.168.46 ""
if [ "$ran" -eq 0 ]; then
	echo "# the kernel has none of geneve, gretap and gre"
	exit 77
fi
finish
