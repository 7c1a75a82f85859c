/* SPDX-License-Identifier: MIT */
/* Contract checks of the ML-DSA arithmetic kernels (the bounds in kernels.h), compiled only
 * with -DPQLAB_CONTRACT_CHECKS (lib/native/api.h): each wrapper calls the kernel kernels.h
 * selected (native or C), checks the inputs at entry and the outputs at exit, and stops the
 * program through pqlab_contract_failed on a violation. Included at the end of kernels.h;
 * a new kernel adds its wrapper here. */
#ifndef PQLAB_MLDSA_KERNELS_CONTRACT_H
#define PQLAB_MLDSA_KERNELS_CONTRACT_H

#ifdef PQLAB_CONTRACT_CHECKS

/* every coefficient in [lo, hi] */
static inline int mldsa_contract_in(const int32_t a[MLDSA_N], int64_t lo, int64_t hi)
{
    for (unsigned int i = 0; i < MLDSA_N; i++) {
        if (a[i] < lo || a[i] > hi) {
            return 0;
        }
    }
    return 1;
}

static inline int32_t mldsa_contract_maxabs(const int32_t a[MLDSA_N])
{
    int64_t m = 0;
    for (unsigned int i = 0; i < MLDSA_N; i++) {
        const int64_t v = a[i] < 0 ? -(int64_t)a[i] : a[i];
        m = v > m ? v : m;
    }
    return (int32_t)(m > INT32_MAX ? INT32_MAX : m);
}

#define MLDSA_BELOW_Q(a) mldsa_contract_in((a), -(MLDSA_Q - 1), MLDSA_Q - 1)

/* the NTT's bounds: kernels.h's unless the backend header states its own (a narrower input
 * bound and the growth in multiples of q, e.g. lib/native/rv32/mldsa_native.h) */
#ifndef PQLAB_MLDSA_NTT_IN_MAX
#define PQLAB_MLDSA_NTT_IN_MAX (INT32_MAX - 8 * MLDSA_Q)
#define PQLAB_MLDSA_NTT_IN_WHAT "input |a| <= 2^31 - 1 - 8q"
#define PQLAB_MLDSA_NTT_GROWTH_Q 8
#define PQLAB_MLDSA_NTT_OUT_WHAT "output |a| < max|in| + 8q"
#endif

static inline void mldsa_ntt_checked(int32_t a[MLDSA_N])
{
    const int32_t m = mldsa_contract_maxabs(a);
    PQLAB_CONTRACT("mldsa_ntt", m <= PQLAB_MLDSA_NTT_IN_MAX, PQLAB_MLDSA_NTT_IN_WHAT);
    mldsa_ntt(a);
    PQLAB_CONTRACT("mldsa_ntt", mldsa_contract_maxabs(a) < (int64_t)m + PQLAB_MLDSA_NTT_GROWTH_Q * MLDSA_Q,
                   PQLAB_MLDSA_NTT_OUT_WHAT);
}

static inline void mldsa_invntt_tomont_checked(int32_t a[MLDSA_N])
{
    PQLAB_CONTRACT("mldsa_invntt_tomont", MLDSA_BELOW_Q(a), "input |a| < q");
    mldsa_invntt_tomont(a);
    PQLAB_CONTRACT("mldsa_invntt_tomont", MLDSA_BELOW_Q(a), "output |a| < q");
}

static inline int mldsa_contract_products(const int32_t a[MLDSA_N], const int32_t b[MLDSA_N])
{
    for (unsigned int i = 0; i < MLDSA_N; i++) {
        const int64_t p = (int64_t)a[i] * b[i];
        if (p >= ((int64_t)1 << 31) * MLDSA_Q || p <= -((int64_t)1 << 31) * MLDSA_Q) {
            return 0;
        }
    }
    return 1;
}

static inline void mldsa_pointwise_mont_checked(int32_t c[MLDSA_N], const int32_t a[MLDSA_N], const int32_t b[MLDSA_N])
{
    PQLAB_CONTRACT("mldsa_pointwise_mont", mldsa_contract_products(a, b), "input |a b| < 2^31 q");
    mldsa_pointwise_mont(c, a, b);
    PQLAB_CONTRACT("mldsa_pointwise_mont", MLDSA_BELOW_Q(c), "output |c| < q");
}

static inline void mldsa_pointwise_acc_mont_checked(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],
                                                    const int32_t b[MLDSA_N])
{
    PQLAB_CONTRACT("mldsa_pointwise_acc_mont", mldsa_contract_products(a, b), "input |a b| < 2^31 q");
    PQLAB_CONTRACT("mldsa_pointwise_acc_mont", mldsa_contract_maxabs(c) < INT32_MAX - MLDSA_Q, "input |c| + q < 2^31");
    mldsa_pointwise_acc_mont(c, a, b);
}

static inline void mldsa_polyvec_pointwise_acc_mont_checked(int32_t w[MLDSA_N], const mldsa_poly *a,
                                                            const mldsa_poly *b, unsigned int count)
{
    int ok = count >= 1;
    for (unsigned int i = 0; i < MLDSA_N; i++) {
        int64_t s = 0; /* |a b| < 2^62 each; the sum is checked term by term */
        for (unsigned int j = 0; j < count && ok; j++) {
            const int64_t p = (int64_t)a[j].c[i] * b[j].c[i];
            s += p < 0 ? -p : p;
            ok = s < ((int64_t)1 << 31) * MLDSA_Q;
        }
    }
    PQLAB_CONTRACT("mldsa_polyvec_pointwise_acc_mont", ok, "input count >= 1, sum |a_j b_j| < 2^31 q");
    mldsa_polyvec_pointwise_acc_mont(w, a, b, count);
    PQLAB_CONTRACT("mldsa_polyvec_pointwise_acc_mont", MLDSA_BELOW_Q(w), "output |w| < q");
}

static inline void mldsa_polyvec_nttmul_add_checked(mldsa_poly *r, const mldsa_poly *base, const mldsa_poly *chat,
                                                    const mldsa_poly *shat, unsigned int count)
{
    for (unsigned int j = 0; j < count; j++) {
        PQLAB_CONTRACT("mldsa_polyvec_nttmul_add", mldsa_contract_products(chat->c, shat[j].c),
                       "input |chat shat| < 2^31 q");
        PQLAB_CONTRACT("mldsa_polyvec_nttmul_add",
                       base == NULL || mldsa_contract_maxabs(base[j].c) < INT32_MAX - (1 << 21),
                       "input |base| + 2^21 < 2^31");
    }
    mldsa_polyvec_nttmul_add(r, base, chat, shat, count);
}

static inline void mldsa_poly_reduce32_checked(int32_t a[MLDSA_N])
{
    PQLAB_CONTRACT("mldsa_poly_reduce32", mldsa_contract_maxabs(a) <= INT32_MAX - (1 << 22),
                   "input |a| <= 2^31 - 2^22 - 1");
    mldsa_poly_reduce32(a);
    PQLAB_CONTRACT("mldsa_poly_reduce32", mldsa_contract_in(a, -6291200, 6291200), "output |a| <= 6291200");
}

static inline void mldsa_poly_caddq_checked(int32_t a[MLDSA_N])
{
    PQLAB_CONTRACT("mldsa_poly_caddq", MLDSA_BELOW_Q(a), "input -q < a < q");
    mldsa_poly_caddq(a);
    PQLAB_CONTRACT("mldsa_poly_caddq", mldsa_contract_in(a, 0, MLDSA_Q - 1), "output 0 <= a < q");
}

static inline unsigned int mldsa_rej_eta_checked(int32_t *a, const uint8_t *buf, unsigned int nbytes)
{
    const unsigned int n = mldsa_rej_eta(a, buf, nbytes);
    PQLAB_CONTRACT("mldsa_rej_eta", n <= 2 * nbytes, "count <= 2 nbytes");
    for (unsigned int i = 0; i < n; i++) {
        PQLAB_CONTRACT("mldsa_rej_eta", a[i] >= -MLDSA_ETA && a[i] <= MLDSA_ETA, "output in [-eta, eta]");
    }
    return n;
}

#undef mldsa_ntt
#undef mldsa_invntt_tomont
#undef mldsa_pointwise_mont
#undef mldsa_pointwise_acc_mont
#undef mldsa_polyvec_pointwise_acc_mont
#undef mldsa_polyvec_nttmul_add
#undef mldsa_poly_reduce32
#undef mldsa_poly_caddq
#undef mldsa_rej_eta
#define mldsa_ntt mldsa_ntt_checked
#define mldsa_invntt_tomont mldsa_invntt_tomont_checked
#define mldsa_pointwise_mont mldsa_pointwise_mont_checked
#define mldsa_pointwise_acc_mont mldsa_pointwise_acc_mont_checked
#define mldsa_polyvec_pointwise_acc_mont mldsa_polyvec_pointwise_acc_mont_checked
#define mldsa_polyvec_nttmul_add mldsa_polyvec_nttmul_add_checked
#define mldsa_poly_reduce32 mldsa_poly_reduce32_checked
#define mldsa_poly_caddq mldsa_poly_caddq_checked
#define mldsa_rej_eta mldsa_rej_eta_checked

#endif /* PQLAB_CONTRACT_CHECKS */
#endif
