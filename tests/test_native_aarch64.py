"""The AArch64 backend `neon` (lib/native/aarch64, docs/neon.md) against the portable C.

A small program built by pqlab's build for aarch64-qemu (QEMU CPU model Cortex-A72: Advanced
SIMD and the SHA-2 instructions, no SHA-3 instructions) and aarch64-qemu-max (every extension,
SHA-3 included) links the portable lib/common/fips202.c and sha2.c (compiled without the
backend's defines, so they are the C reference) with the backend's sources, and applies both
to the same inputs: Keccak-f[1600] on all-zero, all-ones, single-bit and random states (the
one-state FEAT_SHA3 kernel, the two-way plain-NEON and FEAT_SHA3 kernels, the four-way entry),
and SHA-256 compression of 0..5 blocks at every alignment 0..7. A kernel that declines must
leave its output untouched. The program prints one line per mismatch and the counts of checks
per kernel; the test requires the counts it expects on each CPU model, so a kernel that silently
declined where it should run (or ran where its instructions are missing) fails it.

The whole schemes with the backend are checked by tests/test_platforms_aarch64.py (pqlab test,
vectors and kat on both CPU models)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import firmware
import pytest
from hostlib import ROOT

NATIVE = ROOT / "lib" / "native" / "aarch64"
NRANDOM = 24
# the portable SHAKE the C samplers (lib/mlkem/sample.c, lib/mldsa/sample.c) link against
KECCAK_C = [ROOT / "lib/common/fips202.c", ROOT / "lib/common/fips202x4.c"]


def xorshift_prelude(seed: int, next32_shift: int | None = None, next8: bool = False, unit: bool = False) -> str:
    """C source of the kernel test programs' random source: xorshift64 (shifts 13, 7, 17) from
    `seed`, next64() (the new state); on request next32() (the state >> next32_shift, truncated),
    next8() (bits 24..31) and unit() (a double in [0, 1) from the top 53 bits)."""
    out = [
        f"static uint64_t rng = {seed:#018x}ull;",
        "static uint64_t next64(void)",
        "{",
        "    rng ^= rng << 13;",
        "    rng ^= rng >> 7;",
        "    rng ^= rng << 17;",
        "    return rng;",
        "}",
    ]
    if next32_shift is not None:
        out += ["static uint32_t next32(void)", "{", f"    return (uint32_t)(next64() >> {next32_shift});", "}"]
    if next8:
        out += ["static uint8_t next8(void)", "{", "    return (uint8_t)(next64() >> 24);", "}"]
    if unit:
        out += [
            "static double unit(void) /* [0, 1) */",
            "{",
            "    return (double)(next64() >> 11) / 9007199254740992.0;",
            "}",
        ]
    return "\n".join(out) + "\n"


def run_kernel_program(
    tmp: Path,
    name: str,
    program: str,
    sources: Sequence[Path],
    *,
    platform: str = "aarch64-qemu",
    include: Sequence[Path] = (NATIVE,),
    cflags: Sequence[str] = (),
    per_source: Callable[[Path], list[str]] | None = None,
    subst: Mapping[str, str] | None = None,
) -> str:
    """The one build-and-run step of this file: `program` (each key of `subst` replaced by its
    value) written to tmp/<name>, built with `sources` through pqlab's build for `platform`
    (firmware.build_and_run: the backend's defines are not applied, so portable files are the
    C reference), run with the platform's runner; returns stdout."""
    for key, value in (subst or {}).items():
        assert key in program, key
        program = program.replace(key, value)
    src = tmp / name
    src.write_text(program)
    return firmware.build_and_run(
        platform,
        tmp,
        [src, *sources],
        include=include,
        cflags=cflags,
        per_source=per_source or (lambda _p: []),
        timeout=300,
    )


def run_and_parse(
    tmp: Path,
    name: str,
    program: str,
    sources: Sequence[Path],
    *,
    platform: str = "aarch64-qemu",
    include: Sequence[Path] = (NATIVE,),
    cflags: Sequence[str] = (),
    per_source: Callable[[Path], list[str]] | None = None,
    subst: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """run_kernel_program, then _parse: no mismatch line, `bad 0`, `end` last; returns the
    `features` / `counts` fields."""
    out = run_kernel_program(
        tmp,
        name,
        program,
        sources,
        platform=platform,
        include=include,
        cflags=cflags,
        per_source=per_source,
        subst=subst,
    )
    return _parse(platform, out)


PROGRAM = (
    r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fips202.h"
#include "fips202x4.h"
#include "sha2.h"
#include "../native/api.h"
#include "cpu.h"
#include "keccak_x2.h"

"""
    + xorshift_prelude(0x9E3779B97F4A7C15)
    + r"""
static unsigned int bad, n_x1, n_x1_declined, n_x2_neon, n_x2_sha3, n_x4, n_sha256, n_sha256_declined;

static void fail(const char *what, unsigned int idx)
{
    printf("mismatch %s %u\n", what, idx);
    bad++;
}

static void make_state(uint64_t s[25], unsigned int c)
{
    for (unsigned int i = 0; i < 25; i++) {
        s[i] = c == 0 ? 0 : c == 1 ? ~0ull : 0;
    }
    if (c >= 2 && c < 2 + 25) {
        s[c - 2] = 1ull << ((c * 37u) & 63u); /* one bit in each lane at varying positions */
    } else if (c >= 27) {
        for (unsigned int i = 0; i < 25; i++) {
            s[i] = next64();
        }
    }
}

static void keccak_checks(unsigned int ncases, unsigned int feats)
{
    for (unsigned int c = 0; c < ncases; c++) {
        uint64_t s[4][25], ref[4][25], t[25];
        for (unsigned int k = 0; k < 4; k++) {
            make_state(s[k], k == 0 ? c : 27 + k);
            memcpy(ref[k], s[k], sizeof ref[k]);
            pqlab_keccakf1600(ref[k]); /* portable C (fips202.c built without the backend) */
        }
        memcpy(t, s[0], sizeof t);
        if (pqlab_keccakf1600_native_std(t) == PQLAB_NATIVE_DONE) {
            n_x1++;
            if (memcmp(t, ref[0], sizeof t) != 0) {
                fail("keccak_x1", c);
            }
        } else {
            n_x1_declined++;
            if (memcmp(t, s[0], sizeof t) != 0) {
                fail("keccak_x1_declined_but_wrote", c);
            }
        }
        uint64_t a[25], b[25];
        memcpy(a, s[0], sizeof a);
        memcpy(b, s[1], sizeof b);
        pqlab_aarch64_keccakf1600x2_neon(a, b);
        n_x2_neon++;
        if (memcmp(a, ref[0], sizeof a) != 0 || memcmp(b, ref[1], sizeof b) != 0) {
            fail("keccak_x2_neon", c);
        }
        if (feats & PQLAB_AARCH64_FEAT_SHA3) {
            memcpy(a, s[0], sizeof a);
            memcpy(b, s[1], sizeof b);
            pqlab_aarch64_keccakf1600x2_sha3(a, b);
            n_x2_sha3++;
            if (memcmp(a, ref[0], sizeof a) != 0 || memcmp(b, ref[1], sizeof b) != 0) {
                fail("keccak_x2_sha3", c);
            }
        }
        pqlab_keccakx4_state x4;
        for (unsigned int k = 0; k < 4; k++) {
            memcpy(x4.lane[k].s, s[k], sizeof x4.lane[k].s);
        }
        pqlab_keccakf1600x4(&x4);
        n_x4++;
        for (unsigned int k = 0; k < 4; k++) {
            if (memcmp(x4.lane[k].s, ref[k], sizeof ref[k]) != 0) {
                fail("keccak_x4", c);
            }
        }
    }
    /* a long chain: errors that cancel in one call would show after many */
    uint64_t r[25], a[25], b[25];
    make_state(r, 40);
    memcpy(a, r, sizeof a);
    memcpy(b, r, sizeof b);
    for (unsigned int i = 0; i < 200; i++) {
        pqlab_keccakf1600(r);
        pqlab_aarch64_keccakf1600x2_neon(a, b);
    }
    if (memcmp(a, r, sizeof a) != 0 || memcmp(b, r, sizeof b) != 0) {
        fail("keccak_chain", 0);
    }
}

static void sha256_checks(void)
{
    uint8_t buf[5 * 64 + 8];
    for (unsigned int nb = 0; nb <= 5; nb++) {
        for (unsigned int al = 0; al < 8; al++) {
            uint32_t h0[8], h1[8], h2[8];
            for (unsigned int i = 0; i < 8; i++) {
                h0[i] = (uint32_t)next64();
            }
            for (unsigned int i = 0; i < sizeof buf; i++) {
                buf[i] = (uint8_t)next64();
            }
            memcpy(h1, h0, sizeof h1);
            memcpy(h2, h0, sizeof h2);
            pqlab_sha256_compress(h1, buf + al, nb); /* portable C */
            if (pqlab_sha256_compress_native(h2, buf + al, nb) == PQLAB_NATIVE_DONE) {
                n_sha256++;
                if (memcmp(h1, h2, sizeof h1) != 0) {
                    fail("sha256", nb * 8 + al);
                }
            } else {
                n_sha256_declined++;
                if (memcmp(h0, h2, sizeof h0) != 0) {
                    fail("sha256_declined_but_wrote", nb * 8 + al);
                }
            }
        }
    }
}

int main(void)
{
    pqlab_hal_setup();
    const unsigned int feats = pqlab_aarch64_features();
    printf("features sha3=%u sha256=%u pmull=%u\n", (feats & PQLAB_AARCH64_FEAT_SHA3) ? 1u : 0u,
           (feats & PQLAB_AARCH64_FEAT_SHA256) ? 1u : 0u, (feats & PQLAB_AARCH64_FEAT_PMULL) ? 1u : 0u);
    keccak_checks(27 + @NRANDOM@, feats);
    sha256_checks();
    printf("counts x1=%u x1_declined=%u x2_neon=%u x2_sha3=%u x4=%u sha256_native=%u sha256_declined=%u\n", n_x1,
           n_x1_declined, n_x2_neon, n_x2_sha3, n_x4, n_sha256, n_sha256_declined);
    printf("bad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""
)

MLKEM_PROGRAM = (
    r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "kernels.h"
#include "mlkem_neon.h"
#include "sample_neon.h"

"""
    + xorshift_prelude(0x2545F4914F6CDD1D, next32_shift=16)
    + r"""static unsigned int bad, n_ntt, n_invntt, n_basemul, n_rej;
static void fail(const char *what, unsigned int idx, unsigned int i, int got, int want)
{
    printf("mismatch %s case %u coefficient %u native %d C %d\n", what, idx, i, got, want);
    bad++;
}
/* kind 0: uniform in [-b, b]; 1: all b; 2: all -b; 3: alternating; 4: zero */
static void fill(int16_t *c, unsigned int kind, int32_t b)
{
    for (unsigned int i = 0; i < 256; i++) {
        const int32_t r = (int32_t)(next32() % (uint32_t)(2 * b + 1)) - b;
        c[i] = (int16_t)(kind == 0 ? r : kind == 1 ? b : kind == 2 ? -b : kind == 3 ? ((i & 1) ? b : -b) : 0);
    }
}
static int modq(int x)
{
    return ((x % 3329) + 3329) % 3329;
}
/* rej_bulk: 12-bit value d of kind k (0 random, 1 all rejected 4095, 2 all accepted 0,
 * 3 near q: q-2 .. q+1 and 0 / 4095) */
static unsigned int value12(unsigned int kind)
{
    static const unsigned int edge[6] = {3327, 3328, 3329, 3330, 0, 4095};
    return kind == 0 ? next32() & 0xfff : kind == 1 ? 4095 : kind == 2 ? 0 : edge[next32() % 6];
}
static void rej_bulk_case(unsigned int g, unsigned int kind, unsigned int al)
{
    static uint8_t raw[12 * 24 + 32];
    static int16_t c0[8 * 24 + 16], c1[8 * 24 + 16];
    uint8_t *buf = raw + al;
    for (unsigned int i = 0; i < sizeof raw; i++) {
        raw[i] = (uint8_t)next32(); /* the bytes after the 12 g must not matter */
    }
    for (unsigned int p = 0; p < 12 * g; p += 3) {
        const unsigned int d1 = value12(kind), d2 = value12(kind);
        buf[p] = (uint8_t)d1;
        buf[p + 1] = (uint8_t)((d1 >> 8) | (d2 << 4));
        buf[p + 2] = (uint8_t)(d2 >> 4);
    }
    for (unsigned int i = 0; i < sizeof c0 / sizeof c0[0]; i++) {
        c0[i] = c1[i] = 0x5a5a;
    }
    const unsigned int n0 = pqlab_mlkem_rej_bulk_neon(c0 + 1, buf, g);
    const unsigned int n1 = mlkem_rej_bulk_c(c1 + 1, buf, g);
    n_rej++;
    const unsigned int id = g * 100 + kind * 10 + al;
    if (n0 != n1) {
        fail("mlkem_rej_bulk_count", id, 0, (int)n0, (int)n1);
        return;
    }
    for (unsigned int i = 0; i < n1; i++) {
        if (c0[1 + i] != c1[1 + i]) {
            fail("mlkem_rej_bulk", id, i, c0[1 + i], c1[1 + i]);
            return;
        }
    }
    /* nothing outside cand[0 .. 8 g - 1] written */
    if (c0[0] != 0x5a5a) {
        fail("mlkem_rej_bulk_before", id, 0, c0[0], 0x5a5a);
    }
    for (unsigned int i = 1 + 8 * g; i < sizeof c0 / sizeof c0[0]; i++) {
        if (c0[i] != 0x5a5a) {
            fail("mlkem_rej_bulk_after", id, i, c0[i], 0x5a5a);
            return;
        }
    }
}
int main(void)
{
    static mlkem_poly a, x, b, r0, r1;
    pqlab_hal_setup();
    for (unsigned int g = 0; g <= 24; g++) {
        for (unsigned int kind = 0; kind < 4; kind++) {
            for (unsigned int al = 0; al < 4; al++) {
                rej_bulk_case(g, kind, al);
            }
        }
    }
    for (unsigned int c = 0; c < 5 + @NRANDOM@; c++) {
        const unsigned int kind = c < 5 ? c : 0;
        /* ntt: input |c| < q, the same values as the C */
        fill(a.c, kind, 3328);
        x = a;
        pqlab_mlkem_ntt_neon(a.c);
        mlkem_ntt_c(&x);
        n_ntt++;
        for (unsigned int i = 0; i < 256; i++) {
            if (a.c[i] != x.c[i] || a.c[i] > 1664 || a.c[i] < -1664) {
                fail("mlkem_ntt", c, i, a.c[i], x.c[i]);
                break;
            }
        }
        /* invntt: any int16 input; output |c| < q and congruent to the C's */
        fill(a.c, kind, 32767);
        if (c == 5) {
            a.c[0] = -32768;
            a.c[255] = -32768;
        }
        x = a;
        pqlab_mlkem_invntt_neon(a.c);
        mlkem_invntt_c(&x);
        n_invntt++;
        for (unsigned int i = 0; i < 256; i++) {
            if (modq(a.c[i]) != modq(x.c[i]) || a.c[i] >= 3329 || a.c[i] <= -3329) {
                fail("mlkem_invntt", c, i, a.c[i], x.c[i]);
                break;
            }
        }
        /* basemul_acc: a, b |c| < q; r an accumulator with up to 4 terms' room */
        fill(a.c, kind, 3328);
        fill(b.c, c < 5 ? (kind + 1) % 5 : 0, 3328);
        fill(r0.c, 0, 4 * 3328);
        r1 = r0;
        pqlab_mlkem_basemul_acc_neon(r0.c, a.c, b.c);
        mlkem_basemul_acc_c(&r1, &a, &b);
        n_basemul++;
        for (unsigned int i = 0; i < 256; i++) {
            if (r0.c[i] != r1.c[i]) {
                fail("mlkem_basemul_acc", c, i, r0.c[i], r1.c[i]);
                break;
            }
        }
    }
    printf("counts mlkem_ntt=%u mlkem_invntt=%u mlkem_basemul=%u mlkem_rej_bulk=%u\n", n_ntt, n_invntt, n_basemul,
           n_rej);
    printf("bad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""
)


def run_mlkem_program(platform: str, tmp: Path) -> dict[str, str]:
    mlkem = ROOT / "lib" / "mlkem"
    return run_and_parse(
        tmp,
        "mlkem.c",
        MLKEM_PROGRAM,
        [mlkem / "ntt.c", mlkem / "sample.c", *KECCAK_C, NATIVE / "mlkem_ntt.c", NATIVE / "sample.c"],
        platform=platform,
        include=[mlkem, NATIVE],
        cflags=["-DPQLAB_MLKEM_K=3", "-DPQLAB_NS=pqlab_test_"],
        subst={"@NRANDOM@": str(NRANDOM)},
    )


def _parse(platform: str, out: str) -> dict[str, str]:
    lines = out.splitlines()
    assert lines and lines[-1] == "end", out[-2000:]
    mism = [ln for ln in lines if ln.startswith("mismatch")]
    assert not mism, f"{platform}: {mism[:10]}"
    assert "bad 0" in lines
    fields: dict[str, str] = {}
    for ln in lines:
        if ln.startswith(("features ", "counts ")):
            for kv in ln.split()[1:]:
                k, v = kv.split("=")
                fields[k] = v
    return fields


def test_neon_mlkem_kernels_match_portable(tmp_path: Path) -> None:
    """The ML-KEM kernels use no optional extension: one CPU model (Cortex-A72) suffices."""
    f = run_mlkem_program("aarch64-qemu", tmp_path)
    n = 5 + NRANDOM
    assert (int(f["mlkem_ntt"]), int(f["mlkem_invntt"]), int(f["mlkem_basemul"])) == (n, n, n)
    assert int(f["mlkem_rej_bulk"]) == 25 * 4 * 4


MLDSA_PROGRAM = (
    r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "kernels.h"
#include "mldsa_neon.h"
#include "sample_neon.h"

"""
    + xorshift_prelude(0x1234567887654321, next32_shift=16)
    + r"""static unsigned int bad, n_ntt, n_invntt, n_pw, n_pwacc, n_pwvec, n_rej, n_ntt16, n_ntt16_diff, n_mul16, n_mul16_diff;
static void cmp(const char *what, unsigned int idx, const int32_t *got, const int32_t *want)
{
    for (unsigned int i = 0; i < 256; i++) {
        if (got[i] != want[i]) {
            printf("mismatch %s case %u coefficient %u native %ld C %ld\n", what, idx, i, (long)got[i], (long)want[i]);
            bad++;
            return;
        }
    }
}
/* kind 0: uniform in [-b, b]; 1: all b; 2: all -b; 3: alternating; 4: zero */
static void fill(int32_t *c, unsigned int kind, int32_t b)
{
    for (unsigned int i = 0; i < 256; i++) {
        const int64_t r = (int64_t)(((uint64_t)next32() << 16 ^ next32()) % (uint64_t)(2 * (int64_t)b + 1)) - b;
        c[i] = (int32_t)(kind == 0 ? r : kind == 1 ? b : kind == 2 ? -b : kind == 3 ? ((i & 1) ? b : -b) : 0);
    }
}
#define Q 8380417
/* rej_uniform: triple of kind k (0 random bytes, 1 all rejected 0xff 0xff 0x7f / 0xff, 2 all
 * accepted, 3 near q: q-1, q, q+1, 0, 2^23-1, each with bit 23 random) */
static void triple(uint8_t *p, unsigned int kind)
{
    static const uint32_t edge[5] = {Q - 1, Q, Q + 1, 0, 0x7fffff};
    uint32_t t = kind == 0   ? next32()
                 : kind == 1 ? 0x7fffffu | (next32() << 23)
                 : kind == 2 ? next32() % Q
                             : edge[next32() % 5] | (next32() << 23);
    p[0] = (uint8_t)t;
    p[1] = (uint8_t)(t >> 8);
    p[2] = (uint8_t)(t >> 16);
}
static void rej_uniform_case(size_t buflen, unsigned int ctr, unsigned int kind, unsigned int al)
{
    static uint8_t raw[3 * 300 + 32];
    static int32_t a0[256], a1[256];
    uint8_t *buf = raw + al;
    for (unsigned int i = 0; i < sizeof raw; i++) {
        raw[i] = (uint8_t)next32(); /* the bytes after buflen must not matter */
    }
    for (size_t p = 0; p + 3 <= buflen + 2; p += 3) {
        triple(buf + p, kind); /* a partial last triple: its bytes are of the same kind */
    }
    for (unsigned int i = 0; i < 256; i++) {
        a0[i] = a1[i] = (int32_t)next32();
    }
    const unsigned int r0 = pqlab_mldsa_rej_uniform_neon(a0, ctr, buf, buflen);
    const unsigned int r1 = mldsa_rej_uniform_c(a1, ctr, buf, buflen);
    n_rej++;
    if (r0 != r1) {
        printf("mismatch mldsa_rej_uniform_count buflen %u ctr %u kind %u al %u native %u C %u\n", (unsigned)buflen,
               ctr, kind, al, r0, r1);
        bad++;
        return;
    }
    cmp("mldsa_rej_uniform", (unsigned)(buflen * 1000 + ctr * 10 + kind), a0, a1);
}
int main(void)
{
    static int32_t a[256], x[256], b[256], r0[256], r1[256];
    pqlab_hal_setup();
    static const unsigned int ctrs[8] = {0, 1, 100, 250, 252, 253, 255, 256};
    for (size_t buflen = 0; buflen <= 64; buflen++) {
        for (unsigned int kind = 0; kind < 4; kind++) {
            rej_uniform_case(buflen, ctrs[(buflen + kind) % 8], kind, (unsigned int)(buflen % 4));
            rej_uniform_case(buflen, 0, kind, kind);
        }
    }
    static const size_t lens[5] = {168, 169, 170, 840, 900};
    for (unsigned int l = 0; l < 5; l++) {
        for (unsigned int c = 0; c < 8; c++) {
            for (unsigned int kind = 0; kind < 4; kind++) {
                rej_uniform_case(lens[l], ctrs[c], kind, c % 4);
            }
        }
    }
    for (unsigned int c = 0; c < 5 + @NRANDOM@; c++) {
        const unsigned int kind = c < 5 ? c : 0;
        /* ntt: the C's input bound |a| <= 2^31 - 1 - 8q for the edge cases, 2^24 (what the
         * callers give) for the random ones */
        fill(a, kind, c < 5 || (c & 1) ? 2147483647 - 8 * Q : 1 << 24);
        memcpy(x, a, sizeof x);
        pqlab_mldsa_ntt_neon(a);
        mldsa_ntt_c(x);
        n_ntt++;
        cmp("mldsa_ntt", c, a, x);
        fill(a, kind, Q - 1);
        memcpy(x, a, sizeof x);
        pqlab_mldsa_invntt_neon(a);
        mldsa_invntt_tomont_c(x);
        n_invntt++;
        cmp("mldsa_invntt", c, a, x);
        /* pointwise: |a b| < 2^31 q; a up to 2^31 - 1 against small b, or both below q */
        if (c & 1) {
            fill(a, kind, 2147483647);
            fill(b, (kind + 1) % 5, Q / 2);
        } else {
            fill(a, kind, Q - 1);
            fill(b, (kind + 1) % 5, Q - 1);
        }
        pqlab_mldsa_pointwise_neon(r0, a, b);
        mldsa_pointwise_mont_c(r1, a, b);
        n_pw++;
        cmp("mldsa_pointwise", c, r0, r1);
        fill(r0, 0, 2147483647 - Q - 1);
        memcpy(r1, r0, sizeof r1);
        pqlab_mldsa_pointwise_acc_neon(r0, a, b);
        mldsa_pointwise_acc_mont_c(r1, a, b);
        n_pwacc++;
        cmp("mldsa_pointwise_acc", c, r0, r1);
        /* aliasing c == a */
        memcpy(r0, a, sizeof r0);
        pqlab_mldsa_pointwise_neon(r0, r0, b);
        mldsa_pointwise_mont_c(r1, a, b);
        cmp("mldsa_pointwise_alias", c, r0, r1);
        /* polyvec_pointwise_acc, count 1..7: A in [0, q) against NTT(y) up to gamma1 + 8q (the
         * sum bound's worst case: all q - 1 against all +-(2^19 + 8q)), or both up to the
         * per-product bound q^2 / count-ish (random signs) */
        static mldsa_poly pa[7], pb[7];
        const unsigned int count = 1 + c % 7;
        const int32_t top = (1 << 19) + 8 * Q;
        for (unsigned int j = 0; j < count; j++) {
            fill(pa[j].c, kind == 0 ? 0 : 1, Q - 1);
            if (kind == 0) {
                for (unsigned int i = 0; i < 256; i++) {
                    pa[j].c[i] = pa[j].c[i] < 0 ? -pa[j].c[i] : pa[j].c[i];
                }
            }
            fill(pb[j].c, kind, top);
        }
        pqlab_mldsa_polyvec_pointwise_acc_neon(r0, pa[0].c, pb[0].c, count);
        mldsa_polyvec_pointwise_acc_mont_c(r1, pa, pb, count);
        n_pwvec++;
        cmp("mldsa_polyvec_pointwise_acc", c, r0, r1);
    }
    /* ntt16 (input |a| <= 64) and mul16_add: operands from ntt16 (a c with tau ones against an s
     * in [-eta, eta], edge kinds up to the input bound) and any values within ntt16's output
     * bound 12206; base up to its bound |base| < 2^31 - 5281; r aliasing base */
    static int16_t c16[256], s16[256], d16[256];
    for (unsigned int c = 0; c < 5 + @NRANDOM@; c++) {
        const unsigned int kind = c < 5 ? c : 0;
        fill(a, kind, c < 5 ? 64 : (int32_t)(c % 5));
        pqlab_mldsa_ntt16_neon(c16, a);
        mldsa_poly_ntt16_c(d16, a);
        n_ntt16++;
        /* a representative within |r| <= 12206 (kernels.h), not necessarily the C's
         * (mldsa_ntt16.c's SQDMULH form) */
        for (unsigned int i = 0; i < 256; i++) {
            if ((c16[i] - d16[i]) % 7681 != 0 || c16[i] > 12206 || c16[i] < -12206) {
                printf("mismatch mldsa_ntt16 case %u coefficient %u native %d C %d\n", c, i, c16[i], d16[i]);
                bad++;
                break;
            }
            n_ntt16_diff += c16[i] != d16[i];
        }
        memset(b, 0, sizeof b);
        for (unsigned int t = 0; t < 39 + c % 22; t++) {
            b[next32() % 256] = (next32() & 1) ? 1 : -1;
        }
        fill(x, kind, 2 + (int32_t)(c & 2));
        /* v = 0: the exact product c s from the backend's ntt16 operands against the C's from its
         * own (the product is unique, so bit for bit) */
        static int16_t cn16[256], sn16[256];
        mldsa_poly_ntt16_c(c16, b);
        mldsa_poly_ntt16_c(s16, x);
        pqlab_mldsa_ntt16_neon(cn16, b);
        pqlab_mldsa_ntt16_neon(sn16, x);
        for (unsigned int v = 0; v < 3; v++) {
            if (v == 1) {
                for (unsigned int i = 0; i < 256; i++) {
                    c16[i] = (int16_t)((int32_t)(next32() % 24413) - 12206);
                    s16[i] = (int16_t)(kind == 1 ? 12206 : kind == 2 ? -12206 : (int32_t)(next32() % 24413) - 12206);
                }
            }
            fill(r0, v == 2 ? 1 : kind, 2147483647 - 5281);
            memcpy(r1, r0, sizeof r1);
            memcpy(a, r0, sizeof a);
            if (v == 2) {
                pqlab_mldsa_mul16_add_neon(r0, r0, c16, s16);
            } else {
                pqlab_mldsa_mul16_add_neon(r0, a, v == 0 ? cn16 : c16, v == 0 ? sn16 : s16);
            }
            mldsa_poly_mul16_add_c(r1, r1, c16, s16);
            n_mul16++;
            if (v >= 1) {
                /* (v = 1, 2) operands that are no product of small polynomials: x is a representative with
                 * |x| <= 5280 (kernels.h), not necessarily the C's (mldsa_ntt16.c's SQDMULH form) */
                for (unsigned int i = 0; i < 256; i++) {
                    const int64_t x0 = (int64_t)r0[i] - a[i], x1 = (int64_t)r1[i] - a[i];
                    if ((x0 - x1) % 7681 != 0 || x0 > 5280 || x0 < -5280) {
                        printf("mismatch mldsa_mul16_add_mod case %u coefficient %u native %lld C %lld\n", c, i,
                               (long long)x0, (long long)x1);
                        bad++;
                        break;
                    }
                    n_mul16_diff += x0 != x1;
                }
            } else {
                cmp("mldsa_mul16_add", c * 3 + v, r0, r1);
            }
        }
    }
    printf("counts mldsa_ntt=%u mldsa_invntt=%u mldsa_pointwise=%u mldsa_pointwise_acc=%u mldsa_polyvec_pointwise_acc=%u "
           "mldsa_rej_uniform=%u mldsa_ntt16=%u mldsa_ntt16_other_representative=%u mldsa_mul16_add=%u "
           "mldsa_mul16_add_other_representative=%u\n",
           n_ntt, n_invntt, n_pw, n_pwacc, n_pwvec, n_rej, n_ntt16, n_ntt16_diff, n_mul16, n_mul16_diff);
    printf("bad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""
)


def test_neon_mldsa_kernels_match_portable(tmp_path: Path) -> None:
    """The ML-DSA kernels (ntt16 / mul16_add included) give the C's values bit for bit (plain
    Advanced SIMD: one CPU model)."""
    mldsa = ROOT / "lib" / "mldsa"
    f = run_and_parse(
        tmp_path,
        "mldsa.c",
        MLDSA_PROGRAM,
        [
            mldsa / "ntt.c",
            mldsa / "ntt16.c",
            mldsa / "sample.c",
            mldsa / "pack.c",
            *KECCAK_C,
            NATIVE / "mldsa_ntt.c",
            NATIVE / "mldsa_ntt16.c",
            NATIVE / "sample.c",
        ],
        include=[mldsa, NATIVE],
        cflags=["-DPQLAB_MLDSA_MODE=65", "-DPQLAB_NS=pqlab_test_"],
        subst={"@NRANDOM@": str(NRANDOM)},
    )
    n = 5 + NRANDOM
    keys = ("mldsa_ntt", "mldsa_invntt", "mldsa_pointwise", "mldsa_pointwise_acc", "mldsa_polyvec_pointwise_acc")
    assert [int(f[k]) for k in keys] == [n] * 5
    assert int(f["mldsa_rej_uniform"]) == 65 * 4 * 2 + 5 * 8 * 4
    assert (int(f["mldsa_ntt16"]), int(f["mldsa_mul16_add"])) == (n, 3 * n)
    # the random-operand cases reach the representatives in which mul16_add / ntt16 may differ from the C
    assert int(f["mldsa_mul16_add_other_representative"]) > 0


MLDSA_POLY_PROGRAM = (
    r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "kernels.h"
#include "rounding.h"
#include "mldsa_neon.h"

"""
    + xorshift_prelude(0x0DDB1A5E5BAD5EED, next32_shift=16)
    + r"""static int32_t in_range(int32_t lo, int32_t hi) /* uniform-ish in [lo, hi] */
{
    return (int32_t)((int64_t)lo + (int64_t)((((uint64_t)next32() << 32) | next32()) % ((uint64_t)((int64_t)hi - lo) + 1)));
}
static unsigned int bad, n_dec, n_hint, n_norm, n_w1;
static void cmp(const char *what, unsigned int idx, const int32_t *got, const int32_t *want)
{
    for (unsigned int i = 0; i < 256; i++) {
        if (got[i] != want[i]) {
            printf("mismatch %s case %u coefficient %u native %ld C %ld\n", what, idx, i, (long)got[i], (long)want[i]);
            bad++;
            return;
        }
    }
}
int main(void)
{
    static int32_t a[256], b[256], c[256], h0[256], h1[256], x0[256], x1[256], y0[256], y1[256];
    pqlab_hal_setup();
    const int32_t g2 = MLDSA_GAMMA2, m = MLDSA_M;
    /* Decompose: every a in [0, q), 256 at a time, both outputs, then HighBits in place and LowBits */
    for (int32_t base = 0; base < MLDSA_Q; base += 256) {
        for (unsigned int i = 0; i < 256; i++) {
            a[i] = base + (int32_t)i < MLDSA_Q ? base + (int32_t)i : MLDSA_Q - 1;
        }
        pqlab_mldsa_decompose_neon(x0, x1, a, g2, (int32_t)DEC_MUL, DEC_SHIFT, m);
        mldsa_poly_decompose_c(y0, y1, a);
        n_dec++;
        cmp("decompose_a1", (unsigned)base, x0, y0);
        cmp("decompose_a0", (unsigned)base, x1, y1);
        if ((base & 0xffff) == 0) {
            memcpy(x0, a, sizeof x0);
            pqlab_mldsa_decompose_neon(x0, NULL, x0, g2, (int32_t)DEC_MUL, DEC_SHIFT, m);
            cmp("decompose_high_inplace", (unsigned)base, x0, y0);
            pqlab_mldsa_decompose_neon(NULL, x1, a, g2, (int32_t)DEC_MUL, DEC_SHIFT, m);
            cmp("decompose_low", (unsigned)base, x1, y1);
        }
    }
    for (unsigned int t = 0; t < 64 + @NRANDOM@; t++) {
        /* make_hint_low: |a0| <= gamma2, |d| < 2^22, a1 in [0, m); edges s = 0, 1, 2 gamma2, 2 gamma2 + 1, -1 */
        for (unsigned int i = 0; i < 256; i++) {
            const unsigned int k = next32() % 8;
            a[i] = in_range(-g2, g2);
            b[i] = in_range(-(1 << 22) + 1, (1 << 22) - 1);
            c[i] = (next32() & 3) == 0 ? 0 : in_range(0, m - 1);
            if (k < 5) {
                const int32_t target = k == 0 ? 0 : k == 1 ? 1 : k == 2 ? 2 * g2 : k == 3 ? 2 * g2 + 1 : -1;
                b[i] = target - g2 - a[i]; /* s = a0 + d + gamma2 = target */
            }
        }
        memcpy(h1, c, sizeof h1);
        const unsigned int r0 = pqlab_mldsa_make_hint_low_neon(h0, a, b, c, g2);
        const unsigned int r1 = mldsa_poly_make_hint_low_c(h1, a, b, h1); /* h aliasing a1 */
        n_hint++;
        if (r0 != r1) {
            printf("mismatch make_hint_low_count case %u native %u C %u\n", t, r0, r1);
            bad++;
        }
        cmp("make_hint_low", t, h0, h1);
        memcpy(h0, c, sizeof h0);
        pqlab_mldsa_make_hint_low_neon(h0, a, b, h0, g2);
        cmp("make_hint_low_alias", t, h0, h1);
        /* chknorm: bound in [1, q); coefficients mostly inside, some at bound - 1, bound, -bound */
        const int32_t bound = t % 3 == 0 ? g2 - 78 : t % 3 == 1 ? (1 << 17) - 78 : in_range(1, MLDSA_Q - 1);
        for (unsigned int i = 0; i < 256; i++) {
            x0[i] = in_range(-bound + 1, bound - 1);
        }
        const unsigned int where = next32() % 256, kind = t % 5;
        if (kind != 4) {
            x0[where] = kind == 0 ? bound : kind == 1 ? -bound : kind == 2 ? bound - 1 : in_range(bound, 2147483647 - 1);
        }
        const uint32_t k0 = pqlab_mldsa_chknorm_neon(x0, bound), k1 = mldsa_poly_chknorm_c(x0, bound);
        n_norm++;
        if (k0 != k1) {
            printf("mismatch chknorm case %u kind %u native %u C %u\n", t, kind, k0, k1);
            bad++;
        }
        /* w1 pack: coefficients in [0, 2^bits) (random, all zero, all 2^bits - 1, alternating);
         * nothing written past the packed bytes */
        {
            const int32_t top = MLDSA_POLYW1_BYTES == 192 ? 63 : 15;
            static uint8_t p0[MLDSA_POLYW1_BYTES + 16], p1[MLDSA_POLYW1_BYTES];
            for (unsigned int i = 0; i < 256; i++) {
                x0[i] = kind == 0 ? 0 : kind == 1 ? top : kind == 2 ? (int32_t)(i & 1) * top : in_range(0, top);
            }
            memset(p0, 0xA5, sizeof p0);
            pqlab_mldsa_w1_pack_neon(p0, x0, MLDSA_POLYW1_BYTES == 192 ? 6 : 4);
            mldsa_polyw1_pack_c(p1, x0);
            n_w1++;
            if (memcmp(p0, p1, sizeof p1) != 0) {
                printf("mismatch w1_pack case %u\n", t);
                bad++;
            }
            for (unsigned int i = MLDSA_POLYW1_BYTES; i < sizeof p0; i++) {
                if (p0[i] != 0xA5) {
                    printf("mismatch w1_pack_after case %u byte %u\n", t, i);
                    bad++;
                    break;
                }
            }
        }
    }
    printf("counts decompose=%u make_hint_low=%u chknorm=%u w1_pack=%u\n", n_dec, n_hint, n_norm, n_w1);
    printf("bad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""
)


@pytest.mark.parametrize("mode", [44, 65])
def test_neon_mldsa_coefficient_kernels_match_portable(tmp_path: Path, mode: int) -> None:
    """Decompose (every a in [0, q), both gamma2), make_hint_low (edges of s), chknorm and the w1
    pack (6 and 4 bits) give lib/mldsa's values bit for bit."""
    mldsa = ROOT / "lib" / "mldsa"
    f = run_and_parse(
        tmp_path,
        "mldsa_poly.c",
        MLDSA_POLY_PROGRAM,
        [mldsa / "rounding.c", mldsa / "pack.c", NATIVE / "mldsa_poly.c"],
        include=[mldsa, NATIVE],
        cflags=[f"-DPQLAB_MLDSA_MODE={mode}", "-DPQLAB_NS=pqlab_test_"],
        subst={"@NRANDOM@": str(NRANDOM)},
    )
    n = 64 + NRANDOM
    assert int(f["decompose"]) == (8380417 + 255) // 256
    assert [int(f[k]) for k in ("make_hint_low", "chknorm", "w1_pack")] == [n] * 3


FNDSA_PROGRAM = (
    r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fndsa_modq.h"

#define Q 12289
"""
    + xorshift_prelude(0x1B873593DEADBEEF, next32_shift=16)
    + r"""static uint16_t a[1024], x[1024];
static unsigned int bad, checks;
static void dump(const char *tag, unsigned int logn, unsigned int kind, const uint16_t *v, unsigned int n)
{
    printf("%s %u %u", tag, logn, kind);
    for (unsigned int i = 0; i < n; i++) {
        printf(" %u", (unsigned int)v[i]);
    }
    printf("\n");
}
int main(void)
{
    pqlab_hal_setup();
    for (unsigned int logn = 6; logn <= 10; logn++) {
        const unsigned int n = 1u << logn;
        for (unsigned int kind = 0; kind < 5; kind++) {
            for (unsigned int i = 0; i < n; i++) {
                a[i] = (uint16_t)(kind == 0   ? next32() % Q
                                  : kind == 1 ? Q - 1
                                  : kind == 2 ? 0
                                  : kind == 3 ? ((i & 1) ? Q - 1 : 0)
                                              : i == 5);
            }
            memcpy(x, a, sizeof a);
            dump("in", logn, kind, a, n);
            const int r1 = pqlab_fndsa_mq_ntt_native(a, logn);
            dump("ntt", logn, kind, a, n);
            const int r2 = pqlab_fndsa_mq_intt_native(a, logn);
            checks++;
            if (r1 != 0 || r2 != 0 || memcmp(a, x, 2 * n) != 0) {
                printf("mismatch roundtrip %u %u\n", logn, kind);
                bad++;
            }
        }
    }
    for (unsigned int logn = 1; logn <= 5; logn++) { /* declined, the array untouched */
        for (unsigned int i = 0; i < 1024; i++) {
            a[i] = x[i] = (uint16_t)(next32() % Q);
        }
        checks++;
        if (pqlab_fndsa_mq_ntt_native(a, logn) != 1 || pqlab_fndsa_mq_intt_native(a, logn) != 1 ||
            memcmp(a, x, sizeof a) != 0) {
            printf("mismatch decline %u\n", logn);
            bad++;
        }
    }
    printf("counts fndsa_checks=%u\n", checks);
    printf("bad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""
)


def _brv(k: int, bits: int) -> int:
    return int(f"{k:0{bits}b}"[::-1], 2)


def test_fndsa_modq_zetas_generator_output_is_committed(tmp_path: Path) -> None:
    """lib/native/fndsa_modq_zetas.h (included by modq.c through tables.h and by the backend's
    fndsa_modq.c: one copy of the twiddles) is what lib/fndsa/gen_tables.py writes (its `modq`
    part, integers only), and both include it."""
    (tmp_path / "fndsa").mkdir()
    (tmp_path / "native").mkdir()
    gen = tmp_path / "fndsa" / "gen_tables.py"
    gen.write_text((ROOT / "lib" / "fndsa" / "gen_tables.py").read_text())
    subprocess.run([sys.executable, str(gen), "modq"], capture_output=True, check=True, text=True)
    want = (ROOT / "lib" / "native" / "fndsa_modq_zetas.h").read_text()
    assert (tmp_path / "native" / "fndsa_modq_zetas.h").read_text() == want
    assert '#include "../native/fndsa_modq_zetas.h"' in (ROOT / "lib" / "fndsa" / "tables.h").read_text()
    assert '#include "../fndsa_modq_zetas.h"' in (NATIVE / "fndsa_modq.c").read_text()


def test_mldsa_zetas_generator_output_is_committed() -> None:
    """lib/native/mldsa_zetas.h (the zeta table of lib/mldsa/ntt.c) is lib/mldsa/gen_tables.py's
    output and ntt.c includes it; the backend's mldsa_ntt.c includes the lane tables that
    gen_mldsa_ntt.py writes from the same zetas() (test_mldsa_ntt_tables_are_committed)."""
    res = subprocess.run(
        [sys.executable, str(ROOT / "lib" / "mldsa" / "gen_tables.py")], capture_output=True, check=True, text=True
    )
    assert res.stdout == (ROOT / "lib" / "native" / "mldsa_zetas.h").read_text()
    assert '#include "../native/mldsa_zetas.h"' in (ROOT / "lib" / "mldsa" / "ntt.c").read_text()
    assert '#include "mldsa_ntt_tables.h"' in (NATIVE / "mldsa_ntt.c").read_text()


def test_mldsa_ntt16_lane_tables_are_committed() -> None:
    """lib/native/aarch64/mldsa_ntt16_tables.h (the twiddle factors of mldsa_ntt16.c in lane
    order) is gen_mldsa_ntt16.py's output, whose factors come from lib/mldsa/gen_ntt16.py, and
    every forward / inverse factor appears as ntt16.c's table has it."""
    res = subprocess.run(
        [sys.executable, str(NATIVE / "gen_mldsa_ntt16.py")], capture_output=True, check=True, text=True
    )
    assert res.stdout == (NATIVE / "mldsa_ntt16_tables.h").read_text()
    sys.path.insert(0, str(ROOT / "lib" / "mldsa"))
    import gen_ntt16

    c = (ROOT / "lib" / "mldsa" / "ntt16.c").read_text()
    body = c.split("zetas16[MLDSA_N] = {", 1)[1].split("};", 1)[0]
    assert [int(v) for v in body.replace(",", " ").split()] == gen_ntt16.ZETAS16  # the C's table


def test_mldsa_ntt_tables_are_committed() -> None:
    """lib/native/aarch64/mldsa_ntt_tables.h (mldsa_ntt.c's factors and their q^-1 products in
    kernel order) is gen_mldsa_ntt.py's output; every factor is one of lib/native/mldsa_zetas.h's
    (negated for the inverse) and every q^-1 product is z q^-1 mod 2^32"""
    res = subprocess.run([sys.executable, str(NATIVE / "gen_mldsa_ntt.py")], capture_output=True, check=True, text=True)
    assert res.stdout == (NATIVE / "mldsa_ntt_tables.h").read_text()
    text = (ROOT / "lib" / "native" / "mldsa_zetas.h").read_text()
    zetas = [int(v) for v in text.split("{", 1)[1].split("}", 1)[0].replace(",", " ").split()]
    q = 8380417
    qinv = pow(q, -1, 2**32)
    tabs = {}
    for part in res.stdout.split("static const int32_t ")[1:]:
        name = part.split("[", 1)[0]
        tabs[name] = [int(v) for v in part.split("{", 1)[1].split("}", 1)[0].replace(",", " ").split()]
    assert sorted(tabs) == ["mldsa_ntt_fwd_bot", "mldsa_ntt_fwd_top", "mldsa_ntt_inv_bot", "mldsa_ntt_inv_top"]
    for name, vals in tabs.items():
        sign = -1 if "inv" in name else 1
        for off in range(0, len(vals) - (4 if name == "mldsa_ntt_inv_top" else 0), 32):
            z, zq = vals[off : off + 16], vals[off + 16 : off + 32]
            for a, b in zip(z, zq):
                assert (a * qinv - b) % 2**32 == 0
                assert a == 0 or sign * a in zetas[1:]
    assert tabs["mldsa_ntt_fwd_top"][1:16] == zetas[1:16]


def test_neon_fndsa_modq_against_definition(tmp_path: Path) -> None:
    """FN-DSA's NTT mod 12289 for logn 6..10: every output k equals a(w^(2 brv(k) + 1)) with
    w = psi^(2048 / 2n), psi = 1945 (modq.c's order and root; reduced residues are unique, so
    these are the C's values), outputs in [0, q), the inverse gives the input back, and logn
    below 6 is declined with the array untouched."""
    q = 12289
    out = run_kernel_program(
        tmp_path, "fndsa.c", FNDSA_PROGRAM, [NATIVE / "fndsa_modq.c"], include=[ROOT / "lib" / "native"]
    )
    f = _parse("aarch64-qemu", out)
    assert int(f["fndsa_checks"]) == 5 * 5 + 5
    lines = out.splitlines()
    ins = {tuple(ln.split()[1:3]): list(map(int, ln.split()[3:])) for ln in lines if ln.startswith("in ")}
    outs = {tuple(ln.split()[1:3]): list(map(int, ln.split()[3:])) for ln in lines if ln.startswith("ntt ")}
    assert len(ins) == len(outs) == 25
    psi = 1945
    for key, a in ins.items():
        logn = int(key[0])
        n = 1 << logn
        w = pow(psi, 2048 // (2 * n), q)
        res = outs[key]
        assert len(res) == n and all(0 <= v < q for v in res), key
        for k in range(0, n, 1 if key[1] == "0" or logn < 9 else 37):
            e = pow(w, 2 * _brv(k, logn) + 1, q)
            acc, p = 0, 1
            for c in a:
                acc += c * p
                p = p * e % q
            assert res[k] == acc % q, (key, k)


FNDSA_MODQ_SIGN_PROGRAM = (
    r"""
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "pqlab_hal.h"
/* the C reference: lib/fndsa/modq.c itself, compiled without the backend's defines and with the
 * native-double fpr layer (the implementation `fpu`): its static mq_*_c loops are what the
 * kernels must reproduce */
#include "modq.c"

"""
    + xorshift_prelude(0x2545F4914F6CDD1D)
    + r"""#define G 8 /* guard words after every output */
static uint16_t x[1024], y[1024], z[1024], w[1024], hm[1024];
static uint16_t r1[1024 + G], r2[1024 + G];
static int16_t s1[1024 + G], s2[1024 + G];
static int8_t f8[1024];
static double zd[1024];
static unsigned int bad, n_muldiv, n_mul2add, n_small, n_norm, n_rint, n_declined;

static void fail(const char *what, unsigned int logn, unsigned int kind)
{
    printf("mismatch %s %u %u\n", what, logn, kind);
    bad++;
}

/* kind 0..: random, zero, q - 1, edges, random with zeros in z */
static uint16_t val(unsigned kind, unsigned i)
{
    static const uint16_t edge[6] = {0, 1, 2, Q - 1, Q / 2, Q / 2 + 1};
    switch (kind) {
    case 1:
        return 0;
    case 2:
        return Q - 1;
    case 3:
        return edge[(i + (unsigned)(next64() % 6)) % 6];
    default:
        return (uint16_t)(next64() % Q);
    }
}

static void fill(unsigned logn, unsigned kind)
{
    const unsigned n = 1u << logn;
    for (unsigned i = 0; i < n; i++) {
        x[i] = val(kind, i);
        y[i] = val(kind, i);
        z[i] = val(kind, i);
        w[i] = val(kind, i);
        hm[i] = val(kind, i);
        if (kind == 4 && (next64() & 3) == 0) {
            z[i] = 0;
        }
        f8[i] = (int8_t)(kind == 3 ? (int)(i & 255) - 128 : kind == 1 ? 0 : kind == 2 ? -128 : (int8_t)next64());
    }
}

static void guard(uint16_t *a, int16_t *b, unsigned n)
{
    for (unsigned i = 0; i < n + G; i++) {
        a[i] = 0xA5A5;
        b[i] = 0x5A5A;
    }
}

static void check_u16(const char *what, unsigned logn, unsigned kind, int rc)
{
    const unsigned n = 1u << logn;
    if (logn < 4) {
        n_declined++;
        for (unsigned i = 0; i < n + G; i++) {
            if (r2[i] != 0xA5A5) {
                fail(what, logn, kind); /* a decline writes nothing */
                return;
            }
        }
        if (rc != PQLAB_NATIVE_DECLINED) {
            fail(what, logn, kind);
        }
        return;
    }
    if (rc != PQLAB_NATIVE_DONE || memcmp(r1, r2, 2 * n) != 0) {
        fail(what, logn, kind);
    }
    for (unsigned i = n; i < n + G; i++) {
        if (r2[i] != 0xA5A5) {
            fail(what, logn, kind);
        }
    }
}

static void test_rint(unsigned logn, unsigned kind)
{
    const unsigned n = 1u << logn;
    for (unsigned i = 0; i < n; i++) {
        const double r = (double)(int64_t)(next64() % (1u << 30)) - (double)(1u << 29);
        switch (kind) {
        case 0: /* random with a fraction */
            zd[i] = r + (double)(next64() >> 11) / 9007199254740992.0;
            break;
        case 1: /* exact halves: ties to even */
            zd[i] = (double)((int64_t)(next64() % 64) - 32) + 0.5;
            break;
        case 2: /* just below / above a half, +-0, tiny */
            zd[i] = i % 4 == 0 ? nextafter(0.5 + (double)(i % 9), 0.0)
                  : i % 4 == 1 ? nextafter(-0.5 - (double)(i % 9), 1.0)
                  : i % 4 == 2 ? (i & 8 ? -0.0 : 0.0)
                               : (i & 8 ? -1e-300 : 4.9e-324);
            break;
        case 3: /* around 2^31, 2^32 and up to 2^62, both signs */
            zd[i] = ldexp(1.0 + (double)(next64() % 1000) / 1000.0, 30 + (int)(i % 33)) * (i & 1 ? -1.0 : 1.0);
            break;
        default:
            zd[i] = r;
        }
    }
    guard(r1, s1, n);
    guard(r2, s2, n);
    mq_of_rint_poly_c(r1, zd, logn);
    check_u16("of_rint", logn, kind, pqlab_fndsa_mq_of_rint_native(r2, zd, logn));
    n_rint++;
}

int main(void)
{
    pqlab_hal_setup();
    for (unsigned logn = 1; logn <= 10; logn++) {
        const unsigned n = 1u << logn;
        for (unsigned kind = 0; kind < 5 + @NRANDOM@ / 8; kind++) {
            fill(logn, kind > 4 ? 0 : kind);
            for (unsigned mode = 0; mode < 4; mode++) { /* y NULL / given; r separate, = x, = y */
                const uint16_t *yy = mode == 0 ? NULL : y;
                guard(r1, s1, n);
                guard(r2, s2, n);
                mq_muldiv_c(r1, x, yy, z, logn);
                int rc;
                if (mode <= 1) {
                    rc = pqlab_fndsa_mq_muldiv_native(r2, x, yy, z, logn);
                } else {
                    memcpy(r2, mode == 2 ? x : y, 2 * n);
                    rc = logn < 4 ? PQLAB_NATIVE_DECLINED
                         : mode == 2 ? pqlab_fndsa_mq_muldiv_native(r2, r2, y, z, logn)
                                     : pqlab_fndsa_mq_muldiv_native(r2, x, r2, z, logn);
                    if (logn < 4) {
                        guard(r2, s2, n);
                    }
                }
                check_u16("muldiv", logn, kind * 4 + mode, rc);
                n_muldiv++;
            }
            guard(r1, s1, n);
            guard(r2, s2, n);
            mq_mul2add_c(r1, x, y, z, w, logn);
            check_u16("mul2add", logn, kind, pqlab_fndsa_mq_mul2add_native(r2, x, y, z, w, logn));
            if (logn >= 4) { /* r = a */
                memcpy(r2, x, 2 * n);
                if (pqlab_fndsa_mq_mul2add_native(r2, r2, y, z, w, logn) != 0 || memcmp(r1, r2, 2 * n) != 0) {
                    fail("mul2add_alias", logn, kind);
                }
            }
            n_mul2add++;
            guard(r1, s1, n);
            guard(r2, s2, n);
            mq_of_small_c(r1, f8, logn);
            check_u16("of_small", logn, kind, pqlab_fndsa_mq_of_small_native(r2, f8, logn));
            n_small++;
            guard(r1, s1, n);
            guard(r2, s2, n);
            uint64_t sc = mq_norm_c(s1, x, y, hm, logn), sn = 0x123456789ull;
            const int rc = pqlab_fndsa_mq_norm_native(s2, x, y, hm, logn, &sn);
            if (logn < 4) {
                n_declined++;
                if (rc != PQLAB_NATIVE_DECLINED || sn != 0x123456789ull || s2[0] != 0x5A5A) {
                    fail("norm_decline", logn, kind);
                }
            } else if (rc != 0 || sc != sn || memcmp(s1, s2, 2 * (n + G)) != 0) {
                fail("norm", logn, kind);
            }
            n_norm++;
            test_rint(logn, kind % 5);
        }
    }
    printf("counts muldiv=%u mul2add=%u of_small=%u norm=%u of_rint=%u declined=%u\n", n_muldiv, n_mul2add,
           n_small, n_norm, n_rint, n_declined);
    printf("bad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""
)


def test_neon_fndsa_modq_sign_matches_portable(tmp_path: Path) -> None:
    """The coefficient-wise mod-q kernels of complete_private, the public key and signing's end
    (fndsa_modq.c, PQLAB_FNDSA_MODQ_SIGN_NATIVE) against lib/fndsa/modq.c's C loops (the file
    included whole, built without the backend, native-double fpr) for logn 1..10: random, all
    zero, all q - 1 and edge values (0, 1, 2, q - 1, (q-1)/2, (q+1)/2), z with zeros (1/0 = 0);
    muldiv with and without y, its output separate, over x and over y; mul2add also in place;
    of_small over all int8 values; the norm's s2 and 64-bit sum; of_rint on fractions, exact
    halves (ties to even), values next to halves, +-0, subnormals and magnitudes 2^30..2^62 of
    both signs; the words after every output untouched; logn < 4 declined writing nothing."""
    fndsa = ROOT / "lib" / "fndsa"
    f = run_and_parse(
        tmp_path,
        "modq_sign.c",
        FNDSA_MODQ_SIGN_PROGRAM,
        [NATIVE / "fndsa_modq.c", *KECCAK_C],
        include=[fndsa, ROOT / "lib" / "common", ROOT / "lib" / "native"],
        cflags=["-DPQLAB_FNDSA_LOGN=10", "-DPQLAB_NS=pqlab_test_", "-DPQLAB_FNDSA_FPR_NATIVE", "-ffp-contract=off"],
        subst={"@NRANDOM@": str(NRANDOM)},
    )
    kinds = 5 + NRANDOM // 8
    assert int(f["muldiv"]) == 10 * kinds * 4
    assert int(f["mul2add"]) == int(f["of_small"]) == int(f["norm"]) == int(f["of_rint"]) == 10 * kinds
    assert int(f["declined"]) == 3 * kinds * (4 + 1 + 1 + 1 + 1)


FNDSA_BEREXP_PROGRAM = (
    r"""
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "pqlab_hal.h"
/* the C reference: lib/fndsa/sampler.c itself with the native-double fpr layer, built without
 * the backend's defines (its static berexp_threshold is what the kernel must reproduce) */
#include "sampler.c"
#include "fndsa_sampler.h"

"""
    + xorshift_prelude(0x3C6EF372FE94F82B, unit=True)
    + r"""static unsigned int bad, checks;

static double prev[2] = {0.5, 3.0}; /* the two x checked before, for the other lanes of threshold3 */

static void check(double x, double ccs)
{
    const uint64_t want = berexp_threshold(x, ccs);
    const uint64_t got = pqlab_fndsa_berexp_threshold_native(x, ccs, fndsa_expm_c);
    checks++;
    if (want != got) {
        printf("mismatch berexp %a %a %llx %llx\n", x, ccs, (unsigned long long)want, (unsigned long long)got);
        bad++;
    }
    /* the three-lane kernel, x in lane checks % 3, the previous two x in the others */
    double xs[3];
    const unsigned int l = checks % 3;
    xs[l] = x;
    xs[(l + 1) % 3] = prev[0];
    xs[(l + 2) % 3] = prev[1];
    uint64_t t[3];
    pqlab_fndsa_berexp_threshold3_native(t, xs, ccs, fndsa_expm_c);
    for (unsigned int j = 0; j < 3; j++) {
        if (t[j] != berexp_threshold(xs[j], ccs)) {
            printf("mismatch berexp3 lane %u %a %a %llx\n", j, xs[j], ccs, (unsigned long long)t[j]);
            bad++;
        }
    }
    prev[1] = prev[0];
    prev[0] = x;
}

int main(void)
{
    pqlab_hal_setup();
    const double ln2 = 0x1.62e42fefa39efp-1;
    const double ccs_edge[6] = {0.0, 0x1p-60, 0.5, 0x1.fffffffffffffp-1, 0.7, 0x1.0000000000001p-1};
    for (unsigned int k = 0; k < 6; k++) {
        const double ccs = ccs_edge[k];
        for (int s = 0; s <= 70; s++) { /* every s, at and next to s ln 2, and r next to ln 2 */
            const double b = (double)s * ln2;
            check(b, ccs);
            check(nextafter(b, 0.0), ccs);
            check(nextafter(b, 1e9), ccs);
            check(b + 0.5 * ln2, ccs);
        }
        check(0.0, ccs);
        check(-0.0, ccs);
        check(4.9e-324, ccs);
        check(-1e-300, ccs);
        check(-0.25, ccs);
        check(0x1.fffffffffffffp+29, ccs);
        check(12345.678, ccs);
    }
    for (unsigned int i = 0; i < @NRANDOM@ * 400; i++) {
        const double x = i % 4 == 0 ? unit() * ln2 : i % 4 == 1 ? unit() * 50.0 : i % 4 == 2 ? unit() * 2.0 : unit();
        check(x, i % 8 == 0 ? unit() * 0.01 : 0.5 + 0.5 * unit());
    }
    /* SamplerZ's centres: floor and fraction, against fpr_floor / fpr_sub / fpr_of32 */
    unsigned int centres = 0;
    for (unsigned int i = 0; i < @NRANDOM@ * 400; i++) {
        double mu[2];
        for (unsigned int j = 0; j < 2; j++) {
            const double base = (double)((int64_t)(next64() % 4001) - 2000);
            const unsigned int kind = (i + j) % 8;
            mu[j] = kind == 0   ? base
                    : kind == 1 ? nextafter(base, -1e9)
                    : kind == 2 ? nextafter(base, 1e9)
                    : kind == 3 ? base + 0.5
                    : kind == 4 ? (unit() - 0.5) * 0x1p31
                    : kind == 5 ? (i % 3 == 0 ? -0.0 : i % 3 == 1 ? -0x1p-1074 : 0x1p-1030)
                    : kind == 6 ? (i & 1 ? 0x1.fffffffcp30 : -0x1p31 + 1.0)
                                : (unit() - 0.5) * 400.0;
        }
        int32_t sn[2];
        double rn[2];
        pqlab_fndsa_samplerz_centres_native(sn, rn, mu);
        for (unsigned int j = 0; j < 2; j++) {
            const int32_t sc = (int32_t)fpr_floor(mu[j]);
            const double rc = fpr_sub(mu[j], fpr_of32(sc));
            centres++;
            if (sn[j] != sc || memcmp(&rn[j], &rc, sizeof rc) != 0) {
                printf("mismatch centres %a %d %d %a %a\n", mu[j], (int)sc, (int)sn[j], rc, rn[j]);
                bad++;
            }
        }
    }
    printf("counts berexp=%u centres=%u\n", checks, centres);
    printf("bad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""
)


def test_neon_fndsa_berexp_threshold_matches_portable(tmp_path: Path) -> None:
    """BerExp's threshold (fndsa_sampler.c) against lib/fndsa/sampler.c's berexp_threshold on
    native doubles (the file included whole, built as the `fpu` implementation is, without the
    backend): x at, just below and just above every multiple s ln 2 for s = 0..70 (the
    saturation of s at 63 included) and halfway between, +-0, a subnormal, small negative x, x
    next to 2^30, random x in [0, ln 2), [0, 50), [0, 2), [0, 1), with ccs 0, 2^-60, 1/2, the
    largest double below 1 and random values; every 64-bit result equal; the three-lane kernel
    (threshold3) likewise, each x in each lane next to two others; SamplerZ's centres (floor and
    fraction, FCVTMS) against fpr_floor / fpr_sub on integers, their neighbours, halves, +-0, the
    smallest negative subnormal, values next to +-2^31 and random ones: every bit."""
    fndsa = ROOT / "lib" / "fndsa"
    f = run_and_parse(
        tmp_path,
        "berexp.c",
        FNDSA_BEREXP_PROGRAM,
        [NATIVE / "fndsa_sampler.c", *KECCAK_C],
        include=[fndsa, ROOT / "lib" / "common", ROOT / "lib" / "native"],
        cflags=["-DPQLAB_FNDSA_LOGN=9", "-DPQLAB_NS=pqlab_test_", "-DPQLAB_FNDSA_FPR_NATIVE", "-ffp-contract=off"],
        subst={"@NRANDOM@": str(NRANDOM)},
    )
    assert int(f["berexp"]) == 6 * (71 * 4 + 7) + NRANDOM * 400
    assert int(f["centres"]) == 2 * NRANDOM * 400


FNDSA_SAMPLERZ_PAIR_PROGRAM = (
    r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
/* lib/fndsa/sampler.c itself, built with the backend's sampler defines and the native-double fpr
 * layer (as the `fpu` implementation on this backend): fndsa_samplerz_leaf is the pair sampler */
#include "sampler.c"

"""
    + xorshift_prelude(0x510E527FADE682D1, unit=True)
    + r"""static unsigned int bad, pairs, fallback, dropped, next_call, same_call, wasted, forced;

/* The two SamplerZ calls of a leaf, candidate by candidate with the ordinary PRNG calls (the
 * serial semantics of fndsa_samplerz), grouped into the pair sampler's rounds to count which of
 * its cases occurred: A alone (pointer > 500), B dropped (A's comparison read more than one byte),
 * B used for A's call or for the next call, B not needed (the second call ended with A). */
static void walk(fndsa_sampler *sc, double mu_a, double mu_b, double isg, int32_t out[2])
{
    const double mu[2] = {mu_a, mu_b};
    const double dss = fpr_half(fpr_sqr(isg)), ccs = fpr_mul(isg, sc->sigma_min);
    int k = 0, in_round = 0;
    while (k < 2) {
        const int32_t s = (int32_t)fpr_floor(mu[k]);
        const double r = fpr_sub(mu[k], fpr_of32(s));
        const int32_t z0 = fndsa_base_sampler(&sc->p);
        const int32_t bit = (int32_t)(fndsa_prng_get_u8(&sc->p) & 1);
        const int32_t z = bit + ((bit << 1) - 1) * z0;
        const size_t q = sc->p.ptr;
        unsigned nbytes;
        const int acc = berexp_lazy(&sc->p, pqlab_fndsa_berexp_threshold_native(candidate_x(z, z0, r, dss), ccs,
                                                                                fndsa_expm_c),
                                    &nbytes);
        if (!in_round) { /* this candidate is a round's A */
            if (q > 500) {
                fallback++;
            } else if (nbytes != 1) {
                dropped++;
            } else if (acc && k == 1) {
                wasted++;
            } else {
                in_round = 1; /* the next candidate is this round's B */
                if (acc) {
                    next_call++;
                } else {
                    same_call++;
                }
            }
        } else {
            in_round = 0;
        }
        if (acc) {
            out[k] = s + z;
            k++;
        }
    }
}

/* a PRNG at pointer ptr of a fresh refill (random key and counter) */
static void prng_at(fndsa_prng *p, size_t ptr)
{
    for (int i = 0; i < 12; i++) {
        p->key[i] = (uint32_t)next64();
    }
    p->cc = next64();
    prng_refill(p);
    p->ptr = ptr;
}

static void check(const fndsa_sampler *start, double mu_a, double mu_b, double isg)
{
    fndsa_sampler s1 = *start, s2 = *start, s3 = *start;
    const int32_t a1 = fndsa_samplerz(&s1, mu_a, isg), b1 = fndsa_samplerz(&s1, mu_b, isg);
    double a2 = mu_a, b2 = mu_b;
    fndsa_samplerz_leaf(&s2, &a2, &b2, isg);
    int32_t w[2];
    walk(&s3, mu_a, mu_b, isg, w);
    pairs++;
    if (a2 != (double)a1 || b2 != (double)b1 || w[0] != a1 || w[1] != b1 ||
        memcmp(&s1.p, &s2.p, sizeof s1.p) != 0 || memcmp(&s1.p, &s3.p, sizeof s1.p) != 0) {
        printf("mismatch pair mu %a %a isigma %a ptr %u: serial %d %d ptr %u, pair %.0f %.0f ptr %u\n", mu_a, mu_b,
               isg, (unsigned)start->p.ptr, (int)a1, (int)b1, (unsigned)s1.p.ptr, a2, b2, (unsigned)s2.p.ptr);
        bad++;
    }
}

int main(void)
{
    pqlab_hal_setup();
    static fndsa_sampler sc;
    const double sigma_min[2] = {1.2778336969128337, 1.298280334344292}; /* Falcon-512, -1024 */
    for (unsigned int i = 0; i < @NPAIRS@; i++) {
        sc.sigma_min = sigma_min[i & 1];
        /* every pointer 480..511 (both sides of the refill bound 500) often, the rest at random */
        prng_at(&sc.p, i % 3 == 0 ? 480 + (i / 3) % 32 : (size_t)(next64() % 512));
        const double isg = 1.0 / (sc.sigma_min + unit() * (1.8205 - sc.sigma_min));
        double mu_a = (unit() - 0.5) * 400.0, mu_b = (unit() - 0.5) * 400.0;
        if (i % 7 == 0) {
            mu_a = (double)(int)mu_a; /* integer and half-integer centres */
            mu_b = (double)(int)mu_b + 0.5;
        }
        if (i % 5 == 0 && sc.p.ptr <= 490) {
            /* force the first candidate's lazy comparison past its first byte: the byte at its Q
             * is set to the top byte of its threshold (computed on a copy) */
            fndsa_sampler c = sc;
            const int32_t s = (int32_t)fpr_floor(mu_a);
            const int32_t z0 = fndsa_base_sampler(&c.p);
            const int32_t bit = (int32_t)(fndsa_prng_get_u8(&c.p) & 1);
            const int32_t z = bit + ((bit << 1) - 1) * z0;
            const double ccs = fpr_mul(isg, sc.sigma_min);
            const uint64_t t = pqlab_fndsa_berexp_threshold_native(
                candidate_x(z, z0, fpr_sub(mu_a, fpr_of32(s)), fpr_half(fpr_sqr(isg))), ccs, fndsa_expm_c);
            sc.p.buf[c.p.ptr] = (uint8_t)(t >> 56);
            if (i % 10 == 0) {
                sc.p.buf[c.p.ptr + 1] = (uint8_t)(t >> 48);
            }
            forced++;
        }
        check(&sc, mu_a, mu_b, isg);
    }
    printf("counts pairs=%u fallback=%u dropped=%u next_call=%u same_call=%u wasted=%u forced=%u\n", pairs, fallback,
           dropped, next_call, same_call, wasted, forced);
    printf("bad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""
)


def test_neon_fndsa_samplerz_pair_matches_serial(tmp_path: Path) -> None:
    """The pair sampler of an ffSampling leaf (sampler.c's fndsa_samplerz_leaf with the backend:
    two candidates in flight, the second read in place from the PRNG buffer and its threshold
    evaluated next to the first's) against two fndsa_samplerz calls one after the other: the same
    two samples and the same PRNG state afterwards (buffer, pointer, key, counter: every byte of
    the stream consumed at the same position), from pointers 480..511 around the refill bound
    and random ones, with random centres (integer and half-integer ones too) and sigma' between
    sigma_min and sigma0; first candidates forced to a lazy comparison of two or more bytes. A
    serial walk counts the pair sampler's cases, and each must occur: A alone near the refill,
    B dropped, B used for A's call and for the next call, B not needed."""
    fndsa = ROOT / "lib" / "fndsa"
    f = run_and_parse(
        tmp_path,
        "samplerz_pair.c",
        FNDSA_SAMPLERZ_PAIR_PROGRAM,
        [NATIVE / "fndsa_sampler.c", NATIVE / "fndsa_fft.c", ROOT / "lib/common/fips202.c"],
        include=[fndsa, ROOT / "lib" / "common", ROOT / "lib" / "native"],
        cflags=[
            "-DPQLAB_FNDSA_LOGN=9",
            "-DPQLAB_NS=pqlab_test_",
            "-DPQLAB_FNDSA_FPR_NATIVE",
            "-DPQLAB_FNDSA_BEREXP_NATIVE",
            "-DPQLAB_FNDSA_RCDT_NATIVE",
            "-DPQLAB_FNDSA_PRNG_NATIVE",
            "-fno-math-errno",
            "-ffp-contract=off",
        ],
        subst={"@NPAIRS@": "6000"},
    )
    assert int(f["pairs"]) == 6000
    assert int(f["forced"]) >= 500
    for case in ("fallback", "dropped", "next_call", "same_call", "wasted"):
        assert int(f[case]) > 0, (case, f)


FNDSA_FFT_PROGRAM = (
    r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fndsa.h"
#include "fndsa_fft.h"
#include "fndsa_sampler.h"
#include "tables.h"

"""
    + xorshift_prelude(0x6A09E667F3BCC909)
    + r"""/* random binary64: sign, exponent 2^-40 .. 2^40, full mantissa; kind 1: small integers
 * (as after fpr_of32 of a key), kind 2: positive (a self-adjoint norm) */
static double rnd(unsigned int kind)
{
    uint64_t r = next64();
    if (kind == 1) {
        return (double)((int64_t)(r % 4097) - 2048);
    }
    uint64_t e = 1023 - 40 + (r >> 52) % 81;
    uint64_t bits = (e << 52) | (next64() & ((1ull << 52) - 1));
    if (kind != 2) {
        bits |= r << 63;
    }
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}
static void fill(double *a, size_t n, unsigned int kind)
{
    for (size_t i = 0; i < n; i++) {
        a[i] = rnd(kind);
    }
}

#define NK 17
static const char *names[NK] = {"fft", "ifft", "split", "merge", "add", "sub", "neg", "adj", "mulconst",
                                "mul", "mul_bytes", "muladj", "mulselfadj", "mul_autoadj", "div_autoadj",
                                "invnorm2", "ldl"};
static unsigned int done[NK], declined[NK], bad;
static double a0[1024], b0[1024], c0[1024], xa[1024], xb[1024], xc[1024], ya[1024], yb[1024], yc[1024], t1[1024],
    t2[1024];
static uint8_t bytes[8 * 1024 + 8];

/* compare n doubles of the C's result x with the kernel's y (or, when declined, with the input o) */
static void check(unsigned int k, int r, unsigned int logn, unsigned int c, const double *x, const double *y,
                  const double *o, size_t n)
{
    if (r == PQLAB_NATIVE_DONE) {
        if (memcmp(x, y, n * sizeof(double)) != 0) {
            for (size_t i = 0; i < n; i++) {
                if (memcmp(&x[i], &y[i], sizeof(double)) != 0) {
                    printf("mismatch %s logn %u case %u index %u C %a native %a\n", names[k], logn, c, (unsigned)i,
                           x[i], y[i]);
                    break;
                }
            }
            bad++;
        }
    } else if (memcmp(o, y, n * sizeof(double)) != 0) {
        printf("mismatch %s_declined_but_wrote logn %u case %u\n", names[k], logn, c);
        bad++;
    }
}

#define SETUP(n)                                                                                                       \
    do {                                                                                                               \
        memcpy(xa, a0, (n) * sizeof(double));                                                                          \
        memcpy(ya, a0, (n) * sizeof(double));                                                                          \
        memcpy(xb, b0, (n) * sizeof(double));                                                                          \
        memcpy(yb, b0, (n) * sizeof(double));                                                                          \
        memcpy(xc, c0, (n) * sizeof(double));                                                                          \
        memcpy(yc, c0, (n) * sizeof(double));                                                                          \
    } while (0)
#define COUNT(k, r) ((r) == PQLAB_NATIVE_DONE ? done[k]++ : declined[k]++)

int main(void)
{
    pqlab_hal_setup();
    for (unsigned int logn = 1; logn <= 10; logn++) {
        const size_t n = (size_t)1 << logn, hn = n >> 1;
        for (unsigned int c = 0; c < @NCASES@; c++) {
            const unsigned int kind = c % 2;
            int r;
            fill(a0, n, kind);
            fill(b0, n, kind);
            fill(c0, n, 2);
            /* FFT, then the inverse of the C's result */
            SETUP(n);
            fndsa_fft(xa, logn, t1);
            r = pqlab_fndsa_fft_native(ya, logn, t2);
            COUNT(0, r);
            check(0, r, logn, c, xa, ya, a0, n);
            memcpy(ya, xa, n * sizeof(double));
            memcpy(yb, xa, n * sizeof(double));
            fndsa_ifft(xa, logn, t1);
            r = pqlab_fndsa_ifft_native(ya, logn, t2);
            COUNT(1, r);
            check(1, r, logn, c, xa, ya, yb, n);
            /* split into (xb, xb + hn), merge back from (b0, b0 + hn) */
            SETUP(n);
            fndsa_poly_split_fft(xb, xb + hn, xa, logn);
            r = pqlab_fndsa_poly_split_fft_native(yb, yb + hn, ya, logn);
            COUNT(2, r);
            check(2, r, logn, c, xb, yb, b0, n);
            SETUP(n);
            fndsa_poly_merge_fft(xa, xb, xb + hn, logn);
            r = pqlab_fndsa_poly_merge_fft_native(ya, yb, yb + hn, logn);
            COUNT(3, r);
            check(3, r, logn, c, xa, ya, a0, n);
#define BINARY(k, cfun, nfun)                                                                                          \
    SETUP(n);                                                                                                          \
    cfun(xa, xb, logn);                                                                                                \
    r = nfun(ya, yb, logn);                                                                                            \
    COUNT(k, r);                                                                                                       \
    check(k, r, logn, c, xa, ya, a0, n);                                                                               \
    SETUP(n);                                                                                                          \
    cfun(xa, xa, logn); /* a == b */                                                                                   \
    r = nfun(ya, ya, logn);                                                                                            \
    check(k, r, logn, c, xa, ya, a0, n)
#define UNARY(k, cfun, nfun)                                                                                           \
    SETUP(n);                                                                                                          \
    cfun(xa, logn);                                                                                                    \
    r = nfun(ya, logn);                                                                                                \
    COUNT(k, r);                                                                                                       \
    check(k, r, logn, c, xa, ya, a0, n)
            BINARY(4, fndsa_poly_add, pqlab_fndsa_poly_add_native);
            BINARY(5, fndsa_poly_sub, pqlab_fndsa_poly_sub_native);
            UNARY(6, fndsa_poly_neg, pqlab_fndsa_poly_neg_native);
            UNARY(7, fndsa_poly_adj_fft, pqlab_fndsa_poly_adj_fft_native);
            SETUP(n);
            fndsa_poly_mulconst(xa, b0[0], logn);
            r = pqlab_fndsa_poly_mulconst_native(ya, b0[0], logn);
            COUNT(8, r);
            check(8, r, logn, c, xa, ya, a0, n);
            BINARY(9, fndsa_poly_mul_fft, pqlab_fndsa_poly_mul_fft_native);
            /* b as bytes at alignment c % 8 */
            SETUP(n);
            memcpy(bytes + c % 8, b0, n * sizeof(double));
            fndsa_poly_mul_fft_bytes(xa, bytes + c % 8, logn);
            r = pqlab_fndsa_poly_mul_fft_bytes_native(ya, bytes + c % 8, logn);
            COUNT(10, r);
            check(10, r, logn, c, xa, ya, a0, n);
            BINARY(11, fndsa_poly_muladj_fft, pqlab_fndsa_poly_muladj_fft_native);
            UNARY(12, fndsa_poly_mulselfadj_fft, pqlab_fndsa_poly_mulselfadj_fft_native);
            /* self-adjoint b: the positive values of c0 */
            SETUP(n);
            fndsa_poly_mul_autoadj_fft(xa, xc, logn);
            r = pqlab_fndsa_poly_mul_autoadj_fft_native(ya, yc, logn);
            COUNT(13, r);
            check(13, r, logn, c, xa, ya, a0, n);
            SETUP(n);
            fndsa_poly_div_autoadj_fft(xa, xc, logn);
            r = pqlab_fndsa_poly_div_autoadj_fft_native(ya, yc, logn);
            COUNT(14, r);
            check(14, r, logn, c, xa, ya, a0, n);
            SETUP(n);
            fndsa_poly_invnorm2_fft(xc, xa, xb, logn);
            r = pqlab_fndsa_poly_invnorm2_fft_native(yc, ya, yb, logn);
            COUNT(15, r);
            check(15, r, logn, c, xc, yc, c0, hn);
            check(15, r, logn, c, xa, ya, a0, n); /* inputs untouched */
            /* LDL: g00 = c0 (positive), g01 = a0, g11 = b0 */
            SETUP(n);
            fndsa_poly_ldl_fft(xc, xa, xb, logn);
            r = pqlab_fndsa_poly_ldl_fft_native(yc, ya, yb, logn);
            COUNT(16, r);
            check(16, r, logn, c, xa, ya, a0, n);
            check(16, r, logn, c, xb, yb, b0, n);
            check(16, r, logn, c, xc, yc, c0, n);
        }
    }
    /* a chain as in signing: FFT of small integers, Gram-like products, LDL, iFFT, 50 rounds */
    for (unsigned int logn = 9; logn <= 10; logn++) {
        const size_t n = (size_t)1 << logn;
        fill(a0, n, 1);
        fill(b0, n, 1);
        SETUP(n);
        for (unsigned int i = 0; i < 50; i++) {
            fndsa_fft(xa, logn, t1);
            fndsa_fft(xb, logn, t1);
            memcpy(xc, xa, n * sizeof(double));
            fndsa_poly_mulselfadj_fft(xc, logn);
            fndsa_poly_add(xc, xb, logn);
            fndsa_poly_mulselfadj_fft(xc, logn);
            fndsa_poly_ldl_fft(xc, xa, xb, logn);
            fndsa_ifft(xa, logn, t1);
            fndsa_ifft(xb, logn, t1);
            pqlab_fndsa_fft_native(ya, logn, t2);
            pqlab_fndsa_fft_native(yb, logn, t2);
            memcpy(yc, ya, n * sizeof(double));
            pqlab_fndsa_poly_mulselfadj_fft_native(yc, logn);
            pqlab_fndsa_poly_add_native(yc, yb, logn);
            pqlab_fndsa_poly_mulselfadj_fft_native(yc, logn);
            pqlab_fndsa_poly_ldl_fft_native(yc, ya, yb, logn);
            pqlab_fndsa_ifft_native(ya, logn, t2);
            pqlab_fndsa_ifft_native(yb, logn, t2);
        }
        if (memcmp(xa, ya, n * sizeof(double)) != 0 || memcmp(xb, yb, n * sizeof(double)) != 0) {
            printf("mismatch chain logn %u\n", logn);
            bad++;
        }
    }
    /* base sampler: #{i : u < RCDT[i]} by 128-bit comparison, at every entry's u = t - 1, t,
     * t + 1 (72-bit wrap), 0, 2^72 - 1 and random u */
    unsigned int n_rcdt = 0;
    for (unsigned int i = 0; i < 18 * 3 + 2 + 2000; i++) {
        unsigned __int128 u;
        if (i < 18 * 3) {
            const unsigned __int128 t = ((unsigned __int128)fndsa_rcdt[i / 3][0] << 48) |
                                        ((unsigned __int128)fndsa_rcdt[i / 3][1] << 24) | fndsa_rcdt[i / 3][2];
            u = t + (unsigned __int128)(i % 3) - 1;
        } else if (i == 18 * 3) {
            u = 0;
        } else if (i == 18 * 3 + 1) {
            u = ~(unsigned __int128)0;
        } else {
            u = ((unsigned __int128)next64() << 64) | next64();
        }
        u &= ((unsigned __int128)1 << 72) - 1;
        int want = 0;
        for (unsigned int k = 0; k < 18; k++) {
            const unsigned __int128 t = ((unsigned __int128)fndsa_rcdt[k][0] << 48) |
                                        ((unsigned __int128)fndsa_rcdt[k][1] << 24) | fndsa_rcdt[k][2];
            want += u < t;
        }
        const int got = pqlab_fndsa_rcdt_count_native((uint64_t)u, (uint32_t)(u >> 64));
        n_rcdt++;
        if (got != want) {
            printf("mismatch rcdt case %u native %d want %d\n", i, got, want);
            bad++;
        }
        /* the two-value kernel: u in lane i % 2, the previous u in the other */
        static unsigned __int128 prev_u;
        static int prev_want;
        uint64_t lo2[2];
        uint32_t hi2[2];
        int got2[2];
        lo2[i % 2] = (uint64_t)u;
        hi2[i % 2] = (uint32_t)(u >> 64);
        lo2[1 - i % 2] = (uint64_t)prev_u;
        hi2[1 - i % 2] = (uint32_t)(prev_u >> 64);
        pqlab_fndsa_rcdt_count2_native(got2, lo2, hi2);
        if (got2[i % 2] != want || (i > 0 && got2[1 - i % 2] != prev_want)) {
            printf("mismatch rcdt2 case %u\n", i);
            bad++;
        }
        prev_u = u;
        prev_want = want;
    }
    printf("counts rcdt=%u\n", n_rcdt);
    printf("counts");
    for (unsigned int k = 0; k < NK; k++) {
        printf(" %s=%u %s_declined=%u", names[k], done[k], names[k], declined[k]);
    }
    printf("\nbad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""
)

# kernels of lib/native/fndsa_fft.h with the smallest logn each handles (smaller ones decline)
FNDSA_FFT_MIN_LOGN = {
    "fft": 3,
    "ifft": 3,
    "split": 1,
    "merge": 1,
    "add": 1,
    "sub": 1,
    "neg": 1,
    "adj": 2,
    "mulconst": 1,
    "mul": 2,
    "mul_bytes": 2,
    "muladj": 2,
    "mulselfadj": 2,
    "mul_autoadj": 2,
    "div_autoadj": 2,
    "invnorm2": 2,
    "ldl": 2,
}
FNDSA_FFT_CASES = 6


def test_neon_fndsa_fft_bit_identical_to_portable(tmp_path: Path) -> None:
    """FN-DSA's FFT layer (fndsa_fft.c) against lib/fndsa/fft.c on native doubles (the `fpu`
    implementation's layer, compiled without the backend's defines and with -ffp-contract=off,
    as its pqlab.toml builds it): FFT, inverse FFT, split, merge and every coefficient-wise
    kernel and LDL for logn 1..10 on random binary64 values (full mantissas, exponents
    2^-40..2^40, both signs) and small integers, b at every byte alignment for the expanded-key
    product, a == b aliasing; every output double must have the C's bits (memcmp), a declined
    call must leave its outputs untouched, and the counts of calls run / declined must be the
    expected ones. A 50-round chain FFT / norms / LDL / iFFT at logn 9 and 10 catches drift.
    fndsa_fft.c gets no -ffp-contract=off: its own pragma must keep FMLA out. The base
    sampler's RCDT count against 128-bit comparisons at every table entry's edges and on
    random 72-bit values."""
    fndsa = ROOT / "lib" / "fndsa"
    fft_c = fndsa / "fft.c"
    src = tmp_path / "fndsa_fft_test.c"
    f = run_and_parse(
        tmp_path,
        src.name,
        FNDSA_FFT_PROGRAM,
        [fft_c, NATIVE / "fndsa_fft.c"],
        include=[fndsa, ROOT / "lib" / "native", ROOT / "lib" / "common"],
        cflags=["-DPQLAB_FNDSA_FPR_NATIVE", "-DPQLAB_NS=pqlab_test_", "-fno-math-errno"],
        per_source=lambda p: ["-ffp-contract=off"] if p.resolve() in (fft_c.resolve(), src.resolve()) else [],
        subst={"@NCASES@": str(FNDSA_FFT_CASES)},
    )
    assert int(f["rcdt"]) == 18 * 3 + 2 + 2000
    for k, lo in FNDSA_FFT_MIN_LOGN.items():
        assert int(f[k]) == (11 - lo) * FNDSA_FFT_CASES, (k, f[k])
        assert int(f[f"{k}_declined"]) == (lo - 1) * FNDSA_FFT_CASES, (k, f[f"{k}_declined"])


FNDSA_PRNG_PROGRAM = r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fndsa.h"
#include "fndsa_sampler.h"

static unsigned int bad, checks;
int main(void)
{
    static const uint64_t counters[] = {0, 1, 0xFFFFFFFCull, 0xFFFFFFFFull, 0x123456789ABCDEF0ull,
                                        0xFFFFFFFFFFFFFFFBull};
    pqlab_hal_setup();
    for (unsigned int c = 0; c < 24; c++) {
        /* the C's PRNG (sampler.c without the backend) seeded from SHAKE256 of a varying input */
        pqlab_keccak_state sh;
        uint8_t seed[4] = {(uint8_t)c, 1, 2, 3};
        fndsa_prng p;
        uint8_t buf[512 + 16];
        pqlab_shake256_init(&sh);
        pqlab_shake256_absorb(&sh, seed, sizeof seed);
        pqlab_shake256_finalize(&sh);
        fndsa_prng_init(&p, &sh); /* the first refill: counters p.cc - 8 .. p.cc - 1 */
        if (c >= 18) { /* a chosen counter: the next refill (get_u64 at the end of the buffer) */
            p.cc = counters[c - 18];
            p.ptr = sizeof p.buf - 9;
            (void)fndsa_prng_get_u64(&p);
        }
        const uint64_t cc = p.cc - 8;
        pqlab_fndsa_prng_refill_native(buf + c % 16, p.key, cc);
        checks++;
        if (memcmp(buf + c % 16, p.buf, 512) != 0) {
            printf("mismatch prng case %u counter %llu\n", c, (unsigned long long)cc);
            bad++;
        }
    }
    printf("counts prng=%u\n", checks);
    printf("bad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""


def test_neon_fndsa_prng_refill_matches_portable(tmp_path: Path) -> None:
    """The sampler's PRNG refill (eight ChaCha20 blocks, interleaved) against sampler.c's own
    (built without the backend): 18 keys from SHAKE256 with their initial counters and 6 chosen
    counters around 2^32 and 2^64 (the carry into word 15 and the wrap), output at 16 byte
    alignments, every byte."""
    fndsa = ROOT / "lib" / "fndsa"
    f = run_and_parse(
        tmp_path,
        "prng.c",
        FNDSA_PRNG_PROGRAM,
        [fndsa / "sampler.c", fndsa / "fft.c", ROOT / "lib/common/fips202.c", NATIVE / "fndsa_fft.c"],
        include=[fndsa, ROOT / "lib" / "native", ROOT / "lib" / "common"],
        cflags=["-DPQLAB_FNDSA_FPR_NATIVE", "-DPQLAB_NS=pqlab_test_", "-fno-math-errno", "-ffp-contract=off"],
    )
    assert int(f["prng"]) == 24


def test_neon_fndsa_fft_fma_option_changes_results(tmp_path: Path) -> None:
    """PQLAB_FNDSA_FMA (fused multiply-add in fndsa_fft.c, off by default) takes effect: the
    same program with the option on the kernel file finds FFT values that differ from the C's
    (the reason it is off: not KAT-exact), close to the C's for small-integer inputs."""
    fndsa = ROOT / "lib" / "fndsa"
    kernel = NATIVE / "fndsa_fft.c"
    out = run_kernel_program(
        tmp_path,
        "fndsa_fft_test.c",
        FNDSA_FFT_PROGRAM,
        [fndsa / "fft.c", kernel],
        include=[fndsa, ROOT / "lib" / "native", ROOT / "lib" / "common"],
        cflags=["-DPQLAB_FNDSA_FPR_NATIVE", "-DPQLAB_NS=pqlab_test_", "-fno-math-errno", "-ffp-contract=off"],
        per_source=lambda p: ["-DPQLAB_FNDSA_FMA"] if p.resolve() == kernel.resolve() else [],
        subst={"@NCASES@": "2"},
    )
    lines = out.splitlines()
    assert lines and lines[-1] == "end", out[-2000:]
    mism = [ln.split() for ln in lines if ln.startswith("mismatch ")]
    kinds = {m[1] for m in mism}
    assert {"fft", "ifft", "mul", "ldl"} <= kinds, kinds
    # the kernels without a product sum (add, sub, neg, ...) and the sampler stay exact
    assert not kinds & {"add", "sub", "neg", "adj", "mulconst", "mul_autoadj", "div_autoadj", "rcdt"}, kinds
    # "mismatch <kernel> logn L case C index I C <hex> native <hex>": the FFT of the small-integer
    # inputs (odd cases; values up to about 2^21) differs in the last bits only (products of
    # arbitrary doubles may cancel, and there FMA's single rounding changes the result entirely)
    pairs = [
        (float.fromhex(m[9]), float.fromhex(m[11]))
        for m in mism
        if len(m) == 12 and m[1] in ("fft", "ifft") and int(m[5]) % 2 == 1 and m[8] == "C"
    ]
    assert pairs, mism
    for want, got in pairs:
        assert abs(got - want) <= 1e-6, (want, got)


def test_fndsa_fft_tables_generator_output_is_committed() -> None:
    res = subprocess.run(
        [sys.executable, str(NATIVE / "gen_fndsa_fft_tables.py")], capture_output=True, check=True, text=True
    )
    assert res.stdout == (NATIVE / "fndsa_fft_tables.h").read_text()


# the CPU model of each platform and what it has (QEMU 7.2: cortex-a72 has FEAT_SHA256 and
# FEAT_PMULL, not FEAT_SHA3; max has all three)
PLATFORMS = {
    "aarch64-qemu": {"sha3": 0, "sha256": 1, "pmull": 1},
    "aarch64-qemu-max": {"sha3": 1, "sha256": 1, "pmull": 1},
}


def run_program(platform: str, tmp: Path) -> dict[str, str]:
    sources = [
        ROOT / "lib/common/fips202.c",
        ROOT / "lib/common/sha2.c",
        NATIVE / "cpu.c",
        NATIVE / "keccak.c",
        NATIVE / "sha256.c",
    ]
    # no backend defines: fips202.c and sha2.c are the portable reference
    return run_and_parse(tmp, "diff.c", PROGRAM, sources, platform=platform, subst={"@NRANDOM@": str(NRANDOM)})


@pytest.mark.parametrize("platform", sorted(PLATFORMS))
def test_neon_kernels_match_portable(platform: str, tmp_path: Path) -> None:
    f = run_program(platform, tmp_path)
    want = PLATFORMS[platform]
    assert int(f["sha3"]) == want["sha3"], f"{platform}: run-time detection says sha3={f['sha3']}"
    assert int(f["sha256"]) == want["sha256"], f"{platform}: run-time detection says sha256={f['sha256']}"
    assert int(f["pmull"]) == want["pmull"], f"{platform}: run-time detection says pmull={f['pmull']}"
    ncases = 27 + NRANDOM
    # with FEAT_SHA3 every one-state call runs natively, without it every one declines
    assert int(f["x1"]) == (ncases if want["sha3"] else 0)
    assert int(f["x1_declined"]) == (0 if want["sha3"] else ncases)
    assert int(f["x2_neon"]) == ncases and int(f["x4"]) == ncases
    assert int(f["x2_sha3"]) == (ncases if want["sha3"] else 0)
    assert int(f["sha256_native"]) == (6 * 8 if want["sha256"] else 0)
    assert int(f["sha256_declined"]) == (0 if want["sha256"] else 6 * 8)


@pytest.mark.parametrize(("machine", "expect"), [("aarch64", True), ("arm64", True), ("x86_64", False)])
def test_host_platform_takes_the_backend_on_aarch64(
    machine: str, expect: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """platforms/host/platform.toml's backends_on_machine: the host build gets the backend
    exactly when the build machine is AArch64 (pqlab.build.backends)."""
    from pqlab import build
    from pqlab.platforms import get_platform

    monkeypatch.setattr(build._platform, "machine", lambda: machine)
    srcs, flags = build.backends.__wrapped__(get_platform("host"))
    assert ('-DPQLAB_NATIVE_META_HEADER="aarch64/meta.h"' in flags) == expect
    assert (NATIVE / "keccak.c" in srcs) == expect


HAWK_PROGRAM = (
    r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
/* the C reference: lib/hawk/sampler.c itself, compiled without the backend's defines (its
 * static tables and C kernels are what the native kernels must reproduce) */
#include "sampler.c"

"""
    + xorshift_prelude(0x243F6A8885A308D3)
    + r"""
static unsigned int bad, n_sample, n_mul2, n_declined;

static void put64(uint8_t *p, uint64_t x)
{
    for (unsigned i = 0; i < 8; i++) {
        p[i] = (uint8_t)(x >> (8 * i));
    }
}

/* sample r = 4 j + k of a group gets the 78-bit value chi 2^64 + clo and sign bit s */
static void set_sample(uint8_t grp[5][32], unsigned r, uint32_t chi, uint64_t clo, unsigned s)
{
    unsigned j = r / 4, k = r % 4;
    uint64_t a = (clo & 0x7FFFFFFFFFFFFFFFull) | ((uint64_t)s << 63);
    uint32_t b = (chi << 1) | (uint32_t)(clo >> 63);
    put64(grp[k] + 8 * j, a);
    uint64_t hiw = le64(grp[4] + 8 * j);
    hiw &= ~((uint64_t)0x7FFF << (16 * k));
    hiw |= (uint64_t)(b & 0x7FFF) << (16 * k);
    put64(grp[4] + 8 * j, hiw);
}

static void check_sample(uint8_t grp[5][32], const uint8_t t[16], unsigned c)
{
    int32_t want[16], got[17];
    got[16] = 0x5A5A5A5A;
    sample16_c(want, (const uint8_t(*)[32])grp, t);
    if (pqlab_hawk_sample16_native(got, (const uint8_t(*)[32])grp, t, T0, (unsigned)T0_LEN, T1, (unsigned)T1_LEN) !=
        PQLAB_NATIVE_DONE) {
        printf("mismatch sample_declined %u\n", c);
        bad++;
        return;
    }
    n_sample++;
    for (unsigned r = 0; r < 16; r++) {
        if (got[r] != want[r]) {
            printf("mismatch sample case %u r %u C %d native %d\n", c, r, (int)want[r], (int)got[r]);
            bad++;
        }
    }
    if (got[16] != 0x5A5A5A5A) {
        printf("mismatch sample_overrun %u\n", c);
        bad++;
    }
}

static void check_mul2(const uint32_t *a, const uint32_t *b, unsigned c)
{
    uint32_t want[HAWK_W + 1], got[HAWK_W + 1], acc0[HAWK_W];
    for (unsigned i = 0; i < HAWK_W; i++) {
        acc0[i] = (uint32_t)next64();
    }
    memcpy(want, acc0, sizeof acc0);
    memcpy(got, acc0, sizeof acc0);
    got[HAWK_W] = 0xA5A5A5A5u;
    mul2_acc_c(want, a, b);
    if (pqlab_hawk_mul2_acc_native(got, a, b, HAWK_LOGN) != PQLAB_NATIVE_DONE) {
        printf("mismatch mul2_declined %u\n", c);
        bad++;
        return;
    }
    n_mul2++;
    if (memcmp(got, want, sizeof acc0) != 0 || got[HAWK_W] != 0xA5A5A5A5u) {
        printf("mismatch mul2 case %u\n", c);
        bad++;
    }
}

int main(void)
{
    pqlab_hal_setup();
    uint8_t grp[5][32], t[16];
    int32_t x[16];
    /* every table entry's edges: c = T - 1, T, T + 1 (over the 80-bit value), both signs, both t */
    for (unsigned tab = 0; tab < 2; tab++) {
        const pqlab_hawk_cdt *T = tab == 0 ? T0 : T1;
        unsigned len = tab == 0 ? (unsigned)T0_LEN : (unsigned)T1_LEN;
        for (unsigned v = 0; v < len; v++) {
            for (unsigned i = 0; i < 5; i++) {
                for (unsigned k = 0; k < 32; k++) {
                    grp[i][k] = (uint8_t)next64();
                }
            }
            for (unsigned r = 0; r < 16; r++) {
                int d = (int)(r % 3) - 1; /* -1, 0, +1 */
                uint64_t lo = T[v].lo + (uint64_t)(int64_t)d;
                uint32_t hi = T[v].hi;
                if (d < 0 && T[v].lo == 0) {
                    hi--;
                } else if (d > 0 && lo == 0) {
                    hi++;
                }
                set_sample(grp, r, hi, lo, (r >> 2) & 1);
                t[r] = (uint8_t)((r >> 3) & 1);
            }
            check_sample(grp, t, 100 * tab + v);
        }
    }
    /* all-zero, all-ones, and random groups with random t */
    for (unsigned c = 0; c < 2 + @NRANDOM@ * 8; c++) {
        for (unsigned i = 0; i < 5; i++) {
            for (unsigned k = 0; k < 32; k++) {
                grp[i][k] = c == 0 ? 0 : c == 1 ? 0xFF : (uint8_t)next64();
            }
        }
        uint64_t tb = next64();
        for (unsigned r = 0; r < 16; r++) {
            t[r] = c < 2 ? (uint8_t)(r & 1) : (uint8_t)((tb >> r) & 1);
        }
        check_sample(grp, t, 1000 + c);
    }
    /* tables longer than the contract: declined, x untouched */
    for (unsigned r = 0; r < 16; r++) {
        x[r] = 77;
    }
    if (pqlab_hawk_sample16_native(x, (const uint8_t(*)[32])grp, t, T0, 17, T1, 1) == PQLAB_NATIVE_DECLINED &&
        pqlab_hawk_sample16_native(x, (const uint8_t(*)[32])grp, t, T0, 1, T1, 17) == PQLAB_NATIVE_DECLINED) {
        n_declined += 2;
    }
    for (unsigned r = 0; r < 16; r++) {
        if (x[r] != 77) {
            printf("mismatch sample_declined_wrote %u\n", r);
            bad++;
        }
    }

    /* GF(2) products: single bits of a and b at the word and vector edges, all-ones, random */
    uint32_t a[HAWK_W], b[HAWK_W];
    static const unsigned pos[] = {0, 1, 31, 32, 127, 128, HAWK_N / 2, HAWK_N - 1};
    for (unsigned c = 0; c < 8; c++) {
        for (unsigned i = 0; i < HAWK_W; i++) {
            a[i] = 0;
            b[i] = (uint32_t)next64();
        }
        a[pos[c] / 32] = 1u << (pos[c] % 32);
        check_mul2(a, b, c);
        for (unsigned i = 0; i < HAWK_W; i++) {
            a[i] = (uint32_t)next64();
            b[i] = 0;
        }
        b[pos[c] / 32] = 1u << (pos[c] % 32);
        check_mul2(a, b, 10 + c);
    }
    for (unsigned c = 0; c < 2 + @NRANDOM@; c++) {
        for (unsigned i = 0; i < HAWK_W; i++) {
            a[i] = c == 0 ? ~0u : (uint32_t)next64();
            b[i] = c <= 1 ? ~0u : (uint32_t)next64();
        }
        check_mul2(a, b, 100 + c);
    }
    /* degrees outside 7..10: declined, acc untouched */
    uint32_t acc[HAWK_W];
    memset(acc, 0x3C, sizeof acc);
    for (unsigned l = 5; l < 12; l += 1) {
        if (l >= 7 && l <= 10) {
            continue;
        }
        if (pqlab_hawk_mul2_acc_native(acc, a, b, l) == PQLAB_NATIVE_DECLINED) {
            n_declined++;
        }
    }
    for (unsigned i = 0; i < HAWK_W; i++) {
        if (acc[i] != 0x3C3C3C3Cu) {
            printf("mismatch mul2_declined_wrote %u\n", i);
            bad++;
        }
    }
    printf("counts hawk_sample=%u hawk_mul2=%u hawk_declined=%u t0=%u t1=%u\n", n_sample, n_mul2, n_declined,
           (unsigned)T0_LEN, (unsigned)T1_LEN);
    printf("bad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""
)


# a CPU without optional extensions for the kernels that ask cpu.h (the GF(2) product's
# fallback without PMULL); every QEMU CPU model of qemu-aarch64 7.2 has PMULL
NO_FEATURES = """#include "aarch64/cpu.h"
unsigned int pqlab_aarch64_features(void) { return 0; }
"""


@pytest.mark.parametrize("pmull", [True, False], ids=["pmull", "no-pmull"])
@pytest.mark.parametrize("logn", [9, 10])
def test_neon_hawk_sign_kernels_match_portable(logn: int, pmull: bool, tmp_path: Path) -> None:
    """Hawk signing's kernels (hawk_sign.c) against lib/hawk/sampler.c's C, included whole
    into the program and built without the backend's defines: SamplerSign's 16-sample count at
    every table entry's edges (c = T - 1, T, T + 1 over the 80-bit value, both signs, both
    tables), on all-zero, all-ones and random groups with random t; the GF(2) product with
    single bits of a or b at word and vector edges, all-ones and random operands, the
    accumulator's neighbour word untouched, with PMULL (cpu.c on the Cortex-A72 model) and
    without (a CPU reporting no optional feature); declines (tables above 16 entries, logn
    outside 7..10) leave the output untouched."""
    hawk = ROOT / "lib" / "hawk"
    cpu = NATIVE / "cpu.c"
    if not pmull:
        cpu = tmp_path / "cpu_none.c"
        cpu.write_text(NO_FEATURES)
    f = run_and_parse(
        tmp_path,
        "hawk.c",
        HAWK_PROGRAM,
        [NATIVE / "hawk_sign.c", cpu],
        include=[hawk, ROOT / "lib" / "common", ROOT / "lib" / "native"],
        cflags=[f"-DPQLAB_HAWK_LOGN={logn}", "-DPQLAB_NS=pqlab_test_"],
        subst={"@NRANDOM@": str(NRANDOM)},
    )
    ntab = int(f["t0"]) + int(f["t1"])
    assert ntab == (13 + 12), f  # the tables of both degrees: 13 (T0) and 12 (T1) entries
    assert int(f["hawk_sample"]) == ntab + 2 + NRANDOM * 8
    assert int(f["hawk_mul2"]) == 16 + 2 + NRANDOM
    assert int(f["hawk_declined"]) == 2 + 3  # n0 or n1 = 17; logn 5, 6, 11


MLKEM_CBD_PROGRAM = (
    r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "kernels.h"
#include "sample_neon.h"

"""
    + xorshift_prelude(0x9E3779B97F4A7C15, next8=True)
    + r"""static unsigned int bad, n_cbd2, n_cbd3;
/* kind 0: random; 1..6: constant bytes 0x00, 0xFF, 0x55, 0xAA, 0x0F, 0xF0 */
static void check(unsigned int eta, unsigned int kind, unsigned int al)
{
    static const uint8_t constant[6] = {0x00, 0xFF, 0x55, 0xAA, 0x0F, 0xF0};
    uint8_t raw[192 + 8];
    int16_t got[256 + 8];
    mlkem_poly want;
    uint8_t *buf = raw + al;
    for (unsigned int i = 0; i < sizeof raw; i++) {
        raw[i] = kind == 0 ? next8() : constant[kind - 1];
    }
    for (unsigned int i = 0; i < 256 + 8; i++) {
        got[i] = 0x5a5a;
    }
    if (eta == 2) {
        pqlab_mlkem_cbd2_neon(got, buf);
        mlkem_cbd_eta2_c(&want, buf); /* MLKEM_ETA2 = 2 */
        n_cbd2++;
    } else {
        pqlab_mlkem_cbd3_neon(got, buf);
        mlkem_cbd_eta1_c(&want, buf); /* ML-KEM-512: MLKEM_ETA1 = 3 */
        n_cbd3++;
    }
    for (unsigned int i = 0; i < 256; i++) {
        if (got[i] != want.c[i]) {
            printf("mismatch cbd%u kind %u align %u coefficient %u native %d C %d\n", eta, kind, al, i, got[i],
                   want.c[i]);
            bad++;
            return;
        }
    }
    for (unsigned int i = 256; i < 256 + 8; i++) {
        if (got[i] != 0x5a5a) {
            printf("mismatch cbd%u_after kind %u\n", eta, kind);
            bad++;
            return;
        }
    }
}
int main(void)
{
    pqlab_hal_setup();
    for (unsigned int eta = 2; eta <= 3; eta++) {
        for (unsigned int kind = 0; kind < 7; kind++) {
            for (unsigned int al = 0; al < 4; al++) {
                for (unsigned int rep = 0; rep < (kind == 0 ? @NRANDOM@ : 1); rep++) {
                    check(eta, kind, al);
                }
            }
        }
    }
    printf("counts cbd2=%u cbd3=%u\n", n_cbd2, n_cbd3);
    printf("bad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""
)


def test_neon_mlkem_cbd_matches_portable(tmp_path: Path) -> None:
    """ML-KEM's CBD (eta 2 and 3) against lib/mlkem/sample.c built for ML-KEM-512 (eta1 = 3,
    eta2 = 2): random inputs and the constant bytes 0x00, 0xFF, 0x55, 0xAA, 0x0F, 0xF0, at byte
    alignments 0..3; all 256 coefficients, nothing written after them."""
    mlkem = ROOT / "lib" / "mlkem"
    f = run_and_parse(
        tmp_path,
        "cbd.c",
        MLKEM_CBD_PROGRAM,
        [mlkem / "sample.c", mlkem / "ntt.c", *KECCAK_C, NATIVE / "sample.c"],
        include=[mlkem, NATIVE],
        cflags=["-DPQLAB_MLKEM_K=2", "-DPQLAB_NS=pqlab_test_"],
        subst={"@NRANDOM@": str(NRANDOM)},
    )
    n = 4 * (NRANDOM + 6)
    assert (int(f["cbd2"]), int(f["cbd3"])) == (n, n)


MLDSA_REJ_ETA_PROGRAM = (
    r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fips202.h"
#include "kernels.h"
#include "sample_neon.h"

"""
    + xorshift_prelude(0x0123456789ABCDEF, next8=True)
    + r"""static unsigned int bad, n_poly, n_step, n_mask;
/* FIPS 204 Algorithm 31's loop body with Algorithm 15, written from the standard */
static unsigned int rej_eta_def(int32_t *a, unsigned int ctr, const uint8_t *buf, size_t len)
{
    for (size_t p = 0; p < len && ctr < 256; p++) {
        const unsigned int z[2] = {buf[p] & 15u, (unsigned int)buf[p] >> 4};
        for (unsigned int h = 0; h < 2 && ctr < 256; h++) {
            if (MLDSA_ETA == 2 && z[h] < 15) {
                a[ctr++] = 2 - (int32_t)(z[h] % 5);
            } else if (MLDSA_ETA == 4 && z[h] < 9) {
                a[ctr++] = 4 - (int32_t)z[h];
            }
        }
    }
    return ctr;
}
/* kind 0: random; 1: all rejected (0xFF); 2: all accepted (0x00); 3: the half-bytes at the
 * bound (eta - 1 .. eta + 1 of the accepted range's end) */
static void step_case(unsigned int ctr0, size_t len, unsigned int kind, unsigned int al)
{
    uint8_t raw[PQLAB_SHAKE256_RATE + 16];
    int32_t got[256 + 8], want[256 + 8];
    const unsigned int edge[3] = {MLDSA_ETA == 2 ? 14 : 8, MLDSA_ETA == 2 ? 15 : 9, MLDSA_ETA == 2 ? 13 : 7};
    uint8_t *buf = raw + al;
    for (unsigned int i = 0; i < sizeof raw; i++) {
        const uint8_t r = next8();
        raw[i] = kind == 0   ? r
                 : kind == 1 ? 0xFF
                 : kind == 2 ? 0x00
                             : (uint8_t)(edge[r % 3] | (edge[(r >> 4) % 3] << 4));
    }
    for (unsigned int i = 0; i < 256 + 8; i++) {
        got[i] = want[i] = (int32_t)0x5a5a5a5a;
    }
    const unsigned int n0 = pqlab_mldsa_rej_eta_neon(got, ctr0, buf, len, MLDSA_ETA);
    const unsigned int n1 = rej_eta_def(want, ctr0, buf, len);
    n_step++;
    if (n0 != n1 || memcmp(got, want, sizeof(int32_t) * n1) != 0) {
        printf("mismatch rej_eta ctr %u len %u kind %u align %u: %u vs %u\n", ctr0, (unsigned)len, kind, al, n0, n1);
        bad++;
        return;
    }
    for (unsigned int i = 256; i < 256 + 8; i++) {
        if (got[i] != (int32_t)0x5a5a5a5a) {
            printf("mismatch rej_eta_after ctr %u len %u kind %u\n", ctr0, (unsigned)len, kind);
            bad++;
            return;
        }
    }
}
int main(void)
{
    pqlab_hal_setup();
    static const unsigned int ctrs[] = {0, 1, 100, 239, 240, 241, 248, 250, 255, 256};
    static const size_t lens[] = {0, 1, 7, 8, 9, 15, 16, 17, 135, 136};
    for (unsigned int c = 0; c < sizeof ctrs / sizeof ctrs[0]; c++) {
        for (unsigned int l = 0; l < sizeof lens / sizeof lens[0]; l++) {
            for (unsigned int kind = 0; kind < 4; kind++) {
                step_case(ctrs[c], lens[l], kind, (c + l + kind) % 8);
            }
        }
    }
    /* whole polynomials (SHAKE256 included) against the C */
    for (unsigned int c = 0; c < 4 * @NRANDOM@; c++) {
        uint8_t rhoprime[MLDSA_CRHBYTES];
        mldsa_poly want;
        int32_t got[256];
        for (unsigned int i = 0; i < sizeof rhoprime; i++) {
            rhoprime[i] = next8();
        }
        const uint16_t nonce = (uint16_t)(c < 8 ? c : c * 4099u);
        mldsa_poly_rej_bounded_c(&want, rhoprime, nonce);
        pqlab_mldsa_poly_rej_bounded_neon(got, rhoprime, nonce, MLDSA_ETA);
        n_poly++;
        if (memcmp(got, want.c, sizeof got) != 0) {
            printf("mismatch poly_rej_bounded case %u\n", c);
            bad++;
        }
    }
    /* ExpandMask (one polynomial, and four through the 4-way SHAKE256) against the C */
    static mldsa_poly w4[4], g4[4];
    for (unsigned int c = 0; c < @NRANDOM@; c++) {
        uint8_t rhopp[MLDSA_CRHBYTES];
        for (unsigned int i = 0; i < sizeof rhopp; i++) {
            rhopp[i] = c == 0 ? 0 : c == 1 ? 0xff : next8();
        }
        const uint16_t n4[4] = {(uint16_t)(4 * c), (uint16_t)(4 * c + 1), (uint16_t)(65535 - c), (uint16_t)(c * 4099u)};
        mldsa_poly_expand_mask_x4_c(&w4[0], &w4[1], &w4[2], &w4[3], rhopp, n4);
        pqlab_mldsa_expand_mask_x4_neon(g4[0].c, g4[1].c, g4[2].c, g4[3].c, rhopp, n4, MLDSA_GAMMA1 == (1 << 17) ? 18 : 20);
        n_mask += 4;
        if (memcmp(g4, w4, sizeof g4) != 0) {
            printf("mismatch expand_mask_x4 case %u\n", c);
            bad++;
        }
        mldsa_poly_expand_mask_c(&w4[0], rhopp, n4[3]);
        pqlab_mldsa_expand_mask_neon(g4[0].c, rhopp, n4[3], MLDSA_GAMMA1 == (1 << 17) ? 18 : 20);
        n_mask++;
        if (memcmp(&g4[0], &w4[0], sizeof g4[0]) != 0) {
            printf("mismatch expand_mask case %u\n", c);
            bad++;
        }
    }
    printf("counts rej_eta=%u poly_rej_bounded=%u expand_mask=%u\n", n_step, n_poly, n_mask);
    printf("bad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""
)


@pytest.mark.parametrize("mode", [44, 65])
def test_neon_mldsa_rej_bounded_matches_portable(mode: int, tmp_path: Path) -> None:
    """ML-DSA's RejBoundedPoly (eta 2: ML-DSA-44, eta 4: ML-DSA-65): the rejection step against
    FIPS 204 Algorithms 31 / 15 written in the program, at counters 0..256 (near the end
    especially), buffer lengths around the 8-byte step, random, all-rejected, all-accepted and
    bound-edge half-bytes, alignments 0..7, nothing written after a[255]; whole polynomials
    against lib/mldsa/sample.c's poly_rej_bounded (built without the backend). Also ExpandMask
    (gamma1 2^17 and 2^19), one and four polynomials, against the C."""
    mldsa = ROOT / "lib" / "mldsa"
    f = run_and_parse(
        tmp_path,
        "rej_eta.c",
        MLDSA_REJ_ETA_PROGRAM,
        [mldsa / "sample.c", mldsa / "ntt.c", mldsa / "pack.c", *KECCAK_C, NATIVE / "sample.c"],
        include=[mldsa, NATIVE],
        cflags=[f"-DPQLAB_MLDSA_MODE={mode}", "-DPQLAB_NS=pqlab_test_"],
        subst={"@NRANDOM@": str(NRANDOM)},
    )
    assert int(f["rej_eta"]) == 10 * 10 * 4
    assert int(f["poly_rej_bounded"]) == 4 * NRANDOM
    assert int(f["expand_mask"]) == 5 * NRANDOM


COUNT_PROGRAM = r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "sampler.c" /* the C kernels, without the backend */

/* the program's marker: the trace counts the instructions between two of its calls */
__attribute__((noinline)) void count_mark(int k)
{
    __asm__ volatile("" : : "r"(k) : "memory");
}
static uint8_t grp[5][32], t[16];
static int32_t x[2][16];
static uint32_t a[HAWK_W], b[HAWK_W], acc[2][HAWK_W];
int main(void)
{
    pqlab_hal_setup();
    for (unsigned i = 0; i < 160; i++) {
        grp[i / 32][i % 32] = (uint8_t)(i * 37 + 11);
    }
    for (unsigned i = 0; i < 16; i++) {
        t[i] = (uint8_t)(i & 1);
    }
    for (unsigned i = 0; i < HAWK_W; i++) {
        a[i] = 0x9E3779B9u * (i + 1);
        b[i] = 0x7F4A7C15u * (i + 3);
    }
    count_mark(0);
    sample16_c(x[0], (const uint8_t(*)[32])grp, t);
    count_mark(1);
    pqlab_hawk_sample16_native(x[1], (const uint8_t(*)[32])grp, t, T0, (unsigned)T0_LEN, T1, (unsigned)T1_LEN);
    count_mark(2);
    mul2_acc_c(acc[0], a, b);
    count_mark(3);
    pqlab_hawk_mul2_acc_native(acc[1], a, b, HAWK_LOGN);
    count_mark(4);
    printf("same %d\nend\n", memcmp(x[0], x[1], sizeof x[0]) == 0 && memcmp(acc[0], acc[1], sizeof acc[0]) == 0);
    pqlab_hal_exit(0);
}
"""


def _instructions_between_marks(elf: Path, mark: str, tmp: Path) -> list[int]:
    """Executed instructions between consecutive calls of `mark` under qemu-aarch64 -cpu
    cortex-a72 (-singlestep -d exec,nochain: one log line per instruction). Emulator counts of
    the binary's instructions, not cycles."""
    nm = subprocess.run(["aarch64-linux-gnu-nm", str(elf)], capture_output=True, text=True, check=True).stdout
    addr = next(int(ln.split()[0], 16) for ln in nm.splitlines() if ln.endswith(f" {mark}"))
    log = tmp / "trace.log"
    subprocess.run(
        ["qemu-aarch64", "-cpu", "cortex-a72", "-singlestep", "-d", "exec,nochain", "-D", str(log), str(elf)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    at: list[int] = []
    n = 0
    with log.open() as fh:
        for line in fh:
            if line.startswith("Trace"):
                n += 1
                if int(line.split("/")[1], 16) == addr:  # "Trace 0: 0x... [flags/pc/...]"
                    at.append(n)
    log.unlink()
    return [b - a for a, b in zip(at, at[1:])]


@pytest.mark.slow
@pytest.mark.parametrize("pmull", [True, False], ids=["pmull", "no-pmull"])
@pytest.mark.parametrize("logn", [9, 10])
def test_neon_hawk_kernels_execute_fewer_instructions(logn: int, pmull: bool, tmp_path: Path) -> None:
    """Instruction counts under QEMU (qemu, not cycles) of one SamplerSign group and one GF(2)
    product, C against NEON (with PMULL and without), same inputs and same results: the NEON
    kernels must execute fewer instructions. The counts are printed (pytest -s) for
    docs/neon.md."""
    cpu = NATIVE / "cpu.c"
    if not pmull:
        cpu = tmp_path / "cpu_none.c"
        cpu.write_text(NO_FEATURES)
    out = run_kernel_program(
        tmp_path,
        "count.c",
        COUNT_PROGRAM,
        [NATIVE / "hawk_sign.c", cpu],
        include=[ROOT / "lib" / "hawk", ROOT / "lib" / "common", ROOT / "lib" / "native"],
        cflags=[f"-DPQLAB_HAWK_LOGN={logn}", "-DPQLAB_NS=pqlab_test_"],
    )
    assert out.splitlines() == ["same 1", "end"], out
    c = _instructions_between_marks(tmp_path / "build" / "program.elf", "count_mark", tmp_path)
    assert len(c) == 4, c
    print(
        f"hawk logn {logn} pmull {pmull} (qemu instructions, not cycles): sample16 C {c[0]} NEON {c[1]}; "
        f"mul2 C {c[2]} NEON {c[3]}"
    )
    assert c[1] < c[0] and c[3] < c[2], c


MODP_PROGRAM = (
    r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "ntru_internal.h"

"""
    + xorshift_prelude(0x5851F42D4C957F2D, next32_shift=11)
    + r"""static unsigned int bad, n_ntt, n_intt, n_pmul;
static uint32_t psi[1024], ipsi[1024], pw[1024], a[1024 + 4], b[1024 + 4], x[1024 + 4], y[1024 + 4];

/* kind 0: random in [0, p); 1: all p - 1; 2: all 0; 3: 0 / p - 1 / 1 alternating */
static void fill(uint32_t *v, size_t m, unsigned kind, uint32_t p)
{
    for (size_t u = 0; u < m; u++) {
        uint32_t r = next32() % p;
        v[u] = kind == 0 ? r : kind == 1 ? p - 1 : kind == 2 ? 0 : (u % 3 == 0 ? 0 : u % 3 == 1 ? p - 1 : 1);
    }
}
static void check(const char *what, const uint32_t *got, const uint32_t *want, size_t m, unsigned pi, unsigned logm,
                  unsigned kind)
{
    if (memcmp(got, want, 4 * m) != 0 || got[m] != 0xA5A5A5A5u) {
        printf("mismatch %s prime %u logm %u kind %u\n", what, pi, logm, kind);
        bad++;
    }
}
int main(void)
{
    pqlab_hal_setup();
    static const unsigned primes[] = {0, 1, 2, RNS_MAXP - 1};
    for (unsigned k = 0; k < 4; k++) {
        const unsigned pi = primes[k];
        modp_t q;
        modp_init(&q, RNS_P[pi][0]);
        const uint32_t p = q.p;
        for (unsigned logm = 0; logm <= 10; logm++) {
            const size_t m = (size_t)1 << logm;
            mp_roots(psi, ipsi, pw, RNS_P[pi][1], logm, &q);
            for (unsigned kind = 0; kind < 4 + @NRANDOM@ / 8; kind++) {
                fill(a, m, kind < 4 ? kind : 0, p);
                memcpy(x, a, 4 * m);
                x[m] = a[m] = 0xA5A5A5A5u;
                mp_ntt(x, psi, logm, &q); /* the C (ntru_rns.c without the backend) */
                pqlab_fndsa_mp_ntt_native(a, psi, logm, p, q.p0i);
                n_ntt++;
                check("ntt", a, x, m, pi, logm, kind);
                const uint32_t c = kind == 1 ? p - 1 : kind == 2 ? q.r1 : next32() % p;
                pqlab_fndsa_mp_intt_native(a, ipsi, logm, c, p, q.p0i);
                mp_intt(x, ipsi, logm, c, &q);
                n_intt++;
                check("intt", a, x, m, pi, logm, kind);
            }
        }
        /* pointwise products of every length 0..37 and 1024, r = a and r separate */
        for (size_t m = 0; m <= 1024; m = m == 37 ? 1024 : m + 1) {
            fill(a, m, (unsigned)m % 4, p);
            fill(b, m, 0, p);
            memcpy(x, a, 4 * m);
            y[m] = x[m] = 0xA5A5A5A5u;
            mp_pmul(x, x, b, m, &q);
            pqlab_fndsa_mp_pmul_native(y, a, b, m, p, q.p0i);
            check("pmul", y, x, m, pi, (unsigned)m, 0);
            pqlab_fndsa_mp_pmul_native(a, a, b, m, p, q.p0i);
            a[m] = 0xA5A5A5A5u;
            check("pmul_alias", a, x, m, pi, (unsigned)m, 0);
            n_pmul += 2;
        }
    }
    printf("counts modp_ntt=%u modp_intt=%u modp_pmul=%u\n", n_ntt, n_intt, n_pmul);
    printf("bad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""
)


def test_neon_fndsa_modp_matches_portable(tmp_path: Path) -> None:
    """The NTT / inverse NTT / pointwise product modulo 31-bit primes (fndsa_modp.c) against
    lib/fndsa/ntru_rns.c's C (built without the backend) for logm 0..10 with the largest three
    primes (Hawk's p1, p2) and the smallest of the table: random, all p - 1, all zero and mixed
    inputs, scale factors p - 1, 2^32 mod p and random; pointwise products of every length
    0..37 and 1024, in place and not; the word after each array untouched."""
    fndsa = ROOT / "lib" / "fndsa"
    srcs = sorted(fndsa.glob("ntru*.c")) + [fndsa / "fpr_emu.c", fndsa / "fft.c", fndsa / "tables_fx.c"]
    f = run_and_parse(
        tmp_path,
        "modp.c",
        MODP_PROGRAM,
        [*srcs, NATIVE / "fndsa_modp.c"],
        include=[fndsa, ROOT / "lib" / "native", ROOT / "lib" / "common"],
        cflags=["-DPQLAB_FNDSA_LOGN=10", "-DPQLAB_NS=pqlab_test_", "-ffp-contract=off"],
        subst={"@NRANDOM@": str(NRANDOM)},
    )
    per = 4 * 11 * (4 + NRANDOM // 8)
    assert (int(f["modp_ntt"]), int(f["modp_intt"])) == (per, per)
    assert int(f["modp_pmul"]) == 4 * 2 * 39


MODP_COUNT_PROGRAM = r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "ntru_internal.h"

__attribute__((noinline)) void count_mark(int k)
{
    __asm__ volatile("" : : "r"(k) : "memory");
}
static uint32_t psi[1024], ipsi[1024], pw[1024], a[2][1024];
int main(void)
{
    pqlab_hal_setup();
    modp_t q;
    modp_init(&q, RNS_P[0][0]);
    mp_roots(psi, ipsi, pw, RNS_P[0][1], LOGM, &q);
    for (unsigned u = 0; u < (1u << LOGM); u++) {
        a[0][u] = a[1][u] = (u * 2654435761u) % q.p;
    }
    count_mark(0);
    mp_ntt(a[0], psi, LOGM, &q);
    count_mark(1);
    pqlab_fndsa_mp_ntt_native(a[1], psi, LOGM, q.p, q.p0i);
    count_mark(2);
    mp_intt(a[0], ipsi, LOGM, q.r1, &q);
    count_mark(3);
    pqlab_fndsa_mp_intt_native(a[1], ipsi, LOGM, q.r1, q.p, q.p0i);
    count_mark(4);
    printf("same %d\nend\n", memcmp(a[0], a[1], 4u << LOGM) == 0);
    pqlab_hal_exit(0);
}
"""


@pytest.mark.slow
@pytest.mark.parametrize("logm", [9, 10])
def test_neon_modp_ntt_executes_fewer_instructions(logm: int, tmp_path: Path) -> None:
    """Instruction counts under QEMU (qemu, not cycles) of the NTT and inverse NTT modulo
    p1 = 2147473409 (Hawk's first prime), C (ntru_rns.c) against fndsa_modp.c, same results."""
    fndsa = ROOT / "lib" / "fndsa"
    srcs = sorted(fndsa.glob("ntru*.c")) + [fndsa / "fpr_emu.c", fndsa / "fft.c", fndsa / "tables_fx.c"]
    out = run_kernel_program(
        tmp_path,
        "modp_count.c",
        MODP_COUNT_PROGRAM,
        [*srcs, NATIVE / "fndsa_modp.c"],
        include=[fndsa, ROOT / "lib" / "native", ROOT / "lib" / "common"],
        cflags=["-DPQLAB_FNDSA_LOGN=10", "-DPQLAB_NS=pqlab_test_", "-ffp-contract=off", f"-DLOGM={logm}"],
    )
    assert out.splitlines() == ["same 1", "end"], out
    c = _instructions_between_marks(tmp_path / "build" / "program.elf", "count_mark", tmp_path)
    assert len(c) == 4, c
    print(f"mod-p logm {logm} (qemu instructions, not cycles): ntt C {c[0]} NEON {c[1]}; intt C {c[2]} NEON {c[3]}")
    assert c[1] < c[0] and c[3] < c[2], c


BALL_PROGRAM = (
    r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "kernels.h"
#include "sample_neon.h"

"""
    + xorshift_prelude(0x2545F4914F6CDD1D, next32_shift=16)
    + r"""static unsigned int bad, n_swap;
/* every step of SampleInBall: i = 0..255 (nwords = i / 4 + 1), every j <= i, both signs; w
 * random bytes (kind 0), all zero (1), all 0xFF (2), plus 4 guard words after the 64 */
int main(void)
{
    pqlab_hal_setup();
    static uint32_t w0[64 + 4], w1[64 + 4];
    for (unsigned int i = 0; i < 256; i++) {
        for (unsigned int j = 0; j <= i; j++) {
            const unsigned int kind = (i + j) % 3;
            for (unsigned int k = 0; k < 64 + 4; k++) {
                w0[k] = kind == 0 ? next32() : kind == 1 ? 0 : 0xFFFFFFFFu;
            }
            memcpy(w1, w0, sizeof w0);
            const uint32_t sign4 = (i ^ j) & 1 ? 0xFFFFFFFFu : 0x01010101u;
            const uint32_t r0 = mldsa_ball_swap_c(w0, i / 4 + 1, j, sign4);
            const uint32_t r1 = pqlab_mldsa_ball_swap_neon(w1, i / 4 + 1, j, sign4);
            n_swap++;
            if (r0 != r1 || memcmp(w0, w1, sizeof w0) != 0) {
                printf("mismatch ball_swap i %u j %u kind %u: %u vs %u\n", i, j, kind, r0, r1);
                bad++;
            }
        }
    }
    printf("counts ball_swap=%u\n", n_swap);
    printf("bad %u\nend\n", bad);
    fflush(stdout);
    pqlab_hal_exit(0);
}
"""
)


def test_neon_mldsa_ball_swap_matches_portable(tmp_path: Path) -> None:
    """SampleInBall's masked step against lib/mldsa/sample.c's ball_swap_c (built without the
    backend): every step i = 0..255 with every j <= i (32,896 cases), both signs, random /
    zero / all-ones words; the return value and all 64 words plus 4 guard words compared."""
    mldsa = ROOT / "lib" / "mldsa"
    f = run_and_parse(
        tmp_path,
        "ball.c",
        BALL_PROGRAM,
        [mldsa / "sample.c", mldsa / "ntt.c", mldsa / "pack.c", *KECCAK_C, NATIVE / "sample.c"],
        include=[mldsa, NATIVE],
        cflags=["-DPQLAB_MLDSA_MODE=65", "-DPQLAB_NS=pqlab_test_"],
    )
    assert int(f["ball_swap"]) == 256 * 257 // 2


BALL_COUNT_PROGRAM = r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "kernels.h"
#include "sample_neon.h"

__attribute__((noinline)) void count_mark(int k)
{
    __asm__ volatile("" : : "r"(k) : "memory");
}
static uint32_t w[2][64];
static uint32_t r[2];
int main(void)
{
    pqlab_hal_setup();
    /* the tau steps of one SampleInBall (ML-DSA-65, tau = 49) with j = i / 2 */
    count_mark(0);
    for (unsigned int i = 256 - MLDSA_TAU; i < 256; i++) {
        r[0] += mldsa_ball_swap_c(w[0], i / 4 + 1, i / 2, i & 1 ? 0xFFFFFFFFu : 0x01010101u);
    }
    count_mark(1);
    for (unsigned int i = 256 - MLDSA_TAU; i < 256; i++) {
        r[1] += pqlab_mldsa_ball_swap_neon(w[1], i / 4 + 1, i / 2, i & 1 ? 0xFFFFFFFFu : 0x01010101u);
    }
    count_mark(2);
    printf("same %d\nend\n", r[0] == r[1] && memcmp(w[0], w[1], sizeof w[0]) == 0);
    pqlab_hal_exit(0);
}
"""


@pytest.mark.slow
def test_neon_ball_swap_executes_fewer_instructions(tmp_path: Path) -> None:
    """Instruction counts under QEMU (qemu, not cycles) of the tau = 49 masked steps of one
    ML-DSA-65 SampleInBall, C against NEON, same results. Printed (pytest -s) for docs/neon.md."""
    mldsa = ROOT / "lib" / "mldsa"
    out = run_kernel_program(
        tmp_path,
        "ball_count.c",
        BALL_COUNT_PROGRAM,
        [mldsa / "sample.c", mldsa / "ntt.c", mldsa / "pack.c", *KECCAK_C, NATIVE / "sample.c"],
        include=[mldsa, NATIVE],
        cflags=["-DPQLAB_MLDSA_MODE=65", "-DPQLAB_NS=pqlab_test_"],
    )
    assert out.splitlines() == ["same 1", "end"], out
    c = _instructions_between_marks(tmp_path / "build" / "program.elf", "count_mark", tmp_path)
    assert len(c) == 2, c
    print(f"ball_swap x49 (qemu instructions, not cycles): C {c[0]} NEON {c[1]}")
    assert c[1] < c[0], c
