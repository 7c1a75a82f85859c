/* SPDX-License-Identifier: MIT */
/* Contract of the native kernel of FN-DSA key generation's Gaussian sampler (fndsa_gauss.S), selected by
 * PQLAB_FNDSA_GAUSS_NATIVE (the backend's meta header, lib/native/api.h; ARMv7E-M: lib/native/armv7em/): the two table samples that make one coefficient
 * of f or g for Falcon-512 (mkgauss of lib/fndsa/keygen.c with 1024 / n = 2 samples).
 *
 * Contract (the same value as the C loop for every input): r = the eight 32-bit words of the
 * four 64-bit SHAKE256 words the two samples read, in stream order and each as {low word,
 * high word}; tab = the 27-entry table fndsa_gauss_1024_12289. Returns the sum of the two
 * samples. Constant time: no branch, every address fixed; stack: 36 bytes. AAPCS. */
#ifndef PQLAB_NATIVE_FNDSA_GAUSS_H
#define PQLAB_NATIVE_FNDSA_GAUSS_H

#include <stdint.h>

int32_t pqlab_fndsa_mkgauss2_native(const uint32_t r[8], const uint64_t tab[27]);

#endif
