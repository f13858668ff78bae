#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a frame that tc mirred redirects from one device's egress to
# another's skips the target's nf egress hook (skb->nf_skip_egress), but
# still leaves the target; frames sent on the target directly are seen.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/kernel/lib-hooks.bash
. "$(dirname "$0")/lib-hooks.bash"
require_feature netdev_egress
require_cmd python3 tc

ns_pair "" ""
link_ns "$NS_A" veth-c "" "$NS_B" veth-d "" || exit 99

load "$NS_A" <<EOF2
table netdev t {
	chain a {
		type filter hook egress device "$VETH_A" priority 0; policy accept;
		ether type $ETYPE counter comment "nf-a"
	}
	chain c {
		type filter hook egress device "veth-c" priority 0; policy accept;
		ether type $ETYPE counter comment "nf-c"
	}
}
EOF2

check "tc egress redirect $VETH_A -> veth-c added" tc_mirred "$NS_A" "$VETH_A" egress redirect veth-c
tx0=$(stat "$NS_A" veth-c tx_packets)
send_frames "$NS_A" "$VETH_A" 5 >/dev/null
expect_packets "nf egress on $VETH_A saw the 5 frames (before tc)" "$NS_A" 'comment "nf-a"' 5
expect_eq "tc redirected the 5 frames" 5 "$(tc_seen "$NS_A" "$VETH_A" egress)"
expect_eq "they left veth-c" $((tx0 + 5)) "$(stat "$NS_A" veth-c tx_packets)"
expect_eq "nf egress on veth-c skipped them" 0 "$(packets "$NS_A" 'comment "nf-c"')"

send_frames "$NS_A" veth-c 3 >/dev/null
expect_packets "frames sent on veth-c itself are counted there" "$NS_A" 'comment "nf-c"' 3
finish
