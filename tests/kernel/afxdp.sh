#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: frames sent through an AF_XDP socket in copy mode
# (xsk_generic_xmit -> __dev_direct_xmit) pass the nf egress hook: it counts
# them, and a drop rule keeps them off the wire while their descriptors
# still complete.  Mainline (6.12 through 6.18 at least) skips the hook on
# this path, so this fails there; kernel patch 1 (kernel/README.md) is to
# close it.  Listed in tests/TODO.list until then.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/kernel/lib-hooks.bash
. "$(dirname "$0")/lib-hooks.bash"
require_feature netdev_egress
XSK=$REPO_DIR/kernel/xsk-tx
if [ ! -x "$XSK" ]; then
	echo "# kernel/xsk-tx is not built (make)"
	exit 77
fi
ns_pair "" ""

load "$NS_A" <<EOF2
table netdev t {
$(hook_chain a egress "$VETH_A" "ether type $ETYPE counter comment \"xsk\"")
}
EOF2

tx0=$(stat "$NS_A" "$VETH_A" tx_packets)
out=$(in_ns "$NS_A" "$XSK" "$VETH_A" 10 2>&1)
rc=$?
if [ $rc = 77 ]; then
	echo "# kernel lacks AF_XDP sockets"
	exit 77
fi
expect_eq "10 AF_XDP copy-mode descriptors completed" 10 "$out"
expect_eq "10 frames left $VETH_A" $((tx0 + 10)) "$(stat "$NS_A" "$VETH_A" tx_packets)"
expect_packets "the egress hook counted the 10 AF_XDP frames" "$NS_A" 'comment "xsk"' 10

load "$NS_A" "drop rule added" <<EOF2
insert rule netdev t a ether type $ETYPE counter drop comment "drop"
EOF2
tx0=$(stat "$NS_A" "$VETH_A" tx_packets)
expect_eq "with a drop rule all 8 descriptors still complete" 8 "$(in_ns "$NS_A" "$XSK" "$VETH_A" 8 2>&1)"
expect_packets "the drop rule dropped the 8 AF_XDP frames" "$NS_A" 'comment "drop"' 8
expect_eq "none of them left $VETH_A" "$tx0" "$(stat "$NS_A" "$VETH_A" tx_packets)"
finish
