"""ML-DSA against every test case of the NIST ACVP-Server files of the external vectors (docs/vectors.md):
keyGen (975de31, 75 cases), sigVer (975de31, 180 cases in 12 groups: external pure with context,
external pre-hash with every hash, internal with external mu, internal with message), sigGen
(v1.1.0.35 internalProjection, 60 cases: deterministic and hedged Sign_internal) and sigVer
(v1.1.0.35, 45 cases with reasons). Byte-exact, on the host through ctypes; requests and results
go through the ACVP plugin (pqlab/acvp/mldsa.py) with the driver commands of
harness/driver_mldsa.c carried out on the ctypes build, so the plugin mapping is tested too."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mldsa_support import acvp, mldsa, mode_of

from pqlab.acvp import mldsa as plugin
from pqlab.acvp.fields import FieldError

# (prompt, expected results or None when the prompt is an internalProjection with the answers),
# paths below the external vectors' acvp/
FILES = {
    "keyGen-975de31": (
        "975de31/ML-DSA-keyGen-FIPS204/prompt.json",
        "975de31/ML-DSA-keyGen-FIPS204/expectedResults.json",
    ),
    "sigVer-975de31": (
        "975de31/ML-DSA-sigVer-FIPS204/prompt.json",
        "975de31/ML-DSA-sigVer-FIPS204/expectedResults.json",
    ),
    "sigGen-v1.1.0.35": ("v1.1.0.35/ML-DSA-sigGen-FIPS204/internalProjection.json", None),
    "sigVer-v1.1.0.35": ("v1.1.0.35/ML-DSA-sigVer-FIPS204/internalProjection.json", None),
}
# test counts per file (counted in the files; docs/vectors.md)
COUNTS = {"keyGen-975de31": 75, "sigVer-975de31": 180, "sigGen-v1.1.0.35": 60, "sigVer-v1.1.0.35": 45}


def run_file(key: str) -> tuple[Counter, list[str]]:
    prompt_path, exp_path = FILES[key]
    prompt = json.loads(acvp(prompt_path).read_text())
    expected = json.loads(acvp(exp_path or prompt_path).read_text())
    exp = {(g["tgId"], t["tcId"]): t for g in expected["testGroups"] for t in g["tests"]}
    passed: Counter = Counter()
    bad = []
    for group in prompt["testGroups"]:
        scheme = plugin.scheme(group)
        assert scheme is not None, f"{key} tgId {group['tgId']} unsupported"
        lib = mldsa(mode_of(scheme))
        for test in group["tests"]:
            reqs = plugin.requests(group, test)
            assert reqs is not None, f"{key} tcId {test['tcId']}: no requests"
            outs = [lib.drive(cmd, args) for cmd, args in reqs]
            got = plugin.result(group, test, outs)
            e = exp[(group["tgId"], test["tcId"])]
            # the result fields of this mode; internalProjection files also repeat inputs (sk, pk)
            assert set(got) <= set(e), (key, test["tcId"], got.keys(), e.keys())
            want = {k: e[k] for k in got}
            if got == want:
                passed[(group["tgId"], group["parameterSet"])] += 1
            else:
                bad.append(f"{key} tgId {group['tgId']} tcId {test['tcId']}")
    return passed, bad


@pytest.mark.parametrize("key", list(FILES))
def test_acvp_file(key: str) -> None:
    passed, bad = run_file(key)
    assert not bad, bad
    assert sum(passed.values()) == COUNTS[key]
    print(key, dict(passed))


def test_plugin_knows_every_group() -> None:
    for key, (prompt_path, _) in FILES.items():
        prompt = json.loads(acvp(prompt_path).read_text())
        for group in prompt["testGroups"]:
            assert plugin.scheme(group) in ("ml-dsa-44", "ml-dsa-65", "ml-dsa-87"), (key, group["tgId"])


def test_plugin_rejects_unknown_options() -> None:
    assert plugin.scheme({"parameterSet": "ML-DSA-44", "signatureInterface": "sideways"}) is None
    assert plugin.scheme({"parameterSet": "ML-DSA-44", "signatureInterface": "external", "preHash": "maybe"}) is None
    assert plugin.scheme({"parameterSet": "ML-DSA-99"}) is None
    # a test case without its inputs is invalid (the framework names it), never passed
    with pytest.raises(FieldError, match="missing field 'sk'"):
        plugin.requests({"parameterSet": "ML-DSA-44", "deterministic": True}, {"tcId": 1})
