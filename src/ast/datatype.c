// SPDX-License-Identifier: GPL-2.0-or-later
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <errno.h>
#include <grp.h>
#include <net/if.h>
#include <netdb.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ctx.h>
#include <datatype.h>
#include <expr.h>
#include <suggest.h>

const struct symbol *symbol_by_name(const struct symbol *tbl, const char *name)
{
	for (; tbl && tbl->name; tbl++)
		if (!strcmp(tbl->name, name))
			return tbl;
	return NULL;
}

const struct symbol *symbol_by_value(const struct symbol *tbl, uint64_t value)
{
	for (; tbl && tbl->name; tbl++)
		if (tbl->value == value)
			return tbl;
	return NULL;
}

const char *suggest_symbol(struct suggest *sg, const struct symbol *tbl,
			   const char *word)
{
	suggest_init(sg, word);
	for (; tbl && tbl->name; tbl++)
		suggest_add(sg, tbl->name);
	return suggest_hint(sg);
}

/* --- parsers ----------------------------------------------------------- */

/*
 * A number wider than 64 bits ("@th,64,128 0xfe80...01", which nft reads
 * as a big number): the digits of @s (base as strtoull's 0 takes them) into
 * the value's bytes, big endian; -1 if it is no number, -2 if it does not
 * fit in @bits
 */
static int wide_number_parse(const char *s, unsigned int bits, uint8_t *out,
			     unsigned int n)
{
	unsigned int base = 10, d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2]) {
		base = 16;
		s += 2;
	} else if (s[0] == '0' && s[1]) {
		base = 8;
	}
	memset(out, 0, n);
	for (; *s; s++) {
		unsigned int carry;

		if (isdigit((unsigned char)*s))
			d = *s - '0';
		else if (isxdigit((unsigned char)*s))
			d = tolower((unsigned char)*s) - 'a' + 10;
		else
			return -1;
		if (d >= base)
			return -1;
		carry = d;
		for (unsigned int i = n; i > 0; i--) {
			carry += out[i - 1] * base;
			out[i - 1] = carry & 0xff;
			carry >>= 8;
		}
		if (carry)
			return -2;
	}
	/* the bits above @bits are zero */
	for (unsigned int b = 0; b < n * 8 - bits; b++)
		if (out[b / 8] & (0x80 >> (b % 8)))
			return -2;
	return 0;
}

static int integer_parse(const struct datatype *dt, const char *s,
			 struct expr *res, char *err, size_t errlen)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)s[0])) {
		snprintf(err, errlen, "could not parse %s value \"%s\"",
			 dt->desc ? dt->desc : dt->name, s);
		return -1;
	}
	if (res->len > 64) {
		switch (wide_number_parse(s, res->len, res->val.data,
					  expr_value_bytes(res))) {
		case 0:
			return 0;
		case -2:
			snprintf(err, errlen, "value %s exceeds valid range: %u bits",
				 s, res->len);
			return -1;
		default:
			snprintf(err, errlen, "could not parse %s value \"%s\"",
				 dt->desc ? dt->desc : dt->name, s);
			return -1;
		}
	}
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE && !*end && res->len <= 64 && res->len) {
		snprintf(err, errlen, "value %s exceeds valid range 0-%llu", s,
			 res->len < 64 ? (1ULL << res->len) - 1 : ~0ULL);
		return -1;
	}
	if (*end || errno) {
		snprintf(err, errlen, "could not parse %s value \"%s\"",
			 dt->desc ? dt->desc : dt->name, s);
		return -1;
	}
	if (res->len < 64 && v >> res->len) {
		snprintf(err, errlen, "value %s exceeds valid range 0-%llu",
			 s, (1ULL << res->len) - 1);
		return -1;
	}
	expr_value_set_u64(res, v);
	return 0;
}

/* a day of the week by number: 0 (Sunday) to 6, as nft takes it */
static int day_parse(const struct datatype *dt, const char *s,
		     struct expr *res, char *err, size_t errlen)
{
	if (integer_parse(dt, s, res, err, errlen) < 0)
		return -1;
	if (expr_value_u64(res) > 6) {
		snprintf(err, errlen, "value %s exceeds valid range 0-6", s);
		return -1;
	}
	return 0;
}

static int string_parse(const struct datatype *dt, const char *s,
			struct expr *res, char *err, size_t errlen)
{
	size_t n = strlen(s);

	/* as nft: the field keeps the terminating NUL too */
	if (res->len && (n + 1) * 8 > res->len) {
		snprintf(err, errlen, "string \"%s\" is too long: %u characters at most",
			 s, res->len / 8 - 1);
		return -1;
	}
	memset(res->val.data, 0, sizeof(res->val.data));
	memcpy(res->val.data, s, n);
	return 0;
}

/* what nft's scanner passes on as an address: a number, or N.N.N.N of 1-3 digits each */
static bool aton_form(const char *s)
{
	unsigned int parts = 0, digits = 0;

	if (!s[0] || !s[strspn(s, "0123456789")])
		return s[0] != '\0';
	for (;; s++) {
		if (isdigit((unsigned char)*s) && ++digits <= 3)
			continue;
		if (!digits || digits > 3 || (*s != '.' && *s != '\0'))
			return false;
		parts++;
		digits = 0;
		if (!*s)
			return parts == 4;
	}
}

/* --- host names, as nft resolves them ----------------------------------- */

static bool hosts_file_only;

void datatype_hosts_file_only(bool on)
{
	hosts_file_only = on;
}

/* what may be a host name: letters, digits, - . _, and a letter somewhere */
static bool host_name_form(const char *s)
{
	bool alpha = false;

	if (!isalnum((unsigned char)s[0]))
		return false;
	for (; *s; s++) {
		if (isalpha((unsigned char)*s))
			alpha = true;
		else if (!isdigit((unsigned char)*s) && !strchr("-._", *s))
			return false;
	}
	return alpha;
}

/*
 * --offline reads /etc/hosts and nothing else, so that a check without a
 * kernel gives the same answer on every machine and never waits on DNS.
 * Returns the number of distinct addresses found (0, 1 or 2 for "more").
 */
static int hosts_file_lookup(const char *name, int family, void *addr)
{
	size_t alen = family == AF_INET ? 4 : 16;
	char line[1024], *tok, *save;
	uint8_t a[16];
	int found = 0;
	FILE *f;

	f = fopen("/etc/hosts", "re");
	if (!f)
		return 0;
	while (found < 2 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "#\n")] = '\0';
		tok = strtok_r(line, " \t", &save);
		if (!tok || inet_pton(family, tok, a) != 1)
			continue;
		while ((tok = strtok_r(NULL, " \t", &save))) {
			if (strcasecmp(tok, name))
				continue;
			if (!found || memcmp(addr, a, alen)) {
				memcpy(found ? a : addr, a, alen);
				found++;
			}
			break;
		}
	}
	fclose(f);
	return found;
}

/*
 * nft passes whatever is not an address to getaddrinfo(): "ip daddr
 * localhost" is 127.0.0.1, and a name with several addresses is an error
 * (a set does not take them all)
 */
static int host_resolve(const char *s, int family, void *addr,
			char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = family, .ai_socktype = SOCK_DGRAM };
	struct addrinfo *ai;
	int rc, n;

	if (hosts_file_only) {
		n = hosts_file_lookup(s, family, addr);
		if (n == 1)
			return 0;
		if (n == 0)
			snprintf(err, errlen,
				 "could not resolve hostname \"%s\": not in /etc/hosts (--offline looks nowhere else)",
				 s);
		else
			snprintf(err, errlen, "hostname \"%s\" resolves to multiple addresses", s);
		return -1;
	}
	rc = getaddrinfo(s, NULL, &hints, &ai);
	if (rc) {
		snprintf(err, errlen, "could not resolve hostname \"%s\": %s",
			 s, gai_strerror(rc));
		return -1;
	}
	if (ai->ai_next) {
		freeaddrinfo(ai);
		snprintf(err, errlen, "hostname \"%s\" resolves to multiple addresses", s);
		return -1;
	}
	if (family == AF_INET)
		memcpy(addr, &((struct sockaddr_in *)ai->ai_addr)->sin_addr, 4);
	else
		memcpy(addr, &((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr, 16);
	freeaddrinfo(ai);
	return 0;
}

static int ipaddr_parse(const struct datatype *dt, const char *s,
			struct expr *res, char *err, size_t errlen)
{
	struct in6_addr a6;
	struct in_addr a;

	/*
	 * nft reads addresses as getaddrinfo() does: inet_aton(), where
	 * 010.0.0.1 is 8.0.0.1 (a leading zero is octal) and 10 is 0.0.0.10
	 */
	if (inet_pton(AF_INET, s, &a) != 1 &&
	    (!aton_form(s) || !inet_aton(s, &a))) {
		if (host_name_form(s))
			return host_resolve(s, AF_INET, res->val.data, err, errlen);
		snprintf(err, errlen, "could not parse IPv4 address \"%s\"%s", s,
			 inet_pton(AF_INET6, s, &a6) == 1 ?
			 ": it is an IPv6 address (ip6 saddr, ip6 daddr, ipv6_addr)" : "");
		return -1;
	}
	memcpy(res->val.data, &a, 4);
	return 0;
}

static int ip6addr_parse(const struct datatype *dt, const char *s,
			 struct expr *res, char *err, size_t errlen)
{
	struct in6_addr a;
	struct in_addr a4;

	if (inet_pton(AF_INET6, s, &a) != 1) {
		if (host_name_form(s))
			return host_resolve(s, AF_INET6, res->val.data, err, errlen);
		snprintf(err, errlen, "could not parse IPv6 address \"%s\"%s", s,
			 inet_pton(AF_INET, s, &a4) == 1 ?
			 ": it is an IPv4 address (ip saddr, ip daddr, ipv4_addr)" : "");
		return -1;
	}
	memcpy(res->val.data, &a, 16);
	return 0;
}

static int lladdr_parse(const struct datatype *dt, const char *s,
			struct expr *res, char *err, size_t errlen)
{
	unsigned int n = 0, max = res->len ? res->len / 8 : NFH_VAL_MAXLEN;
	const char *p = s;

	while (*p) {
		char *end;
		unsigned long b = strtoul(p, &end, 16);

		if (end == p || end - p > 2 || b > 0xff || n >= max ||
		    (*end && *end != ':')) {
			snprintf(err, errlen, "could not parse %s \"%s\"",
				 dt->desc, s);
			return -1;
		}
		res->val.data[n++] = b;
		p = *end ? end + 1 : end;
	}
	if (dt == &etheraddr_type && n != 6) {
		snprintf(err, errlen, "could not parse %s \"%s\"", dt->desc, s);
		return -1;
	}
	if (!res->len)
		res->len = n * 8;
	return 0;
}

/*
 * The protocols that are words of nft's grammar: nft 1.0.6 gives them their
 * numbers itself, whatever /etc/protocols says (Debian's names 108 "ipcomp",
 * not "comp", and 58 "ipv6-icmp", not "icmpv6").
 */
static const struct symbol keyword_protos[] = {
	{ "icmp", IPPROTO_ICMP }, { "igmp", IPPROTO_IGMP },
	{ "tcp", IPPROTO_TCP }, { "udp", IPPROTO_UDP },
	{ "dccp", IPPROTO_DCCP }, { "esp", IPPROTO_ESP },
	{ "ah", IPPROTO_AH }, { "icmpv6", IPPROTO_ICMPV6 },
	{ "comp", IPPROTO_COMP }, { "sctp", IPPROTO_SCTP },
	{ "udplite", IPPROTO_UDPLITE },
	{ NULL, 0 },
};

static int inet_protocol_parse(const struct datatype *dt, const char *s,
			       struct expr *res, char *err, size_t errlen)
{
	const struct symbol *kw;
	struct protoent *p;
	struct suggest sg;

	if (isdigit((unsigned char)s[0]))
		return integer_parse(dt, s, res, err, errlen);
	kw = symbol_by_name(keyword_protos, s);
	if (kw) {
		expr_value_set_u64(res, kw->value);
		return 0;
	}
	p = getprotobyname(s);
	if (!p) {
		snprintf(err, errlen, "unknown protocol \"%s\"%s", s,
			 suggest_symbol(&sg, keyword_protos, s));
		return -1;
	}
	expr_value_set_u64(res, p->p_proto);
	return 0;
}

static int inet_service_parse(const struct datatype *dt, const char *s,
			      struct expr *res, char *err, size_t errlen)
{
	struct in6_addr a6;
	struct servent *sv;

	/*
	 * nft reads "010" as an octal number, and "08", which is no octal
	 * number, as a decimal port number, as getaddrinfo() reads it.
	 */
	if (s[0] == '0' && s[strspn(s, "0123456789")] == '\0' &&
	    s[strspn(s, "01234567")] != '\0')
		while (s[0] == '0' && s[1])
			s++;
	if (isdigit((unsigned char)s[0]) &&
	    integer_parse(dt, s, res, err, errlen) < 0) {
		if (inet_pton(AF_INET, s, &a6) == 1 || inet_pton(AF_INET6, s, &a6) == 1)
			snprintf(err, errlen, "could not parse %s value \"%s\": it is an address, not a port",
				 dt->desc ? dt->desc : dt->name, s);
		return -1;
	}
	if (isdigit((unsigned char)s[0]))
		return 0;
	sv = getservbyname(s, NULL);
	if (!sv) {
		snprintf(err, errlen, "could not resolve service \"%s\"%s", s,
			 inet_pton(AF_INET6, s, &a6) == 1 ?
			 ": it is an address, not a port" : "");
		return -1;
	}
	expr_value_set_u64(res, ntohs(sv->s_port));
	return 0;
}

static int uid_parse(const struct datatype *dt, const char *s,
		     struct expr *res, char *err, size_t errlen)
{
	struct passwd *pw;

	if (isdigit((unsigned char)s[0]))
		return integer_parse(dt, s, res, err, errlen);
	pw = getpwnam(s);
	if (!pw) {
		snprintf(err, errlen, "user \"%s\" does not exist", s);
		return -1;
	}
	expr_value_set_u64(res, pw->pw_uid);
	return 0;
}

/*
 * tc class ids: "major:minor" in hex, "root", "none", or a number (nft
 * 1.0.6 takes "meta priority 10" as 0:a)
 */
static int classid_parse(const struct datatype *dt, const char *s,
			 struct expr *res, char *err, size_t errlen)
{
	unsigned long major, minor;
	char *end;

	if (isdigit((unsigned char)s[0]) && !strchr(s, ':'))
		return integer_parse(dt, s, res, err, errlen);
	if (!strcmp(s, "root")) {
		expr_value_set_u64(res, 0xffffffff);
		return 0;
	}
	if (!strcmp(s, "none")) {
		expr_value_set_u64(res, 0);
		return 0;
	}
	major = strtoul(s, &end, 16);
	if (*end != ':' || end == s || major > 0xffff)
		goto bad;
	s = end + 1;
	minor = strtoul(s, &end, 16);
	if (*end || end == s || minor > 0xffff)
		goto bad;
	expr_value_set_u64(res, major << 16 | minor);
	return 0;
bad:
	snprintf(err, errlen, "could not parse class id \"%s\": MAJOR:MINOR in hex, a number, root or none",
		 s);
	return -1;
}

static void classid_print(const struct expr *e, const struct output_ctx *o,
			  FILE *f)
{
	uint64_t v = expr_value_u64(e);

	(void)o;
	if (v == 0xffffffff)
		fprintf(f, "root");
	else if (v == 0)
		fprintf(f, "none");
	else
		fprintf(f, "%x:%x", (unsigned int)(v >> 16), (unsigned int)(v & 0xffff));
}

static int gid_parse(const struct datatype *dt, const char *s,
		     struct expr *res, char *err, size_t errlen)
{
	struct group *gr;

	if (isdigit((unsigned char)s[0]))
		return integer_parse(dt, s, res, err, errlen);
	gr = getgrnam(s);
	if (!gr) {
		snprintf(err, errlen, "group \"%s\" does not exist", s);
		return -1;
	}
	expr_value_set_u64(res, gr->gr_gid);
	return 0;
}

static int ifindex_parse(const struct datatype *dt, const char *s,
			 struct expr *res, char *err, size_t errlen)
{
	unsigned int idx;

	if (isdigit((unsigned char)s[0]))
		return integer_parse(dt, s, res, err, errlen);
	idx = if_nametoindex(s);
	if (!idx) {
		snprintf(err, errlen, "interface \"%s\" does not exist", s);
		return -1;
	}
	expr_value_set_u64(res, idx);
	return 0;
}

/*
 * Names of marks, realms and device groups, from iproute2's files: "VALUE
 * NAME" lines, VALUE decimal or 0x hex, '#' comments.  Each file is read
 * once, when a name is first parsed or a value printed.  These are the
 * paths nft 1.0.6 reads (it has no fallback to /usr/share/iproute2), and as
 * there a line that is neither ends the file.
 */
struct rt_names {
	const char	*path;
	bool		loaded;
	struct symbol	*syms;		/* ends with a NULL name */
};

static struct rt_names rt_marks = { .path = "/etc/iproute2/rt_marks" };
static struct rt_names rt_realms = { .path = "/etc/iproute2/rt_realms" };
static struct rt_names rt_groups = { .path = "/etc/iproute2/group" };

static struct rt_names *rt_names_of(const struct datatype *dt)
{
	if (dt == &mark_type)
		return &rt_marks;
	if (dt == &realm_type)
		return &rt_realms;
	return &rt_groups;
}

/* one line's value and name; -1 if it holds neither */
static int rt_line(char *p, uint64_t *value, char **name)
{
	bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	char *end;

	if (!isdigit((unsigned char)p[0]))
		return -1;
	errno = 0;
	*value = strtoull(p, &end, hex ? 16 : 10);
	if (errno || *value > UINT32_MAX || (*end != ' ' && *end != '\t'))
		return -1;
	*name = end + strspn(end, " \t");
	(*name)[strcspn(*name, " \t\r\n")] = '\0';
	return **name ? 0 : -1;
}

static const struct symbol *rt_names_get(struct rt_names *t)
{
	size_t n = 0;
	char line[512];
	FILE *f;

	if (t->loaded)
		return t->syms;
	t->loaded = true;
	f = fopen(t->path, "re");
	if (!f)
		return NULL;
	t->syms = xzalloc(sizeof(*t->syms));
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t"), *name;
		uint64_t v;

		if (*p == '#' || *p == '\n' || *p == '\0')
			continue;
		if (rt_line(p, &v, &name) < 0)
			break;
		t->syms = xrealloc(t->syms, (n + 2) * sizeof(*t->syms));
		t->syms[n].name = xstrdup(name);
		t->syms[n].value = v;
		t->syms[++n].name = NULL;
	}
	fclose(f);
	return t->syms;
}

static int rt_name_parse(const struct datatype *dt, const char *s,
			 struct expr *res, char *err, size_t errlen)
{
	const struct symbol *sym = NULL;

	if (!isdigit((unsigned char)s[0]))
		sym = symbol_by_name(rt_names_get(rt_names_of(dt)), s);
	if (!sym)
		return integer_parse(dt, s, res, err, errlen);
	expr_value_set_u64(res, sym->value);
	return 0;
}

/*
 * meta hour and meta time hold UTC (seconds since midnight, nanoseconds
 * since the epoch); rules are written and listed in local time, as nft does.
 */
static long local_utc_offset(void)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!localtime_r(&now, &tm))
		return 0;
	return tm.tm_gmtoff;
}

/*
 * A plain number is the value itself, as nft takes it: seconds since
 * midnight for meta hour, seconds since the epoch for meta time (held in
 * nanoseconds, wrapping as nft's multiplication does); no time zone
 */
static bool seconds_parse(const char *s, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !*end && !errno;
}

static int hour_parse(const struct datatype *dt, const char *s,
		      struct expr *res, char *err, size_t errlen)
{
	unsigned int h, m, sec = 0;
	uint64_t secs;
	long v;
	int n = 0;

	if (seconds_parse(s, &secs)) {
		if (secs > UINT32_MAX) {
			snprintf(err, errlen, "value too large");
			return -1;
		}
		expr_value_set_u64(res, secs);
		return 0;
	}

	if ((sscanf(s, "%2u:%2u%n", &h, &m, &n) != 2 || s[n]) &&
	    (sscanf(s, "%2u:%2u:%2u%n", &h, &m, &sec, &n) != 3 || s[n])) {
		snprintf(err, errlen, "could not parse %s value \"%s\": HH:MM or HH:MM:SS expected",
			 dt->desc, s);
		return -1;
	}
	if (h > 23 || m > 59 || sec > 59) {
		snprintf(err, errlen, "time of day \"%s\" out of range", s);
		return -1;
	}
	v = ((long)h * 3600 + m * 60 + sec - local_utc_offset()) % 86400;
	expr_value_set_u64(res, v < 0 ? v + 86400 : v);
	return 0;
}

static int date_parse(const struct datatype *dt, const char *s,
		      struct expr *res, char *err, size_t errlen)
{
	static const char *const formats[] = {
		"%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d",
	};
	const char *end = NULL;
	uint64_t secs;
	struct tm tm;
	time_t t;

	if (seconds_parse(s, &secs)) {
		expr_value_set_u64(res, secs * 1000000000ULL);
		return 0;
	}
	for (unsigned int i = 0; i < array_size(formats) && !(end && !*end); i++) {
		memset(&tm, 0, sizeof(tm));
		end = strptime(s, formats[i], &tm);
	}
	if (!end || *end) {
		snprintf(err, errlen, "could not parse %s value \"%s\": \"YYYY-MM-DD [HH:MM[:SS]]\" expected",
			 dt->desc, s);
		return -1;
	}
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t < 0) {
		snprintf(err, errlen, "date \"%s\" is before 1970", s);
		return -1;
	}
	expr_value_set_u64(res, (uint64_t)t * 1000000000ULL);
	return 0;
}

/*
 * MPTCP option subtypes: newer nft reads their names; nft 1.0.6 lists the
 * numbers, and so does nfh (the names are not the type's symbols)
 */
static int mptcp_subtype_parse(const struct datatype *dt, const char *s,
			       struct expr *res, char *err, size_t errlen)
{
	static const char *const names[] = {
		"mp-capable", "mp-join", "dss", "add-addr", "remove-addr",
		"mp-prio", "mp-fail", "mp-fastclose", "mp-tcprst",
	};

	for (unsigned int i = 0; i < array_size(names); i++)
		if (!strcmp(s, names[i])) {
			expr_value_set_u64(res, i);
			return 0;
		}
	return integer_parse(dt, s, res, err, errlen);
}

/* "30s", "1m30s", "250ms": held as milliseconds (ct expiration) */
static int time_value_parse(const struct datatype *dt, const char *s,
			    struct expr *res, char *err, size_t errlen)
{
	uint64_t ms;

	switch (time_parse(s, &ms)) {
	case 0:
		break;
	case -ERANGE:
		snprintf(err, errlen, "value too large");
		return -1;
	default:
		snprintf(err, errlen, "could not parse %s value \"%s\"", dt->desc, s);
		return -1;
	}
	if (res->len < 64 && ms >> res->len) {
		snprintf(err, errlen, "time value %s exceeds valid range 0-%llums",
			 s, (1ULL << res->len) - 1);
		return -1;
	}
	expr_value_set_u64(res, ms);
	return 0;
}

/*
 * A conntrack label is a bit number, 0-127, or a name from connlabel.conf
 * ("N name" lines); the value is that one bit of the 128-bit label mask,
 * as nft makes it.  Read the file each time: it is small and rarely used.
 */
#define CONNLABEL_CONF	"/etc/connlabel.conf"
#define CT_LABEL_BITS	128

static bool connlabel_lookup(const char *name, unsigned long *bit,
			     const char **found)
{
	char line[512], lname[256];
	long n;
	bool ok = false;
	FILE *f = fopen(CONNLABEL_CONF, "re");

	if (!f)
		return false;
	while (!ok && fgets(line, sizeof(line), f)) {
		const char *p = line + strspn(line, " \t");

		if (*p == '#' || sscanf(p, "%li %255s", &n, lname) != 2 || n < 0)
			continue;
		if (name ? !strcmp(name, lname) : (unsigned long)n == *bit) {
			*bit = n;
			if (found)
				*found = xstrdup(lname);
			ok = true;
		}
	}
	fclose(f);
	return ok;
}

static int ct_label_parse(const struct datatype *dt, const char *s,
			  struct expr *res, char *err, size_t errlen)
{
	unsigned long bit;
	char *end;

	if (isdigit((unsigned char)s[0])) {
		errno = 0;
		bit = strtoul(s, &end, 0);
		if (*end || errno) {
			snprintf(err, errlen, "could not parse %s value \"%s\"",
				 dt->desc, s);
			return -1;
		}
	} else if (!connlabel_lookup(s, &bit, NULL)) {
		snprintf(err, errlen, "%s: could not parse conntrack label \"%s\"",
			 CONNLABEL_CONF, s);
		return -1;
	}
	if (bit >= CT_LABEL_BITS || bit >= res->len) {
		snprintf(err, errlen, "%s: bit %lu out of range (%u max)", s,
			 bit, CT_LABEL_BITS);
		return -1;
	}
	memset(res->val.data, 0, sizeof(res->val.data));
	res->val.data[expr_value_bytes(res) - 1 - bit / 8] = 1 << (bit % 8);
	return 0;
}

/* --- printers ---------------------------------------------------------- */

static bool needs_escape(const char *s)
{
	for (; *s; s++)
		if (*s == '"' || (unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/*
 * @s in quotes, as it is when nfh reads it back as itself; with a quote or
 * a control byte in it (a kernel object another tool made) those are
 * escaped, \" \\ \xHH, and the listing does not load again rather than
 * load something else: nfh's strings have no escapes.
 */
void quoted_print(FILE *f, const char *s)
{
	if (!needs_escape(s)) {
		fprintf(f, "\"%s\"", s);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void integer_print(const struct expr *e, const struct output_ctx *o,
			  FILE *f)
{
	if (e->len > 64) {
		fprintf(f, "0x");
		for (unsigned int i = 0; i < expr_value_bytes(e); i++)
			fprintf(f, "%02x", e->val.data[i]);
		return;
	}
	fprintf(f, "%llu", (unsigned long long)expr_value_u64(e));
}

/*
 * A cgroup (v2) is named by its path under /sys/fs/cgroup and held as its
 * id, the inode of its directory; nft reads both from the file system,
 * also with -c.  Listed as the path of the directory whose entry has that
 * inode, as nft finds it (readdir's inode: a mount point's own is that of
 * the directory it covers), else as the number.
 */
#define CGROUPV2_ROOT	"/sys/fs/cgroup"

static int cgroupv2_parse(const struct datatype *dt, const char *s,
			  struct expr *res, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), CGROUPV2_ROOT "/%s", s);
	if (stat(path, &st) < 0) {
		snprintf(err, errlen, "cgroupv2 path fails: %s", strerror(errno));
		return -1;
	}
	expr_value_set_u64(res, st.st_ino);
	return 0;
}

/* the path under @dir (relative to the root, in @rel) of inode @ino */
static bool cgroupv2_find(const char *dir, const char *rel, uint64_t ino,
			  char *out, size_t outlen, unsigned int depth)
{
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (depth > 32 || !(d = opendir(dir)))
		return false;
	while (!found && (de = readdir(d))) {
		char sub[PATH_MAX], subrel[PATH_MAX];

		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") ||
		    !strcmp(de->d_name, ".."))
			continue;
		snprintf(subrel, sizeof(subrel), "%s%s%s", rel, *rel ? "/" : "",
			 de->d_name);
		if (de->d_ino == ino) {
			snprintf(out, outlen, "%s", subrel);
			found = true;
			break;
		}
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		found = cgroupv2_find(sub, subrel, ino, out, outlen, depth + 1);
	}
	closedir(d);
	return found;
}

static void cgroupv2_print(const struct expr *e, const struct output_ctx *o,
			   FILE *f)
{
	char path[PATH_MAX];

	if (cgroupv2_find(CGROUPV2_ROOT, "", expr_value_u64(e), path,
			  sizeof(path), 0))
		fprintf(f, "\"%s\"", path);
	else
		integer_print(e, o, f);
}

/* the lowest bit set, as nft prints a label: by name if connlabel.conf has it */
static void ct_label_print(const struct expr *e, const struct output_ctx *o,
			   FILE *f)
{
	unsigned int n = expr_value_bytes(e);
	unsigned long bit;
	const char *name = NULL;

	for (bit = 0; bit < n * 8; bit++)
		if (e->val.data[n - 1 - bit / 8] & (1 << (bit % 8)))
			break;
	if (bit == n * 8) {
		fprintf(f, "0");
		return;
	}
	/* nft names it even with -n */
	if (connlabel_lookup(NULL, &bit, &name)) {
		fprintf(f, "\"%s\"", name);
		free((char *)name);
		return;
	}
	fprintf(f, "%lu", bit);
}

static void time_value_print(const struct expr *e, const struct output_ctx *o,
			     FILE *f)
{
	time_print_opt(expr_value_u64(e), o, f);
}

static void hour_print(const struct expr *e, const struct output_ctx *o,
		       FILE *f)
{
	long v = ((long)(expr_value_u64(e) % 86400) + local_utc_offset()) % 86400;

	if (v < 0)
		v += 86400;
	fprintf(f, "\"%02ld:%02ld", v / 3600, v / 60 % 60);
	if (v % 60)
		fprintf(f, ":%02ld", v % 60);
	fputc('"', f);
}

static void date_print(const struct expr *e, const struct output_ctx *o,
		       FILE *f)
{
	time_t t = expr_value_u64(e) / 1000000000ULL;
	char buf[64];
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm)) {
		integer_print(e, o, f);
		return;
	}
	fprintf(f, "\"%s\"", buf);
}

static void hex_print(const struct expr *e, const struct output_ctx *o,
		      FILE *f)
{
	fprintf(f, "0x%0*llx", (int)expr_value_bytes(e) * 2,
		(unsigned long long)expr_value_u64(e));
}

/* a name from rt_names_get() quoted, as nft prints it, else the number */
static void rt_name_print(const struct expr *e, const struct output_ctx *o,
			  FILE *f)
{
	const struct symbol *sym = NULL;

	if (!(o->flags & (NFH_OUTPUT_NUMERIC | NFH_PRINT_RANGE)))
		sym = symbol_by_value(rt_names_get(rt_names_of(e->dtype)),
				      expr_value_u64(e));
	if (sym)
		fprintf(f, "\"%s\"", sym->name);
	else if (e->dtype == &mark_type)
		hex_print(e, o, f);
	else
		integer_print(e, o, f);
}

/* nft's plain bitmask fields (comp flags): hex without leading zeros */
static void hex_short_print(const struct expr *e, const struct output_ctx *o,
			    FILE *f)
{
	fprintf(f, "0x%llx", (unsigned long long)expr_value_u64(e));
}

static void string_print(const struct expr *e, const struct output_ctx *o,
			 FILE *f)
{
	unsigned int n = expr_value_bytes(e), len = 0;

	while (len < n && e->val.data[len])
		len++;
	for (unsigned int i = 0; i < len; i++)
		if (e->val.data[i] == '"' || e->val.data[i] < 0x20) {
			/* a name another tool made: escaped, see quoted_print() */
			char buf[sizeof(e->val.data) + 1];

			memcpy(buf, e->val.data, len);
			buf[len] = '\0';
			quoted_print(f, buf);
			return;
		}
	if (e->flags & EXPR_F_WILDCARD) {
		fprintf(f, "\"%.*s*\"", (int)len, (const char *)e->val.data);
		return;
	}
	/* a literal asterisk at the end is escaped, a wildcard is not */
	if (len > 0 && e->val.data[len - 1] == '*')
		fprintf(f, "\"%.*s\\*\"", (int)len - 1, (const char *)e->val.data);
	else
		fprintf(f, "\"%.*s\"", (int)len, (const char *)e->val.data);
}

/* -N: the host name the resolver gives the address, as nft asks it (a
   name required); false if it has none */
static bool addr_name_print(int af, const void *addr, const struct output_ctx *o,
			    FILE *f)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in s4 = { .sin_family = AF_INET };
	char host[NI_MAXHOST];

	if (!(o->flags & NFH_OUTPUT_REVERSEDNS) || (o->flags & NFH_PRINT_RANGE))
		return false;
	if (af == AF_INET)
		memcpy(&s4.sin_addr, addr, sizeof(s4.sin_addr));
	else
		memcpy(&s6.sin6_addr, addr, sizeof(s6.sin6_addr));
	if (getnameinfo(af == AF_INET ? (struct sockaddr *)&s4 : (struct sockaddr *)&s6,
			af == AF_INET ? sizeof(s4) : sizeof(s6), host, sizeof(host),
			NULL, 0, NI_NAMEREQD))
		return false;
	fputs(host, f);
	return true;
}

static void ipaddr_print(const struct expr *e, const struct output_ctx *o,
			 FILE *f)
{
	char buf[INET_ADDRSTRLEN];

	if (addr_name_print(AF_INET, e->val.data, o, f))
		return;
	inet_ntop(AF_INET, e->val.data, buf, sizeof(buf));
	fputs(buf, f);
}

static void ip6addr_print(const struct expr *e, const struct output_ctx *o,
			  FILE *f)
{
	char buf[INET6_ADDRSTRLEN];

	if (addr_name_print(AF_INET6, e->val.data, o, f))
		return;
	inet_ntop(AF_INET6, e->val.data, buf, sizeof(buf));
	fputs(buf, f);
}

static void lladdr_print(const struct expr *e, const struct output_ctx *o,
			 FILE *f)
{
	for (unsigned int i = 0; i < expr_value_bytes(e); i++)
		fprintf(f, "%s%02x", i ? ":" : "", e->val.data[i]);
}

static void inet_protocol_print(const struct expr *e,
				const struct output_ctx *o, FILE *f)
{
	struct protoent *p = NULL;

	if (!(o->flags & (NFH_OUTPUT_NUMERIC_PROTO | NFH_PRINT_RANGE)))
		p = getprotobynumber(expr_value_u64(e));
	if (p)
		fputs(p->p_name, f);
	else
		fprintf(f, "%llu", (unsigned long long)expr_value_u64(e));
}

/* -S: a port with a name in /etc/services prints as that name, quoted */
static void inet_service_print(const struct expr *e,
			       const struct output_ctx *o, FILE *f)
{
	struct servent *sv = NULL;

	if ((o->flags & NFH_OUTPUT_SERVICE) && !(o->flags & NFH_PRINT_RANGE))
		sv = getservbyport(htons(expr_value_u64(e)), NULL);
	if (sv)
		fprintf(f, "\"%s\"", sv->s_name);
	else
		integer_print(e, o, f);
}

/* -u: a user or group id with a name in the system's database prints so */
static void uid_print(const struct expr *e, const struct output_ctx *o,
		      FILE *f)
{
	struct passwd *pw = NULL;

	if ((o->flags & NFH_OUTPUT_GUID) && !(o->flags & NFH_PRINT_RANGE))
		pw = getpwuid(expr_value_u64(e));
	if (pw)
		fprintf(f, "\"%s\"", pw->pw_name);
	else
		integer_print(e, o, f);
}

static void gid_print(const struct expr *e, const struct output_ctx *o,
		      FILE *f)
{
	struct group *gr = NULL;

	if ((o->flags & NFH_OUTPUT_GUID) && !(o->flags & NFH_PRINT_RANGE))
		gr = getgrgid(expr_value_u64(e));
	if (gr)
		fprintf(f, "\"%s\"", gr->gr_name);
	else
		integer_print(e, o, f);
}

static void ifindex_print(const struct expr *e, const struct output_ctx *o,
			  FILE *f)
{
	char name[IF_NAMESIZE];

	if (if_indextoname(expr_value_u64(e), name))
		fprintf(f, "\"%s\"", name);
	else
		fprintf(f, "%llu", (unsigned long long)expr_value_u64(e));
}

/* --- symbol tables ----------------------------------------------------- */

static const struct symbol ethertype_syms[] = {
	{ "ip", 0x0800 }, { "arp", 0x0806 }, { "ip6", 0x86dd },
	{ "8021q", 0x8100 }, { "8021ad", 0x88a8 }, { "vlan", 0x8100 },
	{ NULL, 0 },
};

static const struct symbol nfproto_syms[] = {
	{ "ipv4", 2 }, { "ipv6", 10 }, { NULL, 0 },
};

static const struct symbol icmp_type_syms[] = {
	{ "echo-reply", 0 }, { "destination-unreachable", 3 },
	{ "source-quench", 4 }, { "redirect", 5 }, { "echo-request", 8 },
	{ "router-advertisement", 9 }, { "router-solicitation", 10 },
	{ "time-exceeded", 11 }, { "parameter-problem", 12 },
	{ "timestamp-request", 13 }, { "timestamp-reply", 14 },
	{ "info-request", 15 }, { "info-reply", 16 },
	{ "address-mask-request", 17 }, { "address-mask-reply", 18 },
	{ NULL, 0 },
};

static const struct symbol icmp6_type_syms[] = {
	{ "destination-unreachable", 1 }, { "packet-too-big", 2 },
	{ "time-exceeded", 3 }, { "parameter-problem", 4 },
	{ "echo-request", 128 }, { "echo-reply", 129 },
	{ "mld-listener-query", 130 }, { "mld-listener-report", 131 },
	{ "mld-listener-done", 132 }, { "mld-listener-reduction", 132 },
	{ "nd-router-solicit", 133 }, { "nd-router-advert", 134 },
	{ "nd-neighbor-solicit", 135 }, { "nd-neighbor-advert", 136 },
	{ "nd-redirect", 137 }, { "router-renumbering", 138 },
	{ "ind-neighbor-solicit", 141 }, { "ind-neighbor-advert", 142 },
	{ "mld2-listener-report", 143 },
	{ NULL, 0 },
};

static const struct symbol icmp_code_syms[] = {
	{ "net-unreachable", 0 }, { "host-unreachable", 1 },
	{ "prot-unreachable", 2 }, { "port-unreachable", 3 },
	{ "net-prohibited", 9 }, { "host-prohibited", 10 },
	{ "admin-prohibited", 13 }, { "frag-needed", 4 },
	{ NULL, 0 },
};

static const struct symbol icmpv6_code_syms[] = {
	{ "no-route", 0 }, { "admin-prohibited", 1 },
	{ "addr-unreachable", 3 }, { "port-unreachable", 4 },
	{ "policy-fail", 5 }, { "reject-route", 6 },
	{ NULL, 0 },
};

static const struct symbol icmpx_code_syms[] = {
	{ "port-unreachable", 1 }, { "admin-prohibited", 3 },
	{ "no-route", 0 }, { "host-unreachable", 2 },
	{ NULL, 0 },
};

static const struct symbol tcp_flag_syms[] = {
	{ "fin", 0x01 }, { "syn", 0x02 }, { "rst", 0x04 }, { "psh", 0x08 },
	{ "ack", 0x10 }, { "urg", 0x20 }, { "ecn", 0x40 }, { "cwr", 0x80 },
	{ NULL, 0 },
};

static const struct symbol ct_state_syms[] = {
	{ "invalid", 1 }, { "new", 8 }, { "established", 2 },
	{ "related", 4 }, { "untracked", 64 },
	{ NULL, 0 },
};

static const struct symbol ct_dir_syms[] = {
	{ "original", 0 }, { "reply", 1 }, { NULL, 0 },
};

static const struct symbol ct_status_syms[] = {
	{ "expected", 1 }, { "seen-reply", 2 }, { "assured", 4 },
	{ "confirmed", 8 }, { "snat", 16 }, { "dnat", 32 }, { "dying", 512 },
	{ NULL, 0 },
};

static const struct symbol ct_event_syms[] = {
	{ "new", 0x1 }, { "related", 0x2 }, { "destroy", 0x4 },
	{ "reply", 0x8 }, { "assured", 0x10 }, { "protoinfo", 0x20 },
	{ "helper", 0x40 }, { "mark", 0x80 }, { "seqadj", 0x100 },
	{ "secmark", 0x200 }, { "label", 0x400 },
	{ NULL, 0 },
};

static const struct symbol pkttype_syms[] = {
	{ "host", 0 }, { "unicast", 0 }, { "broadcast", 1 },
	{ "multicast", 2 }, { "other", 3 },
	{ NULL, 0 },
};

static const struct symbol arphrd_syms[] = {
	{ "ether", 1 }, { "ppp", 512 }, { "ipip", 768 }, { "ipip6", 769 },
	{ "loopback", 772 }, { "sit", 776 }, { "ipgre", 778 },
	{ NULL, 0 },
};

static const struct symbol arpop_syms[] = {
	{ "request", 1 }, { "reply", 2 }, { "rrequest", 3 }, { "rreply", 4 },
	{ "inrequest", 8 }, { "inreply", 9 }, { "nak", 10 },
	{ NULL, 0 },
};

static const struct symbol dscp_syms[] = {
	{ "cs0", 0x00 }, { "cs1", 0x08 }, { "cs2", 0x10 }, { "cs3", 0x18 },
	{ "cs4", 0x20 }, { "cs5", 0x28 }, { "cs6", 0x30 }, { "cs7", 0x38 },
	{ "df", 0x00 }, { "be", 0x00 }, { "lephb", 0x01 }, { "af11", 0x0a }, { "af12", 0x0c }, { "af13", 0x0e },
	{ "af21", 0x12 }, { "af22", 0x14 }, { "af23", 0x16 },
	{ "af31", 0x1a }, { "af32", 0x1c }, { "af33", 0x1e },
	{ "af41", 0x22 }, { "af42", 0x24 }, { "af43", 0x26 },
	{ "va", 0x2c }, { "ef", 0x2e },
	{ NULL, 0 },
};

static const struct symbol ecn_syms[] = {
	{ "not-ect", 0 }, { "ect1", 1 }, { "ect0", 2 }, { "ce", 3 },
	{ NULL, 0 },
};

static const struct symbol boolean_syms[] = {
	{ "exists", 1 }, { "missing", 0 }, { NULL, 0 },
};

/* route types, RTN_* of linux/rtnetlink.h, those nft names (1.0.6 and
   1.1.1 have no throw, nat, xresolve: they refuse them and list 9-11) */
static const struct symbol fib_addr_syms[] = {
	{ "unspec", 0 }, { "unicast", 1 }, { "local", 2 }, { "broadcast", 3 },
	{ "anycast", 4 }, { "multicast", 5 }, { "blackhole", 6 },
	{ "unreachable", 7 }, { "prohibit", 8 },
	{ NULL, 0 },
};

static const struct symbol igmp_type_syms[] = {
	{ "membership-query", 0x11 }, { "membership-report-v1", 0x12 },
	{ "membership-report-v2", 0x16 }, { "membership-report-v3", 0x22 },
	{ "leave-group", 0x17 },
	{ NULL, 0 },
};

static const struct symbol dccp_pkttype_syms[] = {
	{ "request", 0 }, { "response", 1 }, { "data", 2 }, { "ack", 3 },
	{ "dataack", 4 }, { "closereq", 5 }, { "close", 6 }, { "reset", 7 },
	{ "sync", 8 }, { "syncack", 9 },
	{ NULL, 0 },
};

static const struct symbol mh_type_syms[] = {
	{ "binding-refresh-request", 0 }, { "home-test-init", 1 },
	{ "careof-test-init", 2 }, { "home-test", 3 }, { "careof-test", 4 },
	{ "binding-update", 5 }, { "binding-acknowledgement", 6 },
	{ "binding-error", 7 }, { "fast-binding-update", 8 },
	{ "fast-binding-acknowledgement", 9 },
	{ "fast-binding-advertisement", 10 },
	{ "experimental-mobility-header", 11 },
	{ "home-agent-switch-message", 12 },
	{ NULL, 0 },
};

static const struct symbol day_syms[] = {
	{ "Sunday", 0 }, { "Monday", 1 }, { "Tuesday", 2 }, { "Wednesday", 3 },
	{ "Thursday", 4 }, { "Friday", 5 }, { "Saturday", 6 },
	{ NULL, 0 },
};

/* --- the types --------------------------------------------------------- */

#define DT(var, t, n, d, base, bo, sz, fl, syms, p, pr)			\
	const struct datatype var = {					\
		.type = t, .name = n, .desc = d, .basetype = base,	\
		.byteorder = bo, .size = sz, .flags = fl,		\
		.symbols = syms, .parse = p, .print = pr,		\
	}

DT(invalid_type, TYPE_INVALID, "invalid", "invalid", NULL,
   BYTEORDER_INVALID, 0, 0, NULL, NULL, NULL);
DT(verdict_type, TYPE_VERDICT, "verdict", "netfilter verdict", NULL,
   BYTEORDER_INVALID, 0, 0, NULL, NULL, NULL);
DT(integer_type, TYPE_INTEGER, "integer", "integer", NULL,
   BYTEORDER_HOST, 0, 0, NULL, integer_parse, integer_print);
DT(bitmask_type, TYPE_BITMASK, "bitmask", "bitmask", &integer_type,
   BYTEORDER_HOST, 0, DTYPE_F_BITMASK, NULL, integer_parse, hex_print);
DT(hexflags_type, TYPE_BITMASK, "bitmask", "bitmask", &integer_type,
   BYTEORDER_BIG, 0, 0, NULL, integer_parse, hex_short_print);
DT(string_type, TYPE_STRING, "string", "string", NULL,
   BYTEORDER_HOST, 0, 0, NULL, string_parse, string_print);
/* a stateful object's name as a map gives it: a string, sent as a name */
DT(objref_type, TYPE_STRING, "object", "stateful object name",
   &string_type, BYTEORDER_HOST, (NFH_VAL_MAXLEN - 1) * 8, 0, NULL,
   string_parse, string_print);
DT(ifname_type, TYPE_IFNAME, "ifname", "network interface name",
   &string_type, BYTEORDER_HOST, 16 * 8, 0, NULL, string_parse, string_print);
DT(lladdr_type, TYPE_LLADDR, "ll_addr", "link layer address",
   &integer_type, BYTEORDER_BIG, 0, 0, NULL, lladdr_parse, lladdr_print);
DT(ipaddr_type, TYPE_IPADDR, "ipv4_addr", "IPv4 address", &integer_type,
   BYTEORDER_BIG, 32, DTYPE_F_PREFIX, NULL, ipaddr_parse, ipaddr_print);
DT(ip6addr_type, TYPE_IP6ADDR, "ipv6_addr", "IPv6 address", &integer_type,
   BYTEORDER_BIG, 128, DTYPE_F_PREFIX, NULL, ip6addr_parse, ip6addr_print);
DT(etheraddr_type, TYPE_ETHERADDR, "ether_addr", "Ethernet address",
   &lladdr_type, BYTEORDER_BIG, 48, 0, NULL, lladdr_parse, lladdr_print);
DT(ethertype_type, TYPE_ETHERTYPE, "ether_type", "Ethernet protocol",
   &integer_type, BYTEORDER_BIG, 16, 0, ethertype_syms, integer_parse,
   hex_print);
DT(arpop_type, TYPE_ARPOP, "arp_op", "ARP operation", &integer_type,
   BYTEORDER_BIG, 16, DTYPE_F_HEXSYMS, arpop_syms, integer_parse, integer_print);
DT(inet_protocol_type, TYPE_INET_PROTOCOL, "inet_proto",
   "Internet protocol", &integer_type, BYTEORDER_BIG, 8, 0, NULL,
   inet_protocol_parse, inet_protocol_print);
DT(inet_service_type, TYPE_INET_SERVICE, "inet_service",
   "internet network service", &integer_type, BYTEORDER_BIG, 16, 0, NULL,
   inet_service_parse, inet_service_print);
DT(icmp_type_type, TYPE_ICMP_TYPE, "icmp_type", "ICMP type", &integer_type,
   BYTEORDER_BIG, 8, 0, icmp_type_syms, integer_parse, integer_print);
DT(icmp6_type_type, TYPE_ICMP6_TYPE, "icmpv6_type", "ICMPv6 type",
   &integer_type, BYTEORDER_BIG, 8, 0, icmp6_type_syms, integer_parse,
   integer_print);
DT(icmp_code_type, TYPE_ICMP_CODE, "icmp_code", "icmp code", &integer_type,
   BYTEORDER_BIG, 8, 0, icmp_code_syms, integer_parse, integer_print);
DT(icmpv6_code_type, TYPE_ICMPV6_CODE, "icmpv6_code", "icmpv6 code",
   &integer_type, BYTEORDER_BIG, 8, 0, icmpv6_code_syms, integer_parse,
   integer_print);
DT(icmpx_code_type, TYPE_ICMPX_CODE, "icmpx_code", "icmpx code",
   &integer_type, BYTEORDER_BIG, 8, 0, icmpx_code_syms, integer_parse,
   integer_print);
DT(tcp_flag_type, TYPE_TCP_FLAG, "tcp_flag", "TCP flag", &bitmask_type,
   BYTEORDER_BIG, 8, DTYPE_F_BITMASK, tcp_flag_syms, integer_parse,
   hex_print);
DT(dccp_pkttype_type, TYPE_DCCP_PKTTYPE, "dccp_pkttype", "DCCP packet type",
   &integer_type, BYTEORDER_BIG, 4, DTYPE_F_HEXSYMS, dccp_pkttype_syms, integer_parse,
   integer_print);
DT(mh_type_type, TYPE_MH_TYPE, "mh_type", "Mobility Header Type",
   &integer_type, BYTEORDER_BIG, 8, 0, mh_type_syms, integer_parse,
   integer_print);
DT(time_type, TYPE_TIME, "time", "relative time", &integer_type,
   BYTEORDER_HOST, 64, 0, NULL, time_value_parse, time_value_print);
DT(mark_type, TYPE_MARK, "mark", "packet mark", &integer_type,
   BYTEORDER_HOST, 32, DTYPE_F_PREFIX, NULL, rt_name_parse, rt_name_print);
DT(ifindex_type, TYPE_IFINDEX, "iface_index", "network interface index",
   &integer_type, BYTEORDER_HOST, 32, 0, NULL, ifindex_parse,
   ifindex_print);
DT(arphrd_type, TYPE_ARPHRD, "iface_type", "network interface type",
   &integer_type, BYTEORDER_HOST, 16, DTYPE_F_HEXSYMS, arphrd_syms, integer_parse, integer_print);
DT(realm_type, TYPE_REALM, "realm", "routing realm", &integer_type,
   BYTEORDER_HOST, 32, DTYPE_F_PREFIX, NULL, rt_name_parse, rt_name_print);
DT(classid_type, TYPE_CLASSID, "classid", "TC classid", &integer_type,
   BYTEORDER_HOST, 32, 0, NULL, classid_parse, classid_print);
DT(uid_type, TYPE_UID, "uid", "user ID", &integer_type, BYTEORDER_HOST, 32,
   0, NULL, uid_parse, uid_print);
DT(gid_type, TYPE_GID, "gid", "group ID", &integer_type, BYTEORDER_HOST, 32,
   0, NULL, gid_parse, gid_print);
DT(ct_state_type, TYPE_CT_STATE, "ct_state", "conntrack state",
   &bitmask_type, BYTEORDER_HOST, 32, DTYPE_F_BITMASK, ct_state_syms,
   integer_parse, hex_print);
DT(ct_dir_type, TYPE_CT_DIR, "ct_dir", "conntrack direction", &integer_type,
   BYTEORDER_INVALID, 8, 0, ct_dir_syms, integer_parse, integer_print);
DT(ct_status_type, TYPE_CT_STATUS, "ct_status", "conntrack status",
   &bitmask_type, BYTEORDER_HOST, 32, DTYPE_F_BITMASK, ct_status_syms,
   integer_parse, hex_print);
DT(ct_label_type, TYPE_CT_LABEL, "ct_label", "conntrack label",
   &bitmask_type, BYTEORDER_HOST, 128, DTYPE_F_BITMASK, NULL, ct_label_parse,
   ct_label_print);
DT(ct_event_type, TYPE_CT_EVENTBIT, "ct_event", "conntrack event bits",
   &bitmask_type, BYTEORDER_HOST, 32, DTYPE_F_BITMASK, ct_event_syms,
   integer_parse, hex_print);
DT(pkttype_type, TYPE_PKTTYPE, "pkt_type", "packet type", &integer_type,
   BYTEORDER_HOST, 8, 0, pkttype_syms, integer_parse, integer_print);
DT(devgroup_type, TYPE_DEVGROUP, "devgroup", "device group", &integer_type,
   BYTEORDER_HOST, 32, DTYPE_F_PREFIX, NULL, rt_name_parse, rt_name_print);
DT(dscp_type, TYPE_DSCP, "dscp", "Differentiated Services Code Point",
   &integer_type, BYTEORDER_BIG, 6, 0, dscp_syms, integer_parse,
   hex_print);
DT(ecn_type, TYPE_ECN, "ecn", "Explicit Congestion Notification",
   &integer_type, BYTEORDER_BIG, 2, DTYPE_F_HEXSYMS, ecn_syms, integer_parse,
   hex_short_print);
DT(fib_addr_type, TYPE_FIB_ADDR, "fib_addrtype", "fib address type",
   &integer_type, BYTEORDER_HOST, 32, 0, fib_addr_syms, integer_parse,
   integer_print);
DT(boolean_type, TYPE_BOOLEAN, "boolean", "boolean type", &integer_type,
   BYTEORDER_HOST, 1, 0, boolean_syms, integer_parse, integer_print);
DT(nfproto_type, TYPE_NFPROTO, "nf_proto", "netfilter protocol",
   &integer_type, BYTEORDER_HOST, 8, 0, nfproto_syms, integer_parse,
   integer_print);
DT(igmp_type_type, TYPE_IGMP_TYPE, "igmp_type", "IGMP type", &integer_type,
   BYTEORDER_BIG, 8, 0, igmp_type_syms, integer_parse, integer_print);
DT(date_type, TYPE_TIME_DATE, "time", "Relative time of packet reception",
   &integer_type, BYTEORDER_HOST, 64, 0, NULL, date_parse, date_print);
DT(hour_type, TYPE_TIME_HOUR, "hour", "Hour of day of packet reception",
   &integer_type, BYTEORDER_HOST, 32, 0, NULL, hour_parse, hour_print);
DT(day_type, TYPE_TIME_DAY, "day", "Day of week of packet reception",
   &integer_type, BYTEORDER_HOST, 8, DTYPE_F_QUOTED, day_syms, day_parse,
   integer_print);
DT(cgroupv2_type, TYPE_CGROUPV2, "cgroupsv2", "cgroupsv2 path",
   &integer_type, BYTEORDER_HOST, 64, 0, NULL, cgroupv2_parse, cgroupv2_print);
DT(ipsec_dir_type, TYPE_INTEGER, "integer", "integer", &integer_type,
   BYTEORDER_HOST, 8, 0, NULL, integer_parse, integer_print);
DT(frag_off_type, TYPE_INTEGER, "integer", "integer", &integer_type,
   BYTEORDER_BIG, 13, 0, NULL, integer_parse, integer_print);
DT(ip_version_type, TYPE_INTEGER, "integer", "integer", &integer_type,
   BYTEORDER_BIG, 4, 0, NULL, integer_parse, integer_print);
DT(sctp_chunk_type, TYPE_INTEGER, "integer", "integer", &integer_type,
   BYTEORDER_BIG, 8, 0, NULL, integer_parse, integer_print);
DT(mptcp_subtype_type, TYPE_INTEGER, "integer", "integer", &integer_type,
   BYTEORDER_BIG, 4, 0, NULL, mptcp_subtype_parse, integer_print);

static const struct datatype *const datatypes[] = {
	&invalid_type, &verdict_type, &nfproto_type, &bitmask_type,
	&integer_type, &string_type, &lladdr_type, &ipaddr_type, &ip6addr_type,
	&etheraddr_type, &ethertype_type, &arpop_type, &inet_protocol_type,
	&inet_service_type, &icmp_type_type, &tcp_flag_type,
	&dccp_pkttype_type, &mh_type_type, &time_type, &mark_type,
	&ifindex_type, &arphrd_type, &realm_type, &classid_type, &uid_type,
	&gid_type, &ct_state_type, &ct_dir_type, &ct_status_type,
	&icmp6_type_type, &ct_label_type, &pkttype_type, &icmp_code_type,
	&icmpv6_code_type, &icmpx_code_type, &devgroup_type, &dscp_type,
	&ecn_type, &fib_addr_type, &boolean_type, &ct_event_type,
	&ifname_type, &igmp_type_type, &date_type, &hour_type, &day_type,
	&cgroupv2_type,
};

const struct datatype *datatype_lookup(enum datatypes type)
{
	if (type < array_size(datatypes))
		return datatypes[type];
	return NULL;
}

const struct datatype *datatype_lookup_byname(const char *name)
{
	for (unsigned int i = 0; i < array_size(datatypes); i++)
		if (!strcmp(datatypes[i]->name, name))
			return datatypes[i];
	return NULL;
}

bool datatype_is_integer(const struct datatype *dt)
{
	for (; dt; dt = dt->basetype)
		if (dt == &integer_type)
			return true;
	return false;
}

/* "; did you mean ..." after @err, from the names of @dt's values */
static void symbol_suggest(const struct datatype *dt, const char *str,
			   char *err, size_t errlen)
{
	size_t used = strlen(err);
	struct suggest sg;

	suggest_init(&sg, str);
	for (const struct datatype *d = dt; d; d = d->basetype)
		for (const struct symbol *sym = d->symbols; sym && sym->name; sym++)
			suggest_add(&sg, sym->name);
	if (used < errlen)
		snprintf(err + used, errlen - used, "%s", suggest_hint(&sg));
}

int datatype_parse(const struct datatype *dt, const char *str,
		   struct expr *res, char *err, size_t errlen)
{
	const struct symbol *sym = NULL;
	int ret;

	for (const struct datatype *d = dt; d && !sym; d = d->basetype)
		sym = symbol_by_name(d->symbols, str);
	if (sym) {
		expr_value_set_u64(res, sym->value);
		return 0;
	}
	for (const struct datatype *d = dt; d; d = d->basetype)
		if (d->parse) {
			ret = d->parse(dt, str, res, err, errlen);
			if (ret < 0)
				symbol_suggest(dt, str, err, errlen);
			return ret;
		}
	snprintf(err, errlen, "%s values cannot be written as \"%s\"",
		 dt->name, str);
	symbol_suggest(dt, str, err, errlen);
	return -1;
}

static void bitmask_print(const struct expr *e, const struct output_ctx *o,
			  FILE *f)
{
	const char *sep = o->flags & (NFH_PRINT_IN_SET | NFH_PRINT_FLAGS_OR) ?
			  " | " : ",";
	uint64_t v = expr_value_u64(e);
	bool first = true;

	if (o->flags & NFH_OUTPUT_NUMERIC) {
		/* -n: each bit on its own, in hex, as nft prints them */
		for (unsigned int b = 0; b < 64; b++) {
			if (!(v & (1ULL << b)))
				continue;
			fprintf(f, "%s0x%llx", first ? "" : sep, 1ULL << b);
			first = false;
		}
		if (first)
			fprintf(f, "0x0");
		return;
	}
	/* bit by bit, from the lowest, by name or (without one) in hex, as
	 * nft prints them ("established | 0x10 | untracked") */
	for (unsigned int b = 0; b < 64; b++) {
		const struct symbol *s = symbol_by_value(e->dtype->symbols, 1ULL << b);

		if (!(v & (1ULL << b)))
			continue;
		if (s)
			fprintf(f, "%s%s", first ? "" : sep, s->name);
		else
			fprintf(f, "%s0x%llx", first ? "" : sep, 1ULL << b);
		first = false;
	}
	if (first)
		fprintf(f, "0x0");
}

void datatype_print(const struct expr *e, const struct output_ctx *o, FILE *f)
{
	const struct datatype *dt = e->dtype;
	const struct symbol *sym;

	if ((o->flags & NFH_PRINT_HEX) && dt == &integer_type) {
		/* raw bits: a hex number, leading zeros dropped */
		unsigned int n = expr_value_bytes(e), i = 0;

		while (i + 1 < n && !e->val.data[i])
			i++;
		fprintf(f, "0x%x", n ? e->val.data[i] : 0);
		for (i++; i < n; i++)
			fprintf(f, "%02x", e->val.data[i]);
		return;
	}

	if (dt->flags & DTYPE_F_BITMASK && dt->symbols) {
		bitmask_print(e, o, f);
		return;
	}
	/* a range's ends print as numbers (print.h) */
	if (!(o->flags & (NFH_PRINT_RANGE | NFH_OUTPUT_NUMERIC))) {
		for (const struct datatype *d = dt; d; d = d->basetype) {
			sym = symbol_by_value(d->symbols, expr_value_u64(e));
			if (sym) {
				fprintf(f, dt->flags & DTYPE_F_QUOTED ?
					"\"%s\"" : "%s", sym->name);
				return;
			}
		}
	}
	for (const struct datatype *d = dt; d; d = d->basetype) {
		if (d->print) {
			d->print(e, o, f);
			return;
		}
	}
	integer_print(e, o, f);
}

/*
 * The kernel takes a timeout in milliseconds and refuses one whose
 * nanoseconds overflow 64 bits (nf_msecs_to_jiffies64(): ERANGE).
 */
static int time_add(uint64_t *total, uint64_t n, uint64_t unit)
{
	if (n > (TIME_MS_MAX - *total) / unit)
		return -ERANGE;
	*total += n * unit;
	return 0;
}

int time_parse(const char *str, uint64_t *ms)
{
	static const struct {
		const char	*unit;
		uint64_t	ms;
	} units[] = {
		{ "ms", 1 }, { "d", 86400000 }, { "h", 3600000 },
		{ "m", 60000 }, { "s", 1000 },
	};
	bool range = false;
	uint64_t total = 0;
	const char *p = str;

	if (!*p)
		return -1;
	while (*p) {
		uint64_t n = 0;
		unsigned int i;

		if (*p < '0' || *p > '9')
			return -1;
		while (*p >= '0' && *p <= '9') {
			unsigned int d = *p++ - '0';

			if (n > (UINT64_MAX - d) / 10)
				range = true;
			else
				n = n * 10 + d;
		}
		if (!*p && total == 0 && !range) {
			/* plain seconds */
			if (time_add(&total, n, 1000) < 0)
				return -ERANGE;
			*ms = total;
			return 0;
		}
		for (i = 0; i < array_size(units); i++)
			if (!strncmp(p, units[i].unit, strlen(units[i].unit)))
				break;
		if (i == array_size(units))
			return -1;
		if (range || time_add(&total, n, units[i].ms) < 0)
			range = true;
		p += strlen(units[i].unit);
	}
	if (range)
		return -ERANGE;
	*ms = total;
	return 0;
}

void time_print_opt(uint64_t ms, const struct output_ctx *o, FILE *f)
{
	/* -T: whole seconds, the rest dropped */
	if (o->flags & NFH_OUTPUT_NUMERIC_TIME)
		fprintf(f, "%" PRIu64 "s", ms / 1000);
	else
		time_print(ms, f);
}

void time_print(uint64_t ms, FILE *f)
{
	uint64_t d = ms / 86400000, h = ms / 3600000 % 24, m = ms / 60000 % 60,
		 s = ms / 1000 % 60, r = ms % 1000;

	if (d)
		fprintf(f, "%" PRIu64 "d", d);
	if (h)
		fprintf(f, "%" PRIu64 "h", h);
	if (m)
		fprintf(f, "%" PRIu64 "m", m);
	if (s)
		fprintf(f, "%" PRIu64 "s", s);
	if (r || !ms)
		fprintf(f, "%" PRIu64 "ms", r);
}

/* did you mean: the datatypes' names */
const char *suggest_datatype(struct suggest *s, const char *word)
{
	suggest_init(s, word);
	for (unsigned int i = 0; i < TYPE_MAX; i++)
		if (datatype_lookup(i) && i != TYPE_INVALID)
			suggest_add(s, datatype_lookup(i)->name);
	return suggest_hint(s);
}
