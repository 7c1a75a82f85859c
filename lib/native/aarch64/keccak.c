/* SPDX-License-Identifier: MIT */
/* Keccak-f[1600] (FIPS 202 section 3.3 and 3.4: 24 rounds of theta, rho, pi, chi, iota)
 * with Advanced SIMD, two states per call: lane i of state k sits in element k of a
 * 128-bit vector (64-bit elements), so one instruction works on both states. The state
 * layout is the standard one (lane x + 5y, little-endian); this backend defines
 * PQLAB_KECCAKF1600_NATIVE_STD (lib/native/api.h), so lib/common/fips202.c keeps its
 * standard-layout byte interface and only the permutation is native.
 *
 * Two instruction sets, one round (KECCAK_ROUND below, written once):
 *  - plain Advanced SIMD (every ARMv8-A CPU): a rotation is SHL + SRI (shift left, then
 *    shift right and insert), chi is BIC + EOR;
 *  - FEAT_SHA3 (ARMv8.2 optional; Arm ARM, "SHA3" instructions): EOR3 (three-way XOR) for
 *    the column parities, RAX1 (a ^ rol(b, 1)) for theta's D, XAR (ror(a ^ b, imm)) for
 *    theta's XOR fused with rho's rotation, BCAX (a ^ (b & ~c)) for chi.
 * The FEAT_SHA3 functions are compiled for armv8.2-a+sha3 through a function attribute and
 * only called after cpu.h reported the feature; the entry points decline otherwise and the
 * caller (fips202.c) runs the portable permutation, or (x4) use the plain form.
 *
 * Constant time: no branch or address depends on the state. The iota constants are
 * FIPS 202 Algorithm 6 (the same table as lib/common/fips202.c). */
#include <arm_neon.h>
#include <stdint.h>

#include "../api.h"
#include "../../common/fips202x4.h"
#include "../../common/hashprof.h"
#include "cpu.h"
#include "keccak_x2.h"

#include "../../common/keccak_rc.h" /* pqlab_keccak_rc: the table of lib/common/fips202.c */

/* One round on a[25] (vectors), b[25] scratch. The operations are macros supplied by the
 * two instantiations:
 *   PAR5(x)          a[x] ^ a[x+5] ^ a[x+10] ^ a[x+15] ^ a[x+20]
 *   THETA_D(l, r)    l ^ rol(r, 1)
 *   XROT(v, d, ror)  ror(v ^ d, ror), ror in 0..63 (rotate right; rho's left rotation by
 *                    r is a right rotation by 64 - r)
 *   CHI(p, q, r)     p ^ (~q & r)
 * pi (section 3.2.3, A'[x, y] = A[(x + 3y) mod 5, x]) and rho (section 3.2.2, Table 2) are
 * written out: B(dst, src, k) is b[dst] = ror(a[src] ^ d[src mod 5], k), k = (64 - r) mod 64 for
 * the rho offset r of lane src. */
#define KECCAK_ROUND(a, b, rc)                                                                                         \
    do {                                                                                                               \
        uint64x2_t c0 = PAR5(a, 0), c1 = PAR5(a, 1), c2 = PAR5(a, 2), c3 = PAR5(a, 3), c4 = PAR5(a, 4);                \
        uint64x2_t d[5];                                                                                               \
        d[0] = THETA_D(c4, c1);                                                                                        \
        d[1] = THETA_D(c0, c2);                                                                                        \
        d[2] = THETA_D(c1, c3);                                                                                        \
        d[3] = THETA_D(c2, c4);                                                                                        \
        d[4] = THETA_D(c3, c0);                                                                                        \
        B(a, b, 0, 0, 0);                                                                                              \
        B(a, b, 1, 6, 20);                                                                                             \
        B(a, b, 2, 12, 21);                                                                                            \
        B(a, b, 3, 18, 43);                                                                                            \
        B(a, b, 4, 24, 50);                                                                                            \
        B(a, b, 5, 3, 36);                                                                                             \
        B(a, b, 6, 9, 44);                                                                                             \
        B(a, b, 7, 10, 61);                                                                                            \
        B(a, b, 8, 16, 19);                                                                                            \
        B(a, b, 9, 22, 3);                                                                                             \
        B(a, b, 10, 1, 63);                                                                                            \
        B(a, b, 11, 7, 58);                                                                                            \
        B(a, b, 12, 13, 39);                                                                                           \
        B(a, b, 13, 19, 56);                                                                                           \
        B(a, b, 14, 20, 46);                                                                                           \
        B(a, b, 15, 4, 37);                                                                                            \
        B(a, b, 16, 5, 28);                                                                                            \
        B(a, b, 17, 11, 54);                                                                                           \
        B(a, b, 18, 17, 49);                                                                                           \
        B(a, b, 19, 23, 8);                                                                                            \
        B(a, b, 20, 2, 2);                                                                                             \
        B(a, b, 21, 8, 9);                                                                                             \
        B(a, b, 22, 14, 25);                                                                                           \
        B(a, b, 23, 15, 23);                                                                                           \
        B(a, b, 24, 21, 62);                                                                                           \
        for (unsigned int y_ = 0; y_ < 25; y_ += 5) { /* chi, section 3.2.4, row by row */                             \
            a[y_ + 0] = CHI(b[y_ + 0], b[y_ + 1], b[y_ + 2]);                                                          \
            a[y_ + 1] = CHI(b[y_ + 1], b[y_ + 2], b[y_ + 3]);                                                          \
            a[y_ + 2] = CHI(b[y_ + 2], b[y_ + 3], b[y_ + 4]);                                                          \
            a[y_ + 3] = CHI(b[y_ + 3], b[y_ + 4], b[y_ + 0]);                                                          \
            a[y_ + 4] = CHI(b[y_ + 4], b[y_ + 0], b[y_ + 1]);                                                          \
        }                                                                                                              \
        a[0] = veorq_u64(a[0], vdupq_n_u64(rc)); /* iota, section 3.2.5 */                                             \
    } while (0)

#define B(a, b, dst, src, k) (b[(dst)] = XROT(a[(src)], d[(src) % 5], k))

/* ---- plain Advanced SIMD ---- */
#define PAR5(a, x) veorq_u64(veorq_u64(veorq_u64(a[(x)], a[(x) + 5]), veorq_u64(a[(x) + 10], a[(x) + 15])), a[(x) + 20])
#define ROL_NEON(v, n) vsriq_n_u64(vshlq_n_u64((v), (n)), (v), 64 - (n)) /* n in 1..63 */
#define THETA_D(l, r) veorq_u64((l), ROL_NEON((r), 1))
/* ror by 0 (lane 0 only) is the XOR alone; ror by k = rol by 64 - k */
#define XROT(v, dd, ror) xrot_neon_##ror(veorq_u64((v), (dd)))
#define CHI(p, q, r) veorq_u64((p), vbicq_u64((r), (q)))

/* rol by 64 - ror for each ror that B() uses; generated by the preprocessor from one form */
#define XROT_NEON_DEF(ror)                                                                                             \
    static inline uint64x2_t xrot_neon_##ror(uint64x2_t v)                                                             \
    {                                                                                                                  \
        return ROL_NEON(v, 64 - (ror));                                                                                \
    }
static inline uint64x2_t xrot_neon_0(uint64x2_t v)
{
    return v;
}
/* (64 - r) & 63 for the 24 non-zero rho offsets r */
XROT_NEON_DEF(20)
XROT_NEON_DEF(21)
XROT_NEON_DEF(43)
XROT_NEON_DEF(50)
XROT_NEON_DEF(36)
XROT_NEON_DEF(44)
XROT_NEON_DEF(61)
XROT_NEON_DEF(19)
XROT_NEON_DEF(3)
XROT_NEON_DEF(63)
XROT_NEON_DEF(58)
XROT_NEON_DEF(39)
XROT_NEON_DEF(56)
XROT_NEON_DEF(46)
XROT_NEON_DEF(37)
XROT_NEON_DEF(28)
XROT_NEON_DEF(54)
XROT_NEON_DEF(49)
XROT_NEON_DEF(8)
XROT_NEON_DEF(2)
XROT_NEON_DEF(9)
XROT_NEON_DEF(25)
XROT_NEON_DEF(23)
XROT_NEON_DEF(62)

static inline void load_x2(uint64x2_t a[25], const uint64_t *s0, const uint64_t *s1)
{
    for (unsigned int i = 0; i < 25; i++) {
        a[i] = vcombine_u64(vld1_u64(s0 + i), vld1_u64(s1 + i));
    }
}

static inline void store_x2(uint64_t *s0, uint64_t *s1, const uint64x2_t a[25])
{
    for (unsigned int i = 0; i < 25; i++) {
        vst1_u64(s0 + i, vget_low_u64(a[i]));
        vst1_u64(s1 + i, vget_high_u64(a[i]));
    }
}

void pqlab_aarch64_keccakf1600x2_neon(uint64_t s0[25], uint64_t s1[25])
{
    uint64x2_t a[25], b[25];
    load_x2(a, s0, s1);
    for (unsigned int ir = 0; ir < 24; ir++) {
        KECCAK_ROUND(a, b, pqlab_keccak_rc[ir]);
    }
    store_x2(s0, s1, a);
}

#undef PAR5
#undef THETA_D
#undef XROT
#undef CHI

/* ---- FEAT_SHA3 ---- */
#define PAR5(a, x) veor3q_u64(veor3q_u64(a[(x)], a[(x) + 5], a[(x) + 10]), a[(x) + 15], a[(x) + 20])
#define THETA_D(l, r) vrax1q_u64((l), (r))
#define XROT(v, dd, ror) vxarq_u64((v), (dd), (ror))
#define CHI(p, q, r) vbcaxq_u64((p), (r), (q))

#define SHA3_TARGET __attribute__((target("arch=armv8.2-a+sha3")))

SHA3_TARGET static void keccakf1600x2_sha3(uint64x2_t a[25])
{
    uint64x2_t b[25];
    for (unsigned int ir = 0; ir < 24; ir++) {
        KECCAK_ROUND(a, b, pqlab_keccak_rc[ir]);
    }
}

SHA3_TARGET void pqlab_aarch64_keccakf1600x2_sha3(uint64_t s0[25], uint64_t s1[25])
{
    uint64x2_t a[25];
    load_x2(a, s0, s1);
    keccakf1600x2_sha3(a);
    store_x2(s0, s1, a);
}

/* one state: element 1 of every vector is zero and ignored */
SHA3_TARGET static void keccakf1600x1_sha3(uint64_t s[25])
{
    uint64x2_t a[25];
    for (unsigned int i = 0; i < 25; i++) {
        a[i] = vcombine_u64(vld1_u64(s + i), vdup_n_u64(0));
    }
    keccakf1600x2_sha3(a);
    for (unsigned int i = 0; i < 25; i++) {
        vst1_u64(s + i, vget_low_u64(a[i]));
    }
}

/* ---- entry points of the contract (lib/native/api.h) ---- */

int pqlab_keccakf1600_native_std(uint64_t s[25])
{
    if (!(pqlab_aarch64_features() & PQLAB_AARCH64_FEAT_SHA3)) {
        /* one state on plain Advanced SIMD would use half of every instruction; the
         * portable scalar permutation is the better one there */
        return PQLAB_NATIVE_DECLINED;
    }
    keccakf1600x1_sha3(s);
    return PQLAB_NATIVE_DONE;
}

/* PQLAB_KECCAKF1600X4_NATIVE (lib/common/fips202x4.h): two two-way permutations */
void pqlab_keccakf1600x4(pqlab_keccakx4_state *st)
{
    PQLAB_HASHPROF_BEGIN();
    if (pqlab_aarch64_features() & PQLAB_AARCH64_FEAT_SHA3) {
        pqlab_aarch64_keccakf1600x2_sha3(st->lane[0].s, st->lane[1].s);
        pqlab_aarch64_keccakf1600x2_sha3(st->lane[2].s, st->lane[3].s);
    } else {
        pqlab_aarch64_keccakf1600x2_neon(st->lane[0].s, st->lane[1].s);
        pqlab_aarch64_keccakf1600x2_neon(st->lane[2].s, st->lane[3].s);
    }
    PQLAB_HASHPROF_END();
}
