"""The ML-KEM ACVP driver (harness/driver_mlkem.c) as built by the framework, on the host and
on QEMU mps2-an386: keygen/encaps/decaps answers equal the ctypes library; wrong-length
arguments (the type checks of FIPS 203 sections 7.2/7.3) are refused with -100; an ek with a
coefficient >= q (-1) and a dk with a wrong hash (-2) are refused; checkek/checkdk answer
ok or fail; an unknown command is reported by the driver."""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "mlkem"))
from support import PARAMS, mlkem

from pqlab.build import BuildOptions
from pqlab.jobs import execute
from pqlab.platforms import get_platform
from pqlab.registry import discover


def hx(b: bytes) -> str:
    return b.hex() if b else "-"


@pytest.mark.parametrize("platform", ["host", "mps2-an386"])
def test_driver_answers_and_refusals(platform: str) -> None:
    if platform != "host":
        assert shutil.which("qemu-system-arm"), "qemu-system-arm is required"
    plat = get_platform(platform)
    impls = [i for i in discover() if i.scheme.startswith("ml-kem") and i.name == "ref"]
    assert len(impls) == 3
    rng = random.Random(21)
    reqs: dict[str, str] = {}
    expect: dict[str, dict[str, tuple]] = {}
    for impl in impls:
        name = impl.scheme.upper()
        lib, p = mlkem(name), PARAMS[name]
        d, z, m = rng.randbytes(32), rng.randbytes(32), rng.randbytes(32)
        ek, dk = lib.keygen(d, z)
        _, c, k = lib.encaps(ek, m)
        bad_ek = bytearray(ek)
        bad_ek[0], bad_ek[1] = 0xFF, bad_ek[1] | 0x0F  # first coefficient 4095 >= q
        bad_dk = bytearray(dk)
        bad_dk[-40] ^= 1  # inside H(ek)
        cases = {
            "kg": (f"keygen {hx(d)} {hx(z)}", ("ok", ek.hex(), dk.hex())),
            "en": (f"encaps {hx(ek)} {hx(m)}", ("ok", c.hex(), k.hex())),
            "de": (f"decaps {hx(dk)} {hx(c)}", ("ok", k.hex())),
            "ce": (f"checkek {hx(ek)}", ("ok",)),
            "cd": (f"checkdk {hx(dk)}", ("ok",)),
            "kg_len": (f"keygen {hx(d[:31])} {hx(z)}", ("fail", "-100")),
            "en_len": (f"encaps {hx(ek + b'x')} {hx(m)}", ("fail", "-100")),
            "en_mlen": (f"encaps {hx(ek)} -", ("fail", "-100")),
            "de_len": (f"decaps {hx(dk[:-1])} {hx(c)}", ("fail", "-100")),
            "de_clen": (f"decaps {hx(dk)} {hx(c + b'x')}", ("fail", "-100")),
            "ce_len": (f"checkek {hx(ek[:-1])}", ("fail", "-100")),
            "cd_len": (f"checkdk {hx(dk + b'x')}", ("fail", "-100")),
            "en_mod": (f"encaps {hx(bytes(bad_ek))} {hx(m)}", ("fail", "-1")),
            "ce_mod": (f"checkek {hx(bytes(bad_ek))}", ("fail", "-1")),
            "de_hash": (f"decaps {hx(bytes(bad_dk))} {hx(c)}", ("fail", "-2")),
            "cd_hash": (f"checkdk {hx(bytes(bad_dk))}", ("fail", "-2")),
            "args": ("encaps " + hx(ek), ("fail", "-101")),
        }
        assert len(c) == p.ct_len
        reqs[impl.id] = "".join(f"{tag} {line}\n" for tag, (line, _) in cases.items())
        expect[impl.id] = {tag: want for tag, (_, want) in cases.items()}
    outcomes = execute(
        [(i, plat) for i in impls], "driver", 2, BuildOptions(), stdin=lambda impl, _p: reqs[impl.id].encode()
    )
    for o in outcomes:
        assert o.ok, o.error
        got = {f[0]: tuple(f[1:]) for f in o.output.of("drv")}
        assert got == expect[o.impl.id], o.impl.id
        assert o.output.ok


def test_driver_unknown_command() -> None:
    """An unknown command ends the run with "#end fail" (driver.c), which the framework
    reports as a failed run, never as an answer."""
    plat = get_platform("host")
    impl = next(i for i in discover() if i.scheme == "ml-kem-512" and i.name == "ref")
    (o,) = execute([(impl, plat)], "driver", 1, BuildOptions(), stdin=lambda *_: b"t1 frobnicate -\n")
    assert not o.ok and "driver failed" in (o.error or "")
