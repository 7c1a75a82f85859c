"""lib/common hashing: Keccak-f1600, SHA-3, SHAKE (one-shot, incremental, x4), SHA-2.

Known answers from FIPS 202 / FIPS 180-4 example values (NIST CSRC "Examples with
intermediate values"), plus differential tests against Python's hashlib on every length
around the block boundaries and thousands of random lengths and split points.
"""

from __future__ import annotations

import ctypes
import hashlib
import random

import firmware
import pytest
from hostlib import ROOT, build_shared

SOURCES = [
    "lib/common/fips202.c",
    "lib/common/fips202x4.c",
    "lib/common/sha2.c",
    "lib/common/hashprof.c",
]

SZ = ctypes.c_size_t


@pytest.fixture(scope="module", params=["lanes", "rows"])
def lib(request: pytest.FixtureRequest) -> ctypes.CDLL:
    """Both Keccak-f1600 formulations: 'lanes' (default on 64-bit machines) and 'rows'
    (default on 32-bit targets), forced here on the host."""
    flag = f"-DPQLAB_KECCAK_{request.param.upper()}"
    return build_shared(f"pqlab_common_hash_{request.param}", SOURCES, cflags=[flag])


# sizeof(pqlab_keccak_state) = 25 * 8 + 4, padded to 8 bytes
KECCAK_STATE = 208
SHA256_STATE = 8 * 4 + 8 + 64 + 4 + 4  # padded
SHA512_STATE = 8 * 8 + 8 + 128 + 4 + 4

SHA3 = {"sha3_256": (136, 32), "sha3_384": (104, 48), "sha3_512": (72, 64)}
SHAKE = {"shake128": 168, "shake256": 136}
HREF = {
    "shake128": hashlib.shake_128,
    "shake256": hashlib.shake_256,
    "sha3_256": hashlib.sha3_256,
    "sha3_384": hashlib.sha3_384,
    "sha3_512": hashlib.sha3_512,
    "sha224": hashlib.sha224,
    "sha256": hashlib.sha256,
    "sha384": hashlib.sha384,
    "sha512": hashlib.sha512,
}
SHA2 = {
    "sha224": (64, 28, "sha256"),
    "sha256": (64, 32, "sha256"),
    "sha384": (128, 48, "sha512"),
    "sha512": (128, 64, "sha512"),
}


def boundary_lengths(rate: int, blocks: int = 4) -> list[int]:
    """0..2*rate+1 exhaustively, then k*rate-1, k*rate, k*rate+1 up to `blocks`."""
    out = set(range(2 * rate + 2))
    for k in range(2, blocks + 1):
        out.update({k * rate - 1, k * rate, k * rate + 1})
    return sorted(out)


def random_splits(rng: random.Random, n: int) -> list[int]:
    """Random chunk sizes summing to n, including empty chunks."""
    parts = []
    left = n
    while left > 0:
        c = rng.choice([0, 1, rng.randint(0, 8), rng.randint(0, 200), rng.randint(0, left)])
        c = min(c, left)
        parts.append(c)
        left -= c
    if rng.random() < 0.3:
        parts.insert(rng.randint(0, len(parts)), 0)
    return parts


# ---------------------------------------------------------------- known answers

KAT = [
    ("sha3_256", b"", "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"),
    ("sha3_256", b"abc", "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"),
    (
        "sha3_384",
        b"abc",
        "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25",
    ),
    (
        "sha3_512",
        b"abc",
        (
            "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
            "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"
        ),
    ),
    ("sha224", b"abc", "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"),
    ("sha256", b"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
        "sha256",
        b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ),
    ("sha256", b"a" * 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    (
        "sha384",
        b"abc",
        "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
    ),
    (
        "sha512",
        b"abc",
        (
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ),
    ),
]


# NIST CAVP byte-oriented short-message entries (SHA3_256ShortMsg, SHA256ShortMsg,
# SHA512ShortMsg: Len = 8)
KAT += [
    ("sha3_256", bytes.fromhex("e9"), "f0d04dd1e6cfc29a4460d521796852f25d9ef8d28b44ee91ff5b759d72c1e6d6"),
    ("sha256", bytes.fromhex("d3"), "28969cdfa74a12c82f3bad960b0b000aca2ac329deea5c2328ebc6f2ba9802c1"),
    ("sha256", bytes.fromhex("bd"), "68325720aabd7c82f30f554b313d0570c95accbb7dc4b5aae11204c08ffe732b"),
    (
        "sha512",
        bytes.fromhex("21"),
        (
            "3831a6a6155e509dee59a7f451eb35324d8f8f2df6e3708894740f98fdee2388"
            "9f4de5adb0c5010dfb555cda77c8ab5dc902094c52de3278f35a75ebc25f093a"
        ),
    ),
]


@pytest.mark.parametrize("name,msg,digest", KAT, ids=[f"{k[0]}-{len(k[1])}" for k in KAT])
def test_known_answers(lib: ctypes.CDLL, name: str, msg: bytes, digest: str) -> None:
    out = ctypes.create_string_buffer(64)
    getattr(lib, f"pqlab_{name}")(out, msg, SZ(len(msg)))
    n = len(digest) // 2
    assert out.raw[:n].hex() == digest
    assert hashlib.new(name.replace("_", "-") if name.startswith("sha3") else name, msg).hexdigest() == digest


def test_shake_known_answers(lib: ctypes.CDLL) -> None:
    out = ctypes.create_string_buffer(64)
    lib.pqlab_shake128(out, SZ(32), b"", SZ(0))
    assert out.raw[:32].hex() == "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"
    # CAVP SHAKE128ShortMsg, Len = 128
    lib.pqlab_shake128(out, SZ(16), bytes.fromhex("84e950051876050dc851fbd99e6247b8"), SZ(16))
    assert out.raw[:16].hex() == "8599bd89f63a848c49ca593ec37a12c6"
    lib.pqlab_shake256(out, SZ(64), b"", SZ(0))
    assert out.raw.hex() == (
        "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
        "d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be"
    )


def test_keccakf1600_zero_state(lib: ctypes.CDLL) -> None:
    # Keccak team's KeccakF-1600-IntermediateValues: f applied to the zero state gives
    # lane 0 = F1258F7940E1DDE7; applying it twice gives lane 0 = 2D5C954DF96ECB3C
    s = (ctypes.c_uint64 * 25)()
    lib.pqlab_keccakf1600(s)
    assert s[0] == 0xF1258F7940E1DDE7
    lib.pqlab_keccakf1600(s)
    assert s[0] == 0x2D5C954DF96ECB3C


# ---------------------------------------------------------------- one-shot differential


def test_sha3_oneshot_all_boundary_lengths(lib: ctypes.CDLL) -> None:
    rng = random.Random(1)
    out = ctypes.create_string_buffer(64)
    count = 0
    for name, (rate, outlen) in SHA3.items():
        ref = HREF[name]
        lengths = boundary_lengths(rate) + [rng.randint(0, 3000) for _ in range(300)]
        for n in lengths:
            m = rng.randbytes(n)
            getattr(lib, f"pqlab_{name}")(out, m, SZ(n))
            assert out.raw[:outlen] == ref(m).digest(), (name, n)
            count += 1
    assert count > 1500


def test_shake_oneshot_lengths(lib: ctypes.CDLL) -> None:
    rng = random.Random(2)
    for name, rate in SHAKE.items():
        ref = HREF[name]
        inlens = boundary_lengths(rate, 3) + [rng.randint(0, 2000) for _ in range(200)]
        outlens = boundary_lengths(rate, 3)
        for i, n in enumerate(inlens):
            m = rng.randbytes(n)
            olen = outlens[i % len(outlens)]
            out = ctypes.create_string_buffer(max(olen, 1))
            getattr(lib, f"pqlab_{name}")(out, SZ(olen), m, SZ(n))
            assert out.raw[:olen] == ref(m).digest(olen), (name, n, olen)


def test_sha2_oneshot_all_boundary_lengths(lib: ctypes.CDLL) -> None:
    rng = random.Random(3)
    out = ctypes.create_string_buffer(64)
    for name, (blk, outlen, _) in SHA2.items():
        ref = HREF[name]
        # padding boundaries: 55/56 (SHA-256) and 111/112 (SHA-512) are inside 0..2*blk+1
        lengths = boundary_lengths(blk, 5) + [rng.randint(0, 3000) for _ in range(300)]
        for n in lengths:
            m = rng.randbytes(n)
            getattr(lib, f"pqlab_{name}")(out, m, SZ(n))
            assert out.raw[:outlen] == ref(m).digest(), (name, n)


# ---------------------------------------------------------------- incremental


def test_sha3_incremental_random_splits(lib: ctypes.CDLL) -> None:
    rng = random.Random(4)
    st = ctypes.create_string_buffer(KECCAK_STATE)
    out = ctypes.create_string_buffer(64)
    for name, (rate, outlen) in SHA3.items():
        for _ in range(300):
            n = rng.choice([rng.randint(0, 3 * rate + 2), rate, 2 * rate, rate - 1, 0])
            m = rng.randbytes(n)
            getattr(lib, f"pqlab_{name}_init")(st)
            off = 0
            for c in random_splits(rng, n):
                getattr(lib, f"pqlab_{name}_absorb")(st, m[off : off + c], SZ(c))
                off += c
            getattr(lib, f"pqlab_{name}_finalize")(out, st)
            assert out.raw[:outlen] == HREF[name](m).digest(), (name, n)


def test_shake_incremental_absorb_and_squeeze_splits(lib: ctypes.CDLL) -> None:
    rng = random.Random(5)
    st = ctypes.create_string_buffer(KECCAK_STATE)
    for name, rate in SHAKE.items():
        ref = HREF[name]
        for _ in range(400):
            n = rng.choice([rng.randint(0, 3 * rate + 2), rate, rate - 1, rate + 1, 0])
            olen = rng.choice([rng.randint(0, 4 * rate), rate, 2 * rate, rate + 1, 0])
            m = rng.randbytes(n)
            getattr(lib, f"pqlab_{name}_init")(st)
            off = 0
            for c in random_splits(rng, n):
                getattr(lib, f"pqlab_{name}_absorb")(st, m[off : off + c], SZ(c))
                off += c
            getattr(lib, f"pqlab_{name}_finalize")(st)
            got = b""
            for c in random_splits(rng, olen):
                buf = ctypes.create_string_buffer(max(c, 1))
                getattr(lib, f"pqlab_{name}_squeeze")(buf, SZ(c), st)
                got += buf.raw[:c]
            assert got == ref(m).digest(olen), (name, n, olen)


def test_shake_squeezeblocks_then_squeeze(lib: ctypes.CDLL) -> None:
    rng = random.Random(6)
    st = ctypes.create_string_buffer(KECCAK_STATE)
    for name, rate in SHAKE.items():
        for nblocks in range(5):
            m = rng.randbytes(rng.randint(0, 400))
            getattr(lib, f"pqlab_{name}_init")(st)
            getattr(lib, f"pqlab_{name}_absorb")(st, m, SZ(len(m)))
            getattr(lib, f"pqlab_{name}_finalize")(st)
            buf = ctypes.create_string_buffer(nblocks * rate + 1)
            getattr(lib, f"pqlab_{name}_squeezeblocks")(buf, SZ(nblocks), st)
            more = ctypes.create_string_buffer(50)
            getattr(lib, f"pqlab_{name}_squeeze")(more, SZ(50), st)
            want = HREF[name](m).digest(nblocks * rate + 50)
            assert buf.raw[: nblocks * rate] + more.raw == want


def test_sha2_incremental_random_splits(lib: ctypes.CDLL) -> None:
    rng = random.Random(7)
    out = ctypes.create_string_buffer(64)
    for name, (blk, outlen, base) in SHA2.items():
        st = ctypes.create_string_buffer(SHA256_STATE if base == "sha256" else SHA512_STATE)
        for _ in range(400):
            n = rng.choice([rng.randint(0, 5 * blk), blk, blk - 9, blk - 8, 2 * blk + 1, 0])
            m = rng.randbytes(n)
            getattr(lib, f"pqlab_{name}_init")(st)
            off = 0
            for c in random_splits(rng, n):
                getattr(lib, f"pqlab_{name}_update")(st, m[off : off + c], SZ(c))
                off += c
            getattr(lib, f"pqlab_{name}_final")(out, st)
            assert out.raw[:outlen] == HREF[name](m).digest(), (name, n)


def test_sha2_state_sizes_match_header(lib: ctypes.CDLL) -> None:
    # the Python buffers above must not be smaller than the C structs: check with a
    # canary beyond the declared size
    for name, (_, _outlen, base) in SHA2.items():
        size = SHA256_STATE if base == "sha256" else SHA512_STATE
        st = ctypes.create_string_buffer(size + 16)
        ctypes.memset(ctypes.addressof(st) + size, 0xA5, 16)
        getattr(lib, f"pqlab_{name}_init")(st)
        getattr(lib, f"pqlab_{name}_update")(st, b"x" * 300, SZ(300))
        out = ctypes.create_string_buffer(64)
        getattr(lib, f"pqlab_{name}_final")(out, st)
        assert st.raw[size:] == b"\xa5" * 16


def test_sha2_compress_direct(lib: ctypes.CDLL) -> None:
    # one padded block of "abc" through the bare compression function gives the digest
    msg = b"abc"
    blk = msg + b"\x80" + b"\x00" * (55 - len(msg)) + (8 * len(msg)).to_bytes(8, "big")
    h = (ctypes.c_uint32 * 8)(
        0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19
    )
    lib.pqlab_sha256_compress(h, blk, SZ(1))
    assert b"".join(x.to_bytes(4, "big") for x in h) == hashlib.sha256(msg).digest()


# ---------------------------------------------------------------- x4


def test_shake_x4_matches_serial(lib: ctypes.CDLL) -> None:
    rng = random.Random(8)
    st = ctypes.create_string_buffer(4 * KECCAK_STATE)
    for name, rate in SHAKE.items():
        ref = HREF[name]
        for inlen in boundary_lengths(rate, 2)[::7] + [0, rate - 1, rate, rate + 1, 2 * rate]:
            ins = [rng.randbytes(inlen) for _ in range(4)]
            for nblocks in (0, 1, 3):
                outs = [ctypes.create_string_buffer(nblocks * rate + 1) for _ in range(4)]
                getattr(lib, f"pqlab_{name}x4_absorb_once")(st, *ins, SZ(inlen))
                getattr(lib, f"pqlab_{name}x4_squeezeblocks")(*outs, SZ(nblocks), st)
                for i in range(4):
                    assert outs[i].raw[: nblocks * rate] == ref(ins[i]).digest(nblocks * rate)
            # squeezing in two calls continues the stream
            outs1 = [ctypes.create_string_buffer(rate) for _ in range(4)]
            outs2 = [ctypes.create_string_buffer(2 * rate) for _ in range(4)]
            getattr(lib, f"pqlab_{name}x4_absorb_once")(st, *ins, SZ(inlen))
            getattr(lib, f"pqlab_{name}x4_squeezeblocks")(*outs1, SZ(1), st)
            getattr(lib, f"pqlab_{name}x4_squeezeblocks")(*outs2, SZ(2), st)
            for i in range(4):
                assert outs1[i].raw + outs2[i].raw == ref(ins[i]).digest(3 * rate)


def _lane_squeeze(lib: ctypes.CDLL, st: ctypes.Array[ctypes.c_char]) -> None:
    """pqlab_shake128x4_squeezeblock_lane: one more block of one lane alone, the others
    untouched; the streams go on from there, each lane with its own number of blocks."""
    rng = random.Random(10)
    ins = [rng.randbytes(34) for _ in range(4)]
    outs = [b""] * 4
    lib.pqlab_shake128x4_absorb_once(st, *ins, SZ(34))
    blk = [ctypes.create_string_buffer(168) for _ in range(4)]
    lib.pqlab_shake128x4_squeezeblocks(*blk, SZ(1), st)
    outs = [b.raw for b in blk]
    for lane in (2, 0, 2, 3):
        one = ctypes.create_string_buffer(168)
        lib.pqlab_shake128x4_squeezeblock_lane(one, ctypes.c_uint(lane), st)
        outs[lane] += one.raw
    lib.pqlab_shake128x4_squeezeblocks(*blk, SZ(1), st)
    outs = [o + b.raw for o, b in zip(outs, blk, strict=True)]
    for i in range(4):
        assert outs[i] == hashlib.shake_128(ins[i]).digest(len(outs[i]))
    assert [len(o) // 168 for o in outs] == [3, 2, 4, 3]


def test_shake128x4_lane_squeeze(lib: ctypes.CDLL) -> None:
    _lane_squeeze(lib, ctypes.create_string_buffer(4 * KECCAK_STATE))


def _prefix_absorb(lib: ctypes.CDLL, st: ctypes.Array[ctypes.c_char]) -> None:
    """pqlab_shake128x4_absorb_once_prefix(prefix, in_i) = SHAKE128(prefix || in_i) per lane:
    prefixes and lane inputs of several lengths (empty, within a block, across the rate
    boundary), the lanes continuing with the four-way and the one-lane squeeze."""
    rng = random.Random(11)
    for plen, inlen in [(32, 2), (0, 34), (34, 0), (0, 0), (160, 20), (168, 3), (200, 150), (7, 400)]:
        prefix = rng.randbytes(plen)
        ins = [rng.randbytes(inlen) for _ in range(4)]
        lib.pqlab_shake128x4_absorb_once_prefix(st, prefix, SZ(plen), *ins, SZ(inlen))
        blk = [ctypes.create_string_buffer(168) for _ in range(4)]
        lib.pqlab_shake128x4_squeezeblocks(*blk, SZ(1), st)
        outs = [b.raw for b in blk]
        one = ctypes.create_string_buffer(168)
        lib.pqlab_shake128x4_squeezeblock_lane(one, ctypes.c_uint(1), st)
        outs[1] += one.raw
        for i in range(4):
            assert outs[i] == hashlib.shake_128(prefix + ins[i]).digest(len(outs[i]))


def test_shake128x4_prefix_absorb(lib: ctypes.CDLL) -> None:
    _prefix_absorb(lib, ctypes.create_string_buffer(4 * KECCAK_STATE))


def test_shake256x4_any_outlen(lib: ctypes.CDLL) -> None:
    rng = random.Random(9)
    for outlen in [0, 1, 31, 135, 136, 137, 272, 300, 1000]:
        inlen = rng.randint(0, 300)
        ins = [rng.randbytes(inlen) for _ in range(4)]
        outs = [ctypes.create_string_buffer(outlen + 8) for _ in range(4)]
        for o in outs:
            ctypes.memset(o, 0xA5, outlen + 8)
        lib.pqlab_shake256x4(*outs, SZ(outlen), *ins, SZ(inlen))
        for i in range(4):
            assert outs[i].raw[:outlen] == hashlib.shake_256(ins[i]).digest(outlen)
            assert outs[i].raw[outlen:] == b"\xa5" * 8  # no overrun


# ---------------------------------------------------------------- generic sponge API


def test_generic_sponge_helpers(lib: ctypes.CDLL) -> None:
    lib.pqlab_keccak_absorb.restype = ctypes.c_uint
    lib.pqlab_keccak_squeeze.restype = ctypes.c_uint
    rng = random.Random(10)
    for _ in range(100):
        m = rng.randbytes(rng.randint(0, 500))
        s = (ctypes.c_uint64 * 25)()
        pos = lib.pqlab_keccak_absorb(s, ctypes.c_uint(0), ctypes.c_uint(136), m, SZ(len(m)))
        assert pos == len(m) % 136
        lib.pqlab_keccak_finalize(s, ctypes.c_uint(pos), ctypes.c_uint(136), ctypes.c_uint8(0x06))
        out = ctypes.create_string_buffer(32)
        lib.pqlab_keccak_squeeze(out, SZ(32), s, ctypes.c_uint(136), ctypes.c_uint(136))
        assert out.raw == hashlib.sha3_256(m).digest()
    # xorbytes / extractbytes at unaligned offsets
    s = (ctypes.c_uint64 * 25)()
    data = bytes(range(1, 200))
    lib.pqlab_keccak_xorbytes(s, data[3 : 3 + 150], ctypes.c_uint(3), ctypes.c_uint(150))
    raw = bytes(ctypes.string_at(s, 200))
    assert raw == b"\0" * 3 + data[3:153] + b"\0" * 47
    out = ctypes.create_string_buffer(200)
    lib.pqlab_keccak_extractbytes(s, out, ctypes.c_uint(5), ctypes.c_uint(101))
    assert out.raw[:101] == raw[5:106]


# ---------------------------------------------------------------- backend hooks of fips202x4

HOOK = r"""
#include "fips202x4.h"
unsigned long hook_calls;
void pqlab_keccakf1600x4(pqlab_keccakx4_state *st)
{
    hook_calls++;
    for (int i = 0; i < 4; i++) pqlab_keccakf1600(st->lane[i].s);
}
"""


def test_x4_permutation_hook(tmp_path) -> None:  # type: ignore[no-untyped-def]
    src = tmp_path / "hook.c"
    src.write_text(HOOK)
    lib = build_shared("pqlab_x4_hook", [*SOURCES, src], cflags=["-DPQLAB_KECCAKF1600X4_NATIVE"])
    calls = ctypes.c_ulong.in_dll(lib, "hook_calls")
    st = ctypes.create_string_buffer(4 * KECCAK_STATE)
    ins = [bytes([i]) * 200 for i in range(4)]
    outs = [ctypes.create_string_buffer(2 * 168) for _ in range(4)]
    lib.pqlab_shake128x4_absorb_once(st, *ins, SZ(200))  # one full block, then padding
    assert calls.value == 1
    lib.pqlab_shake128x4_squeezeblocks(*outs, SZ(2), st)
    assert calls.value == 3
    for i in range(4):
        assert outs[i].raw == hashlib.shake_128(ins[i]).digest(2 * 168)
    _lane_squeeze(lib, st)  # the one-lane block beside the four-way permutation
    _prefix_absorb(lib, st)  # the shared prefix (one-way sponge on a lane) likewise


def test_x4_whole_replacement_leaves_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess

    src = ROOT / "lib" / "common" / "fips202x4.c"
    (obj,) = firmware.build("host", tmp_path, [src], cflags=["-DPQLAB_KECCAKX4_NATIVE"], kind="objects")
    syms = subprocess.run(["nm", str(obj)], capture_output=True, text=True, check=True).stdout
    assert "pqlab_" not in syms


def test_sha512t_and_sha3_224_against_hashlib():
    """SHA-512/224, SHA-512/256 (FIPS 180-4 6.7) and SHA3-224 (FIPS 202 6.1) of the common layer."""
    import ctypes
    import hashlib
    import random

    from hostlib import build_shared

    lib = build_shared("common-extra", ["lib/common/sha2.c", "lib/common/fips202.c", "lib/common/hashprof.c"])
    rng = random.Random(224)
    for n in [0, 1, 55, 56, 63, 64, 111, 112, 127, 128, 129, 143, 144, 145, 1000] + [
        rng.randrange(3000) for _ in range(40)
    ]:
        m = rng.randbytes(n)
        for fn, name, size in (
            ("pqlab_sha512_224", "sha512_224", 28),
            ("pqlab_sha512_256", "sha512_256", 32),
            ("pqlab_sha3_224", "sha3_224", 28),
        ):
            out = ctypes.create_string_buffer(size)
            getattr(lib, fn)(out, m, ctypes.c_size_t(n))
            assert out.raw == hashlib.new(name, m).digest(), (fn, n)
