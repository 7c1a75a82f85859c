/* SPDX-License-Identifier: MIT */
/* Meta header of the RV32 backend (plain RV32IM: rv32-qemu, cv32e40p-rtl,
 * cv32e40p-nofpu-rtl): the kernels this folder provides, as the macros of
 * lib/native/api.h. Selected by backend.toml (PQLAB_NATIVE_META_HEADER="rv32/meta.h");
 * everything not defined here runs the portable C. Files and measurements: docs/native.md. */
#ifndef PQLAB_NATIVE_RV32_META_H
#define PQLAB_NATIVE_RV32_META_H

#define PQLAB_NATIVE_BACKEND_NAME "rv32"

/* Keccak-f[1600], bit-interleaved state (keccakf1600.S, gen_keccakf1600.py; keccak_std.c).
 * On a platform with the Keccak unit, lib/native/rv32acc (listed after rv32) defines
 * PQLAB_NATIVE_KECCAK_ACC: the permutation then runs on the unit, on the standard layout,
 * through fips202.h's external-permutation hook (which drops the native one); an export's own
 * permutation (PQLAB_KECCAKF1600_EXTERNAL already set) still wins. */
#define PQLAB_KECCAKF1600_NATIVE 1
#if defined(PQLAB_NATIVE_KECCAK_ACC) && !defined(PQLAB_KECCAKF1600_EXTERNAL)
#define PQLAB_KECCAKF1600_EXTERNAL pqlab_keccakf1600_acc
/* and the whole-block absorb / squeeze loops with the state in the unit (rv32acc/keccak_acc.c) */
#define PQLAB_KECCAK_BLOCKS_NATIVE 1
#endif

/* ML-KEM / ML-DSA kernels: the header in this folder that defines PQLAB_MLKEM_NATIVE_<KERNEL> /
 * PQLAB_MLDSA_NATIVE_<KERNEL> for each kernel it replaces (contracts in lib/mlkem/kernels.h,
 * lib/mldsa/kernels.h). On a platform with the NTT unit, lib/native/rv32ntt (listed after rv32)
 * defines PQLAB_NATIVE_NTT_ACC and these headers take the transforms and products of its
 * driver instead of this folder's. */
#define PQLAB_MLKEM_BACKEND_HEADER "mlkem_native.h" /* mlkem_ntt.S, gen_mlkem_ntt.py */
#define PQLAB_MLDSA_BACKEND_HEADER "mldsa_native.h" /* mldsa_ntt.S, mldsa_ntt16.S, mldsa_poly.S and their gen_*.py */

/* FN-DSA: the NTT / inverse NTT modulo 12289 for n = 512 and 1024 (fndsa_modq.S,
 * gen_fndsa_modq.py; contract lib/native/fndsa_modq.h); with the NTT unit they and the ring
 * product of verification go to the unit (its driver provides them, fndsa_modq.S is empty) */
#define PQLAB_FNDSA_MODQ_NATIVE 1

/* FN-DSA's emulated binary64 (no double-precision FPU on RV32IM / RV32IMF): of, add, addsub,
 * mul, div, sqrt in fpr_emu.S (gen_fpr_emu.py), bit for bit lib/fndsa/fpr_emu.c, constant
 * time; fpr.h then maps fpr_div to the C division by a reciprocal (fpr_div_nr). No inline
 * header: the kernels are called. */
#define PQLAB_FNDSA_FPR_EMU_NATIVE 1
#ifdef PQLAB_NATIVE_NTT_ACC
#define PQLAB_FNDSA_MODQ_POLYMUL_NATIVE 1
#endif

#endif
