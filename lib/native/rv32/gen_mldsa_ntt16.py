#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate mldsa_ntt16.S: ML-DSA signing's small-modulus NTT (kernels poly_ntt16 and
poly_mul16_add of lib/mldsa/kernels.h, portable C in lib/mldsa/ntt16.c) for plain RV32IM.

Usage: python3 gen_mldsa_ntt16.py > mldsa_ntt16.S

The assembly does the C's operations in the C's order per coefficient, so its values are the
C's bit for bit (the NTT-domain values too): p = 7681, the twiddles of ntt16.c (zetas16,
recomputed here from the root 62), the 16-bit Montgomery reduction
mont16(x) = (x + m p) >> 16 with m the signed low half of x (-p^-1) mod 2^16, the extra
reductions before the forward layer len = 2 and before the inverse layers len = 4 and
len = 32, the last inverse layer merged with the scaling. lib/mldsa/gen_ntt16.py proves that
every intermediate fits int16, so holding them in 32-bit registers changes nothing.

mont16 in four instructions after the product: m = x ((-p^-1) 2^16 mod 2^32) leaves the low
half of x (-p^-1) in the upper half of m, `srai m, m, 16` sign-extends it, then
`mul m, m, p`, `add x, x, m`, `srai x, x, 16` (CV32E40P: MUL one cycle, no MULH).

Passes as gen_mldsa_ntt.py: ntt16 runs layers 128-64-32-16 on the 16 coefficients
j, j + 16, ..., j + 240 in registers (reading the int32 input, writing int16), then
8-4-2-1 on 16 consecutive coefficients; mul16_add runs the pointwise product and the inverse
layers 1-2-4-8 on 16 consecutive coefficients into 512 bytes of stack (int16), then
16-32-64 and the last layer with the scaling and the addition of base on the stride-16 sets.
Registers: 16 coefficients (s0-s11, a3-a6), t2 p, t4 (-p^-1) 2^16, t3 the twiddle, t0/t1
products; s0-s11 and ra saved (ntt16: 48 bytes of stack, mul16_add: 52 + 512).
No data-dependent branch or address."""

from __future__ import annotations

import sys

from rv32asm import function_head

P = 7681
ROOT = 62
NINV = (-pow(P, -1, 1 << 16)) % (1 << 16)  # 7679
COEF = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "a3", "a4", "a5", "a6"]
SAVED = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "ra"]
FRAME = 4 * len(SAVED)
TMP = 512  # mul16_add's int16 intermediate


def s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


NINV16 = s32(NINV << 16)


def brv8(k: int) -> int:
    return int(f"{k:08b}"[::-1], 2)


def centred(v: int) -> int:
    v %= P
    return v - P if v > (P - 1) // 2 else v


def zetas16() -> list[int]:
    """62^BitRev8(m) 2^16 mod p, centred (ntt16.c's table)"""
    return [centred(pow(ROOT, brv8(m), P) << 16) for m in range(256)]


F = centred(pow(2, 96, P) * pow(256, -1, P))  # 2^96 / 256 mod p (ntt16.c P16_F)
assert NINV == 7679 and F == 183


def mont16(o: list[str], x: str, t: str = "t0") -> None:
    """x = mont16(x)"""
    o.append(f"    mul {t}, {x}, t4")
    o.append(f"    srai {t}, {t}, 16")
    o.append(f"    mul {t}, {t}, t2")
    o.append(f"    add {x}, {x}, {t}")
    o.append(f"    srai {x}, {x}, 16")


def ct(o: list[str], a: str, b: str) -> None:
    """t = mont16(z b); b = a - t; a = a + t (t3 = z)"""
    o.append(f"    mul t1, {b}, t3")
    mont16(o, "t1")
    o.append(f"    sub {b}, {a}, t1")
    o.append(f"    add {a}, {a}, t1")


def gs(o: list[str], a: str, b: str) -> None:
    """u = a; a = u + b; b = mont16(z (u - b)) (t3 = z)"""
    o.append(f"    sub t1, {a}, {b}")
    o.append(f"    add {a}, {a}, {b}")
    o.append(f"    mul {b}, t1, t3")
    mont16(o, b)


def prologue(o: list[str], extra: int) -> None:
    o.append(f"    addi sp, sp, -{FRAME + extra}")
    for k, r in enumerate(SAVED):
        o.append(f"    sw {r}, {extra + 4 * k}(sp)")
    o.append(f"    li t2, {P}")
    o.append(f"    li t4, {NINV16}")


def epilogue(o: list[str], name: str, extra: int) -> None:
    for k, r in enumerate(SAVED):
        o.append(f"    lw {r}, {extra + 4 * k}(sp)")
    o.append(f"    addi sp, sp, {FRAME + extra}")
    o.append("    ret")
    o.append(f"    .size {name}, .-{name}")


def butterflies(
    o: list[str], groups: list[tuple[int, list[tuple[int, int]]]], kind: str, table: list[int], tab: str
) -> int:
    """groups of (twiddle, [(i, j), ...]); twiddles appended to `table`, read from `tab` + 4 n;
    returns the bytes of table used"""
    off = 0
    for z, bfs in groups:
        o.append(f"    lw t3, {off}({tab})")
        table.append(z)
        off += 4
        for i, j in bfs:
            if kind == "ct":
                ct(o, COEF[i], COEF[j])
            else:
                gs(o, COEF[i], COEF[j])
    return off


def stride_groups(lens: tuple[int, ...], twiddle) -> list[tuple[int, list[tuple[int, int]]]]:  # type: ignore[no-untyped-def]
    """register k = coefficient j + 16 k: layer len pairs (k, k + len / 16)"""
    groups = []
    for ln in lens:
        d = ln // 16
        for b in range(256 // (2 * ln)):
            bfs = [(k, k + d) for k in range(16) if (k // d) % 2 == 0 and k // (2 * d) == b]
            groups.append((twiddle(ln, b), bfs))
    return groups


def block_groups(blk: int, lens: tuple[int, ...], twiddle) -> list[tuple[int, list[tuple[int, int]]]]:  # type: ignore[no-untyped-def]
    """register i = coefficient 16 blk + i: layer len pairs (i, i + len); twiddle(len, global block)"""
    groups = []
    for ln in lens:
        for b in range(16 // (2 * ln)):
            bfs = [(i, i + ln) for i in range(16) if (i // ln) % 2 == 0 and i // (2 * ln) == b]
            groups.append((twiddle(ln, (16 * blk) // (2 * ln) + b), bfs))
    return groups


def table(o: list[str], name: str, words: list[int]) -> None:
    o.append(f'    .section .rodata.{name},"a",@progbits')
    o.append("    .p2align 2")
    o.append(f"{name}:")
    for i in range(0, len(words), 8):
        o.append("    .word " + ", ".join(str(w) for w in words[i : i + 8]))


def main() -> None:
    zt = zetas16()
    assert zt[1] == 3777
    f_last = centred(-zt[1] * F * pow(2, -16, P))  # ntt16.c P16_F_LAST
    assert f_last == -3072
    o: list[str] = ["/* SPDX-License-Identifier: MIT */"]
    o.append("/* Generated by gen_mldsa_ntt16.py (python3 gen_mldsa_ntt16.py > mldsa_ntt16.S); do not edit.")
    o.append(" * ML-DSA signing's NTT modulo 7681 (lib/mldsa/ntt16.c) for RV32IM (docs/native.md). */")
    o.append("    .option norvc")
    tabs: dict[str, list[int]] = {}

    # ---- ntt16: r = NTT_p(a) (int32 in, int16 out) ----
    name = "pqlab_mldsa_ntt16_rv32"
    function_head(o, name, "void pqlab_mldsa_ntt16_rv32(int16_t r[256], const int32_t a[256])")
    prologue(o, 0)
    t1name = name + "_t1"
    tabs[t1name] = []
    body: list[str] = []
    butterflies(body, stride_groups((128, 64, 32, 16), lambda ln, b: zt[128 // ln + b]), "ct", tabs[t1name], "a2")
    o.append(f"    la a2, {t1name}")
    o.append("    addi a7, a0, 32")
    o.append("1:")
    for k in range(16):
        o.append(f"    lw {COEF[k]}, {64 * k}(a1)")
    o += body
    for k in range(16):
        o.append(f"    sh {COEF[k]}, {32 * k}(a0)")
    o.append("    addi a1, a1, 4")
    o.append("    addi a0, a0, 2")
    o.append("    bne a0, a7, 1b")
    o.append("    addi a0, a0, -32")
    t2name = name + "_t2"
    tabs[t2name] = []
    step = 0
    for blk in range(16):
        body = []
        groups = block_groups(blk, (8, 4), lambda ln, gb: zt[128 // ln + gb])
        step = butterflies(body, groups, "ct", tabs[t2name], "a2")
        for k in range(16):
            mont16(body, COEF[k])  # ntt16.c: the reduction before layer len = 2
        groups = block_groups(blk, (2, 1), lambda ln, gb: zt[128 // ln + gb])
        sub: list[str] = []
        step += butterflies(sub, groups, "ct", tabs[t2name], "a2")
        # the second half's twiddle offsets follow the first half's
        body += sub
    o.append(f"    la a2, {t2name}")
    o.append("    addi a7, a0, 512")
    o.append("2:")
    for k in range(16):
        o.append(f"    lh {COEF[k]}, {2 * k}(a0)")
    o += rebase(body)
    for k in range(16):
        o.append(f"    sh {COEF[k]}, {2 * k}(a0)")
    o.append(f"    addi a2, a2, {step}")
    o.append("    addi a0, a0, 32")
    o.append("    bne a0, a7, 2b")
    epilogue(o, name, 0)

    # ---- mul16_add: r = base + NTT_p^-1(a o b) ----
    name = "pqlab_mldsa_mul16_add_rv32"
    function_head(
        o,
        name,
        "void pqlab_mldsa_mul16_add_rv32(int32_t r[256], const int32_t base[256], const int16_t a[256], "
        "const int16_t b[256])",
    )
    prologue(o, TMP)
    t1name = name + "_t1"
    tabs[t1name] = []
    for blk in range(16):
        body = []
        for k in range(16):
            body.append(f"    lh {COEF[k]}, {2 * k}(a2)")
        for k in range(16):  # b_k's load is followed by the reduction of product k - 1
            body.append(f"    lh t1, {2 * k}(a7)")
            if k:
                mont16(body, COEF[k - 1])
            body.append(f"    mul {COEF[k]}, {COEF[k]}, t1")
        mont16(body, COEF[15])
        groups = block_groups(blk, (1, 2), lambda ln, gb: -zt[256 // ln - 1 - gb])
        sub = []
        step = butterflies(sub, groups, "gs", tabs[t1name], "t6")
        body += sub
        for k in range(16):
            mont16(body, COEF[k])  # ntt16.c: the reduction before layer len = 4
        groups = block_groups(blk, (4, 8), lambda ln, gb: -zt[256 // ln - 1 - gb])
        sub = []
        step += butterflies(sub, groups, "gs", tabs[t1name], "t6")
        body += sub
    # a2 = a, a7 = b, ra = the int16 intermediate on the stack, t6 = twiddles, t5 = its end
    o.append("    mv a7, a3")
    o.append("    mv ra, sp")
    o.append(f"    la t6, {t1name}")
    o.append(f"    addi t5, sp, {TMP}")
    o.append("1:")
    o += rebase(body, "t6")
    for k in range(16):
        o.append(f"    sh {COEF[k]}, {2 * k}(ra)")
    o.append(f"    addi t6, t6, {step}")
    o.append("    addi a2, a2, 32")
    o.append("    addi a7, a7, 32")
    o.append("    addi ra, ra, 32")
    o.append("    bne ra, t5, 1b")
    # pass 2: a0 = r, a1 = base (both + 4 per pass), ra = intermediate (+ 2), a7 its end
    t2name = name + "_t2"
    tabs[t2name] = []
    body = []
    butterflies(body, stride_groups((16,), lambda ln, b: -zt[256 // ln - 1 - b]), "gs", tabs[t2name], "a2")
    for k in range(16):
        mont16(body, COEF[k])  # ntt16.c: the reduction before layer len = 32
    sub = []
    butterflies(sub, stride_groups((32, 64), lambda ln, b: -zt[256 // ln - 1 - b]), "gs", tabs[t2name], "a2")
    body += sub
    # layer 128 with the scaling: r[j] = base[j] + mont16(F (u + v)),
    # r[j + 128] = base[j + 128] + mont16(F_LAST (u - v))
    for k in range(8):
        u, v = COEF[k], COEF[k + 8]
        body.append(f"    sub t1, {u}, {v}")
        body.append(f"    add {u}, {u}, {v}")
        body.append(f"    mul {v}, t1, t6")
        body.append(f"    mul {u}, {u}, t5")
        mont16(body, u)
        body.append(f"    lw t1, {64 * k}(a1)")
        body.append(f"    add {u}, {u}, t1")
        body.append(f"    sw {u}, {64 * k}(a0)")
        mont16(body, v)
        body.append(f"    lw t1, {64 * (k + 8)}(a1)")
        body.append(f"    add {v}, {v}, t1")
        body.append(f"    sw {v}, {64 * (k + 8)}(a0)")
    o.append("    mv ra, sp")
    o.append(f"    la a2, {t2name}")
    o.append("    addi a7, sp, 32")
    o.append(f"    li t5, {F}")
    o.append(f"    li t6, {f_last}")
    o.append("2:")
    for k in range(16):
        o.append(f"    lh {COEF[k]}, {32 * k}(ra)")
    o += rebase(body)
    o.append("    addi a0, a0, 4")
    o.append("    addi a1, a1, 4")
    o.append("    addi ra, ra, 2")
    o.append("    bne ra, a7, 2b")
    epilogue(o, name, TMP)

    for nm, words in tabs.items():
        table(o, nm, words)
    sys.stdout.write("\n".join(o) + "\n")


def rebase(body: list[str], reg: str = "a2") -> list[str]:
    """renumber the twiddle loads `lw t3, N(reg)` of a pass body as consecutive words"""
    out = []
    n = 0
    for ln in body:
        if ln.startswith("    lw t3, ") and ln.endswith(f"({reg})"):
            out.append(f"    lw t3, {4 * n}({reg})")
            n += 1
        else:
            out.append(ln)
    return out


if __name__ == "__main__":
    main()
