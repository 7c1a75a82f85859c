/* SPDX-License-Identifier: MIT */
/* stack: peak stack use of every operation (ops.h), measured by spraying the
 * free stack with a pattern before the operation and finding the deepest
 * overwritten word after it (pqlab_hal_stack_spray / pqlab_hal_stack_used).
 * All buffers are static, so "stack <op> <bytes>" is the operation's own stack
 * (plus a few bytes of the call itself). The host adds .data/.bss for peak RAM.
 * PQLAB_OPS_MASK (ops.h) restricts the measured operations.
 * The functional self-check of ops.h runs alongside; a failed check ends the run
 * with its "test <name> fail" record and "#end fail", and the host stores nothing of the run. */
#include <stddef.h>

#include "harness.h"
#include "ops.h"

int main(void)
{
    pqlab_harness_begin("stack");
    pqlab_info("algname", CRYPTO_ALGNAME);
    ops_init();
    for (int op = 0; op < OP_COUNT; op++) {
        if (!op_needed(op, 0)) {
            continue;
        }
        if (!op_selected(op)) { /* an input of a selected operation, not measured */
            ops_prerequisite(op);
            continue;
        }
        pqlab_hal_stack_spray();
        pqlab_mark_begin(op_names[op]);
        int r = op_run(op);
        pqlab_mark_end(op_names[op]);
        size_t used = pqlab_hal_stack_used();
        ops_result(op, r);
        pqlab_rec_begin("stack");
        pqlab_rec_str(op_names[op]);
        pqlab_rec_u64(used);
        pqlab_rec_end();
    }
    if (ops_all_ran()) {
        ops_check();
        ops_selfcheck();
    }
    pqlab_harness_end(pqlab_test_report());
}
