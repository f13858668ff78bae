#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: chain bindings ("jump { ... }", "goto { ... }") load as anonymous
# chains bound to their rules; packets go through them as through a named
# chain; the listing, -a and -j print the block in the rule as nft 1.0.6
# does and hide the chain; deleting or flushing the rule takes the chain
# along; a block in a block is refused as nft refuses it
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_pair 10.0.0.1/24 10.0.0.2/24
ip -n "$NS_A" addr add 10.0.0.3/24 dev "$VETH_A"

load "$NS_B" <<EOF
table netdev filter {
	chain ingress {
		type filter hook ingress device "$VETH_B" priority 0; policy accept;
		ip saddr 10.0.0.1 icmp type echo-request jump { counter comment "in-jump"; icmp type echo-request return; counter comment "after-return"; }
		ip saddr 10.0.0.1 icmp type echo-request counter comment "after-jump"
		ip saddr 10.0.0.3 icmp type echo-request goto {
			counter drop comment "in-goto"
		}
		ip saddr 10.0.0.3 icmp type echo-request counter comment "after-goto"
	}
}
EOF

expect_eq "echoes from 10.0.0.1 pass the bound chain" 3 "$(replies_from "$NS_A" 10.0.0.2 3 10.0.0.1)"
expect_eq "echoes from 10.0.0.3 are dropped in the bound chain" 0 "$(replies_from "$NS_A" 10.0.0.2 2 10.0.0.3)"
expect_packets "the jump's chain is entered per echo" "$NS_B" 'comment "in-jump"' 3
expect_packets "return ends the bound chain" "$NS_B" 'comment "after-return"' 0
expect_packets "jump comes back to the next rule" "$NS_B" 'comment "after-jump"' 3
expect_packets "the goto's chain counted its drops" "$NS_B" 'comment "in-goto"' 2
expect_packets "goto does not come back" "$NS_B" 'comment "after-goto"' 0

ns_new NS_C
load "$NS_C" "a table with chain bindings loads" <<'EOF'
table inet t {
	chain c {
		tcp dport 22 jump { ip saddr 1.1.1.1 accept; counter; }
		udp dport 53 goto { ip saddr 2.2.2.2 drop; }
	}
	chain d {
		jump { }
	}
}
EOF
expect_eq "listing: the rules inside the verdict, the chains hidden" "table inet t {
	chain c {
		tcp dport 22 jump {
			ip saddr 1.1.1.1 accept
			counter packets 0 bytes 0
		}
		udp dport 53 goto {
			ip saddr 2.2.2.2 drop
		}
	}

	chain d {
		jump {
		}
	}
}" "$(tool "$NS_C" list ruleset)"
expect_eq "-a: the handle after the block" "		} # handle 6" \
	"$(tool "$NS_C" -a list chain inet t c | grep -m1 '} # handle')"
expect_eq "list chains hides the bound chains" "table inet t {
	chain c {
	}
	chain d {
	}
}" "$(tool "$NS_C" list chains)"
expect_eq "-j: the block as its text, as nft writes it" \
	'"goto {\n\t\t\tip saddr 2.2.2.2 drop\n\t\t}"' \
	"$(tool "$NS_C" -j list chain inet t c 2>/dev/null | grep -o '"goto {[^"]*"')"
expect_eq "-j warns as nft does" "warning: stmt ops chain have no json callback" \
	"$(tool "$NS_C" -j list chain inet t d 2>&1 >/dev/null)"
h=$(tool "$NS_C" -a list chain inet t c | sed -n 's/^\t\t} # handle //p' | head -1)
check "deleting the rule" tool "$NS_C" delete rule inet t c handle "$h"
check "flushing the chain" tool "$NS_C" flush chain inet t d
if command -v nft >/dev/null; then
	# nft --debug=netlink names the kernel's chains, the hidden ones too
	expect_eq "the bound chains went with their rules" 1 \
		"$(in_ns "$NS_C" nft --debug=netlink list ruleset 2>/dev/null | grep -c '^inet t __chain')"
fi
expect_eq "offline: the same listing" "$(tool "$NS_C" list ruleset)" "$(
	printf 'table inet t {\n chain c {\n  udp dport 53 goto { ip saddr 2.2.2.2 drop; }\n }\n chain d {\n }\n}\nlist ruleset\n' |
	$TOOL --offline -f -)"

out=$(printf 'table inet t {\n chain c {\n  jump { ip saddr 1.1.1.1 jump { accept; }; }\n }\n}\n' |
	$TOOL --offline -c -f - 2>&1)
expect_eq "a block in a block is refused" \
	"/dev/stdin:3:30-30: Error: too many levels of nesting" "$(printf '%s\n' "$out" | head -1)"
finish
