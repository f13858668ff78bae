#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: JSON numbers out of range are refused under the number, not
# wrapped: a chain "prio" beyond 32 bits (4294967296 was priority 0), a
# "timeout" whose milliseconds the kernel cannot take, and comments past
# 128 bytes (the kernel dropped them).  Offline: no kernel.
# The error texts are nfh's own: with another TOOL the script is skipped.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
$TOOL -V 2>/dev/null | grep -q nfhook || { echo "# nfh's own errors"; exit 77; }

dir=$(tmpdir)
cd "$dir" || exit 99

# chain NAME PRIO: one add-chain command
chain() {
	printf '{"add":{"chain":{"family":"ip","table":"t","name":"%s","type":"filter","hook":"input","prio":%s}}}' "$1" "$2"
}

for p in 4294967296 2147483648 -2147483649; do
	printf '{"nftables":[{"add":{"table":{"family":"ip","name":"t"}}},\n%s]}\n' \
		"$(chain c "$p")" >prio.json
	got=$($TOOL --offline -c -j -f prio.json 2>&1; echo "rc=$?")
	expect_eq "prio $p is refused" \
		"prio.json:2:$((93))-$((92 + ${#p})): Error: priority $p exceeds valid range -2147483648-2147483647
$(chain c "$p")]}
$(printf '%92s' '')$(printf '%*s' ${#p} '' | tr ' ' '^')
rc=1" "$got"
done

for p in 2147483647 -2147483648; do
	printf '{"nftables":[{"add":{"table":{"family":"ip","name":"t"}}},\n%s]}\n' \
		"$(chain c "$p")" >prio.json
	got=$($TOOL --offline -c -d netlink -j -f prio.json 2>&1 | sed -n 's/.* prio \([-0-9]*\) .*/\1/p')
	expect_eq "prio $p is taken as it is" "$p" "$got"
done

cat >timeout.json <<'JSON'
{"nftables":[{"add":{"table":{"family":"ip","name":"t"}}},
{"add":{"set":{"family":"ip","table":"t","name":"s","type":"ipv4_addr","timeout":18446744073709551}}},
{"add":{"set":{"family":"ip","table":"t","name":"s2","type":"ipv4_addr","timeout":18446744073}}}
]}
JSON
got=$($TOOL --offline -c -d netlink -j -f timeout.json 2>&1; echo "rc=$?")
expect_eq "a timeout past the kernel's range is refused" \
	'timeout.json:2:82-98: Error: value too large
{"add":{"set":{"family":"ip","table":"t","name":"s","type":"ipv4_addr","timeout":18446744073709551}}},
                                                                                 ^^^^^^^^^^^^^^^^^
rc=1' "$got"
c128=$(printf 'x%.0s' $(seq 128))
c129=${c128}x
cat >comment.json <<JSON
{"nftables":[{"add":{"table":{"family":"ip","name":"t","comment":"$c128"}}},
{"add":{"chain":{"family":"ip","table":"t","name":"c","comment":"$c129"}}},
{"add":{"set":{"family":"ip","table":"t","name":"s","type":"ipv4_addr","comment":"$c129"}}},
{"add":{"rule":{"family":"ip","table":"t","chain":"c","comment":"$c129","expr":[{"accept":null}]}}},
{"add":{"element":{"family":"ip","table":"t","name":"s","elem":[{"elem":{"val":"10.0.0.1","comment":"$c129"}}]}}},
{"add":{"counter":{"family":"ip","table":"t","name":"k","comment":"$c129"}}}
]}
JSON
got=$($TOOL --offline -c -j -f comment.json 2>&1 | grep -o '^comment.json:[0-9:-]*: Error: .*'; echo "rc=$?")
expect_eq "comments past 128 bytes are refused under them" \
"comment.json:2:65-195: Error: comment too long, 128 characters maximum allowed
comment.json:3:82-212: Error: comment too long, 128 characters maximum allowed
comment.json:4:65-195: Error: comment too long, 128 characters maximum allowed
comment.json:5:101-231: Error: comment too long, 128 characters maximum allowed
comment.json:6:67-197: Error: comment too long, 128 characters maximum allowed
rc=0" "$got"
finish
