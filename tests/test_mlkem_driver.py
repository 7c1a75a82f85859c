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


def _wycheproof_requests(name: str) -> tuple[list[str], dict[str, tuple]]:
    """Driver requests for every Wycheproof case of one parameter set and the expected answers
    (valid: ok with the outputs; invalid: a refusal, or for decapsulation the implicit
    rejection key when only the ciphertext is wrong but has the right length)."""
    import json

    from support import wycheproof

    p = PARAMS[name]
    lines, want = [], {}
    for kind in ("keygen_seed_test", "test", "encaps_test", "semi_expanded_decaps_test"):
        data = json.loads(wycheproof(f"mlkem_{p.n}_{kind}.json").read_text())
        for g in data["testGroups"]:
            for t in g["tests"]:
                tag = f"{kind[:4]}{t['tcId']}"
                valid = t["result"] == "valid"
                if kind in ("keygen_seed_test", "test"):
                    seed = bytes.fromhex(t["seed"])
                    lines.append(f"{tag} keygen {hx(seed[:32])} {hx(seed[32:])}")
                    ok_len = len(seed) == 64
                    if kind == "keygen_seed_test":
                        want[tag] = ("ok", t["ek"], t["dk"])
                    else:
                        want[tag] = ("ok",) if ok_len else ("fail", "-100")
                    continue
                if kind == "encaps_test":
                    lines.append(f"{tag} encaps {hx(bytes.fromhex(t['ek']))} {hx(bytes.fromhex(t['m']))}")
                    want[tag] = ("ok", t["c"], t["K"]) if valid else ("fail",)
                else:
                    lines.append(f"{tag} decaps {hx(bytes.fromhex(t['dk']))} {hx(bytes.fromhex(t['c']))}")
                    want[tag] = ("ok", t["K"]) if valid else ("fail",)
    return lines, want


@pytest.mark.slow
@pytest.mark.parametrize("platform", ["host", "mps2-an386"])
def test_driver_wycheproof(platform: str) -> None:
    """Every Wycheproof encapsulation, semi-expanded decapsulation and keygen case through the
    target driver (the keygen half of the seed/decaps files); invalid inputs are refused."""
    plat = get_platform(platform)
    impls = [i for i in discover() if i.scheme.startswith("ml-kem") and i.name == "ref"]
    reqs, wants = {}, {}
    for impl in impls:
        lines, want = _wycheproof_requests(impl.scheme.upper())
        reqs[impl.id] = ("\n".join(lines) + "\n").encode()
        wants[impl.id] = want
    outcomes = execute([(i, plat) for i in impls], "driver", 2, BuildOptions(), stdin=lambda i, _p: reqs[i.id])
    for o in outcomes:
        assert o.ok, o.error
        got = {f[0]: f[1:] for f in o.output.of("drv")}
        want = wants[o.impl.id]
        assert set(got) == set(want)
        for tag, w in want.items():
            g = got[tag]
            assert g[0] == w[0], (o.impl.id, tag, g[:2], w[:2])
            if w[0] == "ok" and len(w) > 1:
                assert [x.lower() for x in g[1:]] == [x.lower() for x in w[1:]], (o.impl.id, tag)
            if w[0] == "fail" and len(w) > 1:
                assert g[1] == w[1], (o.impl.id, tag)
