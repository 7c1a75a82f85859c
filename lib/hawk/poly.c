/* SPDX-License-Identifier: MIT */
/* Hawk: SHAKE256x4, regeneration of (f, g), and exact products of small integer
 * polynomials through the NTT modulo the 31-bit primes p1 = 2147473409 and
 * p2 = 2147389441 (Hawk specification v1.0: the primes of the modular Q-norm of
 * verification). The NTT itself is FN-DSA's (lib/fndsa/ntru_rns.c, negacyclic, twiddles
 * in Montgomery form); this file keeps values in plain representation around it. */
#include <string.h>

#include "hawk.h"
#include "ct.h"
#include "ntru_internal.h" /* lib/fndsa: modp_t, mp_* and RNS_P (p1 = RNS_P[0], p2 = RNS_P[1]) */

void hawk_shake256x4_init(hawk_shake4 *s, const uint8_t *seed, size_t seedlen)
{
    /* seedlen <= HAWK_SHAKE4_MAXSEED: the two callers' lengths (checked at compile time in sign.c) */
    /* the four inputs seed || j, absorbed together so that a backend's four-way
     * permutation (PQLAB_KECCAKF1600X4_NATIVE) runs all four instances at once */
    uint8_t in[4][HAWK_SHAKE4_MAXSEED + 1];
    for (unsigned j = 0; j < 4; j++) {
        memcpy(in[j], seed, seedlen);
        in[j][seedlen] = (uint8_t)j;
    }
    pqlab_shake256x4_absorb_once(&s->st, in[0], in[1], in[2], in[3], seedlen + 1);
    s->pos = PQLAB_SHAKE256_RATE;
    pqlab_zeroize(in, sizeof in);
}

void hawk_shake256x4_next(hawk_shake4 *s, uint8_t out[32])
{
    /* the rate (136 bytes) is a multiple of 8: a read never straddles two blocks */
    if (s->pos == PQLAB_SHAKE256_RATE) {
        pqlab_shake256x4_squeezeblocks(s->buf[0], s->buf[1], s->buf[2], s->buf[3], 1, &s->st);
        s->pos = 0;
    }
    for (unsigned j = 0; j < 4; j++) {
        memcpy(out + 8 * j, s->buf[j] + s->pos, 8);
    }
    s->pos += 8;
}

/* Regeneratefg: 2 b n bits of SHAKE256x4(kgseed) (b = n / 64); coefficient i of f || g
 * is the number of ones among bits i b .. i b + b - 1, minus b / 2 */
void hawk_regen_fg(int8_t *f, int8_t *g, const uint8_t kgseed[HAWK_KGSEEDLEN])
{
    const unsigned b = HAWK_N / 64; /* 8 or 16 bits per coefficient: 1 or 2 bytes */
    hawk_shake4 xs;
    uint8_t buf[32];
    size_t pos = 32;
    hawk_shake256x4_init(&xs, kgseed, HAWK_KGSEEDLEN);
    for (size_t i = 0; i < 2 * (size_t)HAWK_N; i++) {
        int w = 0;
        for (unsigned k = 0; k < b / 8; k++) {
            if (pos == 32) {
                hawk_shake256x4_next(&xs, buf);
                pos = 0;
            }
            uint32_t x = buf[pos++];
            x = (x & 0x55) + ((x >> 1) & 0x55);
            x = (x & 0x33) + ((x >> 2) & 0x33);
            x = (x & 0x0F) + (x >> 4);
            w += (int)x;
        }
        int8_t v = (int8_t)(w - (int)(b / 2));
        if (i < HAWK_N) {
            f[i] = v;
        } else {
            g[i - HAWK_N] = v;
        }
    }
    pqlab_zeroize(buf, sizeof buf);
    pqlab_zeroize(&xs, sizeof xs);
}

static const modp_t *as_modp(const hawk_ntt *c)
{
    return (const modp_t *)(const void *)c;
}

void hawk_ntt_init(hawk_ntt *c, unsigned which, uint32_t *scratch)
{
    modp_t q;
    modp_init(&q, RNS_P[which][0]);
    c->p = q.p;
    c->p0i = q.p0i;
    c->r1 = q.r1;
    c->r2 = q.r2;
    /* 2^32 / n: halve 2^32 mod p logn times */
    uint32_t s = q.r1;
    for (unsigned i = 0; i < HAWK_LOGN; i++) {
        s = (s + (q.p & ((uint32_t)0 - (s & 1)))) >> 1;
    }
    c->iscale = s;
    mp_roots(c->psi, c->ipsi, scratch, RNS_P[which][1], HAWK_LOGN, &q);
}

void hawk_ntt_i32(uint32_t *out, const int32_t *a, const hawk_ntt *c)
{
    for (size_t u = 0; u < HAWK_N; u++) {
        out[u] = mp_of_i32((uint32_t)a[u], c->p);
    }
    mp_ntt(out, c->psi, HAWK_LOGN, as_modp(c));
}

void hawk_intt_i32(int32_t *out, uint32_t *a, const hawk_ntt *c)
{
    mp_intt(a, c->ipsi, HAWK_LOGN, c->iscale, as_modp(c));
    const uint32_t hp = c->p >> 1;
    for (size_t u = 0; u < HAWK_N; u++) {
        uint32_t v = a[u];
        /* v > p/2: v - p (mask, no branch) */
        v -= c->p & (uint32_t)(0 - ((hp - v) >> 31));
        out[u] = (int32_t)v;
    }
}

uint32_t hawk_mp_mul(uint32_t a, uint32_t b, const hawk_ntt *c)
{
    return mp_mmul(mp_mmul(a, b, as_modp(c)), c->r2, as_modp(c));
}

uint32_t hawk_mp_inv(uint32_t a, const hawk_ntt *c)
{
    /* a^(p - 2) in Montgomery representation; the exponent is public */
    const modp_t *q = as_modp(c);
    uint32_t x = mp_mmul(a, q->r2, q), r = q->r1, e = q->p - 2;
    for (int i = 31; i >= 0; i--) {
        r = mp_mmul(r, r, q);
        uint32_t t = mp_mmul(r, x, q);
        uint32_t m = (uint32_t)0 - ((e >> i) & 1);
        r ^= (r ^ t) & m;
    }
    return mp_mmul(r, 1, q);
}

static void adj_i32(int32_t *d, const int32_t *s)
{
    d[0] = s[0];
    for (size_t u = 1; u < HAWK_N; u++) {
        d[u] = -s[HAWK_N - u];
    }
}

void hawk_poly_mul_acc(int32_t *r, const int32_t *a1, const int32_t *b1, const int32_t *a2, const int32_t *b2, int adj,
                       const hawk_ntt *c, uint32_t *tmp)
{
    uint32_t *acc = tmp, *x = tmp + HAWK_N, *y = tmp + 2 * HAWK_N;
    int32_t *t = r; /* r is free until the end: holds adj(b) */
    for (int term = 0; term < 2; term++) {
        const int32_t *a = term == 0 ? a1 : a2, *b = term == 0 ? b1 : b2;
        if (a == NULL) {
            break;
        }
        hawk_ntt_i32(x, a, c);
        if (adj) {
            adj_i32(t, b);
            hawk_ntt_i32(y, t, c);
        } else {
            hawk_ntt_i32(y, b, c);
        }
        for (size_t u = 0; u < HAWK_N; u++) {
            uint32_t v = hawk_mp_mul(x[u], y[u], c);
            acc[u] = term == 0 ? v : mp_add(acc[u], v, c->p);
        }
    }
    hawk_intt_i32(r, acc, c);
}
