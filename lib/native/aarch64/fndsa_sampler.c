/* SPDX-License-Identifier: MIT */
/* BerExp's threshold (Falcon specification v1.2, algorithm 13; contract lib/native/fndsa_sampler.h,
 * PQLAB_FNDSA_BEREXP_NATIVE) for the native-double fpr layer: the value of lib/fndsa/sampler.c's
 * berexp_threshold, bit for bit.
 *
 * What differs from the C: fpr.h's fpr_trunc takes a double apart with about 30 integer
 * instructions (its constant-time conversion for cores whose FP-to-integer conversion may not be
 * fixed-latency); here each of the three truncations is one FCVTZS, which rounds toward zero as
 * fpr_trunc does and gives the same integer for every operand below 2^63 in magnitude (the
 * contract's domain keeps all three there). The polynomial is the C's: 64-bit fixed-point Horner
 * with one UMULH per step (a serial chain: each step needs the previous y, and a different
 * evaluation order would round differently), then the shift by min(s, 63) as one LSR.
 *
 * Rounding: x / ln 2 as x times the double 1/ln 2, r = x - s ln 2 as a product and a
 * difference, each rounded (fp-contract off below, as the `fpu` implementation is compiled);
 * under the FMA study's PQLAB_FNDSA_FMA, where the C is compiled with contraction, r is one
 * fused multiply-subtract as GCC contracts the C's expression. Constants: the doubles of
 * lib/fndsa/tables.h (FPR_INV_LOG2 0x3FF71547652B82FE, FPR_LOG2 0x3FE62E42FEFA39EF,
 * FPR_PTWO63 0x43E0000000000000). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <arm_neon.h>
#include <stdint.h>

#include "../api.h"
#include "../fndsa_sampler.h"

static inline uint64_t sampler_mulhi(uint64_t a, uint64_t b)
{
    return (uint64_t)(((unsigned __int128)a * b) >> 64); /* UMULH */
}

/* The thresholds of k independent (x, ccs) pairs, lane by lane the steps of sampler.c's
 * berexp_threshold. k is a compile-time constant at both call sites (1 and 3): GCC unrolls the lane
 * loops, so the k Horner chains are interleaved step by step in one basic block and their UMULHs
 * overlap (the Cortex-A72 issues one UMULH per cycle; a chain waits 6 + 1 cycles per step). Every
 * lane's operations are the single evaluation's, in the same order, so each lane's value is the
 * one-pair value bit for bit. */
static inline __attribute__((always_inline)) void threshold_lanes(uint64_t *t, const double *x, const double *ccs,
                                                                  const uint64_t c[13], unsigned int k)
{
    const double inv_log2 = 0x1.71547652b82fep+0, log2 = 0x1.62e42fefa39efp-1, two63 = 0x1p63;
    uint64_t y[3], z[3];
    uint32_t sw[3];
    for (unsigned int l = 0; l < k; l++) {
        const double xs = x[l] * inv_log2;
        const int32_t s = (int32_t)vcvtd_s64_f64(xs); /* FCVTZS, then the low word as the C */
        /* (double)s as FRINTZ (trunc in the FP registers), off the FCVTZS + SCVTF latency: the same
         * value, as |xs| < 1.45 2^30 on the domain, but for xs in (-1, 0], where FRINTZ gives -0
         * and (double)s +0; r then differs from the C's at most in the sign of a zero (x = -0), and
         * both zeros truncate to the same z below */
        const double sf = __builtin_trunc(xs); /* FRINTZ */
#ifdef PQLAB_FNDSA_FMA
        const double r = __builtin_fma(-sf, log2, x[l]);
#else
        const double r = x[l] - sf * log2;
#endif
        /* min(s, 63) for s as an unsigned word, masked as the C */
        uint32_t w = (uint32_t)s;
        w ^= (w ^ 63) & ((uint32_t)0 - ((63 - w) >> 31));
        sw[l] = w;
        z[l] = (uint64_t)vcvtd_s64_f64(r * two63) << 1;
        y[l] = c[0];
    }
    for (unsigned int i = 1; i < 13; i++) {
        for (unsigned int l = 0; l < k; l++) {
            y[l] = c[i] - sampler_mulhi(z[l], y[l]);
        }
    }
    for (unsigned int l = 0; l < k; l++) {
        const uint64_t zc = (uint64_t)vcvtd_s64_f64(ccs[l] * two63) << 1;
        const uint64_t p = sampler_mulhi(zc, y[l]);
        t[l] = ((p << 1) - 1) >> sw[l]; /* sw <= 63 */
    }
}

uint64_t pqlab_fndsa_berexp_threshold_native(double x, double ccs, const uint64_t c[13])
{
    uint64_t t;
    threshold_lanes(&t, &x, &ccs, c, 1);
    return t;
}

void pqlab_fndsa_berexp_threshold3_native(uint64_t t[3], const double x[3], double ccs, const uint64_t c[13])
{
    const double cc[3] = {ccs, ccs, ccs};
    threshold_lanes(t, x, cc, c, 3);
}

void pqlab_fndsa_samplerz_centres_native(int32_t s[2], double r[2], const double mu[2])
{
    for (unsigned int l = 0; l < 2; l++) {
        /* FCVTMS: floor, |mu| < 2^31. fpr.h's floor reads a subnormal as zero (floor 0, where
         * FCVTMS gives -1 for a negative one): the mask of |mu| < 2^-1022 (FACGT) clears it */
        const uint64_t tiny = vcaltd_f64(mu[l], 0x1p-1022);
        s[l] = (int32_t)(vcvtmd_s64_f64(mu[l]) & (int64_t)~tiny);
        r[l] = mu[l] - (double)s[l];
    }
}
