"""Shared helpers of the HQC tests (tests/test_hqc*.py): ctypes builds of lib/hqc for each
parameter set with a scripted randombytes (tests/mlkem/rng.c), typed wrappers of the API,
and the specification's functions G and K computed independently with hashlib."""

from __future__ import annotations

import ctypes
import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from hostlib import ROOT, CtypesKem, build_shared  # noqa: E402 (found through the sys.path entry above)

HQC_SOURCES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "lib" / "hqc").glob("*.c"))
COMMON_SOURCES = ["lib/common/fips202.c", "lib/common/fips202x4.c"]


@dataclass(frozen=True)
class Params:
    level: int
    n: int
    n1: int
    n2: int
    w: int
    wr: int
    delta: int

    @property
    def k(self) -> int:
        return self.level // 8

    @property
    def nbytes(self) -> int:
        return (self.n + 7) // 8

    @property
    def n1n2bytes(self) -> int:
        return self.n1 * self.n2 // 8

    @property
    def pk_len(self) -> int:
        return 40 + self.nbytes

    @property
    def sk_len(self) -> int:
        return 40 + self.k + self.pk_len

    @property
    def ct_len(self) -> int:
        return self.nbytes + self.n1n2bytes + 16

    @property
    def prefix(self) -> str:
        return f"pqlab_hqc{self.level}_ref_"


# HQC round-4 specification (2023-04-30), parameter table
PARAMS = {
    128: Params(128, 17669, 46, 384, 66, 75, 15),
    192: Params(192, 35851, 56, 640, 100, 114, 16),
    256: Params(256, 57637, 90, 640, 131, 149, 29),
}


def shake512(data: bytes, domain: int) -> bytes:
    """SHAKE256(data || domain), 64 bytes: the specification's G (domain 3) and K (domain 4)."""
    return hashlib.shake_256(data + bytes([domain])).digest(64)


class HQC(CtypesKem):
    """ctypes view of one parameter set of lib/hqc (plus a scripted randombytes)."""

    ss_len = 64

    def __init__(self, p: Params):
        self.p = p
        self.prefix = p.prefix
        self.pk_len, self.sk_len, self.ct_len = p.pk_len, p.sk_len, p.ct_len
        self.lib = build_shared(
            f"hqc{p.level}",
            HQC_SOURCES + COMMON_SOURCES + ["tests/mlkem/rng.c"],
            [f"-DPQLAB_HQC_LEVEL={p.level}", f"-DPQLAB_NS={p.prefix}"],
            ["lib/hqc"],
        )

    def keygen(self, sk_seed: bytes, sigma: bytes, pk_seed: bytes) -> tuple[bytes, bytes]:
        assert len(sk_seed) == 40 and len(sigma) == self.p.k and len(pk_seed) == 40
        pk = ctypes.create_string_buffer(self.p.pk_len)
        sk = ctypes.create_string_buffer(self.p.sk_len)
        assert self.fn("crypto_kem_keypair_derand")(pk, sk, sk_seed, sigma, pk_seed) == 0
        return pk.raw, sk.raw

    def encaps(self, pk: bytes, m: bytes, salt: bytes) -> tuple[bytes, bytes]:
        assert len(pk) == self.p.pk_len and len(m) == self.p.k and len(salt) == 16
        ct, ss = self.buf(self.ct_len), self.buf(self.ss_len)
        assert self.fn("crypto_kem_enc_derand")(ct, ss, pk, m, salt) == 0
        return ct.raw, ss.raw

    def decaps(self, sk: bytes, ct: bytes) -> tuple[int, bytes]:
        return self.dec(sk, ct)


_cache: dict[int, HQC] = {}


def hqc(level: int) -> HQC:
    if level not in _cache:
        _cache[level] = HQC(PARAMS[level])
    return _cache[level]
