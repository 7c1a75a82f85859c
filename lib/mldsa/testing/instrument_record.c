/* SPDX-License-Identifier: MIT */
/* Test-only: the measuring side of the instrumentation interface (lib/common/instrument.h)
 * for the host tests that load the library without the harness (tests/test_mldsa_*.py):
 * keeps the last report, as harness/harness.c does on target. */
#include "instrument.h"

static unsigned int last_sign_iterations;

void pqlab_instr_sign_iterations(unsigned int n)
{
    last_sign_iterations = n;
}

unsigned int pqlab_instr_last_sign_iterations(void)
{
    return last_sign_iterations;
}
