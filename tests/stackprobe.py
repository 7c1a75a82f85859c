"""Peak stack per operation of registered implementations on the Cortex-M4 (QEMU mps2-an386),
measured by the harness `stack` program (stack spray, deepest overwritten word): shared by the
stack-limit tests."""

from __future__ import annotations

import shutil

from pqlab.build import BuildOptions
from pqlab.jobs import execute
from pqlab.platforms import get_platform
from pqlab.registry import discover


def stack_mps2_an386(impl: str, schemes, ops: set[str]) -> dict[str, dict[str, int]]:
    """{scheme: {operation: bytes}} of implementation `impl` of every scheme in `schemes`;
    fails when a scheme lacks the implementation, a run fails or an operation is missing."""
    assert shutil.which("qemu-system-arm") and shutil.which("arm-none-eabi-gcc"), "QEMU / arm toolchain missing"
    plat = get_platform("mps2-an386")
    impls = [i for i in discover() if i.scheme in schemes and i.name == impl]
    assert {i.scheme for i in impls} == set(schemes), impls
    out: dict[str, dict[str, int]] = {}
    for o in execute([(i, plat) for i in impls], "stack", 2, BuildOptions()):
        assert o.ok, o.error
        stack = {f[0]: int(f[1]) for f in o.output.of("stack")}
        assert set(stack) == ops, (o.impl.scheme, stack)
        assert all(used > 1000 for used in stack.values()), (o.impl.scheme, stack)
        out[o.impl.scheme] = stack
    assert set(out) == set(schemes)
    return out
