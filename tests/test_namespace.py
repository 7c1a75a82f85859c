"""Every global symbol of pqlab's own implementations and common layer carries the pqlab_ prefix.

Checked with `nm` on the objects built for the host and for the Cortex-M4, assembly included,
so that several implementations (and foreign code) can be linked into one binary.
"""

import subprocess

import pytest

from pqlab.build import BUILD_ROOT, build
from pqlab.platforms import get_platform
from pqlab.registry import discover

OWN = [i for i in discover() if i.own]


def global_symbols(nm: str, objs) -> dict[str, str]:
    out = subprocess.run([nm, "-g", "--defined-only", *map(str, objs)], capture_output=True, text=True, check=True)
    syms = {}
    obj = "?"
    for line in out.stdout.splitlines():
        if line.endswith(":"):
            obj = line[:-1]
        elif line.strip():
            syms[line.split()[-1]] = obj
    return syms


@pytest.mark.parametrize("platform", ["host", "mps2-an386"])
def test_own_symbols_are_prefixed(platform):
    assert OWN, "no own implementation registered"
    plat = get_platform(platform)
    res = build(plat, OWN, ("test",), jobs=2)
    bad = {}
    for impl in OWN:
        r = res[impl.id]
        assert r.error is None, r.error
        for sym, obj in global_symbols(plat.tool("nm"), r.objects).items():
            if not sym.startswith("pqlab_"):
                bad[sym] = obj
    common = sorted((BUILD_ROOT / platform / "common" / "lib" / "common").glob("*.o"))
    assert common
    for sym, obj in global_symbols(plat.tool("nm"), common).items():
        if not sym.startswith("pqlab_"):
            bad[sym] = obj
    assert not bad, f"un-prefixed global symbols: {bad}"
