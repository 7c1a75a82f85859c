/* SPDX-License-Identifier: MIT */
/* ML-DSA kernels on the NTT unit (lib/mldsa/kernels.h; ntt_acc.c), the family header named by
 * rv32's mldsa_native.h in place of its own transforms and products when the platform has the
 * unit (PQLAB_NATIVE_NTT_ACC); rv32's other kernels stay:
 *   ntt                 any int32 in (kernels.h's |a| <= 2^31 - 1 - 8q), canonical out
 *                       (|a| < q <= max|in| + 8q), the NTT of the C (congruent values)
 *   invntt_tomont       |a| < q in, canonical out: NTT^-1(in) 2^32 mod q
 *   pointwise_mont      c = a o b 2^-32, canonical (|c| < q); c may be a or b
 *   pointwise_acc_mont  c += a o b 2^-32 (the term canonical)
 *   polyvec_nttmul_add  r_j = base_j + c s_j (exact: the centred window), NTT(c) loaded once
 *                       for all count products; with it signing keeps s1, s2 in this NTT
 *                       (sign.c) instead of the small-modulus ntt16 / mul16_add
 * Checked by tests/test_sim_ntt_acc.py (each once, against pqlab/accel_ntt.py) and by
 * `pqlab test --contract-checks` on cv32e40p-acc-sim (the bounds of every call). */
#ifndef PQLAB_NATIVE_RV32NTT_MLDSA_H
#define PQLAB_NATIVE_RV32NTT_MLDSA_H

#include <stddef.h>
#include <stdint.h>

#include "ntt_acc.h"

#ifdef PQLAB_NAMESPACE /* included through kernels.h: the dispatch */
#define PQLAB_MLDSA_NATIVE_NTT
#define PQLAB_MLDSA_NATIVE_INVNTT_TOMONT
#define PQLAB_MLDSA_NATIVE_POINTWISE_MONT
#define PQLAB_MLDSA_NATIVE_POINTWISE_ACC_MONT
#define PQLAB_MLDSA_NATIVE_POLYVEC_NTTMUL_ADD
static inline void PQLAB_NAMESPACE(ntt_native)(int32_t a[MLDSA_N])
{
    pqlab_mldsa_ntt_acc(a);
}
static inline void PQLAB_NAMESPACE(invntt_tomont_native)(int32_t a[MLDSA_N])
{
    pqlab_mldsa_invntt_acc(a);
}
static inline void PQLAB_NAMESPACE(pointwise_mont_native)(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],
                                                          const int32_t b[MLDSA_N])
{
    pqlab_mldsa_pointwise_acc(c, a, b);
}
static inline void PQLAB_NAMESPACE(pointwise_acc_mont_native)(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],
                                                              const int32_t b[MLDSA_N])
{
    pqlab_mldsa_pointwise_accumulate_acc(c, a, b);
}
static inline void PQLAB_NAMESPACE(polyvec_nttmul_add_native)(mldsa_poly *r, const mldsa_poly *base,
                                                              const mldsa_poly *chat, const mldsa_poly *shat,
                                                              unsigned int count)
{
    pqlab_mldsa_nttmul_add_acc(r->c, base ? base->c : NULL, chat->c, shat->c, count);
}
#endif

#endif
