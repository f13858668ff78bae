#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: the last statement in the kernel: "last used never" until a
# packet matches, then the time since it (text and JSON), "last" alone
# with -s, and "last used 1h" loaded as an hour ago
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root || exit 77
ns_new NS

load "$NS" "a table with last statements loads" <<EOF2
table ip t {
	chain out {
		type filter hook output priority filter; policy accept;
		icmp type echo-request last comment "ping"
		ip daddr 192.0.2.1 last used never
		ip daddr 192.0.2.2 last used 1h
	}
}
EOF2
check "before a packet: last used never" listing_has "$NS" '^[[:space:]]+icmp type echo-request last used never comment "ping"$'
ping_from "$NS" 127.0.0.1 1
check "after a packet: the time since it" \
	listing_has "$NS" '^[[:space:]]+icmp type echo-request last used ([0-9]+(d|h|m|s|ms))+ comment "ping"$'
check "a rule no packet matched: still never" listing_has "$NS" '^[[:space:]]+ip daddr 192\.0\.2\.1 last used never$'
check "last used 1h: an hour ago, and counting" \
	listing_has "$NS" '^[[:space:]]+ip daddr 192\.0\.2\.2 last used 1h([0-9]+(m|s|ms))*$'
out=$(tool "$NS" -s list ruleset | grep -w last | sed 's/^[[:space:]]*//')
expect_eq "-s lists each as last alone" \
'icmp type echo-request last comment "ping"
ip daddr 192.0.2.1 last
ip daddr 192.0.2.2 last' "$out"
json=$(tool "$NS" -j list ruleset)
check "JSON: the time in milliseconds" sh -c "printf '%s' '$json' | grep -Eq '\"last\": \\{\"used\": [0-9]+\\}'"
check "JSON: never is null" sh -c "printf '%s' '$json' | grep -q '\"last\": null'"
# the listing loads back
listing=$(tool "$NS" list ruleset)
tool "$NS" flush ruleset
printf '%s\n' "$listing" | tool "$NS" -f -
expect_eq "the listing loads back" 0 $?
check "and lists the rule again" listing_has "$NS" '^[[:space:]]+icmp type echo-request last used ([0-9]+(d|h|m|s|ms))+ comment "ping"$'
finish
