"""Shared helpers for the SLH-DSA tests: build one parameter set of lib/slhdsa into a
host shared library (tests/hostlib.py) and call it through ctypes.

Also holds the quick self-checks of the helpers themselves (sizes, namespacing of the
exported names), so that a broken build shows up first and clearly.
"""

from __future__ import annotations

import ctypes
import hashlib
from dataclasses import dataclass
from pathlib import Path

from hostlib import ROOT, build_shared

# FIPS 205 Table 2: n, h, d, h', a, k, m, pk bytes, sig bytes
PARAMS = {
    "128s": (16, 63, 7, 9, 12, 14, 30, 32, 7856),
    "128f": (16, 66, 22, 3, 6, 33, 34, 32, 17088),
    "192s": (24, 63, 7, 9, 14, 17, 39, 48, 16224),
    "192f": (24, 66, 22, 3, 8, 33, 42, 48, 35664),
    "256s": (32, 64, 8, 8, 14, 22, 47, 64, 29792),
    "256f": (32, 68, 17, 4, 9, 35, 49, 64, 49856),
}
SETS = [f"slh-dsa-{h}-{p}" for h in ("sha2", "shake") for p in PARAMS]
# ACVP parameterSet name -> our scheme name
ACVP_NAMES = {f"SLH-DSA-{s.split('-')[2].upper()}-{s.split('-')[3]}": s for s in SETS}

# pre-hash identifiers (lib/slhdsa/slhdsa_ph.h): last OID arc, digest function
PREHASH = {
    "SHA2-256": (0x01, lambda m: hashlib.sha256(m).digest()),
    "SHA2-384": (0x02, lambda m: hashlib.sha384(m).digest()),
    "SHA2-512": (0x03, lambda m: hashlib.sha512(m).digest()),
    "SHA2-224": (0x04, lambda m: hashlib.sha224(m).digest()),
    "SHA2-512/224": (0x05, lambda m: hashlib.new("sha512_224", m).digest()),
    "SHA2-512/256": (0x06, lambda m: hashlib.new("sha512_256", m).digest()),
    "SHA3-224": (0x07, lambda m: hashlib.sha3_224(m).digest()),
    "SHA3-256": (0x08, lambda m: hashlib.sha3_256(m).digest()),
    "SHA3-384": (0x09, lambda m: hashlib.sha3_384(m).digest()),
    "SHA3-512": (0x0A, lambda m: hashlib.sha3_512(m).digest()),
    "SHAKE-128": (0x0B, lambda m: hashlib.shake_128(m).digest(32)),
    "SHAKE-256": (0x0C, lambda m: hashlib.shake_256(m).digest(64)),
}
OID_PREFIX = bytes.fromhex("0609608648016503040200")[:10]

RNG_C = r"""/* SPDX-License-Identifier: MIT */
/* pqlab_randombytes for the SLH-DSA ctypes tests: bytes scripted by the test */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "randombytes.h"
static uint8_t script[1024];
static size_t script_len, script_pos;
void pqlab_test_slh_rng(const uint8_t *b, size_t n) {
    if (n > sizeof script) n = sizeof script;
    memcpy(script, b, n); script_len = n; script_pos = 0;
}
int pqlab_randombytes(uint8_t *out, size_t n) {
    if (script_len - script_pos < n) return -1;
    memcpy(out, script + script_pos, n); script_pos += n;
    return 0;
}
"""

COMMON = ["lib/common/fips202.c", "lib/common/fips202x4.c", "lib/common/sha2.c", "lib/common/hashprof.c"]


def cflags(scheme: str) -> list[str]:
    """The flags of lib/crypto_sign/<scheme>/ref/pqlab.toml"""
    _, _, h, p = scheme.split("-")
    return [
        f"-DPQLAB_SLHDSA_HASH_{h.upper()}",
        f"-DPQLAB_SLHDSA_N={PARAMS[p][0]}",
        f"-DPQLAB_SLHDSA_VARIANT_{p[-1].upper()}",
        f"-DPQLAB_NS={prefix(scheme)}",
    ]


def prefix(scheme: str) -> str:
    return "pqlab_" + scheme.replace("-", "_").replace("slh_dsa", "slhdsa") + "_ref_"


def sources() -> list[str | Path]:
    rng = ROOT / "build" / "tests" / "slhdsa_rng.c"
    if not rng.exists() or rng.read_text() != RNG_C:
        rng.parent.mkdir(parents=True, exist_ok=True)
        rng.write_text(RNG_C)
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "lib" / "slhdsa").glob("*.c")) + COMMON + [rng]


_cache: dict[tuple[str, tuple[str, ...]], Slh] = {}


@dataclass
class Slh:
    scheme: str
    lib: ctypes.CDLL
    n: int
    pk_bytes: int
    sk_bytes: int
    sig_bytes: int
    pre: str

    def fn(self, name: str):
        return getattr(self.lib, self.pre + name)

    def keygen(self, sk_seed: bytes, sk_prf: bytes, pk_seed: bytes) -> tuple[bytes, bytes]:
        pk = ctypes.create_string_buffer(self.pk_bytes)
        sk = ctypes.create_string_buffer(self.sk_bytes)
        assert self.fn("slh_keygen_internal")(pk, sk, sk_seed, sk_prf, pk_seed) == 0
        return pk.raw, sk.raw

    def sign_internal(self, sk: bytes, m: bytes, addrnd: bytes | None = None) -> bytes:
        sig = ctypes.create_string_buffer(self.sig_bytes)
        assert self.fn("slh_sign_internal")(sig, m, ctypes.c_size_t(len(m)), addrnd, sk) == 0
        return sig.raw

    def verify_internal(self, pk: bytes, m: bytes, sig: bytes) -> bool:
        r = self.fn("slh_verify_internal")(sig, ctypes.c_size_t(len(sig)), m, ctypes.c_size_t(len(m)), pk)
        assert r in (0, -1)
        return r == 0

    def sign(self, sk: bytes, m: bytes, ctx: bytes = b"", addrnd: bytes | None = None) -> bytes | None:
        sig = ctypes.create_string_buffer(self.sig_bytes)
        r = self.fn("slh_sign")(sig, m, ctypes.c_size_t(len(m)), ctx, ctypes.c_size_t(len(ctx)), addrnd, sk)
        return sig.raw if r == 0 else None

    def verify(self, pk: bytes, m: bytes, sig: bytes, ctx: bytes = b"") -> bool:
        r = self.fn("slh_verify")(
            sig, ctypes.c_size_t(len(sig)), m, ctypes.c_size_t(len(m)), ctx, ctypes.c_size_t(len(ctx)), pk
        )
        assert r in (0, -1)
        return r == 0

    def hash_sign(
        self, sk: bytes, m: bytes, ph: str | int, ctx: bytes = b"", addrnd: bytes | None = None
    ) -> bytes | None:
        phid = PREHASH[ph][0] if isinstance(ph, str) else ph
        sig = ctypes.create_string_buffer(self.sig_bytes)
        r = self.fn("hash_slh_sign")(sig, m, ctypes.c_size_t(len(m)), ctx, ctypes.c_size_t(len(ctx)), phid, addrnd, sk)
        return sig.raw if r == 0 else None

    def hash_verify(self, pk: bytes, m: bytes, sig: bytes, ph: str | int, ctx: bytes = b"") -> bool:
        phid = PREHASH[ph][0] if isinstance(ph, str) else ph
        r = self.fn("hash_slh_verify")(
            sig, ctypes.c_size_t(len(sig)), m, ctypes.c_size_t(len(m)), ctx, ctypes.c_size_t(len(ctx)), phid, pk
        )
        assert r in (0, -1)
        return r == 0

    def prehash(self, ph: int, m: bytes) -> bytes | None:
        out = ctypes.create_string_buffer(80)
        r = self.fn("slh_prehash")(out, ph, m, ctypes.c_size_t(len(m)))
        return None if r < 0 else out.raw[:r]

    def rng(self, data: bytes) -> None:
        self.lib.pqlab_test_slh_rng(data, ctypes.c_size_t(len(data)))


def load(scheme: str, extra: tuple[str, ...] = ()) -> Slh:
    key = (scheme, extra)
    if key not in _cache:
        p = PARAMS[scheme.split("-")[3]]
        tag = scheme.replace("-", "_") + "".join(e.replace("-D", "_").lower() for e in extra)
        lib = build_shared(tag, sources(), cflags(scheme) + list(extra), include=["lib/slhdsa"])
        n = p[0]
        _cache[key] = Slh(scheme, lib, n, 2 * n, 4 * n, p[8], prefix(scheme))
    return _cache[key]


def test_sizes_match_table2() -> None:
    for s in SETS:
        n, h, d, hp, a, k, m, pkb, sigb = PARAMS[s.split("-")[3]]
        length = 2 * n + 3
        assert h == d * hp
        assert sigb == n * (1 + k * (a + 1) + h + d * length)
        assert m == (k * a + 7) // 8 + (h - hp + 7) // 8 + (hp + 7) // 8
        assert pkb == 2 * n


def test_prefix_names() -> None:
    assert prefix("slh-dsa-shake-128f") == "pqlab_slhdsa_shake_128f_ref_"
    assert ACVP_NAMES["SLH-DSA-SHA2-192s"] == "slh-dsa-sha2-192s"
