#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a background "monitor" sees exactly the objects (tables, chains,
# rules, sets, elements) that a concurrent "-f" adds and then deletes, in nft
# monitor's format; "monitor new rules" sees only the added rules; "-j
# monitor" prints one JSON object a line, one for each of those events
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3
# the system's python starts fast; a version manager's shim may not
py=/usr/bin/python3
[ -x "$py" ] || py=python3

dir=$(tmpdir)
ns_new NS || exit 99

in_ns "$NS" $TOOL monitor >>"$dir/all" 2>"$dir/all.err" &
pids=($!)
in_ns "$NS" $TOOL monitor new rules >>"$dir/rules" 2>&1 &
pids+=($!)
in_ns "$NS" $TOOL -j monitor >>"$dir/json" 2>&1 &
pids+=($!)
stop() { kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; }

# monitors listen once a probe shows up in each of them
for ((i = 0; i < 50; i++)); do
	tool "$NS" add table ip probe && tool "$NS" delete table ip probe
	if grep -q '^delete table ip probe$' "$dir/all" &&
	   grep -q '"delete": {"table": {"family": "ip", "name": "probe"' "$dir/json"; then
		break
	fi
	sleep 0.1
done
# the rules monitor has no probe to show: add and drop a rule for it
for ((i = 0; i < 50; i++)); do
	tool "$NS" -f - <<'EOF'
table ip probe { chain c { accept; }; }
EOF
	tool "$NS" delete table ip probe
	grep -q '^add rule ip probe c accept$' "$dir/rules" && break
	sleep 0.1
done
: >"$dir/all"
: >"$dir/json"
: >"$dir/rules"

tool "$NS" -f - <<'EOF'
table inet t {
	set blk {
		type ipv4_addr
		flags interval
		elements = { 10.0.0.0/8, 192.0.2.1 }
	}

	map ports {
		type inet_service : verdict
		elements = { 22 : accept }
	}

	chain in {
		type filter hook input priority filter; policy accept;
		tcp dport { 22, 80 } counter jump other comment "web"
		ip saddr 10.0.0.0/8 drop
	}

	chain other {
		ct state established,related accept
	}
}
table netdev n {
	chain c {
		ether type arp accept
	}
}
EOF
handle=$(tool "$NS" -a list chain inet t in | sed -n 's/.*drop # handle //p')
tool "$NS" -f - <<EOF
add element inet t blk { 198.51.100.0/24 }
delete element inet t blk { 192.0.2.1 }
delete rule inet t in handle $handle
delete chain netdev n c
delete table netdev n
delete table inet t
EOF
retry 50 grep -q '^delete table inet t$' "$dir/all"
retry 50 grep -q '"delete": {"table": {"family": "inet", "name": "t"' "$dir/json"
retry 50 grep -q 'ct state' "$dir/rules"
stop

# generation ids, process ids and names vary
sed -E 's/^# new generation [0-9]+ by process [0-9]+ \(.*\)$/# new generation N by process P/; s/handle [0-9]+$/handle H/' \
	"$dir/all" >"$dir/all.norm"
# a kernel that announces a deleted set whole (6.12; 6.18 names it alone)
# says that the rule's anonymous set is one, and nft leaves its deletion
# out then (shell/monitor-ruleset.sh compares with nft on each kernel);
# the JSON event of such a deleted set has its flags
anon_del='delete set inet t __set0
'
grep -q '"delete": {"set": {"family": "inet", "name": "blk", .*"flags": \["interval"\]' \
	"$dir/json" && anon_del=''
expect_eq "monitor prints each added and deleted object" \
'add table inet t
add chain inet t in { type filter hook input priority filter; policy accept; }
add chain inet t other
add set inet t blk { type ipv4_addr; flags interval; } 
add element inet t blk { 10.0.0.0/8 }
add element inet t blk { 192.0.2.1 }
add map inet t ports { type inet_service : verdict; } 
add element inet t ports { 22 : accept }
add rule inet t in tcp dport { 22, 80 } counter packets 0 bytes 0 jump other comment "web"
add rule inet t in ip saddr 10.0.0.0/8 drop
add rule inet t other ct state established,related accept
add table netdev n
add chain netdev n c
add rule netdev n c ether type arp accept
# new generation N by process P
add element inet t blk { 198.51.100.0/24 }
delete element inet t blk { 192.0.2.1 }
delete rule inet t in handle H
delete rule netdev n c handle H
delete chain netdev n c
delete table netdev n
delete rule inet t in handle H
'"$anon_del"'delete rule inet t other handle H
delete set inet t blk
delete set inet t ports
delete chain inet t in
delete chain inet t other
delete table inet t
# new generation N by process P' "$(cat "$dir/all.norm")"
expect_eq "monitor prints no errors" "" "$(cat "$dir/all.err")"

expect_eq "monitor new rules prints only the added rules" \
'add rule inet t in tcp dport { 22, 80 } counter packets 0 bytes 0 jump other comment "web"
add rule inet t in ip saddr 10.0.0.0/8 drop
add rule inet t other ct state established,related accept
add rule netdev n c ether type arp accept' "$(cat "$dir/rules")"

# each text event but the generation lines has its JSON object, in order
got=$("$py" - "$dir/all.norm" "$dir/json" <<'EOF'
import json, sys
text = [l.split() for l in open(sys.argv[1]) if not l.startswith("#")]
objs = [json.loads(l) for l in open(sys.argv[2])]
if len(text) != len(objs):
    print(f"{len(text)} events as text, {len(objs)} as JSON")
for words, obj in zip(text, objs):
    op, kind = words[0], words[1]
    inner = obj.get(op, {}).get(kind)
    # a deleted map announced whole is a "map" in JSON, as nft's
    if not inner and kind == "set":
        inner = obj.get(op, {}).get("map")
    if not inner or inner.get("family") != words[2] or inner.get("table", inner.get("name")) != words[3]:
        print("text:", " ".join(words))
        print("json:", json.dumps(obj))
        break
EOF
)
expect_eq "-j monitor prints the same events as JSON, one a line" "" "$got"
finish
