"""lib/compat's Keccak contexts with a native backend (PQLAB_KECCAKF1600_NATIVE): the
contexts and keccakf1600.h keep the state in the backend's bit-interleaved layout, so every
permutation is a direct call of the backend (lib/compat/fips202.h, compat_keccak.h).

- host: the fips202.h / sp800-185.h / keccakf1600.h tests of test_compat.py, run again on a
  build with the C stand-in backend of test_native_armv7em_sponge.py (interleaved layout);
- mps2-an386 and m4-sim: the real ARMv7E-M backend, every compat Keccak entry point against
  hashlib and the pure-Python cSHAKE, plus the cost of one squeezed block of a compat
  context against the native pqlab_keccak_state sponge (m4-sim cycles)."""

from __future__ import annotations

import ctypes
import hashlib
from pathlib import Path

import firmware
import pytest
from hostlib import ROOT, build_shared

# The host tests below are test_compat.py's, collected again here: they use this
# module's `lib` and `interleaved` fixtures.
from test_compat import (  # noqa: F401
    COMMON,
    COMPAT,
    COMPAT_I,
    SIZES,
    STUBS,
    py_cshake,
    test_cshake_incremental_random,
    test_cshake_simple,
    test_cshake_sp800_185_samples,
    test_keccakf1600_state_access,
    test_sha3_incremental,
    test_shake_incremental_and_clone,
    test_shake_oneshot_and_absorb_squeezeblocks,
    test_state_layout_of_contexts_and_raw_access,
)
from test_native_armv7em_sponge import HOST_BACKEND

NATIVE = ROOT / "lib" / "native" / "armv7em"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    tmp = tmp_path_factory.mktemp("compat_native")
    (tmp / "stubs.c").write_text(STUBS)
    (tmp / "sizes.c").write_text(SIZES)
    (tmp / "backend.c").write_text(HOST_BACKEND)
    return build_shared(
        "pqlab_compat_il",
        [*COMMON, *COMPAT, tmp / "stubs.c", tmp / "sizes.c", tmp / "backend.c"],
        cflags=[COMPAT_I, "-DPQLAB_KECCAKF1600_NATIVE"],
        include=["lib/compat"],
    )


@pytest.fixture(scope="module")
def interleaved() -> bool:
    return True


# ---------------------------------------------------------------- on the targets

LENGTHS = [0, 1, 7, 8, 33, 34, 71, 72, 135, 136, 137, 167, 168, 169, 300]

FIRMWARE = r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fips202.h"
#include "keccakf1600.h"
#include "sp800-185.h"
#include "@COMMON@/fips202.h"

static const size_t lengths[] = {@LENGTHS@};
static uint8_t msg[1024], out[520];

static void line(const char *name, size_t len, const uint8_t *p, size_t n)
{
    static char b[1200];
    int k = snprintf(b, 64, "%s %u ", name, (unsigned)len);
    for (size_t i = 0; i < n; i++) k += snprintf(b + k, 4, "%02x", p[i]);
    b[k++] = '\n';
    pqlab_hal_send(b, (size_t)k);
}

static void number(const char *name, unsigned long long v)
{
    char b[64];
    int k = snprintf(b, sizeof b, "%s %llu\n", name, v);
    pqlab_hal_send(b, (size_t)k);
}

/* absorb in pieces of `piece` bytes */
#define PIECES(fn, st, n, piece)                                                  \
    for (size_t off = 0; off < (n); off += (piece))                               \
        fn((st), msg + off, off + (piece) <= (n) ? (piece) : (n) - off)

int main(void)
{
    pqlab_hal_setup();
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 31 + 7);
    for (size_t j = 0; j < sizeof lengths / sizeof lengths[0]; j++) {
        const size_t n = lengths[j];
        shake128ctx c128; shake256ctx c256;
        shake128_absorb(&c128, msg, n);
        shake128_squeezeblocks(out, 1, &c128);
        shake128_squeezeblocks(out + 168, 2, &c128);
        line("shake128_absorb", n, out, 3 * 168);
        shake256_absorb(&c256, msg, n);
        shake256_squeezeblocks(out + 1, 3, &c256); /* unaligned output */
        line("shake256_absorb", n, out + 1, 3 * 136);
        shake128_ctx_release(&c128);
        shake256_ctx_release(&c256);

        shake128incctx i128; shake256incctx i256;
        shake128_inc_init(&i128);
        PIECES(shake128_inc_absorb, &i128, n, 13);
        shake128_inc_finalize(&i128);
        shake128_inc_squeeze(out, 5, &i128);
        shake128_inc_squeeze(out + 5, 170, &i128);
        shake128_inc_squeeze(out + 175, 325, &i128);
        line("shake128_inc", n, out, 500);
        shake256_inc_init(&i256);
        PIECES(shake256_inc_absorb, &i256, n, 8);
        shake256incctx clone;
        shake256_inc_ctx_clone(&clone, &i256);
        shake256_inc_finalize(&i256);
        shake256_inc_squeeze(out, 300, &i256);
        line("shake256_inc", n, out, 300);
        shake256_inc_absorb(&clone, (const uint8_t *)"tail", 4);
        shake256_inc_finalize(&clone);
        shake256_inc_squeeze(out, 64, &clone);
        line("shake256_clone", n, out, 64);
        shake128_inc_ctx_release(&i128);
        shake256_inc_ctx_release(&i256);
        shake256_inc_ctx_release(&clone);

        sha3_256incctx s256; sha3_384incctx s384; sha3_512incctx s512;
        sha3_256_inc_init(&s256); PIECES(sha3_256_inc_absorb, &s256, n, 7);
        sha3_256_inc_finalize(out, &s256); line("sha3_256", n, out, 32);
        sha3_384_inc_init(&s384); PIECES(sha3_384_inc_absorb, &s384, n, 50);
        sha3_384_inc_finalize(out, &s384); line("sha3_384", n, out, 48);
        sha3_512_inc_init(&s512); PIECES(sha3_512_inc_absorb, &s512, n, 72);
        sha3_512_inc_finalize(out, &s512); line("sha3_512", n, out, 64);

        cshake128(out, 200, (const uint8_t *)"N", 1, (const uint8_t *)"cstm", 4, msg, n);
        line("cshake128", n, out, 200);
        shake256incctx cs;
        cshake256_inc_init(&cs, NULL, 0, msg + 500, 15);
        PIECES(cshake256_inc_absorb, &cs, n, 11);
        cshake256_inc_finalize(&cs);
        cshake256_inc_squeeze(out, 3, &cs);
        cshake256_inc_squeeze(out + 3, 297, &cs);
        line("cshake256_inc", n, out, 300);
        cshake128_simple(out, 400, 0x1234, msg, n);
        line("cshake128_simple", n, out, 400);
        cshake256_simple_absorb(&c256, 0xBEEF, msg, n);
        cshake256_simple_squeezeblocks(out, 2, &c256);
        line("cshake256_simple_absorb", n, out, 2 * 136);
    }
    /* keccakf1600.h on a raw state: SHA3-256 by hand at unaligned offsets, and mixed with
     * an incremental context (SHAKE256 finished by hand) */
    uint64_t st[25] = {0};
    KeccakF1600_StateXORBytes(st, msg, 0, 45);
    KeccakF1600_StateXORBytes(st, msg + 45, 45, 55);
    KeccakF1600_StateXORBytes(st, (const uint8_t *)"\x06", 100, 1);
    KeccakF1600_StateXORBytes(st, (const uint8_t *)"\x80", 135, 1);
    KeccakF1600_StatePermute(st);
    KeccakF1600_StateExtractBytes(st, out, 0, 3);
    KeccakF1600_StateExtractBytes(st, out + 3, 3, 29);
    line("raw_sha3_256", 100, out, 32);
    shake256incctx mix;
    shake256_inc_init(&mix);
    shake256_inc_absorb(&mix, msg, 150);
    KeccakF1600_StateXORBytes(mix.ctx, (const uint8_t *)"\x1f", (unsigned)mix.ctx[25], 1);
    KeccakF1600_StateXORBytes(mix.ctx, (const uint8_t *)"\x80", 135, 1);
    KeccakF1600_StatePermute(mix.ctx);
    KeccakF1600_StateExtractBytes(mix.ctx, out, 0, 136);
    line("mix_shake256", 150, out, 136);

    /* cost of one squeezed SHAKE128 block: compat absorb-once context, compat incremental
     * context, pqlab_keccak_state (all permutation + 168 bytes out) */
    shake128ctx c;
    shake128incctx ic;
    pqlab_keccak_state ps;
    shake128_absorb(&c, msg, 34);
    shake128_inc_init(&ic);
    shake128_inc_absorb(&ic, msg, 34);
    shake128_inc_finalize(&ic);
    pqlab_shake128_init(&ps);
    pqlab_shake128_absorb(&ps, msg, 34);
    pqlab_shake128_finalize(&ps);
    uint64_t t0 = pqlab_hal_cycles();
    for (int i = 0; i < 10; i++) shake128_squeezeblocks(out, 1, &c);
    uint64_t t1 = pqlab_hal_cycles();
    for (int i = 0; i < 10; i++) shake128_inc_squeeze(out, 168, &ic);
    uint64_t t2 = pqlab_hal_cycles();
    for (int i = 0; i < 10; i++) pqlab_shake128_squeezeblocks(out, 1, &ps);
    uint64_t t3 = pqlab_hal_cycles();
    number("block_compat", (unsigned long long)((t1 - t0) / 10));
    number("block_compat_inc", (unsigned long long)((t2 - t1) / 10));
    number("block_state", (unsigned long long)((t3 - t2) / 10));
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""

MSG = bytes((i * 31 + 7) & 0xFF for i in range(1024))


def expected(name: str, n: int) -> bytes:
    m = MSG[:n]
    table = {
        "shake128_absorb": lambda: hashlib.shake_128(m).digest(3 * 168),
        "shake256_absorb": lambda: hashlib.shake_256(m).digest(3 * 136),
        "shake128_inc": lambda: hashlib.shake_128(m).digest(500),
        "shake256_inc": lambda: hashlib.shake_256(m).digest(300),
        "shake256_clone": lambda: hashlib.shake_256(m + b"tail").digest(64),
        "sha3_256": lambda: hashlib.sha3_256(m).digest(),
        "sha3_384": lambda: hashlib.sha3_384(m).digest(),
        "sha3_512": lambda: hashlib.sha3_512(m).digest(),
        "cshake128": lambda: py_cshake(168, b"N", b"cstm", m, 200),
        "cshake256_inc": lambda: py_cshake(136, b"", MSG[500:515], m, 300),
        "cshake128_simple": lambda: py_cshake(168, b"", (0x1234).to_bytes(2, "little"), m, 400),
        "cshake256_simple_absorb": lambda: py_cshake(136, b"", (0xBEEF).to_bytes(2, "little"), m, 272),
        "raw_sha3_256": lambda: hashlib.sha3_256(m).digest(),
        "mix_shake256": lambda: hashlib.shake_256(m).digest(136),
    }
    return table[name]()


def run_firmware(platform: str, tmp: Path) -> list[str]:
    src = tmp / "fw.c"
    src.write_text(
        FIRMWARE.replace("@LENGTHS@", ", ".join(map(str, LENGTHS))).replace("@COMMON@", str(ROOT / "lib" / "common"))
    )
    sources = [
        src,
        ROOT / "lib/compat/compat_fips202.c",
        ROOT / "lib/compat/compat_sp800_185.c",
        ROOT / "lib/common/fips202.c",
        NATIVE / "keccakf1600.S",
    ]
    # -I lib/compat ahead of the lib/common the helper adds, as for foreign code
    out = firmware.build_and_run(platform, tmp, sources, cflags=[COMPAT_I, "-DPQLAB_KECCAKF1600_NATIVE"], timeout=180)
    lines = out.replace("\r", "").splitlines()
    assert lines and lines[-1] == "end", out[-500:]
    return lines[:-1]


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim"])
def test_target_compat_contexts_native(platform: str, tmp_path: Path) -> None:
    lines = run_firmware(platform, tmp_path)
    cost: dict[str, int] = {}
    checked = 0
    for ln in lines:
        parts = ln.split()
        if parts[0].startswith("block_"):
            cost[parts[0]] = int(parts[1])
            continue
        name, n, got = parts[0], int(parts[1]), bytes.fromhex(parts[2])
        assert got == expected(name, n), (platform, name, n)
        checked += 1
    assert checked == 12 * len(LENGTHS) + 2
    assert set(cost) == {"block_compat", "block_compat_inc", "block_state"}
    print(f"\n{platform}: {checked} outputs agree; one SHAKE128 block: {cost}")
    if platform == "m4-sim":
        # no whole-state conversion per permutation: a compat context squeezes a block at the
        # cost of the native interleaved sponge (a conversion of the 25 lanes on both sides
        # of the permutation added about 1,700 cycles here, docs/native.md)
        assert cost["block_compat"] < 1.03 * cost["block_state"], cost
        assert cost["block_compat_inc"] < 1.05 * cost["block_state"], cost
