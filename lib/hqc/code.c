/* SPDX-License-Identifier: MIT */
/* The public code of HQC (specification, section on the concatenated code): a
 * shortened Reed-Solomon code RS[n1, k] over GF(2^8) (outer) whose symbols are
 * each encoded with the Reed-Muller code RM(1,7) of length 128, repeated HQC_MULT
 * times (inner, n2 = 128 HQC_MULT bits).
 *
 * Layout: RS codeword c_0 .. c_{n1-1}, c(x) = sum c_i x^i, systematic with the
 * parity symbols first and the message in c_{n1-k} .. c_{n1-1}; c(x) is a multiple of
 * g(x) = prod_{j=1}^{2 delta} (x - alpha^j). Symbol i occupies bits [i n2, (i+1) n2)
 * of the concatenated codeword. RM(1,7): bit j (0..127) of the codeword of byte b is
 * b_7 xor parity(b & j & 0x7f).
 *
 * Decoding: RM(1,7) by the fast Walsh-Hadamard transform of the summed copies
 * (maximum-likelihood for the duplicated code); RS by syndromes, Berlekamp-Massey,
 * evaluation of the error locator at every message position and Forney's formula.
 * Everything is constant time: GF(2^8) products by shifts and masks (no tables
 * indexed by data), inverses by exponentiation, fixed iteration counts, selections
 * by masks. Beyond delta symbol errors the output is some message (never a crash);
 * the KEM's re-encryption check rejects such ciphertexts. */
#include <string.h>

#include "ct.h"
#include "internal.h"

/* --- GF(2^8) = F_2[x]/(x^8 + x^4 + x^3 + x^2 + 1) --- */

uint8_t hqc_gf_mul(uint8_t a, uint8_t b)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 8; i++) {
        r ^= ((uint32_t)a << i) & ((uint32_t)0 - (((uint32_t)b >> i) & 1u));
    }
    for (unsigned i = 14; i >= 8; i--) {
        r ^= (0x11Du << (i - 8)) & ((uint32_t)0 - ((r >> i) & 1u));
    }
    return (uint8_t)r;
}

/* a^254 = a^-1 (0 for a = 0): 254 = 2 + 4 + ... + 128 */
static uint8_t gf_inv(uint8_t a)
{
    uint8_t sq = hqc_gf_mul(a, a); /* a^2 */
    uint8_t r = sq;
    for (unsigned k = 2; k < 8; k++) {
        sq = hqc_gf_mul(sq, sq); /* a^(2^k) */
        r = hqc_gf_mul(r, sq);
    }
    return r;
}

static uint8_t mask8(uint32_t bit)
{
    return (uint8_t)pqlab_ct_mask_u32(bit);
}

/* --- Reed-Solomon --- */

void hqc_rs_encode(uint8_t cw[HQC_N1], const uint8_t msg[HQC_K])
{
    static const uint8_t g[HQC_PARITY + 1] = HQC_RS_GEN;
    uint8_t p[HQC_PARITY];
    memset(p, 0, sizeof p);
    /* LFSR division of msg(x) x^(n1-k) by g(x), highest message coefficient first */
    for (size_t i = HQC_K; i-- > 0;) {
        const uint8_t f = (uint8_t)(msg[i] ^ p[HQC_PARITY - 1]);
        for (size_t j = HQC_PARITY - 1; j > 0; j--) {
            p[j] = (uint8_t)(p[j - 1] ^ hqc_gf_mul(f, g[j]));
        }
        p[0] = hqc_gf_mul(f, g[0]);
    }
    memcpy(cw, p, HQC_PARITY);
    memcpy(cw + HQC_PARITY, msg, HQC_K);
}

void hqc_rs_decode(uint8_t msg[HQC_K], const uint8_t cw[HQC_N1])
{
    uint8_t s[2 * HQC_DELTA];     /* s[j] = c(alpha^(j+1)) */
    uint8_t sigma[HQC_DELTA + 1]; /* error locator, degree <= delta */
    uint8_t b[HQC_DELTA + 1], t[HQC_DELTA + 1];
    uint8_t omega[HQC_DELTA]; /* error evaluator, degree < delta */
    uint32_t len = 0;         /* L of Berlekamp-Massey (secret) */
    uint8_t bd = 1;           /* discrepancy at B's last update */

    /* syndromes by Horner at the public points alpha^(j+1) */
    uint8_t aj = 1;
    for (size_t j = 0; j < 2 * HQC_DELTA; j++) {
        aj = hqc_gf_mul(aj, 2);
        uint8_t acc = 0;
        for (size_t i = HQC_N1; i-- > 0;) {
            acc = (uint8_t)(hqc_gf_mul(acc, aj) ^ cw[i]);
        }
        s[j] = acc;
    }

    /* Berlekamp-Massey, 2 delta iterations; B is multiplied by x at every step */
    memset(sigma, 0, sizeof sigma);
    memset(b, 0, sizeof b);
    sigma[0] = 1;
    b[0] = 1;
    for (size_t r = 0; r < 2 * HQC_DELTA; r++) {
        uint8_t d = s[r];
        for (size_t i = 1; i <= HQC_DELTA && i <= r; i++) {
            d ^= hqc_gf_mul(sigma[i], s[r - i]);
        }
        for (size_t i = HQC_DELTA; i > 0; i--) {
            b[i] = b[i - 1];
        }
        b[0] = 0;
        const uint8_t coef = hqc_gf_mul(d, gf_inv(bd));
        memcpy(t, sigma, sizeof t);
        for (size_t i = 0; i <= HQC_DELTA; i++) {
            sigma[i] ^= hqc_gf_mul(coef, b[i]);
        }
        /* update B and L when d != 0 and 2L <= r */
        const uint32_t nz = 1u ^ pqlab_ct_is_zero_u32(d);
        const uint32_t le = 1u ^ (uint32_t)(((uint64_t)r - 2 * (uint64_t)len) >> 63); /* 2L <= r */
        const uint32_t upd = nz & le;
        const uint8_t m = mask8(upd);
        for (size_t i = 0; i <= HQC_DELTA; i++) {
            b[i] = (uint8_t)((b[i] & ~m) | (t[i] & m));
        }
        bd = (uint8_t)((bd & ~m) | (d & m));
        const uint32_t m32 = pqlab_ct_mask_u32(upd);
        len = (len & ~m32) | (((uint32_t)r + 1 - len) & m32);
    }

    /* omega(x) = S(x) sigma(x) mod x^delta, S(x) = sum s[j] x^j */
    for (size_t i = 0; i < HQC_DELTA; i++) {
        uint8_t acc = 0;
        for (size_t j = 0; j <= i; j++) {
            acc ^= hqc_gf_mul(sigma[j], s[i - j]);
        }
        omega[i] = acc;
    }

    /* message positions p = n1-k .. n1-1: X = alpha^p, error iff sigma(X^-1) = 0,
     * value e = omega(X^-1) / sigma'(X^-1) (Forney, first root alpha^1) */
    uint8_t xinv = 1; /* alpha^(-p) */
    const uint8_t ainv = gf_inv(2);
    for (size_t p = 0; p < HQC_N1; p++) {
        if (p >= HQC_PARITY) { /* public position */
            uint8_t sv = 0, ov = 0, dv = 0;
            for (size_t i = HQC_DELTA + 1; i-- > 0;) {
                sv = (uint8_t)(hqc_gf_mul(sv, xinv) ^ sigma[i]);
            }
            for (size_t i = HQC_DELTA; i-- > 0;) {
                ov = (uint8_t)(hqc_gf_mul(ov, xinv) ^ omega[i]);
            }
            /* sigma'(x) = sum over odd i of sigma_i x^(i-1) (characteristic 2) */
            dv = 0;
            uint8_t xp = 1; /* xinv^(i-1) for odd i */
            const uint8_t x2 = hqc_gf_mul(xinv, xinv);
            for (size_t i = 1; i <= HQC_DELTA; i += 2) {
                dv ^= hqc_gf_mul(sigma[i], xp);
                xp = hqc_gf_mul(xp, x2);
            }
            const uint8_t e = hqc_gf_mul(ov, gf_inv(dv));
            const uint8_t hit = mask8(pqlab_ct_is_zero_u32(sv));
            msg[p - HQC_PARITY] = (uint8_t)(cw[p] ^ (e & hit));
        }
        xinv = hqc_gf_mul(xinv, ainv);
    }
    pqlab_zeroize(s, sizeof s);
    pqlab_zeroize(sigma, sizeof sigma);
    pqlab_zeroize(b, sizeof b);
    pqlab_zeroize(t, sizeof t);
    pqlab_zeroize(omega, sizeof omega);
}

/* --- Reed-Muller RM(1,7), duplicated --- */

static void rm_encode_byte(uint64_t out[2], uint8_t v)
{
    uint32_t w = pqlab_ct_mask_u32(v >> 7);
    w ^= pqlab_ct_mask_u32(v) & 0xAAAAAAAAu;      /* j_0 */
    w ^= pqlab_ct_mask_u32(v >> 1) & 0xCCCCCCCCu; /* j_1 */
    w ^= pqlab_ct_mask_u32(v >> 2) & 0xF0F0F0F0u; /* j_2 */
    w ^= pqlab_ct_mask_u32(v >> 3) & 0xFF00FF00u; /* j_3 */
    w ^= pqlab_ct_mask_u32(v >> 4) & 0xFFFF0000u; /* j_4 */
    const uint32_t m5 = pqlab_ct_mask_u32(v >> 5), m6 = pqlab_ct_mask_u32(v >> 6);
    /* 32-bit quarter q holds j = 32 q .. 32 q + 31: j_5 = q & 1, j_6 = q >> 1 */
    out[0] = (uint64_t)w | ((uint64_t)(w ^ m5) << 32);
    out[1] = (uint64_t)(w ^ m6) | ((uint64_t)(w ^ m5 ^ m6) << 32);
}

void hqc_rm_encode(uint64_t cw[HQC_N1N2W], const uint8_t sym[HQC_N1])
{
    for (size_t i = 0; i < HQC_N1; i++) {
        uint64_t one[2];
        rm_encode_byte(one, sym[i]);
        for (size_t c = 0; c < HQC_MULT; c++) {
            cw[2 * (HQC_MULT * i + c)] ^= one[0];
            cw[2 * (HQC_MULT * i + c) + 1] ^= one[1];
        }
    }
}

void hqc_rm_decode(uint8_t sym[HQC_N1], const uint64_t cw[HQC_N1N2W])
{
#ifdef HQC_NATIVE_RM
    pqlab_hqc_rm_decode_native(sym, cw, HQC_N1, HQC_MULT);
#else
    int16_t f[128];
    for (size_t i = 0; i < HQC_N1; i++) {
        /* f[j] = sum over copies of (-1)^bit = MULT - 2 (number of ones), |f| <= MULT */
        for (size_t j = 0; j < 128; j++) {
            f[j] = HQC_MULT;
        }
        for (size_t c = 0; c < HQC_MULT; c++) {
            for (size_t j = 0; j < 128; j++) {
                const uint64_t w = cw[2 * (HQC_MULT * i + c) + j / 64];
                f[j] = (int16_t)(f[j] - 2 * (int16_t)((w >> (j % 64)) & 1));
            }
        }
        /* F(x) = sum_j (-1)^<x,j> f[j], |F| <= 128 MULT */
        for (size_t len = 1; len < 128; len <<= 1) {
            for (size_t j = 0; j < 128; j += 2 * len) {
                for (size_t k = j; k < j + len; k++) {
                    const int16_t a = f[k], bb = f[k + len];
                    f[k] = (int16_t)(a + bb);
                    f[k + len] = (int16_t)(a - bb);
                }
            }
        }
        /* the first x of largest |F(x)|; bit 7 of the symbol is 1 when F(x) <= 0 */
        uint32_t best = 0, bestabs = 0, bestneg = 0;
        for (uint32_t x = 0; x < 128; x++) {
            const uint32_t v = (uint32_t)(int32_t)f[x];
            const uint32_t neg = v >> 31;
            const uint32_t nm = pqlab_ct_mask_u32(neg);
            const uint32_t av = (v ^ nm) - nm;
            const uint32_t gt = (uint32_t)(((uint64_t)bestabs - av) >> 63); /* av > bestabs */
            const uint32_t m = pqlab_ct_mask_u32(gt);
            best = (best & ~m) | (x & m);
            bestabs = (bestabs & ~m) | (av & m);
            bestneg = (bestneg & ~m) | ((neg | pqlab_ct_is_zero_u32(v)) & m);
        }
        sym[i] = (uint8_t)(best | (bestneg << 7));
    }
    pqlab_zeroize(f, sizeof f);
#endif
}

void hqc_code_encode(uint64_t em[HQC_N1N2W], const uint8_t m[HQC_K])
{
    uint8_t rs[HQC_N1];
    hqc_rs_encode(rs, m);
    hqc_rm_encode(em, rs);
    pqlab_zeroize(rs, sizeof rs);
}

void hqc_code_decode(uint8_t m[HQC_K], const uint64_t w[HQC_N1N2W])
{
    uint8_t rs[HQC_N1];
    hqc_rm_decode(rs, w);
    hqc_rs_decode(m, rs);
    pqlab_zeroize(rs, sizeof rs);
}
