@ SPDX-License-Identifier: MIT
@ Timing micro-benchmarks: each function returns the DWT CYCCNT difference
@ around its body. The expected cycle counts of every rule are in
@ tests/test_sim_timing.py together with the Cortex-M4 TRM rule they check.
	.syntax unified
	.thumb
	.text

	.macro BENCH name
	@ the prologue is 28 bytes and START 4, so every body starts word aligned
	.balign 4
	.global bench_\name
	.type bench_\name, %function
	.thumb_func
bench_\name:
	push {r4-r11, lr}
	movw r7, #0x1004
	movt r7, #0xE000
	movw r4, #:lower16:bench_data
	movt r4, #:upper16:bench_data
	movs r5, #8
	movs r1, #1
	movs r2, #2
	movs r3, #3
	.endm

	.macro START
	ldr r0, [r7]
	nop
	.endm

	.macro STOP
	nop
	ldr r1, [r7]
	subs r0, r1, r0
	pop {r4-r11, pc}
	.endm

	BENCH empty
	START
	STOP

	BENCH add16
	START
	.rept 10
	add r1, r2
	.endr
	STOP

	BENCH add_shift
	START
	.rept 10
	add.w r1, r2, r3, lsl #3
	.endr
	STOP

	BENCH mul
	START
	.rept 10
	mul r1, r2, r3
	.endr
	STOP

	BENCH mla
	START
	.rept 10
	mla r1, r2, r3, r1
	.endr
	STOP

	BENCH smull
	START
	.rept 10
	smull r1, r6, r2, r3
	.endr
	STOP

	BENCH umaal
	START
	.rept 10
	umaal r1, r6, r2, r3
	.endr
	STOP

	BENCH smlad
	START
	.rept 10
	smlad r1, r2, r3, r1
	.endr
	STOP

	BENCH ldr_indep
	START
	.rept 10
	ldr r1, [r4, #4]
	.endr
	STOP

	BENCH ldr_dep
	START
	.rept 10
	ldr r4, [r4]
	.endr
	STOP

	BENCH str_imm
	START
	.rept 10
	str r1, [r4, #8]
	.endr
	STOP

	BENCH str_reg
	START
	.rept 10
	str r1, [r4, r5]
	.endr
	STOP

	BENCH ldr_add
	START
	.rept 10
	ldr r1, [r4, #4]
	add r2, r3
	.endr
	STOP

	BENCH ldrd
	START
	.rept 5
	ldrd r1, r2, [r4, #8]
	.endr
	STOP

	BENCH strd
	START
	.rept 5
	strd r1, r2, [r4, #8]
	.endr
	STOP

	BENCH ldm4
	START
	ldmia r4, {r1, r2, r3, r6}
	STOP

	BENCH pushpop4
	START
	push {r0, r1, r2, r3}
	pop {r0, r1, r2, r3}
	STOP

	BENCH b_taken
	START
	.rept 10
	b 1f
1:
	.endr
	STOP

	BENCH bne_not_taken
	START
	cmp r1, r1
	.rept 10
	bne 1f
1:
	.endr
	STOP

	BENCH udiv_small
	START
	udiv r1, r2, r3
	STOP

	BENCH udiv_big
	movw r2, #0xffff
	movt r2, #0xffff
	START
	udiv r1, r2, r1
	STOP

	BENCH it_folded
	START
	.rept 10
	adds r1, #1
	it eq
	moveq r2, r3
	.endr
	STOP

	BENCH bl_bx
	START
	.rept 5
	bl bench_leaf
	.endr
	STOP

	.thumb_func
bench_leaf:
	bx lr

	BENCH agu_ldr
	START
	.rept 5
	add r4, r4, #0
	ldr r1, [r4, #4]
	.endr
	STOP

	BENCH tbb
	movs r6, #0
	START
	tbb [pc, r6]
	.byte 1, 0
	nop
	STOP

	BENCH ldr_pc
	adr r6, 1f
	orr r6, r6, #1
	str r6, [r4, #16]
	nop			@ keeps the store away from START's load (store_load_stall)
	START
	ldr pc, [r4, #16]
	nop
	nop
1:
	STOP

	BENCH b_unaligned_wide
	START
	b 1f
	nop
	nop
1:
	add.w r1, r2, r3
	STOP

	BENCH uw_group
	START
	nop
	.rept 4
	add.w r1, r2, r3
	.endr
	STOP

	BENCH bne_taken
	START
	cmp r1, r2
	.rept 10
	bne 1f
1:
	.endr
	STOP

	BENCH cbz_taken
	START
	movs r6, #0
	.rept 10
	cbz r6, 1f
	nop
1:
	.endr
	STOP

	BENCH pop_pc
	START
	.rept 5
	bl bench_poppc_leaf
	.endr
	STOP

	.thumb_func
bench_poppc_leaf:
	push {lr}
	pop {pc}

	BENCH ldr_wb
	START
	.rept 10
	ldr r1, [r4, #0]!
	.endr
	STOP

	@ STR with an immediate offset followed by a load: the store cannot pipeline
	@ with it (measured on an STM32F407, see timing::store_load_stall)
	BENCH str_ldr
	START
	.rept 10
	str r1, [r4, #8]
	ldr r2, [r4, #4]
	.endr
	STOP

	BENCH str_ldm
	START
	.rept 5
	str r1, [r4, #8]
	ldm r4, {r2, r3}
	.endr
	STOP

	@ ---- Cortex-M7 sequences (tests/test_sim_timing.py, EXPECTED_M7) ----
	@ LDRD issues alone on the Cortex-M7 ("load/store pair/multiple ... cannot
	@ dual issue with preceeding or folowing instructions", jnk0le), so the body
	@ starts and ends on a cycle boundary: m7_empty = CYCCNT load 1 + LDRD 1 + LDRD 1
	.macro START7
	ldrd r8, r9, [r4, #32]
	ldr r0, [r7]
	ldrd r8, r9, [r4, #32]
	.endm

	.macro STOP7
	ldrd r8, r9, [r4, #32]
	ldr r1, [r7]
	subs r0, r1, r0
	pop {r4-r11, pc}
	.endm

	BENCH m7_empty
	START7
	STOP7

	BENCH m7_add_indep
	START7
	.rept 5
	add r1, r2, r3
	add r5, r2, r3
	.endr
	STOP7

	BENCH m7_add_dep
	START7
	.rept 10
	add r1, r1, r2
	.endr
	STOP7

	BENCH m7_ldr_banks
	START7
	.rept 5
	ldr r1, [r4, #0]
	ldr r2, [r4, #4]
	.endr
	STOP7

	BENCH m7_ldr_same_bank
	START7
	.rept 5
	ldr r1, [r4, #0]
	ldr r2, [r4, #8]
	.endr
	STOP7

	BENCH m7_ldr_post_inc
	mov r6, r4
	START7
	.rept 5
	ldr r1, [r6], #4
	ldr r2, [r6], #4
	.endr
	STOP7

	BENCH m7_str_str
	START7
	.rept 5
	str r1, [r4, #0]
	str r2, [r4, #4]
	.endr
	STOP7

	BENCH m7_ldr_str
	START7
	.rept 5
	ldr r1, [r4, #0]
	str r2, [r4, #8]
	.endr
	STOP7

	BENCH m7_mul_str
	START7
	.rept 5
	mul r1, r2, r3
	str r2, [r4, #8]
	.endr
	STOP7

	BENCH m7_mul_add
	START7
	.rept 5
	mul r1, r2, r3
	add r5, r2, r3
	.endr
	STOP7

	BENCH m7_mul_dep
	START7
	.rept 5
	mul r1, r2, r3
	add r5, r1, r2
	.endr
	STOP7

	BENCH m7_mla_chain
	START7
	.rept 10
	mla r1, r2, r3, r1
	.endr
	STOP7

	BENCH m7_ldr_dep
	START7
	.rept 5
	ldr r1, [r4, #0]
	add r5, r1, r2
	.endr
	STOP7

	BENCH m7_ldrb_dep
	START7
	.rept 5
	ldrb r1, [r4, #0]
	add r5, r1, r2
	.endr
	STOP7

	BENCH m7_ldr_mul
	START7
	.rept 5
	ldr r1, [r4, #0]
	mul r5, r1, r2
	.endr
	STOP7

	BENCH m7_uxtb_uxtb
	START7
	.rept 5
	uxtb r1, r2
	uxtb r5, r3
	.endr
	STOP7

	BENCH m7_uxtb_add
	START7
	.rept 5
	uxtb r1, r2
	add r5, r2, r3
	.endr
	STOP7

	BENCH m7_shifted_pair
	START7
	.rept 5
	add.w r1, r2, r3, lsl #3
	eor.w r5, r2, r3, ror #7
	.endr
	STOP7

	BENCH m7_ldm4
	START7
	ldmia r4, {r1, r2, r3, r6}
	STOP7

	BENCH m7_ldm8
	START7
	ldmia r4, {r1, r2, r3, r5, r6, r10, r11, r12}
	STOP7

	BENCH m7_loop_predicted
	START7
	movs r6, #10
1:
	subs r6, r6, #1
	bne 1b
	STOP7

	BENCH m7_loop_early_flags
	START7
	movs r6, #10
1:
	subs r6, r6, #1
	mul r1, r2, r3
	mul r1, r2, r3
	mul r1, r2, r3
	mul r1, r2, r3
	bne 1b
	STOP7

	BENCH m7_branch_alternating
	movs r5, #0
	START7
	movs r6, #10
1:
	eor r5, r5, #1
	cbz r5, 2f
	add r1, r2, r3
2:
	subs r6, r6, #1
	bne 1b
	STOP7

	BENCH m7_bne_not_taken
	START7
	cmp r1, r1
	.rept 5
	bne 1f
	add r5, r2, r3
1:
	.endr
	STOP7

#if defined(__ARM_FP)
	BENCH vadd
	START
	.rept 10
	vadd.f32 s0, s1, s2
	.endr
	STOP

	BENCH vmla
	START
	.rept 10
	vmla.f32 s0, s1, s2
	.endr
	STOP

	BENCH vfma
	START
	.rept 10
	vfma.f32 s0, s1, s2
	.endr
	STOP

	BENCH vdiv
	START
	vdiv.f32 s0, s1, s2
	STOP

	BENCH vsqrt
	START
	vsqrt.f32 s0, s1
	STOP

	BENCH vldr
	START
	.rept 10
	vldr s0, [r4, #4]
	.endr
	STOP

	BENCH vmov_core
	START
	.rept 10
	vmov r1, s3
	.endr
	STOP
#endif

	.data
	.align 3
bench_data:
	.word bench_data
	.space 60
