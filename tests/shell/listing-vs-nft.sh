#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: rules that nft loads list with $TOOL as nft lists them, and the
# listing (text and -j) loads back to the very bytecode the kernel held
# (a listing that drops or changes a match would load something else)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft
dir=$(tmpdir)
ns_new NS
ip -n "$NS" link add veth0 type veth peer name veth1

# the kernel's bytecode of every rule, as nft dumps it (handles dropped;
# the elements of a set sorted: their order is the order they were added)
kernel_bytecode() {
	in_ns "$NS" nft --debug=netlink list ruleset |
		sed -n 's/^\(  \[\|\telement\)/&/p' |
		awk '/^\telement/ { e = e $0 "\n"; next }
		     { if (e != "") { printf "%s", e | "sort"; close("sort"); e = "" } print }
		     END { if (e != "") { printf "%s", e | "sort"; close("sort") } }'
}

# section FAMILY HOOK: the rules that follow on stdin go into one chain,
# after the sets in $DECLS.  A rule marked "~ " is one whose listing nft
# gets wrong (it loses a match): there only the reload is checked, not
# nft's text (not with $DECLS, whose listing has other lines).
section() {
	local family=$1 hook=$2 n=0 skip=() rule want got kern i
	{
		echo "table $family t {"
		[ -n "${DECLS:-}" ] && printf '%s\n' "$DECLS"
		echo "	chain c {"
		echo "		$hook"
		while IFS= read -r rule; do
			[ -z "$rule" ] && continue
			n=$((n + 1))
			case $rule in
			"~ "*) skip+=("$((n + 3))"); rule=${rule#"~ "} ;;
			esac
			echo "		$rule"
		done
		echo "	}"
		echo "}"
	} >"$dir/in.nft"
	in_ns "$NS" nft flush ruleset
	if ! out=$(in_ns "$NS" nft -f "$dir/in.nft" 2>&1); then
		not_ok "$family $hook: nft loads the rules"
		printf '%s\n' "$out" | diag
		return
	fi
	kern=$(kernel_bytecode)
	in_ns "$NS" nft list ruleset >"$dir/want"
	tool "$NS" list ruleset >"$dir/got"
	tool "$NS" -j list ruleset >"$dir/got.json"
	cp "$dir/want" "$dir/want.cmp"
	cp "$dir/got" "$dir/got.cmp"
	for i in "${skip[@]}"; do
		sed -i "${i}s/.*/(not compared)/" "$dir/want.cmp" "$dir/got.cmp"
	done
	expect_eq "$family: $TOOL lists the rules as nft does" \
		"$(cat "$dir/want.cmp")" "$(cat "$dir/got.cmp")"
	for how in text json; do
		in_ns "$NS" nft flush ruleset
		if [ $how = text ]; then
			out=$(tool "$NS" -f "$dir/got" 2>&1)
		else
			out=$(tool "$NS" -j -f "$dir/got.json" 2>&1)
		fi || { not_ok "$family: the $how listing loads"; printf '%s\n' "$out" | diag; continue; }
		expect_eq "$family: the $how listing loads back to the same bytecode" \
			"$kern" "$(kernel_bytecode)"
	done
	in_ns "$NS" nft flush ruleset
	check "$family: nft loads the text listing" in_ns "$NS" nft -f "$dir/got"
	expect_eq "$family: nft's load of the listing has the same bytecode" \
		"$kern" "$(kernel_bytecode)"
}

FILTER="type filter hook input priority filter; policy accept;"
INGRESS="type filter hook ingress device \"veth0\" priority filter; policy accept;"
DSTNAT="type nat hook prerouting priority dstnat; policy accept;"

# one-element sets are their element (bit tests for bitmask types)
section inet "$FILTER" <<'EOF2'
ct state { invalid } drop
ct state != { invalid } accept
tcp flags { syn } counter
iifname { "eth*" } accept
iifname != { "veth*" } drop
ct state { established | related } accept
EOF2

# reject: the icmp flavour is named where a bare reject means icmpx
section inet "$FILTER" <<'EOF2'
reject
reject with icmp port-unreachable
reject with icmpv6 port-unreachable
reject with icmp host-prohibited
reject with icmpx admin-prohibited
ip saddr 192.0.2.1 reject
meta nfproto ipv4 reject
~ meta protocol ip6 reject with icmpv6 port-unreachable
~ ether type ip reject
meta mark 1 reject with icmp port-unreachable
~ meta mark 2 counter reject with icmpv6 port-unreachable
tcp dport 22 reject with tcp reset
EOF2
section netdev "$INGRESS" <<'EOF2'
reject
reject with icmp port-unreachable
reject with icmpv6 admin-prohibited
meta protocol ip reject
~ ether type ip reject
EOF2
section ip "$FILTER" <<'EOF2'
reject
reject with icmp host-unreachable
reject with tcp reset
meta l4proto tcp reject with tcp reset
~ ip protocol tcp reject with tcp reset
EOF2
section ip6 "$FILTER" <<'EOF2'
reject with icmpv6 port-unreachable
reject with icmpv6 no-route
meta l4proto tcp reject with tcp reset
EOF2

# flags compared exactly say "==" (a bare list is "any of"), "!" is none
section inet "$FILTER" <<'EOF2'
tcp flags == 0x12
tcp flags != syn,ack
tcp flags == syn
tcp flags == 0
tcp flags syn,ack
tcp flags & (syn|ack) == syn
tcp flags & syn == syn
tcp flags & (fin|syn|rst|ack) != syn
tcp flags ! syn,ack
ct state == established
~ ct state == established|related
ct state != established|related
ct state ! established
ct state & established == established
ct state & (established|related) == established
~ ct status == assured|confirmed
ct status != 0xc0
ct status 0xc3
ct status & 0xc3 == 0xc3
~ ct status == 0xc0
EOF2

# nft 1.0.6 lists ct expiration 0 with an empty value, and no set of ct
# labels at all (nor the table's anonymous sets after it): nfh's listing
# must still load back
section ip "$FILTER" <<'EOF2'
ct expiration 5s
~ ct expiration 0
~ ct expiration != { 0, 1s }
~ ct label { 0, 127 } accept
~ ct label != { 1, 2 } drop
EOF2

# several flags as one element or mask: "syn | ack" ("syn,ack" there would
# be two elements); nft lists these elements in another order
section inet "$FILTER" <<'EOF2'
~ tcp flags { syn, syn|ack }
~ tcp flags & (syn|ack|fin|rst) { syn, syn|ack }
ct state { established|related, new }
ct state 0x72
ct state { 0x7f, new }
ct status { dnat, 0xc3 }
tcp flags & (syn|ack) vmap { syn : accept }
meta mark & 0xff vmap { 1 : accept }
ct mark & 0xf0 vmap { 0x10 : accept }
meta mark & 0xff | 0x3 == 0x13
EOF2

# a prefix of a host-order register: host-order mask, listed as a prefix
section inet "$FILTER" <<'EOF2'
meta mark 0x10/28 accept
ct mark 0x100/24 accept
meta mark != 0x10/28 drop
meta skuid 1000/24 accept
EOF2

# sets and maps keyed by a field of a few bits
section inet "$FILTER" <<'EOF2'
ip dscp { cs1, cs2 } accept
ip6 dscp { cs1, cs2 } accept
ip dscp vmap { cs1 : accept, ef : drop }
meta mark set ip dscp map { cs1 : 1 }
EOF2

# named sets keyed by a field of a few bits
DECLS='	set s {
		typeof ip dscp
		elements = { cs1, ef }
	}
	map m {
		typeof ip dscp : verdict
		elements = { cs1 : accept }
	}' section inet "$FILTER" <<'EOF2'
ip dscp @s accept
ip dscp != @s drop
EOF2

# icmp fields that share their bits list by the type the rule tested
section ip "$FILTER" <<'EOF2'
icmp type echo-request icmp id 1
icmp type echo-reply icmp sequence 3
icmp id 1 icmp sequence 2
icmp type echo-request icmp id 1 icmp sequence 2
icmp mtu 1500
icmp type destination-unreachable icmp mtu 1-100
icmp gateway 16909060
icmp type redirect icmp gateway 1234
icmp mtu 5 icmp code 1
icmp type echo-reply @th,32,32 5
EOF2
section ip6 "$FILTER" <<'EOF2'
icmpv6 type echo-request icmpv6 id 1
icmpv6 id 1 icmpv6 sequence 2
icmpv6 type packet-too-big icmpv6 mtu 1280
icmpv6 max-delay 10
icmpv6 mtu 1280 icmpv6 code 0
EOF2

# adjacent header fields: one load, listed as the fields again
section ip "$FILTER" <<'EOF2'
ip protocol tcp ip ttl 1
ip ttl 1 meta mark 2 ip protocol tcp
ip ttl 1 ip protocol 6 ip checksum 5
ip saddr 1.1.1.1 ip daddr 2.2.2.2
tcp dport 2 counter tcp sport 1
tcp flags == syn tcp window 1024
ether daddr 00:11:22:33:44:66 ether saddr 00:11:22:33:44:55
EOF2
section ip6 "$FILTER" <<'EOF2'
ip6 hoplimit 1 ip6 nexthdr tcp
ip6 length 10 ip6 nexthdr 6 ip6 hoplimit 1
EOF2
section bridge "$FILTER" <<'EOF2'
ether daddr 00:11:22:33:44:66 ether saddr 00:11:22:33:44:55 ether type ip
ether type ip meta mark 1 ether saddr 00:11:22:33:44:55
vlan id 5 ether saddr 00:11:22:33:44:55
EOF2
section inet "$FILTER" <<'EOF2'
ether saddr 00:11:22:33:44:55 ip saddr 1.1.1.1
vlan id 1 ip6 saddr ::1
ether saddr 00:11:22:33:44:55 arp operation request
~ ether type ip ip saddr 1.1.1.1
EOF2

# nat in inet: the statement's family adds no nfproto test
section inet "$DSTNAT" <<'EOF2'
dnat ip to 10.0.0.2
tcp dport 80 dnat ip to 10.0.0.2:8080
dnat ip6 to fd00::2
meta nfproto ipv4 dnat ip to 10.0.0.4
EOF2
# ranges of a field of a few bits: the kernel holds them shifted to where
# the load puts the field, the listing gives the field's values (nft lists
# tcp reserved's open interval 9-15 as 9-255, which does not load back)
section ip "$FILTER" <<'EOF2'
ip dscp 8-24
ip dscp != cs1 - cs3
ip version 1-14
ip dscp { 8-24, 46 }
ip dscp vmap { 8-24 : accept, 46 : drop }
ip version { 1-3, 5-14 }
tcp reserved { 3-15 }
~ tcp reserved { 3-5, 9-15 }
EOF2
section ip6 "$FILTER" <<'EOF2'
ip6 dscp { 8-24, 46 }
ip6 ecn 1-2
frag frag-off 8-16
frag more-fragments { 0-1 }
EOF2
section bridge "$FILTER" <<'EOF2'
vlan pcp 1-2
vlan dei 0-1
vlan pcp { 0-6 }
vlan pcp { 1-2, 5-7 }
EOF2
# a cmp gte and a cmp lte on two loads are two matches, not one range (nft
# lists the first as meta mark 0xffffffff-0x00000000, which does not load)
section ip "$FILTER" <<'EOF2'
~ meta cpu >= 4294967295 meta mark <= 0
~ meta mark >= 1 meta cpu <= 5
~ meta mark >= 1 meta mark <= 5
meta mark 1-5
EOF2
finish
