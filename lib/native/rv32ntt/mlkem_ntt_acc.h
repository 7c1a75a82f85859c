/* SPDX-License-Identifier: MIT */
/* ML-KEM kernels on the NTT unit (lib/mlkem/kernels.h; ntt_acc.c), the family header named by
 * rv32's mlkem_native.h in place of its transforms when the platform has the unit
 * (PQLAB_NATIVE_NTT_ACC):
 *   ntt          input |c| < q, output centred (|c| <= (q-1)/2): the C's values (unique)
 *   invntt       any int16 in, output canonical [0, q) (|c| < q), congruent to the C's
 *   basemul_acc  r + (a o b R^-1) with the term canonical (< q < 2q)
 * Checked by tests/test_sim_ntt_acc.py (each once, against pqlab/accel_ntt.py) and by
 * `pqlab test --contract-checks` on cv32e40p-acc-sim (the bounds of every call). */
#ifndef PQLAB_NATIVE_RV32NTT_MLKEM_H
#define PQLAB_NATIVE_RV32NTT_MLKEM_H

#include "ntt_acc.h"

#ifdef PQLAB_MLKEM_KERNELS_H /* included from lib/mlkem/kernels.h: mlkem_poly is defined */
#define PQLAB_MLKEM_NATIVE_NTT
#define PQLAB_MLKEM_NATIVE_INVNTT
#define PQLAB_MLKEM_NATIVE_BASEMUL_ACC
static inline void PQLAB_NAMESPACE(mlkem_ntt_native)(mlkem_poly *r)
{
    pqlab_mlkem_ntt_acc(r->c);
}
static inline void PQLAB_NAMESPACE(mlkem_invntt_native)(mlkem_poly *r)
{
    pqlab_mlkem_invntt_acc(r->c);
}
static inline void PQLAB_NAMESPACE(mlkem_basemul_acc_native)(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b)
{
    pqlab_mlkem_basemul_acc_acc(r->c, a->c, b->c);
}
#endif

#endif
