/* SPDX-License-Identifier: MIT */
/* Compat: randombytes() of PQClean/mupq. The name is mapped to PQCLEAN_randombytes as
 * PQClean does; lib/compat/compat_randombytes.c provides both PQCLEAN_randombytes and a
 * plain randombytes symbol, each forwarding to the harness's pqlab_randombytes(). */
#ifndef PQCLEAN_RANDOMBYTES_H
#define PQCLEAN_RANDOMBYTES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define randombytes PQCLEAN_randombytes
/* fills output[0..n-1]; returns 0 on success */
int randombytes(uint8_t *output, size_t n);

#ifdef __cplusplus
}
#endif

#endif
