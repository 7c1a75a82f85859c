"""lib/compat: the mupq/PQClean header interface over lib/common, tested on the host
through ctypes: context sizes, hashlib/cryptography agreement of one-shot and
incremental functions, cSHAKE (SP 800-185) against a pure-Python Keccak and the
SP 800-185 sample values, the NIST seed expander against a model of rng.c, safe
release, and the HAL/randombytes forwarding."""

from __future__ import annotations

import ctypes
import hashlib
import random
from pathlib import Path

import firmware
import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from hostlib import ROOT, build_shared

SZ = ctypes.c_size_t
COMMON = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "lib" / "common").glob("*.c"))
COMPAT = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "lib" / "compat").glob("*.c"))
COMPAT_I = f"-I{ROOT / 'lib' / 'compat'}"

# Harness side for the host tests: randombytes from a DRBG, HAL calls recorded.
STUBS = r"""
#include <stdint.h>
#include <string.h>
#include "drbg.h"
static pqlab_drbg_state rng;
static int rng_ready;
int pqlab_randombytes(uint8_t *out, size_t n)
{
    if (!rng_ready) {
        uint8_t e[48];
        for (int i = 0; i < 48; i++) e[i] = (uint8_t)i;
        pqlab_drbg_init(&rng, e, NULL);
        rng_ready = 1;
    }
    pqlab_drbg_generate(&rng, out, n);
    return 0;
}
char stub_sent[4096];
size_t stub_sent_len;
int stub_setup_calls;
void pqlab_hal_setup(void) { stub_setup_calls++; }
void pqlab_hal_send(const char *buf, size_t n)
{
    if (stub_sent_len + n < sizeof stub_sent) { memcpy(stub_sent + stub_sent_len, buf, n); stub_sent_len += n; }
}
uint64_t pqlab_hal_cycles(void) { return 123456789012ULL; }
void pqlab_hal_stack_spray(void) { stub_setup_calls += 100; }
size_t pqlab_hal_stack_used(void) { return 4242; }
"""

SIZES = r"""
#include <stddef.h>
#include "fips202.h"
#include "sha2.h"
#include "aes.h"
#include "aes-publicinputs.h"
#include "nistseedexpander.h"
#include "sp800-185.h"
#include "keccakf1600.h"
#include "randombytes.h"
#include "hal.h"
#include "sendfn.h"
#include "compat.h"
#include "crypto_declassify.h"
size_t sizes[] = {
    sizeof(shake128incctx), sizeof(shake128ctx), sizeof(shake256incctx), sizeof(shake256ctx),
    sizeof(sha3_256incctx), sizeof(sha3_384incctx), sizeof(sha3_512incctx),
    sizeof(sha224ctx), sizeof(sha256ctx), sizeof(sha384ctx), sizeof(sha512ctx),
    sizeof(aes128ctx), sizeof(aes192ctx), sizeof(aes256ctx), sizeof(AES_XOF_struct),
};
int consts[] = {SHAKE128_RATE, SHAKE256_RATE, SHA3_256_RATE, SHA3_384_RATE, SHA3_512_RATE,
    AES128_KEYBYTES, AES192_KEYBYTES, AES256_KEYBYTES, AESCTR_NONCEBYTES, AES_BLOCKBYTES,
    NISTSEEDEXPANDER_SEED_LEN, RNG_SUCCESS, RNG_BAD_MAXLEN, RNG_BAD_OUTBUF, RNG_BAD_REQ_LEN,
    CLOCK_FAST, CLOCK_BENCHMARK, (int)PQC_SHAKEINCCTX_BYTES, (int)PQC_SHAKECTX_BYTES,
    PQC_SHA256CTX_BYTES, PQC_SHA512CTX_BYTES, PQC_AES128_STATESIZE, PQC_AES192_STATESIZE,
    PQC_AES256_STATESIZE};
void use_helpers(unsigned x)
{
    PQCLEAN_VLA(uint8_t, buf, 4);
    buf[0] = (uint8_t)x;
    PQCLEAN_PREVENT_BRANCH_HACK(x)
    buf[1] = (uint8_t)x;
    crypto_declassify(buf, 2);
    send_unsigned("value", 42u);
    send_unsignedll("big", 18446744073709551615ULL);
    send_unsigned("zero", 0u);
}
uint8_t rb_via_header(uint8_t *out, size_t n) { return (uint8_t)randombytes(out, n); }
"""

# mupq/PQClean context sizes on a 64-bit host (size_t = 8 bytes)
EXPECTED_SIZES = [208, 200, 208, 200, 208, 208, 208, 40, 40, 72, 72, 704, 832, 960, 16 + 8 + 8 + 32 + 16]
EXPECTED_CONSTS = [168, 136, 136, 104, 72, 16, 24, 32, 12, 16, 32, 0, -1, -2, -3, 0, 1, 208, 200, 40, 72, 88, 104, 120]


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    tmp = tmp_path_factory.mktemp("compat")
    (tmp / "stubs.c").write_text(STUBS)
    (tmp / "sizes.c").write_text(SIZES)
    # -I lib/compat first: foreign code must see the compat headers, not lib/common's
    return build_shared(
        "pqlab_compat", [*COMMON, *COMPAT, tmp / "stubs.c", tmp / "sizes.c"], cflags=[COMPAT_I], include=["lib/compat"]
    )


def test_context_sizes_and_constants(lib: ctypes.CDLL) -> None:
    sizes = (ctypes.c_size_t * len(EXPECTED_SIZES)).in_dll(lib, "sizes")
    assert list(sizes) == EXPECTED_SIZES
    consts = (ctypes.c_int * len(EXPECTED_CONSTS)).in_dll(lib, "consts")
    assert list(consts) == EXPECTED_CONSTS


# ---------------------------------------------------------------- fips202.h

SHAKES = {"shake128": (168, hashlib.shake_128), "shake256": (136, hashlib.shake_256)}
SHA3S = {
    "sha3_256": (136, 32, hashlib.sha3_256),
    "sha3_384": (104, 48, hashlib.sha3_384),
    "sha3_512": (72, 64, hashlib.sha3_512),
}


def splits(rng: random.Random, n: int) -> list[int]:
    out = []
    while n > 0:
        c = min(n, rng.choice([0, 1, rng.randint(1, 10), rng.randint(1, 300)]))
        out.append(c)
        n -= c
    return out


def test_shake_oneshot_and_absorb_squeezeblocks(lib: ctypes.CDLL) -> None:
    rng = random.Random(20)
    for name, (rate, ref) in SHAKES.items():
        for n in list(range(0, 2 * rate + 2, 5)) + [rate - 1, rate, rate + 1, 3 * rate]:
            m = rng.randbytes(n)
            olen = rng.choice([0, 1, rate - 1, rate, rate + 1, 500])
            out = ctypes.create_string_buffer(olen + 1)
            getattr(lib, name)(out, SZ(olen), m, SZ(n))
            assert out.raw[:olen] == ref(m).digest(olen)
            ctx = ctypes.create_string_buffer(200)
            getattr(lib, f"{name}_absorb")(ctx, m, SZ(n))
            blocks = ctypes.create_string_buffer(3 * rate)
            getattr(lib, f"{name}_squeezeblocks")(blocks, SZ(1), ctx)
            getattr(lib, f"{name}_squeezeblocks")(ctypes.byref(blocks, rate), SZ(2), ctx)
            assert blocks.raw == ref(m).digest(3 * rate)
            getattr(lib, f"{name}_ctx_release")(ctx)
            assert ctx.raw == bytes(200)


def test_shake_incremental_and_clone(lib: ctypes.CDLL) -> None:
    rng = random.Random(21)
    for name, (rate, ref) in SHAKES.items():
        for _ in range(200):
            n = rng.randint(0, 3 * rate + 3)
            olen = rng.randint(0, 3 * rate + 3)
            m = rng.randbytes(n)
            ctx = ctypes.create_string_buffer(208)
            getattr(lib, f"{name}_inc_init")(ctx)
            cut = rng.randint(0, n)
            getattr(lib, f"{name}_inc_absorb")(ctx, m[:cut], SZ(cut))
            clone = ctypes.create_string_buffer(208)
            getattr(lib, f"{name}_inc_ctx_clone")(clone, ctx)
            rest = m[cut:]
            off = 0
            for c in splits(rng, len(rest)):
                getattr(lib, f"{name}_inc_absorb")(ctx, rest[off : off + c], SZ(c))
                off += c
            getattr(lib, f"{name}_inc_finalize")(ctx)
            got = b""
            for c in splits(rng, olen):
                buf = ctypes.create_string_buffer(c + 1)
                getattr(lib, f"{name}_inc_squeeze")(buf, SZ(c), ctx)
                got += buf.raw[:c]
            assert got == ref(m).digest(olen)
            # the clone continues independently with a different tail
            getattr(lib, f"{name}_inc_absorb")(clone, b"tail", SZ(4))
            getattr(lib, f"{name}_inc_finalize")(clone)
            buf = ctypes.create_string_buffer(64)
            getattr(lib, f"{name}_inc_squeeze")(buf, SZ(64), clone)
            assert buf.raw == ref(m[:cut] + b"tail").digest(64)
            getattr(lib, f"{name}_inc_ctx_release")(ctx)
            getattr(lib, f"{name}_inc_ctx_release")(ctx)  # twice is safe
            assert ctx.raw == bytes(208)


def test_shake_position_word_as_pqclean(lib: ctypes.CDLL) -> None:
    """The 26th word of an incremental context means what PQClean's does, since foreign code
    changes it (pqm4's AIMer m4speed skips output by lowering it): bytes absorbed into the
    block; after finalize 0, then the bytes of the block not yet squeezed. Lowering it by k
    skips k bytes of output."""
    for name, (rate, ref) in SHAKES.items():
        ctx = ctypes.create_string_buffer(208)
        getattr(lib, f"{name}_inc_init")(ctx)
        getattr(lib, f"{name}_inc_absorb")(ctx, b"abc" * 20, SZ(60))
        assert int.from_bytes(ctx.raw[200:208], "little") == 60
        getattr(lib, f"{name}_inc_finalize")(ctx)
        assert int.from_bytes(ctx.raw[200:208], "little") == 0
        buf = ctypes.create_string_buffer(10)
        getattr(lib, f"{name}_inc_squeeze")(buf, SZ(10), ctx)
        assert int.from_bytes(ctx.raw[200:208], "little") == rate - 10
        ctypes.memmove(ctypes.addressof(ctx) + 200, (rate - 10 - 7).to_bytes(8, "little"), 8)  # skip 7 bytes
        out = ctypes.create_string_buffer(rate)
        getattr(lib, f"{name}_inc_squeeze")(out, SZ(rate), ctx)
        want = ref(b"abc" * 20).digest(17 + rate)
        assert (buf.raw[:10], out.raw) == (want[:10], want[17:])


def test_sha3_incremental(lib: ctypes.CDLL) -> None:
    rng = random.Random(22)
    for name, (rate, outlen, ref) in SHA3S.items():
        for _ in range(200):
            n = rng.choice([rng.randint(0, 3 * rate + 2), rate - 1, rate, rate + 1, 0])
            m = rng.randbytes(n)
            out = ctypes.create_string_buffer(64)
            getattr(lib, name)(out, m, SZ(n))
            assert out.raw[:outlen] == ref(m).digest()
            ctx = ctypes.create_string_buffer(208)
            getattr(lib, f"{name}_inc_init")(ctx)
            off = 0
            for c in splits(rng, n):
                getattr(lib, f"{name}_inc_absorb")(ctx, m[off : off + c], SZ(c))
                off += c
            clone = ctypes.create_string_buffer(208)
            getattr(lib, f"{name}_inc_ctx_clone")(clone, ctx)
            getattr(lib, f"{name}_inc_finalize")(out, ctx)
            assert out.raw[:outlen] == ref(m).digest()
            getattr(lib, f"{name}_inc_finalize")(out, clone)
            assert out.raw[:outlen] == ref(m).digest()
            getattr(lib, f"{name}_inc_ctx_release")(ctx)
            assert ctx.raw == bytes(208)


def test_keccakf1600_state_access(lib: ctypes.CDLL) -> None:
    # SHA3-256 by hand through the raw interface, message spread over several offsets
    rng = random.Random(23)
    for n in (0, 1, 7, 8, 9, 100, 135):
        m = rng.randbytes(n)
        s = (ctypes.c_uint64 * 25)()
        half = n // 2
        lib.KeccakF1600_StateXORBytes(s, m[:half], ctypes.c_uint(0), ctypes.c_uint(half))
        lib.KeccakF1600_StateXORBytes(s, m[half:], ctypes.c_uint(half), ctypes.c_uint(n - half))
        lib.KeccakF1600_StateXORBytes(s, b"\x06", ctypes.c_uint(n), ctypes.c_uint(1))
        lib.KeccakF1600_StateXORBytes(s, b"\x80", ctypes.c_uint(135), ctypes.c_uint(1))
        lib.KeccakF1600_StatePermute(s)
        out = ctypes.create_string_buffer(32)
        lib.KeccakF1600_StateExtractBytes(s, out, ctypes.c_uint(0), ctypes.c_uint(32))
        assert out.raw == hashlib.sha3_256(m).digest()
        whole = ctypes.create_string_buffer(200)
        lib.KeccakF1600_StateExtractBytes(s, whole, ctypes.c_uint(0), ctypes.c_uint(200))
        assert whole.raw[:32] == out.raw
        for off, k in ((3, 29), (7, 2), (8, 8), (13, 187), (199, 1)):
            part = ctypes.create_string_buffer(k)
            lib.KeccakF1600_StateExtractBytes(s, part, ctypes.c_uint(off), ctypes.c_uint(k))
            assert part.raw == whole.raw[off : off + k]


def lanes_in_layout(state: bytes, interleaved: bool) -> bytes:
    """The 25 words of a state given as FIPS 202 bytes, in the compat contexts' layout:
    plain lanes, or bit-interleaved (E = even bits in the low word, O = odd bits high)."""
    if not interleaved:
        return state
    out = b""
    for i in range(25):
        v = int.from_bytes(state[8 * i : 8 * i + 8], "little")
        e = sum(((v >> (2 * j)) & 1) << j for j in range(32))
        o = sum(((v >> (2 * j + 1)) & 1) << j for j in range(32))
        out += (e | o << 32).to_bytes(8, "little")
    return out


@pytest.fixture(scope="module")
def interleaved() -> bool:
    """The state layout of this module's `lib` build (test_compat_native.py: True)."""
    return False


def test_state_layout_of_contexts_and_raw_access(lib: ctypes.CDLL, interleaved: bool) -> None:
    # the documented layout (fips202.h): plain lanes without a native backend; the words a
    # context holds are the words keccakf1600.h works on, so foreign code may mix the two
    rng = random.Random(29)
    data = rng.randbytes(200)
    s = (ctypes.c_uint64 * 25)()
    lib.KeccakF1600_StateXORBytes(s, data[:13], ctypes.c_uint(0), ctypes.c_uint(13))
    lib.KeccakF1600_StateXORBytes(s, data[13:], ctypes.c_uint(13), ctypes.c_uint(187))
    assert bytes(ctypes.string_at(s, 200)) == lanes_in_layout(data, interleaved)
    # the absorb-once context after absorbing is the padded block in the layout, not permuted
    m = rng.randbytes(20)
    ctx = ctypes.create_string_buffer(200)
    lib.shake128_absorb(ctx, m, SZ(len(m)))
    block = bytearray(m + b"\x1f" + bytes(200 - 21))
    block[167] |= 0x80
    assert ctx.raw == lanes_in_layout(bytes(block), interleaved)
    # contexts and keccakf1600.h interoperate (mupq's cSHAKE does this): finish a SHAKE256
    # absorbed through the incremental API by hand, and absorb a raw state via the context
    for n in (0, 5, 135, 136, 300):
        m = rng.randbytes(n)
        inc = ctypes.create_string_buffer(208)
        lib.shake256_inc_init(inc)
        lib.shake256_inc_absorb(inc, m, SZ(n))
        pos = int.from_bytes(inc.raw[200:208], "little")
        assert pos == n % 136
        lib.KeccakF1600_StateXORBytes(inc, b"\x1f", ctypes.c_uint(pos), ctypes.c_uint(1))
        lib.KeccakF1600_StateXORBytes(inc, b"\x80", ctypes.c_uint(135), ctypes.c_uint(1))
        lib.KeccakF1600_StatePermute(inc)
        out = ctypes.create_string_buffer(136)
        lib.KeccakF1600_StateExtractBytes(inc, out, ctypes.c_uint(0), ctypes.c_uint(136))
        assert out.raw == hashlib.shake_256(m).digest(136), n
        if n >= 136:
            continue
        # and the other way: the context pads and squeezes a block XORed in by raw calls
        inc2 = ctypes.create_string_buffer(208)
        lib.shake256_inc_init(inc2)
        lib.KeccakF1600_StateXORBytes(inc2, m, ctypes.c_uint(0), ctypes.c_uint(n))
        ctypes.memmove(ctypes.addressof(inc2) + 200, n.to_bytes(8, "little"), 8)  # ctx[25] = pos
        lib.shake256_inc_finalize(inc2)
        got = ctypes.create_string_buffer(200)
        lib.shake256_inc_squeeze(got, SZ(200), inc2)
        assert got.raw == hashlib.shake_256(m).digest(200), n


# ---------------------------------------------------------------- sha2.h

SHA2S = {
    "sha224": (64, 28, 40, hashlib.sha224),
    "sha256": (64, 32, 40, hashlib.sha256),
    "sha384": (128, 48, 72, hashlib.sha384),
    "sha512": (128, 64, 72, hashlib.sha512),
}


def test_sha2_blocks_and_finalize(lib: ctypes.CDLL) -> None:
    rng = random.Random(24)
    for name, (blk, outlen, ctxlen, ref) in SHA2S.items():
        for _ in range(300):
            nblocks = rng.choice([0, 1, 2, rng.randint(0, 6)])
            tail = rng.choice([0, 1, blk - 9, blk - 8, blk - 1, blk, blk + 1, rng.randint(0, 3 * blk)])
            m = rng.randbytes(nblocks * blk + tail)
            out = ctypes.create_string_buffer(64)
            getattr(lib, name)(out, m, SZ(len(m)))
            assert out.raw[:outlen] == ref(m).digest()
            ctx = ctypes.create_string_buffer(ctxlen + 8)
            ctypes.memset(ctypes.addressof(ctx) + ctxlen, 0xA5, 8)
            getattr(lib, f"{name}_inc_init")(ctx)
            done = 0
            while done < nblocks:  # whole blocks in random groups
                k = rng.randint(1, nblocks - done)
                getattr(lib, f"{name}_inc_blocks")(ctx, m[done * blk :], SZ(k))
                done += k
            clone = ctypes.create_string_buffer(ctxlen)
            getattr(lib, f"{name}_inc_ctx_clone")(clone, ctx)
            getattr(lib, f"{name}_inc_finalize")(out, ctx, m[nblocks * blk :], SZ(tail))
            assert out.raw[:outlen] == ref(m).digest(), (name, nblocks, tail)
            assert ctx.raw[ctxlen:] == b"\xa5" * 8
            getattr(lib, f"{name}_inc_finalize")(out, clone, b"", SZ(0))
            assert out.raw[:outlen] == ref(m[: nblocks * blk]).digest()
            getattr(lib, f"{name}_inc_ctx_release")(ctx)
            getattr(lib, f"{name}_inc_ctx_release")(ctx)
            assert ctx.raw[:ctxlen] == bytes(ctxlen)


# ---------------------------------------------------------------- aes.h


@pytest.mark.parametrize("suffix", ["", "_publicinputs"])
def test_aes_compat(lib: ctypes.CDLL, suffix: str) -> None:
    """aes.h, and pqm4/mupq's aes-publicinputs.h (the same functions with a suffix), against
    the cryptography package."""
    rng = random.Random(25)
    for bits, ctxlen in ((128, 704), (192, 832), (256, 960)):
        for _ in range(30):
            key = rng.randbytes(bits // 8)
            ctx = ctypes.create_string_buffer(ctxlen)
            kx = rng.choice(["ecb", "ctr"])
            getattr(lib, f"aes{bits}_{kx}_keyexp{suffix}")(ctx, key)
            nb = rng.randint(0, 7)
            data = rng.randbytes(16 * nb)
            out = ctypes.create_string_buffer(16 * nb + 1)
            getattr(lib, f"aes{bits}_ecb{suffix}")(out, data, SZ(nb), ctx)
            assert out.raw[: 16 * nb] == Cipher(algorithms.AES(key), modes.ECB()).encryptor().update(data)
            iv = rng.randbytes(12)
            olen = rng.randint(0, 100)
            out = ctypes.create_string_buffer(olen + 1)
            getattr(lib, f"aes{bits}_ctr{suffix}")(out, SZ(olen), iv, ctx)
            want = Cipher(algorithms.AES(key), modes.CTR(iv + bytes(4))).encryptor().update(bytes(olen))
            assert out.raw[:olen] == want
            getattr(lib, f"aes{bits}_ctx_release{suffix}")(ctx)
            getattr(lib, f"aes{bits}_ctx_release{suffix}")(ctx)
            assert ctx.raw == bytes(ctxlen)


# ---------------------------------------------------------------- cSHAKE (SP 800-185)


def _rc(t: int) -> int:
    """rc(t) of FIPS 202 Algorithm 5 (LFSR x^8 + x^6 + x^5 + x^4 + 1)."""
    if t % 255 == 0:
        return 1
    r = [1, 0, 0, 0, 0, 0, 0, 0]
    for _ in range(t % 255):
        r = [0] + r
        for k in (0, 4, 5, 6):
            r[k] ^= r[8]
        r = r[:8]
    return r[0]


ROUND_CONSTANTS = [sum(_rc(j + 7 * ir) << ((1 << j) - 1) for j in range(7)) for ir in range(24)]


def keccak_f(lanes: list[int]) -> list[int]:
    """Pure-Python Keccak-f[1600] (FIPS 202 section 3), the test's independent reference."""
    rot = [[0] * 5 for _ in range(5)]
    x, y = 1, 0
    for t in range(24):
        rot[x][y] = (t + 1) * (t + 2) // 2 % 64
        x, y = y, (2 * x + 3 * y) % 5
    a = [[lanes[x + 5 * y] for y in range(5)] for x in range(5)]
    mask = (1 << 64) - 1
    for ir in range(24):
        c = [a[x][0] ^ a[x][1] ^ a[x][2] ^ a[x][3] ^ a[x][4] for x in range(5)]
        d = [c[(x - 1) % 5] ^ (((c[(x + 1) % 5] << 1) | (c[(x + 1) % 5] >> 63)) & mask) for x in range(5)]
        a = [[a[x][y] ^ d[x] for y in range(5)] for x in range(5)]
        b = [[0] * 5 for _ in range(5)]
        for x in range(5):
            for y in range(5):
                v, n = a[x][y], rot[x][y]
                b[y][(2 * x + 3 * y) % 5] = (((v << n) | (v >> (64 - n))) & mask) if n else v
        a = [[b[x][y] ^ (~b[(x + 1) % 5][y] & b[(x + 2) % 5][y] & mask) for y in range(5)] for x in range(5)]
        a[0][0] ^= ROUND_CONSTANTS[ir]
    return [a[x][y] for y in range(5) for x in range(5)]


def py_sponge(rate: int, data: bytes, ds: int, outlen: int) -> bytes:
    """Sponge with pad10*1 and domain byte ds (FIPS 202 sections 4, 5.1)."""
    padded = bytearray(data) + bytes([ds])
    padded += bytes(-len(padded) % rate)
    padded[-1] |= 0x80
    s = [0] * 25
    for off in range(0, len(padded), rate):
        blk = padded[off : off + rate] + bytes(200 - rate)
        s = keccak_f([s[i] ^ int.from_bytes(blk[8 * i : 8 * i + 8], "little") for i in range(25)])
    out = b""
    while True:
        out += b"".join(v.to_bytes(8, "little") for v in s)[:rate]
        if len(out) >= outlen:
            return out[:outlen]
        s = keccak_f(s)


def left_encode(x: int) -> bytes:
    n = max(1, (x.bit_length() + 7) // 8)
    return bytes([n]) + x.to_bytes(n, "big")


def py_cshake(rate: int, name: bytes, cstm: bytes, data: bytes, outlen: int) -> bytes:
    """cSHAKE of SP 800-185 section 3.3 (always with the prefix, as mupq does)."""
    pre = left_encode(rate) + left_encode(8 * len(name)) + name + left_encode(8 * len(cstm)) + cstm
    pre += bytes(-len(pre) % rate)
    return py_sponge(rate, pre + data, 0x04, outlen)


def test_python_reference_matches_hashlib() -> None:
    for n in (0, 1, 135, 136, 300):
        m = bytes(range(256))[:n] * 1
        assert py_sponge(136, m, 0x1F, 200) == hashlib.shake_256(m).digest(200)
        assert py_sponge(168, m, 0x1F, 40) == hashlib.shake_128(m).digest(40)


# SP 800-185 cSHAKE samples (NIST CSRC example values): N = "", S = "Email Signature"
SP800_185_SAMPLES = [
    (168, bytes(range(4)), 32, "c1c36925b6409a04f1b504fcbca9d82b4017277cb5ed2b2065fc1d3814d5aaf5"),
    (168, bytes(range(200)), 32, "c5221d50e4f822d96a2e8881a961420f294b7b24fe3d2094baed2c6524cc166b"),
    (
        136,
        bytes(range(4)),
        64,
        (
            "d008828e2b80ac9d2218ffee1d070c48b8e4c87bff32c9699d5b6896eee0edd1"
            "64020e2be0560858d9c00c037e34a96937c561a74c412bb4c746469527281c8c"
        ),
    ),
]


@pytest.mark.parametrize("rate,data,outlen,want", SP800_185_SAMPLES, ids=["1", "2", "3"])
def test_cshake_sp800_185_samples(lib: ctypes.CDLL, rate: int, data: bytes, outlen: int, want: str) -> None:
    name = "cshake128" if rate == 168 else "cshake256"
    cstm = b"Email Signature"
    assert py_cshake(rate, b"", cstm, data, outlen).hex() == want
    out = ctypes.create_string_buffer(outlen)
    getattr(lib, name)(out, SZ(outlen), b"", SZ(0), cstm, SZ(len(cstm)), data, SZ(len(data)))
    assert out.raw.hex() == want


def test_cshake_incremental_random(lib: ctypes.CDLL) -> None:
    rng = random.Random(26)
    for name, rate in (("cshake128", 168), ("cshake256", 136)):
        for _ in range(40):
            nm = rng.randbytes(rng.choice([0, 1, 5, rate, rate + 7]))
            cs = rng.randbytes(rng.choice([0, 2, 15, rate - 5]))
            m = rng.randbytes(rng.randint(0, 2 * rate + 3))
            olen = rng.randint(0, 2 * rate + 3)
            want = py_cshake(rate, nm, cs, m, olen)
            ctx = ctypes.create_string_buffer(208)
            getattr(lib, f"{name}_inc_init")(ctx, nm, SZ(len(nm)), cs, SZ(len(cs)))
            off = 0
            for c in splits(rng, len(m)):
                getattr(lib, f"{name}_inc_absorb")(ctx, m[off : off + c], SZ(c))
                off += c
            clone = ctypes.create_string_buffer(208)
            getattr(lib, f"{name}_inc_ctx_clone")(clone, ctx)
            getattr(lib, f"{name}_inc_finalize")(ctx)
            got = b""
            for c in splits(rng, olen):
                buf = ctypes.create_string_buffer(c + 1)
                getattr(lib, f"{name}_inc_squeeze")(buf, SZ(c), ctx)
                got += buf.raw[:c]
            assert got == want
            getattr(lib, f"{name}_inc_finalize")(clone)
            buf = ctypes.create_string_buffer(olen + 1)
            getattr(lib, f"{name}_inc_squeeze")(buf, SZ(olen), clone)
            assert buf.raw[:olen] == want
            getattr(lib, f"{name}_inc_ctx_release")(ctx)
            assert ctx.raw == bytes(208)


def test_cshake_simple(lib: ctypes.CDLL) -> None:
    rng = random.Random(27)
    for name, rate in (("shake128", 168), ("shake256", 136)):
        for _ in range(30):
            cstm = rng.randint(0, 0xFFFF)
            m = rng.randbytes(rng.randint(0, 2 * rate + 3))
            olen = rng.randint(0, 3 * rate)
            want = py_cshake(rate, b"", cstm.to_bytes(2, "little"), m, max(olen, 2 * rate))
            out = ctypes.create_string_buffer(olen + 1)
            getattr(lib, f"c{name}_simple")(out, SZ(olen), ctypes.c_uint16(cstm), m, SZ(len(m)))
            assert out.raw[:olen] == want[:olen]
            ctx = ctypes.create_string_buffer(200)
            getattr(lib, f"c{name}_simple_absorb")(ctx, ctypes.c_uint16(cstm), m, SZ(len(m)))
            blocks = ctypes.create_string_buffer(2 * rate)
            getattr(lib, f"c{name}_simple_squeezeblocks")(blocks, SZ(2), ctx)
            assert blocks.raw == want[: 2 * rate]


# ---------------------------------------------------------------- nistseedexpander.h


class RefSeedExpander:
    """Model of seedexpander_init / seedexpander of the NIST PQC package rng.c."""

    def __init__(self, seed: bytes, div: bytes, maxlen: int) -> None:
        self.key, self.remaining = seed, maxlen
        self.ctr = bytearray(div + maxlen.to_bytes(4, "big") + bytes(4))
        self.buf, self.pos = bytes(16), 16

    def take(self, n: int) -> bytes | int:
        if n >= self.remaining:
            return -3
        self.remaining -= n
        out = b""
        while n > 0:
            if self.pos == 16:
                self.buf = Cipher(algorithms.AES(self.key), modes.ECB()).encryptor().update(bytes(self.ctr))
                self.pos = 0
                c = (int.from_bytes(self.ctr[12:], "big") + 1) % (1 << 32)
                self.ctr[12:] = c.to_bytes(4, "big")
            k = min(n, 16 - self.pos)
            out += self.buf[self.pos : self.pos + k]
            self.pos += k
            n -= k
        return out


def test_seedexpander_against_model(lib: ctypes.CDLL) -> None:
    rng = random.Random(28)
    for _ in range(50):
        seed, div = rng.randbytes(32), rng.randbytes(8)
        maxlen = rng.choice([1, 16, 17, 100, 1000, 0xFFFFFFFF])
        ctx = ctypes.create_string_buffer(80)
        assert lib.seedexpander_init(ctx, seed, div, SZ(maxlen)) == 0
        ref = RefSeedExpander(seed, div, maxlen)
        for _ in range(10):
            n = rng.choice([0, 1, 15, 16, 17, 33, rng.randint(0, 120)])
            want = ref.take(n)
            buf = ctypes.create_string_buffer(n + 1)
            rc = lib.seedexpander(ctx, buf, SZ(n))
            if isinstance(want, int):
                assert rc == want
            else:
                assert rc == 0 and buf.raw[:n] == want
    ctx = ctypes.create_string_buffer(80)
    assert lib.seedexpander_init(ctx, bytes(32), bytes(8), SZ(1 << 32)) == -1
    assert lib.seedexpander_init(ctx, bytes(32), bytes(8), SZ(100)) == 0
    assert lib.seedexpander(ctx, None, SZ(1)) == -2
    assert lib.seedexpander(ctx, ctypes.create_string_buffer(200), SZ(100)) == -3


# ---------------------------------------------------------------- randombytes, hal, sendfn


def test_randombytes_forwarding(lib: ctypes.CDLL) -> None:
    # the stub's DRBG starts at the NIST KAT seed, so the three names share one stream
    a = ctypes.create_string_buffer(48)
    assert lib.PQCLEAN_randombytes(a, SZ(48)) == 0
    assert a.raw.hex().upper().startswith("061550234D158C5E")
    b = ctypes.create_string_buffer(33)
    assert lib.randombytes(b, SZ(33)) == 0
    assert b.raw.hex().upper().startswith("D81C4D8D734FCBFB")
    c = ctypes.create_string_buffer(16)
    assert lib.rb_via_header(c, SZ(16)) == 0
    assert c.raw != bytes(16)


def test_hal_and_sendfn(lib: ctypes.CDLL) -> None:
    sent = ctypes.c_char.in_dll(lib, "stub_sent")
    sent_len = ctypes.c_size_t.in_dll(lib, "stub_sent_len")
    calls = ctypes.c_int.in_dll(lib, "stub_setup_calls")
    start = sent_len.value
    lib.hal_setup(1)
    assert calls.value == 1
    lib.hal_send_str(b"hello")
    lib.hal_send_str(b"two\nlines\n")
    lib.use_helpers(7)
    text = ctypes.string_at(ctypes.addressof(sent) + start, sent_len.value - start)
    # foreign output becomes protocol comment lines, never records
    assert text == (
        b"#impl hello\n#impl two\n#impl lines\n#impl value: 42\n#impl big: 18446744073709551615\n#impl zero: 0\n"
    )
    lib.hal_get_time.restype = ctypes.c_uint64
    assert lib.hal_get_time() == 123456789012
    lib.hal_spraystack()
    assert calls.value == 101
    lib.hal_checkstack.restype = ctypes.c_size_t
    assert lib.hal_checkstack() == 4242
    lib.hal_get_stack_size.restype = ctypes.c_size_t
    assert lib.hal_get_stack_size() == 0  # the stub platform does not define a size


@pytest.mark.parametrize("platform", ["mps2-an386", "rv32-qemu"])
def test_context_sizes_on_32bit_targets(platform: str, tmp_path: Path) -> None:
    # size_t is 4 bytes there: AES_XOF_struct is 72 bytes; everything else as on the host
    src = tmp_path / "s.c"
    src.write_text(
        SIZES + '\n_Static_assert(sizeof(AES_XOF_struct) == 72, "xof");\n'
        '_Static_assert(sizeof(shake128incctx) == 208 && sizeof(aes256ctx) == 960, "s");\n'
    )
    firmware.build(platform, tmp_path, [src], cflags=[COMPAT_I], kind="objects")


# ---------------------------------------------------------------- constant time

CT_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "aes.h"
#include "crypto_declassify.h"
#include "fips202.h"
#include "keccakf1600.h"
#include "nistseedexpander.h"
#include "sha2.h"
#include "sp800-185.h"
#include "../common/ct.h"

int main(void)
{
    uint8_t key[32], in[300], out[300];
    for (unsigned i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 5 + 1);
    for (unsigned i = 0; i < sizeof in; i++) in[i] = (uint8_t)(i * 11 + 3);
    PQLAB_SECRET(key, sizeof key);
    PQLAB_SECRET(in, sizeof in);

    aes128ctx a128; aes256ctx a256;
    aes128_ecb_keyexp(&a128, key); aes128_ecb(out, in, 3, &a128); aes128_ctx_release(&a128);
    aes256_ctr_keyexp(&a256, key); aes256_ctr(out, 100, in, &a256); aes256_ctx_release(&a256);

    AES_XOF_struct xof;
    seedexpander_init(&xof, key, in, 1000);
    seedexpander(&xof, out, 37);
    seedexpander(&xof, out, 100);

    sha256ctx s256; sha512ctx s512;
    sha256_inc_init(&s256); sha256_inc_blocks(&s256, in, 2); sha256_inc_finalize(out, &s256, in + 128, 90);
    sha512_inc_init(&s512); sha512_inc_blocks(&s512, in, 1); sha512_inc_finalize(out, &s512, in + 128, 150);
    sha384(out, in, 200);

    shake256incctx sh;
    shake256_inc_init(&sh); shake256_inc_absorb(&sh, in, 200); shake256_inc_finalize(&sh);
    shake256_inc_squeeze(out, 300, &sh); shake256_inc_ctx_release(&sh);
    shake128ctx s128;
    shake128_absorb(&s128, in, 170); shake128_squeezeblocks(out, 1, &s128);
    cshake128(out, 64, in, 10, key, 20, in + 50, 200);
    cshake256_simple(out, 64, 0x1234, in, 99);
    sha3_512(out, in, 100);
    uint64_t st[25] = {0};
    KeccakF1600_StateXORBytes(st, in, 3, 100);
    KeccakF1600_StatePermute(st);
    KeccakF1600_StateExtractBytes(st, out, 5, 50);

    crypto_declassify(out, sizeof out);
    unsigned acc = 0;
    for (unsigned i = 0; i < 64; i++) acc += out[i];
#ifdef LEAK
    if (key[0] & 1) acc++;
#endif
    printf("ok %u\n", acc);
    return 0;
}
"""


@pytest.mark.parametrize("leak", [False, True], ids=["clean", "negative-control"])
def test_compat_constant_time_under_memcheck(leak: bool, tmp_path: Path) -> None:
    import shutil
    import subprocess

    assert shutil.which("valgrind"), "valgrind is required (apt-get install valgrind)"
    (tmp_path / "main.c").write_text(CT_MAIN)
    (tmp_path / "stubs.c").write_text(STUBS)
    sources = [tmp_path / "main.c", tmp_path / "stubs.c", *[ROOT / c for c in COMPAT + COMMON]]
    cflags = [COMPAT_I, *(["-DLEAK"] if leak else [])]
    # the host-ct platform's flags (valgrind markers, -g); the test's stubs are the HAL
    exe = firmware.build("host-ct", tmp_path / "build", sources, cflags=cflags, hal=False)
    res = subprocess.run(
        ["valgrind", "--error-exitcode=3", "-q", str(exe)], capture_output=True, check=False, text=True, timeout=300
    )
    if leak:
        assert res.returncode == 3 and "depends on uninitialised value" in res.stderr
    else:
        assert res.returncode == 0, res.stderr
        assert res.stdout.startswith("ok ")


def test_compat_under_address_and_undefined_sanitizers(tmp_path: Path) -> None:
    import subprocess

    (tmp_path / "main.c").write_text(CT_MAIN)
    (tmp_path / "stubs.c").write_text(STUBS)
    sources = [tmp_path / "main.c", tmp_path / "stubs.c", *[ROOT / c for c in COMPAT + COMMON]]
    # the host-fuzz platform's sanitizers; the test's stubs are the HAL
    exe = firmware.build("host-fuzz", tmp_path / "build", sources, cflags=[COMPAT_I], hal=False)
    res = subprocess.run([str(exe)], capture_output=True, check=False, text=True, timeout=120)
    assert res.returncode == 0 and res.stdout.startswith("ok "), res.stderr
