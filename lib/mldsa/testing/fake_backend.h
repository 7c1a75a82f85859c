/* SPDX-License-Identifier: MIT */
/* A stand-in "native backend" for tests/test_mldsa_backend.py, selected with
 * -DPQLAB_MLDSA_BACKEND_HEADER='"fake_backend.h"': it declares two kernels native, as a
 * real backend header would (kernels.h), and implements them (fake_backend.c) by
 * counting the calls and running the portable kernels, so the test can prove that the
 * dispatch picks them up and that everything else falls back to C. */
#ifndef PQLAB_MLDSA_FAKE_BACKEND_H
#define PQLAB_MLDSA_FAKE_BACKEND_H

#define PQLAB_MLDSA_NATIVE_NTT
#define PQLAB_MLDSA_NATIVE_POLY_REJ_NTT_X4

void PQLAB_NAMESPACE(ntt_native)(int32_t a[MLDSA_N]);
void PQLAB_NAMESPACE(poly_rej_ntt_x4_native)(mldsa_poly *a0, mldsa_poly *a1, mldsa_poly *a2, mldsa_poly *a3,
                                             const uint8_t rho[MLDSA_SEEDBYTES], const uint16_t nonce[4]);
unsigned long PQLAB_NAMESPACE(fake_backend_calls)(void);

#endif
