/* SPDX-License-Identifier: MIT */
/* Compat: PQClean's compat.h helpers. */
#ifndef PQCLEAN_COMMON_COMPAT_H
#define PQCLEAN_COMMON_COMPAT_H

/* declares an array; PQClean uses it where a length is a compile-time constant on
 * every compiler but MSVC does not accept the expression */
#define PQCLEAN_VLA(type, name, size) type name[size]

/* keeps the compiler from turning a computed mask back into a branch */
#if defined(__GNUC__) || defined(__clang__)
#define PQCLEAN_PREVENT_BRANCH_HACK(b) __asm__("" : "+r"(b) : /* no inputs */);
#else
#define PQCLEAN_PREVENT_BRANCH_HACK(b)
#endif

#endif
