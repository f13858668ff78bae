#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: -e -a prints each new object's handle where nft -e -a does
# ("add rule ... # handle N", "add set ... { # handle N type ...; }"), an
# inserted rule echoes as "insert rule", a replaced one as the deletion and
# the new rule, named objects are echoed, and -j -e
# prints one {"nftables": [...]} a command line or file, as nft -j -e does
# (after JSON input: the document run, each command that made something
# given its handle, with no newline at the end, as nft 1.0.6 and 1.1.1 both
# do; a -j listing's objects, which name no command, too, their old
# handles replaced), each tool in its own namespace; byte for byte.
# A new rule's event that says which rule is before it prints that one as
# nft 1.0.6 does ("add rule ip t c handle 4 drop").
# nft 1.0.6 is wrong about "-j -e -f -" with nft syntax on standard input:
# it does nothing at all; nfh does what nft 1.1.1 does (runs it, echoes
# it as JSON).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft

ns_new MINE && ns_new NFT || exit 99
dir=$(tmpdir)
cat >"$dir/f.nft" <<'NFT'
table ip t {
	set s {
		type ipv4_addr
		elements = { 10.0.0.1 }
	}
	counter cnt { }
	chain c {
		type filter hook input priority 0;
		ip saddr @s counter accept
	}
}
NFT
cat >"$dir/j.json" <<'JSON'
{"nftables": [{"add": {"table": {"family": "ip", "name": "x"}}}, {"add": {"chain": {"family": "ip", "table": "x", "name": "c"}}}, {"add": {"rule": {"family": "ip", "table": "x", "chain": "c", "expr": [{"accept": null}]}}}]}
JSON
cat >"$dir/d.json" <<'JSON'
{"nftables": [{"delete": {"table": {"family": "ip", "name": "x"}}}]}
JSON
# a -j listing as input: objects with no command around them, with the
# handles of where they were listed; each is given the kernel's new handle,
# last, as nft does
cat >"$dir/l.json" <<'JSON'
{"nftables": [{"table": {"family": "ip", "name": "l", "handle": 99}}, {"chain": {"family": "ip", "table": "l", "name": "c", "handle": 99, "type": "filter", "hook": "input", "prio": 0, "policy": "accept"}}, {"rule": {"family": "ip", "table": "l", "chain": "c", "handle": 99, "expr": [{"accept": null}]}}]}
JSON
cat >"$dir/g.nft" <<'NFT'
add table ip y
add chain ip y c
insert rule ip y c drop
NFT
run_all() {
	local ns=$1
	shift
	# shellcheck disable=SC2068 # the tool's words are split on purpose
	{
		in_ns "$ns" $@ -e -a -f "$dir/f.nft"
		in_ns "$ns" $@ -e -a add rule ip t c ip daddr 1.2.3.4 counter
		in_ns "$ns" $@ -e -a insert rule ip t c tcp dport 22 drop
		in_ns "$ns" $@ -e insert rule ip t c tcp dport 23 drop
		in_ns "$ns" $@ -a -e add element ip t s '{ 10.0.0.2 }'
		in_ns "$ns" $@ -ea add table inet u
		in_ns "$ns" $@ -e -a add chain inet u c
		in_ns "$ns" $@ -e -a add chain inet u b '{ type filter hook output priority 0; }'
		in_ns "$ns" $@ -e -a add set inet u s '{ type ipv4_addr; flags interval; }'
		in_ns "$ns" $@ -e -a add counter ip t cnt2
		in_ns "$ns" $@ -e add quota ip t q '{ over 10 mbytes; }'
		in_ns "$ns" $@ -e -s add counter ip t cnt4 '{ comment "stateless"; }'
		in_ns "$ns" $@ -e -a add ct helper ip t h '{ type "ftp" protocol tcp; }'
		in_ns "$ns" $@ -j -e add rule ip t c ip daddr 1.2.3.5 counter
		in_ns "$ns" $@ -j -e insert rule ip t c tcp dport 24 drop
		in_ns "$ns" $@ -j -e -a add element ip t s '{ 10.0.0.3 }'
		in_ns "$ns" $@ -j -e add counter ip t cnt3
		in_ns "$ns" $@ -j -e add table ip z \; add chain ip z c \; add rule ip z c accept
		in_ns "$ns" $@ -j -e -f "$dir/g.nft"
		in_ns "$ns" $@ -j -e -f "$dir/j.json"
		echo
		in_ns "$ns" $@ -j -e -f "$dir/d.json"
		echo
		in_ns "$ns" $@ -j -e -f "$dir/l.json"
		echo
		in_ns "$ns" $@ -j -e delete table ip z
		# a replace echoes the rule it took out; a deletion, a flush or
		# a table that is there already echo nothing, not even the
		# generation
		h=$(in_ns "$ns" nft -a list chain ip t c | sed -n 's/.*1\.2\.3\.4 .*# handle //p')
		in_ns "$ns" $@ -e replace rule ip t c handle "$h" drop
		in_ns "$ns" $@ -e -a replace rule ip t c handle "$h" accept
		in_ns "$ns" $@ -j -e replace rule ip t c handle "$h" drop
		in_ns "$ns" $@ -e insert rule ip t c position "$h" accept
		in_ns "$ns" $@ -e delete rule ip t c handle "$h"
		in_ns "$ns" $@ -e add table ip t
		in_ns "$ns" $@ -e flush chain ip t c
		in_ns "$ns" $@ -e delete element ip t s '{ 10.0.0.1 }'
		in_ns "$ns" $@ -e add element inet u s '{ 10.1.0.0/16, 10.3.0.1 }'
		in_ns "$ns" $@ -e delete set inet u s
	} 2>&1 | sed 's/by process [0-9]* (.*)$/by process P/'
}
run_all "$NFT" nft >"$dir/want"
# shellcheck disable=SC2086
run_all "$MINE" $TOOL >"$dir/got"
if cmp -s "$dir/want" "$dir/got"; then
	ok "-e -a and -j -e print what nft prints"
else
	not_ok "-e -a and -j -e print what nft prints"
	diff -u "$dir/want" "$dir/got" | diag
fi
check "a rule's handle" grep -q '^add rule ip t c ip daddr 1.2.3.4 counter packets 0 bytes 0 # handle [0-9]*$' "$dir/got"
check "one JSON document a command" grep -q '^{"nftables": \[{"insert": {"rule": ' "$dir/got"
# shellcheck disable=SC2086
$TOOL --version 2>/dev/null | grep -q '^nfh ' || finish
# shellcheck disable=SC2086
got=$(echo "add table ip w" | in_ns "$MINE" $TOOL -j -e -f - | sed "s/\"handle\": [0-9]*/\"handle\": N/")
expect_eq "-j -e -f - with nft syntax, as nft 1.1.1" \
	'{"nftables": [{"add": {"table": {"family": "ip", "name": "w", "handle": N}}}]}' "$got"
finish
