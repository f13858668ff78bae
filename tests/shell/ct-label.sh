#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a conntrack label is a bit number (or a name from
# /etc/connlabel.conf), as in nft: "ct label set 5" sets bit 5 of a
# connection's labels, "ct label five" tests that bit on real packets, and
# the listing names the labels as nft's does and loads back to the same
# bytecode
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

# an /etc of our own in this test's mount namespace, with the label names
tmpdir >/dev/null
dir=$LIB_TMPDIR etc=$LIB_TMPDIR/etc
mkdir -p "$etc" || exit 99
cp /etc/protocols /etc/services /etc/passwd /etc/group "$etc"/ 2>/dev/null
printf '# test labels\n0 zero\n5\tfive\n0x7f last\n' >"$etc/connlabel.conf"
mount --bind "$etc" /etc || { echo "# cannot bind-mount /etc"; exit 77; }

ns_pair "10.9.1.1/24" "10.9.1.2/24" || exit 99
rules='table ip t {
	chain pre {
		type filter hook prerouting priority 0; policy accept;
		icmp type echo-request ct label set five
		ct label five counter comment "five"
		ct label 5 counter comment "bit 5"
		ct label 6 counter comment "bit 6"
		ct label "zero" counter comment "zero"
		ct label != 127 counter comment "not last"
	}
}'
load "$NS_B" <<<"$rules"
in_ns "$NS_A" ping -c 3 -i 0.2 -W 1 10.9.1.2 >/dev/null 2>&1
expect_eq "the pings got through" 0 $?
expect_packets "ct label five matched the labelled requests" "$NS_B" 'comment "five"' 3
expect_packets "ct label 5 is the same bit" "$NS_B" 'comment "bit 5"' 3
expect_eq "bit 6 is not set" 0 "$(packets "$NS_B" 'comment "bit 6"')"
expect_eq "bit 0 is not set" 0 "$(packets "$NS_B" 'comment "zero"')"
expect_packets "bit 127 is not set" "$NS_B" 'comment "not last"' 3

listing=$(tool "$NS_B" list ruleset | sed 's/packets [0-9]* bytes [0-9]*/packets 0 bytes 0/')
expect_eq "labels are listed by name" 3 "$(grep -c -e 'label "five"' -e 'label "zero"' <<<"$listing")"
if command -v nft >/dev/null; then
	ns_new NS_C || exit 99
	ip netns exec "$NS_C" nft -f - <<<"$rules"
	expect_eq "the listing is nft's" \
		"$(ip netns exec "$NS_C" nft -s list ruleset)" \
		"$(tool "$NS_B" -s list ruleset)"
fi
tool "$NS_B" -s list ruleset >"$dir/listed.nft"
bc() { $TOOL --offline -c --debug=netlink -f "$1" | grep -v '^ip (null)'; }
expect_eq "the listing compiles to the same bytecode" \
	"$(bc - <<<"$rules")" "$(bc "$dir/listed.nft")"
# names and numbers in a set, and set: nft's bytecode (nft 1.0.6 cannot
# list a label set, so only the bytecode is compared)
sets='table ip t {
	chain c {
		ct label { five, 6, "last" } accept
		ct label != { zero, 1 } drop
		ct label set last
	}
}'
if command -v nft >/dev/null; then
	expect_eq "label sets compile as nft compiles them" \
		"$(ip netns exec "$NS_C" nft -c --debug=netlink -f - <<<"$sets" 2>&1 | grep -v '^ip (null)')" \
		"$(bc - <<<"$sets" 2>&1)"
fi
finish
