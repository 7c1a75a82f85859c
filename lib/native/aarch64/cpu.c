/* SPDX-License-Identifier: MIT */
/* Run-time feature detection (cpu.h). On Linux the kernel reports the CPU's optional
 * extensions in the auxiliary vector (AT_HWCAP, bits defined in the kernel's
 * arch/arm64/include/uapi/asm/hwcap.h: HWCAP_PMULL bit 4, HWCAP_SHA2 bit 6, HWCAP_SHA3 bit 17); user space
 * cannot read the ID_AA64ISAR0_EL1 register without the kernel trapping and emulating it,
 * and the auxiliary vector is the documented interface. The answer is computed once; a race
 * between two first calls computes the same value twice. */
#include "cpu.h"

#if defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_PMULL
#define HWCAP_PMULL (1ul << 4)
#endif
#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1ul << 6)
#endif
#ifndef HWCAP_SHA3
#define HWCAP_SHA3 (1ul << 17)
#endif
#endif

static unsigned int features_cache; /* bit 31: computed */

unsigned int pqlab_aarch64_features(void)
{
    unsigned int f = features_cache;
    if (f & 0x80000000u) {
        return f & 0x7FFFFFFFu;
    }
    f = 0;
#if defined(__linux__)
    const unsigned long hw = getauxval(AT_HWCAP);
    if (hw & HWCAP_SHA3) {
        f |= PQLAB_AARCH64_FEAT_SHA3;
    }
    if (hw & HWCAP_SHA2) {
        f |= PQLAB_AARCH64_FEAT_SHA256;
    }
    if (hw & HWCAP_PMULL) {
        f |= PQLAB_AARCH64_FEAT_PMULL;
    }
#else
#if defined(__ARM_FEATURE_SHA3)
    f |= PQLAB_AARCH64_FEAT_SHA3;
#endif
#if defined(__ARM_FEATURE_SHA2)
    f |= PQLAB_AARCH64_FEAT_SHA256;
#endif
#if defined(__ARM_FEATURE_AES)
    f |= PQLAB_AARCH64_FEAT_PMULL;
#endif
#endif
    features_cache = f | 0x80000000u;
    return f;
}
