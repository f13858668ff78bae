#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: run as an unprivileged user (uid 65534, no capabilities), kernel
# commands fail with exit 1 and say permission is missing (a file with an
# error, that its other commands were not checked against the kernel), and change
# nothing; offline checking and listing (where $TOOL has --offline) work
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd setpriv

ns_new NS
dir=$(tmpdir)
chmod 755 "$dir"
cat >"$dir/rules.nft" <<'NFT'
table ip t {
	chain c {
		type filter hook input priority 0; policy accept;
		ip saddr 192.0.2.1 counter drop
	}
}
NFT
chmod 644 "$dir/rules.nft"

nobody() {
	# shellcheck disable=SC2086 # $TOOL is split into words on purpose
	timeout 20 ip netns exec "$NS" setpriv --reuid=65534 --regid=65534 \
		--clear-groups --inh-caps=-all $TOOL "$@"
}

# denied DESC ARGS...: exit 1 and a message that names the missing permission
denied() {
	local desc=$1 rc
	shift
	nobody "$@" >"$dir/out" 2>"$dir/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -Eiq 'not permitted|permission|CAP_NET_ADMIN' "$dir/err"; then
		ok "$desc: exit 1, \"$(head -n 1 "$dir/err")\""
	else
		not_ok "$desc: exit status $rc, a message about permission"
		diag <"$dir/err"
	fi
}

denied "list ruleset" list ruleset
denied "-f rules.nft" -f "$dir/rules.nft"
denied "-c -f rules.nft" -c -f "$dir/rules.nft"
denied "flush ruleset" flush ruleset
# a file with an error: the others are checked against the kernel's
# ruleset, which cannot be read; said, with the error itself
printf '%s\n' 'add table ip u' 'add rule ip u c tcp dport 22 accpet' >"$dir/typo.nft"
chmod 644 "$dir/typo.nft"
denied "-f typo.nft" -f "$dir/typo.nft"
expect_eq "-f typo.nft: the typo, and that the rest was not checked" \
	"typo.nft:2:30-35: Error: syntax error, unexpected string, expecting a verdict, a statement or end of rule; did you mean \"accept\"?
Error: the other commands were not checked against the kernel's ruleset: listing the ruleset needs CAP_NET_ADMIN (run as root): Operation not permitted" \
	"$(grep 'Error:' "$dir/err" | sed 's|^.*/typo.nft|typo.nft|')"
expect_eq "nothing was loaded" "" "$(tool "$NS" list ruleset)"

if ! $TOOL --offline -c -f /dev/null >/dev/null 2>&1; then
	echo "ok - offline checks # SKIP $TOOL has no --offline"
	finish
fi
nobody --offline -c -f "$dir/rules.nft" >"$dir/out" 2>"$dir/err"
expect_eq "--offline -c -f rules.nft works unprivileged" "0 " "$? $(cat "$dir/err")"
listing=$( (cat "$dir/rules.nft"; echo "list ruleset") | nobody --offline -f - 2>&1)
if grep -q 'ip saddr 192.0.2.1 counter packets 0 bytes 0 drop' <<<"$listing"; then
	ok "--offline loads and lists unprivileged"
else
	not_ok "--offline loads and lists unprivileged"
	diag <<<"$listing"
fi
finish
