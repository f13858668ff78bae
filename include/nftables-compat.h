/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_NFTABLES_COMPAT_H
#define NFH_NFTABLES_COMPAT_H

/*
 * Message types newer than the kernel headers Debian 12 ships (6.1); the
 * numbers are the kernel's ABI (include/uapi/linux/netfilter/nf_tables.h).
 */
#ifndef NFT_MSG_DESTROYTABLE
#define NFT_MSG_GETRULE_RESET	25
#define NFT_MSG_DESTROYTABLE	26
#define NFT_MSG_DESTROYCHAIN	27
#define NFT_MSG_DESTROYRULE	28
#define NFT_MSG_DESTROYSET	29
#define NFT_MSG_DESTROYSETELEM	30
#define NFT_MSG_DESTROYOBJ	31
#define NFT_MSG_DESTROYFLOWTABLE	32
#endif
#ifndef NFT_MSG_GETSETELEM_RESET
#define NFT_MSG_GETSETELEM_RESET	33	/* Linux 6.5 */
#endif

/*
 * NFTA_DEVICE_PREFIX (Linux 6.17), in the NFTA_HOOK_DEVS nest next to
 * NFTA_DEVICE_NAME: a NUL-terminated device-name prefix.  Its own name,
 * as the kernel's is an enumerator that no #ifndef can see.
 */
#define NFH_NFTA_DEVICE_PREFIX	2

#endif
