#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: rename chain renames the chain the kernel finds by its handle,
# in its place, with its rules; jumps to it follow; a missing chain, or a
# name another chain has, is refused and changes nothing; the offline
# model does the same
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

ns_new NS
load "$NS" <<'EOF'
table inet t {
	chain a {
	}
	chain c {
		jump d
	}
	chain d {
		counter
	}
}
EOF
check "rename chain inet t d e" tool "$NS" rename chain inet t d e
expect_eq "the chain has the new name, in its place; the jump names it" "table inet t {
	chain a {
	}

	chain c {
		jump e
	}

	chain e {
		counter packets 0 bytes 0
	}
}" "$(tool "$NS" list ruleset)"
out=$(tool "$NS" rename chain inet t x y 2>&1)
expect_eq "a missing chain is refused at its name" "Error: Could not process chain: No such file or directory
rename chain inet t x y
                    ^" "$out"
if tool "$NS" rename chain inet t a e 2>/dev/null; then
	not_ok "a name another chain has is refused"
else
	ok "a name another chain has is refused"
fi
expect_eq "--debug=netlink prints the chain as nft does" "inet t b use 0" \
	"$(tool "$NS" -c --debug=netlink rename chain inet t a b)"
expect_eq "offline: the same" "$(tool "$NS" list ruleset)" "$(
	printf 'table inet t { chain a { }; chain c { jump d; }; chain d { counter; }; }\nrename chain inet t d e\nrename chain inet t a e\nlist ruleset\n' |
	$TOOL --offline -i 2>/dev/null)"
finish
