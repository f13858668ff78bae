#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: one chain hooked on several devices sees the frames of each, and
# only those; chains on different devices count separately.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/kernel/lib-hooks.bash
. "$(dirname "$0")/lib-hooks.bash"
require_feature netdev_ingress netdev_devices
require_cmd python3

ns_pair "" ""
link_ns "$NS_A" veth-c "" "$NS_B" veth-d "" || exit 99
link_ns "$NS_A" veth-e "" "$NS_B" veth-f "" || exit 99

load "$NS_B" <<EOF2
table netdev t {
$(hook_chain both ingress "devices = { \"$VETH_B\", \"veth-d\" }" "ether type $ETYPE counter comment \"both\"")
$(hook_chain f ingress veth-f "ether type $ETYPE counter comment \"f\"")
}
EOF2

send_frames "$NS_A" "$VETH_A" 2 >/dev/null
send_frames "$NS_A" veth-c 3 >/dev/null
send_frames "$NS_A" veth-e 7 >/dev/null
expect_packets "the two-device chain counted 2 + 3" "$NS_B" 'comment "both"' 5
expect_packets "the veth-f chain counted its 7" "$NS_B" 'comment "f"' 7
finish
