"""NIST KAT of ML-DSA: the first record (count = 0) of PQCsignKAT_<sk bytes>.rsp, generated as the
NIST PQCgenKAT_sign.c generator and PQClean's nistkat do: AES-256-CTR DRBG seeded with entropy
00 01 .. 2f; 48 bytes of it are the record's seed, then mlen = 33 bytes of message; the DRBG is
re-seeded with the seed; crypto_sign_keypair (32 bytes xi), crypto_sign (hedged: 32 bytes rnd),
sm = signature || message, and crypto_sign_open must give the message back. The SHA-256 of
the record lines count..sm (lines 3-10 of the .rsp) must equal PQClean's nistkat-sha256 (values
from PQClean's META.yml, also in pqlab/data/kat.toml)."""

from __future__ import annotations

import ctypes
import hashlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mldsa_support import MODES, mldsa

# PQClean/PQClean @ 3730b32a, crypto_sign/ml-dsa-*/META.yml, nistkat-sha256
NISTKAT_SHA256 = {
    44: "9a196e7fb32fbc93757dc2d8dc1924460eab66303c0c08aeb8b798fb8d8f8cf3",
    65: "7cb96242eac9907a55b5c84c202f0ebd552419c50b2e986dc2e28f07ecebf072",
    87: "4537905d2aabcf302fab2f242baed293459ecda7c230e6a67063b02c7e2840ed",
}


def kat_record(mode: int) -> str:
    lib = mldsa(mode)
    lib.rng_fail(False)
    lib.rng_seed(bytes(range(48)))
    seed = ctypes.create_string_buffer(48)
    msg = ctypes.create_string_buffer(33)
    lib.lib.pqlab_test_drbg_bytes(seed, ctypes.c_size_t(48))
    lib.lib.pqlab_test_drbg_bytes(msg, ctypes.c_size_t(33))
    lib.rng_seed(seed.raw)
    r, pk, sk = lib.keypair()
    assert r == 0
    r, sm = lib.sign_sm(sk, msg.raw)
    assert r == 0 and len(sm) == lib.p.sig_len + 33
    r, m2 = lib.open_sm(pk, sm)
    assert r == 0 and m2 == msg.raw
    lines = [
        "count = 0",
        f"seed = {seed.raw.hex().upper()}",
        "mlen = 33",
        f"msg = {msg.raw.hex().upper()}",
        f"pk = {pk.hex().upper()}",
        f"sk = {sk.hex().upper()}",
        f"smlen = {len(sm)}",
        f"sm = {sm.hex().upper()}",
    ]
    return "".join(line + "\n" for line in lines)


@pytest.mark.parametrize("mode", MODES)
def test_nistkat_hash(mode: int) -> None:
    assert hashlib.sha256(kat_record(mode).encode()).hexdigest() == NISTKAT_SHA256[mode]
