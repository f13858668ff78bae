#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: files/nfhook.service passes systemd-analyze verify without a
# warning (its man pages included), and its commands, run as systemd would
# split them: start loads the file, a reload with a bad file changes
# nothing, a reload with a good one replaces the ruleset (the flush and the
# file in one transaction), stop flushes
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_cmd systemd-analyze
require_root

dir=$(tmpdir)
mkdir -p "$dir/man/man8" "$dir/man/man5"
subst() {
	sed -e "s|@sbindir@|$REPO_DIR/src|g" -e "s|@sysconfdir@|$dir|g" \
		-e "s|@SYSCONFDIR@|$dir|g" -e "s|@VERSION@|test|g" "$REPO_DIR/$1"
}
subst files/nfhook.service.in >"$dir/nfhook.service"
subst doc/nfh.8.in >"$dir/man/man8/nfh.8"
subst doc/nfhook.conf.5.in >"$dir/man/man5/nfhook.conf.5"

rc=0
out=$(MANPATH=$dir/man systemd-analyze verify "$dir/nfhook.service" 2>&1) || rc=$?
expect_eq "systemd-analyze verify: no complaint" "0: " "$rc: $out"
# and it does complain: a unit naming a missing program fails
sed "s|^ExecStop=.*|ExecStop=$dir/missing flush ruleset|" "$dir/nfhook.service" >"$dir/broken.service"
if MANPATH=$dir/man systemd-analyze verify "$dir/broken.service" >/dev/null 2>&1; then
	not_ok "systemd-analyze verify rejects a missing program"
else
	ok "systemd-analyze verify rejects a missing program"
fi

for key in Type RemainAfterExit Before Wants; do
	grep "^$key=" "$dir/nfhook.service"
done >"$dir/keys"
expect_eq "a oneshot that stays active, before the network" \
"Type=oneshot
RemainAfterExit=yes
Before=network-pre.target shutdown.target
Wants=network-pre.target" "$(cat "$dir/keys")"

# run_exec KEY: the unit's ExecKEY= line, split into words as systemd does
# (its quoting is the shell's for these lines)
run_exec() {
	local line
	line=$(sed -n "s/^Exec$1=//p" "$dir/nfhook.service")
	eval "set -- $line"
	ip netns exec "$NS" "$@"
}

ns_new NS
cat >"$dir/nfhook.conf" <<'EOF2'
table netdev first {
	chain c {
		counter
	}
}
EOF2
check "start loads nfhook.conf" run_exec Start
expect_eq "start: the file's table is there" "table netdev first" \
	"$(tool "$NS" list tables)"

cat >"$dir/nfhook.conf" <<'EOF2'
table netdev second {
	chain c {
		counter drop
		bogus
	}
}
EOF2
rc=0
run_exec Reload >"$dir/out" 2>&1 || rc=$?
expect_eq "reload with a bad file fails" 1 "$rc"
if grep -q "$dir/nfhook.conf:4:" "$dir/out"; then
	ok "the error names nfhook.conf:4"
else
	not_ok "the error names nfhook.conf:4"
	diag <"$dir/out"
fi
expect_eq "a failed reload changes nothing" "table netdev first" \
	"$(tool "$NS" list tables)"

sed -i '/bogus/d' "$dir/nfhook.conf"
check "reload with a good file" run_exec Reload
expect_eq "reload replaced the ruleset" "table netdev second" \
	"$(tool "$NS" list tables)"

check "stop" run_exec Stop
expect_eq "stop flushed the ruleset" "" "$(tool "$NS" list ruleset)"
finish
