/* SPDX-License-Identifier: MIT */
/* Contract checks of the ML-KEM kernels (the bounds table of kernels.h), compiled only with
 * -DPQLAB_CONTRACT_CHECKS (lib/native/api.h): each dispatcher below wraps the one of
 * kernels.h (native or C), checks the inputs at entry and the outputs at exit, and stops
 * the program through pqlab_contract_failed on a violation. Included at the end of
 * kernels.h; a new kernel adds its wrapper here. */
#ifndef PQLAB_MLKEM_KERNELS_CONTRACT_H
#define PQLAB_MLKEM_KERNELS_CONTRACT_H

#ifdef PQLAB_CONTRACT_CHECKS

/* every coefficient in [lo, hi] */
static inline int mlkem_contract_in(const mlkem_poly *a, int32_t lo, int32_t hi)
{
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        if (a->c[i] < lo || a->c[i] > hi) {
            return 0;
        }
    }
    return 1;
}

#define MLKEM_CANON(p) mlkem_contract_in((p), 0, MLKEM_Q - 1)
#define MLKEM_BELOW_Q(p) mlkem_contract_in((p), -(MLKEM_Q - 1), MLKEM_Q - 1)

static inline void mlkem_ntt_checked(mlkem_poly *r)
{
    PQLAB_CONTRACT("mlkem_ntt", MLKEM_BELOW_Q(r), "input |c| < q");
    mlkem_ntt(r);
    PQLAB_CONTRACT("mlkem_ntt", MLKEM_BELOW_Q(r), "output |c| < q");
}

/* |c| < 2^14 (the backend form leaves the last layer unreduced: |c| <= 14976) */
static inline void mlkem_ntt_unreduced_checked(mlkem_poly *r)
{
    PQLAB_CONTRACT("mlkem_ntt_unreduced", MLKEM_BELOW_Q(r), "input |c| < q");
    mlkem_ntt_unreduced(r);
    PQLAB_CONTRACT("mlkem_ntt_unreduced", mlkem_contract_in(r, -(1 << 14) + 1, (1 << 14) - 1), "output |c| < 2^14");
}

static inline void mlkem_invntt_checked(mlkem_poly *r)
{
    PQLAB_CONTRACT("mlkem_invntt", mlkem_contract_in(r, -4 * MLKEM_Q + 1, 4 * MLKEM_Q - 1), "input |c| < 4q");
    mlkem_invntt(r);
    PQLAB_CONTRACT("mlkem_invntt", MLKEM_BELOW_Q(r), "output |c| < q");
}

static inline void mlkem_invntt_q_checked(mlkem_poly *r)
{
    PQLAB_CONTRACT("mlkem_invntt_q", MLKEM_BELOW_Q(r), "input |c| < q");
    mlkem_invntt_q(r);
    PQLAB_CONTRACT("mlkem_invntt_q", MLKEM_BELOW_Q(r), "output |c| < q");
}

static inline void mlkem_basemul_acc_checked(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b)
{
    mlkem_poly before = *r;
    PQLAB_CONTRACT("mlkem_basemul_acc", MLKEM_BELOW_Q(a) && MLKEM_BELOW_Q(b), "inputs a, b |c| < q");
    PQLAB_CONTRACT("mlkem_basemul_acc", mlkem_contract_in(r, -6 * MLKEM_Q, 6 * MLKEM_Q), "accumulator |r| <= 6q");
    mlkem_basemul_acc(r, a, b);
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        const int32_t d = (int32_t)r->c[i] - before.c[i];
        PQLAB_CONTRACT("mlkem_basemul_acc", d > -MLKEM_Q && d < MLKEM_Q, "added term |t| < q");
    }
}

static inline void mlkem_tobytes12_checked(uint8_t out[MLKEM_POLYBYTES], const mlkem_poly *a)
{
    PQLAB_CONTRACT("mlkem_tobytes12", mlkem_contract_in(a, -2 * MLKEM_Q + 1, 2 * MLKEM_Q - 1), "input |c| < 2q");
    mlkem_tobytes12(out, a);
}

static inline void mlkem_frombytes12_checked(mlkem_poly *r, const uint8_t in[MLKEM_POLYBYTES])
{
    mlkem_frombytes12(r, in);
    PQLAB_CONTRACT("mlkem_frombytes12", MLKEM_CANON(r), "output canonical");
}

static inline void mlkem_compress_du_checked(uint8_t out[MLKEM_POLYCOMPRESSED_DU], const mlkem_poly *a)
{
    PQLAB_CONTRACT("mlkem_compress_du", mlkem_contract_in(a, -2 * MLKEM_Q + 1, 2 * MLKEM_Q - 1), "input |c| < 2q");
    mlkem_compress_du(out, a);
}

static inline void mlkem_compress_dv_checked(uint8_t out[MLKEM_POLYCOMPRESSED_DV], const mlkem_poly *a)
{
    PQLAB_CONTRACT("mlkem_compress_dv", mlkem_contract_in(a, -2 * MLKEM_Q + 1, 2 * MLKEM_Q - 1), "input |c| < 2q");
    mlkem_compress_dv(out, a);
}

static inline void mlkem_decompress_du_checked(mlkem_poly *r, const uint8_t in[MLKEM_POLYCOMPRESSED_DU])
{
    mlkem_decompress_du(r, in);
    PQLAB_CONTRACT("mlkem_decompress_du", MLKEM_CANON(r), "output canonical");
}

static inline void mlkem_decompress_dv_checked(mlkem_poly *r, const uint8_t in[MLKEM_POLYCOMPRESSED_DV])
{
    mlkem_decompress_dv(r, in);
    PQLAB_CONTRACT("mlkem_decompress_dv", MLKEM_CANON(r), "output canonical");
}

static inline void mlkem_frommsg_add_checked(mlkem_poly *r, const uint8_t msg[MLKEM_SYMBYTES])
{
    PQLAB_CONTRACT("mlkem_frommsg_add", mlkem_contract_in(r, -32767 + 1665, 32767 - 1665), "input |r| < 2^15 - 1665");
    mlkem_frommsg_add(r, msg);
}

static inline void mlkem_frommsg_checked(mlkem_poly *r, const uint8_t msg[MLKEM_SYMBYTES])
{
    mlkem_frommsg(r, msg);
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        PQLAB_CONTRACT("mlkem_frommsg", r->c[i] == 0 || r->c[i] == (MLKEM_Q + 1) / 2, "output 0 or (q+1)/2");
    }
}

static inline void mlkem_tomsg_sub_checked(uint8_t msg[MLKEM_SYMBYTES], const mlkem_poly *v, mlkem_poly *w)
{
    PQLAB_CONTRACT("mlkem_tomsg_sub", MLKEM_CANON(v), "input v canonical");
    PQLAB_CONTRACT("mlkem_tomsg_sub", MLKEM_BELOW_Q(w), "input |w| < q");
    mlkem_tomsg_sub(msg, v, w);
}

static inline void mlkem_tomsg_checked(uint8_t msg[MLKEM_SYMBYTES], const mlkem_poly *a)
{
    PQLAB_CONTRACT("mlkem_tomsg", MLKEM_CANON(a), "input canonical");
    mlkem_tomsg(msg, a);
}

static inline void mlkem_sample_ntt_checked(mlkem_poly *r, const uint8_t rho[MLKEM_SYMBYTES], uint8_t x, uint8_t y)
{
    mlkem_sample_ntt(r, rho, x, y);
    PQLAB_CONTRACT("mlkem_sample_ntt", MLKEM_CANON(r), "output canonical");
}

static inline void mlkem_sample_ntt_x4_checked(mlkem_poly *r0, mlkem_poly *r1, mlkem_poly *r2, mlkem_poly *r3,
                                               const uint8_t rho[MLKEM_SYMBYTES], const uint8_t xy[8])
{
    mlkem_sample_ntt_x4(r0, r1, r2, r3, rho, xy);
    PQLAB_CONTRACT("mlkem_sample_ntt_x4", MLKEM_CANON(r0) && MLKEM_CANON(r1) && MLKEM_CANON(r2) && MLKEM_CANON(r3),
                   "outputs canonical");
}

/* every value of a 32-bit accumulator below q 2^15 in magnitude (reduce32's input) */
static inline int mlkem_contract_in32(const mlkem_poly32 *a)
{
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        if (a->c[i] <= -MLKEM_Q * 32768 || a->c[i] >= MLKEM_Q * 32768) {
            return 0;
        }
    }
    return 1;
}

static inline int mlkem_contract_cache(const mlkem_polycache *bg)
{
    for (unsigned int i = 0; i < MLKEM_N / 2; i++) {
        if (bg->c[i] <= -MLKEM_Q || bg->c[i] >= MLKEM_Q) {
            return 0;
        }
    }
    return 1;
}

static inline void mlkem_ntt_cache_checked(mlkem_poly *r, mlkem_polycache *bg)
{
    PQLAB_CONTRACT("mlkem_ntt_cache", MLKEM_BELOW_Q(r), "input |c| < q");
    mlkem_ntt_cache(r, bg);
    PQLAB_CONTRACT("mlkem_ntt_cache", MLKEM_BELOW_Q(r), "output |c| < q");
    PQLAB_CONTRACT("mlkem_ntt_cache", mlkem_contract_cache(bg), "output cache |c| < q");
}

static inline void mlkem_ntt_cache_tobytes12_checked(mlkem_poly *r, mlkem_polycache *bg, uint8_t out[MLKEM_POLYBYTES])
{
    PQLAB_CONTRACT("mlkem_ntt_cache_tobytes12", MLKEM_BELOW_Q(r), "input |c| < q");
    mlkem_ntt_cache_tobytes12(r, bg, out);
    PQLAB_CONTRACT("mlkem_ntt_cache_tobytes12", MLKEM_BELOW_Q(r), "output |c| < q");
    PQLAB_CONTRACT("mlkem_ntt_cache_tobytes12", mlkem_contract_cache(bg), "output cache |c| < q");
    for (unsigned int i = 0; i < MLKEM_N; i++) { /* out = ByteEncode_12(r mod q) */
        const uint8_t *o = out + 3 * (i / 2);
        const int32_t x = (i & 1) ? (o[1] >> 4) | (o[2] << 4) : o[0] | ((o[1] & 15) << 8);
        PQLAB_CONTRACT("mlkem_ntt_cache_tobytes12", x == r->c[i] + (r->c[i] < 0 ? MLKEM_Q : 0),
                       "output ByteEncode_12(r mod q)");
    }
}

static inline void mlkem_mulcache_checked(mlkem_polycache *bg, const mlkem_poly *b)
{
    PQLAB_CONTRACT("mlkem_mulcache", MLKEM_BELOW_Q(b), "input |c| < q");
    mlkem_mulcache(bg, b);
    PQLAB_CONTRACT("mlkem_mulcache", mlkem_contract_cache(bg), "output |c| < q");
}

static inline void mlkem_basemul_pairs32_checked(int32_t *r, const int16_t *a, const int16_t *b, const int16_t *bg,
                                                 unsigned int n)
{
    PQLAB_CONTRACT("mlkem_basemul_pairs32", n <= MLKEM_N / 2, "n <= 128 pairs");
    for (unsigned int i = 0; i < 2 * n; i++) {
        PQLAB_CONTRACT("mlkem_basemul_pairs32", a[i] > -MLKEM_Q && a[i] < MLKEM_Q && b[i] > -MLKEM_Q && b[i] < MLKEM_Q,
                       "inputs a, b |c| < q");
        PQLAB_CONTRACT("mlkem_basemul_pairs32", bg[i / 2] > -MLKEM_Q && bg[i / 2] < MLKEM_Q, "cache |c| < q");
    }
    mlkem_basemul_pairs32(r, a, b, bg, n);
}

static inline void mlkem_basemul_pairs32_split_checked(int32_t *r, const int16_t *a, const int16_t *b,
                                                       const int16_t *bg, unsigned int nadd, unsigned int nset)
{
    static int32_t before[MLKEM_N];
    PQLAB_CONTRACT("mlkem_basemul_pairs32_split", nadd + nset <= MLKEM_N / 2, "nadd + nset <= 128 pairs");
    for (unsigned int i = 0; i < 2 * (nadd + nset); i++) {
        PQLAB_CONTRACT("mlkem_basemul_pairs32_split",
                       a[i] > -MLKEM_Q && a[i] < MLKEM_Q && b[i] > -MLKEM_Q && b[i] < MLKEM_Q, "inputs a, b |c| < q");
        PQLAB_CONTRACT("mlkem_basemul_pairs32_split", bg[i / 2] > -MLKEM_Q && bg[i / 2] < MLKEM_Q, "cache |c| < q");
        before[i] = i < 2 * nadd ? r[i] : 0; /* the set part: r not read */
    }
    mlkem_basemul_pairs32_split(r, a, b, bg, nadd, nset);
    for (unsigned int i = 0; i < nadd + nset; i++) { /* added, then set: the exact products */
        const int64_t p0 = (int64_t)a[2 * i] * b[2 * i] + (int64_t)a[2 * i + 1] * bg[i];
        const int64_t p1 = (int64_t)a[2 * i] * b[2 * i + 1] + (int64_t)a[2 * i + 1] * b[2 * i];
        PQLAB_CONTRACT("mlkem_basemul_pairs32_split",
                       r[2 * i] == before[2 * i] + p0 && r[2 * i + 1] == before[2 * i + 1] + p1,
                       "output: r + products on nadd pairs, the products on nset");
    }
}

static inline void mlkem_reduce32_checked(mlkem_poly *r, const mlkem_poly32 *a)
{
    PQLAB_CONTRACT("mlkem_reduce32", mlkem_contract_in32(a), "input |c| < q 2^15");
    mlkem_reduce32(r, a);
    PQLAB_CONTRACT("mlkem_reduce32", MLKEM_BELOW_Q(r), "output |c| < q");
}

static inline void mlkem_reduce32_add_tobytes12_checked(uint8_t out[MLKEM_POLYBYTES], uint8_t out2[MLKEM_POLYBYTES],
                                                        const mlkem_poly32 *a, mlkem_poly *b)
{
    mlkem_poly before = *b;
    PQLAB_CONTRACT("mlkem_reduce32_add_tobytes12", mlkem_contract_in32(a), "input |a| < q 2^15");
    PQLAB_CONTRACT("mlkem_reduce32_add_tobytes12", mlkem_contract_in(b, -(1 << 14) + 1, (1 << 14) - 1),
                   "input |b| < 2^14");
    mlkem_reduce32_add_tobytes12(out, out2, a, b);
    for (unsigned int i = 0; i < MLKEM_N; i++) { /* ByteEncode_12((a + b) mod q) in both outputs */
        const uint8_t *o = out + 3 * (i / 2), *o2 = out2 + 3 * (i / 2);
        const int32_t x = (i & 1) ? (o[1] >> 4) | (o[2] << 4) : o[0] | ((o[1] & 15) << 8);
        int32_t want = (a->c[i] + before.c[i]) % MLKEM_Q;
        want += want < 0 ? MLKEM_Q : 0;
        PQLAB_CONTRACT("mlkem_reduce32_add_tobytes12", x == want, "output ByteEncode_12((a + b) mod q)");
        PQLAB_CONTRACT("mlkem_reduce32_add_tobytes12", o[0] == o2[0] && o[1] == o2[1] && o[2] == o2[2],
                       "the two outputs equal");
    }
}

static inline void mlkem_reduce32_add_checked(mlkem_poly *r, const mlkem_poly32 *a, const mlkem_poly *b)
{
    mlkem_poly before = *b;
    PQLAB_CONTRACT("mlkem_reduce32_add", mlkem_contract_in32(a), "input |a| < q 2^15");
    PQLAB_CONTRACT("mlkem_reduce32_add", MLKEM_BELOW_Q(b), "input |b| < q");
    mlkem_reduce32_add(r, a, b);
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        const int32_t d = (int32_t)r->c[i] - before.c[i];
        PQLAB_CONTRACT("mlkem_reduce32_add", d >= -1699 && d <= 1699, "output |r - b| <= 1699");
    }
}

static inline void mlkem_matacc_checked(mlkem_poly32 *acc, const mlkem_poly *vec, const mlkem_polycache *cache,
                                        const uint8_t rho[MLKEM_SYMBYTES], uint8_t x, uint8_t y)
{
    PQLAB_CONTRACT("mlkem_matacc", MLKEM_BELOW_Q(vec) && mlkem_contract_cache(cache), "vec, cache |c| < q");
    mlkem_matacc(acc, vec, cache, rho, x, y);
}

static inline void mlkem_matacc_x4_checked(mlkem_poly32 *const acc[4], const mlkem_poly *const vec[4],
                                           const mlkem_polycache *const cache[4], const uint8_t rho[MLKEM_SYMBYTES],
                                           const uint8_t xy[8], unsigned int fresh)
{
    for (unsigned int i = 0; i < 4; i++) {
        PQLAB_CONTRACT("mlkem_matacc_x4", MLKEM_BELOW_Q(vec[i]) && mlkem_contract_cache(cache[i]),
                       "vec, cache |c| < q");
        for (unsigned int j = 0; j < i; j++) {
            PQLAB_CONTRACT("mlkem_matacc_x4", acc[i] != acc[j] || ((fresh >> i) & 1) == ((fresh >> j) & 1),
                           "lanes sharing an accumulator: the same fresh bit");
        }
    }
    PQLAB_CONTRACT("mlkem_matacc_x4", fresh < 16, "fresh: four bits");
    mlkem_matacc_x4(acc, vec, cache, rho, xy, fresh);
}

static inline void mlkem_cbd_eta1_checked(mlkem_poly *r, const uint8_t buf[64 * MLKEM_ETA1])
{
    mlkem_cbd_eta1(r, buf);
    PQLAB_CONTRACT("mlkem_cbd_eta1", mlkem_contract_in(r, -MLKEM_ETA1, MLKEM_ETA1), "output |c| <= eta1");
}

static inline void mlkem_cbd_eta2_checked(mlkem_poly *r, const uint8_t buf[64 * MLKEM_ETA2])
{
    mlkem_cbd_eta2(r, buf);
    PQLAB_CONTRACT("mlkem_cbd_eta2", mlkem_contract_in(r, -MLKEM_ETA2, MLKEM_ETA2), "output |c| <= eta2");
}

static inline void mlkem_cbd_eta2_add_checked(mlkem_poly *r, const uint8_t buf[64 * MLKEM_ETA2])
{
    mlkem_poly before = *r;
    PQLAB_CONTRACT("mlkem_cbd_eta2_add", mlkem_contract_in(r, -32765, 32764), "|r| <= 2^15 - 3");
    mlkem_cbd_eta2_add(r, buf);
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        const int32_t d = (int32_t)r->c[i] - before.c[i];
        PQLAB_CONTRACT("mlkem_cbd_eta2_add", d >= -MLKEM_ETA2 && d <= MLKEM_ETA2, "added |e| <= eta2");
    }
}

/* the fused forms against the C: (frommsg_add_c,) cbd_eta2_add_c, then compress_du_c / compress_dv_c */
static inline void mlkem_cbd_eta2_add_compress_du_checked(uint8_t out[MLKEM_POLYCOMPRESSED_DU], mlkem_poly *r,
                                                          const uint8_t buf[64 * MLKEM_ETA2])
{
    mlkem_poly sum = *r;
    uint8_t want[MLKEM_POLYCOMPRESSED_DU];
    PQLAB_CONTRACT("mlkem_cbd_eta2_add_compress_du", mlkem_contract_in(r, -2 * MLKEM_Q + 3, 2 * MLKEM_Q - 3),
                   "input |c| <= 2q - 3");
    mlkem_cbd_eta2_add_c(&sum, buf);
    mlkem_compress_du_c(want, &sum);
    uint8_t diff = 0;
    mlkem_cbd_eta2_add_compress_du(out, r, buf);
    for (unsigned int i = 0; i < sizeof want; i++) {
        diff |= (uint8_t)(out[i] ^ want[i]);
    }
    PQLAB_CONTRACT("mlkem_cbd_eta2_add_compress_du", diff == 0, "output the bytes of cbd_eta2_add, compress");
}

static inline void mlkem_msg_cbd_eta2_add_compress_dv_checked(uint8_t out[MLKEM_POLYCOMPRESSED_DV], mlkem_poly *r,
                                                              const uint8_t buf[64 * MLKEM_ETA2],
                                                              const uint8_t msg[MLKEM_SYMBYTES])
{
    mlkem_poly sum = *r;
    uint8_t want[MLKEM_POLYCOMPRESSED_DV];
    PQLAB_CONTRACT("mlkem_msg_cbd_eta2_add_compress_dv",
                   mlkem_contract_in(r, -2 * MLKEM_Q + 3 + 1665, 2 * MLKEM_Q - 3 - 1665), "input |c| <= 2q - 1668");
    mlkem_frommsg_add_c(&sum, msg);
    mlkem_cbd_eta2_add_c(&sum, buf);
    mlkem_compress_dv_c(want, &sum);
    uint8_t diff = 0;
    mlkem_msg_cbd_eta2_add_compress_dv(out, r, buf, msg);
    for (unsigned int i = 0; i < sizeof want; i++) {
        diff |= (uint8_t)(out[i] ^ want[i]);
    }
    PQLAB_CONTRACT("mlkem_msg_cbd_eta2_add_compress_dv", diff == 0,
                   "output the bytes of frommsg_add, cbd_eta2_add, compress");
}

static inline void mlkem_canonical_checked(mlkem_poly *r)
{
    PQLAB_CONTRACT("mlkem_canonical", mlkem_contract_in(r, -2 * MLKEM_Q + 1, 2 * MLKEM_Q - 1), "input |c| < 2q");
    mlkem_canonical(r);
    PQLAB_CONTRACT("mlkem_canonical", MLKEM_CANON(r), "output canonical");
}

static inline void mlkem_add_checked(mlkem_poly *r, const mlkem_poly *b)
{
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        const int32_t t = (int32_t)r->c[i] + b->c[i];
        PQLAB_CONTRACT("mlkem_add", t > -32768 && t < 32768, "|r + b| < 2^15");
    }
    mlkem_add(r, b);
}

static inline uint32_t mlkem_check12_checked(const uint8_t *in, unsigned int nbytes)
{
    PQLAB_CONTRACT("mlkem_check12", nbytes >= 12 && nbytes % 12 == 0, "length a positive multiple of 12");
    return mlkem_check12(in, nbytes);
}

/* basemul12_pairs32(_check)'s inputs checked and the sums it must give (frombytes12_c +
 * basemul_pairs32_c on r's values at entry, or on zero with set) computed into want */
static inline void mlkem_basemul12_contract_want(const char *kernel, int32_t want[MLKEM_N], const int32_t r[MLKEM_N],
                                                 const uint8_t a[MLKEM_POLYBYTES], const int16_t b[MLKEM_N],
                                                 const int16_t bg[MLKEM_N / 2], int set)
{
    mlkem_poly t;
    PQLAB_CONTRACT(kernel, ((uintptr_t)bg & 3) == 0, "cache word-aligned");
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        PQLAB_CONTRACT(kernel, b[i] > -MLKEM_Q && b[i] < MLKEM_Q, "input |b| < q");
        PQLAB_CONTRACT(kernel, bg[i / 2] > -MLKEM_Q && bg[i / 2] < MLKEM_Q, "cache |c| < q");
        want[i] = set ? 0 : r[i];
    }
    mlkem_frombytes12_c(&t, a);
    mlkem_basemul_pairs32_c(want, t.c, b, bg, MLKEM_N / 2);
}

static inline void mlkem_basemul12_contract_same(const char *kernel, const int32_t want[MLKEM_N],
                                                 const int32_t r[MLKEM_N])
{
    int same = 1;
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        same &= want[i] == r[i];
    }
    PQLAB_CONTRACT(kernel, same, "sums those of frombytes12_c + basemul_pairs32_c");
}

/* the verdict against the portable check12, the sums against frombytes12_c + basemul_pairs32_c */
static inline uint32_t mlkem_basemul12_pairs32_check_checked(int32_t r[MLKEM_N], const uint8_t a[MLKEM_POLYBYTES],
                                                             const int16_t b[MLKEM_N], const int16_t bg[MLKEM_N / 2],
                                                             int set)
{
    int32_t want[MLKEM_N];
    mlkem_basemul12_contract_want("mlkem_basemul12_pairs32_check", want, r, a, b, bg, set);
    const uint32_t bad = mlkem_basemul12_pairs32_check(r, a, b, bg, set);
    mlkem_basemul12_contract_same("mlkem_basemul12_pairs32_check", want, r);
    PQLAB_CONTRACT("mlkem_basemul12_pairs32_check", (bad != 0) == (mlkem_check12_c(a, MLKEM_POLYBYTES) != 0),
                   "verdict that of check12");
    return bad;
}

static inline void mlkem_basemul12_pairs32_checked(int32_t r[MLKEM_N], const uint8_t a[MLKEM_POLYBYTES],
                                                   const int16_t b[MLKEM_N], const int16_t bg[MLKEM_N / 2], int set)
{
    int32_t want[MLKEM_N];
    mlkem_basemul12_contract_want("mlkem_basemul12_pairs32", want, r, a, b, bg, set);
    mlkem_basemul12_pairs32(r, a, b, bg, set);
    mlkem_basemul12_contract_same("mlkem_basemul12_pairs32", want, r);
}

#define mlkem_canonical mlkem_canonical_checked
#define mlkem_basemul12_pairs32_check mlkem_basemul12_pairs32_check_checked
#define mlkem_add mlkem_add_checked
#define mlkem_check12 mlkem_check12_checked
#define mlkem_basemul12_pairs32 mlkem_basemul12_pairs32_checked
#define mlkem_ntt mlkem_ntt_checked
#define mlkem_invntt mlkem_invntt_checked
#define mlkem_invntt_q mlkem_invntt_q_checked
#define mlkem_basemul_acc mlkem_basemul_acc_checked
#define mlkem_tobytes12 mlkem_tobytes12_checked
#define mlkem_frombytes12 mlkem_frombytes12_checked
#define mlkem_compress_du mlkem_compress_du_checked
#define mlkem_compress_dv mlkem_compress_dv_checked
#define mlkem_decompress_du mlkem_decompress_du_checked
#define mlkem_decompress_dv mlkem_decompress_dv_checked
#define mlkem_frommsg mlkem_frommsg_checked
#define mlkem_frommsg_add mlkem_frommsg_add_checked
#define mlkem_tomsg mlkem_tomsg_checked
#define mlkem_tomsg_sub mlkem_tomsg_sub_checked
#define mlkem_sample_ntt mlkem_sample_ntt_checked
#define mlkem_sample_ntt_x4 mlkem_sample_ntt_x4_checked
#define mlkem_mulcache mlkem_mulcache_checked
#define mlkem_ntt_cache mlkem_ntt_cache_checked
#define mlkem_ntt_unreduced mlkem_ntt_unreduced_checked
#define mlkem_ntt_cache_tobytes12 mlkem_ntt_cache_tobytes12_checked
#define mlkem_basemul_pairs32 mlkem_basemul_pairs32_checked
#define mlkem_basemul_pairs32_split mlkem_basemul_pairs32_split_checked
#define mlkem_reduce32 mlkem_reduce32_checked
#define mlkem_reduce32_add mlkem_reduce32_add_checked
#define mlkem_reduce32_add_tobytes12 mlkem_reduce32_add_tobytes12_checked
#define mlkem_matacc mlkem_matacc_checked
#define mlkem_matacc_x4 mlkem_matacc_x4_checked
#define mlkem_cbd_eta1 mlkem_cbd_eta1_checked
#define mlkem_cbd_eta2 mlkem_cbd_eta2_checked
#define mlkem_cbd_eta2_add mlkem_cbd_eta2_add_checked
#define mlkem_cbd_eta2_add_compress_du mlkem_cbd_eta2_add_compress_du_checked
#define mlkem_msg_cbd_eta2_add_compress_dv mlkem_msg_cbd_eta2_add_compress_dv_checked

#endif /* PQLAB_CONTRACT_CHECKS */
#endif
