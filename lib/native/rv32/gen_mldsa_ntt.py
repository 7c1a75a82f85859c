#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate mldsa_ntt.S: ML-DSA's NTT, inverse NTT and pointwise products (FIPS 204
Algorithms 41, 42, 45) for plain RV32IM.

Usage: python3 gen_mldsa_ntt.py > mldsa_ntt.S

Arithmetic. CV32E40P's MUL takes one cycle, MULH five, so the number of MULH decides.
- Forward NTT: Barrett multiplication by the twiddle z (the plain residue zeta^BitRev8(m),
  centred) with zb = round(z 2^32 / q): t = b z - q floor(b zb / 2^32) (mulh, mul, mul, sub:
  one MULH). With zb = z 2^32 / q + d, |d| <= 1/2, t = q (f - b d / 2^32) for some f in
  [0, 1), so -q |b| / 2^33 < t < q (1 + |b| / 2^33): congruent to b z, not always below q.
  This kernel therefore takes |a| <= 2^28 (every caller's input is far smaller: y, z below
  2^20, t1 2^13 below 2^23, s, t0, c smaller still) and returns |a| < max|in| + 9q (each of
  the 8 layers adds less than 1.04 q; MAX_GROWTH below is checked); the values are congruent
  to the C's, not equal (mldsa_native.h states the bounds, kernels_contract.h checks them).
- Inverse NTT: Barrett products in layers 1-64 as well (inputs below 128 q, so each product is
  below 1.02 q: a coefficient that went through a product stays below 64.2 q, one that did not
  below 128 (q - 1), and the last layer's sums below 256 (q - 1) < 2^31, as in the C); the
  last layer and the scaling use Montgomery reduction with R = 2^32 as lib/mldsa/reduce.h,
  mont(x) = hi(x) - hi(t q), t = lo(x) q^-1 mod 2^32; with a constant the pair
  (z, z q^-1 mod 2^32) gives t = mul(b, z q^-1) directly (mul, mulh, mulh, sub). The output is
  below q and congruent to the C's.
- Pointwise products: Montgomery as the C (mul, mulh, mul, mulh), bit for bit its values.
- rej_uniform: RejNTTPoly's loop over 3-byte candidates (Algorithm 14), branching on the
  public candidates as the C does; the same coefficients and count.

Passes: the NTT runs layers 128-64-32-16 on the 16 coefficients j, j + 16, ..., j + 240 in
registers (16 passes) and layers 8-4-2-1 on 16 consecutive coefficients (16 passes); the
inverse runs layers 1-2-4-8 on consecutive coefficients and 16-32-64-128 (the last layer
merged with the scaling by 256^-1 2^64, as the C) on the stride-16 sets. Twiddle pairs are
read from tables laid out in the order of use. Registers: 16 coefficients (s0-s11, a3-a6),
a0 polynomial, a1 twiddles, a2 end of loop, t0/t1 products, t2 q, t3/t4 the twiddle pair;
s0-s11 saved on the stack (48 bytes). No data-dependent branch or address."""

from __future__ import annotations

import sys

from rv32asm import function_head

Q = 8380417
QINV = 58728449  # q^-1 mod 2^32
ZETA = 1753
COEF = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "a3", "a4", "a5", "a6"]
SAVED = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11"]
FRAME = 48


def brv8(k: int) -> int:
    return int(f"{k:08b}"[::-1], 2)


def centred(v: int) -> int:
    v %= Q
    return v - Q if v > (Q - 1) // 2 else v


def zetas_mont() -> list[int]:
    """zeta^BitRev8(m) 2^32 mod q, centred (lib/mldsa/ntt.c's table)"""
    return [centred(pow(ZETA, brv8(m), Q) << 32) for m in range(256)]


NTT_IN_BOUND = 1 << 28  # the forward NTT's input bound |a| <= 2^28
# largest |t| / q of a Barrett product in the forward NTT: |b| < 2^28 + 9q at any layer
MAX_GROWTH = 1 + (NTT_IN_BOUND + 9 * Q) / 2**33
assert 8 * MAX_GROWTH < 9  # so |out| < max|in| + 9q
INVN_MONT2 = 41978  # 256^-1 2^64 mod q (ntt.c)
INVN_LAST = 3975713  # -zeta^BitRev8(1) 256^-1 2^64 mod q, centred (ntt.c)


def s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def pair(z: int) -> tuple[int, int]:
    return z, s32(z * QINV)


def mont_const(o: list[str], x: str) -> None:
    """x = mont(x z) with the pair (t3 = z, t4 = z q^-1)"""
    o.append(f"    mul t0, {x}, t4")
    o.append(f"    mulh {x}, {x}, t3")
    o.append("    mulh t0, t0, t2")
    o.append(f"    sub {x}, {x}, t0")


def ct_barrett(o: list[str], a: str, b: str) -> None:
    """Cooley-Tukey with Barrett multiplication (t3 = z, t4 = round(z 2^32 / q)):
    t = b z - q floor(b t4 / 2^32); b = a - t; a = a + t"""
    o.append(f"    mulh t0, {b}, t4")
    o.append(f"    mul t1, {b}, t3")
    o.append("    mul t0, t0, t2")
    o.append("    sub t1, t1, t0")
    o.append(f"    sub {b}, {a}, t1")
    o.append(f"    add {a}, {a}, t1")


def gs_barrett(o: list[str], a: str, b: str) -> None:
    """Gentleman-Sande with a Barrett product: d = a - b; a = a + b; b = d z (t3 = z, t4 = zb)"""
    o.append(f"    sub t1, {a}, {b}")
    o.append(f"    add {a}, {a}, {b}")
    o.append("    mulh t0, t1, t4")
    o.append("    mul t1, t1, t3")
    o.append("    mul t0, t0, t2")
    o.append(f"    sub {b}, t1, t0")


def load_pair(o: list[str], base: str, off: int) -> None:
    o.append(f"    lw t4, {off + 4}({base})")
    o.append(f"    lw t3, {off}({base})")


def barrett_pair(zm: int) -> tuple[int, int]:
    """(z, round(z 2^32 / q)) for the twiddle zm = z 2^32 mod q (the C's Montgomery form)"""
    z = centred(zm * pow(2, -32, Q))
    return z, (z * 2**32 * 2 + Q) // (2 * Q)  # round half up; |z 2^32 / q - zb| <= 1/2


def emit_pass(o: list[str], groups: list[tuple[int, list[tuple[int, int]]]], kind: str, table: list[int]) -> int:
    """Butterflies on the 16 registers: groups of (twiddle value, [(i, j), ...]) in order;
    the twiddle pairs go to `table` (words at a1 + offset); returns the bytes used.
    kind "ct" or "gs": Cooley-Tukey or Gentleman-Sande, Barrett products."""
    off = 0
    for z, bfs in groups:
        load_pair(o, "a1", off)
        zz, zq = barrett_pair(z)
        table += [zz, zq]
        off += 8
        for i, j in bfs:
            (ct_barrett if kind == "ct" else gs_barrett)(o, COEF[i], COEF[j])
    return off


def prologue(o: list[str]) -> None:
    o.append(f"    addi sp, sp, -{FRAME}")
    for k, r in enumerate(SAVED):
        o.append(f"    sw {r}, {4 * k}(sp)")
    o.append(f"    li t2, {Q}")


def epilogue(o: list[str], name: str) -> None:
    for k, r in enumerate(SAVED):
        o.append(f"    lw {r}, {4 * k}(sp)")
    o.append(f"    addi sp, sp, {FRAME}")
    o.append("    ret")
    o.append(f"    .size {name}, .-{name}")


def loop(o: list[str], stride: int, body: list[str], tab: str, tab_step: int, label: str) -> None:
    """16 passes: load the 16 coefficients (a0 + stride k), body, store; a0 += 4 or 64"""
    o.append(f"    la a1, {tab}")
    o.append("    addi a2, a0, 64" if stride == 16 else "    addi a2, a0, 1024")
    o.append(f"{label}:")
    for k in range(16):
        o.append(f"    lw {COEF[k]}, {4 * stride * k if stride == 16 else 4 * k}(a0)")
    o += body
    for k in range(16):
        o.append(f"    sw {COEF[k]}, {4 * stride * k if stride == 16 else 4 * k}(a0)")
    if tab_step:
        o.append(f"    addi a1, a1, {tab_step}")
    o.append(f"    addi a0, a0, {4 if stride == 16 else 64}")
    o.append(f"    bne a0, a2, {label}b")
    o.append("    addi a0, a0, -64" if stride == 16 else "    addi a0, a0, -1024")


def table(o: list[str], name: str, words: list[int]) -> None:
    o.append(f'    .section .rodata.{name},"a",@progbits')
    o.append("    .p2align 2")
    o.append(f"{name}:")
    for i in range(0, len(words), 8):
        o.append("    .word " + ", ".join(str(w) for w in words[i : i + 8]))


def main() -> None:
    zm = zetas_mont()
    o: list[str] = ["/* SPDX-License-Identifier: MIT */"]
    o.append("/* Generated by gen_mldsa_ntt.py (python3 gen_mldsa_ntt.py > mldsa_ntt.S); do not edit.")
    o.append(" * ML-DSA NTT, inverse NTT, pointwise products for RV32IM (docs/native.md). */")
    o.append("    .option norvc")
    tabs: dict[str, list[int]] = {}

    # ---- forward NTT ----
    name = "pqlab_mldsa_ntt_rv32"
    function_head(o, name, "void pqlab_mldsa_ntt_rv32(int32_t a[256])")
    prologue(o)
    # pass 1: register k holds a[j + 16 k]; layer len: pairs (k, k + len / 16), block k // (len / 8)
    groups = []
    for ln in (128, 64, 32, 16):
        d = ln // 16
        for b in range(256 // (2 * ln)):
            bfs = [(k, k + d) for k in range(16) if (k // d) % 2 == 0 and k // (2 * d) == b]
            groups.append((zm[128 // ln + b], bfs))
    body: list[str] = []
    tabs["pqlab_mldsa_ntt_rv32_t1"] = []
    emit_pass(body, groups, "ct", tabs["pqlab_mldsa_ntt_rv32_t1"])
    loop(o, 16, body, "pqlab_mldsa_ntt_rv32_t1", 0, "1")
    # pass 2: block B of 16 consecutive coefficients; layer len: pairs (i, i + len)
    tabs["pqlab_mldsa_ntt_rv32_t2"] = []
    step = 0
    for blk in range(16):
        groups = []
        for ln in (8, 4, 2, 1):
            for b in range(16 // (2 * ln)):
                bfs = [(i, i + ln) for i in range(16) if (i // ln) % 2 == 0 and i // (2 * ln) == b]
                groups.append((zm[128 // ln + (16 * blk) // (2 * ln) + b], bfs))
        body = []
        step = emit_pass(body, groups, "ct", tabs["pqlab_mldsa_ntt_rv32_t2"])
    loop(o, 1, body, "pqlab_mldsa_ntt_rv32_t2", step, "2")
    epilogue(o, name)

    # ---- inverse NTT times 2^32 ----
    name = "pqlab_mldsa_invntt_rv32"
    function_head(o, name, "void pqlab_mldsa_invntt_rv32(int32_t a[256])")
    prologue(o)
    tabs["pqlab_mldsa_invntt_rv32_t1"] = []
    for blk in range(16):
        groups = []
        for ln in (1, 2, 4, 8):
            for b in range(16 // (2 * ln)):
                bfs = [(i, i + ln) for i in range(16) if (i // ln) % 2 == 0 and i // (2 * ln) == b]
                gb = (16 * blk) // (2 * ln) + b
                groups.append((-zm[256 // ln - 1 - gb], bfs))
        body = []
        step = emit_pass(body, groups, "gs", tabs["pqlab_mldsa_invntt_rv32_t1"])
    loop(o, 1, body, "pqlab_mldsa_invntt_rv32_t1", step, "1")
    groups = []
    for ln in (16, 32, 64):
        d = ln // 16
        for b in range(256 // (2 * ln)):
            bfs = [(k, k + d) for k in range(16) if (k // d) % 2 == 0 and k // (2 * d) == b]
            groups.append((-zm[256 // ln - 1 - b], bfs))
    body = []
    tabs["pqlab_mldsa_invntt_rv32_t2"] = []
    off = emit_pass(body, groups, "gs", tabs["pqlab_mldsa_invntt_rv32_t2"])
    # layer 128 and the scaling: a[j] = mont((t + u) 41978), a[j + 128] = mont((t - u) 3975713)
    t2 = tabs["pqlab_mldsa_invntt_rv32_t2"]
    for c in (INVN_MONT2, INVN_LAST):
        t2 += list(pair(c))
    for k in range(8):
        a, b = COEF[k], COEF[k + 8]
        body.append(f"    sub t1, {a}, {b}")
        body.append(f"    add {a}, {a}, {b}")
        body.append(f"    sw t1, {4 * 16 * (k + 8)}(a0)")  # park t - u in its slot
    load_pair(body, "a1", off)
    for k in range(8):
        mont_const(body, COEF[k])
    load_pair(body, "a1", off + 8)
    for k in range(8):
        body.append(f"    lw {COEF[k + 8]}, {4 * 16 * (k + 8)}(a0)")
    for k in range(8):
        mont_const(body, COEF[k + 8])
    loop(o, 16, body, "pqlab_mldsa_invntt_rv32_t2", 0, "2")
    epilogue(o, name)

    # ---- pointwise products ----
    for acc in (False, True):
        name = "pqlab_mldsa_pointwise_acc_rv32" if acc else "pqlab_mldsa_pointwise_rv32"
        function_head(o, name, f"void {name}(int32_t c[256], const int32_t a[256], const int32_t b[256])")
        o.append("    li t2, " + str(Q))
        o.append("    li t3, " + str(QINV))
        o.append("    addi a7, a1, 1024")
        o.append("1:")
        regs = [("a3", "a4", "t4"), ("a5", "a6", "t5")]
        for k, (x, y, _r) in enumerate(regs):
            o.append(f"    lw {x}, {4 * k}(a1)")
            o.append(f"    lw {y}, {4 * k}(a2)")
        if acc:
            o.append("    lw t4, 0(a0)")
            o.append("    lw t5, 4(a0)")
        for k, (x, y, r) in enumerate(regs):
            o.append(f"    mul t0, {x}, {y}")
            o.append(f"    mulh {x}, {x}, {y}")
            o.append("    mul t0, t0, t3")
            o.append("    mulh t0, t0, t2")
            o.append(f"    sub {x}, {x}, t0")
            if acc:
                o.append(f"    add {x}, {x}, {r}")
            o.append(f"    sw {x}, {4 * k}(a0)")
        o.append("    addi a1, a1, 8")
        o.append("    addi a2, a2, 8")
        o.append("    addi a0, a0, 8")
        o.append("    bne a1, a7, 1b")
        o.append("    ret")
        o.append(f"    .size {name}, .-{name}")

    # ---- RejNTTPoly's sampling loop (kernels.h rej_uniform; public data: branches) ----
    name = "pqlab_mldsa_rej_uniform_rv32"
    function_head(o, name, f"unsigned {name}(int32_t a[256], unsigned ctr, const uint8_t *buf, size_t buflen)")
    o.append("    slli t2, a1, 2")
    o.append("    add t2, a0, t2")  # next slot
    o.append("    li t0, 256")
    o.append("    bgeu a1, t0, 8f")
    o.append(f"    li t1, {Q}")
    o.append("    li t5, 0x7fffff")
    o.append("    addi t4, a0, 1024")  # end of a
    o.append("    add t3, a2, a3")
    o.append("    addi t3, t3, -2")  # a triple at p fits while p < buf + buflen - 2
    o.append("    bgeu a2, t3, 8f")
    o.append("1:")
    o.append("    lbu a4, 0(a2)")
    o.append("    lbu a5, 1(a2)")
    o.append("    lbu a6, 2(a2)")
    o.append("    addi a2, a2, 3")
    o.append("    slli a5, a5, 8")
    o.append("    slli a6, a6, 16")
    o.append("    or a4, a4, a5")
    o.append("    or a4, a4, a6")
    o.append("    and a4, a4, t5")
    o.append("    bgeu a4, t1, 2f")  # rejected
    o.append("    sw a4, 0(t2)")
    o.append("    addi t2, t2, 4")
    o.append("    bgeu t2, t4, 8f")  # 256 coefficients
    o.append("2:")
    o.append("    bltu a2, t3, 1b")
    o.append("8:")
    o.append("    sub a0, t2, a0")
    o.append("    srli a0, a0, 2")
    o.append("    ret")
    o.append(f"    .size {name}, .-{name}")

    for nm, words in tabs.items():
        table(o, nm, words)
    sys.stdout.write("\n".join(o) + "\n")


if __name__ == "__main__":
    main()
