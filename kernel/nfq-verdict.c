// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfq-verdict -q NUM [-q NUM]... -a PORT [-n COUNT] [-t SECONDS]: a
 * nfnetlink_queue listener for tests/kernel/queue.sh, talking the protocol
 * with libmnl and the uapi headers (no libnetfilter_queue).
 *
 * It binds each queue NUM (copy mode: whole packets), prints "bound" and
 * flushes stdout, then reads queued packets and gives each one a verdict:
 * NF_ACCEPT when it is an IPv4 UDP datagram to destination port PORT,
 * NF_DROP for everything else.  It stops after COUNT packets (default:
 * never) or after SECONDS (default 10) without a packet, and prints
 *
 *	queue NUM packets N       (one line per bound queue)
 *	accepted A
 *	dropped D
 *
 * Exit status: 0 once it has stopped, 2 on a setup or netlink error (the
 * reason on stderr), 77 when the kernel has no nfnetlink_queue.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_queue.h>
#include <libmnl/libmnl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXQ 8

static struct mnl_socket *nl;
static unsigned int portid;
static uint32_t seq;

static uint16_t queues[MAXQ];
static unsigned long per_queue[MAXQ];
static unsigned int nqueues;
static uint16_t accept_port;
static unsigned long accepted, dropped;

static void die(const char *what)
{
	fprintf(stderr, "nfq-verdict: %s: %s\n", what, strerror(errno));
	exit(2);
}

static struct nlmsghdr *queue_msg(char *buf, uint16_t type, uint16_t queue,
				  uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nfgenmsg *nfg;

	nlh->nlmsg_type = (NFNL_SUBSYS_QUEUE << 8) | type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++seq;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = AF_UNSPEC;
	nfg->version = NFNETLINK_V0;
	nfg->res_id = htons(queue);
	return nlh;
}

/* Send a config message with NLM_F_ACK and wait for the kernel's answer. */
static void config(struct nlmsghdr *nlh, const char *what)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	ssize_t n;

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		die(what);
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0)
		die(what);
	if (mnl_cb_run(buf, n, nlh->nlmsg_seq, portid, NULL, NULL) < 0) {
		if (errno == ENOENT || errno == EOPNOTSUPP || errno == EPROTONOSUPPORT) {
			fprintf(stderr, "nfq-verdict: %s: %s (no nfnetlink_queue in this kernel?)\n",
				what, strerror(errno));
			exit(77);
		}
		die(what);
	}
}

static void bind_queue(uint16_t queue)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nfqnl_msg_config_cmd cmd = { .command = NFQNL_CFG_CMD_BIND };
	struct nfqnl_msg_config_params params = {
		.copy_range = htonl(0xffff),
		.copy_mode = NFQNL_COPY_PACKET,
	};
	struct nlmsghdr *nlh;

	nlh = queue_msg(buf, NFQNL_MSG_CONFIG, queue, NLM_F_ACK);
	mnl_attr_put(nlh, NFQA_CFG_CMD, sizeof(cmd), &cmd);
	config(nlh, "bind");

	nlh = queue_msg(buf, NFQNL_MSG_CONFIG, queue, NLM_F_ACK);
	mnl_attr_put(nlh, NFQA_CFG_PARAMS, sizeof(params), &params);
	config(nlh, "copy mode");
}

static void verdict(uint16_t queue, uint32_t id, uint32_t v)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nfqnl_msg_verdict_hdr vh = { .verdict = htonl(v), .id = htonl(id) };
	struct nlmsghdr *nlh = queue_msg(buf, NFQNL_MSG_VERDICT, queue, 0);

	mnl_attr_put(nlh, NFQA_VERDICT_HDR, sizeof(vh), &vh);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		die("verdict");
}

static int attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (type <= NFQA_MAX)
		tb[type] = attr;
	return MNL_CB_OK;
}

/* Whether the IPv4 packet p (len bytes) is UDP to destination port port. */
static int udp_to(const unsigned char *p, size_t len, uint16_t port)
{
	size_t ihl;

	if (len < 20 || (p[0] >> 4) != 4 || p[9] != 17)
		return 0;
	ihl = (size_t)(p[0] & 0x0f) * 4;
	if (ihl < 20 || len < ihl + 8)
		return 0;
	return (p[ihl + 2] << 8 | p[ihl + 3]) == port;
}

static int packet_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NFQA_MAX + 1] = { 0 };
	const struct nfgenmsg *nfg = mnl_nlmsg_get_payload(nlh);
	const struct nfqnl_msg_packet_hdr *ph;
	uint16_t queue = ntohs(nfg->res_id);
	unsigned long *handled = data;
	const unsigned char *p = NULL;
	size_t len = 0;
	unsigned int i;
	uint32_t v;

	if ((nlh->nlmsg_type & 0xff) != NFQNL_MSG_PACKET)
		return MNL_CB_OK;
	if (mnl_attr_parse(nlh, sizeof(*nfg), attr_cb, tb) < 0)
		return MNL_CB_ERROR;
	if (!tb[NFQA_PACKET_HDR]) {
		fprintf(stderr, "nfq-verdict: a packet message without NFQA_PACKET_HDR\n");
		exit(2);
	}
	ph = mnl_attr_get_payload(tb[NFQA_PACKET_HDR]);
	if (tb[NFQA_PAYLOAD]) {
		p = mnl_attr_get_payload(tb[NFQA_PAYLOAD]);
		len = mnl_attr_get_payload_len(tb[NFQA_PAYLOAD]);
	}
	v = p && udp_to(p, len, accept_port) ? NF_ACCEPT : NF_DROP;
	verdict(queue, ntohl(ph->packet_id), v);
	if (v == NF_ACCEPT)
		accepted++;
	else
		dropped++;
	for (i = 0; i < nqueues; i++)
		if (queues[i] == queue)
			per_queue[i]++;
	(*handled)++;
	return MNL_CB_OK;
}

static void usage(void)
{
	fprintf(stderr, "usage: nfq-verdict -q NUM [-q NUM]... -a PORT [-n COUNT] [-t SECONDS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE + 0xffff];
	unsigned long count = 0, handled = 0;
	int timeout_s = 10, opt, have_port = 0;
	unsigned int i;

	while ((opt = getopt(argc, argv, "q:a:n:t:")) != -1) {
		switch (opt) {
		case 'q':
			if (nqueues == MAXQ)
				usage();
			queues[nqueues++] = (uint16_t)strtoul(optarg, NULL, 10);
			break;
		case 'a':
			accept_port = (uint16_t)strtoul(optarg, NULL, 10);
			have_port = 1;
			break;
		case 'n':
			count = strtoul(optarg, NULL, 10);
			break;
		case 't':
			timeout_s = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (!nqueues || !have_port || optind != argc)
		usage();

	nl = mnl_socket_open(NETLINK_NETFILTER);
	if (!nl)
		die("netlink socket");
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		die("netlink bind");
	portid = mnl_socket_get_portid(nl);
	for (i = 0; i < nqueues; i++)
		bind_queue(queues[i]);
	printf("bound\n");
	fflush(stdout);

	while (!count || handled < count) {
		struct pollfd pfd = { .fd = mnl_socket_get_fd(nl), .events = POLLIN };
		ssize_t n;
		int r = poll(&pfd, 1, timeout_s * 1000);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			die("poll");
		}
		if (r == 0)
			break;
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			die("receive");
		if (mnl_cb_run(buf, n, 0, portid, packet_cb, &handled) < 0)
			die("packet message");
	}

	for (i = 0; i < nqueues; i++)
		printf("queue %u packets %lu\n", queues[i], per_queue[i]);
	printf("accepted %lu\ndropped %lu\n", accepted, dropped);
	mnl_socket_close(nl);
	return 0;
}
