#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: nfh believes only what the kernel sends.  Another process of the
# namespace (tests/nl-forge.py) sends to nfh's netlink port, from its own
# socket: NLMSG_ERROR(-ERESTART) and (-EPERM) replies while a 20,000-rule
# batch goes (the batch still commits once: exit 0, 20,000 rules, not
# 40,000), a table and a rule while the ruleset is listed (the listing is
# the same as without them), and a new-table event to "monitor" (not shown)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
py=/usr/bin/python3
[ -x "$py" ] || py=python3
require_cmd "$py"
forge=$LIB_DIR/nl-forge.py

ns_new NS || exit 99
dir=$(tmpdir)
in_ns "$NS" "$py" "$forge" ports $$ >/dev/null
[ $? -eq 77 ] && { echo "# no netlink socket for the forger"; exit 77; }

"$py" - "$dir/big.nft" <<'PY'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('table ip t {\n\tchain c {\n')
    for i in range(1, 20001):
        f.write('\t\tip saddr 10.%d.%d.%d counter\n'
                % (i // 65536, (i // 256) % 256, i % 256))
    f.write('\t}\n}\n')
PY

rules() { tool "$NS" list ruleset | grep -c 'counter packets'; }

# --- batch replies ------------------------------------------------------
# (the forger starts on nfh's socket as soon as it exists; a try in which
# it sent nothing before nfh was done proves nothing, and goes again)
sent=0
for ((try = 0; try < 5 && sent == 0; try++)); do
	tool "$NS" flush ruleset
	ip netns exec "$NS" $TOOL -f "$dir/big.nft" >"$dir/load.out" 2>"$dir/load.err" &
	pid=$!
	sent=$(in_ns "$NS" "$py" "$forge" restart "$pid" 20)
	wait "$pid"
	rc=$?
done
if [ "$sent" -eq 0 ]; then
	echo "# the forger never reached nfh's socket in time"
	exit 77
fi
echo "# $sent forged datagrams during the load"
expect_eq "a load under forged ERESTART/EPERM replies exits 0" 0 "$rc"
expect_eq "and says nothing but that it ignored them" "" \
	"$(grep -v '^Warning: ignored [0-9]* netlink message' "$dir/load.err")"
expect_eq "the batch is committed once: 20000 rules" 20000 "$(rules)"

# --- dump replies -------------------------------------------------------
# (the same 20,000 rules, whatever the load above did)
tool "$NS" flush ruleset
tool "$NS" -f "$dir/big.nft" || exit 99
tool "$NS" list ruleset >"$dir/clean"
sent=0 bad=0 tries=0
for ((try = 0; try < 3; try++)); do
	ip netns exec "$NS" $TOOL list ruleset >"$dir/list" 2>"$dir/list.err" &
	pid=$!
	n=$(in_ns "$NS" "$py" "$forge" dump "$pid" 20 t c)
	wait "$pid" || bad=$((bad + 1))
	sent=$((sent + n))
	tries=$((tries + 1))
	cmp -s "$dir/clean" "$dir/list" || bad=$((bad + 1))
	grep -v '^Warning: ignored [0-9]* netlink message' "$dir/list.err" | diag
done
echo "# $sent forged datagrams during $tries listings"
if [ "$sent" -eq 0 ]; then
	echo "# the forger never reached nfh's socket in time"
	exit 77
fi
expect_eq "listings under forged dump replies are the kernel's ruleset" 0 "$bad"
grep -q forged "$dir/list" && not_ok "no forged table or rule listed" ||
	ok "no forged table or rule listed"

# --- monitor ------------------------------------------------------------
tool "$NS" flush ruleset
ip netns exec "$NS" $TOOL monitor >"$dir/mon" 2>"$dir/mon.err" &
mon=$!
trap 'kill $mon 2>/dev/null; lib_cleanup' EXIT
for ((i = 0; i < 50; i++)); do
	tool "$NS" add table ip probe && tool "$NS" delete table ip probe
	grep -q '^delete table ip probe$' "$dir/mon" && break
	sleep 0.1
done
in_ns "$NS" "$py" "$forge" event "$mon"
tool "$NS" add table ip after
retry 30 grep -q '^add table ip after$' "$dir/mon"
kill "$mon"
wait "$mon" 2>/dev/null
if grep -q '^add table ip after$' "$dir/mon"; then
	ok "monitor shows the kernel's event after the forged ones"
else
	not_ok "monitor shows the kernel's event after the forged ones"
fi
if grep -q forged "$dir/mon"; then
	not_ok "monitor prints no forged event"
	diag <"$dir/mon"
else
	ok "monitor prints no forged event"
fi
grep -q 'ignored .* not come from the kernel' "$dir/mon.err" &&
	ok "and says on stderr that it ignored them" ||
	not_ok "and says on stderr that it ignored them"
finish
