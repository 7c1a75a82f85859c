#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate keccakf1600.S: Keccak-f[1600] (FIPS 202 sections 3.2.1-3.2.5, Algorithm 7) for
plain RV32I on the bit-interleaved state of pqlab's Keccak module (lane i held as the two
words E, O: its even and odd bits; docs/native.md).

Usage: python3 gen_keccakf1600.py > keccakf1600.S

Technique (written here from FIPS 202): each round reads the 50 words of one buffer and
writes the next state into the other (the caller's state and 200 bytes of stack, ping-pong,
two rounds per loop pass). The column parities C of the next round are accumulated in ten
registers while the outputs are stored, so theta only combines them into D (ten registers).
An output plane is computed one half at a time: five loads, XOR with D, the rotation of rho
(for an odd offset n the halves swap: E' = rot(O, (n + 1) / 2), O' = rot(E, (n - 1) / 2); RV32I
has no rotate, three instructions each), then chi (not, and, xor per lane) and iota.
Register use: a0 state, t6 round constants, 10 D, 10 C, 5 B, 2 temporaries (ra, gp, tp and
s0-s11 saved on the stack, which also holds the second buffer: 272 bytes in all)."""

from __future__ import annotations

import sys

from rv32asm import function_head


def rho_offsets() -> list[int]:
    """FIPS 202 Algorithm 2: offsets (t + 1)(t + 2) / 2 mod 64 along (x, y) -> (y, 2x + 3y)."""
    r = [0] * 25
    x, y = 1, 0
    for t in range(24):
        r[x + 5 * y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return r


def round_constants() -> list[int]:
    """FIPS 202 Algorithms 5 and 6."""

    def rc(t: int) -> int:
        if t % 255 == 0:
            return 1
        r = [1, 0, 0, 0, 0, 0, 0, 0]
        for _ in range(t % 255):
            r = [0] + r
            r[0] ^= r[8]
            r[4] ^= r[8]
            r[5] ^= r[8]
            r[6] ^= r[8]
            r = r[:8]
        return r[0]

    return [sum(rc(j + 7 * ir) << ((1 << j) - 1) for j in range(7)) for ir in range(24)]


def interleave(v: int) -> tuple[int, int]:
    e = o = 0
    for k in range(32):
        e |= ((v >> (2 * k)) & 1) << k
        o |= ((v >> (2 * k + 1)) & 1) << k
    return e, o


RHO = rho_offsets()
D = [["s0", "s1"], ["s2", "s3"], ["s4", "s5"], ["s6", "s7"], ["s8", "s9"]]  # D[x][half]
C = [["s10", "s11"], ["a1", "a2"], ["a3", "a4"], ["a5", "a6"], ["a7", "t0"]]  # C[x][half]
B = ["t1", "t2", "t3", "t4", "t5"]
T, U, V = "ra", "gp", "tp"

# Lane complementing (the idea of the Keccak team's implementation overview, section 2.2):
# the lanes x + 5y listed here are held complemented between rounds, so chi needs 6 NOTs per
# half-state instead of 25 (chi_form picks and/or and the NOTs per lane; this set was the best
# of an exhaustive search over sets of up to six lanes, the rho/pi/theta complements included).
# The entry complements them, the exit undoes it.
PCOMP = [1 if i in (1, 7, 8, 14, 17, 22) else 0 for i in range(25)]
# complement of the column parities C[x] and of D[x] = C[x-1] ^ rot(C[x+1], 1)
CC = [sum(PCOMP[x + 5 * y] for y in range(5)) % 2 for x in range(5)]
CD = [CC[(x - 1) % 5] ^ CC[(x + 1) % 5] for x in range(5)]


def chi_form(p1: int, p2: int, k: int) -> tuple[str, int, int, int]:
    """How to compute g with g ^ k = ~y & z from y ^ p1, z ^ p2 (held): f(y' ^ n1, z' ^ n2) ^ n3,
    f in and/or, with the fewest NOTs (n1 + n2 + n3)"""
    best: tuple[int, tuple[str, int, int, int]] | None = None
    for f in ("and", "or"):
        for n1 in (0, 1):
            for n2 in (0, 1):
                for n3 in (0, 1):
                    ok = True
                    for yv in (0, 1):
                        for zv in (0, 1):
                            a, b = yv ^ p1 ^ n1, zv ^ p2 ^ n2
                            g = ((a & b) if f == "and" else (a | b)) ^ n3
                            if g ^ k != ((1 - yv) & zv):
                                ok = False
                    cost = n1 + n2 + n3
                    if ok and (best is None or cost < best[0]):
                        best = (cost, (f, n1, n2, n3))
    assert best is not None
    return best[1]


RC = "t6"
EBUF = 64  # the second buffer at sp + 64 (200 bytes)
FRAME = 272
SAVED = ["ra", "gp", "tp", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11"]


def emit_round(out: list[str], src: tuple[int, str], dst: tuple[int, str], rcoff: int) -> None:
    """One round from src (offset, base) to dst; C holds the column parities of src on entry
    and those of dst on exit."""
    so, sb = src
    do, db = dst
    # theta: D[x].E = C[x-1].E ^ rot1(C[x+1].O), D[x].O = C[x-1].O ^ C[x+1].E
    for x in range(5):
        cm, cp = C[(x - 1) % 5], C[(x + 1) % 5]
        out.append(f"    srli {T}, {cp[1]}, 31")
        out.append(f"    slli {D[x][0]}, {cp[1]}, 1")
        out.append(f"    xor {D[x][1]}, {cm[1]}, {cp[0]}")
        out.append(f"    or {D[x][0]}, {D[x][0]}, {T}")
        out.append(f"    xor {D[x][0]}, {D[x][0]}, {cm[0]}")
    for y in range(5):
        for h in range(2):
            srcs = []
            for x in range(5):
                i = (x + 3 * y) % 5 + 5 * x  # pi: A'[x, y] = A[(x + 3y) mod 5, x]
                r = RHO[i]
                if r % 2 == 0:
                    sh, amt = h, r // 2
                elif h == 0:
                    sh, amt = 1, (r + 1) // 2
                else:
                    sh, amt = 0, (r - 1) // 2
                srcs.append((i, sh, amt % 32))
            for x, (i, sh, _amt) in enumerate(srcs):
                out.append(f"    lw {B[x]}, {so + 8 * i + 4 * sh}({sb})")
            if y == 0 and h == 0:
                out.append(f"    lw {U}, {rcoff}({RC})")
            for x, (i, sh, _amt) in enumerate(srcs):
                out.append(f"    xor {B[x]}, {B[x]}, {D[i % 5][sh]}")
            for x, (_i, _sh, amt) in enumerate(srcs):
                if amt:
                    out.append(f"    srli {T}, {B[x]}, {32 - amt}")
                    out.append(f"    slli {B[x]}, {B[x]}, {amt}")
                    out.append(f"    or {B[x]}, {B[x]}, {T}")
            if y == 0 and h == 1:
                out.append(f"    lw {U}, {rcoff + 4}({RC})")
            # the complement flags of B (lane complementing, see PCOMP)
            pb = [PCOMP[i] ^ CD[i % 5] for (i, _sh, _amt) in srcs]
            for x in range(5):
                # chi: B[x] ^ (~B[x+1] & B[x+2]) on complemented operands; plane 0 writes the
                # new parities directly
                dreg = C[x][h] if y == 0 else T
                f, n1, n2, n3 = chi_form(pb[(x + 1) % 5], pb[(x + 2) % 5], pb[x] ^ PCOMP[x + 5 * y])
                u, v = B[(x + 1) % 5], B[(x + 2) % 5]
                if n1:
                    out.append(f"    not {T}, {u}")
                    u = T
                if n2:
                    out.append(f"    not {V}, {v}")
                    v = V
                out.append(f"    {f} {dreg}, {u}, {v}")
                out.append(f"    xor {dreg}, {dreg}, {B[x]}")
                if n3:
                    out.append(f"    not {dreg}, {dreg}")
                if y == 0 and x == 0:
                    out.append(f"    xor {dreg}, {dreg}, {U}")  # iota
                out.append(f"    sw {dreg}, {do + 8 * (x + 5 * y) + 4 * h}({db})")
                if y != 0:
                    out.append(f"    xor {C[x][h]}, {C[x][h]}, {T}")


SWAPS = [(1, "t5", "s0"), (2, "t6", "s1"), (4, "a6", "s2"), (8, "a7", "s3")]  # shift, mask, 1 + 2^shift
MASKS = {"t5": 0x22222222, "t6": 0x0C0C0C0C, "a6": 0x00F000F0, "a7": 0x0000FF00}


def delta_swap(o: list[str], x: str, t: str, k: int, m: str, c: str) -> None:
    """x = the bits of x under mask m swapped with those k places above them:
    t = (x ^ (x >> k)) & m; x ^= t ^ (t << k), the last as one product t (1 + 2^k) (t and
    t << k have no bit in common, so the sum is their XOR; MUL takes one cycle)"""
    o.append(f"    srli {t}, {x}, {k}")
    o.append(f"    xor {t}, {t}, {x}")
    o.append(f"    and {t}, {t}, {m}")
    o.append(f"    mul {t}, {t}, {c}")
    o.append(f"    xor {x}, {x}, {t}")


def conv_setup(o: list[str]) -> None:
    """masks and multipliers (s0-s3 saved on the stack)"""
    o.append("    addi sp, sp, -16")
    for i, (k, m, c) in enumerate(SWAPS):
        o.append(f"    sw {c}, {4 * i}(sp)")
        o.append(f"    li {m}, 0x{MASKS[m]:08x}")
        o.append(f"    li {c}, {1 + (1 << k)}")


def conv_return(o: list[str]) -> None:
    for i, (_k, _m, c) in enumerate(SWAPS):
        o.append(f"    lw {c}, {4 * i}(sp)")
    o.append("    addi sp, sp, 16")
    o.append("    ret")


def load_word(o: list[str], dst: str, base: str, off: int, aligned: bool) -> None:
    if aligned:
        o.append(f"    lw {dst}, {off}({base})")
        return
    o.append(f"    lbu {dst}, {off}({base})")
    for b in range(1, 4):
        o.append(f"    lbu a4, {off + b}({base})")
        o.append(f"    slli a4, a4, {8 * b}")
        o.append(f"    or {dst}, {dst}, a4")


def store_word(o: list[str], src: str, base: str, off: int, aligned: bool) -> None:
    if aligned:
        o.append(f"    sw {src}, {off}({base})")
        return
    for b in range(4):
        if b:
            o.append(f"    srli a4, {src}, {8 * b}")
            o.append(f"    sb a4, {off + b}({base})")
        else:
            o.append(f"    sb {src}, {off}({base})")


def emit_xor_il(o: list[str]) -> None:
    """a0 state (interleaved), a1 bytes, a2 lanes: lane v = lo | hi << 32 is unshuffled
    (even bits of each word to its low half, odd bits to its high half), then
    E = lo.even | hi.even << 16, O = lo.odd | hi.odd << 16 are XORed into the state."""
    name = "pqlab_keccak_native_xor_il"
    function_head(o, name, "void pqlab_keccak_native_xor_il(uint64_t *s, const uint8_t *in, unsigned int nlanes)")
    o.append("    beqz a2, 9f")
    conv_setup(o)
    o.append("    li a5, 0xffff0000")
    o.append("    andi a3, a1, 3")
    o.append("    bnez a3, 5f")
    for aligned, lab in ((True, "1"), (False, "5")):
        o.append(f"{lab}:")
        load_word(o, "t0", "a1", 0, aligned)
        load_word(o, "t1", "a1", 4, aligned)
        for k, m, c in SWAPS:
            delta_swap(o, "t0", "t2", k, m, c)
            delta_swap(o, "t1", "t3", k, m, c)
        o.append("    lw t3, 0(a0)")
        o.append("    lw t4, 4(a0)")
        o.append("    slli t2, t0, 16")
        o.append("    srli t2, t2, 16")  # lo.even
        o.append("    srli t0, t0, 16")  # lo.odd
        o.append("    xor t3, t3, t2")
        o.append("    slli t2, t1, 16")  # hi.even << 16
        o.append("    and t1, t1, a5")  # hi.odd << 16
        o.append("    xor t3, t3, t2")
        o.append("    xor t4, t4, t0")
        o.append("    xor t4, t4, t1")
        o.append("    sw t3, 0(a0)")
        o.append("    sw t4, 4(a0)")
        o.append("    addi a0, a0, 8")
        o.append("    addi a1, a1, 8")
        o.append("    addi a2, a2, -1")
        o.append(f"    bnez a2, {lab}b")
        conv_return(o)
    o.append("9:")
    o.append("    ret")
    o.append(f"    .size {name}, .-{name}")


def emit_extract_il(o: list[str]) -> None:
    """a0 bytes, a1 state (interleaved), a2 lanes: the inverse of xor_il's conversion"""
    name = "pqlab_keccak_native_extract_il"
    function_head(o, name, "void pqlab_keccak_native_extract_il(uint8_t *out, const uint64_t *s, unsigned int nlanes)")
    o.append("    beqz a2, 9f")
    conv_setup(o)
    o.append("    li a5, 0xffff0000")
    o.append("    andi a3, a0, 3")
    o.append("    bnez a3, 5f")
    for aligned, lab in ((True, "1"), (False, "5")):
        o.append(f"{lab}:")
        o.append("    lw t3, 0(a1)")  # E
        o.append("    lw t4, 4(a1)")  # O
        o.append("    slli t0, t3, 16")
        o.append("    srli t0, t0, 16")
        o.append("    slli t2, t4, 16")
        o.append("    or t0, t0, t2")  # lo = E.low | O.low << 16
        o.append("    srli t1, t3, 16")
        o.append("    and t4, t4, a5")
        o.append("    or t1, t1, t4")  # hi = E.high | O.high << 16
        for k, m, c in reversed(SWAPS):
            delta_swap(o, "t0", "t2", k, m, c)
            delta_swap(o, "t1", "t3", k, m, c)
        store_word(o, "t0", "a0", 0, aligned)
        store_word(o, "t1", "a0", 4, aligned)
        o.append("    addi a0, a0, 8")
        o.append("    addi a1, a1, 8")
        o.append("    addi a2, a2, -1")
        o.append(f"    bnez a2, {lab}b")
        conv_return(o)
    o.append("9:")
    o.append("    ret")
    o.append(f"    .size {name}, .-{name}")


def main() -> None:
    rcs = round_constants()
    o: list[str] = []
    o.append("/* SPDX-License-Identifier: MIT */")
    o.append("/* Generated by gen_keccakf1600.py (python3 gen_keccakf1600.py > keccakf1600.S); do not edit.")
    o.append(" * Keccak-f[1600] on the bit-interleaved state, plain RV32I (FIPS 202; docs/native.md). */")
    o.append("    .text")
    o.append("    .option norvc")
    o.append('    .section .rodata.pqlab_keccak_rc_rv32,"a",@progbits')
    o.append("    .p2align 2")
    o.append("pqlab_keccak_rc_rv32:")
    for v in rcs:
        e, od = interleave(v)
        o.append(f"    .word 0x{e:08x}, 0x{od:08x}")
    o.append("pqlab_keccak_rc_rv32_end:")
    o.append("")
    o.append("/* void pqlab_keccakf1600_native_il(uint64_t s[25]) */")
    o.append('    .section .text.pqlab_keccakf1600_native_il,"ax",@progbits')
    o.append("    .globl pqlab_keccakf1600_native_il")
    o.append("    .type pqlab_keccakf1600_native_il, @function")
    o.append("    .p2align 2")
    o.append("pqlab_keccakf1600_native_il:")
    o.append(f"    addi sp, sp, -{FRAME}")
    for k, r in enumerate(SAVED):
        o.append(f"    sw {r}, {4 * k}(sp)")
    # complement the lanes of PCOMP
    for i in range(25):
        if PCOMP[i]:
            for h in range(2):
                o.append(f"    lw {T}, {8 * i + 4 * h}(a0)")
                o.append(f"    not {T}, {T}")
                o.append(f"    sw {T}, {8 * i + 4 * h}(a0)")
    # column parities of the input
    for x in range(5):
        for h in range(2):
            regs = B[:5]
            for y in range(5):
                o.append(f"    lw {regs[y]}, {8 * (x + 5 * y) + 4 * h}(a0)")
            o.append(f"    xor {C[x][h]}, {regs[0]}, {regs[1]}")
            o.append(f"    xor {C[x][h]}, {C[x][h]}, {regs[2]}")
            o.append(f"    xor {C[x][h]}, {C[x][h]}, {regs[3]}")
            o.append(f"    xor {C[x][h]}, {C[x][h]}, {regs[4]}")
    o.append(f"    la {RC}, pqlab_keccak_rc_rv32")
    o.append("1:")
    emit_round(o, (0, "a0"), (EBUF, "sp"), 0)
    emit_round(o, (EBUF, "sp"), (0, "a0"), 8)
    o.append(f"    addi {RC}, {RC}, 16")
    o.append(f"    la {T}, pqlab_keccak_rc_rv32_end")
    o.append(f"    bne {RC}, {T}, 1b")
    for i in range(25):
        if PCOMP[i]:
            for h in range(2):
                o.append(f"    lw {T}, {8 * i + 4 * h}(a0)")
                o.append(f"    not {T}, {T}")
                o.append(f"    sw {T}, {8 * i + 4 * h}(a0)")
    # clear the stack copy of the state
    for k in range(50):
        o.append(f"    sw zero, {EBUF + 4 * k}(sp)")
    for k, r in enumerate(SAVED):
        o.append(f"    lw {r}, {4 * k}(sp)")
    o.append(f"    addi sp, sp, {FRAME}")
    o.append("    ret")
    o.append("    .size pqlab_keccakf1600_native_il, .-pqlab_keccakf1600_native_il")
    emit_xor_il(o)
    emit_extract_il(o)
    sys.stdout.write("\n".join(o) + "\n")


if __name__ == "__main__":
    main()
