// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xsk-tx IFNAME COUNT [ipv4]: send COUNT (1..64) broadcast frames of EtherType
 * 0x88b5 (with "ipv4": IPv4 UDP datagrams from 192.0.2.1 port 9 to 192.0.2.7
 * port 9) from queue 0 of IFNAME through an AF_XDP socket bound in copy mode
 * (XDP_COPY, i.e. xsk_generic_xmit() in the kernel), then wait up to 2 s
 * for their descriptors to come back on the completion ring.  Prints the
 * number of completed descriptors; exits 0 when all COUNT completed, 1 when
 * not, 2 on a setup error (the reason on stderr), 77 when the kernel has no
 * AF_XDP sockets.  Raw syscalls only: no libbpf or libxdp needed.
 */
#include <errno.h>
#include <linux/if_xdp.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <net/if_arp.h>

#ifndef AF_XDP
#define AF_XDP 44
#endif
#ifndef SOL_XDP
#define SOL_XDP 283
#endif

#define NDESC 64
#define FRAME 2048
#define LEN 60

static void die(const char *what)
{
	fprintf(stderr, "xsk-tx: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* An IPv4 header and a UDP header with an empty payload after the Ethernet
 * header at f, with the header checksum filled in (UDP's may be 0).
 */
static unsigned int put_ipv4_udp(unsigned char *f)
{
	static const unsigned char ip[20] = {
		0x45, 0, 0, 28, 0, 0, 0x40, 0, 64, 17, 0, 0,
		192, 0, 2, 1, 192, 0, 2, 7,
	};
	static const unsigned char udp[8] = { 0, 9, 0, 9, 0, 8, 0, 0 };
	uint32_t sum = 0;
	unsigned int i;

	f[12] = 0x08;
	f[13] = 0x00;
	memcpy(f + 14, ip, sizeof(ip));
	for (i = 0; i < sizeof(ip); i += 2)
		sum += (uint32_t)f[14 + i] << 8 | f[15 + i];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	f[24] = (unsigned char)(~sum >> 8);
	f[25] = (unsigned char)~sum;
	memcpy(f + 34, udp, sizeof(udp));
	return 14 + sizeof(ip) + sizeof(udp);
}

static void *map_ring(int fd, size_t len, off_t pgoff)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, fd, pgoff);

	if (p == MAP_FAILED)
		die("mmap ring");
	return p;
}

int main(int argc, char **argv)
{
	struct xdp_mmap_offsets off;
	socklen_t olen = sizeof(off);
	struct sockaddr_xdp sxdp = { .sxdp_family = AF_XDP };
	struct xdp_umem_reg mr = { 0 };
	struct ifreq ifr = { 0 };
	uint32_t *tx_prod, *cq_prod, *cq_cons;
	struct xdp_desc *tx_desc;
	unsigned int ifindex, i;
	int fd, n = NDESC, count;
	unsigned char *umem;
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	uint32_t done = 0;
	void *tx, *cq;
	int ipv4;

	ipv4 = argc == 4 && strcmp(argv[3], "ipv4") == 0;
	if (argc != 3 && !ipv4) {
		fprintf(stderr, "usage: xsk-tx IFNAME COUNT [ipv4]\n");
		return 2;
	}
	count = atoi(argv[2]);
	if (count < 1 || count > NDESC) {
		fprintf(stderr, "xsk-tx: COUNT must be 1..%d\n", NDESC);
		return 2;
	}
	ifindex = if_nametoindex(argv[1]);
	if (!ifindex)
		die(argv[1]);

	fd = socket(AF_XDP, SOCK_RAW, 0);
	if (fd < 0) {
		if (errno == EAFNOSUPPORT) {
			fprintf(stderr, "xsk-tx: no AF_XDP sockets in this kernel\n");
			return 77;
		}
		die("socket(AF_XDP)");
	}

	umem = mmap(NULL, NDESC * FRAME, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (umem == MAP_FAILED)
		die("mmap umem");
	mr.addr = (uintptr_t)umem;
	mr.len = NDESC * FRAME;
	mr.chunk_size = FRAME;
	if (setsockopt(fd, SOL_XDP, XDP_UMEM_REG, &mr, sizeof(mr)))
		die("XDP_UMEM_REG");
	if (setsockopt(fd, SOL_XDP, XDP_UMEM_FILL_RING, &n, sizeof(n)) ||
	    setsockopt(fd, SOL_XDP, XDP_UMEM_COMPLETION_RING, &n, sizeof(n)) ||
	    setsockopt(fd, SOL_XDP, XDP_TX_RING, &n, sizeof(n)))
		die("ring setup");
	if (getsockopt(fd, SOL_XDP, XDP_MMAP_OFFSETS, &off, &olen))
		die("XDP_MMAP_OFFSETS");
	tx = map_ring(fd, off.tx.desc + NDESC * sizeof(struct xdp_desc),
		      XDP_PGOFF_TX_RING);
	cq = map_ring(fd, off.cr.desc + NDESC * sizeof(uint64_t),
		      XDP_UMEM_PGOFF_COMPLETION_RING);
	tx_prod = (uint32_t *)((char *)tx + off.tx.producer);
	tx_desc = (struct xdp_desc *)((char *)tx + off.tx.desc);
	cq_prod = (uint32_t *)((char *)cq + off.cr.producer);
	cq_cons = (uint32_t *)((char *)cq + off.cr.consumer);

	sxdp.sxdp_ifindex = ifindex;
	sxdp.sxdp_queue_id = 0;
	sxdp.sxdp_flags = XDP_COPY;
	/* The queue stays taken for a moment after an earlier socket on it
	 * closed (its umem goes away in a work item): retry for up to 2 s.
	 */
	for (i = 0; bind(fd, (struct sockaddr *)&sxdp, sizeof(sxdp)); i++) {
		if (errno != EBUSY || i == 200)
			die("bind (XDP_COPY, queue 0)");
		nanosleep(&ts, NULL);
	}

	strncpy(ifr.ifr_name, argv[1], IFNAMSIZ - 1);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr)) {
		int s = socket(AF_INET, SOCK_DGRAM, 0);

		if (s < 0 || ioctl(s, SIOCGIFHWADDR, &ifr))
			die("SIOCGIFHWADDR");
		close(s);
	}
	for (i = 0; i < (unsigned int)count; i++) {
		unsigned char *f = umem + i * FRAME;

		unsigned int len = LEN;

		memset(f, 0, LEN);
		memset(f, 0xff, 6);
		memcpy(f + 6, ifr.ifr_hwaddr.sa_data, 6);
		if (ipv4) {
			len = put_ipv4_udp(f);
		} else {
			f[12] = 0x88;
			f[13] = 0xb5;
			memcpy(f + 14, "nfhook-xsk-test", 15);
		}
		tx_desc[i] = (struct xdp_desc){ .addr = i * FRAME, .len = len };
	}
	__atomic_store_n(tx_prod, count, __ATOMIC_RELEASE);

	for (i = 0; i < 200; i++) {
		if (sendto(fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0 &&
		    errno != EAGAIN && errno != EBUSY && errno != ENOBUFS)
			die("sendto (kick)");
		done = __atomic_load_n(cq_prod, __ATOMIC_ACQUIRE);
		if (done >= (uint32_t)count)
			break;
		nanosleep(&ts, NULL);
	}
	__atomic_store_n(cq_cons, done, __ATOMIC_RELEASE);
	printf("%u\n", done);
	return done == (uint32_t)count ? 0 : 1;
}
