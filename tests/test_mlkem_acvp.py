"""ML-KEM against every test case of the NIST ACVP-Server files (v1.1.0.40): keyGen and all
encapDecap groups (encapsulation, decapsulation, encapsulationKeyCheck, decapsulationKeyCheck),
byte-exact, on the host through ctypes. The requests and results go through the ACVP plugin
(pqlab/acvp/mlkem.py), with the driver commands of harness/driver_mlkem.c carried out in Python
on the ctypes library, so the plugin mapping is checked as well."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "mlkem"))
from support import PARAMS, acvp, mlkem

from pqlab.acvp import mlkem as plugin

FILES = {
    "keyGen": "ML-KEM-keyGen-FIPS203/internalProjection.json",
    "encapDecap": "ML-KEM-encapDecap-FIPS203/internalProjection.json",
}
# Expected test counts per (mode, parameter set), from the files (docs/vectors.md).
EXPECTED_COUNTS = {"keyGen": 25, "encapDecap": 25 + 10 + 10 + 10}


def drive(name: str, cmd: str, args: list[bytes]) -> list[bytes] | int:
    """The semantics of harness/driver_mlkem.c, on the ctypes build."""
    lib, p = mlkem(name), PARAMS[name]
    if cmd == "keygen":
        if [len(a) for a in args] != [32, 32]:
            return -100
        return list(lib.keygen(*args))
    if cmd == "encaps":
        if [len(a) for a in args] != [p.ek_len, 32]:
            return -100
        r, c, k = lib.encaps(*args)
        return r if r else [c, k]
    if cmd == "decaps":
        if [len(a) for a in args] != [p.dk_len, p.ct_len]:
            return -100
        r, k = lib.decaps(*args)
        return r if r else [k]
    if cmd == "checkek":
        return [] if lib.check_ek(args[0]) else -1
    if cmd == "checkdk":
        return [] if lib.check_dk(args[0]) else -2
    raise AssertionError(f"unknown driver command {cmd}")


@pytest.mark.parametrize("name", list(PARAMS))
@pytest.mark.parametrize("mode", list(FILES))
def test_acvp_all_cases(mode: str, name: str) -> None:
    data = json.loads(acvp(FILES[mode]).read_text())
    assert (data["algorithm"], data["mode"]) in plugin.ALGORITHMS
    n = 0
    failures = []
    functions = set()
    for group in data["testGroups"]:
        if group["parameterSet"] != name:
            continue
        assert plugin.scheme(group) == name.lower()
        functions.add(group.get("function", "keyGen"))
        for test in group["tests"]:
            reqs = plugin.requests(group, test)
            assert reqs is not None, test["tcId"]
            outs = [drive(name, cmd, args) for cmd, args in reqs]
            got = plugin.result(group, test, outs)
            assert got, test["tcId"]
            for key, value in got.items():
                want = test[key]
                same = value == want if isinstance(value, bool) else value.lower() == want.lower()
                if not same:
                    failures.append((group["tgId"], test["tcId"], key, test.get("reason")))
            n += 1
    assert not failures, failures
    assert n == EXPECTED_COUNTS[mode]
    if mode == "encapDecap":
        assert functions == {"encapsulation", "decapsulation", "encapsulationKeyCheck", "decapsulationKeyCheck"}


@pytest.mark.parametrize("name", list(PARAMS))
def test_acvp_rejections_really_reject(name: str) -> None:
    """The invalid key-check cases are rejected by the API that sees lengths, and the
    modified-ciphertext decapsulations give J(z||c), not the honest key."""
    data = json.loads(acvp(FILES["encapDecap"]).read_text())
    rejected = {"encapsulationKeyCheck": 0, "decapsulationKeyCheck": 0, "modified ciphertext": 0}
    for group in data["testGroups"]:
        if group["parameterSet"] != name:
            continue
        fn = group["function"]
        for test in group["tests"]:
            if fn in ("encapsulationKeyCheck", "decapsulationKeyCheck") and not test["testPassed"]:
                key = "ek" if fn == "encapsulationKeyCheck" else "dk"
                assert drive(name, "check" + key, [bytes.fromhex(test[key])]) != []
                rejected[fn] += 1
            if fn == "decapsulation" and test["reason"] == "modified ciphertext":
                import hashlib

                dk, c = bytes.fromhex(test["dk"]), bytes.fromhex(test["c"])
                assert drive(name, "decaps", [dk, c]) == [hashlib.shake_256(dk[-32:] + c).digest(32)]
                rejected["modified ciphertext"] += 1
    assert all(v > 0 for v in rejected.values()), rejected
