/* SPDX-License-Identifier: MIT */
/* ML-KEM kernel interface: the hot, self-contained operations of FIPS 203 that a
 * native backend (lib/native/<arch>/) may replace one by one.
 *
 * Every kernel has a portable C version, NAME_c, that is always compiled (so a
 * native kernel can be tested differentially against it), and a dispatcher NAME
 * (static inline, below) that the frontend calls. A backend is selected with
 *   -DPQLAB_MLKEM_BACKEND_HEADER='"mlkem_native.h"'
 * That header defines PQLAB_MLKEM_NATIVE_<KERNEL> for each kernel it replaces and
 * declares the replacement as PQLAB_NAMESPACE(<name>_native) with the prototype
 * of the C version; everything it does not define falls back to C.
 *
 * Representation (the contract every implementation of a kernel must keep):
 *  - A polynomial is 256 int16_t coefficients, a signed representative of Z_q,
 *    q = 3329. "canonical" means 0 <= c < q; "reduced" means |c| <= (q-1)/2.
 *  - NTT domain order is the output order of FIPS 203 Algorithm 9 (pairs
 *    (c[2i], c[2i+1]) are the degree-1 residues modulo X^2 - zeta^(2BitRev7(i)+1)),
 *    which is the order of the encoded t_hat in ek and of SampleNTT's output.
 *  - Montgomery convention (R = 2^16): basemul_acc adds a o b * R^-1 (FIPS 203
 *    Algorithm 11 times R^-1); invntt returns NTT^-1(a) * R. The two factors
 *    cancel, so invntt(sum of basemul_acc) is the product of FIPS 203.
 *
 * Kernel            FIPS 203         input bounds              output bounds
 *  ntt              Algorithm 9      |c| < q                   |c| < q (the C: reduced;
 *                                                              before 2026-11-27: reduced)
 *  invntt           Algorithm 10 *R  |c| < 4q (every call: at  |c| < q
 *                                    most 4 basemul terms;
 *                                    the C takes any int16)
 *  invntt_q         as invntt        |c| < q (the reduced rows  |c| < q
 *                                    of the 32-bit product)
 *  basemul_acc      Algorithm 11,12  a,b: |c| < q; r: |r| <=   r + (a o b R^-1) where
 *                   times R^-1       6q (room for 4 terms)     each term is < q
 *  canonical        c mod q          |c| < 2q (every call      canonical
 *                                    site; the C takes any int16)
 *  tomont_add       r R^2 R^-1 + b   r any int16, |b| <= q     |r| < q + |b| (cancels the
 *                                                              R^-1 of basemul_acc)
 *  tobytes12        ByteEncode_12    |c| < 2q (reduced mod q   384 bytes
 *                   of c mod q       inside: canonical fused)
 *  frombytes12      ByteDecode_12    any 384 bytes             canonical (mod q as Alg. 6)
 *  compress_du/dv   Compress_d +     |c| < 2q (reduced mod q   32*d bytes
 *                   ByteEncode_d     inside: canonical fused)
 *                   of c mod q
 *  decompress_du/dv ByteDecode_d +   32*d bytes                canonical
 *                   Decompress_d
 *  frommsg          Decompress_1 o ByteDecode_1   32 bytes     0 or (q+1)/2
 *  frommsg_add      r + frommsg      r: |c| < 2^15 - 1665;     r + (0 or (q+1)/2)
 *                   (C only)         32 bytes
 *  tomsg            ByteEncode_1 o Compress_1     canonical    32 bytes
 *  tomsg_sub        tomsg of v - w   v canonical, |w| < q     32 bytes; w may be overwritten
 *                   mod q (Alg. 15 lines 6, 7)                (a backend may fuse; else the
 *                                                             C subtracts, canonical, tomsg)
 *  add              r + b            |r + b| < 2^15            r + b (int16)
 *  check12          section 7.2      12 m bytes (m >= 1)       0 iff every 12-bit value
 *                   modulus check                              of ByteDecode_12's input < q
 *  sample_ntt       Algorithm 7      34-byte XOF input         canonical, NTT domain
 *  sample_ntt_x4    4 x Algorithm 7 with the 4-way SHAKE128
 *  basemul_pairs    Algorithm 12 on   a (a separate array of   r + (a o b R^-1) on
 *                   pairs p..p+n-1   pairs), b: |c| < q        those pairs, as basemul_acc
 *  rej_bulk         Algorithm 7      12 g bytes: every 12-bit  returns the count n <= 8 g;
 *                   lines 5-15, no   value d < q appended to   cand[0..n-1] written
 *                   count limit      cand in order
 *  mulcache         the b1 gamma     b: |c| < q                bg[i] = b[2i+1] gamma_i mod q,
 *                   products of Alg. 12                        |bg| < q (Montgomery product
 *                                                              with the table's gamma R)
 *  ntt_unreduced    ntt without the  |c| < q                   |c| < 2^14 (a backend may leave
 *                   final reduction                            the last layer unreduced; else
 *                                                              ntt runs; h101)
 *  ntt_cache        ntt, then        |c| < q                   as ntt; bg as mulcache of the
 *                   mulcache of the result                     result (a backend may fuse
 *                                                              them; else ntt + mulcache run)
 *  ntt_cache_       ntt_cache, then  |c| < q                   as ntt_cache; 384 bytes out =
 *  tobytes12        ByteEncode_12 of                           ByteEncode_12(r mod q) (a backend
 *                   the result mod q                           may fuse; else ntt_cache +
 *                   (s_hat into dk_PKE; h101)                  tobytes12 run)
 *  basemul_pairs32  Algorithm 12,    a, b, bg: |c| < q          r + (a0 b0 + a1 bg, a0 b1 + a1 b0)
 *                   unreduced, 32-bit (bg = mulcache of b)      per pair: exact, each term
 *                   accumulator                                 |t| < 2q^2 (no factor R^-1)
 *  basemul_pairs32_ basemul_pairs32  as basemul_pairs32        the first nadd pairs added, the
 *  split            on nadd pairs,                             next nset pairs r = (a0 b0 +
 *                   then r set on                              a1 bg, a0 b1 + a1 b0), r not
 *                   nset more                                  read (a backend may have it;
 *                                                              else basemul_pairs32, clearing,
 *                                                              basemul_pairs32; h101)
 *  basemul12_       basemul_pairs32  a: any 384 bytes (its     as basemul_pairs32 on all 128
 *  pairs32_check    of a = frombytes12 encoding), b, bg as      pairs with a = frombytes12(a),
 *                   (a backend may   basemul_pairs32, bg        and check12's verdict on the
 *                   fuse; else       word-aligned               384 bytes
 *                   frombytes12 + basemul_pairs32, then check12 run)
 *  basemul12_pairs32 the same without the verdict (decapsulation's re-encryption: FIPS 203
 *                   section 7.3 has no modulus check); the fused kernel if the backend has
 *                   one (its verdict is dropped), else frombytes12 + basemul_pairs32 only.
 *                   Both with set != 0 (a public flag): r = the products, r's contents
 *                   ignored (the first term: no cleared accumulator needed; h92)
 *  reduce32         Montgomery       |c| < q 2^15 (int32)       c R^-1 mod q, |c| < q
 *                   reduction of a 32-bit accumulator
 *  reduce32_add     c mod q + b      a: |c| < q 2^15 (int32),   |r - b| <= 1699 (Barrett, no
 *                   (no factor R)    b: |c| < q                 R^-1)
 *  reduce32_add_    ByteEncode_12 of a: |c| < q 2^15 (int32),  384 bytes into out and out2
 *  tobytes12        (a + b) mod q    b: |c| < 2^14 (since h101: (two outputs: ek and dk's
 *                   (key generation's ntt_unreduced's output)  copy of it); b may be
 *                   t_hat row)                                 overwritten (a backend may
 *                                                              fuse; else reduce32_add into
 *                                                              b, Barrett, tobytes12 twice)
 *  matacc(_x4)      Algorithm 7 fused  vec, cache: |c| < q;    acc + SampleNTT(..) o vec, exact
 *                   into 11, 12         acc 32-bit             (basemul_pairs32; the frontend's
 *                                                              matrix kernel); matacc_x4's
 *                                                              lanes with bit t of `fresh`:
 *                                                              acc = the sum of their products,
 *                                                              its contents ignored (h101)
 *  cbd_eta1/eta2    Algorithm 8      64*eta bytes              |c| <= eta
 *  cbd_eta2_add     r + Algorithm 8  r: |c| <= 2^15 - 3         r + (values |.| <= eta2)
 *  cbd_eta2_add_    Compress_du of   r: |c| <= 2q - 3           32*du bytes; r may be
 *  compress_du      r + Algorithm 8                             overwritten (a backend may
 *                                                              fuse; else cbd_eta2_add into
 *                                                              r, compress_du)
 *  msg_cbd_eta2_    Compress_dv of   r: |c| <= 2q - 1668;       32*dv bytes; r may be
 *  add_compress_dv  r + Decompress_1 32 msg bytes               overwritten (a backend may
 *                   (ByteDecode_1(msg)) + Algorithm 8           fuse; else frommsg_add,
 *                   (Alg. 14 lines 20-23: v + mu + e2)          cbd_eta2_add, compress_dv)
 */
#ifndef PQLAB_MLKEM_KERNELS_H
#define PQLAB_MLKEM_KERNELS_H

#include <stdint.h>
#include "params.h"
#include "../native/api.h" /* the backend contract: its meta header names the backend header */

typedef struct {
    _Alignas(8) int16_t c[MLKEM_N];
} mlkem_poly;

/* A 32-bit accumulator of unreduced base multiplications (basemul_pairs32), reduced once
 * with reduce32: k <= 4 terms of |t| < 2q^2 stay below q 2^15, Montgomery's input bound. */
typedef struct {
    _Alignas(8) int32_t c[MLKEM_N];
} mlkem_poly32;

/* The products b[2i+1] gamma_i mod q of a polynomial b (mulcache), computed once per vector
 * polynomial and used by every base multiplication with it. */
typedef struct {
    _Alignas(4) int16_t c[MLKEM_N / 2];
} mlkem_polycache;

#ifdef PQLAB_MLKEM_BACKEND_HEADER
#include PQLAB_MLKEM_BACKEND_HEADER
#endif

#define mlkem_ntt_c PQLAB_NAMESPACE(mlkem_ntt_c)
#define mlkem_invntt_c PQLAB_NAMESPACE(mlkem_invntt_c)
#define mlkem_basemul_acc_c PQLAB_NAMESPACE(mlkem_basemul_acc_c)
#define mlkem_canonical_c PQLAB_NAMESPACE(mlkem_canonical_c)
#define mlkem_tomont_add_c PQLAB_NAMESPACE(mlkem_tomont_add_c)
#define mlkem_tobytes12_c PQLAB_NAMESPACE(mlkem_tobytes12_c)
#define mlkem_frombytes12_c PQLAB_NAMESPACE(mlkem_frombytes12_c)
#define mlkem_compress_du_c PQLAB_NAMESPACE(mlkem_compress_du_c)
#define mlkem_decompress_du_c PQLAB_NAMESPACE(mlkem_decompress_du_c)
#define mlkem_compress_dv_c PQLAB_NAMESPACE(mlkem_compress_dv_c)
#define mlkem_decompress_dv_c PQLAB_NAMESPACE(mlkem_decompress_dv_c)
#define mlkem_frommsg_c PQLAB_NAMESPACE(mlkem_frommsg_c)
#define mlkem_frommsg_add_c PQLAB_NAMESPACE(mlkem_frommsg_add_c)
#define mlkem_tomsg_c PQLAB_NAMESPACE(mlkem_tomsg_c)
#define mlkem_sample_ntt_c PQLAB_NAMESPACE(mlkem_sample_ntt_c)
#define mlkem_sample_ntt_x4_c PQLAB_NAMESPACE(mlkem_sample_ntt_x4_c)
#define mlkem_basemul_pairs_c PQLAB_NAMESPACE(mlkem_basemul_pairs_c)
#define mlkem_rej_bulk_c PQLAB_NAMESPACE(mlkem_rej_bulk_c)
#define mlkem_mulcache_c PQLAB_NAMESPACE(mlkem_mulcache_c)
#define mlkem_basemul_pairs32_c PQLAB_NAMESPACE(mlkem_basemul_pairs32_c)
#define mlkem_reduce32_c PQLAB_NAMESPACE(mlkem_reduce32_c)
#define mlkem_reduce32_add_c PQLAB_NAMESPACE(mlkem_reduce32_add_c)
#define mlkem_matacc_c PQLAB_NAMESPACE(mlkem_matacc_c)
#define mlkem_matacc_x4_c PQLAB_NAMESPACE(mlkem_matacc_x4_c)
#define mlkem_cbd_eta1_c PQLAB_NAMESPACE(mlkem_cbd_eta1_c)
#define mlkem_cbd_eta2_c PQLAB_NAMESPACE(mlkem_cbd_eta2_c)
#define mlkem_cbd_eta2_add_c PQLAB_NAMESPACE(mlkem_cbd_eta2_add_c)
#define mlkem_add_c PQLAB_NAMESPACE(mlkem_add_c)
#define mlkem_check12_c PQLAB_NAMESPACE(mlkem_check12_c)

void mlkem_ntt_c(mlkem_poly *r);
void mlkem_invntt_c(mlkem_poly *r);
void mlkem_basemul_acc_c(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b);
void mlkem_canonical_c(mlkem_poly *r);
void mlkem_tomont_add_c(mlkem_poly *r, const mlkem_poly *b);
void mlkem_tobytes12_c(uint8_t out[MLKEM_POLYBYTES], const mlkem_poly *a);
void mlkem_frombytes12_c(mlkem_poly *r, const uint8_t in[MLKEM_POLYBYTES]);
void mlkem_compress_du_c(uint8_t out[MLKEM_POLYCOMPRESSED_DU], const mlkem_poly *a);
void mlkem_decompress_du_c(mlkem_poly *r, const uint8_t in[MLKEM_POLYCOMPRESSED_DU]);
void mlkem_compress_dv_c(uint8_t out[MLKEM_POLYCOMPRESSED_DV], const mlkem_poly *a);
void mlkem_decompress_dv_c(mlkem_poly *r, const uint8_t in[MLKEM_POLYCOMPRESSED_DV]);
void mlkem_frommsg_c(mlkem_poly *r, const uint8_t msg[MLKEM_SYMBYTES]);
void mlkem_frommsg_add_c(mlkem_poly *r, const uint8_t msg[MLKEM_SYMBYTES]);
void mlkem_tomsg_c(uint8_t msg[MLKEM_SYMBYTES], const mlkem_poly *a);
/* seed = rho (32 bytes); the XOF input is rho || x || y (FIPS 203 Algorithm 7 input B). */
void mlkem_sample_ntt_c(mlkem_poly *r, const uint8_t rho[MLKEM_SYMBYTES], uint8_t x, uint8_t y);
/* four entries at once; xy[2t], xy[2t+1] are the two index bytes of entry t. */
void mlkem_sample_ntt_x4_c(mlkem_poly *r0, mlkem_poly *r1, mlkem_poly *r2, mlkem_poly *r3,
                           const uint8_t rho[MLKEM_SYMBYTES], const uint8_t xy[8]);
/* r, b point at pair p (coefficient 2p), a at its first pair; n pairs, p + n <= 128. The
 * building block of the fused matrix kernels (a = the sampled entry's coefficients). */
void mlkem_basemul_pairs_c(int16_t *r, const int16_t *a, const int16_t *b, unsigned int p, unsigned int n);
/* bg = the b1 gamma products of b (128 values). */
void mlkem_mulcache_c(mlkem_polycache *bg, const mlkem_poly *b);
/* r[2i] += a[2i] b[2i] + a[2i+1] bg[i], r[2i+1] += a[2i] b[2i+1] + a[2i+1] b[2i] for i < n:
 * Algorithm 12 without reduction (bg the mulcache entries of b's pairs); r, b at the same
 * pair, a and bg at theirs. */
void mlkem_basemul_pairs32_c(int32_t *r, const int16_t *a, const int16_t *b, const int16_t *bg, unsigned int n);
/* r = a R^-1 mod q (Montgomery) coefficient-wise. */
void mlkem_reduce32_c(mlkem_poly *r, const mlkem_poly32 *a);
/* r = (a mod q) + b coefficient-wise (Barrett, without the factor R^-1: a row of key
 * generation, t_hat = A_hat s_hat + e_hat). r may be b. */
void mlkem_reduce32_add_c(mlkem_poly *r, const mlkem_poly32 *a, const mlkem_poly *b);
/* The candidates of 12 g bytes of XOF output (Algorithm 7 lines 5-15 as long as at least 8
 * coefficients are still missing, so no count test is needed); cand has room for 8 g. */
unsigned int mlkem_rej_bulk_c(int16_t *cand, const uint8_t *buf, unsigned int g);
/* Fused matrix kernels (what the frontend uses for A_hat): acc += SampleNTT(rho || x || y) o vec,
 * unreduced in 32 bits (basemul_pairs32 with cache = mulcache of vec), without storing the
 * matrix entry. The x4 form does four entries with the 4-way SHAKE128; two lanes may share an
 * accumulator. Bounds as basemul_pairs32. fresh (x4 form; public): bit t set = acc[t] holds
 * no sum yet, its contents are ignored and it ends as the sum of the products of the lanes
 * that share it (lanes sharing an accumulator have the same bit): no cleared accumulator
 * is needed (since h101; the first write to each pair uses basemul_pairs32_split's set part). */
void mlkem_matacc_c(mlkem_poly32 *acc, const mlkem_poly *vec, const mlkem_polycache *cache,
                    const uint8_t rho[MLKEM_SYMBYTES], uint8_t x, uint8_t y);
void mlkem_matacc_x4_c(mlkem_poly32 *const acc[4], const mlkem_poly *const vec[4],
                       const mlkem_polycache *const cache[4], const uint8_t rho[MLKEM_SYMBYTES], const uint8_t xy[8],
                       unsigned int fresh);
/* Not a kernel (no native form): matacc with the vector polynomial given as its
 * ByteEncode_12 encoding of canonical values (the stack-first frontend keeps vectors
 * encoded); one lane of SHAKE128. */
#define mlkem_matacc_packed PQLAB_NAMESPACE(mlkem_matacc_packed)
void mlkem_matacc_packed(mlkem_poly *acc, const uint8_t vecb[MLKEM_POLYBYTES], const uint8_t rho[MLKEM_SYMBYTES],
                         uint8_t x, uint8_t y);
void mlkem_cbd_eta1_c(mlkem_poly *r, const uint8_t buf[64 * MLKEM_ETA1]);
void mlkem_cbd_eta2_c(mlkem_poly *r, const uint8_t buf[64 * MLKEM_ETA2]);
/* r += SamplePolyCBD_eta2(buf), without a polynomial buffer for the noise. */
void mlkem_cbd_eta2_add_c(mlkem_poly *r, const uint8_t buf[64 * MLKEM_ETA2]);
void mlkem_add_c(mlkem_poly *r, const mlkem_poly *b);
/* nbytes a multiple of 12, at least 12; nonzero iff some 12-bit value is >= q. */
uint32_t mlkem_check12_c(const uint8_t *in, unsigned int nbytes);

/* Dispatchers: a backend's kernel if it declares one, else the portable C. */
#define PQLAB_MLKEM_DISPATCH(NAME, NATIVE, PROTO, ARGS)                                                                \
    static inline void NAME PROTO                                                                                      \
    {                                                                                                                  \
        NATIVE ARGS;                                                                                                   \
    }

#ifdef PQLAB_MLKEM_NATIVE_NTT
#define MLKEM_NTT_IMPL PQLAB_NAMESPACE(mlkem_ntt_native)
#else
#define MLKEM_NTT_IMPL mlkem_ntt_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_INVNTT
#define MLKEM_INVNTT_IMPL PQLAB_NAMESPACE(mlkem_invntt_native)
#else
#define MLKEM_INVNTT_IMPL mlkem_invntt_c
#endif
/* invntt_q: a backend's own form for input |c| < q, else whatever invntt runs (its contract,
 * |c| < 4q, includes |c| < q): no C version of its own. */
#ifdef PQLAB_MLKEM_NATIVE_INVNTT_Q
#define MLKEM_INVNTT_Q_IMPL PQLAB_NAMESPACE(mlkem_invntt_q_native)
#else
#define MLKEM_INVNTT_Q_IMPL MLKEM_INVNTT_IMPL
#endif
#ifdef PQLAB_MLKEM_NATIVE_BASEMUL_ACC
#define MLKEM_BASEMUL_ACC_IMPL PQLAB_NAMESPACE(mlkem_basemul_acc_native)
#else
#define MLKEM_BASEMUL_ACC_IMPL mlkem_basemul_acc_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_CANONICAL
#define MLKEM_CANONICAL_IMPL PQLAB_NAMESPACE(mlkem_canonical_native)
#else
#define MLKEM_CANONICAL_IMPL mlkem_canonical_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_TOMONT_ADD
#define MLKEM_TOMONT_ADD_IMPL PQLAB_NAMESPACE(mlkem_tomont_add_native)
#else
#define MLKEM_TOMONT_ADD_IMPL mlkem_tomont_add_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_TOBYTES12
#define MLKEM_TOBYTES12_IMPL PQLAB_NAMESPACE(mlkem_tobytes12_native)
#else
#define MLKEM_TOBYTES12_IMPL mlkem_tobytes12_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_FROMBYTES12
#define MLKEM_FROMBYTES12_IMPL PQLAB_NAMESPACE(mlkem_frombytes12_native)
#else
#define MLKEM_FROMBYTES12_IMPL mlkem_frombytes12_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_COMPRESS_DU
#define MLKEM_COMPRESS_DU_IMPL PQLAB_NAMESPACE(mlkem_compress_du_native)
#else
#define MLKEM_COMPRESS_DU_IMPL mlkem_compress_du_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_DECOMPRESS_DU
#define MLKEM_DECOMPRESS_DU_IMPL PQLAB_NAMESPACE(mlkem_decompress_du_native)
#else
#define MLKEM_DECOMPRESS_DU_IMPL mlkem_decompress_du_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_COMPRESS_DV
#define MLKEM_COMPRESS_DV_IMPL PQLAB_NAMESPACE(mlkem_compress_dv_native)
#else
#define MLKEM_COMPRESS_DV_IMPL mlkem_compress_dv_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_DECOMPRESS_DV
#define MLKEM_DECOMPRESS_DV_IMPL PQLAB_NAMESPACE(mlkem_decompress_dv_native)
#else
#define MLKEM_DECOMPRESS_DV_IMPL mlkem_decompress_dv_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_FROMMSG
#define MLKEM_FROMMSG_IMPL PQLAB_NAMESPACE(mlkem_frommsg_native)
#else
#define MLKEM_FROMMSG_IMPL mlkem_frommsg_c
#endif
/* frommsg_add: the C only (the fallback of msg_cbd_eta2_add_compress_dv; no backend replaces
 * it since that kernel took it in, 2026-11-27, h92) */
#define MLKEM_FROMMSG_ADD_IMPL mlkem_frommsg_add_c
#ifdef PQLAB_MLKEM_NATIVE_TOMSG
#define MLKEM_TOMSG_IMPL PQLAB_NAMESPACE(mlkem_tomsg_native)
#else
#define MLKEM_TOMSG_IMPL mlkem_tomsg_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_TOMSG_SUB
#define MLKEM_TOMSG_SUB_IMPL PQLAB_NAMESPACE(mlkem_tomsg_sub_native)
#endif
#ifdef PQLAB_MLKEM_NATIVE_SAMPLE_NTT
#define MLKEM_SAMPLE_NTT_IMPL PQLAB_NAMESPACE(mlkem_sample_ntt_native)
#else
#define MLKEM_SAMPLE_NTT_IMPL mlkem_sample_ntt_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_SAMPLE_NTT_X4
#define MLKEM_SAMPLE_NTT_X4_IMPL PQLAB_NAMESPACE(mlkem_sample_ntt_x4_native)
#else
#define MLKEM_SAMPLE_NTT_X4_IMPL mlkem_sample_ntt_x4_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_BASEMUL_PAIRS
#define MLKEM_BASEMUL_PAIRS_IMPL PQLAB_NAMESPACE(mlkem_basemul_pairs_native)
#else
#define MLKEM_BASEMUL_PAIRS_IMPL mlkem_basemul_pairs_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_REJ_BULK
#define MLKEM_REJ_BULK_IMPL PQLAB_NAMESPACE(mlkem_rej_bulk_native)
#else
#define MLKEM_REJ_BULK_IMPL mlkem_rej_bulk_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_MULCACHE
#define MLKEM_MULCACHE_IMPL PQLAB_NAMESPACE(mlkem_mulcache_native)
#else
#define MLKEM_MULCACHE_IMPL mlkem_mulcache_c
#endif
/* ntt_unreduced: a backend's form without the last reduction, else the ntt dispatcher
 * (below; its output |c| < q meets the contract). */
#ifdef PQLAB_MLKEM_NATIVE_NTT_UNREDUCED
#define MLKEM_NTT_UNREDUCED_IMPL PQLAB_NAMESPACE(mlkem_ntt_unreduced_native)
#endif
/* ntt_cache_tobytes12: a backend's fused form, else ntt_cache and tobytes12 (below). */
#ifdef PQLAB_MLKEM_NATIVE_NTT_CACHE_TOBYTES12
#define MLKEM_NTT_CACHE_TOBYTES12_IMPL PQLAB_NAMESPACE(mlkem_ntt_cache_tobytes12_native)
#endif
/* ntt_cache: a backend's fused form, else the ntt and mulcache dispatchers (below): no C
 * version of its own. */
#ifdef PQLAB_MLKEM_NATIVE_NTT_CACHE
#define MLKEM_NTT_CACHE_IMPL PQLAB_NAMESPACE(mlkem_ntt_cache_native)
#endif
#ifdef PQLAB_MLKEM_NATIVE_BASEMUL_PAIRS32
#define MLKEM_BASEMUL_PAIRS32_IMPL PQLAB_NAMESPACE(mlkem_basemul_pairs32_native)
#else
#define MLKEM_BASEMUL_PAIRS32_IMPL mlkem_basemul_pairs32_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_REDUCE32
#define MLKEM_REDUCE32_IMPL PQLAB_NAMESPACE(mlkem_reduce32_native)
#else
#define MLKEM_REDUCE32_IMPL mlkem_reduce32_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_REDUCE32_ADD
#define MLKEM_REDUCE32_ADD_IMPL PQLAB_NAMESPACE(mlkem_reduce32_add_native)
#else
#define MLKEM_REDUCE32_ADD_IMPL mlkem_reduce32_add_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_MATACC
#define MLKEM_MATACC_IMPL PQLAB_NAMESPACE(mlkem_matacc_native)
#else
#define MLKEM_MATACC_IMPL mlkem_matacc_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_MATACC_X4
#define MLKEM_MATACC_X4_IMPL PQLAB_NAMESPACE(mlkem_matacc_x4_native)
#else
#define MLKEM_MATACC_X4_IMPL mlkem_matacc_x4_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_CBD_ETA1
#define MLKEM_CBD_ETA1_IMPL PQLAB_NAMESPACE(mlkem_cbd_eta1_native)
#else
#define MLKEM_CBD_ETA1_IMPL mlkem_cbd_eta1_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_CBD_ETA2
#define MLKEM_CBD_ETA2_IMPL PQLAB_NAMESPACE(mlkem_cbd_eta2_native)
#else
#define MLKEM_CBD_ETA2_IMPL mlkem_cbd_eta2_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_CBD_ETA2_ADD
#define MLKEM_CBD_ETA2_ADD_IMPL PQLAB_NAMESPACE(mlkem_cbd_eta2_add_native)
#else
#define MLKEM_CBD_ETA2_ADD_IMPL mlkem_cbd_eta2_add_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_ADD
#define MLKEM_ADD_IMPL PQLAB_NAMESPACE(mlkem_add_native)
#else
#define MLKEM_ADD_IMPL mlkem_add_c
#endif
#ifdef PQLAB_MLKEM_NATIVE_CHECK12
#define MLKEM_CHECK12_IMPL PQLAB_NAMESPACE(mlkem_check12_native)
#else
#define MLKEM_CHECK12_IMPL mlkem_check12_c
#endif

PQLAB_MLKEM_DISPATCH(mlkem_ntt, MLKEM_NTT_IMPL, (mlkem_poly * r), (r))
PQLAB_MLKEM_DISPATCH(mlkem_invntt, MLKEM_INVNTT_IMPL, (mlkem_poly * r), (r))
PQLAB_MLKEM_DISPATCH(mlkem_invntt_q, MLKEM_INVNTT_Q_IMPL, (mlkem_poly * r), (r))
PQLAB_MLKEM_DISPATCH(mlkem_basemul_acc, MLKEM_BASEMUL_ACC_IMPL,
                     (mlkem_poly * r, const mlkem_poly *a, const mlkem_poly *b), (r, a, b))
PQLAB_MLKEM_DISPATCH(mlkem_canonical, MLKEM_CANONICAL_IMPL, (mlkem_poly * r), (r))
PQLAB_MLKEM_DISPATCH(mlkem_tomont_add, MLKEM_TOMONT_ADD_IMPL, (mlkem_poly * r, const mlkem_poly *b), (r, b))
PQLAB_MLKEM_DISPATCH(mlkem_tobytes12, MLKEM_TOBYTES12_IMPL, (uint8_t out[MLKEM_POLYBYTES], const mlkem_poly *a),
                     (out, a))
PQLAB_MLKEM_DISPATCH(mlkem_frombytes12, MLKEM_FROMBYTES12_IMPL, (mlkem_poly * r, const uint8_t in[MLKEM_POLYBYTES]),
                     (r, in))
PQLAB_MLKEM_DISPATCH(mlkem_compress_du, MLKEM_COMPRESS_DU_IMPL,
                     (uint8_t out[MLKEM_POLYCOMPRESSED_DU], const mlkem_poly *a), (out, a))
PQLAB_MLKEM_DISPATCH(mlkem_decompress_du, MLKEM_DECOMPRESS_DU_IMPL,
                     (mlkem_poly * r, const uint8_t in[MLKEM_POLYCOMPRESSED_DU]), (r, in))
PQLAB_MLKEM_DISPATCH(mlkem_compress_dv, MLKEM_COMPRESS_DV_IMPL,
                     (uint8_t out[MLKEM_POLYCOMPRESSED_DV], const mlkem_poly *a), (out, a))
PQLAB_MLKEM_DISPATCH(mlkem_decompress_dv, MLKEM_DECOMPRESS_DV_IMPL,
                     (mlkem_poly * r, const uint8_t in[MLKEM_POLYCOMPRESSED_DV]), (r, in))
PQLAB_MLKEM_DISPATCH(mlkem_frommsg, MLKEM_FROMMSG_IMPL, (mlkem_poly * r, const uint8_t msg[MLKEM_SYMBYTES]), (r, msg))
PQLAB_MLKEM_DISPATCH(mlkem_frommsg_add, MLKEM_FROMMSG_ADD_IMPL, (mlkem_poly * r, const uint8_t msg[MLKEM_SYMBYTES]),
                     (r, msg))
PQLAB_MLKEM_DISPATCH(mlkem_tomsg, MLKEM_TOMSG_IMPL, (uint8_t msg[MLKEM_SYMBYTES], const mlkem_poly *a), (msg, a))
#ifdef MLKEM_TOMSG_SUB_IMPL
PQLAB_MLKEM_DISPATCH(mlkem_tomsg_sub, MLKEM_TOMSG_SUB_IMPL,
                     (uint8_t msg[MLKEM_SYMBYTES], const mlkem_poly *v, mlkem_poly *w), (msg, v, w))
#else
/* no C kernel of its own: w = v - w in place (-q < w < 2q), canonical, tomsg */
static inline void mlkem_tomsg_sub(uint8_t msg[MLKEM_SYMBYTES], const mlkem_poly *v, mlkem_poly *w)
{
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        w->c[i] = (int16_t)(v->c[i] - w->c[i]);
    }
    mlkem_canonical(w);
    mlkem_tomsg(msg, w);
}
#endif
PQLAB_MLKEM_DISPATCH(mlkem_sample_ntt, MLKEM_SAMPLE_NTT_IMPL,
                     (mlkem_poly * r, const uint8_t rho[MLKEM_SYMBYTES], uint8_t x, uint8_t y), (r, rho, x, y))
PQLAB_MLKEM_DISPATCH(mlkem_sample_ntt_x4, MLKEM_SAMPLE_NTT_X4_IMPL,
                     (mlkem_poly * r0, mlkem_poly *r1, mlkem_poly *r2, mlkem_poly *r3,
                      const uint8_t rho[MLKEM_SYMBYTES], const uint8_t xy[8]),
                     (r0, r1, r2, r3, rho, xy))
PQLAB_MLKEM_DISPATCH(mlkem_basemul_pairs, MLKEM_BASEMUL_PAIRS_IMPL,
                     (int16_t *r, const int16_t *a, const int16_t *b, unsigned int p, unsigned int n), (r, a, b, p, n))
static inline unsigned int mlkem_rej_bulk(int16_t *cand, const uint8_t *buf, unsigned int g)
{
    return MLKEM_REJ_BULK_IMPL(cand, buf, g);
}
PQLAB_MLKEM_DISPATCH(mlkem_mulcache, MLKEM_MULCACHE_IMPL, (mlkem_polycache * bg, const mlkem_poly *b), (bg, b))
#ifdef MLKEM_NTT_CACHE_IMPL
PQLAB_MLKEM_DISPATCH(mlkem_ntt_cache, MLKEM_NTT_CACHE_IMPL, (mlkem_poly * r, mlkem_polycache *bg), (r, bg))
#else
static inline void mlkem_ntt_cache(mlkem_poly *r, mlkem_polycache *bg)
{
    mlkem_ntt(r);
    mlkem_mulcache(bg, r);
}
#endif
#ifdef MLKEM_NTT_CACHE_TOBYTES12_IMPL
PQLAB_MLKEM_DISPATCH(mlkem_ntt_cache_tobytes12, MLKEM_NTT_CACHE_TOBYTES12_IMPL,
                     (mlkem_poly * r, mlkem_polycache *bg, uint8_t out[MLKEM_POLYBYTES]), (r, bg, out))
#else
static inline void mlkem_ntt_cache_tobytes12(mlkem_poly *r, mlkem_polycache *bg, uint8_t out[MLKEM_POLYBYTES])
{
    mlkem_ntt_cache(r, bg);
    mlkem_tobytes12(out, r); /* |c| < q: within tobytes12's |c| < 2q */
}
#endif
#ifdef MLKEM_NTT_UNREDUCED_IMPL
PQLAB_MLKEM_DISPATCH(mlkem_ntt_unreduced, MLKEM_NTT_UNREDUCED_IMPL, (mlkem_poly * r), (r))
#else
static inline void mlkem_ntt_unreduced(mlkem_poly *r)
{
    mlkem_ntt(r);
}
#endif
PQLAB_MLKEM_DISPATCH(mlkem_basemul_pairs32, MLKEM_BASEMUL_PAIRS32_IMPL,
                     (int32_t *r, const int16_t *a, const int16_t *b, const int16_t *bg, unsigned int n),
                     (r, a, b, bg, n))
#ifdef PQLAB_MLKEM_NATIVE_BASEMUL_PAIRS32_SPLIT
PQLAB_MLKEM_DISPATCH(mlkem_basemul_pairs32_split, PQLAB_NAMESPACE(mlkem_basemul_pairs32_split_native),
                     (int32_t *r, const int16_t *a, const int16_t *b, const int16_t *bg, unsigned int nadd,
                      unsigned int nset),
                     (r, a, b, bg, nadd, nset))
#else
/* no C kernel of its own: basemul_pairs32 on the first nadd pairs, then the next nset pairs
 * cleared and basemul_pairs32 on them */
static inline void mlkem_basemul_pairs32_split(int32_t *r, const int16_t *a, const int16_t *b, const int16_t *bg,
                                               unsigned int nadd, unsigned int nset)
{
    mlkem_basemul_pairs32(r, a, b, bg, nadd);
    for (unsigned int i = 2 * nadd; i < 2 * (nadd + nset); i++) {
        r[i] = 0;
    }
    mlkem_basemul_pairs32(r + 2 * nadd, a + 2 * nadd, b + 2 * nadd, bg + nadd, nset);
}
#endif
PQLAB_MLKEM_DISPATCH(mlkem_reduce32, MLKEM_REDUCE32_IMPL, (mlkem_poly * r, const mlkem_poly32 *a), (r, a))
PQLAB_MLKEM_DISPATCH(mlkem_reduce32_add, MLKEM_REDUCE32_ADD_IMPL,
                     (mlkem_poly * r, const mlkem_poly32 *a, const mlkem_poly *b), (r, a, b))
#ifdef PQLAB_MLKEM_NATIVE_REDUCE32_ADD_TOBYTES12
PQLAB_MLKEM_DISPATCH(mlkem_reduce32_add_tobytes12, PQLAB_NAMESPACE(mlkem_reduce32_add_tobytes12_native),
                     (uint8_t out[MLKEM_POLYBYTES], uint8_t out2[MLKEM_POLYBYTES], const mlkem_poly32 *a,
                      mlkem_poly *b),
                     (out, out2, a, b))
#else
#include "reduce.h"
/* no C kernel of its own: reduce32_add into b (|b| < 1699 + 2^14 < 2^15), Barrett (|b| <=
 * (q-1)/2), then tobytes12 into both outputs */
static inline void mlkem_reduce32_add_tobytes12(uint8_t out[MLKEM_POLYBYTES], uint8_t out2[MLKEM_POLYBYTES],
                                                const mlkem_poly32 *a, mlkem_poly *b)
{
    mlkem_reduce32_add(b, a, b);
    for (unsigned int j = 0; j < MLKEM_N; j++) {
        b->c[j] = mlkem_barrett_reduce(b->c[j]);
    }
    mlkem_tobytes12(out, b);
    mlkem_tobytes12(out2, b);
}
#endif
PQLAB_MLKEM_DISPATCH(mlkem_matacc, MLKEM_MATACC_IMPL,
                     (mlkem_poly32 * acc, const mlkem_poly *vec, const mlkem_polycache *cache,
                      const uint8_t rho[MLKEM_SYMBYTES], uint8_t x, uint8_t y),
                     (acc, vec, cache, rho, x, y))
PQLAB_MLKEM_DISPATCH(mlkem_matacc_x4, MLKEM_MATACC_X4_IMPL,
                     (mlkem_poly32 *const acc[4], const mlkem_poly *const vec[4], const mlkem_polycache *const cache[4],
                      const uint8_t rho[MLKEM_SYMBYTES], const uint8_t xy[8], unsigned int fresh),
                     (acc, vec, cache, rho, xy, fresh))
PQLAB_MLKEM_DISPATCH(mlkem_cbd_eta1, MLKEM_CBD_ETA1_IMPL, (mlkem_poly * r, const uint8_t buf[64 * MLKEM_ETA1]),
                     (r, buf))
PQLAB_MLKEM_DISPATCH(mlkem_cbd_eta2, MLKEM_CBD_ETA2_IMPL, (mlkem_poly * r, const uint8_t buf[64 * MLKEM_ETA2]),
                     (r, buf))
PQLAB_MLKEM_DISPATCH(mlkem_cbd_eta2_add, MLKEM_CBD_ETA2_ADD_IMPL, (mlkem_poly * r, const uint8_t buf[64 * MLKEM_ETA2]),
                     (r, buf))
#ifdef PQLAB_MLKEM_NATIVE_CBD_ETA2_ADD_COMPRESS_DU
PQLAB_MLKEM_DISPATCH(mlkem_cbd_eta2_add_compress_du, PQLAB_NAMESPACE(mlkem_cbd_eta2_add_compress_du_native),
                     (uint8_t out[MLKEM_POLYCOMPRESSED_DU], mlkem_poly *r, const uint8_t buf[64 * MLKEM_ETA2]),
                     (out, r, buf))
#else
/* no C kernel of its own: cbd_eta2_add into r, then compress_du */
static inline void mlkem_cbd_eta2_add_compress_du(uint8_t out[MLKEM_POLYCOMPRESSED_DU], mlkem_poly *r,
                                                  const uint8_t buf[64 * MLKEM_ETA2])
{
    mlkem_cbd_eta2_add(r, buf);
    mlkem_compress_du(out, r);
}
#endif
#ifdef PQLAB_MLKEM_NATIVE_MSG_CBD_ETA2_ADD_COMPRESS_DV
PQLAB_MLKEM_DISPATCH(mlkem_msg_cbd_eta2_add_compress_dv, PQLAB_NAMESPACE(mlkem_msg_cbd_eta2_add_compress_dv_native),
                     (uint8_t out[MLKEM_POLYCOMPRESSED_DV], mlkem_poly *r, const uint8_t buf[64 * MLKEM_ETA2],
                      const uint8_t msg[MLKEM_SYMBYTES]),
                     (out, r, buf, msg))
#else
/* no C kernel of its own: frommsg_add and cbd_eta2_add into r, then compress_dv */
static inline void mlkem_msg_cbd_eta2_add_compress_dv(uint8_t out[MLKEM_POLYCOMPRESSED_DV], mlkem_poly *r,
                                                      const uint8_t buf[64 * MLKEM_ETA2],
                                                      const uint8_t msg[MLKEM_SYMBYTES])
{
    mlkem_frommsg_add(r, msg);
    mlkem_cbd_eta2_add(r, buf);
    mlkem_compress_dv(out, r);
}
#endif
PQLAB_MLKEM_DISPATCH(mlkem_add, MLKEM_ADD_IMPL, (mlkem_poly * r, const mlkem_poly *b), (r, b))
static inline uint32_t mlkem_check12(const uint8_t *in, unsigned int nbytes)
{
    return MLKEM_CHECK12_IMPL(in, nbytes);
}
#ifdef PQLAB_MLKEM_NATIVE_BASEMUL12_PAIRS32_CHECK
static inline uint32_t mlkem_basemul12_pairs32_check(int32_t r[MLKEM_N], const uint8_t a[MLKEM_POLYBYTES],
                                                     const int16_t b[MLKEM_N], const int16_t bg[MLKEM_N / 2], int set)
{
    return PQLAB_NAMESPACE(mlkem_basemul12_pairs32_check_native)(r, a, b, bg, set);
}
/* the verdict costs the fused kernel one instruction per word: the same kernel, verdict dropped */
static inline void mlkem_basemul12_pairs32(int32_t r[MLKEM_N], const uint8_t a[MLKEM_POLYBYTES],
                                           const int16_t b[MLKEM_N], const int16_t bg[MLKEM_N / 2], int set)
{
    (void)PQLAB_NAMESPACE(mlkem_basemul12_pairs32_check_native)(r, a, b, bg, set);
}
#else
/* no C kernel of its own: a decoded into a local polynomial, then basemul_pairs32 (into a
 * cleared r for set) */
static inline void mlkem_basemul12_pairs32(int32_t r[MLKEM_N], const uint8_t a[MLKEM_POLYBYTES],
                                           const int16_t b[MLKEM_N], const int16_t bg[MLKEM_N / 2], int set)
{
    mlkem_poly t;
    if (set) { /* public flag */
        for (unsigned int i = 0; i < MLKEM_N; i++) {
            r[i] = 0;
        }
    }
    mlkem_frombytes12(&t, a);
    mlkem_basemul_pairs32(r, t.c, b, bg, MLKEM_N / 2);
}
/* ... and check12 on the same 384 bytes */
static inline uint32_t mlkem_basemul12_pairs32_check(int32_t r[MLKEM_N], const uint8_t a[MLKEM_POLYBYTES],
                                                     const int16_t b[MLKEM_N], const int16_t bg[MLKEM_N / 2], int set)
{
    mlkem_basemul12_pairs32(r, a, b, bg, set);
    return mlkem_check12(a, MLKEM_POLYBYTES);
}
#endif

#include "kernels_contract.h" /* entry/exit checks with PQLAB_CONTRACT_CHECKS */

#endif
