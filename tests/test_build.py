"""Build: incremental and out of tree; -Werror for pqlab's own code, warnings allowed in foreign code."""

import io
import sys
import time
from pathlib import Path

from pqlab.build import BUILD_ROOT, build
from pqlab.platforms import get_platform
from pqlab.registry import discover

API = """#define CRYPTO_SECRETKEYBYTES 32
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_CIPHERTEXTBYTES 32
#define CRYPTO_BYTES 32
#define CRYPTO_ALGNAME "toy"
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);
"""
KEM = """#include <string.h>
#include "api.h"
#include "randombytes.h"
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk) { int unused; randombytes(sk, 32); memcpy(pk, sk, 32); return 0; }
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk) {
    randombytes(ss, 32); for (int i = 0; i < 32; i++) ct[i] = ss[i] ^ pk[i]; return 0; }
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) {
    for (int i = 0; i < 32; i++) ss[i] = ct[i] ^ sk[i]; return 0; }
"""


def toy(root: Path, name: str, own: bool) -> Path:
    d = root / "crypto_kem" / name / "ref"
    d.mkdir(parents=True)
    (d / "api.h").write_text(API)
    (d / "kem.c").write_text(KEM)  # note the unused variable: a warning
    if own:
        (d / "pqlab.toml").write_text("own = true\n")
    return d


def test_warnings_fail_own_code_only(tmp_path):
    toy(tmp_path, "toy-foreign", own=False)
    toy(tmp_path, "toy-own", own=True)
    impls = [i for i in discover([tmp_path]) if i.scheme.startswith("toy-")]
    res = build(get_platform("host"), impls, ("test",))
    assert res["toy-foreign/ref"].error is None
    assert "test" in res["toy-foreign/ref"].elf
    err = res["toy-own/ref"].error
    assert err and "unused variable" in err and "-Werror" in err


def test_incremental_and_out_of_tree(tmp_path):
    d = toy(tmp_path, "toy-incr", own=False)
    impl = next(i for i in discover([tmp_path]) if i.scheme == "toy-incr")
    plat = get_platform("host")
    elf = build(plat, [impl], ("test",))[impl.id].elf["test"]
    assert BUILD_ROOT in elf.parents and not any(p.suffix == ".o" for p in d.iterdir())
    first = elf.stat().st_mtime_ns
    time.sleep(0.05)
    assert build(plat, [impl], ("test",))[impl.id].elf["test"].stat().st_mtime_ns == first  # nothing to do
    (d / "api.h").write_text(API + "/* changed */\n")
    time.sleep(0.05)
    assert build(plat, [impl], ("test",))[impl.id].elf["test"].stat().st_mtime_ns > first  # header dependency seen


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_build_progress_names_the_implementation(tmp_path, monkeypatch):
    toy(tmp_path, "toy-progress", own=False)
    impl = next(i for i in discover([tmp_path]) if i.scheme == "toy-progress")
    term = _Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    res = build(get_platform("host"), [impl], ("test",))
    assert res[impl.id].error is None
    shown = term.getvalue()
    assert "build host" in shown and "CC toy-progress/ref" in shown and "LINK toy-progress/ref" in shown


def test_build_as_shares_one_build_and_refuses_another_program(tmp_path):
    """A simulator platform and the machine it models compile the same program once (build_as):
    the second build finds everything done and returns the same ELF; a build_as platform whose
    flags differ is refused, not built into the other's folder."""
    from dataclasses import replace

    import pytest

    from pqlab import PqlabError

    impl = next(i for i in discover() if i.scheme == "ml-kem-512" and i.name == "ref")
    sim, qemu = get_platform("m4-sim"), get_platform("mps2-an386")
    assert sim.build_platform() == qemu and sim.ct_build().build_platform().build_name == "m4-sim~ct"
    a = build(qemu, [impl], ("test",))[impl.id].elf["test"]
    first = a.stat().st_mtime_ns
    b = build(sim, [impl], ("test",))[impl.id].elf["test"]
    assert a == b and b.stat().st_mtime_ns == first
    odd = replace(sim, cflags=(*sim.cflags, "-DSOMETHING_ELSE"))
    with pytest.raises(PqlabError, match="build_as = 'mps2-an386' builds other programs .*cflags"):
        build(odd, [impl], ("test",))
