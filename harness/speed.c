/* SPDX-License-Identifier: MIT */
/* speed: PQLAB_ITERATIONS (default 10) runs of every operation (ops.h), one
 * "speed <op> <timer delta>" record per operation and iteration, in the unit of
 * the platform timer (header line: timer=<name>). Randomness: the fixed stream.
 * Each operation is bracketed by interval marks (harness.h) outside the timed
 * window, so the records do not include them (the intervals include the timer reads).
 * PQLAB_OPS_MASK (ops.h) restricts the measured operations.
 * The functional self-check of ops.h runs alongside; a failed check ends the run
 * with its "test <name> fail" record and "#end fail", and the host stores nothing of the run. */
#include <stdint.h>

#include "harness.h"
#include "ops.h"

#ifndef PQLAB_ITERATIONS
#define PQLAB_ITERATIONS 10
#endif

int main(void)
{
    pqlab_harness_begin("speed");
    pqlab_info("algname", CRYPTO_ALGNAME);
    ops_init();
    for (int it = 0; it < PQLAB_ITERATIONS; it++) {
        for (int op = 0; op < OP_COUNT; op++) {
            if (!op_needed(op, it)) {
                continue;
            }
            if (!op_selected(op)) { /* an input of a selected operation: once, unmeasured */
                ops_prerequisite(op);
                continue;
            }
            pqlab_mark_begin(op_names[op]);
            uint64_t t0 = pqlab_hal_cycles();
            int r = op_run(op);
            uint64_t t1 = pqlab_hal_cycles();
            pqlab_mark_end(op_names[op]);
            ops_result(op, r);
            pqlab_rec_begin("speed");
            pqlab_rec_str(op_names[op]);
            pqlab_rec_u64(t1 - t0);
            pqlab_rec_end();
            unsigned long n;
            if (op_sign_iterations(op, &n)) {
                pqlab_rec_begin("iterations");
                pqlab_rec_str(op_names[op]);
                pqlab_rec_u64(n);
                pqlab_rec_end();
            }
        }
        if (ops_all_ran()) {
            ops_check();
        }
    }
    if (ops_all_ran()) {
        ops_selfcheck();
    }
    pqlab_harness_end(pqlab_test_report());
}
