"""NIST KAT of ML-KEM: the first record of PQCkemKAT_<sk bytes>.rsp (count = 0), generated as
the NIST/PQClean generator does: AES-256-CTR DRBG seeded with entropy 00 01 .. 2f, 48 bytes
of it as the record's seed, the DRBG re-seeded with that seed, then keypair (d || z in one
64-byte request), enc (32 bytes m), dec. The SHA-256 of the record lines count..ss must equal
PQClean's nistkat-sha256 (values from PQClean's META.yml, also in pqlab/data/kat.toml)."""

from __future__ import annotations

import ctypes
import hashlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "mlkem"))
from support import PARAMS, mlkem

# PQClean/PQClean @ 3730b32a, crypto_kem/ml-kem-*/META.yml, nistkat-sha256
NISTKAT_SHA256 = {
    "ML-KEM-512": "c70041a761e01cd6426fa60e9fd6a4412c2be817386c8d0f3334898082512782",
    "ML-KEM-768": "5352539586b6c3df58be6158a6250aeff402bd73060b0a3de68850ac074c17c3",
    "ML-KEM-1024": "f580d851e5fb27e6876e5e203fa18be4cdbfd49e05d48fec3d3992c8f43a13e6",
}


def kat_record(name: str) -> str:
    lib = mlkem(name)
    lib.rng_drbg(bytes(range(48)))
    seed = ctypes.create_string_buffer(48)
    assert lib.lib.pqlab_randombytes(seed, ctypes.c_size_t(48)) == 0
    lib.rng_drbg(seed.raw)
    r, pk, sk = lib.keypair()
    assert r == 0
    r, ct, ss = lib.enc(pk)
    assert r == 0
    r, ss2 = lib.decaps(sk, ct)
    assert r == 0 and ss2 == ss
    lines = [
        "count = 0",
        f"seed = {seed.raw.hex().upper()}",
        f"pk = {pk.hex().upper()}",
        f"sk = {sk.hex().upper()}",
        f"ct = {ct.hex().upper()}",
        f"ss = {ss.hex().upper()}",
    ]
    return "".join(line + "\n" for line in lines)


@pytest.mark.parametrize("name", list(PARAMS))
def test_nist_kat_hash(name: str) -> None:
    rec = kat_record(name)
    assert rec.startswith(
        "count = 0\nseed = 061550234D158C5EC95595FE04EF7A25767F2E24CC2BC479D09D86DC9ABCFDE7056A8C266F9EF97ED08541DBD2E1FFA1\n"
    )
    assert hashlib.sha256(rec.encode()).hexdigest() == NISTKAT_SHA256[name]
