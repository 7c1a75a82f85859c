"""`pqlab acvp`: unsupported groups are reported (never silently passed) and mismatches are named."""

import json

from click.testing import CliRunner

from pqlab.cli import main
from pqlab.jobs import VECTORS_DIR

KEYGEN = VECTORS_DIR / "acvp" / "v1.1.0.40" / "ML-KEM-keyGen-FIPS203" / "internalProjection.json"


def pqlab(*args):
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


def small_prompt(tmp_path, mutate=None):
    d = json.loads(KEYGEN.read_text())
    for g in d["testGroups"]:
        g["tests"] = g["tests"][:2]
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
