/* SPDX-License-Identifier: MIT */
/* Driver of the NTT unit (hw/accel/ntt/ntt_unit.sv; register map and timing in docs/accel.md,
 * section "NTT unit"): a bus peripheral at 0x10010000 with two coefficient memories A and B.
 * Every function here loads its operands into the unit with word stores, starts the
 * operation(s), waits with one load of WAIT (the bus holds it until the unit is idle) and reads
 * the result back with word loads. The unit keeps no state between calls that a caller relies
 * on (each call writes MODE and SCALE). Time does not depend on the data: the transfers are
 * straight-line loops over public lengths and the unit's operations take fixed cycles. */
#ifndef PQLAB_NATIVE_RV32NTT_NTT_ACC_H
#define PQLAB_NATIVE_RV32NTT_NTT_ACC_H

#include <stdint.h>

#define PQLAB_NTT_ACC_BASE 0x10010000u
#define PQLAB_NTT_ACC_MODE 0x0000u
#define PQLAB_NTT_ACC_CTRL 0x0004u
#define PQLAB_NTT_ACC_STATUS 0x0008u
#define PQLAB_NTT_ACC_WAIT 0x000cu
#define PQLAB_NTT_ACC_SCALE 0x0010u
#define PQLAB_NTT_ACC_CYCLES 0x0014u
#define PQLAB_NTT_ACC_A 0x1000u
#define PQLAB_NTT_ACC_A_CENTRED 0x2000u
#define PQLAB_NTT_ACC_B 0x3000u
/* MODE's modulus field */
#define PQLAB_NTT_ACC_MLKEM 0u
#define PQLAB_NTT_ACC_MLDSA 1u
#define PQLAB_NTT_ACC_FNDSA 2u
/* CTRL's operations */
#define PQLAB_NTT_ACC_OP_NTT 1u
#define PQLAB_NTT_ACC_OP_INTT 2u
#define PQLAB_NTT_ACC_OP_PWM 3u
#define PQLAB_NTT_ACC_OP_BASEMUL 4u
#define PQLAB_NTT_ACC_OP_ON_B 8u

/* ML-KEM (q = 3329; lib/mlkem/kernels.h): NTT (output centred, the C's values), inverse NTT
 * times 2^16 (canonical), r += a o b 2^-16 (each term canonical) */
void pqlab_mlkem_ntt_acc(int16_t c[256]);
void pqlab_mlkem_invntt_acc(int16_t c[256]);
void pqlab_mlkem_basemul_acc_acc(int16_t r[256], const int16_t a[256], const int16_t b[256]);

/* ML-DSA (q = 8380417; lib/mldsa/kernels.h): NTT (any int32 in, canonical out), inverse NTT
 * times 2^32 (canonical), c = a o b 2^-32 (canonical), c += a o b 2^-32 */
void pqlab_mldsa_ntt_acc(int32_t a[256]);
void pqlab_mldsa_invntt_acc(int32_t a[256]);
void pqlab_mldsa_pointwise_acc(int32_t c[256], const int32_t a[256], const int32_t b[256]);
void pqlab_mldsa_pointwise_accumulate_acc(int32_t c[256], const int32_t a[256], const int32_t b[256]);
/* r_j = base_j + c s_j exactly (|c s_j| < q/2), for j < count: chat = NTT(c), shat the count
 * polynomials NTT(s_j) one after the other (256 words each), r / base likewise; base NULL:
 * zero; r may alias base */
void pqlab_mldsa_nttmul_add_acc(int32_t *r, const int32_t *base, const int32_t chat[256], const int32_t *shat,
                                unsigned count);

#endif
