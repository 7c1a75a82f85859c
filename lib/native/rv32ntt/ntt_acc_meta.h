/* SPDX-License-Identifier: MIT */
/* The kernels the NTT unit provides (lib/native/api.h macros), included by a meta header of a
 * backend on a platform with the unit when PQLAB_NATIVE_NTT_ACC is defined (rv32/meta.h; the
 * accelerated backend's after the merge). */
#ifndef PQLAB_NATIVE_RV32NTT_META_H
#define PQLAB_NATIVE_RV32NTT_META_H

/* ML-KEM: NTT, inverse NTT, base multiplication; rv32's other kernels are none */
#define PQLAB_MLKEM_BACKEND_HEADER "mlkem_ntt_acc.h"
/* ML-DSA: NTT, inverse NTT, pointwise products; rej_uniform and ExpandMask stay rv32's */
#define PQLAB_MLDSA_BACKEND_HEADER "mldsa_ntt_acc.h"
/* FN-DSA: the mod-q NTT, inverse NTT and ring product (verification, key generation) */
#define PQLAB_FNDSA_MODQ_NTT_NATIVE 1

#endif
