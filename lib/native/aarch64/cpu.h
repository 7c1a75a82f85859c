/* SPDX-License-Identifier: MIT */
/* Run-time CPU features of the AArch64 backend. The kernels that need an optional
 * architecture extension (FEAT_SHA3: EOR3/RAX1/XAR/BCAX; FEAT_SHA256: SHA256H/H2/SU0/SU1)
 * ask here and decline (lib/native/api.h, PQLAB_NATIVE_TRY) when the CPU lacks it. The
 * features are public facts about the machine, never secret data. */
#ifndef PQLAB_NATIVE_AARCH64_CPU_H
#define PQLAB_NATIVE_AARCH64_CPU_H

#include "pqlab_config.h" /* an export's symbol namespace (docs/export.md); empty in the tree */

#define PQLAB_AARCH64_FEAT_SHA3 1u   /* FEAT_SHA3 (ARMv8.2 optional) */
#define PQLAB_AARCH64_FEAT_SHA256 2u /* FEAT_SHA256 (the "crypto" extension's SHA-2 part) */
#define PQLAB_AARCH64_FEAT_PMULL 4u  /* FEAT_PMULL (the "crypto" extension's 64 x 64-bit PMULL) */

/* the PQLAB_AARCH64_FEAT_* bits this CPU has: on Linux from getauxval(AT_HWCAP)
 * (HWCAP_SHA3, HWCAP_SHA2, HWCAP_PMULL), elsewhere what the compiler was told the target
 * has (__ARM_FEATURE_SHA3 / __ARM_FEATURE_SHA2 / __ARM_FEATURE_AES) */
unsigned int pqlab_aarch64_features(void);

#endif
