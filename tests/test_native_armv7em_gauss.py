"""ARMv7E-M kernel of FN-DSA key generation's table sampler (lib/native/armv7em/fndsa_gauss.S,
contract in fndsa_gauss.h): the two samples of a Falcon-512 coefficient against the C of
keygen.c's mkgauss (restated here, one line per step), on mps2-an386 / mps2-an500 (QEMU) and
m4-sim / m7-sim (pqlab-sim): random words, every table entry and its neighbours (T[k] - 1, T[k],
T[k] + 1) as the second word, the T[0] boundary and both signs as the first; the cycles do not
depend on the data on the simulators."""

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
#include "tables.h"
#include "fndsa_gauss.h"

/* keygen.c's mkgauss for two samples, from four 64-bit words */
static int32_t ref2(const uint64_t w[4])
{
    int32_t val = 0;
    for (int i = 0; i < 2; i++) {
        uint64_t r = w[2 * i];
        uint32_t neg = (uint32_t)(r >> 63);
        r &= ~((uint64_t)1 << 63);
        uint32_t z = (uint32_t)((r - fndsa_gauss_1024_12289[0]) >> 63);
        r = w[2 * i + 1] & ~((uint64_t)1 << 63);
        uint32_t v = 1;
        for (uint32_t k = 1; k < 26; k++) v += (uint32_t)((r - fndsa_gauss_1024_12289[k]) >> 63);
        v &= z - 1;
        v = (v ^ ((uint32_t)0 - neg)) + neg;
        val += (int32_t)v;
    }
    return val;
}

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static unsigned bad, checks;

static void check(const uint64_t w[4])
{
    uint32_t r[8];
    for (int i = 0; i < 4; i++) { r[2 * i] = (uint32_t)w[i]; r[2 * i + 1] = (uint32_t)(w[i] >> 32); }
    int32_t a = ref2(w), b = pqlab_fndsa_mkgauss2_native(r, fndsa_gauss_1024_12289);
    checks++;
    if (a != b && bad++ < 8) {
        char s[160];
        int n = snprintf(s, sizeof s, "bad %016llx %016llx %016llx %016llx: %ld / %ld\n", (unsigned long long)w[0],
                         (unsigned long long)w[1], (unsigned long long)w[2], (unsigned long long)w[3], (long)a, (long)b);
        pqlab_hal_send(s, (size_t)n);
    }
}

__attribute__((noinline)) static uint64_t timed(const uint64_t w[4])
{
    uint32_t r[8];
    for (int i = 0; i < 4; i++) { r[2 * i] = (uint32_t)w[i]; r[2 * i + 1] = (uint32_t)(w[i] >> 32); }
    uint64_t t0 = pqlab_hal_cycles();
    (void)pqlab_fndsa_mkgauss2_native(r, fndsa_gauss_1024_12289);
    return pqlab_hal_cycles() - t0;
}

int main(void)
{
    pqlab_hal_setup();
    for (unsigned i = 0; i < 3000; i++) {
        uint64_t w[4] = {next(), next(), next(), next()};
        if (i % 3 == 0) w[1] >>= (i % 64); /* small second words reach the table's tail */
        if (i % 5 == 0) w[3] >>= (i % 61);
        check(w);
    }
    static const uint64_t top = (uint64_t)1 << 63;
    for (unsigned k = 0; k < 27; k++)
        for (int d = -1; d <= 1; d++)
            for (unsigned s = 0; s < 4; s++) {
                uint64_t t = fndsa_gauss_1024_12289[k] + (uint64_t)(int64_t)d;
                uint64_t w[4] = {(s & 1 ? top : 0) | t, t | (s & 2 ? top : 0), (s & 2 ? top : 0) | t, t};
                check(w);
            }
    char s[96];
    int n = snprintf(s, sizeof s, "total %u %u\n", checks, bad);
    pqlab_hal_send(s, (size_t)n);
    uint64_t e0[4] = {0, 0, 0, 0}, e1[4] = {~0ull, ~0ull, ~0ull, ~0ull}, e2[4] = {next(), next(), next(), next()};
    const uint64_t *e[3] = {e0, e1, e2};
    for (int i = 0; i < 3; i++) {
        n = snprintf(s, sizeof s, "ct %llu\n", (unsigned long long)timed(e[i]));
        pqlab_hal_send(s, (size_t)n);
    }
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim", "mps2-an500", "m7-sim"])
def test_native_gauss(platform: str, tmp_path: Path) -> None:
    src = tmp_path / "fw.c"
    src.write_text(FIRMWARE)
    out = firmware.build_and_run(
        platform,
        tmp_path,
        [src, NATIVE / "fndsa_gauss.S"],
        include=[NATIVE, NATIVE.parent, ROOT / "lib" / "fndsa"],
        cflags=["-DPQLAB_NS=tgauss_", "-DPQLAB_FNDSA_LOGN=9", "-Wno-unused-const-variable"],
    )
    ct = firmware.kernel_results(out, platform, 3000 + 27 * 3 * 4)
    if platform == "m4-sim":
        print(f"\nm4-sim: two samples in {ct.pop()[0]} cycles")
