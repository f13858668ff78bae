#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checks: the exit statuses are nft's: 0 success, 1 an error, 2 out of
# memory, 3 no netlink socket.  The socket is made to fail by a preloaded
# socket() that refuses AF_NETLINK; nft 1.0.6 under it exits 3 too.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
require_root
require_cmd cc
case $TOOL in
*valgrind*) echo "# valgrind does not run under a small ulimit -v"; exit 77 ;;
*memcheck-exec*) echo "# the sanitizers reserve more address space than the limit, and their runtime must load before the shim"; exit 77 ;;
esac

ns_new NS
dir=$(tmpdir)
cd "$dir" || exit 1

cat >nonl.c <<'C'
#include <errno.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

int socket(int domain, int type, int protocol)
{
	if (domain == AF_NETLINK) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	return syscall(SYS_socket, domain, type, protocol);
}
C
cc -shared -fPIC -o nonl.so nonl.c || { echo "# cannot build the shim"; exit 77; }

# status DESC EXPECTED CMD...: CMD run in $NS exits EXPECTED
status() {
	local desc=$1 want=$2 rc
	shift 2
	ip netns exec "$NS" "$@" >out 2>err
	rc=$?
	if [ "$rc" = "$want" ]; then
		ok "$desc: exit $rc"
	else
		not_ok "$desc: exit $rc, not $want"
		head -c 500 err | diag
	fi
}

printf 'table ip t {\n\tchain c {\n\t\tip saddr 10.0.0.1 drop\n\t}\n}\n' >good.nft
printf 'table ip t {\n\tchain c {\n\t\tip saddr 10.0.0.1 dorp\n\t}\n}\n' >bad.nft
# shellcheck disable=SC2086 # $TOOL is split on purpose
status "a good file" 0 $TOOL -f good.nft
# shellcheck disable=SC2086
status "a syntax error" 1 $TOOL -c -f bad.nft
# shellcheck disable=SC2086
status "an unknown table" 1 $TOOL list table ip nosuch
{
	printf 'table ip t {\n\tset s {\n\t\ttype mark\n\t\telements = { '
	seq -s, 1 200000
	printf '\t\t}\n\t}\n}\n'
} >big.nft
# shellcheck disable=SC2086
status "out of memory" 2 sh -c 'ulimit -v 12288 && exec "$@"' sh \
	$TOOL --offline -c -f big.nft
grep -q 'out of memory' err || not_ok "out of memory: no \"out of memory\" message"
# shellcheck disable=SC2086
status "no netlink socket: list ruleset" 3 env LD_PRELOAD="$dir/nonl.so" \
	$TOOL list ruleset
grep -q 'netlink socket' err || not_ok "no netlink socket: the message does not say so"
# shellcheck disable=SC2086
status "no netlink socket: -f" 3 env LD_PRELOAD="$dir/nonl.so" $TOOL -f good.nft
# shellcheck disable=SC2086
status "--offline needs no socket" 0 env LD_PRELOAD="$dir/nonl.so" \
	$TOOL --offline -c -f good.nft
if command -v nft >/dev/null; then
	status "nft 1.0.6 without a netlink socket" 3 \
		env LD_PRELOAD="$dir/nonl.so" nft list ruleset
fi
finish
