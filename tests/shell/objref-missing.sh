#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: a file that evaluates but names an object the kernel does not
# hold (counter, quota, limit, ct helper, ct timeout, ct expectation,
# secmark, synproxy; in a rule, or as the value of an element of a map of
# objects) gets an error in words at the name, with "did you mean" from
# the objects of that type the file makes and the kernel holds, never a
# bare "No such file or directory"; so does a jump or goto to a chain that
# does not exist; nothing is loaded, with -c or without.
# objref-missing/refs.nft runs against base.nft, golden refs.err.  nft's
# behaviour is the minimum: the lines nft names, nfh names too.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root

src=$(cd "$(dirname "$0")/objref-missing" && pwd)
ns_new NS || exit 99
dir=$(tmpdir)
cp "$src/refs.nft" "$dir/refs.nft"
cd "$dir" || exit 1

load "$NS" "the ruleset the references run against loads" <"$src/base.nft"
before=$(tool "$NS" list ruleset)

lines_of() { sed -n "s/^$1:\([0-9]*\):.*Error: .*/\1/p" "$2" | sort -nu; }

for mode in "-c -f" -f; do
	# shellcheck disable=SC2086 # $mode is two words
	tool "$NS" $mode refs.nft >out 2>refs.err
	expect_eq "nfh $mode: exit status 1" 1 $?
	if diff -u "$src/refs.err" refs.err >diff.out; then
		ok "nfh $mode: the errors are the golden's"
	else
		not_ok "nfh $mode: the errors are the golden's"
		diag <diff.out
	fi
	if grep -q 'No such file or directory' refs.err; then
		not_ok "nfh $mode: no error is a bare errno"
		grep 'No such file or directory' refs.err | diag
	else
		ok "nfh $mode: no error is a bare errno"
	fi
	expect_eq "nfh $mode: the ruleset is unchanged" "$before" \
		"$(tool "$NS" list ruleset)"
done

if command -v nft >/dev/null; then
	ip netns exec "$NS" nft -c -f refs.nft 2>nft.err
	expect_eq "nft -c: refs.nft is refused" 1 $?
	expect_eq "nfh names each line nft names ($(lines_of refs.nft nft.err | wc -l) of them)" "" \
		"$(comm -23 <(lines_of refs.nft nft.err) <(lines_of refs.nft refs.err))"
fi
finish
