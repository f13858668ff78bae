/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ct keys, the ct statement and ct timeout states (src/kinds/ct.c) */
#ifndef NFH_CT_H
#define NFH_CT_H

#include <proto.h>
#include <stmt.h>

/* ct keys */
struct ct_template {
	const char		*name;
	const struct datatype	*dtype;
	unsigned int		len;
	enum byteorder		byteorder;
	bool			dir;	/* original/reply allowed */
	bool			dir_only; /* needs a direction */
};

struct expr *ct_expr_alloc(const struct location *loc, unsigned int key,
			   int dir);
void ct_expr_family(struct expr *e, unsigned int family);
struct expr *ct_expr_parse(const struct location *loc, const char *key,
			   const struct location *kloc, const char *dir,
			   const struct location *dloc, struct list_head *msgs);
int ct_key_lookup(const char *name);
unsigned int ct_key_max(void);

/* the statement that sets the ct key of @c (which stays the caller's) to
   @val */
struct stmt *ct_stmt_alloc(const struct location *loc, const struct expr *c,
			   struct expr *val);
const struct ct_template *ct_template(unsigned int key);

/* ct timeout objects: the states of layer 4 protocol @l4proto (tcp, udp) */
#define CT_TIMEOUT_STATES_MAX	11
uint32_t ct_timeout_default(uint8_t l4proto, unsigned int i);
unsigned int ct_timeout_nstates(uint8_t l4proto);
int ct_timeout_state_lookup(uint8_t l4proto, const char *name);
const char *ct_timeout_state_name(uint8_t l4proto, unsigned int i);
const char *suggest_ct_key(struct suggest *s, const char *word);

#endif
