"""The SLH-DSA ACVP plugin (pqlab/acvp/slhdsa.py) and `pqlab acvp` end to end.

The official sigGen files are too large to ship, so a synthetic sigGen prompt and
expected-results pair in the ACVP-Server layout is generated here from the independent
FIPS 205 implementation on PyPI (`slh-dsa`): keys from its own key generation, and all
group kinds (internal / external pure / external preHash, deterministic / hedged with
additionalRandomness, context strings, every hashAlg). A synthetic sigVer file in the
current (external interface) layout is derived from it with valid and corrupted cases.

Here the plugin logic: requests() are answered by the library through ctypes (emulating
harness/driver_slhdsa.c), result() must reproduce the expected files. The end-to-end runs
of `pqlab acvp` are in test_slhdsa_e2e.py.
"""

from __future__ import annotations

import json
import random

import pytest
import slhdsa  # required test dependency (PyPI: slh-dsa)
import slhdsa.lowlevel.slhdsa as slh_lowlevel
from extdata import vectors
from test_slhdsa_lib import ACVP_NAMES, OID_PREFIX, PREHASH, load

from pqlab.acvp import slhdsa as plugin

KEYGEN = "acvp/v1.1.0.40/SLH-DSA-keyGen-FIPS205/internalProjection.json"
SIGVER = "acvp/rustcrypto-2024-08/SLH-DSA-sigVer-FIPS205/internalProjection.json"

KINDS = [  # (signatureInterface, preHash, deterministic)
    ("internal", None, True),
    ("internal", None, False),
    ("external", "pure", True),
    ("external", "pure", False),
    ("external", "preHash", True),
    ("external", "preHash", False),
]


class _Rand:
    """Feeds chosen bytes to the reference's secrets.token_bytes."""

    def __init__(self, *chunks: bytes) -> None:
        self.chunks = list(chunks)

    def __enter__(self):
        self.saved = slh_lowlevel.token_bytes
        slh_lowlevel.token_bytes = lambda n: self.chunks.pop(0)[:n]
        return self

    def __exit__(self, *exc) -> None:
        slh_lowlevel.token_bytes = self.saved


def _ref_param(pset: str):
    return getattr(slhdsa, ACVP_NAMES[pset][len("slh-dsa-") :].replace("-", "_"))


def synthetic_siggen(psets: list[str], per_group: int = 2, seed: int = 0) -> tuple[dict, dict]:
    """A sigGen prompt and its expected results, computed by the slh-dsa package."""
    rng = random.Random(f"siggen/{seed}")
    head = {"vsId": 9000 + seed, "algorithm": "SLH-DSA", "mode": "sigGen", "revision": "FIPS205", "isSample": True}
    prompt, expected = dict(head, testGroups=[]), dict(head, testGroups=[])
    tg = tc = 0
    hash_names = list(PREHASH)
    for pset in psets:
        par = _ref_param(pset)
        n = par.n
        for iface, pre, det in KINDS:
            tg += 1
            g = {"tgId": tg, "testType": "AFT", "parameterSet": pset, "deterministic": det, "signatureInterface": iface}
            if pre is not None:
                g["preHash"] = pre
            g["tests"] = []
            eg = {"tgId": tg, "tests": []}
            for _ in range(per_group):
                tc += 1
                with _Rand(rng.randbytes(n), rng.randbytes(n), rng.randbytes(n)):
                    sk_t, pk_t = slh_lowlevel.keygen(par)
                sk, pk = b"".join(sk_t), b"".join(pk_t)
                msg = rng.randbytes(rng.choice([0, 1, 64, 300]))
                ctx = rng.randbytes(rng.choice([0, 1, 33, 255]))
                addrnd = rng.randbytes(n)
                t = {
                    "tcId": tc,
                    "sk": sk.hex().upper(),
                    "pk": pk.hex().upper(),
                    "messageLength": 8 * len(msg),
                    "message": msg.hex().upper(),
                }
                if iface == "external":
                    t["context"] = ctx.hex().upper()
                if not det:
                    t["additionalRandomness"] = addrnd.hex().upper()
                key = slhdsa.SecretKey.from_digest(sk, par)
                with _Rand(addrnd):
                    if iface == "internal":
                        sig = slh_lowlevel.sign(msg, sk_t, par, not det)
                    elif pre == "pure":
                        sig = key.sign_pure(msg, randomize=not det, ctx=ctx)
                    else:
                        ph = hash_names[tc % len(hash_names)]
                        t["hashAlg"] = ph
                        phid, fn = PREHASH[ph]
                        sig = key.sign_hash(
                            msg,
                            randomize=not det,
                            ctx=ctx,
                            prehash=lambda m, phid=phid, fn=fn: OID_PREFIX + bytes([phid]) + fn(m),
                        )
                g["tests"].append(t)
                eg["tests"].append({"tcId": tc, "signature": sig.hex().upper()})
            prompt["testGroups"].append(g)
            expected["testGroups"].append(eg)
    return prompt, expected


def synthetic_sigver(prompt: dict, expected: dict) -> tuple[dict, dict]:
    """sigVer in the current layout from a sigGen pair: each signature once valid, once with
    a corrupted byte, once with a changed message (external groups also a changed context)."""
    sigs = {t["tcId"]: t["signature"] for g in expected["testGroups"] for t in g["tests"]}
    head = {k: prompt[k] for k in ("vsId", "algorithm", "revision", "isSample")}
    vp, ve = dict(head, mode="sigVer", testGroups=[]), dict(head, mode="sigVer", testGroups=[])
    tc = 0
    for g in prompt["testGroups"]:
        if not g["deterministic"]:
            continue
        vg = {k: v for k, v in g.items() if k not in ("tests", "deterministic")}
        vg["tests"] = []
        eg = {"tgId": g["tgId"], "tests": []}
        for t in g["tests"]:
            sig = bytes.fromhex(sigs[t["tcId"]])
            bad = bytearray(sig)
            bad[len(sig) // 3] ^= 4
            cases = [
                (sig.hex(), t["message"], t.get("context"), True),
                (bytes(bad).hex(), t["message"], t.get("context"), False),
                (sig.hex(), t["message"] + "00", t.get("context"), False),
                (sig[:-1].hex(), t["message"], t.get("context"), False),
            ]
            if "context" in t:
                cases.append((sig.hex(), t["message"], t["context"] + "01", False))
            for s, m, c, ok in cases:
                tc += 1
                vt = {"tcId": tc, "pk": t["pk"], "message": m, "signature": s.upper()}
                if c is not None:
                    vt["context"] = c
                if "hashAlg" in t:
                    vt["hashAlg"] = t["hashAlg"]
                vg["tests"].append(vt)
                eg["tests"].append({"tcId": tc, "testPassed": ok})
        vp["testGroups"].append(vg)
        ve["testGroups"].append(eg)
    return vp, ve


def emulate_driver(cmd: str, args: list[bytes], s) -> list[bytes] | int:
    """harness/driver_slhdsa.c, through ctypes"""
    if cmd == "keygen":
        return list(s.keygen(*args))
    if cmd.startswith("sign"):
        addrnd = args[-1] or None
        if cmd == "sign_internal":
            return [s.sign_internal(args[0], args[1], addrnd)]
        if cmd == "sign":
            sig = s.sign(args[0], args[1], args[2], addrnd)
        else:
            sig = s.hash_sign(args[0], args[1], args[3][0], args[2], addrnd)
        return -1 if sig is None else [sig]
    if cmd == "verify_internal":
        ok = s.verify_internal(args[0], args[1], args[2])
    elif cmd == "verify":
        ok = s.verify(args[0], args[1], args[3], args[2])
    elif cmd == "verify_prehash":
        ok = s.hash_verify(args[0], args[1], args[4], args[3][0], args[2])
    else:
        raise AssertionError(f"unknown driver command {cmd}")
    return [] if ok else -1


def run_plugin(prompt: dict, expected: dict) -> int:
    exp = {(g["tgId"], t["tcId"]): t for g in expected["testGroups"] for t in g["tests"]}
    count = 0
    for g in prompt["testGroups"]:
        name = plugin.scheme(g)
        assert name == ACVP_NAMES[g["parameterSet"]]
        s = load(name)
        for t in g["tests"]:
            reqs = plugin.requests(g, t)
            assert reqs is not None, f"tcId {t['tcId']} unsupported"
            outs = [emulate_driver(cmd, args, s) for cmd, args in reqs]
            res = plugin.result(g, t, outs)
            e = exp[(g["tgId"], t["tcId"])]
            for k, v in res.items():
                assert (v.upper() if isinstance(v, str) else v) == e[k], f"tgId {g['tgId']} tcId {t['tcId']} {k}"
            count += 1
    return count


def test_plugin_keygen_file() -> None:
    """3 cases of each of the 12 groups (all 120 run in test_slhdsa_acvp.py and end to end)"""
    data = json.loads(vectors(KEYGEN).read_text())
    data["testGroups"] = [dict(g, tests=g["tests"][:3]) for g in data["testGroups"]]
    assert run_plugin(data, data) == 36


def test_plugin_sigver_file() -> None:
    data = json.loads(vectors(SIGVER).read_text())
    assert run_plugin(data, data) == 45


def test_plugin_synthetic_siggen_and_sigver() -> None:
    prompt, expected = synthetic_siggen(["SLH-DSA-SHAKE-128f", "SLH-DSA-SHA2-128f"], per_group=1)
    assert run_plugin(prompt, expected) == 12
    vp, ve = synthetic_sigver(prompt, expected)
    # 2 sets x 3 deterministic groups x 1 test, 4 cases each, + a context case for the 4 external ones
    assert run_plugin(vp, ve) == 6 * 4 + 4
    # a deliberately wrong expected signature is caught
    bad = json.loads(json.dumps(expected))
    sig = bad["testGroups"][0]["tests"][0]["signature"]
    bad["testGroups"][0]["tests"][0]["signature"] = ("0" if sig[0] != "0" else "1") + sig[1:]
    with pytest.raises(AssertionError):
        run_plugin(prompt, bad)


def test_plugin_unsupported_groups() -> None:
    assert (
        plugin.scheme(
            {"parameterSet": "SLH-DSA-SHAKE-128f", "signatureInterface": "external", "preHash": "somethingElse"}
        )
        is None
    )
    assert plugin.scheme({"parameterSet": "SLH-DSA-FOO-128f"}) is None
    g = {
        "parameterSet": "SLH-DSA-SHAKE-128f",
        "signatureInterface": "external",
        "preHash": "preHash",
        "deterministic": True,
    }
    assert plugin.requests(g, {"tcId": 1, "sk": "00", "message": "", "hashAlg": "MD5"}) is None
