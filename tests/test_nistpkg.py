"""NIST submission packages dropped in unmodified (pqlab/nistpkg.py).

The demo package tests/nistpkg/demosig-nist (an INSECURE toy, see its api.h) is written
the way submission folders are: NIST api.h with unsigned long long lengths, its own rng.h
declaring NIST's randombytes, an OpenSSL rng.c and a PQCgenKAT_sign.c that must be left
out, a Makefile; one of its files draws randomness through PQClean's size_t randombytes.h
instead. It must pass `pqlab test` on every platform next to the size_t-style demo of
tests/foreign, and its `pqlab kat` output must equal a .rsp computed here in Python
(NIST AES-256-CTR DRBG model of test_common_aes.py, AES from `cryptography`, SHAKE256
from hashlib): on Cortex-M the unmapped NIST prototype faults (measured before the fix:
MemManage on mps2-an386, truncated run on m4-sim).
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from test_common_aes import RefDrbg

from pqlab import PqlabError, nistpkg
from pqlab.cli import main
from pqlab.platforms import all_platforms
from pqlab.registry import discover

HERE = Path(__file__).parent
DEMO = HERE / "nistpkg" / "demosig-nist"
DEMO_REF = DEMO / "Reference_Implementation" / "demosig"
FOREIGN = HERE / "foreign"
# every platform that runs the test program (host-ct is the host build under valgrind; boards need hardware;
# aarch64-linux needs an AArch64 machine (runs_here); the Verilated RTL platforms run 0.6-1.6 M cycles/s, minutes for the demo package's runs: their harness
# paths are tests/test_cv32e40p_rtl.py's)
PLATFORMS = sorted(
    n
    for n, p in all_platforms().items()
    if n != "host-ct" and not p.needs_board and p.runner_kind != "verilator" and p.runs_here
)


def package_impls(root: Path) -> list:
    return [i for i in discover([root]) if i.package is not None]


def pqlab(*args) -> tuple[int, str]:
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


# --- layout and source plan ------------------------------------------------------------------


def test_layout_names(tmp_path: Path) -> None:
    two = tmp_path / "pkg" / "Optimized_Implementation" / "falcon512" / "falcon512fpu"
    one = tmp_path / "pkg" / "Reference_Implementation" / "kyber512"
    add = tmp_path / "pkg" / "Additional_Implementations" / "x"
    for d in (two, one, add):
        d.mkdir(parents=True)
    assert nistpkg.layout(two, "Falcon-512") == nistpkg.Layout(tmp_path / "pkg", "falcon-512", "falcon512fpu")
    assert nistpkg.layout(one, None) == nistpkg.Layout(tmp_path / "pkg", "kyber512", "ref")
    assert nistpkg.layout(add, "Some KEM 1") == nistpkg.Layout(tmp_path / "pkg", "some-kem-1", "add")
    assert nistpkg.layout(tmp_path / "pkg", "X") is None


def test_demo_source_plan() -> None:
    (impl,) = package_impls(DEMO)
    assert (impl.kind, impl.name, impl.package) == ("sign", "ref", DEMO.resolve())
    assert sorted(s.name for s in impl.sources) == ["seed.c", "sign.c"]
    assert dict(impl.excluded).keys() == {"rng.c", "PQCgenKAT_sign.c"}
    assert "randombytes" in dict(impl.excluded)["rng.c"] and "main" in dict(impl.excluded)["PQCgenKAT_sign.c"]
    # sign.c declares NIST's randombytes through rng.h; seed.c uses the size_t one
    assert [s.name for s in impl.nist_randombytes] == ["sign.c"]
    assert impl.openssl == () and impl.arch is None


def test_falcon_rng_c_is_kept(tmp_path: Path) -> None:
    """Only a file that defines randombytes is left out: Falcon's rng.c is its own PRNG."""
    d = tmp_path / "Optimized_Implementation" / "p" / "v"
    d.mkdir(parents=True)
    (d / "api.h").write_text(
        '#define CRYPTO_ALGNAME "P"\nint crypto_sign_keypair(unsigned char *pk, unsigned char *sk);\n'
    )
    (d / "rng.c").write_text("void prng_refill(void *p)\n{\n}\n")
    (d / "nist.c").write_text(
        "int randombytes(unsigned char *x, unsigned long long xlen);\nint f(void) { return 0; }\n"
    )
    (d / "Makefile").write_text("CC = arm-linux-gcc\nCFLAGS = -W -Wall -O2 -mcpu=cortex-m4\n")
    (impl,) = package_impls(tmp_path)
    assert sorted(s.name for s in impl.sources) == ["nist.c", "rng.c"] and impl.excluded == ()
    assert [s.name for s in impl.nist_randombytes] == ["nist.c"]
    plats = all_platforms()
    assert impl.arch == ("armv7e-m",)
    assert impl.runs_on(plats["mps2-an386"]) and not impl.runs_on(plats["host"])
    (d / "Makefile").write_text("CFLAGS = -O2 -mavx2\n")
    (impl,) = package_impls(tmp_path)
    assert impl.runs_on(plats["host"]) and not impl.runs_on(plats["m4-sim"])


def test_openssl_folder_refused(tmp_path: Path) -> None:
    pkg = tmp_path / "sslsig"
    shutil.copytree(DEMO, pkg)
    sign = pkg / "Reference_Implementation" / "demosig" / "sign.c"
    sign.write_text(sign.read_text().replace('#include "fips202.h"', '#include "fips202.h"\n#include <openssl/sha.h>'))
    (impl,) = package_impls(pkg)
    assert impl.openssl == ("sign.c: <openssl/sha.h>",)
    code, out = pqlab("list", "demosig-nist", "--impl-path", pkg)
    assert code == 0, out
    assert "note: demosig-nist/ref: needs OpenSSL (sign.c: <openssl/sha.h>): its builds are refused" in out
    assert "note: demosig-nist/ref: rng.c left out: defines randombytes_init()" in out
    code, out = pqlab("test", "demosig-nist", "--impl-path", pkg, "-p", "host", "-j", "1")
    assert code == 1
    assert "refused: the folder needs OpenSSL for its own code (sign.c: <openssl/sha.h>)" in out


def test_compat_rng_h_for_a_folder_without_one(tmp_path: Path) -> None:
    """A folder that includes rng.h without carrying it gets lib/compat/rng.h (NIST prototype)."""
    pkg = tmp_path / "norng"
    shutil.copytree(DEMO, pkg)
    (pkg / "Reference_Implementation" / "demosig" / "rng.h").unlink()
    (pkg / "Reference_Implementation" / "demosig" / "rng.c").unlink()
    (pkg / "Reference_Implementation" / "demosig" / "PQCgenKAT_sign.c").unlink()
    code, out = pqlab("test", "demosig-nist", "--impl-path", pkg, "-p", "mps2-an386", "-j", "1")
    assert code == 0, out


# --- .rsp comparison ---------------------------------------------------------------------------

RSP = "# X\n\ncount = 0\nseed = AA\npk = 0102\n\ncount = 1\nseed = BB\npk = 0304\n\n"


def test_compare_rsp(tmp_path: Path) -> None:
    ref = tmp_path / "KAT" / "x.rsp"
    ref.parent.mkdir()
    ref.write_text(RSP)
    assert nistpkg.compare_rsp(RSP, ref, 2) == (True, "2 records equal to the package's KAT/x.rsp")
    ok, why = nistpkg.compare_rsp(RSP.replace("0304", "0305"), ref, 2)
    assert not ok and why.startswith("first differing record count = 1: field pk differs at character 3")
    assert nistpkg.compare_rsp(RSP.replace("0304", "0305"), ref, 1)[0]
    assert not nistpkg.compare_rsp(RSP, ref, 3)[0]
    assert not nistpkg.compare_rsp(RSP.replace("# X", "# Y"), ref, 1)[0]


def test_kat_reference_by_key_sizes(tmp_path: Path) -> None:
    impl = tmp_path / "pkg" / "Reference_Implementation" / "a"
    impl.mkdir(parents=True)
    kat = tmp_path / "pkg" / "KAT"
    kat.mkdir()
    (kat / "small.rsp").write_text(RSP)
    (kat / "other.rsp").write_text(RSP.replace("0102", "010203"))
    assert nistpkg.kat_reference(impl, "a", "ref", {"CRYPTO_PUBLICKEYBYTES": 2}) == kat / "small.rsp"
    assert nistpkg.kat_reference(impl, "a", "ref", {"CRYPTO_PUBLICKEYBYTES": 5}) is None
    (kat / "again.rsp").write_text(RSP.replace("AA", "CC"))
    with pytest.raises(PqlabError, match="several KAT files"):
        nistpkg.kat_reference(impl, "a", "ref", {"CRYPTO_PUBLICKEYBYTES": 2})


# --- the demo on every platform ----------------------------------------------------------------


def _aes(key: bytes, block: bytes) -> bytes:
    return Cipher(algorithms.AES(key), modes.ECB()).encryptor().update(block)


def demo_rsp(count: int) -> str:
    """The demo's PQCsignKAT .rsp as NIST's generator would write it, from a Python model."""
    master = RefDrbg(bytes(range(48)))
    out = ["# DemoSig-NIST", ""]
    for i in range(count):
        seed = master.generate(48)
        msg = master.generate(33 * (i + 1))
        rec = RefDrbg(seed)
        key = rec.generate(32)
        ctr = b"demosig!" + (64).to_bytes(4, "big")
        pk = _aes(key, ctr + bytes(4)) + _aes(key, ctr + (1).to_bytes(4, "big"))
        nonce = rec.generate(40)
        tag = hashlib.shake_256(pk + nonce + msg).digest(32)
        sm = nonce + msg + tag
        out += [
            f"count = {i}",
            f"seed = {seed.hex().upper()}",
            f"mlen = {len(msg)}",
            f"msg = {msg.hex().upper()}",
            f"pk = {pk.hex().upper()}",
            f"sk = {(key + pk).hex().upper()}",
            f"smlen = {len(sm)}",
            f"sm = {sm.hex().upper()}",
            "",
        ]
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def demo_pkg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo package with its KAT/ folder (as NIST packages ship it) and build leftovers."""
    pkg = tmp_path_factory.mktemp("nistpkg") / "demosig-nist"
    shutil.copytree(DEMO, pkg)
    (pkg / "KAT").mkdir()
    (pkg / "KAT" / "PQCsignKAT_64.rsp").write_text(demo_rsp(4))
    build = pkg / "Reference_Implementation" / "demosig" / "build"
    build.mkdir()
    (build / "sign.o").write_bytes(b"\x7fELF not an object")
    (build / "kat").write_bytes(b"#!/bin/false\n")
    return pkg


@pytest.mark.parametrize("platform", PLATFORMS)
def test_both_randombytes_styles_on_every_platform(demo_pkg: Path, platform: str) -> None:
    """NIST (unsigned long long) and PQClean/mupq (size_t) randombytes, both styles of
    crypto_sign lengths, side by side; the KAT equals the package's .rsp."""
    code, out = pqlab(
        "test",
        "demosig-nist",
        "demosig-mupq",
        "--impl-path",
        demo_pkg,
        "--impl-path",
        FOREIGN,
        "-p",
        platform,
        "-j",
        "2",
    )
    assert code == 0, out
    assert f"ok   demosig-nist/ref on {platform}" in out and f"ok   demosig-mupq/ref on {platform}" in out
    code, out = pqlab("kat", "demosig-nist", "--count", "4", "--impl-path", demo_pkg, "-p", platform, "-j", "1")
    assert code == 0, out
    assert f"ok        demosig-nist/ref on {platform}: 4 records equal to the package's KAT/PQCsignKAT_64.rsp" in out


def test_kat_reports_first_differing_record(demo_pkg: Path, tmp_path: Path) -> None:
    pkg = tmp_path / "bad"
    shutil.copytree(demo_pkg, pkg)
    rsp = pkg / "KAT" / "PQCsignKAT_64.rsp"
    lines = rsp.read_text().splitlines()
    i = [n for n, line in enumerate(lines) if line.startswith("sm = ")][2]  # record count = 2
    lines[i] = lines[i][:-1] + ("0" if lines[i][-1] != "0" else "1")
    rsp.write_text("\n".join(lines) + "\n")
    code, out = pqlab("kat", "demosig-nist", "--count", "4", "--impl-path", pkg, "-p", "host", "-j", "1")
    assert code == 1, out
    assert "FAIL      demosig-nist/ref on host: first differing record count = 2: field sm differs" in out


def test_only_unconditional_text_counts(tmp_path: Path) -> None:
    """A main under #if (pqm4's BIKE DEBUGTEST), an OpenSSL include or a NIST randombytes
    declaration in one branch of a configuration switch (pqm4's UOV) do not count; the same
    inside a header's include guard does."""
    d = tmp_path / "Reference_Implementation" / "p"
    d.mkdir(parents=True)
    (d / "api.h").write_text("int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);\n")
    (d / "cfg.h").write_text(
        "#ifndef CFG_H\n#define CFG_H\n#if defined(USE_SSL)\n#include <openssl/evp.h>\n"
        "#else\nint randombytes(unsigned char *x, unsigned long long xlen);\n#endif\n#endif\n"
    )
    (d / "a.c").write_text(
        '#include "cfg.h"\nint f(void) { return 1; }\n#if defined(DEBUGTEST)\nint main()\n{\n}\n#endif\n'
    )
    (d / "rng.h").write_text(
        "#ifndef RNG_H\n#define RNG_H\nint randombytes(unsigned char *x, unsigned long long xlen);\n#endif\n"
    )
    (d / "b.c").write_text('#include "rng.h"\nint g(void) { return 0; }\n')
    (impl,) = package_impls(tmp_path)
    assert [s.name for s in impl.sources] == ["a.c", "b.c"] and impl.excluded == ()
    assert impl.openssl == () and [s.name for s in impl.nist_randombytes] == ["b.c"]
