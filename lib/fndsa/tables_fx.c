/* SPDX-License-Identifier: MIT */
/* The one copy of the fixed-point FFT twiddles (tables_fx.h), used by keygen.c's
 * orthogonalised-norm check and by ntru.c's Babai steps. */
#define PQLAB_FNDSA_FX_ZETA_DEFINE
#include "tables_fx.h"
