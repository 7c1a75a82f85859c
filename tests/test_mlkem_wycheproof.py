"""ML-KEM against every Wycheproof ML-KEM file (C2SP/wycheproof testvectors_v1): keygen from
seed, encapsulation (incl. ModulusOverflow / unreduced keys), decapsulation with seed-derived
and semi-expanded keys (wrong lengths, corrupted hash, corrupted embedded ek, malleability).
Invalid cases must be rejected: lengths by the length checks of FIPS 203 sections 7.2/7.3
(as in harness/driver_mlkem.c), contents by the library's input checks."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "mlkem"))
from support import PARAMS, mlkem, wycheproof

KINDS = ["test", "encaps_test", "keygen_seed_test", "semi_expanded_decaps_test"]


def h(s: str) -> bytes:
    return bytes.fromhex(s)


def evaluate(kind: str, name: str, t: dict) -> tuple[bool, dict]:
    """Returns (accepted, outputs) for one Wycheproof test case."""
    lib, p = mlkem(name), PARAMS[name]
    if kind in ("test", "keygen_seed_test"):
        seed = h(t["seed"])
        if len(seed) != 64:
            return False, {}
        ek, dk = lib.keygen(seed[:32], seed[32:])
        out = {"ek": ek, "dk": dk}
        if kind == "test":
            c = h(t["c"])
            if len(c) != p.ct_len:
                return False, out
            r, k = lib.decaps(dk, c)
            if r:
                return False, out
            out["K"] = k
        return True, out
    if kind == "encaps_test":
        ek, m = h(t["ek"]), h(t["m"])
        if len(ek) != p.ek_len or len(m) != 32:
            return False, {}
        r, c, k = lib.encaps(ek, m)
        if r:
            assert c == bytes(p.ct_len) and k == bytes(32), "outputs not zeroised on failure"
            return False, {}
        return True, {"c": c, "K": k}
    if kind == "semi_expanded_decaps_test":
        dk, c = h(t["dk"]), h(t["c"])
        if len(dk) != p.dk_len or len(c) != p.ct_len:
            return False, {}
        r, k = lib.decaps(dk, c)
        if r:
            assert k == bytes(32), "output not zeroised on failure"
            return False, {}
        return True, {"K": k}
    raise AssertionError(kind)


@pytest.mark.parametrize("name", list(PARAMS))
@pytest.mark.parametrize("kind", KINDS)
def test_wycheproof(kind: str, name: str) -> None:
    path = wycheproof(f"mlkem_{PARAMS[name].n}_{kind}.json")
    data = json.loads(path.read_text())
    n = valid = invalid = 0
    bad = []
    for group in data["testGroups"]:
        assert group["parameterSet"] == name
        for t in group["tests"]:
            accepted, out = evaluate(kind, name, t)
            n += 1
            if t["result"] == "invalid":
                invalid += 1
                if accepted:
                    bad.append((t["tcId"], "accepted an invalid case", t.get("comment"), t.get("flags")))
                continue
            valid += 1
            if not accepted:
                bad.append((t["tcId"], "rejected a valid case", t.get("comment")))
                continue
            for key, value in out.items():
                if t.get(key) and value != h(t[key]):
                    bad.append((t["tcId"], f"{key} differs", t.get("comment")))
            assert "K" in out or "ek" in out
    assert not bad, bad
    assert n == data["numberOfTests"]
    if kind != "keygen_seed_test":
        assert invalid > 0 and valid > 0
