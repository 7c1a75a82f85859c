"""Unit tests of the ML-DSA kernels (lib/mldsa/kernels.h) against straightforward Python models
written from FIPS 204 (Algorithms 14-19, 29-31, 34-36, 39-42), on edge and random values, for
every parameter set where the kernel depends on it: NTT / inverse NTT / pointwise products (and
the negacyclic product they compute), reductions and their output bounds, Power2Round,
Decompose (edges around every multiple of 2 gamma2; exhaustive with -m slow), MakeHint/UseHint
(FIPS 204 Lemma: UseHint(MakeHint(z, r), r) = HighBits(r + z)), the norm check, the samplers
(RejNTTPoly and ExpandMask with their 4-way variants, RejBoundedPoly, SampleInBall) and bit packing."""

from __future__ import annotations

import ctypes
import hashlib
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mldsa_support import MODES, PARAMS, Q, mldsa

N = 256
Poly = ctypes.c_int32 * N
ZETA = 1753
MONT = pow(2, 32, Q)
MONT_INV = pow(MONT, -1, Q)


def brv8(m: int) -> int:
    return int(f"{m:08b}"[::-1], 2)


def ntt_model(a: list[int]) -> list[int]:
    """FIPS 204 Algorithm 41 mod q"""
    w = [x % Q for x in a]
    m, ln = 0, 128
    while ln >= 1:
        start = 0
        while start < 256:
            m += 1
            z = pow(ZETA, brv8(m), Q)
            for j in range(start, start + ln):
                t = z * w[j + ln] % Q
                w[j + ln] = (w[j] - t) % Q
                w[j] = (w[j] + t) % Q
            start += 2 * ln
        ln //= 2
    return w


def negacyclic(a: list[int], b: list[int]) -> list[int]:
    c = [0] * N
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                k = i + j
                if k < N:
                    c[k] += x * y
                else:
                    c[k - N] -= x * y
    return [x % Q for x in c]


def poly(vals) -> ctypes.Array:
    return Poly(*vals)


def rnd_poly(rng: random.Random, lo: int, hi: int) -> list[int]:
    return [rng.randint(lo, hi) for _ in range(N)]


def centred(x: int) -> int:
    x %= Q
    return x - Q if x > Q // 2 else x


@pytest.fixture(scope="module")
def lib44():
    return mldsa(44)


def k(lib, name):
    """the portable kernel <name>_c (what native backends are compared with)"""
    return lib.fn(name + "_c")


# ---------------------------------------------------------------- NTT and arithmetic


def test_ntt_matches_model_and_bounds(lib44) -> None:
    rng = random.Random(1)
    bound_in = 2**31 - 1 - 8 * Q
    inputs = [[0] * N, [Q - 1] * N, [-(Q - 1)] * N, [bound_in] * N, [-bound_in] * N, [1] + [0] * 255]
    inputs += [rnd_poly(rng, -bound_in, bound_in) for _ in range(8)] + [rnd_poly(rng, 0, Q - 1) for _ in range(8)]
    for a in inputs:
        p = poly(a)
        k(lib44, "ntt")(p)
        assert [x % Q for x in p] == ntt_model(a)
        assert max(abs(x) for x in p) < max(abs(x) for x in a) + 8 * Q


def test_invntt_and_pointwise_give_negacyclic_product(lib44) -> None:
    rng = random.Random(2)
    for case in range(6):
        a = rnd_poly(rng, -(Q - 1), Q - 1) if case else [Q - 1] * N
        b = rnd_poly(rng, -(2**19), 2**19) if case else [-(Q - 1)] * N
        pa, pb, pc = poly(a), poly(b), Poly()
        k(lib44, "ntt")(pa)
        k(lib44, "ntt")(pb)
        k(lib44, "pointwise_mont")(pc, pa, pb)
        assert all(abs(x) < Q for x in pc)
        for i in range(N):
            assert (pc[i] - pa[i] * pb[i] * MONT_INV) % Q == 0
        k(lib44, "invntt_tomont")(pc)
        assert all(abs(x) < Q for x in pc)
        assert [x % Q for x in pc] == negacyclic(a, b)
        # accumulate: c += a o b
        acc = Poly(*([5] * N))
        k(lib44, "pointwise_acc_mont")(acc, pa, pb)
        for i in range(N):
            assert (acc[i] - 5 - pa[i] * pb[i] * MONT_INV) % Q == 0


def test_invntt_of_ntt_is_times_2_32(lib44) -> None:
    rng = random.Random(3)
    for a in ([Q - 1] * N, [-(Q - 1)] * N, rnd_poly(rng, -(Q - 1), Q - 1)):
        p = poly(a)
        k(lib44, "ntt")(p)
        k(lib44, "poly_reduce32")(p)
        k(lib44, "invntt_tomont")(p)
        assert [x % Q for x in p] == [x * MONT % Q for x in a]


def test_reduce32_caddq_bounds(lib44) -> None:
    rng = random.Random(4)
    top = 2**31 - 2**22 - 1
    vals = [top, -top, 0, Q, -Q, 2**22, -(2**22), 2**23, -(2**23)] + [rng.randint(-top, top) for _ in range(N - 9)]
    p = poly(vals)
    k(lib44, "poly_reduce32")(p)
    for x, y in zip(vals, p):
        assert (x - y) % Q == 0 and abs(y) <= 6291200
        if abs(centred(x)) < 2089217:
            assert y == centred(x)
    vals = [-(Q - 1), -1, 0, 1, Q - 1] + [rng.randint(-(Q - 1), Q - 1) for _ in range(N - 5)]
    p = poly(vals)
    k(lib44, "poly_caddq")(p)
    assert list(p) == [x % Q for x in vals]


# ---------------------------------------------------------------- rounding


def decompose_model(r: int, g2: int) -> tuple[int, int]:
    rp = r % Q
    r0 = rp % (2 * g2)
    if r0 > g2:
        r0 -= 2 * g2
    if rp - r0 == Q - 1:
        return 0, r0 - 1
    return (rp - r0) // (2 * g2), r0


def decompose_values(g2: int, rng: random.Random) -> list[int]:
    vals = set()
    for m in range(0, Q + 2 * g2, 2 * g2):
        for d in (-g2 - 1, -g2, -g2 + 1, -1, 0, 1, g2 - 1, g2, g2 + 1):
            if 0 <= m + d < Q:
                vals.add(m + d)
    vals |= {0, 1, Q - 1, Q - 2, Q - 1 - g2, Q - g2}
    vals |= {rng.randrange(Q) for _ in range(4000)}
    vals = sorted(vals)
    return vals + [0] * (-len(vals) % N)


def run_decompose(lib, vals: list[int]) -> tuple[list[int], list[int]]:
    a1, a0 = [], []
    f = k(lib, "poly_decompose")
    for i in range(0, len(vals), N):
        p1, p0 = Poly(), Poly()
        f(p1, p0, poly(vals[i : i + N]))
        a1 += list(p1)
        a0 += list(p0)
    return a1, a0


@pytest.mark.parametrize("mode", (44, 65))  # the two gamma2 values
def test_decompose(mode: int) -> None:
    lib, g2 = mldsa(mode), PARAMS[mode].gamma2
    vals = decompose_values(g2, random.Random(5))
    a1, a0 = run_decompose(lib, vals)
    for v, x1, x0 in zip(vals, a1, a0):
        assert (x1, x0) == decompose_model(v, g2), v


@pytest.mark.slow
@pytest.mark.parametrize("mode", (44, 65))
def test_decompose_exhaustive(mode: int) -> None:
    lib, g2 = mldsa(mode), PARAMS[mode].gamma2
    vals = list(range(Q)) + [0] * (-Q % N)
    a1, a0 = run_decompose(lib, vals)
    for v in range(Q):
        assert (a1[v], a0[v]) == decompose_model(v, g2), v


def test_power2round(lib44) -> None:
    rng = random.Random(6)
    vals = [0, 1, 4095, 4096, 4097, 8191, 8192, Q - 1, Q - 4096, Q - 4097] + [rng.randrange(Q) for _ in range(N - 10)]
    a1, a0 = Poly(), Poly()
    k(lib44, "poly_power2round")(a1, a0, poly(vals))
    for v, x1, x0 in zip(vals, a1, a0):
        r0 = v % 8192
        if r0 > 4096:
            r0 -= 8192
        assert (x1, x0) == ((v - r0) >> 13, r0)
        assert 0 <= x1 < 1024


@pytest.mark.parametrize("mode", (44, 65))
def test_hints(mode: int) -> None:
    """MakeHint in the form signing uses, against the model; and FIPS 204's property
    UseHint(MakeHint(z, r), r) = HighBits(r + z) for ||z|| <= gamma2."""
    lib, g2 = mldsa(mode), PARAMS[mode].gamma2
    rng = random.Random(7)
    for case in range(20):
        r = [rng.randrange(Q) for _ in range(N)]
        if case == 0:
            r = [(j * 2 * g2 + rng.choice((-1, 0, 1))) % Q for j in range(N)]
        z = [rng.randint(-g2, g2) for _ in range(N)]
        # kernel form: h_i = [HighBits(r' + d) != HighBits(r')] with r' = r + z, d = -z
        rp = [(x + y) % Q for x, y in zip(r, z)]
        h = Poly()
        cnt = k(lib, "poly_make_hint")(h, poly(rp), poly([-y for y in z]))
        model = [int(decompose_model(a, g2)[0] != decompose_model(a - y, g2)[0]) for a, y in zip(rp, z)]
        assert list(h) == model and cnt == sum(model)
        # UseHint(h, r) recovers HighBits(r + z)  (h = MakeHint(z, r) = [HB(r) != HB(r + z)])
        hb = (ctypes.c_uint8 * N)(*model)
        b = Poly()
        k(lib, "poly_use_hint")(b, poly(r), hb)
        assert list(b) == [decompose_model(x, g2)[0] for x in rp]


def hint_low_model(a0: int, a1: int, g2: int) -> int:
    return int(a0 > g2 or a0 < -g2 or (a0 == -g2 and a1 != 0))


def hint_low_cases(g2: int, beta: int, step: int):
    """(r, d) with |r0| < gamma2 - beta and |d| < gamma2 (accepted iterations), for every r1
    (and the wrap r1 = 0 of r near q - 1) and every s = r0 + d of that range (step 1: all;
    HighBits(r + d) depends on r and d only through r1 and s, so any split of s will do)"""
    lim = g2 - beta
    for r1 in range((Q - 1) // (2 * g2)):
        for wrap in (False, True) if r1 == 0 else (False,):
            for s in range(-(lim - 1) - (g2 - 1), lim + g2 - 1, step):
                r0 = max(min(s, lim - 1), -(lim - 1))
                r = Q + r0 if wrap else r1 * 2 * g2 + r0
                if 0 <= r < Q and decompose_model(r, g2) == (r1, r0):
                    yield r, s - r0


def check_hint_low(mode: int, step: int) -> int:
    """make_hint_low on (r0, d, r1) equals FIPS 204's MakeHint(-d, r + d) = [HighBits(r + d)
    != HighBits(r)] on the accepted range"""
    lib, g2, beta = mldsa(mode), PARAMS[mode].gamma2, {44: 78, 65: 196, 87: 120}[mode]
    f = k(lib, "poly_make_hint_low")
    cases = list(hint_low_cases(g2, beta, step))
    cases += [cases[0]] * (-len(cases) % N)
    for i in range(0, len(cases), N):
        chunk = cases[i : i + N]
        dec = [decompose_model(r, g2) for r, _ in chunk]
        a1, a0, d = poly([x[0] for x in dec]), poly([x[1] for x in dec]), poly([x[1] for x in chunk])
        h = Poly()
        cnt = f(h, a0, d, a1)
        model = [int(decompose_model(r + y, g2)[0] != r1) for (r, y), (r1, _) in zip(chunk, dec)]
        assert list(h) == model and cnt == sum(model), i
        # h may alias a1
        cnt2 = f(a1, a0, d, a1)
        assert list(a1) == model and cnt2 == cnt
    return len(cases)


@pytest.mark.parametrize("mode", MODES)
def test_make_hint_low(mode: int) -> None:
    assert check_hint_low(mode, 997) > 1000
    # outside the accepted range the kernel is the formula of kernels.h (any value)
    g2 = PARAMS[mode].gamma2
    lib = mldsa(mode)
    rng = random.Random(8)
    a0 = [rng.choice((-g2, -g2 + 1, g2, g2 + 1, 0)) for _ in range(N)]
    d = [rng.choice((0, 0, 1, -1, (1 << 22) - 1, 1 - (1 << 22))) for _ in range(N)]
    a1 = [rng.choice((0, 1)) for _ in range(N)]
    h = Poly()
    k(lib, "poly_make_hint_low")(h, poly(a0), poly(d), poly(a1))
    assert list(h) == [hint_low_model(x + y, z, g2) for x, y, z in zip(a0, d, a1)]


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_make_hint_low_exhaustive(mode: int) -> None:
    assert check_hint_low(mode, 1) > 10**7


def test_use_hint_wraps(lib44) -> None:
    g2 = PARAMS[44].gamma2
    m = (Q - 1) // (2 * g2)
    vals = [Q - 1, 0, 1, g2, g2 + 1, Q - g2 - 1, (m - 1) * 2 * g2 + 1, (m - 1) * 2 * g2 - 1]
    vals += [0] * (N - len(vals))
    hb = (ctypes.c_uint8 * N)(*([1] * N))
    b = Poly()
    k(lib44, "poly_use_hint")(b, poly(vals), hb)
    for v, x in zip(vals, b):
        r1, r0 = decompose_model(v, g2)
        assert x == ((r1 + 1) % m if r0 > 0 else (r1 - 1) % m)


def test_chknorm(lib44) -> None:
    f = k(lib44, "poly_chknorm")
    for bound in (1, 2, 95232 - 78, 2**17 - 78, 2**30):
        for bad in (bound, -bound, bound + 5, -(2**31 - 1)):
            vals = [bound - 1, -(bound - 1)] * 127 + [0, bad]
            assert f(poly(vals), bound) == 1
        assert f(poly([bound - 1, -(bound - 1)] * 128), bound) == 0


# ---------------------------------------------------------------- samplers


def rej_ntt_model(seed: bytes) -> list[int]:
    stream = hashlib.shake_128(seed).digest(168 * 40)
    out, pos = [], 0
    while len(out) < N:
        t = stream[pos] | stream[pos + 1] << 8 | (stream[pos + 2] & 0x7F) << 16
        pos += 3
        if t < Q:
            out.append(t)
    return out


def rej_bounded_model(seed: bytes, eta: int) -> list[int]:
    stream = hashlib.shake_256(seed).digest(136 * 20)
    out, pos = [], 0

    def half(b: int) -> int | None:
        if eta == 2 and b < 15:
            return 2 - (b % 5)
        if eta == 4 and b < 9:
            return 4 - b
        return None

    while len(out) < N:
        b = stream[pos]
        pos += 1
        for v in (half(b & 15), half(b >> 4)):
            if v is not None and len(out) < N:
                out.append(v)
    return out


def sample_in_ball_model(ctilde: bytes, tau: int) -> list[int]:
    stream = hashlib.shake_256(ctilde).digest(136 * 10)
    signs = int.from_bytes(stream[:8], "little")
    pos, c = 8, [0] * N
    for i in range(N - tau, N):
        while True:
            j = stream[pos]
            pos += 1
            if j <= i:
                break
        c[i] = c[j]
        c[j] = 1 - 2 * (signs & 1)
        signs >>= 1
    return c


def bits_unpack(data: bytes, bits: int) -> list[int]:
    v = int.from_bytes(data, "little")
    return [(v >> (bits * i)) & ((1 << bits) - 1) for i in range(N)]


def bits_pack(vals: list[int], bits: int) -> bytes:
    v = 0
    for i, x in enumerate(vals):
        v |= x << (bits * i)
    return v.to_bytes(N * bits // 8, "little")


class PolyStruct(ctypes.Structure):
    _fields_ = [("c", Poly)]


@pytest.mark.parametrize("mode", MODES)
def test_samplers(mode: int) -> None:
    lib, p = mldsa(mode), PARAMS[mode]
    rng = random.Random(mode)
    for _ in range(3):
        rho = rng.randbytes(32)
        nonces = [rng.randrange(65536) for _ in range(4)]
        single = []
        for nn in nonces:
            a = PolyStruct()
            k(lib, "poly_rej_ntt")(ctypes.byref(a), rho, ctypes.c_uint16(nn))
            assert list(a.c) == rej_ntt_model(rho + nn.to_bytes(2, "little"))
            single.append(list(a.c))
        x4 = [PolyStruct() for _ in range(4)]
        k(lib, "poly_rej_ntt_x4")(*[ctypes.byref(x) for x in x4], rho, (ctypes.c_uint16 * 4)(*nonces))
        assert [list(x.c) for x in x4] == single

        rhop = rng.randbytes(64)
        nn = rng.randrange(65536)
        a = PolyStruct()
        k(lib, "poly_rej_bounded")(ctypes.byref(a), rhop, ctypes.c_uint16(nn))
        assert list(a.c) == rej_bounded_model(rhop + nn.to_bytes(2, "little"), p.eta)

        ct = rng.randbytes(p.ctilde)
        k(lib, "poly_sample_in_ball")(ctypes.byref(a), ct)
        c = list(a.c)
        assert c == sample_in_ball_model(ct, p.tau)
        assert sum(abs(x) for x in c) == p.tau

        k(lib, "poly_expand_mask")(ctypes.byref(a), rhop, ctypes.c_uint16(nn))
        bits = 18 if p.gamma1 == 1 << 17 else 20
        stream = hashlib.shake_256(rhop + nn.to_bytes(2, "little")).digest(32 * bits)
        assert list(a.c) == [p.gamma1 - v for v in bits_unpack(stream, bits)]
        # the 4-way ExpandMask equals four single calls
        ys = [PolyStruct() for _ in range(4)]
        k(lib, "poly_expand_mask_x4")(*[ctypes.byref(y) for y in ys], rhop, (ctypes.c_uint16 * 4)(*nonces))
        for y, n4 in zip(ys, nonces):
            stream = hashlib.shake_256(rhop + n4.to_bytes(2, "little")).digest(32 * bits)
            assert list(y.c) == [p.gamma1 - v for v in bits_unpack(stream, bits)]


def test_sample_in_ball_many_rejections() -> None:
    """c~ values whose SHAKE256 stream needs more than one block are rare; search a few and check"""
    lib, p = mldsa(87), PARAMS[87]
    rng = random.Random(9)
    a = PolyStruct()
    for _ in range(200):
        ct = rng.randbytes(p.ctilde)
        k(lib, "poly_sample_in_ball")(ctypes.byref(a), ct)
        assert list(a.c) == sample_in_ball_model(ct, p.tau)


# ---------------------------------------------------------------- packing


@pytest.mark.parametrize("mode", MODES)
def test_packing(mode: int) -> None:
    lib, p = mldsa(mode), PARAMS[mode]
    rng = random.Random(10 + mode)
    eta_bits = 3 if p.eta == 2 else 4
    z_bits = 18 if p.gamma1 == 1 << 17 else 20
    w1_bits = 6 if p.gamma2 == (Q - 1) // 88 else 4
    m1 = (Q - 1) // (2 * p.gamma2)
    kinds = [
        # name, bits, value range, stored value
        ("polyt1", 10, (0, 1023), lambda v: v),
        ("polyt0", 13, (-(2**12) + 1, 2**12), lambda v: 2**12 - v),
        ("polyeta", eta_bits, (-p.eta, p.eta), lambda v: p.eta - v),
        ("polyz", z_bits, (-p.gamma1 + 1, p.gamma1), lambda v: p.gamma1 - v),
        ("polyw1", w1_bits, (0, m1 - 1), lambda v: v),
    ]
    for name, bits, (lo, hi), store in kinds:
        for case in range(3):
            vals = [lo, hi] * 128 if case == 0 else rnd_poly(rng, lo, hi)
            buf = ctypes.create_string_buffer(N * bits // 8)
            k(lib, name + "_pack")(buf, poly(vals))
            assert buf.raw == bits_pack([store(v) for v in vals], bits), name
            if name != "polyw1":
                out = Poly()
                r = k(lib, name + "_unpack")(out, buf)
                assert list(out) == vals, name
                if name == "polyeta":
                    assert r == 0


@pytest.mark.parametrize("mode", MODES)
def test_eta_unpack_flags_out_of_range(mode: int) -> None:
    lib, p = mldsa(mode), PARAMS[mode]
    bits = 3 if p.eta == 2 else 4
    for bad in range(2 * p.eta + 1, 1 << bits):
        stored = [0] * N
        stored[bad % N] = bad
        out = Poly()
        assert k(lib, "polyeta_unpack")(out, bits_pack(stored, bits)) == 1


# ---------------------------------------------------------------- small-modulus NTT (ntt16.c)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib" / "mldsa"))
import gen_ntt16  # noqa: E402

P16 = gen_ntt16.P
Poly16 = ctypes.c_int16 * N


def ntt16_model(a: list[int]) -> list[int]:
    """Algorithm 41's transform mod p with root 62, times 2^-16 (ntt16's output factor)"""
    w = [x % P16 for x in a]
    m, ln = 0, 128
    while ln >= 1:
        for start in range(0, N, 2 * ln):
            m += 1
            z = pow(gen_ntt16.ROOT, brv8(m), P16)
            for j in range(start, start + ln):
                t = z * w[j + ln] % P16
                w[j + ln] = (w[j] - t) % P16
                w[j] = (w[j] + t) % P16
        ln //= 2
    rinv = pow(2**16, -1, P16)
    return [x * rinv % P16 for x in w]


def small_inputs(rng: random.Random) -> list[list[int]]:
    b = gen_ntt16.IN_BOUND
    return [
        [b] * N,
        [-b] * N,
        [b if i % 2 else -b for i in range(N)],
        [1] + [0] * 255,
        [0] * 255 + [-1],
        rnd_poly(rng, -b, b),
        rnd_poly(rng, -4, 4),
        rnd_poly(rng, -1, 1),
    ]


def test_ntt16_constants_and_bounds() -> None:
    gen_ntt16.check()
    text = (Path(__file__).resolve().parents[1] / "lib" / "mldsa" / "ntt16.c").read_text()
    table = text.split("zetas16[MLDSA_N] = {", 1)[1].split("};", 1)[0]
    assert [int(x) for x in table.replace("\n", " ").split(",") if x.strip()] == gen_ntt16.ZETAS16
    for name, value in (("P16_NINV", gen_ntt16.NINV), ("P16_F", gen_ntt16.F_FINAL)):
        assert f"#define {name} {value} " in text
    assert f"#define P16_F_LAST ({gen_ntt16.F_LAST}) " in text


def test_ntt16_and_mul16_add(lib44) -> None:
    """ntt16 against the model mod p and its output bound; mul16_add gives a residue of the
    negacyclic product within its bound (the exact product when that is small) plus base"""
    rng = random.Random(16)
    ins = small_inputs(rng)
    hats = []
    for a in ins:
        r = Poly16()
        k(lib44, "poly_ntt16")(r, poly(a))
        assert [x % P16 for x in r] == ntt16_model(a)
        assert max(abs(x) for x in r) <= gen_ntt16.forward_bounds()[-1]
        hats.append(r)
    pairs = [(i, j) for i in range(len(ins)) for j in range(len(ins))]
    for i, j in pairs:
        base = rnd_poly(rng, -(2**31 - 5281), 2**31 - 5282) if (i + j) % 3 else [0] * N
        out = Poly()
        k(lib44, "poly_mul16_add")(out, poly(base), hats[i], hats[j])
        prod = negacyclic_int(ins[i], ins[j])
        for n in range(N):
            x = out[n] - base[n]
            assert abs(x) <= gen_ntt16.inverse_bounds()[-1] and (x - prod[n]) % P16 == 0
            if abs(prod[n]) <= gen_ntt16.EXACT:
                assert x == prod[n]
    # a challenge-like c (tau ones) times s in [-eta, eta] at the extremes: exact
    for mode in MODES:
        tau, eta = PARAMS[mode].tau, PARAMS[mode].eta
        c = [0] * N
        for pos in rng.sample(range(N), tau):
            c[pos] = 1
        for s in ([eta] * N, [-eta] * N, rnd_poly(rng, -eta, eta)):
            ch, sh, out = Poly16(), Poly16(), Poly()
            k(lib44, "poly_ntt16")(ch, poly(c))
            k(lib44, "poly_ntt16")(sh, poly(s))
            k(lib44, "poly_mul16_add")(out, out, ch, sh)  # r aliases base (zero)
            assert list(out) == negacyclic_int(c, s)


def test_polyvec_nttmul_add(lib44) -> None:
    """r_j = base_j + c s_j exactly for count products with NTT(c), NTT(s_j) (the signing
    products c s1, c s2, c t0): the challenge's tau ones times s at the extremes and random;
    base NULL (zero) and r aliasing base"""
    rng = random.Random(17)
    tau = PARAMS[44].tau
    c = [0] * N
    for pos in rng.sample(range(N), tau):
        c[pos] = rng.choice((1, -1))
    s_list = [[4] * N, [-4] * N, rnd_poly(rng, -(2**12), 2**12), rnd_poly(rng, -2, 2)]
    count = len(s_list)
    chat = poly(c)
    k(lib44, "ntt")(chat)
    shat = (Poly * count)()
    for j, s in enumerate(s_list):
        ctypes.memmove(shat[j], poly(s), ctypes.sizeof(Poly))
        k(lib44, "ntt")(shat[j])
    want = [negacyclic_int(c, s) for s in s_list]
    r = (Poly * count)()
    k(lib44, "polyvec_nttmul_add")(r, None, ctypes.byref(chat), shat, count)
    assert [list(x) for x in r] == want
    bases = [rnd_poly(rng, -(2**30), 2**30) for _ in range(count)]
    rb = (Poly * count)()
    for j, b in enumerate(bases):
        ctypes.memmove(rb[j], poly(b), ctypes.sizeof(Poly))
    k(lib44, "polyvec_nttmul_add")(rb, rb, ctypes.byref(chat), shat, count)  # r aliases base
    assert [list(x) for x in rb] == [[b + w for b, w in zip(bs, ws)] for bs, ws in zip(bases, want)]


def test_polyvec_pointwise_acc_mont(lib44) -> None:
    """w = sum_j a_j o b_j 2^-32 with one Montgomery reduction of the exact sum: congruent, |w| < q,
    and Montgomery's (sum - t q) / 2^32 with t = sum q^-1 mod 2^32 (centred), for count 1..7 at the
    input bound (A in [0, q), NTT(y) up to gamma1 + 8q for ML-DSA-87's l = 7) and random"""
    rng = random.Random(18)
    qinv = pow(Q, -1, 2**32)
    top = 2**19 + 8 * Q
    for count in range(1, 8):
        for case in range(3):
            a = [[Q - 1] * N if case == 0 else rnd_poly(rng, 0, Q - 1) for _ in range(count)]
            b = [[(-top if case == 0 else top)] * N if case < 2 else rnd_poly(rng, -top, top) for _ in range(count)]
            pa, pb = (Poly * count)(), (Poly * count)()
            for j in range(count):
                ctypes.memmove(pa[j], poly(a[j]), ctypes.sizeof(Poly))
                ctypes.memmove(pb[j], poly(b[j]), ctypes.sizeof(Poly))
            w = Poly()
            k(lib44, "polyvec_pointwise_acc_mont")(w, pa, pb, count)
            for i in range(N):
                s = sum(a[j][i] * b[j][i] for j in range(count))
                t = (s * qinv) % 2**32
                t -= 2**32 if t >= 2**31 else 0
                assert w[i] == (s - t * Q) // 2**32, (count, case, i)
                assert abs(w[i]) < Q and (w[i] * 2**32 - s) % Q == 0


def negacyclic_int(a: list[int], b: list[int]) -> list[int]:
    c = [0] * N
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if i + j < N:
                    c[i + j] += x * y
                else:
                    c[i + j - N] -= x * y
    return c
