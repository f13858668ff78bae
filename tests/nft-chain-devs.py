#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Talks nf_tables netlink by hand, with the numbers of the kernel's uapi
(include/uapi/linux/netfilter/nf_tables.h), to check what nfh and the kernel
do with device-name prefixes without trusting nfh's or libnftnl's code.

  nft-chain-devs.py dump FAMILY
      one line per base chain the kernel holds in FAMILY (netdev, inet):
      "TABLE CHAIN: KIND VALUE, ..." where KIND is name (NFTA_DEVICE_NAME)
      or prefix (NFTA_DEVICE_PREFIX) from NFTA_HOOK_DEVS, and "dev VALUE"
      for NFTA_HOOK_DEV
  nft-chain-devs.py probe
      loads a netdev chain on NFTA_DEVICE_PREFIX "vp" into the current
      network namespace (use a scratch one: it commits) and prints
      "accepted" or "refused: ERRNO"
"""
import errno
import os
import socket
import struct
import sys

NETLINK_NETFILTER = 12
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 0x1, 0x4, 0x300
NLM_F_CREATE = 0x400
NLMSG_ERROR, NLMSG_DONE = 2, 3
NFNL_SUBSYS_NFTABLES = 10
NFNL_MSG_BATCH_BEGIN, NFNL_MSG_BATCH_END = 0x10, 0x11
NFT_MSG_NEWTABLE, NFT_MSG_NEWCHAIN, NFT_MSG_GETCHAIN = 0, 3, 4
NFTA_TABLE_NAME = 1
NFTA_CHAIN_TABLE, NFTA_CHAIN_NAME, NFTA_CHAIN_HOOK, NFTA_CHAIN_TYPE = 1, 3, 4, 7
NFTA_HOOK_HOOKNUM, NFTA_HOOK_PRIORITY, NFTA_HOOK_DEV, NFTA_HOOK_DEVS = 1, 2, 3, 4
NFTA_DEVICE_NAME, NFTA_DEVICE_PREFIX = 1, 2
NLA_TYPE_MASK = 0x3fff
FAMILIES = {"inet": 1, "netdev": 5}


def attr(kind, payload):
    a = struct.pack("=HH", 4 + len(payload), kind) + payload
    return a + b"\0" * (-len(a) % 4)


def strz(s):
    return s.encode() + b"\0"


def msg(kind, flags, family, seq, payload=b"", res_id=0):
    body = struct.pack("=BBH", family, 0, socket.htons(res_id)) + payload
    return struct.pack("=IHHII", 16 + len(body), kind, flags, seq, 0) + body


def attrs(buf):
    off = 0
    while off + 4 <= len(buf):
        length, kind = struct.unpack_from("=HH", buf, off)
        if length < 4 or off + length > len(buf):
            break
        yield kind & NLA_TYPE_MASK, buf[off + 4:off + length]
        off += (length + 3) & ~3


def messages(sock):
    while True:
        data = sock.recv(1 << 16)
        off = 0
        while off + 16 <= len(data):
            length, kind, _, seq, _ = struct.unpack_from("=IHHII", data, off)
            yield kind, seq, data[off + 16:off + length]
            off += (length + 3) & ~3


def open_socket():
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
    s.bind((0, 0))
    s.settimeout(5)
    return s


def dump(family):
    s = open_socket()
    s.send(msg(NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_GETCHAIN,
               NLM_F_REQUEST | NLM_F_DUMP, FAMILIES[family], 1))
    for kind, _, payload in messages(s):
        if kind == NLMSG_DONE:
            return 0
        if kind == NLMSG_ERROR:
            print("error", -struct.unpack_from("=i", payload)[0])
            return 1
        top = dict(attrs(payload[4:]))
        if NFTA_CHAIN_HOOK not in top:
            continue
        devs = []
        for k, v in attrs(top[NFTA_CHAIN_HOOK]):
            if k == NFTA_HOOK_DEV:
                devs.append("dev " + v.rstrip(b"\0").decode())
            elif k == NFTA_HOOK_DEVS:
                for dk, dv in attrs(v):
                    what = {NFTA_DEVICE_NAME: "name",
                            NFTA_DEVICE_PREFIX: "prefix"}.get(dk, "type%d" % dk)
                    devs.append(what + " " + dv.rstrip(b"\0").decode())
        print("%s %s: %s" % (top[NFTA_CHAIN_TABLE].rstrip(b"\0").decode(),
                             top[NFTA_CHAIN_NAME].rstrip(b"\0").decode(),
                             ", ".join(devs)))
    return 0


def probe():
    s = open_socket()
    nft = NFNL_SUBSYS_NFTABLES << 8
    hook = (attr(NFTA_HOOK_HOOKNUM, struct.pack("!I", 0)) +
            attr(NFTA_HOOK_PRIORITY, struct.pack("!i", 0)) +
            attr(NFTA_HOOK_DEVS, attr(NFTA_DEVICE_PREFIX, strz("vp"))))
    batch = (msg(NFNL_MSG_BATCH_BEGIN, NLM_F_REQUEST, 0, 1,
                 res_id=NFNL_SUBSYS_NFTABLES) +
             msg(nft | NFT_MSG_NEWTABLE, NLM_F_REQUEST | NLM_F_CREATE | NLM_F_ACK,
                 5, 2, attr(NFTA_TABLE_NAME, strz("probe"))) +
             msg(nft | NFT_MSG_NEWCHAIN, NLM_F_REQUEST | NLM_F_CREATE | NLM_F_ACK,
                 5, 3, attr(NFTA_CHAIN_TABLE, strz("probe")) +
                 attr(NFTA_CHAIN_NAME, strz("c")) +
                 attr(NFTA_CHAIN_HOOK, hook) +
                 attr(NFTA_CHAIN_TYPE, strz("filter"))) +
             msg(NFNL_MSG_BATCH_END, NLM_F_REQUEST, 0, 4,
                 res_id=NFNL_SUBSYS_NFTABLES))
    s.send(batch)
    acked = set()
    for kind, seq, payload in messages(s):
        if kind != NLMSG_ERROR:
            continue
        err = -struct.unpack_from("=i", payload)[0]
        if err:
            print("refused:", errno.errorcode.get(err, err))
            return 0
        acked.add(seq)
        if acked >= {2, 3}:
            print("accepted")
            return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "dump" and sys.argv[2] in FAMILIES:
        sys.exit(dump(sys.argv[2]))
    if len(sys.argv) == 2 and sys.argv[1] == "probe":
        sys.exit(probe())
    print(__doc__.strip(), file=sys.stderr)
    sys.exit(2)
