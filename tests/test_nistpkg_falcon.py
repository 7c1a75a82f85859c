"""The Falcon round-3 NIST submission package dropped in unmodified (pqlab/nistpkg.py).

PQLAB_THIRDPARTY/falcon-round3-code.tar.gz is extracted into a temporary folder and its
KAT files (PQLAB_VECTORS/falcon-round3/KAT, from the same package) are put back where
the package keeps them, `falcon-round3/KAT/`. Then `pqlab test` and `pqlab kat --impl-path
<package>` must pass with no change to the package: falcon512fpu / falcon1024fpu (native
double) on host, mps2-an500 and m7-sim, falcon512cxm4 / falcon1024cxm4 (emulated floating
point, Cortex-M4 inline assembly; their Makefile says -mcpu=cortex-m4) on mps2-an386,
mps2-an500, m4-sim and m7-sim. The KAT output is compared record for record with the
package's .rsp: all 100 records on host, the first 2 under QEMU and (slow set) the first
one on the simulators.

Cost measured on this 2-core shared machine (user CPU seconds, build included): Falcon-512
`pqlab test` about 20 s on each simulator, Falcon-1024 about 45 s (m4-sim) and 49 s
(m7-sim); QEMU 2-10 s. Wall time of the default set (Falcon-512 matrix plus KAT, Falcon-1024
on host, mps2-an386 and mps2-an500) was 10 min with the simulator KAT records included, on
a loaded machine. So the default suite keeps the full Falcon-512 `pqlab test` matrix and
KATs off the simulators; Falcon-1024 on the simulators, falcon1024cxm4 on mps2-an500 and
the simulator KAT records are behind @pytest.mark.slow.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tarfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from extdata import thirdparty, vectors

from pqlab.cli import main
from pqlab.platforms import get_platform
from pqlab.registry import discover

MATRIX = {
    "falcon512fpu": ("host", "mps2-an500", "m7-sim"),
    "falcon512cxm4": ("mps2-an386", "mps2-an500", "m4-sim", "m7-sim"),
    "falcon1024fpu": ("host", "mps2-an500", "m7-sim"),
    "falcon1024cxm4": ("mps2-an386", "mps2-an500", "m4-sim", "m7-sim"),
}


# Falcon-1024 beyond one run per folder under QEMU costs more than it adds to the default suite
SLOW = {("falcon1024cxm4", "mps2-an500")}


def _cases():
    for impl, plats in MATRIX.items():
        for plat in plats:
            slow = (impl.startswith("falcon1024") and plat.endswith("-sim")) or (impl, plat) in SLOW
            yield pytest.param(impl, plat, marks=[pytest.mark.slow] if slow else [], id=f"{impl}-{plat}")


def _sim_cases():
    for impl, plats in MATRIX.items():
        for plat in plats:
            if plat.endswith("-sim"):
                yield pytest.param(impl, plat, id=f"{impl}-{plat}")


def kat_count(platform: str) -> int:
    kind = get_platform(platform).runner_kind
    return 100 if kind == "native" else 1 if kind == "pqlab-sim" else 2


def check_kat(package: Path, impl: str, platform: str) -> None:
    scheme = "falcon-512" if impl.startswith("falcon512") else "falcon-1024"
    n = kat_count(platform)
    code, out = pqlab("kat", scheme, "-i", impl, "--count", n, "--impl-path", package, "-p", platform, "-j", "1")
    assert code == 0, out
    rsp = f"KAT/{scheme.replace('-', '')}-KAT.rsp"
    assert f"ok        {scheme}/{impl} on {platform}: {n} records equal to the package's {rsp}" in out


def pqlab(*args) -> tuple[int, str]:
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


def _manifest_sha256() -> str:
    text = thirdparty("MANIFEST.md").read_text()
    line = next(x for x in text.splitlines() if x.startswith("| falcon-round3-code.tar.gz"))
    return re.findall(r"\b[0-9a-f]{64}\b", line)[-1]


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # external data (docs/vectors.md): skipped on a plain clone, required in CI
    tarball = thirdparty("falcon-round3-code.tar.gz")
    kat = vectors("falcon-round3/KAT/falcon512-KAT.rsp").parent
    assert hashlib.sha256(tarball.read_bytes()).hexdigest() == _manifest_sha256(), "tarball differs from MANIFEST.md"
    dest = tmp_path_factory.mktemp("falcon-pkg")
    with tarfile.open(tarball) as tar:
        tar.extractall(dest, filter="data")
    pkg = dest / "falcon-round3"
    (pkg / "KAT").mkdir()
    for rsp in kat.glob("*.rsp"):
        shutil.copy(rsp, pkg / "KAT" / rsp.name)
    return pkg


def test_package_found_as_a_new_user_drops_it_in(package: Path) -> None:
    found = {i.id: i for i in discover([package]) if i.package is not None}
    for n in (512, 1024):
        for v in ("int", "fpu", "cxm4", "avx2"):
            assert f"falcon-{n}/falcon{n}{v}" in found, sorted(found)
        assert found[f"falcon-{n}/falcon{n}cxm4"].arch == ("armv7e-m",)  # Makefile: -mcpu=cortex-m4
        assert found[f"falcon-{n}/falcon{n}avx2"].arch == ("x86_64",)  # Makefile: -mavx2
        fpu = found[f"falcon-{n}/falcon{n}fpu"]
        assert fpu.arch is None and fpu.sizes["CRYPTO_PUBLICKEYBYTES"] == {512: 897, 1024: 1793}[n]
        # rng.c is Falcon's own ChaCha20 PRNG (kept); nist.c declares NIST's randombytes
        assert "rng.c" in {s.name for s in fpu.sources} and fpu.excluded == ()
        assert [s.name for s in fpu.nist_randombytes] == ["nist.c"]


@pytest.mark.parametrize(("impl", "platform"), list(_cases()))
def test_falcon_package_test_and_kat(package: Path, impl: str, platform: str) -> None:
    scheme = "falcon-512" if impl.startswith("falcon512") else "falcon-1024"
    code, out = pqlab("test", scheme, "-i", impl, "--impl-path", package, "-p", platform, "-j", "2")
    assert code == 0, out
    assert re.search(rf"ok   {scheme}/{impl} on {platform} \(\d+ checks\)", out), out
    if get_platform(platform).runner_kind != "pqlab-sim":  # simulators: test_falcon_package_kat_on_simulators
        check_kat(package, impl, platform)


@pytest.mark.slow
@pytest.mark.parametrize(("impl", "platform"), list(_sim_cases()))
def test_falcon_package_kat_on_simulators(package: Path, impl: str, platform: str) -> None:
    """The simulators run the binaries QEMU runs in the default suite (same flags); the
    first KAT record there costs one more Falcon key generation, so it is a slow test."""
    check_kat(package, impl, platform)


@pytest.mark.slow
@pytest.mark.parametrize(("impl", "platform"), [("falcon512cxm4", "mps2-an386"), ("falcon512fpu", "mps2-an500")])
def test_falcon_package_full_kat_on_qemu(package: Path, impl: str, platform: str) -> None:
    code, out = pqlab("kat", "falcon-512", "-i", impl, "--impl-path", package, "-p", platform, "-j", "1")
    assert code == 0, out
    assert "100 records equal to the package's KAT/falcon512-KAT.rsp" in out
