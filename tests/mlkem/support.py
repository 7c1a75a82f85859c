"""Shared helpers of the ML-KEM tests (tests/test_mlkem_*.py): ctypes builds of lib/mlkem
for each parameter set, typed wrappers of the API, and the vector file locations."""

from __future__ import annotations

import ctypes
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from extdata import vectors
from hostlib import ROOT, build_shared


def acvp(rel: str) -> Path:
    """A file of the NIST ACVP-Server v1.1.0.40 ML-KEM vectors (external; skips without them)."""
    return vectors(f"acvp/v1.1.0.40/{rel}")


def wycheproof(name: str) -> Path:
    """A Wycheproof testvectors_v1 file (external; skips without them)."""
    return vectors(f"wycheproof/testvectors_v1/{name}")


MLKEM_SOURCES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "lib" / "mlkem").glob("*.c"))
COMMON_SOURCES = ["lib/common/fips202.c", "lib/common/fips202x4.c", "lib/common/aes.c", "lib/common/drbg.c"]


@dataclass(frozen=True)
class Params:
    name: str
    k: int
    eta1: int
    du: int
    dv: int

    @property
    def n(self) -> str:
        return self.name.split("-")[-1]

    @property
    def ek_len(self) -> int:
        return 384 * self.k + 32

    @property
    def dk_len(self) -> int:
        return 768 * self.k + 96

    @property
    def ct_len(self) -> int:
        return 32 * (self.du * self.k + self.dv)

    @property
    def prefix(self) -> str:
        return f"pqlab_mlkem{self.n}_ref_"

    @property
    def cflags(self) -> list[str]:
        return [f"-DPQLAB_MLKEM_K={self.k}", f"-DPQLAB_NS={self.prefix}"]


PARAMS = {
    "ML-KEM-512": Params("ML-KEM-512", 2, 3, 10, 4),
    "ML-KEM-768": Params("ML-KEM-768", 3, 2, 10, 4),
    "ML-KEM-1024": Params("ML-KEM-1024", 4, 2, 11, 5),
}


class MLKEM:
    """ctypes view of one parameter set of lib/mlkem (plus a scripted/DRBG randombytes)."""

    def __init__(self, p: Params, extra_flags: tuple[str, ...] = ()):
        self.p = p
        self.lib = build_shared(
            f"mlkem{p.n}",
            MLKEM_SOURCES + COMMON_SOURCES + ["tests/mlkem/rng.c", "tests/mlkem/shim.c"],
            p.cflags + ["-DPQLAB_TEST_DRBG", *extra_flags],
            ["lib/mlkem"],
        )

    def fn(self, name: str):
        return getattr(self.lib, self.p.prefix + name)

    def keygen(self, d: bytes, z: bytes) -> tuple[bytes, bytes]:
        ek = ctypes.create_string_buffer(self.p.ek_len)
        dk = ctypes.create_string_buffer(self.p.dk_len)
        assert self.fn("crypto_kem_keypair_derand")(ek, dk, d, z) == 0
        return ek.raw, dk.raw

    def encaps(self, ek: bytes, m: bytes) -> tuple[int, bytes, bytes]:
        assert len(ek) == self.p.ek_len and len(m) == 32
        c = ctypes.create_string_buffer(b"\xa5" * self.p.ct_len, self.p.ct_len)
        k = ctypes.create_string_buffer(b"\xa5" * 32, 32)
        r = self.fn("crypto_kem_enc_derand")(c, k, ek, m)
        return r, c.raw, k.raw

    def decaps(self, dk: bytes, c: bytes, internal: bool = False) -> tuple[int, bytes]:
        assert len(dk) == self.p.dk_len and len(c) == self.p.ct_len
        k = ctypes.create_string_buffer(b"\xa5" * 32, 32)
        r = self.fn("crypto_kem_dec_internal" if internal else "crypto_kem_dec")(k, c, dk)
        return r, k.raw

    def check_ek(self, ek: bytes) -> bool:
        return len(ek) == self.p.ek_len and self.fn("crypto_kem_check_ek")(ek) == 0

    def check_dk(self, dk: bytes) -> bool:
        return len(dk) == self.p.dk_len and self.fn("crypto_kem_check_dk")(dk) == 0

    # randomised API with randombytes from a script or the NIST DRBG
    def rng_script(self, data: bytes) -> None:
        self.lib.pqlab_test_rng_script(data, ctypes.c_size_t(len(data)))

    def rng_drbg(self, entropy: bytes) -> None:
        assert len(entropy) == 48
        self.lib.pqlab_test_rng_drbg(entropy)

    def keypair(self) -> tuple[int, bytes, bytes]:
        ek = ctypes.create_string_buffer(b"\xa5" * self.p.ek_len, self.p.ek_len)
        dk = ctypes.create_string_buffer(b"\xa5" * self.p.dk_len, self.p.dk_len)
        r = self.fn("crypto_kem_keypair")(ek, dk)
        return r, ek.raw, dk.raw

    def enc(self, ek: bytes) -> tuple[int, bytes, bytes]:
        c = ctypes.create_string_buffer(b"\xa5" * self.p.ct_len, self.p.ct_len)
        k = ctypes.create_string_buffer(b"\xa5" * 32, 32)
        r = self.fn("crypto_kem_enc")(c, k, ek)
        return r, c.raw, k.raw


_cache: dict[str, MLKEM] = {}


def mlkem(name: str) -> MLKEM:
    if name not in _cache:
        _cache[name] = MLKEM(PARAMS[name])
    return _cache[name]
