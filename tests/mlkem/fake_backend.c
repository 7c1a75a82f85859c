/* SPDX-License-Identifier: MIT */
/* See fake_backend.h. */
#include "kernels.h"

unsigned long pqlab_test_native_ntt_calls, pqlab_test_native_matacc_x4_calls;

void PQLAB_NAMESPACE(mlkem_ntt_native)(mlkem_poly *r)
{
    pqlab_test_native_ntt_calls++;
    mlkem_ntt_c(r);
}

void PQLAB_NAMESPACE(mlkem_matacc_x4_native)(mlkem_poly32 *const acc[4], const mlkem_poly *const vec[4],
                                             const mlkem_polycache *const cache[4], const uint8_t rho[MLKEM_SYMBYTES],
                                             const uint8_t xy[8], unsigned int fresh)
{
    pqlab_test_native_matacc_x4_calls++;
    mlkem_matacc_x4_c(acc, vec, cache, rho, xy, fresh);
}
