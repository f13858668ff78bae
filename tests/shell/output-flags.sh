#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: the listing under each of nft's output flags, -n (and -nn, -nnn,
# which nft takes as -n), -y, -p, -T, -S, -u and -s, alone and with -n, is what
# nft 1.0.6 prints for the same ruleset, loaded by nft, in one namespace.
# The ruleset has a value of every kind these flags change: symbolic
# constants (ct state, status, direction and event bits, tcp flags, icmp and
# icmpv6 types and codes, reject codes, ether types, arp operations, packet
# and interface types, nfproto, dscp, ecn, fib types, days, booleans),
# layer 4 protocols, chain priorities of every family, times (set and
# element timeouts, gc-interval, ct expiration, ct expectation), ports and
# user and group ids; the same in -j.  Element expiry counts down: it is
# left out.
# Left out because nfh lists them differently without any flag (not output
# options): "tcp flags { syn | ack }", "ct label 1", and "flags timeout"
# beside a set's own timeout.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft python3
py=/usr/bin/python3
[ -x "$py" ] || py=python3

ns_new NS || exit 99
dir=$(tmpdir)
cat >"$dir/r.nft" <<'NFT'
table inet t {
	set tuples {
		type ipv4_addr . inet_service . inet_proto
		elements = { 10.0.0.1 . 22 . tcp, 10.0.0.2 . 53 . udp }
	}
	set states {
		type ct_state
		elements = { established, related }
	}
	set recent {
		type ipv4_addr
		flags dynamic,timeout
		timeout 1h
		gc-interval 90s
		elements = { 10.1.1.1 timeout 30m }
	}
	set ports {
		type inet_service
		flags interval
		elements = { 0, 20-23, 80, 5353 }
	}
	set ethertypes { type ether_type; elements = { ip, arp } }
	set pkttypes { type pkt_type; elements = { host, broadcast } }
	set dscps { type dscp; elements = { cs1, ef } }
	set marks { type mark; elements = { 0x1, 0x2 } }
	map icmpv { type icmp_type : verdict; elements = { echo-request : accept, echo-reply : drop } }
	counter cnt { comment "named"; }
	quota q { 10 mbytes used 1 kbytes }
	ct expectation e {
		protocol tcp
		dport 2121
		timeout 12m
		size 12
		l3proto ip
	}
	chain c {
		type filter hook input priority filter + 5; policy accept;
		ct state established,related accept
		ct state invalid drop
		ct state != established counter
		ct state { new, untracked } counter
		ct state @states counter
		ct direction reply counter
		ct direction != original counter
		ct status dnat,snat counter
		ct status expected,seen-reply,assured,confirmed,dying counter
		ct event set new,related
		ct expiration 30s counter
		ct expiration < 1m counter
		ct l3proto ipv4 counter
		ct protocol tcp counter
		meta l4proto tcp ct original proto-src 22 counter
		meta l4proto tcp tcp dport 22 accept
		meta l4proto { tcp, udp } counter
		meta l4proto != tcp counter
		ip protocol icmp icmp type echo-request accept
		icmp type { echo-request, echo-reply } accept
		icmp type destination-unreachable icmp code net-unreachable counter
		icmp type 42 counter
		icmp code port-unreachable counter
		icmp type vmap @icmpv
		icmpv6 type nd-neighbor-solicit accept
		icmpv6 type { nd-router-advert, packet-too-big } accept
		icmpv6 code admin-prohibited counter
		tcp flags syn,ack counter
		tcp flags & (syn|ack) == syn counter
		tcp flags != syn counter
		tcp flags & (fin|syn|rst|ack) != syn counter
		tcp flags == 0x12 counter
		ip dscp @dscps counter
		tcp dport 22 tcp flags syn ct state new meta nfproto ipv4 counter
		tcp dport { 22, 80, 443 } counter
		tcp dport != 22 counter
		tcp dport 1000-2000 counter
		tcp dport 0 counter
		tcp sport 65000 counter
		tcp dport @ports counter
		udp dport 500 counter
		ip saddr . tcp dport . meta l4proto @tuples counter
		ip saddr @recent counter
		meta pkttype broadcast drop
		meta pkttype @pkttypes counter
		meta nfproto ipv4 counter
		meta protocol ip6 counter
		meta protocol { ip, arp } counter
		meta protocol @ethertypes counter
		meta hour "10:00"-"18:00" counter
		meta hour != "11:30:10" counter
		meta day "Monday" counter
		meta day { "Monday", "Friday" } counter
		meta time < "2023-05-06 12:00:00" counter
		meta skuid 0 counter
		meta skuid { 0, 1 } counter
		meta skgid 0 counter
		meta skgid 0-5 counter
		meta skuid 54321 counter
		meta mark 0x10 counter
		meta mark @marks counter
		iif "lo" accept
		iifname "lo" accept
		meta iiftype loopback counter
		ip dscp cs1 counter
		ip dscp != af11 counter
		ip6 dscp ef counter
		ip ecn ce counter
		ip6 ecn not-ect counter
		fib daddr type local counter
		fib daddr type { unicast, multicast } counter
		fib saddr . iif oif missing counter
		tcp option sack-perm exists counter
		ip6 nexthdr tcp exthdr frag exists counter
		meta ipsec exists counter
		igmp type membership-query counter
		meta l4proto dccp dccp type request counter
		add @recent { ip saddr timeout 10s } counter
		limit rate 10/second
		meta l4proto tcp reject with tcp reset
		reject with icmpx port-unreachable
		reject with icmpx admin-prohibited
		ip protocol tcp reject with icmp host-unreachable
		ip6 nexthdr udp reject with icmpv6 admin-prohibited
		log level info flags all
	}
	chain nat {
		type nat hook prerouting priority dstnat - 10; policy accept;
		tcp dport 80 dnat ip to 10.0.0.1:8080
		meta l4proto tcp redirect to :3128
	}
	chain post {
		type nat hook postrouting priority srcnat; policy accept;
		ip protocol udp masquerade to :1024-2048 random
	}
	chain pre { type filter hook prerouting priority raw; policy accept; }
	chain route { type route hook output priority mangle; policy accept; }
	chain secu { type filter hook input priority security; policy accept; }
	chain out { type filter hook output priority -7; policy accept; }
}
table netdev d {
	chain i {
		type filter hook ingress device "lo" priority -500; policy accept;
		ether type arp counter
		ether type != ip counter
		ether type vlan vlan id 1 counter
		arp operation request counter
	}
}
table bridge b {
	chain f { type filter hook forward priority filter; policy accept; }
	chain p { type filter hook prerouting priority dstnat; policy accept; }
	chain o { type filter hook output priority out; policy accept; }
	chain po { type filter hook postrouting priority srcnat; policy accept; }
}
table ip cm {
	comment "a table with a comment"
	chain x {
		comment "a chain with a comment"
	}
}
table arp a {
	chain i {
		type filter hook input priority filter; policy accept;
		arp htype 1 arp ptype ip counter
		arp operation reply counter
	}
}
NFT
if ! out=$(in_ns "$NS" nft -f "$dir/r.nft" 2>&1); then
	echo "# nft does not load the ruleset here"
	printf '%s\n' "$out" | diag
	exit 77
fi

# shellcheck disable=SC2086 # $TOOL is split into words on purpose
for flags in "" -n -nn -nnn -y -p -T -S -u -nS -nu -yp -s -ns; do
	want=$(in_ns "$NS" nft $flags list ruleset 2>&1 | sed 's/ expires [0-9a-z]*//')
	got=$(in_ns "$NS" $TOOL $flags list ruleset 2>&1 | sed 's/ expires [0-9a-z]*//')
	expect_eq "list ruleset ${flags:-(no flag)} prints what nft prints" "$want" "$got"
done
# list chains: the tables' names alone, no blank line between chains;
# list chain: the table's name alone
# shellcheck disable=SC2086
for flags in "" -a -n -y; do
	expect_eq "list chains ${flags:-(no flag)} prints what nft prints" \
		"$(in_ns "$NS" nft $flags list chains 2>&1)" \
		"$(in_ns "$NS" $TOOL $flags list chains 2>&1)"
	expect_eq "list chain ${flags:-(no flag)} prints what nft prints" \
		"$(in_ns "$NS" nft $flags list chain inet t c 2>&1 | sed 's/ expires [0-9a-z]*//')" \
		"$(in_ns "$NS" $TOOL $flags list chain inet t c 2>&1 | sed 's/ expires [0-9a-z]*//')"
done

# -j under each flag.  nft 1.0.6 (and 1.1.1) is wrong under -j -n about
# 16-bit symbolic values: it writes ether types and arp operations byte
# swapped (8 for ip, 0x0800; 256 for request, 1), values that name other
# protocols when read back.  nfh writes them right; nft's are swapped back
# before the comparison.  Element expiry is left out, as above.
# norm FILE SWAP: FILE's JSON without "expires", 16-bit values swapped back
# if SWAP is 1
norm() {
	"$py" - "$1" "$2" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
unswap = sys.argv[2] == "1"
swap = lambda v: ((v & 0xff) << 8 | v >> 8) if isinstance(v, int) else v
def swapped(left):
    p, m = left.get("payload", {}), left.get("meta", {})
    return (p.get("protocol"), p.get("field")) in (
        ("ether", "type"), ("arp", "operation"), ("arp", "ptype"), ("vlan", "type")) or \
        m.get("key") == "protocol"
def walk(o):
    if isinstance(o, dict):
        o.pop("expires", None)
        m = o.get("match") if unswap else None
        if m and isinstance(m.get("left"), dict) and swapped(m["left"]):
            r = m["right"]
            m["right"] = {"set": [swap(v) for v in r["set"]]} if isinstance(r, dict) and "set" in r else swap(r)
        s = o.get("set")
        if unswap and isinstance(s, dict) and s.get("type") in ("ether_type", "arp_op") and "elem" in s:
            s["elem"] = [swap(v) for v in s["elem"]]
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(doc)
# as nft formats it: one line, ", " and ": "
print(json.dumps(doc))
EOF
}
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
for flags in "" -n -y -p -T -S -u -nS -nu; do
	case $flags in -n*) swapped=1 ;; *) swapped=0 ;; esac
	in_ns "$NS" nft -j $flags list ruleset >"$dir/out.json"
	norm "$dir/out.json" "$swapped" >"$dir/nft.json"
	in_ns "$NS" $TOOL -j $flags list ruleset >"$dir/out.json"
	# under TOOL=nft both sides are nft's
	$TOOL --version 2>/dev/null | grep -q '^nfh ' || swapped_tool=$swapped
	norm "$dir/out.json" "${swapped_tool:-0}" >"$dir/nfh.json"
	"$py" "$REPO_DIR/tests/json-equal.py" "-j list ruleset ${flags:-(no flag)} prints what nft prints" \
		"$dir/nft.json" "$dir/nfh.json" || FAILED=$((FAILED + 1))
done

# the flags change what they should: the test would mean little otherwise
# shellcheck disable=SC2086
got=$(in_ns "$NS" $TOOL -n list ruleset)
check "-n prints ct states as numbers" grep -q 'ct state 0x2,0x4 accept' <<<"$got"
check "-n prints priorities as numbers" grep -q 'priority 5; policy' <<<"$got"
check "-S prints service names" grep -q 'tcp dport "ssh"' <<<"$(tool "$NS" -S list ruleset)"
finish
