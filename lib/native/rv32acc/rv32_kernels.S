/* SPDX-License-Identifier: MIT */
/* The rv32 backend's ML-KEM and ML-DSA kernels in the rv32acc backend (meta.h): built from
 * lib/native/rv32's generated sources, not copied. Its Keccak (keccakf1600.S, keccak_std.c)
 * is left out: the Keccak unit replaces it (keccak_acc.c). */
#include "../rv32/mldsa_ntt.S"
#include "../rv32/mlkem_ntt.S"
