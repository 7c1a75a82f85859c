# SPDX-License-Identifier: MIT
# CV32E40P timing micro-benchmarks: each function returns the mcycle difference around its
# body. The body cycles (difference minus bench_empty's) every rule predicts are in
# tests/test_sim_cv32e40p.py with the rule (sim/src/timing/cv32e40p.rs) they check; they
# were measured on cv32e40p-rtl too.
	.text
	# no linker relaxation: every benchmark starts word aligned (.balign 4) and stays so
	.option norelax
	.option norvc

	.macro BENCH name
	# padding may need a 16-bit c.nop
	.option rvc
	.balign 4
	.option norvc
	.global bench_\name
	.type bench_\name, @function
bench_\name:
	la t6, bench_data
	li a1, 1
	li a2, 2
	li a3, 3
	li a4, 0x80000000
	nop
	nop
	csrr a0, mcycle
	.endm

	.macro STOP
	csrr t5, mcycle
	sub a0, t5, a0
	ret
	.endm

	BENCH empty
	STOP

	BENCH alu
	.rept 10
	add a5, a1, a2
	.endr
	STOP

	BENCH mul
	.rept 10
	mul a5, a1, a2
	.endr
	STOP

	BENCH mulh
	.rept 10
	mulh a5, a1, a2
	.endr
	STOP

	BENCH mulhu_use
	.rept 5
	mulhu a5, a4, a4
	add a6, a5, a5
	.endr
	STOP

	BENCH div_big
	divu a5, a1, a4
	STOP

	BENCH div_one
	divu a5, a4, a1
	STOP

	BENCH div_zero
	divu a5, a4, zero
	STOP

	BENCH div_small
	li t0, 100
	div a5, a4, t0
	STOP

	BENCH div_neg
	li t0, -7
	rem a5, a4, t0
	STOP

	BENCH lw
	.rept 10
	lw a5, 0(t6)
	.endr
	STOP

	BENCH lw_use
	.rept 5
	lw a5, 0(t6)
	addi a6, a5, 1
	.endr
	STOP

	BENCH lw_use_store
	.rept 5
	lw a5, 0(t6)
	sw a5, 8(t6)
	.endr
	STOP

	BENCH lw_addr_use
	.rept 5
	lw t0, 16(t6)
	lw a5, 0(t0)
	.endr
	STOP

	BENCH lw_gap
	.rept 5
	lw a5, 0(t6)
	nop
	addi a6, a5, 1
	.endr
	STOP

	BENCH lw_misaligned
	.rept 10
	lw a5, 1(t6)
	.endr
	STOP

	BENCH lh_cross
	.rept 10
	lh a5, 3(t6)
	.endr
	STOP

	BENCH lh_inside
	.rept 10
	lh a5, 1(t6)
	.endr
	STOP

	BENCH sw
	.rept 10
	sw a1, 8(t6)
	.endr
	STOP

	BENCH sw_misaligned
	.rept 10
	sw a1, 10(t6)
	.endr
	STOP

	BENCH jal
	.rept 10
	j 1f
1:
	.endr
	STOP

	BENCH beq_taken
	.rept 10
	beq zero, zero, 1f
1:
	.endr
	STOP

	BENCH bne_not_taken
	.rept 10
	bne zero, zero, 1f
1:
	.endr
	STOP

	BENCH jalr
	la t0, 1f
	nop
	jalr zero, 0(t0)
1:
	STOP

	BENCH jalr_dep
	la t0, 1f
	jalr zero, 0(t0)
1:
	STOP

	BENCH mul_jalr
	la t0, 1f
	mul t0, t0, a1
	jalr zero, 0(t0)
1:
	STOP

	BENCH jalr_load
	la t0, 1f
	sw t0, 12(t6)
	lw t1, 12(t6)
	jalr zero, 0(t1)
1:
	STOP

	BENCH csr_slow
	.rept 5
	csrr a5, mstatus
	.endr
	STOP

	BENCH csr_fast
	.rept 5
	csrr a5, mscratch
	.endr
	STOP

	# a jump or a taken branch to a 32-bit instruction at an address 2 mod 4
	BENCH jal_split
	j 1f
	.option rvc
	c.nop
	.option norvc
1:
	add a5, a1, a2
	STOP

	BENCH beq_split
	beq zero, zero, 1f
	.option rvc
	c.nop
	.option norvc
1:
	add a5, a1, a2
	STOP

	BENCH jal_rvc_target
	j 1f
	.option rvc
	c.nop
1:
	c.nop
	.option norvc
	add a5, a1, a2
	STOP

	# straight-line 32-bit instructions at addresses 2 mod 4
	BENCH split_run
	.option rvc
	c.nop
	.option norvc
	.rept 10
	add a5, a1, a2
	.endr
	.option rvc
	c.nop
	.option norvc
	STOP

	BENCH rvc_mix
	.option rvc
	.rept 10
	c.addi a5, 1
	add a6, a1, a2
	.endr
	c.nop
	.option norvc
	STOP

	BENCH lw_mis_use
	.rept 5
	lw a5, 1(t6)
	addi a6, a5, 1
	.endr
	STOP

	BENCH lw_branch
	.rept 5
	lw a5, 8(t6)
	beq a5, zero, 1f
1:
	.endr
	STOP

	BENCH div_use
	li t0, 100
	div a5, a4, t0
	addi a6, a5, 1
	STOP

	BENCH div_branch
	li t0, 100
	div a5, a4, t0
	bne a5, zero, 1f
1:
	STOP

	BENCH mulh_load
	.rept 5
	mulh a5, a1, a2
	lw a6, 0(t6)
	.endr
	STOP

	BENCH jal_jal
	j 1f
1:
	j 2f
2:
	STOP

	BENCH branch_back
	li t0, 5
1:
	addi t0, t0, -1
	bnez t0, 1b
	STOP

	BENCH lw_store_addr
	.rept 5
	lw t0, 16(t6)
	sw a1, 8(t0)
	.endr
	STOP

	BENCH lbu_use
	.rept 5
	lbu a5, 1(t6)
	add a6, a5, a5
	.endr
	STOP

	BENCH div_div
	li t0, 100
	div a5, a4, t0
	div a6, a4, t0
	STOP

	BENCH sw_lw
	.rept 5
	sw a1, 8(t6)
	lw a5, 8(t6)
	.endr
	STOP

	BENCH mulh_jal
	mulh a5, a1, a2
	j 1f
1:
	STOP

	BENCH div_jal
	divu a5, a4, a1
	j 1f
1:
	STOP

	BENCH mulh_beq
	mulh a5, a1, a2
	beq zero, zero, 1f
1:
	STOP

	BENCH lw_jal
	lw a5, 0(t6)
	j 1f
1:
	STOP

	BENCH lw_beq_dep
	lw a5, 8(t6)
	beq a5, zero, 1f
1:
	STOP

	BENCH mulh_jalr
	la t0, 1f
	mulh a5, a1, a2
	jalr zero, 0(t0)
1:
	STOP

	BENCH lh_cross_use
	lh a5, 3(t6)
	addi a6, a5, 1
	STOP

	BENCH sw_mis_lw
	sw a1, 10(t6)
	lw a5, 0(t6)
	STOP

	BENCH lw_mulh_dep
	lw a5, 0(t6)
	mulh a6, a5, a5
	STOP

	BENCH lw_div_dep
	lw a5, 0(t6)
	divu a6, a4, a5
	STOP

	BENCH lwmis_jal
	lw a5, 1(t6)
	j 1f
1:
	STOP

	BENCH csr_jal
	csrr a5, mstatus
	j 1f
1:
	STOP

	BENCH mulh_add_jal
	mulh a5, a1, a2
	add a6, a1, a2
	j 1f
1:
	STOP

	BENCH csr_after_lw
	lw a5, 0(t6)
	csrr a6, mscratch
	STOP

	BENCH lw_gap_jalr
	la t0, 1f
	sw t0, 12(t6)
	lw t1, 12(t6)
	nop
	jalr zero, 0(t1)
1:
	STOP

	BENCH mulh_gap_jalr
	la t0, 1f
	mulhu t1, a4, a4
	add t1, t0, zero
	nop
	jalr zero, 0(t1)
1:
	STOP

	# a load and then an instruction writing the same register at once (write-after-write)
	BENCH lw_alu_waw
	lw t1, 0(t6)
	addi t1, zero, 1
	STOP

	BENCH lw_mul_waw
	lw t1, 0(t6)
	mul t1, a1, a2
	STOP

	BENCH lw_csrfast_waw
	lw t1, 0(t6)
	csrr t1, mscratch
	STOP

	BENCH lw_csrslow_waw
	lw t1, 0(t6)
	csrr t1, mstatus
	STOP

	# the load writes the register the closing `csrr t5, mcycle` writes
	BENCH lw_mcycle_waw
	lw t5, 0(t6)
	STOP

	BENCH lw_mcycle_other
	lw t1, 0(t6)
	STOP

	BENCH lw_lw_waw
	lw t1, 0(t6)
	lw t1, 4(t6)
	STOP

	BENCH lw_gap_waw
	lw t1, 0(t6)
	nop
	addi t1, zero, 1
	STOP

	BENCH lw_jal_waw
	lw t1, 0(t6)
	jal t1, 1f
1:
	STOP

	BENCH lw_use_waw
	lw t1, 0(t6)
	addi t1, t1, 1
	STOP

	BENCH lw_mulh_waw
	lw t1, 0(t6)
	mulhu t1, a1, a2
	STOP

	BENCH lw_div_waw
	lw t1, 0(t6)
	divu t1, a1, a4
	STOP

	BENCH lw_jalr_waw
	la t0, 1f
	lw t1, 0(t6)
	jalr t1, 0(t0)
1:
	STOP

	.option rvc
	.balign 4
	.option norvc
	.global bench_call_ret
	.type bench_call_ret, @function
bench_call_ret:
	mv t4, ra
	nop
	nop
	csrr a0, mcycle
	call bench_leaf
	call bench_leaf
	csrr t5, mcycle
	sub a0, t5, a0
	jr t4

	# jal then ret: the link of a jal is ready for the jalr right after (no hazard)
	.option rvc
	.balign 4
	.option norvc
	.global bench_jal_ret
	.type bench_jal_ret, @function
bench_jal_ret:
	mv t4, ra
	nop
	nop
	csrr a0, mcycle
	jal ra, bench_leaf
	jal ra, bench_leaf
	csrr t5, mcycle
	sub a0, t5, a0
	jr t4

#ifdef __riscv_flen
	BENCH fadd
	fmv.w.x fa1, a1
	fmv.w.x fa2, a2
	.rept 10
	fadd.s fa5, fa1, fa2
	.endr
	STOP

	BENCH fmadd_dep
	fmv.w.x fa1, a1
	fmv.w.x fa2, a2
	.rept 10
	fmadd.s fa1, fa1, fa2, fa2
	.endr
	STOP

	BENCH flw_use
	.rept 5
	flw fa5, 0(t6)
	fadd.s fa6, fa5, fa5
	.endr
	STOP

	BENCH fcvt
	fmv.w.x fa1, a1
	.rept 5
	fcvt.w.s a5, fa1, rtz
	.endr
	STOP

	BENCH flw_waw
	flw fa5, 0(t6)
	fadd.s fa5, fa1, fa1
	STOP

	BENCH lw_fmv_waw
	lw t1, 0(t6)
	fmv.x.w t1, fa1
	STOP

#endif

	.option rvc
	.balign 4
	.option norvc
	.type bench_leaf, @function
bench_leaf:
	ret

	.data
	.balign 4
	.global bench_data
bench_data:
	.word 0x3f800000, 0x12345678, 0, 0, bench_data, 0, 0, 0
