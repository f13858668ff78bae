#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: monitor, -n monitor, -a monitor and -j monitor print what nft
# monitor prints, next to it in one namespace, while nft loads a ruleset:
# set elements and anonymous sets in the order the kernel announces them
# (not sorted, as a listing has them), rules between others with the
# position the kernel gives them ("add rule ... handle 5 ..."), chain
# priorities and symbolic values under -n.  nft 1.0.6 leaves a netdev
# chain's device out of the event; nfh prints it (README): it is taken
# out before the comparison.  nft 1.0.6 -j is wrong about a deleted rule
# that had an anonymous set: it writes the rule's dependency alone ("meta
# l4proto icmp" for "icmp type { echo-request, echo-reply }"); nfh writes
# the rule.  Deleted rules are compared by their handles there.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft

dir=$(tmpdir)
ns_new NS || exit 99

pids=()
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
for flags in "" -n -a -j; do
	in_ns "$NS" nft $flags monitor >>"$dir/nft$flags" 2>/dev/null &
	pids+=($!)
	in_ns "$NS" $TOOL $flags monitor >>"$dir/nfh$flags" 2>>"$dir/nfh$flags.err" &
	pids+=($!)
done
stop() { kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; }
listening() {
	local f
	for f in nft nft-n nft-a nfh nfh-n nfh-a; do
		grep -q '^delete table ip probe' "$dir/$f" || return 1
	done
	for f in nft-j nfh-j; do
		grep -q '"delete": {"table": {"family": "ip", "name": "probe"' "$dir/$f" || return 1
	done
}
for ((i = 0; i < 50; i++)); do
	in_ns "$NS" nft add table ip probe && in_ns "$NS" nft delete table ip probe
	listening && break
	sleep 0.1
done
# the files are opened for appending: emptied, they fill from the start
for f in nft nft-n nft-a nft-j nfh nfh-n nfh-a nfh-j; do : >"$dir/$f"; done

cat >"$dir/r.nft" <<'NFT'
table inet t {
	set hosts {
		type ipv4_addr
		elements = { 10.0.0.9, 10.0.0.1, 10.0.0.5 }
	}
	set nets {
		type ipv4_addr
		flags interval
		elements = { 192.0.2.0/24, 10.0.0.0/8 }
	}
	map icmpv {
		type icmp_type : verdict
		elements = { echo-request : accept, echo-reply : drop }
	}
	chain c {
		type filter hook input priority filter + 5; policy accept;
		ct state established,related accept
		icmp type { echo-request, echo-reply } accept
		tcp dport { 443, 22, 80 } counter
		ip saddr @hosts counter
		meta l4proto { udp, tcp } counter
		icmp type vmap @icmpv
		ip daddr { 10.9.0.0/16, 10.1.0.0/16 } drop
		tcp flags syn,ack counter
		meta mark set 0x10
	}
	chain n {
		type nat hook postrouting priority srcnat; policy accept;
		ip protocol udp masquerade
	}
}
table netdev d {
	chain i {
		type filter hook ingress device "lo" priority -500; policy accept;
		ether type { ip6, arp } counter
		ether type arp counter
		vlan id 1 counter
	}
}
NFT
in_ns "$NS" ip link set lo up
check "nft loads the ruleset" in_ns "$NS" nft -f "$dir/r.nft"
in_ns "$NS" nft add element inet t hosts '{ 10.0.0.7, 10.0.0.3 }'
in_ns "$NS" nft delete table inet t
retry 50 grep -q '^delete table inet t$' "$dir/nfh"
retry 50 grep -q '^delete table inet t$' "$dir/nfh-n"
retry 50 grep -q '^delete table inet t # handle' "$dir/nfh-a"
retry 50 grep -q '"delete": {"table": {"family": "inet", "name": "t"' "$dir/nfh-j"
stop

norm() {
	sed -E 's/^# new generation [0-9]+ by process [0-9]+ \(.*\)$/# new generation N/;
		s/ device "lo" priority/ priority/; s/, "dev": "lo"//
		s/^(\{"delete": \{"rule": \{.*"handle": [0-9]+), "expr": .*\]\}\}\}$/\1}}}/' "$1"
}
for flags in "" -n -a -j; do
	expect_eq "monitor ${flags:-(no flag)} prints what nft monitor prints" \
		"$(norm "$dir/nft$flags")" "$(norm "$dir/nfh$flags")"
	expect_eq "monitor ${flags:-(no flag)} prints no errors" "" "$(cat "$dir/nfh$flags.err")"
done
check "the events came" grep -q '^add rule inet t c handle [0-9]* tcp dport { 443, 22, 80 } counter' "$dir/nfh"
finish
