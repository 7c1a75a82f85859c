/* SPDX-License-Identifier: MIT */
/* Contract of the native kernels of FN-DSA's NTT modulo q = 12289 (lib/fndsa/modq.c), selected by
 * PQLAB_FNDSA_MODQ_NTT_NATIVE (the backend's meta header, lib/native/api.h; the NTT unit:
 * lib/native/rv32ntt/). Drop-in replacements of modq.c's static ntt() / intt() and of the
 * product in fndsa_verify_raw:
 *
 *   ntt(a, logn)                          -> pqlab_fndsa_mq_ntt_native(a, logn)
 *   intt(a, logn)                         -> pqlab_fndsa_mq_intt_native(a, logn)
 *   ntt(a); ntt(b); a = a o b; intt(a)    -> pqlab_fndsa_mq_polymul_native(a, b, logn)
 *
 * Contract (the results are those of the C code for every input it accepts; both sides compute
 * canonical residues, so they are equal as soon as they are correct):
 * - logn in 1..10, n = 2^logn; a, b: n uint16_t, 2-byte aligned, every value in [0, q);
 * - ntt: the negacyclic NTT over Z_q[x]/(x^n + 1) in modq.c's order (bit-reversed: entry k is
 *   the value at psi_n^(2 brv(k) + 1)), canonical [0, q);
 * - intt: its inverse (with the 1/n), canonical;
 * - polymul: a = a b mod (x^n + 1, q), canonical; b is not changed (it may be read only);
 * - no heap, no secret-dependent branch or address (the values may be secret: f, g, F in key
 *   generation). */
#ifndef PQLAB_NATIVE_FNDSA_MODQ_H
#define PQLAB_NATIVE_FNDSA_MODQ_H

#include <stdint.h>

void pqlab_fndsa_mq_ntt_native(uint16_t *a, unsigned logn);
void pqlab_fndsa_mq_intt_native(uint16_t *a, unsigned logn);
void pqlab_fndsa_mq_polymul_native(uint16_t *a, const uint16_t *b, unsigned logn);

#endif
