#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a ruleset shaped as OpenWrt's fw4 writes one (written for this
# test, not copied: one inet table reloaded by "table; flush table; table
# { ... }", defines of zone devices and subnets, empty for a zone without
# subnets, used in sets next to other elements; user includes by a glob,
# one that matches nothing; ct state vmaps; jumps into per-zone chains;
# tcp flags masks; icmpv6 type . code sets; limits, counters, logs and
# comments on the rules; reject chains (icmpx); marks, dscp and notrack; nat chains with dnat, snat and masquerade;
# raw, mangle and route chains; MSS clamping to the route's MTU; a ct
# helper; flowtables aside, as the issue says) loads with nfh as with
# nft: nft's listing of what nfh loaded is nft's listing of what nft
# loaded, the kernel holds the same bytecode (set elements sorted: a hash
# set dumps in its own order), nfh lists nft's load as nft does (text and
# -j), loading it again over itself (fw4's reload) changes nothing, and
# the listing loads with nfh as with nft.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft
dir=$(tmpdir)
ns_new NS
ip -n "$NS" link add br-lan type veth peer name wan
ip -n "$NS" link add wan6 type veth peer name br-guest
mkdir -p "$dir/nftables.d" "$dir/empty.d"
cat >"$dir/nftables.d/10-user.nft" <<'USER'
	chain user_pre_input {
		type filter hook input priority filter - 1; policy accept;
		iifname "wan" tcp dport 2222 counter drop comment "user: no ssh on 2222"
	}
USER
sed "s|@DIR@|$dir|g" >"$dir/fw4.nft" <<'FW4'
table inet fw4
flush table inet fw4

table inet fw4 {
	define lan_devices = { "br-lan" }
	define lan_subnets = { 192.168.1.0/24 }
	define lan_subnets6 = { fd00:1::/64 }
	define wan_subnets6 = { }
	define wan_devices = { "wan", "wan6" }
	define wan_subnets = { }
	define guest_devices = { "br-guest" }
	define guest_subnets = { }

	include "@DIR@/nftables.d/*.nft"
	include "@DIR@/empty.d/*.nft"

	set blocklist4 {
		type ipv4_addr
		flags interval
		auto-merge
		comment "zone-wide block list"
		elements = { 10.66.0.0/16, 198.51.100.7 }
	}

	ct helper ftp { type "ftp" protocol tcp; }

	chain input {
		type filter hook input priority filter; policy drop;
		iifname "lo" accept comment "!fw4: Accept traffic from loopback"
		ct state vmap { established : accept, related : accept } comment "!fw4: Handle inbound flows"
		tcp flags syn / fin,syn,rst,ack jump syn_flood comment "!fw4: Rate limit TCP syn packets"
		iifname $lan_devices jump input_lan comment "!fw4: Handle lan IPv4/IPv6 input traffic"
		iifname $wan_devices jump input_wan comment "!fw4: Handle wan IPv4/IPv6 input traffic"
		iifname $guest_devices jump input_guest
		jump handle_reject
	}

	chain forward {
		type filter hook forward priority filter; policy drop;
		ct state vmap { established : accept, related : accept } comment "!fw4: Handle forwarded flows"
		iifname $lan_devices jump forward_lan
		iifname $wan_devices jump forward_wan
		iifname $guest_devices jump forward_guest
		jump handle_reject
	}

	chain output {
		type filter hook output priority filter; policy accept;
		oifname "lo" accept comment "!fw4: Accept traffic towards loopback"
		ct state vmap { established : accept, related : accept } comment "!fw4: Handle outbound flows"
		oifname $lan_devices jump output_lan
		oifname $wan_devices jump output_wan
	}

	chain prerouting {
		type filter hook prerouting priority filter; policy accept;
		iifname $lan_devices jump helper_lan
	}

	chain handle_reject {
		meta l4proto tcp reject with tcp reset comment "!fw4: Reject TCP traffic"
		reject with icmpx type port-unreachable comment "!fw4: Reject any other traffic"
	}

	chain syn_flood {
		limit rate 25/second burst 50 packets return comment "!fw4: Accept SYN packets below rate-limit"
		drop comment "!fw4: Drop excess packets"
	}

	chain input_lan {
		ct status dnat accept comment "!fw4: Accept port redirections"
		jump accept_from_lan
	}

	chain output_lan {
		jump accept_to_lan
	}

	chain forward_lan {
		jump accept_to_wan comment "!fw4: Accept lan to wan forwarding"
		ct status dnat accept comment "!fw4: Accept port forwards"
		jump accept_to_lan
	}

	chain helper_lan {
		tcp dport 21 ct helper set "ftp" comment "!fw4: lan FTP helper"
	}

	chain accept_from_lan {
		iifname $lan_devices counter packets 0 bytes 0 accept comment "!fw4: accept lan IPv4/IPv6 traffic"
	}

	chain accept_to_lan {
		oifname $lan_devices counter packets 0 bytes 0 accept comment "!fw4: accept lan IPv4/IPv6 traffic"
	}

	chain input_wan {
		meta nfproto ipv4 udp dport 68 counter packets 0 bytes 0 accept comment "!fw4: Allow-DHCP-Renew"
		icmp type echo-request counter packets 0 bytes 0 accept comment "!fw4: Allow-Ping"
		meta nfproto ipv4 meta l4proto igmp counter packets 0 bytes 0 accept comment "!fw4: Allow-IGMP"
		meta nfproto ipv6 udp dport 546 counter packets 0 bytes 0 accept comment "!fw4: Allow-DHCPv6"
		ip6 saddr fe80::/10 icmpv6 type . icmpv6 code { mld-listener-query . no-route, mld-listener-report . no-route, mld-listener-done . no-route, mld2-listener-report . no-route } counter packets 0 bytes 0 accept comment "!fw4: Allow-MLD"
		meta l4proto ipv6-icmp icmpv6 type { destination-unreachable, time-exceeded, echo-request, echo-reply, nd-router-solicit, nd-router-advert } limit rate 1000/second counter packets 0 bytes 0 accept comment "!fw4: Allow-ICMPv6-Input"
		meta l4proto ipv6-icmp icmpv6 type . icmpv6 code { packet-too-big . no-route, parameter-problem . no-route, nd-neighbor-solicit . no-route, nd-neighbor-advert . no-route, parameter-problem . admin-prohibited } limit rate 1000/second counter packets 0 bytes 0 accept comment "!fw4: Allow-ICMPv6-Input"
		ip saddr @blocklist4 counter drop
		ct status dnat accept comment "!fw4: Accept port redirections"
		jump reject_from_wan
	}

	chain forward_wan {
		meta l4proto ipv6-icmp icmpv6 type { destination-unreachable, time-exceeded, echo-request, echo-reply } limit rate 1000/second counter packets 0 bytes 0 accept comment "!fw4: Allow-ICMPv6-Forward"
		meta l4proto esp counter packets 0 bytes 0 jump accept_to_lan comment "!fw4: Allow-IPSec-ESP"
		limit rate 10/minute burst 5 packets log prefix "wan fwd: " level info
		ip6 daddr != fe80::/10 tcp dport { 22, 80, 443 } ct state new counter jump accept_to_lan
		udp dport 500 counter packets 0 bytes 0 jump accept_to_lan comment "!fw4: Allow-ISAKMP"
		ct status dnat accept comment "!fw4: Accept port forwards"
		jump drop_to_wan
	}

	chain output_wan {
		jump accept_to_wan
	}

	chain accept_to_wan {
		meta nfproto ipv4 oifname $wan_devices ct state invalid counter packets 0 bytes 0 log prefix "drop wan invalid ct state: " drop comment "!fw4: Prevent NAT leakage"
		oifname $wan_devices counter packets 0 bytes 0 accept comment "!fw4: accept wan IPv4/IPv6 traffic"
	}

	chain reject_from_wan {
		iifname $wan_devices counter packets 0 bytes 0 jump handle_reject comment "!fw4: reject wan IPv4/IPv6 traffic"
	}

	chain drop_to_wan {
		oifname $wan_devices counter packets 0 bytes 0 drop comment "!fw4: drop wan IPv4/IPv6 traffic"
	}

	chain input_guest {
		meta nfproto ipv4 ip saddr != { $guest_subnets, 192.168.3.0/24 } counter drop comment "!fw4: guest source check"
		meta l4proto { tcp, udp } th dport 53 counter accept comment "!fw4: Allow-DNS-guest"
		meta nfproto ipv4 udp dport 67 counter accept comment "!fw4: Allow-DHCP-guest"
		jump handle_reject
	}

	chain forward_guest {
		ip daddr { $wan_subnets, $guest_subnets, 10.0.0.0/8 } counter drop
		jump accept_to_wan
	}

	chain dstnat {
		type nat hook prerouting priority dstnat; policy accept;
		iifname $lan_devices jump dstnat_lan
		iifname $wan_devices jump dstnat_wan
	}

	chain srcnat {
		type nat hook postrouting priority srcnat; policy accept;
		oifname $lan_devices jump srcnat_lan
		oifname $wan_devices jump srcnat_wan
	}

	chain dstnat_lan {
		meta nfproto ipv4 ip saddr $lan_subnets ip daddr 198.51.100.1 tcp dport 8080 dnat ip to 192.168.1.10:80 comment "!fw4: web (reflection)"
	}

	chain srcnat_lan {
		meta nfproto ipv4 ip saddr $lan_subnets ip daddr 192.168.1.10 tcp dport 80 snat ip to 192.168.1.1 comment "!fw4: web (reflection)"
		meta nfproto ipv6 ip6 saddr { $lan_subnets6, $wan_subnets6 } counter accept
	}

	chain dstnat_wan {
		meta nfproto ipv4 tcp dport 8080 counter packets 0 bytes 0 dnat ip to 192.168.1.10:80 comment "!fw4: web"
		meta nfproto ipv4 udp dport { 5000-5010 } counter dnat ip to 192.168.1.20 comment "!fw4: game"
	}

	chain srcnat_wan {
		meta nfproto ipv4 masquerade comment "!fw4: Masquerade IPv4 wan traffic"
	}

	chain raw_prerouting {
		type filter hook prerouting priority raw; policy accept;
		iifname $lan_devices udp dport 53 notrack comment "!fw4: lan DNS untracked"
	}

	chain raw_output {
		type filter hook output priority raw; policy accept;
	}

	chain mangle_prerouting {
		type filter hook prerouting priority mangle; policy accept;
		iifname { "br-lan" } meta mark set meta mark and 0xff00ffff xor 0x110000 comment "!fw4: lan mark"
		iifname $lan_devices meta nfproto ipv4 ip dscp set cs1 comment "!fw4: lan DSCP"
		iifname $lan_devices meta nfproto ipv6 ip6 dscp set af41 comment "!fw4: lan DSCP"
	}

	chain mangle_postrouting {
		type filter hook postrouting priority mangle; policy accept;
	}

	chain mangle_input {
		type filter hook input priority mangle; policy accept;
	}

	chain mangle_output {
		type route hook output priority mangle; policy accept;
	}

	chain mangle_forward {
		type filter hook forward priority mangle; policy accept;
		iifname $wan_devices tcp flags syn tcp option maxseg size set rt mtu comment "!fw4: Zone wan IPv4/IPv6 ingress MTU fixing"
		oifname $wan_devices tcp flags syn tcp option maxseg size set rt mtu comment "!fw4: Zone wan IPv4/IPv6 egress MTU fixing"
	}
}
FW4

# the kernel's bytecode of every rule and set (handles dropped, the
# elements of each set sorted)
kernel_bytecode() {
	in_ns "$NS" nft --debug=netlink list ruleset |
		sed 's/ handle [0-9]*//; s/^\(inet fw4 [a-z_0-9]*\) [0-9]*$/\1/' |
		awk '/^\telement/ { e = e $0 "\n"; next }
		     { if (e != "") { printf "%s", e | "sort"; close("sort"); e = "" } print }
		     END { if (e != "") { printf "%s", e | "sort"; close("sort") } }'
}

if ! out=$(in_ns "$NS" nft -f "$dir/fw4.nft" 2>&1); then
	not_ok "nft loads it"
	printf '%s\n' "$out" | diag
	finish
fi
ok "nft loads it"
want=$(in_ns "$NS" nft list ruleset)
want_kernel=$(kernel_bytecode)
expect_eq "nfh lists nft's load as nft does" "$want" "$(tool "$NS" list ruleset)"
in_ns "$NS" nft -j list ruleset >"$dir/nft.json"
tool "$NS" -j list ruleset >"$dir/nfh.json"
python3 "$REPO_DIR/tests/json-equal.py" "nfh -j lists nft's load as nft -j does" \
	"$dir/nft.json" "$dir/nfh.json"

in_ns "$NS" nft flush ruleset
check "nfh -c checks it" tool "$NS" -c -f "$dir/fw4.nft"
check "nfh loads it" tool "$NS" -f "$dir/fw4.nft"
expect_eq "nft lists nfh's load as its own" "$want" "$(in_ns "$NS" nft list ruleset)"
expect_eq "the kernel holds nft's bytecode" "$want_kernel" "$(kernel_bytecode)"
check "nfh loads it again over itself (fw4's reload)" tool "$NS" -f "$dir/fw4.nft"
expect_eq "and nothing changed" "$want" "$(in_ns "$NS" nft list ruleset)"
# the listing loads back as nft's does (not to the very bytecode: nft and
# nfh list "meta l4proto ipv6-icmp icmpv6 type ..." in inet without its
# meta l4proto, which loads back after a meta nfproto ipv6)
in_ns "$NS" nft list ruleset >"$dir/listed.nft"
in_ns "$NS" nft flush ruleset
in_ns "$NS" nft -f "$dir/listed.nft"
want_relist=$(kernel_bytecode)
in_ns "$NS" nft flush ruleset
expect_eq "nfh loads the listing as nft loads it" "$want_relist" \
	"$(tool "$NS" -f "$dir/listed.nft" && kernel_bytecode)"
finish
