# SPDX-License-Identifier: MIT
"""Writes mlkem_ntt.S: ML-KEM's NTT, inverse NTT and accumulating base multiplication
(FIPS 203 Algorithms 9-12) for ARMv7E-M (Cortex-M4/M7), Thumb-2, GNU as unified syntax.

Run `python3 gen_mlkem_ntt.py > mlkem_ntt.S` after editing. The generator exists because
the twiddle tables are laid out in the order the merged layers read them (computed here
from zeta = 17, FIPS 203 section 4.3) and the butterfly sequences are long and regular;
the emitted code is plain, unrolled Thumb-2. The contract is in mlkem_native.h.

Arithmetic, on two int16 coefficients packed in one word (low half = even index):
- Products with a constant (the twiddles of both transforms and the final 1441): Plantard
  multiplication (Plantard 2021; the 16-bit-modulus variant with a 32-bit constant and
  rounding term 2^3 q described by Huang et al., TCHES 2022): the word z' = z R^-1 (-2^32)
  q^-1 mod 2^32 stands for z; `smulwX t, z', x` gives bits 16..47 of z' x, whose low half is
  ((z' x mod 2^32) >> 16) as an int16, and `smlabb t, t, q, 8q` leaves x z R^-1 mod q in the
  high half, in [-1664, 1664], for every int16 x (checked for every constant by
  tests/test_native_armv7em_mlkem.py). Two instructions per coefficient, no q^-1 step.
- Products of two variables (base multiplication): Montgomery reduction (R = 2^16) of a
  32-bit product p, |p| < q 2^15, with QQ = q << 16 | 3327 (3327 = -q^-1 mod 2^16):
      smulbb t, p, QQ        t = p_lo * 3327       (low half: -p q^-1 mod 2^16)
      smlabt p, t, QQ, p     p + t_lo * q          (low half 0, high half p R^-1 mod q)
  the high half of the result is in (-q, q) (|p + t q| < q 2^15 + 2^15 q).
- Cooley-Tukey butterfly on words a, b with one zeta: both halves of b multiplied
  (Plantard), packed with pkhtb, then ssub16 / sadd16 (no overflow by the bounds below):
  7 instructions for two butterflies.
- Butterflies of the inverse NTT (a cyclic DIT, see the bounds below): the same CT
  butterfly with the inverse twiddles, or sadd16 / ssub16 alone where the twiddle is 1.
- Barrett reduction with v = round(2^32 / q) = 1290167: t = high half of
  smlawX(v, x, 2^15) = round(v x / 2^32) gives the centred representative
  (|r| <= (q-1)/2, checked for every int16 by tests/test_native_armv7em_mlkem.py);
  without the 2^15 (smulwX, floor) r lies in [0, q] (the inverse NTT used it before
  2026-11-27, h91). t q of both halves is packed and subtracted with ssub16.

Bounds (|.| of every coefficient; the C versions in lib/mlkem/ntt.c have the same ones):
- ntt: input < q; each of the 7 layers adds at most 1664 (a Plantard product): < q + 6 1664
  = 13313 before the last layer (layer 2). There the a words of its butterflies get the
  centred Barrett reduction (|a| <= 1664), so both outputs a +- zeta b are <= 3328: output
  |c| < q (before 2026-11-27 every output word was reduced, twice the reductions).
- invntt (since 2026-11-27, h91: the twisted form): with Y = X^2 the NTT's pairs are the
  values of f0(Y), f1(Y) at gamma_i = zeta^(2 BitRev7(i) + 1) = zeta omega^BitRev7(i), omega
  = zeta^2; so word i (the pair) is G[BitRev7(i)] of the cyclic DFT of size 128 of g_j =
  (f0_j, f1_j) zeta^j, and the inverse is a cyclic inverse DFT on the words in bit-reversed
  order (decimation in time: stage s = 1..7 pairs words (i, i + h), h = 2^(s-1), blocks of
  2h, with the twiddle W_2h^k = zeta^(-128 k / h), k = i mod h) followed by the twist
  T_j = zeta^-j 128^-1 R of word j (128^-1 and the Montgomery factor R folded in). The
  twiddles of a stage depend on k only, not on the block: pass 1's (stages 1-4, 16 words,
  eight in r4-r11 and eight spilled to s0-s7) are eight constants held in r1 and s8-s14,
  and every butterfly with k = 0 (127 of 448) is an addition and a subtraction. Pass 2
  (stages 5-7 and the twist on the words p0 + 16 m) loads 11 words per iteration (the
  pointer r0 waits in s13 meanwhile, so two table words load back to back): stage 7
  pairs (P, P + 64) with W128^P, and T_P+64 = zeta^-64 T_P, so a = T_P w_P, b = T_P W128^P
  w_P+64 (two products), out_P = a + b <= 3328 < q and out_P+64 = zeta^-64 (a - b) (a
  third): the output is |c| < q without a reduction. Bounds: a CT butterfly adds 1664 to
  its first word, an addition adds the two bounds. Input |c| < q: stages 1-3 leave w0, w4 of
  a half at 8 3328 = 26624, the others <= 14976; the second half's words are multiplied by
  W16^k before stage 4 (k = 0: by 1), so stage 4 adds 1664: <= 28288, and pass 2's stages 5
  and 6 (CT also for k = 0) end at <= 31616 < 2^15. Input |c| < 4q: the k = 0 butterflies
  multiply by 1 where a sum would leave that (`inv_mult`). No Barrett reduction anywhere.
  test_invntt_bounds walks these bounds. (Before h91: Gentleman-Sande layers with the
  negacyclic zetas in three passes, 3 + 3 + 1, every butterfly a product, twiddles loaded per
  block, 96 floor-Barrett word reductions for input 4q.)
- basemul_acc: a, b < q: a1 b1 < q^2, its reduction m < q, m gamma + a0 b0 < q 1664 + q^2
  and a0 b1 + a1 b0 < 2 q^2, both < q 2^15: each added term is < q.
"""

from __future__ import annotations

from collections.abc import Callable

from m7sched import schedule_loops

Q = 3329
ZETA = 17
R = 1 << 16
V = round((1 << 32) / Q)  # 1290167
F = pow(2, 32, Q) * pow(128, -1, Q) % Q  # 1441: 128^-1 R^2 mod q


def br7(i: int) -> int:
    return int(f"{i:07b}"[::-1], 2)


def centred(x: int) -> int:
    x %= Q
    return x - Q if x > Q // 2 else x


ZETAS = [centred(pow(ZETA, br7(i), Q) * R) for i in range(128)]


def word(lo: int, hi: int) -> int:
    return (lo & 0xFFFF) | ((hi & 0xFFFF) << 16)


def plantard(z: int) -> int:
    """The Plantard constant (a word) that multiplies by z R^-1 mod q (the value the
    Montgomery product with the table entry z would give): b = z R^-1 (-2^32) mod q,
    times q^-1 mod 2^32."""
    b = z * pow(R, -1, Q) * -(1 << 32) % Q
    return b * pow(Q, -1, 1 << 32) % (1 << 32)


def ntt_tables() -> dict[str, list[int]]:
    z = [plantard(x) for x in ZETAS]
    a = [z[1], z[2], z[3], z[4], z[5], z[6], z[7]]
    b = []
    for blk in range(8):
        b += [z[8 + blk], z[16 + 2 * blk], z[17 + 2 * blk]] + z[32 + 4 * blk : 36 + 4 * blk]
    c = z[64:128]
    gam = [word(ZETAS[64 + t], -ZETAS[64 + t]) for t in range(64)]
    return {"ntt_za": a, "ntt_zb": b, "ntt_zc": c, "bm_gamma": gam}


out: list[str] = []


# mnemonics with a 16-bit Thumb encoding: emitted in their 32-bit form (.w), so that runs of
# 32-bit instructions stay word-aligned (a 32-bit instruction at an address 2 mod 4 costs a
# fetch cycle on the Cortex-M4, and under m4-v5 such a load is not pipelined and each
# memory / non-memory change in such a run costs one more, docs/sim.md). beq, uxth, push and
# pop since 2026-11-27 (h80): one 16-bit beq or uxth had shifted rej_bulk's and
# basemul_pairs32's loops and half of the inverse NTT to 2 mod 4 (+34 %, +21 %, +10 % under
# m4-v5); tests/test_native_armv7em_mlkem.py checks that no 32-bit instruction is there.
NARROW = {
    "ldr",
    "str",
    "ldrsh",
    "strh",
    "add",
    "sub",
    "subs",
    "cmp",
    "mov",
    "lsr",
    "and",
    "orr",
    "ldm",
    "stm",
    "bne",
    "beq",
    "uxth",
    "push",
    "pop",
    "lsrs",
}


def e(line: str) -> None:
    if line.endswith(":") or line.startswith("."):
        out.append(line)
        return
    op, _, rest = line.partition(" ")
    if op in NARROW:
        op += ".w"
    out.append(f"    {op} {rest}")


QQ = "lr"


def mont(r: str, t: str) -> None:
    """high half of r = r * R^-1 mod q (Montgomery), t scratch."""
    e(f"smulbb {t}, {r}, {QQ}")
    e(f"smlabt {r}, {t}, {QQ}, {r}")


QB = "r12"  # q (low half) in the transforms
C8 = "lr"  # 8 q = 2^3 q, Plantard's rounding term (alpha = 3)


def plant(x: str, half: str, z: str, out: str) -> None:
    """high half of out = half (b/t) of x times the constant of the Plantard word z:
    smulwX gives bits 16..47 of z x, whose low half is ((z x mod 2^32) >> 16); then
    (that + 2^3) q >> 16 (smlabb with 8q). Exact for every int16 x and every constant of
    the tables, result in [-1664, 1664] (checked by the test)."""
    e(f"smulw{half} {out}, {z}, {x}")
    e(f"smlabb {out}, {out}, {QB}, {C8}")


def ct(a: str, b: str, z: str, t0: str) -> None:
    """(a, b) -> (a + zeta b, a - zeta b) on both halves (Plantard word z)."""
    plant(b, "b", z, t0)
    plant(b, "t", z, b)
    e(f"pkhtb {t0}, {b}, {t0}, asr #16")
    e(f"ssub16 {b}, {a}, {t0}")
    e(f"sadd16 {a}, {a}, {t0}")


def barrett(x: str, v: str, t0: str, t1: str, c15: str | None, q: str = QQ, qh: str = "t") -> None:
    """x = x - round(x / q) q (c15 holds 2^15: centred) or x - floor(v x / 2^32) q; q in the
    qh half of register q."""
    if c15:
        e(f"smlawb {t0}, {v}, {x}, {c15}")
        e(f"smlawt {t1}, {v}, {x}, {c15}")
    else:
        e(f"smulwb {t0}, {v}, {x}")
        e(f"smulwt {t1}, {v}, {x}")
    e(f"smult{qh} {t0}, {t0}, {q}")
    e(f"smult{qh} {t1}, {t1}, {q}")
    e(f"pkhbt {t0}, {t0}, {t1}, lsl #16")
    e(f"ssub16 {x}, {x}, {t0}")


def addr(r: str, label: str) -> None:
    e(f"movw {r}, #:lower16:pqlab_mlkem_{label}")
    e(f"movt {r}, #:upper16:pqlab_mlkem_{label}")


def const(r: str, x: int) -> None:
    e(f"movw {r}, #{x & 0xFFFF}")
    e(f"movt {r}, #{x >> 16}")


def canon2q(x: str, s: str, q2: str, q1: str) -> None:
    """x = x mod q in [0, q) on both halves for |x| < 2q (the fused form of canonical, for
    the encoders): sadd16 makes x + 2q, in (0, 4q); usub16 against 2q|2q sets GE where it is
    >= 2q and sel subtracts 2q there; the same with q|q. Five instructions, scratch s."""
    e(f"sadd16 {x}, {x}, {q2}")
    e(f"usub16 {s}, {x}, {q2}")
    e(f"sel {x}, {s}, {x}")
    e(f"usub16 {s}, {x}, {q1}")
    e(f"sel {x}, {s}, {x}")


def func(name: str) -> None:
    out.extend(
        [
            "",
            f'.section .text.{name}, "ax", %progbits',
            f".global {name}",
            f".type {name}, %function",
            ".align 2",
            f"{name}:",
        ]
    )


def end_func(name: str) -> None:
    out.append(f".size {name}, .-{name}")


D = [f"r{i}" for i in range(4, 12)]  # data words w0..w7


def three_layers(z0: str, base: int = 0) -> None:
    """CT layers on w0..w7: (w_m, w_m+4) zeta A, (w0,w2),(w1,w3) B, (w4,w6),(w5,w7) C,
    then (w0,w1) D, (w2,w3) E, (w4,w5) F, (w6,w7) G; table words A B C D E F G at z0 + base."""
    e(f"ldr r2, [{z0}, #{base}]")
    for m in range(4):
        ct(D[m], D[m + 4], "r2", "r3")
    for k, (p, q) in enumerate((((0, 2), (1, 3)), ((4, 6), (5, 7)))):
        e(f"ldr r2, [{z0}, #{base + 4 + 4 * k}]")
        ct(D[p[0]], D[p[1]], "r2", "r3")
        ct(D[q[0]], D[q[1]], "r2", "r3")
    for k in range(4):
        e(f"ldr r2, [{z0}, #{base + 12 + 4 * k}]")
        ct(D[2 * k], D[2 * k + 1], "r2", "r3")


def consts_qc8() -> None:
    e(f"movw {QB}, #{Q}")
    e(f"movw {C8}, #{8 * Q}")


def emit_ntt(cache: bool = False, unreduced: bool = False, encode: bool = False) -> None:
    """The NTT; cache: also the b1 gamma products of the result (kernels.h ntt_cache, the
    mulcache of the output) in pass C, from the registers: r1 = bg on entry, kept at [sp, #4];
    unreduced: pass C without its Barrett reductions (kernels.h ntt_unreduced, 2026-11-28,
    h101): every layer adds at most 1664 (a Plantard product) to input |c| < q, so the output
    is |c| <= 3328 + 7 1664 = 14976 < 2^14 (key generation's NTT(e), which
    reduce32_add_tobytes12 reduces together with A s); encode (with cache; kernels.h
    ntt_cache_tobytes12, 2026-11-28, h101): also ByteEncode_12 of the result's canonical
    values into out (r2 on entry, kept at [sp, #8]; any alignment) in pass C, from the
    registers: key generation's s_hat into dk_PKE without tobytes12's pass over it. The
    output words are stored first (|c| < q, as ntt_cache), then made canonical in the
    registers by one conditional addition of q (|c| <= 3328 < q) and packed; r12 holds q|q in
    this form (its low half is q, all that Plantard's smlabb and the Barrett smultb read).
    Pass C's zeta of pairs 4i, 4i+1 (coefficients 8i .. 8i+3) is zeta_{64+2i}, their gammas
    are +-zeta_{64+2i} (FIPS 203 Algorithm 12's gamma = zeta^(2 BitRev7(p) + 1)), likewise for
    pairs 4i+2, 4i+3 and zeta_{64+2i+1}: bg = the Plantard product of b1 with the butterfly's
    own constant w, and with 1 - w for -zeta (the Plantard word of -z is 1 - w mod 2^32):
    |bg| <= 1664."""
    assert not (cache and unreduced) and (cache or not encode)
    name = "pqlab_mlkem_ntt_cache_armv7em" if cache else "pqlab_mlkem_ntt_armv7em"
    if unreduced:
        name = "pqlab_mlkem_ntt_unreduced_armv7em"
    if encode:
        name = "pqlab_mlkem_ntt_cache_tobytes12_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    e(f"sub sp, sp, #{12 if encode else 8}")  # 48 bytes of stack with the push
    if cache:
        e("str r1, [sp, #4]")
    if encode:
        e("str r2, [sp, #8]")
    consts_qc8()
    if encode:
        e(f"movt {QB}, #{Q}")  # q|q: the canonical form's constant
    # pass A: layers 128, 64, 32; w_m = coefficients 32 m + j, j + 1 (j = 0, 2, ..., 30)
    addr("r1", "ntt_za")
    e("add r3, r0, #64")
    e("str r3, [sp]")
    out.append("1:")
    for m in range(8):
        e(f"ldr {D[m]}, [r0, #{64 * m}]")
    three_layers("r1")
    for m in range(8):
        e(f"str {D[m]}, [r0, #{64 * m}]")
    e("add r0, r0, #4")
    e("ldr r3, [sp]")
    e("cmp r0, r3")
    e("bne 1b")
    # pass B: layers 16, 8, 4 in 8 blocks of 32 coefficients; w_m = 4 m + j, j + 1 (j = 0, 2)
    e("sub r0, r0, #64")
    addr("r1", "ntt_zb")
    e("add r3, r0, #512")
    e("str r3, [sp]")
    out.append("2:")
    for off in (0, 4):
        for m in range(8):
            e(f"ldr {D[m]}, [r0, #{8 * m + off}]")
        three_layers("r1", -28 if off else 0)
        for m in range(8):
            e(f"str {D[m]}, [r0, #{8 * m + off}]")
        if not off:  # between the stores and the next loads (a load right after a store stalls)
            e("add r1, r1, #28")
    e("add r0, r0, #64")
    e("ldr r3, [sp]")
    e("cmp r0, r3")
    e("bne 2b")
    # pass C: layer 2 (four groups of four coefficients per iteration); only the words that
    # enter its butterflies as a (w0, w2) get the centred Barrett reduction first: |a| <=
    # (q-1)/2 and |zeta b| <= 1664 (Plantard) make both outputs |a +- zeta b| <= 3328 < q
    # (the contract since 2026-11-27: output |c| < q, not reduced; half the reductions)
    e("sub r0, r0, #512")
    addr("r1", "ntt_zc")
    if not unreduced:
        const("r8", V)
        e("mov r9, #32768")
    out.append("3:")
    for h in range(2):
        for m in range(4):
            e(f"ldr {D[m]}, [r0, #{16 * h + 4 * m}]")
        for m in (0, 2) if not unreduced else ():
            barrett(D[m], "r8", "r10", "r11", "r9", QB, "b")
        for k, tw in ((0, "r10"), (1, "r11")):
            a, b = D[2 * k], D[2 * k + 1]
            e(f"ldr r2, [r1, #{4 * k - 8 * h}]")  # r1 advanced by 16 after h = 0's stores
            ct(a, b, "r2", "r3")
            if cache:  # tw = bg of pair 4i+2k (low half) | bg of pair 4i+2k+1 (high half)
                e("rsb r3, r2, #1")  # the Plantard word of -zeta
                plant(a, "t", "r2", tw)
                plant(b, "t", "r3", "r3")
                e(f"pkhtb {tw}, r3, {tw}, asr #16")
        if cache:  # the data stores between the load of bg's address and its use (m4-v5)
            e("ldr r3, [sp, #4]")
        if encode:
            e("ldr r2, [sp, #8]")
        for m in range(4):
            e(f"str {D[m]}, [r0, #{16 * h + 4 * m}]")
        if cache:
            e(f"strd r10, r11, [r3, #{8 * h}]")
            if h == 1:
                e("add r3, r3, #16")
                e("str r3, [sp, #4]")
        if encode:  # the 8 coefficients 16 h .. 16 h + 7 of this iteration: canonical, packed
            for x in D[:4]:  # |x| < q: x + q in (0, 2q), minus q where >= q
                e(f"sadd16 {x}, {x}, {QB}")
                e(f"usub16 r3, {x}, {QB}")
                e(f"sel {x}, r3, {x}")
            pack12_store(D[0], D[1], D[2], D[3], "r10", "r11", "r3", outs=("r2",))
            e("str r2, [sp, #8]")
        if h == 0:  # between the stores and h = 1's loads (a load right after a store stalls)
            e("add r1, r1, #16")
    e("add r0, r0, #32")
    e("ldr r3, [sp]")
    e("cmp r0, r3")
    e("bne 3b")
    e(f"add sp, sp, #{12 if encode else 8}")
    e("pop {r4-r11, pc}")
    end_func(name)


def inv_consts() -> tuple[list[int], list[int]]:
    """The Plantard words of the inverse NTT (twisted form, see the docstring): pass 1's
    constants (s8..s14: 1, W16, W8, W16^3, W16^5, W8^3, W16^7; then W4, kept in r1) and pass
    2's table (per p0 = 0..15: W32^p0, W64^p0, W64^(p0+16), then for m = 0..3 with
    P = p0 + 16 m: T_P and T_P W128^P). W_n = zeta^(-256/n) (W_n^k = zeta^(-256 k / n)),
    T_j = zeta^-j 128^-1 R."""
    zi = pow(ZETA, -1, Q)

    def pv(v: int) -> int:  # the Plantard word that multiplies by v
        return plantard(v * R % Q)

    def zp(k: int) -> int:  # zeta^-k
        return pow(zi, k, Q)

    c1 = [pv(1), pv(zp(16)), pv(zp(32)), pv(zp(48)), pv(zp(80)), pv(zp(96)), pv(zp(112)), pv(zp(64))]
    t = pow(128, -1, Q) * R % Q
    c2 = []
    for p0 in range(16):
        c2 += [pv(zp(8 * p0)), pv(zp(4 * p0)), pv(zp(4 * (p0 + 16)))]
        for m in range(4):
            p = p0 + 16 * m
            c2 += [pv(t * zp(p)), pv(t * zp(3 * p))]
    return c1, c2


def inv_mult(input_4q: bool) -> tuple[tuple[bool, bool, bool], tuple[bool, bool, bool]]:
    """Which stages of pass 1 multiply their k = 0 butterflies by 1 instead of adding, for
    w0..w7 of a block (kept: stage 4 adds <= 1664 to them and pass 2's stages 5, 6 two more
    products before stage 7 multiplies, so they must stay <= 2^15 - 1 - 3 1664 = 27775) and for w8..w15 (multiplied by W16^k before
    stage 4, so only int16 matters). Input |c| < q: none (w0, w4 reach 8 3328 = 26624);
    |c| < 4q: a sum of two inputs is 26630, so w0..w7 multiply in every stage (<= 18307),
    w8..w15 from stage 2 on (<= 29958). tests/test_native_armv7em_mlkem.py walks the bounds."""
    if input_4q:
        return (True, True, True), (False, True, True)
    return (False, False, False), (False, False, False)


H = 1664  # bound of a Plantard product
LIM = (1 << 15) - 1


def plant_word(x: str, z: str, t: str) -> None:
    """x = both halves of x times the constant of the Plantard word z (each <= 1664), t scratch."""
    e(f"smulwb {t}, {z}, {x}")
    e(f"smulwt {x}, {z}, {x}")
    e(f"smlabb {t}, {t}, {QB}, {C8}")
    e(f"smlabb {x}, {x}, {QB}, {C8}")
    e(f"pkhtb {x}, {x}, {t}, asr #16")


# pass 1's constants: where each lives (r1 holds W4, the others are moved from s8..s14)
INV_S = {"1": "s8", "W16": "s9", "W8": "s10", "W16^3": "s11", "W16^5": "s12", "W8^3": "s13", "W16^7": "s14"}


class InvPass1:
    """Code generation state of one pass-1 iteration: the registers of the eight words (the
    free butterflies rename: the sum goes to the scratch register), their bounds, and which
    constant r2 holds."""

    def __init__(self) -> None:
        self.r2 = ""

    def const(self, name: str) -> str:
        if name == "W4":
            return "r1"
        if self.r2 != name:
            e(f"vmov r2, {INV_S[name]}")
            self.r2 = name
        return "r2"

    def dit3(self, bound: int, mult: tuple[bool, bool, bool]) -> list[int]:
        """Stages 1-3 of the cyclic DIT on w0..w7 (registers r4..r11, scratch r3): stage s
        pairs (w_i, w_i+h), h = 2^(s-1), with twiddle W_2h^k, k = i mod h. The butterflies
        with k = 0 add and subtract (the sum into the scratch register) unless mult[s - 1]:
        then they multiply by 1 (the CT form with the word of 1: a reduction, <= 1664)."""
        self.regs = list(D)
        self.tmp = "r3"
        b = [bound] * 8
        tw = {1: ["1"], 2: ["1", "W4"], 4: ["1", "W8", "W4", "W8^3"]}
        for s, h in enumerate((1, 2, 4)):
            for i in range(8):
                if i & h:
                    continue
                j, k = i + h, i % h
                x, y = self.regs[i], self.regs[j]
                if k == 0 and not mult[s]:
                    e(f"sadd16 {self.tmp}, {x}, {y}")
                    e(f"ssub16 {y}, {x}, {y}")
                    self.regs[i], self.tmp = self.tmp, x
                    b[i] = b[j] = b[i] + b[j]
                else:
                    ct(x, y, self.const(tw[h][k]), self.tmp)
                    b[i] = b[j] = b[i] + H
                assert b[i] <= LIM, (s, i, b)
        return b


def emit_invntt(name: str = "pqlab_mlkem_invntt_armv7em", input_4q: bool = True) -> None:
    """The inverse NTT as a cyclic inverse DFT of size 128 on the words (DIT, bit-reversed
    input: the NTT's order) followed by the twist zeta^-j 128^-1 R (see the docstring).
    Pass 1: stages 1-4 on 16 consecutive words (eight in r4-r11, the other eight in s0-s7);
    pass 2: stages 5-7 and the twist on the words p0 + 16 m. input_4q: input |c| < 4q
    (kernels.h invntt), else |c| < q (invntt_q): the k = 0 butterflies of stages 1-3 add
    and subtract where the bounds allow, else multiply by 1."""
    func(name)
    e("push {r4-r11, lr}")
    consts_qc8()
    addr("r1", "inv_c1")
    e("vldm r1, {s8-s14}")
    e("ldr r1, [r1, #28]")  # W4
    e("add r3, r0, #512")
    e("vmov s15, r3")
    bound = 4 * Q - 1 if input_4q else Q - 1
    lo_mult, hi_mult = inv_mult(input_4q)
    out.append("1:")
    g = InvPass1()
    e("ldm r0!, {r4-r11}")
    blo = g.dit3(bound, lo_mult)
    lo = g.regs
    for k in range(8):
        e(f"vmov s{k}, {lo[k]}")
    e("ldm r0, {r4-r11}")
    bhi = g.dit3(bound, hi_mult)
    hi, t = g.regs, g.tmp
    # stage 4's twiddles W16^k on w8..w15 (k = 0: 1, the reduction), r2 as it is first
    names = ["1", "W16", "W8", "W16^3", "W4", "W16^5", "W8^3", "W16^7"]
    order = sorted(range(8), key=lambda k: (names[k] != g.r2, names[k] != "W4"))
    for k in order:
        plant_word(hi[k], g.const(names[k]), t)
    # stage 4: (w_k, w_k+8) = (w_k + x, w_k - x) with x = W16^k w_k+8 (<= 1664)
    for k in range(8):
        e(f"vmov r2, s{k}")
        e(f"sadd16 {t}, r2, {hi[k]}")
        e(f"ssub16 {hi[k]}, r2, {hi[k]}")
        e(f"str {t}, [r0, #{4 * k - 32}]")
        e(f"str {hi[k]}, [r0, #{4 * k}]")
    e("add r0, r0, #32")
    e("vmov r3, s15")
    e("cmp r0, r3")
    e("bne 1b")
    assert max(bhi) <= LIM
    b2 = max(blo) + H  # pass 1's output bound
    # pass 2: stages 5, 6, 7 and the twist on w_m = word p0 + 16 m (m = 0..7); stages 5 and 6
    # are CT butterflies (p0 = 0 multiplies by 1); stage 7 with the twist: for the pair
    # (P, P + 64), P = p0 + 16 m: a = T_P w_m, b = T_P W128^P w_m+4, out_P = a + b,
    # out_P+64 = zeta^-64 (a - b) (T_P+64 = zeta^-64 T_P)
    assert b2 + 2 * H <= LIM, b2
    e("sub r0, r0, #512")
    e("vmov s14, r1")  # W4 = zeta^-64
    addr("r1", "inv_c2")
    e("add r3, r0, #64")
    e("vmov s15, r3")
    # r0, the pointer, is kept in s13 between the loads and the stores: the pass's second
    # constant register (two loads in a row pipeline: 3 cycles for two words, not 4)
    out.append("2:")
    for m in range(8):
        e(f"ldr {D[m]}, [r0, #{64 * m}]")
    e("ldr r2, [r1, #0]")  # stage 5: W32^p0
    e("vmov s13, r0")
    for m in (0, 2, 4, 6):
        ct(D[m], D[m + 1], "r2", "r3")
    e("ldr r2, [r1, #4]")  # stage 6: W64^p0, W64^(p0 + 16)
    e("ldr r0, [r1, #8]")
    ct(D[0], D[2], "r2", "r3")
    ct(D[4], D[6], "r2", "r3")
    ct(D[1], D[3], "r0", "r3")
    ct(D[5], D[7], "r0", "r3")
    for m in range(4):  # stage 7 and the twist
        a, b = D[m], D[m + 4]
        e(f"ldr r2, [r1, #{12 + 8 * m}]")
        e(f"ldr r0, [r1, #{16 + 8 * m}]")
        plant_word(a, "r2", "r3")
        plant_word(b, "r0", "r3")
        if m == 3:
            e("vmov r0, s13")
        e(f"ssub16 r3, {a}, {b}")
        e(f"sadd16 {a}, {a}, {b}")
        e("vmov r2, s14")
        e(f"smulwb {b}, r2, r3")
        e("smulwt r3, r2, r3")
        e(f"smlabb {b}, {b}, {QB}, {C8}")
        e(f"smlabb r3, r3, {QB}, {C8}")
        e(f"pkhtb {b}, r3, {b}, asr #16")
    for m in range(8):
        e(f"str {D[m]}, [r0, #{64 * m}]")
    e("add r0, r0, #4")
    e("add r1, r1, #44")
    e("vmov r3, s15")
    e("cmp r0, r3")
    e("bne 2b")
    e("pop {r4-r11, pc}")
    end_func(name)


def emit_basemul() -> None:
    """r += a o b R^-1; r0 = r, r1 = a, r2 = b; two pairs (gamma, -gamma) per iteration."""
    name = "pqlab_mlkem_basemul_acc_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    e("sub sp, sp, #8")
    e(f"movw {QQ}, #3327")
    e(f"movt {QQ}, #{Q}")
    addr("r3", "bm_gamma")
    e("add r12, r0, #512")
    e("str r12, [sp]")
    out.append("1:")
    e("ldr r4, [r1, #0]")
    e("ldr r5, [r1, #4]")
    e("ldr r6, [r2, #0]")
    e("ldr r7, [r2, #4]")
    e("ldr r8, [r0, #0]")
    e("ldr r9, [r0, #4]")
    e("ldr r10, [r3], #4")
    for a, b, r, zh in (("r4", "r6", "r8", "b"), ("r5", "r7", "r9", "t")):
        e(f"smultt r11, {a}, {b}")  # a1 b1
        mont("r11", "r12")
        e(f"smulbb r12, {a}, {b}")  # a0 b0
        e(f"smlat{zh} r11, r11, r10, r12")  # + m (+-gamma)
        mont("r11", "r12")
        e(f"smuadx r12, {a}, {b}")  # a0 b1 + a1 b0
        mont("r12", a)
        e("pkhtb r11, r12, r11, asr #16")
        e(f"sadd16 {r}, {r}, r11")
    e("str r8, [r0], #4")
    e("str r9, [r0], #4")
    e("add r1, r1, #8")
    e("add r2, r2, #8")
    e("ldr r12, [sp]")
    e("cmp r0, r12")
    e("bne 1b")
    e("add sp, sp, #8")
    e("pop {r4-r11, pc}")
    end_func(name)


def emit_basemul_pairs() -> None:
    """r[2i..2i+1] += (a o b)[pair p + i] R^-1 for i < npairs; r0 = r, r1 = a, r2 = b (all at
    pair p already), r3 = p, [sp] = npairs. gamma_p is halfword p of bm_gamma. Post-indexed
    loads and stores; an odd count takes one pair first, then two pairs per iteration (the
    count is public: the number of accepted candidates of the public matrix seed's XOF)."""
    name = "pqlab_mlkem_basemul_pairs_armv7em"
    func(name)
    e("ldr r12, [sp]")
    e("cmp r12, #0")
    e("it eq")
    e("bxeq lr")
    e("push {r4-r10, lr}")
    e(f"movw {QQ}, #3327")
    e(f"movt {QQ}, #{Q}")
    addr("r10", "bm_gamma")
    e("add r3, r10, r3, lsl #1")

    def pair() -> None:
        e("ldr r4, [r1], #4")
        e("ldr r6, [r2], #4")
        e("ldr r8, [r0]")
        e("ldrsh r9, [r3], #2")
        e("smultt r5, r4, r6")  # a1 b1
        mont("r5", "r7")
        e("smulbb r7, r4, r6")  # a0 b0
        e("smlatb r5, r5, r9, r7")  # + m gamma
        mont("r5", "r7")
        e("smuadx r7, r4, r6")  # a0 b1 + a1 b0
        mont("r7", "r4")
        e("pkhtb r5, r7, r5, asr #16")
        e("sadd16 r8, r8, r5")
        e("str r8, [r0], #4")

    e("tst r12, #1")
    e("beq 1f")
    pair()
    e("subs r12, r12, #1")
    e("beq 2f")
    out.append("1:")
    pair()
    pair()
    e("subs r12, r12, #2")
    e("bne 1b")
    out.append("2:")
    e("pop {r4-r10, pc}")
    end_func(name)


def emit_mulcache() -> None:
    """bg[p] = b[2p+1] gamma_p mod q (Montgomery product with the table's gamma R): r0 = bg
    (128 int16), r1 = b (256 int16). Four pairs per iteration: two b1 gamma products per
    gamma word (gamma, -gamma), each reduced (mont: |b1 gamma R| < q 1664 < q 2^15, result
    in (-q, q)), the high halves packed and stored as one word."""
    name = "pqlab_mlkem_mulcache_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    e(f"movw {QQ}, #3327")
    e(f"movt {QQ}, #{Q}")
    addr("r2", "bm_gamma")
    e("add r3, r0, #256")
    out.append("1:")
    e("ldm r1!, {r4-r7}")
    e("ldm r2!, {r8, r9}")
    for w0, w1, g, o in (("r4", "r5", "r8", "r4"), ("r6", "r7", "r9", "r5")):
        e(f"smultb r10, {w0}, {g}")  # b1 gamma (pair 2t)
        mont("r10", "r12")
        e(f"smultt r11, {w1}, {g}")  # b1 (-gamma) (pair 2t + 1)
        mont("r11", "r12")
        e(f"pkhtb {o}, r11, r10, asr #16")
    e("stm r0!, {r4, r5}")
    e("cmp r0, r3")
    e("bne 1b")
    e("pop {r4-r11, pc}")
    end_func(name)


def emit_basemul_pairs32(split: bool = False) -> None:
    """r[2i] += a0 b0 + a1 bg[i], r[2i+1] += a0 b1 + a1 b0 for i < n (Algorithm 12 without
    reduction; bg = mulcache of b): r0 = r (int32), r1 = a, r2 = b (word-aligned pairs),
    r3 = bg (halfwords, any pair), [sp] = n. pkhbt forms b0 | bg << 16, then smlad and smladx
    give the two sums of products: each term |t| < 2q^2, exact in 32 bits. Loads without
    base update where the M4 pipelines them (docs/sim.md): ldm for a, b and the accumulators,
    bg by offset. n & 1, n & 2 and n & 4 pairs first, then eight pairs per iteration (the
    count is public; eight since 2026-11-27, h80: the loop test is 6 of about 56 cycles per
    four pairs); the end address of r is kept on the stack (all registers are in use).
    split (kernels.h basemul_pairs32_split, 2026-11-28, h101): [sp] = nadd, [sp, #4] = nset;
    the first nadd pairs as above, then the next nset pairs with r = the products, r not read
    (smuad / smuadx, no load of the accumulators): a matrix lane's pairs below and above its
    accumulator's high-water mark in one call (no accumulator needs clearing)."""
    name = "pqlab_mlkem_basemul_pairs32_split_armv7em" if split else "pqlab_mlkem_basemul_pairs32_armv7em"
    func(name)
    if not split:
        e("ldr r12, [sp]")
        e("cmp r12, #0")
        e("it eq")
        e("bxeq lr")
    e("push {r4-r11, lr}")
    e("sub sp, sp, #8")

    def two(off: int, set_r: bool) -> None:
        e("ldm r1!, {r4, r5}")
        e("ldm r2!, {r6, r7}")
        e(f"ldrh r8, [r3, #{off}]")
        e(f"ldrh r9, [r3, #{off + 2}]")
        e("pkhbt r8, r6, r8, lsl #16")
        e("pkhbt r9, r7, r9, lsl #16")
        if set_r:
            e("smuad r10, r4, r8")
            e("smuadx r11, r4, r6")
            e("smuad r12, r5, r9")
            e("smuadx lr, r5, r7")
        else:
            e("ldm r0, {r10, r11, r12, lr}")
            e("smlad r10, r4, r8, r10")
            e("smladx r11, r4, r6, r11")
            e("smlad r12, r5, r9, r12")
            e("smladx lr, r5, r7, lr")
        e("stm r0!, {r10, r11, r12, lr}")

    def phase(set_r: bool, n_off: int, lb: int) -> None:
        """n pairs from [sp, #n_off] (9 pushed words and 8 bytes above the caller's sp);
        local labels lb + 1 .. lb + 5"""
        if split:  # n == 0 ends the phase (the plain kernel returned before the push, n in r12)
            e(f"ldr r12, [sp, #{n_off}]")
            e("cmp r12, #0")
            e(f"beq {lb + 4}f")
        e("add r4, r0, r12, lsl #3")
        e("str r4, [sp]")
        e("tst r12, #1")
        e(f"beq {lb + 1}f")
        e("ldr r4, [r1], #4")
        e("ldr r6, [r2], #4")
        e("ldrh r8, [r3], #2")
        if set_r:
            e("pkhbt r8, r6, r8, lsl #16")
            e("smuad r10, r4, r8")
            e("smuadx r11, r4, r6")
        else:
            e("ldrd r10, r11, [r0]")
            e("pkhbt r8, r6, r8, lsl #16")
            e("smlad r10, r4, r8, r10")
            e("smladx r11, r4, r6, r11")
        e("strd r10, r11, [r0], #8")
        out.append(f"{lb + 1}:")
        e("tst r12, #2")
        e(f"beq {lb + 2}f")
        two(0, set_r)
        e("add r3, r3, #4")
        out.append(f"{lb + 2}:")
        e(f"ldr r12, [sp, #{n_off}]")  # n again (two() uses r12)
        e("tst r12, #4")
        e(f"beq {lb + 5}f")
        two(0, set_r)
        two(4, set_r)
        e("add r3, r3, #8")
        out.append(f"{lb + 5}:")
        e("ldr r4, [sp]")
        e("cmp r0, r4")
        e(f"beq {lb + 4}f")
        out.append(f"{lb + 3}:")
        for off in (0, 4, 8, 12):
            two(off, set_r)
        e("add r3, r3, #16")
        e("ldr r4, [sp]")
        e("cmp r0, r4")
        e(f"bne {lb + 3}b")
        out.append(f"{lb + 4}:")

    phase(False, 44, 0)
    if split:
        phase(True, 48, 10)
    e("add sp, sp, #8")
    e("pop {r4-r11, pc}")
    end_func(name)


def emit_basemul12_pairs32(set_r: bool = False) -> None:
    """r[2i] += a0 b0 + a1 bg[i], r[2i+1] += a0 b1 + a1 b0 for the 128 pairs, with a given as
    its 384-byte encoding (ByteDecode_12, reduced mod q as frombytes12; section 7.2's verdict
    returned as check12's: 0 iff every 12-bit value is below q): r0 = r (int32),
    r1 = a's bytes (any alignment), r2 = b (word-aligned pairs), r3 = bg (word-aligned
    halfwords). The decoded pairs stay in registers (r4-r7, four pairs per 12 bytes) and are
    never stored. r12 holds q|q, r11 the verdict (sel takes q|q's bytes 0x01, 0x0d, all
    nonzero, where GE is set). Per pair: ldr b by offset, ldm of the two accumulators,
    smlabb (a0 b0), smlatb / smlatt (a1 bg, two pairs' bg from one word), smladx, stm with
    writeback (LDRD / STRD cost 3 cycles and a load after STRD one more, docs/sim.md). The end
    address of r is kept on the stack.
    set_r (`_set`, h92): r = the products (r not read: smulbb / smuadx instead of the ldm and
    smlabb / smladx), the first term of encryption's t_hat^T y_hat, so its accumulator needs
    no clearing."""
    name = f"pqlab_mlkem_basemul12_pairs32{'_set' if set_r else ''}_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    e("sub sp, sp, #8")
    e("add r4, r0, #1024")
    e("str r4, [sp]")
    e(f"movw r12, #{Q}")
    e(f"movt r12, #{Q}")
    e("mov r11, #0")  # verdict
    out.append("1:")
    e("ldr r9, [r1, #0]")
    e("ldr r10, [r1, #4]")
    e("ldr r8, [r1, #8]")
    e("add r1, r1, #12")
    e("ubfx r4, r9, #0, #12")  # c0
    e("lsr lr, r9, #12")
    e("bfi r4, lr, #16, #12")  # c1
    e("lsr r5, r9, #24")
    e("bfi r5, r10, #8, #4")  # c2
    e("lsr lr, r10, #4")
    e("bfi r5, lr, #16, #12")  # c3
    e("ubfx r6, r10, #16, #12")  # c4
    e("lsr lr, r10, #28")
    e("bfi lr, r8, #4, #8")
    e("bfi r6, lr, #16, #12")  # c5
    e("ubfx r7, r8, #8, #12")  # c6
    e("lsr lr, r8, #20")
    e("orr r7, r7, lr, lsl #16")  # c7
    for r in ("r4", "r5", "r6", "r7"):
        e(f"usub16 r9, {r}, r12")
        e(f"sel {r}, r9, {r}")
        e("sel r11, r12, r11")  # q|q's bytes (0x01, 0x0d) are nonzero: no all-ones register
    for g in range(2):
        e(f"ldr r8, [r3, #{4 * g}]")  # bg of pairs 2g, 2g + 1 (word-aligned cache)
        for k in range(2):
            a = ("r4", "r5", "r6", "r7")[2 * g + k]
            e(f"ldr r9, [r2, #{4 * (2 * g + k)}]")
            if set_r:
                e(f"smulbb r10, {a}, r9")  # a0 b0
            else:
                e("ldm r0, {r10, lr}")
                e(f"smlabb r10, {a}, r9, r10")  # a0 b0
            e(f"smlat{'bt'[k]} r10, {a}, r8, r10")  # + a1 bg
            if set_r:
                e(f"smuadx lr, {a}, r9")  # a0 b1 + a1 b0
            else:
                e(f"smladx lr, {a}, r9, lr")  # a0 b1 + a1 b0
            e("stm r0!, {r10, lr}")
    e("add r2, r2, #16")
    e("add r3, r3, #8")
    e("ldr r4, [sp]")
    e("cmp r0, r4")
    e("bne 1b")
    e("mov r0, r11")
    e("add sp, sp, #8")
    e("pop {r4-r11, pc}")
    end_func(name)


def emit_reduce32() -> None:
    """r = a R^-1 mod q coefficient-wise (Montgomery, mont above: |a| < q 2^15 gives (-q, q);
    kernels.h reduce32): r0 = r (256 int16), r1 = a (256 int32). Eight coefficients per
    iteration."""
    name = "pqlab_mlkem_reduce32_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    e(f"movw {QQ}, #3327")
    e(f"movt {QQ}, #{Q}")
    e("add r2, r0, #512")
    out.append("1:")
    e("ldm r1!, {r4-r11}")
    for x in ("r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11"):
        mont(x, "r12")
    e("pkhtb r4, r5, r4, asr #16")
    e("pkhtb r5, r7, r6, asr #16")
    e("pkhtb r6, r9, r8, asr #16")
    e("pkhtb r7, r11, r10, asr #16")
    e("stm r0!, {r4-r7}")
    e("cmp r0, r2")
    e("bne 1b")
    e("pop {r4-r11, pc}")
    end_func(name)


def emit_reduce32_add() -> None:
    """r = (a mod q) + b (kernels.h reduce32_add): r0 = r, r1 = a (int32), r2 = b; r may be b. Barrett on 32 bits: t = smmulr(a, V) = round(a V / 2^32) with
    V = round(2^32 / q) (V q = 2^32 - 1353: for |a| < q 2^15 the quotient is off by less than
    0.011), a - t q by mls: |a - t q| <= 1699. Eight coefficients per iteration; the end
    address of r on the stack (all registers in use)."""
    name = "pqlab_mlkem_reduce32_add_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    e("sub sp, sp, #8")
    e("add r3, r0, #512")
    e("str r3, [sp]")
    const("r3", V)
    e(f"movw lr, #{Q}")
    out.append("1:")
    e("ldm r1!, {r4-r11}")
    for x in ("r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11"):
        e(f"smmulr r12, {x}, r3")
        e(f"mls {x}, r12, lr, {x}")
    e("pkhbt r4, r4, r5, lsl #16")
    e("pkhbt r6, r6, r7, lsl #16")
    e("pkhbt r8, r8, r9, lsl #16")
    e("pkhbt r10, r10, r11, lsl #16")
    e("ldm r2!, {r5, r7, r9, r11}")
    e("sadd16 r4, r4, r5")
    e("sadd16 r6, r6, r7")
    e("sadd16 r8, r8, r9")
    e("sadd16 r10, r10, r11")
    e("stm r0!, {r4, r6, r8, r10}")
    e("ldr r12, [sp]")
    e("cmp r0, r12")
    e("bne 1b")
    e("add sp, sp, #8")
    e("pop {r4-r11, pc}")
    end_func(name)


def emit_reduce32_add_tobytes12() -> None:
    """out = out2 = ByteEncode_12((a + b) mod q) (kernels.h reduce32_add_tobytes12: key
    generation's row t_hat = A s + NTT(e) encoded into ek and into dk's copy of ek without
    storing it; since 2026-11-28, h101: b is NTT(e) without its last reduction, |b| < 2^14,
    and the second output replaces the copy of ek into dk): r0 = out, r1 = out2 (384 bytes
    each, any alignment), r2 = a (int32), r3 = b. Per 8 coefficients, two halves of four:
    ldm of a, b added in 32 bits by sxtah (|a + b| < q 2^15 + 2^14), reduce32_add's Barrett
    smmulr / mls (the quotient is off by less than 0.011 on that range too: |a + b - t q| <=
    1699 < q), pkhbt, the canonical value by one conditional addition of q (sadd16 q|q, then
    usub16 / sel: three instructions instead of canon2q's five and the sadd16 of b), then
    tobytes12's packing of the four words into three, stored twice. b is only read.
    Registers: r1 = a, r2 = b, r3 = round(2^32 / q), lr = q, r10 = out2, r11 = q|q, r12
    scratch, the end address of a on the stack."""
    name = "pqlab_mlkem_reduce32_add_tobytes12_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    e("sub sp, sp, #8")
    e("mov r10, r1")
    e("mov r1, r2")
    e("mov r2, r3")
    e("add r3, r1, #1024")
    e("str r3, [sp]")
    const("r3", V)
    e(f"movw lr, #{Q}")
    const("r11", (Q << 16) | Q)
    out.append("1:")
    for regs, lo, hi, bw in (
        (("r4", "r5", "r6", "r7"), "r4", "r6", ("r8", "r9")),
        (("r5", "r7", "r8", "r9"), "r5", "r8", ("r12", "r12")),
    ):
        e(f"ldm r1!, {{{', '.join(regs)}}}")
        for k in range(2):
            e(f"ldr {bw[k]}, [r2, #{4 * k}]")
            if bw[0] == bw[1]:  # one scratch register: each b word used before the next load
                e(f"sxtah {regs[2 * k]}, {regs[2 * k]}, {bw[k]}")
                e(f"sxtah {regs[2 * k + 1]}, {regs[2 * k + 1]}, {bw[k]}, ror #16")
        if bw[0] != bw[1]:
            for k in range(2):
                e(f"sxtah {regs[2 * k]}, {regs[2 * k]}, {bw[k]}")
                e(f"sxtah {regs[2 * k + 1]}, {regs[2 * k + 1]}, {bw[k]}, ror #16")
        e("add r2, r2, #8")
        for x in regs:
            e(f"smmulr r12, {x}, r3")
            e(f"mls {x}, r12, lr, {x}")
        e(f"pkhbt {lo}, {regs[0]}, {regs[1]}, lsl #16")
        e(f"pkhbt {hi}, {regs[2]}, {regs[3]}, lsl #16")
        for x in (lo, hi):  # |x| < q: x + q in (0, 2q), minus q where >= q
            e(f"sadd16 {x}, {x}, r11")
            e(f"usub16 r12, {x}, r11")
            e(f"sel {x}, r12, {x}")
    # r4 = c0 c1, r6 = c2 c3, r5 = c4 c5, r8 = c6 c7
    pack12_store("r4", "r6", "r5", "r8", "r7", "r9", "r12", outs=("r0", "r10"))
    e("ldr r12, [sp]")
    e("cmp r1, r12")
    e("bne 1b")
    e("add sp, sp, #8")
    e("pop {r4-r11, pc}")
    end_func(name)


def emit_rej_bulk() -> None:
    """Algorithm 7 lines 5-15 for 12 g bytes without the count limit: r0 = cand, r1 = buf,
    r2 = g; every 12-bit value d < q is appended (written at cand[n], n += d < q);
    returns n. Branch-free per value; 3 word loads (any alignment) per 8 values; an odd
    group first, then two groups per loop test (since 2026-11-27, h80)."""
    name = "pqlab_mlkem_rej_bulk_armv7em"
    func(name)
    e("push {r4-r8, lr}")
    e("mov r3, r0")
    e(f"movw r12, #{Q}")

    def app(d: str) -> None:
        e(f"strh {d}, [r3]")
        e(f"sub {d}, {d}, r12")
        e(f"lsr {d}, {d}, #31")
        e(f"add r3, r3, {d}, lsl #1")

    def group() -> None:
        e("ldr r4, [r1, #0]")
        e("ldr r5, [r1, #4]")
        e("ldr r6, [r1, #8]")
        e("add r1, r1, #12")
        e("ubfx r7, r4, #0, #12")
        app("r7")
        e("ubfx r7, r4, #12, #12")
        app("r7")
        e("lsr r7, r4, #24")
        e("bfi r7, r5, #8, #4")
        app("r7")
        e("ubfx r7, r5, #4, #12")
        app("r7")
        e("ubfx r7, r5, #16, #12")
        app("r7")
        e("lsr r7, r5, #28")
        e("bfi r7, r6, #4, #8")
        app("r7")
        e("ubfx r7, r6, #8, #12")
        app("r7")
        e("lsr r7, r6, #20")
        app("r7")

    e("tst r2, #1")
    e("beq 3f")
    group()
    out.append("3:")
    e("lsrs r2, r2, #1")
    e("beq 2f")
    out.append("1:")
    group()
    group()
    e("subs r2, r2, #1")
    e("bne 1b")
    out.append("2:")
    e("sub r0, r3, r0")
    e("lsr r0, r0, #1")
    e("pop {r4-r8, pc}")
    end_func(name)


def emit_cbd2(add: bool = False) -> None:
    """r = SamplePolyCBD_2(buf) (FIPS 203 Algorithm 8, eta = 2), or with add r += it
    (cbd2_add, kernels.h cbd_eta2_add: one ldm and four sadd16 per word of input, no noise
    buffer): r0 = r, r1 = buf (128 bytes, any alignment). Per input word: pair sums
    s = (w & 0x55..) + ((w >> 1) & 0x55..), nibble fields x (bits 0-1) and y (bits 2-3) split
    into even and odd nibbles per byte, ssub8 forms x - y in [-2, 2] per byte, sxtb16 / pkh
    place them as int16 pairs."""
    name = "pqlab_mlkem_cbd2_add_armv7em" if add else "pqlab_mlkem_cbd2_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    const("r12", 0x55555555)
    const("lr", 0x33333333)
    const("r11", 0x0F0F0F0F)
    e("add r10, r0, #512")
    out.append("1:")
    e("ldr r2, [r1], #4")
    e("and r3, r2, r12")
    e("and r2, r12, r2, lsr #1")
    e("add r2, r2, r3")  # 2-bit sums
    e("and r3, r2, lr")  # x fields (nibble bits 0-1)
    e("and r2, lr, r2, lsr #2")  # y fields
    e("and r4, r3, r11")  # x of even coefficients (low nibbles)
    e("and r5, r11, r3, lsr #4")  # x of odd coefficients
    e("and r6, r2, r11")
    e("and r7, r11, r2, lsr #4")
    e("ssub8 r4, r4, r6")  # c0 c2 c4 c6 (bytes)
    e("ssub8 r5, r5, r7")  # c1 c3 c5 c7
    e("sxtb16 r6, r4")  # c0 | c4
    e("sxtb16 r7, r5")  # c1 | c5
    e("sxtb16 r4, r4, ror #8")  # c2 | c6
    e("sxtb16 r5, r5, ror #8")  # c3 | c7
    e("pkhbt r2, r6, r7, lsl #16")  # c0 c1
    e("pkhtb r3, r7, r6, asr #16")  # c4 c5
    e("pkhbt r8, r4, r5, lsl #16")  # c2 c3
    e("pkhtb r9, r5, r4, asr #16")  # c6 c7
    if add:
        e("ldm r0, {r4-r7}")
        e("sadd16 r2, r2, r4")
        e("sadd16 r8, r8, r5")
        e("sadd16 r3, r3, r6")
        e("sadd16 r9, r9, r7")
    e("str r2, [r0, #0]")
    e("str r8, [r0, #4]")
    e("str r3, [r0, #8]")
    e("str r9, [r0, #12]")
    e("add r0, r0, #16")
    e("cmp r0, r10")
    e("bne 1b")
    e("pop {r4-r11, pc}")
    end_func(name)


def emit_cbd3() -> None:
    """r = SamplePolyCBD_3(buf) (FIPS 203 Algorithm 8, eta = 3: ML-KEM-512's eta1): r0 = r,
    r1 = buf (192 bytes, any alignment). 12 bytes (three words) per iteration, four 24-bit
    groups g of four coefficients (bits above 23 of g are masked off below): t = (g & M) +
    ((g >> 1) & M) + ((g >> 2) & M) with M = 0x249249 holds the bit sums of the eight 3-bit
    fields (0..3); the even fields (x) and the odd ones (y) at 6-bit spacing (mask 0x1C71C7),
    x + 3 - y in [0, 6] per field without borrows, then ubfx / pkhbt place two coefficients
    per word and ssub16 takes the 3 off: c = x - y in [-3, 3], the values of the C."""
    name = "pqlab_mlkem_cbd3_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    e("sub sp, sp, #8")
    e("add r2, r1, #192")
    e("str r2, [sp]")
    const("r12", 0x249249)
    const("lr", 0x1C71C7)
    const("r11", 0x0C30C3)
    const("r10", 0x00030003)
    out.append("1:")
    e("ldr r2, [r1, #0]")
    e("ldr r3, [r1, #4]")
    e("ldr r4, [r1, #8]")
    e("add r1, r1, #12")

    def group(src: str | None, build: list[str], last: bool = False) -> None:
        g = src
        if build:
            for ins in build:
                e(ins)
            g = "r5"
        e(f"and r6, {g}, r12")
        e(f"and r7, r12, {g}, lsr #1")
        e("add r6, r6, r7")
        e(f"and r7, r12, {g}, lsr #2")
        e("add r6, r6, r7")  # t: 3-bit fields of bit sums
        e("and r7, r6, lr")  # x fields (0, 2, 4, 6) at bits 0, 6, 12, 18
        e("and r8, lr, r6, lsr #3")  # y fields
        e("add r7, r7, r11")  # x + 3
        e("sub r8, r7, r8")  # x + 3 - y, in [0, 6] per field
        for k, o in ((0, "r5"), (12, "r6")):
            e(f"ubfx r7, r8, #{k}, #3")
            e(f"ubfx r9, r8, #{k + 6}, #3")
            e(f"pkhbt {o}, r7, r9, lsl #16")
            e(f"ssub16 {o}, {o}, r10")
        if last:  # the end address before the STRD: a load right after an STRD stalls (m4-v5)
            e("ldr r9, [sp]")
        e("strd r5, r6, [r0], #8")

    group("r2", [])
    group(None, ["lsr r5, r2, #24", "orr r5, r5, r3, lsl #8"])
    group(None, ["lsr r5, r3, #16", "orr r5, r5, r4, lsl #16"])
    group(None, ["lsr r5, r4, #8"], last=True)
    e("cmp r1, r9")
    e("bne 1b")
    e("add sp, sp, #8")
    e("pop {r4-r11, pc}")
    end_func(name)


def unpack12(src: str) -> None:
    """12 bytes at src (advanced by 12) -> the 8 12-bit values of ByteDecode_12 as halfword
    pairs in r5-r8 (c0 | c1 << 16, ...); r2-r4, r9 scratch"""
    e(f"ldr r2, [{src}, #0]")
    e(f"ldr r3, [{src}, #4]")
    e(f"ldr r4, [{src}, #8]")
    e(f"add {src}, {src}, #12")
    e("ubfx r5, r2, #0, #12")  # c0
    e("lsr r9, r2, #12")
    e("bfi r5, r9, #16, #12")  # c1
    e("lsr r6, r2, #24")
    e("bfi r6, r3, #8, #4")  # c2
    e("lsr r9, r3, #4")
    e("bfi r6, r9, #16, #12")  # c3
    e("ubfx r7, r3, #16, #12")  # c4
    e("lsr r9, r3, #28")
    e("bfi r9, r4, #4, #8")
    e("bfi r7, r9, #16, #12")  # c5
    e("ubfx r8, r4, #8, #12")  # c6
    e("lsr r9, r4, #20")
    e("orr r8, r8, r9, lsl #16")  # c7


def emit_frombytes12() -> None:
    """r = ByteDecode_12(in) reduced mod q (Algorithm 6, m = q): r0 = r, r1 = in (384 bytes,
    any alignment). 12 bytes -> 8 coefficients as 4 words; usub16 / sel subtract q from the
    halves >= q (values < 2^12 < 2q). (The form with section 7.2's verdict fused in,
    frombytes12_check of h87, went away when encryption's t_hat decoding moved into
    basemul12_pairs32, h90; removed 2026-11-27, h92.)"""
    name = "pqlab_mlkem_frombytes12_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    e(f"movw r12, #{Q}")
    e(f"movt r12, #{Q}")
    e("add lr, r0, #512")
    out.append("1:")
    unpack12("r1")
    for r in ("r5", "r6", "r7", "r8"):
        e(f"usub16 r9, {r}, r12")
        e(f"sel {r}, r9, {r}")
    e("str r5, [r0, #0]")
    e("str r6, [r0, #4]")
    e("str r7, [r0, #8]")
    e("str r8, [r0, #12]")
    e("add r0, r0, #16")
    e("cmp r0, lr")
    e("bne 1b")
    e("pop {r4-r11, pc}")
    end_func(name)


def pack12_store(
    c01: str, c23: str, c45: str, c67: str, w1: str, w2: str, t: str, outs: tuple[str, ...] = ("r0",)
) -> None:
    """ByteEncode_12 of 8 canonical coefficients held as pairs (c01 = c0 | c1 << 16, ...): the
    three words c0 | c1 << 12 | c2 << 24, c2 >> 8 | c3 << 4 | c4 << 16 | c5 << 28 and
    c5 >> 4 | c6 << 8 | c7 << 20 built in c01, w1 and w2 (t scratch), stored through each
    register of outs (r0), which advance by 12."""
    e(f"lsr {t}, {c01}, #16")
    e(f"bfi {c01}, {t}, #12, #12")
    e(f"bfi {c01}, {c23}, #24, #8")  # c0 | c1 << 12 | c2 << 24
    e(f"ubfx {w1}, {c23}, #8, #4")
    e(f"lsr {t}, {c23}, #16")
    e(f"bfi {w1}, {t}, #4, #12")
    e(f"bfi {w1}, {c45}, #16, #12")
    e(f"lsr {t}, {c45}, #16")
    e(f"bfi {w1}, {t}, #28, #4")  # c2 >> 8 | c3 << 4 | c4 << 16 | c5 << 28
    e(f"ubfx {w2}, {c45}, #20, #8")
    e(f"bfi {w2}, {c67}, #8, #12")
    e(f"lsr {t}, {c67}, #16")
    e(f"bfi {w2}, {t}, #20, #12")  # c5 >> 4 | c6 << 8 | c7 << 20
    for o in outs:
        e(f"str {c01}, [{o}, #0]")
        e(f"str {w1}, [{o}, #4]")
        e(f"str {w2}, [{o}, #8]")
    for o in outs:
        e(f"add {o}, {o}, #12")


def emit_tobytes12() -> None:
    """out = ByteEncode_12(a mod q) for |a| < 2q (canonical fused in, since 2026-11-27): r0 =
    out (384 bytes, any alignment), r1 = a. 4 words (8 coefficients): canon2q, then 3 words
    with bfi."""
    name = "pqlab_mlkem_tobytes12_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    const("r10", (2 * Q << 16) | (2 * Q))
    const("r11", (Q << 16) | Q)
    e("add lr, r1, #512")
    out.append("1:")
    e("ldr r2, [r1, #0]")  # c0 c1
    e("ldr r3, [r1, #4]")  # c2 c3
    e("ldr r4, [r1, #8]")  # c4 c5
    e("ldr r5, [r1, #12]")  # c6 c7
    e("add r1, r1, #16")
    for x in ("r2", "r3", "r4", "r5"):
        canon2q(x, "r6", "r10", "r11")
    pack12_store("r2", "r3", "r4", "r5", "r7", "r8", "r6")
    e("cmp r1, lr")
    e("bne 1b")
    e("pop {r4-r11, pc}")
    end_func(name)


def emit_canonical() -> None:
    """c = c mod q in [0, q) for |c| < 2q (kernels.h canonical: the bound of every call site):
    r0 = c. Per word, on both halves: sadd16 forms c + 2q, then ssub16 c - 0 sets GE where
    c >= 0 (after the sadd16, which sets GE too), sel keeps c or takes c + 2q (in [0, 2q) now);
    usub16 c - q sets GE where c >= q, sel takes c - q there. Five instructions per word."""
    name = "pqlab_mlkem_canonical_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    const("r1", (2 * Q << 16) | (2 * Q))
    const("r2", (Q << 16) | Q)
    e("mov r3, #0")
    e("add r12, r0, #512")
    out.append("1:")
    for _ in range(2):
        e("ldm r0, {r4-r7}")
        for x in ("r4", "r5", "r6", "r7"):
            e(f"sadd16 r9, {x}, r1")  # c + 2q (sets GE too: computed first)
            e(f"ssub16 r8, {x}, r3")  # GE = c >= 0
            e(f"sel {x}, {x}, r9")  # [0, 2q)
            e(f"usub16 r8, {x}, r2")  # GE = c >= q
            e(f"sel {x}, r8, {x}")
        e("stm r0!, {r4-r7}")
    e("cmp r0, r12")
    e("bne 1b")
    e("pop {r4-r11, pc}")
    end_func(name)


def emit_tomont_add() -> None:
    """r = r * 2^32 R^-1 (Montgomery product with 1353 = 2^32 mod q) + b: r0 = r, r1 = b;
    r any int16 (|r 1353| < q 2^15), b with |b| <= q: |result| < q + |b|."""
    name = "pqlab_mlkem_tomont_add_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    e(f"movw {QQ}, #3327")
    e(f"movt {QQ}, #{Q}")
    e(f"movw r2, #{pow(2, 32, Q)}")
    e("add r12, r0, #512")
    out.append("1:")
    e("ldm r0, {r4-r7}")
    for k, x in enumerate(("r4", "r5", "r6", "r7")):
        e(f"smulbb r3, {x}, r2")
        e(f"smultb {x}, {x}, r2")
        mont("r3", "r9")
        mont(x, "r9")
        e(f"pkhtb {x}, {x}, r3, asr #16")
        e(f"ldr r8, [r1, #{4 * k}]")
        e(f"sadd16 {x}, {x}, r8")
    e("add r1, r1, #16")
    e("stm r0!, {r4-r7}")
    e("cmp r0, r12")
    e("bne 1b")
    e("pop {r4-r11, pc}")
    end_func(name)


def emit_add() -> None:
    """r = r + b coefficient-wise as int16 (kernels.h add): r0 = r, r1 = b. SADD16 wraps like
    the C's (int16_t) cast; callers keep |r + b| < 2^15. Two blocks of four words per pass."""
    name = "pqlab_mlkem_add_armv7em"
    func(name)
    e("push {r4-r9, lr}")
    e("add r12, r0, #512")
    out.append("1:")
    for _ in range(2):
        e("ldm r0, {r2-r5}")
        e("ldm r1!, {r6-r9}")
        e("sadd16 r2, r2, r6")
        e("sadd16 r3, r3, r7")
        e("sadd16 r4, r4, r8")
        e("sadd16 r5, r5, r9")
        e("stm r0!, {r2-r5}")
    e("cmp r0, r12")
    e("bne 1b")
    e("pop {r4-r9, pc}")
    end_func(name)


def emit_frommsg() -> None:
    """r = Decompress_1(ByteDecode_1(msg)) (FIPS 203 Algorithm 14 line 20): r0 = r, r1 = msg
    (32 bytes). Per byte b: s = b | b << 15 puts bit j at position j and bit j + 1 at j + 16,
    so (s >> j) & 0x00010001 holds coefficients 8i + j, 8i + j + 1 as 0/1 in the two halves;
    one MUL by 1665 = (q + 1)/2 scales both (no carry between halves). No branch, no
    secret-dependent address. (The adding form, frommsg_add of h72, is now part of v's
    compression: cbd2_add_msg_compress4 / 5, h92.)"""
    name = "pqlab_mlkem_frommsg_armv7em"
    func(name)
    e("push {r4-r7, lr}")
    e(f"movw r12, #{(Q + 1) // 2}")
    const("r3", 0x00010001)
    e("add lr, r1, #32")
    out.append("1:")
    e("ldrb r2, [r1], #1")
    e("orr r2, r2, r2, lsl #15")
    e("and r4, r3, r2")
    e("and r5, r3, r2, lsr #2")
    e("and r6, r3, r2, lsr #4")
    e("and r7, r3, r2, lsr #6")
    for r in ("r4", "r5", "r6", "r7"):
        e(f"mul {r}, {r}, r12")
    e("stm r0!, {r4-r7}")
    e("cmp r1, lr")
    e("bne 1b")
    e("pop {r4-r7, pc}")
    end_func(name)


def emit_tomsg() -> None:
    """msg = ByteEncode_1(Compress_1(c)) for canonical c (FIPS 203 Algorithm 15 line 7):
    r0 = msg (32 bytes), r1 = c. Compress_1(x) = 1 iff 833 <= x <= 2496, i.e. iff
    y = x - 833 (mod 2^16) is below 1664 as an unsigned halfword: usub16 y, 1664 sets GE
    where it is not, sel picks 0 there and 1 elsewhere (per half). Word j of a byte's four
    goes to bits 2j (low half) and 2j + 16 (high half); OR-ing the accumulator with itself
    shifted right by 15 moves the odd coefficients to bits 2j + 1. No branch, no
    secret-dependent address."""
    name = "pqlab_mlkem_tomsg_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    const("r2", 833 * 0x00010001)
    const("r3", 1664 * 0x00010001)
    const("r10", 0x00010001)
    e("mov r11, #0")
    e("add lr, r0, #32")
    out.append("1:")
    e("ldm r1!, {r4-r7}")
    e("mov r12, #0")
    for j, x in enumerate(("r4", "r5", "r6", "r7")):
        e(f"usub16 {x}, {x}, r2")  # y = x - 833 per half
        e(f"usub16 r8, {x}, r3")  # GE where y >= 1664 (unsigned)
        e("sel r8, r11, r10")  # 0 there, 1 elsewhere
        e(f"orr r12, r12, r8, lsl #{2 * j}")
    e("orr r12, r12, r12, lsr #15")
    e("strb r12, [r0], #1")
    e("cmp r0, lr")
    e("bne 1b")
    e("pop {r4-r11, pc}")
    end_func(name)


def emit_tomsg_sub() -> None:
    """msg = ByteEncode_1(Compress_1(v - w mod q)) for canonical v and |w| < q (FIPS 203
    Algorithm 15 lines 6, 7; kernels.h tomsg_sub): r0 = msg, r1 = v, r2 = w (w is not
    written). Per word: ssub16 gives d = v - w in (-q, 2q), canon2q makes it canonical, then
    the test of emit_tomsg (Compress_1(x) = 1 iff x - 833 < 1664 unsigned). One word of v
    and of w at a time, four per message byte."""
    name = "pqlab_mlkem_tomsg_sub_armv7em"
    func(name)
    e("push {r4-r10, lr}")
    const("r3", 833 * 0x00010001)
    const("r6", 1664 * 0x00010001)
    const("r7", 0x00010001)
    e("mov r8, #0")
    const("r9", 2 * Q * 0x00010001)
    const("r10", Q * 0x00010001)
    e("add lr, r0, #32")
    out.append("1:")
    e("mov r12, #0")
    for j in range(4):
        e("ldr r4, [r1], #4")
        e("ldr r5, [r2], #4")
        e("ssub16 r4, r4, r5")  # d = v - w, |d| < 2q
        canon2q("r4", "r5", "r9", "r10")
        e("usub16 r4, r4, r3")  # y = x - 833 per half
        e("usub16 r5, r4, r6")  # GE where y >= 1664 (unsigned)
        e("sel r5, r8, r7")  # 0 there, 1 elsewhere
        e(f"orr r12, r12, r5, lsl #{2 * j}")
    e("orr r12, r12, r12, lsr #15")
    e("strb r12, [r0], #1")
    e("cmp r0, lr")
    e("bne 1b")
    e("pop {r4-r10, pc}")
    end_func(name)


def emit_check12() -> None:
    """The encapsulation key's modulus check (FIPS 203 section 7.2): r0 = in, r1 = number of
    bytes (a multiple of 12, at least 12; any alignment); returns 0 iff every 12-bit value
    of ByteDecode_12's input is below q, else a nonzero word. The values are unpacked as in
    frombytes12; usub16 against q sets GE where a half is >= q and sel ORs 0xff bytes into
    the accumulator there. Whole input read, no early exit (ek is public, but the cycles stay
    constant anyway)."""
    name = "pqlab_mlkem_check12_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    e(f"movw r12, #{Q}")
    e(f"movt r12, #{Q}")
    e("add lr, r0, r1")
    e("mov r10, #0")  # accumulator
    e("mvn r11, #0")  # all ones
    out.append("1:")
    unpack12("r0")
    for r in ("r5", "r6", "r7", "r8"):
        e(f"usub16 r9, {r}, r12")
        e("sel r10, r11, r10")
    e("cmp r0, lr")
    e("bne 1b")
    e("mov r0, r10")
    e("pop {r4-r11, pc}")
    end_func(name)


def compress_consts(d: int) -> tuple[int, int]:
    """(M, C) with Compress_d(x mod q) = ((floor(M x / 2^16) + C) >> 8) mod 2^d for every x
    with |x| < 2q (smlawX then ubfx; Compress_d is periodic mod q, since
    round(2^d (x + k q) / q) = round(2^d x / q) + k 2^d, so the encoder needs no canonical
    step when the formula is exact on the whole range): C = 128 and M = ceil(2^(24 + d) / q),
    or floor(2^(24 + d) / q) where the ceiling misses a value (d = 11), the first exact one
    (checked here and for every x by tests/test_native_armv7em_mlkem.py)."""
    for m in (-(-(1 << (24 + d)) // Q), (1 << (24 + d)) // Q):
        if all(
            ((((m * x) >> 16) + 128) >> 8) % (1 << d) == (((x % Q) << d) + Q // 2) // Q % (1 << d)
            for x in range(-2 * Q + 1, 2 * Q)
        ):
            return m, 128
    raise ValueError(f"no Compress_{d} constant exact on |x| < 2q")


def compress_pack8(blk: int, d: int, acc: str, t: str) -> None:
    """Coefficients 8 blk .. 8 blk + 7 of the loop's 32, held as pairs in r4-r7 (values below
    2q): each Compress_d'ed by smlaw with r2 = m and r3 = c (compress_consts) and packed d bits
    at a time into acc, full words stored through r0 (post-increment); t is scratch."""
    for k in range(8):
        i = 8 * blk + k
        word = ("r4", "r5", "r6", "r7")[k // 2]
        e(f"smlaw{'bt'[k % 2]} {t}, r2, {word}, r3")
        o = (i * d) % 32
        if o == 0:
            e(f"ubfx {acc}, {t}, #8, #{d}")
            continue
        e(f"ubfx {t}, {t}, #8, #{d}")
        e(f"orr {acc}, {acc}, {t}, lsl #{o}")
        if o + d >= 32:
            e(f"str {acc}, [r0], #4")
            if o + d > 32:
                e(f"lsr {acc}, {t}, #{32 - o}")


def emit_compress(d: int) -> None:
    """out = ByteEncode_d(Compress_d(c mod q)) for |c| < 2q (FIPS 203 equation 4.7, Algorithm
    5; since 2026-11-27 the contract admits |c| < 2q and no canonical step is needed, see
    compress_consts): r0 = out (32 d bytes, any alignment: single-word STR), r1 = c. 32
    coefficients (d whole
    words) per pass: per coefficient smlawb / smlawt (floor(M x / 2^16) + 128), ubfx of bits
    8 .. 8 + d - 1, and one ORR into the output word at its bit offset; a value that crosses
    a word boundary starts the next word with its remaining high bits. No division, no
    branch on data."""
    name = f"pqlab_mlkem_compress{d}_armv7em"
    m, c = compress_consts(d)
    func(name)
    e("push {r4-r11, lr}")
    const("r2", m)
    e(f"mov r3, #{c}")
    e("add r12, r1, #512")
    out.append("1:")
    acc, t = "r8", "r10"
    for blk in range(4):  # 4 x 8 coefficients
        e("ldm r1!, {r4-r7}")
        compress_pack8(blk, d, acc, t)
    e("cmp r1, r12")
    e("bne 1b")
    e("pop {r4-r11, pc}")
    end_func(name)


def emit_cbd2_add_compress(d: int, msg: bool = False) -> None:
    """out = ByteEncode_d(Compress_d((c + SamplePolyCBD_2(buf)) mod q)) for |c| <= 2q - 3
    (FIPS 203 Algorithm 14 lines 19-22 and 21-23: e1[i] or e2 added and the sum compressed in
    one pass; kernels.h cbd_eta2_add_compress_du): r0 = out (32 d bytes, any alignment),
    r1 = c (only read), r2 = buf (128 bytes, any alignment). emit_compress's loop with, per
    8 coefficients, one word of buf turned into their noise in the registers: 2-bit sums
    s = w - ((w >> 1) & 0x55..), x and y fields of the even and odd coefficients masked with
    0x03030303 (held in r9) and subtracted bytewise (ssub8), the even bytes c0 c2 c4 c6 and
    odd bytes c1 c3 c5 c7 packed by halfword into c0 c2 c1 c3 and c4 c6 c5 c7, and sxtab16
    adds them to the loaded pairs (c0, c1) .. (c6, c7) sign-extended, halfword by halfword.
    |c + e| <= 2q - 1 < 2q: compress_consts' range. The loop end is kept on the stack.
    msg (`_msg`, v's compression, kernels.h msg_cbd_eta2_add_compress_dv; since 2026-11-27,
    h92): r3 = msg (32 bytes, any alignment), and Decompress_1(ByteDecode_1(msg)) is added
    too (Algorithm 14 lines 20, 21: mu), so |c| <= 2q - 1668 (the sum stays below 2q). Per
    pass of 32 coefficients the four message bytes are copied to the stack (the pointer
    lives there too: all registers are in use); per 8 coefficients, after the noise, the
    byte b gives s = b | b << 15 (bit j at j, bit j + 1 at j + 16), and for word j
    (s >> 2j) & 0x00010001 times 1665 = (q + 1)/2 is added with sadd16 (no carry between
    the halves; r9 holds 0x00010001 meanwhile, then 0x03030303 again, both immediates).
    No branch, no secret-dependent address."""
    name = f"pqlab_mlkem_cbd2_add{'_msg' if msg else ''}_compress{d}_armv7em"
    m, c = compress_consts(d)
    func(name)
    e("push {r3-r11, lr}")  # r3's slot: the loop end (with msg: the message pointer)
    if msg:
        e("sub sp, sp, #8")  # [sp] loop end, [sp, #4] this pass's message bytes, [sp, #8] msg
    e("mov lr, r2")
    const("r2", m)
    e(f"mov r3, #{c}")
    const("r9", 0x03030303)
    e("add r12, r1, #512")
    e("str r12, [sp]")
    out.append("1:")
    if msg:
        e("ldr r12, [sp, #8]")
        e("ldr r11, [r12], #4")
        e("str r12, [sp, #8]")
        e("str r11, [sp, #4]")
    acc, t = "r8", "r10"
    for blk in range(4):  # 4 x 8 coefficients
        e("ldr r10, [lr], #4")
        e("ldm r1!, {r4-r7}")
        e("lsr r11, r10, #1")
        e("and r11, r11, #0x55555555")
        e("sub r10, r10, r11")  # 2-bit sums
        e("and r11, r10, r9")  # x of even coefficients
        e("and r12, r9, r10, lsr #2")  # y of even coefficients
        e("ssub8 r11, r11, r12")  # c0 c2 c4 c6
        e("and r12, r9, r10, lsr #4")  # x of odd coefficients
        e("and r10, r9, r10, lsr #6")  # y of odd coefficients
        e("ssub8 r10, r12, r10")  # c1 c3 c5 c7
        e("pkhbt r12, r11, r10, lsl #16")  # c0 c2 c1 c3
        e("pkhtb r10, r10, r11, asr #16")  # c4 c6 c5 c7
        e("sxtab16 r4, r4, r12")
        e("sxtab16 r5, r5, r12, ror #8")
        e("sxtab16 r6, r6, r10")
        e("sxtab16 r7, r7, r10, ror #8")
        if msg:
            e(f"ldrb r11, [sp, #{4 + blk}]")
            e("mov r9, #0x00010001")
            e(f"movw r12, #{(Q + 1) // 2}")
            e("orr r11, r11, r11, lsl #15")
            for j, x in enumerate(("r4", "r5", "r6", "r7")):
                e(f"and r10, r9, r11, lsr #{2 * j}" if j else "and r10, r9, r11")  # bits 8 blk + 2j, + 1
                e("mul r10, r10, r12")  # 0 or 1665 per half
                e(f"sadd16 {x}, {x}, r10")
            e("mov r9, #0x03030303")
        compress_pack8(blk, d, acc, t)
    e("ldr r12, [sp]")
    e("cmp r1, r12")
    e("bne 1b")
    if msg:
        e("add sp, sp, #8")
    e("pop {r3-r11, pc}")
    end_func(name)


def emit_decompress(d: int) -> None:
    """c = Decompress_d(ByteDecode_d(in)) (FIPS 203 equation 4.8, Algorithm 6): r0 = c, r1 = in
    (32 d bytes, any alignment: single-word LDR). 32 coefficients (d words) per pass: y by
    ubfx (or lsr + bfi across a word boundary), y q + 2^(d-1) by smlabb, the shift by d folded
    into lsr (even index) and pkhbt's lsl #(16 - d) (odd index: bits d .. d + 15 of the
    product, exact as the result is below q). Result in [0, q), no branch on data."""
    name = f"pqlab_mlkem_decompress{d}_armv7em"
    func(name)
    e("push {r4-r11, lr}")
    e(f"movw r2, #{Q}")
    e(f"mov r3, #{1 << (d - 1)}")
    e("add r12, r0, #512")
    out.append("1:")
    cur, nxt = "r4", "r5"
    outs = ("r6", "r7", "r8", "r9")
    y0, y1 = "r10", "r11"
    e(f"ldr {cur}, [r1], #4")
    loaded = 0  # index of the word in cur
    for i in range(32):
        pos = i * d
        w, o = pos // 32, pos % 32
        if w != loaded:  # advance: the next word was loaded by the straddling value
            cur, nxt = nxt, cur
            loaded = w
        y = y0 if i % 2 == 0 else y1
        if o + d <= 32:
            e(f"ubfx {y}, {cur}, #{o}, #{d}")
        else:
            e(f"ldr {nxt}, [r1], #4")
            e(f"lsr {y}, {cur}, #{o}")
            e(f"bfi {y}, {nxt}, #{32 - o}, #{o + d - 32}")
        if o + d == 32 and i != 31:
            e(f"ldr {nxt}, [r1], #4")
        e(f"smlabb {y}, {y}, r2, r3")  # y q + 2^(d-1) < 2^23: one single-cycle DSP multiply-add
        if i % 2 == 1:
            dst = outs[(i // 2) % 4]
            e(f"lsr {y0}, {y0}, #{d}")
            e(f"pkhbt {dst}, {y0}, {y1}, lsl #{16 - d}")
            if (i // 2) % 4 == 3:
                e(f"stm r0!, {{{outs[0]}-{outs[3]}}}")
    e("cmp r0, r12")
    e("bne 1b")
    e("pop {r4-r11, pc}")
    end_func(name)


def m7_variant(start: int) -> None:
    """out[start:] is one function in the Cortex-M4 order; put it under #else and its
    Cortex-M7 order under #if PQLAB_ARMV7EM_CORTEX_M7 (the define of backend.toml's
    [core.cortex-m7]): every loop body (from a numeric label to its branch) list-scheduled
    by m7sched.py (the same instructions and registers, an order for the M7's dual issue;
    the table pointer r1 is read-only). Adopted for the kernels where it gains more than
    10 % per call on m7-sim (docs/native.md)."""
    m4 = out[start:]
    m7 = schedule_loops(m4, {}, frozenset({"r1"}))
    out[start:] = ["#if defined(PQLAB_ARMV7EM_CORTEX_M7)", *m7, "#else", *m4, "#endif"]


# The other kernels in the Cortex-M7 order (m7_variant), m7-sim per call, M4 order -> M7 order
# (2026-11-28, m7-estimate-v4, tests/test_native_armv7em_mlkem.py): adopted where the gain is
# more than 10 %: frombytes12 855 -> 758, mulcache 984 -> 856, decompress10 1,142 -> 918,
# decompress4 1,046 -> 918 (decompress for d = 5, 11: the same code shape, not timed). Not
# adopted: tobytes12 1,176 -> 1,077 (-8.4 %), check12 2,169 -> 1,974 (-9.0 %),
# reduce32_add_tobytes12 2,364 -> 2,140 (-9.5 %), frommsg 499 -> 465, tomsg_sub 1,690 -> 1,594,
# cbd3 1,292 -> 1,227, cbd2 760 -> 728, tomont_add 1,559 -> 1,495, cbd2_add_msg_compress4
# 2,284 -> 2,188, tomsg 793 -> 761, cbd2_add 952 -> 920, rej_bulk 532 -> 516, reduce32
# 1,175 -> 1,143, basemul_acc 2,875 -> 2,810, cbd2_add_compress10 1,698 -> 1,666,
# reduce32_add, compress4/10, canonical, add, zero32, basemul_pairs32 (within 2 %),
# basemul_pairs 1,300 -> 1,326 (slower).
M7_ADOPTED = {emit_frombytes12, emit_mulcache}  # and emit_decompress for every d


def main() -> None:
    out.extend(
        [
            "/* SPDX-License-Identifier: MIT */",
            "/* Generated by gen_mlkem_ntt.py (python3 gen_mlkem_ntt.py > mlkem_ntt.S); do not edit.",
            " * ML-KEM NTT, inverse NTT and accumulating base multiplication for ARMv7E-M:",
            " * technique and bounds in the generator's docstring, contract in mlkem_native.h. */",
            '#include "pqlab_config.h" /* an export\'s symbol namespace (docs/export.md); empty in the tree */',
            ".syntax unified",
            ".thumb",
        ]
    )
    transforms: list[Callable[[], None]] = [emit_ntt, lambda: emit_ntt(cache=True), lambda: emit_ntt(unreduced=True)]
    transforms += [lambda: emit_ntt(cache=True, encode=True)]
    for emit in transforms:
        start = len(out)
        emit()
        m7_variant(start)
    for name, q4 in (("pqlab_mlkem_invntt_armv7em", True), ("pqlab_mlkem_invntt_q_armv7em", False)):
        start = len(out)
        emit_invntt(name, input_4q=q4)
        m7_variant(start)
    rest: list[Callable[[], None]] = [emit_basemul, emit_basemul_pairs, emit_mulcache, emit_basemul_pairs32]
    rest += [lambda: emit_basemul_pairs32(split=True)]
    rest += [emit_basemul12_pairs32, lambda: emit_basemul12_pairs32(set_r=True), emit_reduce32]
    rest += [emit_reduce32_add, emit_reduce32_add_tobytes12, emit_rej_bulk, emit_cbd2, lambda: emit_cbd2(add=True)]
    rest += [emit_cbd3, emit_frombytes12, emit_tobytes12, emit_canonical, emit_tomont_add, emit_add]
    rest += [emit_frommsg, emit_tomsg, emit_tomsg_sub, emit_check12]
    decompress: list[Callable[[], None]] = []
    for d in (4, 5, 10, 11):
        decompress.append(lambda d=d: emit_decompress(d))
        rest += [lambda d=d: emit_compress(d), lambda d=d: emit_cbd2_add_compress(d, msg=d in (4, 5))]
        rest += [decompress[-1]]
    for f in rest:
        start = len(out)
        f()
        if f in M7_ADOPTED or f in decompress:
            m7_variant(start)
    out.extend(["", '.section .rodata.pqlab_mlkem_ntt, "a"', ".align 2"])
    c1, c2 = inv_consts()
    for label, words in {**ntt_tables(), "inv_c1": c1, "inv_c2": c2}.items():
        out.append(f"pqlab_mlkem_{label}:")
        for i in range(0, len(words), 4):
            out.append("    .word " + ", ".join(f"0x{w:08x}" for w in words[i : i + 4]))
    out.append("")
    print("\n".join(out))


if __name__ == "__main__":
    main()
