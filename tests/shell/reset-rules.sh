#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: nft 1.1's reset rules [FAMILY [TABLE [CHAIN]]] and reset rule T C
# handle N list the rules as they were and the kernel resets their
# counters and quotas, only those asked for, as nft 1.1.1 does; a missing
# table or chain is refused; the offline model does the same
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

ruleset='table inet t {
	chain c {
		counter packets 10 bytes 20
		quota 100 bytes used 50 bytes
	}
	chain d {
		counter packets 7 bytes 8
	}
}
table ip u {
	chain e {
		counter packets 1 bytes 1
	}
}'
ns_new NS
load "$NS" <<<"$ruleset"
expect_eq "reset rules inet t d: the chain as it was" "table inet t {
	chain d {
		counter packets 7 bytes 8
	}
}" "$(tool "$NS" reset rules inet t d)"
expect_eq "its counter was reset" "		counter packets 0 bytes 0" \
	"$(tool "$NS" list chain inet t d | grep counter)"
expect_eq "the other chain kept its values" "		counter packets 10 bytes 20" \
	"$(tool "$NS" list chain inet t c | grep counter)"
h=$(tool "$NS" -a list chain inet t c | sed -n 's/.*quota.* # handle //p')
expect_eq "reset rule: the one rule, in its table" "table inet t {
	chain c {
		quota 100 bytes used 50 bytes
	}
}" "$(tool "$NS" reset rule inet t c handle "$h")"
expect_eq "the quota was reset, the counter not" "		counter packets 10 bytes 20
		quota 100 bytes" "$(tool "$NS" list chain inet t c | grep -E 'counter|quota')"
expect_eq "reset rules ip: that family only" "table ip u {
	chain e {
		counter packets 1 bytes 1
	}
}" "$(tool "$NS" reset rules ip)"
expect_eq "reset rules: all" 4 "$(tool "$NS" reset rules | grep -c 'packets\|quota')"
expect_eq "then every counter is 0" 0 "$(tool "$NS" list ruleset | grep -c 'packets [1-9]')"
if tool "$NS" reset rules inet t x 2>/dev/null; then
	not_ok "a missing chain is refused"
else
	ok "a missing chain is refused"
fi
dir=$(tmpdir)
printf '%s\nreset rules inet t d\nlist chain inet t d\n' "$ruleset" > "$dir/r.nft"
expect_eq "offline: the same" "table inet t {
	chain d {
		counter packets 7 bytes 8
	}
}
table inet t {
	chain d {
		counter packets 0 bytes 0
	}
}" "$($TOOL --offline -f "$dir/r.nft" 2>&1)"
finish
