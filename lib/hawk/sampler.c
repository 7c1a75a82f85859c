/* SPDX-License-Identifier: MIT */
/* Hawk signing's two data-parallel kernels (Hawk specification v1.0), the places a backend may
 * replace (contract: lib/native/hawk_sign.h, PQLAB_HAWK_SAMPLER_NATIVE / PQLAB_HAWK_MUL2_NATIVE):
 *
 * - SamplerSign's table count for one group of 16 samples (the layout is described in sign.c):
 *   c = (a mod 2^63) + b 2^63 (78 bits), count = #{v : c < T_t[v]}, x = +-(2 count + t), the
 *   sign bit 63 of a;
 * - t0, t1 of HawkSign: products of n-bit vectors in GF(2)[x]/(x^n - 1) (= modulo (2, x^n + 1)).
 *
 * Constant time: the table scan is complete for every sample and its comparisons are
 * arithmetic; every addition of the GF(2) product is masked. */
#include <string.h>

#include "hawk.h"
#include "ct.h"
#include "../native/api.h"

/* Cumulative distribution tables T0 (even values) and T1 (odd values) of the
 * specification v1.0 (the 80-bit constants of SamplerSign; their final zero entries are
 * left out: no sample is below 0). Facts, from the specification's tables as listed by
 * the Hawk 1.0 pseudocode port lil-hawk-py (M.-J. O. Saarinen, 2023). */
#if HAWK_LOGN == 9
static const pqlab_hawk_cdt T0[] = {
    {0x2C05u, 0x8C27920A04F8F267u}, {0x0E9Au, 0x1C4FF17C204AA058u}, {0x02DBu, 0xDE63263BE0098FFDu},
    {0x0051u, 0x56AEDFB0876A3BD8u}, {0x0005u, 0x061E21D588CC61CCu}, {0x0000u, 0x2BA568D92EEC18E7u},
    {0x0000u, 0x00CF0F8687D3B009u}, {0x0000u, 0x000216A0C344EB45u}, {0x0000u, 0x000002EDF0B98A84u},
    {0x0000u, 0x000000023AF3B2E7u}, {0x0000u, 0x0000000000EBCC6Au}, {0x0000u, 0x00000000000034CFu},
    {0x0000u, 0x0000000000000006u},
};
#endif
#if HAWK_LOGN == 9
static const pqlab_hawk_cdt T1[] = {
    {0x1AFCu, 0xBC689D9213449DC9u}, {0x06EBu, 0xFB908C81FCE3524Fu}, {0x0106u, 0x4EBEFD8FF4F07378u},
    {0x0015u, 0xC628BC6B23887196u}, {0x0000u, 0xFF769211F07B326Fu}, {0x0000u, 0x0668F461693DFF8Fu},
    {0x0000u, 0x001670DB65964485u}, {0x0000u, 0x00002AB6E11C2552u}, {0x0000u, 0x0000002C253C7E81u},
    {0x0000u, 0x0000000018C14ABFu}, {0x0000u, 0x000000000007876Eu}, {0x0000u, 0x000000000000013Du},
};
#endif
#if HAWK_LOGN == 10
static const pqlab_hawk_cdt T0[] = {
    {0x2C58u, 0x3AAA2EB76504E560u}, {0x0F1Du, 0x70E1C03E49BB683Eu}, {0x0319u, 0x55CDA662EF2D1C48u},
    {0x005Eu, 0x31E874B355421BB7u}, {0x0006u, 0x57C0676C029895A7u}, {0x0000u, 0x3D4D67696E51F820u},
    {0x0000u, 0x014A1A8A93F20738u}, {0x0000u, 0x0003DAF47E8DFB21u}, {0x0000u, 0x000006634617B3FFu},
    {0x0000u, 0x00000005DBEFB646u}, {0x0000u, 0x0000000002F93038u}, {0x0000u, 0x000000000000D5A7u},
    {0x0000u, 0x0000000000000021u},
};
#endif
#if HAWK_LOGN == 10
static const pqlab_hawk_cdt T1[] = {
    {0x1B7Fu, 0x01AE2B17728DF2DEu}, {0x0750u, 0x6A00B82C69624C93u}, {0x0125u, 0x2685DB30348656A4u},
    {0x001Au, 0x430192770E205503u}, {0x0001u, 0x5353BD4091AA96DBu}, {0x0000u, 0x09915A53D8667BEEu},
    {0x0000u, 0x0026670030160D5Fu}, {0x0000u, 0x0000557CD1C5F797u}, {0x0000u, 0x0000006965E15B13u},
    {0x0000u, 0x0000000047E9AB38u}, {0x0000u, 0x00000000001B2445u}, {0x0000u, 0x00000000000005AAu},
};
#endif

#define T0_LEN (sizeof T0 / sizeof T0[0])
#define T1_LEN (sizeof T1 / sizeof T1[0])

#define T0_LEN (sizeof T0 / sizeof T0[0])
#define T1_LEN (sizeof T1 / sizeof T1[0])

static uint64_t le64(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) {
        x = (x << 8) | p[i];
    }
    return x;
}

/* 1 when c < T (80-bit values), without branches */
static uint32_t lt80(uint32_t chi, uint64_t clo, const pqlab_hawk_cdt *t)
{
    uint64_t bl = ((~clo & t->lo) | (~(clo ^ t->lo) & (clo - t->lo))) >> 63;
    return (uint32_t)(chi - t->hi - (uint32_t)bl) >> 31;
}

static int32_t sample_one(uint64_t a, uint32_t b, uint32_t t)
{
    uint32_t chi = b >> 1;
    uint64_t clo = (a & 0x7FFFFFFFFFFFFFFFu) | ((uint64_t)(b & 1) << 63);
    uint32_t k0 = 0, k1 = 0;
    for (size_t v = 0; v < T0_LEN; v++) {
        k0 += lt80(chi, clo, &T0[v]);
    }
    for (size_t v = 0; v < T1_LEN; v++) {
        k1 += lt80(chi, clo, &T1[v]);
    }
    uint32_t m = (uint32_t)0 - t;
    uint32_t k = (k0 & ~m) | (k1 & m);
    uint32_t x = 2 * k + t;
    uint32_t s = (uint32_t)0 - (uint32_t)(a >> 63);
    return (int32_t)((x ^ s) - s);
}

static void sample16_c(int32_t x[16], const uint8_t grp[5][32], const uint8_t t[16])
{
    for (unsigned j = 0; j < 4; j++) {
        uint64_t hiw = le64(grp[4] + 8 * j);
        for (unsigned k = 0; k < 4; k++) {
            unsigned r = 4 * j + k;
            uint64_t a = le64(grp[k] + 8 * j);
            uint32_t b = (uint32_t)(hiw >> (16 * k)) & 0x7FFF;
            x[r] = sample_one(a, b, t[r]);
        }
    }
}

void hawk_sample16(int32_t x[16], const uint8_t grp[5][32], const uint8_t t[16])
{
#ifdef PQLAB_HAWK_SAMPLER_NATIVE
    PQLAB_NATIVE_TRY(pqlab_hawk_sample16_native(x, grp, t, T0, (unsigned)T0_LEN, T1, (unsigned)T1_LEN),
                     sample16_c(x, grp, t));
#else
    sample16_c(x, grp, t);
#endif
}

/* acc ^= a b modulo (2, x^n + 1) (= modulo x^n - 1 over GF(2)): coefficient i = 32 q + j of
 * a adds x^i b, which is x^j b (kept as a rolling one-bit rotation r of b, j = 0..31) moved
 * up by q words. The mask makes the work the same for every a (h0, h1 are public anyway; b
 * is the secret f, g, F or G mod 2). */
static void mul2_acc_c(uint32_t *acc, const uint32_t *a, const uint32_t *b)
{
    uint32_t r[HAWK_W];
    memcpy(r, b, sizeof r);
    for (unsigned j = 0; j < 32; j++) {
        for (size_t q = 0; q < HAWK_W; q++) {
            uint32_t m = (uint32_t)0 - ((a[q] >> j) & 1);
            for (size_t k = 0; k < HAWK_W - q; k++) {
                acc[k + q] ^= r[k] & m;
            }
            for (size_t k = HAWK_W - q; k < HAWK_W; k++) {
                acc[k + q - HAWK_W] ^= r[k] & m;
            }
        }
        uint32_t top = r[HAWK_W - 1] >> 31;
        for (size_t k = HAWK_W - 1; k > 0; k--) {
            r[k] = (r[k] << 1) | (r[k - 1] >> 31);
        }
        r[0] = (r[0] << 1) | top;
    }
    pqlab_zeroize(r, sizeof r);
}

void hawk_mul2_acc(uint32_t *acc, const uint32_t *a, const uint32_t *b)
{
#ifdef PQLAB_HAWK_MUL2_NATIVE
    PQLAB_NATIVE_TRY(pqlab_hawk_mul2_acc_native(acc, a, b, HAWK_LOGN), mul2_acc_c(acc, a, b));
#else
    mul2_acc_c(acc, a, b);
#endif
}
