"""Per-operation function profiles from pqlab-sim's folded call stacks.

The speed program runs each operation once; pqlab-sim writes one folded stack per
distinct call path ("main;crypto_kem_keypair;...;leaf cycles"). Cycles under an
operation's API function belong to that operation: exclusive cycles go to the leaf,
inclusive cycles to every distinct frame at or below the API function.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from pqlab import PqlabError
from pqlab.build import BuildOptions, build
from pqlab.platforms import Platform
from pqlab.registry import Implementation
from pqlab.runner import run, temp_dir

API_FUNCTIONS = {  # operation -> NIST API function the harness calls for it (harness/ops.h)
    "keypair": ("crypto_kem_keypair", "crypto_sign_keypair"),
    "encaps": ("crypto_kem_enc",),
    "decaps": ("crypto_kem_dec",),
    "sign": ("crypto_sign",),
    "verify": ("crypto_sign_open",),
    "expand": ("crypto_sign_expand",),
    "sign_tree": ("crypto_sign_signature_tree",),
}


def _is_api(frame: str, names: tuple[str, ...]) -> bool:
    return any(frame == n or frame.endswith("_" + n) for n in names)


def attribute(folded: str, operations: list[str]) -> dict[str, dict]:
    """op -> {"total": cycles, "functions": {name: [exclusive, inclusive]}} from folded stacks."""
    out: dict[str, dict] = {}
    stacks = []
    for line in folded.splitlines():
        path, _, count = line.rpartition(" ")
        if path and count.isdigit():
            stacks.append((path.split(";"), int(count)))
    for op in operations:
        names = API_FUNCTIONS.get(op, (op,))
        funcs: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        total = 0
        for frames, cycles in stacks:
            idx = next((i for i, f in enumerate(frames) if _is_api(f, names)), None)
            if idx is None:
                continue
            total += cycles
            funcs[frames[-1]][0] += cycles
            for f in set(frames[idx:]):
                funcs[f][1] += cycles
        out[op] = {"total": total, "functions": dict(funcs)}
    return out


def profile(impl: Implementation, plat: Platform) -> dict[str, dict]:
    if plat.runner_kind != "pqlab-sim":
        raise PqlabError(f"profiles need a pqlab-sim platform (m4-sim, m7-sim), not {plat.name}")
    res = build(plat, [impl], ("speed",), opts=BuildOptions(iterations=1))[impl.id]
    if res.error:
        raise PqlabError(res.error)
    with temp_dir("prof") as d:
        prof = d / "profile.txt"
        run(plat, res.elf["speed"], "speed", extra=["--profile", str(prof)])
        folded = Path(str(prof) + ".folded")
        if not folded.exists():
            raise PqlabError(f"pqlab-sim wrote no folded stacks ({folded})")
        result = attribute(folded.read_text(), impl.operations)
    for op, data in result.items():
        if data["total"] == 0:
            raise PqlabError(f"no cycles attributed to {op}: API function not found in the profile of {impl.id}")
    return result
