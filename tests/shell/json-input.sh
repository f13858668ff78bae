#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: -j -f reads nft's JSON schema through the same evaluator as nft
# syntax; errors name file:line:col in the JSON with a caret; what it does
# not support yet is an error, never silently dropped.  The error texts are
# nfh's own: with another TOOL those checks are skipped.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

dir=$(tmpdir)
cd "$dir" || exit 99
ns_new NS || exit 99
nfh=0
$TOOL -V 2>/dev/null | grep -q nfhook && nfh=1

# nfh_only DESC: 0 if the check that follows applies to $TOOL
nfh_only() {
	[ $nfh = 1 ] && return 0
	echo "ok - $1 # SKIP nfh's own error text"
	return 1
}

cat >good.json <<'JSON'
{"nftables": [
 {"metainfo": {"json_schema_version": 1}},
 {"add": {"table": {"family": "inet", "name": "t"}}},
 {"add": {"chain": {"family": "inet", "table": "t", "name": "in",
   "type": "filter", "hook": "input", "prio": -10, "policy": "drop"}}},
 {"add": {"chain": {"family": "inet", "table": "t", "name": "other"}}},
 {"add": {"rule": {"family": "inet", "table": "t", "chain": "in", "comment": "web",
   "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "tcp", "field": "dport"}},
                       "right": {"set": [80, 443]}}},
            {"match": {"op": "in", "left": {"ct": {"key": "state"}}, "right": ["established", "related"]}},
            {"counter": null}, {"jump": {"target": "other"}}]}}},
 {"insert": {"rule": {"family": "inet", "table": "t", "chain": "in",
   "expr": [{"match": {"op": "!=", "left": {"payload": {"protocol": "ip", "field": "saddr"}},
                       "right": {"prefix": {"addr": "10.0.0.0", "len": 8}}}},
            {"limit": {"rate": 10, "per": "minute"}}, {"log": {"prefix": "x "}}, {"accept": null}]}}}
]}
JSON
cat >want <<'TXT'
table inet t {
	chain in {
		type filter hook input priority filter - 10; policy drop;
		ip saddr != 10.0.0.0/8 limit rate 10/minute log prefix "x " accept
		tcp dport { 80, 443 } ct state established,related counter packets 0 bytes 0 jump other comment "web"
	}

	chain other {
	}
}
TXT
expect_eq "JSON commands load and list as nft syntax" "$(cat want)" \
	"$( { tool "$NS" -j -f good.json && tool "$NS" list ruleset; } 2>&1)"
tool "$NS" flush ruleset
got=$(tool "$NS" -j -f - <good.json 2>&1; echo "rc=$?")
expect_eq "JSON from standard input" "rc=0" "$got"
tool "$NS" flush ruleset

tool "$NS" -j '{"nftables": [{"add": {"table": {"family": "ip", "name": "x"}}}]}'
got=$(tool "$NS" -j '{"nftables": [{"list": {"table": {"family": "ip", "name": "x"}}}]}' 2>&1)
case $got in
'{"nftables": [{"metainfo": '*'{"table": {"family": "ip", "name": "x", "handle": '[0-9]*'}}]}') ok "JSON command line, JSON listing" ;;
*) not_ok "JSON command line, JSON listing"; echo "$got" | diag ;;
esac
tool "$NS" -j 'add table ip y'
got=$(tool "$NS" -j 'list table ip y' 2>&1)
case $got in
'{"nftables": [{"metainfo": '*'{"table": {"family": "ip", "name": "y", "handle": '[0-9]*'}}]}') ok "-j with nft syntax input" ;;
*) not_ok "-j with nft syntax input"; echo "$got" | diag ;;
esac

# errors: file:line:col, the line, a caret under the value
cat >bad.json <<'JSON'
{"nftables": [
 {"add": {"table": {"family": "ip", "name": "t"}}},
 {"add": {"chain": {"family": "ip", "table": "t", "name": "c"}}},
 {"add": {"rule": {"family": "ip", "table": "t", "chain": "c",
   "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "ip", "field": "saddr"}}, "right": "10.0.0.300"}}]}}}
]}
JSON
got=$(tool "$NS" -j -f bad.json 2>&1; echo "rc=$?")
nfh_only "a bad value is reported where it sits in the JSON" && expect_eq "a bad value is reported where it sits in the JSON" \
'bad.json:5:104-115: Error: could not parse IPv4 address "10.0.0.300"
   "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "ip", "field": "saddr"}}, "right": "10.0.0.300"}}]}}}
                                                                                                       ^^^^^^^^^^^^
rc=1' "$got"

printf '{"nftables": [\n {"add": {"table": {"family": "ip" "name": "t"}}}\n]}\n' >syntax.json
got=$(tool "$NS" -j -f syntax.json 2>&1; echo "rc=$?")
nfh_only "invalid JSON is reported with its position" && expect_eq "invalid JSON is reported with its position" \
'syntax.json:2:36-41: Error: invalid JSON: '"'"'}'"'"' expected near '"'"'"name"'"'"'
 {"add": {"table": {"family": "ip" "name": "t"}}}
                                   ^^^^^^
rc=1' "$got"

printf '{"nftables": [{"add": {"tunnel": {"family": "ip", "table": "t", "name": "f"}}}]}\n' >ft.json
got=$(tool "$NS" -j -f ft.json 2>&1; echo "rc=$?")
nfh_only "unsupported objects are an error" && case $got in
*'Error: "tunnel" objects are not supported in JSON input yet'*rc=1) ok "unsupported objects are an error" ;;
*) not_ok "unsupported objects are an error"; echo "$got" | diag ;;
esac
printf '{"nftables": [{"add": {"table": {"family": "ip", "name": "t", "colour": "red"}}}]}\n' >key.json
got=$(tool "$NS" -j -f key.json 2>&1; echo "rc=$?")
nfh_only "unknown properties are an error" && case $got in
*'Error: table property "colour" is not supported'*rc=1) ok "unknown properties are an error" ;;
*) not_ok "unknown properties are an error"; echo "$got" | diag ;;
esac
# misspelt keys get the closest valid one, as in the nft language
rule='{"nftables": [{"add": {"table": {"family": "ip", "name": "t"}}}, {"add": {"chain": {"family": "ip", "table": "t", "name": "c"}}}, {"add": {"rule": {"family": "ip", "table": "t", "chain": "c", "expr": [%s]}}}]}\n'
for c in '{"acept": null}|unknown statement "acept"; did you mean "accept"?' \
	'{"match": {"op": "==", "left": {"metta": {"key": "mark"}}, "right": 1}}|unknown expression "metta"; did you mean "meta"?' \
	'{"match": {"op": "==", "lft": {"meta": {"key": "mark"}}, "right": 1}}|match property "lft" is not supported; did you mean "left"?' \
	'{"match": {"op": "=", "left": {"meta": {"key": "mark"}}, "right": 1}}|unknown operator "="; the operators are ==, !=, <, >, <=, >=, in and !'; do
	# shellcheck disable=SC2059 # the rule template
	printf "$rule" "${c%%|*}" >typo.json
	got=$(tool "$NS" -j -f typo.json 2>&1; echo "rc=$?")
	nfh_only "JSON: ${c#*|}" && case $got in
	*"Error: ${c#*|}"*rc=1) ok "JSON: ${c#*|}" ;;
	*) not_ok "JSON: ${c#*|}"; echo "$got" | diag ;;
	esac
done
printf '{"nftables": [{"ad": {"table": {"family": "ip", "name": "t"}}}]}\n' >cmd.json
got=$(tool "$NS" -j -f cmd.json 2>&1; echo "rc=$?")
nfh_only "JSON: a misspelt command" && case $got in
*'Error: unknown command or object "ad"; did you mean "add"?'*rc=1) ok "JSON: a misspelt command" ;;
*) not_ok "JSON: a misspelt command"; echo "$got" | diag ;;
esac
finish
