/* SPDX-License-Identifier: MIT */
/* Test-only wrappers that export the static inline arithmetic of lib/mlkem/reduce.h
 * so that tests/test_mlkem_kernels.py can check it exhaustively. */
#include <stdint.h>
#include "reduce.h"

int16_t pqlab_test_barrett(int16_t a)
{
    return mlkem_barrett_reduce(a);
}
int16_t pqlab_test_montgomery(int32_t a)
{
    return mlkem_montgomery_reduce(a);
}
int16_t pqlab_test_caddq(int16_t a)
{
    return mlkem_caddq(a);
}

/* all 65536 Barrett outputs at once (a from -32768 upward) */
void pqlab_test_barrett_all(int16_t out[65536])
{
    for (int32_t a = -32768; a < 32768; a++) {
        out[a + 32768] = mlkem_barrett_reduce((int16_t)a);
    }
}
