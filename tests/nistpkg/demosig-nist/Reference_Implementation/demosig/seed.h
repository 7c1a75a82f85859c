/* SPDX-License-Identifier: MIT */
#ifndef DEMOSIG_SEED_H
#define DEMOSIG_SEED_H

#include <stddef.h>

/* fills seed[0..n-1] from the size_t randombytes of randombytes.h; 0 on success */
int demosig_seed(unsigned char *seed, size_t n);

#endif
