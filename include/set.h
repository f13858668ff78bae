/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_SET_H
#define NFH_SET_H

#include <rule.h>

struct nftnl_set;

/*
 * Set keys and map data are described by an expression: a typed placeholder
 * (for "type T") or a selector (for "typeof EXPR"), a concatenation of them
 * for concatenated keys.  These helpers give what the kernel keeps of it.
 */

/* the type id the kernel keeps: 6 bits a component, the first highest */
uint32_t set_key_type(const struct expr *key);
/* bytes of a key: each concatenated component takes whole 32-bit words */
unsigned int set_key_bytes(const struct expr *key);
/* the key description back from the kernel's type id, length and order */
struct expr *set_key_decode(uint32_t type, uint32_t len, enum byteorder bo);
/* the types of a concatenated type id's parts, the first first; 0 if it
   names fewer than two or more than @max, or a type nfh does not know */
unsigned int set_key_type_parts(uint32_t type, const struct datatype **sub,
				unsigned int max);
/* "ipv4_addr . inet_service" */
void set_key_print(const struct expr *key, FILE *f);

/* set userdata, as nft writes it, so that nft and nfh read each other's */
enum {
	SET_UDATA_KEYBYTEORDER,
	SET_UDATA_DATABYTEORDER,
	SET_UDATA_MERGE_ELEMENTS,
	SET_UDATA_KEY_TYPEOF,
	SET_UDATA_DATA_TYPEOF,
	SET_UDATA_EXPR,
	SET_UDATA_DATA_INTERVAL,
	SET_UDATA_COMMENT,
};

enum {
	SET_ELEM_UDATA_COMMENT,
	SET_ELEM_UDATA_FLAGS,
};

/*
 * The typeof records (SET_UDATA_KEY_TYPEOF, _DATA_TYPEOF) nest a selector:
 * record 0 is its kind, record 1 a nest of the kind's own records.  A
 * concatenation's nest holds one such pair (kind, data) per component, in
 * records 0, 1, ...
 */
enum {
	TYPEOF_UDATA_KIND,
	TYPEOF_UDATA_DATA,
};

/* the kinds, as nft numbers them: TYPEOF_KIND_* (kind.h) */

/* the records of the kinds (payload, extension headers, meta, ct, ...)
 * are theirs: kind.h */

/* the per-set facts kept in userdata; the typeof records point into it */
struct set_udata {
	enum byteorder	key_bo;
	enum byteorder	data_bo;
	bool		merge;
	char		*comment;
	const uint8_t	*key_typeof, *data_typeof;
	uint8_t		key_typeof_len, data_typeof_len;
	bool		data_interval;	/* the values are ranges */
};
void set_udata_parse(const struct nftnl_set *nls, struct set_udata *ud);

struct nftnl_udata_buf;
/* whether nfh can write @sel (a selector or concatenation) as typeof */
bool set_typeof_ok(const struct expr *sel);
/* writes @sel as typeof record @type; a verdict if @sel is NULL */
void set_typeof_put(struct nftnl_udata_buf *b, unsigned int type,
		    const struct expr *sel);
/*
 * The selector in a typeof record, or NULL for one nfh does not know or
 * that is malformed; *verdict tells a map's "verdict" apart.  @family types
 * ct saddr and daddr.
 */
struct expr *set_typeof_parse(const uint8_t *v, uint8_t n,
			      unsigned int family, bool *verdict);
/* the key a selector gives a set: typed placeholders, concatenated */
struct expr *set_key_of_selector(const struct expr *sel);

/*
 * Userdata records (a type byte, a length byte, the value), read without
 * trusting the lengths: calls @cb for each record that lies inside @len.
 */
void udata_foreach(const void *data, uint32_t len,
		   void (*cb)(uint8_t type, const uint8_t *val, uint8_t n,
			      void *arg),
		   void *arg);

#endif
