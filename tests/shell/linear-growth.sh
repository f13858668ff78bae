#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: work that grows linearly stays so at ten times the size: a chain
# of defines each naming the one before, rules the kernel refuses (each
# reported under its line), JSON "add table" commands and chains offline.
# bench/growth.sh times each at N and 10N; a ratio above 25 fails (linear
# gives about 10, quadratic about 100).  Not an absolute timing, so a
# loaded machine does not make it flake.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3 unshare timeout

out=$(NFH="$TOOL" MAX_RATIO=25 TIMEOUT=15 "$REPO_DIR/bench/growth.sh" 2>&1)
rc=$?
printf '%s\n' "$out" | diag
for c in defines refused json chains; do
	line=$(printf '%s\n' "$out" | awk -v c="$c" '$1 == c')
	ratio=${line##* }
	if [ -z "$line" ]; then
		not_ok "$c: not measured"
	elif [ "$ratio" != timeout ] &&
	     awk -v r="$ratio" 'BEGIN { exit !(r <= 25) }'; then
		ok "$c: 10x the size takes ${ratio}x the time"
	else
		not_ok "$c: 10x the size takes ${ratio}x the time (at most 25)"
	fi
done
[ $rc -le 1 ] || not_ok "bench/growth.sh failed (exit $rc)"
finish
