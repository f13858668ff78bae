#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""kernel-reply.py: record the running kernel's answer to one new chain.

    kernel-reply.py chain FAMILY TYPE HOOK

sends the kernel, from a socket of its own in the current network
namespace, a batch that checks (no NFNL_MSG_BATCH_END, as nft -c sends
it: the kernel aborts the batch, nothing stays) a new table "t" of FAMILY (a number,
NFPROTO_*) and in it a base chain "c" of chain type TYPE at hook number
HOOK, priority 0.  nfh's evaluation refuses a chain type a family lacks
before anything is sent, so this is how a real answer of the kernel to
such a chain is had.  It prints two lines of hex: the NEWCHAIN message as
sent, then the kernel's NLMSG_ERROR answer to it (with its extended ack),
the format tests/c/refusal-words reads.  Exit status 0, 1 if the kernel
took the chain (no error to record), 77 without a netlink socket.
"""
import socket
import struct
import sys

NETLINK_NETFILTER = 12
NFNL_SUBSYS_NFTABLES = 10
NFNL_MSG_BATCH_BEGIN = 0x10
NFT_MSG_NEWTABLE, NFT_MSG_NEWCHAIN = 0, 3
NLM_F_REQUEST, NLM_F_ACK, NLM_F_CREATE = 0x1, 0x4, 0x400
NLMSG_ERROR = 2
NETLINK_CAP_ACK, NETLINK_EXT_ACK = 10, 11
SOL_NETLINK = 270
NFTA_TABLE_NAME = 1
NFTA_CHAIN_TABLE, NFTA_CHAIN_NAME, NFTA_CHAIN_HOOK, NFTA_CHAIN_TYPE = 1, 3, 4, 7
NFTA_HOOK_HOOKNUM, NFTA_HOOK_PRIORITY = 1, 2
NLA_F_NESTED = 0x8000


def attr(kind, payload):
    n = 4 + len(payload)
    return struct.pack('=HH', n, kind) + payload + b'\0' * ((4 - n % 4) % 4)


def strz(kind, s):
    return attr(kind, s.encode() + b'\0')


def msg(kind, flags, seq, family, payload, res_id=0):
    body = struct.pack('=BBH', family, 0, socket.htons(res_id)) + payload
    return struct.pack('=IHHII', 16 + len(body), kind, flags, seq, 0) + body


def main(argv):
    if len(argv) != 5 or argv[1] != 'chain':
        sys.stderr.write(__doc__)
        return 1
    family, ctype, hook = int(argv[2]), argv[3], int(argv[4])
    try:
        sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
        # as nfh asks for them: the refused message not echoed, and the
        # extended ack
        sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        sock.bind((0, 0))
    except OSError as e:
        sys.stderr.write('kernel-reply: no netlink socket: %s\n' % e)
        return 77
    sub = NFNL_SUBSYS_NFTABLES << 8
    chain = msg(sub | NFT_MSG_NEWCHAIN, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE, 3, family,
                strz(NFTA_CHAIN_TABLE, 't') + strz(NFTA_CHAIN_NAME, 'c') +
                attr(NFTA_CHAIN_HOOK | NLA_F_NESTED,
                     attr(NFTA_HOOK_HOOKNUM, struct.pack('>I', hook)) +
                     attr(NFTA_HOOK_PRIORITY, struct.pack('>i', 0))) +
                strz(NFTA_CHAIN_TYPE, ctype))
    batch = (msg(NFNL_MSG_BATCH_BEGIN, NLM_F_REQUEST, 1, 0, b'', NFNL_SUBSYS_NFTABLES) +
             msg(sub | NFT_MSG_NEWTABLE, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE, 2, family,
                 strz(NFTA_TABLE_NAME, 't')) +
             chain)
    sock.send(batch)
    sock.settimeout(5)
    while True:
        data = sock.recv(65536)
        off = 0
        while off + 16 <= len(data):
            n, kind, _flags, seq = struct.unpack_from('=IHHI', data, off)
            if n < 16:
                return 1
            if kind == NLMSG_ERROR and seq == 3:
                err = struct.unpack_from('=i', data, off + 16)[0]
                if err == 0:
                    return 1
                print(chain.hex())
                print(data[off:off + n].hex())
                return 0
            if kind == NLMSG_ERROR and seq == 2 and struct.unpack_from('=i', data, off + 16)[0]:
                return 1
            off += (n + 3) & ~3


if __name__ == '__main__':
    sys.exit(main(sys.argv))
