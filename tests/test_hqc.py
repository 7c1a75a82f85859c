"""HQC (lib/hqc, round-4 specification of 2023-04-30) on the host through ctypes.

- The submission's own KAT generator (SHAKE256 PRNG, PQClean test/common/hqckatrng.c and
  test/crypto_kem/hqckat.c) reproduced in Python around our library: the SHA-256 of record 0
  equals PQClean's META.yml nistkat-sha256 for all three sets.
- The Reed-Solomon generator polynomials of params.h re-derived from their roots.
- Shared secret = K(m || u || v) (hashlib), implicit rejection = K(sigma || u || v) for a
  modified salt (each of its 16 bytes), u, v, or the padding bits of u beyond n.
- Randomised API = deterministic API under scripted randomness; a randombytes failure gives
  -3 and zeroised outputs.
- Decoders: RS corrects delta symbol errors, RM(1,7) x MULT corrects 32 MULT - 1 bit errors
  per block; beyond that they return something (no crash).
- Malformed secret keys and ciphertexts: no crash, implicit rejection (PQLAB_HQC_FUZZ_N).
"""

from __future__ import annotations

import ctypes
import os
import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "hqc"))
from hqc_support import PARAMS, ROOT, hqc, shake512

LEVELS = list(PARAMS)

# PQClean META.yml nistkat-sha256 of hqc-128/192/256 (PQClean at c3e6861, as inside
# pqm4-cc2c1b9.tar.gz; nistkat-rng: hqc): SHA-256 of record 0 of the submission's KAT generator
META_NISTKAT_SHA256 = {
    128: "74290ad7a789c01aa92cd7f72f1b5ba5fa30a58294cdf2df52b9c76c3aafba3b",
    192: "771c5e421c4eea951850d5883e2329c40783a3c0f363d8dc8e1be7c4026d1ab7",
    256: "e89c520e1ac615ecf6923f211569177c536a89bf94bebf85bb263528282092c4",
}


def shake_prng(seed: bytes, n: int) -> bytes:
    """The HQC KAT PRNG: SHAKE256(seed || 0x01), read as one stream."""
    import hashlib

    return hashlib.shake_256(seed + b"\x01").digest(n)


@pytest.mark.parametrize("level", LEVELS)
def test_submission_kat_record0(level: int) -> None:
    import hashlib

    h, p = hqc(level), PARAMS[level]
    seed = shake_prng(bytes(range(48)), 48)
    h.rng_script(shake_prng(seed, 40 + p.k + 40 + p.k + 16))  # keypair: 40, k, 40; encaps: k, 16
    r1, pk, sk = h.keypair()
    r2, ct, ss = h.enc(pk)
    assert (r1, r2) == (0, 0)
    assert h.decaps(sk, ct) == (0, ss)
    rec = "count = 0\n" + "".join(
        f"{name} = {v.hex().upper()}\n" for name, v in (("seed", seed), ("pk", pk), ("sk", sk), ("ct", ct), ("ss", ss))
    )
    assert hashlib.sha256(rec.encode()).hexdigest() == META_NISTKAT_SHA256[level]


def gf_mul(a: int, b: int) -> int:
    r = 0
    for i in range(8):
        if (b >> i) & 1:
            r ^= a << i
    for i in range(14, 7, -1):
        if (r >> i) & 1:
            r ^= 0x11D << (i - 8)
    return r


@pytest.mark.parametrize("level", LEVELS)
def test_rs_generator_polynomial_from_its_roots(level: int) -> None:
    text = (ROOT / "lib" / "hqc" / "params.h").read_text()
    block = text.split(f"#if PQLAB_HQC_LEVEL == {level}" if level == 128 else f"#elif PQLAB_HQC_LEVEL == {level}")[1]
    coefs = [int(x) for x in re.search(r"HQC_RS_GEN\s*\\?\s*\{([^}]*)\}", block).group(1).replace("\\", "").split(",")]
    g = [1]  # prod_{j=1}^{2 delta} (x - alpha^j), lowest degree first
    a = 1
    for _ in range(2 * PARAMS[level].delta):
        a = gf_mul(a, 2)
        g = [(gf_mul(c, a) ^ (g[i - 1] if i else 0)) for i, c in enumerate(g + [0])]
    assert coefs == g


@pytest.mark.parametrize("level", LEVELS)
def test_shared_secret_and_implicit_rejection(level: int) -> None:
    h, p = hqc(level), PARAMS[level]
    rng = random.Random(level)
    sk_seed, sigma, pk_seed = rng.randbytes(40), rng.randbytes(p.k), rng.randbytes(40)
    pk, sk = h.keygen(sk_seed, sigma, pk_seed)
    assert sk == sk_seed + sigma + pk and pk[:40] == pk_seed
    m, salt = rng.randbytes(p.k), rng.randbytes(16)
    ct, ss = h.encaps(pk, m, salt)
    uv = ct[:-16]
    assert ct[-16:] == salt and ss == shake512(m + uv, 4)
    assert h.decaps(sk, ct) == (0, ss)

    def rejected(bad: bytes) -> None:
        r, k = h.decaps(sk, bad)
        assert r == 0 and k == shake512(sigma + bad[:-16], 4) and k != ss

    for i in range(16):  # every salt byte (PQClean clean at c3e6861 accepts these: docs/hqc.md)
        bad = bytearray(ct)
        bad[p.ct_len - 16 + i] ^= 1 << rng.randrange(8)
        rejected(bytes(bad))
    for pos in (0, p.nbytes - 2, p.nbytes, p.nbytes + p.n1n2bytes - 1):  # u and v
        bad = bytearray(ct)
        bad[pos] ^= 0x10
        rejected(bytes(bad))
    # a bit of u beyond n (the last byte has 8 - n % 8 unused bits): not part of the vector,
    # so decryption is unchanged, but the ciphertext is not the encoding of any (u, v)
    bad = bytearray(ct)
    bad[p.nbytes - 1] ^= 0x80
    rejected(bytes(bad))


@pytest.mark.parametrize("level", LEVELS)
def test_randomised_api_and_rng_failure(level: int) -> None:
    h, p = hqc(level), PARAMS[level]
    rng = random.Random(7 * level)
    sk_seed, sigma, pk_seed, m, salt = (
        rng.randbytes(40),
        rng.randbytes(p.k),
        rng.randbytes(40),
        rng.randbytes(p.k),
        rng.randbytes(16),
    )
    h.rng_script(sk_seed + sigma + pk_seed + m + salt)
    r1, pk, sk = h.keypair()
    r2, ct, ss = h.enc(pk)
    assert (r1, r2) == (0, 0)
    assert (pk, sk) == h.keygen(sk_seed, sigma, pk_seed)
    assert (ct, ss) == h.encaps(pk, m, salt)
    for short in (0, 40, 40 + p.k, 40 + p.k + 39):  # randombytes fails at the 1st / 2nd / 3rd call
        h.rng_script(bytes(short))
        assert h.keypair() == (-3, bytes(p.pk_len), bytes(p.sk_len))
    for short in (0, p.k):
        h.rng_script(bytes(short))
        assert h.enc(pk) == (-3, bytes(p.ct_len), bytes(64))


def _fn(level: int, name: str):
    return getattr(hqc(level).lib, PARAMS[level].prefix + name)


@pytest.mark.parametrize("level", LEVELS)
def test_reed_solomon_corrects_delta_errors(level: int) -> None:
    p = PARAMS[level]
    enc, dec = _fn(level, "hqc_rs_encode"), _fn(level, "hqc_rs_decode")
    rng = random.Random(100 + level)
    for nerr in [0, 1, 2, p.delta - 1, p.delta, p.delta, p.delta]:
        msg = rng.randbytes(p.k)
        cw = ctypes.create_string_buffer(p.n1)
        enc(cw, msg)
        assert cw.raw[p.n1 - p.k :] == msg  # systematic, message last
        bad = bytearray(cw.raw)
        for pos in rng.sample(range(p.n1), nerr):
            bad[pos] ^= rng.randrange(1, 256)
        out = ctypes.create_string_buffer(p.k)
        dec(out, bytes(bad))
        assert out.raw == msg, nerr
    # beyond the capacity: some output, no crash
    bad = bytearray(rng.randbytes(p.n1))
    out = ctypes.create_string_buffer(p.k)
    dec(out, bytes(bad))


@pytest.mark.parametrize("level", LEVELS)
def test_reed_muller_corrects_below_half_distance(level: int) -> None:
    p = PARAMS[level]
    mult = p.n2 // 128
    enc, dec = _fn(level, "hqc_rm_encode"), _fn(level, "hqc_rm_decode")
    rng = random.Random(200 + level)
    sym = bytes(rng.randrange(256) for _ in range(p.n1 - 4)) + b"\x00\x7f\x80\xff"
    cw = ctypes.create_string_buffer(p.n1n2bytes)
    enc(cw, sym)
    bits = bytearray(cw.raw)
    for i in range(p.n1):  # 32 MULT - 1 errors in every block: below half the distance 64 MULT
        for b in rng.sample(range(p.n2), 32 * mult - 1):
            at = i * p.n2 + b
            bits[at // 8] ^= 1 << (at % 8)
    out = ctypes.create_string_buffer(p.n1)
    dec(out, bytes(bits))
    assert out.raw == sym
    # the RM(1,7) codeword of byte b has bit j = b7 ^ parity(b & j & 0x7f)
    one = ctypes.create_string_buffer(p.n1n2bytes)
    enc(one, bytes([0xA7]) + bytes(p.n1 - 1))
    word = int.from_bytes(one.raw[:16], "little")
    assert all(((word >> j) & 1) == (1 ^ (bin(0x27 & j).count("1") & 1)) for j in range(128))


def fuzz_decaps(level: int, n: int, seed: int) -> None:
    h, p = hqc(level), PARAMS[level]
    rng = random.Random(seed)
    pk, sk = h.keygen(rng.randbytes(40), rng.randbytes(p.k), rng.randbytes(40))
    ct, ss = h.encaps(pk, rng.randbytes(p.k), rng.randbytes(16))
    for i in range(n):
        kind = i % 4
        if kind == 0:  # random ciphertext
            bad_ct, bad_sk = rng.randbytes(p.ct_len), sk
        elif kind == 1:  # all-ones ciphertext
            bad_ct, bad_sk = b"\xff" * p.ct_len, sk
        elif kind == 2:  # random secret key
            bad_ct, bad_sk = ct, rng.randbytes(p.sk_len)
        else:  # secret key with a corrupted public part (pk_seed or s)
            b = bytearray(sk)
            b[40 + p.k + rng.randrange(p.pk_len)] ^= 1 << rng.randrange(8)
            bad_ct, bad_sk = ct, bytes(b)
        r, k = h.decaps(bad_sk, bad_ct)
        sigma = bad_sk[40 : 40 + p.k]
        assert r == 0 and k == shake512(sigma + bad_ct[:-16], 4), (kind, i)


@pytest.mark.parametrize("level", LEVELS)
def test_malformed_inputs(level: int) -> None:
    fuzz_decaps(level, int(os.environ.get("PQLAB_HQC_FUZZ_N", "8")), 300 + level)


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_malformed_inputs_many(level: int) -> None:
    fuzz_decaps(level, 200, 400 + level)


def hx(b: bytes) -> str:
    return b.hex() if b else "-"


def test_driver_answers_and_refusals() -> None:
    """harness/driver_hqc.c (keygen/encaps/decaps with explicit randomness) on the host agrees
    with the ctypes library; wrong lengths are refused with -100, a wrong count with -101."""
    from pqlab.build import BuildOptions
    from pqlab.jobs import execute
    from pqlab.platforms import get_platform
    from pqlab.registry import discover

    impls = [i for i in discover() if i.scheme.startswith("hqc-") and i.name == "ref"]
    assert sorted(i.scheme for i in impls) == ["hqc-128", "hqc-192", "hqc-256"]
    rng = random.Random(33)
    reqs: dict[str, str] = {}
    expect: dict[str, dict[str, tuple]] = {}
    for impl in impls:
        level = int(impl.scheme.split("-")[1])
        h, p = hqc(level), PARAMS[level]
        sk_seed, sigma, pk_seed = rng.randbytes(40), rng.randbytes(p.k), rng.randbytes(40)
        m, salt = rng.randbytes(p.k), rng.randbytes(16)
        pk, sk = h.keygen(sk_seed, sigma, pk_seed)
        ct, ss = h.encaps(pk, m, salt)
        bad = ct[:-1] + bytes([ct[-1] ^ 1])
        cases = {
            "kg": (f"keygen {hx(sk_seed)} {hx(sigma)} {hx(pk_seed)}", ("ok", pk.hex(), sk.hex())),
            "en": (f"encaps {hx(pk)} {hx(m)} {hx(salt)}", ("ok", ct.hex(), ss.hex())),
            "de": (f"decaps {hx(sk)} {hx(ct)}", ("ok", ss.hex())),
            "rej": (f"decaps {hx(sk)} {hx(bad)}", ("ok", shake512(sigma + ct[:-16], 4).hex())),
            "kg_len": (f"keygen {hx(sk_seed)} {hx(sigma + b'x')} {hx(pk_seed)}", ("fail", "-100")),
            "en_len": (f"encaps {hx(pk)} {hx(m)} {hx(salt[:-1])}", ("fail", "-100")),
            "de_len": (f"decaps {hx(sk)} {hx(ct[:-1])}", ("fail", "-100")),
            "args": (f"decaps {hx(sk)}", ("fail", "-101")),
        }
        reqs[impl.id] = "".join(f"{tag} {line}\n" for tag, (line, _) in cases.items())
        expect[impl.id] = {tag: want for tag, (_, want) in cases.items()}
    plat = get_platform("host")
    outcomes = execute([(i, plat) for i in impls], "driver", 2, BuildOptions(), stdin=lambda i, _p: reqs[i.id].encode())
    assert len(outcomes) == 3
    for o in outcomes:
        assert o.ok, o.error
        assert {f[0]: tuple(f[1:]) for f in o.output.of("drv")} == expect[o.impl.id], o.impl.id
