/* SPDX-License-Identifier: MIT */
/* Compat randombytes: PQCLEAN_randombytes (what randombytes.h maps the name to) and a
 * plain `randombytes` symbol for code that declares it without the header; both ask
 * the harness's pqlab_randombytes().
 * pqlab_nist_randombytes is the NIST PQC API's randombytes (rng.h of the submission
 * packages), whose length is an unsigned long long: on 32-bit Arm (AAPCS) and RISC-V
 * (ilp32) that argument travels in a register pair (r2:r3, a2:a3), so it cannot share
 * a symbol with the size_t prototype above. The build maps `randombytes` to it in the
 * source files that declare the NIST prototype (pqlab/nistpkg.py); rng.h here does the
 * same for folders that include an rng.h they do not carry. */
#include "randombytes.h"

#include <limits.h>
#include <stdint.h>

#include "../common/randombytes.h"

/* as lib/compat/rng.h declares it (not included here: both headers define `randombytes`) */
int pqlab_nist_randombytes(unsigned char *x, unsigned long long xlen);

int PQCLEAN_randombytes(uint8_t *output, size_t n) { return pqlab_randombytes(output, n); }

#undef randombytes
int randombytes(uint8_t *output, size_t n);
int randombytes(uint8_t *output, size_t n) { return pqlab_randombytes(output, n); }

int pqlab_nist_randombytes(unsigned char *x, unsigned long long xlen)
{
#if SIZE_MAX < ULLONG_MAX
    if (xlen > SIZE_MAX) {
        return -1; /* more than this address space holds: refuse rather than truncate */
    }
#endif
    return pqlab_randombytes(x, (size_t)xlen);
}
