/* SPDX-License-Identifier: MIT */
/* Stack-first ML-DSA (FIPS 204 Algorithms 6-8), built with -DPQLAB_MLDSA_SMALLSTACK
 * (implementation folders lib/crypto_sign/ml-dsa-NN/smallstack/); the interfaces
 * around these (mu, contexts, pre-hash, NIST API) are sign.c's.
 *
 * Memory: the matrix A is never stored, not even one entry: each entry is sampled
 * (RejNTTPoly) straight into a pointwise multiply-accumulate (rej_ntt_mac below).
 *  - KeyGen: t_i = NTT^-1(sum_j A_ij o NTT(s1_j)) + s2_i row by row; s1 and s2 are
 *    packed into the caller's sk as soon as they are sampled and s1_j is unpacked and
 *    transformed again for every row; t1 / t0 are packed straight into pk / sk (two
 *    polynomials).
 *  - Verify: w'_i = NTT^-1(sum_j A_ij o NTT(z_j)) - c t1_i 2^d row by row, the sum kept
 *    in 3 bytes per coefficient; z_j is unpacked from the signature and transformed for
 *    every use; c is kept sparse (its tau positions and signs: c and the signature are
 *    public) and c t1_i 2^d is computed in the normal domain from t1 read in pk; UseHint
 *    and w1Encode go straight into SHAKE256 (one polynomial and 768 bytes).
 *  - Sign: see mldsa_sign_mu (w in 3 bytes per coefficient and one polynomial).
 *
 * Same outputs as sign.c (tests/test_mldsa_smallstack.py); constant-time policy as
 * sign.c (key generation handles s1, s2, t0 only through masks and fixed addresses). */
#ifdef PQLAB_MLDSA_SMALLSTACK

#include <string.h>

#include "ct.h"
#include "fips202.h"
#include "instrument.h"
#include "kernels.h"
#include "mldsa.h"
#include "reduce.h"
#include "rounding.h"
#include "sign_internal.h"

#define SHAKE128_RATE PQLAB_SHAKE128_RATE

/* w kept in 3 bytes per coefficient (values in [0, q) < 2^24): signing's w_i,
 * verification's row of w' */
#define W_BYTES (3 * MLDSA_N)

static inline int32_t w_get(const uint8_t w[W_BYTES], unsigned int n)
{
    return (int32_t)((uint32_t)w[3 * n] | ((uint32_t)w[3 * n + 1] << 8) | ((uint32_t)w[3 * n + 2] << 16));
}

static inline void w_set(uint8_t w[W_BYTES], unsigned int n, int32_t v)
{
    w[3 * n] = (uint8_t)v;
    w[3 * n + 1] = (uint8_t)(v >> 8);
    w[3 * n + 2] = (uint8_t)(v >> 16);
}

static void w_load(int32_t a[MLDSA_N], const uint8_t w[W_BYTES])
{
    for (unsigned int n = 0; n < MLDSA_N; n++) {
        a[n] = w_get(w, n);
    }
}

static void w_store(uint8_t w[W_BYTES], const int32_t a[MLDSA_N])
{
    for (unsigned int n = 0; n < MLDSA_N; n++) {
        w_set(w, n, a[n]);
    }
}

/* A_ij o b * 2^-32 (Algorithms 30, 45 with the Montgomery factor), A_ij =
 * RejNTTPoly(rho || nonce) consumed coefficient by coefficient as it is sampled (the
 * stream is squeezed A_PIECE bytes at a time; the entry is never stored), added to
 *  - acc (int32, when acc != NULL): |product| < q, so after l calls |acc_i| < l q;
 *  - else w (3 bytes per coefficient, kept in [0, q) without a branch on the values).
 * first: the destination is initialised instead of added to. In: |b_i| < 2^31
 * (|A_ij b_i| < 2^31 q). rho is public: branches on the sampled values are fine. */
#define A_PIECE 24 /* 8 triples; divides the SHAKE128 rate, so no triple straddles pieces */
#if SHAKE128_RATE % A_PIECE != 0 || A_PIECE % 3 != 0
#error "A_PIECE"
#endif
static void rej_ntt_mac(int32_t *acc, uint8_t *w, const uint8_t rho[MLDSA_SEEDBYTES], uint16_t nonce,
                        const int32_t b[MLDSA_N], int first)
{
    uint8_t buf[A_PIECE];
    pqlab_keccak_state st;
    unsigned int ctr = 0;

    buf[0] = (uint8_t)nonce;
    buf[1] = (uint8_t)(nonce >> 8);
    pqlab_shake128_init(&st);
    pqlab_shake128_absorb(&st, rho, MLDSA_SEEDBYTES); /* rho || nonce */
    pqlab_shake128_absorb(&st, buf, 2);
    pqlab_shake128_finalize(&st);
    while (ctr < MLDSA_N) {
        pqlab_shake128_squeeze(buf, A_PIECE, &st);
        for (unsigned int pos = 0; ctr < MLDSA_N && pos < A_PIECE; pos += 3) {
            /* CoeffFromThreeBytes (Algorithm 14) */
            const uint32_t t =
                (uint32_t)buf[pos] | ((uint32_t)buf[pos + 1] << 8) | (((uint32_t)buf[pos + 2] & 0x7Fu) << 16);
            if (t >= (uint32_t)MLDSA_Q) {
                continue;
            }
            int32_t v = mldsa_montgomery_reduce((int64_t)(int32_t)t * b[ctr]); /* (-q, q) */
            if (acc != NULL) {
                acc[ctr] = first ? v : acc[ctr] + v;
            } else {
                if (!first) {
                    v += w_get(w, ctr); /* (-q, 2q) */
                }
                v += (v >> 31) & MLDSA_Q; /* [0, 2q) */
                v -= MLDSA_Q;
                v += (v >> 31) & MLDSA_Q; /* [0, q) */
                w_set(w, ctr, v);
            }
            ctr++;
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
        rej_ntt_mac(acc, NULL, rho, mldsa_a_nonce(i, j), vbuf, j == 0);
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
    uint8_t seeds[2 * MLDSA_SEEDBYTES + MLDSA_CRHBYTES]; /* rho || rho' || K */
    mldsa_poly t, v;
    const uint8_t *rho = seeds;
    const uint8_t *rhoprime = seeds + MLDSA_SEEDBYTES;

    mldsa_keypair_seeds(seeds, pk, sk, xi);

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
        mldsa_keypair_row_out(pk, sk, i, t.c, v.c);
    }
    mldsa_keypair_finish(pk, sk);

    pqlab_zeroize(seeds, sizeof seeds);
    pqlab_zeroize(&t, sizeof t);
    pqlab_zeroize(&v, sizeof v);
    return 0;
}

/* ---------------------------------------------------------------------------- */
/* Verify_internal (Algorithm 8) from mu                                             */

/* coefficient m of SimpleBitPack(t1, 10 bits) (Algorithm 16) */
static inline int32_t t1_coeff(const uint8_t *t1, unsigned int m)
{
    const unsigned int bit = 10 * m;
    const uint32_t two = (uint32_t)t1[bit >> 3] | ((uint32_t)t1[(bit >> 3) + 1] << 8);
    return (int32_t)((two >> (bit & 7)) & 0x3FFu);
}

/* SampleInBall (Algorithm 29) on the public c~ of a signature under verification, as
 * the list of the tau nonzero positions of c and their signs, without the 256
 * coefficients: the swap c_i = c_j, c_j = +-1 moves the entry at position j (if any)
 * to i (positions set so far are all below i) and adds (j, sign). Public data:
 * branches and addresses may depend on it. st: scratch. */
static void ball_sparse(uint8_t pos[MLDSA_TAU], uint8_t neg[MLDSA_TAU], const uint8_t ctilde[MLDSA_CTILDEBYTES],
                        pqlab_keccak_state *st)
{
    uint8_t b[8];
    uint64_t signs = 0;
    unsigned int nc = 0;
    pqlab_shake256_init(st);
    pqlab_shake256_absorb(st, ctilde, MLDSA_CTILDEBYTES);
    pqlab_shake256_finalize(st);
    pqlab_shake256_squeeze(b, 8, st);
    for (unsigned int k = 0; k < 8; k++) {
        signs |= (uint64_t)b[k] << (8 * k);
    }
    for (unsigned int i = MLDSA_N - MLDSA_TAU; i < MLDSA_N; i++) {
        unsigned int j;
        do {
            pqlab_shake256_squeeze(b, 1, st);
            j = b[0];
        } while (j > i);
        for (unsigned int k = 0; k < nc; k++) {
            if (pos[k] == j) {
                pos[k] = (uint8_t)i;
            }
        }
        pos[nc] = (uint8_t)j;
        neg[nc] = (uint8_t)(signs & 1u);
        signs >>= 1;
        nc++;
    }
}

int mldsa_verify_mu(const uint8_t *sig, size_t siglen, const uint8_t mu[MLDSA_CRHBYTES], const uint8_t *pk)
{
    mldsa_poly v;
    /* row i of NTT(w') while summed; then the hint bits of row i, then w1Encode */
    _Alignas(4) uint8_t wrow[W_BYTES];
    uint8_t cpos[MLDSA_TAU]; /* c = sum_k (-1)^(cneg_k) X^(cpos_k) */
    uint8_t cneg[MLDSA_TAU];
    pqlab_keccak_state st;
    const uint8_t *rho = pk;

    if (mldsa_sig_check(sig, siglen, &v, 1) != 0) { /* z_j checked one by one in v */
        return MLDSA_ERR_VERIFY;
    }
    /* c = SampleInBall(c~), kept as its tau nonzero positions (public) */
    ball_sparse(cpos, cneg, sig, &st);

    pqlab_shake256_init(&st);
    pqlab_shake256_absorb(&st, mu, MLDSA_CRHBYTES);
    for (unsigned int i = 0; i < MLDSA_K; i++) {
        const uint8_t *t1 = pk + PK_T1 + i * MLDSA_POLYT1_BYTES;
        /* sum_j A_ij o NTT(z_j) in [0, q), z_j unpacked and transformed for every row
         * (|z| < gamma1 -> |NTT(z)| < gamma1 + 8q), then back to the normal domain */
        for (unsigned int j = 0; j < MLDSA_L; j++) {
            mldsa_polyz_unpack(v.c, sig + SIG_Z + j * MLDSA_POLYZ_BYTES);
            mldsa_ntt(v.c);
            rej_ntt_mac(NULL, wrow, rho, mldsa_a_nonce(i, j), v.c, j == 0);
        }
        w_load(v.c, wrow);
        mldsa_invntt_tomont(v.c); /* |.| < q */
        /* - c t1_i 2^d in Z_q[X]/(X^256 + 1), t1 read from pk: each term |t1 2^d| < 2^23
         * < q, so |v| < (tau + 1) q <= 61 q < 2^31 - 2^22 */
        for (unsigned int k = 0; k < MLDSA_TAU; k++) {
            const unsigned int p = cpos[k];
            const int32_t s = cneg[k] ? -(1 << MLDSA_D) : (1 << MLDSA_D);
            /* X^p t1: coefficient n - p for n >= p, -(n - p + 256) wrapped */
            for (unsigned int n = 0; n < p; n++) {
                v.c[n] += s * t1_coeff(t1, n + MLDSA_N - p);
            }
            for (unsigned int n = p; n < MLDSA_N; n++) {
                v.c[n] -= s * t1_coeff(t1, n - p);
            }
        }
        for (unsigned int n = 0; n < MLDSA_N; n++) {
            v.c[n] = mldsa_freeze(v.c[n]);
        }
        /* w1' = UseHint(h, w'), absorbed as w1Encode */
        mldsa_hints_row(wrow, sig + SIG_H, i);
        mldsa_poly_use_hint(v.c, v.c, wrow);
        mldsa_polyw1_pack(wrow, v.c);
        pqlab_shake256_absorb(&st, wrow, MLDSA_POLYW1_BYTES);
    }
    pqlab_shake256_finalize(&st);
    pqlab_shake256_squeeze(wrow, MLDSA_CTILDEBYTES, &st); /* c~' */
    if (pqlab_ct_memcmp(wrow, sig, MLDSA_CTILDEBYTES) != 0) {
        return MLDSA_ERR_VERIFY;
    }
    return 0;
}

/* ---------------------------------------------------------------------------- */
/* Sign_internal (Algorithm 7) from mu                                              */

/* s = c s exactly, for |c s| < 2089217 (signing: |c s1|, |c s2| <= beta, |c t0| <= tau
 * 2^12): NTT^-1(NTT(c) o NTT(s)) with the Montgomery factors cancelling, then the centred
 * representative (reduce32). chat: NTT(c) in 3 bytes per coefficient, in [0, q).
 * In: |s_i| <= 2^12, so |NTT(s)_i chat_i| < (2^12 + 8q) q < 2^31 q. */
static void c_times(int32_t s[MLDSA_N], const uint8_t chat[W_BYTES])
{
    mldsa_ntt(s);
    for (unsigned int n = 0; n < MLDSA_N; n++) {
        s[n] = mldsa_montgomery_reduce((int64_t)s[n] * w_get(chat, n));
    }
    mldsa_invntt_tomont(s);
    mldsa_poly_reduce32(s);
}

/* HintBitPack (Algorithm 20) from one bit per coefficient; public (the signature) */
static void pack_hint_bits(uint8_t y[MLDSA_OMEGA + MLDSA_K], const uint8_t h[MLDSA_K * MLDSA_N / 8])
{
    unsigned int idx = 0;
    memset(y, 0, MLDSA_OMEGA + MLDSA_K);
    for (unsigned int i = 0; i < MLDSA_K; i++) {
        for (unsigned int n = 0; n < MLDSA_N; n++) {
            if (((h[i * (MLDSA_N / 8) + (n >> 3)] >> (n & 7)) & 1u) != 0 && idx < MLDSA_OMEGA) {
                y[idx++] = (uint8_t)n;
            }
        }
        y[MLDSA_OMEGA + i] = (uint8_t)idx;
    }
}

/* out = H(a || b || c, outlen), c optional (the Keccak state lives only in this frame) */
static MLDSA_NOINLINE void shake256_3(uint8_t *out, size_t outlen, const uint8_t *a, size_t alen, const uint8_t *b,
                                      size_t blen, const uint8_t *c, size_t clen)
{
    pqlab_keccak_state st;
    pqlab_shake256_init(&st);
    pqlab_shake256_absorb(&st, a, alen);
    pqlab_shake256_absorb(&st, b, blen);
    if (clen > 0) {
        pqlab_shake256_absorb(&st, c, clen);
    }
    pqlab_shake256_finalize(&st);
    pqlab_shake256_squeeze(out, outlen, &st);
    pqlab_zeroize(&st, sizeof st);
}

#if MLDSA_K * MLDSA_POLYW1_BYTES > MLDSA_L * MLDSA_POLYZ_BYTES
#error "w1Encode does not fit the z part of the signature"
#endif

/* Memory: w (k polynomials of 3 bytes per coefficient) and one polynomial; nothing else
 * of polynomial size. y_j is regenerated by ExpandMask twice per iteration (for w and,
 * added to c s1_j, for z); A_ij is sampled into the product; w1Encode(w1) goes into the
 * signature buffer (its z part, written last) before it is hashed; NTT(c) (3 bytes per
 * coefficient) is kept there too while the rows are checked, then in w_1's storage while
 * z is computed; r = w - c s2 replaces w_i, and the hint bits of row i go into w_0's
 * storage once w_0 is used up. Every check of an iteration is computed and only the
 * rejection bit is declassified, as in sign.c; the same iterations, the same signature. */
int mldsa_sign_mu(uint8_t *sig, const uint8_t mu[MLDSA_CRHBYTES], const uint8_t rnd[MLDSA_RNDBYTES], const uint8_t *sk)
{
    uint8_t w[MLDSA_K][W_BYTES]; /* NTT(w_i) being summed, then w_i, then r_i */
    mldsa_poly p;
    const uint8_t *const rho = sk + SK_RHO;
    uint8_t rhopp[MLDSA_CRHBYTES]; /* rho'' */
    uint8_t *const hbits = w[0];   /* h: row i at hbits + 32 i (after row 0's r is read) */
    uint8_t *const chat_rows = sig + SIG_Z;
    uint8_t *const chat_z = w[1];
    uint32_t bad = 0;
    uint16_t kappa = 0;
    unsigned int iterations = 0;

    /* skDecode (Algorithm 25): the range check of s1, s2 (decoded again when used) */
    for (unsigned int r = 0; r < MLDSA_L + MLDSA_K; r++) {
        bad |= mldsa_polyeta_unpack(p.c, sk + SK_S1 + r * MLDSA_POLYETA_BYTES);
    }
    PQLAB_DECLASSIFY(&bad, sizeof bad); /* whether the key is well formed, not its value */
    if (bad) {
        pqlab_zeroize(&p, sizeof p);
        return MLDSA_ERR_SK;
    }
    PQLAB_DECLASSIFY(rho, MLDSA_SEEDBYTES); /* rho is part of the public key */
    /* rho'' = H(K || rnd || mu, 64) */
    shake256_3(rhopp, MLDSA_CRHBYTES, sk + SK_KEY, MLDSA_SEEDBYTES, rnd, MLDSA_RNDBYTES, mu, MLDSA_CRHBYTES);

    for (;;) {
        uint32_t reject = 0;
        unsigned int hints = 0;
        iterations++;

        /* NTT(w) = A o NTT(y), column by column: y_j = ExpandMask(rho'', kappa + j) */
        for (unsigned int j = 0; j < MLDSA_L; j++) {
            mldsa_poly_expand_mask_small(&p, rhopp, (uint16_t)(kappa + j), 0);
            mldsa_ntt(p.c); /* |y| <= gamma1 -> |.| < gamma1 + 8q */
            for (unsigned int i = 0; i < MLDSA_K; i++) {
                rej_ntt_mac(NULL, w[i], rho, mldsa_a_nonce(i, j), p.c, j == 0);
            }
        }
        /* w = NTT^-1(.) in [0, q); w1 = HighBits(w), c~ = H(mu || w1Encode(w1)) */
        for (unsigned int i = 0; i < MLDSA_K; i++) {
            w_load(p.c, w[i]);
            mldsa_invntt_tomont(p.c);
            mldsa_poly_caddq(p.c);
            w_store(w[i], p.c);
            mldsa_poly_decompose(p.c, NULL, p.c);
            mldsa_polyw1_pack(sig + SIG_Z + i * MLDSA_POLYW1_BYTES, p.c);
        }
        shake256_3(sig, MLDSA_CTILDEBYTES, mu, MLDSA_CRHBYTES, sig + SIG_Z, MLDSA_K * MLDSA_POLYW1_BYTES, NULL, 0);

        /* c = SampleInBall(c~), kept as NTT(c) in [0, q) (|NTT(c)| < 1 + 8q) */
        mldsa_poly_sample_in_ball(&p, sig);
        mldsa_ntt(p.c);
        for (unsigned int n = 0; n < MLDSA_N; n++) {
            w_set(chat_rows, n, mldsa_freeze(p.c[n]));
        }

        for (unsigned int i = 0; i < MLDSA_K; i++) {
            uint8_t *const hrow = hbits + i * (MLDSA_N / 8);
            uint32_t low = 0;
            /* r = w - c s2 mod+ q (|c s2| <= beta) replaces w_i; ||LowBits(r)|| < gamma2 - beta */
            (void)mldsa_polyeta_unpack(p.c, sk + SK_S2 + i * MLDSA_POLYETA_BYTES);
            c_times(p.c, chat_rows);
            for (unsigned int n = 0; n < MLDSA_N; n++) {
                int32_t r0;
                const int32_t r = mldsa_freeze(w_get(w[i], n) - p.c[n]);
                (void)mldsa_decompose(&r0, r);
                const int32_t m = r0 >> 31;
                low |= (uint32_t)(MLDSA_GAMMA2 - MLDSA_BETA - 1 - ((r0 ^ m) - m)) >> 31;
                w_set(w[i], n, r);
            }
            reject |= low;
            /* c t0 (exact: |.| <= tau 2^12), ||c t0|| < gamma2 */
            mldsa_polyt0_unpack(p.c, sk + SK_T0 + i * MLDSA_POLYT0_BYTES);
            c_times(p.c, chat_rows);
            reject |= mldsa_poly_chknorm(p.c, MLDSA_GAMMA2);
            /* h = MakeHint(-c t0, r + c t0) = [HighBits(r + c t0) != HighBits(r)]
             * (Algorithm 39), eight bits per byte; for row 0 the byte b is written after
             * r's bytes up to 24 b + 23 are read, and no later coefficient is below */
            for (unsigned int b = 0; b < MLDSA_N / 8; b++) {
                uint32_t byte = 0;
                for (unsigned int t = 0; t < 8; t++) {
                    const unsigned int n = 8 * b + t;
                    int32_t r0;
                    const int32_t r = w_get(w[i], n);
                    const int32_t h1 = mldsa_decompose(&r0, mldsa_freeze(r + p.c[n]));
                    const int32_t h0 = mldsa_decompose(&r0, r);
                    const uint32_t bit = 1u ^ pqlab_ct_is_zero_u32((uint32_t)(h1 ^ h0));
                    byte |= bit << t;
                    hints += bit;
                }
                hrow[b] = (uint8_t)byte;
            }
        }
        reject |= (uint32_t)((int32_t)MLDSA_OMEGA - (int32_t)hints) >> 31; /* hints > omega */

        /* z_j = y_j + c s1_j (c s1 exact: |.| <= beta), checked and packed into sig (in a
         * rejected iteration out-of-range values only garble bytes that are rewritten) */
        memcpy(chat_z, chat_rows, W_BYTES);
        for (unsigned int j = 0; j < MLDSA_L; j++) {
            (void)mldsa_polyeta_unpack(p.c, sk + SK_S1 + j * MLDSA_POLYETA_BYTES);
            c_times(p.c, chat_z);
            mldsa_poly_expand_mask_small(&p, rhopp, (uint16_t)(kappa + j), 1);
            reject |= mldsa_poly_chknorm(p.c, MLDSA_GAMMA1 - MLDSA_BETA);
            mldsa_polyz_pack(sig + SIG_Z + j * MLDSA_POLYZ_BYTES, p.c);
        }
        kappa = (uint16_t)(kappa + MLDSA_L);

        PQLAB_DECLASSIFY(&reject, sizeof reject); /* the rejection decision */
        if (!reject) {
            break;
        }
    }
    pqlab_instr_sign_iterations(iterations); /* the instrumentation interface (instrument.h) */

    PQLAB_DECLASSIFY(hbits, MLDSA_K * MLDSA_N / 8); /* hint bits: part of the released signature */
    pack_hint_bits(sig + SIG_H, hbits);
    PQLAB_DECLASSIFY(sig, MLDSA_SIGBYTES); /* the final signature */

    pqlab_zeroize(w, sizeof w);
    pqlab_zeroize(&p, sizeof p);
    pqlab_zeroize(rhopp, sizeof rhopp);
    return 0;
}

#else
/* the speed-first build (sign.c) has nothing here; ISO C wants a declaration */
typedef int mldsa_stream_unused;
#endif
