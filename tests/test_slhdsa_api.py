"""SLH-DSA API behaviour (through ctypes): the NIST API, the relations between the
FIPS 205 layers, strict verification, pre-hash functions, the 4-way hashing path
and symbol namespacing."""

from __future__ import annotations

import ctypes
import random
import subprocess

import firmware
import pytest
from test_slhdsa_lib import OID_PREFIX, PREHASH, ROOT, SETS, load, prefix

from pqlab.registry import discover

FAST = [s for s in SETS if s.endswith("f")]


def keypair(s, tag: str = "k") -> tuple[bytes, bytes]:
    rng = random.Random(f"{s.scheme}/{tag}")
    return s.keygen(rng.randbytes(s.n), rng.randbytes(s.n), rng.randbytes(s.n))


@pytest.mark.parametrize("scheme", FAST + ["slh-dsa-shake-128s"])
def test_nist_api_round_trip(scheme: str) -> None:
    s = load(scheme)
    seed = bytes(range(3 * s.n))
    addrnd = bytes(range(100, 100 + s.n))
    pk = ctypes.create_string_buffer(s.pk_bytes)
    sk = ctypes.create_string_buffer(s.sk_bytes)
    s.rng(seed)
    assert s.fn("crypto_sign_keypair")(pk, sk) == 0
    assert (pk.raw, sk.raw) == s.keygen(seed[: s.n], seed[s.n : 2 * s.n], seed[2 * s.n :])
    m = b"pqlab SLH-DSA" * 3
    sm = ctypes.create_string_buffer(s.sig_bytes + len(m))
    smlen = ctypes.c_size_t()
    s.rng(addrnd)
    assert s.fn("crypto_sign")(sm, ctypes.byref(smlen), m, ctypes.c_size_t(len(m)), sk) == 0
    assert smlen.value == s.sig_bytes + len(m)
    # crypto_sign = pure SLH-DSA, empty context, hedged with the random addrnd
    assert sm.raw[: s.sig_bytes] == s.sign(sk.raw, m, b"", addrnd)
    assert sm.raw[s.sig_bytes :] == m
    out = ctypes.create_string_buffer(len(sm.raw))
    mlen = ctypes.c_size_t(12345)
    assert s.fn("crypto_sign_open")(out, ctypes.byref(mlen), sm.raw, smlen, pk) == 0
    assert out.raw[: mlen.value] == m
    bad = bytearray(sm.raw)
    bad[5] ^= 1
    assert s.fn("crypto_sign_open")(out, ctypes.byref(mlen), bytes(bad), smlen, pk) == -1
    assert mlen.value == 0
    assert s.fn("crypto_sign_open")(out, ctypes.byref(mlen), sm.raw, ctypes.c_size_t(s.sig_bytes - 1), pk) == -1
    # randombytes failure: no signature, zeroised output
    s.rng(b"")
    sig = ctypes.create_string_buffer(b"\xaa" * s.sig_bytes, s.sig_bytes)
    siglen = ctypes.c_size_t(7)
    assert s.fn("crypto_sign_signature")(sig, ctypes.byref(siglen), m, ctypes.c_size_t(len(m)), sk) == -1
    assert siglen.value == 0 and sig.raw == bytes(s.sig_bytes)


@pytest.mark.parametrize("scheme", ["slh-dsa-shake-128f", "slh-dsa-sha2-192f"])
def test_layers_compose_as_fips205(scheme: str) -> None:
    """Algorithms 22/23: pure and pre-hash signing are slh_sign_internal on M'."""
    s = load(scheme)
    pk, sk = keypair(s)
    m, ctx = b"message", b"context!"
    mp = bytes([0, len(ctx)]) + ctx + m
    assert s.sign(sk, m, ctx) == s.sign_internal(sk, mp)
    assert s.verify_internal(pk, mp, s.sign(sk, m, ctx))
    d = PREHASH["SHA2-512"][1](m)
    mp = bytes([1, len(ctx)]) + ctx + OID_PREFIX + bytes([0x03]) + d
    assert s.hash_sign(sk, m, "SHA2-512", ctx) == s.sign_internal(sk, mp)
    # deterministic = opt_rand is PK.seed
    assert s.sign(sk, m) == s.sign(sk, m, b"", pk[: s.n])
    assert s.sign(sk, m) != s.sign(sk, m, b"", bytes(s.n))


@pytest.mark.parametrize("scheme", FAST)
def test_strict_verification(scheme: str) -> None:
    s = load(scheme)
    pk, sk = keypair(s)
    m, ctx = b"strict", b"ctx"
    sig = s.sign(sk, m, ctx)
    assert s.verify(pk, m, sig, ctx)
    # wrong lengths: one byte short or long, empty
    assert not s.verify(pk, m, sig[:-1], ctx)
    assert not s.verify(pk, m, sig + b"\0", ctx)
    assert not s.verify(pk, m, b"", ctx)
    assert not s.verify_internal(pk, m, sig[:-1])
    # a flipped bit in R, SIG_FORS (secret value, auth path), each hypertree layer, the end
    n = s.n
    positions = [0, n - 1, n, n + n, n + 5 * n, s.sig_bytes // 2, s.sig_bytes - n, s.sig_bytes - 1]
    for pos in positions:
        bad = bytearray(sig)
        bad[pos] ^= 0x80
        assert not s.verify(pk, m, bytes(bad), ctx), f"corruption at byte {pos} accepted"
    # other message, context, key, interface
    assert not s.verify(pk, m + b"x", sig, ctx)
    assert not s.verify(pk, m, sig, b"")
    assert not s.verify(pk, m, sig, ctx + b"\0")
    pk2, _ = keypair(s, "other")
    assert not s.verify(pk2, m, sig, ctx)
    assert not s.hash_verify(pk, m, sig, "SHA2-256", ctx)
    hsig = s.hash_sign(sk, m, "SHA2-256", ctx)
    assert s.hash_verify(pk, m, hsig, "SHA2-256", ctx)
    assert not s.hash_verify(pk, m, hsig, "SHA3-256", ctx)
    assert not s.verify(pk, m, hsig, ctx)
    # context longer than 255 bytes: signing fails with a zeroised signature, verify rejects
    assert s.sign(sk, m, bytes(256)) is None
    assert s.hash_sign(sk, m, "SHA2-256", bytes(256)) is None
    assert not s.verify(pk, m, sig, bytes(256))
    assert s.sign(sk, m, bytes(255)) is not None
    # unknown pre-hash identifiers
    for bad_ph in (0, 13, 255, -1):
        assert s.hash_sign(sk, m, bad_ph, ctx) is None
        assert not s.hash_verify(pk, m, hsig, bad_ph, ctx)


def test_all_zero_and_all_ff_signatures_rejected() -> None:
    for scheme in FAST:
        s = load(scheme)
        pk, _ = keypair(s)
        assert not s.verify(pk, b"m", bytes(s.sig_bytes))
        assert not s.verify(pk, b"m", b"\xff" * s.sig_bytes)


@pytest.mark.parametrize("ph", sorted(PREHASH))
def test_prehash_functions(ph: str) -> None:
    s = load("slh-dsa-shake-128f")
    phid, fn = PREHASH[ph]
    rng = random.Random(ph)
    for length in (0, 1, 55, 56, 63, 64, 71, 72, 111, 112, 127, 128, 135, 136, 143, 144, 167, 168, 1000, 5000):
        m = rng.randbytes(length)
        assert s.prehash(phid, m) == OID_PREFIX + bytes([phid]) + fn(m), f"{ph} length {length}"
    assert s.prehash(99, b"") is None


@pytest.mark.parametrize("scheme", ["slh-dsa-shake-128f", "slh-dsa-shake-256f", "slh-dsa-shake-192s"])
def test_x4_path_matches_serial(scheme: str) -> None:
    """The batched path through pqlab_shake256x4 (forced here; on by default with a native
    4-way Keccak) gives the same keys and signatures as the serial one."""
    ser = load(scheme)
    x4 = load(scheme, ("-DPQLAB_SLHDSA_FORCE_X4",))
    seeds = (bytes([1]) * ser.n, bytes([2]) * ser.n, bytes([3]) * ser.n)
    pk, sk = ser.keygen(*seeds)
    assert x4.keygen(*seeds) == (pk, sk)
    if scheme.endswith("f"):
        sig = ser.sign(sk, b"x4", b"c", bytes(ser.n))
        assert x4.sign(sk, b"x4", b"c", bytes(ser.n)) == sig
        assert x4.verify(pk, b"x4", sig, b"c")


def test_namespace_nm() -> None:
    """Every global symbol of lib/slhdsa carries the set's prefix, for all twelve sets, and
    twelve sets link into one program without clashes."""
    out = ROOT / "build" / "tests" / "slhdsa_nm"
    objs = []
    for scheme in SETS:
        impl = [i for i in discover() if i.scheme == scheme and i.own][0]
        for obj in firmware.impl_objects("host", impl, out / scheme, ["-O1"]):
            objs.append((scheme, obj))
    for scheme, obj in objs:
        for sym in firmware.symbols("host", [obj], "-g --defined-only"):
            assert sym.startswith(prefix(scheme)), f"{obj.name}: un-prefixed global {sym}"
        for sym in firmware.symbols("host", [obj], "-u"):
            assert sym.startswith(("pqlab_", "mem")), f"{obj.name}: depends on {sym}"
    # all twelve sets in one relocatable object: no duplicate definitions
    subprocess.run(
        ["ld", "-r", "-o", str(out / "all.o"), *[str(o) for _, o in objs]], check=True, capture_output=True, text=True
    )
