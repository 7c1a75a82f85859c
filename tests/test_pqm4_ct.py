# SPDX-License-Identifier: MIT
"""`pqlab ct -p m4-sim` over the pqm4 corpus dropped in with --impl-path (pqm4 cc2c1b9, the
tarball PQLAB_THIRDPARTY/pqm4-cc2c1b9.tar.gz extracted into a temporary folder; docs/ct.md,
"The pqm4 corpus on m4-sim"). The default run checks a sample of two folders, each with the
findings the full run recorded at their places; `-m slow` runs every folder of pqm4's own
crypto_kem/ and crypto_sign/ and requires a verdict from each (clean, or findings with their
places): never a build failure, a crash or a run that saw no secret."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest
from cli_runner import pqlab_stdout
from extdata import pqm4_tree

from pqlab import external
from pqlab.cli import DATA

PQM4_LEDGER = DATA / "ct-ledgers" / "pqm4-cc2c1b9.toml"


@pytest.fixture(scope="module")
def pqm4(tmp_path_factory) -> Path:
    return pqm4_tree(tmp_path_factory.mktemp("pqm4"))


def ct_rows(pqm4: Path, *args: str) -> tuple[int, list[dict]]:
    code, out = pqlab_stdout("ct", *args, "--impl-path", pqm4, "-p", "m4-sim", "-j", "1", "--no-store", "--json")
    return code, json.loads(out)


def failing(row: dict) -> list[dict]:
    return [f for f in row["findings"] if f["kind"] != "secret-select" and not f["accepted"]]


def test_pqm4_ml_kem_m4fstack_matrix_sampling(pqm4: Path) -> None:
    """ML-KEM-512 m4fstack: the only findings are the rejection sampling of the matrix A in
    matacc_asm.S (branches on the SHAKE128 output of rho). rho is public (it is in the public
    key), but the implementation derives it from the secret seed and never declassifies it,
    so for the checker it is secret: findings a ledger would accept with that reason."""
    code, rows = ct_rows(pqm4, "ml-kem-512", "-i", "m4fstack")
    assert code == 1 and len(rows) == 1, rows
    row = rows[0]
    assert row["secret_bytes"] > 0 and row["instructions"] > 1_000_000, row
    bad = failing(row)
    assert bad and {f["kind"] for f in bad} == {"secret-branch"}, bad
    assert {f["function"] for f in bad} == {"matacc_asm", "matacc_asm_acc"}, bad
    assert all(f["source"].startswith("matacc_asm.S:") for f in bad), bad
    # the ledger for pqm4 (kept outside its tree) accepts exactly these, with their reason
    code, rows = ct_rows(pqm4, "ml-kem-512", "-i", "m4fstack", "--ledger", str(PQM4_LEDGER))
    assert code == 0 and rows[0]["ok"] and not failing(rows[0]), rows
    assert {f["accepted"].split(" ")[0] for f in rows[0]["findings"] if f["kind"] == "secret-branch"} == {
        "Rejection"
    }, rows


def test_pqm4_bike_m4f_threshold_in_soft_float(pqm4: Path) -> None:
    """BIKE-L1 m4f (pqm4 issue 404: its Fujisaki-Okamoto protections are commented out):
    decapsulation computes the decoder's threshold from the secret syndrome weight in double
    precision, which on the Cortex-M4 is the compiler's soft-float runtime, branching on it
    (get_threshold, decode.c), and branches on the syndrome weight after decoding."""
    code, rows = ct_rows(pqm4, "bikel1", "-i", "m4f")
    assert code == 1 and len(rows) == 1, rows
    bad = failing(rows[0])
    runtime = [f for f in bad if f["function"].startswith("__aeabi_")]
    assert runtime and all(any(s.startswith("get_threshold (decode.c:") for s in f["stack"]) for f in runtime), bad
    assert any(f["function"] == "decode" and f["kind"] == "secret-branch" for f in bad), bad


def _own_folders() -> list[tuple[str, str]]:
    """(scheme, implementation) of every folder of pqm4's own crypto_kem/ and crypto_sign/."""
    tarball = external.thirdparty_dir() / "pqm4-cc2c1b9.tar.gz"
    if not tarball.is_file():
        return []
    found = set()
    with tarfile.open(tarball) as tf:
        for m in tf.getmembers():
            p = m.name.split("/")
            if len(p) == 5 and p[0] == "pqm4" and p[1] in ("crypto_kem", "crypto_sign") and p[4] == "api.h":
                found.add((p[2], p[3]))
    return sorted(found)


@pytest.mark.slow
@pytest.mark.parametrize(("scheme", "impl"), _own_folders(), ids=[f"{s}/{i}" for s, i in _own_folders()])
def test_pqm4_folder_gets_a_verdict(pqm4: Path, scheme: str, impl: str) -> None:
    code, rows = ct_rows(pqm4, scheme, "-i", impl, "--timeout", "3000")
    mine = [r for r in rows if r["implementation"] == impl]
    assert len(mine) == 1, rows
    row = mine[0]
    assert row["secret_bytes"] > 0, row
    # a verdict: passes, or fails for findings (each with a place); never for another reason
    assert row["ok"] or (failing(row) and all(f["function"] and f["source"] for f in failing(row))), row["error"]
    assert code == (0 if row["ok"] else 1)
