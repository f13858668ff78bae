// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * osf: the operating system a TCP SYN was sent by, as the kernel's
 * nfnetlink_osf fingerprints name it ("Linux", or "Linux:3.0" with the
 * version flag). The register holds the name as a NUL-padded string.
 */
#include <string.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink_osf.h>

#include <proto.h>

/* NF_OSF_TTL_*: how the packet's TTL must match the fingerprint's */
static const char *const ttl_names[] = {
	[NF_OSF_TTL_LESS]	= "loose",
	[NF_OSF_TTL_NOCHECK]	= "skip",
};

const char *osf_ttl_name(unsigned int ttl)
{
	return ttl < array_size(ttl_names) ? ttl_names[ttl] : NULL;
}

struct expr *osf_expr_alloc(const struct location *loc, unsigned int ttl,
			    unsigned int flags)
{
	struct expr *e = expr_alloc(loc, EXPR_OSF, &string_type, BYTEORDER_HOST,
				    NFT_OSF_MAXGENRELEN * 8);

	e->osf.ttl = ttl;
	e->osf.flags = flags;
	return e;
}

/* "osf [ttl loose|skip] name|version"; ttl and tval are NULL without ttl */
struct expr *osf_expr_parse(const struct location *loc, const char *ttl,
			    const struct location *tloc, const char *tval,
			    const struct location *vloc, const char *key,
			    const struct location *kloc, struct list_head *msgs)
{
	unsigned int t = NF_OSF_TTL_TRUE, flags;

	if (ttl && strcmp(ttl, "ttl")) {
		error_queue(msgs, tloc, "unknown osf option \"%s\"; expected ttl",
			    ttl);
		return NULL;
	}
	if (tval) {
		for (t = NF_OSF_TTL_LESS; t < array_size(ttl_names); t++)
			if (!strcmp(ttl_names[t], tval))
				break;
		if (t == array_size(ttl_names)) {
			error_queue(msgs, vloc, "unknown osf ttl \"%s\"; expected loose or skip",
				    tval);
			return NULL;
		}
	}
	if (!strcmp(key, "name")) {
		flags = 0;
	} else if (!strcmp(key, "version")) {
		flags = NFT_OSF_F_VERSION;
	} else {
		error_queue(msgs, kloc, "unknown osf key \"%s\"; expected name or version",
			    key);
		return NULL;
	}
	return osf_expr_alloc(loc, t, flags);
}
