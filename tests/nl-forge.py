#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""nl-forge.py: forge nf_tables netlink messages from a socket of our own.

A process with CAP_NET_ADMIN in a network namespace may send netlink
messages from its own (user) socket to another process's port, or to the
multicast groups that process listens to.  The shell tests use this to
check that nfh only believes what the kernel itself sent.

    nl-forge.py ports PID
        the port ids of PID's NETLINK_NETFILTER sockets, one a line
    nl-forge.py restart PID SECONDS
        sends NLMSG_ERROR(-ERESTART) and NLMSG_ERROR(-EPERM) to each of
        PID's sockets, over and over for SECONDS or until PID ends, with
        sequence numbers 0 and around time(NULL)
    nl-forge.py dump PID SECONDS TABLE CHAIN
        sends dump replies: a table "forged" and, for TABLE CHAIN (family
        ip), a rule "drop comment \"forged\"", with sequence number 0
    nl-forge.py event [PID]
        multicasts (and sends to PID's sockets) the event of a new table
        "forged" (family ip) on the nf_tables group

Exit status 0, 1 on a bad argument, 77 if no netlink socket can be opened.
"""
import errno
import os
import socket
import struct
import sys
import time

NETLINK_NETFILTER = 12
NFNLGRP_NFTABLES = 7
NLMSG_ERROR = 2
NLM_F_MULTI = 2
NFT_MSG_NEWTABLE = 0
NFT_MSG_NEWRULE = 6
NFNL_SUBSYS_NFTABLES = 10
NLA_F_NESTED = 0x8000
NFPROTO_IPV4 = 2


def align(n):
    return (n + 3) & ~3


def attr(kind, payload):
    a = struct.pack('=HH', 4 + len(payload), kind) + payload
    return a + b'\0' * (align(len(a)) - len(a))


def nest(kind, *attrs):
    return attr(kind | NLA_F_NESTED, b''.join(attrs))


def strz(s):
    return s.encode() + b'\0'


def be32(v):
    return struct.pack('>I', v)


def be64(v):
    return struct.pack('>Q', v)


def msg(kind, flags, seq, pid, payload):
    return struct.pack('=IHHII', 16 + len(payload), kind, flags, seq, pid) + payload


def nft_msg(kind, seq, pid, family, attrs, flags=NLM_F_MULTI):
    nfgen = struct.pack('=BBH', family, 0, 0)
    return msg(NFNL_SUBSYS_NFTABLES << 8 | kind, flags, seq, pid,
               nfgen + b''.join(attrs))


def error_msg(seq, pid, err):
    # the request it answers: a bare header with the same sequence number
    orig = struct.pack('=IHHII', 16, 0x10 << 8, 1, seq, pid)
    return msg(NLMSG_ERROR, 0, seq, pid, struct.pack('=i', -err) + orig)


def table_msg(seq, pid, name):
    return nft_msg(NFT_MSG_NEWTABLE, seq, pid, NFPROTO_IPV4,
                   [attr(1, strz(name)), attr(2, be32(0)), attr(3, be32(0)),
                    attr(4, be64(0x7ffff0))])


def rule_msg(seq, pid, table, chain):
    verdict = nest(2, nest(2, attr(1, be32(0))))          # NF_DROP
    imm = nest(1, attr(1, strz('immediate')),
               nest(2, attr(1, be32(0)), verdict))        # NFT_REG_VERDICT
    comment = strz('forged')
    udata = struct.pack('=BB', 0, len(comment)) + comment  # rule comment
    return nft_msg(NFT_MSG_NEWRULE, seq, pid, NFPROTO_IPV4,
                   [attr(1, strz(table)), attr(2, strz(chain)),
                    attr(3, be64(0x7ffff1)), nest(4, imm), attr(7, udata)])


def ports(pid):
    """the port ids of @pid's NETLINK_NETFILTER sockets"""
    inodes = set()
    try:
        for fd in os.listdir('/proc/%d/fd' % pid):
            try:
                link = os.readlink('/proc/%d/fd/%s' % (pid, fd))
            except OSError:
                continue
            if link.startswith('socket:['):
                inodes.add(link[8:-1])
    except OSError:
        return []
    found = []
    with open('/proc/net/netlink') as f:
        next(f)
        for line in f:
            w = line.split()
            if len(w) >= 10 and w[1] == str(NETLINK_NETFILTER) and w[9] in inodes:
                found.append(int(w[2]))
    return found


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def send(sock, data, port, groups=0):
    try:
        sock.sendto(data, (port, groups))
        return True
    except OSError as e:
        if e.errno in (errno.ECONNREFUSED, errno.ENOBUFS, errno.EAGAIN):
            return False
        raise


def spam(sock, pid, seconds, build):
    """sends build(port) to each port of @pid until it ends or time is up;
    prints how many datagrams went"""
    end = time.monotonic() + seconds
    sent = 0
    while time.monotonic() < end and alive(pid):
        for port in ports(pid):
            if send(sock, build(port), port):
                sent += 1
        time.sleep(0.0005)
    print(sent)


def main(argv):
    if len(argv) < 3 and not (len(argv) == 2 and argv[1] == 'event'):
        sys.stderr.write(__doc__)
        return 1
    try:
        sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
        sock.bind((0, 0))
    except (OSError, AttributeError) as e:
        sys.stderr.write('nl-forge: no netlink socket: %s\n' % e)
        return 77
    cmd = argv[1]
    pid = int(argv[2]) if len(argv) > 2 else 0
    if cmd == 'ports':
        for p in ports(pid):
            print(p)
    elif cmd == 'restart':
        def build(port):
            now = int(time.time())
            seqs = [0] + list(range(now - 3, now + 12))
            return b''.join(error_msg(s, port, e) for s in seqs
                            for e in (errno.ERESTART, errno.EPERM))
        spam(sock, pid, float(argv[3]), build)
    elif cmd == 'dump':
        table, chain = argv[4], argv[5]
        spam(sock, pid, float(argv[3]),
             lambda port: table_msg(0, port, 'forged') +
             rule_msg(0, port, table, chain))
    elif cmd == 'event':
        event = table_msg(0, 0, 'forged')
        send(sock, event, 0, 1 << (NFNLGRP_NFTABLES - 1))
        for port in ports(pid) if pid else []:
            send(sock, event, port)
    else:
        sys.stderr.write(__doc__)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
