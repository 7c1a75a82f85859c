/* SPDX-License-Identifier: MIT */
/* Gaussian sampling for Falcon signing (round-3 specification v1.2,
 * section 3.9.3: algorithms 12 BaseSampler, 13 BerExp, 14 SamplerZ) and the
 * PRNG that feeds it.
 *
 * PRNG: the round-3 package (whose output the KAT files record) draws the
 * sampler's random bytes from ChaCha20 (RFC 8439 block function) keyed with
 * 56 bytes taken from the SHAKE256 signing-seed stream: 40 bytes fill state
 * words 4..13, 8 bytes words 14..15 (XORed with a 64-bit block counter), and
 * 8 bytes are the initial counter (little-endian). A refill computes 8
 * consecutive blocks and interleaves them 32-bit word by word (word v of
 * block u at byte offset 4u + 32v), 512 bytes. These are behavioural facts
 * needed for KAT compatibility; the code is ours.
 *
 * Constant time: the PRNG, the base sampler, exp(-x) and the arithmetic are
 * branch-free. What is allowed to be observable is documented where it happens:
 * whether a candidate of the rejection sampler is accepted, and how many bytes
 * the lazy comparison of BerExp reads (it reads one more byte with
 * probability 2^-8 per byte); both are declassified for the constant-time
 * checker, as their distribution does not depend on the private key beyond
 * what the Falcon security analysis allows. */
#include "fndsa.h"
#include "tables.h"
#include "ct.h"

#define ROTL32(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
#define QR(a, b, c, d)                                                                                                 \
    do {                                                                                                               \
        a += b;                                                                                                        \
        d ^= a;                                                                                                        \
        d = ROTL32(d, 16);                                                                                             \
        c += d;                                                                                                        \
        b ^= c;                                                                                                        \
        b = ROTL32(b, 12);                                                                                             \
        a += b;                                                                                                        \
        d ^= a;                                                                                                        \
        d = ROTL32(d, 8);                                                                                              \
        c += d;                                                                                                        \
        b ^= c;                                                                                                        \
        b = ROTL32(b, 7);                                                                                              \
    } while (0)

#ifdef PQLAB_FNDSA_PRNG_NATIVE
#include "../native/fndsa_sampler.h"
#endif

static void prng_refill(fndsa_prng *p)
{
#ifdef PQLAB_FNDSA_PRNG_NATIVE
    /* the backend's eight blocks (lib/native/fndsa_sampler.h): the same bytes */
    pqlab_fndsa_prng_refill_native(p->buf, p->key, p->cc);
    p->cc += 8;
    p->ptr = 0;
#else
    /* "expand 32-byte k" */
    static const uint32_t sigma[4] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
    uint64_t cc = p->cc;
    for (unsigned u = 0; u < 8; u++) {
        uint32_t in[16], x[16];
        for (int i = 0; i < 4; i++) {
            in[i] = sigma[i];
        }
        for (int i = 0; i < 12; i++) {
            in[4 + i] = p->key[i];
        }
        in[14] ^= (uint32_t)cc;
        in[15] ^= (uint32_t)(cc >> 32);
        memcpy(x, in, sizeof x);
        for (int r = 0; r < 10; r++) {
            QR(x[0], x[4], x[8], x[12]);
            QR(x[1], x[5], x[9], x[13]);
            QR(x[2], x[6], x[10], x[14]);
            QR(x[3], x[7], x[11], x[15]);
            QR(x[0], x[5], x[10], x[15]);
            QR(x[1], x[6], x[11], x[12]);
            QR(x[2], x[7], x[8], x[13]);
            QR(x[3], x[4], x[9], x[14]);
        }
        for (unsigned v = 0; v < 16; v++) {
            uint32_t w = x[v] + in[v];
            uint8_t *d = p->buf + (u << 2) + (v << 5);
            d[0] = (uint8_t)w;
            d[1] = (uint8_t)(w >> 8);
            d[2] = (uint8_t)(w >> 16);
            d[3] = (uint8_t)(w >> 24);
        }
        cc++;
    }
    p->cc = cc;
    p->ptr = 0;
#endif
}

void fndsa_prng_init(fndsa_prng *p, pqlab_keccak_state *src)
{
    uint8_t t[56];
    pqlab_shake256_squeeze(t, sizeof t, src);
    for (int i = 0; i < 12; i++) {
        p->key[i] = (uint32_t)t[4 * i] | ((uint32_t)t[4 * i + 1] << 8) | ((uint32_t)t[4 * i + 2] << 16) |
                    ((uint32_t)t[4 * i + 3] << 24);
    }
    p->cc = 0;
    for (int i = 7; i >= 0; i--) {
        p->cc = (p->cc << 8) | t[48 + i];
    }
    pqlab_zeroize(t, sizeof t);
    prng_refill(p);
}

#ifdef PQLAB_FNDSA_SCRIPTED_PRNG
/* Test builds only: the sampler's random bytes come from a script set by the
 * unit tests (official sampler test vectors list the bytes each step reads). */
const uint8_t *fndsa_script_bytes = NULL;
size_t fndsa_script_len = 0, fndsa_script_pos = 0;

static unsigned script_u8(void)
{
    return fndsa_script_pos < fndsa_script_len ? fndsa_script_bytes[fndsa_script_pos++] : 0;
}

uint64_t fndsa_prng_get_u64(fndsa_prng *p)
{
    (void)p;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        v |= (uint64_t)script_u8() << (8 * i);
    }
    return v;
}

unsigned fndsa_prng_get_u8(fndsa_prng *p)
{
    (void)p;
    return script_u8();
}
#else
uint64_t fndsa_prng_get_u64(fndsa_prng *p)
{
    /* a 64-bit read never straddles a refill: the tail (< 9 bytes) is dropped.
     * p->ptr is public (it only depends on the number of draws). */
    if (p->ptr >= sizeof p->buf - 9) {
        prng_refill(p);
    }
    uint64_t v;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* little-endian: the 8 bytes as one (unaligned) load, inlined by GCC */
    __builtin_memcpy(&v, p->buf + p->ptr, sizeof v);
#else
    v = 0;
    for (int i = 7; i >= 0; i--) {
        v = (v << 8) | p->buf[p->ptr + (size_t)i];
    }
#endif
    p->ptr += 8;
    return v;
}

unsigned fndsa_prng_get_u8(fndsa_prng *p)
{
    unsigned v = p->buf[p->ptr++];
    if (p->ptr == sizeof p->buf) {
        prng_refill(p);
    }
    return v;
}

#endif

#if defined(PQLAB_FNDSA_RCDT_NATIVE) && !defined(PQLAB_FNDSA_CT_NEGATIVE_CONTROL)
#include "../native/fndsa_sampler.h"
#endif

/* BaseSampler (alg. 12): z0 = #{i : u < RCDT[i]} for a uniform 72-bit u = hi 2^64 + lo,
 * compared as three 24-bit limbs with borrow propagation (no branch). */
static inline int base_sampler_count(uint64_t lo, uint32_t hi)
{
#if defined(PQLAB_FNDSA_RCDT_NATIVE) && !defined(PQLAB_FNDSA_CT_NEGATIVE_CONTROL)
    /* the backend's comparison (lib/native/fndsa_sampler.h): the same count */
    return pqlab_fndsa_rcdt_count_native(lo, hi);
#else
    uint32_t v0 = (uint32_t)lo & 0xFFFFFF;
    uint32_t v1 = (uint32_t)(lo >> 24) & 0xFFFFFF;
    uint32_t v2 = (uint32_t)(lo >> 48) | (hi << 16);
    int z = 0;
    /* fully unrolled (fixed trip count, no data-dependent control flow) */
#if defined(__GNUC__) && !defined(__clang__) && !defined(PQLAB_FNDSA_CT_NEGATIVE_CONTROL)
#pragma GCC unroll 18
#endif
    for (int i = 0; i < 18; i++) {
        uint32_t b;
        b = (v0 - fndsa_rcdt[i][2]) >> 31;
        b = (v1 - fndsa_rcdt[i][1] - b) >> 31;
        b = (v2 - fndsa_rcdt[i][0] - b) >> 31;
        z += (int)b; /* 1 when u < RCDT[i] */
#ifdef PQLAB_FNDSA_CT_NEGATIVE_CONTROL
        if (b == 0) { /* deliberate leak for the constant-time test's negative control */
            break;
        }
#endif
    }
    return z;
#endif
}

int fndsa_base_sampler(fndsa_prng *p)
{
    uint64_t lo = fndsa_prng_get_u64(p);
    uint32_t hi = fndsa_prng_get_u8(p);
    return base_sampler_count(lo, hi);
}

/* high 64 bits of the 128-bit product a*b, from 32x32->64 products */
static inline uint64_t expm_mulhi64(uint64_t a, uint64_t b)
{
#if defined(__ARM_FEATURE_DSP) && !defined(__aarch64__) && defined(__GNUC__)
    /* Armv7E-M: one UMULL and three UMAAL (fixed-latency multiplies):
     * a0 b0 = l0 + 2^32 c0; a1 b0 + c0 = l1 + 2^32 h1; a0 b1 + l1 = l2 + 2^32 h2;
     * a1 b1 + h1 + h2 = l3 + 2^32 h3 (UMAAL never overflows), and the product's
     * high half is h1 + h2 + a1 b1 = h3:l3. The same value as the C below. */
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32), b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint32_t l0, c0, h1 = 0, h2 = 0;
    __asm__("umull %0, %1, %2, %3" : "=&r"(l0), "=&r"(c0) : "r"(a0), "r"(b0));
    __asm__("umaal %0, %1, %2, %3" : "+r"(c0), "+r"(h1) : "r"(a1), "r"(b0)); /* c0 <- l1 */
    __asm__("umaal %0, %1, %2, %3" : "+r"(c0), "+r"(h2) : "r"(a0), "r"(b1)); /* c0 <- l2 */
    __asm__("umaal %0, %1, %2, %3" : "+r"(h1), "+r"(h2) : "r"(a1), "r"(b1)); /* h2:h1 */
    (void)l0;
    return ((uint64_t)h2 << 32) | h1;
#elif defined(__aarch64__) && defined(__SIZEOF_INT128__)
    /* AArch64: the high half is one UMULH, a multiplier instruction like the MUL/UMULL the
     * 32-bit decomposition below compiles to (so no timing property is lost); that
     * decomposition took about 38 instructions per call (qemu counts, docs/fndsa.md) */
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
#else
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t lo = a0 * b0, m1 = a0 * b1, m2 = a1 * b0, hi = a1 * b1;
    uint64_t mid = (lo >> 32) + (uint32_t)m1 + (uint32_t)m2; /* < 3 * 2^32 */
    return hi + (m1 >> 32) + (m2 >> 32) + (mid >> 32);
#endif
}

/* 2^63 * ccs * exp(-x) for 0 <= x < ln 2, 0 <= ccs <= 1: Horner evaluation of
 * the FACCT polynomial in 64-bit fixed point (coefficients scaled by 2^63;
 * z = x * 2^64 so that mulhi(z, y) = x * y). */
uint64_t fndsa_expm_p63(fpr x, fpr ccs)
{
    uint64_t y = fndsa_expm_c[0];
    uint64_t z = (uint64_t)fpr_trunc(fpr_mul(x, FPR_PTWO63)) << 1;
    for (int i = 1; i < 13; i++) {
        y = fndsa_expm_c[i] - expm_mulhi64(z, y);
    }
    z = (uint64_t)fpr_trunc(fpr_mul(ccs, FPR_PTWO63)) << 1;
    return expm_mulhi64(z, y);
}

#if defined(PQLAB_FNDSA_BEREXP_NATIVE) && defined(PQLAB_FNDSA_FPR_NATIVE)
/* the backend's threshold (lib/native/fndsa_sampler.h) replaces the C below */
#define BEREXP_THRESHOLD_NATIVE 1
#include "../native/fndsa_sampler.h"
#else
/* BerExp's threshold: 2^64 ccs exp(-x) - 1 as the reduction x = s ln2 + r computes it (a
 * function of its own so that pqlab/fmastudy.py can compare it between builds) */
static inline uint64_t berexp_threshold(fpr x, fpr ccs)
{
    /* x = s ln2 + r, 0 <= r < ln 2; s >= 64 gives probability < 2^-64, so s
     * saturates at 63 (mask, no branch) */
    int32_t s = (int32_t)fpr_trunc(fpr_mul(x, FPR_INV_LOG2));
    fpr r = fpr_sub(x, fpr_mul(fpr_of32(s), FPR_LOG2));
    uint32_t sw = (uint32_t)s;
    sw ^= (sw ^ 63) & ((uint32_t)0 - ((63 - sw) >> 31));
    /* 2^64 * ccs * exp(-r) - 1 fits in 64 bits; divide by 2^s */
    return fpr_ursh((fndsa_expm_p63(r, ccs) << 1) - 1, sw);
}
#endif

/* BerExp's lazy comparison of a uniform 64-bit value with the threshold z, byte by byte from the
 * top: the first differing byte decides; returns 1 (accept) when the value is below z. *nbytes
 * is the number of bytes read (1 with probability 255/256), public as the loop's exit is. */
static inline int berexp_lazy(fndsa_prng *p, uint64_t z, unsigned *nbytes)
{
    int i = 64;
    uint32_t w;
    for (;;) {
        i -= 8;
        w = fndsa_prng_get_u8(p) - ((uint32_t)(z >> i) & 0xFF);
        uint32_t more = pqlab_ct_is_zero_u32(w) & (uint32_t)(i > 0);
        PQLAB_DECLASSIFY(&more, sizeof more); /* equal bytes: probability 2^-8 */
        if (!more) {
            break;
        }
    }
    *nbytes = (unsigned)(64 - i) >> 3;
    return (int)(w >> 31);
}

/* BerExp (alg. 13): returns 1 with probability ccs * exp(-x), x >= 0. Out of line as it was
 * compiled before the lazy comparison became berexp_lazy (shared with the pair sampler): GCC 12
 * then inlined it into fndsa_samplerz, which the Cortex-A72 model costs about 80 K cycles more
 * per FN-DSA-512 signature of the portable C (docs/neon.md, h96). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
int fndsa_berexp(fndsa_prng *p, fpr x, fpr ccs)
{
#ifdef BEREXP_THRESHOLD_NATIVE
    /* the backend's threshold (lib/native/fndsa_sampler.h): the same value on its domain */
    PQLAB_CONTRACT("fndsa berexp_threshold", x > -0x1p30 && x < 0x1p30 && ccs >= 0.0 && ccs < 1.0,
                   "|x| < 2^30, 0 <= ccs < 1");
    uint64_t z = pqlab_fndsa_berexp_threshold_native(x, ccs, fndsa_expm_c);
#else
    uint64_t z = berexp_threshold(x, ccs);
#endif
    unsigned nbytes;
    return berexp_lazy(p, z, &nbytes);
}

/* x of a candidate z = b + (2b - 1) z0 for SamplerZ with centre fraction r:
 * (z - r)^2 / (2 sigma'^2) - z0^2 / (2 sigma0^2), dss = 1 / (2 sigma'^2) */
static inline fpr candidate_x(int32_t z, int32_t z0, fpr r, fpr dss)
{
    fpr x = fpr_mul(fpr_sqr(fpr_sub(fpr_of32(z), r)), dss);
    return fpr_sub(x, fpr_mul(fpr_of32(z0 * z0), FPR_INV_2SQRSIGMA0));
}

/* SamplerZ (alg. 14): integer from D_{Z, mu, sigma'} with 1/sigma' = isigma. */
int fndsa_samplerz(fndsa_sampler *sc, fpr mu, fpr isigma)
{
    int32_t s = (int32_t)fpr_floor(mu);
    fpr r = fpr_sub(mu, fpr_of32(s));
    fpr dss = fpr_half(fpr_sqr(isigma)); /* 1 / (2 sigma'^2) */
    fpr ccs = fpr_mul(isigma, sc->sigma_min);
    for (;;) {
        /* bimodal candidate: b = 1 -> z = 1 + z0, b = 0 -> z = -z0 */
        int32_t z0 = fndsa_base_sampler(&sc->p);
        int32_t b = (int32_t)(fndsa_prng_get_u8(&sc->p) & 1);
        int32_t z = b + ((b << 1) - 1) * z0;
        /* accept with probability exp(-x),
         * x = (z - r)^2 / (2 sigma'^2) - z0^2 / (2 sigma0^2) */
        int acc = fndsa_berexp(&sc->p, candidate_x(z, z0, r, dss), ccs);
        PQLAB_DECLASSIFY(&acc, sizeof acc); /* rejection outcome: see header */
        if (acc) {
            return s + z;
        }
    }
}

#if defined(BEREXP_THRESHOLD_NATIVE) && defined(PQLAB_FNDSA_RCDT_NATIVE) && !defined(PQLAB_FNDSA_SCRIPTED_PRNG) &&     \
    !defined(PQLAB_FNDSA_CT_NEGATIVE_CONTROL)
#define SAMPLERZ_PAIR 1
/* Two SamplerZ calls with the same isigma (the two samples of an ffSampling leaf), a = SamplerZ(a)
 * then b = SamplerZ(b), with two candidates in flight: the same PRNG bytes read in the same order,
 * the same candidates accepted, so the same outputs and the same PRNG state afterwards as the two
 * calls of fndsa_samplerz one after the other.
 *
 * Why: BerExp's threshold is a serial chain of 13 UMULH + SUB steps (about 90 cycles of latency on
 * a Cortex-A72) that leaves the core idle; candidates are accepted with probability about 0.6.
 *
 * The byte stream of the two calls is a sequence of candidates, each [8 bytes lo, 1 byte hi,
 * 1 byte b] (BaseSampler and the sign bit) followed by BerExp's lazy comparison of 1 to 8 bytes;
 * the first call's candidates use centre mu_a until one is accepted, then the second call's use
 * mu_b. A round draws candidate A with the ordinary PRNG calls; at that point the PRNG pointer Q
 * (public: it only depends on the number of draws) is where A's lazy comparison starts. If
 * Q <= 500, the candidate B that follows A when A's comparison reads exactly one byte (probability
 * 255/256) lies at Q + 1 .. Q + 10 of the current buffer, and reading it with the ordinary calls
 * would refill nothing: fndsa_prng_get_u64 refills only for a pointer >= 503 (Q + 1 <= 501), and
 * fndsa_prng_get_u8 only when its pointer reaches 512 (the last of B's bytes leaves it at
 * Q + 11 <= 511). So B's bytes are read from the buffer in place, both base samples are counted
 * side by side (pqlab_fndsa_rcdt_count2_native), B's x is formed for both centres
 * it may belong to (A rejected: A's call; A accepted: the next call), and the three thresholds (A,
 * B under each centre) are evaluated side by side (pqlab_fndsa_berexp_threshold3_native). Then A's
 * lazy comparison runs as always. If it read exactly one byte, the pointer is Q + 1 and B is the
 * next candidate of the stream: the pointer moves over B's ten bytes exactly as the three ordinary
 * calls would (no refill, shown above), B's threshold is the one of the centre now current, and
 * B's lazy comparison runs as always. Otherwise B was not the next candidate: it is dropped and
 * nothing of it was consumed. If Q > 500, the round is A alone. In every case each candidate's
 * bytes, x, threshold (the 3-way kernel's lanes are the 1-way values bit for bit) and accept
 * decision are those of fndsa_samplerz's loop, in the same order.
 *
 * Constant time: the extra work depends on Q only; which threshold B uses and whether B runs
 * depend on A's outcome and on the number of bytes its comparison read, both public already
 * (declassified as in fndsa_samplerz and berexp_lazy). */
static void samplerz_pair(fndsa_sampler *sc, fpr *a, fpr *b, fpr isigma)
{
    fndsa_prng *p = &sc->p;
    const fpr mu[2] = {*a, *b};
    int32_t s[2], out[2];
    fpr r[2];
    /* the backend's floor and fraction (lib/native/fndsa_sampler.h): fndsa_samplerz's s and r */
    PQLAB_CONTRACT("fndsa samplerz_centres", mu[0] > -0x1p31 && mu[0] < 0x1p31 && mu[1] > -0x1p31 && mu[1] < 0x1p31,
                   "|mu| < 2^31");
    pqlab_fndsa_samplerz_centres_native(s, r, mu);
    const fpr dss = fpr_half(fpr_sqr(isigma));
    const fpr ccs = fpr_mul(isigma, sc->sigma_min);
    PQLAB_CONTRACT("fndsa berexp_threshold", ccs >= 0.0 && ccs < 1.0, "0 <= ccs < 1");
    int k = 0; /* the call whose candidates are drawn now (public) */
    while (k < 2) {
        /* A: its bytes as fndsa_base_sampler and fndsa_samplerz draw them */
        uint64_t lo[2];
        uint32_t hi[2];
        lo[0] = fndsa_prng_get_u64(p);
        hi[0] = fndsa_prng_get_u8(p);
        const int32_t bit = (int32_t)(fndsa_prng_get_u8(p) & 1);
        const size_t q = p->ptr;
        fpr x[3];
        unsigned nbytes;
        if (q > 500) { /* B would cross a refill: A alone, as fndsa_samplerz */
            const int32_t z0 = base_sampler_count(lo[0], hi[0]);
            const int32_t z = bit + ((bit << 1) - 1) * z0;
            x[0] = candidate_x(z, z0, r[k], dss);
            PQLAB_CONTRACT("fndsa berexp_threshold", x[0] > -0x1p30 && x[0] < 0x1p30, "|x| < 2^30");
            int acc = berexp_lazy(p, pqlab_fndsa_berexp_threshold_native(x[0], ccs, fndsa_expm_c), &nbytes);
            PQLAB_DECLASSIFY(&acc, sizeof acc);
            if (acc) {
                out[k] = s[k] + z;
                k++;
            }
            continue;
        }
        /* B: bytes q + 1 .. q + 10, read in place (lo little-endian, as fndsa_prng_get_u64) */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        __builtin_memcpy(&lo[1], p->buf + q + 1, sizeof lo[1]);
#else
        lo[1] = 0;
        for (int i = 7; i >= 0; i--) {
            lo[1] = (lo[1] << 8) | p->buf[q + 1 + (size_t)i];
        }
#endif
        hi[1] = p->buf[q + 9];
        const int32_t bitb = (int32_t)(p->buf[q + 10] & 1);
        int z0s[2]; /* both base samples side by side (the backend's count, as base_sampler_count) */
        pqlab_fndsa_rcdt_count2_native(z0s, lo, hi);
        const int32_t z0 = z0s[0], z0b = z0s[1];
        const int32_t z = bit + ((bit << 1) - 1) * z0;
        const int32_t zb = bitb + ((bitb << 1) - 1) * z0b;
        x[0] = candidate_x(z, z0, r[k], dss);
        x[1] = candidate_x(zb, z0b, r[k], dss); /* B if A is rejected: A's call */
        x[2] = candidate_x(zb, z0b, r[1], dss); /* B if A is accepted (then k = 0 -> 1) */
        for (int l = 0; l < 3; l++) {
            PQLAB_CONTRACT("fndsa berexp_threshold", x[l] > -0x1p30 && x[l] < 0x1p30, "|x| < 2^30");
        }
        uint64_t t[3];
        pqlab_fndsa_berexp_threshold3_native(t, x, ccs, fndsa_expm_c);
        int acc = berexp_lazy(p, t[0], &nbytes);
        PQLAB_DECLASSIFY(&acc, sizeof acc); /* rejection outcome: see header */
        if (acc) {
            out[k] = s[k] + z;
            k++;
        }
        if (k == 2 || nbytes != 1) {
            continue; /* done, or B is not the next candidate (nothing of it consumed) */
        }
        p->ptr = q + 11; /* B's draws: pointer q + 1 -> q + 11 <= 511, no refill */
        int accb = berexp_lazy(p, acc ? t[2] : t[1], &nbytes);
        PQLAB_DECLASSIFY(&accb, sizeof accb);
        if (accb) {
            out[k] = s[k] + zb;
            k++;
        }
    }
    *a = fpr_of32(out[0]);
    *b = fpr_of32(out[1]);
}
#endif

/* The two samples of an ffSampling leaf: a = SamplerZ(a) then b = SamplerZ(b), same isigma. */
void fndsa_samplerz_leaf(fndsa_sampler *sc, fpr *a, fpr *b, fpr isigma)
{
#ifdef SAMPLERZ_PAIR
    samplerz_pair(sc, a, b, isigma);
#else
    *a = fpr_of32(fndsa_samplerz(sc, *a, isigma));
    *b = fpr_of32(fndsa_samplerz(sc, *b, isigma));
#endif
}
