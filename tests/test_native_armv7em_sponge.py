"""The sponge of lib/common/fips202.c / fips202x4.c as built with a native one-way Keccak
backend (PQLAB_KECCAKF1600_NATIVE): pqlab_keccak_state sponges keep a bit-interleaved
state and convert only the bytes that go in and out (docs/native.md).

- host: the C layer alone, with a stand-in backend (a small C Keccak-f and conversions
  written here) against hashlib, incremental splits included;
- mps2-an386 and m4-sim: the real ARMv7E-M backend, SHA-3, SHAKE, incremental and x4
  outputs against hashlib, plus the cost of one SHAKE128 block (timer units)."""

from __future__ import annotations

import ctypes
import hashlib
from pathlib import Path

import firmware
import pytest
from hostlib import ROOT, build_shared

NATIVE = ROOT / "lib" / "native" / "armv7em"
LENGTHS = [0, 1, 7, 8, 9, 33, 34, 71, 72, 73, 104, 135, 136, 137, 167, 168, 169, 300, 500]

# stand-in backend for the host: FIPS 202 Keccak-f on 64-bit lanes plus the interleaved
# entry point built from it by converting around the call
HOST_BACKEND = r"""
#include <stdint.h>
void pqlab_keccakf1600_native(uint64_t s[25]);
void pqlab_keccakf1600_native_il(uint64_t s[25]);
void pqlab_keccak_native_xor_il(uint64_t *s, const uint8_t *in, unsigned int nlanes);
void pqlab_keccak_native_extract_il(uint8_t *out, const uint64_t *s, unsigned int nlanes);
static const unsigned rho[25] = {0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39,
                                 41, 45, 15, 21, 8, 18, 2, 61, 56, 14};
static uint64_t rol(uint64_t v, unsigned n) { return n ? (v << n) | (v >> (64 - n)) : v; }
void pqlab_keccakf1600_native(uint64_t a[25])
{
    uint64_t rc = 1; /* LFSR of FIPS 202 Algorithm 5, one bit per step */
    for (int ir = 0; ir < 24; ir++) {
        uint64_t c[5], b[25], k = 0;
        for (int x = 0; x < 5; x++) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        for (int i = 0; i < 25; i++) a[i] ^= c[(i + 4) % 5] ^ rol(c[(i + 1) % 5], 1);
        for (int x = 0; x < 5; x++)
            for (int y = 0; y < 5; y++) {
                int src = (x + 3 * y) % 5 + 5 * x;
                b[x + 5 * y] = rol(a[src], rho[src]);
            }
        for (int i = 0; i < 25; i++) {
            int x = i % 5, y5 = i - x;
            a[i] = b[i] ^ (~b[y5 + (x + 1) % 5] & b[y5 + (x + 2) % 5]);
        }
        for (int j = 0; j < 7; j++) {
            if (rc & 1) k |= 1ull << ((1u << j) - 1);
            rc = (rc << 1) ^ ((rc >> 7) & 1 ? 0x71 : 0);  /* x^8 + x^6 + x^5 + x^4 + 1 */
            rc &= 0xFF;
        }
        a[0] ^= k;
    }
}
static uint64_t to_il(uint64_t v)
{
    uint64_t w = 0;
    for (int j = 0; j < 32; j++) {
        w |= ((v >> (2 * j)) & 1) << j;
        w |= ((v >> (2 * j + 1)) & 1) << (32 + j);
    }
    return w;
}
void pqlab_keccak_native_xor_il(uint64_t *s, const uint8_t *in, unsigned int nlanes)
{
    for (unsigned i = 0; i < nlanes; i++) {
        uint64_t v = 0;
        for (int b = 0; b < 8; b++) v |= (uint64_t)in[8 * i + b] << (8 * b);
        s[i] ^= to_il(v);
    }
}
void pqlab_keccak_native_extract_il(uint8_t *out, const uint64_t *s, unsigned int nlanes)
{
    for (unsigned i = 0; i < nlanes; i++) {
        uint64_t v = 0;
        for (int j = 0; j < 32; j++) {
            v |= ((s[i] >> j) & 1) << (2 * j);
            v |= ((s[i] >> (32 + j)) & 1) << (2 * j + 1);
        }
        for (int b = 0; b < 8; b++) out[8 * i + b] = (uint8_t)(v >> (8 * b));
    }
}
void pqlab_keccakf1600_native_il(uint64_t s[25])
{
    for (int i = 0; i < 25; i++) {  /* E | O << 32 -> lane */
        uint64_t v = 0;
        for (int j = 0; j < 32; j++) {
            v |= ((s[i] >> j) & 1) << (2 * j);
            v |= ((s[i] >> (32 + j)) & 1) << (2 * j + 1);
        }
        s[i] = v;
    }
    pqlab_keccakf1600_native(s);
    for (int i = 0; i < 25; i++) {
        uint64_t w = 0;
        for (int j = 0; j < 32; j++) {
            w |= ((s[i] >> (2 * j)) & 1) << j;
            w |= ((s[i] >> (2 * j + 1)) & 1) << (32 + j);
        }
        s[i] = w;
    }
}
"""

MSG = bytes((i * 31 + 7) & 0xFF for i in range(1024))


def expected(name: str, n: int, outlen: int) -> bytes:
    m = MSG[:n]
    if name.startswith("shake"):
        return getattr(hashlib, name.replace("shake", "shake_"))(m).digest(outlen)
    return getattr(hashlib, name)(m).digest()


@pytest.fixture(scope="module")
def hostlib(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    d = ROOT / "build" / "tests"
    d.mkdir(parents=True, exist_ok=True)
    shim = d / "native_standin_backend.c"
    if not shim.exists() or shim.read_text() != HOST_BACKEND:
        shim.write_text(HOST_BACKEND)
    return build_shared(
        "fips202-native-standin",
        ["lib/common/fips202.c", "lib/common/fips202x4.c", "lib/common/hashprof.c", shim.relative_to(ROOT)],
        ["-DPQLAB_KECCAKF1600_NATIVE"],
    )


def test_host_struct_sponge_with_interleaved_state(hostlib: ctypes.CDLL) -> None:
    out = ctypes.create_string_buffer(600)
    checked = 0
    for n in LENGTHS:
        m = MSG[:n]
        for name, outlen in (("sha3_256", 32), ("sha3_384", 48), ("sha3_512", 64)):
            getattr(hostlib, f"pqlab_{name}")(out, m, ctypes.c_size_t(n))
            assert out.raw[:outlen] == expected(name, n, outlen), (name, n)
            checked += 1
        for name in ("shake128", "shake256"):
            getattr(hostlib, f"pqlab_{name}")(out, ctypes.c_size_t(500), m, ctypes.c_size_t(n))
            assert out.raw[:500] == expected(name, n, 500), (name, n)
            checked += 1
    # incremental: absorb in pieces of 1..n bytes, squeeze in odd pieces, squeezeblocks
    st = ctypes.create_string_buffer(256)  # pqlab_keccak_state (208 bytes with padding)
    for piece in (1, 5, 8, 13, 136, 200):
        hostlib.pqlab_shake256_init(st)
        for off in range(0, 300, piece):
            chunk = MSG[off : min(off + piece, 300)]
            hostlib.pqlab_shake256_absorb(st, chunk, ctypes.c_size_t(len(chunk)))
        hostlib.pqlab_shake256_finalize(st)
        got = b""
        for k in (3, 17, 136, 1, 200):
            hostlib.pqlab_shake256_squeeze(out, ctypes.c_size_t(k), st)
            got += out.raw[:k]
        assert got == hashlib.shake_256(MSG[:300]).digest(len(got)), piece
        checked += 1
    hostlib.pqlab_shake128_init(st)
    hostlib.pqlab_shake128_absorb(st, MSG, ctypes.c_size_t(34))
    hostlib.pqlab_shake128_finalize(st)
    hostlib.pqlab_shake128_squeezeblocks(out, ctypes.c_size_t(3), st)
    assert out.raw[:504] == hashlib.shake_128(MSG[:34]).digest(504)
    # x4: absorb_once + squeezeblocks, and the one-shot shake256x4
    x4 = ctypes.create_string_buffer(4 * 256)
    outs = [ctypes.create_string_buffer(600) for _ in range(4)]
    ins = [MSG[i : i + 34] for i in range(4)]
    hostlib.pqlab_shake128x4_absorb_once(x4, *ins, ctypes.c_size_t(34))
    hostlib.pqlab_shake128x4_squeezeblocks(*outs, ctypes.c_size_t(2), x4)
    hostlib.pqlab_shake128x4_squeezeblocks(*[ctypes.byref(o, 336) for o in outs], ctypes.c_size_t(1), x4)
    for i in range(4):
        assert outs[i].raw[:504] == hashlib.shake_128(ins[i]).digest(504), i
    hostlib.pqlab_shake256x4_absorb_once(x4, *ins, ctypes.c_size_t(34))
    hostlib.pqlab_shake256x4_squeezeblocks(*outs, ctypes.c_size_t(2), x4)
    for i in range(4):
        assert outs[i].raw[:272] == hashlib.shake_256(ins[i]).digest(272), i
    hostlib.pqlab_shake256x4(*outs, ctypes.c_size_t(300), *[MSG[i : i + 200] for i in range(4)], ctypes.c_size_t(200))
    for i in range(4):
        assert outs[i].raw[:300] == hashlib.shake_256(MSG[i : i + 200]).digest(300), i
    # the bare-state functions keep the standard layout: pqlab_keccakf1600 is the permutation
    s = (ctypes.c_uint64 * 25)()
    hostlib.pqlab_keccakf1600(s)
    assert s[0] == 0xF1258F7940E1DDE7  # Keccak-f[1600] of the zero state, lane 0 (XKCP KeccakF-1600 test output)
    assert checked == 5 * len(LENGTHS) + 6


FIRMWARE = r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fips202.h"
#include "fips202x4.h"

static const size_t lengths[] = {@LENGTHS@};
static uint8_t msg[1024], out[600], o4[4][504];

static void line(const char *name, size_t len, const uint8_t *p, size_t n)
{
    static char b[1400];
    int k = snprintf(b, 64, "%s %u ", name, (unsigned)len);
    for (size_t i = 0; i < n; i++) k += snprintf(b + k, 4, "%02x", p[i]);
    b[k++] = '\n';
    pqlab_hal_send(b, (size_t)k);
}

int main(void)
{
    pqlab_hal_setup();
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 31 + 7);
    for (size_t j = 0; j < sizeof lengths / sizeof lengths[0]; j++) {
        size_t n = lengths[j];
        pqlab_sha3_256(out, msg, n); line("sha3_256", n, out, 32);
        pqlab_sha3_384(out, msg, n); line("sha3_384", n, out, 48);
        pqlab_sha3_512(out, msg, n); line("sha3_512", n, out, 64);
        pqlab_shake128(out, 500, msg, n); line("shake128", n, out, 500);
        pqlab_shake256(out, 500, msg, n); line("shake256", n, out, 500);
    }
    pqlab_keccak_state st;
    pqlab_shake256_init(&st);
    for (size_t off = 0; off < 300; off += 13) pqlab_shake256_absorb(&st, msg + off, off + 13 <= 300 ? 13 : 300 - off);
    pqlab_shake256_finalize(&st);
    pqlab_shake256_squeeze(out, 5, &st);
    pqlab_shake256_squeeze(out + 5, 295, &st);
    line("shake256", 300, out, 300);
    pqlab_shake256(out + 1, 300, msg + 3, 200);  /* unaligned input and output */
    line("shake256u", 200, out + 1, 300);
    static pqlab_keccakx4_state x4;
    pqlab_shake128x4_absorb_once(&x4, msg, msg + 1, msg + 2, msg + 3, 34);
    pqlab_shake128x4_squeezeblocks(o4[0], o4[1], o4[2], o4[3], 3, &x4);
    for (int i = 0; i < 4; i++) line("shake128x4", (size_t)i, o4[i], 504);
    pqlab_shake128x4_squeezeblock_lane(o4[1], 1, &x4); /* lane 1's fourth block alone */
    line("shake128x4lane", 1, o4[1], 168);
    uint64_t t0 = pqlab_hal_cycles();
    for (int i = 0; i < 10; i++) pqlab_shake128_squeezeblocks(out, 1, &st);
    uint64_t t1 = pqlab_hal_cycles();
    char b[64];
    int k = snprintf(b, sizeof b, "block %llu\n", (unsigned long long)((t1 - t0) / 10));
    pqlab_hal_send(b, (size_t)k);
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""


def check_lines(lines: list[str], platform: str) -> tuple[int, int]:
    """FIRMWARE's output lines against hashlib (all of them, in number); returns the number of
    outputs checked and the cycles of one SHAKE128 block."""
    checked, block = 0, None
    for ln in lines:
        parts = ln.split()
        if parts[0] == "block":
            block = int(parts[1])
            continue
        name, n, got = parts[0], int(parts[1]), bytes.fromhex(parts[2])
        if name == "shake256u":
            want = hashlib.shake_256(MSG[3 : 3 + n]).digest(300)
        elif name == "shake128x4":
            want = hashlib.shake_128(MSG[n : n + 34]).digest(504)
        elif name == "shake128x4lane":
            want = hashlib.shake_128(MSG[n : n + 34]).digest(672)[504:]
        elif name.startswith("shake"):
            want = expected(name, n, len(got))
        else:
            want = expected(name, n, 0)
        assert got == want, (platform, name, n)
        checked += 1
    assert checked == 5 * len(LENGTHS) + 2 + 4 + 1
    assert block is not None
    return checked, block


def run_firmware(platform: str, tmp: Path, native: bool) -> list[str]:
    src = tmp / "fw.c"
    src.write_text(FIRMWARE.replace("@LENGTHS@", ", ".join(map(str, LENGTHS))))
    sources = [src, ROOT / "lib/common/fips202.c", ROOT / "lib/common/fips202x4.c"]
    if native:
        sources.append(NATIVE / "keccakf1600.S")
    out = firmware.build_and_run(
        platform, tmp, sources, cflags=["-DPQLAB_KECCAKF1600_NATIVE"] if native else [], timeout=120
    )
    lines = out.replace("\r", "").splitlines()
    assert lines and lines[-1] == "end", out[-500:]
    return lines[:-1]


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim"])
def test_target_sponge_native(platform: str, tmp_path: Path) -> None:
    checked, block = check_lines(run_firmware(platform, tmp_path, native=True), platform)
    (tmp_path / "portable").mkdir()
    portable = [ln for ln in run_firmware(platform, tmp_path / "portable", native=False) if ln.startswith("block")]
    base = int(portable[0].split()[1])
    print(
        f"\n{platform}: {checked} outputs agree; one SHAKE128 block (permutation + 168 bytes out): "
        f"native {block}, portable {base}"
    )
    assert block < 0.8 * base if platform == "m4-sim" else block < 0.9 * base, (block, base)
