/* SPDX-License-Identifier: MIT */
/* WOTS+ (FIPS 205 section 5) with w = 16.
 *
 * All three algorithms reduce to "advance each of the len chains from a start position
 * by some number of F steps" (Algorithm 5, chain). The chains are independent, so
 * with a batched 4-way F (SLH_F_X4_BATCHED) wots_chains keeps four lanes busy: whenever
 * a lane finishes its chain it takes the next one, and every round hands up to four F
 * calls to slh_F_x4; otherwise it walks one chain at a time through slh_chain. Key
 * generation walks every chain from 0 to 15; signing is the same walk with the values
 * at the message digits captured on the way, so a signature costs no more hashing than
 * a key. */
#include <string.h>

#include "ct.h"
#include "internal.h"

void slh_wots_digits(uint8_t digits[SLH_LEN], const uint8_t *msg)
{
    uint32_t csum = 0;
    unsigned int i;

    /* base_2b(M, 4, len1) (Algorithm 4): high nibble first */
    for (i = 0; i < SLH_N; i++) {
        digits[2 * i] = (uint8_t)(msg[i] >> 4);
        digits[2 * i + 1] = (uint8_t)(msg[i] & 15);
    }
    /* csum <= len1 * 15 = 960 for n = 32 */
    for (i = 0; i < SLH_LEN1; i++) {
        csum += 15u - digits[i];
    }
    /* csum << ((8 - (len2 * lg w) mod 8) mod 8) = csum << 4, then base_2b of its two
     * big-endian bytes gives the top three nibbles of the 16-bit value */
    csum <<= 4;
    digits[SLH_LEN1] = (uint8_t)((csum >> 12) & 15);
    digits[SLH_LEN1 + 1] = (uint8_t)((csum >> 8) & 15);
    digits[SLH_LEN1 + 2] = (uint8_t)((csum >> 4) & 15);
}

/* chain (Algorithm 5) for all len chains: val[c] starts at position start[c] and takes
 * steps[c] F steps with hash addresses start[c], start[c] + 1, ...; the positions are
 * public (message digits). When cap != NULL, the value at position capat[c] is copied
 * to cap[c]. adrs: type WOTS_HASH with key pair address set. */
#ifdef SLH_F_X4_BATCHED
static void wots_chains(uint8_t *val, const uint8_t *start, const uint8_t *steps, const uint8_t *capat, uint8_t *cap,
                        const slh_ctx *ctx, const slh_adrs *adrs)
{
    slh_adrs la[4];
    unsigned int chain[4];
    unsigned int pos[4];
    unsigned int end[4];
    unsigned int active = 0; /* lanes 0 .. active-1 are busy */
    unsigned int next = 0;

    for (;;) {
        /* refill: idle lanes take the next chains that need at least one step */
        while (active < 4 && next < SLH_LEN) {
            unsigned int c = next++;
            if (cap != NULL && capat[c] == start[c]) {
                memcpy(cap + c * SLH_N, val + c * SLH_N, SLH_N);
            }
            if (steps[c] == 0) {
                continue;
            }
            chain[active] = c;
            pos[active] = start[c];
            end[active] = (unsigned int)start[c] + steps[c];
            la[active] = *adrs;
            slh_adrs_set_chain(&la[active], c);
            active++;
        }
        if (active == 0) {
            break;
        }
        {
            uint8_t *out[4];
            const uint8_t *in[4];
            for (unsigned int l = 0; l < active; l++) {
                slh_adrs_set_hash(&la[l], pos[l]);
                out[l] = val + chain[l] * SLH_N;
                in[l] = out[l];
            }
            slh_F_x4(out, ctx, la, in, active);
        }
        /* advance; finished lanes are removed by moving the last busy lane down */
        for (unsigned int l = 0; l < active;) {
            unsigned int c = chain[l];
            pos[l]++;
            if (cap != NULL && capat[c] == pos[l]) {
                memcpy(cap + c * SLH_N, val + c * SLH_N, SLH_N);
            }
            if (pos[l] == end[l]) {
                active--;
                chain[l] = chain[active];
                pos[l] = pos[active];
                end[l] = end[active];
                la[l] = la[active];
            } else {
                l++;
            }
        }
    }
}

#else
/* Without a batched slh_F_x4 the chains are walked one after the other: slh_chain keeps
 * the value inside the hash state from one F call to the next (no conversion of the
 * value or of the address between the steps). A captured position splits the walk in
 * two. */
static void wots_chains(uint8_t *val, const uint8_t *start, const uint8_t *steps, const uint8_t *capat, uint8_t *cap,
                        const slh_ctx *ctx, const slh_adrs *adrs)
{
    slh_adrs a = *adrs;
    for (unsigned int c = 0; c < SLH_LEN; c++) {
        uint8_t *v = val + c * SLH_N;
        unsigned int s0 = start[c], n = steps[c];
        slh_adrs_set_chain(&a, c);
        if (cap != NULL && capat[c] >= s0 && capat[c] <= s0 + n) {
            unsigned int k = capat[c] - s0;
            slh_chain(v, v, s0, k, ctx, &a);
            memcpy(cap + c * SLH_N, v, SLH_N);
            s0 += k;
            n -= k;
        }
        slh_chain(v, v, s0, n, ctx, &a);
    }
}
#endif

/* T_len over the chain ends with a WOTS_PK address (Algorithm 6 lines 10-14) */
static void wots_compress(uint8_t *pk, const uint8_t *val, const slh_ctx *ctx, const slh_adrs *adrs)
{
    slh_adrs pkadrs = *adrs;
    slh_thash_state st;
    slh_adrs_set_type(&pkadrs, SLH_ADRS_WOTS_PK);
    slh_adrs_set_keypair(&pkadrs, slh_adrs_get_keypair(adrs));
    slh_T_init(&st, ctx, &pkadrs);
    slh_T_update(&st, val, SLH_LEN * SLH_N);
    slh_T_final(pk, &st);
}

void slh_wots_leaf(uint8_t *pk, const slh_ctx *ctx, const slh_adrs *adrs, uint8_t *sig, const uint8_t *digits)
{
    uint8_t val[SLH_LEN * SLH_N];
    uint8_t start[SLH_LEN];
    uint8_t steps[SLH_LEN];
    slh_adrs skadrs[4];
    unsigned int c;

    /* secret chain starts: PRF with a WOTS_PRF address per chain (Algorithm 6 lines
     * 1-6), four at a time */
    for (c = 0; c < SLH_LEN; c += 4) {
        unsigned int nl = SLH_LEN - c < 4 ? SLH_LEN - c : 4;
        uint8_t *out[4];
        const uint8_t *in[4] = {NULL, NULL, NULL, NULL};
        for (unsigned int l = 0; l < nl; l++) {
            skadrs[l] = *adrs;
            slh_adrs_set_type(&skadrs[l], SLH_ADRS_WOTS_PRF);
            slh_adrs_set_keypair(&skadrs[l], slh_adrs_get_keypair(adrs));
            slh_adrs_set_chain(&skadrs[l], c + l);
            out[l] = val + (c + l) * SLH_N;
        }
        slh_F_x4(out, ctx, skadrs, in, nl);
    }
    memset(start, 0, sizeof start);
    memset(steps, SLH_W - 1, sizeof steps);
    wots_chains(val, start, steps, digits, sig, ctx, adrs);
    wots_compress(pk, val, ctx, adrs);
    pqlab_zeroize(val, sizeof val);
}

void slh_wots_pk_from_sig(uint8_t *pk, const uint8_t *sig, const uint8_t *msg, const slh_ctx *ctx, const slh_adrs *adrs)
{
    uint8_t val[SLH_LEN * SLH_N];
    uint8_t digits[SLH_LEN];
    uint8_t steps[SLH_LEN];

    slh_wots_digits(digits, msg);
    for (unsigned int c = 0; c < SLH_LEN; c++) {
        steps[c] = (uint8_t)(SLH_W - 1 - digits[c]);
    }
    memcpy(val, sig, sizeof val);
    wots_chains(val, digits, steps, NULL, NULL, ctx, adrs);
    wots_compress(pk, val, ctx, adrs);
}
