"""ARMv7E-M assembly of FN-DSA key generation's mod-p NTT, inverse NTT and pointwise
Montgomery products (lib/native/armv7em/fndsa_modp.S, contract in fndsa_modp.h) against a
C copy of mp_ntt / mp_intt / mp_mmul_r of lib/fndsa/ntru.c (same algorithm, same flags),
on mps2-an386 / mps2-an500 (QEMU) and m4-sim / m7-sim (pqlab-sim).

The firmware runs both on random inputs in [0, p) (and the edge inputs all-0 / all-(p-1))
for every logm 0..10 and several primes of ntru.c's RNS_P table, counts differences, prints
small transforms for the independent Python check here (evaluation of the polynomial at the
odd powers of the 2m-th root, in bit-reversed order; inverse of the forward transform with
the scaling c / 2^32), and times one call of each at logm = 4, 7, 8, 9, 10."""

from __future__ import annotations

from pathlib import Path

import firmware
import pytest
from hostlib import ROOT

NATIVE = ROOT / "lib" / "native" / "armv7em"

# (p, g) rows of RNS_P in lib/fndsa/ntru.c (p = 1 mod 2048 below 2^31, g a primitive
# 2048-th root of unity modulo p): the first two, a middle one, the last one
PRIMES = [(2147473409, 383167813), (2147389441, 211808905), (2147217409, 516405114), (2146695169, 263161877)]
TIMED = [4, 7, 8, 9, 10]
CHECKED_LOGM = 6  # transforms up to this size are printed for the Python check

FIRMWARE = r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fndsa_modp.h"

static const uint32_t PR[][2] = {@PRIMES@};
#define NPR (sizeof PR / sizeof PR[0])

/* ---- C reference: mp_* of lib/fndsa/ntru.c (same algorithm) ---- */
typedef struct { uint32_t p, p0i, r1, r2; } modp_t;
static inline uint32_t mp_add(uint32_t a, uint32_t b, uint32_t p)
{
    uint32_t d = a + b - p;
    return d + (p & ((uint32_t)0 - (d >> 31)));
}
static inline uint32_t mp_sub(uint32_t a, uint32_t b, uint32_t p)
{
    uint32_t d = a - b;
    return d + (p & ((uint32_t)0 - (d >> 31)));
}
static inline uint32_t mp_mmul_r(uint32_t a, uint32_t b, uint32_t p, uint32_t p0i)
{
    uint64_t z = (uint64_t)a * b;
    uint32_t w = (uint32_t)z * p0i;
    uint32_t d = (uint32_t)((z + (uint64_t)w * p) >> 32) - p;
    return d + (p & ((uint32_t)0 - (d >> 31)));
}
static void modp_init(modp_t *q, uint32_t p)
{
    uint32_t y = 2 - p;
    for (int i = 0; i < 4; i++) y *= 2 - p * y;
    q->p = p;
    q->p0i = 0u - y;
    q->r1 = 0u - 2 * p;
    uint32_t r = q->r1;
    for (int i = 0; i < 32; i++) r = mp_add(r, r, p);
    q->r2 = r;
}
static void mp_roots(uint32_t *psi, uint32_t *ipsi, uint32_t *pw, uint32_t g, unsigned logm,
                     const modp_t *q)
{
    size_t m = (size_t)1 << logm;
    uint32_t w = mp_mmul_r(g, q->r2, q->p, q->p0i);
    for (unsigned i = logm; i < 10; i++) w = mp_mmul_r(w, w, q->p, q->p0i);
    pw[0] = q->r1;
    for (size_t i = 1; i < m; i++) pw[i] = mp_mmul_r(pw[i - 1], w, q->p, q->p0i);
    for (size_t k = 0; k < m; k++) {
        size_t br = 0;
        for (unsigned b = 0; b < logm; b++) br |= ((k >> b) & 1) << (logm - 1 - b);
        psi[k] = pw[br];
        ipsi[k] = br == 0 ? q->r1 : q->p - pw[m - br];
    }
}
#define MP_CT(x, y, s) do { uint32_t v_ = mp_mmul_r((y), (s), p, p0i); \
    (y) = mp_sub((x), v_, p); (x) = mp_add((x), v_, p); } while (0)
#define MP_GS(x, y, s) do { uint32_t d_ = mp_sub((x), (y), p); \
    (x) = mp_add((x), (y), p); (y) = mp_mmul_r(d_, (s), p, p0i); } while (0)
__attribute__((noinline)) static void ref_ntt(uint32_t *a, const uint32_t *psi, unsigned logm,
                                              const modp_t *q)
{
    const uint32_t p = q->p, p0i = q->p0i;
    size_t m = (size_t)1 << logm, t = m, len = 1;
    if (logm & 1) {
        t >>= 1;
        for (size_t j = 0; j < t; j++) MP_CT(a[j], a[j + t], psi[1]);
        len = 2;
    }
    for (; len < m; len <<= 2) {
        size_t h = t >> 2;
        for (size_t i = 0; i < len; i++) {
            uint32_t s = psi[len + i], s1 = psi[2 * len + 2 * i], s2 = psi[2 * len + 2 * i + 1];
            uint32_t *x = a + i * t;
            for (size_t j = 0; j < h; j++) {
                uint32_t x0 = x[j], x1 = x[j + h], x2 = x[j + 2 * h], x3 = x[j + 3 * h];
                MP_CT(x0, x2, s); MP_CT(x1, x3, s); MP_CT(x0, x1, s1); MP_CT(x2, x3, s2);
                x[j] = x0; x[j + h] = x1; x[j + 2 * h] = x2; x[j + 3 * h] = x3;
            }
        }
        t >>= 2;
    }
}
__attribute__((noinline)) static void ref_intt(uint32_t *a, const uint32_t *ipsi, unsigned logm,
                                               uint32_t c, const modp_t *q)
{
    const uint32_t p = q->p, p0i = q->p0i;
    size_t m = (size_t)1 << logm, t = 1, len = m >> 1;
    for (; len >= 2; len >>= 2) {
        for (size_t i = 0; i < (len >> 1); i++) {
            uint32_t s1 = ipsi[len + 2 * i], s2 = ipsi[len + 2 * i + 1], s = ipsi[(len >> 1) + i];
            uint32_t *x = a + 4 * i * t;
            for (size_t j = 0; j < t; j++) {
                uint32_t x0 = x[j], x1 = x[j + t], x2 = x[j + 2 * t], x3 = x[j + 3 * t];
                MP_GS(x0, x1, s1); MP_GS(x2, x3, s2); MP_GS(x0, x2, s); MP_GS(x1, x3, s);
                x[j] = x0; x[j + t] = x1; x[j + 2 * t] = x2; x[j + 3 * t] = x3;
            }
        }
        t <<= 2;
    }
    if (len == 1)
        for (size_t j = 0; j < t; j++) MP_GS(a[j], a[j + t], ipsi[1]);
    for (size_t j = 0; j < m; j++) a[j] = mp_mmul_r(a[j], c, p, p0i);
}
__attribute__((noinline)) static void ref_pmul(uint32_t *r, const uint32_t *a, const uint32_t *b,
                                               size_t m, uint32_t p, uint32_t p0i)
{
    for (size_t u = 0; u < m; u++) r[u] = mp_mmul_r(a[u], b[u], p, p0i);
}
static uint32_t intt_scale(const modp_t *q, unsigned logm)
{
    uint32_t c = q->r2;
    for (unsigned i = 0; i < logm; i++) c = (c + (q->p & ((uint32_t)0 - (c & 1)))) >> 1;
    return c;
}

/* ---- test ---- */
static uint32_t rng = 0x2545F491u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
/* guard words around every buffer catch overruns */
#define GUARD 0xA5A5A5A5u
static uint32_t buf[6][1024 + 2];
static uint32_t psi[1024], ipsi[1024], pw[1024];
static unsigned bad, checks;

static void fill(uint32_t *x, size_t m, uint32_t p, unsigned kind)
{
    for (size_t u = 0; u < m; u++)
        x[u] = kind == 1 ? 0 : kind == 2 ? p - 1 : kind == 3 && (next() & 1) ? p - 1 - (next() & 7) : next() % p;
}
static void guard(void)
{
    for (int i = 0; i < 6; i++) buf[i][0] = buf[i][1024 + 1] = GUARD;
}
static void cmp(const char *what, unsigned pi, unsigned logm, unsigned kind, const uint32_t *x,
                const uint32_t *y, size_t m)
{
    checks++;
    for (size_t u = 0; u < m; u++)
        if (x[u] != y[u]) {
            if (bad++ < 8) {
                char b[128];
                int k = snprintf(b, sizeof b, "bad %s p%u logm %u kind %u at %u: %08lx != %08lx\n", what, pi,
                                 logm, kind, (unsigned)u, (unsigned long)x[u], (unsigned long)y[u]);
                pqlab_hal_send(b, (size_t)k);
            }
            return;
        }
}
static void dump(const char *tag, const uint32_t *x, size_t m)
{
    char b[16];
    pqlab_hal_send(tag, strlen(tag));
    for (size_t u = 0; u < m; u++) {
        int k = snprintf(b, sizeof b, " %lu", (unsigned long)x[u]);
        pqlab_hal_send(b, (size_t)k);
    }
    pqlab_hal_send("\n", 1);
}

__attribute__((noinline)) static void ct_run(uint64_t *t, uint32_t *A, uint32_t *E, unsigned logm,
                                             uint32_t c, const modp_t *q)
{
    size_t m = (size_t)1 << logm;
    uint64_t t0 = pqlab_hal_cycles();
    pqlab_fndsa_mp_ntt_native(A, psi, logm, q->p, q->p0i);
    uint64_t t1 = pqlab_hal_cycles();
    pqlab_fndsa_mp_intt_native(E, ipsi, logm, c, q->p, q->p0i);
    uint64_t t2 = pqlab_hal_cycles();
    pqlab_fndsa_mp_pmul_native(A, A, E, m, q->p, q->p0i);
    uint64_t t3 = pqlab_hal_cycles();
    t[0] = t1 - t0;
    t[1] = t2 - t1;
    t[2] = t3 - t2;
}

int main(void)
{
    char b[160];
    pqlab_hal_setup();
    guard();
    uint32_t *A = buf[0] + 1, *B = buf[1] + 1, *C = buf[2] + 1, *D = buf[3] + 1, *E = buf[4] + 1,
             *F = buf[5] + 1;
    for (unsigned pi = 0; pi < NPR; pi++) {
        modp_t q;
        modp_init(&q, PR[pi][0]);
        const uint32_t p = q.p, p0i = q.p0i;
        for (unsigned logm = 0; logm <= 10; logm++) {
            size_t m = (size_t)1 << logm;
            mp_roots(psi, ipsi, pw, PR[pi][1], logm, &q);
            uint32_t c = intt_scale(&q, logm);
            for (unsigned kind = 0; kind < 5; kind++) {
                fill(A, m, p, kind < 3 ? kind : kind - 2);
                fill(E, m, p, kind == 4 ? 2 : 0);
                memcpy(B, A, 4 * m);
                int show = pi == 0 && logm <= @CHECKED_LOGM@ && kind == 0;
                if (show) {
                    snprintf(b, sizeof b, "ntt %u %lu %lu %lu", logm, (unsigned long)p,
                             (unsigned long)PR[pi][1], (unsigned long)c);
                    dump(b, A, 0);
                    dump("in", A, m);
                }
                ref_ntt(A, psi, logm, &q);
                pqlab_fndsa_mp_ntt_native(B, psi, logm, p, p0i);
                cmp("ntt", pi, logm, kind, A, B, m);
                if (show) dump("out", B, m);
                /* pointwise products: into a third array and in place (r = a) */
                ref_pmul(C, A, E, m, p, p0i);
                pqlab_fndsa_mp_pmul_native(D, B, E, m, p, p0i);
                cmp("pmul", pi, logm, kind, C, D, m);
                pqlab_fndsa_mp_pmul_native(B, B, E, m, p, p0i);
                cmp("pmul in place", pi, logm, kind, C, B, m);
                /* inverse of the products and of fresh inputs of the same kind */
                memcpy(D, C, 4 * m);
                ref_intt(C, ipsi, logm, c, &q);
                pqlab_fndsa_mp_intt_native(D, ipsi, logm, c, p, p0i);
                cmp("intt", pi, logm, kind, C, D, m);
                fill(F, m, p, kind < 3 ? kind : 3);
                memcpy(D, F, 4 * m);
                if (show) dump("iin", F, m);
                ref_intt(F, ipsi, logm, c, &q);
                pqlab_fndsa_mp_intt_native(D, ipsi, logm, c, p, p0i);
                if (show) dump("iout", D, m);
                cmp("intt fresh", pi, logm, kind, F, D, m);
            }
            for (int i = 0; i < 6; i++)
                if (buf[i][0] != GUARD || buf[i][1024 + 1] != GUARD) {
                    int k = snprintf(b, sizeof b, "bad guard %d p%u logm %u\n", i, pi, logm);
                    pqlab_hal_send(b, (size_t)k);
                    bad++;
                    guard();
                }
        }
        /* pmul with m not a multiple of 4 */
        for (size_t m = 1; m < 12; m++) {
            fill(A, m, p, 0);
            fill(E, m, p, 0);
            ref_pmul(C, A, E, m, p, p0i);
            pqlab_fndsa_mp_pmul_native(D, A, E, m, p, p0i);
            D[m] = C[m];
            cmp("pmul odd m", pi, (unsigned)m, 0, C, D, m + 1);
        }
    }
    int k = snprintf(b, sizeof b, "total %u %u\n", checks, bad);
    pqlab_hal_send(b, (size_t)k);
    /* time: one call of each (C reference, then the assembly) on the first prime */
    {
        modp_t q;
        modp_init(&q, PR[0][0]);
        for (unsigned i = 0; i < @NTIMED@; i++) {
            static const unsigned tl[] = {@TIMED@};
            unsigned logm = tl[i];
            size_t m = (size_t)1 << logm;
            mp_roots(psi, ipsi, pw, PR[0][1], logm, &q);
            uint32_t c = intt_scale(&q, logm);
            fill(A, m, q.p, 0);
            fill(E, m, q.p, 0);
            uint64_t t[7];
            t[0] = pqlab_hal_cycles();
            ref_ntt(A, psi, logm, &q);
            t[1] = pqlab_hal_cycles();
            pqlab_fndsa_mp_ntt_native(A, psi, logm, q.p, q.p0i);
            t[2] = pqlab_hal_cycles();
            ref_intt(A, ipsi, logm, c, &q);
            t[3] = pqlab_hal_cycles();
            pqlab_fndsa_mp_intt_native(A, ipsi, logm, c, q.p, q.p0i);
            t[4] = pqlab_hal_cycles();
            ref_pmul(A, A, E, m, q.p, q.p0i);
            t[5] = pqlab_hal_cycles();
            pqlab_fndsa_mp_pmul_native(A, A, E, m, q.p, q.p0i);
            t[6] = pqlab_hal_cycles();
            k = snprintf(b, sizeof b, "time %u %llu %llu %llu %llu %llu %llu\n", logm,
                         (unsigned long long)(t[1] - t[0]), (unsigned long long)(t[2] - t[1]),
                         (unsigned long long)(t[3] - t[2]), (unsigned long long)(t[4] - t[3]),
                         (unsigned long long)(t[5] - t[4]), (unsigned long long)(t[6] - t[5]));
            pqlab_hal_send(b, (size_t)k);
            /* constant time: the assembly on all-zero, all-(p-1) and random inputs, through
             * one (not inlined) timing function so that every run has the same code around
             * the timer reads */
            for (unsigned kind = 0; kind < 3; kind++) {
                fill(A, m, q.p, kind);
                fill(E, m, q.p, 2 - kind);
                ct_run(t, A, E, logm, c, &q);
                k = snprintf(b, sizeof b, "ct %u %u %llu %llu %llu\n", logm, kind, (unsigned long long)t[0],
                             (unsigned long long)t[1], (unsigned long long)t[2]);
                pqlab_hal_send(b, (size_t)k);
            }
        }
    }
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""


def build_and_run(platform: str, tmp: Path) -> list[str]:
    src = tmp / "fw.c"
    text = FIRMWARE.replace("@PRIMES@", ", ".join(f"{{{p}u, {g}u}}" for p, g in PRIMES))
    text = text.replace("@CHECKED_LOGM@", str(CHECKED_LOGM)).replace("@NTIMED@", str(len(TIMED)))
    text = text.replace("@TIMED@", ", ".join(map(str, TIMED)))
    src.write_text(text)
    out = firmware.build_and_run(platform, tmp, [src, NATIVE / "fndsa_modp.S"], include=[NATIVE, NATIVE.parent])
    return out.replace("\r", "").splitlines()


def bitrev(k: int, bits: int) -> int:
    return int(f"{k:0{bits}b}"[::-1], 2) if bits else 0


def python_checks(lines: list[str]) -> int:
    """The printed transforms against their definition; returns how many were checked."""
    checked = 0
    for i, ln in enumerate(lines):
        if not ln.startswith("ntt "):
            continue
        logm, p, g, c = map(int, ln.split()[1:])
        m = 1 << logm
        tags = [lines[i + k].split()[0] for k in range(1, 5)]
        assert tags == ["in", "out", "iin", "iout"], tags
        fin, fout, iin, iout = ([int(v) for v in lines[i + k].split()[1:]] for k in range(1, 5))
        assert len(fin) == len(fout) == len(iin) == len(iout) == m
        w = pow(g, 1 << (10 - logm), p)  # primitive 2m-th root, as mp_roots derives it
        assert m == 1 or pow(w, m, p) == p - 1
        rinv = pow(1 << 32, -1, p)
        for k in range(m):
            # negacyclic NTT, bit-reversed order: out[k] = in(w^(2 brv(k) + 1))
            e = 2 * bitrev(k, logm) + 1
            assert fout[k] == sum(fin[j] * pow(w, e * j, p) for j in range(m)) % p, (logm, k)
        for j in range(m):
            # inverse without the 1/m, times c / 2^32 (c = 2^64 / m: the product scaling)
            acc = sum(iin[k] * pow(w, -(2 * bitrev(k, logm) + 1) * j, p) for k in range(m))
            assert iout[j] == acc * c * rinv % p, (logm, j)
        checked += 1
    return checked


@pytest.mark.parametrize("platform", ["mps2-an386", "m4-sim", "mps2-an500", "m7-sim"])
def test_native_modp(platform: str, tmp_path: Path) -> None:
    lines = build_and_run(platform, tmp_path)
    assert lines and lines[-1] == "end", lines[-5:]
    bad = [ln for ln in lines if ln.startswith("bad ")]
    assert not bad, f"{platform}: assembly differs from the C code:\n" + "\n".join(bad)
    total = [ln.split() for ln in lines if ln.startswith("total ")]
    nchecks = len(PRIMES) * (11 * 5 * 5 + 11)
    assert total == [["total", str(nchecks), "0"]], total
    assert python_checks(lines) == CHECKED_LOGM + 1
    times = {int(f[1]): list(map(int, f[2:])) for f in (ln.split() for ln in lines if ln.startswith("time "))}
    assert sorted(times) == TIMED
    print(f"\n{platform}: {nchecks} comparisons agree; cycles per call (C / asm), timer units:")
    for logm, (nc, na, ic, ia, pc, pa) in sorted(times.items()):
        print(f"  logm {logm:2}: ntt {nc:7} / {na:6}   intt {ic:7} / {ia:6}   pmul {pc:6} / {pa:5}")
    ct = [ln.split()[1:] for ln in lines if ln.startswith("ct ")]
    assert len(ct) == 3 * len(TIMED)
    if firmware.timing_shows_data_independence(platform):
        for logm in TIMED:
            runs = {tuple(f[2:]) for f in ct if int(f[0]) == logm}
            assert len(runs) == 1, f"{platform}: logm {logm}: cycles depend on the data: {runs}"
    if platform == "m4-sim":
        for logm, (nc, na, ic, ia, pc, pa) in times.items():
            assert na < 0.6 * nc and ia < 0.6 * ic and pa < 0.8 * pc, (logm, times[logm])
