/* SPDX-License-Identifier: MIT */
/* Meta header of the RV32 backend (plain RV32IM: rv32-qemu, cv32e40p-rtl,
 * cv32e40p-nofpu-rtl): the kernels this folder provides, as the macros of
 * lib/native/api.h. Selected by backend.toml (PQLAB_NATIVE_META_HEADER="rv32/meta.h");
 * everything not defined here runs the portable C. Files and measurements: docs/native.md. */
#ifndef PQLAB_NATIVE_RV32_META_H
#define PQLAB_NATIVE_RV32_META_H

#define PQLAB_NATIVE_BACKEND_NAME "rv32"

/* Keccak-f[1600], bit-interleaved state (keccakf1600.S, gen_keccakf1600.py; keccak_std.c) */
#define PQLAB_KECCAKF1600_NATIVE 1

/* ML-KEM / ML-DSA kernels: the header in this folder that defines PQLAB_MLKEM_NATIVE_<KERNEL> /
 * PQLAB_MLDSA_NATIVE_<KERNEL> for each kernel it replaces (contracts in lib/mlkem/kernels.h,
 * lib/mldsa/kernels.h) */
#ifdef PQLAB_NATIVE_NTT_ACC
/* a platform with the NTT unit lists lib/native/rv32ntt after rv32 (its backend.toml defines
 * PQLAB_NATIVE_NTT_ACC): the NTT kernels of the three families go to the unit */
#include "../rv32ntt/ntt_acc_meta.h"
#else
#define PQLAB_MLKEM_BACKEND_HEADER "mlkem_native.h" /* mlkem_ntt.S, gen_mlkem_ntt.py */
#define PQLAB_MLDSA_BACKEND_HEADER "mldsa_native.h" /* mldsa_ntt.S, gen_mldsa_ntt.py */
#endif

#endif
