#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Dumps one set's elements with NFT_MSG_GETSETELEM by hand (numbers from
the kernel's uapi), to check what the kernel's set dump sends without
trusting nfh's, nft's or libnftnl's reading of it.

  nft-set-dump.py FAMILY TABLE SET [PAUSE [AFTER CMD [ARG...]]]

prints the key of every element of every message, in the order they came,
one per line in hex, followed by "-" and the key of the range's end for an
element that has one (NFTA_SET_ELEM_KEY_END: concatenations with
intervals), and by " end" for an interval's end element
(NFT_SET_ELEM_INTERVAL_END), and on stderr one line:

  messages M elements E intr I

where I is the number of messages that carried NLM_F_DUMP_INTR (the kernel
says the dump is not consistent: elements may be missing or come twice).
PAUSE (seconds, default 0) is slept before reading each message; with it
and a small receive buffer the kernel fills one message per read, so that
changes made meanwhile (elements added) land between two of its walks.
With AFTER, CMD runs once AFTER messages have been read (it must succeed),
and the dump goes on when it has finished.
Exit status 0, or 1 with the kernel's error on stderr (also one that
ends the dump after some messages, in its NLMSG_DONE, whose elements are
printed still).
"""
import os
import socket
import struct
import subprocess
import sys
import time

NETLINK_NETFILTER = 12
NLM_F_REQUEST, NLM_F_DUMP, NLM_F_DUMP_INTR = 0x1, 0x300, 0x10
NLMSG_ERROR, NLMSG_DONE = 2, 3
NFNL_SUBSYS_NFTABLES = 10
NFT_MSG_GETSETELEM = 13
NFTA_SET_ELEM_LIST_TABLE, NFTA_SET_ELEM_LIST_SET = 1, 2
NFTA_SET_ELEM_LIST_ELEMENTS = 3
NFTA_LIST_ELEM = 1
NFTA_SET_ELEM_KEY, NFTA_SET_ELEM_FLAGS = 1, 3
NFTA_SET_ELEM_KEY_END = 10
NFT_SET_ELEM_INTERVAL_END = 1
NFTA_DATA_VALUE = 1
NLA_TYPE_MASK = 0x3fff
FAMILIES = {"ip": 2, "ip6": 10, "inet": 1, "arp": 3, "bridge": 7, "netdev": 5}


def attr(kind, payload):
    a = struct.pack("=HH", 4 + len(payload), kind) + payload
    return a + b"\0" * (-len(a) % 4)


def attrs(buf):
    off = 0
    while off + 4 <= len(buf):
        length, kind = struct.unpack_from("=HH", buf, off)
        if length < 4 or off + length > len(buf):
            break
        yield kind & NLA_TYPE_MASK, buf[off + 4:off + length]
        off += (length + 3) & ~3


def main():
    if len(sys.argv) not in (4, 5) and len(sys.argv) < 7 or \
            sys.argv[1] not in FAMILIES:
        sys.stderr.write(__doc__)
        return 2
    family = FAMILIES[sys.argv[1]]
    table, name = sys.argv[2].encode() + b"\0", sys.argv[3].encode() + b"\0"
    pause = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    after = int(sys.argv[5]) if len(sys.argv) > 5 else -1
    cmd = sys.argv[6:]

    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
    if pause:
        # the smallest buffer: the kernel fills one message per read
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
    s.bind((0, 0))
    body = struct.pack("=BBH", family, 0, 0)
    body += attr(NFTA_SET_ELEM_LIST_TABLE, table)
    body += attr(NFTA_SET_ELEM_LIST_SET, name)
    kind = (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_GETSETELEM
    s.send(struct.pack("=IHHII", 16 + len(body), kind,
                       NLM_F_REQUEST | NLM_F_DUMP, 1, 0) + body)

    out = sys.stdout
    messages = elements = intr = 0
    done = False
    while not done:
        if pause:
            time.sleep(pause)
        if messages == after:
            subprocess.run(cmd, check=True)
            after = -1
        buf = s.recv(65536)
        off = 0
        while off + 16 <= len(buf):
            length, mtype, flags, _, _ = struct.unpack_from("=IHHII", buf, off)
            payload = buf[off + 16:off + length]
            off += (length + 3) & ~3
            if mtype == NLMSG_DONE:
                # a dump that fails after its first message says so here
                err = -struct.unpack_from("=i", payload)[0] if len(payload) >= 4 else 0
                if err:
                    sys.stderr.write("nft-set-dump: %s\n" % os.strerror(err))
                    return 1
                done = True
                if flags & NLM_F_DUMP_INTR:
                    intr += 1
                break
            if mtype == NLMSG_ERROR:
                err = -struct.unpack_from("=i", payload)[0]
                if err:
                    sys.stderr.write("nft-set-dump: %s\n" % os.strerror(err))
                    return 1
                continue
            messages += 1
            if flags & NLM_F_DUMP_INTR:
                intr += 1
            for k, v in attrs(payload[4:]):
                if k != NFTA_SET_ELEM_LIST_ELEMENTS:
                    continue
                for ek, ev in attrs(v):
                    if ek != NFTA_LIST_ELEM:
                        continue
                    key, key_end, end = None, "", ""
                    for a, av in attrs(ev):
                        if a == NFTA_SET_ELEM_FLAGS and \
                                struct.unpack("!I", av[:4])[0] & NFT_SET_ELEM_INTERVAL_END:
                            end = " end"
                        if a not in (NFTA_SET_ELEM_KEY, NFTA_SET_ELEM_KEY_END):
                            continue
                        for d, dv in attrs(av):
                            if d != NFTA_DATA_VALUE:
                                continue
                            if a == NFTA_SET_ELEM_KEY:
                                key = dv.hex()
                            else:
                                key_end = "-" + dv.hex()
                    if key is not None:
                        out.write(key + key_end + end + "\n")
                        elements += 1
    sys.stderr.write("messages %d elements %d intr %d\n" % (messages, elements, intr))
    return 0


if __name__ == "__main__":
    sys.exit(main())
