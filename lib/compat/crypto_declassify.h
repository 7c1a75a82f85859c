/* SPDX-License-Identifier: MIT */
/* Compat: crypto_declassify(x, y) of PQClean marks y bytes at x as public. It maps to
 * pqlab's PQLAB_DECLASSIFY, a no-op unless PQLAB_CT_VALGRIND is defined. */
#ifndef PQCLEAN_CRYPTO_DECLASSIFY
#define PQCLEAN_CRYPTO_DECLASSIFY

#include "../common/ct.h"

#define crypto_declassify(x, y) PQLAB_DECLASSIFY((x), (y))

#endif
