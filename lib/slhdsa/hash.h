/* SPDX-License-Identifier: MIT */
/* The hash layer of SLH-DSA (FIPS 205 section 4.1): F, H, T_l, PRF, PRF_msg, H_msg.
 * Two instantiations implement it, SHAKE (section 11.1, hash_shake.c) and SHA-2
 * (section 11.2, hash_sha2.c); everything above this header is shared.
 *
 * slh_ctx holds what every tweakable hash call of one operation needs: PK.seed, SK.seed
 * (secret; only for key generation and signing) and, for SHA-2, the compression state
 * after the first block PK.seed || toByte(0, 64 - n) (and the SHA-512 one after
 * PK.seed || toByte(0, 128 - n)), computed once per operation as section 11.2 allows.
 *
 * In-place use is allowed: out may equal in for F, H and the x4 form. */
#ifndef PQLAB_SLHDSA_HASH_H
#define PQLAB_SLHDSA_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "address.h"
#include "params.h"

#ifdef PQLAB_SLHDSA_HASH_SHA2
#include "sha2.h"
#else
#include "fips202.h"
#endif

typedef struct {
    uint8_t pk_seed[SLH_N];
    uint8_t sk_seed[SLH_N];
#ifdef PQLAB_SLHDSA_HASH_SHA2
    uint32_t mid256[8];
#if SLH_N > 16
    uint64_t mid512[8];
#endif
#else
    /* a Keccak state (lib/common/fips202.h, opaque) holding PK.seed and the SHAKE256
     * padding of an n-byte message after the 32-byte ADRS: the start of every F and PRF */
    uint64_t seed_state[25];
    /* a Keccak state whose lane j (j < w) holds the byte j at byte 7: the hash address of
     * WOTS+ step j in the last lane of ADRS, moved into a state by pqlab_keccak_xorlanes */
    uint64_t hash_lanes[25];
#endif
} slh_ctx;

/* incremental T_l: init with ADRS, then the l n-byte blocks in any pieces */
typedef struct {
#ifdef PQLAB_SLHDSA_HASH_SHA2
#if SLH_N == 16
    pqlab_sha256_state sha;
#else
    pqlab_sha512_state sha;
#endif
#else
    pqlab_keccak_state keccak;
#endif
} slh_thash_state;

#define slh_ctx_init PQLAB_NAMESPACE(ctx_init)
#define slh_ctx_clear PQLAB_NAMESPACE(ctx_clear)
#define slh_F PQLAB_NAMESPACE(hash_F)
#define slh_H PQLAB_NAMESPACE(hash_H)
#define slh_PRF PQLAB_NAMESPACE(hash_PRF)
#define slh_F_x4 PQLAB_NAMESPACE(hash_F_x4)
#define slh_chain PQLAB_NAMESPACE(hash_chain)
#define slh_T_init PQLAB_NAMESPACE(hash_T_init)
#define slh_T_update PQLAB_NAMESPACE(hash_T_update)
#define slh_T_final PQLAB_NAMESPACE(hash_T_final)
#define slh_PRF_msg PQLAB_NAMESPACE(hash_PRF_msg)
#define slh_H_msg PQLAB_NAMESPACE(hash_H_msg)

/* sk_seed may be NULL (verification) */
void slh_ctx_init(slh_ctx *ctx, const uint8_t *pk_seed, const uint8_t *sk_seed);
void slh_ctx_clear(slh_ctx *ctx);

/* F(PK.seed, ADRS, M1), M1 n bytes */
void slh_F(uint8_t *out, const slh_ctx *ctx, const slh_adrs *adrs, const uint8_t *in);
/* H(PK.seed, ADRS, M2), M2 2n bytes */
void slh_H(uint8_t *out, const slh_ctx *ctx, const slh_adrs *adrs, const uint8_t *in);
/* PRF(PK.seed, SK.seed, ADRS); in both instantiations this is F with M1 = SK.seed */
void slh_PRF(uint8_t *out, const slh_ctx *ctx, const slh_adrs *adrs);

/* nlanes (1..4) independent F calls; in[i] == NULL means M1 = SK.seed, i.e. PRF.
 * The SHAKE instantiation hands full batches to pqlab_shake256x4 when the platform has
 * a native 4-way Keccak (or PQLAB_SLHDSA_FORCE_X4 is set); otherwise it runs the lanes
 * one after another on the single-block fast path. */
void slh_F_x4(uint8_t *const out[4], const slh_ctx *ctx, const slh_adrs adrs[4], const uint8_t *const in[4],
              unsigned int nlanes);

/* SLH_F_X4_BATCHED: slh_F_x4 computes its lanes together (a 4-way Keccak), so WOTS+
 * walks four chains side by side; otherwise it walks one chain after the other through
 * slh_chain, which keeps the chain value in the hash state between the F calls. */
#if defined(PQLAB_SLHDSA_HASH_SHAKE) &&                                                                                \
    (defined(PQLAB_KECCAKX4_NATIVE) || defined(PQLAB_KECCAKF1600X4_NATIVE) || defined(PQLAB_SLHDSA_FORCE_X4))
#define SLH_F_X4_BATCHED 1
#endif

/* chain (Algorithm 5) on one WOTS+ chain: out = F applied `steps` times to the n bytes
 * at in, with hash addresses start, start + 1, ..., start + steps - 1 (start + steps
 * <= w - 1); adrs holds type WOTS_HASH, key pair and chain address (its hash address is
 * not read). steps == 0 copies. out may equal in. */
void slh_chain(uint8_t *out, const uint8_t *in, unsigned int start, unsigned int steps, const slh_ctx *ctx,
               const slh_adrs *adrs);

void slh_T_init(slh_thash_state *st, const slh_ctx *ctx, const slh_adrs *adrs);
void slh_T_update(slh_thash_state *st, const uint8_t *in, size_t inlen);
void slh_T_final(uint8_t *out, slh_thash_state *st);

/* The message M is passed as two pieces, hdr || m, so that the prefixes of sections
 * 10.2 and 10.3 (domain byte, context, OID, digest) never need a copy of the message. */
void slh_PRF_msg(uint8_t *out, const uint8_t *sk_prf, const uint8_t *opt_rand, const uint8_t *hdr, size_t hdrlen,
                 const uint8_t *m, size_t mlen);
/* out: m bytes (SLH_M) */
void slh_H_msg(uint8_t *out, const uint8_t *r, const uint8_t *pk_seed, const uint8_t *pk_root, const uint8_t *hdr,
               size_t hdrlen, const uint8_t *m, size_t mlen);

#endif
