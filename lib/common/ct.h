/* SPDX-License-Identifier: MIT */
/* Constant-time helpers (header only).
 * Value barriers hide a value from the optimiser so that mask arithmetic is not
 * turned back into a branch or a table lookup: on GCC/clang an empty asm statement
 * that "modifies" the register, elsewhere a volatile round trip.
 * PQLAB_SECRET(p, n) marks n bytes at p as secret, PQLAB_DECLASSIFY(p, n) as public
 * again. They are no-ops unless PQLAB_CT_VALGRIND or PQLAB_CT_SIM is defined. With
 * PQLAB_CT_VALGRIND (host-ct) secret bytes are "undefined" for valgrind memcheck, which
 * reports every branch or address that depends on them; with PQLAB_CT_SIM (the ct build of
 * m4-sim / m7-sim) they are calls that pqlab-sim's taint tracking watches. */
#ifndef PQLAB_CT_H
#define PQLAB_CT_H

#include "pqlab_config.h" /* an export's configuration (docs/export.md); empty in the tree */

#include <stddef.h>
#include <stdint.h>

#ifdef PQLAB_CT_VALGRIND
#include <valgrind/memcheck.h>
#define PQLAB_SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PQLAB_DECLASSIFY(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#elif defined(PQLAB_CT_SIM)
/* pqlab-sim's secret tracking (`pqlab-sim --ct`, docs/ct.md "The target interface"): the
 * marks are calls of two empty functions, which the simulator finds in the ELF symbol
 * table and watches (pointer in r0, length in r1 by the AAPCS). On QEMU and on a board
 * they only cost a call. Weak, so that every translation unit may define them and the
 * linker keeps one; noinline and noipa keep the call and its arguments as written (GCC),
 * the asm statement gives the body a side effect the optimiser cannot drop. */
void pqlab_ct_secret(const volatile void *p, size_t n);
void pqlab_ct_declassify(const volatile void *p, size_t n);
__attribute__((weak, noinline, noipa)) void pqlab_ct_secret(const volatile void *p, size_t n)
{
    __asm__ volatile("" : : "r"(p), "r"(n) : "memory");
}
__attribute__((weak, noinline, noipa)) void pqlab_ct_declassify(const volatile void *p, size_t n)
{
    __asm__ volatile("" : : "r"(p), "r"(n) : "memory");
}
#define PQLAB_SECRET(p, n) pqlab_ct_secret((p), (n))
#define PQLAB_DECLASSIFY(p, n) pqlab_ct_declassify((p), (n))
#else
#define PQLAB_SECRET(p, n) ((void)(p), (void)(n))
#define PQLAB_DECLASSIFY(p, n) ((void)(p), (void)(n))
#endif

#if defined(__GNUC__) || defined(__clang__)
#define PQLAB_CT_ASM_BARRIER(x) __asm__("" : "+r"(x))
#endif

static inline uint8_t pqlab_value_barrier_u8(uint8_t x)
{
#ifdef PQLAB_CT_ASM_BARRIER
    PQLAB_CT_ASM_BARRIER(x);
    return x;
#else
    volatile uint8_t v = x;
    return v;
#endif
}

static inline uint32_t pqlab_value_barrier_u32(uint32_t x)
{
#ifdef PQLAB_CT_ASM_BARRIER
    PQLAB_CT_ASM_BARRIER(x);
    return x;
#else
    volatile uint32_t v = x;
    return v;
#endif
}

static inline uint64_t pqlab_value_barrier_u64(uint64_t x)
{
#ifdef PQLAB_CT_ASM_BARRIER
    PQLAB_CT_ASM_BARRIER(x);
    return x;
#else
    volatile uint64_t v = x;
    return v;
#endif
}

/* 0xFFFFFFFF when bit == 1, 0 when bit == 0 (bit must be 0 or 1) */
static inline uint32_t pqlab_ct_mask_u32(uint32_t bit)
{
    return (uint32_t)0 - pqlab_value_barrier_u32(bit & 1u);
}

/* 1 when x == 0, else 0: (x | -x) has its top bit set exactly when x != 0 */
static inline uint32_t pqlab_ct_is_zero_u32(uint32_t x)
{
    x = pqlab_value_barrier_u32(x);
    return 1u ^ ((x | ((uint32_t)0 - x)) >> 31);
}

/* 0 when the n bytes at a and b are equal, 1 otherwise; time depends on n only */
static inline int pqlab_ct_memcmp(const void *a, const void *b, size_t n)
{
    const uint8_t *pa = (const uint8_t *)a;
    const uint8_t *pb = (const uint8_t *)b;
    uint32_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        acc |= (uint32_t)(pa[i] ^ pb[i]);
    }
    return (int)(1u ^ pqlab_ct_is_zero_u32(acc));
}

/* copies n bytes from src to dst when cond == 1, leaves dst alone when cond == 0 */
static inline void pqlab_ct_cmov(void *dst, const void *src, size_t n, uint8_t cond)
{
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *s = (const uint8_t *)src;
    const uint8_t m = pqlab_value_barrier_u8((uint8_t)(0u - (unsigned)(cond & 1u)));
    for (size_t i = 0; i < n; i++) {
        d[i] = (uint8_t)(d[i] ^ (m & (d[i] ^ s[i])));
    }
}

#if defined(__GNUC__) || defined(__clang__)
/* a 32-bit word that may alias any object (GCC/clang), for word-wise clearing */
typedef uint32_t __attribute__((may_alias)) pqlab_u32_alias;
#endif

/* sets n bytes at p to zero, a 32-bit word at a time, for working buffers (state
 * initialisation, accumulators); p must be 4-byte aligned, n should be a multiple of 4
 * (a tail of 1-3 bytes is cleared byte by byte). The zero goes through a value barrier:
 * GCC turns a loop storing a constant zero into a call of memset, and the C library's
 * memset on the ARM targets (picolibc) stores one byte at a time. Not a replacement for
 * pqlab_zeroize: these stores may be dropped when the buffer is dead afterwards. */
static inline void pqlab_memzero_words(void *p, size_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    pqlab_u32_alias *w = (pqlab_u32_alias *)p;
    const uint32_t z = pqlab_value_barrier_u32(0);
    for (size_t i = 0; i < n / 4; i++) {
        w[i] = z;
    }
    volatile uint8_t *t = (volatile uint8_t *)p + (n & ~(size_t)3);
    for (size_t i = 0; i < (n & 3u); i++) {
        t[i] = 0;
    }
#else
    volatile uint8_t *v = (volatile uint8_t *)p;
    for (size_t i = 0; i < n; i++) {
        v[i] = 0;
    }
#endif
}

/* copies n bytes from src to dst (not overlapping), four bytes at a time, for any
 * alignment: the 4-byte moves are fixed-size __builtin_memcpy calls that GCC/clang expand
 * inline (one LDR/STR on ARMv7-M, which allows unaligned word access; byte accesses where
 * the target does not), four words per loop test (m4-sim: about 18 cycles per 16 bytes
 * against 12 per 8 with one word per test). Each word is XORed with a zero behind a value
 * barrier so that the loop is not turned back into a call of the C library's memcpy
 * (byte-wise on picolibc). */
static inline void pqlab_memcpy_words(void *dst, const void *src, size_t n)
{
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *s = (const uint8_t *)src;
#if defined(__GNUC__) || defined(__clang__)
    const uint32_t z = pqlab_value_barrier_u32(0);
    for (; n >= 16; n -= 16, s += 16, d += 16) { /* four words per loop test */
        uint32_t w0, w1, w2, w3;
        __builtin_memcpy(&w0, s, 4);
        __builtin_memcpy(&w1, s + 4, 4);
        __builtin_memcpy(&w2, s + 8, 4);
        __builtin_memcpy(&w3, s + 12, 4);
        w0 ^= z;
        w1 ^= z;
        w2 ^= z;
        w3 ^= z;
        __builtin_memcpy(d, &w0, 4);
        __builtin_memcpy(d + 4, &w1, 4);
        __builtin_memcpy(d + 8, &w2, 4);
        __builtin_memcpy(d + 12, &w3, 4);
    }
    for (; n >= 4; n -= 4, s += 4, d += 4) {
        uint32_t w;
        __builtin_memcpy(&w, s, 4);
        w ^= z;
        __builtin_memcpy(d, &w, 4);
    }
    for (; n > 0; n--) {
        *d++ = (uint8_t)(*s++ ^ (uint8_t)z);
    }
#else
    for (size_t i = 0; i < n; i++) {
        d[i] = s[i];
    }
#endif
}

/* clears n bytes through volatile pointers, so that the compiler cannot drop the stores
 * as dead. On GCC/clang a 4-byte aligned buffer is cleared a word at a time (the
 * alignment of the buffer and its length are public). */
static inline void pqlab_zeroize(void *p, size_t n)
{
    volatile uint8_t *v = (volatile uint8_t *)p;
#if defined(__GNUC__) || defined(__clang__)
    if (((uintptr_t)p & 3u) == 0) {
        volatile pqlab_u32_alias *w = (volatile pqlab_u32_alias *)p;
        for (size_t i = 0; i < n / 4; i++) {
            w[i] = 0;
        }
        v += n & ~(size_t)3;
        n &= 3;
    }
#endif
    for (size_t i = 0; i < n; i++) {
        v[i] = 0;
    }
}

#endif
