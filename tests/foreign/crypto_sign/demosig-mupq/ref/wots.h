/* SPDX-License-Identifier: MIT */
#ifndef DEMOSIG_WOTS_H
#define DEMOSIG_WOTS_H

#include <stdint.h>

#include "api.h"

#define WOTS_N 16     /* bytes per chain value */
#define WOTS_W 16     /* chain length: digits are nibbles */
#define WOTS_LEN1 32  /* 128-bit digest = 32 nibbles */
#define WOTS_LEN2 3   /* checksum <= 32 * 15 = 480 < 16^3 */
#define WOTS_LEN (WOTS_LEN1 + WOTS_LEN2)

/* internal, exported with the namespace like mupq code does */
#define wots_chain DEMOSIG_NAMESPACE(wots_chain)
void wots_chain(uint8_t out[WOTS_N], const uint8_t in[WOTS_N], unsigned int start,
                unsigned int steps, unsigned int idx, const uint8_t pubseed[WOTS_N]);

#endif
