/* SPDX-License-Identifier: MIT */
/* hashing: the share of each operation's time spent in SHA-2, SHA-3/SHAKE and AES.
 * Linked with the common layer built with -DPQLAB_PROFILE_HASHING, whose
 * primitives add their own timer deltas to pqlab_hash_cycles (hashprof.h).
 * PQLAB_ITERATIONS (default 10) runs; one "hashing <op> <total> <in-hash>" record
 * per operation and iteration, both in the platform timer's unit. No "speed"
 * records: the instrumented primitives are slower than the benchmarked ones.
 * PQLAB_OPS_MASK (ops.h) restricts the measured operations.
 * The functional self-check of ops.h runs alongside; a failed check ends the run
 * with its "test <name> fail" record and "#end fail", and the host stores nothing of the run. */
#include <stdint.h>

#include "../lib/common/hashprof.h"
#include "harness.h"
#include "ops.h"

#ifndef PQLAB_ITERATIONS
#define PQLAB_ITERATIONS 10
#endif

int main(void)
{
    pqlab_harness_begin("hashing");
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
            pqlab_hash_cycles = 0;
            uint64_t t0 = pqlab_hal_cycles();
            int r = op_run(op);
            uint64_t t1 = pqlab_hal_cycles();
            uint64_t h = pqlab_hash_cycles;
            ops_result(op, r);
            pqlab_rec_begin("hashing");
            pqlab_rec_str(op_names[op]);
            pqlab_rec_u64(t1 - t0);
            pqlab_rec_u64(h);
            pqlab_rec_end();
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
