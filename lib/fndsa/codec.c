/* SPDX-License-Identifier: MIT */
/* Encodings of Falcon keys and signatures (round-3 specification v1.2,
 * section 3.11). Bit strings are filled most significant bit first.
 *  - public key h: 14 bits per coefficient (values < q);
 *  - private key f, g, F: two's complement on a fixed number of bits; the
 *    value -2^(bits-1) is not allowed (keeps the range symmetric);
 *  - signature s2: compressed (alg. 17): sign bit, 7 low bits of |s|, then
 *    |s| >> 7 zeros and a one; |s| <= 2047.
 * The decoders are strict: every non-canonical input is rejected (out of
 * range, -0 in the compressed form, non-zero unused bits, short input).
 * Decoding of the private key is constant time (no branch on key bits
 * except the final validity flag); the public decoders may branch. */
#include "fndsa.h"
#include "ct.h"

size_t fndsa_modq_encode(uint8_t *out, size_t max_out, const uint16_t *x, unsigned logn)
{
    size_t n = (size_t)1 << logn, len = ((n * 14) + 7) >> 3;
    if (out == NULL) {
        return len;
    }
    if (len > max_out) {
        return 0;
    }
    for (size_t u = 0; u < n; u++) {
        if (x[u] >= FNDSA_Q) {
            return 0;
        }
    }
    uint32_t acc = 0;
    unsigned acc_len = 0;
    size_t v = 0;
    for (size_t u = 0; u < n; u++) {
        acc = (acc << 14) | x[u];
        acc_len += 14;
        while (acc_len >= 8) {
            acc_len -= 8;
            out[v++] = (uint8_t)(acc >> acc_len);
        }
    }
    if (acc_len > 0) {
        out[v++] = (uint8_t)(acc << (8 - acc_len));
    }
    return v;
}

size_t fndsa_modq_decode(uint16_t *x, unsigned logn, const uint8_t *in, size_t max_in)
{
    size_t n = (size_t)1 << logn, len = ((n * 14) + 7) >> 3;
    if (len > max_in) {
        return 0;
    }
    uint32_t acc = 0;
    unsigned acc_len = 0;
    size_t u = 0, v = 0;
    while (u < n) {
        acc = (acc << 8) | in[v++];
        acc_len += 8;
        if (acc_len >= 14) {
            acc_len -= 14;
            uint32_t w = (acc >> acc_len) & 0x3FFF;
            if (w >= FNDSA_Q) {
                return 0;
            }
            x[u++] = (uint16_t)w;
        }
    }
    if ((acc & ((1u << acc_len) - 1)) != 0) {
        return 0;
    }
    return len;
}

size_t fndsa_trim_i8_encode(uint8_t *out, size_t max_out, const int8_t *x, unsigned logn, unsigned bits)
{
    size_t n = (size_t)1 << logn, len = ((n * bits) + 7) >> 3;
    if (out == NULL) {
        return len;
    }
    if (len > max_out) {
        return 0;
    }
    int32_t maxv = (1 << (bits - 1)) - 1;
    uint32_t bad = 0, mask = (1u << bits) - 1;
    for (size_t u = 0; u < n; u++) {
        bad |= ((uint32_t)(maxv - x[u]) >> 31) | ((uint32_t)(x[u] + maxv) >> 31);
    }
    PQLAB_DECLASSIFY(&bad, sizeof bad);
    if (bad) {
        return 0;
    }
    uint32_t acc = 0;
    unsigned acc_len = 0;
    size_t v = 0;
    for (size_t u = 0; u < n; u++) {
        acc = (acc << bits) | ((uint32_t)x[u] & mask);
        acc_len += bits;
        while (acc_len >= 8) { /* public schedule: depends on u only */
            acc_len -= 8;
            out[v++] = (uint8_t)(acc >> acc_len);
        }
    }
    if (acc_len > 0) {
        out[v++] = (uint8_t)(acc << (8 - acc_len));
    }
    return v;
}

size_t fndsa_trim_i8_decode(int8_t *x, unsigned logn, unsigned bits, const uint8_t *in, size_t max_in)
{
    size_t n = (size_t)1 << logn, len = ((n * bits) + 7) >> 3;
    if (len > max_in) {
        return 0;
    }
    uint32_t acc = 0, mask1 = (1u << bits) - 1, mask2 = 1u << (bits - 1);
    unsigned acc_len = 0;
    size_t u = 0, v = 0;
    uint32_t bad = 0;
    while (u < n) {
        acc = (acc << 8) | in[v++];
        acc_len += 8;
        while (acc_len >= bits && u < n) {
            acc_len -= bits;
            uint32_t w = (acc >> acc_len) & mask1;
            bad |= pqlab_ct_is_zero_u32(w ^ mask2); /* -2^(bits-1) is forbidden */
            w |= (uint32_t)0 - (w & mask2);         /* sign extension */
            x[u++] = (int8_t)(int32_t)w;
        }
    }
    bad |= (uint32_t)((acc & ((1u << acc_len) - 1)) != 0);
    PQLAB_DECLASSIFY(&bad, sizeof bad);
    if (bad) {
        return 0;
    }
    return len;
}

size_t fndsa_comp_encode(uint8_t *out, size_t max_out, const int16_t *x, unsigned logn)
{
    size_t n = (size_t)1 << logn, v = 0;
    uint32_t acc = 0;
    unsigned acc_len = 0;
    for (size_t u = 0; u < n; u++) {
        if (x[u] < -2047 || x[u] > 2047) {
            return 0;
        }
    }
    for (size_t u = 0; u < n; u++) {
        int32_t s = x[u];
        uint32_t t = (uint32_t)(s < 0 ? -s : s);
        acc = (acc << 1) | (uint32_t)(s < 0);
        acc = (acc << 7) | (t & 0x7F);
        t >>= 7;
        /* t zeros then a one: at most 16 more bits; acc keeps < 8 + 8 + 16 bits */
        acc <<= t + 1;
        acc |= 1;
        acc_len += 8 + t + 1;
        while (acc_len >= 8) {
            acc_len -= 8;
            if (out != NULL) {
                if (v >= max_out) {
                    return 0;
                }
                out[v] = (uint8_t)(acc >> acc_len);
            }
            v++;
        }
    }
    if (acc_len > 0) {
        if (out != NULL) {
            if (v >= max_out) {
                return 0;
            }
            out[v] = (uint8_t)(acc << (8 - acc_len));
        }
        v++;
    }
    return v;
}

size_t fndsa_comp_decode(int16_t *x, unsigned logn, const uint8_t *in, size_t max_in)
{
    size_t n = (size_t)1 << logn, v = 0;
    uint32_t acc = 0;
    unsigned acc_len = 0;
    for (size_t u = 0; u < n; u++) {
        /* sign and 7 low bits */
        if (v >= max_in) {
            return 0;
        }
        acc = (acc << 8) | in[v++];
        uint32_t b = (acc >> acc_len) & 0xFF;
        uint32_t s = b & 128;
        uint32_t m = b & 127;
        /* unary high part */
        for (;;) {
            if (acc_len == 0) {
                if (v >= max_in) {
                    return 0;
                }
                acc = (acc << 8) | in[v++];
                acc_len = 8;
            }
            acc_len--;
            if (((acc >> acc_len) & 1) != 0) {
                break;
            }
            m += 128;
            if (m > 2047) {
                return 0;
            }
        }
        if (s && m == 0) {
            return 0; /* -0 is not canonical */
        }
        x[u] = (int16_t)(s ? -(int32_t)m : (int32_t)m);
    }
    /* unused bits of the last byte must be zero */
    if ((acc & ((1u << acc_len) - 1)) != 0) {
        return 0;
    }
    return v;
}

/* Private key 0x50+logn || f || g || F (spec 3.11.5) -> f, g, F (n int8 each); 0 when the
 * header or an encoding is malformed or bytes are left over (FNDSA_SKBYTES, this build's
 * degree). Constant time for a well-formed key: only the header byte (which names the format)
 * and the verdict are public. */
int fndsa_decode_sk(int8_t *f, int8_t *g, int8_t *F, const uint8_t *sk)
{
    uint8_t hdr = sk[0];
    PQLAB_DECLASSIFY(&hdr, 1);
    if (hdr != 0x50 + FNDSA_LOGN) {
        return 0;
    }
    size_t u = 1, v;
    v = fndsa_trim_i8_decode(f, FNDSA_LOGN, FNDSA_FG_BITS, sk + u, FNDSA_SKBYTES - u);
    if (v == 0) {
        return 0;
    }
    u += v;
    v = fndsa_trim_i8_decode(g, FNDSA_LOGN, FNDSA_FG_BITS, sk + u, FNDSA_SKBYTES - u);
    if (v == 0) {
        return 0;
    }
    u += v;
    v = fndsa_trim_i8_decode(F, FNDSA_LOGN, FNDSA_FFG_BITS, sk + u, FNDSA_SKBYTES - u);
    if (v == 0) {
        return 0;
    }
    u += v;
    return u == FNDSA_SKBYTES;
}
