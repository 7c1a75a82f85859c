"""Strict input handling of ML-DSA: every malformed input is a failure with the documented code,
zeroised outputs, and no out-of-bounds access. Targeted cases (lengths, each non-canonical hint
encoding of FIPS 204 Algorithm 21, z at the norm bound, contexts of 256 bytes, wrong and zero
public keys, unknown pre-hash ids and digest lengths, randombytes failures, crypto_sign_open of
tampered messages). The decoder fuzzer (fuzz/mldsa.c, ASan + UBSan) runs in tests/test_fuzz.py."""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mldsa_support import MODES, mldsa

ERR_VERIFY, ERR_ARG, ERR_RNG, ERR_SK, ERR_HASH = -1, -2, -3, -4, -5
MSG = b"strict verification"


@pytest.fixture(scope="module", params=MODES)
def setup(request):
    mode = request.param
    lib = mldsa(mode)
    r, pk, sk = lib.keypair_internal(bytes([mode]) * 32)
    assert r == 0
    r, sig = lib.sign(sk, MSG, b"ctx", bytes(32))
    assert r == 0 and lib.verify(pk, MSG, sig, b"ctx") == 0
    return lib, pk, sk, sig


def hint_offset(p) -> int:
    return p.ctilde + p.l * 32 * (18 if p.gamma1 == 1 << 17 else 20)


def test_lengths(setup) -> None:
    lib, pk, sk, sig = setup
    for s in (b"", sig[:-1], sig + b"\0", sig + sig):
        assert lib.verify(pk, MSG, s, b"ctx") == ERR_VERIFY
        assert lib.verify_internal(pk, MSG, s) == ERR_VERIFY
    # the driver (byte-string boundary) rejects wrong key lengths
    assert lib.drive("verify", [pk[:-1], MSG, b"ctx", sig]) == -100
    assert lib.drive("verify", [pk + b"\0", MSG, b"ctx", sig]) == -100
    assert lib.drive("sign", [sk[:-1], MSG, b"", bytes(32)]) == -100
    assert lib.drive("sign_extmu", [sk, bytes(63), bytes(32)]) == -100
    assert lib.drive("keygen", [bytes(31)]) == -100


def test_hint_encodings(setup) -> None:
    lib, pk, _, sig = setup
    p = lib.p
    h = hint_offset(p)
    y = bytearray(sig[h:])
    limits = list(y[p.omega :])
    total = limits[-1]
    assert 0 < total <= p.omega

    def check(yy: bytes | bytearray, why: str) -> None:
        s = sig[:h] + bytes(yy)
        assert len(s) == p.sig_len
        assert lib.verify(pk, MSG, s, b"ctx") == ERR_VERIFY, why

    # a limit above omega
    yy = bytearray(y)
    yy[p.omega + p.k - 1] = p.omega + 1
    check(yy, "limit > omega")
    yy[p.omega + p.k - 1] = 255
    check(yy, "limit 255")
    # limits going backwards
    i = next(i for i in range(p.k - 1) if limits[i] > 0) if any(limits[:-1]) else None
    if i is not None:
        yy = bytearray(y)
        yy[p.omega + i + 1] = limits[i] - 1
        check(yy, "limit decreasing")
    # indices of one polynomial not strictly increasing: repeat or swap two neighbours
    start = 0
    for i in range(p.k):
        end = limits[i]
        if end - start >= 2:
            yy = bytearray(y)
            yy[start + 1] = yy[start]
            check(yy, "repeated index")
            yy = bytearray(y)
            yy[start], yy[start + 1] = yy[start + 1], yy[start]
            check(yy, "decreasing indices")
            break
        start = end
    # non-zero padding after the last index
    if total < p.omega:
        yy = bytearray(y)
        yy[p.omega - 1] = 1
        check(yy, "non-zero padding")
    # omega + 1 hints claimed: the limit cannot exceed omega
    yy = bytearray(y)
    for i in range(p.k):
        yy[p.omega + i] = p.omega
    check(yy, "all limits omega, indices not increasing")


def test_z_norm_bound(setup) -> None:
    """z coefficients at +-(gamma1 - beta) are rejected by the norm check (before hashing)"""
    lib, pk, _, sig = setup
    p = lib.p
    bits = 18 if p.gamma1 == 1 << 17 else 20
    beta = p.tau * p.eta
    zoff = p.ctilde
    for val in (p.gamma1 - beta, -(p.gamma1 - beta), p.gamma1, -p.gamma1 + 1):
        stored = p.gamma1 - val
        z = int.from_bytes(sig[zoff : zoff + 32 * bits], "little")
        z = (z & ~((1 << bits) - 1)) | stored
        s = sig[:zoff] + z.to_bytes(32 * bits, "little") + sig[zoff + 32 * bits :]
        assert lib.verify(pk, MSG, s, b"ctx") == ERR_VERIFY


def test_context_wrong_key_zero_key(setup) -> None:
    lib, pk, sk, sig = setup
    assert lib.verify(pk, MSG, sig, b"ctx") == 0
    assert lib.verify(pk, MSG, sig, b"") == ERR_VERIFY
    assert lib.verify(pk, MSG, sig, b"ctx" + bytes(252)) == ERR_VERIFY
    assert lib.verify(pk, MSG, sig, bytes(256)) == ERR_ARG
    r, _ = lib.sign(sk, MSG, bytes(256), bytes(32))
    assert r == ERR_ARG
    assert lib.compute_mu(pk, MSG, bytes(256))[0] == ERR_ARG
    r, pk2, _ = lib.keypair_internal(bytes(32))
    assert lib.verify(pk2, MSG, sig, b"ctx") == ERR_VERIFY
    assert lib.verify(bytes(len(pk)), MSG, sig, b"ctx") == ERR_VERIFY
    assert lib.verify(b"\xff" * len(pk), MSG, sig, b"ctx") == ERR_VERIFY


def test_prehash_ids(setup) -> None:
    lib, pk, sk, _ = setup
    for bad in (0, 13, -1, 255):
        r, _ = lib.sign_prehash(sk, MSG, b"", bad, bytes(32))
        assert r == ERR_HASH
        assert lib.verify_prehash(pk, MSG, bytes(lib.p.sig_len), b"", bad) == ERR_HASH
    r, _ = lib.sign_prehash_digest(sk, bytes(31), b"", 2, bytes(32))  # SHA-256 needs 32 bytes
    assert r == ERR_HASH
    r, _ = lib.sign_prehash(sk, MSG, bytes(256), 2, bytes(32))
    assert r == ERR_ARG


def test_rng_failure_and_null_rnd(setup) -> None:
    lib, _, sk, _ = setup
    lib.rng_fail(True)
    try:
        r, pk, sk2 = lib.keypair()
        assert r == ERR_RNG and pk == bytes(len(pk)) and sk2 == bytes(len(sk2))
        r, _ = lib.sign(sk, MSG, b"", None)  # hedged
        assert r == ERR_RNG
    finally:
        lib.rng_fail(False)
    # the internal interfaces take rnd explicitly: NULL is an argument error
    sig = ctypes.create_string_buffer(lib.p.sig_len)
    siglen = ctypes.c_size_t(7)
    assert lib.fn("crypto_sign_signature_extmu")(sig, ctypes.byref(siglen), bytes(64), None, sk) == ERR_ARG
    assert siglen.value == 0 and sig.raw == bytes(lib.p.sig_len)


def test_open_tampered(setup) -> None:
    lib, pk, sk, _ = setup
    lib.rng_seed(bytes(48))
    r, sm = lib.sign_sm(sk, MSG)
    assert r == 0
    r, m = lib.open_sm(pk, sm)
    assert r == 0 and m == MSG
    bad = bytearray(sm)
    bad[-1] ^= 1
    r, m = lib.open_sm(pk, bytes(bad))
    assert r == ERR_VERIFY and m == b""
    r, m = lib.open_sm(pk, sm[: lib.p.sig_len - 1])
    assert r == ERR_VERIFY


def test_secret_key_ranges(setup) -> None:
    """s1 / s2 coefficients outside [-eta, eta] are refused (MLDSA_ERR_SK), t0 is always valid"""
    lib, _, sk, _ = setup
    p = lib.p
    off_s1 = 128
    eta_bytes = 96 if p.eta == 2 else 128
    for off in (off_s1, off_s1 + p.l * eta_bytes):  # first byte of s1, of s2
        bad = bytearray(sk)
        bad[off] = 0xFF  # stored eta - s = 7 (eta 2) or 15 (eta 4): s out of range
        r, sig = lib.sign(bytes(bad), MSG, b"", bytes(32))
        assert r == ERR_SK and sig == bytes(p.sig_len)
