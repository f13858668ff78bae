#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: nft 1.1's destroy, for every kind of object, as text and as
# JSON: destroying what is missing succeeds and changes nothing (the
# kernel's NFT_MSG_DESTROY*, Linux 6.3), destroying what is there removes
# it, as delete does; a table, chain, rule by handle, set, map, element,
# and each named object kind (secmark only when missing: the host has no
# security module to give one an id)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature ct_timeout ct_expect synproxy

ns_new NS || exit 99
load "$NS" <<'RULES'
table inet t {
	counter cnt { }
	quota q { 100 bytes }
	limit l { rate 10/second }
	ct helper h { type "ftp" protocol tcp; }
	ct timeout tmo { protocol tcp; l3proto ip; policy = { established : 120 }; }
	ct expectation e { protocol tcp; l3proto ip; dport 22; timeout 1s; size 1; }
	synproxy sp { mss 1460 wscale 7; }
	set s { type ipv4_addr; elements = { 10.0.0.1, 10.0.0.2 }; }
	map m { type ipv4_addr : mark; elements = { 10.0.0.1 : 1 }; }
	chain c { counter; }
	chain d { }
}
table ip u { }
RULES
before=$(tool "$NS" list ruleset)

missing='destroy table ip nope
destroy chain inet t nope
destroy set inet t nope
destroy map inet t nope
destroy element inet t s { 10.9.9.9 }
destroy rule inet t c handle 999
destroy counter inet t nope
destroy quota inet t nope
destroy limit inet t nope
destroy ct helper inet t nope
destroy ct timeout inet t nope
destroy ct expectation inet t nope
destroy synproxy inet t nope
destroy secmark inet t nope'
check "destroy of what is missing succeeds" tool "$NS" -f - <<<"$missing"
expect_eq "and changes nothing" "$before" "$(tool "$NS" list ruleset)"
json='{"nftables": [{"destroy": {"table": {"family": "ip", "name": "nope"}}},
 {"destroy": {"chain": {"family": "inet", "table": "t", "name": "nope"}}},
 {"destroy": {"set": {"family": "inet", "table": "t", "name": "nope"}}},
 {"destroy": {"counter": {"family": "inet", "table": "t", "name": "nope"}}},
 {"destroy": {"element": {"family": "inet", "table": "t", "name": "s", "elem": ["10.9.9.9"]}}}]}'
check "so does its JSON form" tool "$NS" -j -f - <<<"$json"
expect_eq "which changes nothing either" "$before" "$(tool "$NS" list ruleset)"

handle=$(tool "$NS" -a list chain inet t c | sed -n 's/.*counter.*# handle \([0-9]*\)$/\1/p')
present="destroy rule inet t c handle $handle
destroy element inet t s { 10.0.0.1 }
destroy chain inet t d
destroy map inet t m
destroy counter inet t cnt
destroy quota inet t q
destroy limit inet t l
destroy ct helper inet t h
destroy ct timeout inet t tmo
destroy ct expectation inet t e
destroy synproxy inet t sp"
check "destroy of what is there succeeds" tool "$NS" -f - <<<"$present"
expect_eq "and removes each" "table inet t {
	set s {
		type ipv4_addr
		elements = { 10.0.0.2 }
	}

	chain c {
	}
}
table ip u {
}" "$(tool "$NS" list ruleset)"
check "JSON destroy of a set that is there" tool "$NS" -j -f - <<<'{"nftables": [{"destroy": {"set": {"family": "inet", "table": "t", "name": "s"}}}, {"destroy": {"table": {"family": "ip", "name": "u"}}}]}'
expect_eq "removes it, and the table" "table inet t {
	chain c {
	}
}" "$(tool "$NS" list ruleset)"
finish
