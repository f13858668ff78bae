#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks, on real echo requests from A to B: "fib saddr . iif check" (nft
# 1.1.4's route check, which nft 1.0.6 and 1.1.1 lack) as the key of a
# vmap sends a source B has no route back to one way and a routed one the
# other; it lists as check there (nft 1.0.6's "oif vmap { missing : ... }"
# would load back as an interface), JSON too, and both load back the same;
# a named set of booleans holds the check's result too (nfh refused it as
# another type: the check is as wide as the fib result)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

ns_pair 10.0.0.1/24 10.0.0.2/24
# a source B cannot reach: no route back to it
ip -n "$NS_A" addr add 10.9.0.1/32 dev "$VETH_A"

load "$NS_B" <<'EOF2'
table ip t {
	set routed_set {
		type boolean
		elements = { exists }
	}
	chain no_route {
		counter drop comment "missing"
	}
	chain routed {
		counter accept comment "exists"
	}
	chain in {
		type filter hook input priority 0; policy accept;
		icmp type echo-request fib saddr check exists counter comment "relational"
		icmp type echo-request fib saddr . iif check @routed_set counter comment "in-set"
		icmp type echo-request fib saddr . iif check != @routed_set counter comment "not-in-set"
		icmp type echo-request fib saddr . iif check vmap { missing : jump no_route, exists : jump routed }
	}
}
EOF2

expect_eq "echoes from a routed source are answered" 3 "$(replies_from "$NS_A" 10.0.0.2 3 10.0.0.1)"
expect_eq "no reply to a source without a route back" 0 \
	"$(replies_from "$NS_A" 10.0.0.2 2 10.9.0.1)"
expect_packets "check exists: the routed ones" "$NS_B" 'comment "exists"' 3
expect_packets "check missing: the unrouted ones" "$NS_B" 'comment "missing"' 2
expect_packets "fib saddr check exists as a relational" "$NS_B" 'comment "relational"' 3
expect_packets "a named set of booleans: the routed ones in it" "$NS_B" 'comment "in-set"' 3
expect_packets "and the unrouted ones not" "$NS_B" 'comment "not-in-set"' 2
check "a lookup lists as check" listing_has "$NS_B" \
	'fib saddr \. iif check @routed_set counter'
check "a key lists as check" listing_has "$NS_B" \
	'icmp type echo-request fib saddr \. iif check vmap \{ missing : jump no_route, exists : jump routed \}'
check "a relational lists as nft 1.0.6 lists it" listing_has "$NS_B" \
	'fib saddr oif exists counter'
want=$(tool "$NS_B" -s list ruleset)
json=$(tool "$NS_B" -j list ruleset)
case $json in
*'"fib": {"result": "check", "flags": ["saddr", "iif"]}'*) ok "JSON: result check for the key" ;;
*) not_ok "JSON: result check for the key"; printf '%s\n' "$json" | diag ;;
esac
tool "$NS_B" flush ruleset
tool "$NS_B" -f - <<<"$want"
expect_eq "the listing loads back the same" "$want" "$(tool "$NS_B" -s list ruleset)"
tool "$NS_B" flush ruleset
tool "$NS_B" -j -f - <<<"$json"
expect_eq "the JSON loads back the same" "$want" "$(tool "$NS_B" -s list ruleset)"
finish
