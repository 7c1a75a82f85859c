/* SPDX-License-Identifier: MIT */
/* HawkVerify (Hawk specification v1.0).
 *
 *   (salt, s1) <- DecodeSignature(sig); (q00, q01) <- DecodePublic(pub) (reject on failure)
 *   hpub <- SHAKE256(pub); M <- SHAKE256(m || hpub); (h0, h1) <- SHAKE256(M || salt)[0:2n]
 *   w1 <- h1 - 2 s1; reject unless sym-break(w1)
 *   w0 <- RebuildS0: w0 = h0 - 2 round((h0 - q01 w1 / q00) / 2)   (floating point, FFT)
 *   for p in (p1, p2): r_p <- PolyQnorm: with w0' = -w0, d = w1 / q00, e = w0' + d q01,
 *       c = q00 e e* + d w1*, r_p = sum of the n NTT values of c modulo p (= n c[0])
 *   accept iff r_p1 = r_p2, n divides it, and r / n <= 8 n sigma_verify^2
 *
 * The floating-point step uses FN-DSA's fpr layer and FFT (lib/fndsa); a rounding
 * error there can only make a valid signature fail (the exact modular Q-norm decides),
 * with negligible probability. Public data only: not constant time. */
#include <string.h>

#include "hawk.h"
#include "fndsa.h" /* fpr, fndsa_fft, fndsa_ifft, fndsa_poly_* */
#include "ntru_internal.h"

static void verify_adj_i32(int32_t *d, const int32_t *s)
{
    d[0] = s[0];
    for (size_t u = 1; u < HAWK_N; u++) {
        d[u] = -s[HAWK_N - u];
    }
}

/* w0 (n values) from h0 (bits, as int32), w1, q00, q01; fw: 3n fprs + n (FFT scratch) */
static void rebuild_s0(int32_t *w0, const int32_t *h0, const int32_t *q00, const int32_t *q01, const int32_t *w1,
                       fpr *fw)
{
    fpr *a = fw, *b = fw + HAWK_N, *c = fw + 2 * HAWK_N, *t = fw + 3 * HAWK_N;
    for (size_t u = 0; u < HAWK_N; u++) {
        a[u] = fpr_of(q01[u]);
        b[u] = fpr_of(w1[u]);
        c[u] = fpr_of(q00[u]);
    }
    fndsa_fft(a, HAWK_LOGN, t);
    fndsa_fft(b, HAWK_LOGN, t);
    fndsa_fft(c, HAWK_LOGN, t);
    fndsa_poly_mul_fft(a, b, HAWK_LOGN);
    fndsa_poly_div_autoadj_fft(a, c, HAWK_LOGN);
    fndsa_ifft(a, HAWK_LOGN, t);
    for (size_t u = 0; u < HAWK_N; u++) {
        fpr z = fpr_half(fpr_sub(fpr_of(h0[u]), a[u]));
        w0[u] = h0[u] - 2 * (int32_t)fpr_rint(z);
    }
}

/* PolyQnorm modulo the prime of c: 1 and the sum modulo p in *r, or 0 when q00 is not
 * invertible modulo p. ws: 6n words */
static int poly_qnorm(uint32_t *r, const int32_t *q00, const int32_t *q01, const int32_t *w0, const int32_t *w1,
                      const hawk_ntt *c, uint32_t *ws, int32_t *it)
{
    uint32_t *A = ws, *B = ws + HAWK_N, *E = ws + 2 * HAWK_N, *D = ws + 3 * HAWK_N, *W = ws + 4 * HAWK_N,
             *X = ws + 5 * HAWK_N;
    const uint32_t p = c->p;
    hawk_ntt_i32(A, q00, c);
    hawk_ntt_i32(B, q01, c);
    hawk_ntt_i32(W, w1, c);
    for (size_t u = 0; u < HAWK_N; u++) {
        it[u] = -w0[u];
    }
    hawk_ntt_i32(E, it, c);
    /* 1 / q00 at every point with one inversion (batch inversion: prefix products in X,
     * then back to front); a zero value (q00 not invertible modulo p) refuses the key */
    X[0] = A[0];
    for (size_t u = 1; u < HAWK_N; u++) {
        X[u] = hawk_mp_mul(X[u - 1], A[u], c);
    }
    if (X[HAWK_N - 1] == 0) {
        return 0;
    }
    uint32_t inv = hawk_mp_inv(X[HAWK_N - 1], c);
    for (size_t u = HAWK_N; u-- > 1;) {
        D[u] = hawk_mp_mul(inv, X[u - 1], c); /* 1 / A[u] */
        inv = hawk_mp_mul(inv, A[u], c);      /* 1 / (A[0] ... A[u - 1]) */
    }
    D[0] = inv;
    for (size_t u = 0; u < HAWK_N; u++) {
        D[u] = hawk_mp_mul(W[u], D[u], c);                  /* d = w1 / q00 */
        E[u] = mp_add(E[u], hawk_mp_mul(D[u], B[u], c), p); /* e = -w0 + d q01 */
    }
    /* e* and w1* through the coefficient domain */
    memcpy(X, E, HAWK_N * sizeof *X);
    hawk_intt_i32(it, X, c);
    {
        int32_t *t2 = (int32_t *)(void *)B; /* q01's NTT is no longer needed */
        verify_adj_i32(t2, it);
        hawk_ntt_i32(X, t2, c); /* X = NTT(e*) */
        verify_adj_i32(t2, w1);
        hawk_ntt_i32(W, t2, c); /* W = NTT(w1*) */
    }
    uint64_t s = 0;
    for (size_t u = 0; u < HAWK_N; u++) {
        uint32_t v = hawk_mp_mul(A[u], hawk_mp_mul(E[u], X[u], c), c);
        v = mp_add(v, hawk_mp_mul(D[u], W[u], c), p);
        s += v;
    }
    *r = (uint32_t)(s % p);
    return 1;
}

int hawk_verify_core(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk, size_t pklen)
{
    int32_t s1[HAWK_N], q00[HAWK_N], q01[HAWK_N], h[2 * HAWK_N], w0[HAWK_N], it[HAWK_N];
    uint8_t hpub[HAWK_HPUBLEN], hm[HAWK_HMLEN], hb[2 * HAWK_N / 8];
    hawk_ntt nt; /* twiddle tables (public) */
    union {
        uint32_t w[6 * HAWK_N];
        fpr f[4 * HAWK_N];
    } ws;
    pqlab_keccak_state sc;

    if (siglen != HAWK_SIGBYTES || pklen != HAWK_PKBYTES) {
        return 0;
    }
    if (!hawk_decode_sig(s1, sig) || !hawk_decode_public(q00, q01, pk)) {
        return 0;
    }
    pqlab_shake256(hpub, HAWK_HPUBLEN, pk, HAWK_PKBYTES);
    pqlab_shake256_init(&sc);
    pqlab_shake256_absorb(&sc, m, mlen);
    pqlab_shake256_absorb(&sc, hpub, HAWK_HPUBLEN);
    pqlab_shake256_finalize(&sc);
    pqlab_shake256_squeeze(hm, HAWK_HMLEN, &sc);
    pqlab_shake256_init(&sc);
    pqlab_shake256_absorb(&sc, hm, HAWK_HMLEN);
    pqlab_shake256_absorb(&sc, sig, HAWK_SALTLEN);
    pqlab_shake256_finalize(&sc);
    pqlab_shake256_squeeze(hb, sizeof hb, &sc);
    for (size_t u = 0; u < 2 * (size_t)HAWK_N; u++) {
        h[u] = (hb[u >> 3] >> (u & 7)) & 1;
    }
    int32_t *w1 = s1;
    for (size_t u = 0; u < HAWK_N; u++) {
        w1[u] = h[HAWK_N + u] - 2 * s1[u];
    }
    if (!hawk_sym_break(w1)) {
        return 0;
    }
    rebuild_s0(w0, h, q00, q01, w1, ws.f);
    uint32_t r[2];
    for (unsigned which = 0; which < 2; which++) {
        hawk_ntt_init(&nt, which, ws.w);
        if (!poly_qnorm(&r[which], q00, q01, w0, w1, &nt, ws.w, it)) {
            return 0;
        }
    }
    if (r[0] != r[1] || (r[0] & (HAWK_N - 1)) != 0) {
        return 0;
    }
    return (r[0] >> HAWK_LOGN) <= HAWK_VERIFY_BOUND;
}
