/* SPDX-License-Identifier: MIT */
/* FN-DSA NTRU solver: residue-number products (mod-p NTTs, Garner CRT) and the field norm (see ntru.c and ntru_internal.h). */
#include "ntru_internal.h"

/* ---------------------------------------------------------------------- */
/* Residue-number products: negacyclic products of big-integer polynomials */
/* modulo np 31-bit primes p = 1 mod 2048 (NTT of size m <= 1024 in each),  */
/* then CRT (Garner) back to signed integers. Exact when every coefficient */
/* of the product is below prod(p) / 2 in absolute value; the callers size */
/* np from public bounds (prod(p) > 2^(30.99 np)). All sizes and loops are  */
/* public; the arithmetic is branch-free.                                  */

/* primes below 2^31 with p = 1 mod 2048, largest first, and a primitive
 * 2048-th root of unity modulo each (w = g^((p-1)/2048) for the smallest g
 * with w^1024 = -1); computed with a short script (sympy isprime) */
const uint32_t RNS_P[RNS_MAXP][2] = {
    {2147473409u, 383167813u},  {2147389441u, 211808905u},  {2147387393u, 37672282u},   {2147377153u, 1977035326u},
    {2147358721u, 1067163706u}, {2147352577u, 1606082042u}, {2147346433u, 2033915641u}, {2147338241u, 1653770625u},
    {2147309569u, 631200819u},  {2147297281u, 2038364663u}, {2147295233u, 1962540515u}, {2147239937u, 2100082663u},
    {2147235841u, 1991153006u}, {2147217409u, 516405114u},  {2147205121u, 409347988u},  {2147196929u, 927788991u},
    {2147178497u, 1136922411u}, {2147100673u, 868626236u},  {2147082241u, 1897279176u}, {2147074049u, 1888819123u},
    {2147051521u, 25006327u},   {2147043329u, 327546255u},  {2147039233u, 766324424u},  {2146988033u, 1862817362u},
    {2146963457u, 404622040u},  {2146959361u, 1936581214u}, {2146938881u, 1559770096u}, {2146908161u, 422623708u},
    {2146885633u, 1751189170u}, {2146871297u, 578919515u},  {2146846721u, 1114060353u}, {2146834433u, 2069565474u},
    {2146818049u, 1552824584u}, {2146775041u, 1906267847u}, {2146756609u, 1847414714u}, {2146744321u, 1818792070u},
    {2146738177u, 1118066398u}, {2146736129u, 52057278u},   {2146713601u, 592259376u},  {2146695169u, 263161877u}};

void modp_init(modp_t *q, uint32_t p)
{
    uint32_t y = 2 - p; /* Newton: y = 1/p mod 2^32 */
    for (int i = 0; i < 4; i++) {
        y *= 2 - p * y;
    }
    q->p = p;
    q->p0i = 0u - y;
    q->r1 = 0u - 2 * p; /* 2^32 - 2p < p since p > 2^32 / 3 */
    uint32_t r = q->r1;
    for (int i = 0; i < 32; i++) {
        r = mp_add(r, r, p);
    }
    q->r2 = r;
}

/* signed integer of len limbs modulo p (normal form) */
uint32_t mp_of_zint(const uint32_t *x, size_t len, const modp_t *q)
{
    if (len == 1) {
        return mp_of_i32(x[0], q->p);
    }
    /* Horner in normal form: r <- r 2^32 + x_i (r 2^32 = mmul(r, 2^64 mod p)), the top
     * limb signed as above, every lower limb reduced by two conditional subtractions
     * (x_i < 2^32 < 3p) */
    const uint32_t p = q->p;
    uint32_t r = mp_of_i32(x[len - 1], p);
    for (size_t i = len - 1; i-- > 0;) {
        uint64_t d = (uint64_t)x[i] - p;
        uint32_t xi = (uint32_t)d + (p & (uint32_t)(0 - (d >> 63))); /* below 2^32 - p */
        d = (uint64_t)xi - p;
        xi = (uint32_t)d + (p & (uint32_t)(0 - (d >> 63))); /* [0, p) */
        r = mp_add(mp_mmul(r, q->r2, q), xi, p);
    }
    return r;
}

/* psi[k] = w^bitrev(k), ipsi[k] = w^-bitrev(k) (Montgomery form) for the
 * primitive 2m-th root w */
void mp_roots(uint32_t *psi, uint32_t *ipsi, uint32_t *pw, uint32_t g, unsigned logm, const modp_t *q)
{
    size_t m = (size_t)1 << logm;
    uint32_t w = mp_mmul(g, q->r2, q);
    for (unsigned i = logm; i < 10; i++) {
        w = mp_mmul(w, w, q);
    }
    const uint32_t p = q->p, p0i = q->p0i, r1 = q->r1; /* q may sit in the workspace */
    pw[0] = r1;
    for (size_t i = 1; i < m; i++) {
        pw[i] = mp_mmul_r(pw[i - 1], w, p, p0i);
    }
    size_t br = 0; /* bit reversal of k, incremented in reversed order */
    for (size_t k = 0; k < m; k++) {
        psi[k] = pw[br];
        ipsi[k] = br == 0 ? r1 : p - pw[m - br]; /* w^-i = -w^(m-i) */
        size_t bit = m >> 1;
        while (bit != 0 && (br & bit) != 0) {
            br ^= bit;
            bit >>= 1;
        }
        br |= bit;
    }
}

/* ipsi of mp_roots from its psi (psi[k] = w^rev(k), so w^i = psi[rev(i)]): lets a
 * caller keep only psi while it transforms, and form ipsi in a buffer that is free
 * by the time of the inverse NTT */
void mp_iroots(uint32_t *ipsi, const uint32_t *psi, unsigned logm, const modp_t *q)
{
    /* ipsi[rev(i)] = w^-i = -w^(m-i) = p - psi[rev(m - i)]: rev(i) counted up and
     * rev(m - i) counted down, both in bit-reversed order */
    size_t m = (size_t)1 << logm;
    const uint32_t p = q->p;
    ipsi[0] = q->r1;
    size_t ri = 0, rj = 0;
    for (size_t i = 1; i < m; i++) {
        size_t bit = m >> 1;
        while (bit != 0 && (ri & bit) != 0) {
            ri ^= bit;
            bit >>= 1;
        }
        ri |= bit;
        bit = m >> 1;
        while (bit != 0 && (rj & bit) == 0) {
            rj |= bit;
            bit >>= 1;
        }
        rj ^= bit;
        ipsi[ri] = p - psi[rj];
    }
}

/* Cooley-Tukey butterfly (x, y) <- (x + s y, x - s y) */
#define MP_CT(x, y, s)                                                                                                 \
    do {                                                                                                               \
        uint32_t v_ = mp_mmul_r((y), (s), p, p0i);                                                                     \
        (y) = mp_sub((x), v_, p);                                                                                      \
        (x) = mp_add((x), v_, p);                                                                                      \
    } while (0)

/* Gentleman-Sande butterfly (x, y) <- (x + y, (x - y) s) */
#define MP_GS(x, y, s)                                                                                                 \
    do {                                                                                                               \
        uint32_t d_ = mp_sub((x), (y), p);                                                                             \
        (x) = mp_add((x), (y), p);                                                                                     \
        (y) = mp_mmul_r(d_, (s), p, p0i);                                                                              \
    } while (0)

#ifdef PQLAB_FNDSA_MODP_NATIVE
/* the ARMv7E-M kernels (same results bit for bit; contract in fndsa_modp.h) */
void mp_ntt(uint32_t *a, const uint32_t *psi, unsigned logm, const modp_t *q)
{
    pqlab_fndsa_mp_ntt_native(a, psi, logm, q->p, q->p0i);
}

void mp_intt(uint32_t *a, const uint32_t *ipsi, unsigned logm, uint32_t c, const modp_t *q)
{
    pqlab_fndsa_mp_intt_native(a, ipsi, logm, c, q->p, q->p0i);
}

void mp_pmul(uint32_t *r, const uint32_t *a, const uint32_t *b, size_t m, const modp_t *q)
{
    pqlab_fndsa_mp_pmul_native(r, a, b, m, q->p, q->p0i);
}
#else
/* negacyclic NTT (Cooley-Tukey, bit-reversed output); layers two at a time
 * (four values per load and store), after one single layer when logm is odd */
void mp_ntt(uint32_t *a, const uint32_t *psi, unsigned logm, const modp_t *q)
{
    const uint32_t p = q->p, p0i = q->p0i;
    size_t m = (size_t)1 << logm, t = m, len = 1;
    if (logm & 1) {
        t >>= 1;
        for (size_t j = 0; j < t; j++) {
            MP_CT(a[j], a[j + t], psi[1]);
        }
        len = 2;
    }
    for (; len < m; len <<= 2) {
        /* layer len (half size t / 2 after the shift) and layer 2 len (t / 4) */
        size_t h = t >> 2;
        for (size_t i = 0; i < len; i++) {
            uint32_t s = psi[len + i], s1 = psi[2 * len + 2 * i], s2 = psi[2 * len + 2 * i + 1];
            uint32_t *x = a + i * t;
            for (size_t j = 0; j < h; j++) {
                uint32_t x0 = x[j], x1 = x[j + h], x2 = x[j + 2 * h], x3 = x[j + 3 * h];
                MP_CT(x0, x2, s);
                MP_CT(x1, x3, s);
                MP_CT(x0, x1, s1);
                MP_CT(x2, x3, s2);
                x[j] = x0;
                x[j + h] = x1;
                x[j + 2 * h] = x2;
                x[j + 3 * h] = x3;
            }
        }
        t >>= 2;
    }
}

/* inverse (Gentleman-Sande), multiplied by c / 2^32 at the end; layers two
 * at a time, then one single layer when logm is odd */
void mp_intt(uint32_t *a, const uint32_t *ipsi, unsigned logm, uint32_t c, const modp_t *q)
{
    const uint32_t p = q->p, p0i = q->p0i;
    size_t m = (size_t)1 << logm, t = 1, len = m >> 1;
    for (; len >= 2; len >>= 2) {
        /* layer len (blocks of 2t) and layer len / 2 (blocks of 4t) */
        for (size_t i = 0; i < (len >> 1); i++) {
            uint32_t s1 = ipsi[len + 2 * i], s2 = ipsi[len + 2 * i + 1], s = ipsi[(len >> 1) + i];
            uint32_t *x = a + 4 * i * t;
            for (size_t j = 0; j < t; j++) {
                uint32_t x0 = x[j], x1 = x[j + t], x2 = x[j + 2 * t], x3 = x[j + 3 * t];
                MP_GS(x0, x1, s1);
                MP_GS(x2, x3, s2);
                MP_GS(x0, x2, s);
                MP_GS(x1, x3, s);
                x[j] = x0;
                x[j + t] = x1;
                x[j + 2 * t] = x2;
                x[j + 3 * t] = x3;
            }
        }
        t <<= 2;
    }
    if (len == 1) {
        for (size_t j = 0; j < t; j++) {
            MP_GS(a[j], a[j + t], ipsi[1]);
        }
    }
    for (size_t j = 0; j < m; j++) {
        a[j] = mp_mmul_r(a[j], c, p, p0i);
    }
}

/* r = a b / 2^32 pointwise (r may be a or b) */
void mp_pmul(uint32_t *r, const uint32_t *a, const uint32_t *b, size_t m, const modp_t *q)
{
    const uint32_t p = q->p, p0i = q->p0i;
    for (size_t u = 0; u < m; u++) {
        r[u] = mp_mmul_r(a[u], b[u], p, p0i);
    }
}
#endif /* PQLAB_FNDSA_MODP_NATIVE */

/* primes needed for products whose coefficients are below 2^bits */
size_t rns_count(uint32_t bits)
{
    return ((size_t)bits + 2 + 29) / 30;
}

/* Per-call constants of np primes: qs[j]; Garner constants cst[j np + i] =
 * p_i 2^32 mod p_j (i < j) and cst[np np + j] = 2^32 / (p_0 ... p_{j-1}) mod
 * p_j; PI = p_0 ... p_{np-1} (np + 1 limbs). All public. */
void rns_setup(modp_t *qs, uint32_t *cst, uint32_t *PI, size_t np)
{
    for (size_t j = 0; j < np; j++) {
        modp_init(&qs[j], RNS_P[j][0]);
        const modp_t *q = &qs[j];
        uint32_t prod = q->r1;
        for (size_t i = 0; i < j; i++) {
            uint32_t pi = mp_sub(RNS_P[i][0], q->p, q->p); /* p_i < 2 p_j */
            cst[j * np + i] = mp_mmul(pi, q->r2, q);
            prod = mp_mmul(prod, cst[j * np + i], q);
        }
        /* inverse by Fermat: prod^(p - 2), Montgomery form throughout */
        uint32_t e = q->p - 2, inv = q->r1, base = prod;
        for (int bit = 0; bit < 31; bit++) {
            if ((e >> bit) & 1) { /* public exponent */
                inv = mp_mmul(inv, base, q);
            }
            base = mp_mmul(base, base, q);
        }
        cst[np * np + j] = inv;
    }
    wzero(PI, (np + 1));
    PI[0] = 1;
    for (size_t j = 0; j < np; j++) {
        uint64_t cc = 0;
        for (size_t i = 0; i <= np; i++) {
            uint64_t z = (uint64_t)PI[i] * RNS_P[j][0] + cc;
            PI[i] = (uint32_t)z;
            cc = z >> 32;
        }
    }
    /* the bias B = (prod - 1) / 2 (prod is odd) and B mod p_j */
    uint32_t *B = PI + np + 1;
    for (size_t i = 0; i <= np; i++) {
        B[i] = (PI[i] >> 1) | (i < np ? PI[i + 1] << 31 : 0);
    }
    for (size_t j = 0; j < np; j++) {
        cst[np * np + np + j] = mp_of_zint(B, np + 1, &qs[j]);
    }
}

/* 2^64 / m mod p: undoes the 1/2^32 of the pointwise products and the factor
 * m of the inverse NTT */
uint32_t mp_intt_scale(const modp_t *q, unsigned logm)
{
    uint32_t c = q->r2;
    for (unsigned i = 0; i < logm; i++) {
        c = (c + (q->p & ((uint32_t)0 - (c & 1)))) >> 1;
    }
    return c;
}

/* Garner's mixed-radix digits of all m coefficients c_u plus the bias B
 * (rns_setup), in place: res[j m + u] becomes t_j with c_u + B mod prod =
 * t_0 + p_0 (t_1 + p_1 (t_2 + ...)), t_j < p_j (one prime at a time, its
 * constants in registers). With |c_u| <= B, c_u + B is that integer itself. */
void rns_garner(uint32_t *res, size_t m, size_t np, const modp_t *qs, const uint32_t *cst)
{
    const uint32_t *Bj = cst + np * np + np;
    for (size_t u = 0; u < m; u++) {
        res[u] = mp_add(res[u], Bj[0], qs[0].p);
    }
    for (size_t j = 1; j < np; j++) {
        const uint32_t p = qs[j].p, p0i = qs[j].p0i, inv = cst[np * np + j], bj = Bj[j];
        const uint32_t *cj = cst + j * np;
#ifdef PQLAB_FNDSA_ZINT_NATIVE
        const uint32_t k4[4] = {p, p0i, inv, bj};
        pqlab_fndsa_garner_row_native(res, m, j, cj, k4);
#else
        for (size_t u = 0; u < m; u++) {
            /* Horner with y kept below 2^32, not reduced (mp_mmul_r takes any first
             * operand below 2^32 and returns the normal form): t_i < p_i < 2^31, so
             * mp_mmul_r(y, c) + t_i < p_j + 2^31 < 2^32; reduced once at the end (below
             * 3 p_j: two conditional subtractions) */
            uint32_t y = res[(j - 1) * m + u];
            for (size_t i = j - 1; i-- > 0;) {
                y = mp_mmul_r(y, cj[i], p, p0i) + res[i * m + u];
            }
            y = mp_sub(mp_sub(y, p, p), p, p);
            res[j * m + u] = mp_mmul_r(mp_sub(mp_add(res[j * m + u], bj, p), y, p), inv, p, p0i);
        }
#endif
    }
}

/* residues of the m coefficients of x (stride limbs apart, len limbs read) mod
 * q into t, or of adj(x) = x_0 - x_{m-1} X - ... - x_1 X^{m-1} when adj; len = 0:
 * x is m int8_t (the depth-0 f, g, read from the caller's arrays) */
void mp_of_poly(uint32_t *t, const void *xv, size_t stride, size_t len, size_t m, int adj, const modp_t *q)
{
    const uint32_t p = q->p; /* q may sit in the workspace: not reloaded after each store */
    const uint32_t *x = len == 0 ? NULL : (const uint32_t *)xv;
    if (len == 0) {
        const int8_t *x8 = (const int8_t *)xv;
        for (size_t u = 0; u < m; u++) {
            t[u] = mp_of_i32((uint32_t)(int32_t)x8[u], p);
        }
    } else if (len == 1) { /* public: one-limb coefficients, inline */
        for (size_t u = 0; u < m; u++) {
            t[u] = mp_of_i32(x[u * stride], p);
        }
    } else {
#ifdef PQLAB_FNDSA_ZINT_NATIVE
        pqlab_fndsa_mp_of_poly_native(t, x, stride, len, m, (const uint32_t *)(const void *)q);
#else
        for (size_t u = 0; u < m; u++) {
            t[u] = mp_of_zint(x + u * stride, len, q);
        }
#endif
    }
    if (adj) {
        for (size_t u = 1; u < m - u; u++) {
            uint32_t t1 = t[u];
            t[u] = t[m - u];
            t[m - u] = t1;
        }
        for (size_t u = 1; u < m; u++) {
            t[u] = mp_sub(0, t[u], p);
        }
    }
}

/* r (m coefficients of rlen limbs) <- a1 b1 + a2 b2 mod (x^m + 1) (without the
 * second term when a2 is NULL; b1, b2 replaced by their adjoints when adj; a1^2 - x a2^2,
 * the field norm of a1(x^2) + x a2(x^2), when b1 = a1, b2 = a2 and not adj), a:
 * alen limbs read astride apart, b: blen limbs, signed, with np primes; r is
 * written (not accumulated) and must not overlap the operands: until the
 * reconstruction at the end its words are the per-prime scratch (the second
 * operand's and second product's residues) when they are enough. adj may also
 * carry RNS_A_X2 (a1 holds the m/2 coefficients of a1(x^2), a2 NULL) and RNS_B_NEG
 * (b1(-x) instead of b1). Returns 0 when the workspace is exhausted. */
int rns_mul(uint32_t *r, size_t rlen, const void *a1, const void *a2, size_t astride, size_t alen, const void *b1,
            const void *b2, size_t blen, int adj, size_t m, size_t np, ws_t *ws)
{
    unsigned logm = ilog2(m);
    const int ax2 = (adj & RNS_A_X2) != 0, bneg = (adj & RNS_B_NEG) != 0;
    adj &= 1;
    /* field norm (public): a1^2 - x a2^2 when b1 = a1 and b2 = a2 */
    const int norm = a2 != NULL && b1 == a1 && b2 == a2 && !adj;
    size_t mark = ws->used;
    uint32_t *res = ws_alloc(ws, np * m);
    /* bt, ct and psi in r while it is not yet written, as far as its m rlen words go
     * (public sizes) */
    const size_t nscr = a2 != NULL ? 2 : 1;
    uint32_t *psi = rlen > nscr ? r + nscr * m : ws_alloc(ws, m);
    uint32_t *bt = rlen >= nscr ? r : ws_alloc(ws, m);
    uint32_t *ct = a2 == NULL ? NULL : rlen >= nscr ? r + m : ws_alloc(ws, m);
    uint32_t *cst = ws_alloc(ws, np * np + 2 * np), *PI = ws_alloc(ws, 2 * np + 2);
    uint32_t *w = ws_alloc(ws, np + 1);
    modp_t *qs = (modp_t *)(void *)ws_alloc(ws, np * (sizeof(modp_t) / 4));
    if (ws->fail || np > RNS_MAXP) {
        ws->fail = 1;
        return 0;
    }
    rns_setup(qs, cst, PI, np);
    for (size_t j = 0; j < np; j++) {
        const modp_t *q = &qs[j];
        const uint32_t p = q->p;
        uint32_t *at = res + j * m;
        /* psi only (bt, at: scratch here); ipsi into bt before the inverse NTT */
        mp_roots(psi, bt, at, RNS_P[j][1], logm, q);
        const int square = a1 == b1 && (a2 == NULL || norm) && !adj && !ax2 && !bneg; /* public */
        if (ax2) {
            /* the m/2 residues into the upper half, then spread to the even slots
             * (slot 2u written after slot m/2 + u is read, and never over an unread one) */
            size_t hm = m >> 1;
            mp_of_poly(at + hm, a1, astride, alen, hm, 0, q);
            for (size_t u = 0; u < hm; u++) {
                uint32_t v = at[hm + u];
                at[2 * u] = v;
                at[2 * u + 1] = 0;
            }
        } else {
            mp_of_poly(at, a1, astride, alen, m, 0, q);
        }
        mp_ntt(at, psi, logm, q);
        if (!square) {
            mp_of_poly(bt, b1, blen, blen, m, adj, q);
            if (bneg) {
                for (size_t u = 1; u < m; u += 2) {
                    bt[u] = mp_sub(0, bt[u], p);
                }
            }
            mp_ntt(bt, psi, logm, q);
        }
        mp_pmul(at, at, square ? at : bt, m, q);
        if (norm) {
            /* at - x a2^2: x evaluated where the NTT evaluates, times 2^32 (cancels the
             * next product's 1/2^32), is the NTT of 2^32 x */
            mp_of_poly(ct, a2, astride, alen, m, 0, q);
            mp_ntt(ct, psi, logm, q);
            mp_pmul(ct, ct, ct, m, q);
            wzero(bt, m);
            bt[1] = q->r1;
            mp_ntt(bt, psi, logm, q);
            mp_pmul(ct, ct, bt, m, q);
            for (size_t u = 0; u < m; u++) {
                at[u] = mp_sub(at[u], ct[u], p);
            }
        } else if (a2 != NULL) {
            mp_of_poly(ct, a2, astride, alen, m, 0, q);
            mp_of_poly(bt, b2, blen, blen, m, adj, q);
            mp_ntt(ct, psi, logm, q);
            mp_ntt(bt, psi, logm, q);
            mp_pmul(ct, ct, bt, m, q);
            for (size_t u = 0; u < m; u++) {
                at[u] = mp_add(at[u], ct[u], p);
            }
        }
        mp_iroots(bt, psi, logm, q);
        mp_intt(at, bt, logm, mp_intt_scale(q, logm), q);
    }
    rns_garner(res, m, np, qs, cst);
    for (size_t u = 0; u < m; u++) {
        rns_crt(r + u * rlen, rlen, res, m, u, np, PI, w);
    }
    ws->used = mark;
    return 1;
}

/* r <- a * b in Z[x]/(x^m + 1) (negacyclic); a: alen limbs, b: blen, r: rlen;
 * the coefficients of a and b are below 2^abits and 2^bbits in absolute value
 * (public bounds, at most 32 alen - 1 and 32 blen - 1; they size the RNS).
 * When astep == 2, a holds the m/2 coefficients of a'(x) and the product is
 * a'(x^2) b. When bneg, b(-x) instead of b. blen = 0: b is m int8_t (RNS path,
 * m >= 16, only). r must not overlap a or b. tmp: rlen words. */
void poly_mul_negacyclic(uint32_t *r, size_t rlen, const uint32_t *a, size_t alen, uint32_t abits, const void *bv,
                         size_t blen, uint32_t bbits, size_t m, size_t astep, int bneg, uint32_t *tmp, ws_t *ws)
{
    if (m >= 16) {
        /* |coefficient| < m 2^abits 2^bbits */
        size_t np = rns_count(abits + bbits + ilog2(m));
        if (np <= RNS_MAXP) {
            rns_mul(r, rlen, a, NULL, alen, alen, bv, NULL, blen, (astep == 2 ? RNS_A_X2 : 0) | (bneg ? RNS_B_NEG : 0),
                    m, np, ws);
            return;
        }
    }
    const uint32_t *b = (const uint32_t *)bv;
    if (alen == 1 && blen == 1 && rlen >= 3) {
        /* one-limb coefficients (the upper levels): exact 96-bit accumulation */
        for (size_t k = 0; k < m; k++) {
            acc96 acc = {0, 0};
            for (size_t i = 0; i < m; i += astep) {
                size_t j = k >= i ? k - i : k + m - i;
                int64_t p = (int64_t)(int32_t)a[i / astep] * (int64_t)(int32_t)b[j];
                acc_add(&acc, p, (k < i) ^ (bneg & (int)(j & 1)));
            }
            acc_store(r + k * rlen, rlen, &acc);
        }
        return;
    }
    wzero(r, m * rlen);
    for (size_t i = 0; i < m; i += astep) {
        for (size_t j = 0; j < m; j++) {
            zmul(tmp, rlen, a + (i / astep) * alen, alen, b + j * blen, blen);
            size_t k = i + j;
            uint32_t *rk = r + (k < m ? k : k - m) * rlen;
            if ((k >= m) ^ (bneg & (int)(j & 1))) {
                zsub(rk, rlen, tmp, rlen);
            } else {
                zadd(rk, rlen, tmp, rlen);
            }
        }
    }
}

/* ---------------------------------------------------------------------- */
/* Field norm: out (m/2 coefficients, olen limbs) = f0^2 - x f1^2.         */

void field_norm(uint32_t *out, size_t olen, const void *fv, size_t flen, uint32_t fbits, size_t m, ws_t *ws)
{
    size_t hm = m >> 1;
    size_t mark = ws->used;
    const int i8 = flen == 0; /* f: m int8_t (depth 0), widened to one limb here */
    if (i8) {
        flen = 1;
    }
    uint32_t *f0 = ws_alloc(ws, hm * flen);
    uint32_t *f1 = ws_alloc(ws, hm * flen);
    uint32_t *sq = ws_alloc(ws, hm * olen);
    uint32_t *tmp = ws_alloc(ws, olen);
    if (ws->fail) {
        return;
    }
    if (i8) {
        const int8_t *f8 = (const int8_t *)fv;
        for (size_t u = 0; u < hm; u++) {
            f0[u] = (uint32_t)(int32_t)f8[2 * u];
            f1[u] = (uint32_t)(int32_t)f8[2 * u + 1];
        }
    } else {
        const uint32_t *f = (const uint32_t *)fv;
        for (size_t u = 0; u < hm; u++) {
            wmove(f0 + u * flen, f + (2 * u) * flen, flen);
            wmove(f1 + u * flen, f + (2 * u + 1) * flen, flen);
        }
    }
    if (hm >= 16) {
        /* both squares and their combination in one RNS pass (one inverse NTT and one
         * reconstruction instead of two); |coefficient| < 2 hm 2^(2 fbits) */
        size_t np = rns_count(2 * fbits + ilog2(hm) + 1);
        if (np <= RNS_MAXP) {
            rns_mul(out, olen, f0, f1, flen, flen, f0, f1, flen, 0, hm, np, ws);
            ws->used = mark;
            return;
        }
    }
    poly_mul_negacyclic(out, olen, f0, flen, fbits, f0, flen, fbits, hm, 1, 0, tmp, ws);
    poly_mul_negacyclic(sq, olen, f1, flen, fbits, f1, flen, fbits, hm, 1, 0, tmp, ws);
    /* out -= x * sq: coefficient u of x sq is sq[u-1], and -sq[hm-1] at 0 */
    for (size_t u = 0; u < hm; u++) {
        if (u == 0) {
            zadd(out, olen, sq + (hm - 1) * olen, olen);
        } else {
            zsub(out + u * olen, olen, sq + (u - 1) * olen, olen);
        }
    }
    ws->used = mark;
}
