"""lib/common ct.h helpers, the PQLAB_SECRET/PQLAB_DECLASSIFY marks under valgrind
memcheck (constant-time check of every common primitive on secret inputs), and the
hashing-share instrumentation of hashprof.h."""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from pathlib import Path

import firmware
import pytest
from hostlib import ROOT, build_shared

SZ = ctypes.c_size_t
COMMON = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "lib" / "common").glob("*.c"))

CT_WRAP = r"""
#include "ct.h"
uint8_t w_barrier_u8(uint8_t x) { return pqlab_value_barrier_u8(x); }
uint32_t w_barrier_u32(uint32_t x) { return pqlab_value_barrier_u32(x); }
uint64_t w_barrier_u64(uint64_t x) { return pqlab_value_barrier_u64(x); }
uint32_t w_mask(uint32_t b) { return pqlab_ct_mask_u32(b); }
uint32_t w_is_zero(uint32_t x) { return pqlab_ct_is_zero_u32(x); }
int w_memcmp(const void *a, const void *b, size_t n) { return pqlab_ct_memcmp(a, b, n); }
void w_cmov(void *d, const void *s, size_t n, uint8_t c) { pqlab_ct_cmov(d, s, n, c); }
void w_zeroize(void *p, size_t n) { pqlab_zeroize(p, n); }
"""


def write(tmp: Path, name: str, text: str) -> Path:
    p = tmp / name
    p.write_text(text)
    return p


@pytest.fixture(scope="module")
def ctlib(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    src = write(tmp_path_factory.mktemp("ct"), "ct_wrap.c", CT_WRAP)
    lib = build_shared("pqlab_ct_wrap", [src])
    for f in ("w_barrier_u32", "w_mask", "w_is_zero"):
        getattr(lib, f).restype = ctypes.c_uint32
        getattr(lib, f).argtypes = [ctypes.c_uint32]
    lib.w_barrier_u64.restype = ctypes.c_uint64
    lib.w_barrier_u64.argtypes = [ctypes.c_uint64]
    lib.w_barrier_u8.restype = ctypes.c_uint8
    lib.w_barrier_u8.argtypes = [ctypes.c_uint8]
    return lib


def test_barriers_are_identity(ctlib: ctypes.CDLL) -> None:
    for v in (0, 1, 0x7F, 0x80, 0xFF):
        assert ctlib.w_barrier_u8(v) == v
    for v in (0, 1, 0xDEADBEEF, 0xFFFFFFFF):
        assert ctlib.w_barrier_u32(v) == v
    for v in (0, 1, 0x0123456789ABCDEF, 0xFFFFFFFFFFFFFFFF):
        assert ctlib.w_barrier_u64(v) == v


def test_masks(ctlib: ctypes.CDLL) -> None:
    assert ctlib.w_mask(0) == 0
    assert ctlib.w_mask(1) == 0xFFFFFFFF
    for v, z in ((0, 1), (1, 0), (0x80000000, 0), (0xFFFFFFFF, 0), (12345, 0)):
        assert ctlib.w_is_zero(v) == z


def test_memcmp_cmov_zeroize(ctlib: ctypes.CDLL) -> None:
    a = bytes(range(64))
    assert ctlib.w_memcmp(a, a, SZ(64)) == 0
    assert ctlib.w_memcmp(a, a, SZ(0)) == 0
    for i in (0, 31, 63):
        b = bytearray(a)
        b[i] ^= 0x01
        assert ctlib.w_memcmp(a, bytes(b), SZ(64)) == 1
        b[i] ^= 0x81
        assert ctlib.w_memcmp(a, bytes(b), SZ(64)) == 1
    dst = ctypes.create_string_buffer(b"\x11" * 32, 32)
    ctlib.w_cmov(dst, b"\x22" * 32, SZ(32), ctypes.c_uint8(0))
    assert dst.raw == b"\x11" * 32
    ctlib.w_cmov(dst, b"\x22" * 32, SZ(32), ctypes.c_uint8(1))
    assert dst.raw == b"\x22" * 32
    ctlib.w_zeroize(dst, SZ(32))
    assert dst.raw == bytes(32)
    # word-wise and byte-wise paths: every alignment and length, nothing outside touched
    buf = ctypes.create_string_buffer(b"\xee" * 160, 160)
    for off in range(8):
        for n in [*range(20), 63, 64, 65, 100]:
            ctypes.memset(buf, 0xEE, 160)
            ctlib.w_zeroize(ctypes.byref(buf, 8 + off), SZ(n))
            want = b"\xee" * (8 + off) + bytes(n) + b"\xee" * (152 - off - n)
            assert buf.raw == want, (off, n)


# ---------------------------------------------------------------- valgrind

CT_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "aes.h"
#include "ct.h"
#include "drbg.h"
#include "fips202.h"
#include "fips202x4.h"
#include "sha2.h"

int main(void)
{
    uint8_t key[32], in[200], out[512], o2[4][200];
    uint8_t digest = 0;
    for (unsigned i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 7);
    for (unsigned i = 0; i < sizeof in; i++) in[i] = (uint8_t)(i * 13);
    PQLAB_SECRET(key, sizeof key);
    PQLAB_SECRET(in, sizeof in);

    pqlab_aes_ctx ctx;
    for (size_t kl = 16; kl <= 32; kl += 8) {
        pqlab_aes_keyexp(&ctx, key, kl);
        pqlab_aes_ecb(out, in, 3, &ctx);
        pqlab_aes_ctr(out, 77, in, &ctx);
    }
    pqlab_aes_ctx_release(&ctx);

    pqlab_drbg_state d;
    pqlab_drbg_init(&d, in, in + 48);
    pqlab_drbg_generate(&d, out, 100);

    pqlab_sha3_256(out, in, 200);
    pqlab_sha3_512(out, in, 71);
    pqlab_shake128(out, 500, in, 168);
    pqlab_shake256(out, 300, in, 5);
    pqlab_sha224(out, in, 120);
    pqlab_sha256(out, in, 200);
    pqlab_sha384(out, in, 111);
    pqlab_sha512(out, in, 200);
    pqlab_keccakx4_state x4;
    pqlab_shake128x4_absorb_once(&x4, in, in + 1, in + 2, in + 3, 150);
    pqlab_shake128x4_squeezeblocks(o2[0], o2[1], o2[2], o2[3], 1, &x4);
    pqlab_shake256x4(o2[0], o2[1], o2[2], o2[3], 200, in, in + 1, in + 2, in + 3, 190);

    uint8_t a[32], b[32];
    memcpy(a, out, 32);
    memcpy(b, out, 32);
    int r = pqlab_ct_memcmp(a, b, 32);
    pqlab_ct_cmov(a, in, 32, (uint8_t)(r & 1));
    PQLAB_DECLASSIFY(&r, sizeof r);
    PQLAB_DECLASSIFY(out, sizeof out);
    for (unsigned i = 0; i < 64; i++) digest ^= out[i];
#ifdef LEAK
    /* negative control: a branch on a secret byte must be reported */
    if (key[3] == 21) digest++;
#endif
    printf("ok %d %u\n", r, digest);
    return 0;
}
"""


def valgrind_run(tmp: Path, extra: list[str]) -> subprocess.CompletedProcess[str]:
    assert shutil.which("valgrind"), "valgrind is required (apt-get install valgrind)"
    src = write(tmp, "ct_main.c", CT_MAIN)
    # the host-ct platform: the flags `pqlab ct` builds with (valgrind markers, -g)
    exe = firmware.build("host-ct", tmp / "build", [src, *[ROOT / c for c in COMMON]], cflags=extra)
    return subprocess.run(
        ["valgrind", "--error-exitcode=3", "-q", str(exe)], capture_output=True, check=False, text=True, timeout=300
    )


@pytest.mark.parametrize("keccak", ["LANES", "ROWS"])
def test_common_primitives_constant_time_under_memcheck(keccak: str, tmp_path: Path) -> None:
    res = valgrind_run(tmp_path, [f"-DPQLAB_KECCAK_{keccak}"])
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("ok 0 ")
    assert "uninitialised" not in res.stderr


def test_memcheck_detects_secret_branch(tmp_path: Path) -> None:
    res = valgrind_run(tmp_path, ["-DLEAK"])
    assert res.returncode == 3, (res.returncode, res.stderr)
    assert "depends on uninitialised value" in res.stderr


# ---------------------------------------------------------------- hashprof

FAKE_TIMER = r"""
#include <stdint.h>
static uint64_t now;
uint64_t pqlab_hal_cycles(void) { now += 1000; return now; }
"""


def test_hash_profiling_counts_each_primitive(tmp_path: Path) -> None:
    timer = write(tmp_path, "fake_timer.c", FAKE_TIMER)
    lib = build_shared("pqlab_common_prof", [*COMMON, timer], cflags=["-DPQLAB_PROFILE_HASHING"])
    counter = ctypes.c_uint64.in_dll(lib, "pqlab_hash_cycles")
    out = ctypes.create_string_buffer(512)

    def delta(fn) -> int:  # type: ignore[no-untyped-def]
        before = counter.value
        fn()
        return counter.value - before

    # the fake timer advances 1000 per read, so each marked call adds exactly 1000
    assert delta(lambda: lib.pqlab_sha3_256(out, b"", SZ(0))) == 1000  # one permutation
    assert delta(lambda: lib.pqlab_shake128(out, SZ(400), b"", SZ(0))) == 3000  # 3 blocks
    assert delta(lambda: lib.pqlab_sha256(out, b"x" * 100, SZ(100))) == 2000  # 2 compress calls
    assert delta(lambda: lib.pqlab_sha512(out, b"x" * 100, SZ(100))) == 1000
    ctx = ctypes.create_string_buffer(484)
    assert delta(lambda: lib.pqlab_aes_keyexp(ctx, bytes(32), SZ(32))) == 1000
    assert delta(lambda: lib.pqlab_aes_ecb(out, bytes(64), SZ(4), ctx)) == 1000


def test_no_profiling_no_hal_dependency() -> None:
    lib = build_shared("pqlab_common_all", COMMON)
    res = subprocess.run(["nm", "-D", "--undefined-only", lib._name], capture_output=True, text=True, check=True)
    assert "pqlab_hal_cycles" not in res.stdout
    assert ctypes.c_uint64.in_dll(lib, "pqlab_hash_cycles").value == 0
    lib.pqlab_sha3_256(ctypes.create_string_buffer(32), b"abc", SZ(3))
    assert ctypes.c_uint64.in_dll(lib, "pqlab_hash_cycles").value == 0


@pytest.mark.parametrize("keccak", ["LANES", "ROWS"])
def test_common_under_address_and_undefined_sanitizers(keccak: str, tmp_path: Path) -> None:
    src = write(tmp_path, "main.c", CT_MAIN)
    # the host-fuzz platform: address and undefined-behaviour sanitizers (platform.toml)
    sources = [src, *[ROOT / c for c in COMMON]]
    exe = firmware.build("host-fuzz", tmp_path / "build", sources, cflags=[f"-DPQLAB_KECCAK_{keccak}"])
    res = subprocess.run([str(exe)], capture_output=True, check=False, text=True, timeout=120)
    assert res.returncode == 0 and res.stdout.startswith("ok 0 "), res.stderr
