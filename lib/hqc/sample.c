/* SPDX-License-Identifier: MIT */
/* Seed expander, samplers and byte encoding of HQC (round-4 specification of
 * 2023-04-30: the SHAKE256-based seed expander with domain byte 2; uniform vectors;
 * fixed-weight vectors by the "i + rand mod (n - i)" method with duplicate correction).
 * PQLAB_HQC_VERSION 2025 (specification of 2025-08-22): XOF domain byte 1 (params.h);
 * encryption's fixed-weight vectors take i + floor(r_i (n - i) / 2^32) in place of
 * i + (r_i mod (n - i)), the duplicate correction unchanged; key generation's x and y come
 * from the rejection sampler hqc_sample_support_rej (below).
 *
 * Fixed weight (specification, fixed-weight sampling of encryption and key
 * generation in this version): 32-bit little-endian words r_0 .. r_{w-1} from the
 * seed expander; position_i = i + (r_i mod (n - i)); then, from i = w - 2 down to 0,
 * a position equal to a later one is replaced by i. The result has w distinct
 * positions. The reduction mod (n - i) is a Barrett reduction with public divisor and
 * one conditional subtraction by mask; the duplicate test compares every pair with
 * masks; positions become bits through masks over every word: no branch and no
 * address depends on a position. */
#include <string.h>

#include "ct.h"
#include "internal.h"

void hqc_xof_init(hqc_xof *st, const uint8_t *seed, size_t seedlen, uint8_t domain)
{
    pqlab_shake256_init(st);
    pqlab_shake256_absorb(st, seed, seedlen);
    pqlab_shake256_absorb(st, &domain, 1);
    pqlab_shake256_finalize(st);
}

void hqc_xof_read(hqc_xof *st, uint8_t *out, size_t outlen)
{
    const size_t whole = outlen & ~(size_t)7;
    pqlab_shake256_squeeze(out, whole, st);
    if (whole != outlen) {
        uint8_t tail[8];
        pqlab_shake256_squeeze(tail, 8, st);
        memcpy(out + whole, tail, outlen - whole);
        pqlab_zeroize(tail, sizeof tail);
    }
}

/* 1 when a == b, else 0 */
static uint32_t eq_u32(uint32_t a, uint32_t b)
{
    return pqlab_ct_is_zero_u32(a ^ b);
}

/* a mod d for a public d with 2^31 > d > 1 not a power of two: with m = floor((2^32 - 1) / d)
 * = floor(2^32 / d), q = floor(a m / 2^32) is floor(a / d) or one less, so a - q d < 2d */
static uint32_t mod_public(uint32_t a, uint32_t d, uint32_t m)
{
    const uint32_t q = (uint32_t)(((uint64_t)a * m) >> 32);
    uint32_t r = a - q * d;
    const uint32_t ge = 1u ^ (uint32_t)(((uint64_t)r - d) >> 63); /* r >= d */
    return r - (d & pqlab_ct_mask_u32(ge));
}

void hqc_sample_support(hqc_xof *st, uint32_t *support, size_t weight)
{
    uint8_t buf[4 * HQC_WR];
    hqc_xof_read(st, buf, 4 * weight);
    for (size_t i = 0; i < weight; i++) {
        const uint32_t r = (uint32_t)buf[4 * i] | ((uint32_t)buf[4 * i + 1] << 8) | ((uint32_t)buf[4 * i + 2] << 16) |
                           ((uint32_t)buf[4 * i + 3] << 24);
        const uint32_t d = (uint32_t)(HQC_N - i); /* public */
#if PQLAB_HQC_VERSION == 2025
        support[i] = (uint32_t)i + (uint32_t)(((uint64_t)r * d) >> 32);
#else
        support[i] = (uint32_t)i + mod_public(r, d, 0xFFFFFFFFu / d);
#endif
    }
    for (size_t i = weight - 1; i-- > 0;) {
        uint32_t dup = 0;
        for (size_t j = i + 1; j < weight; j++) {
            dup |= eq_u32(support[i], support[j]);
        }
        const uint32_t m = pqlab_ct_mask_u32(dup);
        support[i] = (support[i] & ~m) | ((uint32_t)i & m);
    }
    pqlab_zeroize(buf, sizeof buf);
}

#if PQLAB_HQC_VERSION == 2025
/* Key generation's fixed-weight sampler (2025-08-22): the XOF is read in chunks of 3 w bytes
 * (each through hqc_xof_read, so a chunk whose length is not a multiple of 8 discards the rest
 * of its last 8 bytes); each 3 bytes, big-endian, are a candidate c < 2^24; c >= HQC_NREJ is
 * rejected, else c mod n is taken unless already present; until w positions are found (the
 * rest of that chunk is unused).
 * Every candidate of a chunk is processed the same way: the acceptance (bound, repeat, still
 * short of w) is a mask, the comparison runs over all w slots (empty slots hold 2^32 - 1,
 * which no position equals), the store is a masked select into every slot. The only value made public is whether w positions were found after each
 * chunk, i.e. how many chunks were read (the reference code's running time shows more: each
 * rejection and repeat). */
void hqc_sample_support_rej(hqc_xof *st, uint32_t *support, size_t weight)
{
    uint8_t buf[3 * HQC_W];
    uint32_t got = 0, done = 0;
    for (size_t j = 0; j < weight; j++) {
        support[j] = 0xFFFFFFFFu; /* an empty slot: equal to no position (< n) */
    }
    while (!done) {
        hqc_xof_read(st, buf, 3 * weight);
        for (size_t at = 0; at < 3 * weight; at += 3) {
            const uint32_t c = ((uint32_t)buf[at] << 16) | ((uint32_t)buf[at + 1] << 8) | (uint32_t)buf[at + 2];
            const uint32_t below = (uint32_t)(((uint64_t)c - HQC_NREJ) >> 63); /* c < HQC_NREJ */
            const uint32_t pos = mod_public(c, HQC_N, 0xFFFFFFFFu / HQC_N);
            uint32_t dup = 0;
            for (size_t j = 0; j < weight; j++) { /* every slot: empty ones never match */
                dup |= eq_u32(pos, support[j]);
            }
            const uint32_t room = (uint32_t)(((uint64_t)got - weight) >> 63); /* got < weight */
            const uint32_t take = pqlab_value_barrier_u32(below & room & (dup ^ 1u));
            for (size_t j = 0; j < weight; j++) {
                const uint32_t m = pqlab_ct_mask_u32(take & eq_u32((uint32_t)j, got));
                support[j] = (support[j] & ~m) | (pos & m);
            }
            got += take;
        }
        done = pqlab_ct_is_zero_u32(got ^ (uint32_t)weight);
        PQLAB_DECLASSIFY(&done, sizeof done); /* whether another chunk is needed: public */
    }
    pqlab_zeroize(buf, sizeof buf);
}
#endif

void hqc_support_xor(uint64_t v[HQC_NW], const uint32_t *support, size_t weight)
{
#ifdef HQC_NATIVE_SUPPORT
    pqlab_hqc_support_xor_native(v, HQC_NW, support, weight);
#else
    for (size_t j = 0; j < weight; j++) {
        const uint32_t pos = support[j];
        const uint32_t word = pos >> 6;
        /* 32-bit shifts by the secret bit index: single fixed-time instructions */
        const uint32_t bit = 1u << (pos & 31);
        const uint32_t upper = pqlab_ct_mask_u32((pos >> 5) & 1);
        const uint64_t b = ((uint64_t)(bit & upper) << 32) | (uint64_t)(bit & ~upper);
        for (size_t i = 0; i < HQC_NW; i++) {
            const uint64_t m = (uint64_t)0 - (uint64_t)eq_u32((uint32_t)i, word);
            v[i] ^= b & m;
        }
    }
#endif
}

void hqc_load(uint64_t *w, size_t nwords, const uint8_t *in, size_t nbytes)
{
    for (size_t i = 0; i < nwords; i++) {
        uint64_t x = 0;
        for (size_t k = 0; k < 8; k++) {
            const size_t at = 8 * i + k;
            if (at < nbytes) { /* public lengths */
                x |= (uint64_t)in[at] << (8 * k);
            }
        }
        w[i] = x;
    }
}

void hqc_store(uint8_t *out, size_t nbytes, const uint64_t *w)
{
    for (size_t i = 0; i < nbytes; i++) {
        out[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
    }
}

void hqc_sample_dense(hqc_xof *st, uint64_t v[HQC_NW])
{
    uint8_t buf[HQC_NBYTES];
    hqc_xof_read(st, buf, HQC_NBYTES);
    hqc_load(v, HQC_NW, buf, HQC_NBYTES);
    v[HQC_NW - 1] &= ((uint64_t)1 << HQC_NTOP) - 1;
    pqlab_zeroize(buf, sizeof buf);
}

void hqc_shake256_512(uint8_t out[64], const uint8_t *in1, size_t len1, const uint8_t *in2, size_t len2,
                      const uint8_t *in3, size_t len3, uint8_t domain)
{
    pqlab_keccak_state st;
    pqlab_shake256_init(&st);
    pqlab_shake256_absorb(&st, in1, len1);
    pqlab_shake256_absorb(&st, in2, len2);
    pqlab_shake256_absorb(&st, in3, len3);
    pqlab_shake256_absorb(&st, &domain, 1);
    pqlab_shake256_finalize(&st);
    pqlab_shake256_squeeze(out, 64, &st);
    pqlab_zeroize(&st, sizeof st);
}
