#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: an inet input chain drops SYNs by the value of their tcp maxseg
# option (1460 on a 1500-byte veth); a rule on another size leaves them be,
# and the listing reads back as written
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature tcp_option
require_cmd python3

ns_pair 10.0.0.1/24 10.0.0.2/24

load "$NS_B" <<EOF2
table inet filter {
	chain input {
		type filter hook input priority 0; policy accept;
		tcp dport 2222 tcp option maxseg size 1460 counter drop comment "mss-1460"
		tcp dport 2223 tcp option maxseg size 1000 counter drop comment "mss-1000"
		tcp dport 2224 tcp option sack-perm missing counter drop comment "no-sack"
	}
}
EOF2

expect_eq "a SYN with maxseg 1460 to port 2222 is dropped" timeout "$(tcp_probe "$NS_A" 10.0.0.2 2222)"
count=$(packets "$NS_B" 'comment "mss-1460"')
check "the maxseg 1460 counter saw the SYNs ($count)" test "${count:-0}" -ge 1
expect_eq "a SYN with maxseg 1460 to port 2223 is not dropped" refused "$(tcp_probe "$NS_A" 10.0.0.2 2223)"
expect_packets "the maxseg 1000 counter saw nothing" "$NS_B" 'comment "mss-1000"' 0
expect_eq "a SYN with sack-perm to port 2224 is not dropped" refused "$(tcp_probe "$NS_A" 10.0.0.2 2224)"
expect_packets "the sack-perm missing counter saw nothing" "$NS_B" 'comment "no-sack"' 0
check "the listing reads back as written" listing_has "$NS_B" 'tcp dport 2222 tcp option maxseg size 1460 counter packets [0-9]+ bytes [0-9]+ drop comment "mss-1460"'
check "presence tests list as nft lists them" listing_has "$NS_B" 'tcp option sack-perm missing counter'
finish
