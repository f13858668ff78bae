#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: AF_PACKET frames sent with PACKET_QDISC_BYPASS (dev_direct_xmit,
# no qdisc, no tc) still pass the nf egress hook: it counts them, and a drop
# rule keeps them off the wire.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/kernel/lib-hooks.bash
. "$(dirname "$0")/lib-hooks.bash"
require_feature netdev_egress
require_cmd python3

ns_pair "" ""

load "$NS_A" <<EOF2
table netdev t {
	chain a {
		type filter hook egress device "$VETH_A" priority 0; policy accept;
		ether type $ETYPE counter comment "nf-a"
	}
}
EOF2

tx0=$(stat "$NS_A" "$VETH_A" tx_packets)
expect_eq "5 bypass sends accepted" 5 "$(send_frames "$NS_A" "$VETH_A" 5 bypass)"
expect_packets "nf egress counted the 5 bypass frames" "$NS_A" 'comment "nf-a"' 5
expect_eq "and they left $VETH_A" $((tx0 + 5)) "$(stat "$NS_A" "$VETH_A" tx_packets)"

load "$NS_A" "drop rule added" <<EOF2
add rule netdev t a ether type $ETYPE counter drop comment "drop"
EOF2
tx0=$(stat "$NS_A" "$VETH_A" tx_packets)
send_frames "$NS_A" "$VETH_A" 4 bypass >/dev/null
expect_packets "nf egress dropped the 4 bypass frames" "$NS_A" 'comment "drop"' 4
expect_eq "none of them left $VETH_A" "$tx0" "$(stat "$NS_A" "$VETH_A" tx_packets)"
finish
