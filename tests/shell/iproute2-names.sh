#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: marks, device groups and realms take their names from
# /etc/iproute2/rt_marks, group and rt_realms and list by them (quoted, as
# nft 1.0.6 lists them; -n lists numbers, the chain priority too); a
# damaged line ends its file.
# The files are bind-mounted over /etc/iproute2 in the test's own mount
# namespace.  The expected listings are nft 1.0.6's, with the same files.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
# never over the host's own /etc/iproute2, even when run by hand
if [ "$(readlink /proc/self/ns/mnt)" = "$(readlink /proc/1/ns/mnt 2>/dev/null)" ]; then
	exec unshare -m --propagation private "$0" "$@"
fi
[ -d /etc/iproute2 ] || { echo "# no /etc/iproute2 to mount over"; exit 77; }

dir=$(tmpdir)/iproute2
mkdir -p "$dir"
printf '# marks\n0x10 web\n  20\tmail # comment\n\n0x00000001 one\n' >"$dir/rt_marks"
printf '0\tdefault\n0x5 dmz\n7 lab\n' >"$dir/group"
printf '0 cosmos\n3 far\nthis line is damaged\n4 lost\n' >"$dir/rt_realms"
mount --bind "$dir" /etc/iproute2 || { echo "# cannot bind-mount"; exit 77; }
trap 'umount /etc/iproute2; lib_cleanup' EXIT

rules='table ip t {
	chain c {
		type filter hook input priority 0;
		meta mark web
		ct mark mail
		meta mark { one, 0x10, 2 }
		meta mark set web
		meta iifgroup dmz
		meta oifgroup { lab, 7, 6 }
		meta rtclassid far
		meta rtclassid 4
	}
}'
# shellcheck disable=SC2086
list() { printf '%s\nlist ruleset\n' "$rules" | $TOOL --offline "$@" -f - 2>&1; }

expect_eq "the names are read and listed" 'table ip t {
	chain c {
		type filter hook input priority filter; policy accept;
		meta mark "web"
		ct mark "mail"
		meta mark { "one", 0x00000002, "web" }
		meta mark set "web"
		iifgroup "dmz"
		oifgroup { 6, "lab" }
		meta rtclassid "far"
		meta rtclassid 4
	}
}' "$(list)"

expect_eq "-n lists the numbers" '		meta mark 0x00000010
		ct mark 0x00000014
		meta mark { 0x00000001, 0x00000002, 0x00000010 }
		meta mark set 0x00000010
		iifgroup 5
		oifgroup { 6, 7 }
		meta rtclassid 3
		meta rtclassid 4' "$(list -n | grep -e mark -e group -e rtclassid)"
expect_eq "-n lists a chain's priority as a number, as nft -n does" \
'		type filter hook input priority 0; policy accept;' \
	"$(list -n | grep 'type filter')"

# shellcheck disable=SC2086
out=$(printf 'table ip t {\n\tchain c {\n\t\tmeta rtclassid lost\n\t}\n}\n' |
	$TOOL --offline -c -f - 2>&1)
expect_eq "a name after a damaged line is unknown" \
'/dev/stdin:3:18-21: Error: could not parse routing realm value "lost"
		meta rtclassid lost
		               ^^^^' "$out"
finish
