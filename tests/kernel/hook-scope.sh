#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: frames pass when there is no hook at all, when a chain hooks
# another device, and when this device's chain is empty (policy accept);
# one drop rule on this device stops them, on ingress and on egress.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/kernel/lib-hooks.bash
. "$(dirname "$0")/lib-hooks.bash"
require_feature netdev_ingress netdev_egress
require_cmd python3

ns_pair "" ""
link_ns "$NS_A" veth-c "" "$NS_B" veth-d "" || exit 99

# arrived: send 5 frames from veth-a; print how many veth-b received (veth
# counts them before any hook of veth-b runs, so this measures egress).
arrived() {
	local before after
	before=$(stat "$NS_B" "$VETH_B" rx_packets)
	send_frames "$NS_A" "$VETH_A" 5 >/dev/null
	retry 10 test "$(stat "$NS_B" "$VETH_B" rx_packets)" -ge $((before + 5))
	after=$(stat "$NS_B" "$VETH_B" rx_packets)
	echo $((after - before))
}

# An nf ingress counter on veth-b at a later priority is the witness of
# what passes the chain under test (priority 0).
witness() {
	load "$NS_B" "witness chain loaded" <<EOF2
table netdev w {
	chain in {
		type filter hook ingress device "$VETH_B" priority 100; policy accept;
		ether type $ETYPE counter comment "witness"
	}
}
EOF2
}

expect_eq "no hook in these namespaces: 5 frames arrive" 5 "$(arrived)"

load "$NS_A" "egress chain on another device loaded" <<EOF2
table netdev other {
$(hook_chain c egress veth-c "ether type $ETYPE counter drop comment \"other\"")
}
EOF2
expect_eq "egress hook on another device: 5 frames arrive" 5 "$(arrived)"
expect_eq "that chain saw none" 0 "$(packets "$NS_A" 'comment "other"')"

load "$NS_A" "empty egress chain on $VETH_A loaded" <<EOF2
table netdev empty {
$(hook_chain c egress "$VETH_A")
}
EOF2
expect_eq "empty egress chain: 5 frames arrive" 5 "$(arrived)"

witness
load "$NS_B" "empty ingress chain on $VETH_B loaded" <<EOF2
table netdev empty {
$(hook_chain c ingress "$VETH_B")
}
EOF2
arrived >/dev/null
expect_packets "empty ingress chain: 5 frames pass it" "$NS_B" 'comment "witness"' 5

load "$NS_B" "one ingress drop rule loaded" <<EOF2
add rule netdev empty c ether type $ETYPE counter drop comment "drop-in"
EOF2
arrived >/dev/null
expect_packets "ingress drop rule dropped 5" "$NS_B" 'comment "drop-in"' 5
expect_eq "none passed it" 5 "$(packets "$NS_B" 'comment "witness"')"

load "$NS_A" "one egress drop rule loaded" <<EOF2
add rule netdev empty c ether type $ETYPE counter drop comment "drop-out"
EOF2
tx0=$(stat "$NS_A" "$VETH_A" tx_packets)
send_frames "$NS_A" "$VETH_A" 5 >/dev/null
expect_packets "egress drop rule dropped 5" "$NS_A" 'comment "drop-out"' 5
expect_eq "none left $VETH_A" "$tx0" "$(stat "$NS_A" "$VETH_A" tx_packets)"
finish
