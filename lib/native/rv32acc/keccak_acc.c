/* SPDX-License-Identifier: MIT */
/* Keccak-f[1600] on the Keccak unit (slot 0) of cv32e40p-acc-rtl / cv32e40p-acc-sim
 * (hw/accel/keccak/keccak_obi.sv, docs/accel.md): the 50 words of the state are written to
 * the unit, CTRL starts the permutation (24 cycles, one round per cycle), and the reads of the
 * result wait on the bus until it is done. The standard layout (lane x + 5y, little-endian),
 * fips202.h's external permutation (lib/native/rv32/meta.h under PQLAB_NATIVE_KECCAK_ACC).
 * Constant time: the same accesses for every state. */
#include <stdint.h>

#include "../../common/fips202.h"
#include "../../common/hashprof.h"

#define KECCAK_UNIT ((volatile uint32_t *)0x10001000u)
#define KECCAK_CTRL 50

void pqlab_keccakf1600_acc(uint64_t s[25])
{
    volatile uint32_t *const u = KECCAK_UNIT;
    PQLAB_HASHPROF_BEGIN();
#pragma GCC unroll 25
    for (unsigned int i = 0; i < 25; i++) {
        u[2 * i] = (uint32_t)s[i];
        u[2 * i + 1] = (uint32_t)(s[i] >> 32);
    }
    u[KECCAK_CTRL] = 1u;
#pragma GCC unroll 25
    for (unsigned int i = 0; i < 25; i++) {
        uint32_t lo = u[2 * i];
        uint32_t hi = u[2 * i + 1];
        s[i] = (uint64_t)lo | (uint64_t)hi << 32;
    }
    PQLAB_HASHPROF_END();
}
