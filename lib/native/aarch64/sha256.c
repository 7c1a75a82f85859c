/* SPDX-License-Identifier: MIT */
/* SHA-256 compression (FIPS 180-4 section 6.2.2) with the FEAT_SHA256 instructions (Arm
 * ARM: SHA256H, SHA256H2 do four rounds on the working variables {a,b,c,d} / {e,f,g,h},
 * SHA256SU0 and SHA256SU1 compute four words of the message schedule, section 6.2.2
 * step 1). The state h[0..7] is H0..H7 of section 6.2.2, so {H0..H3} and {H4..H7} load
 * straight into the two vectors (element 0 = a, resp. e). Declines when the CPU lacks the
 * extension (cpu.h), and lib/common/sha2.c runs the portable compression. Constant time:
 * only nblocks steers the loop. The round constants are FIPS 180-4 section 4.2.2, lib/common/sha256_k.h
 * (the table lib/common/sha2.c uses). */
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "../api.h"
#include "cpu.h"

#include "../../common/sha256_k.h" /* pqlab_sha256_k, the table of lib/common/sha2.c */

#define SHA256_TARGET __attribute__((target("+crypto")))

/* four rounds with schedule words w (already W[t..t+3]) and constants K[t..t+3] */
#define ROUNDS4(abcd, efgh, w, t)                                                                                      \
    do {                                                                                                               \
        const uint32x4_t wk_ = vaddq_u32((w), vld1q_u32(pqlab_sha256_k + (t)));                                        \
        const uint32x4_t abcd0_ = (abcd);                                                                              \
        (abcd) = vsha256hq_u32((abcd), (efgh), wk_);                                                                   \
        (efgh) = vsha256h2q_u32((efgh), abcd0_, wk_);                                                                  \
    } while (0)

SHA256_TARGET static void compress_sha2(uint32_t h[8], const uint8_t *blocks, size_t nblocks)
{
    uint32x4_t abcd = vld1q_u32(h), efgh = vld1q_u32(h + 4);
    while (nblocks > 0) {
        const uint32x4_t abcd_in = abcd, efgh_in = efgh;
        /* the message words are big-endian (section 3.1): reverse the bytes of each word */
        uint32x4_t w0 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(blocks)));
        uint32x4_t w1 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(blocks + 16)));
        uint32x4_t w2 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(blocks + 32)));
        uint32x4_t w3 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(blocks + 48)));
        for (unsigned int t = 0; t < 48; t += 16) {
            ROUNDS4(abcd, efgh, w0, t);
            w0 = vsha256su1q_u32(vsha256su0q_u32(w0, w1), w2, w3); /* W[t+16..t+19] */
            ROUNDS4(abcd, efgh, w1, t + 4);
            w1 = vsha256su1q_u32(vsha256su0q_u32(w1, w2), w3, w0);
            ROUNDS4(abcd, efgh, w2, t + 8);
            w2 = vsha256su1q_u32(vsha256su0q_u32(w2, w3), w0, w1);
            ROUNDS4(abcd, efgh, w3, t + 12);
            w3 = vsha256su1q_u32(vsha256su0q_u32(w3, w0), w1, w2);
        }
        ROUNDS4(abcd, efgh, w0, 48);
        ROUNDS4(abcd, efgh, w1, 52);
        ROUNDS4(abcd, efgh, w2, 56);
        ROUNDS4(abcd, efgh, w3, 60);
        abcd = vaddq_u32(abcd, abcd_in);
        efgh = vaddq_u32(efgh, efgh_in);
        blocks += 64;
        nblocks--;
    }
    vst1q_u32(h, abcd);
    vst1q_u32(h + 4, efgh);
}

int pqlab_sha256_compress_native(uint32_t h[8], const uint8_t *blocks, size_t nblocks)
{
    if (!(pqlab_aarch64_features() & PQLAB_AARCH64_FEAT_SHA256)) {
        return PQLAB_NATIVE_DECLINED;
    }
    compress_sha2(h, blocks, nblocks);
    return PQLAB_NATIVE_DONE;
}
