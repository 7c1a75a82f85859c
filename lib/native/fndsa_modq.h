/* SPDX-License-Identifier: MIT */
/* Contract of the native kernels of FN-DSA's arithmetic modulo q = 12289 (verification, public
 * key and complete_private: lib/fndsa/modq.c). PQLAB_FNDSA_MODQ_NATIVE (the backend's meta
 * header, lib/native/api.h) selects the NTT and inverse NTT; PQLAB_FNDSA_MODQ_POLYMUL_NATIVE in
 * addition the ring product of verification. Providers: lib/native/rv32/fndsa_modq.S (RV32IM,
 * n = 512 and 1024), lib/native/rv32ntt/ntt_acc.c (the NTT unit, all three). Replacements of
 * modq.c's code:
 *
 *   ntt(a, logn)                          -> pqlab_fndsa_mq_ntt_native(a, logn)
 *   intt(a, logn)                         -> pqlab_fndsa_mq_intt_native(a, logn)
 *   ntt(a); ntt(b); a = a o b; intt(a)    -> pqlab_fndsa_mq_polymul_native(a, b, logn)
 *
 * Contract:
 * - logn in 1..10, n = 2^logn; a, b: n uint16_t, 2-byte aligned, every value in [0, q) on input;
 * - ntt: the negacyclic NTT over Z_q[x]/(x^n + 1) in modq.c's bit-reversed order (entry k is the
 *   value at psi^(2 brv(k) + 1), psi = 11^6 = 1945 mod q for n = 1024: lib/fndsa/gen_tables.py),
 *   every output in [0, q);
 * - intt: its inverse, with the factor 1/n, outputs in [0, q);
 * - polymul: a = a b mod (x^n + 1, q), outputs in [0, q); b is only read.
 *   Reduced residues are unique, so the outputs equal the C's bit for bit.
 * - Run-time decline (lib/native/api.h): a kernel returns PQLAB_NATIVE_DECLINED, writing
 *   nothing, for a logn it was not written for (a public parameter); the C then runs.
 * - No heap, no secret-dependent branch or address (f, g, F pass through the public-key and
 *   complete_private transforms). */
#ifndef PQLAB_NATIVE_FNDSA_MODQ_H
#define PQLAB_NATIVE_FNDSA_MODQ_H

#include <stdint.h>

int pqlab_fndsa_mq_ntt_native(uint16_t *a, unsigned logn);
int pqlab_fndsa_mq_intt_native(uint16_t *a, unsigned logn);
int pqlab_fndsa_mq_polymul_native(uint16_t *a, const uint16_t *b, unsigned logn);

#endif
