"""The FN-DSA driver (harness/driver_fndsa.c) as built by the framework, on the host (all four
implementations) and on QEMU mps2-an386 (ref): keygen from the KAT's DRBG seed reproduces the
KAT key pair, sign/sign_tree with the KAT's nonce and seed reproduce the KAT signature,
sign_padded gives the padded format, verify accepts it and refuses a tampered one, expand
digests agree between layers; wrong lengths are refused with -100, wrong argument counts
with -101."""

from __future__ import annotations

import shutil

import pytest
import test_fndsa as T

from pqlab.build import BuildOptions
from pqlab.jobs import execute
from pqlab.platforms import get_platform
from pqlab.registry import discover


def hx(b: bytes) -> str:
    return b.hex() if b else "-"


@pytest.mark.parametrize("platform", ["host", "mps2-an386"])
def test_driver(platform: str) -> None:
    if platform != "host":
        assert shutil.which("qemu-system-arm"), "qemu-system-arm is required"
    plat = get_platform(platform)
    impls = [i for i in discover() if i.scheme.startswith("fn-dsa") and (platform == "host" or i.name == "ref")]
    assert len(impls) == (6 if platform == "host" else 2)  # ref, fpu, fpu-ct per set on the host
    reqs, expect = {}, {}
    for impl in impls:
        logn = 9 if impl.scheme == "fn-dsa-512" else 10
        api = T.Api(logn, True)
        rec = T.kat0(logn)
        msg = bytes.fromhex(rec["msg"])
        pk, sk, sm = (bytes.fromhex(rec[k]) for k in ("pk", "sk", "sm"))
        st = api.drbg_bytes(bytes.fromhex(rec["seed"]), 48, 40, 48)
        seed, nonce, sseed = st[:48], st[48:88], st[88:]
        comp = sm[2 + 40 + len(msg) + 1 :]
        sig = bytes([0x30 + logn]) + nonce + comp
        pad = api.sign_seed(msg, sk, nonce, sseed, padded=1)
        bad = bytearray(sig)
        bad[50] ^= 1
        restarts = T.fn(api.lib, "crypto_sign_keygen_restarts")
        api.keypair_seed(seed)
        rs = restarts()
        cases = {
            "kg": (f"keygen {hx(seed)}", ("ok", pk.hex(), sk.hex(), rs.to_bytes(4, "big").hex())),
            "sg": (f"sign {hx(sk)} {hx(msg)} {hx(nonce)} {hx(sseed)}", ("ok", sig.hex())),
            "st": (f"sign_tree {hx(sk)} {hx(msg)} {hx(nonce)} {hx(sseed)}", ("ok", sig.hex())),
            "sp": (f"sign_padded {hx(sk)} {hx(msg)} {hx(nonce)} {hx(sseed)}", ("ok", pad.hex())),
            "vf": (f"verify {hx(pk)} {hx(msg)} {hx(sig)}", ("ok",)),
            "vp": (f"verify_padded {hx(pk)} {hx(msg)} {hx(pad)}", ("ok",)),
            "vpx": (f"verify_padded {hx(pk)} {hx(msg)} {hx(sig)}", ("fail", "-1")),
            "vbad": (f"verify {hx(pk)} {hx(msg)} {hx(bytes(bad))}", ("fail", "-1")),
            "kg_len": (f"keygen {hx(seed[:47])}", ("fail", "-100")),
            "sg_len": (f"sign {hx(sk[:-1])} {hx(msg)} {hx(nonce)} {hx(sseed)}", ("fail", "-100")),
            "vf_len": (f"verify {hx(pk + b'x')} {hx(msg)} {hx(sig)}", ("fail", "-100")),
            "args": (f"sign {hx(sk)} {hx(msg)}", ("fail", "-101")),
        }
        reqs[impl.id] = "".join(f"{t} {line}\n" for t, (line, _) in cases.items()) + f"ex expand {hx(sk)}\n"
        expect[impl.id] = {t: want for t, (_, want) in cases.items()}
    outcomes = execute(
        [(i, plat) for i in impls], "driver", 2, BuildOptions(), stdin=lambda impl, _p: reqs[impl.id].encode()
    )
    digests: dict[str, set] = {}
    for o in outcomes:
        assert o.ok, o.error
        got = {f[0]: tuple(f[1:]) for f in o.output.of("drv")}
        ex = got.pop("ex")
        assert ex[0] == "ok" and len(ex[1]) == 64
        digests.setdefault(o.impl.scheme, set()).add(ex[1])
        assert got == expect[o.impl.id], o.impl.id
    # the expanded keys of the emulated and the native layer are bit-identical
    assert all(len(v) == 1 for v in digests.values())
