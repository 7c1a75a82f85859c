#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate fndsa_modq.S: FN-DSA's NTT and inverse NTT modulo q = 12289 (lib/fndsa/modq.c,
contract lib/native/fndsa_modq.h) for plain RV32IM, n = 512 and 1024.

Usage: python3 gen_fndsa_modq.py > fndsa_modq.S

Arithmetic as modq.c: twiddles psi^brv10(k) 2^16 mod q (centred; psi = 11^6 = 1945 mod q, a
primitive 2048-th root of unity: the tables of lib/fndsa/gen_tables.py, recomputed here),
signed Montgomery products with R = 2^16: mont(x) = (x - m q) >> 16, m = the signed low half
of x q^-1 (`mul m, x, q^-1 2^16`, `srai m, m, 16`, `mul`, `sub`, `srai`; CV32E40P: MUL one
cycle, no MULH), Barrett reductions x - ((5461 x + 2^25) >> 26) q to [-q/2 - 2, q/2 + 2].
The outputs are canonical ([0, q)) residues of the exact transforms, so they equal the C's.

Passes of up to four layers on 16 coefficients held in registers (s0-s11, a3-a6), the
words being int16 between passes: NTT (Cooley-Tukey) layers n/2 .. n/16 on the sets
j + (n/16) k, then n/32 .. n/256 on 16 coefficients with stride n/256 inside blocks of
n/16, then the last one or two layers on 16 consecutive coefficients, with the final
reduction to [0, q); the inverse (Gentleman-Sande) in the opposite order, its last layer
merged with the scaling by 1/n (mont(x 2^16 / n)). The generator tracks a bound on every
register through the butterflies and inserts a Barrett reduction only where an operand
would leave the Montgomery product's range (|z b| < 2^15 q) or a stored word int16.
Registers: t2 q, t4 q^-1 2^16, t5 5461, t6 2^25, t3 twiddle (tables of int16 in the order
of use), t0/t1 temporaries, a0 the
array, a1 logn (then the outer loop's end), a2 twiddles, a7 the inner loop's end; s0-s11
saved (48 bytes of stack). No data-dependent branch or address; logn other than 9 and 10
returns 1 (declined: the C runs), else 0."""

from __future__ import annotations

import sys

from rv32asm import function_head

Q = 12289
QINV = pow(Q, -1, 1 << 16)  # 53249 (modq.c QINV)
ZMAX = Q // 2  # |twiddle| <= 6144
MONT_IN = (1 << 15) * Q  # |z b| < 2^15 q keeps |mont| < q
BARRETT_OUT = Q // 2 + 2
COEF = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "a3", "a4", "a5", "a6"]
SAVED = COEF[:12]
FRAME = 48


def s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def brv10(k: int) -> int:
    return int(f"{k:010b}"[::-1], 2)


def centred(v: int) -> int:
    v %= Q
    return v - Q if v > Q // 2 else v


def tables() -> tuple[list[int], list[int]]:
    g = next(a for a in range(2, Q) if all(pow(a, (Q - 1) // p, Q) != 1 for p in (2, 3)))
    psi = pow(g, (Q - 1) // 2048, Q)
    z = [pow(psi, brv10(k), Q) for k in range(1024)]
    iz = [pow(v, Q - 2, Q) for v in z]
    return [centred(v << 16) for v in z], [centred(v << 16) for v in iz]


def mont_bound(prod: int) -> int:
    """bound on |mont(x)| for |x| <= prod"""
    assert prod < MONT_IN
    return (prod + (1 << 15) * Q) // (1 << 16) + 1


class Pass:
    """code for one pass body with bound tracking"""

    def __init__(self, bounds: list[int]) -> None:
        self.o: list[str] = []
        self.b = bounds[:]

    def barrett(self, k: int) -> None:
        x = COEF[k]
        self.o.append(f"    mul t0, {x}, t5")
        self.o.append("    add t0, t0, t6")
        self.o.append("    srai t0, t0, 26")
        self.o.append("    mul t0, t0, t2")
        self.o.append(f"    sub {x}, {x}, t0")
        assert self.b[k] < 1 << 18
        self.b[k] = BARRETT_OUT

    def mont(self, x: str) -> None:
        self.o.append(f"    mul t0, {x}, t4")
        self.o.append("    srai t0, t0, 16")
        self.o.append("    mul t0, t0, t2")
        self.o.append(f"    sub {x}, {x}, t0")
        self.o.append(f"    srai {x}, {x}, 16")

    def ct(self, i: int, j: int) -> None:
        if ZMAX * self.b[j] >= MONT_IN:
            self.barrett(j)
        t = mont_bound(ZMAX * self.b[j])
        self.o.append(f"    mul t1, {COEF[j]}, t3")
        self.mont("t1")
        self.o.append(f"    sub {COEF[j]}, {COEF[i]}, t1")
        self.o.append(f"    add {COEF[i]}, {COEF[i]}, t1")
        self.b[i] = self.b[j] = self.b[i] + t

    def gs(self, i: int, j: int) -> None:
        if ZMAX * (self.b[i] + self.b[j]) >= MONT_IN:
            self.barrett(i if self.b[i] >= self.b[j] else j)
        if ZMAX * (self.b[i] + self.b[j]) >= MONT_IN:
            self.barrett(i if self.b[i] >= self.b[j] else j)
        s = self.b[i] + self.b[j]
        self.o.append(f"    sub t1, {COEF[i]}, {COEF[j]}")
        self.o.append(f"    add {COEF[i]}, {COEF[i]}, {COEF[j]}")
        self.o.append(f"    mul {COEF[j]}, t1, t3")
        self.mont(COEF[j])
        self.b[i] = s
        self.b[j] = mont_bound(ZMAX * s)

    def canon(self, k: int) -> None:
        x = COEF[k]
        self.o.append(f"    srai t0, {x}, 31")
        self.o.append("    and t0, t0, t2")
        self.o.append(f"    add {x}, {x}, t0")


def emit_pass(
    o: list[str],
    n: int,
    stride: int,
    inner: int,
    outer: int,
    span: int,
    lens: list[int],
    kind: str,
    tw: list[int],
    bounds_in: int,
    last: str,
    label: str,
    tabname: str,
    tabs: dict[str, list[int]],
) -> int:
    """One pass: outer iterations (twiddle pointer a2 advancing), inner iterations (array
    pointer + 2); the 16 coefficients base + stride k. Returns the largest stored bound."""
    words: list[int] = []
    body: Pass | None = None
    for it in range(outer):
        p = Pass([bounds_in] * 16)
        base = it * span
        for ln in lens:
            d = ln // stride
            groups: dict[int, list[tuple[int, int]]] = {}
            for k in range(16):
                if (k // d) % 2 == 0:
                    blk = (base + stride * k) // (2 * ln)
                    groups.setdefault(blk, []).append((k, k + d))
            for blk, bfs in groups.items():
                p.o.append("    lh t3, 0(a2)")  # renumbered below
                words.append(tw[n // (2 * ln) + blk])
                for i, j in bfs:
                    (p.ct if kind == "ct" else p.gs)(i, j)
        if last == "canon":
            for k in range(16):
                if p.b[k] >= Q:  # Barrett, then [0, q)
                    p.barrett(k)
                p.canon(k)
                p.b[k] = Q - 1
        elif last == "scale":
            sc = (1 << 16) // n
            for k in range(16):
                p.o.append(f"    slli {COEF[k]}, {COEF[k]}, {sc.bit_length() - 1}")
                assert p.b[k] * sc < MONT_IN
                p.mont(COEF[k])
                p.canon(k)
                p.b[k] = Q - 1
        else:
            for k in range(16):
                if p.b[k] > 32767:
                    p.barrett(k)
        body = p
    assert body is not None
    per = len(words) // outer
    # renumber the twiddle loads of the (last) body as 0, 4, 8, ...
    code: list[str] = []
    c = 0
    for ln in body.o:
        if ln.startswith("    lh t3, "):
            code.append(f"    lh t3, {2 * c}(a2)")
            c += 1
        else:
            code.append(ln)
    assert c == per
    tabs[tabname] = words
    o.append(f"    la a2, {tabname}")
    o.append(f"    li a1, {2 * n}")
    o.append("    add a1, a0, a1")  # the end of the array
    o.append(f"{label}0:")
    o.append(f"    addi a7, a0, {2 * inner}")
    o.append(f"{label}1:")
    for k in range(16):
        o.append(f"    lh {COEF[k]}, {2 * stride * k}(a0)")
    o += code
    for k in range(16):
        o.append(f"    sh {COEF[k]}, {2 * stride * k}(a0)")
    o.append("    addi a0, a0, 2")
    o.append(f"    bne a0, a7, {label}1b")
    if span * 2 - 2 * inner:
        o.append(f"    addi a0, a0, {2 * span - 2 * inner}")
    if per:
        o.append(f"    addi a2, a2, {2 * per}")
    o.append(f"    bne a0, a1, {label}0b")
    o.append(f"    addi a0, a0, -{2 * n}")
    return max(body.b)


def transform(o: list[str], tabs: dict[str, list[int]], inverse: bool) -> None:
    zt, izt = tables()
    name = "pqlab_fndsa_mq_intt_native" if inverse else "pqlab_fndsa_mq_ntt_native"
    function_head(o, name, f"int {name}(uint16_t *a, unsigned logn)")
    o.append("    addi t0, a1, -9")
    o.append("    bnez t0, 1f")
    o.append("    j 9f")
    o.append("1:")
    o.append("    addi t0, a1, -10")
    o.append("    beqz t0, 9f")
    o.append("    li a0, 1")  # declined
    o.append("    ret")
    o.append("9:")
    o.append(f"    addi sp, sp, -{FRAME}")
    for k, r in enumerate(SAVED):
        o.append(f"    sw {r}, {4 * k}(sp)")
    o.append(f"    li t2, {Q}")
    o.append(f"    li t4, {s32(QINV << 16)}")
    o.append("    li t5, 5461")
    o.append("    lui t6, 0x2000")  # 2^25
    o.append("    addi t0, a1, -9")
    o.append("    bnez t0, 2f")
    for logn, lab in ((9, "3"), (10, "5")):
        n = 1 << logn
        if logn == 10:
            o.append("2:")
        s1 = n // 16  # stride of the first forward pass
        s2 = n // 256  # stride of the second
        lens_a = [n // 2, n // 4, n // 8, n // 16]
        lens_b = [n // 32, n // 64, n // 128, n // 256]
        lens_c = [1] if logn == 9 else [2, 1]
        if not inverse:
            b = emit_pass(o, n, s1, s1, 1, n, lens_a, "ct", zt, Q - 1, "", lab + "1", f"{name}_a{logn}", tabs)
            b = emit_pass(o, n, s2, s2, 16, n // 16, lens_b, "ct", zt, b, "", lab + "2", f"{name}_b{logn}", tabs)
            emit_pass(o, n, 1, 1, n // 16, 16, lens_c, "ct", zt, b, "canon", lab + "3", f"{name}_c{logn}", tabs)
        else:
            b = emit_pass(
                o, n, 1, 1, n // 16, 16, lens_c[::-1], "gs", izt, Q - 1, "", lab + "1", f"{name}_c{logn}", tabs
            )
            b = emit_pass(o, n, s2, s2, 16, n // 16, lens_b[::-1], "gs", izt, b, "", lab + "2", f"{name}_b{logn}", tabs)
            emit_pass(o, n, s1, s1, 1, n, lens_a[::-1], "gs", izt, b, "scale", lab + "3", f"{name}_a{logn}", tabs)
        if logn == 9:
            o.append("    j 8f")
    o.append("8:")
    for k, r in enumerate(SAVED):
        o.append(f"    lw {r}, {4 * k}(sp)")
    o.append(f"    addi sp, sp, {FRAME}")
    o.append("    li a0, 0")
    o.append("    ret")
    o.append(f"    .size {name}, .-{name}")


def main() -> None:
    o: list[str] = ["/* SPDX-License-Identifier: MIT */"]
    o.append("/* Generated by gen_fndsa_modq.py (python3 gen_fndsa_modq.py > fndsa_modq.S); do not edit.")
    o.append(" * FN-DSA NTT and inverse NTT modulo 12289 for RV32IM (docs/native.md). */")
    o.append("/* On a platform with the NTT unit (PQLAB_NATIVE_NTT_ACC, lib/native/rv32ntt) its driver")
    o.append(" * provides these two kernels; this file is then empty. */")
    o.append("#ifndef PQLAB_NATIVE_NTT_ACC")
    o.append("    .option norvc")
    tabs: dict[str, list[int]] = {}
    transform(o, tabs, False)
    transform(o, tabs, True)
    for nm, words in tabs.items():
        o.append(f'    .section .rodata.{nm},"a",@progbits')
        o.append("    .p2align 1")
        o.append(f"{nm}:")
        for i in range(0, len(words), 16):
            o.append("    .half " + ", ".join(str(w) for w in words[i : i + 16]))
    o.append("#endif")
    sys.stdout.write("\n".join(o) + "\n")


if __name__ == "__main__":
    main()
