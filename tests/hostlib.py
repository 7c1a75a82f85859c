"""Build pqlab C sources into a host shared library for ctypes-based unit tests.

Unit and differential tests of the C library call it through ctypes; this keeps
them independent of the target harness. The library is built by pqlab's own build
(pqlab.build.build_program, kind "shared": the host platform's compiler and flags)
under build/tests/<name>-<hash of the source list and flags>/, where ninja rebuilds
only what changed.
"""

from __future__ import annotations

import ctypes
import hashlib
from pathlib import Path

import firmware

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "tests"


def build_shared(
    name: str,
    sources: list[str | Path],
    cflags: list[str] | tuple[str, ...] = (),
    include: list[str | Path] | tuple[str | Path, ...] = (),
) -> ctypes.CDLL:
    """Compile `sources` (paths relative to the project root) into a shared library and load it."""
    srcs = [ROOT / s for s in sources]
    incs = [ROOT / i for i in include]
    key = "\0".join(map(str, [*srcs, "--", *cflags, "--", *incs]))
    out_dir = CACHE / f"{name}-{hashlib.sha256(key.encode()).hexdigest()[:16]}"
    return ctypes.CDLL(str(firmware.build("host", out_dir, srcs, include=incs, cflags=cflags, kind="shared")))


class CtypesKem:
    """The NIST KEM API of one ctypes-built parameter set, shared by the KEM test helpers
    (tests/mlkem/support.py, tests/hqc/hqc_support.py). A subclass sets `lib`, `prefix` and
    the sizes `pk_len`, `sk_len`, `ct_len`, `ss_len`; the library links tests/mlkem/rng.c,
    whose scripted randombytes `rng_script` fills. Output buffers start as 0xa5 bytes so a
    test sees what a call left unwritten."""

    lib: ctypes.CDLL
    prefix: str
    pk_len: int
    sk_len: int
    ct_len: int
    ss_len: int

    def fn(self, name: str):
        return getattr(self.lib, self.prefix + name)

    @staticmethod
    def buf(n: int) -> ctypes.Array:
        return ctypes.create_string_buffer(b"\xa5" * n, n)

    def rng_script(self, data: bytes) -> None:
        self.lib.pqlab_test_rng_script(data, ctypes.c_size_t(len(data)))

    def keypair(self) -> tuple[int, bytes, bytes]:
        pk, sk = self.buf(self.pk_len), self.buf(self.sk_len)
        r = self.fn("crypto_kem_keypair")(pk, sk)
        return r, pk.raw, sk.raw

    def enc(self, pk: bytes) -> tuple[int, bytes, bytes]:
        ct, ss = self.buf(self.ct_len), self.buf(self.ss_len)
        r = self.fn("crypto_kem_enc")(ct, ss, pk)
        return r, ct.raw, ss.raw

    def dec(self, sk: bytes, ct: bytes, name: str = "crypto_kem_dec") -> tuple[int, bytes]:
        assert len(sk) == self.sk_len and len(ct) == self.ct_len
        ss = self.buf(self.ss_len)
        r = self.fn(name)(ss, ct, sk)
        return r, ss.raw
