"""`pqlab bench --ops` (harness/ops.h PQLAB_OPS_MASK): only the selected operations are measured
by speed, stack and hashing, the others run once where a selected one needs their output;
names that are no operation of the selected implementations are refused."""

from __future__ import annotations

import json
from pathlib import Path

from cli_runner import pqlab, pqlab_stdout


def test_ops_verify_measures_verify_only(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    code, out = pqlab_stdout(
        "bench", "ml-dsa-44", "-i", "ref", "-p", "host", "-n", "2", "--ops", "verify", "--db", db, "--json", "-j", "1"
    )
    assert code == 0, out
    recs = json.loads(out)
    ops = {(r["metric"], r["operation"]) for r in recs if r["metric"] in ("speed", "stack", "hashing")}
    assert ops == {("speed", "verify"), ("stack", "verify"), ("hashing", "verify")}, ops
    speed = next(r for r in recs if r["metric"] == "speed")
    assert speed["n"] == 2 and speed["context"]["command"].endswith("speed-n2-ops-verify.elf")


def test_ops_names_are_checked(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    code, out = pqlab("bench", "ml-dsa-44", "-i", "ref", "-p", "host", "--ops", "encaps", "--db", db)
    assert code != 0 and "'encaps' is no operation" in out, out
    code, out = pqlab("bench", "ml-dsa-44", "ml-kem-768", "-i", "ref", "-p", "host", "--ops", "verify", "--db", db)
    assert code != 0 and "none of verify is an operation of ml-kem-768" in out, out
