// SPDX-License-Identifier: MIT
// memcpy, memmove and memset for the ARMv7-M firmware. They replace picolibc's (Debian's
// picolibc is built for size: its memcpy/memmove/memset copy one byte per loop iteration),
// so code dropped in from pqm4, which links newlib's word-wise versions, spends a
// comparable number of cycles in them (docs/sim.md, "Calibration against real boards").
// Word loops once the destination is word aligned; the source may stay unaligned, since
// ARMv7-M LDR handles unaligned addresses (CCR.UNALIGN_TRP is 0 after reset, ARMv7-M ARM
// section A3.2.1).
#include <stddef.h>
#include <stdint.h>
#include <string.h>

// keep the compiler from turning the loops below back into calls of these very functions
// (clang: no_builtin stops its loop-idiom pass from emitting memcpy/memset calls)
#if defined(__clang__)
#define NO_LIBCALLS __attribute__((no_builtin))
#else
#define NO_LIBCALLS __attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif

typedef uint32_t __attribute__((aligned(1), may_alias)) word_any;
typedef uint32_t __attribute__((may_alias)) word;

NO_LIBCALLS static void copy_forward(uint8_t *d, const uint8_t *s, size_t n)
{
    for (; n > 0 && ((uintptr_t)d & 3u) != 0; n--) {
        *d++ = *s++;
    }
    for (; n >= 16; n -= 16, d += 16, s += 16) {
        uint32_t a = ((const word_any *)s)[0], b = ((const word_any *)s)[1];
        uint32_t c = ((const word_any *)s)[2], e = ((const word_any *)s)[3];
        ((word *)d)[0] = a;
        ((word *)d)[1] = b;
        ((word *)d)[2] = c;
        ((word *)d)[3] = e;
    }
    for (; n >= 4; n -= 4, d += 4, s += 4) {
        *(word *)d = *(const word_any *)s;
    }
    for (; n > 0; n--) {
        *d++ = *s++;
    }
}

// from the end, for a destination above an overlapping source
NO_LIBCALLS static void copy_backward(uint8_t *d, const uint8_t *s, size_t n)
{
    d += n;
    s += n;
    for (; n > 0 && ((uintptr_t)d & 3u) != 0; n--) {
        *--d = *--s;
    }
    for (; n >= 4; n -= 4) {
        d -= 4;
        s -= 4;
        *(word *)d = *(const word_any *)s;
    }
    for (; n > 0; n--) {
        *--d = *--s;
    }
}

NO_LIBCALLS void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    copy_forward(dst, src, n);
    return dst;
}

NO_LIBCALLS void *memmove(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    if ((uintptr_t)d - (uintptr_t)s >= n) {
        copy_forward(d, s, n); // d below s, or no overlap
    } else {
        copy_backward(d, s, n);
    }
    return dst;
}

NO_LIBCALLS void *memset(void *dst, int c, size_t n)
{
    uint8_t *d = dst;
    uint32_t v = 0x01010101u * (uint8_t)c;
    for (; n > 0 && ((uintptr_t)d & 3u) != 0; n--) {
        *d++ = (uint8_t)c;
    }
    for (; n >= 16; n -= 16, d += 16) {
        ((word *)d)[0] = v;
        ((word *)d)[1] = v;
        ((word *)d)[2] = v;
        ((word *)d)[3] = v;
    }
    for (; n >= 4; n -= 4, d += 4) {
        *(word *)d = v;
    }
    for (; n > 0; n--) {
        *d++ = (uint8_t)c;
    }
    return dst;
}

// The run-time ABI's names for the same operations (Run-time ABI for the Arm Architecture,
// section 4.3.4 "Memory copying, clearing, and setting"): clang calls these where GCC calls
// memcpy/memmove/memset. Without them the link would take picolibc's byte-loop versions, whose
// object also defines memcpy. The 4/8 variants only promise aligned pointers; note the
// argument order of __aeabi_memset (dest, n, c).
void __aeabi_memcpy(void *dst, const void *src, size_t n);
void __aeabi_memcpy4(void *dst, const void *src, size_t n);
void __aeabi_memcpy8(void *dst, const void *src, size_t n);
void __aeabi_memmove(void *dst, const void *src, size_t n);
void __aeabi_memmove4(void *dst, const void *src, size_t n);
void __aeabi_memmove8(void *dst, const void *src, size_t n);
void __aeabi_memset(void *dst, size_t n, int c);
void __aeabi_memset4(void *dst, size_t n, int c);
void __aeabi_memset8(void *dst, size_t n, int c);
void __aeabi_memclr(void *dst, size_t n);
void __aeabi_memclr4(void *dst, size_t n);
void __aeabi_memclr8(void *dst, size_t n);

NO_LIBCALLS void __aeabi_memcpy(void *dst, const void *src, size_t n)
{
    copy_forward(dst, src, n);
}

NO_LIBCALLS void __aeabi_memcpy4(void *dst, const void *src, size_t n)
{
    copy_forward(dst, src, n);
}

NO_LIBCALLS void __aeabi_memcpy8(void *dst, const void *src, size_t n)
{
    copy_forward(dst, src, n);
}

NO_LIBCALLS void __aeabi_memmove(void *dst, const void *src, size_t n)
{
    memmove(dst, src, n);
}

NO_LIBCALLS void __aeabi_memmove4(void *dst, const void *src, size_t n)
{
    memmove(dst, src, n);
}

NO_LIBCALLS void __aeabi_memmove8(void *dst, const void *src, size_t n)
{
    memmove(dst, src, n);
}

NO_LIBCALLS void __aeabi_memset(void *dst, size_t n, int c)
{
    memset(dst, c, n);
}

NO_LIBCALLS void __aeabi_memset4(void *dst, size_t n, int c)
{
    memset(dst, c, n);
}

NO_LIBCALLS void __aeabi_memset8(void *dst, size_t n, int c)
{
    memset(dst, c, n);
}

NO_LIBCALLS void __aeabi_memclr(void *dst, size_t n)
{
    memset(dst, 0, n);
}

NO_LIBCALLS void __aeabi_memclr4(void *dst, size_t n)
{
    memset(dst, 0, n);
}

NO_LIBCALLS void __aeabi_memclr8(void *dst, size_t n)
{
    memset(dst, 0, n);
}
