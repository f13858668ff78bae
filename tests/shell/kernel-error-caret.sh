#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: when the kernel refuses one expression of a rule and says which
# (its extended ack gives the attribute's offset), the error's caret goes
# under the statement that made it (an object reference: under the name it
# looks up), on its own line when the rule goes on over a line end; nothing
# is loaded
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

ns_new NS || exit 99
dir=$(tmpdir)
cd "$dir" || exit 1
printf '%s\n' 'table inet t {' ' chain c {' \
	'  type filter hook prerouting priority 0;' \
	'  ip saddr 1.2.3.4 counter name "nope" accept' \
	'  ip saddr 1.2.3.5 \' \
	'   counter name "nope2" accept' ' }' '}' >bad.nft
tool "$NS" -f bad.nft 2>err
expect_eq "the load fails" 1 $?
expect_eq "the first error names the object's name" \
	'bad.nft:4:33-38: Error: Could not process rule: counter "nope" does not exist in table inet t' \
	"$(sed -n 1p err)"
expect_eq "with the caret under it" \
	'                                ^^^^^^' "$(sed -n 3p err)"
expect_eq "the second names its line after the line end" \
	'bad.nft:6:17-23: Error: Could not process rule: counter "nope2" does not exist in table inet t' \
	"$(sed -n 4p err)"
expect_eq "and shows that line" '   counter name "nope2" accept' "$(sed -n 5p err)"
expect_eq "nothing was loaded" "" "$(tool "$NS" list ruleset)"
finish
