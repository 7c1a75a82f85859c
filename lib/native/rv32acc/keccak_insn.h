/* SPDX-License-Identifier: MIT */
/* The custom-0 Keccak instructions of cv32e40p-acc-rtl / cv32e40p-acc-sim (pqlab's build-time
 * patch of the core, hw/cv32e40p/keccak-insn.patch; docs/accel.md, "Keccak instructions").
 * The unit holds one 1600-bit state as 50 little-endian words (word 2i the low half of lane
 * i = x + 5y, word 2i+1 the high half); an instruction names a word by the byte offset
 * rs1 + imm (its bits 7..2; words 50..63 read as 0 and ignore writes):
 *   kxw  rs2, imm(rs1)  S-type, funct3 0: word ^= rs2
 *   ksw  rs2, imm(rs1)  S-type, funct3 1: word = rs2
 *   klw  rd, imm(rs1)   I-type, funct3 2: rd = word
 *   kperm               I-type, funct3 3, all other fields 0: start Keccak-f[1600]
 * Any of them waits in the core's EX stage while a permutation runs (24 cycles after kperm).
 * The macros are volatile asm statements, so the compiler keeps their order. */
#ifndef PQLAB_RV32ACC_KECCAK_INSN_H
#define PQLAB_RV32ACC_KECCAK_INSN_H

#include <stdint.h>

/* off: a constant byte offset (-2048..2047), base: a register value added to it */
#define PQLAB_KXW(v, off, base)                                                                                        \
    __asm__ volatile(".insn s 0x0b, 0, %0, %1(%2)" : : "r"((uint32_t)(v)), "i"(off), "r"(base))
#define PQLAB_KSW(v, off, base)                                                                                        \
    __asm__ volatile(".insn s 0x0b, 1, %0, %1(%2)" : : "r"((uint32_t)(v)), "i"(off), "r"(base))
#define PQLAB_KLW(dst, off, base) __asm__ volatile(".insn i 0x0b, 2, %0, %2, %1" : "=r"(dst) : "i"(off), "r"(base))
#define PQLAB_KPERM() __asm__ volatile(".insn i 0x0b, 3, x0, x0, 0")

#endif
