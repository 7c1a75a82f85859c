"""Shared helpers of the ML-KEM tests (tests/test_mlkem_*.py): ctypes builds of lib/mlkem
for each parameter set, typed wrappers of the API, and the vector file locations."""

from __future__ import annotations

import ctypes
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from extdata import vectors  # noqa: E402 (found through the sys.path entry above)
from hostlib import ROOT, CtypesKem, build_shared  # noqa: E402


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


class MLKEM(CtypesKem):
    """ctypes view of one parameter set of lib/mlkem (plus a scripted/DRBG randombytes)."""

    ss_len = 32

    def __init__(self, p: Params, extra_flags: tuple[str, ...] = ()):
        self.p = p
        self.prefix = p.prefix
        self.pk_len, self.sk_len, self.ct_len = p.ek_len, p.dk_len, p.ct_len
        self.lib = build_shared(
            f"mlkem{p.n}",
            MLKEM_SOURCES + COMMON_SOURCES + ["tests/mlkem/rng.c", "tests/mlkem/shim.c"],
            p.cflags + ["-DPQLAB_TEST_DRBG", *extra_flags],
            ["lib/mlkem"],
        )

    def keygen(self, d: bytes, z: bytes) -> tuple[bytes, bytes]:
        ek = ctypes.create_string_buffer(self.p.ek_len)
        dk = ctypes.create_string_buffer(self.p.dk_len)
        assert self.fn("crypto_kem_keypair_derand")(ek, dk, d, z) == 0
        return ek.raw, dk.raw

    def encaps(self, ek: bytes, m: bytes) -> tuple[int, bytes, bytes]:
        assert len(ek) == self.p.ek_len and len(m) == 32
        c, k = self.buf(self.ct_len), self.buf(self.ss_len)
        r = self.fn("crypto_kem_enc_derand")(c, k, ek, m)
        return r, c.raw, k.raw

    def decaps(self, dk: bytes, c: bytes, internal: bool = False) -> tuple[int, bytes]:
        return self.dec(dk, c, "crypto_kem_dec_internal" if internal else "crypto_kem_dec")

    def check_ek(self, ek: bytes) -> bool:
        return len(ek) == self.p.ek_len and self.fn("crypto_kem_check_ek")(ek) == 0

    def check_dk(self, dk: bytes) -> bool:
        return len(dk) == self.p.dk_len and self.fn("crypto_kem_check_dk")(dk) == 0

    # randombytes from the NIST DRBG (rng_script: the base class)
    def rng_drbg(self, entropy: bytes) -> None:
        assert len(entropy) == 48
        self.lib.pqlab_test_rng_drbg(entropy)


_cache: dict[str, MLKEM] = {}


def mlkem(name: str) -> MLKEM:
    if name not in _cache:
        _cache[name] = MLKEM(PARAMS[name])
    return _cache[name]
