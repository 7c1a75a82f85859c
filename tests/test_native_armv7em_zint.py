"""ARMv7E-M assembly of FN-DSA key generation's big-integer row products
(lib/native/armv7em/fndsa_zint.S, contract in fndsa_zint.h) on mps2-an386 / mps2-an500 (QEMU)
and m4-sim / m7-sim (pqlab-sim): poly_sub_scaled built on the kernel (the
PQLAB_FNDSA_ZINT_NATIVE version) against the portable poly_sub_scaled, both taken from
lib/fndsa/ntru.c itself with the helpers they call.

Random limbs and the edges (all-ones limbs, the top limb 0x80000000 / 0x7FFFFFFF, zero),
multipliers k with |k| < 2^31 (among them +-(2^31 - 1), 0, -1), m = 1, 2, 4, 8, flen = 1..6,
14, 27, shifts s from 0 to past the end of F; guard words around F. On the simulators the
kernel's cycles for one size do not depend on the data."""

from __future__ import annotations

import re
from pathlib import Path

import firmware
import ntru_src
import pytest
from hostlib import ROOT

NATIVE = ROOT / "lib" / "native" / "armv7em"


def ntru_parts() -> str:
    """The C of lib/fndsa/ntru*.c that the two poly_sub_scaled need, the kernel's one renamed
    poly_sub_scaled_n and the portable one poly_sub_scaled_c."""
    src = ntru_src.source()
    hdr = src[src.index("typedef struct {\n    uint32_t *base;") : src.index("/* ---- residues modulo 31-bit primes")]
    parts = [
        hdr,
        ntru_src.function(src, "zadd", "void"),
        ntru_src.function(src, "zsub", "void"),
        re.search(r"static void zsub_shifted\([^)]*\)\n\{.*?\n\}\n", src, re.S).group(0),
    ]
    pss = re.findall(r"static void poly_sub_scaled\([^)]*\)\n\{.*?\n\}\n", src, re.S)
    assert len(pss) == 2, "expected the native and the portable poly_sub_scaled"
    i = src.index("#ifdef PQLAB_FNDSA_ZINT_NATIVE\n/*")
    assert i < src.index(pss[0]) < src.index("#else\nstatic void poly_sub_scaled") < src.index(pss[1])
    parts.append(pss[0].replace("poly_sub_scaled(", "poly_sub_scaled_n(", 1))
    parts.append(pss[1].replace("poly_sub_scaled(", "poly_sub_scaled_c(", 1))
    return "\n".join(parts)


FIRMWARE = (
    r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fndsa_zint.h"
#pragma GCC diagnostic ignored "-Wunused-function"
typedef uint64_t fpr;
"""
    + "%s"
    + r"""
static uint32_t rng = 0x243F6A88u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
#define FMAX (8 * 27)
#define FLMAX 40
#define GUARD 0xA5A5A5A5u
static uint32_t f[FMAX], F1[8 * FLMAX + 2], F2[8 * FLMAX + 2], wsb[2][4096];
static int32_t k[8];
static unsigned bad, checks;

static uint32_t limb(unsigned kind)
{
    switch (kind % 6) {
    case 0: return 0xFFFFFFFFu;
    case 1: return 0;
    default: return next();
    }
}

static void fill(size_t m, size_t flen, unsigned kind)
{
    for (size_t j = 0; j < m; j++) {
        for (size_t z = 0; z < flen; z++) f[j * flen + z] = kind < 2 ? limb(kind) : limb(next());
        uint32_t *top = &f[j * flen + flen - 1];
        switch ((kind + j) % 5) {
        case 0: *top = 0x80000000u; break;
        case 1: *top = 0x7FFFFFFFu; break;
        default: break;
        }
    }
    for (size_t i = 0; i < m; i++) {
        uint32_t r = next();
        switch ((kind + i) % 7) {
        case 0: k[i] = 0x7FFFFFFF; break;
        case 1: k[i] = -0x7FFFFFFF; break;
        case 2: k[i] = 0; break;
        case 3: k[i] = -1; break;
        default: k[i] = (int32_t)(r >> (r % 31)) * ((r & 1) ? -1 : 1); if (k[i] == INT32_MIN) k[i] = 0; break;
        }
    }
}

static void check(size_t m, size_t flen, size_t Flen, uint32_t s, unsigned kind)
{
    fill(m, flen, kind);
    for (size_t i = 0; i < m * Flen + 2; i++) F1[i] = next();
    F1[0] = F1[m * Flen + 1] = GUARD;
    memcpy(F2, F1, sizeof F1);
    ws_t w1 = {wsb[0], 0, 4096, 0}, w2 = {wsb[1], 0, 4096, 0};
    poly_sub_scaled_c(F1 + 1, Flen, f, flen, k, m, s, &w1);
    poly_sub_scaled_n(F2 + 1, Flen, f, flen, k, m, s, &w2);
    checks++;
    if ((memcmp(F1, F2, (m * Flen + 2) * 4) != 0 || w1.fail || w2.fail || w2.used != 0) && bad++ < 8) {
        char b[120];
        int n = snprintf(b, sizeof b, "bad m %u flen %u Flen %u s %u kind %u\n", (unsigned)m,
                         (unsigned)flen, (unsigned)Flen, (unsigned)s, kind);
        pqlab_hal_send(b, (size_t)n);
    }
}

static uint32_t acc[FLMAX], up[16];

__attribute__((noinline)) static uint64_t timed(size_t flen, size_t c)
{
    for (size_t i = 0; i < 8; i++) {
        up[2 * i] = (uint32_t)k[i] + 0x80000000u;
        up[2 * i + 1] = (uint32_t)-k[i] + 0x80000000u;
    }
    uint64_t t0 = pqlab_hal_cycles();
    pqlab_fndsa_zmacn_native(acc, F1, flen, f, c, 8, up);
    return pqlab_hal_cycles() - t0;
}

int main(void)
{
    pqlab_hal_setup();
    static const size_t FL[] = {1, 2, 3, 4, 5, 6, 14, 27};
    static const uint32_t S[] = {0, 1, 31, 32, 33, 64, 95, 200};
    for (size_t mi = 0; mi < 4; mi++)
        for (size_t fi = 0; fi < sizeof FL / sizeof FL[0]; fi++)
            for (size_t si = 0; si < sizeof S / sizeof S[0]; si++)
                for (unsigned kind = 0; kind < 4; kind++) {
                    size_t m = (size_t)1 << mi, flen = FL[fi];
                    size_t Flen = (kind & 1) ? flen + 1 + (S[si] / 32) % 4 : flen + 9; /* short and long F */
                    if (S[si] / 32 >= Flen) continue;
                    check(m, flen, Flen, S[si], kind);
                }
    char b[96];
    int n = snprintf(b, sizeof b, "total %u %u\n", checks, bad);
    pqlab_hal_send(b, (size_t)n);
    for (unsigned kind = 0; kind < 4; kind++) {
        fill(8, 14, kind);
        for (size_t i = 0; i < 16; i++) F1[i] = limb(kind);
        n = snprintf(b, sizeof b, "ct %llu\n", (unsigned long long)timed(14, kind));
        pqlab_hal_send(b, (size_t)n);
    }
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""
)


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim", "mps2-an500", "m7-sim"])
def test_native_zmacn_poly_sub_scaled(platform: str, tmp_path: Path) -> None:
    src = tmp_path / "fw.c"
    src.write_text(FIRMWARE.replace("%s", ntru_parts(), 1))
    out = firmware.build_and_run(platform, tmp_path, [src, NATIVE / "fndsa_zint.S"], include=[NATIVE, NATIVE.parent])
    ct = {c[0] for c in firmware.kernel_results(out, platform, min_total=901)}
    if platform == "m4-sim":
        print(f"\nm4-sim: 8 rows of 14 limbs, {ct.pop()} cycles")


ZSUB_FIRMWARE = (
    r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fndsa_zint.h"
"""
    + "%s"
    + r"""
static uint32_t rng = 0xB7E15162u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
#define N 48
#define GUARD 0xA5A5A5A5u
static uint32_t A[N], X1[N + 2], X2[N + 2];
static unsigned bad, checks;

static uint32_t limb(unsigned kind)
{
    return kind == 0 ? 0xFFFFFFFFu : kind == 1 ? 0 : next();
}

static void check(size_t xlen, size_t alen, uint32_t s, unsigned kind)
{
    for (size_t i = 0; i < alen; i++) A[i] = limb(kind % 3);
    if (kind % 5 == 3) A[alen - 1] = 0x80000000u;
    if (kind % 5 == 4) A[alen - 1] = 0x7FFFFFFFu;
    for (size_t i = 1; i <= xlen; i++) X1[i] = limb((kind / 3) % 3);
    X1[0] = X1[xlen + 1] = GUARD;
    memcpy(X2, X1, sizeof X1);
    zsub_shifted_c(X1 + 1, xlen, A, alen, s);
    pqlab_fndsa_zsub_shifted_native(X2 + 1, xlen, A, alen, s);
    checks++;
    if (memcmp(X1, X2, (xlen + 2) * 4) != 0 && bad++ < 8) {
        char b[96];
        int n = snprintf(b, sizeof b, "bad xlen %u alen %u s %u kind %u\n", (unsigned)xlen,
                         (unsigned)alen, (unsigned)s, kind);
        pqlab_hal_send(b, (size_t)n);
    }
}

__attribute__((noinline)) static uint64_t timed(size_t xlen, size_t alen, uint32_t s)
{
    uint64_t t0 = pqlab_hal_cycles();
    pqlab_fndsa_zsub_shifted_native(X2 + 1, xlen, A, alen, s);
    return pqlab_hal_cycles() - t0;
}

int main(void)
{
    pqlab_hal_setup();
    static const size_t XL[] = {1, 2, 3, 4, 5, 7, 8, 42};
    static const size_t AL[] = {1, 2, 3, 4, 5, 16, 45};
    static const uint32_t S[] = {0, 1, 5, 31, 32, 33, 63, 64, 65, 100, 200, 1400, 1500};
    for (size_t xi = 0; xi < sizeof XL / sizeof XL[0]; xi++)
        for (size_t ai = 0; ai < sizeof AL / sizeof AL[0]; ai++)
            for (size_t si = 0; si < sizeof S / sizeof S[0]; si++)
                for (unsigned kind = 0; kind < 9; kind++)
                    check(XL[xi], AL[ai], S[si], kind);
    char b[96];
    int n = snprintf(b, sizeof b, "total %u %u\n", checks, bad);
    pqlab_hal_send(b, (size_t)n);
    for (unsigned kind = 0; kind < 9; kind++) {
        check(42, 16, 45, kind);
        uint64_t c1 = timed(42, 16, 45), c2 = timed(5, 4, 0);
        n = snprintf(b, sizeof b, "ct %llu %llu\n", (unsigned long long)c1, (unsigned long long)c2);
        pqlab_hal_send(b, (size_t)n);
    }
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""
)


def c_zsub_shifted() -> str:
    """zsign, zsub and the portable zsub_shifted of lib/fndsa/ntru*.c (renamed zsub_shifted_c)."""
    src = ntru_src.source()
    out = [
        ntru_src.function(src, "zsign", "uint32_t"),
        ntru_src.function(src, "zsub", "void"),
        ntru_src.function(src, "zsub_shifted", "void", last=True),
    ]
    out[-1] = out[-1].replace("zsub_shifted(", "zsub_shifted_c(", 1)
    return "\n".join(out)


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim", "mps2-an500", "m7-sim"])
def test_native_zsub_shifted(platform: str, tmp_path: Path) -> None:
    src = tmp_path / "fw.c"
    src.write_text(ZSUB_FIRMWARE.replace("%s", c_zsub_shifted(), 1))
    out = firmware.build_and_run(platform, tmp_path, [src, NATIVE / "fndsa_zint.S"], include=[NATIVE, NATIVE.parent])
    ct = firmware.kernel_results(out, platform, 8 * 7 * 13 * 9)
    if platform == "m4-sim":
        c = ct.pop()
        print(f"\nm4-sim: zsub_shifted 42 limbs (a 16, s 45) {c[0]} cycles, 5 limbs (a 4, s 0) {c[1]}")


CRT_FIRMWARE = (
    r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fndsa_zint.h"
#pragma GCC diagnostic ignored "-Wunused-const-variable"
"""
    + "%s"
    + r"""
static uint32_t rng = 0x5BE0CD19u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
#define NP 40
#define M 3
#define GUARD 0xA5A5A5A5u
static uint32_t T[NP * M], PB[2 * NP + 2], W1[NP + 1], W2[NP + 1], O1[NP + 8], O2[NP + 8];
static unsigned bad, checks;

/* PI = p_0 ... p_{np-1} and B = (PI - 1) / 2 as rns_setup makes them */
static void setup(size_t np)
{
    memset(PB, 0, sizeof PB);
    PB[0] = 1;
    for (size_t j = 0; j < np; j++) {
        uint64_t cc = 0;
        for (size_t i = 0; i <= np; i++) {
            uint64_t z = (uint64_t)PB[i] * RNS_P[j][0] + cc;
            PB[i] = (uint32_t)z;
            cc = z >> 32;
        }
    }
    for (size_t i = 0; i <= np; i++) PB[np + 1 + i] = (PB[i] >> 1) | (i < np ? PB[i + 1] << 31 : 0);
}

static void check(size_t olen, size_t np, size_t u, unsigned kind)
{
    for (size_t j = 0; j < np; j++) {
        uint32_t p = RNS_P[j][0], r = next();
        uint32_t t = kind == 0 ? p - 1 : kind == 1 ? 0 : kind == 2 ? (j & 1 ? p - 1 : 0) : r % p;
        T[j * M + u] = t;
    }
    /* other B: any value below 2^(32 (np - 1)) (rns_setup's is (prod - 1) / 2) */
    if (kind == 4) for (size_t i = 0; i < np; i++) PB[np + 1 + i] = next();
    if (kind == 5) for (size_t i = 0; i < np; i++) PB[np + 1 + i] = 0xFFFFFFFFu;
    if (kind >= 4) PB[2 * np] = PB[2 * np + 1] = 0;
    O1[0] = O1[olen + 1] = GUARD;
    memcpy(O2, O1, sizeof O1);
    rns_crt_c(O1 + 1, olen, T, M, u, np, PB, W1);
    pqlab_fndsa_rns_crt_native(O2 + 1, olen, T + u, M, np, PB + np + 1, W2, &RNS_P[0][0]);
    checks++;
    if (memcmp(O1, O2, (olen + 2) * 4) != 0 && bad++ < 8) {
        char b[96];
        int n = snprintf(b, sizeof b, "bad olen %u np %u u %u kind %u\n", (unsigned)olen, (unsigned)np,
                         (unsigned)u, kind);
        pqlab_hal_send(b, (size_t)n);
    }
}

__attribute__((noinline)) static uint64_t timed(size_t olen, size_t np)
{
    uint64_t t0 = pqlab_hal_cycles();
    pqlab_fndsa_rns_crt_native(O2 + 1, olen, T, M, np, PB + np + 1, W2, &RNS_P[0][0]);
    return pqlab_hal_cycles() - t0;
}

int main(void)
{
    pqlab_hal_setup();
    static const size_t NPS[] = {1, 2, 3, 4, 5, 6, 9, 12, 22, 40};
    for (size_t ni = 0; ni < sizeof NPS / sizeof NPS[0]; ni++) {
        size_t np = NPS[ni];
        for (size_t olen = 1; olen <= np + 4; olen++)
            for (unsigned kind = 0; kind < 6; kind++) {
                setup(np);
                check(olen, np, (olen + kind) % M, kind);
            }
    }
    char b[96];
    int n = snprintf(b, sizeof b, "total %u %u\n", checks, bad);
    pqlab_hal_send(b, (size_t)n);
    setup(4);
    for (unsigned kind = 0; kind < 4; kind++) {
        check(6, 4, 0, kind);
        uint64_t c1 = timed(6, 4), c2 = timed(3, 2);
        n = snprintf(b, sizeof b, "ct %llu %llu\n", (unsigned long long)c1, (unsigned long long)c2);
        pqlab_hal_send(b, (size_t)n);
    }
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""
)


def c_rns_crt() -> str:
    """RNS_P, rns_crt2 and the portable rns_crt of lib/fndsa/ntru*.c (renamed rns_crt_c)."""
    src = ntru_src.source()
    two = ntru_src.function(src, "rns_crt2", "void")
    m = ntru_src.function(src, "rns_crt", "void", last=True)
    return ntru_src.rns_table() + two + m.replace("rns_crt(", "rns_crt_c(", 1)


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim", "mps2-an500", "m7-sim"])
def test_native_rns_crt(platform: str, tmp_path: Path) -> None:
    src = tmp_path / "fw.c"
    src.write_text(CRT_FIRMWARE.replace("%s", c_rns_crt(), 1))
    out = firmware.build_and_run(platform, tmp_path, [src, NATIVE / "fndsa_zint.S"], include=[NATIVE, NATIVE.parent])
    total = sum(6 * (np + 4) for np in (1, 2, 3, 4, 5, 6, 9, 12, 22, 40))
    ct = firmware.kernel_results(out, platform, total)
    if platform == "m4-sim":
        c = ct.pop()
        print(f"\nm4-sim: rns_crt np 4 olen 6 {c[0]} cycles, np 2 olen 3 {c[1]}")


GARNER_FIRMWARE = (
    r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fndsa_zint.h"
#pragma GCC diagnostic ignored "-Wunused-function"
#define NTRU_NO_LIBCALL
"""
    + "%s"
    + r"""
static uint32_t rng = 0x510E527Fu;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
#define NP 40
#define M 16
static modp_t qs[NP];
static uint32_t cst[NP * NP + 2 * NP], PI[2 * NP + 2], R0[NP * M], R1[NP * M + 1], R2[NP * M + 1];
static unsigned bad, checks;

static void check(size_t m, size_t np, unsigned kind)
{
    rns_setup(qs, cst, PI, np);
    for (size_t j = 0; j < np; j++)
        for (size_t u = 0; u < m; u++) {
            uint32_t p = RNS_P[j][0];
            R0[j * m + u] = kind == 0 ? p - 1 : kind == 1 ? 0 : kind == 2 ? ((j + u) & 1 ? p - 1 : 0) : next() % p;
        }
    memcpy(R1, R0, np * m * 4);
    memcpy(R2, R0, np * m * 4);
    R1[np * m] = R2[np * m] = 0xA5A5A5A5u;
    rns_garner_c(R1, m, np, qs, cst);
    rns_garner_n(R2, m, np, qs, cst);
    checks++;
    if (memcmp(R1, R2, (np * m + 1) * 4) != 0 && bad++ < 8) {
        char b[96];
        int n = snprintf(b, sizeof b, "bad m %u np %u kind %u\n", (unsigned)m, (unsigned)np, kind);
        pqlab_hal_send(b, (size_t)n);
    }
}

__attribute__((noinline)) static uint64_t timed(size_t m, size_t j)
{
    const uint32_t k[4] = {qs[j].p, qs[j].p0i, cst[9 * 9 + j], cst[9 * 9 + 9 + j]};
    uint64_t t0 = pqlab_hal_cycles();
    pqlab_fndsa_garner_row_native(R2, m, j, cst + j * 9, k);
    return pqlab_hal_cycles() - t0;
}

int main(void)
{
    pqlab_hal_setup();
    static const size_t NPS[] = {1, 2, 3, 4, 5, 6, 9, 12, 21, 40};
    static const size_t MS[] = {1, 2, 3, 16};
    for (size_t ni = 0; ni < sizeof NPS / sizeof NPS[0]; ni++)
        for (size_t mi = 0; mi < sizeof MS / sizeof MS[0]; mi++)
            for (unsigned kind = 0; kind < 5; kind++)
                if (NPS[ni] * MS[mi] <= NP * M) check(MS[mi], NPS[ni], kind);
    char b[96];
    int n = snprintf(b, sizeof b, "total %u %u\n", checks, bad);
    pqlab_hal_send(b, (size_t)n);
    for (unsigned kind = 0; kind < 4; kind++) {
        check(16, 9, kind);
        n = snprintf(b, sizeof b, "ct %llu\n", (unsigned long long)timed(16, 8));
        pqlab_hal_send(b, (size_t)n);
    }
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""
)


def c_garner() -> str:
    """The residue arithmetic of lib/fndsa/ntru*.c (modp_t, mp_*, modp_init), rns_setup, and
    rns_garner twice: rns_garner_c without the kernel (the portable loop), rns_garner_n
    with it."""
    src = ntru_src.source()
    parts = [
        ntru_src.function(src, "wzero", "void"),
        ntru_src.rns_table(),
        src[src.index("typedef struct {\n    uint32_t p, p0i") : src.index("/* ---- Babai reduction ----")],
        ntru_src.function(src, "modp_init", "void"),
        ntru_src.function(src, "mp_of_zint", "uint32_t"),
        ntru_src.function(src, "rns_setup", "void"),
    ]
    g = ntru_src.function(src, "rns_garner", "void")
    assert "#ifdef PQLAB_FNDSA_ZINT_NATIVE" in g
    parts.append(g.replace("rns_garner(", "rns_garner_c(", 1))
    parts.append(g.replace("rns_garner(", "rns_garner_n(", 1).replace("#ifdef PQLAB_FNDSA_ZINT_NATIVE", "#if 1"))
    return "\n".join(parts)


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim", "mps2-an500", "m7-sim"])
def test_native_garner_row(platform: str, tmp_path: Path) -> None:
    src = tmp_path / "fw.c"
    src.write_text(GARNER_FIRMWARE.replace("%s", c_garner(), 1))
    out = firmware.build_and_run(platform, tmp_path, [src, NATIVE / "fndsa_zint.S"], include=[NATIVE, NATIVE.parent])
    ct = {c[0] for c in firmware.kernel_results(out, platform, 10 * 4 * 5)}
    if platform == "m4-sim":
        print(f"\nm4-sim: garner row m 16 j 8 {ct.pop()} cycles")


ZMUL_FIRMWARE = (
    r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fndsa_zint.h"
#define NTRU_NO_LIBCALL
"""
    + "%s"
    + r"""
static uint32_t rng = 0x1F83D9ABu;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
#define N 64
#define GUARD 0xA5A5A5A5u
static uint32_t A[N], B[N], R1[2 * N + 2], R2[2 * N + 2];
static unsigned bad, checks;

static void fill(uint32_t *x, size_t len, unsigned kind)
{
    for (size_t i = 0; i < len; i++) x[i] = kind % 4 == 0 ? 0xFFFFFFFFu : kind % 4 == 1 ? 0 : next();
    if (kind % 3 == 1) x[len - 1] = 0x80000000u;
    if (kind % 3 == 2) x[len - 1] = 0x7FFFFFFFu;
}

static void check(size_t rlen, size_t alen, size_t blen, unsigned kind)
{
    fill(A, alen, kind);
    fill(B, blen, kind / 4 + 2 * kind);
    for (size_t i = 0; i < rlen + 2; i++) R1[i] = next();
    R1[0] = R1[rlen + 1] = GUARD;
    memcpy(R2, R1, sizeof R1);
    zmul_c(R1 + 1, rlen, A, alen, B, blen);
    pqlab_fndsa_zmul_native(R2 + 1, rlen, A, alen, B, blen);
    checks++;
    if (memcmp(R1, R2, (rlen + 2) * 4) != 0 && bad++ < 8) {
        char b[96];
        int n = snprintf(b, sizeof b, "bad rlen %u alen %u blen %u kind %u\n", (unsigned)rlen,
                         (unsigned)alen, (unsigned)blen, kind);
        pqlab_hal_send(b, (size_t)n);
    }
}

__attribute__((noinline)) static uint64_t timed(size_t rlen, size_t alen, size_t blen)
{
    uint64_t t0 = pqlab_hal_cycles();
    pqlab_fndsa_zmul_native(R2 + 1, rlen, A, alen, B, blen);
    return pqlab_hal_cycles() - t0;
}

int main(void)
{
    pqlab_hal_setup();
    static const size_t L[] = {1, 2, 3, 7, 14, 27};
    for (size_t ai = 0; ai < sizeof L / sizeof L[0]; ai++)
        for (size_t bi = 0; bi < sizeof L / sizeof L[0]; bi++) {
            size_t alen = L[ai], blen = L[bi];
            static const int D[] = {-100, -3, -1, 0, 1, 2, 5};
            for (size_t di = 0; di < sizeof D / sizeof D[0]; di++) {
                int rl = (int)(alen + blen) + D[di];
                if (D[di] == -100) rl = (int)(alen > blen ? blen : alen);
                if (rl < 1) rl = 1;
                for (unsigned kind = 0; kind < 12; kind++) check((size_t)rl, alen, blen, kind);
            }
        }
    char b[96];
    int n = snprintf(b, sizeof b, "total %u %u\n", checks, bad);
    pqlab_hal_send(b, (size_t)n);
    for (unsigned kind = 0; kind < 12; kind++) {
        check(42, 27, 14, kind);
        n = snprintf(b, sizeof b, "ct %llu %llu\n", (unsigned long long)timed(42, 27, 14),
                     (unsigned long long)timed(15, 7, 7));
        pqlab_hal_send(b, (size_t)n);
    }
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""
)


def c_zmul() -> str:
    """wzero, zsign and the portable zmul of lib/fndsa/ntru*.c (renamed zmul_c)."""
    src = ntru_src.source()
    out = [
        ntru_src.function(src, "wzero", "void"),
        ntru_src.function(src, "zsign", "uint32_t"),
        ntru_src.function(src, "zmul", "void", last=True),
    ]
    out[-1] = out[-1].replace("zmul(", "zmul_c(", 1)
    return "\n".join(out)


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim", "mps2-an500", "m7-sim"])
def test_native_zmul(platform: str, tmp_path: Path) -> None:
    src = tmp_path / "fw.c"
    src.write_text(ZMUL_FIRMWARE.replace("%s", c_zmul(), 1))
    out = firmware.build_and_run(platform, tmp_path, [src, NATIVE / "fndsa_zint.S"], include=[NATIVE, NATIVE.parent])
    ct = firmware.kernel_results(out, platform, 36 * 7 * 12)
    if platform == "m4-sim":
        c = ct.pop()
        print(f"\nm4-sim: zmul 27 x 14 limbs to 42 {c[0]} cycles, 7 x 7 to 15 {c[1]}")


MPZ_FIRMWARE = (
    r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fndsa_zint.h"
#pragma GCC diagnostic ignored "-Wunused-function"
"""
    + "%s"
    + r"""
static uint32_t rng = 0x9B05688Cu;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
#define N 30
#define M 3
static uint32_t X[M * N], T1[M + 1], T2[M + 1];
static unsigned bad, checks;

static void check(size_t len, size_t pi, unsigned kind)
{
    modp_t q;
    modp_init(&q, RNS_P[pi][0]);
    size_t stride = len + (kind & 1);
    for (size_t u = 0; u < M; u++) {
        uint32_t *x = X + u * stride;
        for (size_t i = 0; i < len; i++) {
            switch ((kind + u) % 6) {
            case 0: x[i] = 0xFFFFFFFFu; break;
            case 1: x[i] = 0; break;
            case 2: x[i] = q.p - 1 + (uint32_t)(next() % 3); break; /* around p */
            case 3: x[i] = 2 * q.p - 1 + (uint32_t)(next() % 3); break; /* around 2p */
            default: x[i] = next(); break;
            }
        }
        if (kind % 5 == 1) x[len - 1] = 0x80000000u;
        if (kind % 5 == 2) x[len - 1] = 0x7FFFFFFFu;
        if (kind % 5 == 3) x[len - 1] = (uint32_t)0 - q.p + (next() & 1); /* top near -p */
        if (kind == 9 && len >= 2) {
            /* x = K 2^32 + 2^32 - 1 with K 2^32 = -1 mod p: the last Horner value is
             * p - 1 + 2^32 - 1 - p, above 2p (both end corrections needed) */
            memset(x, 0, len * 4);
            x[0] = 0xFFFFFFFFu;
            x[1] = q.p - mp_mmul(1, 1, &q);
        }
    }
    for (size_t u = 0; u < M; u++) T1[u] = mp_of_zint(X + u * stride, len, &q);
    T1[M] = T2[M] = 0xA5A5A5A5u;
    pqlab_fndsa_mp_of_poly_native(T2, X, stride, len, M, (const uint32_t *)(const void *)&q);
    checks++;
    if (memcmp(T1, T2, sizeof T1) != 0 && bad++ < 8) {
        char b[96];
        int n = snprintf(b, sizeof b, "bad len %u prime %u kind %u\n", (unsigned)len, (unsigned)pi, kind);
        pqlab_hal_send(b, (size_t)n);
    }
}

__attribute__((noinline)) static uint64_t timed(size_t len)
{
    modp_t q;
    modp_init(&q, RNS_P[5][0]);
    uint64_t t0 = pqlab_hal_cycles();
    pqlab_fndsa_mp_of_poly_native(T2, X, len, len, M, (const uint32_t *)(const void *)&q);
    return pqlab_hal_cycles() - t0;
}

int main(void)
{
    pqlab_hal_setup();
    static const size_t L[] = {1, 2, 3, 4, 5, 7, 14, 27};
    for (size_t li = 0; li < sizeof L / sizeof L[0]; li++)
        for (size_t pi = 0; pi < RNS_MAXP; pi += 3)
            for (unsigned kind = 0; kind < 10; kind++) check(L[li], pi, kind);
    char b[96];
    int n = snprintf(b, sizeof b, "total %u %u\n", checks, bad);
    pqlab_hal_send(b, (size_t)n);
    for (unsigned kind = 0; kind < 6; kind++) {
        check(14, 5, kind * 2);
        n = snprintf(b, sizeof b, "ct %llu\n", (unsigned long long)timed(14));
        pqlab_hal_send(b, (size_t)n);
    }
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""
)


def c_mp_of_zint() -> str:
    """RNS_P, modp_t and the residue arithmetic of lib/fndsa/ntru*.c (mp_of_zint among it)."""
    src = ntru_src.source()
    return (
        ntru_src.rns_table()
        + src[src.index("typedef struct {\n    uint32_t p, p0i") : src.index("/* ---- Babai reduction ----")]
        + ntru_src.function(src, "modp_init", "void")
        + ntru_src.function(src, "mp_of_zint", "uint32_t")
    )


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim", "mps2-an500", "m7-sim"])
def test_native_mp_of_poly(platform: str, tmp_path: Path) -> None:
    src = tmp_path / "fw.c"
    src.write_text(MPZ_FIRMWARE.replace("%s", c_mp_of_zint(), 1))
    out = firmware.build_and_run(platform, tmp_path, [src, NATIVE / "fndsa_zint.S"], include=[NATIVE, NATIVE.parent])
    ct = {c[0] for c in firmware.kernel_results(out, platform, 8 * 14 * 10)}
    if platform == "m4-sim":
        print(f"\nm4-sim: residues of 3 integers of 14 limbs {ct.pop()} cycles")


MISC_FIRMWARE = (
    r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fndsa_zint.h"
#pragma GCC diagnostic ignored "-Wunused-function"
#define NTRU_NO_LIBCALL
#include "ct.h"
"""
    + "%s"
    + r"""
static uint32_t rng = 0x3C6EF372u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
#define N 64
static uint32_t B1[N + 16], B2[N + 16], X[N];
static unsigned bad, checks;

static void report(const char *what, unsigned a, unsigned b, unsigned c)
{
    if (bad++ < 8) {
        char s[96];
        int n = snprintf(s, sizeof s, "bad %s %u %u %u\n", what, a, b, c);
        pqlab_hal_send(s, (size_t)n);
    }
}

static void check_move(size_t n, int off)
{
    for (size_t i = 0; i < N + 16; i++) B1[i] = next();
    memcpy(B2, B1, sizeof B1);
    wmove_c(B1 + 8 + off, B1 + 8, n);
    pqlab_fndsa_wmove_native(B2 + 8 + off, B2 + 8, n);
    checks++;
    if (memcmp(B1, B2, sizeof B1) != 0) report("wmove", (unsigned)n, (unsigned)(off + 8), 0);
}

static void check_top3(size_t len, unsigned kind)
{
    /* a sign-extended value with its top needed limb at a random place */
    uint32_t ext = (kind & 1) ? 0xFFFFFFFFu : 0;
    size_t top = next() % len;
    for (size_t i = 0; i < len; i++) X[i] = i <= top ? next() : ext;
    switch (kind % 6) {
    case 2: X[top] = ext ^ 0x80000000u; break;   /* top bit differs from the sign */
    case 3: X[top] = ext; break;                 /* only the limb below's top bit */
    case 4: for (size_t i = 0; i < len; i++) X[i] = ext; break;
    case 5: X[top] = ext ^ 1; break;
    default: break;
    }
    X[len - 1] = (X[len - 1] & 0x7FFFFFFFu) | (ext & 0x80000000u);
    uint32_t w1[3] = {1, 2, 3}, w2[3] = {4, 5, 6};
    uint32_t n1 = zint_top3_c(X, len, w1), n2 = pqlab_fndsa_zint_top3_native(X, len, w2);
    checks++;
    if (n1 != n2 || memcmp(w1, w2, sizeof w1) != 0) report("top3", (unsigned)len, kind, (unsigned)top);
}

__attribute__((noinline)) static uint64_t timed(size_t len)
{
    uint32_t w[3];
    uint64_t t0 = pqlab_hal_cycles();
    pqlab_fndsa_zint_top3_native(X, len, w);
    return pqlab_hal_cycles() - t0;
}

int main(void)
{
    pqlab_hal_setup();
    for (size_t n = 0; n <= 13; n++)
        for (int off = -5; off <= 5; off++) check_move(n, off);
    for (int off = -5; off <= 5; off++) check_move(40, off);
    for (size_t len = 1; len <= 12; len++)
        for (unsigned kind = 0; kind < 24; kind++) check_top3(len, kind);
    for (unsigned kind = 0; kind < 24; kind++) check_top3(40, kind);
    char b[96];
    int n = snprintf(b, sizeof b, "total %u %u\n", checks, bad);
    pqlab_hal_send(b, (size_t)n);
    for (unsigned kind = 0; kind < 6; kind++) {
        check_top3(40, kind);
        n = snprintf(b, sizeof b, "ct %llu\n", (unsigned long long)timed(40));
        pqlab_hal_send(b, (size_t)n);
    }
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""
)


def c_misc() -> str:
    """The portable wmove and zint_top3 of lib/fndsa/ntru*.c (renamed _c), with zsign."""
    src = ntru_src.source()
    out = [ntru_src.function(src, "zsign", "uint32_t")]
    for name, ret in (("wmove", "void"), ("zint_top3", "uint32_t")):
        out.append(ntru_src.function(src, name, ret, last=True).replace(f"{name}(", f"{name}_c(", 1))
    return "\n".join(out)


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim", "mps2-an500", "m7-sim"])
def test_native_wmove_top3(platform: str, tmp_path: Path) -> None:
    src = tmp_path / "fw.c"
    src.write_text(MISC_FIRMWARE.replace("%s", c_misc(), 1))
    out = firmware.build_and_run(platform, tmp_path, [src, NATIVE / "fndsa_zint.S"], include=[NATIVE, NATIVE.parent])
    ct = {c[0] for c in firmware.kernel_results(out, platform, 14 * 11 + 11 + 13 * 24)}
    if platform == "m4-sim":
        print(f"\nm4-sim: zint_top3 of 40 limbs {ct.pop()} cycles")
