"""ARMv7E-M kernels of HQC (lib/native/armv7em/hqc_gf2x.S, contract in lib/native/hqc.h)
against C restated here from the definitions, on mps2-an386 / mps2-an500 (QEMU) and m4-sim / m7-sim
(pqlab-sim), the platforms of the backend:

- pqlab_hqc_mul_base_native(r, a, b, n): the F_2[x] product of n-word operands against a
  bit-by-bit schoolbook, n = 1..6 (2 and 3 take the kernel's Karatsuba paths, the others its
  schoolbook), random words, all ones, single bits at the word edges; the output words past
  2n must stay untouched.
- pqlab_hqc_support_xor_native(v, nw, support, weight): against setting the bits one by one,
  nw = 1..9 and the HQC lengths 277 / 561 / 901, weights 0..75, the first and last positions.
- pqlab_hqc_rm_decode_native(sym, cw, n1, mult) (hqc_rm.S): against code.c's hqc_rm_decode
  restated with n1 and mult as arguments, mult = 1, 3, 5, 7: random bits, codewords of every
  symbol with 0-3 errors per copy, all zeros, all ones, sums of two codewords (ties of |F|);
  and hqc_rm.S is gen_hqc_rm.py's output.

The cycles of both do not depend on the data on m4-sim (all-zero, all-one and random inputs of
the same length). The host has no native HQC kernel (its build is the portable C, tested by
tests/test_hqc.py)."""

from __future__ import annotations

from pathlib import Path

import firmware
import pytest
from hostlib import ROOT

NATIVE = ROOT / "lib" / "native" / "armv7em"

FIRMWARE = r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "hqc.h"

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static unsigned bad, checks;

static void report(const char *what, unsigned a, unsigned b)
{
    if (bad++ < 8) {
        char s[96];
        int k = snprintf(s, sizeof s, "bad %s %u %u\n", what, a, b);
        pqlab_hal_send(s, (size_t)k);
    }
}

/* the product bit by bit */
static void mul_ref(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n)
{
    memset(r, 0, 16 * n);
    for (size_t i = 0; i < 64 * n; i++)
        if ((a[i / 64] >> (i % 64)) & 1)
            for (size_t j = 0; j < 64 * n; j++)
                if ((b[j / 64] >> (j % 64)) & 1) r[(i + j) / 64] ^= (uint64_t)1 << ((i + j) % 64);
}

static void check_mul(const uint64_t *a, const uint64_t *b, size_t n, unsigned tag)
{
    uint64_t r0[12], r1[14];
    mul_ref(r0, a, b, n);
    for (int i = 0; i < 14; i++) r1[i] = 0x5A5A5A5A5A5A5A5Aull;
    pqlab_hqc_mul_base_native(r1, a, b, n);
    checks++;
    if (memcmp(r0, r1, 16 * n) != 0) report("mul", (unsigned)n, tag);
    for (size_t i = 2 * n; i < 14; i++)
        if (r1[i] != 0x5A5A5A5A5A5A5A5Aull) report("mul-overwrite", (unsigned)n, tag);
}

/* lib/hqc/code.c's hqc_rm_decode with n1 and mult as arguments */
static void rm_ref(uint8_t *sym, const uint64_t *cw, size_t n1, size_t mult)
{
    int16_t f[128];
    for (size_t i = 0; i < n1; i++) {
        for (size_t j = 0; j < 128; j++) f[j] = (int16_t)mult;
        for (size_t c = 0; c < mult; c++)
            for (size_t j = 0; j < 128; j++) f[j] = (int16_t)(f[j] - 2 * (int16_t)((cw[2 * (mult * i + c) + j / 64] >> (j % 64)) & 1));
        for (size_t len = 1; len < 128; len <<= 1)
            for (size_t j = 0; j < 128; j += 2 * len)
                for (size_t k = j; k < j + len; k++) {
                    int16_t a = f[k], b = f[k + len];
                    f[k] = (int16_t)(a + b);
                    f[k + len] = (int16_t)(a - b);
                }
        uint32_t best = 0, bestabs = 0, bestneg = 0;
        for (uint32_t x = 0; x < 128; x++) {
            int32_t v = f[x];
            uint32_t av = (uint32_t)(v < 0 ? -v : v);
            if (av > bestabs) { best = x; bestabs = av; bestneg = v < 0; }
        }
        sym[i] = (uint8_t)(best | (bestneg << 7));
    }
}

/* bit j of the RM(1,7) codeword of symbol s: <s & 127, j> + (s >> 7) */
static uint64_t rm_word(unsigned s, unsigned half)
{
    uint64_t w = 0;
    for (unsigned j = 0; j < 64; j++) {
        unsigned x = (s & 127) & (j + 64 * half), p = s >> 7;
        while (x) { p ^= x & 1; x >>= 1; }
        w |= (uint64_t)p << j;
    }
    return w;
}

static uint64_t cw[2 * 5 * 90];

static void check_rm(size_t n1, size_t mult, unsigned tag)
{
    uint8_t s0[90], s1[92];
    rm_ref(s0, cw, n1, mult);
    s1[n1] = s1[n1 + 1] = 0xA5;
    pqlab_hqc_rm_decode_native(s1, cw, n1, mult);
    checks++;
    if (memcmp(s0, s1, n1) != 0) {
        for (size_t i = 0; i < n1; i++)
            if (s0[i] != s1[i]) { report("rm", (unsigned)(1000 * tag + i), (unsigned)(s0[i] << 8 | s1[i])); break; }
    }
    if (s1[n1] != 0xA5 || s1[n1 + 1] != 0xA5) report("rm-overwrite", (unsigned)n1, tag);
}

__attribute__((noinline)) static uint64_t time_rm(unsigned kind)
{
    uint8_t s[46];
    for (size_t i = 0; i < 2 * 3 * 46; i++) cw[i] = kind == 0 ? 0 : kind == 1 ? ~0ull : next();
    uint64_t t0 = pqlab_hal_cycles();
    pqlab_hqc_rm_decode_native(s, cw, 46, 3);
    return pqlab_hal_cycles() - t0;
}

static uint64_t v0[901], v1[901];
static uint32_t sup[80];

static void check_sup(size_t nw, size_t weight, unsigned tag)
{
    for (size_t i = 0; i < nw; i++) v0[i] = v1[i] = next();
    for (size_t j = 0; j < weight; j++) v0[sup[j] / 64] ^= (uint64_t)1 << (sup[j] % 64);
    pqlab_hqc_support_xor_native(v1, nw, sup, weight);
    checks++;
    if (memcmp(v0, v1, 8 * nw) != 0) report("support", (unsigned)nw, tag);
}

/* distinct random positions below 64 nw */
static void random_support(size_t nw, size_t weight)
{
    for (size_t j = 0; j < weight; j++) {
        uint32_t p;
        int dup;
        do {
            p = (uint32_t)(next() % (64 * nw));
            dup = 0;
            for (size_t k = 0; k < j; k++) dup |= sup[k] == p;
        } while (dup);
        sup[j] = p;
    }
}

__attribute__((noinline)) static uint64_t time_mul(uint64_t fill, size_t n)
{
    uint64_t a[6], b[6], r[12];
    for (int i = 0; i < 6; i++) { a[i] = fill ? fill : 0; b[i] = fill ? ~fill : 0; }
    if (fill == 1) for (int i = 0; i < 6; i++) { a[i] = next(); b[i] = next(); }
    uint64_t t0 = pqlab_hal_cycles();
    pqlab_hqc_mul_base_native(r, a, b, n);
    return pqlab_hal_cycles() - t0;
}

__attribute__((noinline)) static uint64_t time_sup(unsigned kind)
{
    for (size_t j = 0; j < 66; j++) sup[j] = kind == 0 ? (uint32_t)j : kind == 1 ? (uint32_t)(17664 + j % 5 - 5 * (j / 5)) : (uint32_t)(next() % 17669);
    uint64_t t0 = pqlab_hal_cycles();
    pqlab_hqc_support_xor_native(v1, 277, sup, 66);
    return pqlab_hal_cycles() - t0;
}

int main(void)
{
    pqlab_hal_setup();
    uint64_t a[6], b[6];
    for (size_t n = 1; n <= 6; n++) {
        for (unsigned t = 0; t < 40; t++) {
            for (size_t i = 0; i < n; i++) { a[i] = next(); b[i] = next(); }
            check_mul(a, b, n, t);
        }
        for (size_t i = 0; i < n; i++) a[i] = b[i] = ~0ull;
        check_mul(a, b, n, 100);
        for (unsigned e = 0; e < 4; e++) {
            for (size_t i = 0; i < n; i++) {
                a[i] = (uint64_t)1 << (e & 1 ? 63 : 0) | (e & 2 ? (uint64_t)1 << 31 : 0);
                b[i] = (uint64_t)1 << (e & 2 ? 63 : 32);
            }
            check_mul(a, b, n, 200 + e);
        }
    }
    static const size_t lens[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 277, 561, 901};
    for (unsigned li = 0; li < 12; li++) {
        size_t nw = lens[li];
        size_t wmax = 64 * nw < 75 ? 64 * nw : 75;
        for (size_t w = 0; w <= wmax; w += (w < 4 ? 1 : 7)) {
            random_support(nw, w);
            check_sup(nw, w, (unsigned)w);
        }
        sup[0] = 0;
        sup[1] = (uint32_t)(64 * nw - 1);
        check_sup(nw, 64 * nw > 1 ? 2 : 1, 1000);
        for (size_t j = 0; j < 64 * nw && j < 64; j++) sup[j] = (uint32_t)(64 * nw - 1 - j);
        check_sup(nw, 64 * nw < 64 ? 64 * nw : 64, 2000);
    }
    for (size_t mult = 1; mult <= 7; mult += 2) {
        size_t n1 = 2 * 5 * 90 / (2 * mult) < 90 ? 2 * 5 * 90 / (2 * mult) : 90;
        for (unsigned t = 0; t < 6; t++) {
            /* random bits; codewords of every symbol with 0..3 flips per copy; all 0 / all 1 */
            for (size_t i = 0; i < n1; i++) {
                unsigned sym = (unsigned)((i * 37 + t * 11) & 255);
                for (size_t c = 0; c < mult; c++)
                    for (unsigned hlf = 0; hlf < 2; hlf++) {
                        uint64_t w = t == 0 ? next() : t == 4 ? 0 : t == 5 ? ~0ull : rm_word(sym, hlf);
                        if (t >= 1 && t <= 3)
                            for (unsigned e = 0; e < t; e++) w ^= (uint64_t)1 << (next() % 64);
                        cw[2 * (mult * i + c) + hlf] = w;
                    }
            }
            check_rm(n1, mult, (unsigned)(10 * mult + t));
        }
        /* ties: the sum of two codewords (half the positions agree with each) */
        for (size_t i = 0; i < n1; i++)
            for (size_t c = 0; c < mult; c++)
                for (unsigned hlf = 0; hlf < 2; hlf++)
                    cw[2 * (mult * i + c) + hlf] = rm_word((unsigned)(i % 128), hlf) ^ rm_word((unsigned)((i * 5 + 1) % 128), hlf) ^ (c & 1 ? next() : 0);
        check_rm(n1, mult, (unsigned)(10 * mult + 9));
    }
    char s[96];
    int k = snprintf(s, sizeof s, "total %u %u\n", checks, bad);
    pqlab_hal_send(s, (size_t)k);
    for (size_t n = 2; n <= 4; n++)
        for (uint64_t f = 0; f < 3; f++) {
            k = snprintf(s, sizeof s, "ct mul%u %llu\n", (unsigned)n, (unsigned long long)time_mul(f == 2 ? 0x0123456789ABCDEFull : f, n));
            pqlab_hal_send(s, (size_t)k);
        }
    for (unsigned kind = 0; kind < 3; kind++) {
        k = snprintf(s, sizeof s, "ct sup %llu\n", (unsigned long long)time_sup(kind));
        pqlab_hal_send(s, (size_t)k);
        k = snprintf(s, sizeof s, "ct rm %llu\n", (unsigned long long)time_rm(kind));
        pqlab_hal_send(s, (size_t)k);
    }
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim", "mps2-an500", "m7-sim"])
def test_native_hqc(platform: str, tmp_path: Path) -> None:
    src = tmp_path / "fw.c"
    src.write_text(FIRMWARE)
    out = firmware.build_and_run(
        platform,
        tmp_path,
        [src, NATIVE / "hqc_gf2x.S", NATIVE / "hqc_rm.S"],
        include=[NATIVE, NATIVE.parent],
        cflags=["-DPQLAB_NS=thqc_"],
    )
    ct = firmware.kernel_results(out, platform, min_total=300, constant=False)
    if firmware.timing_shows_data_independence(platform):
        for kind in ("mul2", "mul3", "mul4", "sup", "rm"):
            cycles = {c[1] for c in ct if c[0] == kind}
            assert len(cycles) == 1, f"{kind}: cycles depend on the data: {cycles}"
        print("\nm4-sim:", sorted(ct))


def test_hqc_rm_generated() -> None:
    """hqc_rm.S is the output of gen_hqc_rm.py."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, str(NATIVE / "gen_hqc_rm.py")], capture_output=True, text=True, check=True
    ).stdout
    assert out == (NATIVE / "hqc_rm.S").read_text()
