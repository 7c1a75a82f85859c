/* SPDX-License-Identifier: MIT */
/* The backend contract: every kernel of the portable library that a native backend
 * (lib/native/<arch>/, docs/native.md) may replace, with the bounds its inputs satisfy and
 * its outputs must satisfy. The frontends (lib/common, lib/mlkem, lib/mldsa, lib/fndsa,
 * lib/slhdsa, lib/compat) include this header and never an architecture folder.
 *
 * Selection. A backend's backend.toml defines PQLAB_NATIVE_META_HEADER, the path (relative
 * to this folder) of its one meta header, e.g. "armv7em/meta.h". The meta header says which
 * kernels the backend provides: it defines the PQLAB_*_NATIVE macros named below (one per
 * kernel or kernel group) and, for ML-KEM and ML-DSA, may define
 * PQLAB_MLKEM_BACKEND_HEADER / PQLAB_MLDSA_BACKEND_HEADER (the per-family headers that
 * declare the native kernels, lib/mlkem/kernels.h and lib/mldsa/kernels.h). Everything it
 * does not define falls back to the portable C, and a platform without a backend builds the
 * portable code only. (A define given on the command line or in backend.toml works the same
 * way; the meta header is where a backend lists them.)
 *
 * Contract checks. With -DPQLAB_CONTRACT_CHECKS (pqlab test --contract-checks, a debug
 * build), the dispatchers check each kernel's input bounds at entry and output bounds at exit
 * (PQLAB_CONTRACT below) and stop the program through pqlab_contract_failed
 * (lib/common/contract.c) on the first violation. Without it the checks compile to nothing.
 *
 * Run-time decline. A kernel may refuse a call it does not handle (a length it was not
 * written for, a CPU feature missing at run time): such a kernel is declared returning int,
 * PQLAB_NATIVE_DONE (0) when it did the work, PQLAB_NATIVE_DECLINED when it wrote nothing;
 * its dispatcher is PQLAB_NATIVE_TRY(native call, C call), which runs the C version on a
 * decline. The decline must depend on public values only (lengths, parameters, CPU
 * features), never on secret data. Kernels declared with the C version's prototype (void)
 * never decline.
 *
 * Kernel families and their contracts:
 *
 *  Keccak (lib/common/fips202.c, the only frontend that sees the state layout; the other
 *  code uses the narrow interface of lib/common/fips202.h):
 *   PQLAB_KECCAKF1600_NATIVE    the declarations below: the permutation on the standard
 *                               layout and on the backend's own state layout, and the lane
 *                               conversions between them. Any 25-word state is a valid input.
 *   PQLAB_KECCAKF1600_NATIVE_STD  instead of the above, for a backend whose layout is the
 *                               standard one: pqlab_keccakf1600_native_std (below), which may
 *                               decline (the portable permutation runs); fips202.c keeps its
 *                               standard-layout byte interface.
 *   PQLAB_KECCAKF1600X4_NATIVE  pqlab_keccakf1600x4 (lib/common/fips202x4.h): four
 *                               permutations of the module layout in one call.
 *   PQLAB_KECCAKX4_NATIVE       the whole of fips202x4.h (its own state layout).
 *   PQLAB_KECCAK_BLOCKS_NATIVE  with the standard layout only (no PQLAB_KECCAKF1600_NATIVE):
 *                               the sponge loops below, which fips202.c calls for the complete
 *                               blocks of an absorb and for a squeeze that starts a block (a
 *                               hardware unit keeps the state inside for the blocks of one
 *                               call); fips202x4.c then runs its four lanes through them.
 *
 *  SHA-256 (lib/common/sha2.c):
 *   PQLAB_SHA256_COMPRESS_NATIVE  pqlab_sha256_compress_native (below), may decline.
 *
 *  ML-KEM (FIPS 203): lib/mlkem/kernels.h, its table "Kernel / input bounds / output bounds"
 *   (ntt, invntt, basemul_acc, the byte codecs, compression, sample_ntt(_x4), matacc(_x4),
 *   cbd); PQLAB_MLKEM_NATIVE_<KERNEL>, declared in PQLAB_MLKEM_BACKEND_HEADER.
 *  ML-DSA (FIPS 204): lib/mldsa/kernels.h, the bounds in the comment of each kernel (ntt,
 *   invntt_tomont, pointwise(_acc)_mont, reduce32, caddq, power2round, decompose, hints,
 *   chknorm, rejection samplers, expand_mask, packing); PQLAB_MLDSA_NATIVE_<KERNEL>, declared
 *   in PQLAB_MLDSA_BACKEND_HEADER.
 *  FN-DSA (FIPS 206 draft / Falcon):
 *   PQLAB_FNDSA_FPR_EMU_NATIVE  the emulated binary64 of/add/addsub/mul/div/sqrt (below):
 *                               bit-for-bit the results of lib/fndsa/fpr_emu.c, constant
 *                               time; PQLAB_FNDSA_FPR_EMU_INLINE_HEADER (optional) names a
 *                               header with static inline pqlab_fndsa_fpr_add_inline,
 *                               _addsub_inline and _mul_inline, the same operations inlined.
 *   PQLAB_FNDSA_MODP_NATIVE     key generation's mod-p NTT / inverse NTT / pointwise product
 *                               (contract: fndsa_modp.h in this folder)
 *   PQLAB_FNDSA_MODQ_NATIVE     the NTT / inverse NTT modulo q = 12289 of verification, the
 *                               public key and complete_private; with
 *                               PQLAB_FNDSA_MODQ_POLYMUL_NATIVE also verification's ring
 *                               product (contract: fndsa_modq.h)
 *   PQLAB_FNDSA_MODQ_SIGN_NATIVE  the coefficient-wise mod-q work around those transforms
 *                               (inverses, products, conversions, the norm of signing's end;
 *                               contract: fndsa_modq.h)
 *   PQLAB_FNDSA_FFT_NATIVE      the FFT layer of the native-double fpr (lib/fndsa/fft.c with
 *                               PQLAB_FNDSA_FPR_NATIVE): FFT, inverse FFT, split / merge,
 *                               coefficient-wise products, LDL (contract: fndsa_fft.h)
 *   PQLAB_FNDSA_RCDT_NATIVE     the base sampler's count of RCDT entries above a 72-bit value
 *                               (contract: fndsa_sampler.h)
 *   PQLAB_FNDSA_PRNG_NATIVE     the sampler's PRNG refill, eight ChaCha20 blocks
 *                               (contract: fndsa_sampler.h)
 *   PQLAB_FNDSA_BEREXP_NATIVE   BerExp's threshold 2^64 ccs exp(-x) on native doubles
 *                               (contract: fndsa_sampler.h)
 *   PQLAB_FNDSA_GCD_NATIVE      the binary GCD's lin31 / gcd31 / finish_mod / neg31
 *                               (contract: fndsa_gcd.h)
 *   PQLAB_FNDSA_ZINT_NATIVE     the big-integer kernels (contract: fndsa_zint.h)
 *   PQLAB_FNDSA_GAUSS_NATIVE    Falcon-512 key generation's two-sample table sampler
 *                               (contract: fndsa_gauss.h)
 *
 *  Hawk (lib/hawk/sampler.c, contract: hawk_sign.h):
 *   PQLAB_HAWK_SAMPLER_NATIVE   SamplerSign's table count for 16 samples
 *   PQLAB_HAWK_MUL2_NATIVE      the GF(2)[x]/(x^n - 1) products t0, t1 of signing
 *  HQC (lib/hqc, contract: hqc.h):
 *   PQLAB_HQC_GF2X_NATIVE       the schoolbook base case of the F_2[x] multiplication
 *   PQLAB_HQC_SUPPORT_NATIVE    positions (a sparse vector's support) XORed into a vector
 *   PQLAB_HQC_RM_NATIVE         the duplicated Reed-Muller decoder
 *
 * Adding a kernel: docs/native.md, "Adding a kernel". */
#ifndef PQLAB_NATIVE_API_H
#define PQLAB_NATIVE_API_H

#include "pqlab_config.h" /* an export's configuration (docs/export.md); empty in the tree */

#include <stddef.h>
#include <stdint.h>

#ifdef PQLAB_NATIVE_META_HEADER
#include PQLAB_NATIVE_META_HEADER
#endif

/* ---- contract checks and run-time decline ---- */

#ifdef PQLAB_CONTRACT_CHECKS
/* reports "contract: <kernel>: <what>" and ends the program (lib/common/contract.c) */
void pqlab_contract_failed(const char *kernel, const char *what) __attribute__((noreturn));
#define PQLAB_CONTRACT(kernel, cond, what)                                                                             \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            pqlab_contract_failed((kernel), (what));                                                                   \
        }                                                                                                              \
    } while (0)
#else
#define PQLAB_CONTRACT(kernel, cond, what) ((void)0)
#endif

#define PQLAB_NATIVE_DONE 0
#define PQLAB_NATIVE_DECLINED 1
/* native call returning int; the C call runs when it declined */
#define PQLAB_NATIVE_TRY(native_call, c_call)                                                                          \
    do {                                                                                                               \
        if ((native_call) != PQLAB_NATIVE_DONE) {                                                                      \
            c_call;                                                                                                    \
        }                                                                                                              \
    } while (0)

/* ---- Keccak-f[1600] (FIPS 202), PQLAB_KECCAKF1600_NATIVE ----
 * Called by lib/common/fips202.c only (fips202.h is the interface for everything else).
 * The backend's state layout: lane i held as E | O << 32, E = its even bits, O = its odd
 * bits (bit-interleaving, docs/native.md); a backend with another layout provides the same
 * four functions for it. Inputs: any state; any alignment of the byte buffers; nlanes <= 25
 * and s + nlanes inside the state. Constant time. */
void pqlab_keccakf1600_native(uint64_t s[25]);    /* standard layout (lane x + 5y, little-endian) */
void pqlab_keccakf1600_native_il(uint64_t s[25]); /* the backend's layout */
/* XOR nlanes little-endian lanes of `in` into s (backend layout) */
void pqlab_keccak_native_xor_il(uint64_t *s, const uint8_t *in, unsigned int nlanes);
/* nlanes lanes of s (backend layout) out as little-endian bytes */
void pqlab_keccak_native_extract_il(uint8_t *out, const uint64_t *s, unsigned int nlanes);

/* PQLAB_KECCAK_BLOCKS_NATIVE: sponge loops on the standard layout (FIPS 202 Algorithm 8).
 * absorbblocks: for each of nblocks blocks of `rate` bytes at `in`, XOR the block into the
 * first rate bytes of s, then Keccak-f[1600]. squeeze: outlen bytes as blocks of `rate` bytes,
 * the last one possibly partial: for each, Keccak-f[1600], then the block's bytes from the
 * start of s. rate a multiple of 8 in 8..192, nblocks and outlen >= 0, any alignment of the
 * byte buffers; s holds the state before and after the call (nothing is kept elsewhere
 * between calls). Constant time in the data. */
void pqlab_keccak_native_absorbblocks(uint64_t s[25], const uint8_t *in, size_t nblocks, unsigned int rate);
void pqlab_keccak_native_squeeze(uint8_t *out, size_t outlen, uint64_t s[25], unsigned int rate);

/* PQLAB_KECCAKF1600_NATIVE_STD: Keccak-f[1600] on the standard layout (lane x + 5y,
 * little-endian); PQLAB_NATIVE_DONE, or PQLAB_NATIVE_DECLINED with s untouched (e.g. a CPU
 * feature missing at run time). Any state; constant time. */
int pqlab_keccakf1600_native_std(uint64_t s[25]);

/* ---- SHA-256 compression (FIPS 180-4 6.2.2), PQLAB_SHA256_COMPRESS_NATIVE ----
 * h: H0..H7; nblocks consecutive 64-byte blocks, any alignment, nblocks >= 0. Returns
 * PQLAB_NATIVE_DONE, or PQLAB_NATIVE_DECLINED with h untouched. Constant time. */
int pqlab_sha256_compress_native(uint32_t h[8], const uint8_t *blocks, size_t nblocks);

/* ---- FN-DSA emulated binary64, PQLAB_FNDSA_FPR_EMU_NATIVE ----
 * The values are IEEE 754 binary64 bit patterns (lib/fndsa/fpr.h, `fpr` in the emulated
 * build); the results are those of fpr_emu.c bit for bit, for every input. */
uint64_t pqlab_fndsa_fpr_of_native(int64_t i);
uint64_t pqlab_fndsa_fpr_add_native(uint64_t x, uint64_t y);
void pqlab_fndsa_fpr_addsub_native(uint64_t x, uint64_t y, uint64_t *sum, uint64_t *diff);
uint64_t pqlab_fndsa_fpr_mul_native(uint64_t x, uint64_t y);
uint64_t pqlab_fndsa_fpr_div_native(uint64_t x, uint64_t y);
uint64_t pqlab_fndsa_fpr_sqrt_native(uint64_t x);
#if defined(PQLAB_FNDSA_FPR_EMU_NATIVE) && defined(PQLAB_FNDSA_FPR_EMU_INLINE_HEADER)
#include PQLAB_FNDSA_FPR_EMU_INLINE_HEADER
#endif

/* ---- FN-DSA kernels: the contracts (bounds in each header) ---- */
#include "fndsa_modp.h"
#include "fndsa_modq.h"
#include "fndsa_gcd.h"
#include "fndsa_zint.h"
#include "fndsa_gauss.h"

/* ---- Hawk signing kernels: the contract in hawk_sign.h ---- */
#include "hawk_sign.h"

/* ---- HQC kernels: the contract in hqc.h ---- */
#include "hqc.h"

#endif
