#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a pktgen run that takes no measurable time (a one-frame run with
# the jiffies clocksource, where ktime_get() advances once per tick) reports
# a result instead of dividing by the zero elapsed time in show_results().
# Unpatched 6.12 oopses with "divide error" here (kernel/patches/
# 0001-pktgen-*.patch fixes it).  Needs CONFIG_NET_PKTGEN and a switchable
# clocksource, i.e. the test kernel; it changes the clocksource for the whole
# machine, so it only runs where NFH_IN_VM=1 (inside kernel/vm).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/kernel/lib-hooks.bash
. "$(dirname "$0")/lib-hooks.bash"
require_root

CS=/sys/devices/system/clocksource/clocksource0
if [ "${NFH_IN_VM:-}" != 1 ]; then
	echo "# changes the clocksource: runs only in the test VM (kernel/vm)"
	exit 77
fi
ns_pair "" ""
if ! in_ns "$NS_A" test -w /proc/net/pktgen/pgctrl; then
	echo "# kernel lacks pktgen (CONFIG_NET_PKTGEN)"
	exit 77
fi
old=$(cat "$CS/current_clocksource")
trap 'echo "$old" >"$CS/current_clocksource"; lib_cleanup' EXIT
check "switched to the jiffies clocksource" sh -c "echo jiffies >$CS/current_clocksource && grep -qx jiffies $CS/current_clocksource"

zero=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	# shellcheck disable=SC2016 # expanded by the inner sh
	r=$(in_ns "$NS_A" sh -e -c '
		pg() { echo "$2" >"/proc/net/pktgen/$1"; }
		pg kpktgend_0 rem_device_all
		pg kpktgend_0 "add_device $0"
		pg "$0" "count 1"
		pg "$0" "dst_mac ff:ff:ff:ff:ff:ff"
		pg pgctrl start
		sed -n "s/^Result: //p" "/proc/net/pktgen/$0"
	' "$VETH_A" 2>&1)
	case $r in
	"OK: 0(c0+d0) usec"*) zero=$((zero + 1)) ;;
	OK:*) ;;
	*) break ;;
	esac
done
check "10 one-frame runs each reported a result (last: $r)" grep -q '^OK:' <<<"$r"
check "at least one of them took 0 usec ($zero did)" test "$zero" -ge 1
in_ns "$NS_A" sh -c 'echo rem_device_all >/proc/net/pktgen/kpktgend_0'
finish
