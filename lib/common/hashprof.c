/* SPDX-License-Identifier: MIT */
/* Storage of the hashing-share counter (see hashprof.h). Defined in every build so
 * that a harness can reference it whether or not the marks are compiled in. */
#include "hashprof.h"

uint64_t pqlab_hash_cycles = 0;
