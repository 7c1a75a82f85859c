/* SPDX-License-Identifier: MIT */
/* FN-DSA / Falcon internal interface (one source for Falcon-512 and -1024,
 * both fpr layers). Every exported symbol is namespaced through
 * PQLAB_NAMESPACE (-DPQLAB_NS=pqlab_fndsa512_ref_ ...). */
#ifndef PQLAB_FNDSA_H
#define PQLAB_FNDSA_H

#include <stddef.h>
#include <stdint.h>

#include "fips202.h"
#include "fpr.h"
#include "namespace.h"
#include "params.h"

#define FNDSA_NS(s) PQLAB_NAMESPACE(s)

/* ---- fft.c ---- */
#define fndsa_fft FNDSA_NS(fndsa_fft)
#define fndsa_ifft FNDSA_NS(fndsa_ifft)
#define fndsa_poly_split_fft FNDSA_NS(fndsa_poly_split_fft)
#define fndsa_poly_merge_fft FNDSA_NS(fndsa_poly_merge_fft)
#define fndsa_poly_merge_fft_re FNDSA_NS(fndsa_poly_merge_fft_re)
#define fndsa_poly_add FNDSA_NS(fndsa_poly_add)
#define fndsa_poly_sub FNDSA_NS(fndsa_poly_sub)
#define fndsa_poly_neg FNDSA_NS(fndsa_poly_neg)
#define fndsa_poly_adj_fft FNDSA_NS(fndsa_poly_adj_fft)
#define fndsa_poly_mulconst FNDSA_NS(fndsa_poly_mulconst)
#define fndsa_poly_mul_fft FNDSA_NS(fndsa_poly_mul_fft)
#define fndsa_poly_mul_fft_bytes FNDSA_NS(fndsa_poly_mul_fft_bytes)
#define fndsa_poly_muladj_fft FNDSA_NS(fndsa_poly_muladj_fft)
#define fndsa_poly_mulselfadj_fft FNDSA_NS(fndsa_poly_mulselfadj_fft)
#define fndsa_poly_mul_autoadj_fft FNDSA_NS(fndsa_poly_mul_autoadj_fft)
#define fndsa_poly_div_autoadj_fft FNDSA_NS(fndsa_poly_div_autoadj_fft)
#define fndsa_poly_invnorm2_fft FNDSA_NS(fndsa_poly_invnorm2_fft)
#define fndsa_poly_ldl_fft FNDSA_NS(fndsa_poly_ldl_fft)

void fndsa_fft(fpr *f, unsigned logn, fpr *tmp);  /* tmp: n values */
void fndsa_ifft(fpr *f, unsigned logn, fpr *tmp); /* tmp: n values */
void fndsa_poly_split_fft(fpr *f0, fpr *f1, const fpr *f, unsigned logn);
void fndsa_poly_merge_fft(fpr *f, const fpr *f0, const fpr *f1, unsigned logn);
/* the real parts of fndsa_poly_merge_fft(f, f0, f1, logn) (its first n/2 values, the same
 * bits), written over f0 (n/2 values); logn >= 2 */
void fndsa_poly_merge_fft_re(fpr *f0, const fpr *f1, unsigned logn);
void fndsa_poly_add(fpr *a, const fpr *b, unsigned logn);
void fndsa_poly_sub(fpr *a, const fpr *b, unsigned logn);
void fndsa_poly_neg(fpr *a, unsigned logn);
void fndsa_poly_adj_fft(fpr *a, unsigned logn);
void fndsa_poly_mulconst(fpr *a, fpr x, unsigned logn);
void fndsa_poly_mul_fft(fpr *a, const fpr *b, unsigned logn);
void fndsa_poly_mul_fft_bytes(fpr *a, const uint8_t *b, unsigned logn);
void fndsa_poly_muladj_fft(fpr *a, const fpr *b, unsigned logn);
void fndsa_poly_mulselfadj_fft(fpr *a, unsigned logn);
void fndsa_poly_mul_autoadj_fft(fpr *a, const fpr *b, unsigned logn);
void fndsa_poly_div_autoadj_fft(fpr *a, const fpr *b, unsigned logn);
void fndsa_poly_invnorm2_fft(fpr *d, const fpr *a, const fpr *b, unsigned logn);
void fndsa_poly_ldl_fft(const fpr *g00, fpr *g01, fpr *g11, unsigned logn);

/* ---- sampler.c: ChaCha20-based PRNG and SamplerZ ---- */
typedef struct {
    uint8_t buf[512];
    size_t ptr;
    uint32_t key[12]; /* ChaCha20 state words 4..15 (before the counter xor) */
    uint64_t cc;      /* block counter */
} fndsa_prng;

typedef struct {
    fndsa_prng p;
    fpr sigma_min;
} fndsa_sampler;

#define fndsa_prng_init FNDSA_NS(fndsa_prng_init)
#define fndsa_prng_get_u64 FNDSA_NS(fndsa_prng_get_u64)
#define fndsa_prng_get_u8 FNDSA_NS(fndsa_prng_get_u8)
#define fndsa_base_sampler FNDSA_NS(fndsa_base_sampler)
#define fndsa_berexp FNDSA_NS(fndsa_berexp)
#define fndsa_expm_p63 FNDSA_NS(fndsa_expm_p63)
#define fndsa_samplerz FNDSA_NS(fndsa_samplerz)
#define fndsa_samplerz_leaf FNDSA_NS(fndsa_samplerz_leaf)

void fndsa_prng_init(fndsa_prng *p, pqlab_keccak_state *src);
uint64_t fndsa_prng_get_u64(fndsa_prng *p);
unsigned fndsa_prng_get_u8(fndsa_prng *p);
int fndsa_base_sampler(fndsa_prng *p);
uint64_t fndsa_expm_p63(fpr x, fpr ccs);
int fndsa_berexp(fndsa_prng *p, fpr x, fpr ccs);
int fndsa_samplerz(fndsa_sampler *s, fpr mu, fpr isigma);
/* *a = SamplerZ(*a), then *b = SamplerZ(*b), both with isigma (an ffSampling leaf) */
void fndsa_samplerz_leaf(fndsa_sampler *s, fpr *a, fpr *b, fpr isigma);

/* ---- sign.c ---- */
#define fndsa_sign_dyn FNDSA_NS(fndsa_sign_dyn)
#define fndsa_sign_tree FNDSA_NS(fndsa_sign_tree)
#define fndsa_expand_privkey FNDSA_NS(fndsa_expand_privkey)
#define fndsa_sign_attempt_dyn FNDSA_NS(fndsa_sign_attempt_dyn)
#define fndsa_sign_attempts_last FNDSA_NS(fndsa_sign_attempts_last)
/* attempts (PRNG seedings) since the counter was last cleared by the caller */
extern unsigned fndsa_sign_attempts_last;

/* One signing attempt on an already seeded sampler: 1 and s2 set when
 * ||(s1, s2)||^2 <= beta^2, else 0. tmp: FNDSA_SIGN_DYN_FPRS(logn) fprs, holding the decoded
 * key f || g || F || G (int8) in slot FNDSA_SIGN_DYN_KEY_SLOT on entry (overwritten: f, g, F
 * are decoded from sk again at the end); s2 may lie in tmp's slot FNDSA_SIGN_DYN_S2_SLOT
 * (written last). sk: the private key that load_sk validated. */
int fndsa_sign_attempt_dyn(int16_t *s2, fndsa_sampler *sc, const uint8_t *sk, const uint16_t *hm, unsigned logn,
                           fpr *tmp);
/* Full loops (re-seed the PRNG from rng for each attempt, spec alg. 10), bounded:
 * they stop when fndsa_sign_attempts_last reaches FNDSA_SIGN_MAX_ATTEMPTS (the
 * caller clears it once per signature, so padded-size redraws count too) and
 * then return 0 with s2 zeroed; 1 with s2 set on success. fndsa_sign_dyn: tmp as for
 * fndsa_sign_attempt_dyn (the key in its slot on entry; restored from sk before every
 * further attempt). */
int fndsa_sign_dyn(int16_t *s2, pqlab_keccak_state *rng, const uint8_t *sk, const uint16_t *hm, unsigned logn,
                   fpr *tmp);
void fndsa_expand_privkey(uint8_t *expanded, const int8_t *f, const int8_t *g, const int8_t *F, const int8_t *G,
                          unsigned logn, fpr *tmp);
int fndsa_sign_tree(int16_t *s2, pqlab_keccak_state *rng, const uint8_t *expanded, const uint16_t *hm, unsigned logn,
                    fpr *tmp);

/* ---- modq.c: arithmetic modulo q, NTT, public key, verification ---- */
#define fndsa_compute_public FNDSA_NS(fndsa_compute_public)
#define fndsa_invertible_modq FNDSA_NS(fndsa_invertible_modq)
#define fndsa_complete_private FNDSA_NS(fndsa_complete_private)
#define fndsa_verify_inplace FNDSA_NS(fndsa_verify_inplace)
#define fndsa_hash_to_point FNDSA_NS(fndsa_hash_to_point)
#define fndsa_is_short FNDSA_NS(fndsa_is_short)
#define fndsa_sign_finish_modq FNDSA_NS(fndsa_sign_finish_modq)

int fndsa_compute_public(uint16_t *h, const int8_t *f, const int8_t *g, unsigned logn, uint16_t *tmp);
int fndsa_invertible_modq(const int8_t *f, unsigned logn, uint16_t *tmp);
int fndsa_complete_private(int8_t *G, const int8_t *f, const int8_t *g, const int8_t *F, unsigned logn, uint16_t *tmp);
int fndsa_verify_inplace(uint16_t *a, uint16_t *b, pqlab_keccak_state *sc, unsigned logn);
void fndsa_hash_to_point(pqlab_keccak_state *sc, uint16_t *hm, unsigned logn);
int fndsa_is_short(const int16_t *s1, const int16_t *s2, unsigned logn);
int fndsa_sign_finish_modq(int16_t *s2, const fpr *z0, const fpr *z1, const uint16_t *hm, const int8_t *f,
                           const int8_t *g, const int8_t *F, unsigned logn, uint16_t *tmp);

/* ---- codec.c: encodings (spec 3.11) ---- */
#define fndsa_modq_encode FNDSA_NS(fndsa_modq_encode)
#define fndsa_modq_decode FNDSA_NS(fndsa_modq_decode)
#define fndsa_trim_i8_encode FNDSA_NS(fndsa_trim_i8_encode)
#define fndsa_trim_i8_decode FNDSA_NS(fndsa_trim_i8_decode)
#define fndsa_comp_encode FNDSA_NS(fndsa_comp_encode)
#define fndsa_comp_decode FNDSA_NS(fndsa_comp_decode)
#define fndsa_decode_sk FNDSA_NS(fndsa_decode_sk)

size_t fndsa_modq_encode(uint8_t *out, size_t max_out, const uint16_t *x, unsigned logn);
size_t fndsa_modq_decode(uint16_t *x, unsigned logn, const uint8_t *in, size_t max_in);
size_t fndsa_trim_i8_encode(uint8_t *out, size_t max_out, const int8_t *x, unsigned logn, unsigned bits);
size_t fndsa_trim_i8_decode(int8_t *x, unsigned logn, unsigned bits, const uint8_t *in, size_t max_in);
size_t fndsa_comp_encode(uint8_t *out, size_t max_out, const int16_t *x, unsigned logn);
size_t fndsa_comp_decode(int16_t *x, unsigned logn, const uint8_t *in, size_t max_in);
/* private key (this build's degree) -> f, g, F; 0 when malformed */
int fndsa_decode_sk(int8_t *f, int8_t *g, int8_t *F, const uint8_t *sk);

/* ---- keygen.c / ntru.c ---- */
#define fndsa_keygen FNDSA_NS(fndsa_keygen)
#define fndsa_solve_ntru FNDSA_NS(fndsa_solve_ntru)
#define fndsa_solve_ntru_ex FNDSA_NS(fndsa_solve_ntru_ex)
#define fndsa_keygen_restarts_last FNDSA_NS(fndsa_keygen_restarts_last)
#define fndsa_check_ntru FNDSA_NS(fndsa_check_ntru)

/* Key generation's randomness: the SHAKE256 context (seeded and finalised by the caller)
 * and the stream read one rate block (136 bytes) at a time. One object, so that the caller
 * can place it where it has room (fndsa_keypair_seed: in the public key's buffer, beside g). */
typedef struct {
    pqlab_keccak_state st;
    _Alignas(8) uint8_t buf[136];
    size_t pos;
} fndsa_keygen_rng;

/* Key generation from a SHAKE256 context (spec alg. 4); returns the number of
 * restarts (rejected candidates). tmp: FNDSA_KEYGEN_TMP bytes; h may lie in its first
 * 2n bytes (h is computed last, after the NTRU solver). G may be NULL (not written; the
 * private key does not store it), in fndsa_solve_ntru(_ex) as well. rng->st is the
 * seeded SHAKE256 context; keygen reads its stream through rng->buf. */
unsigned fndsa_keygen(fndsa_keygen_rng *rng, int8_t *f, int8_t *g, int8_t *F, int8_t *G, uint16_t *h, unsigned logn,
                      uint8_t *tmp);
int fndsa_solve_ntru(int8_t *F, int8_t *G, const int8_t *f, const int8_t *g, unsigned logn, uint32_t *tmp);
/* f G - g F = q for another q and another (f, g) distribution (lib/hawk: q = 1): sizes
 * in 31-bit words of f, g (bl_small[d], d = 0..logn; bl_small[0] = bl_small[1] = 1) and of
 * the unreduced F, G (bl_large[d], d < logn; bl_large[1] <= 2) at each depth, and the
 * average and standard deviation of the bit length of f, g (bl_avg[d], bl_std[d]) that
 * the schedule of the intermediate Babai reductions reads; the final reduction is exact
 * whatever they are. Same workspace as fndsa_solve_ntru. */
typedef struct {
    uint32_t q;
    const uint16_t *bl_small, *bl_large, *bl_avg, *bl_std;
    /* Optional second schedule (lib/hawk): when word_win is not NULL, the intermediate
     * depths 1..logn-1 replay the fixed-step schedule of the Hawk reference's solver
     * instead of the round-3 Falcon one: f, g read through their top word_win[d] words,
     * F, G read from the current scale, which starts at 31 bl_large[d] and drops by
     * reduce_bits per Babai step down to f's scale, F, G kept in fewer words as the scale
     * drops; a candidate is rejected when F or G outgrows the words kept (see ntru.c,
     * hawk_schedule). bl_avg, bl_std are then not read. */
    const uint16_t *word_win;
    uint32_t reduce_bits;
    /* that schedule's reduction coefficients in the Hawk reference's 32.32 fixed point
     * (lib/hawk/ntru_fx.c): fx_init(w, logm, t) turns f, g (w[0..m), w[m..2m), on its
     * grid) into 2^t adj(f) / N, 2^t adj(g) / N in place (w[2m..3m) scratch); fx_k(k, w,
     * logm) computes k from F, G at w[2m..3m), w[3m..4m) */
    void (*fx_init)(int64_t *w, unsigned logm, uint32_t t);
    void (*fx_k)(int32_t *k, int64_t *w, unsigned logm);
    /* words of the caller's tmp (the workspace): FNDSA_NTRU_WORDS for Falcon */
    size_t ws_words;
    /* bits of the depth-0 coefficients: |f_i|, |g_i| < 2^fbits0 (the caller guarantees
     * it; it sizes the depth-0 RNS products); 0: 7 (any int8_t but -128) */
    uint32_t fbits0;
} fndsa_ntru_params;
int fndsa_solve_ntru_ex(int8_t *F, int8_t *G, const int8_t *f, const int8_t *g, unsigned logn,
                        const fndsa_ntru_params *pp, uint32_t *tmp);
extern unsigned fndsa_keygen_restarts_last;
/* 1 when f G - g F = q exactly in Z[x]/(x^n + 1) (the NTRU equation), else 0;
 * constant time, only the verdict is declassified. tmp: 5n words. */
int fndsa_check_ntru(const int8_t *f, const int8_t *g, const int8_t *F, const int8_t *G, unsigned logn, uint32_t *tmp);

#endif
