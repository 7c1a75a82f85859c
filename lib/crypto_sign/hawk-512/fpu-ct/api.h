/* SPDX-License-Identifier: MIT */
/* Hawk-512 (Hawk specification v1.0, the NIST additional-signatures round-1 version that
 * mupq's hawk512 implements), pqlab implementation "fpu-ct": lib/hawk with FN-DSA's fpu-ct fpr layer
 * (sharing FN-DSA's NTRU solver, NTT modulo 31-bit primes, fpr layer and FFT), built with
 * -DPQLAB_HAWK_LOGN=9 -DPQLAB_NS=pqlab_hawk512_fpu_ct_ -DPQLAB_FNDSA_FPR_EMU_FPU_MUL (pqlab.toml). Return values: 0
 * success, -1 failure. The signed message is m || signature. */
#ifndef PQLAB_HAWK512_FPU_CT_API_H
#define PQLAB_HAWK512_FPU_CT_API_H

#ifndef PQLAB_NS
#define PQLAB_NS pqlab_hawk512_fpu_ct_
#endif
#include "hawk_api.h"

#define CRYPTO_ALGNAME "Hawk-512"
#define CRYPTO_SECRETKEYBYTES 184  /* kgseed || F mod 2 || G mod 2 || hpub */
#define CRYPTO_PUBLICKEYBYTES 1024 /* Golomb-Rice compressed q00 (half) and q01 */
#define CRYPTO_BYTES 555           /* salt || compressed s1, fixed length */

#define PQLAB_SIGN_ITERATIONS() crypto_sign_sign_attempts()
#define PQLAB_KEYGEN_ITERATIONS() (crypto_sign_keygen_restarts() + 1u)

#endif
