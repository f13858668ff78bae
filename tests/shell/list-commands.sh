#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: list meters [FAMILY] and list meter lists the sets meter
# statements fill, as nft 1.0.6 does (text and -j); list sets table T
# lists the sets of T's family once T is found; list ct timeout table T
# and list ct expectation table T list those objects of T as nft 1.1.1
# does (nft 1.0.6 crashes), their values as nft 1.0.6 lists them; nft
# 1.1's list sets|maps|chains|counters FAMILY TABLE and reset counters
# FAMILY TABLE, without "table", list that table only
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

ns_new NS
load "$NS" <<'EOF'
table ip t {
	set s { type ipv4_addr; flags dynamic; }
	ct timeout to { protocol tcp; l3proto ip; policy = { established: 100 }; }
	ct expectation ex { protocol tcp; dport 22; timeout 1s; size 3; l3proto ip; }
	chain c {
		meter m1 { ip saddr limit rate 10/second }
		tcp dport 22 meter m2 size 100 { ip daddr counter }
		add @s { ip saddr }
	}
}
table ip u {
	chain c {
		meter m3 { ip saddr counter }
	}
}
EOF
expect_eq "list meters" "table ip t {
	meter m1 {
		type ipv4_addr
		size 65535
		flags dynamic
	}
	meter m2 {
		type ipv4_addr
		size 100
		flags dynamic
	}
}
table ip u {
	meter m3 {
		type ipv4_addr
		size 65535
		flags dynamic
	}
}" "$(tool "$NS" list meters ip)"
expect_eq "list meter" "table ip u {
	meter m3 {
		type ipv4_addr
		size 65535
		flags dynamic
	}
}" "$(tool "$NS" list meter ip u m3)"
# the flag dynamic as nft 1.1.1 lists it
expect_eq "-j list meter" '{"meter": {"family": "ip", "name": "m3", "table": "u", "type": "ipv4_addr", "handle": 2, "size": 65535, "flags": ["dynamic"]}}' \
	"$(tool "$NS" -j list meter ip u m3 | grep -o '{"meter": {[^}]*}}')"
if tool "$NS" list meter ip t s 2>/dev/null; then
	not_ok "a named set is no meter"
else
	ok "a named set is no meter"
fi
expect_eq "list sets table: every table of the family" "table ip t {
	set s {
		type ipv4_addr
		size 65535
		flags dynamic
	}
}
table ip u {
}" "$(tool "$NS" list sets table ip u)"
if tool "$NS" list sets table ip x 2>/dev/null; then
	not_ok "list sets table: a missing table is refused"
else
	ok "list sets table: a missing table is refused"
fi
expect_eq "list ct timeout table" "table ip t {
	ct timeout to {
		protocol tcp
		l3proto ip
		policy = { established : 100 }
	}
}" "$(tool "$NS" list ct timeout table ip t)"
expect_eq "list ct expectation table" "table ip t {
	ct expectation ex {
		protocol tcp
		dport 22
		timeout 1s
		size 3
		l3proto ip
	}
}" "$(tool "$NS" list ct expectation table ip t)"
expect_eq "list sets ip t: that table only" "table ip t {
	set s {
		type ipv4_addr
		size 65535
		flags dynamic
	}
}" "$(tool "$NS" list sets ip t)"
expect_eq "list chains ip u" "table ip u {
	chain c {
	}
}" "$(tool "$NS" list chains ip u)"
check "add counter ip u cn { packets 5 bytes 6 }" tool "$NS" add counter ip u cn '{ packets 5 bytes 6; }'
expect_eq "reset counters ip u: listed as they were" "		packets 5 bytes 6" \
	"$(tool "$NS" reset counters ip u | grep packets)"
expect_eq "list counters ip u: reset" "table ip u {
	counter cn {
		packets 0 bytes 0
	}
}" "$(tool "$NS" list counters ip u)"
if tool "$NS" list chains ip x 2>/dev/null; then
	not_ok "list chains: a missing table is refused"
else
	ok "list chains: a missing table is refused"
fi
finish
