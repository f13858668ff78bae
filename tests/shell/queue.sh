#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: the queue statement.  Offline: its -j listing (nft 1.0.6's
# queue_stmt_json: "num" a number, a range or an expression, "flags" one
# string or an array) and -j input (the same batch as nft's, with nft).
# On a kernel without nft_queue (CONFIG_NFT_QUEUE): each load fails at the
# statement with a message that names it, and the ruleset is unchanged;
# with it, the rules load and list as parse/ok/72-queue.out says.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root || exit 77
dir=$(tmpdir)
cd "$dir" || exit 1
# shellcheck disable=SC2086 # $TOOL is split into words on purpose
nfh() { $TOOL "$@"; }

cat >q.nft <<'EOF2'
table ip t {
	chain c {
		type filter hook input priority 0; policy accept;
		queue
		queue num 2-5 fanout,bypass
		queue flags bypass to 7
		queue to jhash ip saddr mod 4
		queue flags bypass to tcp dport map { 22 : 3, 80 : 4 }
	}
}
EOF2

# --- offline: the -j listing ------------------------------------------------
{ cat q.nft; echo "list ruleset"; } | nfh --offline -j -f - >q.json 2>&1
rules=$(python3 -c '
import json, sys
for o in json.load(open(sys.argv[1]))["nftables"]:
    if "rule" in o:
        print(json.dumps(o["rule"]["expr"]))' q.json 2>&1)
expect_eq "-j lists queue as nft 1.0.6 does" \
'[{"queue": {"num": 0}}]
[{"queue": {"num": {"range": [2, 5]}, "flags": ["bypass", "fanout"]}}]
[{"queue": {"num": 7, "flags": "bypass"}}]
[{"queue": {"num": {"jhash": {"mod": 4, "expr": {"payload": {"protocol": "ip", "field": "saddr"}}}}}}]
[{"queue": {"num": {"map": {"key": {"payload": {"protocol": "tcp", "field": "dport"}}, "data": {"set": [[22, 3], [80, 4]]}}}, "flags": "bypass"}}]' \
	"$rules"

# --- offline: -j input ------------------------------------------------------
# the listing loads back as the same rules, and {"queue": null} is queue 0
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["nftables"].append({"rule": {"family": "ip", "table": "t", "chain": "c",
                      "expr": [{"queue": None}]}})
d["nftables"].append({"rule": {"family": "ip", "table": "t", "chain": "c",
                      "expr": [{"queue": {"flags": "fanout"}}]}})
json.dump(d, open(sys.argv[2], "w"))' q.json in.json
nfh --offline -j -c --debug=netlink -f in.json 2>&1 | grep -v '^$' >json.bc
check "-j input: the listing's rules make the text's bytecode" \
	sh -c 'grep -q "queue num 2-5 bypass fanout" json.bc && grep -q "queue sreg_qnum 1 bypass" json.bc &&
	       test "$(grep -c "queue num 0 fanout" json.bc)" = 1 &&
	       test "$(grep -c "queue num 0 \]" json.bc)" = 2'
check "-j input: bad flags are refused" sh -c '
	printf "%s" "{\"nftables\": [{\"add\": {\"table\": {\"family\": \"ip\", \"name\": \"t\"}}}, {\"add\": {\"chain\": {\"family\": \"ip\", \"table\": \"t\", \"name\": \"c\"}}}, {\"add\": {\"rule\": {\"family\": \"ip\", \"table\": \"t\", \"chain\": \"c\", \"expr\": [{\"queue\": {\"num\": 1, \"flags\": \"slow\"}}]}}}]}" |
	'"$TOOL"' --offline -j -c -f - 2>&1 | grep -q "unknown flag"'
if command -v nft >/dev/null 2>&1; then
	# nft prints the batch before the kernel refuses it (no nft_queue)
	unshare -n nft -j -c --debug=netlink -f in.json 2>/dev/null | grep -v '^$' >nft.bc
	expect_eq "-j input: the batch nft builds from the same JSON" \
		"$(cat nft.bc)" "$(cat json.bc)"
fi

# --- the kernel --------------------------------------------------------------
ns_new NS || exit 99
load "$NS" "a table without queue loads" <<'EOF2'
table ip keep {
	chain c {
		type filter hook input priority 0; policy accept;
		counter
	}
}
EOF2
before=$(tool "$NS" list ruleset)
if have_feature queue; then
	check "queue rules load" tool "$NS" -f q.nft
	check "and list" listing_has "$NS" '^[[:space:]]+queue flags bypass,fanout to 2-5$'
else
	tool "$NS" -f q.nft 2>err
	expect_eq "without nft_queue the load fails" 1 $?
	expect_eq "at the first queue, naming the kernel option" \
		'q.nft:4:3-7: Error: Could not process rule: this kernel has no queue support (CONFIG_NFT_QUEUE, module nft_queue); the ruleset is unchanged' \
		"$(sed -n 1p err)"
	expect_eq "with the caret under the statement" $'\t\tqueue\n\t\t^^^^^' "$(sed -n 2,3p err)"
	expect_eq "a statement with arguments: the whole of it" \
		'q.nft:6:3-25: Error: Could not process rule: this kernel has no queue support (CONFIG_NFT_QUEUE, module nft_queue); the ruleset is unchanged' \
		"$(grep -m1 '^q.nft:6:' err)"
	expect_eq "each queue rule is named" 5 "$(grep -c 'no queue support' err)"
	expect_eq "the ruleset is unchanged" "$before" "$(tool "$NS" list ruleset)"
fi
finish
