"""Stack of the stack-first ML-DSA (implementation smallstack, lib/mldsa/stream.c) per operation
on the Cortex-M4 (QEMU mps2-an386), measured by the harness `stack` program (stack spray,
deepest overwritten word). Issue 17's goal: at or below pqm4's m4fstack, measured by the same
program (pqm4-cc2c1b9 dropped in with --impl-path on m4-sim, 2026-11-27, docs/mldsa.md)."""

from __future__ import annotations

from stackprobe import stack_mps2_an386

PQM4_M4FSTACK = {
    "ml-dsa-44": {"keypair": 4_672, "sign": 5_344, "verify": 2_976},
    "ml-dsa-65": {"keypair": 4_672, "sign": 6_880, "verify": 2_976},
    "ml-dsa-87": {"keypair": 4_672, "sign": 8_408, "verify": 2_976},
}


def test_smallstack_below_pqm4_m4fstack() -> None:
    ops = {"keypair", "sign", "verify"}
    for scheme, stack in stack_mps2_an386("smallstack", PQM4_M4FSTACK, ops).items():
        for op, used in stack.items():
            assert used <= PQM4_M4FSTACK[scheme][op], (scheme, op, used)
