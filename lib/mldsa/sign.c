/* SPDX-License-Identifier: MIT */
/* ML-DSA key generation, signing and verification (FIPS 204 sections 5 and 6:
 * Algorithms 1-8) and the external-mu, context and pre-hash interfaces.
 *
 * Memory: no heap. Key generation and verification stream the matrix A row by row
 * (each entry is used once there); signing expands A once and keeps it, because
 * every iteration of the rejection loop needs it again. With -DPQLAB_MLDSA_SMALLSTACK
 * (the stack-first implementation) KeyGen_internal, Sign_internal and Verify_internal
 * from mu are stream.c's instead; the interfaces around them are shared.
 *
 * Constant time with respect to the secret key and rnd: no branch or address
 * depends on them. Values made public on purpose, each marked PQLAB_DECLASSIFY:
 *  - the rejection decision of each signing iteration (revealed by the timing of
 *    any implementation of the loop, and independent of the final signature);
 *  - the final signature (output), and its hint bits just before packing;
 *  - rho (part of the public key) before ExpandA, and the public key in keygen;
 *  - whether a secret key decodes to coefficients in [-eta, eta] (key format);
 *  - per-sample accept/reject decisions inside the samplers (sample.c). */
#include <string.h>

#include "ct.h"
#include "fips202.h"
#include "instrument.h"
#include "kernels.h"
#include "mldsa.h"
#include "randombytes.h"
#include "reduce.h"
#include "sign_internal.h"

/* signing's c s1, c s2: in the NTT modulo q when the backend has the fused product
 * (kernels.h, polyvec_nttmul_add), else modulo p = 7681 (ntt16) */
#ifdef PQLAB_MLDSA_NATIVE_POLYVEC_NTTMUL_ADD
#define MLDSA_SIGN_NTTQ
#endif

/* KeyGen_internal (Algorithm 6), steps 1-2, shared with stream.c (sign_internal.h) */
void mldsa_keypair_seeds(uint8_t seeds[2 * MLDSA_SEEDBYTES + MLDSA_CRHBYTES], uint8_t *pk, uint8_t *sk,
                         const uint8_t xi[MLDSA_SEEDBYTES])
{
    uint8_t in[MLDSA_SEEDBYTES + 2];
    /* (rho, rho', K) = H(xi || IntegerToBytes(k, 1) || IntegerToBytes(l, 1), 128) */
    memcpy(in, xi, MLDSA_SEEDBYTES);
    in[MLDSA_SEEDBYTES] = MLDSA_K;
    in[MLDSA_SEEDBYTES + 1] = MLDSA_L;
    pqlab_shake256(seeds, 2 * MLDSA_SEEDBYTES + MLDSA_CRHBYTES, in, sizeof in);
    PQLAB_DECLASSIFY(seeds, MLDSA_SEEDBYTES); /* rho is published in pk */
    memcpy(pk, seeds, MLDSA_SEEDBYTES);
    memcpy(sk + SK_RHO, seeds, MLDSA_SEEDBYTES);
    memcpy(sk + SK_KEY, seeds + MLDSA_SEEDBYTES + MLDSA_CRHBYTES, MLDSA_SEEDBYTES);
    pqlab_zeroize(in, sizeof in);
}

void mldsa_keypair_row_out(uint8_t *pk, uint8_t *sk, unsigned int i, int32_t t[MLDSA_N], int32_t s2[MLDSA_N])
{
    for (unsigned int n = 0; n < MLDSA_N; n++) {
        t[n] = mldsa_freeze(t[n] + s2[n]); /* |.| < q + eta -> [0, q) */
    }
    /* (t1, t0) = Power2Round(t): t1 into s2's storage, t0 in place */
    mldsa_poly_power2round(s2, t, t);
    mldsa_polyt1_pack(pk + PK_T1 + i * MLDSA_POLYT1_BYTES, s2);
    mldsa_polyt0_pack(sk + SK_T0 + i * MLDSA_POLYT0_BYTES, t);
}

void mldsa_keypair_finish(const uint8_t *pk, uint8_t *sk)
{
    PQLAB_DECLASSIFY(pk, MLDSA_PUBLICKEYBYTES); /* the public key is output */
    /* tr = H(pk, 64) */
    pqlab_shake256(sk + SK_TR, MLDSA_TRBYTES, pk, MLDSA_PUBLICKEYBYTES);
}

/* ---------------------------------------------------------------------------- */
/* ExpandA (Algorithm 32): A[i][j] = RejNTTPoly(rho || j || i)                    */

#define a_nonce mldsa_a_nonce

#ifndef PQLAB_MLDSA_SMALLSTACK
/* acc = sum_j A[i][j] o v[j] * 2^-32 with row i of A generated on the fly (four
 * entries at a time through the 4-way SHAKE128), tmp: scratch for 4 polynomials.
 * Bound: each product is < q in absolute value, so |acc| < l q. */
static void matrix_row_mul(mldsa_poly *acc, const uint8_t rho[MLDSA_SEEDBYTES], unsigned int i,
                           const mldsa_poly v[MLDSA_L], mldsa_poly tmp[4])
{
    unsigned int j = 0;
    for (; j + 4 <= MLDSA_L; j += 4) {
        const uint16_t n[4] = {a_nonce(i, j), a_nonce(i, j + 1), a_nonce(i, j + 2), a_nonce(i, j + 3)};
        mldsa_poly_rej_ntt_x4(&tmp[0], &tmp[1], &tmp[2], &tmp[3], rho, n);
        for (unsigned int k = 0; k < 4; k++) {
            if (j + k == 0) {
                /* the first product initialises acc (no separate clearing pass) */
                mldsa_pointwise_mont(acc->c, tmp[0].c, v[0].c);
            } else {
                mldsa_pointwise_acc_mont(acc->c, tmp[k].c, v[j + k].c);
            }
        }
    }
    for (; j < MLDSA_L; j++) {
        mldsa_poly_rej_ntt(&tmp[0], rho, a_nonce(i, j));
        mldsa_pointwise_acc_mont(acc->c, tmp[0].c, v[j].c);
    }
}

/* the whole matrix, row-major, four entries at a time; the k l mod 4 entries left
 * (2 for ML-DSA-65) one at a time */
#define MAT_ENTRIES (MLDSA_K * MLDSA_L)
static void expand_a(mldsa_poly mat[MAT_ENTRIES], const uint8_t rho[MLDSA_SEEDBYTES])
{
    for (unsigned int g = 0; g < MAT_ENTRIES / 4; g++) {
        uint16_t n[4];
        for (unsigned int k = 0; k < 4; k++) {
            const unsigned int e = 4 * g + k;
            n[k] = a_nonce(e / MLDSA_L, e % MLDSA_L);
        }
        mldsa_poly_rej_ntt_x4(&mat[4 * g], &mat[4 * g + 1], &mat[4 * g + 2], &mat[4 * g + 3], rho, n);
    }
    for (unsigned int e = MAT_ENTRIES - MAT_ENTRIES % 4; e < MAT_ENTRIES; e++) {
        mldsa_poly_rej_ntt(&mat[e], rho, a_nonce(e / MLDSA_L, e % MLDSA_L));
    }
}

/* ---------------------------------------------------------------------------- */
/* KeyGen_internal (Algorithm 6); the stack-first one is in stream.c                */

int mldsa_keypair_internal(uint8_t *pk, uint8_t *sk, const uint8_t xi[MLDSA_SEEDBYTES])
{
    uint8_t seeds[2 * MLDSA_SEEDBYTES + MLDSA_CRHBYTES]; /* rho || rho' || K */
    mldsa_poly s1hat[MLDSA_L];
    mldsa_poly tmp[4];
    mldsa_poly t, s2;
    const uint8_t *rho = seeds;
    const uint8_t *rhoprime = seeds + MLDSA_SEEDBYTES;

    mldsa_keypair_seeds(seeds, pk, sk, xi);

    /* s1 (ExpandS, Algorithm 33, r < l), packed, then to the NTT domain:
     * |s1| <= eta, so |s1hat| < eta + 8q */
    for (unsigned int j = 0; j < MLDSA_L; j++) {
        mldsa_poly_rej_bounded(&s1hat[j], rhoprime, (uint16_t)j);
        mldsa_polyeta_pack(sk + SK_S1 + j * MLDSA_POLYETA_BYTES, s1hat[j].c);
        mldsa_ntt(s1hat[j].c);
    }
    for (unsigned int i = 0; i < MLDSA_K; i++) {
        /* t_i = NTT^-1(sum_j A[i][j] s1hat[j]) + s2_i; |acc| < l q < 2^31 - 2^22
         * before reduce32; invntt input |.| < q */
        matrix_row_mul(&t, rho, i, s1hat, tmp);
        mldsa_poly_reduce32(t.c);
        mldsa_invntt_tomont(t.c);
        mldsa_poly_rej_bounded(&s2, rhoprime, (uint16_t)(MLDSA_L + i));
        mldsa_polyeta_pack(sk + SK_S2 + i * MLDSA_POLYETA_BYTES, s2.c);
        mldsa_keypair_row_out(pk, sk, i, t.c, s2.c);
    }
    mldsa_keypair_finish(pk, sk);

    pqlab_zeroize(seeds, sizeof seeds);
    pqlab_zeroize(s1hat, sizeof s1hat);
    pqlab_zeroize(tmp, sizeof tmp);
    pqlab_zeroize(&t, sizeof t);
    pqlab_zeroize(&s2, sizeof s2);
    return 0;
}
#endif /* !PQLAB_MLDSA_SMALLSTACK */

int mldsa_keypair(uint8_t *pk, uint8_t *sk)
{
    uint8_t xi[MLDSA_SEEDBYTES];
    int ret;
    if (pqlab_randombytes(xi, sizeof xi) != 0) {
        pqlab_zeroize(pk, MLDSA_PUBLICKEYBYTES);
        pqlab_zeroize(sk, MLDSA_SECRETKEYBYTES);
        return MLDSA_ERR_RNG;
    }
    ret = mldsa_keypair_internal(pk, sk, xi);
    pqlab_zeroize(xi, sizeof xi);
    return ret;
}

/* ---------------------------------------------------------------------------- */
/* Sign_internal (Algorithm 7) from mu                                              */

#ifndef PQLAB_MLDSA_SMALLSTACK
/* HintBitPack (Algorithm 20); h holds 0/1 (public: part of the signature). At most
 * omega ones (checked by the caller). */
static void pack_hints(uint8_t y[MLDSA_OMEGA + MLDSA_K], const mldsa_poly h[MLDSA_K])
{
    unsigned int idx = 0;
    memset(y, 0, MLDSA_OMEGA + MLDSA_K);
    for (unsigned int i = 0; i < MLDSA_K; i++) {
        for (unsigned int j = 0; j < MLDSA_N; j++) {
            if (h[i].c[j] != 0 && idx < MLDSA_OMEGA) {
                y[idx++] = (uint8_t)j;
            }
        }
        y[MLDSA_OMEGA + i] = (uint8_t)idx;
    }
}

/* everything signing keeps across iterations; one struct so that it is cleared in
 * one call */
typedef struct {
    mldsa_poly mat[MLDSA_K * MLDSA_L]; /* A hat */
#ifdef MLDSA_SIGN_NTTQ
    /* c s1 and c s2 through polyvec_nttmul_add (kernels.h), in the NTT modulo q: */
    mldsa_poly s1[MLDSA_L]; /* NTT(s1) */
    mldsa_poly s2[MLDSA_K]; /* NTT(-s2) */
#else
    /* c s1 and c s2 are products of small polynomials, computed modulo p = 7681 in the
     * 16-bit NTT of ntt16.c (kernels.h): */
    int16_t s1[MLDSA_L][MLDSA_N]; /* NTT16(s1) */
    int16_t s2[MLDSA_K][MLDSA_N]; /* NTT16(-s2) */
#endif
    mldsa_poly t0[MLDSA_K]; /* NTT(t0), |.| < 2^12 + 8q */
    mldsa_poly y[MLDSA_L];  /* y, then kept until z = y + c s1 */
    mldsa_poly z[MLDSA_L];  /* NTT(y), then z */
    mldsa_poly w[MLDSA_K];  /* w in [0, q), then HighBits(w - c s2), then the hint bits */
    mldsa_poly c;           /* NTT(c) */
#ifndef MLDSA_SIGN_NTTQ
    int16_t c16[MLDSA_N]; /* NTT16(c) */
#endif
    mldsa_poly tmp, tmp2;
    uint8_t rhopp[MLDSA_CRHBYTES]; /* rho'' */
    uint8_t w1buf[MLDSA_POLYW1_BYTES];
    pqlab_keccak_state st;
} sign_ws;

int mldsa_sign_mu(uint8_t *sig, const uint8_t mu[MLDSA_CRHBYTES], const uint8_t rnd[MLDSA_RNDBYTES], const uint8_t *sk)
{
    sign_ws ws;
    uint8_t rho[MLDSA_SEEDBYTES];
    uint32_t bad = 0;
    uint16_t kappa = 0;
    unsigned int iterations = 0;

    /* skDecode (Algorithm 25) with the range check of s1, s2 */
    /* (every decoded coefficient has |.| <= 15 < 64, ntt16's input bound, even when
     * the key is malformed) */
    for (unsigned int j = 0; j < MLDSA_L; j++) {
#ifdef MLDSA_SIGN_NTTQ
        bad |= mldsa_polyeta_unpack(ws.s1[j].c, sk + SK_S1 + j * MLDSA_POLYETA_BYTES);
        mldsa_ntt(ws.s1[j].c); /* |s1| <= 15 -> |.| < 15 + 9q */
#else
        bad |= mldsa_polyeta_unpack(ws.tmp.c, sk + SK_S1 + j * MLDSA_POLYETA_BYTES);
        mldsa_poly_ntt16(ws.s1[j], ws.tmp.c);
#endif
    }
    for (unsigned int i = 0; i < MLDSA_K; i++) {
#ifdef MLDSA_SIGN_NTTQ
        int32_t *s2 = ws.s2[i].c;
#else
        int32_t *s2 = ws.tmp.c;
#endif
        bad |= mldsa_polyeta_unpack(s2, sk + SK_S2 + i * MLDSA_POLYETA_BYTES);
        for (unsigned int n = 0; n < MLDSA_N; n++) {
            s2[n] = -s2[n];
        }
#ifdef MLDSA_SIGN_NTTQ
        mldsa_ntt(s2);
#else
        mldsa_poly_ntt16(ws.s2[i], s2);
#endif
        mldsa_polyt0_unpack(ws.t0[i].c, sk + SK_T0 + i * MLDSA_POLYT0_BYTES);
    }
    PQLAB_DECLASSIFY(&bad, sizeof bad); /* whether the key is well formed, not its value */
    if (bad) {
        pqlab_zeroize(&ws, sizeof ws);
        return MLDSA_ERR_SK;
    }
    for (unsigned int i = 0; i < MLDSA_K; i++) {
        mldsa_ntt(ws.t0[i].c);
    }
    memcpy(rho, sk + SK_RHO, MLDSA_SEEDBYTES);
    PQLAB_DECLASSIFY(rho, sizeof rho); /* rho is part of the public key */
    expand_a(ws.mat, rho);

    /* rho'' = H(K || rnd || mu, 64) */
    pqlab_shake256_init(&ws.st);
    pqlab_shake256_absorb(&ws.st, sk + SK_KEY, MLDSA_SEEDBYTES);
    pqlab_shake256_absorb(&ws.st, rnd, MLDSA_RNDBYTES);
    pqlab_shake256_absorb(&ws.st, mu, MLDSA_CRHBYTES);
    pqlab_shake256_finalize(&ws.st);
    pqlab_shake256_squeeze(ws.rhopp, MLDSA_CRHBYTES, &ws.st);

    for (;;) {
        uint32_t reject = 0;
        unsigned int hints = 0;
        iterations++;

        /* y = ExpandMask(rho'', kappa) (Algorithm 34); kappa advances by l */
        /* four at a time through the 4-way SHAKE256, the l mod 4 rest one by one */
        for (unsigned int j = 0; j + 4 <= MLDSA_L; j += 4) {
            const uint16_t n[4] = {(uint16_t)(kappa + j), (uint16_t)(kappa + j + 1), (uint16_t)(kappa + j + 2),
                                   (uint16_t)(kappa + j + 3)};
            mldsa_poly_expand_mask_x4(&ws.y[j], &ws.y[j + 1], &ws.y[j + 2], &ws.y[j + 3], ws.rhopp, n);
        }
        for (unsigned int j = MLDSA_L - MLDSA_L % 4; j < MLDSA_L; j++) {
            mldsa_poly_expand_mask(&ws.y[j], ws.rhopp, (uint16_t)(kappa + j));
        }
        for (unsigned int j = 0; j < MLDSA_L; j++) {
            /* z = y, word by word: adding a zero the compiler cannot see keeps this from
             * becoming a call of the C library's memcpy, which is byte-wise on some
             * embedded libcs */
            const int32_t zero = (int32_t)pqlab_value_barrier_u32(0);
            for (unsigned int n = 0; n < MLDSA_N; n++) {
                ws.z[j].c[n] = ws.y[j].c[n] + zero;
            }
            mldsa_ntt(ws.z[j].c); /* |y| <= gamma1 -> |.| < gamma1 + 8q */
        }
        kappa = (uint16_t)(kappa + MLDSA_L);

        /* w = NTT^-1(A o NTT(y)), w1 = HighBits(w), c~ = H(mu || w1Encode(w1)) */
        pqlab_shake256_init(&ws.st);
        pqlab_shake256_absorb(&ws.st, mu, MLDSA_CRHBYTES);
        for (unsigned int i = 0; i < MLDSA_K; i++) {
#ifdef PQLAB_MLDSA_NATIVE_POLYVEC_POINTWISE_ACC_MONT
            /* one reduction of the whole sum (kernels.h): |A| < q, |NTT(y)| < gamma1 + 8q -> |.| < q */
            mldsa_polyvec_pointwise_acc_mont(ws.w[i].c, &ws.mat[i * MLDSA_L], ws.z, MLDSA_L);
#else
            for (unsigned int j = 0; j < MLDSA_L; j++) {
                const int32_t *aij = ws.mat[i * MLDSA_L + j].c;
                if (j == 0) {
                    mldsa_pointwise_mont(ws.w[i].c, aij, ws.z[0].c); /* initialises w_i */
                } else {
                    mldsa_pointwise_acc_mont(ws.w[i].c, aij, ws.z[j].c);
                }
            }
            mldsa_poly_reduce32(ws.w[i].c); /* |.| < l q -> < q */
#endif
            mldsa_invntt_tomont(ws.w[i].c);
            mldsa_poly_caddq(ws.w[i].c); /* [0, q) */
            mldsa_poly_decompose(ws.tmp.c, NULL, ws.w[i].c);
            mldsa_polyw1_pack(ws.w1buf, ws.tmp.c);
            pqlab_shake256_absorb(&ws.st, ws.w1buf, MLDSA_POLYW1_BYTES);
        }
        pqlab_shake256_finalize(&ws.st);
        pqlab_shake256_squeeze(sig, MLDSA_CTILDEBYTES, &ws.st);

        /* c = SampleInBall(c~), in both NTT domains: |c| <= 1 -> |.| < 1 + 8q */
        mldsa_poly_sample_in_ball(&ws.c, sig);
#ifndef MLDSA_SIGN_NTTQ
        mldsa_poly_ntt16(ws.c16, ws.c.c);
#endif
        mldsa_ntt(ws.c.c);

        /* z = y + c s1, exact: |c s1| <= tau eta = beta <= 3840 (ntt16.c) */
#ifdef MLDSA_SIGN_NTTQ
        mldsa_polyvec_nttmul_add(ws.z, ws.y, &ws.c, ws.s1, MLDSA_L);
#endif
        for (unsigned int j = 0; j < MLDSA_L; j++) {
#ifndef MLDSA_SIGN_NTTQ
            mldsa_poly_mul16_add(ws.z[j].c, ws.y[j].c, ws.c16, ws.s1[j]);
#endif
            reject |= mldsa_poly_chknorm(ws.z[j].c, MLDSA_GAMMA1 - MLDSA_BETA);
        }
#ifdef PQLAB_MLDSA_EARLY_ABORT
        /* opt-in, not the default (docs/mldsa.md, "Constant time"): stop the iteration at
         * the first failed check, as FIPS 204's pseudocode and pqm4 do; the timing then
         * also shows which check failed. Same signatures. */
        PQLAB_DECLASSIFY(&reject, sizeof reject);
        if (reject) {
            continue;
        }
#endif
#ifdef MLDSA_SIGN_NTTQ
        /* w - c s2 for every i at once (w_i is replaced by r1 below, after its use) */
        mldsa_polyvec_nttmul_add(ws.w, ws.w, &ws.c, ws.s2, MLDSA_K);
#endif
        for (unsigned int i = 0; i < MLDSA_K; i++) {
            /* r = w - c s2 mod+ q (c (-s2) exact, |c s2| <= beta); r0 = LowBits(r) */
#ifdef MLDSA_SIGN_NTTQ
            for (unsigned int n = 0; n < MLDSA_N; n++) {
                ws.tmp.c[n] = mldsa_freeze(ws.w[i].c[n]);
            }
#else
            mldsa_poly_mul16_add(ws.tmp.c, ws.w[i].c, ws.c16, ws.s2[i]);
            for (unsigned int n = 0; n < MLDSA_N; n++) {
                ws.tmp.c[n] = mldsa_freeze(ws.tmp.c[n]);
            }
#endif
            /* (r1, r0) = Decompose(r); r1 replaces w_i (no longer needed) */
            mldsa_poly_decompose(ws.w[i].c, ws.tmp2.c, ws.tmp.c);
            reject |= mldsa_poly_chknorm(ws.tmp2.c, MLDSA_GAMMA2 - MLDSA_BETA);
#ifdef PQLAB_MLDSA_EARLY_ABORT
            PQLAB_DECLASSIFY(&reject, sizeof reject);
            if (reject) {
                break;
            }
#endif
            /* c t0, exact: |c t0| <= tau 2^12 < 2^18 */
#ifdef MLDSA_SIGN_NTTQ
            mldsa_polyvec_nttmul_add(&ws.tmp, NULL, &ws.c, &ws.t0[i], 1);
#else
            mldsa_pointwise_mont(ws.tmp.c, ws.c.c, ws.t0[i].c);
            mldsa_invntt_tomont(ws.tmp.c);
            mldsa_poly_reduce32(ws.tmp.c);
#endif
            reject |= mldsa_poly_chknorm(ws.tmp.c, MLDSA_GAMMA2);
            /* h = MakeHint(-c t0, w - c s2 + c t0) (Algorithm 39), from r0 + c t0 and r1:
             * the same bits whenever |r0| < gamma2 - beta and |c t0| < gamma2, that is in
             * every iteration that is not rejected (kernels.h); the bits replace r1 */
            hints += mldsa_poly_make_hint_low(ws.w[i].c, ws.tmp2.c, ws.tmp.c, ws.w[i].c);
        }
        reject |= (uint32_t)((int32_t)MLDSA_OMEGA - (int32_t)hints) >> 31; /* hints > omega */

        PQLAB_DECLASSIFY(&reject, sizeof reject); /* the rejection decision */
        if (!reject) {
            break;
        }
    }
    pqlab_instr_sign_iterations(iterations); /* the instrumentation interface (instrument.h) */

    /* sigEncode (Algorithm 26) */
    for (unsigned int j = 0; j < MLDSA_L; j++) {
        mldsa_polyz_pack(sig + SIG_Z + j * MLDSA_POLYZ_BYTES, ws.z[j].c);
    }
    PQLAB_DECLASSIFY(ws.w, sizeof ws.w); /* hint bits: part of the released signature */
    pack_hints(sig + SIG_H, ws.w);
    PQLAB_DECLASSIFY(sig, MLDSA_SIGBYTES); /* the final signature */

    pqlab_zeroize(&ws, sizeof ws);
    return 0;
}
#endif /* !PQLAB_MLDSA_SMALLSTACK */

/* ---------------------------------------------------------------------------- */
/* Verify_internal (Algorithm 8) from mu                                             */

/* HintBitUnpack (Algorithm 21) validity: limits non-decreasing and <= omega, indices
 * strictly increasing within each polynomial, unused index bytes zero. Reads only
 * y[0 .. omega + k - 1]. Returns 0 when the encoding is canonical. */
static int hints_check(const uint8_t y[MLDSA_OMEGA + MLDSA_K])
{
    unsigned int idx = 0;
    for (unsigned int i = 0; i < MLDSA_K; i++) {
        const unsigned int limit = y[MLDSA_OMEGA + i];
        if (limit < idx || limit > MLDSA_OMEGA) {
            return -1;
        }
        for (unsigned int k = idx + 1; k < limit; k++) {
            if (y[k - 1] >= y[k]) {
                return -1;
            }
        }
        idx = limit;
    }
    for (unsigned int k = idx; k < MLDSA_OMEGA; k++) {
        if (y[k] != 0) {
            return -1;
        }
    }
    return 0;
}

/* the checks of Verify_internal that need no hashing (sign_internal.h) */
int mldsa_sig_check(const uint8_t *sig, size_t siglen, mldsa_poly *z, unsigned int nz)
{
    if (siglen != MLDSA_SIGBYTES) {
        return MLDSA_ERR_VERIFY;
    }
    if (hints_check(sig + SIG_H) != 0) {
        return MLDSA_ERR_VERIFY;
    }
    /* ||z||inf < gamma1 - beta (line 13), checked first: it needs no hashing */
    for (unsigned int j = 0; j < MLDSA_L; j++) {
        mldsa_poly *zj = &z[j % nz];
        mldsa_polyz_unpack(zj->c, sig + SIG_Z + j * MLDSA_POLYZ_BYTES);
        if (mldsa_poly_chknorm(zj->c, MLDSA_GAMMA1 - MLDSA_BETA)) {
            return MLDSA_ERR_VERIFY;
        }
    }
    return 0;
}

void mldsa_hints_row(uint8_t h[MLDSA_N], const uint8_t y[MLDSA_OMEGA + MLDSA_K], unsigned int i)
{
    const unsigned int start = (i == 0) ? 0u : y[MLDSA_OMEGA + i - 1];
    const unsigned int end = y[MLDSA_OMEGA + i];
    pqlab_memzero_words(h, MLDSA_N); /* h is 4-byte aligned (verify_ws) */
    for (unsigned int k = start; k < end; k++) {
        h[y[k]] = 1;
    }
}

#ifndef PQLAB_MLDSA_SMALLSTACK
typedef struct {
    mldsa_poly z[MLDSA_L]; /* NTT(z) */
    mldsa_poly tmp[4];     /* A entries */
    mldsa_poly acc, t1, c;
    _Alignas(4) uint8_t h[MLDSA_N]; /* cleared word-wise in hints_row */
    uint8_t w1buf[MLDSA_POLYW1_BYTES];
    uint8_t ctilde[MLDSA_CTILDEBYTES];
    pqlab_keccak_state st;
} verify_ws;

int mldsa_verify_mu(const uint8_t *sig, size_t siglen, const uint8_t mu[MLDSA_CRHBYTES], const uint8_t *pk)
{
    verify_ws ws;
    const uint8_t *rho = pk;

    if (mldsa_sig_check(sig, siglen, ws.z, MLDSA_L) != 0) {
        return MLDSA_ERR_VERIFY;
    }
    for (unsigned int j = 0; j < MLDSA_L; j++) {
        mldsa_ntt(ws.z[j].c); /* |z| < gamma1 -> |.| < gamma1 + 8q */
    }
    mldsa_poly_sample_in_ball(&ws.c, sig);
    mldsa_ntt(ws.c.c);

    pqlab_shake256_init(&ws.st);
    pqlab_shake256_absorb(&ws.st, mu, MLDSA_CRHBYTES);
    for (unsigned int i = 0; i < MLDSA_K; i++) {
        /* w'_i = NTT^-1(sum_j A[i][j] o z_j - c o NTT(t1_i 2^d)) */
        matrix_row_mul(&ws.acc, rho, i, ws.z, ws.tmp);
        mldsa_polyt1_unpack(ws.t1.c, pk + PK_T1 + i * MLDSA_POLYT1_BYTES);
        for (unsigned int n = 0; n < MLDSA_N; n++) {
            ws.t1.c[n] <<= MLDSA_D; /* < 2^23 < q */
        }
        mldsa_ntt(ws.t1.c);
        mldsa_pointwise_mont(ws.t1.c, ws.c.c, ws.t1.c); /* (8q+1) 9q < 2^31 q */
        for (unsigned int n = 0; n < MLDSA_N; n++) {
            ws.acc.c[n] -= ws.t1.c[n]; /* |.| < (l + 1) q */
        }
        mldsa_poly_reduce32(ws.acc.c);
        mldsa_invntt_tomont(ws.acc.c);
        mldsa_poly_caddq(ws.acc.c);
        /* w1' = UseHint(h, w'), absorbed as w1Encode */
        mldsa_hints_row(ws.h, sig + SIG_H, i);
        mldsa_poly_use_hint(ws.acc.c, ws.acc.c, ws.h);
        mldsa_polyw1_pack(ws.w1buf, ws.acc.c);
        pqlab_shake256_absorb(&ws.st, ws.w1buf, MLDSA_POLYW1_BYTES);
    }
    pqlab_shake256_finalize(&ws.st);
    pqlab_shake256_squeeze(ws.ctilde, MLDSA_CTILDEBYTES, &ws.st);
    if (pqlab_ct_memcmp(ws.ctilde, sig, MLDSA_CTILDEBYTES) != 0) {
        return MLDSA_ERR_VERIFY;
    }
    return 0;
}
#endif /* !PQLAB_MLDSA_SMALLSTACK */

/* ---------------------------------------------------------------------------- */
/* mu = H(tr || M', 64) with M' in pieces (Algorithms 2-5, 7 line 6, 8 line 7)    */

/* absorbs the M' prefix of the external interface (Algorithms 2-5): the domain byte
 * (0 pure, 1 pre-hash), IntegerToBytes(|ctx|, 1) and the context (|ctx| <= 255,
 * checked by the callers) */
static void absorb_prefix(pqlab_keccak_state *st, uint8_t domain, const uint8_t *ctx, size_t ctxlen)
{
    const uint8_t hdr[2] = {domain, (uint8_t)ctxlen};
    pqlab_shake256_absorb(st, hdr, sizeof hdr);
    if (ctxlen > 0) {
        pqlab_shake256_absorb(st, ctx, ctxlen);
    }
}

/* tr from pk (verification side) */
static void mu_begin_pk(pqlab_keccak_state *st, const uint8_t *pk)
{
    uint8_t tr[MLDSA_TRBYTES];
    pqlab_shake256(tr, sizeof tr, pk, MLDSA_PUBLICKEYBYTES);
    pqlab_shake256_init(st);
    pqlab_shake256_absorb(st, tr, sizeof tr);
}

static void mu_begin_sk(pqlab_keccak_state *st, const uint8_t *sk)
{
    pqlab_shake256_init(st);
    pqlab_shake256_absorb(st, sk + SK_TR, MLDSA_TRBYTES);
}

static void mu_end(uint8_t mu[MLDSA_CRHBYTES], pqlab_keccak_state *st)
{
    pqlab_shake256_finalize(st);
    pqlab_shake256_squeeze(mu, MLDSA_CRHBYTES, st);
}

/* absorbs the pre-hash M' tail: OID || PH(M); returns 0 or MLDSA_ERR_HASH */
static int absorb_ph(pqlab_keccak_state *st, int hashalg, const uint8_t *ph, size_t phlen)
{
    const uint8_t *oid;
    if (mldsa_prehash_info(&oid, hashalg) != phlen || phlen == 0) {
        return MLDSA_ERR_HASH;
    }
    pqlab_shake256_absorb(st, oid, MLDSA_OID_BYTES);
    pqlab_shake256_absorb(st, ph, phlen);
    return 0;
}

/* mu = H(tr || M', 64), tr from sk (from_pk = 0) or H(pk) (from_pk = 1); M' = msg
 * (domain < 0: the internal interface), 0 || |ctx| || ctx || msg (domain 0) or
 * 1 || |ctx| || ctx || OID || msg with msg = PH(M) (domain 1). Returns 0 or
 * MLDSA_ERR_HASH. Not inlined: its Keccak state is not part of the frame of the signing
 * and verification calls that follow (the stack-first build counts every byte). */
static MLDSA_NOINLINE int mu_compute(uint8_t mu[MLDSA_CRHBYTES], const uint8_t *key, int from_pk, int domain,
                                     const uint8_t *ctx, size_t ctxlen, int hashalg, const uint8_t *msg, size_t mlen)
{
    pqlab_keccak_state st;
    int ret = 0;
    if (from_pk) {
        mu_begin_pk(&st, key);
    } else {
        mu_begin_sk(&st, key);
    }
    if (domain >= 0) {
        absorb_prefix(&st, (uint8_t)domain, ctx, ctxlen);
    }
    if (domain == 1) {
        ret = absorb_ph(&st, hashalg, msg, mlen);
    } else {
        pqlab_shake256_absorb(&st, msg, mlen);
    }
    if (ret == 0) {
        mu_end(mu, &st);
    }
    pqlab_zeroize(&st, sizeof st);
    return ret;
}

/* hedged signing keeps its fresh rnd in the signature's hint section (no stack; sign_mu
 * reads rnd only to derive rho'', before it writes anything there, and the section is
 * rewritten with the hints at the end or the whole signature zeroised on failure) */
#if MLDSA_OMEGA + MLDSA_K < MLDSA_RNDBYTES
#error "hint section smaller than rnd"
#endif
static int sign_finish(uint8_t *sig, size_t *siglen, const uint8_t mu[MLDSA_CRHBYTES], const uint8_t *rnd,
                       const uint8_t *sk)
{
    uint8_t *const fresh = sig + SIG_H;
    int ret;
    if (rnd == NULL) {
        /* hedged signing (Algorithm 2, line 5) */
        if (pqlab_randombytes(fresh, MLDSA_RNDBYTES) != 0) {
            ret = MLDSA_ERR_RNG;
            goto out;
        }
        rnd = fresh;
    }
    ret = mldsa_sign_mu(sig, mu, rnd, sk);
out:
    if (ret != 0) {
        pqlab_zeroize(sig, MLDSA_SIGBYTES);
        *siglen = 0;
    } else {
        *siglen = MLDSA_SIGBYTES;
    }
    return ret;
}

static int sign_fail(uint8_t *sig, size_t *siglen, int ret)
{
    pqlab_zeroize(sig, MLDSA_SIGBYTES);
    *siglen = 0;
    return ret;
}

/* ---------------------------------------------------------------------------- */
/* Public entry points                                                               */

int mldsa_signature_internal(uint8_t *sig, size_t *siglen, const uint8_t *mp, size_t mplen,
                             const uint8_t rnd[MLDSA_RNDBYTES], const uint8_t *sk)
{
    uint8_t mu[MLDSA_CRHBYTES];
    if (rnd == NULL) {
        return sign_fail(sig, siglen, MLDSA_ERR_ARG);
    }
    (void)mu_compute(mu, sk, 0, -1, NULL, 0, 0, mp, mplen);
    return sign_finish(sig, siglen, mu, rnd, sk);
}

int mldsa_verify_internal(const uint8_t *sig, size_t siglen, const uint8_t *mp, size_t mplen, const uint8_t *pk)
{
    uint8_t mu[MLDSA_CRHBYTES];
    (void)mu_compute(mu, pk, 1, -1, NULL, 0, 0, mp, mplen);
    return mldsa_verify_mu(sig, siglen, mu, pk);
}

int mldsa_signature_extmu(uint8_t *sig, size_t *siglen, const uint8_t mu[MLDSA_CRHBYTES],
                          const uint8_t rnd[MLDSA_RNDBYTES], const uint8_t *sk)
{
    if (rnd == NULL) {
        return sign_fail(sig, siglen, MLDSA_ERR_ARG);
    }
    return sign_finish(sig, siglen, mu, rnd, sk);
}

int mldsa_verify_extmu(const uint8_t *sig, size_t siglen, const uint8_t mu[MLDSA_CRHBYTES], const uint8_t *pk)
{
    return mldsa_verify_mu(sig, siglen, mu, pk);
}

int mldsa_compute_mu(uint8_t mu[MLDSA_CRHBYTES], const uint8_t *pk, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                     size_t ctxlen, int hashalg)
{
    pqlab_keccak_state st;
    if (ctxlen > 255) {
        memset(mu, 0, MLDSA_CRHBYTES);
        return MLDSA_ERR_ARG;
    }
    mu_begin_pk(&st, pk);
    if (hashalg == 0) {
        absorb_prefix(&st, 0, ctx, ctxlen);
        pqlab_shake256_absorb(&st, m, mlen);
    } else {
        uint8_t ph[MLDSA_PH_MAXBYTES];
        const uint8_t *oid;
        const size_t phlen = mldsa_prehash(ph, &oid, hashalg, m, mlen);
        absorb_prefix(&st, 1, ctx, ctxlen);
        if (absorb_ph(&st, hashalg, ph, phlen) != 0) {
            memset(mu, 0, MLDSA_CRHBYTES);
            return MLDSA_ERR_HASH;
        }
    }
    mu_end(mu, &st);
    return 0;
}

int mldsa_signature_ctx(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                        const uint8_t *rnd, const uint8_t *sk)
{
    uint8_t mu[MLDSA_CRHBYTES];
    if (ctxlen > 255) {
        return sign_fail(sig, siglen, MLDSA_ERR_ARG);
    }
    (void)mu_compute(mu, sk, 0, 0, ctx, ctxlen, 0, m, mlen);
    return sign_finish(sig, siglen, mu, rnd, sk);
}

int mldsa_verify_ctx(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                     size_t ctxlen, const uint8_t *pk)
{
    uint8_t mu[MLDSA_CRHBYTES];
    if (ctxlen > 255) {
        return MLDSA_ERR_ARG;
    }
    (void)mu_compute(mu, pk, 1, 0, ctx, ctxlen, 0, m, mlen);
    return mldsa_verify_mu(sig, siglen, mu, pk);
}

int mldsa_signature_prehash_digest(uint8_t *sig, size_t *siglen, const uint8_t *ph, size_t phlen, const uint8_t *ctx,
                                   size_t ctxlen, int hashalg, const uint8_t *rnd, const uint8_t *sk)
{
    uint8_t mu[MLDSA_CRHBYTES];
    int ret;
    if (ctxlen > 255) {
        return sign_fail(sig, siglen, MLDSA_ERR_ARG);
    }
    ret = mu_compute(mu, sk, 0, 1, ctx, ctxlen, hashalg, ph, phlen);
    if (ret != 0) {
        return sign_fail(sig, siglen, ret);
    }
    return sign_finish(sig, siglen, mu, rnd, sk);
}

int mldsa_verify_prehash_digest(const uint8_t *sig, size_t siglen, const uint8_t *ph, size_t phlen, const uint8_t *ctx,
                                size_t ctxlen, int hashalg, const uint8_t *pk)
{
    uint8_t mu[MLDSA_CRHBYTES];
    if (ctxlen > 255) {
        return MLDSA_ERR_ARG;
    }
    if (mu_compute(mu, pk, 1, 1, ctx, ctxlen, hashalg, ph, phlen) != 0) {
        return MLDSA_ERR_HASH;
    }
    return mldsa_verify_mu(sig, siglen, mu, pk);
}

int mldsa_signature_prehash(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                            size_t ctxlen, int hashalg, const uint8_t *rnd, const uint8_t *sk)
{
    uint8_t ph[MLDSA_PH_MAXBYTES];
    const uint8_t *oid;
    const size_t phlen = mldsa_prehash(ph, &oid, hashalg, m, mlen);
    if (phlen == 0) {
        return sign_fail(sig, siglen, MLDSA_ERR_HASH);
    }
    return mldsa_signature_prehash_digest(sig, siglen, ph, phlen, ctx, ctxlen, hashalg, rnd, sk);
}

int mldsa_verify_prehash(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                         size_t ctxlen, int hashalg, const uint8_t *pk)
{
    uint8_t ph[MLDSA_PH_MAXBYTES];
    const uint8_t *oid;
    const size_t phlen = mldsa_prehash(ph, &oid, hashalg, m, mlen);
    if (phlen == 0) {
        return MLDSA_ERR_HASH;
    }
    return mldsa_verify_prehash_digest(sig, siglen, ph, phlen, ctx, ctxlen, hashalg, pk);
}

/* NIST API: pure ML-DSA with the empty context, hedged */
int mldsa_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *sk)
{
    return mldsa_signature_ctx(sig, siglen, m, mlen, NULL, 0, NULL, sk);
}

int mldsa_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk)
{
    return mldsa_verify_ctx(sig, siglen, m, mlen, NULL, 0, pk);
}

int mldsa_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk)
{
    size_t siglen;
    int ret;
    if (mlen > 0) {
        memmove(sm + MLDSA_SIGBYTES, m, mlen); /* sm = sig || m; m may lie inside sm */
    }
    ret = mldsa_signature(sm, &siglen, sm + MLDSA_SIGBYTES, mlen, sk);
    if (ret != 0) {
        pqlab_zeroize(sm, MLDSA_SIGBYTES + mlen);
        *smlen = 0;
        return ret;
    }
    *smlen = MLDSA_SIGBYTES + mlen;
    return 0;
}

int mldsa_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *pk)
{
    if (smlen >= MLDSA_SIGBYTES &&
        mldsa_verify(sm, MLDSA_SIGBYTES, sm + MLDSA_SIGBYTES, smlen - MLDSA_SIGBYTES, pk) == 0) {
        *mlen = smlen - MLDSA_SIGBYTES;
        if (*mlen > 0) {
            memmove(m, sm + MLDSA_SIGBYTES, *mlen);
        }
        return 0;
    }
    if (smlen >= MLDSA_SIGBYTES) {
        pqlab_zeroize(m, smlen - MLDSA_SIGBYTES);
    }
    *mlen = 0;
    return MLDSA_ERR_VERIFY;
}
