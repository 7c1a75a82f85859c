/* SPDX-License-Identifier: MIT */
/* Stack-first ML-DSA (FIPS 204 Algorithms 6-8), built with -DPQLAB_MLDSA_SMALLSTACK
 * (implementation folders lib/crypto_sign/ml-dsa-NN/smallstack/); the interfaces
 * around these (mu, contexts, pre-hash, NIST API) are sign.c's.
 *
 * Memory: the matrix A is never stored, not even one entry: each entry is sampled
 * (RejNTTPoly) straight into a pointwise multiply-accumulate (rej_ntt_mac below).
 *  - KeyGen: t_i = NTT^-1(sum_j A_ij o NTT(s1_j)) + s2_i row by row; s1 and s2 are
 *    packed into the caller's sk as soon as they are sampled and s1_j is unpacked and
 *    transformed again for every row; t1 / t0 are packed straight into pk / sk.
 *  - Verify: w'_i = NTT^-1(sum_j A_ij o NTT(z_j)) - c t1_i 2^d row by row; z_j is
 *    unpacked from the signature and transformed for every use; c is kept sparse (its
 *    tau positions and signs: c and the signature are public) and c t1_i 2^d is
 *    computed in the normal domain; UseHint and w1Encode go straight into SHAKE256.
 * So both need two polynomials besides the Keccak states, at k (l - 1) more NTTs.
 *
 * Same outputs as sign.c (tests/test_mldsa_smallstack.py); constant-time policy as
 * sign.c (key generation handles s1, s2, t0 only through masks and fixed addresses). */
#ifdef PQLAB_MLDSA_SMALLSTACK

#include <string.h>

#include "ct.h"
#include "fips202.h"
#include "kernels.h"
#include "mldsa.h"
#include "reduce.h"
#include "sign_internal.h"

#define SHAKE128_RATE PQLAB_SHAKE128_RATE

/* acc (+)= RejNTTPoly(rho || nonce) o b * 2^-32 (Algorithms 30, 45 with the Montgomery
 * factor): the entry A_ij is consumed coefficient by coefficient as it is sampled.
 * first: acc is initialised instead of added to. rho is public (branches on the
 * sampled values are fine). In: |b_i| < 2^31 (|A_ij b_i| < 2^31 q); out: each product
 * |.| < q, so after l calls |acc_i| < l q. */
static void rej_ntt_mac(int32_t acc[MLDSA_N], const uint8_t rho[MLDSA_SEEDBYTES], uint16_t nonce,
                        const int32_t b[MLDSA_N], int first)
{
    uint8_t seed[MLDSA_SEEDBYTES + 2];
    uint8_t buf[SHAKE128_RATE]; /* 56 triples: triples never straddle blocks */
    pqlab_keccak_state st;
    unsigned int ctr = 0;

    memcpy(seed, rho, MLDSA_SEEDBYTES);
    seed[MLDSA_SEEDBYTES] = (uint8_t)nonce;
    seed[MLDSA_SEEDBYTES + 1] = (uint8_t)(nonce >> 8);
    pqlab_shake128_init(&st);
    pqlab_shake128_absorb(&st, seed, sizeof seed);
    pqlab_shake128_finalize(&st);
    while (ctr < MLDSA_N) {
        pqlab_shake128_squeezeblocks(buf, 1, &st);
        for (unsigned int pos = 0; ctr < MLDSA_N && pos < SHAKE128_RATE; pos += 3) {
            /* CoeffFromThreeBytes (Algorithm 14) */
            const uint32_t t =
                (uint32_t)buf[pos] | ((uint32_t)buf[pos + 1] << 8) | (((uint32_t)buf[pos + 2] & 0x7Fu) << 16);
            if (t < (uint32_t)MLDSA_Q) {
                const int32_t p = mldsa_montgomery_reduce((int64_t)(int32_t)t * b[ctr]);
                acc[ctr] = first ? p : acc[ctr] + p;
                ctr++;
            }
        }
    }
}

/* acc = sum_j A_ij o NTT(v_j) * 2^-32 for row i, v_j regenerated into vbuf by
 * load(vbuf, j, ctx) (|v_j| <= 2^24, so |NTT(v_j)| < 2^24 + 9q). |acc| < l q. */
typedef void (*load_fn)(int32_t v[MLDSA_N], unsigned int j, const uint8_t *src);

static void row_mul(int32_t acc[MLDSA_N], int32_t vbuf[MLDSA_N], const uint8_t rho[MLDSA_SEEDBYTES], unsigned int i,
                    load_fn load, const uint8_t *src)
{
    for (unsigned int j = 0; j < MLDSA_L; j++) {
        load(vbuf, j, src);
        mldsa_ntt(vbuf);
        rej_ntt_mac(acc, rho, mldsa_a_nonce(i, j), vbuf, j == 0);
    }
}

/* ---------------------------------------------------------------------------- */
/* KeyGen_internal (Algorithm 6)                                                   */

static void load_s1(int32_t v[MLDSA_N], unsigned int j, const uint8_t *sk)
{
    /* s1 was packed from values in [-eta, eta]: the range check cannot fail */
    (void)mldsa_polyeta_unpack(v, sk + SK_S1 + j * MLDSA_POLYETA_BYTES);
}

int mldsa_keypair_internal(uint8_t *pk, uint8_t *sk, const uint8_t xi[MLDSA_SEEDBYTES])
{
    uint8_t in[MLDSA_SEEDBYTES + 2];
    uint8_t seeds[2 * MLDSA_SEEDBYTES + MLDSA_CRHBYTES]; /* rho || rho' || K */
    mldsa_poly t, v;
    const uint8_t *rho = seeds;
    const uint8_t *rhoprime = seeds + MLDSA_SEEDBYTES;
    const uint8_t *key = seeds + MLDSA_SEEDBYTES + MLDSA_CRHBYTES;

    /* (rho, rho', K) = H(xi || IntegerToBytes(k, 1) || IntegerToBytes(l, 1), 128) */
    memcpy(in, xi, MLDSA_SEEDBYTES);
    in[MLDSA_SEEDBYTES] = MLDSA_K;
    in[MLDSA_SEEDBYTES + 1] = MLDSA_L;
    pqlab_shake256(seeds, sizeof seeds, in, sizeof in);
    PQLAB_DECLASSIFY(seeds, MLDSA_SEEDBYTES); /* rho is published in pk */

    memcpy(pk, rho, MLDSA_SEEDBYTES);
    memcpy(sk + SK_RHO, rho, MLDSA_SEEDBYTES);
    memcpy(sk + SK_KEY, key, MLDSA_SEEDBYTES);

    /* (s1, s2) = ExpandS(rho') (Algorithm 33), packed into sk at once */
    for (unsigned int r = 0; r < MLDSA_L + MLDSA_K; r++) {
        mldsa_poly_rej_bounded(&v, rhoprime, (uint16_t)r);
        mldsa_polyeta_pack(sk + SK_S1 + r * MLDSA_POLYETA_BYTES, v.c);
    }
    for (unsigned int i = 0; i < MLDSA_K; i++) {
        /* t_i = NTT^-1(sum_j A_ij o NTT(s1_j)) + s2_i; |acc| < l q < 2^31 - 2^22 */
        row_mul(t.c, v.c, rho, i, load_s1, sk);
        mldsa_poly_reduce32(t.c);
        mldsa_invntt_tomont(t.c);
        (void)mldsa_polyeta_unpack(v.c, sk + SK_S2 + i * MLDSA_POLYETA_BYTES);
        for (unsigned int n = 0; n < MLDSA_N; n++) {
            t.c[n] = mldsa_freeze(t.c[n] + v.c[n]); /* |.| < q + eta -> [0, q) */
        }
        /* (t1, t0) = Power2Round(t) */
        mldsa_poly_power2round(v.c, t.c, t.c);
        mldsa_polyt1_pack(pk + PK_T1 + i * MLDSA_POLYT1_BYTES, v.c);
        mldsa_polyt0_pack(sk + SK_T0 + i * MLDSA_POLYT0_BYTES, t.c);
    }
    PQLAB_DECLASSIFY(pk, MLDSA_PUBLICKEYBYTES); /* the public key is output */
    /* tr = H(pk, 64) */
    pqlab_shake256(sk + SK_TR, MLDSA_TRBYTES, pk, MLDSA_PUBLICKEYBYTES);

    pqlab_zeroize(in, sizeof in);
    pqlab_zeroize(seeds, sizeof seeds);
    pqlab_zeroize(&t, sizeof t);
    pqlab_zeroize(&v, sizeof v);
    return 0;
}

/* ---------------------------------------------------------------------------- */
/* Verify_internal (Algorithm 8) from mu                                             */

static void load_z(int32_t v[MLDSA_N], unsigned int j, const uint8_t *sig)
{
    mldsa_polyz_unpack(v, sig + SIG_Z + j * MLDSA_POLYZ_BYTES);
}

int mldsa_verify_mu(const uint8_t *sig, size_t siglen, const uint8_t mu[MLDSA_CRHBYTES], const uint8_t *pk)
{
    mldsa_poly acc, v;
    uint8_t cpos[MLDSA_TAU]; /* c = sum_k (-1)^(cneg_k) X^(cpos_k) */
    uint8_t cneg[MLDSA_TAU];
    uint8_t ctilde[MLDSA_CTILDEBYTES];
    pqlab_keccak_state st;
    const uint8_t *rho = pk;
    uint8_t *bytes = (uint8_t *)v.c; /* v's storage as hint bits, then as w1Encode */
    unsigned int nc = 0;

    if (siglen != MLDSA_SIGBYTES) {
        return MLDSA_ERR_VERIFY;
    }
    if (mldsa_hints_check(sig + SIG_H) != 0) {
        return MLDSA_ERR_VERIFY;
    }
    /* ||z||inf < gamma1 - beta (line 13), checked first: it needs no hashing */
    for (unsigned int j = 0; j < MLDSA_L; j++) {
        load_z(v.c, j, sig);
        if (mldsa_poly_chknorm(v.c, MLDSA_GAMMA1 - MLDSA_BETA)) {
            return MLDSA_ERR_VERIFY;
        }
    }
    /* c = SampleInBall(c~), kept as its tau nonzero positions (public) */
    mldsa_poly_sample_in_ball(&acc, sig);
    for (unsigned int n = 0; n < MLDSA_N; n++) {
        if (acc.c[n] != 0 && nc < MLDSA_TAU) {
            cpos[nc] = (uint8_t)n;
            cneg[nc] = (uint8_t)(acc.c[n] < 0);
            nc++;
        }
    }

    pqlab_shake256_init(&st);
    pqlab_shake256_absorb(&st, mu, MLDSA_CRHBYTES);
    for (unsigned int i = 0; i < MLDSA_K; i++) {
        const uint8_t *t1 = pk + PK_T1 + i * MLDSA_POLYT1_BYTES;
        /* sum_j A_ij o NTT(z_j), back to the normal domain: |.| < q */
        row_mul(acc.c, v.c, rho, i, load_z, sig);
        mldsa_poly_reduce32(acc.c);
        mldsa_invntt_tomont(acc.c);
        /* - c t1_i 2^d in Z_q[X]/(X^256 + 1): each term |t1 2^d| < 2^23 < q, so
         * |acc| < (tau + 1) q <= 61 q < 2^31 - 2^22 */
        mldsa_polyt1_unpack(v.c, t1);
        for (unsigned int k = 0; k < nc; k++) {
            const unsigned int p = cpos[k];
            const int32_t s = cneg[k] ? -(1 << MLDSA_D) : (1 << MLDSA_D);
            /* X^p t1: coefficient n - p for n >= p, -(n - p + 256) wrapped */
            for (unsigned int n = 0; n < p; n++) {
                acc.c[n] += s * v.c[n + MLDSA_N - p];
            }
            for (unsigned int n = p; n < MLDSA_N; n++) {
                acc.c[n] -= s * v.c[n - p];
            }
        }
        for (unsigned int n = 0; n < MLDSA_N; n++) {
            acc.c[n] = mldsa_freeze(acc.c[n]);
        }
        /* w1' = UseHint(h, w'), absorbed as w1Encode */
        mldsa_hints_row(bytes, sig + SIG_H, i);
        mldsa_poly_use_hint(acc.c, acc.c, bytes);
        mldsa_polyw1_pack(bytes, acc.c);
        pqlab_shake256_absorb(&st, bytes, MLDSA_POLYW1_BYTES);
    }
    pqlab_shake256_finalize(&st);
    pqlab_shake256_squeeze(ctilde, MLDSA_CTILDEBYTES, &st);
    if (pqlab_ct_memcmp(ctilde, sig, MLDSA_CTILDEBYTES) != 0) {
        return MLDSA_ERR_VERIFY;
    }
    return 0;
}

#else
/* the speed-first build (sign.c) has nothing here; ISO C wants a declaration */
typedef int mldsa_stream_unused;
#endif
