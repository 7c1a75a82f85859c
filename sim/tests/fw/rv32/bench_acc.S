# SPDX-License-Identifier: MIT
# Timing micro-benchmarks of the accelerator slots (cv32e40p-acc-rtl / machine cv32e40p-acc;
# docs/accel.md): accesses to the Keccak unit at 0x10001000 (word 50: CTRL, a store starts a
# permutation of 24 cycles; an access while it runs waits). Each function returns the
# mcycle difference around its body, like bench.S (bench_main.c prints them with
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
	li t4, 0x10001000
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

	ABENCH acc_sw
	.rept 10
	sw a1, 0(t4)
	.endr
	ASTOP

	ABENCH acc_lw
	.rept 10
	lw a5, 4(t4)
	.endr
	ASTOP

	ABENCH acc_lw_use
	.rept 5
	lw a5, 8(t4)
	add a6, a5, a5
	.endr
	ASTOP

	ABENCH acc_start_lw
	sw a1, 200(t4)
	lw a5, 0(t4)
	ASTOP

	ABENCH acc_start_gap8
	sw a1, 200(t4)
	NOPS 8
	lw a5, 0(t4)
	ASTOP

	ABENCH acc_start_gap22
	sw a1, 200(t4)
	NOPS 22
	lw a5, 0(t4)
	ASTOP

	ABENCH acc_start_gap23
	sw a1, 200(t4)
	NOPS 23
	lw a5, 0(t4)
	ASTOP

	ABENCH acc_start_gap24
	sw a1, 200(t4)
	NOPS 24
	lw a5, 0(t4)
	ASTOP

	ABENCH acc_start_gap30
	sw a1, 200(t4)
	NOPS 30
	lw a5, 0(t4)
	ASTOP

	ABENCH acc_start_sw
	sw a1, 200(t4)
	sw a2, 0(t4)
	ASTOP

	ABENCH acc_start_start
	sw a1, 200(t4)
	sw a1, 200(t4)
	lw a5, 0(t4)
	ASTOP

	ABENCH acc_start_use
	sw a1, 200(t4)
	lw a5, 0(t4)
	add a6, a5, a5
	ASTOP

	ABENCH acc_start_jal
	sw a1, 200(t4)
	lw a5, 0(t4)
	j 1f
1:	ASTOP

	ABENCH acc_start_beq
	sw a1, 200(t4)
	lw a5, 0(t4)
	beq a1, a1, 1f
1:	ASTOP

	ABENCH acc_start_mulh
	sw a1, 200(t4)
	mulh a6, a1, a2
	lw a5, 0(t4)
	ASTOP

	ABENCH acc_start_div
	sw a1, 200(t4)
	divu a6, a2, a1
	lw a5, 0(t4)
	ASTOP

	ABENCH acc_start_branch_lw
	sw a1, 200(t4)
	beq a1, a1, 1f
1:	lw a5, 0(t4)
	ASTOP

	# the whole permutation as keccak_acc.c does it: 50 words in, start, 50 words out
	ABENCH acc_perm
	.irp w, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49
	lw a5, (4*\w-512)(sp)
	sw a5, (4*\w)(t4)
	.endr
	sw a1, 200(t4)
	.irp w, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49
	lw a5, (4*\w)(t4)
	sw a5, (4*\w-256)(sp)
	.endr
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
	lw a6, 0(t4)
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
