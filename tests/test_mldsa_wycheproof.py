"""Wycheproof ML-DSA (C2SP/wycheproof @ dac1dd47, external vectors: docs/vectors.md): every test of the
verify, sign_seed and sign_noseed files of ML-DSA-44/65/87, invalid ones included, applied as
doc/mldsa.md of Wycheproof describes: key generation from the seed must give the public key;
signing (deterministic without rnd, hedged with the given rnd) must give the signature, both from
(message, context) and from mu (external mu); every produced signature verifies; invalid cases
(context > 255 bytes, wrong key or signature lengths, malformed secret keys, bad hints, norm
violations, ...) must fail. Lengths are checked where the driver checks them (the byte-string
API boundary, harness/driver_mldsa.c), everything else by the library."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mldsa_support import MODES, mldsa, mldsa_smallstack, wycheproof

# numberOfTests of each file (docs/vectors.md)
COUNTS = {
    (44, "verify"): 180,
    (65, "verify"): 210,
    (87, "verify"): 241,
    (44, "sign_seed"): 86,
    (65, "sign_seed"): 105,
    (87, "sign_seed"): 96,
    (44, "sign_noseed"): 73,
    (65, "sign_noseed"): 78,
    (87, "sign_noseed"): 69,
}


def load(mode: int, kind: str) -> dict:
    return json.loads(wycheproof(f"mldsa_{mode}_{kind}_test.json").read_text())


def h(t: dict, key: str) -> bytes | None:
    return bytes.fromhex(t[key]) if t.get(key) is not None else None


@pytest.mark.parametrize("build", ["default", "smallstack"])
@pytest.mark.parametrize("mode", MODES)
def test_verify(mode: int, build: str) -> None:
    """smallstack: the stack-first verification (lib/mldsa/stream.c) on the same cases"""
    lib = mldsa(mode) if build == "default" else mldsa_smallstack(mode)
    data, seen = load(mode, "verify"), Counter()
    for g in data["testGroups"]:
        pk = h(g, "publicKey")
        for t in g["tests"]:
            msg, ctx, sig = h(t, "msg"), h(t, "ctx") or b"", h(t, "sig")
            out = lib.drive("verify", [pk, msg, ctx, sig])
            ok = isinstance(out, list)
            assert ok == (t["result"] == "valid"), (t["tcId"], t["comment"], out)
            if t["result"] == "valid" and not ctx:
                assert lib.verify_nist(pk, msg, sig) == 0
            seen[t["result"]] += 1
    assert sum(seen.values()) == COUNTS[(mode, "verify")] == data["numberOfTests"]


def _sign_cases(mode: int, kind: str):
    lib, data = mldsa(mode), load(mode, kind)
    for g in data["testGroups"]:
        for t in g["tests"]:
            yield lib, g, t


def _check_sign(lib, g: dict, t: dict, sk: bytes | None, pk_expected: bytes | None, seen: Counter) -> None:
    p = lib.p
    valid = t["result"] == "valid"
    rnd = h(t, "rnd") or bytes(32)
    sig_expected = h(t, "sig")
    flags = set(t["flags"])
    if sk is None or len(sk) != p.sk_len:
        assert not valid and flags & {"IncorrectPrivateKeyLength"}, t["tcId"]
        # the driver rejects the key by its length before any library call
        assert lib.drive("sign", [sk or b"", h(t, "msg") or b"", b"", rnd]) == -100
        seen["invalid"] += 1
        return
    if "msg" in t:
        ctx = h(t, "ctx") or b""
        r, sig = lib.sign(sk, h(t, "msg"), ctx, rnd)
        if valid:
            assert r == 0 and sig == sig_expected, (t["tcId"], t["comment"], r)
            if pk_expected is not None:
                assert lib.verify(pk_expected, h(t, "msg"), sig, ctx) == 0
                if "mu" in t:
                    r, mu = lib.compute_mu(pk_expected, h(t, "msg"), ctx)
                    assert r == 0 and mu == h(t, "mu")
        else:
            assert r != 0, (t["tcId"], t["comment"])
            if "InvalidContext" in flags and pk_expected is not None:
                assert len(ctx) > 255 and lib.compute_mu(pk_expected, h(t, "msg"), ctx)[0] != 0
    if "mu" in t:
        r, sig = lib.sign_extmu(sk, h(t, "mu"), rnd)
        if valid:
            assert r == 0 and sig == sig_expected, (t["tcId"], t["comment"], r)
            if pk_expected is not None:
                assert lib.verify_extmu(pk_expected, h(t, "mu"), sig) == 0
        else:
            assert r != 0, (t["tcId"], t["comment"])
    assert "msg" in t or "mu" in t
    seen[t["result"]] += 1


@pytest.mark.parametrize("mode", MODES)
def test_sign_seed(mode: int) -> None:
    seen: Counter = Counter()
    for lib, g, t in _sign_cases(mode, "sign_seed"):
        seed, pk = h(g, "privateSeed"), h(g, "publicKey")
        sk = None
        if seed is not None and len(seed) == 32:
            r, pk2, sk = lib.keypair_internal(seed)
            assert r == 0 and pk2 == pk, t["tcId"]
        else:
            assert lib.drive("keygen", [seed or b""]) == -100
        _check_sign(lib, g, t, sk, pk, seen)
    assert sum(seen.values()) == COUNTS[(mode, "sign_seed")]


@pytest.mark.parametrize("mode", MODES)
def test_sign_noseed(mode: int) -> None:
    seen: Counter = Counter()
    for lib, g, t in _sign_cases(mode, "sign_noseed"):
        _check_sign(lib, g, t, h(g, "privateKey"), h(g, "publicKey"), seen)
        if "InvalidPrivateKey" in t["flags"]:
            r, _ = lib.sign(h(g, "privateKey"), h(t, "msg") or b"", b"", bytes(32))
            assert r == -4  # MLDSA_ERR_SK: s1 or s2 outside [-eta, eta]
    assert sum(seen.values()) == COUNTS[(mode, "sign_noseed")]
