"""The stack-first build of lib/mldsa (-DPQLAB_MLDSA_SMALLSTACK, implementation smallstack:
lib/mldsa/stream.c streams A, y, w and z, docs/mldsa.md) gives the same keys and signatures and
the same verification verdicts as the default build: every ACVP sigGen case (v1.1.0.35), the
Wycheproof sign_seed cases with a message, random external-mu signatures, keys from random
seeds and tampered signatures (the Wycheproof verify files: tests/test_mldsa_wycheproof.py)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mldsa_support import MODES, acvp_siggen_matches, mldsa, wycheproof
from test_mldsa_support import mldsa_smallstack as small


def test_acvp_siggen() -> None:
    assert acvp_siggen_matches(small) == 60


@pytest.mark.parametrize("mode", MODES)
def test_same_as_default(mode: int) -> None:
    a, b = mldsa(mode), small(mode)
    rng = random.Random(mode)
    r, pk, sk = a.keypair_internal(rng.randbytes(32))
    assert r == 0
    for _ in range(6):
        mu, rnd = rng.randbytes(64), rng.randbytes(32)
        ra, sa = a.sign_extmu(sk, mu, rnd)
        rb, sb = b.sign_extmu(sk, mu, rnd)
        assert ra == rb == 0 and sa == sb and a.iterations() == b.iterations()
        assert b.verify_extmu(pk, mu, sb) == 0
    data = json.loads(wycheproof(f"mldsa_{mode}_sign_seed_test.json").read_text())
    for g in data["testGroups"][:1]:
        r, _, sk = b.keypair_internal(bytes.fromhex(g["privateSeed"]))
        for t in g["tests"]:
            if t["result"] == "valid" and "msg" in t:
                ctx = bytes.fromhex(t.get("ctx", ""))
                rnd = bytes.fromhex(t["rnd"]) if "rnd" in t else bytes(32)
                assert b.sign(sk, bytes.fromhex(t["msg"]), ctx, rnd) == (0, bytes.fromhex(t["sig"]))


@pytest.mark.parametrize("mode", MODES)
def test_keypair_and_verify_same_as_default(mode: int) -> None:
    """the streaming key generation gives the same keys; the streaming verification accepts
    and rejects exactly what the default one does (valid, tampered c~, z, hints, wrong key)"""
    a, b = mldsa(mode), small(mode)
    rng = random.Random(100 + mode)
    for _ in range(3):
        xi = rng.randbytes(32)
        ka, kb = a.keypair_internal(xi), b.keypair_internal(xi)
        assert ka == kb and ka[0] == 0
        _, pk, sk = ka
        mu = rng.randbytes(64)
        r, sig = a.sign_extmu(sk, mu, rng.randbytes(32))
        assert r == 0
        cases = [sig]
        for pos in (0, len(sig) // 2, len(sig) - 1 - mode // 10, len(sig) - 1):
            t = bytearray(sig)
            t[pos] ^= 1 << rng.randrange(8)
            cases.append(bytes(t))
        for s in cases:
            assert a.verify_extmu(pk, mu, s) == b.verify_extmu(pk, mu, s)
        assert b.verify_extmu(pk, mu, sig) == 0
        assert b.verify_extmu(pk, rng.randbytes(64), sig) != 0
        other = a.keypair_internal(rng.randbytes(32))[1]
        assert b.verify_extmu(other, mu, sig) != 0
