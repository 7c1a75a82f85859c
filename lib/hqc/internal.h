/* SPDX-License-Identifier: MIT */
/* Internal kernels of lib/hqc: vectors of F_2[x]/(x^n - 1) as HQC_NW little-endian
 * 64-bit words (bit i of the vector is bit i%64 of word i/64; bits >= n are zero),
 * the seed expander and samplers, and the concatenated Reed-Muller/Reed-Solomon code.
 * Every kernel runs in time independent of secret data (no secret branch or address). */
#ifndef PQLAB_HQC_INTERNAL_H
#define PQLAB_HQC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "fips202.h"
#include "params.h"

/* native kernels (lib/native/hqc.h), unless -DPQLAB_HQC_PORTABLE asks for the C only */
#if defined(PQLAB_HQC_GF2X_NATIVE) && !defined(PQLAB_HQC_PORTABLE)
#define HQC_NATIVE_GF2X 1
#endif
#if defined(PQLAB_HQC_SUPPORT_NATIVE) && !defined(PQLAB_HQC_PORTABLE)
#define HQC_NATIVE_SUPPORT 1
#endif
#if defined(PQLAB_HQC_RM_NATIVE) && !defined(PQLAB_HQC_PORTABLE)
#define HQC_NATIVE_RM 1
#endif

/* --- gf2x.c: multiplication in F_2[x]/(x^n - 1) --- */
#define hqc_vect_mul PQLAB_NAMESPACE(hqc_vect_mul)
/* r = a * b mod (x^n - 1); a, b reduced (bits >= n zero); r may be a or b (the product is
 * formed in a separate buffer and folded into r last) */
void hqc_vect_mul(uint64_t r[HQC_NW], const uint64_t a[HQC_NW], const uint64_t b[HQC_NW]);
#define hqc_vect_mul_sparse PQLAB_NAMESPACE(hqc_vect_mul_sparse)
/* -DPQLAB_HQC_SMALLSTACK: r = a * y mod (x^n - 1), y given by its support (weight distinct
 * positions < n); r must not overlap a */
void hqc_vect_mul_sparse(uint64_t r[HQC_NW], const uint64_t a[HQC_NW], const uint32_t *support, size_t weight);

/* --- sample.c: SHAKE256 seed expander, samplers, byte encoding --- */
typedef pqlab_keccak_state hqc_xof;
#define hqc_xof_init PQLAB_NAMESPACE(hqc_xof_init)
#define hqc_xof_read PQLAB_NAMESPACE(hqc_xof_read)
#define hqc_sample_support PQLAB_NAMESPACE(hqc_sample_support)
#define hqc_support_xor PQLAB_NAMESPACE(hqc_support_xor)
#define hqc_sample_dense PQLAB_NAMESPACE(hqc_sample_dense)
#define hqc_load PQLAB_NAMESPACE(hqc_load)
#define hqc_store PQLAB_NAMESPACE(hqc_store)
#define hqc_shake256_512 PQLAB_NAMESPACE(hqc_shake256_512)

/* SHAKE256(seed || domain), read in 8-byte units (the specification's seed expander) */
void hqc_xof_init(hqc_xof *st, const uint8_t *seed, size_t seedlen, uint8_t domain);
/* the next outlen bytes; a length that is not a multiple of 8 discards the rest of its last 8 */
void hqc_xof_read(hqc_xof *st, uint8_t *out, size_t outlen);
/* support of a vector of weight `weight` (<= HQC_WR): distinct positions < n */
void hqc_sample_support(hqc_xof *st, uint32_t *support, size_t weight);
#if PQLAB_HQC_VERSION == 2025
#define hqc_sample_support_rej PQLAB_NAMESPACE(hqc_sample_support_rej)
/* key generation's rejection sampler (weight <= HQC_W): distinct positions < n */
void hqc_sample_support_rej(hqc_xof *st, uint32_t *support, size_t weight);
#endif
/* v ^= the vector with that support (positions distinct) */
void hqc_support_xor(uint64_t v[HQC_NW], const uint32_t *support, size_t weight);
/* uniform vector of F_2^n */
void hqc_sample_dense(hqc_xof *st, uint64_t v[HQC_NW]);
/* little-endian bytes <-> words (nbytes <= 8 * nwords; missing bytes are zero) */
void hqc_load(uint64_t *w, size_t nwords, const uint8_t *in, size_t nbytes);
void hqc_store(uint8_t *out, size_t nbytes, const uint64_t *w);
/* SHAKE256(in1 || in2 || in3 || domain), 64 bytes (the functions G and K) */
void hqc_shake256_512(uint8_t out[64], const uint8_t *in1, size_t len1, const uint8_t *in2, size_t len2,
                      const uint8_t *in3, size_t len3, uint8_t domain);

/* --- code.c: concatenated code RS[n1, k] o duplicated RM(1,7) --- */
#define hqc_code_encode PQLAB_NAMESPACE(hqc_code_encode)
#define hqc_code_decode PQLAB_NAMESPACE(hqc_code_decode)
#define hqc_rs_encode PQLAB_NAMESPACE(hqc_rs_encode)
#define hqc_rs_decode PQLAB_NAMESPACE(hqc_rs_decode)
#define hqc_rm_encode PQLAB_NAMESPACE(hqc_rm_encode)
#define hqc_rm_decode PQLAB_NAMESPACE(hqc_rm_decode)
#define hqc_gf_mul PQLAB_NAMESPACE(hqc_gf_mul)

uint8_t hqc_gf_mul(uint8_t a, uint8_t b);
void hqc_rs_encode(uint8_t cw[HQC_N1], const uint8_t msg[HQC_K]);
void hqc_rs_decode(uint8_t msg[HQC_K], const uint8_t cw[HQC_N1]);
/* cw ^= the duplicated RM(1,7) encoding of the n1 symbols */
void hqc_rm_encode(uint64_t cw[HQC_N1N2W], const uint8_t sym[HQC_N1]);
void hqc_rm_decode(uint8_t sym[HQC_N1], const uint64_t cw[HQC_N1N2W]);
/* em (n1 n2 bits) ^= encoding of m */
void hqc_code_encode(uint64_t em[HQC_N1N2W], const uint8_t m[HQC_K]);
/* m = decoding of the first n1 n2 bits of w */
void hqc_code_decode(uint8_t m[HQC_K], const uint64_t w[HQC_N1N2W]);

#endif
