"""`pqlab acvp`: unsupported groups are reported (never silently passed) and mismatches are named.

The prompt is an ML-KEM keyGen file in ACVP-Server internalProjection form whose answers come
from kyber-py (an independent FIPS 203 implementation, a test dependency), so this runs from a
plain clone; the official files are exercised by test_mlkem_acvp.py and test_e2e_mlkem.py."""

import json
import random

from cli_runner import pqlab
from kyber_py.ml_kem import ML_KEM_512, ML_KEM_768, ML_KEM_1024

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


def encap_expected(tmp_path) -> tuple[dict, object]:
    """An encapsulation group (tgId 2, ML-KEM-768) of three cases answered by kyber-py."""
    rng = random.Random(2032)
    tests = []
    for tc in range(1, 4):
        ek, _ = ML_KEM_768._keygen_internal(rng.randbytes(32), rng.randbytes(32))
        m = rng.randbytes(32)
        k, c = ML_KEM_768._encaps_internal(ek, m)
        tests.append({"tcId": tc, "ek": ek.hex().upper(), "m": m.hex().upper(), "c": c.hex().upper(), "k": k.hex().upper()})
    d = {"vsId": 0, "algorithm": "ML-KEM", "mode": "encapDecap", "revision": "FIPS203", "isSample": True,
         "testGroups": [{"tgId": 2, "testType": "AFT", "parameterSet": "ML-KEM-768", "function": "encapsulation",
                         "tests": tests}]}  # fmt: skip
    p = tmp_path / "expected.json"
    p.write_text(json.dumps(d))
    return d, p


def encap_prompt(tmp_path, mutate):
    d, _ = encap_expected(tmp_path)
    tests = d["testGroups"][0]["tests"]
    mutate(tests)
    p = tmp_path / "prompt.json"
    p.write_text(json.dumps(d))
    return p, tests


def test_non_utf8_file_is_a_clear_error(tmp_path):
    p = tmp_path / "x.json"
    p.write_bytes(b'{"testGroups": [{"tgId": 1, "tests": []}], "x": "\xff\xfe"}')
    code, out = pqlab("acvp", p)
    assert code == 2 and "not UTF-8" in out


def test_structure_without_tcid_is_a_clear_error(tmp_path):
    p = tmp_path / "x.json"
    p.write_text(json.dumps({"algorithm": "ML-KEM", "mode": "keyGen", "testGroups": [{"tgId": 4, "tests": [{"d": "00"}]}]}))
    code, out = pqlab("acvp", p)
    assert code == 2 and "tgId 4: a test case without tcId" in out


def test_bad_hex_names_the_test_case_and_the_rest_run(tmp_path):
    def bad(tests):
        tests[1]["m"] = "zz" + tests[1]["m"][2:]

    prompt, tests = encap_prompt(tmp_path, bad)
    code, out = pqlab("acvp", prompt, "--expected", encap_expected(tmp_path)[1])
    assert code == 1
    assert f"invalid input: tgId 2 tcId {tests[1]['tcId']}: field 'm' is not an even-length hex string" in out
    assert "2 test cases answered on host, 2 compared, 0 mismatches" in out
    assert "nothing to run" not in out


def test_only_unsupported_groups_is_not_nothing_to_run(tmp_path):
    def odd(d):
        for g in d["testGroups"]:
            g["parameterSet"] = "ML-KEM-2048"

    prompt, _ = small_prompt(tmp_path, odd)
    code, out = pqlab("acvp", prompt)
    assert code == 1 and "unsupported: tgId 1: options not supported (" in out and "ML-KEM-2048" in out
    assert "nothing to run" not in out


def test_value_cut_short_is_never_an_empty_answer_with_exit_0(tmp_path):
    def short(tests):
        tests[0]["ek"] = tests[0]["ek"][:-2]

    prompt, tests = encap_prompt(tmp_path, short)
    code, out = pqlab("acvp", prompt, "-o", tmp_path / "resp.json")
    assert code == 1
    assert f"tgId 2 tcId {tests[0]['tcId']}: the implementation refused the input" in out and "no c, k" in out
    code, out = pqlab("acvp", prompt, "--json")
    assert code == 1 and json.loads(out)["ok"] is False


def test_argument_over_driver_limit_names_the_test_case(tmp_path):
    def huge(tests):
        tests[2]["m"] = "00" * 20000

    prompt, tests = encap_prompt(tmp_path, huge)
    code, out = pqlab("acvp", prompt, "--expected", encap_expected(tmp_path)[1])
    assert code == 1
    assert f"invalid input: tgId 2 tcId {tests[2]['tcId']}: an input of 20,000 bytes, more than the driver's 16,384" in out
    assert "2 test cases answered on host, 2 compared, 0 mismatches" in out
