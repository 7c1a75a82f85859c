"""SLH-DSA signing, byte for byte against an independent FIPS 205 implementation.

The reference is the PyPI package `slh-dsa` (module `slhdsa`), a separate
implementation of FIPS 205 in Python. For every parameter set and random inputs we
compare pure signing (deterministic and hedged with a given addrnd, with and without a
context string) and HashSLH-DSA with every pre-hash function, and check that each
side verifies the other's signature. The package draws opt_rand from
secrets.token_bytes inside slhdsa.lowlevel.slhdsa; the hedged cases replace that
name so both sides use the same addrnd.

The default run signs a few messages per set (the Python reference needs seconds per
signature for the "s" sets); the full matrix is marked `slow`.
"""

from __future__ import annotations

import random

import pytest

# a required test dependency (PyPI: slh-dsa): a missing package fails, never skips
import slhdsa
import slhdsa.lowlevel.slhdsa as slh_lowlevel
from test_slhdsa_lib import OID_PREFIX, PREHASH, SETS, load

PH_NAMES = list(PREHASH)


def ref_params(scheme: str):
    return getattr(slhdsa, scheme[len("slh-dsa-") :].replace("-", "_"))


def ref_prehash(ph: str):
    phid, fn = PREHASH[ph]
    return lambda m: OID_PREFIX + bytes([phid]) + fn(m)


def one_case(scheme: str, mode: str, seed: int, monkeypatch) -> None:
    """mode: det | rnd | ctx-det | ctx-rnd | ph:<name>[:rnd]"""
    rng = random.Random(f"{scheme}/{mode}/{seed}")
    s = load(scheme)
    par = ref_params(scheme)
    pk, sk = s.keygen(rng.randbytes(s.n), rng.randbytes(s.n), rng.randbytes(s.n))
    ref = slhdsa.SecretKey.from_digest(sk, par)
    refpk = slhdsa.PublicKey.from_digest(pk, par)
    msg = rng.randbytes(rng.choice([0, 1, 33, 200, 1000]))
    ctx = rng.randbytes(rng.choice([1, 17, 255])) if "ctx" in mode or mode.startswith("ph") else b""
    addrnd = rng.randbytes(s.n) if "rnd" in mode else None
    if addrnd is not None:
        monkeypatch.setattr(slh_lowlevel, "token_bytes", lambda n: addrnd[:n])
    if mode.startswith("ph"):
        ph = mode.split(":")[1]
        ours = s.hash_sign(sk, msg, ph, ctx, addrnd)
        theirs = ref.sign_hash(msg, randomize=addrnd is not None, ctx=ctx, prehash=ref_prehash(ph))
        assert ours is not None
        assert s.hash_verify(pk, msg, theirs, ph, ctx)
        assert refpk.verify_hash(msg, ours, ctx=ctx, prehash=ref_prehash(ph))
    else:
        ours = s.sign(sk, msg, ctx, addrnd)
        theirs = ref.sign_pure(msg, randomize=addrnd is not None, ctx=ctx)
        assert ours is not None
        assert s.verify(pk, msg, theirs, ctx)
        assert refpk.verify_pure(msg, ours, ctx=ctx)
    assert len(ours) == s.sig_bytes
    assert ours == theirs, f"{scheme} {mode}: signatures differ"


# default: every set once (the mode rotates over the sets), the fast sets in all modes
DEFAULT = []
_modes = ["ctx-det", "rnd", "ph:SHA2-256:rnd", "det", "ctx-rnd", "ph:SHAKE-256"]
for _i, _s in enumerate(SETS):
    if _s.endswith("s"):
        DEFAULT.append((_s, _modes[_i % len(_modes)]))
for _s in ("slh-dsa-shake-128f", "slh-dsa-sha2-128f"):
    DEFAULT += [(_s, m) for m in ("det", "rnd", "ctx-det", "ctx-rnd")]
    DEFAULT += [(_s, f"ph:{p}") for p in PH_NAMES]
DEFAULT += [(_s, "ctx-rnd") for _s in SETS if _s.endswith("f") and "128" not in _s]
DEFAULT += [("slh-dsa-sha2-192f", "ph:SHA2-512/224:rnd"), ("slh-dsa-shake-256f", "ph:SHA3-224")]


@pytest.mark.parametrize("scheme,mode", DEFAULT)
def test_sign_matches_reference(scheme: str, mode: str, monkeypatch) -> None:
    one_case(scheme, mode, 0, monkeypatch)


FULL = [(s, m) for s in SETS for m in ("det", "rnd", "ctx-det", "ctx-rnd")]
FULL += [(s, f"ph:{p}{':rnd' if i % 2 else ''}") for s in SETS for i, p in enumerate(PH_NAMES)]


@pytest.mark.slow
@pytest.mark.parametrize("scheme,mode", FULL)
def test_sign_matches_reference_full(scheme: str, mode: str, monkeypatch) -> None:
    one_case(scheme, mode, 1, monkeypatch)
