/* SPDX-License-Identifier: MIT */
/* Meta header of the rv32acc backend (cv32e40p-acc-rtl, cv32e40p-acc-sim: the CV32E40P with
 * pqlab's accelerators on the data port, docs/accel.md). Selected by backend.toml.
 *
 * Keccak-f[1600] runs on the Keccak unit (keccak_acc.c). The unit permutes the standard
 * state layout, so the backend takes fips202.h's external-permutation route
 * (PQLAB_KECCAKF1600_EXTERNAL, the hook for a hardware SHA-3 unit): the module layout stays
 * the standard one and no Keccak code of lib/common or of lib/native/rv32 is built; every
 * SHA-3 / SHAKE user (ML-KEM, ML-DSA, SLH-DSA-SHAKE, FN-DSA, the x4 interface) goes through
 * pqlab_keccakf1600_acc. Everything else is the rv32 backend's (its headers, and its
 * assembly through rv32_kernels.S). */
#ifndef PQLAB_NATIVE_RV32ACC_META_H
#define PQLAB_NATIVE_RV32ACC_META_H

#define PQLAB_NATIVE_BACKEND_NAME "rv32acc"

#ifndef PQLAB_KECCAKF1600_EXTERNAL /* an export's own permutation still wins */
#define PQLAB_KECCAKF1600_EXTERNAL pqlab_keccakf1600_acc
#endif

/* the rv32 backend's ML-KEM / ML-DSA kernels (lib/native/rv32/meta.h), from its folder */
#define PQLAB_MLKEM_BACKEND_HEADER "../rv32/mlkem_native.h"
#define PQLAB_MLDSA_BACKEND_HEADER "../rv32/mldsa_native.h"

#endif
