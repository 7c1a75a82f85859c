/* SPDX-License-Identifier: MIT */
/* The address ADRS (FIPS 205 section 4.2, 4.3): 32 bytes, big-endian words
 *   bytes  0.. 3  layer address
 *   bytes  4..15  tree address (we only ever use the low 8 bytes: tree indices < 2^64)
 *   bytes 16..19  type
 *   bytes 20..23  key pair address (WOTS_HASH, WOTS_PK, FORS_TREE, FORS_ROOTS, *_PRF)
 *   bytes 24..27  chain address / tree height
 *   bytes 28..31  hash address / tree index
 * It is kept as bytes because both instantiations hash the bytes (SHA-2 a compressed
 * form, section 11.2), so setters write big-endian directly. */
#ifndef PQLAB_SLHDSA_ADDRESS_H
#define PQLAB_SLHDSA_ADDRESS_H

#include <stdint.h>
#include <string.h>

typedef struct {
    uint8_t b[32];
} slh_adrs;

/* address types (section 4.2, Table 1) */
#define SLH_ADRS_WOTS_HASH 0
#define SLH_ADRS_WOTS_PK 1
#define SLH_ADRS_TREE 2
#define SLH_ADRS_FORS_TREE 3
#define SLH_ADRS_FORS_ROOTS 4
#define SLH_ADRS_WOTS_PRF 5
#define SLH_ADRS_FORS_PRF 6

static inline void slh_adrs_put32(slh_adrs *a, unsigned int off, uint32_t v)
{
    a->b[off] = (uint8_t)(v >> 24);
    a->b[off + 1] = (uint8_t)(v >> 16);
    a->b[off + 2] = (uint8_t)(v >> 8);
    a->b[off + 3] = (uint8_t)v;
}

static inline uint32_t slh_adrs_get32(const slh_adrs *a, unsigned int off)
{
    return ((uint32_t)a->b[off] << 24) | ((uint32_t)a->b[off + 1] << 16) | ((uint32_t)a->b[off + 2] << 8) |
           (uint32_t)a->b[off + 3];
}

static inline void slh_adrs_zero(slh_adrs *a)
{
    memset(a->b, 0, sizeof a->b);
}

static inline void slh_adrs_set_layer(slh_adrs *a, uint32_t l)
{
    slh_adrs_put32(a, 0, l);
}

/* tree address: 12 bytes, the top 4 always zero here */
static inline void slh_adrs_set_tree(slh_adrs *a, uint64_t t)
{
    slh_adrs_put32(a, 4, 0);
    slh_adrs_put32(a, 8, (uint32_t)(t >> 32));
    slh_adrs_put32(a, 12, (uint32_t)t);
}

/* setTypeAndClear: type and zero the last 12 bytes */
static inline void slh_adrs_set_type(slh_adrs *a, uint32_t type)
{
    slh_adrs_put32(a, 16, type);
    memset(a->b + 20, 0, 12);
}

static inline void slh_adrs_set_keypair(slh_adrs *a, uint32_t kp)
{
    slh_adrs_put32(a, 20, kp);
}

static inline uint32_t slh_adrs_get_keypair(const slh_adrs *a)
{
    return slh_adrs_get32(a, 20);
}

static inline void slh_adrs_set_chain(slh_adrs *a, uint32_t c)
{
    slh_adrs_put32(a, 24, c);
}

static inline void slh_adrs_set_hash(slh_adrs *a, uint32_t h)
{
    slh_adrs_put32(a, 28, h);
}

static inline void slh_adrs_set_height(slh_adrs *a, uint32_t z)
{
    slh_adrs_put32(a, 24, z);
}

static inline void slh_adrs_set_index(slh_adrs *a, uint32_t i)
{
    slh_adrs_put32(a, 28, i);
}

#endif
