#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: the kernel's refusal of a set no set type can hold (EOPNOTSUPP)
# and of a chain type it lacks (ENOENT at NFTA_CHAIN_TYPE) come in words,
# under the construct that asked for it: what is missing and, for a chain
# type in a module of its own, its kernel option.
#
# Sets: this kernel's own answers, through nfh (a set with flags dynamic
# and interval, which no set type takes; a map of objects with flags
# dynamic and a set with flags constant and timeout, which it refuses
# before it looks for one), and the offline model's, the same words
# (kernel-refusal-words/set.err).
#
# Chain types: nfh refuses a chain type a family lacks before sending, and
# this kernel has every chain type of ip, ip6 and inet.  So the kernel's
# answers are recorded: tests/kernel-reply.py sends the chain itself and
# writes the message and the kernel's NLMSG_ERROR reply as hex
# (kernel-refusal-words/*.hex: nat in bridge, route in netdev, an unknown
# type "natx" in ip).  Each is recorded again here and must be what the
# running kernel answers (its error and the attribute its extended ack
# names); then tests/c/refusal-words gives nfh's words for each
# (words.out).  ip-nat.derived.hex is NOT a kernel's answer: it is
# bridge-nat.hex with the family of the message sent changed to ip, the
# answer a kernel built without CONFIG_NFT_NAT gives by the same code path
# (nf_tables_chain_type_lookup(): ENOENT, the extended ack at
# NFTA_CHAIN_TYPE), which no kernel here can give.
#
# Rules: ip-bitwise-pair.derived.hex is derived too: "meta mark set ct
# mark | meta mark" as nfh sends it (the kernel's bitwise of two
# registers: op NFT_BITWISE_OR 4, NFTA_BITWISE_SREG2 8), answered
# EOPNOTSUPP, as a kernel before 6.13 answers an op it lacks
# (nft_bitwise_init() of Debian's 6.12 source); this host's kernel takes it.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3

src=$(cd "$(dirname "$0")/kernel-refusal-words" && pwd)
words=$REPO_DIR/tests/c/refusal-words
ns_new NS || exit 99
dir=$(tmpdir)
cp "$src/set.nft" "$dir/"
cd "$dir" || exit 1

tool "$NS" -f set.nft 2>set.err
expect_eq "sets no set type holds: exit status 1" 1 $?
if diff -u "$src/set.err" set.err >diff.out; then
	ok "the kernel's EOPNOTSUPP for each in words, under the set"
else
	not_ok "the kernel's EOPNOTSUPP for each in words, under the set"
	diag <diff.out
fi
expect_eq "nothing was loaded" "" "$(tool "$NS" list ruleset)"
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
$TOOL --offline -c -f set.nft 2>offline.err
expect_eq "--offline: exit status 1" 1 $?
if diff -u "$src/set.err" offline.err >diff.out; then
	ok "--offline: the same words"
else
	not_ok "--offline: the same words"
	diag <diff.out
fi

# a reply's error and the attribute its extended ack names; the rest (the
# port id) differs from run to run
reply_key() { sed -n 2p "$1" | cut -c33-; }
for rec in bridge-nat:7:nat:1 netdev-route:5:route:0 ip-natx:2:natx:0; do
	IFS=: read -r name family type hook <<<"$rec"
	in_ns "$NS" python3 "$REPO_DIR/tests/kernel-reply.py" chain "$family" "$type" "$hook" >"$name.hex"
	expect_eq "kernel-reply.py $name: the kernel refused it" 0 $?
	expect_eq "$name.hex: the message sent is the one recorded" \
		"$(sed -n 1p "$src/$name.hex")" "$(sed -n 1p "$name.hex")"
	expect_eq "$name.hex: this kernel answers as recorded (ENOENT at NFTA_CHAIN_TYPE)" \
		"$(reply_key "$src/$name.hex")" "$(reply_key "$name.hex")"
done
expect_eq "nothing was left in the namespace" "" "$(tool "$NS" list ruleset)"

if [ ! -x "$words" ]; then
	echo "ok - the words for each recorded answer # SKIP no $words (make builds it)"
	finish
fi
"$words" "$src/bridge-nat.hex" "$src/netdev-route.hex" "$src/ip-natx.hex" \
	"$src/ip-nat.derived.hex" "$src/ip-bitwise-pair.derived.hex" >words.out
expect_eq "refusal-words: exit status 0" 0 $?
if diff -u "$src/words.out" words.out >diff.out; then
	ok "the words for each recorded answer, and for the derived ones (no CONFIG_NFT_NAT, no bitwise of two registers)"
else
	not_ok "the words for each recorded answer, and for the derived ones (no CONFIG_NFT_NAT, no bitwise of two registers)"
	diag <diff.out
fi
finish
