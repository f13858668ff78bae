#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: nft's -v prints the version as -V does; -N (--reversedns) lists
# an address the resolver names (127.0.0.1 in /etc/hosts) by its name, and
# one it does not name as the address
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
# shellcheck disable=SC2086
expect_eq "-v prints the version, as -V" "$($TOOL -V)" "$($TOOL -v)"
if ! getent hosts 127.0.0.1 >/dev/null; then
	echo "# 127.0.0.1 has no name here: -N not checked"
	finish
fi
name=$(getent hosts 127.0.0.1 | awk '{ print $2 }')
ns_new NS
load "$NS" <<'EOF'
table ip t {
	chain c {
		ip saddr 127.0.0.1 accept
		ip saddr 192.0.2.77 accept
	}
}
EOF
expect_eq "-N: the name" "		ip saddr $name accept" \
	"$(tool "$NS" -N list ruleset | grep -m1 'saddr')"
expect_eq "-N: an address without a name" "		ip saddr 192.0.2.77 accept" \
	"$(tool "$NS" -N list ruleset | grep 'saddr 192')"
expect_eq "without -N: the address" "		ip saddr 127.0.0.1 accept" \
	"$(tool "$NS" list ruleset | grep -m1 'saddr')"
finish
