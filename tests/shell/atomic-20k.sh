#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a 20,000-rule file whose 10,000th rule the kernel rejects (a jump
# to a chain that does not exist) fails with exit 1 and FILE:LINE of that
# rule, within 20 s, and applies nothing: the ruleset loaded before lists
# exactly as before; the same file with that rule fixed loads all 20,000
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress
require_cmd python3

ns_new NS
ip -n "$NS" link add big0 type veth peer name big1
dir=$(tmpdir)

# big.nft: deletes the table loaded first, then adds 20,000 rules; rule
# 10,000 is on line $bad
python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
def write(name, bad):
    with open(d + '/' + name, 'w') as f:
        f.write('delete table netdev keep\ntable netdev big {\n\tchain in {\n'
                '\t\ttype filter hook ingress device "big0" priority 0; policy accept;\n')
        for i in range(1, 20001):
            if i == 10000 and bad:
                f.write('\t\tip saddr 10.200.0.1 jump nosuchchain\n')
            else:
                f.write('\t\tip saddr 10.%d.%d.%d counter drop\n'
                        % (i // 65536, (i // 256) % 256, i % 256))
        f.write('\t}\n}\n')
write('big.nft', True)
write('good.nft', False)
PY
bad=$(grep -n nosuchchain "$dir/big.nft" | cut -d: -f1)

load "$NS" "a small ruleset loads first" <<'NFT'
table netdev keep {
	chain in {
		type filter hook ingress device "big0" priority 0; policy accept;
		ip saddr 192.0.2.1 counter drop comment "keep"
	}
}
NFT
before=$(tool "$NS" list ruleset)

t0=$(date +%s)
timeout 20 ip netns exec "$NS" $TOOL -f "$dir/big.nft" >"$dir/out" 2>"$dir/err"
rc=$?
t1=$(date +%s)
expect_eq "the 20,000-rule file fails with exit status 1" 1 "$rc"
if grep -Eq "^$dir/big.nft:$bad:[0-9]+(-[0-9]+)?: Error: " "$dir/err"; then
	ok "the error names line $bad, rule 10,000 ($((t1 - t0)) s)"
else
	not_ok "the error names line $bad, rule 10,000"
	head -n 5 "$dir/err" | diag
fi
expect_eq "nothing was applied: the ruleset lists as before" "$before" \
	"$(tool "$NS" list ruleset)"

timeout 20 ip netns exec "$NS" $TOOL -f "$dir/good.nft" >"$dir/out" 2>"$dir/err"
expect_eq "with that rule fixed, the file loads" 0 "$?"
expect_eq "and all 20,000 rules are there" 20000 \
	"$(tool "$NS" list ruleset | grep -c 'counter packets 0 bytes 0 drop')"
finish
