/* SPDX-License-Identifier: MIT */
/* Stand-in backend kernels (see fake_backend.h): count, then run the C kernel. */
#include "kernels.h"

static unsigned long calls;

void PQLAB_NAMESPACE(ntt_native)(int32_t a[MLDSA_N])
{
    calls++;
    mldsa_ntt_c(a);
}

void PQLAB_NAMESPACE(poly_rej_ntt_x4_native)(mldsa_poly *a0, mldsa_poly *a1, mldsa_poly *a2, mldsa_poly *a3,
                                             const uint8_t rho[MLDSA_SEEDBYTES], const uint16_t nonce[4])
{
    calls += 1000000ul;
    mldsa_poly_rej_ntt_x4_c(a0, a1, a2, a3, rho, nonce);
}

unsigned long PQLAB_NAMESPACE(fake_backend_calls)(void)
{
    return calls;
}
