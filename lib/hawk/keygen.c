/* SPDX-License-Identifier: MIT */
/* HawkKeyGen (Hawk specification v1.0): one candidate per kgseed.
 *
 *   (f, g) <- Regeneratefg(kgseed)
 *   restart unless f and g are invertible modulo 2 (their coefficient sums are odd)
 *   restart if ||(f, g)||^2 <= 2 n sigma_krsec^2
 *   q00 <- f f* + g g*; restart unless q00 is invertible modulo p1 and modulo p2
 *   restart if (1/q00)[0] >= beta_0
 *   (F, G) <- NTRUSolve(f, g) for f G - g F = 1; restart on failure or ||(F, G)||_inf > 127
 *   q01 <- F f* + G g*, q11 <- F F* + G G*; restart if |q11[i]| >= 2^high11 for an i > 0
 *   pub <- EncodePublic(q00, q01) (restart if it does not fit); hpub <- SHAKE256(pub)
 *   priv <- kgseed || F mod 2 || G mod 2 || hpub
 *
 * NTRUSolve is FN-DSA's solver (lib/fndsa/ntru.c) with q = 1, run at the intermediate
 * depths with the Hawk reference solver's schedule and 32.32 fixed-point Babai steps
 * (ntru_fx.c), so that it gives up on exactly the candidates that solver gives up on
 * (docs/hawk.md); its final Babai reduction is exact, so (F, G) is the unique reduced
 * solution whenever it succeeds.
 * (1/q00)[0] is computed in floating point with FN-DSA's fpr layer and FFT: q00 is
 * self-adjoint, so its FFT is real, and (1/q00)[0] = (2/n) sum_{j < n/2} 1 / q00(zeta_j).
 * All products of small polynomials are exact through the NTT modulo p1 (every
 * coefficient is far below p1 / 2: |q11| <= 2 n 127^2 < 2^26). */
#include <string.h>

#include "hawk.h"
#include "ct.h"
#include "fndsa.h" /* lib/fndsa: fndsa_solve_ntru_q, fpr, fndsa_fft */

unsigned hawk_keygen_restarts_last = 0;

/* Word sizes (31-bit words) of f, g and of the unreduced F, G per depth: the Hawk
 * reference's NTRU solver profiles (ntrugen's SOLVE_Hawk_512 / SOLVE_Hawk_1024
 * max_bl_small / max_bl_large, in mupq's hawk512/hawk1024 ng_hawk.c; facts). */
#if HAWK_LOGN == 9
static const uint16_t HAWK_BL_SMALL[10] = {1, 1, 1, 2, 3, 6, 11, 21, 41, 82};
static const uint16_t HAWK_BL_LARGE[9] = {1, 2, 3, 5, 8, 16, 31, 61, 121};
#else
static const uint16_t HAWK_BL_SMALL[11] = {1, 1, 2, 2, 4, 7, 13, 25, 48, 96, 191};
static const uint16_t HAWK_BL_LARGE[10] = {1, 2, 3, 5, 10, 19, 37, 72, 143, 284};
#endif
/* Per depth: how many top 31-bit words of f, g the reference's Babai steps read, and
 * the bits F, G shrink by per step (ntrugen's SOLVE_Hawk_512 / SOLVE_Hawk_1024
 * word_win and reduce_bits, in mupq's ng_hawk.c; facts) */
#if HAWK_LOGN == 9
static const uint16_t HAWK_WORD_WIN[10] = {1, 1, 1, 2, 2, 3, 3, 4, 6, 0};
#define HAWK_REDUCE_BITS 15
#else
static const uint16_t HAWK_WORD_WIN[11] = {1, 1, 2, 2, 3, 3, 3, 4, 4, 7, 0};
#define HAWK_REDUCE_BITS 12
#endif
/* The NTRU solver's workspace for Hawk's profile: the size FN-DSA's solver had before
 * its storage was reduced (27 Nov 2026, docs/fndsa.md "RAM per operation"), with which
 * Hawk's keys were checked; Hawk's own minimum with the reduced storage is not measured
 * yet (the Falcon figure, FNDSA_NTRU_WORDS, is too small for Hawk's schedule) */
#if HAWK_LOGN == 9
#define HAWK_NTRU_WORDS ((size_t)12840)
#else
#define HAWK_NTRU_WORDS ((size_t)26664)
#endif
static const fndsa_ntru_params HAWK_NTRU = {1,
                                            HAWK_BL_SMALL,
                                            HAWK_BL_LARGE,
                                            NULL, /* bl_avg, bl_std: not read by the Hawk schedule */
                                            NULL,
                                            HAWK_WORD_WIN,
                                            HAWK_REDUCE_BITS,
                                            hawk_fx_babai_init,
                                            hawk_fx_babai_k,
                                            HAWK_NTRU_WORDS,
                                            0 /* fbits0: the default bound, |f_i|, |g_i| < 2^7 */};

static int32_t sum_i8(const int8_t *a)
{
    int32_t s = 0;
    for (size_t u = 0; u < HAWK_N; u++) {
        s += a[u];
    }
    return s;
}

/* (1/q00)[0] < 1 / HAWK_BETA0_INV, i.e. HAWK_BETA0_INV * sum 1/q00(zeta_j) < n / 2 */
static int beta0_ok(const int32_t *q00, fpr *w /* 2n */)
{
    fpr *a = w, *t = w + HAWK_N;
    for (size_t u = 0; u < HAWK_N; u++) {
        a[u] = fpr_of(q00[u]);
    }
    fndsa_fft(a, HAWK_LOGN, t);
    fpr s = fpr_of(0);
    for (size_t u = 0; u < HAWK_N / 2; u++) {
        s = fpr_add(s, fpr_inv(a[u]));
    }
    s = fpr_mul(s, fpr_of(HAWK_BETA0_INV));
    return fpr_lt(s, fpr_of(HAWK_N / 2));
}

int hawk_keygen_try(uint8_t pk[HAWK_PKBYTES], uint8_t sk[HAWK_SKBYTES], const uint8_t kgseed[HAWK_KGSEEDLEN])
{
    int8_t f[HAWK_N], g[HAWK_N], F[HAWK_N], G[HAWK_N];
    int32_t a[HAWK_N], b[HAWK_N], c[HAWK_N], d[HAWK_N], q00[HAWK_N], q01[HAWK_N];
    hawk_ntt nt; /* twiddle tables (public) */
    uint32_t tmp[HAWK_NTRU_WORDS];
    int ok = 0;

    hawk_regen_fg(f, g, kgseed);
    /* invertible modulo 2 <=> f(1) odd (x^n + 1 = (x + 1)^n modulo 2) */
    uint32_t good = (uint32_t)(sum_i8(f) & sum_i8(g) & 1);
    uint32_t l2 = 0;
    for (size_t u = 0; u < HAWK_N; u++) {
        l2 += (uint32_t)(f[u] * f[u] + g[u] * g[u]);
    }
    good &= (uint32_t)(HAWK_KRSEC_BOUND - l2) >> 31; /* l2 > bound */
    PQLAB_DECLASSIFY(&good, sizeof good);
    if (!good) {
        goto out;
    }
    for (size_t u = 0; u < HAWK_N; u++) {
        a[u] = f[u];
        b[u] = g[u];
    }
    hawk_ntt_init(&nt, 0, tmp);
    hawk_poly_mul_acc(q00, a, a, b, b, 1, &nt, tmp);
    /* invertible modulo p1 and p2: no NTT value is zero */
    uint32_t zero = 0;
    for (unsigned which = 0; which < 2; which++) {
        hawk_ntt_init(&nt, which, tmp);
        hawk_ntt_i32(tmp, q00, &nt);
        for (size_t u = 0; u < HAWK_N; u++) {
            zero |= pqlab_ct_is_zero_u32(tmp[u]);
        }
    }
    good = zero ^ 1;
    good &= (uint32_t)beta0_ok(q00, (fpr *)(void *)tmp);
    PQLAB_DECLASSIFY(&good, sizeof good);
    if (!good) {
        goto out;
    }
    if (!fndsa_solve_ntru_ex(F, G, f, g, HAWK_LOGN, &HAWK_NTRU, tmp)) {
        goto out;
    }
    for (size_t u = 0; u < HAWK_N; u++) {
        c[u] = F[u];
        d[u] = G[u];
    }
    hawk_ntt_init(&nt, 0, tmp);
    hawk_poly_mul_acc(q01, c, a, d, b, 1, &nt, tmp);
    hawk_poly_mul_acc(a, c, c, d, d, 1, &nt, tmp); /* q11 (f no longer needed as int32) */
    uint32_t big = 0;
    for (size_t u = 1; u < HAWK_N; u++) {
        int32_t x = a[u];
        uint32_t m = (uint32_t)(x >> 31);
        uint32_t v = (uint32_t)x ^ m; /* |x| or |x| - 1: >= 2^high iff |x| >= 2^high (x < 0: -x-1 < 2^h - 1) */
        v += m & 1u;                  /* |x| */
        big |= (v >> HAWK_HIGH11);
    }
    good = pqlab_ct_is_zero_u32(big);
    PQLAB_DECLASSIFY(&good, sizeof good);
    if (!good) {
        goto out;
    }
    /* q00, q01 are the public key (its encoding branches on their values) */
    PQLAB_DECLASSIFY(q00, sizeof q00);
    PQLAB_DECLASSIFY(q01, sizeof q01);
    if (!hawk_encode_public(pk, q00, q01)) {
        goto out;
    }
    /* private key: kgseed || F mod 2 || G mod 2 || hpub */
    memcpy(sk, kgseed, HAWK_KGSEEDLEN);
    memset(sk + HAWK_KGSEEDLEN, 0, 2 * (HAWK_N / 8));
    for (size_t u = 0; u < HAWK_N; u++) {
        sk[HAWK_KGSEEDLEN + (u >> 3)] |= (uint8_t)((F[u] & 1) << (u & 7));
        sk[HAWK_KGSEEDLEN + HAWK_N / 8 + (u >> 3)] |= (uint8_t)((G[u] & 1) << (u & 7));
    }
    pqlab_shake256(sk + HAWK_KGSEEDLEN + 2 * (HAWK_N / 8), HAWK_HPUBLEN, pk, HAWK_PKBYTES);
    ok = 1;
out:
    pqlab_zeroize(f, sizeof f);
    pqlab_zeroize(g, sizeof g);
    pqlab_zeroize(F, sizeof F);
    pqlab_zeroize(G, sizeof G);
    pqlab_zeroize(a, sizeof a);
    pqlab_zeroize(b, sizeof b);
    pqlab_zeroize(c, sizeof c);
    pqlab_zeroize(d, sizeof d);
    pqlab_zeroize(tmp, sizeof tmp);
    return ok;
}
