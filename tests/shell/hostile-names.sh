#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a listing always loads back as the ruleset it lists, or not at
# all.  Names are letters, digits and _ . / - : (nft's bare identifiers):
# others ({ } ; blanks, quotes, newlines) are refused in quoted and JSON
# names.  A legal name that a bare word cannot say (a keyword, "a:b",
# "1x") lists quoted and reloads as itself; one with a slash is a bare
# word, as in nft ("a/b", listed as it is).  Names another tool put in the
# kernel (nft -j takes any string) list quoted and escaped, and so do
# strings (interface names, log prefixes, comments): such a listing
# fails to load rather than loading other objects ("x}\ntable ip evil {"
# once listed as a hidden table).  Text, -j and monitor are covered.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3

dir=$(tmpdir)
cd "$dir" || exit 99
ns_new A || exit 99
ns_new B || exit 99

# --- legal names that need quotes: they list quoted and reload the same
cat >legal.nft <<'NFT'
table ip "add" {
	counter "counter" {
	}

	set "s/1.x-y" {
		type ipv4_addr
	}

	map "v:m" {
		type ipv4_addr : verdict
	}

	chain "tcp" {
	}

	chain to {
		ip saddr @"s/1.x-y" jump "a:b"
		counter name "counter" goto "a/b"
		ip saddr vmap @"v:m"
		ip daddr vmap { 10.0.0.1 : jump "tcp", 10.0.0.2 : goto "1abc" }
	}

	chain "a/b" {
	}

	chain "a:b" {
	}

	chain "1abc" {
	}
}
table inet "ip" {
}
NFT
check "quoted legal names load" tool "$A" -f legal.nft
tool "$A" list ruleset >list1 2>&1
want=$(sed -e 's/^\tcounter "counter" {$/&\n\t\tpackets 0 bytes 0/' \
	-e 's|"s/1.x-y"|s/1.x-y|g; s|"a/b"|a/b|g' legal.nft)
expect_eq "they list quoted where a bare word would not read back" \
	"$want" "$(cat list1)"
check "the listing loads into a fresh namespace" tool "$B" -f list1
expect_eq "and lists the same there" "$(cat list1)" "$(tool "$B" list ruleset 2>&1)"
tool "$A" -j list ruleset >list1.json
tool "$B" flush ruleset
check "the -j listing loads with -j" tool "$B" -j -f list1.json
expect_eq "and lists the same" "$(cat list1)" "$(tool "$B" list ruleset 2>&1)"
tool "$A" flush ruleset
tool "$B" flush ruleset

# --- names no ruleset may hold are refused, in text and JSON
printf 'table ip "a b" { }\ntable ip t { chain "c;d" { }; }\nadd set ip t "x}y" { type ipv4_addr; }\n' >bad.nft
got=$(tool "$A" -f bad.nft 2>&1; echo "rc=$?")
expect_eq "text: blanks, ; and } in quoted names are refused" \
'bad.nft:1:10-14: Error: table name "a b" holds '"' '"': a name is letters, digits and _ . / - : only
table ip "a b" { }
         ^^^^^
bad.nft:2:20-24: Error: chain name "c;d" holds '"';'"': a name is letters, digits and _ . / - : only
table ip t { chain "c;d" { }; }
                   ^^^^^
bad.nft:3:14-18: Error: set name "x}y" holds '"'}'"': a name is letters, digits and _ . / - : only
add set ip t "x}y" { type ipv4_addr; }
             ^^^^^
rc=1' "$got"
cat >bad.json <<'JSON'
{"nftables": [{"add": {"table": {"family": "ip", "name": "x}\ntable ip evil {"}}}]}
JSON
got=$(tool "$A" -j -f bad.json 2>&1; echo "rc=$?")
expect_eq "JSON: a newline in a name is refused" \
'bad.json:1:58-78: Error: table name holds byte 0x0a: a name is letters, digits and _ . / - : only
{"nftables": [{"add": {"table": {"family": "ip", "name": "x}\ntable ip evil {"}}}]}
                                                         ^^^^^^^^^^^^^^^^^^^^^
rc=1' "$got"
expect_eq "nothing was loaded" "" "$(tool "$A" list ruleset 2>&1)"

# --- names in a raw kernel dump: not UTF-8, control bytes, quotes (the
# fuzz target's replay lists a dump as "nfh list ruleset" does)
fz=$REPO_DIR/tests/fuzz/fuzz-netlink
if [ -x "$fz" ] && $TOOL -V 2>/dev/null | grep -q nfhook; then
	expect_eq "names from a raw dump list quoted and escaped" \
'table ip "x\"}\x0a\xff;{ " {
	set "s }@\xc3\xa9;\"" {
		type ipv4_addr
	}

	chain "c\\\" {\x09\x1b\x01" {
	}

	chain "in\x7fput:/" {
		ip saddr @"s }@\xc3\xa9;\"" jump "c\\\" {\x09\x1b\x01" comment "ok\" } \x0a\""
	}
}' "$(NFH_FUZZ_LIST=1 "$fz" "$REPO_DIR/tests/fuzz/regress/netlink/hostile-names-listed-escaped")"
else
	echo "ok - names from a raw dump # SKIP no tests/fuzz/fuzz-netlink"
fi

# --- names another tool put in the kernel
command -v nft >/dev/null || { echo "ok - hostile kernel names # SKIP needs nft"; finish; }
in_ns "$A" $TOOL monitor >mon 2>&1 &
mon=$!
retry 50 sh -c "ip netns exec $A $TOOL add table ip probe; grep -q probe mon"
tool "$A" delete table ip probe
cat >evil.json <<'JSON'
{"nftables": [
 {"add": {"table": {"family": "ip", "name": "x}\ntable ip evil {\n chain input { type filter hook input priority 0; policy drop; }\n}\ntable ip y {"}}},
 {"add": {"table": {"family": "ip", "name": "t"}}},
 {"add": {"chain": {"family": "ip", "table": "t", "name": "c\" { }"}}},
 {"add": {"chain": {"family": "ip", "table": "t", "name": "in"}}},
 {"add": {"set": {"family": "ip", "table": "t", "name": "s }; table ip evil2 {", "type": "ipv4_addr"}}},
 {"add": {"rule": {"family": "ip", "table": "t", "chain": "in", "comment": "ok\" } table ip evil3 { \"",
   "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "ip", "field": "saddr"}},
                       "right": "@s }; table ip evil2 {"}}, {"jump": {"target": "c\" { }"}}]}}},
 {"add": {"rule": {"family": "ip", "table": "t", "chain": "in",
   "expr": [{"match": {"op": "==", "left": {"meta": {"key": "iifname"}}, "right": "a\" accept; }"}},
            {"log": {"prefix": "x\" accept; } } table ip evil4 { chain c { log prefix \"y"}}]}}}
]}
JSON
ip netns exec "$A" nft -j -f evil.json
tool "$A" list ruleset >list2 2>&1
expect_eq "kernel names list quoted, with quotes and newlines escaped" \
'table ip "x}\x0atable ip evil {\x0a chain input { type filter hook input priority 0; policy drop; }\x0a}\x0atable ip y {" {
}
table ip t {
	set "s }; table ip evil2 {" {
		type ipv4_addr
	}

	chain "c\" { }" {
	}

	chain in {
		ip saddr @"s }; table ip evil2 {" jump "c\" { }" comment "ok\" } table ip evil3 { \""
		iifname "a\" accept; }" log prefix "x\" accept; } } table ip evil4 { chain c { log prefix \"y"
	}
}' "$(cat list2)"
tool "$B" flush ruleset
got=$(tool "$B" -f list2 >/dev/null 2>&1; echo "rc=$?")
expect_eq "that listing does not load" "rc=1" "$got"
expect_eq "and loads nothing, no hidden table" "" "$(tool "$B" list ruleset 2>&1)"
got=$(tool "$A" -j list ruleset | python3 -c '
import json, sys
names = []
for o in json.load(sys.stdin)["nftables"]:
    for k in ("table", "chain", "set"):
        if k in o:
            names.append(o[k]["name"])
print("\n".join(names))')
expect_eq "-j lists the names as JSON strings, intact" \
'x}
table ip evil {
 chain input { type filter hook input priority 0; policy drop; }
}
table ip y {
t
s }; table ip evil2 {
c" { }
in' "$got"
retry 50 grep -q 'evil2' mon
kill "$mon" 2>/dev/null
wait "$mon" 2>/dev/null
expect_eq "monitor quotes and escapes them too" \
'add table ip "x}\x0atable ip evil {\x0a chain input { type filter hook input priority 0; policy drop; }\x0a}\x0atable ip y {"
add table ip t
add chain ip t "c\" { }"
add chain ip t in
add set ip t "s }; table ip evil2 {" { type ipv4_addr; } ' \
	"$(grep -v probe mon | grep -v '^# new generation' | head -5)"
finish
