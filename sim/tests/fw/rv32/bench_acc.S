# SPDX-License-Identifier: MIT
# Timing micro-benchmarks of the accelerators (cv32e40p-acc-rtl / machine cv32e40p-acc;
# docs/accel.md): the data-port slot rule on the NTT unit at 0x10010000 (t4; memory A at
# 0x10011000, t6; MODE = FN-DSA with logn 2, so a pointwise product of 4 words, CTRL = 3, keeps the unit
# busy for 15 cycles; an access while it runs waits), and the custom Keccak instructions. Each function
# returns the mcycle difference around its body, like bench.S (bench_main.c prints them with
# -DPQLAB_BENCH_ACC); the expected body cycles and their rules are in
# tests/test_accel_keccak.py, and the slow test there compares the RTL with the model.
	.text
	.option norelax
	.option norvc

	.macro ABENCH name
	.option rvc
	.balign 4
	.option norvc
	.global bench_\name
	.type bench_\name, @function
bench_\name:
	li t4, 0x10010000
	li t6, 0x10011000
	li a3, 0x202
	sw a3, 0(t4)
	li a3, 3
	li a1, 1
	li a2, 2
	nop
	nop
	csrr a0, mcycle
	.endm

	.macro ASTOP
	csrr t5, mcycle
	sub a0, t5, a0
	ret
	.endm

	.macro NOPS n
	.rept \n
	nop
	.endr
	.endm

	# the NTT unit's slot: CTRL (offset 4) = 3 starts a pointwise product of 2 words
	ABENCH acc_ntt_sw
	.rept 10
	sw a1, 0(t6)
	.endr
	ASTOP

	ABENCH acc_ntt_lw
	.rept 10
	lw a5, 4(t6)
	.endr
	ASTOP

	ABENCH acc_ntt_lw_use
	.rept 5
	lw a5, 8(t6)
	add a6, a5, a5
	.endr
	ASTOP

	ABENCH acc_ntt_start_lw
	sw a3, 4(t4)
	lw a5, 0(t6)
	ASTOP

	ABENCH acc_ntt_start_gap4
	sw a3, 4(t4)
	NOPS 4
	lw a5, 0(t6)
	ASTOP

	ABENCH acc_ntt_start_gap13
	sw a3, 4(t4)
	NOPS 13
	lw a5, 0(t6)
	ASTOP

	ABENCH acc_ntt_start_gap14
	sw a3, 4(t4)
	NOPS 14
	lw a5, 0(t6)
	ASTOP

	ABENCH acc_ntt_start_gap15
	sw a3, 4(t4)
	NOPS 15
	lw a5, 0(t6)
	ASTOP

	ABENCH acc_ntt_start_gap30
	sw a3, 4(t4)
	NOPS 30
	lw a5, 0(t6)
	ASTOP

	ABENCH acc_ntt_start_sw
	sw a3, 4(t4)
	sw a2, 0(t6)
	ASTOP

	ABENCH acc_ntt_start_start
	sw a3, 4(t4)
	sw a3, 4(t4)
	lw a5, 0(t6)
	ASTOP

	ABENCH acc_ntt_start_use
	sw a3, 4(t4)
	lw a5, 0(t6)
	add a6, a5, a5
	ASTOP

	ABENCH acc_ntt_start_jal
	sw a3, 4(t4)
	lw a5, 0(t6)
	j 1f
1:	ASTOP

	ABENCH acc_ntt_start_beq
	sw a3, 4(t4)
	lw a5, 0(t6)
	beq a1, a1, 1f
1:	ASTOP

	ABENCH acc_ntt_start_mulh
	sw a3, 4(t4)
	mulh a6, a1, a2
	lw a5, 0(t6)
	ASTOP

	ABENCH acc_ntt_start_div
	sw a3, 4(t4)
	divu a6, a2, a1
	lw a5, 0(t6)
	ASTOP

	ABENCH acc_ntt_start_branch_lw
	sw a3, 4(t4)
	beq a1, a1, 1f
1:	lw a5, 0(t6)
	ASTOP

	# the custom Keccak instructions (patched core, lib/native/rv32acc/keccak_insn.h): a unit
	# of their own in the EX stage; kxw/ksw rs2, imm(rs1): S-type funct3 0/1; klw rd, imm(rs1):
	# I-type funct3 2; kperm: funct3 3. An instruction waits in EX while the unit permutes.
	.macro KSW rs2, off, rs1
	.insn s 0x0b, 1, \rs2, \off(\rs1)
	.endm
	.macro KXW rs2, off, rs1
	.insn s 0x0b, 0, \rs2, \off(\rs1)
	.endm
	.macro KLW rd, off, rs1
	.insn i 0x0b, 2, \rd, \rs1, \off
	.endm
	.macro KPERM
	.insn i 0x0b, 3, x0, x0, 0
	.endm

	ABENCH acc_ksw
	.rept 10
	KSW a1, 0, zero
	.endr
	ASTOP

	ABENCH acc_kxw
	.rept 10
	KXW a1, 4, zero
	.endr
	ASTOP

	ABENCH acc_klw
	.rept 10
	KLW a5, 4, zero
	.endr
	ASTOP

	ABENCH acc_klw_use
	.rept 5
	KLW a5, 8, zero
	add a6, a5, a5
	.endr
	ASTOP

	ABENCH acc_lw_ksw
	.rept 5
	lw a5, -512(sp)
	KSW a5, 0, zero
	.endr
	ASTOP

	ABENCH acc_lw_klw_addr
	.rept 5
	lw a5, -512(sp)
	KLW a6, 0, a5
	.endr
	ASTOP

	ABENCH acc_lw_klw_waw
	.rept 5
	lw a5, -512(sp)
	KLW a5, 0, zero
	.endr
	ASTOP

	ABENCH acc_kperm_klw
	KPERM
	KLW a5, 0, zero
	ASTOP

	ABENCH acc_kperm_gap8
	KPERM
	NOPS 8
	KLW a5, 0, zero
	ASTOP

	ABENCH acc_kperm_gap23
	KPERM
	NOPS 23
	KLW a5, 0, zero
	ASTOP

	ABENCH acc_kperm_gap24
	KPERM
	NOPS 24
	KLW a5, 0, zero
	ASTOP

	ABENCH acc_kperm_ksw
	KPERM
	KSW a2, 0, zero
	ASTOP

	ABENCH acc_kperm_kperm
	KPERM
	KPERM
	KLW a5, 0, zero
	ASTOP

	ABENCH acc_kperm_use
	KPERM
	KLW a5, 0, zero
	add a6, a5, a5
	ASTOP

	ABENCH acc_kperm_jal
	KPERM
	KLW a5, 0, zero
	j 1f
1:	ASTOP

	ABENCH acc_kperm_beq
	KPERM
	KLW a5, 0, zero
	beq a1, a1, 1f
1:	ASTOP

	ABENCH acc_kperm_mulh
	KPERM
	mulh a6, a1, a2
	KLW a5, 0, zero
	ASTOP

	ABENCH acc_kperm_div
	KPERM
	divu a6, a2, a1
	KLW a5, 0, zero
	ASTOP

	ABENCH acc_kperm_lw
	KPERM
	lw a5, -512(sp)
	lw a6, 0(t6)
	ASTOP

	ABENCH acc_kperm_csr
	KPERM
	KLW a5, 0, zero
	csrr a6, mcycle
	ASTOP

	# the whole permutation with the state in memory, as keccak_acc.c does it
	ABENCH acc_kperm_seq
	.irp w, 0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48
	lw a5, (4*\w-512)(sp)
	lw a6, (4*\w-508)(sp)
	KSW a5, (4*\w), zero
	KSW a6, (4*\w+4), zero
	.endr
	KPERM
	.irp w, 0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48
	KLW a5, (4*\w), zero
	KLW a6, (4*\w+4), zero
	sw a5, (4*\w-256)(sp)
	sw a6, (4*\w-252)(sp)
	.endr
	ASTOP
