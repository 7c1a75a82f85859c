"""SLH-DSA against the NIST ACVP vectors of the external vectors folder (PQLAB_VECTORS; through ctypes).

- keyGen (ACVP-Server v1.1.0.40, all 12 parameter sets x 10 cases): pk and sk
  byte-exact from skSeed, skPrf, pkSeed.
- sigVer (ACVP sample of Aug 2024 as vendored by RustCrypto, internal interface,
  5 parameter sets x 9 cases): the accept/reject decision of slh_verify_internal,
  including too long/short signatures and modified R, SIG_FORS, SIG_HT, message.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from extdata import vectors, vectors_params
from test_slhdsa_lib import ACVP_NAMES, load

KEYGEN = "acvp/v1.1.0.40/SLH-DSA-keyGen-FIPS205/internalProjection.json"
SIGVER = "acvp/rustcrypto-2024-08/SLH-DSA-sigVer-FIPS205/internalProjection.json"


def groups(rel: str) -> list[dict]:
    return json.loads(vectors(rel).read_text())["testGroups"]


def test_keygen_files_cover_all_sets() -> None:
    assert sorted(g["parameterSet"] for g in groups(KEYGEN)) == sorted(ACVP_NAMES)


@pytest.mark.parametrize("pset", sorted(ACVP_NAMES))
def test_acvp_keygen(pset: str) -> None:
    (g,) = [g for g in groups(KEYGEN) if g["parameterSet"] == pset]
    s = load(ACVP_NAMES[pset])
    assert len(g["tests"]) == 10
    for t in g["tests"]:
        pk, sk = s.keygen(bytes.fromhex(t["skSeed"]), bytes.fromhex(t["skPrf"]), bytes.fromhex(t["pkSeed"]))
        assert pk.hex().upper() == t["pk"], f"tcId {t['tcId']}"
        assert sk.hex().upper() == t["sk"], f"tcId {t['tcId']}"


def sigver_groups(path: Path) -> list[str]:
    return [g["parameterSet"] for g in json.loads(path.read_text())["testGroups"]]


@pytest.mark.parametrize("pset", vectors_params(SIGVER, sigver_groups))
def test_acvp_sigver_internal(pset: str) -> None:
    (g,) = [g for g in groups(SIGVER) if g["parameterSet"] == pset]
    s = load(ACVP_NAMES[pset])
    passed = 0
    for t in g["tests"]:
        ok = s.verify_internal(bytes.fromhex(t["pk"]), bytes.fromhex(t["message"]), bytes.fromhex(t["signature"]))
        assert ok == t["testPassed"], f"tcId {t['tcId']}: {t['reason']}"
        passed += ok
    assert passed >= 1 and len(g["tests"]) == 9


def test_acvp_sigver_valid_cases_also_sign() -> None:
    """The file's valid signatures came from deterministic or hedged signing with
    additionalRandomness: re-signing with that addrnd must give the same bytes."""
    for g in groups(SIGVER):
        s = load(ACVP_NAMES[g["parameterSet"]])
        for t in g["tests"]:
            if not t["testPassed"]:
                continue
            sig = s.sign_internal(
                bytes.fromhex(t["sk"]), bytes.fromhex(t["message"]), bytes.fromhex(t["additionalRandomness"])
            )
            assert sig.hex().upper() == t["signature"], f"tcId {t['tcId']}"
