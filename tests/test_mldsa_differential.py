"""Differential tests of ML-DSA against independent FIPS 204 implementations from PyPI, on random
inputs, for ML-DSA-44/65/87:
  - dilithium-py (pure Python): KeyGen_internal, Sign_internal, Verify_internal, external mu;
  - pyca/cryptography (OpenSSL): keys from seeds, verification with contexts, hedged signatures.
Covered: context strings of every length class (0, 1, random, 255), the deterministic and the
hedged variant with a given rnd, HashML-DSA with every pre-hash FIPS 204 allows (M' built here
from FIPS 204 Algorithm 4 with hashlib digests and the OIDs of section 5.4.1, then signed by
dilithium-py's Sign_internal), external mu, the NIST API with randomness from randombytes, and
cross verification with tampering. The default run uses a few cases per set (seconds); set
PQLAB_MLDSA_DIFF_N (cases per set) or run -m slow for a longer campaign."""

from __future__ import annotations

import hashlib
import os
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dilithium_py.ml_dsa as dpy
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import mldsa as pyca
from test_mldsa_support import HASHES, MODES, mldsa

REF = {44: dpy.ML_DSA_44, 65: dpy.ML_DSA_65, 87: dpy.ML_DSA_87}
PYCA = {44: pyca.MLDSA44PrivateKey, 65: pyca.MLDSA65PrivateKey, 87: pyca.MLDSA87PrivateKey}
N = int(os.environ.get("PQLAB_MLDSA_DIFF_N", "4"))


def ph_digest(hid: int, m: bytes) -> bytes:
    _, name, outlen = HASHES[hid]
    h = hashlib.new(name, m)
    return h.digest(outlen) if name.startswith("shake") else h.digest()


# FIPS 204 section 5.4.1: OID 2.16.840.1.101.3.4.2.n, DER 06 09 60 86 48 01 65 03 04 02 n
OID_ARC = {1: 4, 2: 1, 3: 2, 4: 3, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, 11: 11, 12: 12}


def ph_mprime(hid: int, m: bytes, ctx: bytes) -> bytes:
    oid = bytes([0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, OID_ARC[hid]])
    return bytes([1, len(ctx)]) + ctx + oid + ph_digest(hid, m)


def rand_ctx(rng: random.Random, i: int) -> bytes:
    n = [0, 1, 255, rng.randrange(2, 255)][i % 4]
    return rng.randbytes(n)


def keys(mode: int, rng: random.Random) -> tuple[bytes, bytes, bytes]:
    xi = rng.randbytes(32)
    r, pk, sk = mldsa(mode).keypair_internal(xi)
    assert r == 0
    assert (pk, sk) == REF[mode].key_derive(xi)
    return xi, pk, sk


def cases(mode: int, n: int):
    rng = random.Random(f"mldsa-diff-{mode}")
    for i in range(n):
        yield i, rng


def _pure(mode: int, n: int) -> None:
    lib, ref = mldsa(mode), REF[mode]
    for i, rng in cases(mode, n):
        _, pk, sk = keys(mode, rng)
        m, ctx = rng.randbytes(rng.randrange(0, 300)), rand_ctx(rng, i)
        rnd = bytes(32) if i % 2 == 0 else rng.randbytes(32)
        r, sig = lib.sign(sk, m, ctx, rnd)
        assert r == 0
        assert sig == ref._sign_internal(sk, bytes([0, len(ctx)]) + ctx + m, rnd)
        if rnd == bytes(32):
            assert sig == ref.sign(sk, m, ctx, deterministic=True)
        assert lib.verify(pk, m, sig, ctx) == 0 and ref.verify(pk, m, sig, ctx)
        # wrong context, wrong message, wrong key
        assert lib.verify(pk, m, sig, ctx + b"x") != 0
        assert lib.verify(pk, m + b"x", sig, ctx) != 0
        _, pk2, _ = keys(mode, rng)
        assert lib.verify(pk2, m, sig, ctx) != 0


def _prehash(mode: int, n: int) -> None:
    lib, ref = mldsa(mode), REF[mode]
    for i, rng in cases(mode, n):
        _, pk, sk = keys(mode, rng)
        for hid in HASHES:
            m, ctx = rng.randbytes(rng.randrange(0, 200)), rand_ctx(rng, i + hid)
            rnd = bytes(32) if (i + hid) % 2 else rng.randbytes(32)
            r, sig = lib.sign_prehash(sk, m, ctx, hid, rnd)
            assert r == 0, HASHES[hid]
            mp = ph_mprime(hid, m, ctx)
            assert sig == ref._sign_internal(sk, mp, rnd), HASHES[hid][0]
            assert ref._verify_internal(pk, mp, sig)
            assert lib.verify_prehash(pk, m, sig, ctx, hid) == 0
            # the same with the digest given
            r, sig2 = lib.sign_prehash_digest(sk, ph_digest(hid, m), ctx, hid, rnd)
            assert r == 0 and sig2 == sig
            # another hash function, or pure ML-DSA, must not verify
            assert lib.verify_prehash(pk, m, sig, ctx, hid % 12 + 1) != 0
            assert lib.verify(pk, m, sig, ctx) != 0
            # mu of the pre-hash variant
            r, mu = lib.compute_mu(pk, m, ctx, hid)
            assert r == 0 and mu == ref._h(ref._h(pk, 64) + mp, 64)


def _extmu(mode: int, n: int) -> None:
    lib, ref = mldsa(mode), REF[mode]
    for i, rng in cases(mode, n):
        _, pk, sk = keys(mode, rng)
        m, ctx = rng.randbytes(rng.randrange(0, 300)), rand_ctx(rng, i)
        mu = ref.prehash_external_mu(pk, m, ctx)
        r, mu2 = lib.compute_mu(pk, m, ctx)
        assert r == 0 and mu2 == mu
        rnd = bytes(32) if i % 2 else rng.randbytes(32)
        r, sig = lib.sign_extmu(sk, mu, rnd)
        assert r == 0 and sig == ref._sign_internal(sk, mu, rnd, external_mu=True)
        assert lib.verify_extmu(pk, mu, sig) == 0 and lib.verify(pk, m, sig, ctx) == 0
        # Sign_internal on M' gives the same signature
        r, sig3 = lib.sign_internal(sk, bytes([0, len(ctx)]) + ctx + m, rnd)
        assert r == 0 and sig3 == sig
        assert lib.verify_extmu(pk, bytes(64), sig) != 0


def _hedged_and_cross(mode: int, n: int) -> None:
    lib, ref = mldsa(mode), REF[mode]
    for i, rng in cases(mode, n):
        xi, pk, sk = keys(mode, rng)
        pyca_sk = PYCA[mode].from_seed_bytes(xi)
        raw_pk = pyca_sk.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        assert raw_pk == pk
        m, ctx = rng.randbytes(rng.randrange(0, 300)), rand_ctx(rng, i)
        lib.rng_seed(rng.randbytes(48))
        # hedged through randombytes: two signatures differ, both verify everywhere
        r, s1 = lib.sign(sk, m, ctx, None)
        r2, s2 = lib.sign(sk, m, ctx, None)
        assert r == r2 == 0 and s1 != s2
        for s in (s1, s2):
            assert ref.verify(pk, m, s, ctx)
            pyca_sk.public_key().verify(s, m, ctx)  # raises on failure
        r, s = lib.sign_nist(sk, m)
        assert r == 0 and ref.verify(pk, m, s) and lib.verify_nist(pk, m, s) == 0
        # signatures of the other implementations verify here; tampering is caught
        theirs = [ref.sign(sk, m, ctx), pyca_sk.sign(m, ctx)]
        for s in theirs:
            assert lib.verify(pk, m, s, ctx) == 0
            pos = rng.randrange(len(s))
            bad = bytearray(s)
            bad[pos] ^= 1 << rng.randrange(8)
            assert lib.verify(pk, m, bytes(bad), ctx) != 0
            assert lib.verify(pk, m, s[:-1], ctx) != 0 and lib.verify(pk, m, s + b"\0", ctx) != 0


@pytest.mark.parametrize("mode", MODES)
def test_pure_contexts(mode: int) -> None:
    _pure(mode, N)


@pytest.mark.parametrize("mode", MODES)
def test_prehash_every_hash(mode: int) -> None:
    _prehash(mode, max(1, N // 4))


@pytest.mark.parametrize("mode", MODES)
def test_external_mu(mode: int) -> None:
    _extmu(mode, N)


@pytest.mark.parametrize("mode", MODES)
def test_hedged_and_cross_verification(mode: int) -> None:
    _hedged_and_cross(mode, max(1, N // 2))


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_campaign(mode: int) -> None:
    n = int(os.environ.get("PQLAB_MLDSA_DIFF_SLOW_N", "100"))
    _pure(mode, n)
    _prehash(mode, n // 4)
    _extmu(mode, n)
    _hedged_and_cross(mode, n // 4)
