#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate mlkem_ntt.S: ML-KEM's NTT and inverse NTT (FIPS 203 Algorithms 9 and 10) for plain
RV32IM, on the int16 polynomials of lib/mlkem (kernels.h contract).

Usage: python3 gen_mlkem_ntt.py > mlkem_ntt.S

Products with a constant m (a twiddle, or the inverse's final factor) use Plantard's
multiplication with l = 16, alpha = 3 (written here from its definition): for the 32-bit
constant C = b q^-1 mod 2^32, b = -m 2^32 mod q centred, and W = a C mod 2^32,
r = (((W >> 16) + 8) q) >> 16 (arithmetic shifts). Then a b - W q = 2^32 s for an integer s
and ((W >> 16) + 8) q / 2^16 = -s + (a b + q (2^19 - (W mod 2^16))) / 2^32, so r = -s exactly
whenever -q (2^19 - 2^16 + 1) <= a b < 2^32 - q 2^19, which |b| <= 1664 guarantees for
|a| < 917,000; then r = a m mod q and |r| <= 1664 (check_plantard below verifies it on the
whole range used). Five instructions, two of them single-cycle MUL: no MULH.

Values stay in 32-bit registers, so the inverse needs no reduction between layers (after 7
layers |.| <= 128 * 1664 < 917,000). The NTT: layers 128-64-32-16 on the coefficients
j + 16 k (k = 0..15) in registers, then 8-4-2 on 16 consecutive coefficients with the final
Barrett reduction of lib/mlkem/reduce.h (t = (a 20159 + 2^25) >> 26, a - t q: the centred
representative, as the C, so the output equals mlkem_ntt_c's). The inverse: Barrett of the
input, layers 2-4-8 on consecutive coefficients, then 16-32-64 and 128 merged with the
factor 2^16 / 128 (kernels.h: NTT^-1 times R) on the stride-16 sets; its output is congruent
to mlkem_invntt_c's with |c| <= 1664. Registers: 16 coefficients (s0-s11, a3-a6), a0, a1
twiddles, a2 loop end, t0/t1, t2 q, t3 the constant, t4/t5 Barrett constants; s0-s11 saved
(48 bytes of stack). No data-dependent branch or address."""

from __future__ import annotations

import sys

from rv32asm import function_head

Q = 3329
QINV32 = pow(Q, -1, 1 << 32)
COEF = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "a3", "a4", "a5", "a6"]
SAVED = COEF[:12]
FRAME = 48
LIMIT = 917_000  # |a| below this: Plantard's product is exact


def brv7(k: int) -> int:
    return int(f"{k:07b}"[::-1], 2)


def s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def centred(v: int) -> int:
    v %= Q
    return v - Q if v > Q // 2 else v


def plantard_const(m: int) -> int:
    b = centred(-m * (1 << 32))
    return s32(b * QINV32)


def plantard(a: int, c: int) -> int:
    w = s32(a * c)
    return (((w >> 16) + 8) * Q) >> 16


def check_plantard(consts: list[tuple[int, int]]) -> None:
    """the product is a m mod q with |r| <= 1664 at the extremes of |a| < LIMIT and on a grid"""
    samples = [*range(-LIMIT + 1, LIMIT, 997), *range(-40000, 40000, 7), -LIMIT + 1, LIMIT - 1, 0]
    for m, c in consts:
        b = centred(-m * (1 << 32))
        assert abs(b) <= 1664
        for a in samples:
            r = plantard(a, c)
            assert (r - a * m) % Q == 0 and abs(r) <= 1664, (m, a, r)


def zeta(i: int) -> int:
    return pow(17, brv7(i), Q)


def mul_const(o: list[str], x: str, dst: str) -> None:
    """dst = Plantard product of x with the constant in t3"""
    o.append(f"    mul {dst}, {x}, t3")
    o.append(f"    srai {dst}, {dst}, 16")
    o.append(f"    addi {dst}, {dst}, 8")
    o.append(f"    mul {dst}, {dst}, t2")
    o.append(f"    srai {dst}, {dst}, 16")


def barrett(o: list[str], x: str) -> None:
    """x = x - round(x 20159 / 2^26) q (lib/mlkem/reduce.h), t4 = 20159, t5 = 2^25"""
    o.append(f"    mul t0, {x}, t4")
    o.append("    add t0, t0, t5")
    o.append("    srai t0, t0, 26")
    o.append("    mul t0, t0, t2")
    o.append(f"    sub {x}, {x}, t0")


def head(o: list[str], name: str, proto: str) -> None:
    function_head(o, name, proto)
    o.append(f"    addi sp, sp, -{FRAME}")
    for k, r in enumerate(SAVED):
        o.append(f"    sw {r}, {4 * k}(sp)")
    o.append(f"    li t2, {Q}")
    o.append("    li t4, 20159")
    o.append("    li t5, 33554432")


def tail(o: list[str], name: str) -> None:
    for k, r in enumerate(SAVED):
        o.append(f"    lw {r}, {4 * k}(sp)")
    o.append(f"    addi sp, sp, {FRAME}")
    o.append("    ret")
    o.append(f"    .size {name}, .-{name}")


def loop(o: list[str], stride: int, body: list[str], tab: str, tab_step: int, label: str) -> None:
    """16 passes over int16 coefficients: a0 + 2 stride k (stride 16, a0 += 2) or a0 + 2 k
    (consecutive, a0 += 32)"""
    o.append(f"    la a1, {tab}")
    o.append("    addi a2, a0, 32" if stride == 16 else "    addi a2, a0, 512")
    o.append(f"{label}:")
    offs = [2 * stride * k if stride == 16 else 2 * k for k in range(16)]
    for k in range(16):
        o.append(f"    lh {COEF[k]}, {offs[k]}(a0)")
    o += body
    for k in range(16):
        o.append(f"    sh {COEF[k]}, {offs[k]}(a0)")
    if tab_step:
        o.append(f"    addi a1, a1, {tab_step}")
    o.append(f"    addi a0, a0, {2 if stride == 16 else 32}")
    o.append(f"    bne a0, a2, {label}b")
    o.append("    addi a0, a0, -32" if stride == 16 else "    addi a0, a0, -512")


def layer_groups(lens: tuple[int, ...], stride16: bool, blk: int, zidx) -> list[tuple[int, list[tuple[int, int]]]]:
    """(multiplier, butterflies) in order; registers k hold coefficient j + 16 k (stride16) or
    16 blk + k; layer len pairs k with k + d, d = len / 16 or len"""
    groups = []
    for ln in lens:
        d = ln // 16 if stride16 else ln
        nb = 16 // (2 * d)
        for b in range(nb):
            bfs = [(k, k + d) for k in range(16) if (k // d) % 2 == 0 and k // (2 * d) == b]
            gb = b if stride16 else (16 * blk) // (2 * ln) + b  # block index within the layer
            groups.append((zidx(ln, gb), bfs))
    return groups


def emit_groups(body: list[str], groups, kind: str, tab: list[int], consts: list[tuple[int, int]]) -> int:
    off = 0
    for m, bfs in groups:
        c = plantard_const(m)
        consts.append((m, c))
        tab.append(c)
        body.append(f"    lw t3, {off}(a1)")
        off += 4
        for i, j in bfs:
            a, b = COEF[i], COEF[j]
            if kind == "ct":  # t = b m; b = a - t; a = a + t
                mul_const(body, b, "t0")
                body.append(f"    sub {b}, {a}, t0")
                body.append(f"    add {a}, {a}, t0")
            else:  # d = b - a; a = a + b; b = d m
                body.append(f"    sub t1, {b}, {a}")
                body.append(f"    add {a}, {a}, {b}")
                mul_const(body, "t1", b)
    return off


def table(o: list[str], name: str, words: list[int]) -> None:
    o.append(f'    .section .rodata.{name},"a",@progbits')
    o.append("    .p2align 2")
    o.append(f"{name}:")
    for i in range(0, len(words), 8):
        o.append("    .word " + ", ".join(str(w) for w in words[i : i + 8]))


def main() -> None:
    consts: list[tuple[int, int]] = []
    tabs: dict[str, list[int]] = {}
    o: list[str] = ["/* SPDX-License-Identifier: MIT */"]
    o.append("/* Generated by gen_mlkem_ntt.py (python3 gen_mlkem_ntt.py > mlkem_ntt.S); do not edit.")
    o.append(" * ML-KEM NTT and inverse NTT for RV32IM, Plantard products (docs/native.md). */")
    o.append("    .option norvc")

    # forward: layer len, block b uses zeta^BitRev7(128 / len + b)
    name = "pqlab_mlkem_ntt_rv32"
    head(o, name, "void pqlab_mlkem_ntt_rv32(int16_t c[256])")
    body: list[str] = []
    tabs["pqlab_mlkem_ntt_rv32_t1"] = []
    emit_groups(
        body,
        layer_groups((128, 64, 32, 16), True, 0, lambda ln, b: zeta(128 // ln + b)),
        "ct",
        tabs["pqlab_mlkem_ntt_rv32_t1"],
        consts,
    )
    loop(o, 16, body, "pqlab_mlkem_ntt_rv32_t1", 0, "1")
    tabs["pqlab_mlkem_ntt_rv32_t2"] = []
    step = 0
    for blk in range(16):
        body = []
        step = emit_groups(
            body,
            layer_groups((8, 4, 2), False, blk, lambda ln, b: zeta(128 // ln + b)),
            "ct",
            tabs["pqlab_mlkem_ntt_rv32_t2"],
            consts,
        )
    for k in range(16):
        barrett(body, COEF[k])
    loop(o, 1, body, "pqlab_mlkem_ntt_rv32_t2", step, "2")
    tail(o, name)

    # inverse: layer len, block b uses zeta^BitRev7(256 / len - 1 - b) on b - a
    name = "pqlab_mlkem_invntt_rv32"
    head(o, name, "void pqlab_mlkem_invntt_rv32(int16_t c[256])")
    tabs["pqlab_mlkem_invntt_rv32_t1"] = []
    for blk in range(16):
        body = []
        for k in range(16):
            barrett(body, COEF[k])
        step = emit_groups(
            body,
            layer_groups((2, 4, 8), False, blk, lambda ln, b: zeta(256 // ln - 1 - b)),
            "gs",
            tabs["pqlab_mlkem_invntt_rv32_t1"],
            consts,
        )
    loop(o, 1, body, "pqlab_mlkem_invntt_rv32_t1", step, "1")
    body = []
    t2 = tabs["pqlab_mlkem_invntt_rv32_t2"] = []
    off = emit_groups(
        body, layer_groups((16, 32, 64), True, 0, lambda ln, b: zeta(256 // ln - 1 - b)), "gs", t2, consts
    )
    # layer 128 with the factor f = 2^16 / 128: a' = (a + b) f, b' = (b - a) zeta^BitRev7(1) f
    f = (1 << 16) * pow(128, -1, Q) % Q
    for m in (f, zeta(1) * f % Q):
        c = plantard_const(m)
        consts.append((m, c))
        t2.append(c)
    for k in range(8):
        a, b = COEF[k], COEF[k + 8]
        body.append(f"    sub t1, {b}, {a}")
        body.append(f"    add {a}, {a}, {b}")
        body.append(f"    mv {b}, t1")
    body.append(f"    lw t3, {off}(a1)")
    for k in range(8):
        mul_const(body, COEF[k], COEF[k])
    body.append(f"    lw t3, {off + 4}(a1)")
    for k in range(8):
        mul_const(body, COEF[k + 8], COEF[k + 8])
    loop(o, 16, body, "pqlab_mlkem_invntt_rv32_t2", 0, "2")
    tail(o, name)

    check_plantard(sorted(set(consts)))
    for nm, words in tabs.items():
        table(o, nm, words)
    sys.stdout.write("\n".join(o) + "\n")


if __name__ == "__main__":
    main()
