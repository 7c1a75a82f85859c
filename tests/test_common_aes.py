"""lib/common AES (FIPS 197) and the NIST AES-256-CTR DRBG.

AES: FIPS 197 appendix B and C examples; differential against the `cryptography`
package for ECB and CTR on random keys of all three sizes and many lengths.
DRBG: the NIST PQC KAT master seed (entropy 00..2f) and the seed/msg stream of the
NIST KAT request file (all 100 entries, by the official file's SHA-256, tests/nistreq.py),
plus a Python model of rng.c.
"""

from __future__ import annotations

import ctypes
import hashlib
import random

import nistreq
import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from extdata import vectors
from hostlib import build_shared

SZ = ctypes.c_size_t
AES_CTX = 121 * 4  # uint32_t rk[120]; unsigned nr
DRBG_STATE = 52


@pytest.fixture(scope="module")
def lib() -> ctypes.CDLL:
    return build_shared("pqlab_common_aes", ["lib/common/aes.c", "lib/common/drbg.c", "lib/common/hashprof.c"])


def keyexp(lib: ctypes.CDLL, key: bytes) -> ctypes.Array:
    ctx = ctypes.create_string_buffer(AES_CTX)
    lib.pqlab_aes_keyexp(ctx, key, SZ(len(key)))
    return ctx


def ecb(lib: ctypes.CDLL, ctx: ctypes.Array, data: bytes) -> bytes:
    out = ctypes.create_string_buffer(len(data) + 16)
    ctypes.memset(out, 0xA5, len(data) + 16)
    lib.pqlab_aes_ecb(out, data, SZ(len(data) // 16), ctx)
    assert out.raw[len(data) :] == b"\xa5" * 16, "ECB wrote past the output"
    return out.raw[: len(data)]


def ref_ecb(key: bytes, data: bytes) -> bytes:
    return Cipher(algorithms.AES(key), modes.ECB()).encryptor().update(data)


# FIPS 197 appendix C.1-C.3 (key 00 01 02 ..., plaintext 00 11 22 ... ff) and appendix B
FIPS197 = [
    (bytes(range(16)), "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a"),
    (bytes(range(24)), "00112233445566778899aabbccddeeff", "dda97ca4864cdfe06eaf70a0ec0d7191"),
    (bytes(range(32)), "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089"),
    (
        bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c"),
        "3243f6a8885a308d313198a2e0370734",
        "3925841d02dc09fbdc118597196a0b32",
    ),
]


@pytest.mark.parametrize("key,pt,ct", FIPS197, ids=["C.1", "C.2", "C.3", "B"])
def test_fips197_examples(lib: ctypes.CDLL, key: bytes, pt: str, ct: str) -> None:
    ctx = keyexp(lib, key)
    assert ecb(lib, ctx, bytes.fromhex(pt)).hex() == ct


def test_ecb_differential(lib: ctypes.CDLL) -> None:
    rng = random.Random(11)
    n = 0
    for keylen in (16, 24, 32):
        for _ in range(200):
            key = rng.randbytes(keylen)
            ctx = keyexp(lib, key)
            nblocks = rng.choice([0, 1, 2, 3, rng.randint(0, 20)])
            data = rng.randbytes(16 * nblocks)
            assert ecb(lib, ctx, data) == ref_ecb(key, data)
            n += 1
    assert n == 600


def test_ecb_in_place(lib: ctypes.CDLL) -> None:
    key = bytes(range(32))
    ctx = keyexp(lib, key)
    for nblocks in (1, 2, 3, 5):
        data = bytes(range(16 * nblocks))
        buf = ctypes.create_string_buffer(data, 16 * nblocks)
        lib.pqlab_aes_ecb(buf, buf, SZ(nblocks), ctx)
        assert buf.raw == ref_ecb(key, data)


def test_ctr_differential(lib: ctypes.CDLL) -> None:
    rng = random.Random(12)
    lengths = list(range(100)) + [127, 128, 129, 255, 256, 257, 1000, 4096]
    for keylen in (16, 24, 32):
        for outlen in lengths:
            key = rng.randbytes(keylen)
            iv = rng.randbytes(12)
            ctx = keyexp(lib, key)
            out = ctypes.create_string_buffer(outlen + 16)
            ctypes.memset(out, 0xA5, outlen + 16)
            lib.pqlab_aes_ctr(out, SZ(outlen), iv, ctx)
            # the counter block is iv || 32-bit big-endian counter starting at 0
            want = Cipher(algorithms.AES(key), modes.CTR(iv + bytes(4))).encryptor().update(bytes(outlen))
            assert out.raw[:outlen] == want, (keylen, outlen)
            assert out.raw[outlen:] == b"\xa5" * 16


def test_sbox_all_bytes_via_zero_key_rounds(lib: ctypes.CDLL) -> None:
    # every byte value through the S-box in every position: encrypt 16 blocks that hold
    # all 256 byte values under several keys and compare
    data = bytes(range(256))
    for key in (bytes(16), bytes([0xFF] * 24), bytes(range(32))):
        assert ecb(lib, keyexp(lib, key), data) == ref_ecb(key, data)


def test_bad_keylen_and_release(lib: ctypes.CDLL) -> None:
    ctx = ctypes.create_string_buffer(b"\x77" * AES_CTX, AES_CTX)
    lib.pqlab_aes_keyexp(ctx, bytes(20), SZ(20))
    assert ctx.raw == bytes(AES_CTX)  # zeroed, nr = 0
    ctx = keyexp(lib, bytes(range(32)))
    assert ctx.raw != bytes(AES_CTX)
    lib.pqlab_aes_ctx_release(ctx)
    assert ctx.raw == bytes(AES_CTX)
    lib.pqlab_aes_ctx_release(ctx)  # twice is fine


# ---------------------------------------------------------------- DRBG


class RefDrbg:
    """Python model of rng.c of the NIST PQC package (AES-256 CTR_DRBG, no df)."""

    def __init__(self, entropy: bytes, pers: bytes | None = None) -> None:
        seed = bytes(a ^ b for a, b in zip(entropy, pers)) if pers else entropy
        self.key, self.v = bytes(32), bytes(16)
        self._update(seed)

    def _inc(self) -> None:
        self.v = ((int.from_bytes(self.v, "big") + 1) % (1 << 128)).to_bytes(16, "big")

    def _update(self, provided: bytes | None) -> None:
        tmp = b""
        for _ in range(3):
            self._inc()
            tmp += ref_ecb(self.key, self.v)
        if provided is not None:
            tmp = bytes(a ^ b for a, b in zip(tmp, provided))
        self.key, self.v = tmp[:32], tmp[32:]

    def generate(self, n: int) -> bytes:
        out = b""
        while len(out) < n:
            self._inc()
            out += ref_ecb(self.key, self.v)
        self._update(None)
        return out[:n]


class Drbg:
    def __init__(self, lib: ctypes.CDLL, entropy: bytes, pers: bytes | None = None) -> None:
        self.lib = lib
        self.st = ctypes.create_string_buffer(DRBG_STATE)
        lib.pqlab_drbg_init(self.st, entropy, pers)

    def generate(self, n: int) -> bytes:
        out = ctypes.create_string_buffer(n + 16)
        ctypes.memset(out, 0xA5, n + 16)
        self.lib.pqlab_drbg_generate(self.st, out, SZ(n))
        assert out.raw[n:] == b"\xa5" * 16
        return out.raw[:n]

    @property
    def reseed_counter(self) -> int:
        return int.from_bytes(self.st.raw[48:52], "little")


KAT_SEED0 = "061550234D158C5EC95595FE04EF7A25767F2E24CC2BC479D09D86DC9ABCFDE7056A8C266F9EF97ED08541DBD2E1FFA1"


def test_drbg_nist_kat_first_seed(lib: ctypes.CDLL) -> None:
    d = Drbg(lib, bytes(range(48)))
    assert d.reseed_counter == 1
    assert d.generate(48).hex().upper() == KAT_SEED0
    assert d.reseed_counter == 2


def test_drbg_signature_kat_stream_start(lib: ctypes.CDLL) -> None:
    # PQCgenKAT_sign.c draws, for count = 0..99: seed (48 bytes), then msg (33*(count+1));
    # values of count 0 and 1 from the Falcon round-3 falcon512-KAT.req
    d = Drbg(lib, bytes(range(48)))
    assert d.generate(48).hex().upper() == KAT_SEED0
    assert d.generate(33).hex().upper() == ("D81C4D8D734FCBFBEADE3D3F8A039FAA2A2C9957E835AD55B22E75BF57BB556AC8")
    assert d.generate(48).hex().upper() == (
        "64335BF29E5DE62842C941766BA129B0643B5E7121CA26CFC190EC7DC3543830557FDD5C03CF123A456D48EFEA43C868"
    )


def test_drbg_reproduces_kat_request_stream(lib: ctypes.CDLL) -> None:
    # all 100 entries: the .req text built from our DRBG has the SHA-256 of the official file
    d = Drbg(lib, bytes(range(48)))
    entries = []
    for count in range(nistreq.COUNT):
        seed = d.generate(48).hex().upper()
        entries.append((seed, d.generate(nistreq.mlen(count)).hex().upper()))
    assert nistreq.req_sha256(entries) == nistreq.REQ_SHA256
    # and a changed byte anywhere is seen
    entries[57] = (entries[57][0], entries[57][1][:-1] + ("0" if entries[57][1][-1] != "0" else "1"))
    assert nistreq.req_sha256(entries) != nistreq.REQ_SHA256


def test_kat_request_hash_is_the_official_file() -> None:
    """The constant in nistreq.py against the Falcon round-3 package's .req (external vectors)."""
    f = vectors(nistreq.REQ_FILE)
    assert hashlib.sha256(f.read_bytes()).hexdigest() == nistreq.REQ_SHA256


def test_drbg_against_model(lib: ctypes.CDLL) -> None:
    rng = random.Random(13)
    for _ in range(40):
        entropy = rng.randbytes(48)
        pers = rng.randbytes(48) if rng.random() < 0.5 else None
        d, ref = Drbg(lib, entropy, pers), RefDrbg(entropy, pers)
        for _ in range(5):
            n = rng.choice([0, 1, 15, 16, 17, 32, 48, rng.randint(0, 300)])
            assert d.generate(n) == ref.generate(n)


def test_drbg_personalization_is_xored(lib: ctypes.CDLL) -> None:
    rng = random.Random(14)
    entropy, pers = rng.randbytes(48), rng.randbytes(48)
    a = Drbg(lib, entropy, pers).generate(100)
    b = Drbg(lib, bytes(x ^ y for x, y in zip(entropy, pers))).generate(100)
    assert a == b
