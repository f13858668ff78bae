#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: interval sets and maps of keys held in host byte order (packet
# marks, lengths) match real traffic on the netdev ingress hook: a mark set
# by one chain is matched by ranges in the next (named set, anonymous set,
# verdict map, mark . address and mark . cpu concatenations), "meta
# length" ranges tell big pings from small ones; add element and delete
# element change what
# matches; an overlapping set is refused naming both elements, the kernel
# unchanged; auto-merge joins intervals; nft lists what nfh loaded as nfh
# does, in text and JSON, and nfh lists what nft loaded as nft does;
# monitor shows new elements as nft monitor does
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_pair 10.0.0.1/24 10.0.0.2/24
for a in 10.0.0.3 10.0.0.4 10.0.0.5 10.0.0.6 10.0.0.7; do
	ip -n "$NS_A" addr add "$a/24" dev "$VETH_A"
done
dir=$(tmpdir)

# the marks: .3 -> 0x15, .4 -> 0x100, .5 -> 0x30, .6 -> 0x7, .7 -> 0x45
cat >"$dir/rules.nft" <<EOF
table netdev t {
	set marks {
		type mark
		flags interval
		elements = { 0x10-0x1f, 0x100 }
	}

	set pairs {
		type mark . ipv4_addr
		flags interval
		elements = { 0x1-0x9 . 10.0.0.6, 0x1-0x9 . 10.0.0.100/30 }
	}

	set mc {
		typeof meta mark . meta cpu
		flags interval
		elements = { 0x40-0x4f . 0-4095 }
	}

	set big {
		typeof meta length
		flags interval
		elements = { 250-300, 1000-1500 }
	}

	set merged {
		type mark
		flags interval
		auto-merge
		elements = { 1-3, 4-6, 0x10-0x1f, 0x18-0x2f }
	}

	map dispatch {
		type mark : verdict
		flags interval
		elements = { 0x40-0x4f : jump forties }
	}

	chain marker {
		type filter hook ingress device "$VETH_B" priority -10; policy accept;
		meta mark set ip saddr map { 10.0.0.3 : 0x15, 10.0.0.4 : 0x100, 10.0.0.5 : 0x30, 10.0.0.6 : 0x7, 10.0.0.7 : 0x45 }
	}

	chain forties {
		counter comment "forties"
	}

	chain filter {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		meta mark @marks counter drop comment "marks"
		meta mark . ip saddr @pairs counter comment "pairs"
		meta mark vmap @dispatch
		meta mark { 0x44-0x46, 0x1000 } counter comment "anonymous"
		meta mark . meta cpu @mc counter comment "mark . cpu"
		icmp type echo-request meta length @big counter drop comment "big"
		icmp type echo-request meta length { 100-120, 2000-3000 } counter comment "middle"
	}
}
EOF
load "$NS_B" <"$dir/rules.nft"

expect_eq "echo from 10.0.0.3 (mark 0x15, in 0x10-0x1f) is dropped" 0 \
	"$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.3)"
expect_eq "echo from 10.0.0.4 (mark 0x100) is dropped" 0 \
	"$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.4)"
expect_packets "the named set counted both" "$NS_B" 'comment "marks"' 4
expect_eq "echo from 10.0.0.5 (mark 0x30) is answered" 2 \
	"$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.5)"
expect_eq "echo from 10.0.0.6 (mark 0x7) is answered" 2 \
	"$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.6)"
expect_packets "mark . address matched 10.0.0.6 alone" "$NS_B" 'comment "pairs"' 2
expect_eq "echo from 10.0.0.7 (mark 0x45) is answered" 2 \
	"$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.7)"
expect_packets "the verdict map jumped for mark 0x45" "$NS_B" 'comment "forties"' 2
expect_packets "the anonymous set matched mark 0x45" "$NS_B" 'comment "anonymous"' 2
expect_packets "so did mark . cpu" "$NS_B" 'comment "mark . cpu"' 2
check "which lists as the concatenation it is" \
	listing_has "$NS_B" 'meta mark . meta cpu @mc counter'

# 250 bytes of data: an IP packet of 278 bytes; 80: 108; 20: 48
n=$(ip netns exec "$NS_A" ping -q -n -c 2 -i 0.2 -W 1 -s 250 -I 10.0.0.1 10.0.0.2 2>/dev/null |
	sed -n 's/.* \([0-9]*\) received.*/\1/p')
expect_eq "pings of 278 bytes (meta length 250-300) are dropped" 0 "$n"
expect_packets "and counted" "$NS_B" 'comment "big"' 2
n=$(ip netns exec "$NS_A" ping -q -n -c 2 -i 0.2 -W 1 -s 80 -I 10.0.0.1 10.0.0.2 2>/dev/null |
	sed -n 's/.* \([0-9]*\) received.*/\1/p')
expect_eq "pings of 108 bytes are answered" 2 "$n"
expect_packets "and meta length { 100-120 } counted them" "$NS_B" 'comment "middle"' 2
expect_eq "pings of 48 bytes are answered" 2 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.1)"
expect_packets "and no range counted them" "$NS_B" 'comment "middle"' 2

check "the listing shows the set's ranges as nft does" \
	listing_has "$NS_B" 'elements = \{ 0x00000010/28, 0x00000100 \}'
check "auto-merge joined the intervals" \
	listing_has "$NS_B" 'elements = \{ 0x00000001-0x00000006, 0x00000010-0x0000002f \}'

check "add element 0x30-0x3f" tool "$NS_B" add element netdev t marks '{ 0x30-0x3f }'
check "the listing shows it" \
	listing_has "$NS_B" 'elements = \{ 0x00000010/28, 0x00000030/28, 0x00000100 \}'
expect_eq "echo from 10.0.0.5 (mark 0x30) is dropped now" 0 \
	"$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.5)"
check "delete element 0x30-0x3f" tool "$NS_B" delete element netdev t marks '{ 0x30-0x3f }'
expect_eq "echo from 10.0.0.5 is answered again" 2 \
	"$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.5)"

before=$(tool "$NS_B" -s list ruleset)
err=$(tool "$NS_B" -f - 2>&1 <<'EOF'
add set netdev t bad { type mark; flags interval; elements = { 0x10-0x1f, 0x18-0x20 }; }
EOF
)
check "an overlapping set of marks is refused" [ $? -ne 0 ]
check "the error names both elements" \
	grep -q 'interval 0x00000018-0x00000020 overlaps with 0x00000010/28' <<<"$err"
err=$(tool "$NS_B" add element netdev t marks '{ 0x18-0x20 }' 2>&1)
check "an element overlapping the set's is refused" [ $? -ne 0 ]
expect_eq "and the ruleset is unchanged" "$before" "$(tool "$NS_B" -s list ruleset)"
check "nfh -c accepts the ruleset again" tool "$NS_B" -c -f "$dir/rules.nft"
expect_eq "and changes nothing" "$before" "$(tool "$NS_B" -s list ruleset)"

if command -v nft >/dev/null 2>&1; then
	expect_eq "nft lists what nfh loaded as nfh does" \
		"$(in_ns "$NS_B" nft -s list ruleset)" "$before"
	in_ns "$NS_B" nft -s -j list ruleset >"$dir/nft.json"
	tool "$NS_B" -s -j list ruleset >"$dir/nfh.json"
	python3 "$REPO_DIR/tests/json-equal.py" "and the same JSON" \
		"$dir/nft.json" "$dir/nfh.json" || FAILED=$((FAILED + 1))
	check "nft loads the same rules" sh -c \
		'{ echo "flush ruleset"; cat "$1"; } | ip netns exec "$2" nft -f -' \
		sh "$dir/rules.nft" "$NS_B"
	expect_eq "nfh lists what nft loaded as nft does" \
		"$(in_ns "$NS_B" nft -s list ruleset)" "$(tool "$NS_B" -s list ruleset)"
	expect_eq "echo from 10.0.0.3 is dropped under nft's rules too" 0 \
		"$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.3)"
else
	echo "ok - nft lists what nfh loaded as nfh does # SKIP no nft"
fi

# shellcheck disable=SC2086 # $TOOL is split into words on purpose
in_ns "$NS_B" $TOOL monitor elements >>"$dir/mon" 2>&1 &
mpid=$!
# the monitor listens once a probe shows up in it
for ((i = 0; i < 50; i++)); do
	tool "$NS_B" add element netdev t marks '{ 0x60 }'
	tool "$NS_B" delete element netdev t marks '{ 0x60 }'
	grep -q '^delete element netdev t marks { 0x00000060 }$' "$dir/mon" && break
	sleep 0.1
done
: >"$dir/mon"
tool "$NS_B" add element netdev t marks '{ 0x30-0x3f, 0x80000000-0xffffffff }'
retry 20 grep -q 'marks { 0x80000000/1 }' "$dir/mon"
expect_eq "monitor shows the new elements as nft monitor does" \
	"add element netdev t marks { 0x00000030/28 }
add element netdev t marks { 0x80000000/1 }" "$(grep '^add' "$dir/mon")"
kill "$mpid" 2>/dev/null
wait 2>/dev/null
finish
