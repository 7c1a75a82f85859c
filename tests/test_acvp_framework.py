"""`pqlab acvp`: unsupported groups are reported (never silently passed) and mismatches are named.

The prompt is an ML-KEM keyGen file in ACVP-Server internalProjection form whose answers come
from kyber-py (an independent FIPS 203 implementation, a test dependency), so this runs from a
plain clone; the official files are exercised by test_mlkem_acvp.py and test_e2e_mlkem.py."""

import json
import random

from click.testing import CliRunner
from kyber_py.ml_kem import ML_KEM_512, ML_KEM_768, ML_KEM_1024

from pqlab.cli import main

KYBER = {"ML-KEM-512": ML_KEM_512, "ML-KEM-768": ML_KEM_768, "ML-KEM-1024": ML_KEM_1024}


def keygen_prompt(per_group: int) -> dict:
    rng = random.Random(203)
    groups, tc = [], 0
    for tg, (pset, kem) in enumerate(KYBER.items(), start=1):
        tests = []
        for _ in range(per_group):
            tc += 1
            d, z = rng.randbytes(32), rng.randbytes(32)
            ek, dk = kem._keygen_internal(d, z)
            tests.append({"tcId": tc, "deferred": False, "z": z.hex().upper(), "d": d.hex().upper(),
                          "ek": ek.hex().upper(), "dk": dk.hex().upper()})  # fmt: skip
        groups.append({"tgId": tg, "testType": "AFT", "parameterSet": pset, "tests": tests})
    return {"vsId": 0, "algorithm": "ML-KEM", "mode": "keyGen", "revision": "FIPS203", "isSample": True,
            "testGroups": groups}  # fmt: skip


def pqlab(*args):
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


def small_prompt(tmp_path, mutate=None):
    d = keygen_prompt(2)
    if mutate:
        mutate(d)
    p = tmp_path / "prompt.json"
    p.write_text(json.dumps(d))
    return p, d


def test_mismatch_is_named(tmp_path):
    prompt, d = small_prompt(tmp_path)
    exp = json.loads(json.dumps(d))
    t = exp["testGroups"][1]["tests"][1]
    t["ek"] = ("00" if t["ek"][:2] != "00" else "11") + t["ek"][2:]
    (tmp_path / "exp.json").write_text(json.dumps(exp))
    code, out = pqlab("acvp", prompt, "--expected", tmp_path / "exp.json")
    assert code == 1
    assert f"mismatch: tgId {exp['testGroups'][1]['tgId']} tcId {t['tcId']}: field ek differs" in out
    code, out = pqlab("acvp", prompt, "--expected", prompt)
    assert code == 0, out
    assert "6 test cases answered on host, 6 compared, 0 mismatches" in out


def test_unsupported_parameter_set_and_algorithm(tmp_path):
    def odd(d):
        d["testGroups"][0]["parameterSet"] = "ML-KEM-2048"

    prompt, _ = small_prompt(tmp_path, odd)
    code, out = pqlab("acvp", prompt)
    assert code == 1 and "unsupported: tgId 1" in out

    def alien(d):
        d["algorithm"] = "FrodoKEM"

    prompt, _ = small_prompt(tmp_path, alien)
    code, out = pqlab("acvp", prompt)
    assert code == 1 and "unsupported: algorithm FrodoKEM" in out


def test_garbage_file(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{not json")
    code, out = pqlab("acvp", p)
    assert code == 2 and "cannot read ACVP file" in out
