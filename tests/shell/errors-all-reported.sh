#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a file with a syntax error early on still has its later errors
# reported (syntax and evaluation, the rules read before the error having
# streamed), and nothing of it reaches the kernel; a nat statement in a
# filter chain that the kernel refuses is told what it needs, and a rule
# for a missing table or chain which one is missing and what was meant
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_feature netdev_ingress

ns_new NS_B
dir=$(tmpdir)

load "$NS_B" "first ruleset loads" <<EOF
table ip keep {
	chain c {
		ip saddr 10.0.0.9 counter drop
	}
}
EOF
before=$(tool "$NS_B" list ruleset)

{
	echo 'flush ruleset'
	echo 'table ip t {'
	echo '	chain c {'
	for i in $(seq 1 200); do echo "		ip saddr 10.1.0.$((i % 250)) drop"; done
	echo '		tcp dport 22 accpet'
	for i in $(seq 1 50); do echo "		ip daddr 10.2.0.$i drop"; done
	echo '		udp dport 99999 drop'
	echo '		ip saddr @nosuchset drop'
	echo '	}'
	echo '}'
} >"$dir/mixed.nft"

tool "$NS_B" -f "$dir/mixed.nft" >"$dir/out" 2>"$dir/err"
expect_eq "mixed errors: exit status 1" 1 $?
expect_eq "mixed errors: three errors" 3 "$(grep -c ': Error: ' "$dir/err")"
for want in 'mixed.nft:204:.*did you mean "accept"' 'mixed.nft:255:.*exceeds valid range' \
	    'mixed.nft:256:.*"nosuchset" does not exist'; do
	if grep -q "$want" "$dir/err"; then
		ok "mixed errors: $want"
	else
		not_ok "mixed errors: $want"
		diag <"$dir/err"
	fi
done
expect_eq "mixed errors: ruleset unchanged" "$before" "$(tool "$NS_B" list ruleset)"

# nat in a filter chain: the kernel refuses it at commit; nfh before it
# sends anything, with -c too
if tool "$NS_B" -f - 2>/dev/null <<EOF
table ip natprobe {
	chain pre {
		type nat hook prerouting priority dstnat;
		tcp dport 8080 dnat to 10.0.0.1
	}
}
delete table ip natprobe
EOF
then
	tool "$NS_B" -f - >/dev/null 2>"$dir/nat.err" <<EOF
table ip f {
	chain c {
		type filter hook input priority 0;
		tcp dport 22 dnat to 10.0.0.1
	}
}
EOF
	expect_eq "dnat in a filter chain: exit status 1" 1 $?
	if grep -q '4:16-31: Error: dnat needs a chain of type nat, this one is of type filter' "$dir/nat.err"; then
		ok "dnat in a filter chain: the error says nat needs a nat chain"
	else
		not_ok "dnat in a filter chain: the error says nat needs a nat chain"
		diag <"$dir/nat.err"
	fi
else
	echo "# kernel lacks nat: skipping that part"
fi
# a rule for a table or chain that does not exist: which, and the one meant
cat >"$dir/names.nft" <<EOF
table ip named {
	chain input {
	}
}
add rule ip named inpt drop
add rule ip namd input drop
EOF
tool "$NS_B" -f "$dir/names.nft" >/dev/null 2>"$dir/names.err"
expect_eq "missing names: exit status 1" 1 $?
for want in 'names.nft:5:.*chain "inpt" does not exist in table ip named; did you mean "input"' \
	    'names.nft:6:.*table "namd" does not exist in family ip; did you mean "named"'; do
	if grep -q "$want" "$dir/names.err"; then
		ok "missing names: $want"
	else
		not_ok "missing names: $want"
		diag <"$dir/names.err"
	fi
done
# JSON: what parsed around a statement nfh cannot read is evaluated still
cat >"$dir/bad.json" <<'EOF'
{"nftables": [{"add": {"table": {"family": "ip", "name": "t"}}},
 {"add": {"chain": {"family": "ip", "table": "t", "name": "c", "type": "filter", "hook": "inptu", "prio": 0}}},
 {"add": {"rule": {"family": "ip", "table": "t", "chain": "c", "expr": [{"accpet": null}]}}},
 {"add": {"rule": {"family": "ip", "table": "t", "chain": "c", "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "ip", "field": "saddr"}}, "right": "@nosuchset"}}]}}}]}
EOF
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
$TOOL -j --offline -c -f "$dir/bad.json" >/dev/null 2>"$dir/json.err"
expect_eq "JSON: exit status 1" 1 $?
for want in 'bad.json:2:.*unknown hook "inptu" for family ip; did you mean "input"' \
	    'bad.json:3:.*"accpet"' 'bad.json:4:.*"nosuchset" does not exist'; do
	if grep -q "$want" "$dir/json.err"; then
		ok "JSON: $want"
	else
		not_ok "JSON: $want"
		diag <"$dir/json.err"
	fi
done
# an error of evaluation and one only the kernel finds (a kernel without
# queue support: the host's), in one file: both are named, as nft names
# both (its evaluation passes ct in the bridge family, which the kernel
# refuses), and nothing is applied
printf 'table bridge q {\n\tchain c {\n\t\ttype filter hook input priority 0;\n\t\tqueue num 3\n\t}\n}\n' >"$dir/queue.nft"
if tool "$NS_B" -c -f "$dir/queue.nft" 2>&1 | grep -q 'no queue support'; then
	cat >"$dir/kmix.nft" <<'EOF'
table bridge q {
	chain c {
		type filter hook input priority 0;
		ct state established accept
		ether type ip counter
		queue num 3
	}
}
EOF
	tool "$NS_B" -c -f "$dir/kmix.nft" >/dev/null 2>"$dir/kmix.err"
	expect_eq "evaluation and kernel errors (-c): exit status 1" 1 $?
	for want in 'kmix.nft:4:.*conntrack is not available in the bridge family' \
		    'kmix.nft:6:.*no queue support'; do
		if grep -q "$want" "$dir/kmix.err"; then
			ok "evaluation and kernel errors (-c): $want"
		else
			not_ok "evaluation and kernel errors (-c): $want"
			diag <"$dir/kmix.err"
		fi
	done
	# without -c nothing reaches the kernel once evaluation failed
	# (as with nft): the rule handles stay as they were
	tool "$NS_B" -f "$dir/kmix.nft" >/dev/null 2>"$dir/kmix.err"
	expect_eq "evaluation error without -c: exit status 1" 1 $?
	expect_eq "evaluation error without -c: only the evaluation's error" 1 \
		"$(grep -c ': Error: ' "$dir/kmix.err")"
else
	ok "evaluation and kernel errors: skipped, this kernel has queue support # SKIP"
fi
expect_eq "ruleset unchanged at the end" "$before" "$(tool "$NS_B" list ruleset)"
finish
