/* SPDX-License-Identifier: MIT */
/* Compat randombytes: PQCLEAN_randombytes (what randombytes.h maps the name to) and a
 * plain `randombytes` symbol for code that declares it without the header; both ask
 * the harness's pqlab_randombytes(). */
#include "randombytes.h"

#include "../common/randombytes.h"

int PQCLEAN_randombytes(uint8_t *output, size_t n) { return pqlab_randombytes(output, n); }

#undef randombytes
int randombytes(uint8_t *output, size_t n);
int randombytes(uint8_t *output, size_t n) { return pqlab_randombytes(output, n); }
