#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: what a netdev chain does when its device is deleted and created
# again, and when it names a device that does not exist yet.  Before Linux
# 6.16 the hook is unregistered for good when the device goes away, and a
# missing device is an error (ENOENT).  From 6.16 the chain keeps the name
# and binds any device of that name when it appears.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/kernel/lib-hooks.bash
. "$(dirname "$0")/lib-hooks.bash"
require_feature netdev_ingress
require_cmd python3

ns_pair "" ""

load "$NS_B" <<EOF2
table netdev t {
$(hook_chain c ingress "$VETH_B" "ether type $ETYPE counter comment \"c\"")
}
EOF2
send_frames "$NS_A" "$VETH_A" 2 >/dev/null
expect_packets "the chain counts on the first $VETH_B" "$NS_B" 'comment "c"' 2

ip -n "$NS_A" link del "$VETH_A"
check "$VETH_B was deleted with its peer" test -z "$(ip -n "$NS_B" link show "$VETH_B" 2>/dev/null)"
check "the table survives the device" listing_has "$NS_B" 'comment "c"'
link_ns "$NS_A" "$VETH_A" "" "$NS_B" "$VETH_B" "" || exit 99
send_frames "$NS_A" "$VETH_A" 3 >/dev/null
if kernel_at_least 6 16; then
	expect_packets "$(uname -r) >= 6.16: the chain re-bound to the new $VETH_B" "$NS_B" 'comment "c"' 5
else
	sleep 0.3
	expect_eq "$(uname -r) < 6.16: the hook is gone for good" 2 "$(packets "$NS_B" 'comment "c"')"
fi

rules="table netdev m {
$(hook_chain c ingress later0 "ether type $ETYPE counter comment \"later\"")
}"
if kernel_at_least 6 16; then
	load "$NS_B" ">= 6.16: a chain on a missing device loads" <<<"$rules"
	link_ns "$NS_A" early0 "" "$NS_B" later0 "" || exit 99
	send_frames "$NS_A" early0 4 >/dev/null
	expect_packets ">= 6.16: it binds when the device appears" "$NS_B" 'comment "later"' 4
else
	out=$(tool "$NS_B" -f - <<<"$rules" 2>&1)
	rc=$?
	expect_eq "< 6.16: a chain on a missing device is refused" 1 "$rc"
	check "< 6.16: the error says the device does not exist" grep -qi 'no such file\|does not exist\|no such device' <<<"$out"
fi
finish
