#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a meta or ct key set from two values of the packet (nft 1.2's
# "meta mark set ct mark & 0xffff0000 | meta mark & 0xffff", the kernel's
# bitwise of two registers, Linux 6.13) computes on real packets what it
# says, for |, ^ and &; the rules list back as they were written, and the
# listing loads again to the same listing
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

ns_pair "10.9.1.1/24" "10.9.1.2/24" || exit 99
load "$NS_B" <<'EOF2'
table ip t {
	chain pre {
		type filter hook prerouting priority 0; policy accept;
		icmp type echo-request meta mark set 0xaaaa5678
		icmp type echo-request ct mark set 0x1234abcd
		icmp type echo-request meta mark set ct mark & 0xffff0000 | meta mark & 0xffff
		meta mark 0x12345678 counter comment "or"
		icmp type echo-request ct mark set meta mark ^ ct mark
		ct mark 0x0000fdb5 counter comment "xor"
		icmp type echo-request meta mark set meta mark & (ct mark | 0xff000000)
		meta mark 0x12005430 counter comment "and"
		meta mark 0xaaaa5678 counter comment "unchanged"
	}
}
EOF2
ping_from "$NS_A" 10.9.1.2 3
expect_eq "the pings got through" 0 $?
expect_packets "ct mark & 0xffff0000 | meta mark & 0xffff made 0x12345678" "$NS_B" 'comment "or"' 3
expect_packets "meta mark ^ ct mark made 0xfdb5" "$NS_B" 'comment "xor"' 3
expect_packets "meta mark & (ct mark | 0xff000000) made 0x12005430" "$NS_B" 'comment "and"' 3
expect_eq "no rule saw the mark unchanged" 0 "$(packets "$NS_B" 'comment "unchanged"')"

listing=$(tool "$NS_B" list ruleset)
if printf '%s\n' "$listing" |
	grep -Fq 'meta mark set ct mark & 0xffff0000 | meta mark & 0x0000ffff' &&
	printf '%s\n' "$listing" | grep -Fq 'ct mark set meta mark ^ ct mark' &&
	printf '%s\n' "$listing" |
	grep -Fq 'meta mark set meta mark & (ct mark | 0xff000000)'; then
	ok "the rules list as they were written"
else
	not_ok "the rules list as they were written"
	printf '%s\n' "$listing" | diag
fi
ns_new NS_C || exit 99
printf '%s\n' "$listing" | load "$NS_C" "the listing loads again"
expect_eq "... and lists the same" "$listing" "$(tool "$NS_C" list ruleset)"
finish
