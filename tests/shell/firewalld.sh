#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# timeout-scale: 5
# checks: Debian's firewalld runs on libnftables-nfh.so.1 unchanged.  It is
# started twice, each time in a network and mount namespace of its own
# (private /run, /etc/firewalld and /var/log) with a private system D-Bus:
# once on Debian's libnftables.so.1, once on nfhook's through
# LD_LIBRARY_PATH and a libnftables.so.1 link.  The same firewall-cmd
# sequence runs against each (firewall-cmd(1)'s examples; default zone;
# services, ports and sources; icmp blocks and their inversion, protocols,
# source ports, a port that is not open, denied logging, a policy; rich
# rules, masquerade and forward ports; ipsets of several types; panic mode;
# --reload and --runtime-to-permanent); after each step the kernel's
# rulesets, listed by nft, must be identical, firewall-cmd must answer the
# same, and firewalld must log no error.  The start and reload times on
# each library are printed as a comment.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

# the steps, one firewall-cmd argument list a line
STEPS='--state
--set-default-zone=internal
--add-service=http
--add-port=443/tcp
--permanent --add-port=443/tcp
--zone=public --add-icmp-block=echo-request
--zone=public --add-icmp-block-inversion
--zone=public --remove-icmp-block-inversion
--zone=public --add-protocol=gre
--zone=public --add-source-port=5353/udp
--zone=public --remove-port=8081/tcp
--set-log-denied=unicast
--permanent --new-policy=p1
--permanent --policy=p1 --add-ingress-zone=internal
--permanent --policy=p1 --add-egress-zone=public
--permanent --policy=p1 --set-target=ACCEPT
--zone=public --add-service=http
--zone=public --add-port=8080/tcp
--zone=public --add-interface=veth0
--zone=trusted --add-source=192.0.2.0/24
--zone=public --remove-service=ssh
--zone=public --add-rich-rule=rule family="ipv4" source address="198.51.100.0/24" service name="ssh" accept
--zone=public --add-rich-rule=rule family="ipv6" source address="2001:db8::/32" port port="53" protocol="udp" reject
--zone=public --add-masquerade
--zone=public --add-forward-port=port=80:proto=tcp:toport=8080:toaddr=192.0.2.10
--permanent --new-ipset=ip4 --type=hash:ip
--permanent --new-ipset=net4 --type=hash:net
--permanent --new-ipset=ipport --type=hash:ip,port
--permanent --new-ipset=mac --type=hash:mac
--permanent --new-ipset=net6 --type=hash:net --option=family=inet6
--reload
--ipset=ip4 --add-entry=192.0.2.7
--ipset=net4 --add-entry=198.51.100.0/24
--ipset=ipport --add-entry=192.0.2.8,tcp:22
--ipset=mac --add-entry=02:00:00:00:00:01
--ipset=net6 --add-entry=2001:db8:1::/48
--zone=public --add-source=ipset:ip4
--panic-on
--query-panic
--panic-off
--zone=public --add-service=https
--runtime-to-permanent
--reload
--zone=public --add-interface=veth0
--zone=public --add-port=8080/tcp
--zone=public --list-all'

# inner WORKDIR ENV...: in a fresh mount and network namespace, the bus,
# firewalld (run under env ENV...), the steps; a listing after each
inner() {
	local w=$1 fw i t0 t1 n=0 args
	shift
	mount --make-rprivate /
	mount -t tmpfs nfh-run /run
	mkdir -p /run/dbus "$w/etc"
	cp -r /etc/firewalld/. "$w/etc/"
	mount --bind "$w/etc" /etc/firewalld
	mount -t tmpfs nfh-log /var/log
	ip link set lo up
	# a peer on the other end of veth0, for traffic
	mkdir -p /run/netns
	ip netns add peer
	ip link add veth0 type veth peer name veth1
	ip link set veth1 netns peer
	ip addr add 10.9.0.1/24 dev veth0
	ip link set veth0 up
	ip -n peer addr add 10.9.0.2/24 dev veth1
	ip -n peer link set veth1 up
	ip -n peer link set lo up
	cat >"$w/bus.conf" <<'XML'
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=/run/dbus/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
XML
	dbus-daemon --config-file="$w/bus.conf" --fork --print-pid >"$w/dbus.pid" || return 1
	t0=$(date +%s%N)
	env "$@" /usr/sbin/firewalld --nofork --nopid >"$w/firewalld.out" 2>&1 &
	fw=$!
	for ((i = 0; i < 300; i++)); do
		firewall-cmd --state >/dev/null 2>&1 && break
		sleep 0.1
	done
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000)) >"$w/start.ms"
	grep -o '/[^ ]*libnftables[^ ]*' "/proc/$fw/maps" | sort -u >"$w/lib"
	nft list ruleset >"$w/step-0.nft" 2>&1
	while IFS= read -r line; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # one step's words, the rich rule as one
		eval "args=($(printf '%s' "$line" | sed -e "s/=rule \(.*\)$/='rule \1'/"))"
		t0=$(date +%s%N)
		{ firewall-cmd "${args[@]}" 2>&1; echo "exit $?"; } >"$w/step-$n.out"
		t1=$(date +%s%N)
		[ "$line" = --reload ] && echo $(((t1 - t0) / 1000000)) >>"$w/reload.ms"
		nft list ruleset >"$w/step-$n.nft" 2>&1
	done <<<"$STEPS"
	# traffic from the peer: the zone's port opens, another is refused
	for port in 8080 9999; do
		/usr/bin/python3 -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", int(sys.argv[1]))); s.listen(5); time.sleep(30)' "$port" &
		echo $! >>"$w/listeners"
	done
	sleep 0.5
	for port in 8080 9999; do
		ip netns exec peer /usr/bin/python3 -c 'import socket, sys
try:
    socket.create_connection(("10.9.0.1", int(sys.argv[1])), timeout=3).close()
    print("connects")
except Exception as e:
    import errno
    print(errno.errorcode.get(getattr(e, "errno", None) or 0, type(e).__name__))' "$port" >"$w/traffic-$port"
	done
	xargs kill <"$w/listeners"
	kill "$fw"
	wait "$fw"
	kill "$(cat "$w/dbus.pid")"
	cp /var/log/firewalld "$w/firewalld.log" 2>/dev/null
	nft list ruleset >"$w/after-exit.nft" 2>&1
	return 0
}
if [ "${1-}" = --inner ]; then
	shift
	inner "$@"
	exit
fi

require_root
guest_slow "firewalld started twice and 80 firewall-cmd runs, each a python start: 8 minutes under TCG (kernel/README.md)"
require_cmd firewalld firewall-cmd dbus-daemon nft
if ! /usr/bin/python3 -c 'import nftables, firewall' 2>/dev/null; then
	echo "# needs Debian's firewalld and python3-nftables"
	exit 77
fi
ours=$REPO_DIR/src/.libs/libnftables-nfh.so.1
if ! [ -f "$ours" ]; then
	echo "# no libnftables-nfh.so.1 built in $REPO_DIR"
	exit 77
fi
dir=$(tmpdir)
mkdir "$dir/lib" "$dir/debian" "$dir/nfhook"
ln -s "$ours" "$dir/lib/libnftables.so.1"
unshare -m -n "$0" --inner "$dir/debian" FIREWALLD_ARGS= >"$dir/debian.err" 2>&1
unshare -m -n "$0" --inner "$dir/nfhook" LD_LIBRARY_PATH="$dir/lib" >"$dir/nfhook.err" 2>&1

expect_eq "firewalld ran on Debian's libnftables" \
	"$(readlink -f /usr/lib/x86_64-linux-gnu/libnftables.so.1 2>/dev/null || echo debian)" \
	"$(xargs -r readlink -f <"$dir/debian/lib")"
expect_eq "firewalld ran on nfhook's libnftables-nfh.so.1" "$(readlink -f "$ours")" \
	"$(xargs -r readlink -f <"$dir/nfhook/lib")"
expect_eq "the ruleset firewalld made at start" \
	"$(cat "$dir/debian/step-0.nft")" "$(cat "$dir/nfhook/step-0.nft")"
n=0
while IFS= read -r line; do
	n=$((n + 1))
	echo "# firewall-cmd $line: $(tr '\n' ' ' <"$dir/debian/step-$n.out" | cut -c1-100)"
	expect_eq "firewall-cmd $line: the same answer" \
		"$(cat "$dir/debian/step-$n.out")" "$(cat "$dir/nfhook/step-$n.out")"
	expect_eq "firewall-cmd $line: the same ruleset" \
		"$(cat "$dir/debian/step-$n.nft")" "$(cat "$dir/nfhook/step-$n.nft")"
done <<<"$STEPS"
for lib in debian nfhook; do
	expect_eq "on $lib: the public zone's port 8080 connects from the peer" \
		connects "$(cat "$dir/$lib/traffic-8080")"
	# the zone rejects with icmp admin-prohibited
	expect_eq "on $lib: port 9999 is refused" \
		EHOSTUNREACH "$(cat "$dir/$lib/traffic-9999")"
done
expect_eq "firewalld's exit left the same" \
	"$(cat "$dir/debian/after-exit.nft")" "$(cat "$dir/nfhook/after-exit.nft")"
for lib in debian nfhook; do
	expect_eq "firewalld on $lib logged no error" "" \
		"$(grep -h 'ERROR' "$dir/$lib/firewalld.out" "$dir/$lib/firewalld.log" 2>/dev/null)"
done
echo "# firewalld start: Debian's $(cat "$dir/debian/start.ms") ms, nfhook's $(cat "$dir/nfhook/start.ms") ms"
echo "# firewall-cmd --reload: Debian's $(paste -sd, "$dir/debian/reload.ms") ms, nfhook's $(paste -sd, "$dir/nfhook/reload.ms") ms"
finish
