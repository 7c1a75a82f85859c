/* SPDX-License-Identifier: MIT */
/* FN-DSA NTRU solver: big-integer primitives (see ntru.c and ntru_internal.h). */
#include "ntru_internal.h"

/* ---------------------------------------------------------------------- */
/* Big-integer primitives (two's complement, len limbs).                   */

/* x <- x + y (mod 2^(32 xlen)), y sign-extended from ylen limbs, ylen <= xlen */
void zadd(uint32_t *x, size_t xlen, const uint32_t *y, size_t ylen)
{
    uint32_t ext = zsign(y, ylen), c = 0;
    for (size_t i = 0; i < xlen; i++) {
        uint32_t w = i < ylen ? y[i] : ext;
        uint64_t t = (uint64_t)x[i] + w + c;
        x[i] = (uint32_t)t;
        c = (uint32_t)(t >> 32);
    }
}

/* x <- x - y */
void zsub(uint32_t *x, size_t xlen, const uint32_t *y, size_t ylen)
{
    uint32_t ext = zsign(y, ylen), b = 0;
    for (size_t i = 0; i < xlen; i++) {
        uint32_t w = i < ylen ? y[i] : ext;
        uint64_t t = (uint64_t)x[i] - w - b;
        x[i] = (uint32_t)t;
        b = (uint32_t)(t >> 63);
    }
}

/* r (rlen limbs) <- a * b mod 2^(32 rlen), a and b signed. With A, B the
 * unsigned readings, a b = A B - [a<0] B 2^(32 alen) - [b<0] A 2^(32 blen)
 * + [a<0][b<0] 2^(32 (alen + blen)) modulo 2^(32 rlen). */
#ifdef PQLAB_FNDSA_ZINT_NATIVE
void zmul(uint32_t *r, size_t rlen, const uint32_t *a, size_t alen, const uint32_t *b, size_t blen)
{
    pqlab_fndsa_zmul_native(r, rlen, a, alen, b, blen);
}
#else
void zmul(uint32_t *r, size_t rlen, const uint32_t *a, size_t alen, const uint32_t *b, size_t blen)
{
    wzero(r, rlen);
    for (size_t i = 0; i < alen && i < rlen; i++) {
        const uint32_t ai = a[i]; /* kept in a register: stores to r might alias a */
        size_t jn = blen < rlen - i ? blen : rlen - i;
        uint32_t *ri = r + i, c = 0;
        for (size_t j = 0; j < jn; j++) {
            uint64_t t = (uint64_t)ai * b[j] + ri[j] + c;
            ri[j] = (uint32_t)t;
            c = (uint32_t)(t >> 32);
        }
        if (i + jn < rlen) { /* rows before i end below i + blen: that limb is still 0 */
            ri[jn] = c;
        }
    }
    uint32_t sa = zsign(a, alen), sb = zsign(b, blen);
    /* subtract masked B << alen, A << blen */
    uint32_t bw = 0;
    for (size_t i = alen; i < rlen; i++) {
        uint32_t w = (i - alen < blen ? b[i - alen] : 0) & sa;
        uint64_t t = (uint64_t)r[i] - w - bw;
        r[i] = (uint32_t)t;
        bw = (uint32_t)(t >> 63);
    }
    bw = 0;
    for (size_t i = blen; i < rlen; i++) {
        uint32_t w = (i - blen < alen ? a[i - blen] : 0) & sb;
        uint64_t t = (uint64_t)r[i] - w - bw;
        r[i] = (uint32_t)t;
        bw = (uint32_t)(t >> 63);
    }
    if (alen + blen < rlen) {
        uint32_t c = 1 & sa & sb;
        for (size_t i = alen + blen; i < rlen; i++) {
            uint64_t t = (uint64_t)r[i] + c;
            r[i] = (uint32_t)t;
            c = (uint32_t)(t >> 32);
        }
    }
}
#endif

#if defined(PQLAB_FNDSA_CT_NEGATIVE_CONTROL_KEYGEN) || defined(PQLAB_FNDSA_NTRU_TEST)
/* bit length of |x| as a signed value (bits needed besides the sign), without
 * a data-dependent branch: scans all limbs and keeps the top one that differs
 * from the sign extension. */
uint32_t zbitlen(const uint32_t *x, size_t len)
{
    uint32_t ext = zsign(x, len), top = 0, idx = 0;
    for (size_t i = 0; i < len; i++) {
        uint32_t w = x[i] ^ ext;
        uint32_t nz = (uint32_t)0 - (1u ^ pqlab_ct_is_zero_u32(w));
        top ^= (top ^ w) & nz; /* later (higher) limbs override */
        idx ^= (idx ^ (uint32_t)(i + 1)) & nz;
    }
    uint32_t cnt;
    (void)fpr_norm64((uint64_t)top << 32, &cnt); /* cnt = clz32(top), or 63 when 0 */
    uint32_t b = 32 * idx - cnt;
    return b & ((uint32_t)0 - (1u ^ pqlab_ct_is_zero_u32(idx)));
}
#endif

/* re-pack a polynomial from len to nlen limbs (nlen <= len: truncation of
 * sign extension; nlen > len: sign extension), in place */
void poly_relen(uint32_t *p, size_t m, size_t len, size_t nlen)
{
    if (nlen <= len) {
        for (size_t u = 0; u < m; u++) {
            wmove(p + u * nlen, p + u * len, nlen);
        }
    } else {
        for (size_t u = m; u-- > 0;) {
            uint32_t ext = zsign(p + u * len, len);
            wmove(p + u * nlen, p + u * len, len);
            for (size_t i = len; i < nlen; i++) {
                p[u * nlen + i] = ext;
            }
        }
    }
}
