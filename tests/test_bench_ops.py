"""`pqlab bench --ops` (harness/ops.h PQLAB_OPS_MASK): only the selected operations are measured
by speed, stack and hashing, the others run once where a selected one needs their output;
names that are no operation of the selected implementations are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
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


def _mldsa44_ref():
    from pqlab.registry import discover

    return next(i for i in discover() if i.scheme == "ml-dsa-44" and i.name == "ref")


def test_prepare_platform_rule() -> None:
    """prerequisites are prepared on `prepare_on` only when there are some, and only from a platform
    that compiles the same code"""
    from dataclasses import replace

    from pqlab import PqlabError
    from pqlab.build import BuildOptions, has_prerequisites, prepare_platform
    from pqlab.platforms import get_platform

    impl = _mldsa44_ref()
    rtl = get_platform("cv32e40p-nofpu-rtl")
    assert rtl.prepare_on == "rv32-qemu"
    verify, keypair, sign_verify = (BuildOptions(ops=o) for o in (("verify",), ("keypair",), ("keypair", "verify")))
    assert has_prerequisites(impl, verify) and has_prerequisites(impl, sign_verify)  # sign before verify
    assert not has_prerequisites(impl, keypair) and not has_prerequisites(impl, BuildOptions())
    prep = prepare_platform(impl, rtl, verify)
    assert prep is not None and prep.name == "rv32-qemu"
    assert prepare_platform(impl, rtl, keypair) is None
    assert prepare_platform(impl, get_platform("rv32-qemu"), verify) is None  # no prepare_on
    with pytest.raises(PqlabError, match="compiles other code"):
        prepare_platform(impl, replace(rtl, cflags=(*rtl.cflags, "-O2")), verify)


@pytest.mark.slow
def test_ops_verify_prepared_on_rtl(tmp_path: Path) -> None:
    """cv32e40p-nofpu-rtl: verify measured on the RTL, key pair and signature from rv32-qemu"""
    db = tmp_path / "r.db"
    code, out = pqlab_stdout(
        "bench", "ml-dsa-44", "-i", "ref", "-p", "cv32e40p-nofpu-rtl", "-n", "1", "--ops", "verify", "--db", db,
        "--json", "-j", "1",
    )  # fmt: skip
    assert code == 0, out
    recs = json.loads(out)
    assert {(r["metric"], r["operation"]) for r in recs if r["metric"] in ("speed", "stack", "hashing")} == {
        ("speed", "verify"),
        ("stack", "verify"),
        ("hashing", "verify"),
    }
    speed = next(r for r in recs if r["metric"] == "speed")
    assert speed["context"]["command"].endswith("speed-n1-ops-verify-in.elf")
