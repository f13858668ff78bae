#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: files of flat "add rule" commands, which nfh compiles as it reads
# them (consecutive rules of one chain share one pack of messages): rules
# of several chains interleaved with other commands, with variables,
# anonymous sets, positions and indexes between them, load in the same
# order as with nft; errors of evaluation and of the kernel come out in
# order, at the right line, with nothing loaded; and pings are counted by
# the rules of such a file.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft

dir=$(tmpdir)
cd "$dir" || exit 1
cat >flat.nft <<'EOF'
define web = 80
add table inet f
add chain inet f a
add chain inet f b
add rule inet f a tcp dport 1 counter
add rule inet f a tcp dport 2 counter
add rule inet f b udp dport 3 counter
add rule inet f a tcp dport $web counter
add rule inet f a tcp dport { 4, 5 } counter
add rule inet f a tcp dport 6 counter
add set inet f s { type ipv4_addr; }
add rule inet f a ip saddr @s counter
add rule inet f a tcp dport 7 counter
insert rule inet f a index 0 tcp dport 8 counter
add rule inet f b udp dport 9 counter
add rule inet f a index 1 tcp dport 10 counter
add rule inet f a tcp dport 11 counter
add rule inet f b udp dport 12 counter
EOF

ns_new NS && ns_new NSN || exit 99
in_ns "$NSN" nft -f flat.nft
expect_eq "nft loads the file" 0 $?
tool "$NS" -f flat.nft
expect_eq "nfh loads the file" 0 $?
expect_eq "the rules are where nft puts them" \
	"$(in_ns "$NSN" nft list ruleset)" "$(tool "$NS" list ruleset)"
expect_eq "chain a in file order, inserts and indexes obeyed" \
	"8 1 10 2 80 4 6 s 7 11" \
	"$(tool "$NS" list chain inet f a | sed -n 's/.*dport \([0-9]*\) .*/\1/p; s/.*@\(s\) .*/\1/p; s/.*dport { 4, 5 }.*/4/p' | tr '\n' ' ' | sed 's/ $//')"
expect_eq "chain b in file order" "3 9 12" \
	"$(tool "$NS" list chain inet f b | sed -n 's/.*dport \([0-9]*\) .*/\1/p' | tr '\n' ' ' | sed 's/ $//')"

# errors: two bad rules between good ones, both reported in order
cat >bad.nft <<'EOF'
add table ip e
add chain ip e c
add rule ip e c tcp dport 1 counter
add rule ip e c tcp dport 70000 counter
add rule ip e c tcp dport 2 counter
add rule ip e c udp dport 80000 counter
add rule ip e c tcp dport 3 counter
EOF
tool "$NS" -f bad.nft 2>err
expect_eq "a file with bad rules fails" 1 $?
expect_eq "the first error is on line 4" "bad.nft:4:" "$(grep -o '^bad.nft:[0-9]*:' err | sed -n 1p)"
expect_eq "the second on line 6" "bad.nft:6:" "$(grep -o '^bad.nft:[0-9]*:' err | sed -n 2p)"
expect_eq "nothing was loaded" "" "$(tool "$NS" list table ip e 2>/dev/null)"

# the kernel refuses a rule in the middle: caret under the object's name
printf '%s\n' 'add table ip k' 'add chain ip k c' \
	'add rule ip k c tcp dport 1 counter' \
	'add rule ip k c ip saddr 1.2.3.4 counter name "nope" accept' \
	'add rule ip k c tcp dport 2 counter' >kern.nft
tool "$NS" -f kern.nft 2>err
expect_eq "the kernel's refusal fails the load" 1 $?
expect_eq "it is on line 4" "kern.nft:4:" "$(grep -o '^kern.nft:[0-9]*:' err | sed -n 1p)"
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
if $TOOL -V 2>/dev/null | grep -q nfhook; then
	# as nft, under the object's name; nfh says what is missing
	expect_eq "nfh names the object" \
		'kern.nft:4:47-52: Error: Could not process rule: counter "nope" does not exist in table ip k' \
		"$(sed -n 1p err)"
fi
expect_eq "nothing of it was loaded" "" "$(tool "$NS" list table ip k 2>/dev/null)"

# traffic: a flat file counts pings
ns_pair "10.9.0.1/24" "10.9.0.2/24" || exit 99
load "$NS_B" <<'EOF'
add table netdev t
add chain netdev t in { type filter hook ingress device "veth-b" priority 0; }
add rule netdev t in ip saddr 10.9.0.9 counter comment "other"
add rule netdev t in icmp type echo-request counter comment "pings"
add rule netdev t in ip saddr 10.9.0.1 icmp type echo-request counter drop comment "drop"
EOF
in_ns "$NS_A" ping -c 3 -i 0.2 -W 1 10.9.0.2 >/dev/null 2>&1
expect_eq "the pings did not get through" 1 $?
expect_packets "the second rule counted the 3 pings" "$NS_B" 'comment "pings"' 3
expect_packets "the third dropped them" "$NS_B" 'comment "drop"' 3
expect_eq "the first saw none" 0 "$(packets "$NS_B" 'comment "other"')"
finish
