#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: --debug=mnl prints each netlink message nfh sends and receives as
# libmnl prints them (as nft's mnl level does): the batch with its begin,
# the table and end messages, the kernel's answers; --debug=all adds the
# bytecode; without the level nothing is printed; the load itself is the
# same.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

ns_new NS || exit 99
out=$(tool "$NS" --debug=mnl add table ip t 2>&1)
expect_eq "the table is loaded" "table ip t {
}" "$(tool "$NS" list ruleset)"
# batch begin (NFNL_MSG_BATCH_BEGIN 0x10 = 16), NEWTABLE (0a00 = 2560), end
grep -q '| 00016 |' <<<"$out" && ok "the batch begin message is printed" ||
	not_ok "the batch begin message is printed"
grep -q '| 02560 |' <<<"$out" && ok "the table message is printed" ||
	not_ok "the table message is printed"
grep -q '| 00017 |' <<<"$out" && ok "the batch end message is printed" ||
	not_ok "the batch end message is printed"
n=$(grep -c '| message length |' <<<"$out")
[ "$n" -ge 5 ] && ok "sent and received messages: $n" ||
	not_ok "sent and received messages: $n"
out=$(tool "$NS" --debug=all add chain ip t c '{ type filter hook input priority 0; }' 2>&1)
grep -q '| message length |' <<<"$out" && grep -q 'type filter hook input' <<<"$out" &&
	ok "--debug=all prints the messages and the bytecode" ||
	not_ok "--debug=all prints the messages and the bytecode"
out=$(tool "$NS" add chain ip t d 2>&1)
expect_eq "without the level nothing is printed" "" "$out"
finish
