/* SPDX-License-Identifier: MIT */
/* AES (FIPS 197), bitsliced, constant time.
 *
 * Layout. Two 16-byte blocks are held in eight 32-bit words q[0..7]; q[i] holds bit i
 * of all 32 bytes. Byte s[r][c] of block b (state index r + 4c, FIPS 197 section 3.4)
 * sits at bit 8r + 4b + c: byte r of every word is row r of both blocks. With this
 * order, loading the 32 input bytes as eight little-endian words and transposing the
 * four 8x8 bit matrices (one per byte lane) is the whole packing, a column shift is a
 * rotation of nibbles inside each byte, and a row shift is a word rotation by 8, 16
 * or 24. ShiftRows itself is never executed: it is folded into MixColumns (see
 * "ShiftRows without moving data" below).
 *
 * S-box (section 5.1.1): inversion in GF(2^8) done in the isomorphic tower field
 * GF(16)[y]/(y^2 + y + 8), GF(16) = GF(2)[z]/(z^4 + z + 1), followed by the affine map.
 * The basis changes, the affine map and the GF(16) inversion formulas were derived and
 * checked exhaustively by tools/gen_aes_sbox.py. About 185 word operations per S-box
 * layer (for 32 bytes), no tables, no data-dependent branches or addresses. */
#include "aes.h"

#include "ct.h"
#include "hashprof.h"

/* ---- GF(16) arithmetic on bitsliced nibbles (a[0] = coefficient of z^0) ---- */

static inline void gf16_mul(uint32_t c[4], const uint32_t a[4], const uint32_t b[4])
{
    const uint32_t p0 = a[0] & b[0];
    const uint32_t p1 = (a[0] & b[1]) ^ (a[1] & b[0]);
    const uint32_t p2 = (a[0] & b[2]) ^ (a[1] & b[1]) ^ (a[2] & b[0]);
    const uint32_t p3 = (a[0] & b[3]) ^ (a[1] & b[2]) ^ (a[2] & b[1]) ^ (a[3] & b[0]);
    const uint32_t p4 = (a[1] & b[3]) ^ (a[2] & b[2]) ^ (a[3] & b[1]);
    const uint32_t p5 = (a[2] & b[3]) ^ (a[3] & b[2]);
    const uint32_t p6 = a[3] & b[3];
    /* z^4 = z + 1, z^5 = z^2 + z, z^6 = z^3 + z^2 */
    c[0] = p0 ^ p4;
    c[1] = p1 ^ p4 ^ p5;
    c[2] = p2 ^ p5 ^ p6;
    c[3] = p3 ^ p6;
}

/* a^-1 = a^14 (0 maps to 0), as the algebraic normal form of each output bit
 * (computed from the truth table with the Moebius transform): 10 AND, 23 XOR instead
 * of two multiplications and three squarings */
static inline void gf16_inv(uint32_t c[4], const uint32_t a[4])
{
    const uint32_t a01 = a[0] & a[1], a02 = a[0] & a[2], a12 = a[1] & a[2];
    const uint32_t a03 = a[0] & a[3], a13 = a[1] & a[3], a23 = a[2] & a[3];
    const uint32_t a012 = a01 & a[2], a123 = a12 & a[3], a013 = a01 & a[3], a023 = a02 & a[3];
    c[0] = a[0] ^ a[1] ^ a[2] ^ a[3] ^ a02 ^ a12 ^ a012 ^ a123;
    c[1] = a01 ^ a02 ^ a12 ^ a[3] ^ a13 ^ a013;
    c[2] = a01 ^ a[2] ^ a02 ^ a[3] ^ a03 ^ a023;
    c[3] = a[1] ^ a[2] ^ a[3] ^ a03 ^ a13 ^ a23 ^ a123;
}

/* SubBytes on all 32 bytes (section 5.1.1) */
static void sub_bytes(uint32_t q[8])
{
    const uint32_t *u = q;
    uint32_t t[8], x[4], l[4], m[4], d[4], di[4], v[8];
    /* AES polynomial basis -> tower basis (t[0..3] = a0, t[4..7] = a1) */
    t[0] = u[0] ^ u[5] ^ u[7];
    t[1] = u[2];
    t[2] = u[2] ^ u[3] ^ u[4] ^ u[5] ^ u[6] ^ u[7];
    t[3] = u[3] ^ u[4];
    t[4] = u[4] ^ u[5] ^ u[6];
    t[5] = u[1] ^ u[4] ^ u[6] ^ u[7];
    t[6] = u[2] ^ u[3] ^ u[5] ^ u[7];
    t[7] = u[5] ^ u[7];
    const uint32_t *a0 = t, *a1 = t + 4;
    /* (a1 y + a0)^-1 = (a1 y + (a0 + a1)) / d with d = 8 a1^2 + a0 (a0 + a1) */
    for (unsigned int i = 0; i < 4; i++) {
        x[i] = a0[i] ^ a1[i];
    }
    l[0] = a1[2]; /* 8 * a1^2 */
    l[1] = a1[1] ^ a1[2] ^ a1[3];
    l[2] = a1[1];
    l[3] = a1[0] ^ a1[2] ^ a1[3];
    gf16_mul(m, a0, x);
    for (unsigned int i = 0; i < 4; i++) {
        d[i] = l[i] ^ m[i];
    }
    gf16_inv(di, d);
    gf16_mul(v, x, di);
    gf16_mul(v + 4, a1, di);
    /* tower basis -> AES basis, affine map and the constant 0x63 (bits 0, 1, 5, 6) */
    q[0] = ~(v[0] ^ v[2] ^ v[6]);
    q[1] = ~(v[0] ^ v[1] ^ v[2] ^ v[3] ^ v[4] ^ v[5]);
    q[2] = v[0] ^ v[3] ^ v[5] ^ v[6];
    q[3] = v[0] ^ v[2] ^ v[5];
    q[4] = v[0] ^ v[1] ^ v[3] ^ v[4] ^ v[5];
    q[5] = ~(v[1] ^ v[2] ^ v[3] ^ v[5] ^ v[6] ^ v[7]);
    q[6] = ~(v[4] ^ v[6] ^ v[7]);
    q[7] = v[1] ^ v[2];
}

static inline uint32_t ror32(uint32_t x, unsigned int n)
{
    return (x >> n) | (x << (32u - n));
}

/* ShiftRows without moving data.
 * ShiftRows (section 5.1.2) is not applied to the state. Instead the stored state P
 * stands for the real state A = SR^s(P), A[r][c] = P[r][(c + s r) mod 4], where s
 * counts the ShiftRows owed so far (mod 4). SubBytes works bytewise and commutes with
 * that. ShiftRows followed by MixColumns (section 5.1.3) then becomes, on P with
 * s' = s + 1 (derivation: substitute A = SR^s'(P) into the MixColumns equations):
 *   P'[r][c] = 2 P[r][c] + 3 P[r+1][c+s'] + P[r+2][c+2s'] + P[r+3][c+3s']
 *            = xtime(t) + t + P + R^2(t),   t = P + R(P),
 * where R takes row r+1, column c+s': a word rotation by 8 (rows are bytes) and a
 * rotation of every nibble by s' (the columns of one block). Round keys are stored
 * pre-shifted (SR^-s' of the key, see keyexp), and the output is unshifted once. */

/* rotate every nibble right by n (new column c = old column c + n) */
#define NIBROT(y, n)                                                                                                   \
    ((((y) >> (n)) & (0x11111111U * (0xFu >> (n)))) | (((y) << (4 - (n))) & (0x11111111U * ((0xF0u >> (n)) & 0xFu))))

#define DEFINE_MIXCOLUMNS(sp, R1, R2)                                                                                  \
    static void mix_columns_##sp(uint32_t q[8])                                                                        \
    {                                                                                                                  \
        uint32_t t[8];                                                                                                 \
        for (unsigned int i = 0; i < 8; i++) {                                                                         \
            const uint32_t y = ror32(q[i], 8);                                                                         \
            t[i] = q[i] ^ (R1);                                                                                        \
        }                                                                                                              \
        for (unsigned int i = 0; i < 8; i++) {                                                                         \
            const uint32_t y = ror32(t[i], 16);                                                                        \
            q[i] ^= t[i] ^ (R2);                                                                                       \
        }                                                                                                              \
        /* + xtime(t): bit i of 2t is bit i-1 of t; t7 folds back as 0x1B (bits 0,1,3,4) */                            \
        const uint32_t t7 = t[7];                                                                                      \
        q[7] ^= t[6];                                                                                                  \
        q[6] ^= t[5];                                                                                                  \
        q[5] ^= t[4];                                                                                                  \
        q[4] ^= t[3] ^ t7;                                                                                             \
        q[3] ^= t[2] ^ t7;                                                                                             \
        q[2] ^= t[1];                                                                                                  \
        q[1] ^= t[0] ^ t7;                                                                                             \
        q[0] ^= t7;                                                                                                    \
    }

/* R = rows +1 and columns +s', R^2 = rows +2 and columns +2s' (mod 4) */
DEFINE_MIXCOLUMNS(0, y, y)
DEFINE_MIXCOLUMNS(1, NIBROT(y, 1), NIBROT(y, 2))
DEFINE_MIXCOLUMNS(2, NIBROT(y, 2), y)
DEFINE_MIXCOLUMNS(3, NIBROT(y, 3), NIBROT(y, 2))

static inline void swapmove(uint32_t *a, uint32_t *b, uint32_t mask, unsigned int n)
{
    const uint32_t t = ((*a >> n) ^ *b) & mask;
    *b ^= t;
    *a ^= t << n;
}

/* Transposes the four 8x8 bit matrices (word k, bit i of byte lane m) <-> (word i,
 * bit k of byte lane m). It is an involution, so it both packs and unpacks. */
static void transpose(uint32_t w[8])
{
    swapmove(&w[0], &w[1], 0x55555555U, 1);
    swapmove(&w[2], &w[3], 0x55555555U, 1);
    swapmove(&w[4], &w[5], 0x55555555U, 1);
    swapmove(&w[6], &w[7], 0x55555555U, 1);
    swapmove(&w[0], &w[2], 0x33333333U, 2);
    swapmove(&w[1], &w[3], 0x33333333U, 2);
    swapmove(&w[4], &w[6], 0x33333333U, 2);
    swapmove(&w[5], &w[7], 0x33333333U, 2);
    swapmove(&w[0], &w[4], 0x0F0F0F0FU, 4);
    swapmove(&w[1], &w[5], 0x0F0F0F0FU, 4);
    swapmove(&w[2], &w[6], 0x0F0F0F0FU, 4);
    swapmove(&w[3], &w[7], 0x0F0F0F0FU, 4);
}

static inline uint32_t load32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void store32_le(uint8_t *p, uint32_t x)
{
    p[0] = (uint8_t)x;
    p[1] = (uint8_t)(x >> 8);
    p[2] = (uint8_t)(x >> 16);
    p[3] = (uint8_t)(x >> 24);
}

/* 32 bytes (two blocks) -> bitsliced words */
static void pack(uint32_t q[8], const uint8_t in[32])
{
    for (unsigned int k = 0; k < 8; k++) {
        q[k] = load32_le(in + 4 * k);
    }
    transpose(q);
}

static void unpack(uint8_t out[32], uint32_t q[8])
{
    transpose(q);
    for (unsigned int k = 0; k < 8; k++) {
        store32_le(out + 4 * k, q[k]);
    }
}

static inline void add_round_key(uint32_t q[8], const uint32_t *rk)
{
    for (unsigned int i = 0; i < 8; i++) {
        q[i] ^= rk[i];
    }
}

/* Cipher (section 5.1) on two blocks; rounds 1..nr-1 owe s' = round mod 4 shifts */
static void encrypt2(uint8_t out[32], const uint8_t in[32], const pqlab_aes_ctx *ctx)
{
    uint32_t q[8];
    uint8_t tmp[32];
    const uint32_t *rk = ctx->rk;
    const unsigned int nr = ctx->nr;
    pack(q, in);
    add_round_key(q, rk);
    for (unsigned int r = 1; r < nr; r++) {
        sub_bytes(q);
        switch (r & 3u) { /* the round number is public */
        case 1:
            mix_columns_1(q);
            break;
        case 2:
            mix_columns_2(q);
            break;
        case 3:
            mix_columns_3(q);
            break;
        default:
            mix_columns_0(q);
            break;
        }
        add_round_key(q, rk + 8 * r);
    }
    sub_bytes(q); /* final round: SubBytes, (owed) ShiftRows, AddRoundKey */
    add_round_key(q, rk + 8 * nr);
    unpack(tmp, q);
    /* pay the owed shifts, s = nr mod 4 (2 for AES-128/256, 0 for AES-192):
     * A[r][c] = P[r][(c + s r) mod 4], byte index r + 4c, per block */
    const unsigned int s = nr & 3u;
    for (unsigned int b = 0; b < 32; b += 16) {
        for (unsigned int c = 0; c < 4; c++) {
            for (unsigned int r = 0; r < 4; r++) {
                out[b + r + 4 * c] = tmp[b + r + 4 * ((c + s * r) & 3u)];
            }
        }
    }
    pqlab_zeroize(q, sizeof q);
    pqlab_zeroize(tmp, sizeof tmp);
}

/* SubWord of section 5.2 on four bytes, through the bitsliced S-box. With a single
 * word, the transpose reduces to q[i] = bit i of each byte (bits 0, 8, 16, 24); the
 * other bit positions carry don't-care values that are masked off at the end. */
static uint32_t sub_word(uint32_t w)
{
    uint32_t q[8];
    for (unsigned int i = 0; i < 8; i++) {
        q[i] = (w >> i) & 0x01010101U;
    }
    sub_bytes(q);
    w = 0;
    for (unsigned int i = 0; i < 8; i++) {
        w |= (q[i] & 0x01010101U) << i;
    }
    pqlab_zeroize(q, sizeof q);
    return w;
}

/* KeyExpansion (section 5.2). Words are kept little-endian (byte 0 of the word in
 * bits 0..7), so RotWord is a rotation right by 8 and Rcon sits in the low byte. */
void pqlab_aes_keyexp(pqlab_aes_ctx *ctx, const uint8_t *key, size_t keylen)
{
    PQLAB_HASHPROF_BEGIN();
    uint32_t w[60];
    const unsigned int nk = (unsigned int)(keylen / 4);
    for (unsigned int i = 0; i < 120; i++) {
        ctx->rk[i] = 0;
    }
    ctx->nr = 0;
    if (keylen == 16 || keylen == 24 || keylen == 32) {
        const unsigned int nr = nk + 6;
        uint32_t rcon = 1;
        for (unsigned int i = 0; i < nk; i++) {
            w[i] = load32_le(key + 4 * i);
        }
        for (unsigned int i = nk; i < 4 * (nr + 1); i++) {
            uint32_t tmp = w[i - 1];
            if (i % nk == 0) {
                tmp = sub_word(ror32(tmp, 8)) ^ rcon;
                /* xtime of the round constant (public data): 1, 2, 4, ..., 0x80, 0x1B, 0x36 */
                rcon = (rcon << 1) ^ (0x11Bu & (0u - (rcon >> 7)));
            } else if (nk > 6 && i % nk == 4) {
                tmp = sub_word(tmp);
            }
            w[i] = w[i - nk] ^ tmp;
        }
        /* bitslice each round key twice (one copy per block of the pair), shifted back
         * by the s = round mod 4 ShiftRows the state owes at that round (see above):
         * stored K'[row][c] = K[row][(c - s row) mod 4]; word c holds column c with
         * row `row` in byte `row` */
        for (unsigned int r = 0; r <= nr; r++) {
            const uint32_t *k = w + 4 * r;
            const unsigned int s = r & 3u;
            uint32_t *q = ctx->rk + 8 * r;
            for (unsigned int c = 0; c < 4; c++) {
                q[c] = (k[c] & 0x000000FFU) | (k[(c - s) & 3u] & 0x0000FF00U) | (k[(c - 2 * s) & 3u] & 0x00FF0000U) |
                       (k[(c - 3 * s) & 3u] & 0xFF000000U);
                q[c + 4] = q[c];
            }
            transpose(q);
        }
        ctx->nr = nr;
        pqlab_zeroize(w, sizeof w);
    }
    PQLAB_HASHPROF_END();
}

void pqlab_aes_ecb(uint8_t *out, const uint8_t *in, size_t nblocks, const pqlab_aes_ctx *ctx)
{
    PQLAB_HASHPROF_BEGIN();
    uint8_t buf[32];
    while (nblocks >= 2) {
        encrypt2(out, in, ctx);
        in += 32;
        out += 32;
        nblocks -= 2;
    }
    if (nblocks == 1) {
        for (unsigned int i = 0; i < 16; i++) {
            buf[i] = in[i];
            buf[16 + i] = 0;
        }
        encrypt2(buf, buf, ctx);
        for (unsigned int i = 0; i < 16; i++) {
            out[i] = buf[i];
        }
        pqlab_zeroize(buf, sizeof buf);
    }
    PQLAB_HASHPROF_END();
}

void pqlab_aes_ctr(uint8_t *out, size_t outlen, const uint8_t iv[12], const pqlab_aes_ctx *ctx)
{
    PQLAB_HASHPROF_BEGIN();
    uint8_t ctrblk[32], ks[32];
    uint32_t ctr = 0;
    for (unsigned int i = 0; i < 12; i++) {
        ctrblk[i] = iv[i];
        ctrblk[16 + i] = iv[i];
    }
    while (outlen > 0) {
        /* counter blocks iv || ctr and iv || ctr + 1, big-endian (wraps mod 2^32) */
        for (unsigned int b = 0; b < 2; b++) {
            const uint32_t c = ctr + b;
            ctrblk[16 * b + 12] = (uint8_t)(c >> 24);
            ctrblk[16 * b + 13] = (uint8_t)(c >> 16);
            ctrblk[16 * b + 14] = (uint8_t)(c >> 8);
            ctrblk[16 * b + 15] = (uint8_t)c;
        }
        const size_t n = outlen < 32 ? outlen : 32;
        if (n == 32) {
            encrypt2(out, ctrblk, ctx);
        } else {
            encrypt2(ks, ctrblk, ctx);
            for (size_t i = 0; i < n; i++) {
                out[i] = ks[i];
            }
        }
        out += n;
        outlen -= n;
        ctr += 2;
    }
    pqlab_zeroize(ks, sizeof ks);
    PQLAB_HASHPROF_END();
}

void pqlab_aes_ctx_release(pqlab_aes_ctx *ctx)
{
    pqlab_zeroize(ctx, sizeof *ctx);
}
