#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate mldsa_poly.S: ML-DSA's coefficient-wise kernels (lib/mldsa/kernels.h) for plain
RV32IM: reduce32, caddq, chknorm, power2round, decompose, make_hint_low, SampleInBall's
ball_swap and the bit packing of t1, t0, eta, z and w1.

Usage: python3 gen_mldsa_poly.py > mldsa_poly.S

Every kernel returns the values of its portable C version (lib/mldsa/rounding.c, reduce.h,
sample.c, pack.c) bit for bit for every input within the bounds of kernels.h:
- reduce32, caddq, power2round: the C's formulas.
- chknorm: |a| < bound exactly when (uint32)(a + bound - 1) < 2 bound - 1 (a ranges over
  fewer than 2^32 values, so the sum wraps onto that interval only from |a| < bound): one
  `sltu` per coefficient; the same 0/1 as the C.
- decompose: r1' = floor((a + gamma2 - 1) / (2 gamma2)) without MULHU (five cycles on
  CV32E40P): 2 gamma2 = 2^s d (s = 11, d = 93 for (q - 1) / 88; s = 9, d = 1023 for
  (q - 1) / 32) and floor(x / 2^s d) = floor(floor(x / 2^s) / d) = (x >> s) m >> k with the
  (m, k) that gen_mldsa_poly.py finds, exact for every x < q + gamma2 (checked here exhaustively); then the C's
  correction of r1' = (q - 1) / (2 gamma2).
- make_hint_low: the C's comparisons (`sltu`, `seqz`), count returned.
- ball_swap: the word holding position j is selected by `seqz` on (t XOR j / 4) and the byte
  by the mask 0xFF << 8 (j mod 4) (a shift by a secret amount: CV32E40P's shifter takes one
  cycle for any amount); every word 0 .. nwords - 1 is read and written.
- packing: each group of coefficients (a whole number of bytes) is loaded into registers
  and written / read with byte stores / loads, so the byte side may have any alignment.
No branch or address depends on secret data; loops count public lengths."""

from __future__ import annotations

import sys

from rv32asm import function_head

Q = 8380417
GAMMA2 = {88: (Q - 1) // 88, 32: (Q - 1) // 32}
SAVED_POOL = [f"s{i}" for i in range(12)]


def dec_params(g: int) -> tuple[int, int, int]:
    """(s, m, k) with floor(x / (2 gamma2)) = ((x >> s) m) >> k for 0 <= x < q + gamma2,
    (x >> s) m < 2^32"""
    g2 = GAMMA2[g]
    two = 2 * g2
    s = (two & -two).bit_length() - 1
    d = two >> s
    ymax = (Q + g2 - 1) >> s
    for k in range(8, 32):
        m = -(-(1 << k) // d)
        if ymax * m >= 1 << 32:
            break
        if all((y * m) >> k == y // d for y in range(ymax + 1)):
            return s, m, k
    raise AssertionError("no multiplier")


def tail(o: list[str], name: str) -> None:
    o.append("    ret")
    o.append(f"    .size {name}, .-{name}")


def save(o: list[str], regs: list[str]) -> None:
    if regs:
        o.append(f"    addi sp, sp, -{4 * len(regs)}")
        for k, r in enumerate(regs):
            o.append(f"    sw {r}, {4 * k}(sp)")


def restore(o: list[str], regs: list[str]) -> None:
    if regs:
        for k, r in enumerate(regs):
            o.append(f"    lw {r}, {4 * k}(sp)")
        o.append(f"    addi sp, sp, {4 * len(regs)}")


def coeff_loop(o: list[str], ptrs: list[tuple[str, int]], end: str, body: list[str], label: str = "1") -> None:
    """body once per pass; each (pointer, bytes) advances; ptrs[0] runs to `end`"""
    o.append(f"{label}:")
    o += body
    for p, n in ptrs:
        o.append(f"    addi {p}, {p}, {n}")
    o.append(f"    bne {ptrs[0][0]}, {end}, {label}b")


def simple(o: list[str]) -> None:
    # ---- reduce32: a - ((a + 2^22) >> 23) q ----
    name = "pqlab_mldsa_reduce32_rv32"
    function_head(o, name, f"void {name}(int32_t a[256])")
    o.append(f"    li a5, {Q}")
    o.append("    lui a6, 0x400")  # 2^22
    o.append("    addi a7, a0, 1024")
    regs = ["a1", "a2", "a3", "a4"]
    body = [f"    lw {r}, {4 * k}(a0)" for k, r in enumerate(regs)]
    tmps = ["t0", "t1", "t2", "t3"]
    for r, t in zip(regs, tmps, strict=True):
        body.append(f"    add {t}, {r}, a6")
    for t in tmps:
        body.append(f"    srai {t}, {t}, 23")
    for t in tmps:
        body.append(f"    mul {t}, {t}, a5")
    for k, (r, t) in enumerate(zip(regs, tmps, strict=True)):
        body.append(f"    sub {r}, {r}, {t}")
        body.append(f"    sw {r}, {4 * k}(a0)")
    coeff_loop(o, [("a0", 16)], "a7", body)
    tail(o, name)

    # ---- caddq: a + ((a >> 31) & q) ----
    name = "pqlab_mldsa_caddq_rv32"
    function_head(o, name, f"void {name}(int32_t a[256])")
    o.append(f"    li a5, {Q}")
    o.append("    addi a7, a0, 1024")
    body = [f"    lw {r}, {4 * k}(a0)" for k, r in enumerate(regs)]
    for r, t in zip(regs, tmps, strict=True):
        body.append(f"    srai {t}, {r}, 31")
    for t in tmps:
        body.append(f"    and {t}, {t}, a5")
    for k, (r, t) in enumerate(zip(regs, tmps, strict=True)):
        body.append(f"    add {r}, {r}, {t}")
        body.append(f"    sw {r}, {4 * k}(a0)")
    coeff_loop(o, [("a0", 16)], "a7", body)
    tail(o, name)

    # ---- chknorm: 1 when some |a| >= bound ----
    name = "pqlab_mldsa_chknorm_rv32"
    function_head(o, name, f"uint32_t {name}(const int32_t a[256], int32_t bound)")
    o.append("    slli a6, a1, 1")
    o.append("    addi a6, a6, -2")  # 2 bound - 2: bad when the sum exceeds it
    o.append("    addi a1, a1, -1")
    o.append("    addi a7, a0, 1024")
    o.append("    li a5, 0")
    body = [f"    lw {r}, {4 * k}(a0)" for k, r in enumerate(["a2", "a3", "a4", "t0"])]
    for r in ["a2", "a3", "a4", "t0"]:
        body.append(f"    add {r}, {r}, a1")
    for r in ["a2", "a3", "a4", "t0"]:
        body.append(f"    sltu {r}, a6, {r}")
    body.append("    or a2, a2, a3")
    body.append("    or a4, a4, t0")
    body.append("    or a5, a5, a2")
    body.append("    or a5, a5, a4")
    coeff_loop(o, [("a0", 16)], "a7", body)
    o.append("    mv a0, a5")
    tail(o, name)

    # ---- power2round: r1 = (a + 2^12 - 1) >> 13, r0 = a - (r1 << 13) ----
    name = "pqlab_mldsa_power2round_rv32"
    function_head(o, name, f"void {name}(int32_t a1[256], int32_t a0[256], const int32_t a[256])")
    o.append("    li a6, 4095")
    o.append("    addi a7, a2, 1024")
    body = [f"    lw {r}, {4 * k}(a2)" for k, r in enumerate(["a3", "a4", "a5", "t0"])]
    for r, t in zip(["a3", "a4", "a5", "t0"], ["t1", "t2", "t3", "t4"], strict=True):
        body.append(f"    add {t}, {r}, a6")
    for t in ["t1", "t2", "t3", "t4"]:
        body.append(f"    srai {t}, {t}, 13")
    for k, (r, t) in enumerate(zip(["a3", "a4", "a5", "t0"], ["t1", "t2", "t3", "t4"], strict=True)):
        body.append(f"    slli t5, {t}, 13")
        body.append(f"    sub {r}, {r}, t5")
        body.append(f"    sw {t}, {4 * k}(a0)")
        body.append(f"    sw {r}, {4 * k}(a1)")
    coeff_loop(o, [("a2", 16), ("a0", 16), ("a1", 16)], "a7", body)
    tail(o, name)


def rounding(o: list[str], g: int) -> None:
    g2 = GAMMA2[g]
    m_hi = (Q - 1) // (2 * g2)
    s, m, k = dec_params(g)

    def r1p(body: list[str], a: str, x: str) -> None:
        """x = floor((a + gamma2 - 1) / (2 gamma2)); t6 = gamma2 - 1, t5 = m"""
        body.append(f"    add {x}, {a}, t6")
        body.append(f"    srli {x}, {x}, {s}")
        body.append(f"    mul {x}, {x}, t5")
        body.append(f"    srli {x}, {x}, {k}")

    def consts(o: list[str]) -> None:
        o.append(f"    li t6, {g2 - 1}")
        o.append(f"    li t5, {m}")
        o.append(f"    li t4, {2 * g2}")

    # both: a1 = r1, a0 = r0 (two coefficients per pass)
    name = f"pqlab_mldsa_decompose_both_{g}_rv32"
    function_head(o, name, f"void {name}(int32_t a1[256], int32_t a0[256], const int32_t a[256])")
    consts(o)
    o.append("    addi a7, a2, 1024")
    body = ["    lw a3, 0(a2)", "    lw a4, 4(a2)"]
    r1p(body, "a3", "a5")
    r1p(body, "a4", "a6")
    for j, (a, x) in enumerate([("a3", "a5"), ("a4", "a6")]):
        body.append(f"    mul t0, {x}, t4")
        body.append(f"    sub {a}, {a}, t0")
        body.append(f"    xori t1, {x}, {m_hi}")
        body.append("    seqz t1, t1")  # r1' = (q - 1) / (2 gamma2)
        body.append(f"    sub {a}, {a}, t1")
        body.append("    addi t1, t1, -1")
        body.append(f"    and {x}, {x}, t1")
        body.append(f"    sw {x}, {4 * j}(a0)")
        body.append(f"    sw {a}, {4 * j}(a1)")
    coeff_loop(o, [("a2", 8), ("a0", 8), ("a1", 8)], "a7", body)
    tail(o, name)

    # high: a1 = r1 only
    name = f"pqlab_mldsa_decompose_high_{g}_rv32"
    function_head(o, name, f"void {name}(int32_t a1[256], const int32_t a[256])")
    consts(o)
    o.append("    addi a7, a1, 1024")
    body = ["    lw a3, 0(a1)", "    lw a4, 4(a1)"]
    r1p(body, "a3", "a5")
    r1p(body, "a4", "a6")
    for j, x in enumerate(["a5", "a6"]):
        body.append(f"    sltiu t1, {x}, {m_hi}")
        body.append("    neg t1, t1")
        body.append(f"    and {x}, {x}, t1")
        body.append(f"    sw {x}, {4 * j}(a0)")
    coeff_loop(o, [("a1", 8), ("a0", 8)], "a7", body)
    tail(o, name)

    # low: a0 = r0 only
    name = f"pqlab_mldsa_decompose_low_{g}_rv32"
    function_head(o, name, f"void {name}(int32_t a0[256], const int32_t a[256])")
    consts(o)
    o.append("    addi a7, a1, 1024")
    body = ["    lw a3, 0(a1)", "    lw a4, 4(a1)"]
    r1p(body, "a3", "a5")
    r1p(body, "a4", "a6")
    for j, (a, x) in enumerate([("a3", "a5"), ("a4", "a6")]):
        body.append(f"    mul t0, {x}, t4")
        body.append(f"    sub {a}, {a}, t0")
        body.append(f"    xori t1, {x}, {m_hi}")
        body.append("    seqz t1, t1")
        body.append(f"    sub {a}, {a}, t1")
        body.append(f"    sw {a}, {4 * j}(a0)")
    coeff_loop(o, [("a1", 8), ("a0", 8)], "a7", body)
    tail(o, name)

    # make_hint_low(h, a0, d, a1): s = a0 + d + gamma2; h = 1 ^ ((s - 1 <u 2 gamma2) | (s | a1) == 0)
    name = f"pqlab_mldsa_make_hint_low_{g}_rv32"
    function_head(
        o, name, f"unsigned {name}(int32_t h[256], const int32_t a0[256], const int32_t d[256], const int32_t a1[256])"
    )
    o.append(f"    li t6, {g2}")
    o.append(f"    li t5, {2 * g2}")
    o.append("    addi a7, a1, 1024")
    o.append("    li t4, 0")
    body = [
        "    lw a4, 0(a1)",
        "    lw a5, 0(a2)",
        "    lw a6, 0(a3)",
        "    lw t0, 4(a1)",
        "    lw t1, 4(a2)",
        "    lw t2, 4(a3)",
    ]
    for j, (x, d, h) in enumerate([("a4", "a5", "a6"), ("t0", "t1", "t2")]):
        body.append(f"    add {x}, {x}, {d}")
        body.append(f"    add {x}, {x}, t6")
        body.append(f"    addi {d}, {x}, -1")
        body.append(f"    sltu {d}, {d}, t5")
        body.append(f"    or {h}, {h}, {x}")
        body.append(f"    seqz {h}, {h}")
        body.append(f"    or {h}, {h}, {d}")
        body.append(f"    xori {h}, {h}, 1")
        body.append(f"    add t4, t4, {h}")
        body.append(f"    sw {h}, {4 * j}(a0)")
    coeff_loop(o, [("a1", 8), ("a2", 8), ("a3", 8), ("a0", 8)], "a7", body)
    o.append("    mv a0, t4")
    tail(o, name)


def ball_swap(o: list[str]) -> None:
    name = "pqlab_mldsa_ball_swap_rv32"
    function_head(o, name, f"uint32_t {name}(uint32_t w[64], unsigned nwords, uint32_t j, uint32_t sign4)")
    o.append("    srli a4, a2, 2")  # the word of position j
    o.append("    andi a2, a2, 3")
    o.append("    slli a2, a2, 3")  # 8 (j mod 4)
    o.append("    li a5, 255")
    o.append("    sll a5, a5, a2")  # the byte's mask
    o.append("    li a6, 0")  # c_j
    o.append("    li a7, 0")  # word counter
    o.append("    andi t0, a1, 1")
    o.append("    beqz t0, 2f")  # nwords odd (public): one word first

    def one(o: list[str], off: int, v: str, mk: str, x: str) -> None:
        o.append(f"    lw {v}, {off}(a0)")
        o.append(f"    xor {mk}, a7, a4")
        o.append(f"    seqz {mk}, {mk}")
        o.append(f"    neg {mk}, {mk}")
        o.append(f"    and {mk}, {mk}, a5")
        o.append(f"    and {x}, {v}, {mk}")
        o.append(f"    or a6, a6, {x}")
        o.append(f"    xor {v}, {v}, {x}")
        o.append(f"    and {mk}, a3, {mk}")
        o.append(f"    xor {v}, {v}, {mk}")
        o.append(f"    sw {v}, {off}(a0)")
        o.append("    addi a7, a7, 1")

    one(o, 0, "t0", "t1", "t2")
    o.append("    addi a0, a0, 4")
    o.append("2:")
    o.append("    beq a7, a1, 3f")
    o.append("1:")
    o.append("    lw t3, 4(a0)")
    one(o, 0, "t0", "t1", "t2")
    o.append("    xor t4, a7, a4")
    o.append("    seqz t4, t4")
    o.append("    neg t4, t4")
    o.append("    and t4, t4, a5")
    o.append("    and t5, t3, t4")
    o.append("    or a6, a6, t5")
    o.append("    xor t3, t3, t5")
    o.append("    and t4, a3, t4")
    o.append("    xor t3, t3, t4")
    o.append("    sw t3, 4(a0)")
    o.append("    addi a7, a7, 1")
    o.append("    addi a0, a0, 8")
    o.append("    bne a7, a1, 1b")
    o.append("3:")
    o.append("    srl a0, a6, a2")
    o.append("    andi a0, a0, 255")
    tail(o, name)


class Pool:
    def __init__(self, busy: list[str]) -> None:
        free = [f"t{i}" for i in range(7)] + [f"a{i}" for i in range(8)] + SAVED_POOL
        self.free = [r for r in free if r not in busy]
        self.saved: list[str] = []

    def get(self) -> str:
        r = self.free.pop(0)
        if r.startswith("s"):
            self.saved.append(r)
        return r


def pack(o: list[str], tag: str, bits: int, off: int | None, group: int) -> None:
    """r[] = the bits of c_i = a_i (off None) or off - a_i, coefficient i at bit i bits"""
    name = f"pqlab_mldsa_pack_{tag}_rv32"
    function_head(o, name, f"void {name}(uint8_t *r, const int32_t a[256])")
    nbytes = group * bits // 8
    assert nbytes * 8 == group * bits
    pool = Pool(["a0", "a1"])
    end = pool.get()
    offr = pool.get() if off is not None else ""
    tmp = pool.get()
    cr = [pool.get() for _ in range(group)]
    body = [f"    lw {c}, {4 * i}(a1)" for i, c in enumerate(cr)]
    if off is not None:
        body += [f"    sub {c}, {offr}, {c}" for c in cr]
    for b in range(nbytes):
        parts = []  # (coefficient register, shift: > 0 right, < 0 left)
        for i in range(group):
            lo, hi = i * bits, (i + 1) * bits
            if lo < 8 * b + 8 and hi > 8 * b:
                parts.append((cr[i], 8 * b - lo))
        src = None
        for c, sh in parts:
            if src is None:
                if sh == 0:
                    src = c
                    continue
                body.append(f"    {'srli' if sh > 0 else 'slli'} {tmp}, {c}, {abs(sh)}")
                src = tmp
            else:
                ins = "srli" if sh > 0 else "slli"
                if src != tmp:
                    body.append(f"    {ins} {tmp}, {c}, {abs(sh)}")
                    body.append(f"    or {tmp}, {tmp}, {src}")
                else:
                    scratch = "a0_scratch"
                    body.append(f"    {ins} {scratch}, {c}, {abs(sh)}")
                    body.append(f"    or {tmp}, {tmp}, {scratch}")
                src = tmp
        body.append(f"    sb {src}, {b}(a0)")
    scratch = pool.get()
    body = [ln.replace("a0_scratch", scratch) for ln in body]
    save(o, pool.saved)
    o.append(f"    addi {end}, a1, 1024")
    if off is not None:
        o.append(f"    li {offr}, {off}")
    coeff_loop(o, [("a1", 4 * group), ("a0", nbytes)], end, body)
    restore(o, pool.saved)
    tail(o, name)


def unpack(o: list[str], tag: str, bits: int, off: int | None, group: int, eta: int | None = None) -> None:
    """a_i = c_i (off None) or off - c_i from the bits of r; with eta also the return value
    1 when some c_i > 2 eta (a malformed secret key), else 0"""
    name = f"pqlab_mldsa_unpack_{tag}_rv32"
    ret = "uint32_t" if eta is not None else "void"
    function_head(o, name, f"{ret} {name}(int32_t a[256], const uint8_t *r)")
    nbytes = group * bits // 8
    assert nbytes * 8 == group * bits
    pool = Pool(["a0", "a1"])
    end = pool.get()
    offr = pool.get() if off is not None else ""
    mask = pool.get()
    acc = pool.get()
    tmp = pool.get()
    bad = pool.get() if eta is not None else ""
    lim = pool.get() if eta is not None else ""
    br = [pool.get() for _ in range(nbytes)]
    body = [f"    lbu {b}, {i}(a1)" for i, b in enumerate(br)]
    for i in range(group):
        lo, hi = i * bits, (i + 1) * bits
        first = True
        for b in range(nbytes):
            if lo < 8 * b + 8 and hi > 8 * b:
                sh = 8 * b - lo  # byte b's bit 0 lands at coefficient bit sh
                if first:
                    if sh < 0:
                        body.append(f"    srli {acc}, {br[b]}, {-sh}")
                    else:
                        body.append(f"    mv {acc}, {br[b]}")
                    first = False
                else:
                    body.append(f"    slli {tmp}, {br[b]}, {sh}")
                    body.append(f"    or {acc}, {acc}, {tmp}")
        if hi % 8:
            body.append(f"    and {acc}, {acc}, {mask}")
        if eta is not None:
            body.append(f"    sltu {tmp}, {lim}, {acc}")
            body.append(f"    or {bad}, {bad}, {tmp}")
        if off is not None:
            body.append(f"    sub {acc}, {offr}, {acc}")
        body.append(f"    sw {acc}, {4 * i}(a0)")
    save(o, pool.saved)
    o.append(f"    addi {end}, a0, 1024")
    if off is not None:
        o.append(f"    li {offr}, {off}")
    o.append(f"    li {mask}, {(1 << bits) - 1}")
    if eta is not None:
        o.append(f"    li {bad}, 0")
        o.append(f"    li {lim}, {2 * eta}")
    coeff_loop(o, [("a0", 4 * group), ("a1", nbytes)], end, body)
    if eta is not None:
        o.append(f"    mv a0, {bad}")
    restore(o, pool.saved)
    tail(o, name)


def main() -> None:
    o: list[str] = ["/* SPDX-License-Identifier: MIT */"]
    o.append("/* Generated by gen_mldsa_poly.py (python3 gen_mldsa_poly.py > mldsa_poly.S); do not edit.")
    o.append(" * ML-DSA coefficient-wise kernels and bit packing for RV32IM (docs/native.md). */")
    o.append("    .option norvc")
    simple(o)
    for g in (88, 32):
        rounding(o, g)
    ball_swap(o)
    pack(o, "t1", 10, None, 4)
    pack(o, "t0", 13, 1 << 12, 8)
    pack(o, "eta2", 3, 2, 8)
    pack(o, "eta4", 4, 4, 8)
    pack(o, "z17", 18, 1 << 17, 4)
    pack(o, "z19", 20, 1 << 19, 4)
    pack(o, "w1_88", 6, None, 4)
    pack(o, "w1_32", 4, None, 8)
    unpack(o, "t1", 10, None, 4)
    unpack(o, "t0", 13, 1 << 12, 8)
    unpack(o, "eta2", 3, 2, 8, eta=2)
    unpack(o, "eta4", 4, 4, 8, eta=4)
    unpack(o, "z17", 18, 1 << 17, 4)
    unpack(o, "z19", 20, 1 << 19, 4)
    sys.stdout.write("\n".join(o) + "\n")


if __name__ == "__main__":
    main()
