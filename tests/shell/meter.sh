#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: "meter NAME { KEY STMT }", nft's older per-source limit: the rule
# fills a set of its own, so a flood from one source is cut to the limit
# while another source passes; it lists as nft lists it (nft lists what
# nfh loaded the same), in JSON too, and loads back from that JSON
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_pair 10.0.0.1/24 10.0.0.2/24
ip -n "$NS_A" addr add 10.0.0.9/24 dev "$VETH_A"
dir=$(tmpdir)

cat >"$dir/rules.nft" <<EOF2
table netdev t {
	chain in {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		icmp type echo-request meter flood size 128 { ip saddr limit rate over 2/second burst 2 packets } counter drop comment "flood"
		icmp type echo-request meter seen { ip saddr timeout 1m counter }
	}
}
EOF2
load "$NS_B" <"$dir/rules.nft"

n=$(ip netns exec "$NS_A" ping -q -n -c 20 -i 0.01 -W 1 -I 10.0.0.1 10.0.0.2 2>/dev/null |
	sed -n 's/.* \([0-9]*\) received.*/\1/p')
check "a flood from 10.0.0.1 is cut to the burst ($n of 20 answered)" \
	test "${n:-0}" -ge 2 -a "${n:-0}" -le 4
expect_packets "and the meter dropped the rest" "$NS_B" 'comment "flood"' $((20 - ${n:-0}))
expect_eq "two pings from 10.0.0.9 have their own element and pass" 2 \
	"$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.9)"

expect_eq "the meters list as written" \
	"		icmp type echo-request meter flood size 128 { ip saddr limit rate over 2/second burst 2 packets } counter packets $((20 - ${n:-0})) bytes $(((20 - ${n:-0}) * 84)) drop comment \"flood\"
		icmp type echo-request meter seen size 65535 { ip saddr timeout 1m counter }" \
	"$(tool "$NS_B" list ruleset | grep meter)"
if command -v nft >/dev/null; then
	expect_eq "nft lists them as nfh does" "$(in_ns "$NS_B" nft list ruleset)" \
		"$(tool "$NS_B" list ruleset)"
	in_ns "$NS_B" nft -j list ruleset >"$dir/nft.json"
	tool "$NS_B" -j list ruleset >"$dir/nfh.json"
	python3 "$REPO_DIR/tests/json-equal.py" "and in JSON" "$dir/nft.json" "$dir/nfh.json" ||
		FAILED=$((FAILED + 1))
else
	echo "ok - nft lists meters as nfh does # SKIP no nft"
	echo "ok - and in JSON # SKIP no nft"
fi
tool "$NS_B" -j list ruleset >"$dir/rules.json"
tool "$NS_B" list ruleset | sed 's/counter packets [0-9]* bytes [0-9]*/counter/' >"$dir/before"
check "the JSON listing loads back" sh -c \
	'ip netns exec "$1" $2 flush ruleset && ip netns exec "$1" $2 -j -f "$3"' \
	sh "$NS_B" "$TOOL" "$dir/rules.json"
expect_eq "as the same rules" "$(cat "$dir/before")" \
	"$(tool "$NS_B" list ruleset | sed 's/counter packets [0-9]* bytes [0-9]*/counter/')"
finish
