/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFH_WIRE_H
#define NFH_WIRE_H

#include <stdbool.h>
#include <stdint.h>

#include <expr.h>

/*
 * A number that registers hold in host byte order and that is wider than a
 * byte (a mark, a cpu, a length): interval sets keep it big endian, as the
 * kernel orders their keys byte by byte, and a lookup turns it so first.
 */
bool elem_host_number(const struct expr *e);

/* strings (names, interface names) keep their byte order in every register */
bool wire_is_string(const struct datatype *dt);
/* a constant's bytes in register order */
unsigned int value_wire(const struct expr *v, enum byteorder bo, uint8_t *out);
/* the lowest and highest value of a prefix, big endian */
void prefix_bounds(const struct expr *p, uint8_t *lo, uint8_t *hi);
/* the big-endian bounds of a value, range or prefix, @n bytes each */
void value_bounds(const struct expr *k, unsigned int n, uint8_t *lo,
		  uint8_t *hi);
/* a key's bytes as the kernel keeps them (@hi: a range's high end);
 * concatenations in 32-bit slots */
unsigned int key_wire(const struct expr *key, const struct expr *v, bool hi,
		      uint8_t *out);

/* whether the inclusive range @r is exactly a prefix; its length in @plen */
bool range_is_prefix(const struct expr *r, unsigned int *plen);
/* a range of strings that is all the names starting with some bytes: "eth*" */
bool range_is_wildcard(const struct expr *r);

#endif
