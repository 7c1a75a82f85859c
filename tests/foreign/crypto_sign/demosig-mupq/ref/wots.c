/* SPDX-License-Identifier: MIT */
/* Chains of the toy one-time signature: F(x) = cSHAKE128(pubseed || i || j || x,
 * N = "", S = "demosig-chain"), truncated to 16 bytes. */
#include <string.h>

#include "sp800-185.h"
#include "wots.h"

void wots_chain(uint8_t out[WOTS_N], const uint8_t in[WOTS_N], unsigned int start,
                unsigned int steps, unsigned int idx, const uint8_t pubseed[WOTS_N])
{
    static const uint8_t cstm[] = "demosig-chain";
    uint8_t buf[WOTS_N + 2 + WOTS_N];
    memcpy(out, in, WOTS_N);
    for (unsigned int j = start; j < start + steps && j < WOTS_W - 1; j++) {
        memcpy(buf, pubseed, WOTS_N);
        buf[WOTS_N] = (uint8_t)idx;
        buf[WOTS_N + 1] = (uint8_t)j;
        memcpy(buf + WOTS_N + 2, out, WOTS_N);
        cshake128(out, WOTS_N, NULL, 0, cstm, sizeof cstm - 1, buf, sizeof buf);
    }
}
