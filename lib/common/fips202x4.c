/* SPDX-License-Identifier: MIT */
/* Four-way SHAKE, portable fallback: the same sponge as fips202.c on four states.
 * The blocks of the four lanes are absorbed and squeezed in lock step around one
 * call of pqlab_keccakf1600x4, so a backend that only has a four-way permutation
 * (PQLAB_KECCAKF1600X4_NATIVE) speeds up all of it. A backend with its own state
 * layout defines PQLAB_KECCAKX4_NATIVE and replaces this whole file. */
#include "fips202x4.h"
#include "ct.h"
#include "../native/api.h"

#ifndef PQLAB_KECCAKX4_NATIVE

#if (defined(PQLAB_KECCAKF1600_NATIVE) || defined(PQLAB_KECCAK_BLOCKS_NATIVE)) && !defined(PQLAB_KECCAKF1600X4_NATIVE)
/* A native one-way permutation (or a backend's sponge loops, PQLAB_KECCAK_BLOCKS_NATIVE) and no
 * four-way one: the lanes are pqlab_keccak_state sponges (the module layout of fips202.h), and
 * the four instances go through the pqlab_shake* functions one after another (one state on
 * the stack where the lock-step form below needs four). */
void pqlab_keccakf1600x4(pqlab_keccakx4_state *st)
{
    for (unsigned int i = 0; i < 4; i++) {
        pqlab_keccak_permute(st->lane[i].s);
    }
}

void pqlab_shake128x4_absorb_once(pqlab_keccakx4_state *st, const uint8_t *in0, const uint8_t *in1, const uint8_t *in2,
                                  const uint8_t *in3, size_t inlen)
{
    const uint8_t *in[4] = {in0, in1, in2, in3};
    for (unsigned int i = 0; i < 4; i++) {
        pqlab_shake128_init(&st->lane[i]);
        pqlab_shake128_absorb(&st->lane[i], in[i], inlen);
        pqlab_shake128_finalize(&st->lane[i]);
    }
}

void pqlab_shake128x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3, size_t nblocks,
                                    pqlab_keccakx4_state *st)
{
    uint8_t *out[4] = {out0, out1, out2, out3};
    for (unsigned int i = 0; i < 4; i++) {
        pqlab_shake128_squeezeblocks(out[i], nblocks, &st->lane[i]);
    }
}

void pqlab_shake128x4_squeezeblock_lane(uint8_t *out, unsigned int lane, pqlab_keccakx4_state *st)
{
    pqlab_shake128_squeezeblocks(out, 1, &st->lane[lane]);
}

void pqlab_shake256x4_absorb_once(pqlab_keccakx4_state *st, const uint8_t *in0, const uint8_t *in1, const uint8_t *in2,
                                  const uint8_t *in3, size_t inlen)
{
    const uint8_t *in[4] = {in0, in1, in2, in3};
    for (unsigned int i = 0; i < 4; i++) {
        pqlab_shake256_init(&st->lane[i]);
        pqlab_shake256_absorb(&st->lane[i], in[i], inlen);
        pqlab_shake256_finalize(&st->lane[i]);
    }
}

void pqlab_shake256x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3, size_t nblocks,
                                    pqlab_keccakx4_state *st)
{
    uint8_t *out[4] = {out0, out1, out2, out3};
    for (unsigned int i = 0; i < 4; i++) {
        pqlab_shake256_squeezeblocks(out[i], nblocks, &st->lane[i]);
    }
}

void pqlab_shake256x4(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3, size_t outlen, const uint8_t *in0,
                      const uint8_t *in1, const uint8_t *in2, const uint8_t *in3, size_t inlen)
{
    pqlab_keccak_state st;
    const uint8_t *in[4] = {in0, in1, in2, in3};
    uint8_t *out[4] = {out0, out1, out2, out3};
    for (unsigned int i = 0; i < 4; i++) {
        pqlab_shake256_init(&st);
        pqlab_shake256_absorb(&st, in[i], inlen);
        pqlab_shake256_finalize(&st);
        pqlab_shake256_squeeze(out[i], outlen, &st);
    }
}

#else

#ifndef PQLAB_KECCAKF1600X4_NATIVE
void pqlab_keccakf1600x4(pqlab_keccakx4_state *st)
{
    for (unsigned int i = 0; i < 4; i++) {
        pqlab_keccak_permute(st->lane[i].s);
    }
}
#endif

static void x4_absorb_once(pqlab_keccakx4_state *st, unsigned int rate, const uint8_t *in[4], size_t inlen)
{
    for (unsigned int i = 0; i < 4; i++) {
        pqlab_memzero_words(st->lane[i].s, sizeof st->lane[i].s);
    }
    size_t off = 0;
    while (inlen - off >= rate) {
        for (unsigned int i = 0; i < 4; i++) {
            pqlab_keccak_xorbytes(st->lane[i].s, in[i] + off, 0, rate);
        }
        pqlab_keccakf1600x4(st);
        off += rate;
    }
    const unsigned int rest = (unsigned int)(inlen - off); /* < rate */
    for (unsigned int i = 0; i < 4; i++) {
        pqlab_keccak_xorbytes(st->lane[i].s, in[i] + off, 0, rest);
        pqlab_keccak_finalize(st->lane[i].s, rest, rate, 0x1F); /* SHAKE, FIPS 202 6.2 */
        st->lane[i].pos = rate;
    }
}

static void x4_squeezeblocks(uint8_t *out[4], size_t nblocks, unsigned int rate, pqlab_keccakx4_state *st)
{
    while (nblocks > 0) {
        pqlab_keccakf1600x4(st);
        for (unsigned int i = 0; i < 4; i++) {
            pqlab_keccak_extractbytes(st->lane[i].s, out[i], 0, rate);
            out[i] += rate;
        }
        nblocks--;
    }
}

void pqlab_shake128x4_absorb_once(pqlab_keccakx4_state *st, const uint8_t *in0, const uint8_t *in1, const uint8_t *in2,
                                  const uint8_t *in3, size_t inlen)
{
    const uint8_t *in[4] = {in0, in1, in2, in3};
    x4_absorb_once(st, PQLAB_SHAKE128_RATE, in, inlen);
}

void pqlab_shake128x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3, size_t nblocks,
                                    pqlab_keccakx4_state *st)
{
    uint8_t *out[4] = {out0, out1, out2, out3};
    x4_squeezeblocks(out, nblocks, PQLAB_SHAKE128_RATE, st);
}

/* one lane through the one-way permutation (the lanes are module-layout states) */
void pqlab_shake128x4_squeezeblock_lane(uint8_t *out, unsigned int lane, pqlab_keccakx4_state *st)
{
    pqlab_keccak_permute(st->lane[lane].s);
    pqlab_keccak_extractbytes(st->lane[lane].s, out, 0, PQLAB_SHAKE128_RATE);
}

void pqlab_shake256x4_absorb_once(pqlab_keccakx4_state *st, const uint8_t *in0, const uint8_t *in1, const uint8_t *in2,
                                  const uint8_t *in3, size_t inlen)
{
    const uint8_t *in[4] = {in0, in1, in2, in3};
    x4_absorb_once(st, PQLAB_SHAKE256_RATE, in, inlen);
}

void pqlab_shake256x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3, size_t nblocks,
                                    pqlab_keccakx4_state *st)
{
    uint8_t *out[4] = {out0, out1, out2, out3};
    x4_squeezeblocks(out, nblocks, PQLAB_SHAKE256_RATE, st);
}

void pqlab_shake256x4(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3, size_t outlen, const uint8_t *in0,
                      const uint8_t *in1, const uint8_t *in2, const uint8_t *in3, size_t inlen)
{
    pqlab_keccakx4_state st;
    uint8_t *out[4] = {out0, out1, out2, out3};
    const size_t nblocks = outlen / PQLAB_SHAKE256_RATE;
    pqlab_shake256x4_absorb_once(&st, in0, in1, in2, in3, inlen);
    x4_squeezeblocks(out, nblocks, PQLAB_SHAKE256_RATE, &st);
    const size_t rest = outlen - nblocks * PQLAB_SHAKE256_RATE;
    if (rest > 0) {
        pqlab_keccakf1600x4(&st);
        for (unsigned int i = 0; i < 4; i++) {
            pqlab_keccak_extractbytes(st.lane[i].s, out[i], 0, (unsigned int)rest);
        }
    }
}

#endif /* native one-way permutation only */

/* Both forms above keep the lanes as module-layout sponges, so the one-way sponge functions
 * apply to a lane: the prefix goes through one of them (one set of XORs, or of the
 * bit-interleaving conversions of a native layout) and the state goes to the other lanes.
 * A prefix shorter than the rate has met no permutation, so lane 0 is the zero state with
 * the prefix XORed into its first (prefixlen + 7) / 8 Keccak lanes (byte j is in lane j / 8,
 * fips202.h): the other lanes are initialised and get those Keccak lanes by
 * pqlab_keccak_xorlanes (2026-11-28, h101: the copy of the whole 208-byte state took about
 * 233 cycles per lane on m4-sim, this about 100); a longer prefix copies the state. */
void pqlab_shake128x4_absorb_once_prefix(pqlab_keccakx4_state *st, const uint8_t *prefix, size_t prefixlen,
                                         const uint8_t *in0, const uint8_t *in1, const uint8_t *in2, const uint8_t *in3,
                                         size_t inlen)
{
    const uint8_t *in[4] = {in0, in1, in2, in3};
    pqlab_shake128_init(&st->lane[0]);
    pqlab_shake128_absorb(&st->lane[0], prefix, prefixlen);
    for (unsigned int i = 1; i < 4; i++) {
        if (prefixlen < PQLAB_SHAKE128_RATE) { /* public lengths */
            pqlab_shake128_init(&st->lane[i]);
            pqlab_keccak_xorlanes(st->lane[i].s, 0, st->lane[0].s, 0, (unsigned int)(prefixlen + 7) & ~7u);
            st->lane[i].pos = st->lane[0].pos;
        } else {
            st->lane[i] = st->lane[0];
        }
    }
    for (unsigned int i = 0; i < 4; i++) {
        pqlab_shake128_absorb(&st->lane[i], in[i], inlen);
        pqlab_shake128_finalize(&st->lane[i]);
    }
}

#else
typedef int pqlab_fips202x4_replaced_by_backend;
#endif
