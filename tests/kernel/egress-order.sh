#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: on egress netfilter runs before tc.  tc never sees the frames an
# nf egress rule drops, and an nf egress counter sees the frames that a tc
# egress filter drops afterwards.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/kernel/lib-hooks.bash
. "$(dirname "$0")/lib-hooks.bash"
require_feature netdev_egress
require_cmd python3 tc

ns_pair "" ""
link_ns "$NS_A" veth-c "" "$NS_B" veth-d "" || exit 99
link_ns "$NS_A" veth-m "" "$NS_B" veth-n "" || exit 99

load "$NS_A" <<EOF2
table netdev t {
	chain a {
		type filter hook egress device "$VETH_A" priority 0; policy accept;
		ether type $ETYPE counter comment "nf-a"
	}
	chain c {
		type filter hook egress device "veth-c" priority 0; policy accept;
		ether type $ETYPE counter drop comment "nf-c"
	}
}
EOF2

check "tc egress drop filter on $VETH_A added" tc_drop "$NS_A" "$VETH_A" egress
tx0=$(stat "$NS_A" "$VETH_A" tx_packets)
send_frames "$NS_A" "$VETH_A" 5 >/dev/null
expect_packets "nf egress counted the 5 frames tc then dropped" "$NS_A" 'comment "nf-a"' 5
expect_eq "none left $VETH_A" "$tx0" "$(stat "$NS_A" "$VETH_A" tx_packets)"

check "tc egress mirror on veth-c added" tc_mirred "$NS_A" veth-c egress mirror veth-m
send_frames "$NS_A" veth-c 4 >/dev/null
expect_packets "nf egress on veth-c dropped the 4 frames" "$NS_A" 'comment "nf-c"' 4
sleep 0.3
expect_eq "tc egress never saw them" 0 "$(tc_seen "$NS_A" veth-c egress)"
expect_eq "no mirror copy left veth-m" 0 "$(stat "$NS_A" veth-m tx_packets)"
finish
