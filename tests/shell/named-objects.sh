#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a named counter counts real echoes and lists them, "reset counter"
# prints the old values and zeroes it, and a named quota starts dropping
# once its bytes are used up
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

ns_pair 10.0.0.1/24 10.0.0.2/24

# 84-byte echo requests (ping's default), counted on the input hook
load "$NS_B" <<EOF2
table ip t {
	counter pings {
		comment "echo requests"
	}

	quota q {
		over 500 bytes
	}

	chain in {
		type filter hook input priority 0;
		icmp type echo-request counter name "pings"
		icmp type echo-request quota name q drop
	}
}
EOF2

# obj_packets NS NAME: "packets N" of counter NAME as "list counter" shows it
obj_packets() {
	tool "$1" list counter ip t "$2" | sed -n 's/.*packets \([0-9]*\) bytes.*/\1/p'
}
obj_packets_are() { [ "$(obj_packets "$1" "$2")" = "$3" ]; }

expect_eq "3 echoes within the quota are answered" 3 \
	"$(replies_from "$NS_A" 10.0.0.2 3)"
retry 20 obj_packets_are "$NS_B" pings 3
expect_eq "list counter shows 3 packets" 3 "$(obj_packets "$NS_B" pings)"
check "list counters has the comment" \
	sh -c "ip netns exec $NS_B $TOOL list counters | grep -q 'comment \"echo requests\"'"

out=$(tool "$NS_B" reset counter ip t pings)
case $out in
*"packets 3 bytes 252"*) ok "reset counter prints the old values" ;;
*) not_ok "reset counter prints the old values"; printf '%s\n' "$out" | diag ;;
esac
expect_eq "the counter is zero after reset" 0 "$(obj_packets "$NS_B" pings)"

# 3 * 84 bytes are used; 3 more take the quota past 500 bytes
replies_from "$NS_A" 10.0.0.2 3 >/dev/null
expect_eq "echoes past the quota are dropped" 0 \
	"$(replies_from "$NS_A" 10.0.0.2 2)"
check "the quota lists its use" \
	sh -c "ip netns exec $NS_B $TOOL list quota ip t q | grep -q 'over 500 bytes used'"

expect_eq "nft lists the objects as nfh does" \
	"$(in_ns "$NS_B" nft list ruleset | grep -v 'packets\|used')" \
	"$(tool "$NS_B" list ruleset | grep -v 'packets\|used')"

out=$(tool "$NS_B" delete counter ip t pings 2>&1)
case $out in
*"Device or resource busy"*) ok "a counter a rule uses cannot be deleted" ;;
*) not_ok "a counter a rule uses cannot be deleted"; printf '%s\n' "$out" | diag ;;
esac
tool "$NS_B" flush chain ip t in
tool "$NS_B" delete counter ip t pings
check "an unused counter is deleted" \
	sh -c "! ip netns exec $NS_B $TOOL list counters | grep -q pings"
finish
