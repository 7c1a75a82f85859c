/* SPDX-License-Identifier: MIT */
/* Meta header of the AArch64 backend `neon` (ARMv8-A with Advanced SIMD: aarch64-qemu,
 * aarch64-qemu-max, the host when it is an AArch64 machine): the kernels this folder
 * provides, as the macros of lib/native/api.h. Selected by backend.toml
 * (PQLAB_NATIVE_META_HEADER="aarch64/meta.h"); everything not defined here runs the
 * portable C. Kernels that need an optional extension check the CPU at run time (cpu.c)
 * and decline without it. Files and detection: docs/neon.md. */
#ifndef PQLAB_NATIVE_AARCH64_META_H
#define PQLAB_NATIVE_AARCH64_META_H

#define PQLAB_NATIVE_BACKEND_NAME "neon"

/* Keccak-f[1600] on the standard state layout (keccak.c): one state with the FEAT_SHA3
 * instructions (declines without them: the portable permutation runs); four states as two
 * two-way Advanced SIMD permutations, FEAT_SHA3 or plain, chosen at run time. An
 * application's own permutation (PQLAB_KECCAKF1600_EXTERNAL) still replaces all of it. */
#define PQLAB_KECCAKF1600_NATIVE_STD 1
#define PQLAB_KECCAKF1600X4_NATIVE 1

/* SHA-256 compression with the FEAT_SHA256 instructions (sha256.c; declines without them) */
#define PQLAB_SHA256_COMPRESS_NATIVE 1

/* ML-KEM / ML-DSA kernels: the header in this folder that defines PQLAB_MLKEM_NATIVE_<KERNEL> /
 * PQLAB_MLDSA_NATIVE_<KERNEL> for each kernel it replaces (contracts in lib/mlkem/kernels.h,
 * lib/mldsa/kernels.h) */
#define PQLAB_MLKEM_BACKEND_HEADER "mlkem_native.h" /* mlkem_ntt.c: ntt, invntt, basemul_acc; sample.c: rej_bulk */
#define PQLAB_MLDSA_BACKEND_HEADER                                                                                     \
    "mldsa_native.h" /* mldsa_ntt.c: ntt, invntt, pointwise(_acc); mldsa_ntt16.c: ntt16, mul16_add; mldsa_poly.c: decompose, make_hint_low, chknorm; sample.c: rej_uniform, poly_rej_bounded, ball_swap */

/* FN-DSA: the NTT / inverse NTT modulo 12289 (fndsa_modq.c, tables from
 * lib/native/fndsa_modq_zetas.h, shared with modq.c; contract lib/native/fndsa_modq.h); declines logn < 6 */
#define PQLAB_FNDSA_MODQ_NATIVE 1
/* FN-DSA: the coefficient-wise mod-q work of complete_private, the public key and signing's end
 * (fndsa_modq.c: inverses as a fixed chain of Montgomery products, 16 lanes at a time, products,
 * conversions from int8 and from doubles, the norm; contract lib/native/fndsa_modq.h); declines logn < 4 */
#define PQLAB_FNDSA_MODQ_SIGN_NATIVE 1

/* FN-DSA key generation's and Hawk's NTT / inverse NTT / pointwise product modulo 31-bit primes
 * (fndsa_modp.c, contract lib/native/fndsa_modp.h): four lanes, SQDMULH/SHSUB Montgomery products */
#define PQLAB_FNDSA_MODP_NATIVE 1

/* FN-DSA: the FFT layer on native doubles (fndsa_fft.c, contract lib/native/fndsa_fft.h): FFT,
 * inverse FFT, split / merge, the coefficient-wise products and LDL, bit for bit the doubles
 * of lib/fndsa/fft.c; used by the implementation with PQLAB_FNDSA_FPR_NATIVE (fpu) only */
#define PQLAB_FNDSA_FFT_NATIVE 1

/* FN-DSA: the base sampler's comparison with the 18 RCDT entries, nine vectors (fndsa_fft.c,
 * contract lib/native/fndsa_sampler.h); every FN-DSA implementation */
#define PQLAB_FNDSA_RCDT_NATIVE 1
/* FN-DSA: the sampler's PRNG refill, eight ChaCha20 blocks as two 4-way passes (fndsa_fft.c) */
#define PQLAB_FNDSA_PRNG_NATIVE 1
/* FN-DSA: BerExp's threshold for the native-double fpr layer (fndsa_sampler.c): FCVTZS for the
 * truncations, the C's UMULH Horner chain; implementation `fpu` only */
#define PQLAB_FNDSA_BEREXP_NATIVE 1

/* Hawk signing (hawk_sign.c, contract lib/native/hawk_sign.h): SamplerSign's table count, two
 * samples per vector, and the GF(2) products t0, t1 with the accumulator in registers */
#define PQLAB_HAWK_SAMPLER_NATIVE 1
#define PQLAB_HAWK_MUL2_NATIVE 1

#endif
