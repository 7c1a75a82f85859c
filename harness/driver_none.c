/* SPDX-License-Identifier: MIT */
/* The driver of implementations without one: every command is unknown, so the
 * driver program links for any implementation and answers "fail -1000". */
#include <stddef.h>
#include <stdint.h>

#include "harness.h"

int pqlab_driver_dispatch(const char *tag, const char *cmd, int argc, const uint8_t *const *argv, const size_t *arglen)
{
    (void)tag;
    (void)cmd;
    (void)argc;
    (void)argv;
    (void)arglen;
    return 1;
}
