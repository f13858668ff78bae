#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: against the kernel, a file whose syntax or evaluation errors keep
# it from being sent still gets the errors the kernel would give its other
# commands (an element that exists with create, a table, chain, set or
# object that does not exist or is in use, a jump to a missing chain, a
# rule handle that is not there, a hook that cannot change), found by the
# offline model run over the kernel's ruleset as it is; each once, none
# for what depends on a command that failed, and the ruleset unchanged.
#
# errors-kernel-model/cases.nft has commands that pass evaluation, one a
# line, many of them refused by the kernel; others.nft has syntax and
# evaluation errors.  nfh -c sends cases.nft alone, and the kernel's answer
# names the lines the model must name when the two files are loaded as one
# (where the model's wording differs from the kernel's errno, the line's
# message tells who answered).  all.err is the golden of that run.  nft's
# behaviour is the minimum: the lines nft names, for cases.nft and for the
# two as one, nfh names too.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft

src=$(cd "$(dirname "$0")/errors-kernel-model" && pwd)
ns_new NS || exit 99
dir=$(tmpdir)
cp "$src/cases.nft" "$dir/cases.nft"
cat "$src/cases.nft" "$src/others.nft" >"$dir/all.nft"
cd "$dir" || exit 1

load "$NS" "the ruleset the cases run against loads" <"$src/base.nft"
before=$(tool "$NS" list ruleset)

# the lines an error output names (FILE:LINE:), sorted, one a line
lines_of() { sed -n "s/^$1:\([0-9]*\):.*Error: .*/\1/p" "$2" | sort -nu; }

# the kernel's answer to the cases alone
tool "$NS" -c -f cases.nft 2>nfh-cases.err
expect_eq "nfh -c: the kernel refuses the cases" 1 $?
kernel=$(lines_of cases.nft nfh-cases.err)
expect_eq "the kernel refused 27 of the 33 cases" 27 "$(echo "$kernel" | wc -l)"
expect_eq "nfh -c: the kernel answered (its ENOENT for the jump to a missing chain, in the model's words)" \
	'cases.nft:18:24-35: Error: Could not process rule: the chain "nowhere" it jumps to does not exist in table inet f' \
	"$(grep '^cases.nft:18:' nfh-cases.err)"
if grep 'Error: ' nfh-cases.err | grep -qv 'Error: Could not process'; then
	not_ok "nfh -c: every error of the cases is the kernel's"
	grep 'Error: ' nfh-cases.err | grep -v 'Error: Could not process' | diag
else
	ok "nfh -c: every error of the cases is the kernel's"
fi
ip netns exec "$NS" nft -c -f cases.nft 2>nft-cases.err
expect_eq "nft -c: cases.nft is refused" 1 $?
expect_eq "nfh -c names each line nft -c names ($(lines_of cases.nft nft-cases.err | wc -l) of them)" "" \
	"$(comm -23 <(lines_of cases.nft nft-cases.err | sort) <(echo "$kernel" | sort))"

# the cases and the other errors as one file: nothing is sent, the model
# answers the cases over the kernel's ruleset
ncases=$(wc -l <cases.nft)
others=$(seq $((ncases + 1)) $((ncases + 5)))
for mode in -f "-c -f"; do
	# shellcheck disable=SC2086 # $mode is two words
	tool "$NS" $mode all.nft >out 2>all.err
	expect_eq "nfh $mode all.nft: exit status 1" 1 $?
	if diff -u "$src/all.err" all.err >diff.out; then
		ok "nfh $mode all.nft: the errors are the golden's"
	else
		not_ok "nfh $mode all.nft: the errors are the golden's"
		diag <diff.out
	fi
	expect_eq "nfh $mode all.nft: the kernel's lines, then one for each other error but the cascade" \
		"$(printf '%s\n%s\n' "$kernel" "$others" | sort -n)" "$(lines_of all.nft all.err)"
	expect_eq "nfh $mode all.nft: the ruleset is unchanged" "$before" \
		"$(tool "$NS" list ruleset)"
done

# nft's behaviour is the minimum: each line it names, nfh names
ip netns exec "$NS" nft -f all.nft 2>nft-all.err
expect_eq "nft -f all.nft: exit status 1" 1 $?
missed=$(comm -23 <(lines_of all.nft nft-all.err | sort) <(lines_of all.nft all.err | sort))
expect_eq "nfh names each line nft names ($(lines_of all.nft nft-all.err | wc -l) of them)" "" "$missed"
expect_eq "after nft, the ruleset is unchanged" "$before" "$(tool "$NS" list ruleset)"

# elements for a set the kernel has, declared again later in the file:
# they go into the kernel's set, as nft takes them (nfh said "cannot type")
printf '%s\n' 'add element inet f plain { 1.2.3.9 }' 'add set inet f plain { type ipv4_addr; }' >again.nft
ip netns exec "$NS" nft -c -f again.nft
expect_eq "nft -c: elements before a set declared again" 0 $?
tool "$NS" -c -f again.nft 2>again.err
expect_eq "nfh -c: elements before a set declared again" "0 " "$? $(cat again.err)"
finish
