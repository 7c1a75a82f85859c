/* SPDX-License-Identifier: MIT */
/* Test dispatcher for the driver program: echo (answers its arguments), rev
 * (the first argument reversed), fail (answers fail 7), count (one byte: the
 * number of arguments), silent (answers nothing: the driver must notice). */
#include <stddef.h>
#include <stdint.h>

#include "harness.h"

static int streq(const char *a, const char *b)
{
    while (*a != 0 && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

static uint8_t out[16384];

int pqlab_driver_dispatch(const char *tag, const char *cmd, int argc, const uint8_t *const *argv,
                          const size_t *arglen)
{
    if (streq(cmd, "echo")) {
        pqlab_drv_ok(tag, argc, argv, arglen);
    } else if (streq(cmd, "rev")) {
        size_t n = argc > 0 ? arglen[0] : 0;
        for (size_t i = 0; i < n; i++) {
            out[i] = argv[0][n - 1 - i];
        }
        const uint8_t *o[1] = {out};
        pqlab_drv_ok(tag, 1, o, &n);
    } else if (streq(cmd, "fail")) {
        pqlab_drv_fail(tag, 7);
    } else if (streq(cmd, "count")) {
        uint8_t c = (uint8_t)argc;
        const uint8_t *o[1] = {&c};
        size_t n = 1;
        pqlab_drv_ok(tag, 1, o, &n);
    } else if (streq(cmd, "silent")) {
        /* nothing */
    } else {
        return 1;
    }
    return 0;
}
