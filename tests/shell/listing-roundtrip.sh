#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: the listing is a valid input that loads back to the same listing
# (list > f; flush; -f f; list == f)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_pair 10.0.0.1/24 10.0.0.2/24
dir=$(tmpdir)

load "$NS_B" <<EOF
table netdev filter {
	chain ingress {
		type filter hook ingress device "$VETH_B" priority -100; policy accept;
		ip saddr 192.0.2.0/24 counter drop comment "blocked prefix"
		ip protocol tcp tcp dport { 22, 80, 443 } counter accept
		udp dport 53 jump dns
		ether saddr 02:00:00:00:00:01 drop
	}

	chain dns {
		ip saddr 10.0.0.0/8 return
		counter drop
	}
}

table inet host {
	chain input {
		type filter hook input priority filter; policy accept;
		iifname "lo" accept
		ip daddr 10.0.0.2 icmp type { echo-request, echo-reply } counter accept
		tcp dport 22 ct state new counter accept
	}
}
EOF
# some traffic, so that non-zero counters round-trip too
replies_from "$NS_A" 10.0.0.2 2 >/dev/null

tool "$NS_B" list ruleset >"$dir/first"
check "listing is not empty" test -s "$dir/first"
check "flush ruleset" tool "$NS_B" flush ruleset
expect_eq "listing is empty after flush" "" "$(tool "$NS_B" list ruleset)"
check "listing loads back" tool "$NS_B" -f "$dir/first"
tool "$NS_B" list ruleset >"$dir/second"
if diff -u "$dir/first" "$dir/second" >"$dir/diff"; then
	ok "second listing equals the first"
else
	not_ok "second listing equals the first"
	diag <"$dir/diff"
fi
finish
