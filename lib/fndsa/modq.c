/* SPDX-License-Identifier: MIT */
/* Arithmetic modulo q = 12289 (round-3 specification v1.2, sections 3.8.2,
 * 3.10): NTT over Z_q[x]/(x^n + 1), public key h = g / f, recomputation of
 * G = g F / f, hash-to-point, and the verification equation
 * s1 = c - s2 h with ||(s1, s2)||^2 <= beta^2.
 * Elements are in [0, q). Reductions are Barrett with a masked final
 * correction (no division, no branch) since f, g, F are secret. */
#include "fndsa.h"
#include "tables.h"
#include "ct.h"

#define Q 12289u

/* x mod q for x < 2^28: floor(2^36 / q) = 5591950, the quotient estimate is
 * low by at most 1, so one masked subtraction finishes. */
static inline uint32_t mq_red(uint32_t x)
{
    uint32_t t = (uint32_t)(((uint64_t)x * 5591950u) >> 36);
    uint32_t r = x - t * Q;
    r -= Q & ((uint32_t)0 - (((r - Q) >> 31) ^ 1));
    return r;
}

static inline uint32_t mq_mul(uint32_t a, uint32_t b) { return mq_red(a * b); }

static inline uint32_t mq_add(uint32_t a, uint32_t b)
{
    uint32_t r = a + b - Q;
    return r + (Q & ((uint32_t)0 - (r >> 31)));
}

static inline uint32_t mq_sub(uint32_t a, uint32_t b)
{
    uint32_t r = a - b;
    return r + (Q & ((uint32_t)0 - (r >> 31)));
}

/* signed small value to [0, q) */
static inline uint32_t mq_of(int32_t x)
{
    uint32_t r = (uint32_t)x;
    return r + (Q & ((uint32_t)0 - (r >> 31)));
}

/* x mod q up to one extra q, for any 32-bit x: the same quotient estimate as
 * mq_red (low by at most 1 for x < 2^36), without the final correction; the
 * result is in [0, 2q). */
static inline uint32_t mq_red_lazy(uint32_t x)
{
    return x - (uint32_t)(((uint64_t)x * 5591950u) >> 36) * Q;
}

/* [0, 2^32 - 2q) -> the same class in [0, 2q) when x < 4q */
static inline uint32_t mq_sub2q(uint32_t x)
{
    uint32_t r = x - 2 * Q;
    return r + ((2 * Q) & ((uint32_t)0 - (r >> 31)));
}

/* [0, 2q) -> [0, q) */
static inline uint32_t mq_subq(uint32_t x)
{
    uint32_t r = x - Q;
    return r + (Q & ((uint32_t)0 - (r >> 31)));
}

/* NTT (Cooley-Tukey, bit-reversed output). Input in [0, q) (or [0, 2q)),
 * output in [0, q). Inside, values stay in [0, 2q) (16-bit storage): the
 * product t = z b is reduced lazily to [0, 2q), a + t and a - t + 2q (both in
 * [0, 4q)) lose one masked 2q; a final pass makes the values canonical. */
static inline void ntt_bfly(uint16_t *p, size_t len, uint32_t z)
{
    uint32_t t = mq_red_lazy(z * p[len]);
    uint32_t u = p[0];
    p[len] = (uint16_t)mq_sub2q(u - t + 2 * Q);
    p[0] = (uint16_t)mq_sub2q(u + t);
}

static inline void intt_bfly(uint16_t *p, size_t len, uint32_t zi)
{
    uint32_t u = p[0], v = p[len];
    p[0] = (uint16_t)mq_sub2q(u + v);
    p[len] = (uint16_t)mq_red_lazy((u - v + 2 * Q) * zi);
}

/* NTT (Cooley-Tukey, bit-reversed output). Input in [0, q) (or [0, 2q)),
 * output in [0, q). Inside, values stay in [0, 2q) (16-bit storage): the
 * product t = z b is reduced lazily to [0, 2q), a + t and a - t + 2q (both in
 * [0, 4q)) lose one masked 2q; a final pass makes the values canonical.
 * Layers with len >= 2 run two butterflies per iteration; the last layer
 * (len = 1) is one loop over the twiddles. */
static void ntt(uint16_t *a, unsigned logn)
{
    size_t n = (size_t)1 << logn, k = 0;
    for (size_t len = n >> 1; len >= 2; len >>= 1) {
        for (size_t start = 0; start < n; start += 2 * len) {
            uint32_t z = fndsa_ntt_zetas[++k];
            uint16_t *p = a + start, *e = p + len;
            for (; p < e; p += 2) {
                ntt_bfly(p, len, z);
                ntt_bfly(p + 1, len, z);
            }
        }
    }
    for (size_t start = 0; start < n; start += 2) {
        ntt_bfly(a + start, 1, fndsa_ntt_zetas[++k]);
    }
    for (size_t j = 0; j < n; j++) {
        a[j] = (uint16_t)mq_subq(a[j]);
    }
}

/* inverse NTT (Gentleman-Sande), the same lazy ranges; output in [0, q) */
static void intt(uint16_t *a, unsigned logn)
{
    size_t n = (size_t)1 << logn;
    for (size_t start = 0; start < n; start += 2) {
        intt_bfly(a + start, 1, fndsa_ntt_izetas[(n >> 1) + (start >> 1)]);
    }
    for (size_t len = 2; len < n; len <<= 1) {
        for (size_t start = 0; start < n; start += 2 * len) {
            uint32_t zi = fndsa_ntt_izetas[n / (2 * len) + start / (2 * len)];
            uint16_t *p = a + start, *e = p + len;
            for (; p < e; p += 2) {
                intt_bfly(p, len, zi);
                intt_bfly(p + 1, len, zi);
            }
        }
    }
    /* divide by n: n^-1 = q - (q - 1)/n */
    uint32_t ninv = Q - (Q - 1) / (uint32_t)n;
    for (size_t j = 0; j < n; j++) {
        a[j] = (uint16_t)mq_subq(mq_red_lazy(a[j] * ninv));
    }
}

/* x^(q-2) = x^-1 (0 for 0); fixed square-and-multiply chain, 12287 = 0b10111111111111 */
static uint32_t mq_inv(uint32_t x)
{
    uint32_t r = x;
    for (int i = 12; i >= 0; i--) {
        r = mq_mul(r, r);
        if ((12287u >> i) & 1) { /* public exponent bits */
            r = mq_mul(r, x);
        }
    }
    return r;
}

/* h = g / f mod q; 0 when f is not invertible. tmp: n uint16. */
int fndsa_compute_public(uint16_t *h, const int8_t *f, const int8_t *g, unsigned logn, uint16_t *tmp)
{
    size_t n = (size_t)1 << logn;
    for (size_t u = 0; u < n; u++) {
        tmp[u] = (uint16_t)mq_of(f[u]);
        h[u] = (uint16_t)mq_of(g[u]);
    }
    ntt(tmp, logn);
    ntt(h, logn);
    uint32_t zero = 0;
    for (size_t u = 0; u < n; u++) {
        zero |= pqlab_ct_is_zero_u32(tmp[u]);
        h[u] = (uint16_t)mq_mul(h[u], mq_inv(tmp[u]));
    }
    intt(h, logn);
    PQLAB_DECLASSIFY(&zero, sizeof zero); /* restart decision */
    return zero == 0;
}

/* G = g F / f mod q, centred; 0 when f is not invertible or G does not fit
 * in [-127, 127]. tmp: 2n uint16. */
int fndsa_complete_private(int8_t *G, const int8_t *f, const int8_t *g, const int8_t *F,
                           unsigned logn, uint16_t *tmp)
{
    size_t n = (size_t)1 << logn;
    uint16_t *a = tmp, *b = tmp + n;
    for (size_t u = 0; u < n; u++) {
        a[u] = (uint16_t)mq_of(g[u]);
        b[u] = (uint16_t)mq_of(F[u]);
    }
    ntt(a, logn);
    ntt(b, logn);
    for (size_t u = 0; u < n; u++) {
        a[u] = (uint16_t)mq_mul(a[u], b[u]);
        b[u] = (uint16_t)mq_of(f[u]);
    }
    ntt(b, logn);
    uint32_t bad = 0;
    for (size_t u = 0; u < n; u++) {
        bad |= pqlab_ct_is_zero_u32(b[u]);
        a[u] = (uint16_t)mq_mul(a[u], mq_inv(b[u]));
    }
    intt(a, logn);
    for (size_t u = 0; u < n; u++) {
        /* centre: values above q/2 are negative */
        int32_t w = (int32_t)a[u] - (int32_t)(Q & ((uint32_t)0 - ((((Q >> 1) - (uint32_t)a[u]) >> 31))));
        bad |= ((uint32_t)(w + 127) >> 31) | ((uint32_t)(127 - w) >> 31);
        G[u] = (int8_t)w;
    }
    PQLAB_DECLASSIFY(&bad, sizeof bad);
    return bad == 0;
}

/* HashToPoint (alg. 3): 16-bit big-endian samples below 5q = 61445, reduced
 * mod q. The message and nonce are public, so the data-dependent rejection
 * is fine. */
void fndsa_hash_to_point(pqlab_keccak_state *sc, uint16_t *hm, unsigned logn)
{
    /* Squeezed a SHAKE256 block (136 bytes) at a time: the byte stream is the
     * same as two bytes per call, and the context is not used afterwards. */
    size_t n = (size_t)1 << logn, i = 0;
    uint8_t buf[136];
    while (i < n) {
        pqlab_shake256_squeeze(buf, sizeof buf, sc);
        for (size_t j = 0; j < sizeof buf && i < n; j += 2) {
            uint32_t w = ((uint32_t)buf[j] << 8) | buf[j + 1];
            if (w < 61445u) {
                hm[i++] = (uint16_t)(w % Q);
            }
        }
    }
}

/* ||s1||^2 + ||s2||^2 <= floor(beta^2) */
int fndsa_is_short(const int16_t *s1, const int16_t *s2, unsigned logn)
{
    size_t n = (size_t)1 << logn;
    uint64_t s = 0;
    for (size_t u = 0; u < n; u++) {
        s += (uint64_t)((int32_t)s1[u] * s1[u]) + (uint64_t)((int32_t)s2[u] * s2[u]);
    }
    uint64_t bound = logn == 10 ? 70265242u : 34034726u;
    return s <= bound;
}

/* Verify (alg. 16) given c = hm, s2 (|s2| <= 2047 from the decoder) and h. */
int fndsa_verify_raw(const uint16_t *hm, const int16_t *s2, const uint16_t *h, unsigned logn,
                     uint16_t *tmp)
{
    size_t n = (size_t)1 << logn;
    uint16_t *a = tmp, *b = tmp + n;
    int16_t *s1 = (int16_t *)(void *)(tmp + 2 * n);
    for (size_t u = 0; u < n; u++) {
        a[u] = (uint16_t)mq_of(s2[u]);
        b[u] = h[u];
    }
    ntt(a, logn);
    ntt(b, logn);
    for (size_t u = 0; u < n; u++) {
        a[u] = (uint16_t)mq_mul(a[u], b[u]);
    }
    intt(a, logn);
    for (size_t u = 0; u < n; u++) {
        uint32_t w = mq_sub(hm[u], a[u]);
        int32_t c = (int32_t)w - (int32_t)(w > (Q >> 1) ? Q : 0);
        s1[u] = (int16_t)c;
    }
    return fndsa_is_short(s1, s2, logn);
}
