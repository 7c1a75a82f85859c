/* SPDX-License-Identifier: MIT */
/* SHA-3 / SHAKE on the Keccak unit of cv32e40p-acc-rtl / cv32e40p-acc-sim through the custom
 * Keccak instructions of the patched core (keccak_insn.h; docs/accel.md, "Keccak
 * instructions"). The state layout is the standard one (lane x + 5y, little-endian: word 2i
 * of the unit the low half of lane i), fips202.h's external permutation
 * (lib/native/rv32/meta.h under PQLAB_NATIVE_KECCAK_ACC), plus the whole-block sponge loops
 * of lib/native/api.h (PQLAB_KECCAK_BLOCKS_NATIVE), which keep the state in the unit across
 * the blocks of one call: absorbing whole blocks XORs the input words straight into the unit
 * (kxw), and squeezing from a block start reads the output words straight out of it (klw); the state goes in and comes
 * back to memory once per call, so no state stays in the unit between calls (any number of
 * sponges may be live). Constant time: branches and addresses depend on nblocks, the rate
 * and the buffers' addresses only. */
#include <stddef.h>
#include <stdint.h>

#include "../../common/fips202.h"
#include "../../common/hashprof.h"
#include "../api.h"
#include "keccak_insn.h"

/* the core supports misaligned word accesses (two bus transactions), so a byte buffer of any
 * alignment is read and written by words; the asm keeps GCC from splitting them into bytes */
typedef uint32_t pqlab_acc_u32 __attribute__((may_alias));

static inline uint32_t ld32(const uint8_t *p)
{
    uint32_t v;
    __asm__("lw %0, %1" : "=r"(v) : "m"(*(const pqlab_acc_u32 *)p));
    return v;
}

static inline void st32(uint8_t *p, uint32_t v)
{
    __asm__("sw %1, %0" : "=m"(*(pqlab_acc_u32 *)p) : "r"(v));
}

/* lane i of s into words 2i, 2i+1 of the unit, and back */
#define PUT(i)                                                                                                         \
    do {                                                                                                               \
        const uint64_t v_ = s[i];                                                                                      \
        PQLAB_KSW((uint32_t)v_, 8 * (i), 0);                                                                           \
        PQLAB_KSW((uint32_t)(v_ >> 32), 8 * (i) + 4, 0);                                                               \
    } while (0)
#define GET(i)                                                                                                         \
    do {                                                                                                               \
        uint32_t lo_, hi_;                                                                                             \
        PQLAB_KLW(lo_, 8 * (i), 0);                                                                                    \
        PQLAB_KLW(hi_, 8 * (i) + 4, 0);                                                                                \
        s[i] = (uint64_t)lo_ | (uint64_t)hi_ << 32;                                                                    \
    } while (0)
#define LANES(X)                                                                                                       \
    X(0);                                                                                                              \
    X(1);                                                                                                              \
    X(2);                                                                                                              \
    X(3);                                                                                                              \
    X(4);                                                                                                              \
    X(5);                                                                                                              \
    X(6);                                                                                                              \
    X(7);                                                                                                              \
    X(8);                                                                                                              \
    X(9);                                                                                                              \
    X(10);                                                                                                             \
    X(11);                                                                                                             \
    X(12);                                                                                                             \
    X(13);                                                                                                             \
    X(14);                                                                                                             \
    X(15);                                                                                                             \
    X(16);                                                                                                             \
    X(17);                                                                                                             \
    X(18);                                                                                                             \
    X(19);                                                                                                             \
    X(20);                                                                                                             \
    X(21);                                                                                                             \
    X(22);                                                                                                             \
    X(23);                                                                                                             \
    X(24)

static void state_in(const uint64_t s[25])
{
    LANES(PUT);
}

static void state_out(uint64_t s[25])
{
    LANES(GET);
}

void pqlab_keccakf1600_acc(uint64_t s[25])
{
    PQLAB_HASHPROF_BEGIN();
    state_in(s);
    PQLAB_KPERM();
    state_out(s); /* the first klw waits in EX until the permutation is done */
    PQLAB_HASHPROF_END();
}

void pqlab_keccak_native_absorbblocks(uint64_t s[25], const uint8_t *in, size_t nblocks, unsigned int rate)
{
    PQLAB_HASHPROF_BEGIN();
    state_in(s);
    while (nblocks > 0) {
        /* two words per iteration: the rate is a multiple of 8 */
#pragma GCC unroll 4
        for (unsigned int off = 0; off < rate; off += 8) {
            const uint32_t a = ld32(in + off);
            const uint32_t b = ld32(in + off + 4);
            PQLAB_KXW(a, 0, off);
            PQLAB_KXW(b, 4, off);
        }
        PQLAB_KPERM();
        in += rate;
        nblocks--;
    }
    state_out(s);
    PQLAB_HASHPROF_END();
}

void pqlab_keccak_native_squeeze(uint8_t *out, size_t outlen, uint64_t s[25], unsigned int rate)
{
    PQLAB_HASHPROF_BEGIN();
    state_in(s);
    while (outlen > 0) {
        const unsigned int take = outlen < rate ? (unsigned int)outlen : rate;
        unsigned int off = 0;
        PQLAB_KPERM();
#pragma GCC unroll 4
        for (; off + 8 <= take; off += 8) {
            uint32_t a, b;
            PQLAB_KLW(a, 0, off);
            PQLAB_KLW(b, 4, off);
            st32(out + off, a);
            st32(out + off + 4, b);
        }
        if (off + 4 <= take) {
            uint32_t a;
            PQLAB_KLW(a, 0, off);
            st32(out + off, a);
            off += 4;
        }
        if (off < take) {
            /* the last 1..3 bytes: a byte store each (no write beyond the output) */
            uint32_t a;
            PQLAB_KLW(a, 0, off);
            for (; off < take; off++) {
                out[off] = (uint8_t)a;
                a >>= 8;
            }
        }
        out += take;
        outlen -= take;
    }
    state_out(s);
    PQLAB_HASHPROF_END();
}
