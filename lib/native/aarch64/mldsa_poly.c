/* SPDX-License-Identifier: MIT */
/* ML-DSA's coefficient-wise kernels of signing with Advanced SIMD, four 32-bit coefficients
 * per vector: Decompose (FIPS 204 Algorithm 36), signing's MakeHint from Decompose's parts and
 * the infinity-norm check. Contracts: lib/mldsa/kernels.h; every kernel computes lib/mldsa's C
 * expressions (rounding.c / rounding.h) lane by lane, so the same values bit for bit. (reduce32
 * and caddq stay portable: GCC 12 -O3 vectorises their C loops into the same cost on the
 * Cortex-A72 and -A55 models, docs/neon.md.) Decompose's parameters (gamma2 and its division constants)
 * come from mldsa_native.h, which is compiled per parameter set. Constant time: no branch or
 * address depends on the coefficients. */
#include <arm_neon.h>
#include <stdint.h>
#include <string.h>

#include "mldsa_neon.h"

/* r1' = floor((a + gamma2 - 1) mul / 2^shift): SQDMULH gives floor(2 x mul / 2^32) =
 * floor(x mul / 2^31) (x, mul < 2^31 and positive, no saturation), then an arithmetic shift
 * by shift - 31 (floor of a floor: the same integer). top = (r1' == m) as a mask;
 * r0 = a - r1' 2 gamma2 - top, r1 = r1' unless top (then 0): rounding.h's mldsa_decompose. */
void pqlab_mldsa_decompose_neon(int32_t *a1, int32_t *a0, const int32_t a[256], int32_t gamma2, int32_t mul,
                                int32_t shift, int32_t m)
{
    const int32x4_t g1 = vdupq_n_s32(gamma2 - 1), vmul = vdupq_n_s32(mul);
    const int32x4_t sh = vdupq_n_s32(31 - shift), vm = vdupq_n_s32(m);
    for (unsigned int i = 0; i < 256; i += 4) {
        const int32x4_t x = vld1q_s32(a + i);
        const int32x4_t r1p = vshlq_s32(vqdmulhq_s32(vaddq_s32(x, g1), vmul), sh);
        const int32x4_t top = vreinterpretq_s32_u32(vceqq_s32(r1p, vm)); /* -1 when r1' = m */
        if (a0 != 0) {
            vst1q_s32(a0 + i, vaddq_s32(vmlsq_n_s32(x, r1p, 2 * gamma2), top));
        }
        if (a1 != 0) {
            vst1q_s32(a1 + i, vbicq_s32(r1p, top));
        }
    }
}

/* s = a0 + d + gamma2 (mod 2^32); h = 1 unless s - 1 < 2 gamma2 (unsigned) or s = a1 = 0 */
unsigned int pqlab_mldsa_make_hint_low_neon(int32_t h[256], const int32_t a0[256], const int32_t d[256],
                                            const int32_t a1[256], int32_t gamma2)
{
    const uint32x4_t g = vdupq_n_u32((uint32_t)gamma2), two_g = vdupq_n_u32(2u * (uint32_t)gamma2);
    const uint32x4_t one = vdupq_n_u32(1);
    uint32x4_t count = vdupq_n_u32(0);
    for (unsigned int i = 0; i < 256; i += 4) {
        const uint32x4_t s =
            vaddq_u32(vaddq_u32(vreinterpretq_u32_s32(vld1q_s32(a0 + i)), vreinterpretq_u32_s32(vld1q_s32(d + i))), g);
        const uint32x4_t inside = vcltq_u32(vsubq_u32(s, one), two_g);
        const uint32x4_t edge = vandq_u32(vceqzq_u32(s), vceqzq_u32(vreinterpretq_u32_s32(vld1q_s32(a1 + i))));
        const uint32x4_t bit = vbicq_u32(one, vorrq_u32(inside, edge));
        vst1q_s32(h + i, vreinterpretq_s32_u32(bit));
        count = vaddq_u32(count, bit);
    }
    return vaddvq_u32(count);
}

/* 1 when some |a_i| >= bound: the sign bit of bound - 1 - |a_i| (ABS wraps for -2^31 as the
 * C's (a ^ s) - s does) */
uint32_t pqlab_mldsa_chknorm_neon(const int32_t a[256], int32_t bound)
{
    const int32x4_t b1 = vdupq_n_s32(bound - 1);
    uint32x4_t bad = vdupq_n_u32(0);
    for (unsigned int i = 0; i < 256; i += 4) {
        bad = vorrq_u32(bad, vreinterpretq_u32_s32(vsubq_s32(b1, vabsq_s32(vld1q_s32(a + i)))));
    }
    return vmaxvq_u32(vshrq_n_u32(bad, 31));
}

/* w1Encode's SimpleBitPack (FIPS 204 Algorithm 16), bits 6 or 4, coefficients in [0, 2^bits),
 * least significant bit first. 6 bits: LD4 puts the coefficients 4 g .. 4 g + 3 in lane g of four
 * vectors; x0 | x1 << 6 | x2 << 12 | x3 << 18 is their 24-bit group, whose three low bytes TBL
 * compacts (12 bytes per 16 coefficients). 4 bits: the coefficients narrowed to bytes; as 16-bit
 * lanes a_2k | a_2k+1 << 8, USRA by 4 and XTN give a_2k | a_2k+1 << 4. */
void pqlab_mldsa_w1_pack_neon(uint8_t *r, const int32_t a[256], unsigned int bits)
{
    if (bits == 6) {
        static const uint8_t idx[16] = {0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 255, 255, 255, 255};
        const uint8x16_t t = vld1q_u8(idx);
        for (unsigned int i = 0; i < 256; i += 16, r += 12) {
            const uint32x4x4_t x = vld4q_u32((const uint32_t *)(a + i));
            uint32x4_t v = vorrq_u32(x.val[0], vshlq_n_u32(x.val[1], 6));
            v = vorrq_u32(v, vshlq_n_u32(x.val[2], 12));
            v = vorrq_u32(v, vshlq_n_u32(x.val[3], 18));
            const uint8x16_t b = vqtbl1q_u8(vreinterpretq_u8_u32(v), t);
            const uint32_t tail = vgetq_lane_u32(vreinterpretq_u32_u8(b), 2);
            vst1_u8(r, vget_low_u8(b));
            memcpy(r + 8, &tail, 4);
        }
    } else {
        for (unsigned int i = 0; i < 256; i += 16, r += 8) {
            const uint16x8_t n0 = vcombine_u16(vmovn_u32(vld1q_u32((const uint32_t *)(a + i))),
                                               vmovn_u32(vld1q_u32((const uint32_t *)(a + i + 4))));
            const uint16x8_t n1 = vcombine_u16(vmovn_u32(vld1q_u32((const uint32_t *)(a + i + 8))),
                                               vmovn_u32(vld1q_u32((const uint32_t *)(a + i + 12))));
            const uint16x8_t v = vreinterpretq_u16_u8(vcombine_u8(vmovn_u16(n0), vmovn_u16(n1)));
            vst1_u8(r, vmovn_u16(vsraq_n_u16(v, v, 4)));
        }
    }
}
