# SPDX-License-Identifier: MIT
"""Writes mldsa_ntt16.S: ML-DSA's small-modulus NTT for ARMv7E-M (Cortex-M4/M7), the
kernels poly_ntt16 and poly_mul16_add of lib/mldsa/kernels.h (C versions in
lib/mldsa/ntt16.c; modulus, twiddles and int16 bounds in lib/mldsa/gen_ntt16.py, whose
numbers this script recomputes from p = 7681 and the root 62).

Run `python3 gen_mldsa_ntt16.py > mldsa_ntt16.S` after editing; a test checks that the
committed file is this script's output.

Same arithmetic as the C, per coefficient and in the same order of operations, so the
outputs are bit for bit those of ntt16.c; two coefficients per register (int16 halves):
- 16-bit Montgomery product of both halves of x with the bottom half of z (ARMv7-M ARM
  DDI 0403, SMULxy / SMLAxy / PKHTB): p0 = x.lo z, p1 = x.hi z (SMULBB, SMULTB);
  m = p.lo (-p^-1) (SMULBB with K.bottom = 7679); p + m.lo p (SMLABT with K.top = 7681)
  has a zero bottom half and mont16(p) in its top half; PKHTB packs the two results.
  Seven instructions per pair, K = (7681 << 16) | 7679 in r9;
- butterflies of the layers len >= 2 on packed pairs: SADD16 / SSUB16 (no overflow: the
  bounds of gen_ntt16.py keep every value inside int16);
- the layer len = 1 inside a word: forward t = mont16(z x.hi), (lo + t, lo - t) by PKHBT
  (lo, lo), PKHTB (t, t), SSAX; inverse SSAX (x, x) = (lo + hi, hi - lo), then
  mont16(zeta16 (hi - lo)) = mont16(-zeta16 (lo - hi)) into the top half by PKHBT;
- the reductions of ntt16.c (mont16 of every coefficient) by SXTH / ASR and the same
  Montgomery step;
- three layers per pass (3 + 3 + 2 forward, 2 + 3 + 3 inverse), eight registers of two
  coefficients each; the pointwise product is fused into the first inverse pass, the
  last layer merged with the final scaling (F on the sums, F_LAST = -zeta16[1] F 2^-16 on
  the differences) and base + x (int32 output) into the last pass; the inverse keeps its
  int16 intermediate in 512 bytes of stack;
- twiddles of a pass in FPU registers s0-s11 (VLDM once per group, VMOV per butterfly);
  only s0-s15 (caller-saved, AAPCS) are used.
No branch or address depends on data.
"""

from __future__ import annotations

import sys
from pathlib import Path

# the three-layer butterfly schedule is gen_mldsa_ntt.py's (same registers), with this file's butterflies
sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_mldsa_ntt import three_ct_layers, three_gs_layers  # noqa: E402

P = 7681
ROOT = 62
NINV = (-pow(P, -1, 1 << 16)) % (1 << 16)
K = (P << 16) | NINV


def brv8(m: int) -> int:
    return int(f"{m:08b}"[::-1], 2)


def centred(x: int) -> int:
    x %= P
    return x - P if x > P // 2 else x


Z = [centred(pow(ROOT, brv8(m), P) << 16) for m in range(256)]
F = centred(pow(1 << 16, 6, P) * pow(256, -1, P))
F_LAST = centred(-Z[1] * F * pow(1 << 16, -1, P))  # the last layer merged with the scaling

out: list[str] = []
R = [f"r{i}" for i in range(1, 9)]


def e(line: str) -> None:
    out.append("    " + line)


def const(reg: str, value: int) -> None:
    v = value & 0xFFFFFFFF
    e(f"movw {reg}, #{v & 0xFFFF}")
    e(f"movt {reg}, #{v >> 16}")


def mont_tail(p0: str, p1: str, m: str, dst: str) -> None:
    """p0, p1: 32-bit products; dst = (mont16(p1), mont16(p0)) packed"""
    e(f"smulbb {m}, {p0}, r9")
    e(f"smlabt {p0}, {m}, r9, {p0}")
    e(f"smulbb {m}, {p1}, r9")
    e(f"smlabt {p1}, {m}, r9, {p1}")
    e(f"pkhtb {dst}, {p1}, {p0}, asr #16")


def ct(a: str, b: str, s: int) -> None:
    """t = mont16(z b); b = a - t; a = a + t (both halves)"""
    e(f"vmov r14, s{s}")
    e(f"smulbb r10, {b}, r14")
    e(f"smultb r11, {b}, r14")
    mont_tail("r10", "r11", "r12", "r10")
    e(f"ssub16 {b}, {a}, r10")
    e(f"sadd16 {a}, {a}, r10")


def gs(a: str, b: str, s: int) -> None:
    """d = a - b; a = a + b; b = mont16(z d)"""
    e(f"vmov r14, s{s}")
    e(f"ssub16 r10, {a}, {b}")
    e(f"sadd16 {a}, {a}, {b}")
    e("smulbb r11, r10, r14")
    e("smultb r12, r10, r14")
    mont_tail("r11", "r12", "r10", b)


def ct_inword(w: str, s: int) -> None:
    e(f"vmov r14, s{s}")
    e(f"smultb r11, {w}, r14")
    e("smulbb r12, r11, r9")
    e("smlabt r11, r12, r9, r11")
    e(f"pkhbt r10, {w}, {w}, lsl #16")
    e("pkhtb r11, r11, r11, asr #16")
    e(f"ssax {w}, r10, r11")


def gs_inword(w: str, s: int) -> None:
    e(f"vmov r14, s{s}")
    e(f"ssax r10, {w}, {w}")
    e("smultb r11, r10, r14")
    e("smulbb r12, r11, r9")
    e("smlabt r11, r12, r9, r11")
    e(f"pkhbt {w}, r10, r11")


def reduce(x: str) -> None:
    e(f"sxth r10, {x}")
    e(f"asr.w r11, {x}, #16")
    mont_tail("r10", "r11", "r12", x)


def prologue(name: str, doc: str) -> None:
    out.append("")
    out.append(f"@ {doc}")
    e(f".global {name}")
    e(f".type {name}, %function")
    e(".p2align 2")
    out.append(f"{name}:")
    e("push.w {r4-r11, lr}")
    const("r9", K)


def table_ptr(label: str) -> None:
    e(f"movw r14, #:lower16:{label}")
    e(f"movt r14, #:upper16:{label}")


def loop_end(label: str, ptr: str, sreg: int) -> None:
    e(f"vmov r10, s{sreg}")
    e(f"cmp.w {ptr}, r10")
    e(f"bne.w {label}")


def gen_ntt16() -> list[int]:
    name = "pqlab_mldsa_ntt16_armv7em"
    prologue(name, f"void {name}(int16_t r[256], const int32_t a[256]): mldsa_poly_ntt16_c")
    tab: list[int] = []
    # layers len 128, 64, 32 on the words j + 16 k (coefficients 2j, 2j + 1 + 32 k),
    # j = 0..15, read from the int32 input
    tab += Z[1:8]
    table_ptr("mldsa_ntt16_zetas")
    e("vldm r14!, {s0-s6}")
    e("vmov s9, r14")
    e("vmov s7, r1")
    e("add.w r10, r0, #64")
    e("vmov s8, r10")
    out.append("1:")
    e("vmov r14, s7")
    for k in range(8):
        e(f"ldrd r10, r11, [r14, #{128 * k}]")
        e(f"pkhbt {R[k]}, r10, r11, lsl #16")
    e("add.w r14, r14, #8")
    e("vmov s7, r14")
    three_ct_layers(list(range(7)), ct)
    for k in range(8):
        e(f"str.w {R[k]}, [r0, #{64 * k}]")
    e("add.w r0, r0, #4")
    loop_end("1b", "r0", 8)
    e("sub.w r0, r0, #64")
    # layers len 16, 8, 4: block g of 32 coefficients (16 words), passes c = 0, 1 on the
    # words 16 g + c + 2 k; zetas 8 + g, 16 + 2g (+1), 32 + 4g (+0..3)
    for g in range(8):
        tab += [Z[8 + g], Z[16 + 2 * g], Z[17 + 2 * g]] + Z[32 + 4 * g : 36 + 4 * g]
    e("add.w r10, r0, #512")
    e("vmov s8, r10")
    out.append("2:")
    e("vmov r14, s9")
    e("vldm r14!, {s0-s6}")
    e("vmov s9, r14")
    for c in range(2):
        for k in range(8):
            e(f"ldr.w {R[k]}, [r0, #{4 * (c + 2 * k)}]")
        three_ct_layers(list(range(7)), ct)
        for k in range(8):
            e(f"str.w {R[k]}, [r0, #{4 * (c + 2 * k)}]")
    e("add.w r0, r0, #64")
    loop_end("2b", "r0", 8)
    e("sub.w r0, r0, #512")
    # reduction, then layers len 2 and 1 on eight consecutive words (16 coefficients,
    # pass i = 0..15); zetas 64 + 4i (+0..3), 128 + 8i (+0..7)
    for i in range(16):
        tab += Z[64 + 4 * i : 68 + 4 * i] + Z[128 + 8 * i : 136 + 8 * i]
    e("add.w r10, r0, #512")
    e("vmov s13, r10")
    e("vmov r14, s9")
    e("vmov s12, r14")
    out.append("3:")
    e("vmov r14, s12")
    e("vldm r14!, {s0-s11}")
    e("vmov s12, r14")
    e("ldm.w r0, {r1-r8}")
    for x in R:
        reduce(x)
    for m in range(4):
        ct(R[2 * m], R[2 * m + 1], m)
    for w in range(8):
        ct_inword(R[w], 4 + w)
    e("stm.w r0!, {r1-r8}")
    loop_end("3b", "r0", 13)
    e("pop.w {r4-r11, pc}")
    e(f".size {name}, . - {name}")
    return tab


def gen_mul16_add() -> list[int]:
    name = "pqlab_mldsa_mul16_add_armv7em"
    prologue(
        name,
        f"void {name}(int32_t r[256], const int32_t base[256], const int16_t a[256], const int16_t b[256]):"
        " mldsa_poly_mul16_add_c",
    )
    tab: list[int] = []
    # stack: 512 bytes of int16 intermediate at sp, then r and base
    e("sub.w sp, sp, #520")
    e("str.w r0, [sp, #512]")
    e("str.w r1, [sp, #516]")
    e("vmov s14, r2")
    e("vmov s15, r3")
    e("mov.w r0, sp")
    table_ptr("mldsa_mul16_zetas")
    e("vmov s12, r14")
    # pointwise product, inverse layers len 1 and 2, reduction: pass i on eight
    # consecutive words; zetas16[255 - 8i - w] (in-word form), -zetas16[127 - 4i - m]
    for i in range(16):
        tab += [Z[255 - 8 * i - w] for w in range(8)] + [-Z[127 - 4 * i - m] for m in range(4)]
    out.append("1:")
    e("vmov r14, s14")
    e("ldm.w r14!, {r1-r8}")
    e("vmov s14, r14")
    e("vmov r14, s15")
    for x in R:
        e("ldr.w r12, [r14], #4")
        e(f"smulbb r10, {x}, r12")
        e(f"smultt r11, {x}, r12")
        mont_tail("r10", "r11", "r12", x)
    e("vmov s15, r14")
    e("vmov r14, s12")
    e("vldm r14!, {s0-s11}")
    e("vmov s12, r14")
    for w in range(8):
        gs_inword(R[w], w)
    for m in range(4):
        gs(R[2 * m], R[2 * m + 1], 8 + m)
    for x in R:
        reduce(x)
    e("stm.w r0!, {r1-r8}")
    e("add.w r10, sp, #512")
    e("cmp.w r0, r10")
    e("bne.w 1b")
    e("mov.w r0, sp")
    # inverse layers len 4, 8, 16, reduction: block g, passes c = 0, 1 on the words
    # 16 g + c + 2 k
    for g in range(8):
        tab += [-Z[63 - 4 * g - m] for m in range(4)] + [-Z[31 - 2 * g - h] for h in range(2)] + [-Z[15 - g]]
    out.append("2:")
    e("vmov r14, s12")
    e("vldm r14!, {s0-s6}")
    e("vmov s12, r14")
    for c in range(2):
        for k in range(8):
            e(f"ldr.w {R[k]}, [r0, #{4 * (c + 2 * k)}]")
        three_gs_layers(list(range(7)), gs)
        for x in R:
            reduce(x)
        for k in range(8):
            e(f"str.w {R[k]}, [r0, #{4 * (c + 2 * k)}]")
    e("add.w r0, r0, #64")
    e("add.w r10, sp, #512")
    e("cmp.w r0, r10")
    e("bne.w 2b")
    e("mov.w r0, sp")
    # inverse layers len 32, 64 on the words j + 16 k, then the layer len 128 merged with the
    # scaling: x = mont16(F (u + v)), mont16(F_LAST (u - v)); r = base + x (int32;
    # coefficient 2j + 32k at byte 8j + 128k)
    tab += [-Z[7 - m] for m in range(4)] + [-Z[3 - h] for h in range(2)] + [F, F_LAST]
    e("vmov r14, s12")
    e("vldm r14, {s0-s7}")
    e("ldr.w r10, [sp, #512]")
    e("vmov s8, r10")
    e("ldr.w r10, [sp, #516]")
    e("vmov s9, r10")
    out.append("3:")
    for k in range(8):
        e(f"ldr.w {R[k]}, [r0, #{64 * k}]")
    for p in range(4):
        gs(R[2 * p], R[2 * p + 1], p)
    for h in range(2):
        for k in range(2):
            gs(R[4 * h + k], R[4 * h + k + 2], 4 + h)
    for k in range(4):
        e(f"ssub16 r10, {R[k]}, {R[k + 4]}")
        e(f"sadd16 {R[k]}, {R[k]}, {R[k + 4]}")
        e(f"mov.w {R[k + 4]}, r10")
    for half, s in ((R[:4], 6), (R[4:], 7)):
        e(f"vmov r14, s{s}")
        for x in half:
            e(f"smulbb r10, {x}, r14")
            e(f"smultb r11, {x}, r14")
            mont_tail("r10", "r11", "r12", x)
    e("vmov r12, s9")
    e("vmov r14, s8")
    for k, x in enumerate(R):
        e(f"ldrd r10, r11, [r12, #{128 * k}]")
        e(f"add.w r11, r11, {x}, asr #16")
        e(f"sxth {x}, {x}")
        e(f"add.w r10, r10, {x}")
        e(f"strd r10, r11, [r14, #{128 * k}]")
    e("add.w r12, r12, #8")
    e("vmov s9, r12")
    e("add.w r14, r14, #8")
    e("vmov s8, r14")
    e("add.w r0, r0, #4")
    e("add.w r10, sp, #64")
    e("cmp.w r0, r10")
    e("bne.w 3b")
    e("add.w sp, sp, #520")
    e("pop.w {r4-r11, pc}")
    e(f".size {name}, . - {name}")
    return tab


def table(label: str, values: list[int]) -> None:
    e(".p2align 2")
    out.append(f"{label}:")
    for i in range(0, len(values), 8):
        e(".word " + ", ".join(str(v & 0xFFFF) for v in values[i : i + 8]))
    e(f".size {label}, . - {label}")


def main() -> None:
    assert pow(ROOT, 256, P) == P - 1 and NINV == 7679 and F == 183 and F_LAST == -3072
    out.append("@ SPDX-License-Identifier: MIT")
    out.append("@ generated by gen_mldsa_ntt16.py; do not edit (see its docstring and mldsa_native.h)")
    out.append('#include "pqlab_config.h" /* an export\'s symbol namespace (docs/export.md); empty in the tree */')
    e(".syntax unified")
    e(".thumb")
    e(".text")
    ntt_tab = gen_ntt16()
    mul_tab = gen_mul16_add()
    out.append("")
    e('.section .rodata.mldsa_ntt16_zetas, "a"')
    table("mldsa_ntt16_zetas", ntt_tab)
    table("mldsa_mul16_zetas", mul_tab)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
