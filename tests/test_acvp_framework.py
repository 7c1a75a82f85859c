"""`pqlab acvp`: unsupported groups are reported (never silently passed) and mismatches are named."""

import json


from cli_runner import pqlab
from pqlab.jobs import VECTORS_DIR

KEYGEN = VECTORS_DIR / "acvp" / "v1.1.0.40" / "ML-KEM-keyGen-FIPS203" / "internalProjection.json"


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


ENCAP = VECTORS_DIR / "acvp" / "v1.1.0.40" / "ML-KEM-encapDecap-FIPS203" / "internalProjection.json"


def encap_prompt(tmp_path, mutate):
    d = json.loads(ENCAP.read_text())
    d["testGroups"] = [g for g in d["testGroups"] if g["tgId"] == 2]  # encapsulation, ML-KEM-768
    g = d["testGroups"][0]
    g["tests"] = g["tests"][:3]
    mutate(g["tests"])
    p = tmp_path / "prompt.json"
    p.write_text(json.dumps(d))
    return p, g["tests"]


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
    code, out = pqlab("acvp", prompt, "--expected", ENCAP)
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
    code, out = pqlab("acvp", prompt, "--expected", ENCAP)
    assert code == 1
    assert f"invalid input: tgId 2 tcId {tests[2]['tcId']}: an input of 20,000 bytes, more than the driver's 16,384" in out
    assert "2 test cases answered on host, 2 compared, 0 mismatches" in out
