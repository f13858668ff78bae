#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: values computed from selectors do what they say on real packets:
# a shifted mark copied into the conntrack mark, a run of and/or/xor
# (folded into one bitwise expression), and a shift to the right
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

ns_pair "10.9.0.1/24" "10.9.0.2/24" || exit 99
load "$NS_B" <<'EOF2'
table inet t {
	chain pre {
		type filter hook prerouting priority 0; policy accept;
		icmp type echo-request meta mark set 0x12
		ct mark set meta mark << 8
		ct mark 0x1200 counter comment "shifted"
		meta mark set meta mark and 0xf0 xor 0x1 or 0x2
		meta mark 0x13 counter comment "folded"
		meta mark set ct mark >> 4
		meta mark 0x120 counter comment "right"
		meta mark 0x12 counter comment "wrong"
	}
}
EOF2
in_ns "$NS_A" ping -c 3 -i 0.2 -W 1 10.9.0.2 >/dev/null 2>&1
expect_eq "the pings got through" 0 $?
expect_packets "ct mark = meta mark << 8 matched 3 requests" "$NS_B" 'comment "shifted"' 3
expect_packets "meta mark & 0xf0 ^ 0x1 | 0x2 matched them" "$NS_B" 'comment "folded"' 3
expect_packets "ct mark >> 4 matched them" "$NS_B" 'comment "right"' 3
expect_eq "no rule saw the unchanged mark" 0 "$(packets "$NS_B" 'comment "wrong"')"
finish
