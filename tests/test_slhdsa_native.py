"""The interleaved-state path of lib/slhdsa/hash_shake.c (taken when a native Keccak
backend is present, PQLAB_KECCAKF1600_NATIVE) against the portable standard-layout path.

On the host the backend is the C stand-in of tests/test_native_armv7em_sponge.py (a
FIPS 202 Keccak-f with its own bit-by-bit interleaving), so the SLH-DSA side of the
contract (padding lanes, the hash address XORed into the converted ADRS lane, chain
values kept in the state) is checked independently of the ARMv7E-M assembly; the
assembly itself runs in the m4-sim / mps2-an386 vector and ACVP tests."""

from __future__ import annotations

import ctypes
import hashlib
import random

import pytest
from hostlib import ROOT, build_shared
from test_native_armv7em_sponge import HOST_BACKEND
from test_slhdsa_lib import PARAMS, Slh, cflags, load, prefix, sources

SHAKE_F = ["slh-dsa-shake-128f", "slh-dsa-shake-192f", "slh-dsa-shake-256f"]


def load_il(scheme: str) -> Slh:
    shim = ROOT / "build" / "tests" / "native_standin_backend.c"
    shim.parent.mkdir(parents=True, exist_ok=True)
    if not shim.exists() or shim.read_text() != HOST_BACKEND:
        shim.write_text(HOST_BACKEND)
    tag = scheme.replace("-", "_") + "_il_standin"
    lib = build_shared(
        tag,
        sources() + [shim.relative_to(ROOT)],
        cflags(scheme) + ["-DPQLAB_KECCAKF1600_NATIVE"],
        include=["lib/slhdsa"],
    )
    n = PARAMS[scheme.split("-")[3]][0]
    p = PARAMS[scheme.split("-")[3]]
    return Slh(scheme, lib, n, 2 * n, 4 * n, p[8], prefix(scheme))


def ctx_buf(lib: Slh, pk_seed: bytes, sk_seed: bytes) -> ctypes.Array:
    buf = ctypes.create_string_buffer(512)  # larger than any slh_ctx
    lib.fn("ctx_init")(buf, pk_seed, sk_seed)
    return buf


def adrs(layer: int, tree: int, typ: int, kp: int, chain: int, hsh: int) -> bytes:
    return (
        layer.to_bytes(4, "big")
        + tree.to_bytes(12, "big")
        + typ.to_bytes(4, "big")
        + kp.to_bytes(4, "big")
        + chain.to_bytes(4, "big")
        + hsh.to_bytes(4, "big")
    )


def shake_f(pk_seed: bytes, a: bytes, m: bytes, n: int) -> bytes:
    """FIPS 205 section 11.1: F, H, PRF = SHAKE256(PK.seed || ADRS || M, 8n)"""
    return hashlib.shake_256(pk_seed + a + m).digest(n)


@pytest.mark.parametrize("scheme", SHAKE_F)
def test_tweakable_hashes_both_layouts(scheme: str) -> None:
    """F, H, PRF and chain (Algorithm 5) of both layouts against hashlib"""
    rnd = random.Random(scheme)
    for slh in (load(scheme), load_il(scheme)):
        n = slh.n
        for _ in range(6):
            pk_seed, sk_seed = rnd.randbytes(n), rnd.randbytes(n)
            ctx = ctx_buf(slh, pk_seed, sk_seed)
            a = adrs(rnd.randrange(22), rnd.getrandbits(64), 0, rnd.randrange(8), rnd.randrange(67), rnd.randrange(16))
            m1, m2 = rnd.randbytes(n), rnd.randbytes(2 * n)
            out = ctypes.create_string_buffer(n)
            slh.fn("hash_F")(out, ctx, a, m1)
            assert out.raw == shake_f(pk_seed, a, m1, n)
            slh.fn("hash_H")(out, ctx, a, m2)
            assert out.raw == shake_f(pk_seed, a, m2, n)
            slh.fn("hash_PRF")(out, ctx, a)
            assert out.raw == shake_f(pk_seed, a, sk_seed, n)
            # chains with every start and length that WOTS+ uses (start + steps <= 15)
            for start, steps in ((0, 15), (0, 0), (3, 1), (7, 8), (14, 1), (rnd.randrange(8), rnd.randrange(8))):
                want = m1
                for j in range(start, start + steps):
                    want = shake_f(pk_seed, a[:28] + j.to_bytes(4, "big"), want, n)
                buf = ctypes.create_string_buffer(m1, n)
                slh.fn("hash_chain")(buf, buf, start, steps, ctx, a)
                assert buf.raw == want, (start, steps)
                slh.fn("hash_chain")(out, m1, start, steps, ctx, a)  # out != in
                assert out.raw == want, (start, steps)


@pytest.mark.parametrize("scheme", SHAKE_F)
def test_interleaved_path_matches_portable(scheme: str) -> None:
    """Keys and (for 128f) a signature are byte-identical between the two layouts."""
    ref, il = load(scheme), load_il(scheme)
    seeds = (bytes([5]) * ref.n, bytes([6]) * ref.n, bytes([7]) * ref.n)
    pk, sk = ref.keygen(*seeds)
    assert il.keygen(*seeds) == (pk, sk)
    if scheme == "slh-dsa-shake-128f":
        sig = ref.sign(sk, b"layout", b"ctx", bytes(ref.n))
        assert il.sign(sk, b"layout", b"ctx", bytes(ref.n)) == sig
        assert il.verify(pk, b"layout", sig, b"ctx")
        bad = bytearray(sig)
        bad[-1] ^= 1
        assert not il.verify(pk, b"layout", bytes(bad), b"ctx")
