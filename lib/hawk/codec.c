/* SPDX-License-Identifier: MIT */
/* Hawk encodings (specification v1.0): Golomb-Rice compression (CompressGR /
 * DecompressGR), EncodePublic / DecodePublic, EncodeSignature / DecodeSignature. Bit
 * strings are packed little-endian: bit k is bit (k mod 8) of byte k / 8.
 *
 * CompressGR(x[0..k), low, high): for each x, s = [x < 0] and v = x if x >= 0 else
 * -x - 1 (v < 2^high or the encoding fails); output the k sign bits, then the low bits of
 * every v (low bits each), then for every v the value v >> low in unary (that many 0
 * bits, then a 1). Decoding rejects a unary part of 2^(high - low) zeros or more and a
 * truncated string. Lengths are public (they are what the encoded object's size reveals);
 * the public key and signature are public data, so this file is not constant time. */
#include <string.h>

#include "hawk.h"

typedef struct {
    uint8_t *buf;
    size_t cap, pos; /* bits */
} bitw;

static int bw_put(bitw *w, uint32_t v, unsigned nbits)
{
    if (nbits > w->cap - w->pos) {
        return 0;
    }
    for (unsigned i = 0; i < nbits; i++, w->pos++) {
        w->buf[w->pos >> 3] |= (uint8_t)(((v >> i) & 1u) << (w->pos & 7));
    }
    return 1;
}

static int compress_gr(bitw *w, const int32_t *x, size_t k, unsigned low, unsigned high)
{
    for (size_t i = 0; i < k; i++) {
        uint32_t s = (uint32_t)x[i] >> 31;
        if (!bw_put(w, s, 1)) {
            return 0;
        }
    }
    for (size_t i = 0; i < k; i++) {
        uint32_t s = (uint32_t)x[i] >> 31;
        uint32_t v = (uint32_t)x[i] ^ ((uint32_t)0 - s); /* x or -x - 1 */
        if (v >= (1u << high) || !bw_put(w, v & ((1u << low) - 1), low)) {
            return 0;
        }
    }
    for (size_t i = 0; i < k; i++) {
        uint32_t s = (uint32_t)x[i] >> 31;
        uint32_t v = ((uint32_t)x[i] ^ ((uint32_t)0 - s)) >> low;
        if (!bw_put(w, 0, v) || !bw_put(w, 1, 1)) {
            return 0;
        }
    }
    return 1;
}

typedef struct {
    const uint8_t *buf;
    size_t len, pos; /* bits */
} bitr;

static uint32_t br_bit(const bitr *r, size_t k)
{
    return (r->buf[k >> 3] >> (k & 7)) & 1u;
}

/* decodes k values starting at bit r->pos; on success r->pos is after the last unary
 * code */
static int decompress_gr(bitr *r, int32_t *x, size_t k, unsigned low, unsigned high)
{
    size_t base = r->pos;
    if (k * (low + 1) > r->len - base) {
        return 0;
    }
    size_t j = base + k * (low + 1);
    for (size_t i = 0; i < k; i++) {
        uint32_t z = 0;
        for (;;) {
            if (j >= r->len) {
                return 0;
            }
            if (br_bit(r, j)) {
                break;
            }
            z++;
            j++;
            if (z >= (1u << (high - low))) {
                return 0;
            }
        }
        j++;
        uint32_t v = 0;
        for (unsigned b = 0; b < low; b++) {
            v |= br_bit(r, base + k + i * low + b) << b;
        }
        v |= z << low;
        uint32_t s = br_bit(r, base + i);
        x[i] = (int32_t)(v ^ ((uint32_t)0 - s));
    }
    r->pos = j;
    return 1;
}

/* the padding up to the next byte boundary must be zero */
static int br_align(bitr *r)
{
    while ((r->pos & 7) != 0) {
        if (r->pos >= r->len || br_bit(r, r->pos)) {
            return 0;
        }
        r->pos++;
    }
    return 1;
}

int hawk_encode_public(uint8_t pk[HAWK_PKBYTES], const int32_t *q00, const int32_t *q01)
{
    int32_t head[HAWK_N / 2];
    const unsigned v = 16 - HAWK_HIGH00;
    bitw w = {pk, 8 * (size_t)HAWK_PKBYTES, 0};
    memset(pk, 0, HAWK_PKBYTES);
    if (q00[0] < -32768 || q00[0] >= 32768) {
        return 0;
    }
    memcpy(head, q00, sizeof head);
    head[0] = q00[0] >> v; /* arithmetic shift (floor), as the specification */
    if (!compress_gr(&w, head, HAWK_N / 2, HAWK_LOW00, HAWK_HIGH00)) {
        return 0;
    }
    if (!bw_put(&w, (uint32_t)q00[0] & ((1u << v) - 1), v)) {
        return 0;
    }
    w.pos = (w.pos + 7) & ~(size_t)7;
    if (w.pos > w.cap) {
        return 0;
    }
    return compress_gr(&w, q01, HAWK_N, HAWK_LOW01, HAWK_HIGH01);
}

int hawk_decode_public(int32_t *q00, int32_t *q01, const uint8_t pk[HAWK_PKBYTES])
{
    const unsigned v = 16 - HAWK_HIGH00;
    bitr r = {pk, 8 * (size_t)HAWK_PKBYTES, 0};
    if (!decompress_gr(&r, q00, HAWK_N / 2, HAWK_LOW00, HAWK_HIGH00)) {
        return 0;
    }
    if (v > r.len - r.pos) {
        return 0;
    }
    uint32_t lo = 0;
    for (unsigned b = 0; b < v; b++) {
        lo |= br_bit(&r, r.pos + b) << b;
    }
    r.pos += v;
    q00[0] = (int32_t)((uint32_t)q00[0] << v) + (int32_t)lo;
    if (!br_align(&r)) {
        return 0;
    }
    q00[HAWK_N / 2] = 0;
    for (size_t i = HAWK_N / 2 + 1; i < HAWK_N; i++) {
        q00[i] = -q00[HAWK_N - i];
    }
    if (!decompress_gr(&r, q01, HAWK_N, HAWK_LOW01, HAWK_HIGH01)) {
        return 0;
    }
    return br_align(&r);
}

int hawk_encode_sig(uint8_t sig[HAWK_SIGBYTES], const uint8_t salt[HAWK_SALTLEN], const int32_t *s1)
{
    bitw w = {sig + HAWK_SALTLEN, 8 * (size_t)(HAWK_SIGBYTES - HAWK_SALTLEN), 0};
    memset(sig, 0, HAWK_SIGBYTES);
    memcpy(sig, salt, HAWK_SALTLEN);
    return compress_gr(&w, s1, HAWK_N, HAWK_LOWS1, HAWK_HIGHS1);
}

int hawk_decode_sig(int32_t *s1, const uint8_t sig[HAWK_SIGBYTES])
{
    bitr r = {sig + HAWK_SALTLEN, 8 * (size_t)(HAWK_SIGBYTES - HAWK_SALTLEN), 0};
    if (!decompress_gr(&r, s1, HAWK_N, HAWK_LOWS1, HAWK_HIGHS1)) {
        return 0;
    }
    for (size_t k = r.pos; k < r.len; k++) {
        if (br_bit(&r, k)) {
            return 0;
        }
    }
    return 1;
}
