/* SPDX-License-Identifier: MIT */
/* ML-KEM, FIPS 203 (August 2024): K-PKE (section 5) and ML-KEM (sections 6
 * and 7), portable frontend over the kernels of kernels.h.
 *
 * Memory: the matrix A_hat is never stored. Its entries are generated four at a
 * time (SampleNTT with the 4-way SHAKE128) and each coefficient pair is
 * multiplied into its row's accumulator as soon as it is sampled (matacc_x4);
 * two accumulators (one for k = 4) suffice because rows are finished (encoded
 * into ek, or compressed into c) as soon as they are complete. t_hat is read
 * from ek one polynomial at a time. Decapsulation re-encrypts into a per-polynomial buffer
 * and compares it with the received ciphertext piece by piece (constant time),
 * so c' is never held whole.
 *
 * Wiping: the frontend's own buffers of short secrets (d || z, m, m', K || r,
 * K_bar, rho || sigma) and the Keccak states of G and J are zeroised before
 * return; polynomial intermediates and PRF states on the stack are not (as in
 * pqm4 and PQClean): wiping them costs about 5% of the run time, and an
 * application that needs it can clear its stack after the call. */
#include <string.h>
#include "ct.h"
#include "fips202.h"
#include "kernels.h"
#include "mlkem.h"
#include "randombytes.h"
#include "reduce.h"
#include "symmetric.h"

/* Functions whose locals must not stay in their caller's frame while the caller
 * goes on to deeper calls (the stack peak is the sum of live frames). */
#if defined(__GNUC__) || defined(__clang__)
#define MLKEM_NOINLINE __attribute__((noinline))
#else
#define MLKEM_NOINLINE
#endif

/* SamplePolyCBD_eta(PRF_eta(s, nonce)) (Algorithm 13 lines 9, 13; Algorithm 14
 * lines 10, 14, 17). */
static MLKEM_NOINLINE void poly_noise_eta1(mlkem_poly *r, const uint8_t s[MLKEM_SYMBYTES], uint8_t nonce)
{
    uint8_t buf[64 * MLKEM_ETA1];
    mlkem_prf(buf, sizeof buf, s, nonce);
    mlkem_cbd_eta1(r, buf);
}

#ifdef PQLAB_MLKEM_SMALLSTACK
/* out = ByteEncode_12(NTT(SamplePolyCBD_eta1(PRF_eta1(s, nonce)))), canonical values;
 * the polynomial lives only in this frame. */
static MLKEM_NOINLINE void noise_ntt_encoded(uint8_t out[MLKEM_POLYBYTES], const uint8_t s[MLKEM_SYMBYTES],
                                             uint8_t nonce)
{
    mlkem_poly a;
    poly_noise_eta1(&a, s, nonce);
    mlkem_ntt(&a);            /* |c| < q */
    mlkem_tobytes12(out, &a); /* |c| < 2q: the encoder reduces mod q */
}

/* Pairs p .. p+n-1 of a ByteEncode_12 encoding, reduced mod q as ByteDecode_12
 * (Algorithm 6: values < 2^12 < 2q, one masked subtraction). */
static void decode12_pairs(int16_t *out, const uint8_t *in, unsigned int p, unsigned int n)
{
    in += 3 * p;
    for (unsigned int k = 0; k < n; k++) {
        int16_t t0 = (int16_t)((in[3 * k] | ((uint16_t)in[3 * k + 1] << 8)) & 0xfff);
        int16_t t1 = (int16_t)((in[3 * k + 1] >> 4) | ((uint16_t)in[3 * k + 2] << 4));
        out[2 * k] = mlkem_caddq((int16_t)(t0 - MLKEM_Q));
        out[2 * k + 1] = mlkem_caddq((int16_t)(t1 - MLKEM_Q));
    }
}

/* r += a o b R^-1 with a and b given as ByteEncode_12 encodings, in chunks of
 * MLKEM_CHUNK pairs (no whole decoded polynomial is held). */
#define MLKEM_CHUNK 32
static MLKEM_NOINLINE void basemul_acc_encoded(mlkem_poly *r, const uint8_t *a, const uint8_t *b)
{
    _Alignas(4) int16_t ac[2 * MLKEM_CHUNK], bc[2 * MLKEM_CHUNK];
    for (unsigned int p = 0; p < MLKEM_N / 2; p += MLKEM_CHUNK) {
        decode12_pairs(ac, a, p, MLKEM_CHUNK);
        decode12_pairs(bc, b, p, MLKEM_CHUNK);
        mlkem_basemul_pairs(&r->c[2 * p], ac, bc, p, MLKEM_CHUNK);
    }
}

/* r += a o b R^-1 with a given as a ByteEncode_12 encoding, b a polynomial. */
static MLKEM_NOINLINE void basemul_acc_half_encoded(mlkem_poly *r, const uint8_t *a, const mlkem_poly *b)
{
    _Alignas(4) int16_t ac[2 * MLKEM_CHUNK];
    for (unsigned int p = 0; p < MLKEM_N / 2; p += MLKEM_CHUNK) {
        decode12_pairs(ac, a, p, MLKEM_CHUNK);
        mlkem_basemul_pairs(&r->c[2 * p], ac, &b->c[2 * p], p, MLKEM_CHUNK);
    }
}
#endif

/* 1 if the len bytes at a and b differ, else 0, in constant time: four bytes per step
 * (memcpy loads: any alignment of the received ciphertext), the rest bytewise. The
 * byte loop of pqlab_ct_memcmp took about 9.5 cycles per byte on m4-sim (9,000 of a
 * ML-KEM-768 decapsulation); this about 2. */
static uint8_t ct_differs(const uint8_t *a, const uint8_t *b, size_t len)
{
    uint32_t acc = 0;
    size_t i = 0;
    for (; i + 4 <= len; i += 4) {
        uint32_t wa, wb;
        memcpy(&wa, a + i, 4);
        memcpy(&wb, b + i, 4);
        acc |= wa ^ wb;
    }
    for (; i < len; i++) {
        acc |= (uint32_t)(a[i] ^ b[i]);
    }
    return (uint8_t)(1u ^ pqlab_ct_is_zero_u32(acc));
}

/* The last piece of the ciphertext, c2 = ByteEncode_dv(Compress_dv(v + e2 + mu)) with
 * e2 = SamplePolyCBD_2(PRF_2(r, 2k)) and mu = Decompress_1(ByteDecode_1(m)) (Algorithm 14
 * lines 17, 20, 21, 23; the message and the noise added and v compressed in one pass,
 * msg_cbd_eta2_add_compress_dv; v may be overwritten): written into
 * c_out (c_out != NULL; the kernels take any alignment, so no piece buffer and no copy)
 * or compared with the received ciphertext c_cmp in constant time; returns 1 if it differs
 * from c_cmp, 0 otherwise (always 0 when writing). */
static uint8_t emit_v(uint8_t *c_out, const uint8_t *c_cmp, mlkem_poly *v, const uint8_t m[MLKEM_SYMBYTES],
                      const uint8_t r[MLKEM_SYMBYTES])
{
    uint8_t buf[64 * MLKEM_ETA2];
    uint8_t piece[MLKEM_POLYCOMPRESSED_DV];
    mlkem_prf(buf, sizeof buf, r, (uint8_t)(2 * MLKEM_K)); /* e2's bytes, N = 2k */
    if (c_out != NULL) {                                   /* a public mode switch, not data */
        mlkem_msg_cbd_eta2_add_compress_dv(c_out + MLKEM_K * MLKEM_POLYCOMPRESSED_DU, v, buf, m);
        return 0;
    }
    mlkem_msg_cbd_eta2_add_compress_dv(piece, v, buf, m);
    return ct_differs(piece, c_cmp + MLKEM_K * MLKEM_POLYCOMPRESSED_DU, sizeof piece);
}

/* Accumulators of matvec_rows (see there). */
#define MLKEM_ACC_SLOTS (MLKEM_K == 4 ? 1 : 2)

/* Where the rows of a matrix-vector product go when complete. */
enum { ROWS_KEYGEN, ROWS_ENCRYPT };
typedef struct {
    int mode;
    const uint8_t *seed;    /* sigma (key generation) or r (encryption): PRF key */
    uint8_t *out;           /* ek (key generation); c or NULL (encryption) */
    union {                 /* one or the other: the frame holding the sink does not grow */
        uint8_t *out2;      /* key generation (`ref`): dk's copy of ek, written with ek */
        const uint8_t *cmp; /* encryption with out == NULL: the ciphertext to compare */
    };
    uint8_t diff; /* 1 once a compared piece differed */
} row_sink;

/* Compress_du(u + SamplePolyCBD_2(buf)) of row i straight into c, or into a piece (its
 * buffer lives only here) compared with the received ciphertext (cbd_eta2_add_compress_du:
 * the noise added and the row compressed in one pass; u may be overwritten). */
static MLKEM_NOINLINE void emit_row(row_sink *sink, unsigned int i, mlkem_poly *u, const uint8_t buf[64 * MLKEM_ETA2])
{
    uint8_t piece[MLKEM_POLYCOMPRESSED_DU];
    if (sink->out != NULL) { /* a public mode switch, not data */
        mlkem_cbd_eta2_add_compress_du(sink->out + i * MLKEM_POLYCOMPRESSED_DU, u, buf);
        return;
    }
    mlkem_cbd_eta2_add_compress_du(piece, u, buf);
    sink->diff |= ct_differs(piece, sink->cmp + i * MLKEM_POLYCOMPRESSED_DU, sizeof piece);
}

/* Encryption (Algorithm 14 lines 13-16, 19, 22): u[i] = NTT^-1(row) + e1[i] with the inverse
 * NTT already applied (|u| < q), compressed into c (or compared with it). */
static MLKEM_NOINLINE void finish_row_u(row_sink *sink, unsigned int i, mlkem_poly *u)
{
    uint8_t buf[64 * MLKEM_ETA2];
    mlkem_prf(buf, sizeof buf, sink->seed, (uint8_t)(MLKEM_K + i)); /* e1[i]'s bytes, N = k + i */
    emit_row(sink, i, u, buf); /* |u| < q: |u + e1[i]| < q + 2 < 2q, reduced mod q inside */
}

#ifdef PQLAB_MLKEM_SMALLSTACK
/* Finish row i of the product, held in acc (|acc| < 4q, factor R^-1):
 *  key generation (Algorithm 13 lines 12-15, 17-19): t_hat[i] = acc + NTT(e[i]),
 *    encoded into ek;
 *  encryption (Algorithm 14 lines 13-16, 19, 22): u[i] = NTT^-1(acc) + e1[i],
 *    compressed into c (or compared with it). */
static MLKEM_NOINLINE void finish_row_keygen(row_sink *sink, unsigned int i, mlkem_poly *acc)
{
    mlkem_poly e;
    poly_noise_eta1(&e, sink->seed, (uint8_t)(MLKEM_K + i)); /* e[i], N = k + i */
    mlkem_ntt(&e);                                           /* |c| < q */
    mlkem_tomont_add(acc, &e);                               /* acc R (R^-1 cancelled) + e: |t| < 2q */
    mlkem_tobytes12(sink->out + i * MLKEM_POLYBYTES, acc);   /* |t| < 2q: reduced mod q inside */
}

static MLKEM_NOINLINE void finish_row(row_sink *sink, unsigned int i, mlkem_poly *acc)
{
    if (sink->mode == ROWS_KEYGEN) {
        finish_row_keygen(sink, i, acc);
    } else {
        mlkem_invntt(acc); /* input |acc| < 4q (invntt's contract); |u| < q, R^-1 cancelled */
        finish_row_u(sink, i, acc);
    }
}
#else
/* Row i of the product, accumulated unreduced in 32 bits (|acc| < k 2q^2 <= 8q^2 < q 2^15),
 * reduced once and finished. Key
 * generation (Algorithm 13 lines 17-19): t_hat[i] = (acc + NTT(e[i])) mod q in one pass
 * (reduce32_add_tobytes12: no factor R^-1, so no tomont; NTT(e[i]) left unreduced by
 * ntt_unreduced and reduced with the row), encoded into ek and into dk's copy of ek (no
 * copy of ek afterwards). Encryption (Algorithm 14
 * lines 19, 22): acc R^-1 (reduce32, |row| < q), NTT^-1 (invntt_q: input |c| < q), then
 * + e1[i] and Compress_du. */
static MLKEM_NOINLINE void finish_row32(row_sink *sink, unsigned int i, const mlkem_poly32 *acc)
{
    mlkem_poly row;
    if (sink->mode == ROWS_KEYGEN) {
        poly_noise_eta1(&row, sink->seed, (uint8_t)(MLKEM_K + i)); /* e[i], N = k + i */
        mlkem_ntt_unreduced(&row);                                 /* |c| < 2^14 */
        /* t_hat[i] = (acc + NTT(e[i])) mod q, |acc + e| < q 2^15 + 2^14, encoded twice */
        mlkem_reduce32_add_tobytes12(sink->out + i * MLKEM_POLYBYTES, sink->out2 + i * MLKEM_POLYBYTES, acc, &row);
    } else {
        mlkem_reduce32(&row, acc); /* |row| < q */
        mlkem_invntt_q(&row);      /* input |c| < q (invntt_q's contract); |u| < q, R^-1 cancelled */
        finish_row_u(sink, i, &row);
    }
}
#endif

#ifndef PQLAB_MLKEM_SMALLSTACK
/* The matrix-vector product of K-PKE, row i = sum_j A_hat[i][j] o vec[j]
 * (key generation, Algorithm 13 line 18) or sum_j A_hat[j][i] o vec[j]
 * (encryption, A_hat^T, Algorithm 14 line 19), each row handed to finish_row as
 * soon as it is complete. A_hat[i][j] = SampleNTT(rho || j || i) (Algorithm 13
 * line 6), so entry (i, j) of the product has XOF indices (j, i), or (i, j)
 * when transposed.
 * Entries are taken in row-major order, four at a time with the 4-way SHAKE128
 * (k^2 = 4, 9, 16 leaves one single entry for k = 3). Four consecutive entries
 * touch at most two rows, and a row ends before the row two further on starts,
 * so two accumulators suffice: row i uses acc[i % 2]. For k = 4 every batch is
 * exactly one row and one accumulator suffices.
 * Speed over stack: the accumulators are 32-bit and the base multiplications unreduced
 * (basemul_pairs32 with the vector's b1 gamma products cached once per polynomial, cache[j]),
 * one Montgomery reduction per coefficient and row instead of three per pair and entry.
 * Bounds: vec has |c| < q, cache |c| < q, the entries are canonical; a row gets k <= 4
 * terms, each < 2q^2: |acc| < 8q^2 < q 2^15.
 * acc: the caller's accumulators, any contents: the batch in which a row starts passes its
 * lanes as fresh, so matacc_x4 sets the accumulator's pairs on their first write instead of
 * adding (since h101; before, zero32 cleared each slot first: about 335 cycles per row). A row
 * always starts inside a batch of four (k = 3: rows 0, 1 in the first, row 2 in the second;
 * the single ninth entry ends row 2). */
static void matvec_rows(const uint8_t rho[MLKEM_SYMBYTES], const mlkem_poly vec[MLKEM_K],
                        const mlkem_polycache cache[MLKEM_K], mlkem_poly32 acc[MLKEM_ACC_SLOTS], row_sink *sink)
{
    const int transposed = sink->mode == ROWS_ENCRYPT;
    for (unsigned int e0 = 0; e0 < MLKEM_K * MLKEM_K; e0 += 4) {
        const unsigned int n = MLKEM_K * MLKEM_K - e0 < 4 ? MLKEM_K * MLKEM_K - e0 : 4;
        mlkem_poly32 *accs[4];
        const mlkem_poly *vecs[4];
        const mlkem_polycache *caches[4];
        uint8_t xy[8];
        unsigned int fresh = 0;
        for (unsigned int t = 0; t < 4; t++) {
            /* public loop counters only; unused lanes (t >= n) repeat entry e0 */
            const unsigned int e = t < n ? e0 + t : e0;
            const uint8_t i = (uint8_t)(e / MLKEM_K), j = (uint8_t)(e % MLKEM_K);
            fresh |= (unsigned int)(i * MLKEM_K >= e0) << t; /* row i starts in this batch */
            accs[t] = &acc[i % MLKEM_ACC_SLOTS];
            vecs[t] = &vec[j];
            caches[t] = &cache[j];
            xy[2 * t] = transposed ? i : j;
            xy[2 * t + 1] = transposed ? j : i;
        }
        if (n == 4) {
            mlkem_matacc_x4(accs, vecs, caches, rho, xy, fresh);
        } else {
            /* the ninth entry of k = 3 (row 2 started in the second batch): added */
            for (unsigned int t = 0; t < n; t++) {
                mlkem_matacc(accs[t], vecs[t], caches[t], rho, xy[2 * t], xy[2 * t + 1]);
            }
        }
        for (unsigned int t = 0; t < n; t++) {
            const unsigned int e = e0 + t;
            if (e % MLKEM_K == MLKEM_K - 1) { /* last entry of row e / k */
                const unsigned int i = e / MLKEM_K;
                finish_row32(sink, i, &acc[i % MLKEM_ACC_SLOTS]);
            }
        }
    }
}

/* K-PKE.KeyGen(d) (Algorithm 13), writing ek = ByteEncode_12(t_hat) || rho, the same
 * into ek_copy (dk's copy of ek, Algorithm 16 line 3) and dk_PKE = ByteEncode_12(s_hat). */
static MLKEM_NOINLINE void pke_keygen(uint8_t ek[MLKEM_EKBYTES], uint8_t dk_pke[MLKEM_DKPKEBYTES],
                                      uint8_t ek_copy[MLKEM_EKBYTES], const uint8_t d[MLKEM_SYMBYTES])
{
    uint8_t rhosigma[2 * MLKEM_SYMBYTES];
    const uint8_t kbyte = MLKEM_K;
    mlkem_poly s[MLKEM_K];
    mlkem_polycache scache[MLKEM_K];
    mlkem_poly32 acc[MLKEM_ACC_SLOTS];
    row_sink sink;

    mlkem_hash_g(rhosigma, d, MLKEM_SYMBYTES, &kbyte, 1); /* line 1: G(d || k) */
    /* rho is published as the last 32 bytes of ek; SampleNTT branches on it. */
    PQLAB_DECLASSIFY(rhosigma, MLKEM_SYMBYTES);
    const uint8_t *rho = rhosigma, *sigma = rhosigma + MLKEM_SYMBYTES;

    for (unsigned int i = 0; i < MLKEM_K; i++) { /* lines 8-11, 16, 20: s_hat = NTT(s), dk_PKE */
        poly_noise_eta1(&s[i], sigma, (uint8_t)i);
        /* |c| < q, cache |c| < q; ByteEncode_12(s_hat[i]) into dk_PKE from the same pass */
        mlkem_ntt_cache_tobytes12(&s[i], &scache[i], dk_pke + i * MLKEM_POLYBYTES);
    }
    sink.mode = ROWS_KEYGEN;
    sink.seed = sigma;
    sink.out = ek;
    sink.out2 = ek_copy;
    sink.diff = 0;
    matvec_rows(rho, s, scache, acc, &sink); /* lines 12-15, 17-19: t_hat into ek and ek_copy */
    memcpy(ek + MLKEM_K * MLKEM_POLYBYTES, rho, MLKEM_SYMBYTES);
    memcpy(ek_copy + MLKEM_K * MLKEM_POLYBYTES, rho, MLKEM_SYMBYTES);
    pqlab_zeroize(rhosigma, sizeof rhosigma);
}

/* Algorithm 14 lines 17, 20, 21, 23: v = NTT^-1(t_hat^T o y_hat) + e2 + mu,
 * compressed into c2 (or compared); t_hat is decoded from ek one polynomial at
 * a time. Returns 1 if the compared piece differs. With ek_bad != NULL (encapsulation)
 * the section 7.2 modulus check is made as t_hat is decoded (basemul12_pairs32_check):
 * *ek_bad nonzero iff some 12-bit value of ek's first 384 k bytes is >= q; with ek_bad ==
 * NULL (decapsulation's re-encryption; section 7.3 has no modulus check) none is made. */
static MLKEM_NOINLINE uint8_t encrypt_v(uint8_t *c_out, const uint8_t *c_cmp, const uint8_t ek[MLKEM_EKBYTES],
                                        const uint8_t m[MLKEM_SYMBYTES], const uint8_t r[MLKEM_SYMBYTES],
                                        const mlkem_poly y[MLKEM_K], const mlkem_polycache ycache[MLKEM_K],
                                        mlkem_poly32 *v32, uint32_t *ek_bad)
{
    mlkem_poly v;
    uint32_t bad = 0;
    /* v32: a matrix accumulator, any contents: the first term (j = 0) sets it */
    for (unsigned int j = 0; j < MLKEM_K; j++) {
        /* line 2 (t_hat decoded, canonical) inside the product, k <= 4 terms < 2q^2 */
        if (ek_bad != NULL) { /* a public mode switch: encapsulation checks ek */
            bad |= mlkem_basemul12_pairs32_check(v32->c, ek + j * MLKEM_POLYBYTES, y[j].c, ycache[j].c, j == 0);
        } else {
            mlkem_basemul12_pairs32(v32->c, ek + j * MLKEM_POLYBYTES, y[j].c, ycache[j].c, j == 0);
        }
    }
    if (ek_bad != NULL) {
        *ek_bad = bad;
    }
    mlkem_reduce32(&v, v32); /* |v32| < 8q^2 < q 2^15: |v| < q */
    mlkem_invntt_q(&v);      /* |v| < q in (invntt_q's contract), |v| < q out */
    /* lines 17, 20, 21, 23: + mu, + e2, c2; |v + mu + e2| < q + 1667 < 2q */
    return emit_v(c_out, c_cmp, &v, m, r);
}

/* K-PKE.Encrypt(ek, m, r) (Algorithm 14). With c_out != NULL the ciphertext is
 * written there; with c_out == NULL it is compared against c_cmp and the result
 * is 1 if they differ (Algorithm 18 line 9), else 0. With ek_bad != NULL, *ek_bad
 * is the verdict of section 7.2's modulus check on ek (0: passed), made while t_hat
 * is decoded. */
static MLKEM_NOINLINE uint8_t pke_encrypt(uint8_t *c_out, const uint8_t *c_cmp, const uint8_t ek[MLKEM_EKBYTES],
                                          const uint8_t m[MLKEM_SYMBYTES], const uint8_t r[MLKEM_SYMBYTES],
                                          uint32_t *ek_bad)
{
    mlkem_poly y[MLKEM_K];
    mlkem_polycache ycache[MLKEM_K];
    mlkem_poly32 acc[MLKEM_ACC_SLOTS];
    uint8_t rho[MLKEM_SYMBYTES];
    row_sink sink;
    uint8_t diff;

    memcpy(rho, ek + MLKEM_K * MLKEM_POLYBYTES, MLKEM_SYMBYTES); /* line 3 */
    /* rho is part of the encapsulation key, public by definition; SampleNTT
     * branches on it. (In decapsulation ek is read from the secret-marked dk.) */
    PQLAB_DECLASSIFY(rho, sizeof rho);

    for (unsigned int i = 0; i < MLKEM_K; i++) { /* lines 9-12, 18: y_hat = NTT(y) */
        poly_noise_eta1(&y[i], r, (uint8_t)i);
        mlkem_ntt_cache(&y[i], &ycache[i]); /* |c| < q, cache |c| < q */
    }
    sink.mode = ROWS_ENCRYPT;
    sink.seed = r;
    sink.out = c_out;
    sink.cmp = c_cmp;
    sink.diff = 0;
    matvec_rows(rho, y, ycache, acc, &sink); /* lines 13-16, 19, 22: u into c1 */
    diff = sink.diff;
    /* acc[0] reused for t_hat^T y_hat (its first term overwrites it: no clearing) */
    diff |= encrypt_v(c_out, c_cmp, ek, m, r, y, ycache, &acc[0], ek_bad);
    return diff;
}

/* K-PKE.Decrypt(dk_PKE, c) (Algorithm 15). */
static MLKEM_NOINLINE void pke_decrypt(uint8_t m[MLKEM_SYMBYTES], const uint8_t dk_pke[MLKEM_DKPKEBYTES],
                                       const uint8_t c[MLKEM_CTBYTES])
{
    mlkem_poly w, u, s;
    /* basemul_acc, not the cached 32-bit form: u is new for every term, so its cache would
     * be used once (mulcache + basemul_pairs32 + reduce32 cost more than basemul_acc) */
    pqlab_memzero_words(&w, sizeof w);
    for (unsigned int j = 0; j < MLKEM_K; j++) {
        mlkem_decompress_du(&u, c + j * MLKEM_POLYCOMPRESSED_DU); /* line 3, canonical */
        mlkem_ntt(&u);                                            /* |c| < q */
        mlkem_frombytes12(&s, dk_pke + j * MLKEM_POLYBYTES);      /* line 5, canonical */
        mlkem_basemul_acc(&w, &s, &u);                            /* |w| < 4q: k <= 4 terms < q */
    }
    mlkem_invntt(&w);                                               /* |w| < 4q in (contract), |w| < q out */
    mlkem_decompress_dv(&u, c + MLKEM_K * MLKEM_POLYCOMPRESSED_DU); /* line 4: v */
    mlkem_tomsg_sub(m, &u, &w);                                     /* lines 6, 7: v canonical, |w| < q */
}

#else
/* Stack-first form: the entries one at a time (one lane of SHAKE128), one accumulator,
 * the vector read from its 12-bit encoding (vecb: k encodings of canonical values). */
static MLKEM_NOINLINE void matvec_rows(const uint8_t rho[MLKEM_SYMBYTES], const uint8_t *vecb, row_sink *sink)
{
    mlkem_poly acc;
    const int transposed = sink->mode == ROWS_ENCRYPT;
    for (unsigned int i = 0; i < MLKEM_K; i++) {
        pqlab_memzero_words(&acc, sizeof acc);
        for (unsigned int j = 0; j < MLKEM_K; j++) { /* entry (i, j): XOF indices (j, i), or (i, j) */
            mlkem_matacc_packed(&acc, vecb + j * MLKEM_POLYBYTES, rho, (uint8_t)(transposed ? i : j),
                                (uint8_t)(transposed ? j : i));
        }
        finish_row(sink, i, &acc);
    }
}

/* K-PKE.KeyGen(d) (Algorithm 13), stack-first: s_hat goes straight into dk_PKE (its final
 * place) and the matrix product reads it from there; ek is copied into ek_copy afterwards
 * (crypto_kem_keypair_derand, in a frame of its own). */
static MLKEM_NOINLINE void pke_keygen(uint8_t ek[MLKEM_EKBYTES], uint8_t dk_pke[MLKEM_DKPKEBYTES],
                                      uint8_t ek_copy[MLKEM_EKBYTES], const uint8_t d[MLKEM_SYMBYTES])
{
    uint8_t rhosigma[2 * MLKEM_SYMBYTES];
    const uint8_t kbyte = MLKEM_K;
    row_sink sink;

    mlkem_hash_g(rhosigma, d, MLKEM_SYMBYTES, &kbyte, 1); /* line 1: G(d || k) */
    PQLAB_DECLASSIFY(rhosigma, MLKEM_SYMBYTES);           /* rho: public, SampleNTT branches on it */
    const uint8_t *rho = rhosigma, *sigma = rhosigma + MLKEM_SYMBYTES;
    for (unsigned int i = 0; i < MLKEM_K; i++) { /* lines 8-11, 16, 20: s_hat[i] into dk_PKE */
        noise_ntt_encoded(dk_pke + i * MLKEM_POLYBYTES, sigma, (uint8_t)i);
    }
    (void)ek_copy;
    sink.mode = ROWS_KEYGEN;
    sink.seed = sigma;
    sink.out = ek;
    sink.out2 = NULL;
    sink.diff = 0;
    matvec_rows(rho, dk_pke, &sink); /* lines 12-15, 17-19: t_hat into ek */
    memcpy(ek + MLKEM_K * MLKEM_POLYBYTES, rho, MLKEM_SYMBYTES);
    pqlab_zeroize(rhosigma, sizeof rhosigma);
}

/* Algorithm 14 lines 17, 20, 21, 23 (stack-first): v = NTT^-1(t_hat^T o y_hat) + e2 + mu
 * with t_hat and y_hat read from their encodings; returns 1 if the compared piece differs. */
static MLKEM_NOINLINE uint8_t encrypt_v(uint8_t *c_out, const uint8_t *c_cmp, const uint8_t ek[MLKEM_EKBYTES],
                                        const uint8_t m[MLKEM_SYMBYTES], const uint8_t r[MLKEM_SYMBYTES],
                                        const uint8_t *yb)
{
    mlkem_poly v;
    pqlab_memzero_words(&v, sizeof v);
    for (unsigned int j = 0; j < MLKEM_K; j++) {
        basemul_acc_encoded(&v, ek + j * MLKEM_POLYBYTES, yb + j * MLKEM_POLYBYTES); /* |v| < 4q: k <= 4 terms < q */
    }
    mlkem_invntt(&v); /* |v| < 4q in (contract), |v| < q out */
    /* lines 17, 20, 21, 23: + mu, + e2, c2; |v + mu + e2| < q + 1667 < 2q */
    return emit_v(c_out, c_cmp, &v, m, r);
}

/* K-PKE.Encrypt(ek, m, r) (Algorithm 14), stack-first: y_hat is kept as its 12-bit
 * encoding (384 bytes per polynomial instead of 512). Output / comparison as in the
 * speed-first form. */
static MLKEM_NOINLINE uint8_t pke_encrypt(uint8_t *c_out, const uint8_t *c_cmp, const uint8_t ek[MLKEM_EKBYTES],
                                          const uint8_t m[MLKEM_SYMBYTES], const uint8_t r[MLKEM_SYMBYTES],
                                          uint32_t *ek_bad)
{
    uint8_t yb[MLKEM_K * MLKEM_POLYBYTES];
    uint8_t rho[MLKEM_SYMBYTES];
    row_sink sink;
    uint8_t diff;

    if (ek_bad != NULL) { /* section 7.2, on the encoding itself (t_hat is read encoded here) */
        *ek_bad = mlkem_check12(ek, MLKEM_K * MLKEM_POLYBYTES);
    }
    memcpy(rho, ek + MLKEM_K * MLKEM_POLYBYTES, MLKEM_SYMBYTES); /* line 3 */
    /* rho is public (part of ek); SampleNTT branches on it. */
    PQLAB_DECLASSIFY(rho, sizeof rho);
    for (unsigned int i = 0; i < MLKEM_K; i++) { /* lines 9-12, 18: y_hat = NTT(y), encoded */
        noise_ntt_encoded(yb + i * MLKEM_POLYBYTES, r, (uint8_t)i);
    }
    sink.mode = ROWS_ENCRYPT;
    sink.seed = r;
    sink.out = c_out;
    sink.cmp = c_cmp;
    sink.diff = 0;
    matvec_rows(rho, yb, &sink); /* lines 13-16, 19, 22: u into c1 */
    diff = sink.diff;
    diff |= encrypt_v(c_out, c_cmp, ek, m, r, yb);
    return diff;
}

/* K-PKE.Decrypt(dk_PKE, c) (Algorithm 15), stack-first: s_hat read from dk_PKE in chunks. */
static MLKEM_NOINLINE void pke_decrypt(uint8_t m[MLKEM_SYMBYTES], const uint8_t dk_pke[MLKEM_DKPKEBYTES],
                                       const uint8_t c[MLKEM_CTBYTES])
{
    mlkem_poly w, u;
    pqlab_memzero_words(&w, sizeof w);
    for (unsigned int j = 0; j < MLKEM_K; j++) {
        mlkem_decompress_du(&u, c + j * MLKEM_POLYCOMPRESSED_DU);       /* line 3, canonical */
        mlkem_ntt(&u);                                                  /* |c| < q */
        basemul_acc_half_encoded(&w, dk_pke + j * MLKEM_POLYBYTES, &u); /* line 5; |w| < 4q (k terms < q) */
    }
    mlkem_invntt(&w);                                               /* |w| < 4q in (contract), |w| < q out */
    mlkem_decompress_dv(&u, c + MLKEM_K * MLKEM_POLYCOMPRESSED_DU); /* line 4: v */
    mlkem_tomsg_sub(m, &u, &w);                                     /* lines 6, 7: v canonical, |w| < q */
}

#endif

/* Encapsulation key check, FIPS 203 section 7.2: ByteEncode_12(ByteDecode_12(
 * ek)) == ek, i.e. every 12-bit value of the encoded t_hat is below q. ek is
 * public; still done without early exit. */
int PQLAB_NAMESPACE(crypto_kem_check_ek)(const uint8_t *ek)
{
    return mlkem_check12(ek, MLKEM_K * MLKEM_POLYBYTES) != 0 ? MLKEM_ERR_EK : 0; /* the check12 kernel */
}

/* Decapsulation key check, FIPS 203 section 7.3 (the hash check; the length
 * checks are the caller's, the API has fixed lengths):
 * H(dk[384k : 768k+32]) == dk[768k+32 : 768k+64]. */
int PQLAB_NAMESPACE(crypto_kem_check_dk)(const uint8_t *dk)
{
    uint8_t h[MLKEM_SYMBYTES];
    mlkem_hash_h(h, dk + MLKEM_DK_EK_OFFSET, MLKEM_EKBYTES);
    int bad = pqlab_ct_memcmp(h, dk + MLKEM_DK_H_OFFSET, MLKEM_SYMBYTES);
    /* The verdict is public: the standard returns an error for a malformed key. */
    PQLAB_DECLASSIFY(&bad, sizeof bad);
    return bad ? MLKEM_ERR_DK : 0;
}

/* ML-KEM.KeyGen_internal(d, z) (Algorithm 16): dk = dk_PKE || ek || H(ek) || z. */
#ifdef PQLAB_MLKEM_SMALLSTACK
/* ek into dk (Algorithm 16 line 3) in a frame of its own: the unrolled word copy's registers
 * would otherwise enlarge the caller's frame, which is on the stack during pke_keygen.
 * (`ref` writes both while encoding t_hat: reduce32_add_tobytes12's second output.) */
static MLKEM_NOINLINE void copy_ek(uint8_t *dst, const uint8_t *ek)
{
    pqlab_memcpy_words(dst, ek, MLKEM_EKBYTES);
}
#endif

int PQLAB_NAMESPACE(crypto_kem_keypair_derand)(uint8_t *ek, uint8_t *dk, const uint8_t *d, const uint8_t *z)
{
    pke_keygen(ek, dk, dk + MLKEM_DK_EK_OFFSET, d);
#ifdef PQLAB_MLKEM_SMALLSTACK
    copy_ek(dk + MLKEM_DK_EK_OFFSET, ek);
#endif
    mlkem_hash_h(dk + MLKEM_DK_H_OFFSET, ek, MLKEM_EKBYTES);
    memcpy(dk + MLKEM_DK_Z_OFFSET, z, MLKEM_SYMBYTES);
    return 0;
}

/* ML-KEM.KeyGen (Algorithm 19). d || z come from one 64-byte request, as in the
 * NIST KAT generators (the KAT hash depends on the call pattern). */
int PQLAB_NAMESPACE(crypto_kem_keypair)(uint8_t *ek, uint8_t *dk)
{
    uint8_t dz[2 * MLKEM_SYMBYTES];
    if (pqlab_randombytes(dz, sizeof dz) != 0) {
        pqlab_zeroize(ek, MLKEM_EKBYTES);
        pqlab_zeroize(dk, MLKEM_DKBYTES);
        return MLKEM_ERR_RNG;
    }
    PQLAB_NAMESPACE(crypto_kem_keypair_derand)(ek, dk, dz, dz + MLKEM_SYMBYTES);
    pqlab_zeroize(dz, sizeof dz);
    return 0;
}

/* ML-KEM.Encaps_internal(ek, m) (Algorithm 17) with the section 7.2 check. The
 * check's verdict comes from the encryption, which decodes t_hat anyway
 * (basemul12_pairs32_check in `ref`, check12 in `smallstack`); with a failing ek nothing
 * computed is released: c and K are zeroised and the error returned, as if the check
 * had come first. ek is public, so the extra work for a bad key leaks nothing. */
int PQLAB_NAMESPACE(crypto_kem_enc_derand)(uint8_t *c, uint8_t *k, const uint8_t *ek, const uint8_t *m)
{
    uint8_t hek[MLKEM_SYMBYTES];
    uint8_t kr[2 * MLKEM_SYMBYTES];
    uint32_t ek_bad = 1;
    mlkem_hash_h(hek, ek, MLKEM_EKBYTES);
    mlkem_hash_g(kr, m, MLKEM_SYMBYTES, hek, MLKEM_SYMBYTES);     /* line 1: (K, r) = G(m || H(ek)) */
    (void)pke_encrypt(c, c, ek, m, kr + MLKEM_SYMBYTES, &ek_bad); /* line 2 */
    if (ek_bad != 0) {
        pqlab_zeroize(c, MLKEM_CTBYTES);
        pqlab_zeroize(k, MLKEM_SSBYTES);
        pqlab_zeroize(kr, sizeof kr);
        return MLKEM_ERR_EK;
    }
    memcpy(k, kr, MLKEM_SSBYTES);
    pqlab_zeroize(kr, sizeof kr);
    return 0;
}

/* ML-KEM.Encaps (Algorithm 20). */
int PQLAB_NAMESPACE(crypto_kem_enc)(uint8_t *c, uint8_t *k, const uint8_t *ek)
{
    uint8_t m[MLKEM_SYMBYTES];
    int ret;
    if (pqlab_randombytes(m, sizeof m) != 0) {
        pqlab_zeroize(c, MLKEM_CTBYTES);
        pqlab_zeroize(k, MLKEM_SSBYTES);
        return MLKEM_ERR_RNG;
    }
    ret = PQLAB_NAMESPACE(crypto_kem_enc_derand)(c, k, ek, m);
    pqlab_zeroize(m, sizeof m);
    return ret;
}

/* ML-KEM.Decaps_internal(dk, c) (Algorithm 18). */
int PQLAB_NAMESPACE(crypto_kem_dec_internal)(uint8_t *k, const uint8_t *c, const uint8_t *dk)
{
    const uint8_t *dk_pke = dk;                  /* line 1 */
    const uint8_t *ek = dk + MLKEM_DK_EK_OFFSET; /* line 2 */
    const uint8_t *h = dk + MLKEM_DK_H_OFFSET;   /* line 3 */
    const uint8_t *z = dk + MLKEM_DK_Z_OFFSET;   /* line 4 */
    uint8_t m[MLKEM_SYMBYTES];
    uint8_t kr[2 * MLKEM_SYMBYTES];
    uint8_t kbar[MLKEM_SSBYTES];
    uint8_t fail;

    pke_decrypt(m, dk_pke, c);                                     /* line 5: m' */
    mlkem_hash_g(kr, m, MLKEM_SYMBYTES, h, MLKEM_SYMBYTES);        /* line 6: (K', r') */
    mlkem_hash_j(kbar, z, c, MLKEM_CTBYTES);                       /* line 7: K_bar = J(z || c) */
    fail = pke_encrypt(NULL, c, ek, m, kr + MLKEM_SYMBYTES, NULL); /* lines 8-9: c' != c */
    /* line 10: K' = K_bar if c != c', selected without a branch; the barrier
     * stops the compiler from turning the select back into a branch. */
    fail = pqlab_value_barrier_u8(fail);
    memcpy(k, kr, MLKEM_SSBYTES);
    pqlab_ct_cmov(k, kbar, MLKEM_SSBYTES, fail);
    pqlab_zeroize(m, sizeof m);
    pqlab_zeroize(kr, sizeof kr);
    pqlab_zeroize(kbar, sizeof kbar);
    return 0;
}

/* ML-KEM.Decaps (Algorithm 21): input check of section 7.3, then
 * Decaps_internal. */
int PQLAB_NAMESPACE(crypto_kem_dec)(uint8_t *k, const uint8_t *c, const uint8_t *dk)
{
    if (PQLAB_NAMESPACE(crypto_kem_check_dk)(dk) != 0) {
        pqlab_zeroize(k, MLKEM_SSBYTES);
        return MLKEM_ERR_DK;
    }
    return PQLAB_NAMESPACE(crypto_kem_dec_internal)(k, c, dk);
}
