/* SPDX-License-Identifier: MIT */
/* Contract of the native NTT modulo q = 12289 of FN-DSA (verification, public key and
 * complete_private: lib/fndsa/modq.c), selected by PQLAB_FNDSA_MODQ_NATIVE (the backend's meta
 * header, lib/native/api.h; RV32IM: lib/native/rv32/fndsa_modq.S). Replacements of modq.c's
 * ntt() and intt():
 *
 *   ntt(a, logn)   -> pqlab_fndsa_mq_ntt_native(a, logn)
 *   intt(a, logn)  -> pqlab_fndsa_mq_intt_native(a, logn)
 *
 * Contract:
 * - a: n = 2^logn uint16_t, 2-byte aligned, every a[u] in [0, q) on input; on output the
 *   transform with every value in [0, q): the negacyclic NTT in modq.c's bit-reversed order
 *   with psi = 11^6 = 1945 mod q (lib/fndsa/gen_tables.py), or its inverse times 1/n. Reduced
 *   residues are unique, so the outputs equal the C's bit for bit.
 * - Run-time decline (lib/native/api.h): a kernel returns PQLAB_NATIVE_DECLINED, writing
 *   nothing, for a logn it was not written for (a public parameter); the C then runs.
 * - No heap, no secret-dependent branch or address (f, g, F pass through the public-key and
 *   complete_private transforms). */
#ifndef PQLAB_NATIVE_FNDSA_MODQ_H
#define PQLAB_NATIVE_FNDSA_MODQ_H

#include <stdint.h>

int pqlab_fndsa_mq_ntt_native(uint16_t *a, unsigned logn);
int pqlab_fndsa_mq_intt_native(uint16_t *a, unsigned logn);

#endif
