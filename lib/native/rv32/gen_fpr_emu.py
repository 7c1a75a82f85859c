#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate fpr_emu.S: FN-DSA's emulated binary64 (lib/fndsa/fpr_emu.c) for plain RV32IM,
the kernels of PQLAB_FNDSA_FPR_EMU_NATIVE (lib/native/api.h): of, add, addsub, mul, div,
sqrt, bit for bit the results of the C for every input.

Usage: python3 gen_fpr_emu.py > fpr_emu.S

The same steps as the C on 32-bit words (ILP32: a 64-bit value in a register pair, low word
first; x in a0:a1, y in a2:a3, results in a0:a1, addsub's pointers in a4, a5). RV32 has no
flags: a carry is `sltu` of the sum against an addend, a borrow `sltu` of the minuend against
the subtrahend. Constant time: no branch on data (selections are masks, `seqz`/`snez` make
the masks, shifts by a variable count are the barrel shifter's `sll`/`srl`, one cycle on the
CV32E40P whatever the count), no data-dependent address; the only branches are the fixed
56 / 55 iterations of the restoring division and the square root. Leaf functions on the
temporaries (a0-a7, t0-t6): no stack. The 106-bit product of mul takes four `mul` and four
`mulhu` (5 cycles each on the CV32E40P, data-independent)."""

from __future__ import annotations

import sys

from rv32asm import function_head


class Emit:
    def __init__(self) -> None:
        self.o: list[str] = []

    def __call__(self, *lines: str) -> None:
        self.o.extend(f"    {ln}" for ln in lines)

    def comment(self, text: str) -> None:
        self.o.append(f"    /* {text} */")

    def label(self, name: str) -> None:
        self.o.append(f"{name}:")


def func(e: Emit, name: str, proto: str) -> None:
    function_head(e.o, name, proto)


def end(e: Emit, name: str) -> None:
    e("ret")
    e.o.append(f"    .size {name}, .-{name}")


def norm64(e: Emit, lo: str, hi: str, cnt: str) -> None:
    """fpr_norm64: shift lo:hi left until bit 63 is set (six masked steps), count in cnt
    (63 for zero). Temporaries t0-t2."""
    e.comment(f"normalise {lo}:{hi} to bit 63, count in {cnt}")
    # step 32: hi == 0 -> the low word moves up
    e(f"seqz t0, {hi}", f"slli {cnt}, t0, 5", "neg t1, t0", f"xor t2, {hi}, {lo}", "and t2, t2, t1")
    e(f"xor {hi}, {hi}, t2", "addi t0, t0, -1", f"and {lo}, {lo}, t0")
    for k, lg in ((16, 4), (8, 3), (4, 2), (2, 1), (1, 0)):
        # the top k bits zero -> shift by k (sh = k or 0, a barrel shift either way)
        e(f"srli t0, {hi}, {32 - k}", "seqz t0, t0")
        if lg:
            e(f"slli t0, t0, {lg}")
        e(f"add {cnt}, {cnt}, t0", f"sll {hi}, {hi}, t0", f"srli t1, {lo}, 1", "xori t2, t0, 31")
        e("srl t1, t1, t2", f"or {hi}, {hi}, t1", f"sll {lo}, {lo}, t0")


def build(e: Emit, s: str | None, ex: str, zl: str, zh: str, ol: str, oh: str) -> None:
    """fpr_build with the biased exponent E = e + 1077 in ex: the value zl:zh * 2^e,
    2^54 <= z < 2^55 (else zero: flush), rounded to nearest even, sign s (None: +),
    into ol:oh. Clobbers s, ex, zl, zh, t0-t2."""
    e.comment("fpr_build: round (bits 2..0 = x11 or 11x: up), pack, flush when not normal")
    e(f"srli t0, {zh}, 22", "andi t0, t0, 1", f"neg t1, {ex}", "srli t1, t1, 31", "and t0, t0, t1")
    e("neg t0, t0")
    e(f"andi t1, {zl}, 7", "li t2, 0xC8", "srl t2, t2, t1", "andi t2, t2, 1")
    e(f"srli {zl}, {zl}, 2", f"slli t1, {zh}, 30", f"or {zl}, {zl}, t1", f"srli {zh}, {zh}, 2")
    e(f"add {zl}, {zl}, t2", f"sltu t2, {zl}, t2", f"add {zh}, {zh}, t2")
    e(f"addi {ex}, {ex}, -1", f"slli {ex}, {ex}, 20", f"add {zh}, {zh}, {ex}")
    e(f"and {ol}, {zl}, t0", f"and {zh}, {zh}, t0")
    if s is None:
        e(f"mv {oh}, {zh}")
    else:
        e(f"slli {s}, {s}, 31", f"add {oh}, {zh}, {s}")


def build63(e: Emit, s: str, ex: str, lo: str, hi: str, ol: str, oh: str) -> None:
    """fold9 then build for a value normalised to bit 63 (or zero): the significand is bits
    63..11, the round bit 10, the sticky bit (bits 9..0 != 0) the C's bit 0 after its fold;
    round up when round and (sticky or lsb). Clobbers s, ex, lo, hi, t0-t2."""
    e.comment("fpr_build from bit 63: round (round bit and (sticky or lsb): up), pack, flush")
    e(f"srli t0, {hi}, 31", f"neg t1, {ex}", "srli t1, t1, 31", "and t0, t0, t1", "neg t0, t0")
    e(f"andi t1, {lo}, 0x3FF", "snez t1, t1", f"srli t2, {lo}, 11", "or t1, t1, t2")
    e(f"srli t2, {lo}, 10", "and t1, t1, t2", "andi t1, t1, 1")
    e(f"srli {lo}, {lo}, 11", f"slli t2, {hi}, 21", f"or {lo}, {lo}, t2", f"srli {hi}, {hi}, 11")
    e(f"add {lo}, {lo}, t1", f"sltu t1, {lo}, t1", f"add {hi}, {hi}, t1")
    e(f"addi {ex}, {ex}, -1", f"slli {ex}, {ex}, 20", f"add {hi}, {hi}, {ex}")
    e(f"and {ol}, {lo}, t0", f"and {hi}, {hi}, t0", f"slli {s}, {s}, 31", f"add {oh}, {hi}, {s}")


def zero_sign(e: Emit, s: str, s0: str, zl: str, zh: str, tmp: str, tmp2: str) -> None:
    """s = s0 when zl:zh == 0 (an exact zero's sign), else s. Clobbers tmp, tmp2."""
    e(f"or {tmp}, {zl}, {zh}", f"seqz {tmp}, {tmp}", f"neg {tmp}, {tmp}", f"xor {tmp2}, {s}, {s0}")
    e(f"and {tmp2}, {tmp2}, {tmp}", f"xor {s}, {s}, {tmp2}")


def finish(e: Emit, s: str, ex: str, zl: str, zh: str, cnt: str, ol: str, oh: str) -> None:
    """add_finish with the final sign in s: normalise zl:zh (< 2^57), fold, E = ex + 8 - cnt,
    build into ol:oh. ex is kept; clobbers s, zl, zh, cnt, t0-t2."""
    norm64(e, zl, zh, cnt)
    e(f"sub {cnt}, {ex}, {cnt}", f"addi {cnt}, {cnt}, 8")
    build63(e, s, cnt, zl, zh, ol, oh)


def unpack(e: Emit, lo: str, hi: str, ex: str, mask: bool = True) -> None:
    """ex = the exponent field of lo:hi; lo:hi = its 53-bit significand (implicit bit
    set), zero when ex == 0 if mask. Clobbers t0, t1."""
    e(f"srli {ex}, {hi}, 20", f"andi {ex}, {ex}, 0x7FF")
    e(f"slli {hi}, {hi}, 12", f"srli {hi}, {hi}, 12")
    if mask:
        e(f"snez t0, {ex}", "neg t1, t0", "slli t0, t0, 20", f"or {hi}, {hi}, t0")
        e(f"and {hi}, {hi}, t1", f"and {lo}, {lo}, t1")
    else:
        e("lui t0, 0x100", f"or {hi}, {hi}, t0")


def unpack3(e: Emit, lo: str, hi: str, ex: str) -> None:
    """unpack, then the significand << 3 (in [2^55, 2^56) or zero). Clobbers t0, t1."""
    e(f"srli {ex}, {hi}, 20", f"andi {ex}, {ex}, 0x7FF", f"snez t0, {ex}", "neg t1, t0")
    e(f"slli {hi}, {hi}, 12", f"srli {hi}, {hi}, 9", "slli t0, t0, 23", f"or {hi}, {hi}, t0")
    e(f"srli t0, {lo}, 29", f"or {hi}, {hi}, t0", f"slli {lo}, {lo}, 3")
    e(f"and {hi}, {hi}, t1", f"and {lo}, {lo}, t1")


def shl(e: Emit, lo: str, hi: str, k: int, tmp: str) -> None:
    e(f"slli {hi}, {hi}, {k}", f"srli {tmp}, {lo}, {32 - k}", f"or {hi}, {hi}, {tmp}", f"slli {lo}, {lo}, {k}")


def add_align(e: Emit) -> None:
    """add_align: x a0:a1, y a2:a3 -> am a0:a1, bm a2:a3 (aligned, sticky in bit 0),
    ex t3, cs t5 (1 when |x| < |y|), the original signs sx a6, sy a7. Clobbers t0-t2, t4, t6."""
    e.comment("signs; cs = |x| < |y| (the borrow of the 63-bit magnitudes)")
    e("srli a6, a1, 31", "srli a7, a3, 31")
    e("slli t0, a1, 1", "srli t0, t0, 1", "slli t1, a3, 1", "srli t1, t1, 1")
    e("sltu t2, a0, a2", "sub t0, t0, t1", "sub t0, t0, t2", "srli t5, t0, 31")
    e.comment("swap so that |x| >= |y|")
    e("neg t0, t5", "xor t1, a0, a2", "and t1, t1, t0", "xor a0, a0, t1", "xor a2, a2, t1")
    e("xor t1, a1, a3", "and t1, t1, t0", "xor a1, a1, t1", "xor a3, a3, t1")
    e.comment("significands with 3 extra low bits, in [2^55, 2^56) or zero")
    unpack3(e, "a0", "a1", "t3")
    unpack3(e, "a2", "a3", "t4")
    e.comment("d = min(ex - ey, 60); y >> d with the lost bits in the sticky bit 0")
    e("sub t4, t3, t4", "sltiu t0, t4, 61", "addi t0, t0, -1", "xori t1, t4, 60", "and t1, t1, t0")
    e("xor t4, t4, t1")
    e("srli t0, t4, 5", "neg t0, t0", "and t1, a2, t0")  # d >= 32: the whole low word is lost
    e("xor t2, a2, a3", "and t2, t2, t0", "xor a2, a2, t2", "not t2, t0", "and a3, a3, t2")
    e("andi t4, t4, 31", "xori t2, t4, 31")
    e("slli t6, a2, 1", "sll t6, t6, t2", "or t1, t1, t6", "snez t1, t1")  # low n bits of lo
    e("srl a2, a2, t4", "slli t6, a3, 1", "sll t6, t6, t2", "or a2, a2, t6", "srl a3, a3, t4")
    e("or a2, a2, t1")


def gen_of(e: Emit) -> None:
    name = "pqlab_fndsa_fpr_of_native"
    func(e, name, "uint64_t pqlab_fndsa_fpr_of_native(int64_t i)")
    e.comment("|i| (2^63 fits), sign in t5")
    e("srli t5, a1, 31", "neg t0, t5", "xor a0, a0, t0", "xor a1, a1, t0")
    e("add a0, a0, t5", "sltu t1, a0, t5", "add a1, a1, t1")
    norm64(e, "a0", "a1", "t4")
    e.comment("E = 9 - cnt + 1077")
    e("li t3, 1086", "sub t3, t3, t4")
    build63(e, "t5", "t3", "a0", "a1", "a0", "a1")
    end(e, name)


def gen_add(e: Emit) -> None:
    name = "pqlab_fndsa_fpr_add_native"
    func(e, name, "uint64_t pqlab_fndsa_fpr_add_native(uint64_t x, uint64_t y)")
    add_align(e)
    e.comment("subtract when the signs differ: bm = -bm; z = am + bm in [0, 2^57)")
    e("xor t0, a6, a7", "neg t1, t0", "xor a2, a2, t1", "xor a3, a3, t1")
    e("add a2, a2, t0", "sltu t2, a2, t0", "add a3, a3, t2")
    e("add a0, a0, a2", "sltu t2, a0, a2", "add a1, a1, a3", "add a1, a1, t2")
    e.comment("sign of the larger operand; an exact zero: -0 only when both are -0")
    e("and t1, t0, t5", "xor t5, a6, t1", "and a7, a6, a7")
    zero_sign(e, "t5", "a7", "a0", "a1", "t0", "t2")
    finish(e, "t5", "t3", "a0", "a1", "t4", "a0", "a1")
    end(e, name)


def gen_addsub(e: Emit) -> None:
    name = "pqlab_fndsa_fpr_addsub_native"
    func(e, name, "void pqlab_fndsa_fpr_addsub_native(uint64_t x, uint64_t y, uint64_t *sum, uint64_t *diff)")
    add_align(e)
    e.comment("signs: x + y t1 (zero: s0 a7), x - y t2 (zero: s0 t4)")
    e("xor t0, a6, a7", "and t1, t0, t5", "xor t1, a6, t1")
    e("xori t2, t0, 1", "and t2, t2, t5", "xor t2, a6, t2")
    e("xori t4, a7, 1", "and t4, a6, t4", "and a7, a6, a7")
    e.comment("zp = am + bm (t5:a6), zm = am - bm (a0:a1); swapped when the signs differ")
    e("add t5, a0, a2", "sltu t6, t5, a2", "add a6, a1, a3", "add a6, a6, t6")
    e("sltu t6, a0, a2", "sub a0, a0, a2", "sub a1, a1, a3", "sub a1, a1, t6")
    e("neg t0, t0", "xor a2, t5, a0", "and a2, a2, t0", "xor t5, t5, a2", "xor a0, a0, a2")
    e("xor a3, a6, a1", "and a3, a3, t0", "xor a6, a6, a3", "xor a1, a1, a3")
    e.comment("final signs: sum a3, difference a7")
    zero_sign(e, "t1", "a7", "t5", "a6", "t0", "a2")
    e("mv a3, t1")
    zero_sign(e, "t2", "t4", "a0", "a1", "t0", "a2")
    e("mv a7, t2")
    e.comment("x + y")
    finish(e, "a3", "t3", "t5", "a6", "t4", "t5", "a6")
    e("sw t5, 0(a4)", "sw a6, 4(a4)")
    e.comment("x - y")
    finish(e, "a7", "t3", "a0", "a1", "t4", "a0", "a1")
    e("sw a0, 0(a5)", "sw a1, 4(a5)")
    end(e, name)


def gen_mul(e: Emit) -> None:
    name = "pqlab_fndsa_fpr_mul_native"
    func(e, name, "uint64_t pqlab_fndsa_fpr_mul_native(uint64_t x, uint64_t y)")
    e("xor t5, a1, a3", "srli t5, t5, 31")
    unpack(e, "a0", "a1", "t3")
    unpack(e, "a2", "a3", "t4")
    e("add t3, t3, t4", "addi t3, t3, -1023")
    e.comment("P = xm ym (106 bits) = w3:w2:w1:w0 from four 32x32->64 products")
    e("mul t0, a0, a2", "mulhu t1, a0, a2", "mul t2, a0, a3", "mulhu t4, a0, a3")
    e("mul t6, a1, a2", "mulhu a4, a1, a2", "mul a5, a1, a3", "mulhu a6, a1, a3")
    e.comment("w1 = t1 (carries a7); x0 y1 and x1 y0 < 2^53: their high words < 2^21")
    e("add t1, t1, t2", "sltu a7, t1, t2", "add t1, t1, t6", "sltu t2, t1, t6", "add a7, a7, t2")
    e.comment("w2 = a7, w3 = a6")
    e("add a7, a7, t4", "add a7, a7, a4", "add a7, a7, a5", "sltu t2, a7, a5", "add a6, a6, t2")
    e.comment("top = bit 105; z = P >> (50 + top) with the lost bits sticky: [2^54, 2^55)")
    e("srli t4, a6, 9", "add t3, t3, t4", "addi t2, t4, 18", "neg t6, t4", "addi t6, t6, 14")
    e("sll a4, t1, t6", "or a4, a4, t0", "snez a4, a4")
    e("srl a0, t1, t2", "sll a1, a7, t6", "or a0, a0, a1", "or a0, a0, a4")
    e("srl a1, a7, t2", "sll a5, a6, t6", "or a1, a1, a5")
    build(e, "t5", "t3", "a0", "a1", "a0", "a1")
    end(e, name)


def shift_top(e: Emit, lo: str, hi: str, top: str) -> None:
    """z = (z >> top) | (z & top) for top 0 or 1 (bit 0 stays sticky). Clobbers t0, t1."""
    e(f"and t0, {lo}, {top}", f"srl {lo}, {lo}, {top}", f"slli t1, {hi}, 1", f"xori {top}, {top}, 31")
    e(f"sll t1, t1, {top}", f"xori {top}, {top}, 31", f"or {lo}, {lo}, t1", f"or {lo}, {lo}, t0")
    e(f"srl {hi}, {hi}, {top}")


def gen_div(e: Emit) -> None:
    name = "pqlab_fndsa_fpr_div_native"
    func(e, name, "uint64_t pqlab_fndsa_fpr_div_native(uint64_t x, uint64_t y)")
    e("xor t5, a1, a3", "srli t5, t5, 31")
    unpack(e, "a0", "a1", "t3")
    unpack(e, "a2", "a3", "t4", mask=False)
    e("sub t3, t3, t4", "addi t3, t3, 1022")
    e.comment("restoring division, 56 quotient bits: q a4:a5 = floor(xm 2^55 / ym), r a0:a1")
    e("li a4, 0", "li a5, 0", "li t6, 56")
    e.label("1")
    e("sltu t0, a0, a2", "sub t1, a0, a2", "sub t2, a1, a3", "sub t2, t2, t0")
    e("srli t0, t2, 31", "xori t0, t0, 1", "neg a6, t0")
    e("xor t1, t1, a0", "and t1, t1, a6", "xor a0, a0, t1")
    e("xor t2, t2, a1", "and t2, t2, a6", "xor a1, a1, t2")
    e("slli a5, a5, 1", "srli a7, a4, 31", "or a5, a5, a7", "slli a4, a4, 1", "or a4, a4, t0")
    shl(e, "a0", "a1", 1, "a7")
    e("addi t6, t6, -1", "bnez t6, 1b")
    e.comment("sticky = (r != 0); q in [2^54, 2^56): shift by top = bit 55")
    e("or t0, a0, a1", "snez t0, t0", "or a4, a4, t0")
    e("srli t4, a5, 23", "add t3, t3, t4")
    shift_top(e, "a4", "a5", "t4")
    build(e, "t5", "t3", "a4", "a5", "a0", "a1")
    end(e, name)


def gen_sqrt(e: Emit) -> None:
    name = "pqlab_fndsa_fpr_sqrt_native"
    func(e, name, "uint64_t pqlab_fndsa_fpr_sqrt_native(uint64_t x)")
    unpack(e, "a0", "a1", "t3")
    e.comment("ex even: m <<= 1 (m + m & mask); E' = ex - odd - 1131")
    e("andi t0, t3, 1", "xori t0, t0, 1", "sub t3, t3, t0", "addi t3, t3, -1131", "neg t0, t0")
    e("and t1, a0, t0", "and t2, a1, t0", "add a0, a0, t1", "sltu t1, a0, t1", "add a1, a1, t2")
    e("add a1, a1, t1")
    e.comment("m < 2^54 to the top (<< 10): each step takes the next bit pair from bits 63..62")
    shl(e, "a0", "a1", 10, "t0")
    e.comment("55 steps: rem a2:a3, y a4:a5")
    e("li a2, 0", "li a3, 0", "li a4, 0", "li a5, 0", "li t6, 55")
    e.label("1")
    e("slli a3, a3, 2", "srli t2, a2, 30", "or a3, a3, t2", "slli a2, a2, 2", "srli t2, a1, 30")
    e("or a2, a2, t2")
    shl(e, "a0", "a1", 2, "t2")
    e("slli t1, a5, 2", "srli t2, a4, 30", "or t1, t1, t2", "slli t0, a4, 2", "ori t0, t0, 1")
    e("sltu t2, a2, t0", "sub t0, a2, t0", "sub t1, a3, t1", "sub t1, t1, t2")
    e("srli t2, t1, 31", "xori t2, t2, 1", "neg t4, t2")
    e("xor t0, t0, a2", "and t0, t0, t4", "xor a2, a2, t0")
    e("xor t1, t1, a3", "and t1, t1, t4", "xor a3, a3, t1")
    e("slli a5, a5, 1", "srli a6, a4, 31", "or a5, a5, a6", "slli a4, a4, 1", "or a4, a4, t2")
    e("addi t6, t6, -1", "bnez t6, 1b")
    e.comment("sticky; E = (E' even) / 2 + 1077")
    e("or t0, a2, a3", "snez t0, t0", "or a4, a4, t0", "srai t3, t3, 1", "addi t3, t3, 1077")
    build(e, None, "t3", "a4", "a5", "a0", "a1")
    end(e, name)


def main() -> None:
    e = Emit()
    e.o.append("/* SPDX-License-Identifier: MIT */")
    e.o.append("/* Generated by gen_fpr_emu.py (python3 gen_fpr_emu.py > fpr_emu.S); do not edit.")
    e.o.append(" * FN-DSA emulated binary64 for RV32IM, bit for bit lib/fndsa/fpr_emu.c (docs/native.md). */")
    e.o.append("    .option norvc")
    for g in (gen_of, gen_add, gen_addsub, gen_mul, gen_div, gen_sqrt):
        g(e)
    sys.stdout.write("\n".join(e.o) + "\n")


if __name__ == "__main__":
    main()
