"""The foreign-style demo implementations in tests/foreign build unmodified against
lib/compat (pqm4 plain names, PQClean hard-coded prefix, mupq MUPQ_NAMESPACE), run
correctly, detect tampering, follow their symbol conventions, tolerate their own
compiler warnings and honour config.mk."""

from __future__ import annotations

import ctypes
import re
import shlex
import subprocess
from pathlib import Path

import pytest
from hostlib import ROOT, build_shared

from pqlab import PqlabError
from pqlab.build import build_program
from pqlab.platforms import get_platform

SZ = ctypes.c_size_t
FOREIGN = ROOT / "tests" / "foreign"
COMMON = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "lib" / "common").glob("*.c"))
COMPAT = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "lib" / "compat").glob("*.c"))
MUPQ_PREFIX = "MUPQ_demosig_mupq_ref_"

STUBS = r"""
#include <stdint.h>
#include <stddef.h>
#include "drbg.h"
static pqlab_drbg_state rng;
static int ready;
void stub_seed(const uint8_t e[48]) { pqlab_drbg_init(&rng, e, NULL); ready = 1; }
int pqlab_randombytes(uint8_t *out, size_t n)
{
    if (!ready) { uint8_t e[48] = {0}; stub_seed(e); }
    pqlab_drbg_generate(&rng, out, n);
    return 0;
}
void pqlab_hal_setup(void) {}
void pqlab_hal_send(const char *b, size_t n) { (void)b; (void)n; }
uint64_t pqlab_hal_cycles(void) { return 0; }
void pqlab_hal_stack_spray(void) {}
size_t pqlab_hal_stack_used(void) { return 0; }
"""

IMPLS = {
    "demokem-plain": FOREIGN / "crypto_kem" / "demokem-plain" / "ref",
    "demokem-pqclean": FOREIGN / "crypto_kem" / "demokem-pqclean" / "clean",
    "demosig-mupq": FOREIGN / "crypto_sign" / "demosig-mupq" / "ref",
}


def api_defines(folder: Path) -> dict[str, str]:
    return dict(re.findall(r"^#define[ \t]+(\w+)[ \t]+(.+?)[ \t]*$", (folder / "api.h").read_text(), re.MULTILINE))


def config_flags(folder: Path) -> list[str]:
    """CFLAGS/CPPFLAGS additions of a pqm4-style config.mk."""
    cfg = folder / "config.mk"
    if not cfg.exists():
        return []
    flags: list[str] = []
    for line in cfg.read_text().splitlines():
        m = re.match(r"^\s*(?:CFLAGS|CPPFLAGS)\s*\+?=\s*(.*)$", line)
        if m:
            flags += shlex.split(m.group(1))
    return flags


def folder_flags(name: str) -> list[str]:
    folder = IMPLS[name]
    flags = [f"-I{folder}", f"-I{ROOT / 'lib' / 'compat'}", *config_flags(folder)]
    if name == "demosig-mupq":
        flags.append(f"-DMUPQ_NAMESPACE={MUPQ_PREFIX}")
    return flags


@pytest.fixture(scope="module")
def stubs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("foreign") / "stubs.c"
    p.write_text(STUBS)
    return p


def load(name: str, stubs: Path) -> ctypes.CDLL:
    folder = IMPLS[name]
    srcs = sorted(str(p.relative_to(ROOT)) for p in folder.glob("*.c"))
    # a foreign folder's own warnings must not fail its build: -Wno-error
    return build_shared(
        f"foreign-{name}",
        [*srcs, *COMPAT, *COMMON, stubs],
        cflags=[*folder_flags(name), "-Wno-error"],
        include=[str(folder.relative_to(ROOT)), "lib/compat"],
    )


def kem_api(lib: ctypes.CDLL, defs: dict[str, str], prefix: str) -> tuple:  # type: ignore[type-arg]
    sizes = {
        k: int(defs[prefix + "CRYPTO_" + k]) for k in ("PUBLICKEYBYTES", "SECRETKEYBYTES", "CIPHERTEXTBYTES", "BYTES")
    }
    fns = tuple(getattr(lib, prefix + "crypto_kem_" + f) for f in ("keypair", "enc", "dec"))
    return sizes, fns


@pytest.mark.parametrize("name,prefix", [("demokem-plain", ""), ("demokem-pqclean", "PQCLEAN_DEMOKEMPQCLEAN_CLEAN_")])
def test_kem_round_trip_and_tampering(name: str, prefix: str, stubs: Path) -> None:
    lib = load(name, stubs)
    sizes, (keypair, enc, dec) = kem_api(lib, api_defines(IMPLS[name]), prefix)
    pk = ctypes.create_string_buffer(sizes["PUBLICKEYBYTES"])
    sk = ctypes.create_string_buffer(sizes["SECRETKEYBYTES"])
    pk2 = ctypes.create_string_buffer(sizes["PUBLICKEYBYTES"])
    sk2 = ctypes.create_string_buffer(sizes["SECRETKEYBYTES"])
    ct = ctypes.create_string_buffer(sizes["CIPHERTEXTBYTES"])
    ss1 = ctypes.create_string_buffer(sizes["BYTES"])
    ss2 = ctypes.create_string_buffer(sizes["BYTES"])
    assert keypair(pk2, sk2) == 0
    for it in range(20):
        assert keypair(pk, sk) == 0
        assert enc(ct, ss1, pk) == 0
        assert dec(ss2, ct, sk) == 0
        assert ss1.raw == ss2.raw and ss1.raw != bytes(len(ss1))
        # every ciphertext byte matters
        for pos in range(it % 4, len(ct), 4):
            bad = bytearray(ct.raw)
            bad[pos] ^= 1 << (it % 8)
            assert dec(ss2, bytes(bad), sk) == 0
            assert ss2.raw != ss1.raw, (name, pos)
        # a wrong secret key gives another key
        assert dec(ss2, ct, sk2) == 0
        assert ss2.raw != ss1.raw


def test_signature_round_trip_and_tampering(stubs: Path) -> None:
    lib = load("demosig-mupq", stubs)
    d = api_defines(IMPLS["demosig-mupq"])
    pkb, skb, sigb = (int(d["CRYPTO_" + k]) for k in ("PUBLICKEYBYTES", "SECRETKEYBYTES", "BYTES"))
    f = {n: getattr(lib, MUPQ_PREFIX + "crypto_sign" + n) for n in ("_keypair", "_signature", "_verify", "", "_open")}
    pk, sk = ctypes.create_string_buffer(pkb), ctypes.create_string_buffer(skb)
    pk2, sk2 = ctypes.create_string_buffer(pkb), ctypes.create_string_buffer(skb)
    assert f["_keypair"](pk, sk) == 0 and f["_keypair"](pk2, sk2) == 0
    for mlen in [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]:
        m = bytes((7 * i + mlen) & 0xFF for i in range(mlen))
        sm = ctypes.create_string_buffer(sigb + mlen)
        smlen, mlen_out = SZ(0), SZ(0)
        assert f[""](sm, ctypes.byref(smlen), m, SZ(mlen), sk) == 0
        assert smlen.value == sigb + mlen
        out = ctypes.create_string_buffer(sigb + mlen)
        assert f["_open"](out, ctypes.byref(mlen_out), sm, smlen, pk) == 0
        assert out.raw[: mlen_out.value] == m and mlen_out.value == mlen
        assert f["_verify"](sm, SZ(sigb), m, SZ(mlen), pk) == 0
        # tampered signature byte, tampered message, wrong key, wrong length
        for pos in (0, sigb // 2, sigb - 1, sigb + mlen - 1):
            bad = bytearray(sm.raw)
            bad[pos] ^= 0x10
            assert f["_open"](out, ctypes.byref(mlen_out), bytes(bad), smlen, pk) != 0
            assert mlen_out.value == 0
        assert f["_verify"](sm, SZ(sigb), m + b"x", SZ(mlen + 1), pk) != 0
        assert f["_verify"](sm, SZ(sigb), m, SZ(mlen), pk2) != 0
        assert f["_verify"](sm, SZ(sigb - 1), m, SZ(mlen), pk) != 0
    # detached signature equals the attached one
    sig, siglen = ctypes.create_string_buffer(sigb), SZ(0)
    assert f["_signature"](sig, ctypes.byref(siglen), b"abc", SZ(3), sk) == 0
    assert siglen.value == sigb and f["_verify"](sig, siglen, b"abc", SZ(3), pk) == 0


def compile_objects(name: str, platform: str, tmp: Path, extra: tuple[str, ...] = ("-Wno-error",)) -> list[Path]:
    """The folder's sources compiled by pqlab's build for `platform` (as foreign code: its
    warnings do not fail the build unless `extra` drops -Wno-error)."""
    srcs = sorted(IMPLS[name].glob("*.c"))
    return build_program(get_platform(platform), tmp, srcs, cflags=[*extra, *folder_flags(name)], kind="objects")


def global_symbols(objs: list[Path]) -> set[str]:
    syms: set[str] = set()
    for obj in objs:
        res = subprocess.run(["nm", "-g", "--defined-only", str(obj)], capture_output=True, text=True, check=True)
        syms.update(line.split()[-1] for line in res.stdout.splitlines() if line.strip())
    return syms


@pytest.mark.parametrize(
    "name,check",
    [
        ("demokem-plain", lambda s: {"crypto_kem_keypair", "crypto_kem_enc", "crypto_kem_dec"} <= s),
        (
            "demokem-pqclean",
            lambda s: (
                all(x.startswith("PQCLEAN_DEMOKEMPQCLEAN_CLEAN_") for x in s)
                and "PQCLEAN_DEMOKEMPQCLEAN_CLEAN_crypto_kem_dec" in s
            ),
        ),
        (
            "demosig-mupq",
            lambda s: (
                all(x.startswith(MUPQ_PREFIX) for x in s)
                and MUPQ_PREFIX + "crypto_sign_open" in s
                and MUPQ_PREFIX + "wots_chain" in s
            ),
        ),
    ],
)
def test_symbol_conventions(name: str, check, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    syms = global_symbols(compile_objects(name, "host", tmp_path))
    assert syms and check(syms), sorted(syms)


def test_mupq_folder_without_namespace_keeps_plain_names(tmp_path: Path) -> None:
    folder = IMPLS["demosig-mupq"]
    flags = [f"-I{folder}", f"-I{ROOT / 'lib' / 'compat'}", "-Wno-error"]
    objs = build_program(get_platform("host"), tmp_path, sorted(folder.glob("*.c")), cflags=flags, kind="objects")
    assert "crypto_sign_keypair" in global_symbols(objs)


def test_foreign_warning_does_not_fail_build(tmp_path: Path) -> None:
    assert compile_objects("demokem-plain", "host", tmp_path / "a")
    # the warning is real: -Werror would reject the folder, so the build must not use it
    with pytest.raises(PqlabError, match="unused_debug_counter"):
        compile_objects("demokem-plain", "host", tmp_path / "b", extra=())


def test_config_mk_flags_are_needed(tmp_path: Path) -> None:
    assert config_flags(IMPLS["demokem-pqclean"]) == ["-DDEMOKEM_TAGBYTES=16"]
    folder = IMPLS["demokem-pqclean"]
    flags = [f"-I{folder}", f"-I{ROOT / 'lib' / 'compat'}"]
    with pytest.raises(PqlabError, match="DEMOKEM_TAGBYTES must come from config.mk"):
        build_program(get_platform("host"), tmp_path, [folder / "kem.c"], cflags=flags, kind="objects")


@pytest.mark.parametrize("name", list(IMPLS))
def test_cross_compiles_for_cortex_m4(name: str, tmp_path: Path) -> None:
    objs = compile_objects(name, "mps2-an386", tmp_path)
    assert len(objs) == len(list(IMPLS[name].glob("*.c")))


# ---------------------------------------------------------------- through the pqlab tool


def run_pqlab(*args: str) -> subprocess.CompletedProcess[str]:
    import sys

    return subprocess.run(
        [sys.executable, "-m", "pqlab", *args], capture_output=True, check=False, text=True, cwd=ROOT, timeout=900
    )


def test_pqlab_builds_and_tests_foreign_folders() -> None:
    """The real build and harness: each demo folder is discovered under --impl-path,
    built unmodified against lib/compat and passes the harness test program on the host
    and on the Cortex-M4 under QEMU."""
    res = run_pqlab("test", *IMPLS, "--impl-path", str(FOREIGN), "-p", "host", "-p", "mps2-an386")
    assert res.returncode == 0, res.stdout + res.stderr
    for name in IMPLS:
        for platform in ("host", "mps2-an386"):
            assert re.search(rf"^ok\s+{name}/\w+ on {platform}\b", res.stdout, re.MULTILINE), res.stdout


def test_pqlab_ct_on_foreign_folders() -> None:
    res = run_pqlab("ct", *IMPLS, "--no-store", "--impl-path", str(FOREIGN))
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.count("no secret-dependent") == len(IMPLS), res.stdout


def test_pqlab_list_reads_every_size_from_api_h() -> None:
    import json

    res = run_pqlab("list", "--impl-path", str(FOREIGN), "--json")
    assert res.returncode == 0, res.stderr
    listed = {(d["scheme"], d["implementation"]): d["sizes"] for d in json.loads(res.stdout)}
    for name, folder in IMPLS.items():
        defs = api_defines(folder)
        want = {
            k.split("CRYPTO_", 1)[1]: int(v)
            for k, v in defs.items()
            if re.search(r"CRYPTO_(PUBLICKEY|SECRETKEY|CIPHERTEXT)?BYTES$", k)
        }
        got = {k.split("CRYPTO_", 1)[1]: v for k, v in listed[(name, folder.name)].items()}
        assert got == want, (name, got, want)
