/* SPDX-License-Identifier: MIT */
/* Hashing share. With -DPQLAB_PROFILE_HASHING, the Keccak permutation, the SHA-2
 * compression functions and the AES entry points add the platform timer delta of
 * their own work to pqlab_hash_cycles (the harness resets and reads it). Without the
 * macro the BEGIN/END marks expand to nothing: no overhead, no call into the HAL.
 * The marked functions never nest (a permutation does not call another marked
 * function), so nothing is counted twice. */
#ifndef PQLAB_HASHPROF_H
#define PQLAB_HASHPROF_H

#include "pqlab_config.h" /* an export's configuration (docs/export.md); empty in the tree */

#include <stdint.h>

extern uint64_t pqlab_hash_cycles; /* defined in hashprof.c */
uint64_t pqlab_hal_cycles(void);   /* provided by the platform HAL */

#ifdef PQLAB_PROFILE_HASHING
#define PQLAB_HASHPROF_BEGIN() const uint64_t pqlab_hashprof_t0_ = pqlab_hal_cycles()
#define PQLAB_HASHPROF_END() (pqlab_hash_cycles += pqlab_hal_cycles() - pqlab_hashprof_t0_)
#else
#define PQLAB_HASHPROF_BEGIN() ((void)0)
#define PQLAB_HASHPROF_END() ((void)0)
#endif

#endif
