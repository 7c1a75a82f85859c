"""HQC (lib/hqc) on the Cortex-M4 platforms through the ordinary commands: `pqlab test` (round
trips, tampered ciphertexts, canaries) and `pqlab kat`, whose records must equal the host's.
Default: HQC-128 ref on QEMU mps2-an386; `-m slow`: all three sets, ref (with the armv7em
kernels) and smallstack, on mps2-an386 and m4-sim."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_runner import pqlab, pqlab_stdout


def check(sets: list[str], platforms: list[str], tmp_path: Path, count: int, impls: tuple[str, ...] = ("ref",)) -> None:
    assert shutil.which("qemu-system-arm"), "qemu-system-arm is required"
    args = [a for p in platforms for a in ("-p", p)]
    iargs = [a for i in impls for a in ("-i", i)]
    code, out = pqlab("test", *sets, *iargs, *args, "-j", "1")
    assert code == 0, out
    assert out.count("ok   hqc-") == len(sets) * len(platforms) * len(impls), out
    code, text = pqlab_stdout(
        "kat", *sets, *iargs, "-p", "host", *args, "-j", "1", "--count", count, "-o", tmp_path, "--json"
    )
    rows = json.loads(text)
    assert len(rows) == len(sets) * (len(platforms) + 1) * len(impls), rows
    # record 0 against PQClean's published nistkat-sha256 (HQC PRNG; pqlab/data/kat.toml)
    assert code == 0 and {r["verdict"] for r in rows} == {"ok"}, text
    for s in sets:
        host = (tmp_path / f"{s}-ref-host.rsp").read_text()
        assert host.count("count = ") == count
        for i in impls:
            for p in ["host", *platforms]:
                assert (tmp_path / f"{s}-{i}-{p}.rsp").read_text() == host, (s, i, p)


def test_hqc128_on_mps2_an386(tmp_path: Path) -> None:
    check(["hqc-128"], ["mps2-an386"], tmp_path, 2)


@pytest.mark.slow
def test_all_sets_on_m4_platforms(tmp_path: Path) -> None:
    check(["hqc-128", "hqc-192", "hqc-256"], ["mps2-an386", "m4-sim"], tmp_path, 3, ("ref", "smallstack"))
