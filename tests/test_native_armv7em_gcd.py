"""ARMv7E-M assembly of the FN-DSA key-generation GCD's linear combination
(lib/native/armv7em/fndsa_gcd.S, contract in fndsa_gcd.h) against a C copy of lin31 of
lib/fndsa/ntru.c, on mps2-an386 / mps2-an500 (QEMU) and m4-sim / m7-sim (pqlab-sim); and the
31 decisions of a pass (gcd31) against the C gcd31 taken from lib/fndsa/ntru.c itself.

Random 31-bit limbs, coefficient pairs with |ca| + |cb| <= 2^31 (among them +2^31 and -2^31
with the other one 0, and both signs), with and without the m f term, output into a
separate buffer and into b itself (the aliasing the GCD uses), lengths 1..120; guard words
around every buffer; on the simulators the cycles of one length do not depend on the data.
gcd31: random low words and 62-bit approximations, and the edge cases (equal and adjacent
approximations, b = 0 so that (pa, pb) doubles 31 times to 2^31, a = 1, both even words),
with cycles independent of the data on the simulators."""

from __future__ import annotations

import re
from pathlib import Path

import firmware
import ntru_src
import pytest
from hostlib import ROOT

NATIVE = ROOT / "lib" / "native" / "armv7em"

FIRMWARE = r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fndsa_gcd.h"

/* ---- C reference: lin31 of lib/fndsa/ntru.c ---- */
static int64_t lin31_c(uint32_t *out, const uint32_t *a, const uint32_t *b, const uint32_t *m,
                       size_t len, int64_t ca, int64_t cb, uint32_t f)
{
    const uint32_t ua = (uint32_t)ca, ub = (uint32_t)cb;
    const uint32_t sa = (uint32_t)((uint64_t)ca >> 63) * 0xFFFFFFFFu;
    const uint32_t sb = (uint32_t)((uint64_t)cb >> 63) * 0xFFFFFFFFu;
    uint64_t cc = 0;
    for (size_t i = 0; i < len; i++) {
        uint32_t wa = a[i], wb = b[i];
        uint64_t z = cc - ((uint64_t)((wa & sa) + (wb & sb)) << 32);
        z += (uint64_t)wa * ua;
        z += (uint64_t)wb * ub;
        if (m != NULL) {
            z += (uint64_t)m[i] * f;
        }
        out[i - 1 + (i == 0)] = (uint32_t)z & 0x7FFFFFFF;
        cc = (uint64_t)((int64_t)z >> 31);
    }
    return (int64_t)cc;
}

static int64_t lin31_asm(uint32_t *out, const uint32_t *a, const uint32_t *b, const uint32_t *m,
                         size_t len, int64_t ca, int64_t cb, uint32_t f)
{
    const uint32_t co[5] = {(uint32_t)ca, (uint32_t)cb, (uint32_t)((uint64_t)ca >> 63) * 0xFFFFFFFFu,
                            (uint32_t)((uint64_t)cb >> 63) * 0xFFFFFFFFu, f};
    return pqlab_fndsa_lin31_native(out, a, b, m, len, co);
}

static uint32_t rng = 0x9E3779B9u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
#define N 122
#define GUARD 0xA5A5A5A5u
static uint32_t A[N + 2], B[N + 2], M[N + 2], O1[N + 2], O2[N + 2], B1[N + 2], B2[N + 2];
static unsigned bad, checks;

static void fill(uint32_t *x, size_t len, unsigned kind)
{
    x[0] = x[len + 1] = GUARD;
    for (size_t i = 1; i <= len; i++)
        x[i] = kind == 1 ? 0 : kind == 2 ? 0x7FFFFFFFu : next() & 0x7FFFFFFFu;
}

static int64_t coef(unsigned k, int64_t *other)
{
    /* pairs with |ca| + |cb| <= 2^31 */
    int64_t two31 = (int64_t)1 << 31;
    switch (k % 6) {
    case 0: *other = 0; return two31;
    case 1: *other = 0; return -two31;
    case 2: { int64_t x = (int64_t)(next() % (uint32_t)two31); *other = -(two31 - x); return x; }
    case 3: { int64_t x = (int64_t)(next() >> 2); *other = (int64_t)(next() >> 2); return -x; }
    case 4: { int64_t x = (int64_t)(next() >> 1); *other = x - two31; return x; }
    default: { int64_t x = (int64_t)(next() >> 3); *other = -(int64_t)(next() >> 3); return x; }
    }
}

static void check(size_t len, unsigned k, unsigned kind, int withm, int alias)
{
    int64_t cb, ca = coef(k, &cb);
    uint32_t f = next() & 0x7FFFFFFFu;
    fill(A, len, kind);
    fill(B, len, (kind + k) % 3);
    fill(M, len, 0);
    memcpy(B1, B, sizeof B);
    memcpy(B2, B, sizeof B);
    O1[0] = O1[len + 1] = O2[0] = O2[len + 1] = GUARD;
    uint32_t *o1 = alias ? B1 + 1 : O1 + 1, *o2 = alias ? B2 + 1 : O2 + 1;
    int64_t r1 = lin31_c(o1, A + 1, B1 + 1, withm ? M + 1 : NULL, len, ca, cb, f);
    int64_t r2 = lin31_asm(o2, A + 1, B2 + 1, withm ? M + 1 : NULL, len, ca, cb, f);
    checks++;
    int ok = r1 == r2;
    for (size_t i = 0; i + 1 < len; i++) ok &= o1[i] == o2[i];
    ok &= O2[0] == GUARD && O2[len + 1] == GUARD && B2[0] == GUARD && B2[len + 1] == GUARD;
    if (alias && len >= 1) ok &= B2[len] == B[len]; /* the last limb of b is not written */
    if (!ok && bad++ < 8) {
        char b[160];
        int n = snprintf(b, sizeof b, "bad len %u k %u kind %u m %d alias %d: %lld / %lld\n", (unsigned)len, k,
                         kind, withm, alias, (long long)r1, (long long)r2);
        pqlab_hal_send(b, (size_t)n);
    }
}

__attribute__((noinline)) static uint64_t timed(size_t len, int64_t ca, int64_t cb, int withm)
{
    uint64_t t0 = pqlab_hal_cycles();
    lin31_asm(O2 + 1, A + 1, B + 1, withm ? M + 1 : NULL, len, ca, cb, 0x12345678u);
    return pqlab_hal_cycles() - t0;
}

int main(void)
{
    pqlab_hal_setup();
    static const size_t LENS[] = {1, 2, 3, 4, 7, 31, 112, 113, 120};
    for (unsigned li = 0; li < sizeof LENS / sizeof LENS[0]; li++)
        for (unsigned k = 0; k < 12; k++)
            for (unsigned kind = 0; kind < 3; kind++)
                for (int withm = 0; withm < 2; withm++)
                    for (int alias = 0; alias < 2; alias++)
                        check(LENS[li], k, kind, withm, alias);
    char b[96];
    int n = snprintf(b, sizeof b, "total %u %u\n", checks, bad);
    pqlab_hal_send(b, (size_t)n);
    /* constant time: one length, data and coefficients of every kind */
    for (int withm = 0; withm < 2; withm++)
        for (unsigned kind = 0; kind < 3; kind++) {
            int64_t cb, ca = coef(kind, &cb);
            fill(A, 112, kind);
            fill(B, 112, 2 - kind);
            fill(M, 112, kind);
            n = snprintf(b, sizeof b, "ct %d %llu\n", withm, (unsigned long long)timed(112, ca, cb, withm));
            pqlab_hal_send(b, (size_t)n);
        }
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""

NCHECKS = 9 * 12 * 3 * 2 * 2


def c_function(name: str) -> str:
    """The portable version of a static function of lib/fndsa/ntru_gcd.c, renamed name_c."""
    m = re.search(rf"static void {name}\([^)]*\)\n\{{.*?\n\}}\n", ntru_src.source(), re.S)
    assert m, f"{name} not found in lib/fndsa/ntru_gcd.c"
    return m.group(0).replace(f"{name}(", f"{name}_c(", 1)


GCD31_FIRMWARE = (
    r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fndsa_gcd.h"
"""
    + "%s"
    + r"""
static uint32_t rng = 0x2545F491u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static unsigned bad, checks;

static void check(const uint32_t in[6])
{
    uint32_t c[6], a[6];
    memcpy(c, in, sizeof c);
    memcpy(a, in, sizeof a);
    gcd31_c(c);
    pqlab_fndsa_gcd31_native(a);
    checks++;
    if (memcmp(c, a, 16) != 0 && bad++ < 8) {
        char b[200];
        int n = snprintf(b, sizeof b, "bad %08lx %08lx %08lx%08lx %08lx%08lx: %08lx %08lx %08lx %08lx / %08lx %08lx %08lx %08lx\n",
                         (unsigned long)in[0], (unsigned long)in[1], (unsigned long)in[3], (unsigned long)in[2],
                         (unsigned long)in[5], (unsigned long)in[4], (unsigned long)c[0], (unsigned long)c[1],
                         (unsigned long)c[2], (unsigned long)c[3], (unsigned long)a[0], (unsigned long)a[1],
                         (unsigned long)a[2], (unsigned long)a[3]);
        pqlab_hal_send(b, (size_t)n);
    }
}

__attribute__((noinline)) static uint64_t timed(const uint32_t in[6])
{
    uint32_t a[6];
    memcpy(a, in, sizeof a);
    uint64_t t0 = pqlab_hal_cycles();
    pqlab_fndsa_gcd31_native(a);
    return pqlab_hal_cycles() - t0;
}

int main(void)
{
    pqlab_hal_setup();
    static const uint32_t EDGE[][6] = {
        {1, 0, 1, 0, 0, 0},                            /* a = 1, b = 0: (pa, pb) -> 2^31 */
        {0x12345679u, 0, 0x9ABCDEF1u, 0x2345678u, 0, 0}, /* b = 0 */
        {0, 1, 0, 0x10000000u, 1, 0},                  /* a even */
        {0x7FFFFFFFu, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x3FFFFFFFu, 0xFFFFFFFFu, 0x3FFFFFFFu},
        {5, 3, 5, 0, 3, 0},
        {3, 5, 3, 0, 5, 0},
        {0x40000001u, 0x40000001u, 7, 9, 7, 9},        /* equal approximations */
        {0x40000001u, 0x00000003u, 8, 9, 7, 9},        /* adjacent */
        {0x00000003u, 0x40000001u, 7, 9, 8, 9},
    };
    for (unsigned i = 0; i < sizeof EDGE / sizeof EDGE[0]; i++) check(EDGE[i]);
    for (unsigned i = 0; i < 3000; i++) {
        uint32_t in[6];
        unsigned sh = next() % 62;
        uint64_t ah = (((uint64_t)next() << 32) | next()) >> (2 + (i % 3 == 0 ? sh : 0));
        uint64_t bh = (((uint64_t)next() << 32) | next()) >> (2 + (i % 3 == 1 ? sh : 0));
        if (i % 7 == 0) bh = ah + (next() & 3) - 1;
        in[0] = next() & 0x7FFFFFFFu;
        in[1] = next() & 0x7FFFFFFFu;
        if (i % 5 == 0) in[0] |= 1;
        if (i % 5 == 1) in[1] |= 1;
        in[2] = (uint32_t)ah; in[3] = (uint32_t)(ah >> 32);
        in[4] = (uint32_t)bh; in[5] = (uint32_t)(bh >> 32) & 0x3FFFFFFFu;
        check(in);
    }
    char b[96];
    int n = snprintf(b, sizeof b, "total %u %u\n", checks, bad);
    pqlab_hal_send(b, (size_t)n);
    for (unsigned i = 0; i < 4; i++) {
        n = snprintf(b, sizeof b, "ct %llu\n", (unsigned long long)timed(EDGE[i]));
        pqlab_hal_send(b, (size_t)n);
    }
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""
)


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim", "mps2-an500", "m7-sim"])
def test_native_gcd31(platform: str, tmp_path: Path) -> None:
    src = tmp_path / "fw.c"
    src.write_text(GCD31_FIRMWARE.replace("%s", c_function("gcd31"), 1))
    out = firmware.build_and_run(platform, tmp_path, [src, NATIVE / "fndsa_gcd.S"], include=[NATIVE, NATIVE.parent])
    ct = {c[0] for c in firmware.kernel_results(out, platform, 3009)}
    if platform == "m4-sim":
        print(f"\nm4-sim: gcd31 {ct.pop()} cycles per pass")


FIX_FIRMWARE = (
    r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fndsa_gcd.h"
"""
    + "%s"
    + r"""
#define N 122
static uint32_t rng = 0x6A09E667u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static uint32_t M[N], R[N], A1[N + 2], A2[N + 2];
static unsigned bad, checks;

/* out = x - y or x + y over 31-bit limbs, the top limb a full signed word */
static void addsub31(uint32_t *out, const uint32_t *x, const uint32_t *y, size_t len, int sub)
{
    uint32_t c = 0;
    for (size_t i = 0; i < len; i++) {
        uint32_t w = sub ? x[i] - y[i] - c : x[i] + y[i] + c;
        c = sub ? w >> 31 : w >> 31;
        out[i] = i + 1 < len ? (w & 0x7FFFFFFFu) : w;
    }
}

static void report(const char *what, size_t len, unsigned k)
{
    if (bad++ < 8) {
        char b[96];
        int n = snprintf(b, sizeof b, "bad %s len %u case %u\n", what, (unsigned)len, k);
        pqlab_hal_send(b, (size_t)n);
    }
}

static void check_fix(size_t len, unsigned k)
{
    /* m: top limb nonzero; r < m; a = r (no change), r + m (>= m), r - m (negative),
     * or an edge: 0, m - 1, m, -1, -(m - 1) */
    for (size_t i = 0; i < len; i++) M[i] = next() & 0x7FFFFFFFu;
    M[len - 1] = (M[len - 1] >> (k % 29)) | 1;
    for (size_t i = 0; i < len; i++) R[i] = next() & 0x7FFFFFFFu;
    R[len - 1] = M[len - 1] > 1 ? R[len - 1] % M[len - 1] : 0;
    uint32_t one[N] = {1}, neg = 0;
    switch (k % 8) {
    case 0: memcpy(A1 + 1, R, len * 4); break;
    case 1: addsub31(A1 + 1, R, M, len, 0); break;
    case 2: addsub31(A1 + 1, R, M, len, 1); neg = 1; break;
    case 3: memset(A1 + 1, 0, len * 4); break;
    case 4: addsub31(A1 + 1, M, one, len, 1); break;
    case 5: memcpy(A1 + 1, M, len * 4); break;
    case 6: memset(A1 + 1, 0, len * 4); addsub31(A1 + 1, A1 + 1, one, len, 1); neg = 1; break;
    default: addsub31(A1 + 1, one, M, len, 1); neg = 1; break;
    }
    A1[0] = A1[len + 1] = 0xA5A5A5A5u;
    memcpy(A2, A1, sizeof A1);
    finish_mod_c(A1 + 1, len, M, neg);
    pqlab_fndsa_finish_mod_native(A2 + 1, len, M, neg);
    checks++;
    if (memcmp(A1, A2, (len + 2) * 4) != 0) report("finish_mod", len, k);
}

static void check_neg(size_t len, unsigned k)
{
    for (size_t i = 0; i <= len + 1; i++) A1[i] = next() & 0x7FFFFFFFu;
    A1[len] = next();
    if (k % 4 == 1) memset(A1 + 1, 0, len * 4);
    memcpy(A2, A1, sizeof A1);
    neg31_c(A1 + 1, len, k & 1);
    pqlab_fndsa_neg31_native(A2 + 1, len, k & 1);
    checks++;
    if (memcmp(A1, A2, (len + 2) * 4) != 0) report("neg31", len, k);
}

__attribute__((noinline)) static uint64_t timed(size_t len, uint32_t neg, int which)
{
    uint64_t t0 = pqlab_hal_cycles();
    if (which) pqlab_fndsa_neg31_native(A2 + 1, len, neg);
    else pqlab_fndsa_finish_mod_native(A2 + 1, len, M, neg);
    return pqlab_hal_cycles() - t0;
}

int main(void)
{
    pqlab_hal_setup();
    static const size_t LENS[] = {1, 2, 3, 4, 5, 31, 108, 109, 120};
    for (unsigned li = 0; li < sizeof LENS / sizeof LENS[0]; li++)
        for (unsigned k = 0; k < 40; k++) {
            check_fix(LENS[li], k);
            check_neg(LENS[li], k);
        }
    char b[96];
    int n = snprintf(b, sizeof b, "total %u %u\n", checks, bad);
    pqlab_hal_send(b, (size_t)n);
    for (unsigned k = 0; k < 6; k++) {
        check_fix(109, k); /* leaves the inputs of case k in M, A2 (already corrected) */
        uint64_t c1 = timed(109, k == 2, 0), c2 = timed(109, k & 1, 1);
        n = snprintf(b, sizeof b, "ct %llu %llu\n", (unsigned long long)c1, (unsigned long long)c2);
        pqlab_hal_send(b, (size_t)n);
    }
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""
)


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim", "mps2-an500", "m7-sim"])
def test_native_gcd_corrections(platform: str, tmp_path: Path) -> None:
    src = tmp_path / "fw.c"
    src.write_text(FIX_FIRMWARE.replace("%s", c_function("neg31") + c_function("finish_mod"), 1))
    out = firmware.build_and_run(platform, tmp_path, [src, NATIVE / "fndsa_gcd.S"], include=[NATIVE, NATIVE.parent])
    ct = firmware.kernel_results(out, platform, 9 * 40 * 2)
    if platform == "m4-sim":
        c = ct.pop()
        print(f"\nm4-sim, 109 limbs: finish_mod {c[0]} cycles, neg31 {c[1]}")


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim", "mps2-an500", "m7-sim"])
def test_native_gcd_lin31(platform: str, tmp_path: Path) -> None:
    src = tmp_path / "fw.c"
    src.write_text(FIRMWARE)
    out = firmware.build_and_run(platform, tmp_path, [src, NATIVE / "fndsa_gcd.S"], include=[NATIVE, NATIVE.parent])
    lines = out.replace("\r", "").splitlines()
    assert lines and lines[-1] == "end", lines[-5:]
    bad = [ln for ln in lines if ln.startswith("bad ")]
    assert not bad, f"{platform}: assembly differs from the C code:\n" + "\n".join(bad)
    assert [ln.split() for ln in lines if ln.startswith("total ")] == [["total", str(NCHECKS), "0"]]
    ct = [ln.split()[1:] for ln in lines if ln.startswith("ct ")]
    assert len(ct) == 6
    if firmware.timing_shows_data_independence(platform):
        for withm in ("0", "1"):
            runs = {c for w, c in ct if w == withm}
            assert len(runs) == 1, f"{platform}: cycles depend on the data: {ct}"
    if platform == "m4-sim":
        cyc = {w: int(c) for w, c in ct}
        print(f"\nm4-sim, 112 limbs: {cyc['0']} cycles without m, {cyc['1']} with m")
        assert cyc["1"] < 25 * 112, cyc
