"""Stack of the stack-first ML-DSA (implementation smallstack, lib/mldsa/stream.c) per operation
on the Cortex-M4 (QEMU mps2-an386), measured by the harness `stack` program (stack spray,
deepest overwritten word). Issue 17's goal: at or below pqm4's m4fstack, measured by the same
program (pqm4-cc2c1b9 dropped in with --impl-path on m4-sim, 2026-11-27, docs/mldsa.md)."""

from __future__ import annotations

import shutil

from pqlab.build import BuildOptions
from pqlab.jobs import execute
from pqlab.platforms import get_platform
from pqlab.registry import discover

PQM4_M4FSTACK = {
    "ml-dsa-44": {"keypair": 4_672, "sign": 5_344, "verify": 2_976},
    "ml-dsa-65": {"keypair": 4_672, "sign": 6_880, "verify": 2_976},
    "ml-dsa-87": {"keypair": 4_672, "sign": 8_408, "verify": 2_976},
}


def test_smallstack_below_pqm4_m4fstack() -> None:
    assert shutil.which("qemu-system-arm") and shutil.which("arm-none-eabi-gcc"), "QEMU / arm toolchain missing"
    plat = get_platform("mps2-an386")
    impls = [i for i in discover() if i.scheme in PQM4_M4FSTACK and i.name == "smallstack"]
    assert len(impls) == 3
    outcomes = execute([(i, plat) for i in impls], "stack", 2, BuildOptions())
    seen = set()
    for o in outcomes:
        assert o.ok, o.error
        stack = {f[0]: int(f[1]) for f in o.output.of("stack")}
        assert set(stack) == {"keypair", "sign", "verify"}, stack
        for op, used in stack.items():
            assert 1000 < used <= PQM4_M4FSTACK[o.impl.scheme][op], (o.impl.scheme, op, used)
        seen.add(o.impl.scheme)
    assert seen == set(PQM4_M4FSTACK)
