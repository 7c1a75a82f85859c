/* SPDX-License-Identifier: MIT */
/* prepare: the inputs of the selected operations (PQLAB_OPS_MASK, ops.h), computed once by
 * running the operations before the last prerequisite one in order, as the first iteration of
 * speed, stack and hashing would (same code, same fixed randomness stream), and printed as
 * "prepared <hex>" records (ops_state_export). `pqlab bench --ops` runs it on the platform's
 * `prepare_on` platform and feeds the concatenated bytes to the measuring programs built with
 * PQLAB_OPS_INPUT (docs/interfaces.md section 3). The return codes and canaries of the operations
 * are checked as in the other programs. */
#include "harness.h"
#include "ops.h"

int main(void)
{
    pqlab_harness_begin("prepare");
    pqlab_info("algname", CRYPTO_ALGNAME);
    ops_init();
    int last = -1; /* the last prerequisite: not selected, needed in the first iteration */
    for (int op = 0; op < OP_COUNT; op++) {
        if (op_needed(op, 0) && !op_selected(op)) {
            last = op;
        }
    }
    for (int op = 0; op <= last; op++) {
        if (op_needed(op, 0)) {
            ops_result(op, op_run(op));
        }
    }
    pqlab_info("prerequisites", last < 0 ? "none" : "computed");
    ops_state_export();
    pqlab_harness_end(pqlab_test_report());
}
