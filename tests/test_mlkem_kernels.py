"""Unit tests of the ML-KEM kernels (lib/mlkem/kernels.h, portable C versions *_c) against a
direct Python model of FIPS 203 (tests/mlkem/model.py): edge values (0, q-1, the largest
magnitudes each kernel's contract admits) and random inputs, for every parameter set (which
covers d = 1, 4, 5, 10, 11, 12 and eta = 2, 3). The arithmetic of reduce.h is checked
exhaustively where it is claimed exhaustively."""

from __future__ import annotations

import ctypes
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "mlkem"))
import model
from support import PARAMS, mlkem

Q = model.Q
R = 1 << 16
RINV = pow(R, -1, Q)
Poly = ctypes.c_int16 * 256
SETS = list(PARAMS)


def poly(vals) -> Poly:
    return Poly(*vals)


def edge_polys(lo: int, hi: int, rng: random.Random, count: int = 12) -> list[list[int]]:
    """All-zero, all-lo, all-hi, alternating extremes, and random polys in [lo, hi]."""
    out = [[0] * 256, [lo] * 256, [hi] * 256, [lo if i % 2 else hi for i in range(256)]]
    out.append([rng.choice((lo, hi, 0, min(Q - 1, hi))) for _ in range(256)])
    out += [[rng.randint(lo, hi) for _ in range(256)] for _ in range(count)]
    return out


def k_(name: str, kernel: str):
    return mlkem(name).fn(f"mlkem_{kernel}_c")


def test_barrett_exhaustive() -> None:
    lib = mlkem("ML-KEM-768").lib
    out = (ctypes.c_int16 * 65536)()
    lib.pqlab_test_barrett_all(out)
    for i, r in enumerate(out):
        a = i - 32768
        assert (r - a) % Q == 0 and -(Q - 1) // 2 <= r <= (Q - 1) // 2, (a, r)


def test_montgomery_and_caddq() -> None:
    lib = mlkem("ML-KEM-768").lib
    lib.pqlab_test_montgomery.restype = ctypes.c_int16
    lib.pqlab_test_caddq.restype = ctypes.c_int16
    rng = random.Random(1)
    bound = Q * (1 << 15) - 1  # contract: |a| < q 2^15
    vals = [0, 1, -1, bound, -bound, bound - 1, -bound + 1] + [rng.randint(-bound, bound) for _ in range(20000)]
    for a in vals:
        r = lib.pqlab_test_montgomery(ctypes.c_int32(a))
        assert (r * R - a) % Q == 0 and -Q < r < Q, (a, r)
    for a in range(-Q + 1, Q):
        r = lib.pqlab_test_caddq(ctypes.c_int16(a))
        assert r == a % Q


@pytest.mark.parametrize("name", SETS)
def test_ntt(name: str) -> None:
    f = k_(name, "ntt")
    rng = random.Random(2)
    for vals in edge_polys(-(Q - 1), Q - 1, rng):
        p = poly(vals)
        f(p)
        out = list(p)
        assert out == [x if x <= (Q - 1) // 2 else x - Q for x in model.ntt(vals)], "not NTT / not reduced"


@pytest.mark.parametrize("name", SETS)
def test_invntt(name: str) -> None:
    f = k_(name, "invntt")
    rng = random.Random(3)
    for vals in edge_polys(-32768, 32767, rng):
        p = poly(vals)
        f(p)
        want = [x * R % Q for x in model.invntt(vals)]
        assert [x % Q for x in p] == want
        assert all(-Q < x < Q for x in p)
    # round trip: invntt(ntt(a)) = a * R
    ntt = k_(name, "ntt")
    for vals in edge_polys(-(Q - 1), Q - 1, rng, 4):
        p = poly(vals)
        ntt(p)
        f(p)
        assert [x % Q for x in p] == [x * R % Q for x in vals]


@pytest.mark.parametrize("name", SETS)
def test_basemul_acc(name: str) -> None:
    f = k_(name, "basemul_acc")
    rng = random.Random(4)
    edges = edge_polys(-(Q - 1), Q - 1, rng, 6)
    for a in edges:
        b = rng.choice(edges)
        # accumulator at the edge of the contract: |r| <= 6q before the call
        r0 = [rng.choice((6 * Q, -6 * Q, 0, rng.randint(-6 * Q, 6 * Q))) for _ in range(256)]
        r = poly(r0)
        f(r, poly(a), poly(b))
        prod = model.multiply_ntts([x % Q for x in a], [x % Q for x in b])
        assert [x % Q for x in r] == [(r0[i] + prod[i] * RINV) % Q for i in range(256)]
        assert all(abs(r[i] - r0[i]) < 2 * Q for i in range(256))


@pytest.mark.parametrize("name", SETS)
def test_basemul_pairs_and_rej_bulk(name: str) -> None:
    """basemul_pairs on a range of pairs (a from its own array) and rej_bulk (the candidate
    selection of Algorithm 7) against the model."""
    f = k_(name, "basemul_pairs")
    rng = random.Random(7)
    for p0, n in [(0, 128), (127, 1), (5, 0), (1, 64), (64, 64), (33, 17)]:
        a = [rng.randint(-(Q - 1), Q - 1) for _ in range(256)]
        b = [rng.randint(-(Q - 1), Q - 1) for _ in range(256)]
        r0 = [rng.randint(-6 * Q, 6 * Q) for _ in range(256)]
        r = poly(r0)
        pa = poly(a[: 2 * n] + [0] * (256 - 2 * n))
        pb = poly(b)
        f(ctypes.byref(r, 4 * p0), pa, ctypes.byref(pb, 4 * p0), p0, n)
        full = [0] * (2 * p0) + a[: 2 * n] + [0] * (256 - 2 * p0 - 2 * n)
        prod = model.multiply_ntts([x % Q for x in full], [x % Q for x in b])
        for i in range(256):
            if 2 * p0 <= i < 2 * (p0 + n):
                assert (r[i] - r0[i] - prod[i] * RINV) % Q == 0 and abs(r[i] - r0[i]) < 2 * Q, (p0, n, i)
            else:
                assert r[i] == r0[i], (p0, n, i)
    rej = k_(name, "rej_bulk")
    rej.restype = ctypes.c_uint
    for raw in [bytes(168), b"\xff" * 168, rng.randbytes(168), rng.randbytes(168)]:
        for g in (0, 1, 7, 14):
            cand = (ctypes.c_int16 * 113)()
            n = rej(cand, raw, g)
            vals = []
            for pos in range(0, 12 * g, 3):
                d1 = raw[pos] | (raw[pos + 1] & 15) << 8
                d2 = raw[pos + 1] >> 4 | raw[pos + 2] << 4
                vals += [d for d in (d1, d2) if d < Q]
            assert list(cand[:n]) == vals


@pytest.mark.parametrize("name", SETS)
def test_canonical(name: str) -> None:
    f = k_(name, "canonical")
    for off in range(-32768, 32768, 256):
        p = poly(range(off, off + 256))
        f(p)
        assert list(p) == [x % Q for x in range(off, off + 256)]


@pytest.mark.parametrize("name", SETS)
def test_tomont_add(name: str) -> None:
    f = k_(name, "tomont_add")
    rng = random.Random(8)
    for r0 in edge_polys(-32768, 32767, rng, 4):
        b = [rng.randint(-Q, Q) for _ in range(256)]
        r = poly(r0)
        f(r, poly(b))
        assert [x % Q for x in r] == [(r0[i] * R + b[i]) % Q for i in range(256)]
        assert all(abs(r[i] - b[i]) < Q for i in range(256))


@pytest.mark.parametrize("name", SETS)
def test_bytes12(name: str) -> None:
    to, frm = k_(name, "tobytes12"), k_(name, "frombytes12")
    rng = random.Random(5)
    for vals in edge_polys(0, Q - 1, rng):
        out = ctypes.create_string_buffer(384)
        to(out, poly(vals))
        assert out.raw == model.byte_encode(vals, 12)
    for raw in [bytes(384), b"\xff" * 384, bytes([0x01, 0xD0, 0xFF]) * 128] + [rng.randbytes(384) for _ in range(10)]:
        p = Poly()
        frm(p, raw)
        assert list(p) == model.byte_decode(raw, 12)  # reduces mod q (4095 -> 766)


@pytest.mark.parametrize("name", SETS)
def test_compress_exhaustive_and_decompress(name: str) -> None:
    p = PARAMS[name]
    rng = random.Random(6)
    for d, kname in ((p.du, "du"), (p.dv, "dv")):
        comp, decomp = k_(name, f"compress_{kname}"), k_(name, f"decompress_{kname}")
        allx = list(range(Q)) + [Q - 1] * (14 * 256 - Q)
        for off in range(0, len(allx), 256):
            vals = allx[off : off + 256]
            out = ctypes.create_string_buffer(32 * d)
            comp(out, poly(vals))
            assert out.raw == model.byte_encode([model.compress(x, d) for x in vals], d), d
        for raw in [bytes(32 * d), b"\xff" * (32 * d)] + [rng.randbytes(32 * d) for _ in range(10)]:
            q = Poly()
            decomp(q, raw)
            assert list(q) == [model.decompress(y, d) for y in model.byte_decode(raw, d)]


@pytest.mark.parametrize("name", SETS)
def test_message(name: str) -> None:
    frommsg, tomsg = k_(name, "frommsg"), k_(name, "tomsg")
    rng = random.Random(7)
    for m in [bytes(32), b"\xff" * 32] + [rng.randbytes(32) for _ in range(10)]:
        p = Poly()
        frommsg(p, m)
        assert list(p) == [model.decompress(b, 1) for b in model.byte_decode(m, 1)]
        r0 = [rng.randint(-32767 + 1665, 32767 - 1665) for _ in range(256)]  # frommsg_add's bound
        r = poly(r0)
        k_(name, "frommsg_add")(r, m)
        assert list(r) == [a + model.decompress(b, 1) for a, b in zip(r0, model.byte_decode(m, 1), strict=True)]
    for off in range(0, Q + 255, 256):  # every x in [0, q) through Compress_1
        vals = [min(x, Q - 1) for x in range(off, off + 256)]
        out = ctypes.create_string_buffer(32)
        tomsg(out, poly(vals))
        assert out.raw == model.byte_encode([model.compress(x, 1) for x in vals], 1)


@pytest.mark.parametrize("name", SETS)
def test_sample_ntt(name: str) -> None:
    one, four = k_(name, "sample_ntt"), k_(name, "sample_ntt_x4")
    rng = random.Random(8)
    for _ in range(4):
        rho = rng.randbytes(32)
        xy = bytes(rng.randrange(256) for _ in range(8))
        ps = [Poly() for _ in range(4)]
        four(*ps, rho, xy)
        for t in range(4):
            want = model.sample_ntt(rho + xy[2 * t : 2 * t + 2])
            assert list(ps[t]) == want
            p = Poly()
            one(p, rho, ctypes.c_uint8(xy[2 * t]), ctypes.c_uint8(xy[2 * t + 1]))
            assert list(p) == want


@pytest.mark.parametrize("name", SETS)
def test_cbd(name: str) -> None:
    p = PARAMS[name]
    rng = random.Random(9)
    for kname, eta in (("cbd_eta1", p.eta1), ("cbd_eta2", 2)):
        f = k_(name, kname)
        for buf in [bytes(64 * eta), b"\xff" * (64 * eta), bytes([0x0F]) * (64 * eta)] + [
            rng.randbytes(64 * eta) for _ in range(10)
        ]:
            r = Poly()
            f(r, buf)
            assert [x % Q for x in r] == model.sample_cbd(buf, eta)
            assert all(-eta <= x <= eta for x in r)
    add = k_(name, "cbd_eta2_add")  # r += CBD_2(buf), r up to the contract's 2^15 - 3
    for r0 in edge_polys(-32765, 32765, rng, 4):
        buf = rng.randbytes(128)
        r = poly(r0)
        add(r, buf)
        e = model.sample_cbd(buf, 2)
        assert [r[i] - r0[i] for i in range(256)] == [x if x <= 2 else x - Q for x in e]


Poly32 = ctypes.c_int32 * 256
Cache = ctypes.c_int16 * 128


def gammas() -> list[int]:
    """gamma_p = zeta^(2 BitRev7(p) + 1) mod q (FIPS 203 Algorithm 11)."""
    return [pow(17, 2 * int(f"{p:07b}"[::-1], 2) + 1, Q) for p in range(128)]


@pytest.mark.parametrize("name", SETS)
def test_mulcache_pairs32_reduce32(name: str) -> None:
    """mulcache (b1 gamma mod q, |.| < q), basemul_pairs32 (Algorithm 12 unreduced, exact in
    32 bits) and reduce32 (Montgomery, |c| < q 2^15 in, |c| < q out) against the model, at
    the edges of their contracts; four products accumulated reduce to the model's sum R^-1."""
    cache, pairs32, red = k_(name, "mulcache"), k_(name, "basemul_pairs32"), k_(name, "reduce32")
    rng = random.Random(12)
    g = gammas()
    for b in edge_polys(-(Q - 1), Q - 1, rng, 6):
        bg = Cache()
        cache(bg, poly(b))
        assert all(abs(x) < Q and (x - b[2 * p + 1] * g[p]) % Q == 0 for p, x in enumerate(bg))
    edges = edge_polys(-(Q - 1), Q - 1, rng, 4)
    for trial in range(6):
        acc = Poly32()
        want = [0] * 256
        for _ in range(4):  # k <= 4 terms, the bound of every call
            a, b = rng.choice(edges), rng.choice(edges)
            if trial == 0:  # the largest terms: |a0 b0 + a1 bg| close to 2 q^2
                a, b = [Q - 1] * 256, [Q - 1] * 256
            bg = Cache()
            cache(bg, poly(b))
            pa, pb = poly(a), poly(b)
            p0, n = (0, 128) if trial < 3 else (rng.randrange(128), 0)
            n = n or rng.randrange(129 - p0)
            before = list(acc)
            pairs32(ctypes.byref(acc, 8 * p0), pa, ctypes.byref(pb, 4 * p0), ctypes.byref(bg, 2 * p0), n)
            for i in range(256):
                p = i // 2
                if p0 <= p < p0 + n:
                    a0, a1, b0, b1, c = a[2 * p - 2 * p0], a[2 * p - 2 * p0 + 1], b[2 * p], b[2 * p + 1], bg[p]
                    t = a0 * b0 + a1 * c if i % 2 == 0 else a0 * b1 + a1 * b0
                    assert acc[i] == before[i] + t and abs(t) < 2 * Q * Q, (trial, i)
                    want[i] += (a0 * b0 + a1 * b1 * g[p]) if i % 2 == 0 else t
                else:
                    assert acc[i] == before[i], (trial, i)
        r = Poly()
        red(r, acc)
        assert all(abs(x) < Q for x in r)
        assert [x % Q for x in r] == [w * RINV % Q for w in want]
    bound = Q * (1 << 15) - 1
    radd = k_(name, "reduce32_add")
    for vals in (
        [bound, -bound, 0, 1, -1] + [rng.randint(-bound, bound) for _ in range(251)],
        [bound] * 256,
        [-bound] * 256,
        [(2 * i + 1) * Q // 2 for i in range(128)] + [-(2 * i + 1) * Q // 2 for i in range(128)],
    ):
        r = Poly()
        a = Poly32(*vals)
        red(r, a)
        assert all(abs(x) < Q and (x - v * RINV) % Q == 0 for x, v in zip(r, vals, strict=True))
        assert list(a) == vals  # input only
        b = [rng.choice((-(Q - 1), Q - 1, rng.randint(-(Q - 1), Q - 1))) for _ in range(256)]
        a = Poly32(*vals)
        pb = poly(b)
        radd(pb, a, pb)  # r = b, in place, as the frontend calls it
        assert all(abs(x - y) <= 1699 and (x - y - v) % Q == 0 for x, y, v in zip(pb, b, vals, strict=True))
        assert list(a) == vals


@pytest.mark.parametrize("name", SETS)
def test_matacc_fused(name: str) -> None:
    """matacc / matacc_x4 (fused SampleNTT + unreduced base multiplication into 32-bit
    accumulators) against the model: acc += SampleNTT(rho || x || y) o vec exactly mod q,
    with accumulators shared between lanes and vector coefficients at the edges (+-(q-1));
    matacc_x4's fresh lanes (h101): their accumulator, whatever it held, becomes the sum of
    its lanes' products (here: none, one or both accumulators fresh)."""
    one, four, cache = k_(name, "matacc"), k_(name, "matacc_x4"), k_(name, "mulcache")
    rng = random.Random(10)
    edges = edge_polys(-(Q - 1), Q - 1, rng, 4)
    for trial in range(4):
        rho = rng.randbytes(32)
        xy = bytes(rng.randrange(256) for _ in range(8))
        vecs = [poly(rng.choice(edges)) for _ in range(4)]
        caches = [Cache() for _ in range(4)]
        for v, c in zip(vecs, caches, strict=True):
            cache(c, v)
        accs0 = [[rng.randint(-2 * Q * Q, 2 * Q * Q) for _ in range(256)] for _ in range(2)]
        accs = [Poly32(*a) for a in accs0]
        lanes = [0, 0, 1, 1] if trial % 2 else [0, 1, 0, 1]  # two lanes per accumulator
        acc_ptrs = (ctypes.POINTER(Poly32) * 4)(*[ctypes.pointer(accs[lanes[t]]) for t in range(4)])
        vec_ptrs = (ctypes.POINTER(Poly) * 4)(*[ctypes.pointer(v) for v in vecs])
        cache_ptrs = (ctypes.POINTER(Cache) * 4)(*[ctypes.pointer(c) for c in caches])
        fresh_accs = [[], [0], [1], [0, 1]][trial]
        fresh = sum(1 << t for t in range(4) if lanes[t] in fresh_accs)
        four(acc_ptrs, vec_ptrs, cache_ptrs, rho, xy, ctypes.c_uint(fresh))
        want = [[0] * 256 if a in fresh_accs else list(accs0[a]) for a in range(2)]
        for t in range(4):
            entry = model.sample_ntt(rho + xy[2 * t : 2 * t + 2])
            prod = model.multiply_ntts(entry, [x % Q for x in vecs[t]])
            want[lanes[t]] = [want[lanes[t]][i] + prod[i] for i in range(256)]
        for a, w in zip(accs, want, strict=True):
            assert [x % Q for x in a] == [x % Q for x in w]
            assert all(abs(x) < 6 * Q * Q for x in a)
        acc = Poly32(*accs0[0])
        one(
            ctypes.byref(acc),
            ctypes.byref(vecs[0]),
            ctypes.byref(caches[0]),
            rho,
            ctypes.c_uint8(xy[0]),
            ctypes.c_uint8(xy[1]),
        )
        prod = model.multiply_ntts(model.sample_ntt(rho + xy[:2]), [x % Q for x in vecs[0]])
        assert [x % Q for x in acc] == [(accs0[0][i] + prod[i]) % Q for i in range(256)]


@pytest.mark.parametrize("name", SETS)
def test_add(name: str) -> None:
    f = k_(name, "add")
    rng = random.Random(10)
    for r0 in edge_polys(-16383, 16383, rng, 4):
        b = [rng.randint(-16384, 16384) for _ in range(256)]
        r = poly(r0)
        f(r, poly(b))
        assert list(r) == [r0[i] + b[i] for i in range(256)]


@pytest.mark.parametrize("name", SETS)
def test_check12(name: str) -> None:
    """FIPS 203 section 7.2: ByteEncode_12(ByteDecode_12(x)) == x, i.e. every value < q."""
    f = k_(name, "check12")
    f.restype = ctypes.c_uint32
    rng = random.Random(11)
    for n in (1, 2, 7, 32, 96):
        vals = [rng.randrange(Q) for _ in range(8 * n)]
        assert f(model.byte_encode(vals, 12), 12 * n) == 0
        for bad in (Q, 4095):
            v = list(vals)
            v[rng.randrange(len(v))] = bad
            raw = model.byte_encode(v, 12)
            assert f(raw, 12 * n) != 0
            assert model.byte_encode([x % Q for x in model.byte_decode(raw, 12)], 12) != raw
