/* SPDX-License-Identifier: MIT */
/* SHA-224/256/384/512 (FIPS 180-4). Incremental API: init, update (any lengths),
 * final. The compression functions take whole blocks (64 bytes for SHA-224/256,
 * 128 for SHA-384/512) and are exported for callers that keep their own buffering. */
#ifndef PQLAB_SHA2_H
#define PQLAB_SHA2_H

#include "pqlab_config.h" /* an export's configuration (docs/export.md); empty in the tree */

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t nbytes; /* message bytes processed into h (whole blocks) */
    uint8_t buf[64];
    unsigned int buflen;
} pqlab_sha256_state;

typedef struct {
    uint64_t h[8];
    uint64_t nbytes; /* bytes; messages up to 2^64-1 bytes, more than anyone hashes here */
    uint8_t buf[128];
    unsigned int buflen;
} pqlab_sha512_state;

/* The compression functions from the application (an export's pqlab_config.h sets
 * PQLAB_SHA2_COMPRESS_EXTERNAL from PQLAB_CONFIG_SHA256_COMPRESS and PQLAB_CONFIG_SHA512_COMPRESS,
 * docs/export.md): functions with the prototypes below (a hardware SHA-2 unit); pqlab's padding,
 * buffering and the SHA-224/256/384/512 API run on them and pqlab's own compression code is not
 * built. */
#ifdef PQLAB_SHA2_COMPRESS_EXTERNAL
#undef pqlab_sha256_compress
#undef pqlab_sha512_compress
#define pqlab_sha256_compress PQLAB_CONFIG_SHA256_COMPRESS
#define pqlab_sha512_compress PQLAB_CONFIG_SHA512_COMPRESS
#endif

/* FIPS 180-4 section 6.2.2 / 6.4.2 on nblocks consecutive blocks */
void pqlab_sha256_compress(uint32_t h[8], const uint8_t *blocks, size_t nblocks);
void pqlab_sha512_compress(uint64_t h[8], const uint8_t *blocks, size_t nblocks);

void pqlab_sha224_init(pqlab_sha256_state *st);
void pqlab_sha224_update(pqlab_sha256_state *st, const uint8_t *in, size_t inlen);
void pqlab_sha224_final(uint8_t out[28], pqlab_sha256_state *st);
void pqlab_sha224(uint8_t out[28], const uint8_t *in, size_t inlen);

void pqlab_sha256_init(pqlab_sha256_state *st);
void pqlab_sha256_update(pqlab_sha256_state *st, const uint8_t *in, size_t inlen);
void pqlab_sha256_final(uint8_t out[32], pqlab_sha256_state *st);
void pqlab_sha256(uint8_t out[32], const uint8_t *in, size_t inlen);

void pqlab_sha384_init(pqlab_sha512_state *st);
void pqlab_sha384_update(pqlab_sha512_state *st, const uint8_t *in, size_t inlen);
void pqlab_sha384_final(uint8_t out[48], pqlab_sha512_state *st);
void pqlab_sha384(uint8_t out[48], const uint8_t *in, size_t inlen);

void pqlab_sha512_init(pqlab_sha512_state *st);
void pqlab_sha512_update(pqlab_sha512_state *st, const uint8_t *in, size_t inlen);
void pqlab_sha512_final(uint8_t out[64], pqlab_sha512_state *st);
void pqlab_sha512(uint8_t out[64], const uint8_t *in, size_t inlen);
/* SHA-512/224 and SHA-512/256 (FIPS 180-4 section 6.7), one-shot */
void pqlab_sha512_224(uint8_t out[28], const uint8_t *in, size_t inlen);
void pqlab_sha512_256(uint8_t out[32], const uint8_t *in, size_t inlen);

#endif
