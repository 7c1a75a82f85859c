/* SPDX-License-Identifier: MIT */
/* Host-side helpers for the FN-DSA unit tests (tests/test_fndsa*.py, via ctypes):
 * a randombytes backed by the NIST AES-256-CTR DRBG, and thin exported wrappers
 * around internal functions. Not part of any implementation build. */
#include "../fndsa.h"
#include "../fndsa_api.h"
#include "../ntru_internal.h" /* fndsa_ntru_peak_words */
#include "drbg.h"

static pqlab_drbg_state test_drbg;

void fndsa_test_rng_init(const uint8_t seed[48])
{
    pqlab_drbg_init(&test_drbg, seed, NULL);
}

int pqlab_randombytes(uint8_t *out, size_t n)
{
    pqlab_drbg_generate(&test_drbg, out, n);
    return 0;
}

/* hash-to-point of nonce || msg */
void fndsa_test_hash_to_point(uint16_t *hm, const uint8_t *nonce, const uint8_t *m, size_t mlen)
{
    pqlab_keccak_state sc;
    pqlab_shake256_init(&sc);
    pqlab_shake256_absorb(&sc, nonce, 40);
    pqlab_shake256_absorb(&sc, m, mlen);
    pqlab_shake256_finalize(&sc);
    fndsa_hash_to_point(&sc, hm, FNDSA_LOGN);
}

#ifdef PQLAB_FNDSA_SCRIPTED_PRNG
extern const uint8_t *fndsa_script_bytes;
extern size_t fndsa_script_len, fndsa_script_pos;
#endif

int fndsa_test_base_sampler(const uint8_t *bytes9)
{
    fndsa_prng p;
    memset(&p, 0, sizeof p);
    memcpy(p.buf, bytes9, 9);
#ifdef PQLAB_FNDSA_SCRIPTED_PRNG
    fndsa_script_bytes = bytes9;
    fndsa_script_len = 9;
    fndsa_script_pos = 0;
#endif
    return fndsa_base_sampler(&p);
}

uint64_t fndsa_test_expm(uint64_t xbits, uint64_t ccsbits)
{
    return fndsa_expm_p63(fpr_from_bits(xbits), fpr_from_bits(ccsbits));
}

int fndsa_test_lang_native(void)
{
#ifdef PQLAB_FNDSA_FPR_NATIVE
    return 1;
#else
    return 0;
#endif
}

/* fndsa_poly_merge_fft(full, f0, f1, logn) and fndsa_poly_merge_fft_re over a copy of f0
 * (re), as fpr bit patterns (n values; n/2 each in f0, f1, re) */
void fndsa_test_merge_re(uint64_t *full, uint64_t *re, const uint64_t *f0, const uint64_t *f1, unsigned logn)
{
    static fpr a[1024], b[512], c[512];
    size_t n = (size_t)1 << logn;
    for (size_t u = 0; u < n / 2; u++) {
        b[u] = fpr_from_bits(f0[u]);
        c[u] = fpr_from_bits(f1[u]);
    }
    fndsa_poly_merge_fft(a, b, c, logn);
    for (size_t u = 0; u < n; u++) {
        full[u] = fpr_to_bits(a[u]);
    }
    fndsa_poly_merge_fft_re(b, c, logn);
    for (size_t u = 0; u < n / 2; u++) {
        re[u] = fpr_to_bits(b[u]);
    }
}

/* fpr layer entry points for differential tests (bit patterns in and out) */
uint64_t fndsa_test_fpr(int op, uint64_t a, uint64_t b)
{
    fpr x = fpr_from_bits(a), y = fpr_from_bits(b);
    switch (op) {
    case 0:
        return fpr_to_bits(fpr_add(x, y));
    case 1:
        return fpr_to_bits(fpr_sub(x, y));
    case 2:
        return fpr_to_bits(fpr_mul(x, y));
    case 3:
        return fpr_to_bits(fpr_div(x, y));
    case 4:
        return fpr_to_bits(fpr_sqrt(x));
    case 5:
        return (uint64_t)fpr_rint(x);
    case 6:
        return (uint64_t)fpr_floor(x);
    case 7:
        return (uint64_t)fpr_trunc(x);
    case 8:
        return fpr_to_bits(fpr_of((int64_t)a));
    case 9:
        return (uint64_t)fpr_lt(x, y);
    case 11:
    case 12: {
        fpr s, d;
        fpr_addsub(x, y, &s, &d);
        return fpr_to_bits(op == 11 ? s : d);
    }
#ifndef PQLAB_FNDSA_FPR_NATIVE
    case 10:
        return fpr_to_bits(fpr_div_nr(x, y));
#endif
    default:
        return 0;
    }
}

#ifdef PQLAB_FNDSA_SCRIPTED_PRNG
void fndsa_test_script(const uint8_t *b, size_t len)
{
    fndsa_script_bytes = b;
    fndsa_script_len = len;
    fndsa_script_pos = 0;
}

size_t fndsa_test_script_pos(void)
{
    return fndsa_script_pos;
}

int fndsa_test_samplerz(uint64_t mubits, uint64_t isigmabits)
{
    fndsa_sampler sc;
    memset(&sc, 0, sizeof sc);
    sc.sigma_min = FNDSA_LOGN == 10 ? fpr_from_bits(0x3FF4C5C19990C764u) : fpr_from_bits(0x3FF47201BF1F7A75u);
    return fndsa_samplerz(&sc, fpr_from_bits(mubits), fpr_from_bits(isigmabits));
}

#endif

/* The private key of (f, g, F) into sk and (f, g, F, G) into the dynamic signing work
 * area's key slot, as api.c's load_sk leaves them; 0 if f, g, F do not fit the encoding. */
static int test_sign_key(uint8_t *sk, fpr *tmp, const int8_t *f, const int8_t *g, const int8_t *F, const int8_t *G)
{
    size_t n = FNDSA_N, u = 1, v;
    sk[0] = 0x50 + FNDSA_LOGN;
    v = fndsa_trim_i8_encode(sk + u, FNDSA_SKBYTES - u, f, FNDSA_LOGN, FNDSA_FG_BITS);
    u += v;
    v = v == 0 ? 0 : fndsa_trim_i8_encode(sk + u, FNDSA_SKBYTES - u, g, FNDSA_LOGN, FNDSA_FG_BITS);
    u += v;
    v = v == 0 ? 0 : fndsa_trim_i8_encode(sk + u, FNDSA_SKBYTES - u, F, FNDSA_LOGN, FNDSA_FFG_BITS);
    u += v;
    if (v == 0 || u != FNDSA_SKBYTES) {
        return 0;
    }
    int8_t *key = (int8_t *)(void *)(tmp + (size_t)FNDSA_SIGN_DYN_KEY_SLOT * n);
    memcpy(key, f, n);
    memcpy(key + n, g, n);
    memcpy(key + 2 * n, F, n);
    memcpy(key + 3 * n, G, n);
    return 1;
}

#ifdef PQLAB_FNDSA_SCRIPTED_PRNG
/* one signing attempt with scripted randomness: returns 1 if short, s2 out (-1: f, g, F do
 * not fit the private key encoding) */
int fndsa_test_sign_attempt(int16_t *s2, const int8_t *f, const int8_t *g, const int8_t *F, const int8_t *G,
                            const uint16_t *hm)
{
    static union {
        fpr f[FNDSA_SIGN_DYN_FPRS(FNDSA_LOGN)];
        uint64_t a;
    } tmp;
    static uint8_t sk[FNDSA_SKBYTES];
    if (!test_sign_key(sk, tmp.f, f, g, F, G)) {
        return -1;
    }
    fndsa_sampler sc;
    memset(&sc, 0, sizeof sc);
    sc.sigma_min = FNDSA_LOGN == 10 ? fpr_from_bits(0x3FF4C5C19990C764u) : fpr_from_bits(0x3FF47201BF1F7A75u);
    return fndsa_sign_attempt_dyn(s2, &sc, sk, hm, FNDSA_LOGN, tmp.f);
}
#endif

/* codec wrappers */
size_t fndsa_test_comp_decode(int16_t *x, const uint8_t *in, size_t len)
{
    return fndsa_comp_decode(x, FNDSA_LOGN, in, len);
}

size_t fndsa_test_comp_encode(uint8_t *out, size_t max, const int16_t *x)
{
    return fndsa_comp_encode(out, max, x, FNDSA_LOGN);
}

/* keygen with the internal outputs (f, g, F, G, restarts) */
unsigned fndsa_test_keygen(int8_t *f, int8_t *g, int8_t *F, int8_t *G, const uint8_t seed[48])
{
    static union {
        uint8_t b[FNDSA_KEYGEN_TMP];
        uint64_t a;
    } tmp;
    static uint16_t h[FNDSA_N];
    fndsa_keygen_rng rng;
    pqlab_shake256_init(&rng.st);
    pqlab_shake256_absorb(&rng.st, seed, 48);
    pqlab_shake256_finalize(&rng.st);
    return fndsa_keygen(&rng, f, g, F, G, h, FNDSA_LOGN, tmp.b);
}

/* h = g / f mod q through the NTT (1 if f is invertible) */
int fndsa_test_compute_public(uint16_t *h, const int8_t *f, const int8_t *g)
{
    static uint16_t tmp[FNDSA_N];
    return fndsa_compute_public(h, f, g, FNDSA_LOGN, tmp);
}

/* f G - g F = q exactly (fndsa_check_ntru) */
int fndsa_test_check_ntru(const int8_t *f, const int8_t *g, const int8_t *F, const int8_t *G)
{
    static uint32_t tmp[5 * FNDSA_N];
    return fndsa_check_ntru(f, g, F, G, FNDSA_LOGN, tmp);
}

/* fndsa_sign_dyn with the attempt counter starting at `used` (as after that many
 * attempts of the same signature): the bound FNDSA_SIGN_MAX_ATTEMPTS without having
 * to find a key that decodes yet never signs. Returns fndsa_sign_dyn's result. */
int fndsa_test_sign_dyn_from(int16_t *s2, unsigned used, const int8_t *f, const int8_t *g, const int8_t *F,
                             const int8_t *G, const uint16_t *hm, const uint8_t seed[48])
{
    static fpr tmp[FNDSA_SIGN_DYN_FPRS(FNDSA_LOGN)];
    static uint8_t sk[FNDSA_SKBYTES];
    if (!test_sign_key(sk, tmp, f, g, F, G)) {
        return -1;
    }
    pqlab_keccak_state rng;
    pqlab_shake256_init(&rng);
    pqlab_shake256_absorb(&rng, seed, 48);
    pqlab_shake256_finalize(&rng);
    fndsa_sign_attempts_last = used;
    return fndsa_sign_dyn(s2, &rng, sk, hm, FNDSA_LOGN, tmp);
}

unsigned fndsa_test_max_attempts(void)
{
    return FNDSA_SIGN_MAX_ATTEMPTS;
}

/* The NTRU solver's highest workspace point over one key generation from seed (every
 * candidate that reaches the solver), in words; needs -DPQLAB_FNDSA_NTRU_PEAK. */
size_t fndsa_test_keygen_ws_words(const uint8_t seed[48])
{
#ifdef PQLAB_FNDSA_NTRU_PEAK
    static union {
        uint8_t b[FNDSA_KEYGEN_TMP];
        uint64_t a;
    } tmp;
    static int8_t f[FNDSA_N], g[FNDSA_N], F[FNDSA_N], G[FNDSA_N];
    static uint16_t h[FNDSA_N];
    fndsa_keygen_rng rng;
    pqlab_shake256_init(&rng.st);
    pqlab_shake256_absorb(&rng.st, seed, 48);
    pqlab_shake256_finalize(&rng.st);
    fndsa_ntru_peak_words = 0;
    for (size_t i = 0; i < sizeof fndsa_ntru_phase_peak / sizeof fndsa_ntru_phase_peak[0]; i++) {
        fndsa_ntru_phase_peak[i] = 0;
    }
    fndsa_keygen(&rng, f, g, F, G, h, FNDSA_LOGN, tmp.b);
    return fndsa_ntru_peak_words;
#else
    (void)seed;
    return 0;
#endif
}

/* the workspace's highest point in one phase of the last fndsa_test_keygen_ws_words
 * (ntru.c: 100 + d descent, 200 GCD, 300 + d ascent product, 400 + d ascent Babai) */
size_t fndsa_test_ntru_phase_peak(unsigned phase)
{
#ifdef PQLAB_FNDSA_NTRU_PEAK
    return phase < 500 ? fndsa_ntru_phase_peak[phase] : 0;
#else
    (void)phase;
    return 0;
#endif
}

size_t fndsa_test_keygen_ws_cap(void)
{
    return FNDSA_NTRU_WORDS;
}
