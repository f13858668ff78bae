#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: nfh sends a table's flags as nft does, 0 when none are given:
# "add table" wakes a dormant table, and nft(8)'s dormant example in one
# file fails as nft's does (the kernel changes a table's flags once per
# batch), changing nothing, with --offline too
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

ns_new A || exit 99
dir=$(tmpdir)
cat >"$dir/one.nft" <<'NFT'
create table inet mytable
add chain inet mytable myin { type filter hook input priority filter; }
add table inet mytable { flags dormant; }
add table inet mytable
add rule inet mytable myin counter
NFT
err='one.nft:4:5-22: Error: Could not process table: Invalid argument
add table inet mytable
    ^^^^^^^^^^^^^^^^^^'
got=$(cd "$dir" && tool "$A" -f one.nft 2>&1)
check "the one-file example fails" test $? -ne 0
expect_eq "on the table whose flags change twice" "$err" "$got"
expect_eq "and changes nothing" "" "$(tool "$A" list ruleset)"
got=$(cd "$dir" && $TOOL --offline -f one.nft 2>&1)
expect_eq "--offline gives the same error" "$err" "$got"

check "a table goes dormant" tool "$A" -f - <<'NFT'
add table inet mytable
add chain inet mytable myin { type filter hook input priority filter; }
add table inet mytable { flags dormant; }
NFT
check "and says so" listing_has "$A" "flags dormant"
check "add table wakes it" tool "$A" add table inet mytable
if listing_has "$A" "flags dormant"; then
	not_ok "and it is awake"
else
	ok "and it is awake"
fi
finish
