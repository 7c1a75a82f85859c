/* SPDX-License-Identifier: MIT */
/* A stand-in "native backend" for tests/test_mlkem_backend.py: it declares two
 * kernels as native, as a real backend header would (kernels.h), and
 * implements them (fake_backend.c) by counting the call and running the
 * portable kernel, so the test can prove that the dispatch picks them up. */
#ifndef PQLAB_MLKEM_FAKE_BACKEND_H
#define PQLAB_MLKEM_FAKE_BACKEND_H

#define PQLAB_MLKEM_NATIVE_NTT
#define PQLAB_MLKEM_NATIVE_MATACC_X4

void PQLAB_NAMESPACE(mlkem_ntt_native)(mlkem_poly *r);
void PQLAB_NAMESPACE(mlkem_matacc_x4_native)(mlkem_poly32 *const acc[4], const mlkem_poly *const vec[4],
                                             const mlkem_polycache *const cache[4], const uint8_t rho[MLKEM_SYMBYTES],
                                             const uint8_t xy[8], unsigned int fresh);

#endif
