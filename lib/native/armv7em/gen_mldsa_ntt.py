# SPDX-License-Identifier: MIT
"""Writes mldsa_ntt.S: ML-DSA's kernels for ARMv7E-M (Cortex-M4/M7): NTT, inverse NTT,
pointwise products and coefficient reductions (FIPS 204 section 7.5, Algorithms 41-45),
then (further down, each with its own docstring) the norm check, Decompose / MakeHint /
UseHint (Algorithms 36-40), the sampling loops of RejNTTPoly and SampleInBall (Algorithms
14, 29, 30) and the bit packing (Algorithms 16-19).

Run `python3 gen_mldsa_ntt.py > mldsa_ntt.S` after editing; a test checks that the
committed file is this script's output. The script computes the twiddle factors itself
(zeta = 1753, FIPS 204 section 4 / Appendix B, times the Montgomery factor 2^32) and
lays them out in the order the code consumes them.

Every kernel does the same arithmetic per coefficient as the portable C of lib/mldsa
(ntt.c, rounding.c, sample.c, pack.c), so its outputs are bit-for-bit those of the C (the
differential test compares them exactly); for the NTTs only the schedule differs:
- Montgomery product of b and zeta in three single-cycle multiplies (ARMv7-M ARM DDI 0403,
  SMULL / MUL / SMLAL): (lo, hi) = b * zeta; t = lo * q^-1 mod 2^32;
  (lo, hi) += t * (-q), which clears lo and leaves hi = (b zeta - t q) / 2^32, the
  value of mldsa_montgomery_reduce (the low words of b zeta and t q agree, so the
  64-bit difference is the difference of the high words);
- three layers per pass (3 + 3 + 2 forward, the same for the inverse with its last layer
  merged with the scaling by 2^64 / 256): eight coefficients in r1-r8, so each of them is
  loaded and stored three times instead of eight;
- the twiddle factors of a pass are kept in FPU registers s0-s6 (VLDM once per group,
  VMOV to a core register, one cycle, per butterfly); s0-s15 are caller-saved (AAPCS),
  so nothing is saved. Every armv7em platform has an FPU (-mfpu=fpv4-sp-d16 / fpv5-d16);
- loop ends are kept in s8 / s9; every instruction is the 32-bit encoding (.w) so that
  the code stays word-aligned (the Cortex-M4 timing rules of docs/sim.md).
No branch or address depends on data.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from m7sched import schedule_loops

Q = 8380417
QINV = pow(Q, -1, 1 << 32)  # 58728449
ZETA = 1753
N = 256


def brv8(m: int) -> int:
    return int(f"{m:08b}"[::-1], 2)


def centred(x: int) -> int:
    x %= Q
    return x - Q if x > Q // 2 else x


# zetas[m] = zeta^BitRev8(m) * 2^32 mod q, centred (the table of lib/mldsa/ntt.c)
ZETAS = [centred(pow(ZETA, brv8(m), Q) << 32) for m in range(N)]
INVN_MONT2 = centred(pow(256, -1, Q) << 64)  # 41978
INVN_LAST = centred(-ZETAS[1] * pow(256, -1, Q) << 32)  # the last layer's -zeta with the scaling

out: list[str] = []


def e(line: str) -> None:
    out.append("    " + line if line and not line.endswith(":") and not line.startswith(".") else line)


def const(reg: str, value: int) -> None:
    v = value & 0xFFFFFFFF
    e(f"movw {reg}, #{v & 0xFFFF}")
    e(f"movt {reg}, #{v >> 16}")


def ct(a: str, b: str, s: int) -> None:
    """Cooley-Tukey butterfly (Algorithm 41): t = mont(zeta b); b = a - t; a = a + t."""
    e(f"vmov r14, s{s}")
    e(f"smull r9, r10, {b}, r14")
    e("mul r14, r9, r12")
    e("smlal r9, r10, r14, r11")
    e(f"sub.w {b}, {a}, r10")
    e(f"add.w {a}, {a}, r10")


def gs(a: str, b: str, s: int) -> None:
    """Gentleman-Sande butterfly (Algorithm 42): d = a - b; a = a + b; b = mont(zeta d)."""
    e(f"vmov r14, s{s}")
    e(f"sub.w r9, {a}, {b}")
    e(f"add.w {a}, {a}, {b}")
    e(f"smull r9, {b}, r9, r14")
    e("mul r14, r9, r12")
    e(f"smlal r9, {b}, r14, r11")


def mont_inplace(x: str, s: int) -> None:
    """x = mont(x * s_s)."""
    e(f"vmov r14, s{s}")
    e(f"smull r9, {x}, {x}, r14")
    e("mul r14, r9, r12")
    e(f"smlal r9, {x}, r14, r11")


R = [f"r{i}" for i in range(1, 9)]  # the eight coefficients of a pass


def three_ct_layers(z: list[int], butterfly: Callable[[str, str, int], None] | None = None) -> None:
    """Layers len = 4s, 2s, s on R[k] = a[j + s k], k = 0..7; zeta registers z[0..6].
    `butterfly`: the Cooley-Tukey butterfly to emit (this file's ct unless given; the
    small-modulus NTT of gen_mldsa_ntt16.py has the same schedule with its own)."""
    bf = butterfly or ct
    for k in range(4):
        bf(R[k], R[k + 4], z[0])
    for h in range(2):
        for k in range(2):
            bf(R[4 * h + k], R[4 * h + k + 2], z[1 + h])
    for p in range(4):
        bf(R[2 * p], R[2 * p + 1], z[3 + p])


def three_gs_layers(z: list[int], butterfly: Callable[[str, str, int], None] | None = None) -> None:
    """Inverse layers len = s, 2s, 4s on R[k] = a[j + s k]; zetas z[0..3], z[4..5], z[6];
    `butterfly`: the Gentleman-Sande butterfly to emit (this file's gs unless given)."""
    bf = butterfly or gs
    for p in range(4):
        bf(R[2 * p], R[2 * p + 1], z[p])
    for h in range(2):
        for k in range(2):
            bf(R[4 * h + k], R[4 * h + k + 2], z[4 + h])
    for k in range(4):
        bf(R[k], R[k + 4], z[6])


def load8(stride: int, base: int = 0) -> None:
    for k in range(8):
        e(f"ldr.w {R[k]}, [r0, #{base + 4 * stride * k}]")


def store8(stride: int, base: int = 0) -> None:
    for k in range(8):
        e(f"str.w {R[k]}, [r0, #{base + 4 * stride * k}]")


def loop_end(label: str, sreg: int) -> None:
    e(f"vmov r9, s{sreg}")
    e("cmp.w r0, r9")
    e(f"bne.w {label}")


def prologue(name: str, doc: str) -> None:
    e("")
    e(f"@ {doc}")
    e(f".global {name}")
    e(f".type {name}, %function")
    e(".p2align 2")
    out.append(f"{name}:")
    e("push.w {r4-r11, lr}")


def montconst() -> None:
    const("r11", -Q)
    const("r12", QINV)


def table_ptr(label: str) -> None:
    e(f"movw r14, #:lower16:{label}")
    e(f"movt r14, #:upper16:{label}")


def epilogue(name: str) -> None:
    e("pop.w {r4-r11, pc}")
    e(f".size {name}, . - {name}")


def gen_ntt() -> list[int]:
    name = "pqlab_mldsa_ntt_armv7em"
    prologue(name, "void pqlab_mldsa_ntt_armv7em(int32_t a[256]): forward NTT (mldsa_ntt_c)")
    montconst()
    table_ptr("mldsa_ntt_zetas")
    tab: list[int] = []
    # layers len 128, 64, 32: passes j = 0..31 on a[j + 32 k]; zetas 1..7
    tab += ZETAS[1:8]
    e("vldm r14!, {s0-s6}")
    e("vmov s7, r14")
    e("add.w r9, r0, #128")
    e("vmov s8, r9")
    out.append("1:")
    load8(32)
    three_ct_layers(list(range(7)))
    store8(32)
    e("add.w r0, r0, #4")
    loop_end("1b", 8)
    e("sub.w r0, r0, #128")
    # layers len 16, 8, 4: blocks g = 0..7 of 32 coefficients, passes j = 0..3 on
    # a[32 g + j + 4 k]; zetas 8 + g, 16 + 2g (+1), 32 + 4g (+0..3)
    for g in range(8):
        tab += [ZETAS[8 + g], ZETAS[16 + 2 * g], ZETAS[17 + 2 * g]] + ZETAS[32 + 4 * g : 36 + 4 * g]
    e("add.w r9, r0, #1024")
    e("vmov s8, r9")
    out.append("2:")
    e("vmov r14, s7")
    e("vldm r14!, {s0-s6}")
    e("vmov s7, r14")
    for j in range(4):
        load8(4, 4 * j)
        three_ct_layers(list(range(7)))
        store8(4, 4 * j)
    e("add.w r0, r0, #128")
    loop_end("2b", 8)
    e("sub.w r0, r0, #1024")
    # layers len 2, 1: groups h of 4 coefficients, two per pass; zetas 64 + h, 128 + 2h (+1)
    for h in range(64):
        tab += [ZETAS[64 + h], ZETAS[128 + 2 * h], ZETAS[129 + 2 * h]]
    e("add.w r9, r0, #1024")
    e("vmov s8, r9")
    out.append("3:")
    e("vmov r14, s7")
    e("vldm r14!, {s0-s5}")
    e("vmov s7, r14")
    e("ldm.w r0, {r1-r8}")
    for g in range(2):
        c = R[4 * g : 4 * g + 4]
        ct(c[0], c[2], 3 * g)
        ct(c[1], c[3], 3 * g)
        ct(c[0], c[1], 3 * g + 1)
        ct(c[2], c[3], 3 * g + 2)
    e("stm.w r0!, {r1-r8}")
    loop_end("3b", 8)
    epilogue(name)
    return tab


def gen_invntt() -> list[int]:
    name = "pqlab_mldsa_invntt_armv7em"
    prologue(name, "void pqlab_mldsa_invntt_armv7em(int32_t a[256]): inverse NTT times 2^32 (mldsa_invntt_tomont_c)")
    montconst()
    table_ptr("mldsa_invntt_zetas")
    tab: list[int] = []
    # layers len 1, 2, 4 on eight consecutive coefficients (group g = 0..31)
    for g in range(32):
        tab += [-ZETAS[255 - 4 * g - i] for i in range(4)]
        tab += [-ZETAS[127 - 2 * g - i] for i in range(2)]
        tab += [-ZETAS[63 - g]]
    e("add.w r9, r0, #1024")
    e("vmov s8, r9")
    out.append("1:")
    e("vldm r14!, {s0-s6}")
    e("vmov s7, r14")
    e("ldm.w r0, {r1-r8}")
    three_gs_layers(list(range(7)))
    e("stm.w r0!, {r1-r8}")
    e("vmov r14, s7")
    loop_end("1b", 8)
    e("sub.w r0, r0, #1024")
    # layers len 8, 16, 32: blocks B = 0..3 of 64 coefficients, passes j = 0..7 on
    # a[64 B + j + 8 k], two passes per loop iteration
    for b in range(4):
        tab += [-ZETAS[31 - 4 * b - i] for i in range(4)]
        tab += [-ZETAS[15 - 2 * b - i] for i in range(2)]
        tab += [-ZETAS[7 - b]]
    e("add.w r9, r0, #1024")
    e("vmov s8, r9")
    out.append("2:")
    e("vldm r14!, {s0-s6}")
    e("vmov s7, r14")
    e("add.w r9, r0, #32")
    e("vmov s9, r9")
    out.append("3:")
    for j in range(2):
        load8(8, 4 * j)
        three_gs_layers(list(range(7)))
        store8(8, 4 * j)
    e("add.w r0, r0, #8")
    loop_end("3b", 9)
    e("vmov r14, s7")
    e("add.w r0, r0, #224")
    loop_end("2b", 8)
    e("sub.w r0, r0, #1024")
    # layers len 64 and 128 with the scaling: a[j + 64 k], k = 0..3, two j per pass
    tab += [-ZETAS[3], -ZETAS[2], INVN_MONT2, INVN_LAST]
    e("vldm r14, {s0-s3}")
    e("add.w r9, r0, #256")
    e("vmov s8, r9")
    out.append("4:")
    for k in range(4):
        e(f"ldr.w {R[k]}, [r0, #{256 * k}]")
        e(f"ldr.w {R[k + 4]}, [r0, #{256 * k + 4}]")
    for h in range(2):
        c = R[4 * h : 4 * h + 4]
        gs(c[0], c[1], 0)
        gs(c[2], c[3], 1)
        for t, u in ((c[0], c[2]), (c[1], c[3])):
            # u = mont(INVN_LAST (t - u)), t = mont(INVN_MONT2 (t + u))
            gs(t, u, 3)
            mont_inplace(t, 2)
    for k in range(4):
        e(f"str.w {R[k]}, [r0, #{256 * k}]")
        e(f"str.w {R[k + 4]}, [r0, #{256 * k + 4}]")
    e("add.w r0, r0, #8")
    loop_end("4b", 8)
    epilogue(name)
    return tab


def gen_pointwise(acc: bool) -> None:
    name = "pqlab_mldsa_pointwise_acc_armv7em" if acc else "pqlab_mldsa_pointwise_armv7em"
    what = "c += mont(a b) (mldsa_pointwise_acc_mont_c)" if acc else "c = mont(a b) (mldsa_pointwise_mont_c)"
    prologue(name, f"void {name}(int32_t c[256], const int32_t a[256], const int32_t b[256]): {what}")
    montconst()
    e("add.w r3, r1, #1024")
    e("vmov s0, r3")
    out.append("1:")
    e("ldm.w r1!, {r3-r6}")
    e("ldm.w r2!, {r7-r10}")
    for x, y in zip(["r3", "r4", "r5", "r6"], ["r7", "r8", "r9", "r10"], strict=True):
        e(f"smull r14, {x}, {x}, {y}")
        e(f"mul {y}, r14, r12")
        e(f"smlal r14, {x}, {y}, r11")
    if acc:
        e("ldm.w r0, {r7-r10}")
        for x, y in zip(["r3", "r4", "r5", "r6"], ["r7", "r8", "r9", "r10"], strict=True):
            e(f"add.w {y}, {y}, {x}")
        e("stm.w r0!, {r7-r10}")
    else:
        e("stm.w r0!, {r3-r6}")
    e("vmov r14, s0")
    e("cmp.w r1, r14")
    e("bne.w 1b")
    epilogue(name)


def gen_reduce32() -> None:
    name = "pqlab_mldsa_reduce32_armv7em"
    prologue(name, f"void {name}(int32_t a[256]): a_i - round(a_i / 2^23) q (mldsa_poly_reduce32_c)")
    const("r12", Q)
    e("add.w r11, r0, #1024")
    out.append("1:")
    e("ldm.w r0, {r1-r8}")
    for x in R:
        e(f"add.w r9, {x}, #0x400000")
        e("asr.w r9, r9, #23")
        e(f"mls {x}, r9, r12, {x}")
    e("stm.w r0!, {r1-r8}")
    e("cmp.w r0, r11")
    e("bne.w 1b")
    epilogue(name)


def gen_caddq() -> None:
    name = "pqlab_mldsa_caddq_armv7em"
    prologue(name, f"void {name}(int32_t a[256]): a_i + q when a_i < 0 (mldsa_poly_caddq_c)")
    const("r12", Q)
    e("add.w r11, r0, #1024")
    out.append("1:")
    e("ldm.w r0, {r1-r8}")
    for x in R:
        e(f"and.w r9, r12, {x}, asr #31")
        e(f"add.w {x}, {x}, r9")
    e("stm.w r0!, {r1-r8}")
    e("cmp.w r0, r11")
    e("bne.w 1b")
    epilogue(name)


def gen_rej_uniform() -> None:
    """RejNTTPoly's sampling loop (Algorithm 30 with CoeffFromThreeBytes, Algorithm 14):
    public data (rho), so the accept branch is fine. Four triples (three words) per
    step while at least four output slots and twelve bytes are left, then one triple at
    a time; the same outputs and count as mldsa_rej_uniform_c."""
    name = "pqlab_mldsa_rej_uniform_armv7em"
    prologue(
        name,
        f"unsigned {name}(int32_t a[256], unsigned ctr, const uint8_t *buf, size_t buflen): "
        "new ctr (mldsa_rej_uniform_c)",
    )
    e("add.w r12, r0, #1024")  # end of a
    e("add.w r0, r0, r1, lsl #2")  # write pointer
    e("add.w r3, r2, r3")  # end of buf
    const("r14", Q)

    def keep(v: str) -> None:
        e(f"cmp.w {v}, r14")
        e("it lo")
        e(f"strlo.w {v}, [r0], #4")

    out.append("1:")
    e("sub.w r4, r12, r0")
    e("cmp.w r4, #16")
    e("blo.w 2f")
    e("sub.w r4, r3, r2")
    e("cmp.w r4, #12")
    e("blo.w 2f")
    e("ldr.w r4, [r2]")  # LDR single: buf may be unaligned
    e("ldr.w r5, [r2, #4]")
    e("ldr.w r6, [r2, #8]")
    e("add.w r2, r2, #12")
    e("ubfx r7, r4, #0, #23")  # bytes 0-2
    keep("r7")
    e("lsr.w r7, r4, #24")  # bytes 3-5
    e("ubfx r8, r5, #0, #15")
    e("orr.w r7, r7, r8, lsl #8")
    keep("r7")
    e("lsr.w r7, r5, #16")  # bytes 6-8
    e("ubfx r8, r6, #0, #7")
    e("orr.w r7, r7, r8, lsl #16")
    keep("r7")
    e("ubfx r7, r6, #8, #23")  # bytes 9-11
    keep("r7")
    e("b.w 1b")
    out.append("2:")  # one triple at a time
    e("cmp.w r0, r12")
    e("bhs.w 3f")
    e("sub.w r4, r3, r2")
    e("cmp.w r4, #3")
    e("blo.w 3f")
    e("ldrb.w r4, [r2]")
    e("ldrb.w r5, [r2, #1]")
    e("ldrb.w r6, [r2, #2]")
    e("add.w r2, r2, #3")
    e("orr.w r4, r4, r5, lsl #8")
    e("and.w r6, r6, #0x7f")
    e("orr.w r4, r4, r6, lsl #16")
    keep("r4")
    e("b.w 2b")
    out.append("3:")
    e("sub.w r0, r0, r12")
    e("add.w r0, r0, #1024")
    e("lsr.w r0, r0, #2")
    epilogue(name)


# Decompose (Algorithm 36) per gamma2: (gamma2, M = (q - 1) / (2 gamma2), MUL, SHIFT) with
# floor(x / (2 gamma2)) = (x MUL) >> SHIFT for 0 <= x < q + gamma2 (rounding.c, checked
# exhaustively by tests/test_mldsa_kernels.py)
GAMMA2 = {88: ((Q - 1) // 88, 44, 2886403, 39), 32: ((Q - 1) // 32, 16, 16793617, 43)}


def gen_rej_eta(eta: int) -> None:
    """RejBoundedPoly's loop (FIPS 204 Algorithm 31 with CoeffFromHalfByte, Algorithm 15) on
    nbytes bytes, written here from the standard: per half byte b (low, then high) the value
    eta - b (eta = 4) or 2 - (b mod 5) (eta = 2; b mod 5 = b - 5 floor(205 b / 2^10), exact for
    b < 16) is stored at a[n] and n advances by (b - bound) >> 31 (bound 9 / 15): no branch;
    the store address depends on the accept decisions only, which FIPS 204's sampler may
    reveal (lib/mldsa/sample.c, top comment) and which the ct build declassifies one bit at a
    time; the same outputs and count as mldsa_rej_eta_c. r0 = a (room for 2 nbytes values),
    r1 = buf, r2 = nbytes; returns n."""
    name = f"pqlab_mldsa_rej_eta{eta}_armv7em"
    prologue(name, f"unsigned {name}(int32_t *a, const uint8_t *buf, unsigned nbytes): count (mldsa_rej_eta_c)")

    def nibble(b: str) -> None:
        if eta == 2:
            e(f"mul.w r7, {b}, r12")
            e("lsr.w r7, r7, #10")
            e("add.w r7, r7, r7, lsl #2")
            e(f"sub.w r7, {b}, r7")  # b mod 5
            e("rsb.w r7, r7, #2")
        else:
            e(f"rsb.w r7, {b}, #4")
        e("str.w r7, [r0, r3, lsl #2]")
        e(f"sub.w r8, {b}, #{15 if eta == 2 else 9}")
        # the accept decision (0 or 1) is declassified, as the C does (lib/mldsa/sample.c):
        # in the ct build (pqlab-sim --ct) through a call of pqlab_ct_declassify on a
        # stack copy of that bit alone, elsewhere not at all
        out.append("#ifdef PQLAB_CT_SIM")
        e("lsr.w r8, r8, #31")
        e("push.w {r0-r3, r12, lr}")
        e("sub.w sp, sp, #8")
        e("str.w r8, [sp]")
        e("mov.w r0, sp")
        e("mov.w r1, #4")
        e("bl pqlab_ct_declassify")
        e("ldr.w r8, [sp]")
        e("add.w sp, sp, #8")
        e("pop.w {r0-r3, r12, lr}")
        e("add.w r3, r3, r8")
        out.append("#else")
        e("add.w r3, r3, r8, lsr #31")
        out.append("#endif")

    def byte(x: str, lo: str, hi: str) -> None:
        e(f"and.w {lo}, {x}, #15")
        e(f"lsr.w {hi}, {x}, #4")
        nibble(lo)
        nibble(hi)

    # an odd count takes one byte first, then two bytes per iteration (nbytes is public)
    e("mov.w r3, #0")  # n
    e("tst.w r2, #1")
    e("add.w r2, r1, r2")  # end of buf (flags kept)
    e("mov.w r12, #205")
    e("beq.w 1f")
    e("ldrb.w r4, [r1], #1")
    byte("r4", "r5", "r6")
    out.append("1:")
    e("cmp.w r1, r2")
    e("beq.w 2f")
    out.append("3:")
    e("ldrb.w r4, [r1], #1")
    e("ldrb.w r9, [r1], #1")
    byte("r4", "r5", "r6")
    byte("r9", "r10", "r11")
    e("cmp.w r1, r2")
    e("bne.w 3b")
    out.append("2:")
    e("mov.w r0, r3")
    epilogue(name)


def gen_chknorm() -> None:
    """1 when some |a_i| >= bound: with B1 = bound - 1, |a| < bound exactly when
    a + B1 in [0, 2 B1], one unsigned comparison (|a| < 2^31 - 1, bound <= 2^30, so
    a + B1 never wraps into that range); CMP sets C when 2 B1 >= a + B1 and ADC counts
    those. Not bit-for-bit the C's code, the same 0/1 result."""
    name = "pqlab_mldsa_chknorm_armv7em"
    prologue(name, f"uint32_t {name}(const int32_t a[256], int32_t bound): mldsa_poly_chknorm_c")
    e("sub.w r11, r1, #1")  # B1
    e("lsl.w r12, r11, #1")  # 2 B1
    e("mov.w r10, #0")  # count of |a_i| < bound
    e("add.w r14, r0, #1024")
    out.append("1:")
    e("ldm.w r0!, {r2-r9}")
    for x in [f"r{i}" for i in range(2, 10)]:
        e(f"add.w {x}, {x}, r11")
        e(f"cmp.w r12, {x}")
        e("adc.w r10, r10, #0")
    e("cmp.w r0, r14")
    e("bne.w 1b")
    e("sub.w r0, r10, #256")  # 0 when all 256 are inside
    e("rsb.w r1, r0, #0")
    e("orr.w r0, r0, r1")
    e("lsr.w r0, r0, #31")
    epilogue(name)


def dec_consts(g: int) -> None:
    g2, _m, mul, _sh = GAMMA2[g]
    const("r10", g2 - 1)
    const("r11", mul)
    const("r12", 2 * g2)


def high(g: int, dst: str, a: str, u: str) -> None:
    """dst = r1 of Decompose(a) (0 <= a < q); u: scratch that ends as M - 1 - r1' (its
    sign bit says r1' = M); uses r9 as the low product word; a preserved unless dst = a."""
    _g2, m, _mul, sh = GAMMA2[g]
    e(f"add.w {u}, {a}, r10")
    e(f"umull r9, {u}, {u}, r11")
    e(f"lsr.w {u}, {u}, #{sh - 32}")  # r1'
    if dst != u:
        e(f"mov.w {dst}, {u}")
    e(f"rsb.w {u}, {dst}, #{m - 1}")
    e(f"bic.w {dst}, {dst}, {u}, asr #31")


def gen_decompose(g: int, which: str) -> None:
    """which: "both" (a1, a0, a), "high" (a1, a), "low" (a0, a); r0 = a - r1' 2 gamma2 - top,
    r1 = r1' unless r1' = M (then 0), as rounding.c's decompose."""
    name = f"pqlab_mldsa_decompose_{which}_{g}_armv7em"
    args = {
        "both": "int32_t a1[256], int32_t a0[256], const int32_t a[256]",
        "high": "int32_t a1[256], const int32_t a[256]",
        "low": "int32_t a0[256], const int32_t a[256]",
    }[which]
    prologue(name, f"void {name}({args}): Decompose with gamma2 = (q - 1) / {g}")
    _g2, m, _mul, sh = GAMMA2[g]
    dec_consts(g)
    src = "r2" if which == "both" else "r1"
    e(f"add.w r14, {src}, #1024")
    e("vmov s0, r14")
    out.append("1:")
    e(f"ldm.w {src}!, {{r3-r6}}")
    for x, t in zip(["r3", "r4", "r5", "r6"], ["r7", "r8", "r14", "r7"], strict=True):
        if which == "high":
            high(g, x, x, t)
            continue
        e(f"add.w {t}, {x}, r10")
        e(f"umull r9, {t}, {t}, r11")
        e(f"lsr.w {t}, {t}, #{sh - 32}")  # r1'
        e(f"mls {x}, {t}, r12, {x}")  # a - r1' 2 gamma2
        e(f"rsb.w r9, {t}, #{m - 1}")  # negative exactly when r1' = M
        e(f"add.w {x}, {x}, r9, asr #31")  # r0
        if which == "both":
            e(f"bic.w {t}, {t}, r9, asr #31")  # r1
            e(f"str.w {t}, [r0], #4")
    if which == "both":
        e("stm.w r1!, {r3-r6}")
    else:
        e("stm.w r0!, {r3-r6}")
    e("vmov r14, s0")
    e(f"cmp.w {src}, r14")
    e("bne.w 1b")
    epilogue(name)


def gen_make_hint(g: int) -> None:
    """h_i = [HighBits(freeze(r_i + d_i)) != HighBits(r_i)], count returned."""
    name = f"pqlab_mldsa_make_hint_{g}_armv7em"
    prologue(
        name, f"unsigned {name}(int32_t h[256], const int32_t r[256], const int32_t d[256]): gamma2 = (q - 1) / {g}"
    )
    dec_consts(g)
    const("r8", Q)
    e("mov.w r7, #0")  # count
    e("add.w r14, r1, #1024")
    e("vmov s0, r14")
    out.append("1:")
    e("ldr.w r3, [r1], #4")
    e("ldr.w r4, [r2], #4")
    e("add.w r4, r4, r3")  # r + d in (-2^22, q + 2^22)
    e("add.w r5, r4, #0x400000")  # freeze: reduce32 ...
    e("asr.w r5, r5, #23")
    e("mls r4, r5, r8, r4")
    e("and.w r5, r8, r4, asr #31")  # ... then caddq
    e("add.w r4, r4, r5")
    high(g, "r4", "r4", "r5")
    high(g, "r3", "r3", "r5")
    e("eor.w r3, r3, r4")  # nonzero exactly when the high bits differ
    e("rsb.w r4, r3, #0")
    e("orr.w r3, r3, r4")
    e("lsr.w r3, r3, #31")
    e("add.w r7, r7, r3")
    e("str.w r3, [r0], #4")
    e("vmov r14, s0")
    e("cmp.w r1, r14")
    e("bne.w 1b")
    e("mov.w r0, r7")
    epilogue(name)


def gen_make_hint_low(g: int) -> None:
    """h_i = 1 unless a0_i + d_i in (-gamma2, gamma2] or (= -gamma2 and a1_i = 0), count
    returned (rounding.c's make_hint_low): t = a0 + d + gamma2 - 1; CMP t, 2 gamma2 sets C
    when t is outside [0, 2 gamma2) as an unsigned number; t = 0xFFFFFFFF (the edge) and
    a1 = 0 make ORN a1, ~t zero, which CLZ / LSR #5 turn into the 1 that clears the bit.
    Two coefficients per step; h may be a1 (each word is read before it is written)."""
    g2 = GAMMA2[g][0]
    name = f"pqlab_mldsa_make_hint_low_{g}_armv7em"
    prologue(
        name,
        f"unsigned {name}(int32_t h[256], const int32_t a0[256], const int32_t d[256], const int32_t a1[256]):"
        f" gamma2 = (q - 1) / {g}",
    )
    const("r11", g2 - 1)
    const("r12", 2 * g2)
    e("mov.w r10, #0")
    e("mov.w r9, #0")  # count
    e("add.w r4, r0, #1024")
    e("vmov s0, r4")
    out.append("1:")
    e("ldrd r4, r5, [r1], #8")
    e("ldrd r6, r7, [r2], #8")
    e("ldrd r8, r14, [r3], #8")
    for a, d, h in (("r4", "r6", "r8"), ("r5", "r7", "r14")):
        e(f"add.w {a}, {a}, {d}")
        e(f"add.w {a}, {a}, r11")
        e(f"cmp.w {a}, r12")
        e(f"adc.w {d}, r10, #0")
        e(f"orn {h}, {h}, {a}")
        e(f"clz {h}, {h}")
        e(f"lsr.w {h}, {h}, #5")
        e(f"bic.w {d}, {d}, {h}")
        e(f"add.w r9, r9, {d}")
    e("strd r6, r7, [r0], #8")
    e("vmov r4, s0")
    e("cmp.w r0, r4")
    e("bne.w 1b")
    e("mov.w r0, r9")
    epilogue(name)


def gen_use_hint(g: int) -> None:
    """b_i = UseHint(h_i, a_i) (Algorithm 40) as rounding.c computes it."""
    name = f"pqlab_mldsa_use_hint_{g}_armv7em"
    prologue(name, f"void {name}(int32_t b[256], const int32_t a[256], const uint8_t h[256]): gamma2 = (q - 1) / {g}")
    _g2, m, _mul, sh = GAMMA2[g]
    dec_consts(g)
    e("add.w r14, r1, #1024")
    e("vmov s0, r14")
    out.append("1:")
    e("ldr.w r3, [r1], #4")
    e("ldrb.w r6, [r2], #1")
    e("add.w r4, r3, r10")
    e("umull r9, r4, r4, r11")
    e(f"lsr.w r4, r4, #{sh - 32}")  # r1'
    e("mls r3, r4, r12, r3")
    e(f"rsb.w r9, r4, #{m - 1}")
    e("add.w r3, r3, r9, asr #31")  # r0
    e("bic.w r4, r4, r9, asr #31")  # r1 = v
    e("rsb.w r3, r3, #0")
    e("lsr.w r3, r3, #31")  # pos: 1 iff r0 > 0
    e("lsl.w r3, r3, #1")
    e("sub.w r3, r3, #1")  # +1 / -1
    e("and.w r6, r6, #1")
    e("rsb.w r6, r6, #0")
    e("and.w r3, r3, r6")  # delta
    e("add.w r4, r4, r3")  # in [-1, M]
    e(f"mov.w r5, #{m}")
    e("and.w r3, r5, r4, asr #31")
    e("add.w r4, r4, r3")
    e(f"sub.w r4, r4, #{m}")
    e("and.w r3, r5, r4, asr #31")
    e("add.w r4, r4, r3")
    e("str.w r4, [r0], #4")
    e("vmov r14, s0")
    e("cmp.w r1, r14")
    e("bne.w 1b")
    epilogue(name)


# Bit packing (FIPS 204 Algorithms 16-19; lib/mldsa/pack.c): name -> (bits, off) with the
# stored value a_i (off None) or off - a_i
PACKINGS = {
    "t1": (10, None),
    "t0": (13, 1 << 12),
    "eta2": (3, 2),
    "eta4": (4, 4),
    "z17": (18, 1 << 17),
    "z19": (20, 1 << 19),
    "w1_88": (6, None),
    "w1_32": (4, None),
}


def gen_unpack(kind: str) -> None:
    """32 coefficients (bits words) per loop step; coefficient i is bits [i b, i b + b) of
    the little-endian stream: UBFX from one word, or LSR + BFI across two. The bytes are
    read with LDR single (any alignment). eta: also returns 1 when a stored value exceeds
    2 eta (the key check of mldsa_polyeta_unpack_c)."""
    bits, off = PACKINGS[kind]
    eta = kind.startswith("eta")
    name = f"pqlab_mldsa_unpack_{kind}_armv7em"
    ret = "uint32_t" if eta else "void"
    prologue(
        name,
        f"{ret} {name}(int32_t a[256], const uint8_t *r): {bits}-bit unpack"
        + (f", off - v, off = {off}" if off else ""),
    )
    if off is not None:
        const("r8", off)
    if eta:
        e("mov.w r10, #0")
        e(f"mov.w r11, #{2 * off}")
    e(f"add.w r12, r1, #{32 * bits}")
    out.append("1:")
    loaded: dict[int, str] = {}
    outs = ["r4", "r5", "r6", "r7"]

    def word(w: int) -> str:
        if w not in loaded:
            reg = "r2" if w % 2 == 0 else "r3"
            e(f"ldr.w {reg}, [r1, #{4 * w}]")
            loaded[w] = reg
        return loaded[w]

    for i in range(32):
        p = i * bits
        w, sh = p // 32, p % 32
        v = outs[i % 4]
        if sh + bits <= 32:
            e(f"ubfx {v}, {word(w)}, #{sh}, #{bits}")
        else:
            e(f"lsr.w {v}, {word(w)}, #{sh}")
            e(f"bfi {v}, {word(w + 1)}, #{32 - sh}, #{sh + bits - 32}")
        if eta:
            e(f"sub.w r9, r11, {v}")
            e("orr.w r10, r10, r9")
        if off is not None:
            e(f"sub.w {v}, r8, {v}")
        if i % 4 == 3:
            e("stm.w r0!, {r4-r7}")
    e(f"add.w r1, r1, #{4 * bits}")
    e("cmp.w r1, r12")
    e("bne.w 1b")
    if eta:
        e("lsr.w r0, r10, #31")
    epilogue(name)


def gen_pack(kind: str) -> None:
    """32 coefficients into bits words per loop step: each stored value shifted into its
    word (ORR with LSL), the part past a word boundary started in the other accumulator
    (LSR); words written with STR single (any alignment)."""
    bits, off = PACKINGS[kind]
    name = f"pqlab_mldsa_pack_{kind}_armv7em"
    prologue(
        name,
        f"void {name}(uint8_t *r, const int32_t a[256]): {bits}-bit pack"
        + (f", off - a_i, off = {off}" if off else ""),
    )
    if off is not None:
        const("r8", off)
    e(f"add.w r12, r0, #{32 * bits}")
    out.append("1:")
    accs = ["r2", "r3"]
    vals = ["r4", "r5", "r6", "r7"]
    for i in range(32):
        if i % 4 == 0:
            e("ldm.w r1!, {r4-r7}")
            if off is not None:
                for v in vals:
                    e(f"sub.w {v}, r8, {v}")
        v = vals[i % 4]
        p = i * bits
        w, sh = p // 32, p % 32
        acc = accs[w % 2]
        if sh == 0:
            e(f"mov.w {acc}, {v}")
        else:
            e(f"orr.w {acc}, {acc}, {v}, lsl #{sh}")
        if sh + bits >= 32:
            e(f"str.w {acc}, [r0, #{4 * w}]")
            if sh + bits > 32:
                e(f"lsr.w {accs[(w + 1) % 2]}, {v}, #{32 - sh}")
    e(f"add.w r0, r0, #{4 * bits}")
    e("cmp.w r0, r12")
    e("bne.w 1b")
    epilogue(name)


def gen_ball_swap() -> None:
    """SampleInBall's masked pass (mldsa_ball_swap_c): per word, the byte indices
    (0x03020100 + 0x04040404 t) XOR j in every byte; UADD8 with 0xFFFFFFFF sets GE[k]
    exactly when byte k is nonzero (not position j); SEL then picks the old byte at j
    for c_j (others 0) and sign4's byte at j for the new word. Four words per step (LDM /
    STM), then one at a time; the counts depend on nwords (public) only."""
    name = "pqlab_mldsa_ball_swap_armv7em"
    prologue(name, f"uint32_t {name}(uint32_t w[64], unsigned nwords, uint32_t j, uint32_t sign4)")
    e("orr.w r2, r2, r2, lsl #8")
    e("orr.w r2, r2, r2, lsl #16")  # j in every byte
    const("r4", 0x03020100)
    const("r5", 0x04040404)
    e("mov.w r6, #0xffffffff")
    e("mov.w r7, #0")
    e("mov.w r8, #0")
    e("bic.w r9, r1, #3")
    e("add.w r9, r0, r9, lsl #2")  # end of the four-word steps
    e("vmov s0, r9")
    e("add.w r9, r0, r1, lsl #2")  # end
    e("vmov s1, r9")
    words = ["r1", "r10", "r11", "r12"]
    e("vmov r14, s0")
    e("cmp.w r0, r14")
    e("beq.w 2f")
    out.append("1:")
    e("ldm.w r0, {r1, r10, r11, r12}")
    for wd in words:
        e("eor.w r9, r4, r2")
        e("add.w r4, r4, r5")
        e("uadd8 r9, r9, r6")
        e(f"sel r9, r7, {wd}")
        e("orr.w r8, r8, r9")
        e(f"sel {wd}, {wd}, r3")
    e("stm.w r0!, {r1, r10, r11, r12}")
    e("cmp.w r0, r14")
    e("bne.w 1b")
    out.append("2:")
    e("vmov r14, s1")
    e("cmp.w r0, r14")
    e("beq.w 4f")
    out.append("3:")
    e("ldr.w r1, [r0]")
    e("eor.w r9, r4, r2")
    e("add.w r4, r4, r5")
    e("uadd8 r9, r9, r6")
    e("sel r9, r7, r1")
    e("orr.w r8, r8, r9")
    e("sel r1, r1, r3")
    e("str.w r1, [r0], #4")
    e("cmp.w r0, r14")
    e("bne.w 3b")
    out.append("4:")
    e("orr.w r8, r8, r8, lsr #16")
    e("orr.w r8, r8, r8, lsr #8")
    e("and.w r0, r8, #0xff")
    epilogue(name)


def table(label: str, values: list[int]) -> None:
    e("")
    e(".p2align 2")
    out.append(f"{label}:")
    for i in range(0, len(values), 8):
        e(".word " + ", ".join(str(v) for v in values[i : i + 8]))
    e(f".size {label}, . - {label}")


def m7_variant(start: int) -> None:
    """out[start:] is one function in the Cortex-M4 order; put it under #else and its
    Cortex-M7 order under #if PQLAB_ARMV7EM_CORTEX_M7 (the define of backend.toml's
    [core.cortex-m7]): every loop body list-scheduled by m7sched.py (the same instructions
    and registers in an order for the M7's dual issue). Adopted where it gains more than
    10 % per call on m7-sim (docs/native.md)."""
    m4 = out[start:]
    out[start:] = ["#if defined(PQLAB_ARMV7EM_CORTEX_M7)", *schedule_loops(m4, {}), "#else", *m4, "#endif"]


def main() -> None:
    assert QINV == 58728449 and INVN_MONT2 == 41978 and INVN_LAST == 3975713 and ZETAS[1] == 25847
    out.append("@ SPDX-License-Identifier: MIT")
    out.append("@ generated by gen_mldsa_ntt.py; do not edit (see its docstring and mldsa_native.h)")
    out.append('#include "pqlab_config.h" /* an export\'s symbol namespace (docs/export.md); empty in the tree */')
    e(".syntax unified")
    e(".thumb")
    e(".text")
    start = len(out)
    ntt_tab = gen_ntt()
    m7_variant(start)
    # the inverse NTT in M7 order measured 8,496 -> 7,935 cycles per call on m7-sim (-6.6 %,
    # m7-estimate-v4): under the 10 % that adopting a second schedule needs; not used
    inv_tab = gen_invntt()
    gen_pointwise(False)
    gen_pointwise(True)
    gen_reduce32()
    gen_caddq()
    gen_rej_uniform()
    gen_rej_eta(2)
    gen_rej_eta(4)
    gen_chknorm()
    for g in GAMMA2:
        for which in ("both", "high", "low"):
            gen_decompose(g, which)
        gen_make_hint(g)
        gen_make_hint_low(g)
        gen_use_hint(g)
    gen_ball_swap()
    for kind in PACKINGS:
        gen_pack(kind)
        if not kind.startswith("w1"):
            gen_unpack(kind)
    e("")
    e('.section .rodata.mldsa_ntt_zetas, "a"')
    table("mldsa_ntt_zetas", ntt_tab)
    table("mldsa_invntt_zetas", inv_tab)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
