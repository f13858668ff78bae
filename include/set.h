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

/* a typed placeholder for "type T": an EXPR_VALUE of T's size and order */
struct expr *set_type_placeholder(const struct location *loc,
				  const struct datatype *dt, unsigned int len,
				  enum byteorder bo);
/* the type id the kernel keeps: 6 bits a component, the first highest */
uint32_t set_key_type(const struct expr *key);
/* bytes of a key: each concatenated component takes whole 32-bit words */
unsigned int set_key_bytes(const struct expr *key);
/* the key description back from the kernel's type id, length and order */
struct expr *set_key_decode(uint32_t type, uint32_t len, enum byteorder bo);
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

/* the per-set facts kept in userdata */
struct set_udata {
	enum byteorder	key_bo;
	enum byteorder	data_bo;
	bool		merge;
	char		*comment;
};
void set_udata_parse(const struct nftnl_set *nls, struct set_udata *ud);

/*
 * Userdata records (a type byte, a length byte, the value), read without
 * trusting the lengths: calls @cb for each record that lies inside @len.
 */
void udata_foreach(const void *data, uint32_t len,
		   void (*cb)(uint8_t type, const uint8_t *val, uint8_t n,
			      void *arg),
		   void *arg);

#endif
