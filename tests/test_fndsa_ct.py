"""Constant-time check of FN-DSA (lib/fndsa) through `pqlab ct`, the one ct harness.

`pqlab ct` runs every FN-DSA implementation (ref: emulated fpr, fpu: native double, both
degrees) under valgrind memcheck with all randomness secret: key generation (plus, from
harness/ct_fndsa.c, key generation on a KAT seed whose solver rejects a candidate, so the NTRU
solver's whole path runs on secret data), dynamic signing, key expansion and tree signing.
tests/test_ct.py runs that over every own implementation; this file holds FN-DSA's negative
controls, built through pqlab's own build as an implementation folder of lib/fndsa with the
control's define, and the reproduction of the report that the host-ct platform's
-fno-tree-vectorize settles (docs/ct.md):

- the negative controls (a secret-dependent early exit in the base sampler, a branch on a bit
  length in the NTRU solver, and a secret-indexed load and a secret branch in fxb_round_k,
  beside its shifts by the same secret counts) must each be reported;
- built with -ftree-vectorize (what host-ct did before), the only reports are memcheck's
  size-1 uses in fxb_round_k's vectorised shifts, nothing else.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from click.testing import CliRunner

from pqlab import ROOT
from pqlab.cli import main

REF = ROOT / "lib" / "crypto_sign" / "fn-dsa-512" / "ref"


def variant(root: Path, name: str, extra_cflags: list[str]) -> Path:
    """fn-dsa-512/<name>: the ref implementation's api.h and pqlab.toml, lib/fndsa's sources,
    `extra_cflags` added."""
    cfg = tomllib.loads((REF / "pqlab.toml").read_text())
    d = root / "crypto_sign" / "fn-dsa-512" / name
    d.mkdir(parents=True)
    (d / "api.h").write_text((REF / "api.h").read_text())
    toml = {
        "sources": [str(ROOT / "lib" / "fndsa" / "*.c")],
        "include": [str(ROOT / "lib" / "fndsa")],
        "cflags": [*cfg["cflags"], *extra_cflags],
        "driver": cfg["driver"],
        "extra_ops": cfg["extra_ops"],
    }
    (d / "pqlab.toml").write_text("".join(f"{k} = {json.dumps(v)}\n" for k, v in toml.items()) + "own = true\n")
    return root


def ct_json(root: Path, name: str) -> dict:
    res = CliRunner().invoke(
        main, ["ct", "fn-dsa-512", "-i", name, "-j", "1", "--no-store", "--impl-path", str(root), "--json"]
    )
    rows = json.loads(res.output)
    assert len(rows) == 1
    assert res.exit_code == (0 if rows[0]["ok"] else 1)
    return rows[0]


def places(findings: list[dict], kind: str) -> list[str]:
    """the call stacks of the findings of `kind`, innermost function first, namespace removed"""
    return [
        " | ".join(fr.replace("pqlab_fndsa512_ref_", "") for fr in f["stack"])
        for f in findings
        if f["kind"].startswith(kind)
    ]


def test_negative_controls_are_reported(tmp_path: Path) -> None:
    defines = [
        "-DPQLAB_FNDSA_CT_NEGATIVE_CONTROL",
        "-DPQLAB_FNDSA_CT_NEGATIVE_CONTROL_KEYGEN",
        "-DPQLAB_FNDSA_CT_NEGATIVE_CONTROL_ROUNDK",
    ]
    row = ct_json(variant(tmp_path, "negctl", defines), "negctl")
    assert not row["ok"]
    f = row["findings"]
    branches, addresses = places(f, "secret-dependent branch"), places(f, "secret-dependent address")
    # the sampler's early exit: in base_sampler_count, BaseSampler's comparison (inlined into fndsa_base_sampler)
    assert any(s.startswith(("base_sampler_count", "fndsa_base_sampler")) for s in branches), f
    assert any("solve_ntru" in s and "fxb_round_k" not in s for s in branches), f  # solver bit length
    # fxb_round_k: the load indexed by the secret shift count, and the branch on the other count
    assert any(s.startswith("fxb_round_k") for s in addresses), f
    assert any(s.startswith("fxb_round_k") for s in branches), f
    # the shifts by the same counts, scalar, are not reported
    assert not [x for x in f if x["message"] == "Use of uninitialised value of size 1"], f


def test_vectorised_build_reports_only_the_shift_counts(tmp_path: Path) -> None:
    row = ct_json(variant(tmp_path, "vectorised", ["-ftree-vectorize"]), "vectorised")
    assert not row["ok"]
    f = row["findings"]
    assert f and all(x["message"] == "Use of uninitialised value of size 1" for x in f), f
    assert all(any(fr.startswith("fxb_round_k") for fr in x["stack"]) for x in f), f
