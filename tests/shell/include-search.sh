#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: includes are found and read as nft 1.0.6 reads them, compared
# with nft's --debug=netlink output: a glob of 40 files (and a glob inside
# one of them) is read whole and in order, each file one level deep; a
# plain name is searched in the -I directories in order, never next to
# the including file; "./" and "../" are relative to the working
# directory; 20 -D definitions are all defined
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd nft

dir=$(tmpdir)
cd "$dir" || exit 99
mkdir -p rules more i1 i2 x/y work

# same DESC ARGS...: nfh --offline and nft (in a namespace) print the same
# bytecode for "-c --debug=netlink ARGS", and both exit 0
same() {
	local desc=$1 want got
	shift
	want=$(unshare -n nft -c --debug=netlink "$@" 2>&1; echo "rc=$?")
	got=$($TOOL --offline -c --debug=netlink "$@" 2>&1; echo "rc=$?")
	expect_eq "$desc: nfh prints what nft prints" "$want" "$got"
	case $got in *rc=0) ok "$desc: loads" ;; *) not_ok "$desc: exit ${got##*rc=}" ;; esac
}

cat >head.nft <<'EOF'
table ip t {
	chain c {
	}
}
EOF
for i in $(seq 10 49); do
	echo "add rule ip t c tcp dport $i accept" >"rules/r$i.nft"
done
echo 'include "./more/*.nft"' >rules/r20.nft
for i in 1 2 3; do
	echo "add rule ip t c udp dport $i accept" >"more/m$i.nft"
done
printf 'include "./head.nft"\ninclude "./rules/*.nft"\nadd rule ip t c tcp dport 999 accept\n' >glob.nft
same "a glob of 40 files, one with a glob of 3" -f glob.nft

# plain names: -I directories in order, the first that has it
echo 'add rule ip t c tcp dport 1001 accept' >i1/inc.nft
echo 'add rule ip t c tcp dport 1002 accept' >i2/inc.nft
echo 'add rule ip t c tcp dport 1003 accept' >i2/only2.nft
echo 'add rule ip t c tcp dport 1004 accept' >x/y/inc.nft
printf 'include "./head.nft"\ninclude "inc.nft"\ninclude "only2.nft"\n' >x/y/plain.nft
same "-I i1 -I i2" -I i1 -I i2 -f x/y/plain.nft
same "-I i2 -I i1" -I i2 -I i1 -f x/y/plain.nft
printf 'include "./head.nft"\ninclude "i*/inc.nft"\n' >x/y/globpath.nft
same "a glob under an -I directory" -I . -f x/y/globpath.nft

# not next to the including file, nor in the working directory
printf 'include "inc.nft"\n' >x/y/beside.nft
cp x/y/inc.nft inc.nft
$TOOL --offline -c -f x/y/beside.nft >out 2>&1
expect_eq "a plain name next to the including file is not found" \
	'x/y/beside.nft:1:9-17: Error: could not find "inc.nft" in the include paths' \
	"$(head -n 1 out)"
unshare -n nft -c -f x/y/beside.nft >/dev/null 2>&1
expect_eq "nft does not find it either" 1 $?

# ./ and ../ from the working directory, not from the including file
echo 'add rule ip t c tcp dport 1005 accept' >work/here.nft
echo 'add rule ip t c tcp dport 1006 accept' >up.nft
printf 'include "../head.nft"\ninclude "./here.nft"\ninclude "../up.nft"\n' >x/y/dots.nft
(cd work && same "./ and ../ are relative to the working directory" -f ../x/y/dots.nft)

# -D: all of them, however many
defs=()
for i in $(seq 1 20); do defs+=(-D "p$i=$((2000 + i))"); done
printf 'include "./head.nft"\nadd rule ip t c tcp dport { $p1, $p10, $p20 } accept\n' >defs.nft
same "20 -D definitions" "${defs[@]}" -f defs.nft

finish
