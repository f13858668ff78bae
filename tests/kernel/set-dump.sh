#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# timeout-scale: 4
# checks: the kernel's dump of a big plain (hash) set, read by hand with
# tests/nft-set-dump.py one message per read (so the kernel walks the set
# once per message): every element comes exactly once, the same ones that
# were loaded; and while another process adds elements during slow dumps,
# a dump that is not flagged NLM_F_DUMP_INTR has no element twice and
# misses none of those loaded before it began (one that is flagged may
# repeat elements, but still misses none); a dump during which the hash
# table grows misses nothing and is flagged.  The same, but the resize, for
# an interval set (rbtree), whose ranges come in adjacent pairs (an end
# element and a start element with the same key), for a set with a size
# (fixed-size hash), for a set of ports (bitmap) and for a concatenation
# with intervals (pipapo); for the last two, instead of the resize, a dump
# during which elements it sent already are deleted misses no other and is
# flagged, and a port already in the bitmap set can be added again but not
# created.  A set deleted during a dump and made again under the same name
# (a hash set by a hash set, a hash set by an interval set, an interval set
# by another) either ends the dump with ENOENT or is dumped from its start
# with the dump flagged, never mixed in silently.
#
# The second part is what kernel/patches 0008 to 0014 (dumps resume where
# the last message ended, and not in another set) guarantee: mainline
# restarts its walk for every message and skips as many elements as it
# sent, so an element added ahead of the walk's position shifts it, and one
# element is sent twice and another never, without a flag (and deleting
# elements behind it loses as many others; and a set made at the address of
# the one a dump began with goes on from as many elements into it).  So it
# is checked on the nfhook test kernel (release "*-nfhook") and only
# reported elsewhere; NFH_SETDUMP_EXPECT=resume|mainline overrides that.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd python3

case ${NFH_SETDUMP_EXPECT:-} in
resume | mainline) expect=$NFH_SETDUMP_EXPECT ;;
'') case $(uname -r) in
	*-nfhook*) expect=resume ;;
	*) expect=mainline ;;
	esac ;;
*) echo "# NFH_SETDUMP_EXPECT must be resume or mainline"; exit 99 ;;
esac
# 23500 elements: the hash table has 32768 buckets and grows when it holds
# more than 24576
N=${NFH_SETDUMP_N:-23500}
DUMP=$(dirname "$0")/../nft-set-dump.py
T=$(tmpdir) || exit 99
ns_new NS || exit 99

# A set replaced during a dump: after the dump's third message the set is
# deleted, and when it is gone another set of the same name is made.  The
# dump finds its set again at every message by its address, so it goes on
# with the new set if that one took the old one's memory, or ends with
# ENOENT if not (then it is tried again, up to 4 times: the new set takes
# the old one's address more often here, in a fresh kernel, than after the
# big sets below).  It must never go on silently: the elements of the old
# set must all come before those of the new one, and a dump that carries
# the new set's elements must be flagged NLM_F_DUMP_INTR and carry all of
# them, once (its walk started over: kernel/patches 0014).  Before 0014,
# the new set's walk read the old set's cursor: a hash set replaced by an
# interval set ended the dump there, unflagged; an interval set replaced by
# another went on at the old one's key, unflagged.
#
# rset KIND ELEMENTS...: the table sr's set x as KIND (hash: a plain set
# of ipv4_addr, interval: with intervals) with ELEMENTS
rset() {
	local kind=$1
	shift
	echo "table ip sr {"
	echo "	set x {"
	echo "		type ipv4_addr"
	[ "$kind" = interval ] && echo "		flags interval"
	printf '		elements = { '
	printf '%s\n' "$@" | paste -sd,
	echo "		}"
	echo "	}"
	echo "}"
}
# 8000 addresses 10.1.x.y (H) and 10.2.x.y (H2); 4000 /24 ranges
# 0.0.4i.0 (I) and, between them, 0.0.(4i+2).0 (G)
awk 'BEGIN { for (i = 0; i < 8000; i++) printf "10.1.%d.%d\n", i / 256, i % 256 }' >"$T/rH"
sed 's/^10\.1\./10.2./' "$T/rH" >"$T/rH2"
awk 'BEGIN { for (i = 0; i < 4000; i++) printf "0.%d.%d.0/24\n", 4 * i / 256, 4 * i % 256 }' >"$T/rI"
awk 'BEGIN { for (i = 0; i < 4000; i++) printf "0.%d.%d.0/24\n", (4 * i + 2) / 256, (4 * i + 2) % 256 }' >"$T/rG"

# replaced OLDKIND OLD NEWKIND NEW: a dump of set x made of OLD, replaced by
# one made of NEW after the dump's third message
replaced() {
	local okind=$1 old=$2 nkind=$3 new=$4 what n2 bad try
	what="$okind set replaced by a new $nkind set"
	tool "$NS" delete table ip sr 2>/dev/null
	# shellcheck disable=SC2046 # one word per element
	rset "$okind" $(cat "$T/$old") >"$T/rold.nft"
	# shellcheck disable=SC2046
	rset "$nkind" $(cat "$T/$new") >"$T/rnew.nft"
	echo "delete set ip sr x" >"$T/rdel.nft"
	if ! tool "$NS" -f "$T/rold.nft"; then
		not_ok "$what: load the $okind set"
		return
	fi
	in_ns "$NS" python3 "$DUMP" ip sr x >"$T/rold.all" 2>/dev/null
	# up to 4 tries for the new set to take the old one's address
	for try in 1 2 3 4; do
		[ "$try" = 1 ] || { tool "$NS" delete table ip sr && tool "$NS" -f "$T/rold.nft"; } ||
			{ not_ok "$what: load the $okind set again"; return; }
		in_ns "$NS" python3 "$DUMP" ip sr x 0.01 3 sh -c \
			"$TOOL -f '$T/rdel.nft' && sleep 1 && $TOOL -f '$T/rnew.nft'" \
			>"$T/got" 2>"$T/stat"
		grep -q 'No such file' "$T/stat" || break
	done
	in_ns "$NS" python3 "$DUMP" ip sr x >"$T/rnew.all" 2>/dev/null
	# the got's lines: o (old set), n (new set), ? (neither)
	awk 'FILENAME == ARGV[1] { o[$0] = 1; next }
		FILENAME == ARGV[2] { n[$0] = 1; next }
		{ print ($0 in o) ? "o" : ($0 in n) ? "n" : "?" }' \
		"$T/rold.all" "$T/rnew.all" "$T/got" | uniq -c >"$T/kinds"
	echo "# $what after 3 messages (try $try): $(tr '\n' ' ' <"$T/stat")- runs: $(tr -s ' \n' ' ' <"$T/kinds")"
	n2=$(grep -cx -F -f "$T/rnew.all" "$T/got")
	if grep -q 'No such file' "$T/stat"; then
		# not found at its address: the rest is an error, not elements
		bad=$(grep -vc ' o$' "$T/kinds")
		expect_eq "$what: the dump ends with ENOENT after old elements only" 0 "$bad"
	elif [ "$expect" != resume ]; then
		echo "# mainline: a dump across a replaced set reported above, not checked"
	elif grep -q ' intr 0$' "$T/stat"; then
		not_ok "$what: the dump is not flagged ($n2 of $(grep -c . "$T/rnew.all") new elements after the old ones)"
	elif ! grep -q '^messages' "$T/stat"; then
		not_ok "$what: the dump fails: $(cat "$T/stat")"
	else
		# flagged: old ones, then the whole new set, each once
		grep -x -F -f "$T/rnew.all" "$T/got" | sort >"$T/got.s"
		bad=$(awk '{ print $2 }' "$T/kinds" | tr -d '\n')
		if [ "$bad" = on ] && sort "$T/rnew.all" | cmp -s - "$T/got.s"; then
			ok "$what: the dump is flagged NLM_F_DUMP_INTR and carries the new set from its start ($n2 elements), once"
		else
			not_ok "$what: flagged, but not the old elements then all the new ones once"
		fi
	fi
}
replaced hash rH hash rH2
replaced hash rH interval rG
replaced interval rI interval rG
tool "$NS" delete table ip sr 2>/dev/null

# N distinct addresses (x -> a*x + b mod 2^32 is a bijection for odd a),
# in 1.0.0.0-223.255.255.255 so that the adder's 224.x ones are new
awk -v n="$N" 'BEGIN {
	for (i = 0; i < n; i++) {
		x = (2654435761 * i + 12345) % 3741319168 + 16777216
		printf "%d.%d.%d.%d\n", int(x / 16777216), int(x / 65536) % 256,
			int(x / 256) % 256, x % 256
	}
}' >"$T/addrs"
hexes() { awk -F. '{ printf "%02x%02x%02x%02x\n", $1, $2, $3, $4 }' "$@"; }
hexes "$T/addrs" | sort >"$T/want"
{
	echo "table ip sd {"
	echo "	set s {"
	echo "		type ipv4_addr"
	printf '		elements = { '
	paste -sd, "$T/addrs"
	echo "		}"
	echo "	}"
	echo "}"
} >"$T/load.nft"
check "load a plain set of $N elements" tool "$NS" -f "$T/load.nft"

# dump_quiet: a dump without the flag (the table may still be growing just
# after the load: a dump during a resize may be flagged; try again)
dump_quiet() {
	local i
	for i in 1 2 3 4 5; do
		in_ns "$NS" python3 "$DUMP" ip sd s "$@" >"$T/got" 2>"$T/stat" || return 1
		grep -q ' intr 0$' "$T/stat" && return 0
		sleep 1
	done
	return 1
}
if dump_quiet 0.001; then
	ok "a dump one message per read: $(cat "$T/stat")"
	sort "$T/got" >"$T/got.s"
	expect_eq "no element twice" "" "$(uniq -d "$T/got.s" | head -n 3)"
	expect_eq "the elements loaded, all of them" "$(md5sum <"$T/want")" \
		"$(md5sum <"$T/got.s")"
else
	not_ok "a dump without NLM_F_DUMP_INTR (5 tries)"
	diag <"$T/stat"
fi
check "a dump with the default receive buffer" dump_quiet
if sort -u "$T/got" | cmp -s - "$T/want" && [ "$(wc -l <"$T/got")" = "$N" ]; then
	ok "with the default buffer too: each element once"
else
	not_ok "with the default buffer: $(cat "$T/stat")"
fi

# a resize during a dump: after 3 of its messages, 1500 elements are added
# (225.x.y.z): the table then holds 25000 elements, and grows
awk 'BEGIN {
	printf "add element ip sd s { "
	for (i = 0; i < 1500; i++)
		printf "%s225.0.%d.%d", i ? ", " : "", int(i / 256), i % 256
	print " }"
}' >"$T/grow.nft"
if in_ns "$NS" python3 "$DUMP" ip sd s 0.01 3 \
	sh -c "$TOOL -f '$T/grow.nft' && sleep 1" >"$T/got" 2>"$T/stat"; then
	sort "$T/got" >"$T/got.s"
	dups=$(uniq -d "$T/got.s" | wc -l)
	lost=$(comm -23 "$T/want" "$T/got.s" | wc -l)
	echo "# dump across a resize: $(cat "$T/stat"), $dups twice, $lost lost"
	if [ "$expect" = resume ]; then
		expect_eq "a dump across a resize misses nothing" 0 "$lost"
		if grep -q ' intr 0$' "$T/stat"; then
			not_ok "a dump across a resize is flagged NLM_F_DUMP_INTR"
		else
			ok "a dump across a resize is flagged NLM_F_DUMP_INTR"
		fi
	fi
else
	not_ok "a dump with 1500 elements added after its third message"
	diag <"$T/stat"
fi

# one_key: an element whose range ends where it starts (a single value in a
# concatenation with intervals, whether or not it carries the end) as KEY
one_key() { sed -E 's/^([0-9a-f]+)-\1$/\1/'; }

# during_adds SET PATTERN FILE...: loads each FILE, 0.1 s apart, while slow
# dumps of SET run (at least 3, and as many as the loads last).  A dump
# without the flag must hold each line of $T/want once, and no other line
# but ones that match PATTERN (the elements added); a flagged one must hold
# each line of $T/want.
during_adds() {
	local set=$1 pat=$2 adder bad=0 flagged=0 clean=0 d=0 dups lost alien
	shift 2
	(
		for f in "$@"; do
			tool "$NS" -f "$f" || exit 1
			sleep 0.1
		done
	) &
	adder=$!
	while [ $d -lt 3 ] || kill -0 "$adder" 2>/dev/null; do
		d=$((d + 1))
		in_ns "$NS" python3 "$DUMP" ip sd "$set" 0.05 >"$T/got" 2>"$T/stat" ||
			{ bad=1; break; }
		one_key <"$T/got" | sort >"$T/got.s"
		dups=$(uniq -d "$T/got.s" | wc -l)
		lost=$(comm -23 "$T/want" "$T/got.s" | wc -l)
		alien=$(sort -u "$T/got.s" | comm -13 "$T/want" - | grep -Evc "$pat")
		echo "# $set: dump $d during adds: $(cat "$T/stat"), $dups twice, $lost lost, $alien unknown"
		if grep -q ' intr 0$' "$T/stat"; then
			clean=$((clean + 1))
			[ "$dups" = 0 ] && [ "$lost" = 0 ] && [ "$alien" = 0 ] || bad=1
		else
			flagged=$((flagged + 1))
			[ "$lost" = 0 ] && [ "$alien" = 0 ] || bad=1
		fi
	done
	wait "$adder" || not_ok "$set: the loads during the dumps"
	if [ "$expect" != resume ]; then
		echo "# mainline: dumps during adds reported above, not checked"
	elif [ $bad = 0 ]; then
		ok "$set: $d dumps during adds: $clean unflagged ones exact, $flagged flagged ones complete"
	else
		not_ok "$set: $d dumps during adds: an element twice or lost (see above)"
	fi
}

# 10 batches of 100 new elements (224.x.y.z)
awk 'BEGIN {
	for (b = 0; b < 10; b++) {
		printf "add element ip sd s { "
		for (i = 0; i < 100; i++)
			printf "%s224.%d.%d.%d", i ? ", " : "", b, int(i / 256), i % 256
		print " }"
	}
}' | split -l 1 - "$T/add."
during_adds s '^e[01]' "$T"/add.*

# A set with a size gets the fixed-size hash backend: the same elements
{
	echo "table ip sd {"
	echo "	set z {"
	echo "		type ipv4_addr"
	echo "		size 40000"
	printf '		elements = { '
	paste -sd, "$T/addrs"
	echo "		}"
	echo "	}"
	echo "}"
} >"$T/sized.nft"
check "load a set of $N elements with size 40000" tool "$NS" -f "$T/sized.nft"
if in_ns "$NS" python3 "$DUMP" ip sd z 0.001 >"$T/got" 2>"$T/stat"; then
	ok "z: a dump one message per read: $(cat "$T/stat")"
	sort "$T/got" >"$T/got.s"
	expect_eq "z: no element twice" "" "$(uniq -d "$T/got.s" | head -n 3)"
	expect_eq "z: the elements loaded, all of them" "$(md5sum <"$T/want")" \
		"$(md5sum <"$T/got.s")"
else
	not_ok "z: a dump one message per read"
	diag <"$T/stat"
fi
awk 'BEGIN {
	for (b = 0; b < 10; b++) {
		printf "add element ip sd z { "
		for (i = 0; i < 100; i++)
			printf "%s226.%d.%d.%d", i ? ", " : "", b, int(i / 256), i % 256
		print " }"
	}
}' | split -l 1 - "$T/zadd."
during_adds z '^e2' "$T"/zadd.*

# An interval set (rbtree): R pairs of adjacent /24 ranges, so that an end
# element and the next range's start element have the same key (a message
# may end between the two).  The kernel's elements: for pair i, from block
# b = 4i (blocks of 256 addresses from 1.0.0.0), the start b, the end and
# start b + 1, the end b + 2; and nfh's end element at 0.0.0.0.
R=${NFH_SETDUMP_R:-5000}
awk -v r="$R" 'BEGIN {
	for (i = 0; i < r; i++)
		for (j = 0; j < 2; j++) {
			x = 16777216 + (4 * i + j) * 256
			printf "%d.%d.%d.0/24\n", int(x / 16777216), int(x / 65536) % 256,
				int(x / 256) % 256
		}
}' >"$T/ranges"
awk -v r="$R" 'BEGIN {
	print "00000000 end"
	for (i = 0; i < r; i++) {
		b = 65536 + 4 * i
		printf "%08x\n%08x end\n%08x\n%08x end\n", b * 256, (b + 1) * 256,
			(b + 1) * 256, (b + 2) * 256
	}
}' | sort >"$T/want"
{
	echo "table ip sd {"
	echo "	set r {"
	echo "		type ipv4_addr"
	echo "		flags interval"
	printf '		elements = { '
	paste -sd, "$T/ranges"
	echo "		}"
	echo "	}"
	echo "}"
} >"$T/ranges.nft"
check "load an interval set of $((2 * R)) ranges" tool "$NS" -f "$T/ranges.nft"
if in_ns "$NS" python3 "$DUMP" ip sd r 0.001 >"$T/got" 2>"$T/stat"; then
	ok "r: a dump one message per read: $(cat "$T/stat")"
	sort "$T/got" >"$T/got.s"
	expect_eq "r: no element twice" "" "$(uniq -d "$T/got.s" | head -n 3)"
	expect_eq "r: the elements loaded, all of them" "$(md5sum <"$T/want")" \
		"$(md5sum <"$T/got.s")"
	in_ns "$NS" python3 "$DUMP" ip sd r >"$T/got1" 2>"$T/stat"
	check "r: in the same order as a dump in fewer messages" cmp "$T/got" "$T/got1"
else
	not_ok "r: a dump one message per read"
	diag <"$T/stat"
fi

# 10 batches of 50 /26 ranges in the gaps (block 4i + 2, from its .64)
awk -v r="$R" 'BEGIN {
	for (b = 0; b < 10; b++) {
		printf "add element ip sd r { "
		for (k = 0; k < 50; k++) {
			i = int((b * 50 + k) * r / 500)
			x = 16777216 + (4 * i + 2) * 256 + 64
			printf "%s%d.%d.%d.%d/26", k ? ", " : "", int(x / 16777216),
				int(x / 65536) % 256, int(x / 256) % 256, x % 256
		}
		print " }"
	}
}' | split -l 1 - "$T/radd."
during_adds r '^[0-9a-f]{6}(40|80)' "$T"/radd.*
# dump_whole SET: a dump of SET one message per read holds each line of
# $T/want once, in the same order as a dump in fewer messages
dump_whole() {
	local set=$1
	if in_ns "$NS" python3 "$DUMP" ip sd "$set" 0.001 >"$T/got" 2>"$T/stat"; then
		ok "$set: a dump one message per read: $(cat "$T/stat")"
		one_key <"$T/got" | sort >"$T/got.s"
		expect_eq "$set: no element twice" "" "$(uniq -d "$T/got.s" | head -n 3)"
		expect_eq "$set: the elements loaded, all of them" \
			"$(md5sum <"$T/want")" "$(md5sum <"$T/got.s")"
		in_ns "$NS" python3 "$DUMP" ip sd "$set" >"$T/got1" 2>"$T/stat"
		check "$set: in the same order as a dump in fewer messages" \
			cmp "$T/got" "$T/got1"
	else
		not_ok "$set: a dump one message per read"
		diag <"$T/stat"
	fi
}

# dump_across_delete SET FILE: FILE deletes elements of SET after the dump's
# third message.  Patches 0011 and 0012 start the walk over then (the element
# it stopped at may be gone), so the dump must miss none of $T/kept and be
# flagged; mainline skips as many elements as it sent, so deleting elements
# it sent already loses as many others, unflagged (reported).
dump_across_delete() {
	local set=$1 file=$2 dups lost
	if in_ns "$NS" python3 "$DUMP" ip sd "$set" 0.01 3 \
		sh -c "$TOOL -f '$file' && sleep 1" >"$T/got" 2>"$T/stat"; then
		one_key <"$T/got" | sort >"$T/got.s"
		dups=$(uniq -d "$T/got.s" | wc -l)
		lost=$(comm -23 "$T/kept" "$T/got.s" | wc -l)
		echo "# $set: dump across a deletion: $(cat "$T/stat"), $dups twice, $lost lost"
		if [ "$expect" = resume ]; then
			expect_eq "$set: a dump across a deletion misses nothing else" 0 "$lost"
			if grep -q ' intr 0$' "$T/stat"; then
				not_ok "$set: a dump across a deletion is flagged NLM_F_DUMP_INTR"
			else
				ok "$set: a dump across a deletion is flagged NLM_F_DUMP_INTR"
			fi
		fi
	else
		not_ok "$set: a dump with elements deleted after its third message"
		diag <"$T/stat"
	fi
}

# A set of ports (2-byte keys) gets the bitmap backend, which keeps its
# elements in a list in the order they were added: ports 0 to B-1 in a
# scrambled order (i -> 7919 * i + 13 mod B is a bijection while B and
# 7919, a prime, have no common factor)
B=${NFH_SETDUMP_B:-30000}
awk -v n="$B" 'BEGIN { for (i = 0; i < n; i++) print (7919 * i + 13) % n }' >"$T/ports"
awk '{ printf "%04x\n", $1 }' "$T/ports" | sort >"$T/want"
{
	echo "table ip sd {"
	echo "	set b {"
	echo "		type inet_service"
	printf '		elements = { '
	paste -sd, "$T/ports"
	echo "		}"
	echo "	}"
	echo "}"
} >"$T/ports.nft"
check "load a set of $B ports" tool "$NS" -f "$T/ports.nft"
dump_whole b
# a port already in the set: adding it again is no error, creating it is
# (EEXIST); deleted and added back in one batch, it is there once
p0=$(head -n 1 "$T/ports")
check "b: add a port that is in the set again" tool "$NS" add element ip sd b "{ $p0 }"
if tool "$NS" create element ip sd b "{ $p0 }" 2>"$T/err"; then
	not_ok "b: create a port that is in the set fails"
else
	ok "b: create a port that is in the set fails: $(head -n 1 "$T/err")"
fi
printf 'delete element ip sd b { %s }\nadd element ip sd b { %s }\n' "$p0" "$p0" >"$T/readd.nft"
check "b: delete a port and add it back in one batch" tool "$NS" -f "$T/readd.nft"
in_ns "$NS" python3 "$DUMP" ip sd b >"$T/got" 2>"$T/stat"
expect_eq "b: that port is in the set once" 1 "$(grep -cx "$(printf %04x "$p0")" "$T/got")"
# 10 batches of 100 new ports (50000 to 50999: c350 to c737)
awk 'BEGIN {
	for (b = 0; b < 10; b++) {
		printf "add element ip sd b { "
		for (i = 0; i < 100; i++)
			printf "%s%d", i ? ", " : "", 50000 + 100 * b + i
		print " }"
	}
}' | split -l 1 - "$T/badd."
during_adds b '^c[3-7]' "$T"/badd.*
# the first 100 ports loaded go
head -n 100 "$T/ports" | paste -sd, | sed 's/.*/delete element ip sd b { & }/' >"$T/bdel.nft"
head -n 100 "$T/ports" | awk '{ printf "%04x\n", $1 }' | sort | comm -23 "$T/want" - >"$T/kept"
dump_across_delete b "$T/bdel.nft"

# A concatenation with intervals gets the pipapo backend: P elements
# 10.x.y.z . port, one address every 4 from 10.0.0.0; every fourth one is
# a /30 with the ports 1-2 (two rules in the port field, so a message may
# end between the rules of one element)
P=${NFH_SETDUMP_P:-20000}
awk -v n="$P" 'BEGIN {
	for (i = 0; i < n; i++) {
		x = 167772160 + 4 * i
		a = sprintf("%d.%d.%d.%d", int(x / 16777216), int(x / 65536) % 256,
			int(x / 256) % 256, x % 256)
		if (i % 4 == 0)
			printf "%s/30 . 1-2\t%08x00010000-%08x00020000\n", a, x, x + 3
		else
			printf "%s . %d\t%08x%04x0000\n", a, 1000 + i % 1000, x,
				1000 + i % 1000
	}
}' >"$T/pairs"
cut -f2 "$T/pairs" | sort >"$T/want"
{
	echo "table ip sd {"
	echo "	set p {"
	echo "		type ipv4_addr . inet_service"
	echo "		flags interval"
	printf '		elements = { '
	cut -f1 "$T/pairs" | paste -sd,
	echo "		}"
	echo "	}"
	echo "}"
} >"$T/pairs.nft"
check "load a concatenation of $P elements with intervals" tool "$NS" -f "$T/pairs.nft"
dump_whole p
# 10 batches of 100 new elements (11.0.x.y . 80: 0b...)
awk 'BEGIN {
	for (b = 0; b < 10; b++) {
		printf "add element ip sd p { "
		for (i = 0; i < 100; i++)
			printf "%s11.0.%d.%d . 80", i ? ", " : "", b, i
		print " }"
	}
}' | split -l 1 - "$T/padd."
during_adds p '^0b' "$T"/padd.*
head -n 100 "$T/pairs" | cut -f1 | paste -sd, |
	sed 's/.*/delete element ip sd p { & }/' >"$T/pdel.nft"
head -n 100 "$T/pairs" | cut -f2 | sort | comm -23 "$T/want" - >"$T/kept"
dump_across_delete p "$T/pdel.nft"
finish
