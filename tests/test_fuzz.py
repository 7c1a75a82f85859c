# SPDX-License-Identifier: MIT
"""Fuzzing (docs/fuzzing.md): every fuzz target (fuzz/<family>.c: ML-KEM decapsulation and
key inputs, ML-DSA and FN-DSA decoders and verification, SLH-DSA signature parsing and
verification, HQC decapsulation of arbitrary ciphertexts and secret keys and encapsulation
to arbitrary public keys) is built by pqlab's own build as the program "fuzz" of an
implementation on the platform host-fuzz (AddressSanitizer + UBSan), and runs its mutation loop (fuzz/loop.c) for a
bounded time through the ordinary runner and protocol parser. Any sanitizer report, failed
property (a modified signature that verifies, a wrong implicit-rejection key, a key check that
disagrees with the standard) or hang aborts the program and fails the test.

The default suite runs one parameter set per family for a few seconds each; the slow campaign
(`pytest -m slow tests/test_fuzz.py`, PQLAB_FUZZ_SECONDS seconds per target, default 60) runs
every parameter set."""

from __future__ import annotations

import os
import time

import pytest

from pqlab.build import build
from pqlab.platforms import get_platform
from pqlab.registry import discover
from pqlab.runner import RunError, run

# one parameter set per family (both hash families of SLH-DSA): the default suite
DEFAULT = [
    "ml-kem-768/ref",
    "ml-dsa-44/ref",
    "fn-dsa-512/ref",
    "slh-dsa-shake-128f/ref",
    "slh-dsa-sha2-128f/ref",
    "hqc-128/ref",
]
SECONDS = 2.0
FAMILIES = {"mlkem", "mldsa", "fndsa", "slhdsa", "hqc"}


def fuzzable() -> list:
    return [i for i in discover() if i.own and i.driver in FAMILIES and i.name == "ref"]


@pytest.fixture(scope="module")
def plat():
    return get_platform("host-fuzz")


def _build(plat, ids: list[str]) -> dict:
    impls = [i for i in fuzzable() if i.id in ids]
    assert sorted(i.id for i in impls) == sorted(ids)
    res = build(plat, impls, ["fuzz"], jobs=2)
    for i in impls:
        assert res[i.id].error is None, res[i.id].error
    return {i.id: res[i.id].elf["fuzz"] for i in impls}


@pytest.fixture(scope="module")
def default_targets(plat) -> dict:
    return _build(plat, DEFAULT)


def _fuzz(plat, elf, seconds: float, seed: int) -> dict[str, str]:
    t0 = time.monotonic()
    out = run(plat, elf, "fuzz", stdin=f"{seconds} {seed}\n".encode(), timeout=seconds + 300)
    info = {f[0]: f[1] for f in out.of("info")}
    assert [f for f in out.of("test")] == [["fuzz", "ok"]]
    assert int(info["executions"]) > 0 and int(info["seeds"]) >= 3, info
    assert float(info["seconds"]) >= seconds * 0.9
    assert time.monotonic() - t0 < seconds + 120  # set-up and the loop, not an unbounded run
    return info


def test_every_family_has_a_target() -> None:
    families = {i.driver for i in discover() if i.own and i.driver}
    assert FAMILIES <= families, families
    assert {i.driver for i in fuzzable() if i.id in DEFAULT} == FAMILIES


@pytest.mark.parametrize("impl_id", DEFAULT)
def test_fuzz_target(plat, default_targets: dict, impl_id: str) -> None:
    info = _fuzz(plat, default_targets[impl_id], SECONDS, seed=1)
    print(f"{impl_id}: {info['executions']} executions, {info['executions_per_s']}/s")


def test_bad_loop_input_is_refused(plat, default_targets: dict) -> None:
    with pytest.raises(RunError, match="failed"):
        run(plat, default_targets["ml-kem-768/ref"], "fuzz", stdin=b"not a number\n", timeout=120)


@pytest.mark.slow
def test_fuzz_campaign_every_parameter_set(plat) -> None:
    seconds = float(os.environ.get("PQLAB_FUZZ_SECONDS", "60"))
    targets = _build(plat, [i.id for i in fuzzable()])
    for impl_id, elf in sorted(targets.items()):
        info = _fuzz(plat, elf, seconds, seed=int(time.time()))
        print(f"{impl_id}: {info['executions']} executions, {info['executions_per_s']}/s")


def test_fuzz_finds_a_broken_check(plat, tmp_path) -> None:
    # the loop must be able to fail: ML-KEM-768 whose encapsulation-key check accepts every key
    ref = next(i for i in fuzzable() if i.id == "ml-kem-768/ref")
    d = tmp_path / "crypto_kem" / "ml-kem-768" / "brokencheck"
    d.mkdir(parents=True)
    api = (ref.dir / "api.h").read_text()
    line = "#define crypto_kem_check_ek PQLAB_NAMESPACE(crypto_kem_check_ek)"
    assert line in api
    (d / "api.h").write_text(api.replace(line, "#define crypto_kem_check_ek brokencheck_check_ek"))
    (d / "broken.c").write_text(
        "#include <stdint.h>\nint brokencheck_check_ek(const uint8_t *ek);\n"
        "int brokencheck_check_ek(const uint8_t *ek)\n{\n    (void)ek;\n    return 0;\n}\n"
    )
    lib = ref.dir.parent.parent.parent / "mlkem"
    (d / "pqlab.toml").write_text(
        f'sources = ["{lib}/*.c", "broken.c"]\ninclude = ["{lib}"]\n'
        'cflags = ["-DPQLAB_MLKEM_K=3", "-DPQLAB_NS=pqlab_brokencheck_"]\nown = true\ndriver = "mlkem"\n'
    )
    impl = next(i for i in discover([tmp_path]) if i.id == "ml-kem-768/brokencheck")
    res = build(plat, [impl], ["fuzz"], jobs=2)[impl.id]
    assert res.error is None, res.error
    with pytest.raises(RunError, match="property failed: encapsulation-key modulus check disagrees"):
        run(plat, res.elf["fuzz"], "fuzz", stdin=b"60 1\n", timeout=300)
