"""The schemes on AArch64 with the `neon` backend (lib/native/aarch64, docs/neon.md), on both
QEMU CPU models: aarch64-qemu (Cortex-A72, no SHA-3 instructions: the FEAT_SHA3 Keccak kernels
decline and the portable / plain-NEON code runs) and aarch64-qemu-max (SHA-3 instructions
present: they run). Bit-exactness with the portable code: the deterministic outputs (pqlab
vectors) agree with the hashes recorded from the portable build (pqlab/data/vectors.json), the
KAT files reproduce, and the functional tests pass. A fast sample runs in the default suite;
the whole list of the issue is @pytest.mark.slow."""

from __future__ import annotations

import json
import re

import pytest
from cli_runner import pqlab, pqlab_stdout

PLATFORMS = ["aarch64-qemu", "aarch64-qemu-max"]
FAST = ["ml-kem-768", "ml-dsa-44", "slh-dsa-shake-128f"]
ALL = [
    "ml-kem-512",
    "ml-kem-768",
    "ml-kem-1024",
    "ml-dsa-44",
    "ml-dsa-65",
    "ml-dsa-87",
    "slh-dsa-shake-128f",
    "slh-dsa-sha2-128f",
    "fn-dsa-512",
]


def _plat_args() -> list[str]:
    return [x for p in PLATFORMS for x in ("-p", p)]


def check_vectors(schemes: list[str]) -> None:
    rc, out = pqlab_stdout("vectors", *schemes, "--json", "-j", "1", *_plat_args())
    assert rc == 0, out
    rows = json.loads(out[out.index("[") :])
    assert {r["scheme"] for r in rows} == set(schemes)
    for r in rows:
        assert r["agree"] and r["matches_record"] and r["expected"], r


# the schemes whose KAT files have a published reference (pqlab kat says "unchecked", and fails,
# for the others: SLH-DSA has none)
KAT = {s for s in ALL if not s.startswith("slh-dsa")}


def check_test_and_kat(schemes: list[str]) -> None:
    for cmd in ("test", "kat"):
        todo = [s for s in schemes if cmd == "test" or s in KAT]
        rc, out = pqlab(cmd, *todo, "-j", "1", *_plat_args())
        assert rc == 0, out
        for s in todo:
            for p in PLATFORMS:  # each scheme ran on both CPU models (one implementation at least)
                pat = re.compile(rf"^ok\s+{re.escape(s)}/\S+ on {re.escape(p)}(:|\s|$)", re.M)
                assert pat.search(out), (cmd, s, p, out)


def test_fast_sample_both_cpu_models() -> None:
    check_vectors(FAST)
    check_test_and_kat(["ml-kem-768"])


@pytest.mark.slow
def test_all_schemes_both_cpu_models() -> None:
    check_vectors(ALL)
    check_test_and_kat(ALL)


# FN-DSA's `fpu` implementation (native doubles) is the one whose FFT layer the backend replaces
# (lib/native/aarch64/fndsa_fft.c, PQLAB_FNDSA_FFT_NATIVE); ref and fpu-ct keep the emulated fpr
FNDSA_FPU = ["fn-dsa-512", "fn-dsa-1024"]


def _ok(out: str, scheme: str, impl: str, platform: str) -> bool:
    return bool(re.search(rf"^ok\s+{re.escape(scheme)}/{re.escape(impl)} on {re.escape(platform)}(:|\s|$)", out, re.M))


def test_fndsa_fpu_kat_sample_with_neon_fft() -> None:
    """The first KAT records of Falcon-512 `fpu` on the Cortex-A72 model, signing through the
    NEON FFT layer: the signatures must be the published ones bit for bit."""
    rc, out = pqlab("kat", "fn-dsa-512", "-i", "fpu", "-p", "aarch64-qemu", "--count", "2", "-j", "1")
    assert rc == 0, out
    assert _ok(out, "fn-dsa-512", "fpu", "aarch64-qemu"), out


@pytest.mark.slow
def test_fndsa_fpu_full_with_neon_fft_both_cpu_models() -> None:
    """Falcon-512 and -1024 `fpu` (the NEON FFT layer) on both CPU models: all 100 KAT records,
    pqlab test and the recorded vector hashes."""
    rc, out = pqlab_stdout("vectors", *FNDSA_FPU, "-i", "fpu", "--json", "-j", "1", *_plat_args())
    assert rc == 0, out
    rows = json.loads(out[out.index("[") :])
    assert {r["scheme"] for r in rows} == set(FNDSA_FPU), rows
    for r in rows:
        assert r["agree"] and r["matches_record"] and r["expected"], r
        assert set(r["hashes"]) == {f"fpu@{p}" for p in PLATFORMS}, r
    for cmd in ("kat", "test"):
        rc, out = pqlab(cmd, *FNDSA_FPU, "-i", "fpu", "-j", "1", *_plat_args())
        assert rc == 0, out
        for s in FNDSA_FPU:
            for p in PLATFORMS:
                assert _ok(out, s, "fpu", p), (cmd, s, p, out)


HAWK = ["hawk-512", "hawk-1024"]


@pytest.mark.slow
def test_hawk_with_the_backend_both_cpu_models() -> None:
    """Hawk-512 and -1024, `ref` and `fpu` (the NEON FFT layer), with the backend's Hawk sampler,
    GF(2) product, mod-p NTT and four-way Keccak, on both CPU models: all 100 KAT records equal
    to the official files (only the whole file has a reference), pqlab test and the recorded
    vector hashes."""
    rc, out = pqlab_stdout("vectors", *HAWK, "--json", "-j", "1", *_plat_args())
    assert rc == 0, out
    rows = json.loads(out[out.index("[") :])
    assert {r["scheme"] for r in rows} == set(HAWK), rows
    for r in rows:
        assert r["agree"] and r["matches_record"] and r["expected"], r
        assert set(r["hashes"]) == {f"{i}@{p}" for i in ("ref", "fpu") for p in PLATFORMS}, r
    for cmd in ("kat", "test"):
        rc, out = pqlab(cmd, *HAWK, "-j", "1", *_plat_args())
        assert rc == 0, out
        for s in HAWK:
            for i in ("ref", "fpu"):
                for p in PLATFORMS:
                    assert _ok(out, s, i, p), (cmd, s, i, p, out)
