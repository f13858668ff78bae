#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/setup.sh [configure options]: prepare a Debian 12 machine to build
# and test nfhook, then build src/nfh.  Safe to run again: packages already
# installed are not fetched, and configure runs only when the build tree is
# older than configure.ac.  Run as root to install packages; as another
# user it only builds (and says which packages are missing).

set -e
cd "$(dirname "$0")/.."

PACKAGES="autoconf automake libtool pkg-config bison flex make gcc
	libmnl-dev libnftnl-dev libedit-dev libjansson-dev
	nftables iproute2 iputils-ping python3 time tmux valgrind bash-completion
	clang libclang-rt-14-dev
	python3-nftables python3-jsonschema"

missing=
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done

if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup: missing packages:$missing; run this script as root" >&2
		exit 1
	fi
	echo "setup: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	# shellcheck disable=SC2086 # one word per package
	apt-get install -y -q --no-install-recommends $missing </dev/null
fi

# firewalld, for tests/shell/firewalld.sh (which runs it in namespaces of
# its own): installed without being started or enabled, so that it never
# takes over this machine's own firewall (policy-rc.d 101 stops the
# package's start; the unit is disabled after)
if ! dpkg-query -W -f='${Status}\n' firewalld 2>/dev/null | grep -q 'ok installed' &&
   [ "$(id -u)" -eq 0 ]; then
	echo "setup: installing firewalld (not started)"
	export DEBIAN_FRONTEND=noninteractive
	[ -e /usr/sbin/policy-rc.d ] && had_policy=1 || had_policy=
	[ -n "$had_policy" ] || printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
	chmod +x /usr/sbin/policy-rc.d
	# (the package lists may be stale when nothing above was missing)
	apt-get install -y -q --no-install-recommends firewalld </dev/null ||
		{ apt-get update -q &&
		  apt-get install -y -q --no-install-recommends firewalld </dev/null; } ||
		echo "setup: firewalld could not be installed; its test will skip" >&2
	[ -n "$had_policy" ] || rm -f /usr/sbin/policy-rc.d
	if command -v systemctl >/dev/null; then
		systemctl disable firewalld.service >/dev/null 2>&1 || true
	fi
fi

if [ ! -f configure.ac ]; then
	echo "setup: no configure.ac here, nothing to build" >&2
	exit 1
fi
if [ ! -f Makefile ] || [ configure.ac -nt Makefile ]; then
	autoreconf -fi
	./configure "$@"
fi
make -j2
echo "setup: built src/nfh"
