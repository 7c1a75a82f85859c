@ SPDX-License-Identifier: MIT
@ Micro-benchmarks of candidate Cortex-M4 timing rules (issue 23, docs/sim.md "Diagnosis of
@ the pqm4 corpus misses"). Each function returns the DWT CYCCNT difference around its body;
@ the cycles each body takes on a Cortex-M4 per the cited source, and what pqlab-sim's model
@ gives, are in tests/test_sim_rules.py.
	.syntax unified
	.thumb
	.text

	.macro RULE name
	.balign 4
	.global rule_\name
	.type rule_\name, %function
	.thumb_func
rule_\name:
	push {r4-r11, lr}
	movw r7, #0x1004
	movt r7, #0xE000
	movw r4, #:lower16:rule_ram
	movt r4, #:upper16:rule_ram
	movw r5, #:lower16:rule_const
	movt r5, #:upper16:rule_const
	mov r6, sp
	sub sp, #64
	movs r1, #1
	movs r2, #2
	movs r3, #3
	.balign 4
	.endm

	@ 4 bytes (16-bit CYCCNT read and NOP): every body starts word aligned
	.macro START
	ldr r0, [r7]
	nop
	.endm

	.macro STOP
	nop
	ldr r1, [r7]
	subs r0, r1, r0
	add sp, #64
	pop {r4-r11, pc}
	.endm

	RULE empty
	START
	STOP

	@ 10 independent loads from one RAM block: 2 + 9 x 1 (TRM 3.3.1 pipelining)
	RULE ldr_same_block
	START
	.rept 5
	ldr r1, [r4, #0]
	ldr r2, [r4, #4]
	.endr
	STOP

	@ loads alternating between SRAM (.data) and the code region (constants; the
	@ board's flash): "load pipelining happens only when targeting the same memory block"
	@ (jnk0le, doc/cortex_m3m4.md): 10 x 2
	RULE ldr_flash_ram
	START
	.rept 5
	ldr r1, [r4, #0]
	ldr r2, [r5, #0]
	.endr
	STOP

	@ loads alternating between .data and the stack: on pqm4's board SRAM1 and SRAM3,
	@ two blocks (same source): 10 x 2; in one block 2 + 9
	RULE ldr_data_stack
	START
	.rept 5
	ldr r1, [r4, #0]
	ldr r2, [sp, #0]
	.endr
	STOP

	@ literal-pool loads: "LDR Rx,[PC,#imm] might add a cycle because of contention with
	@ the fetch unit" (Cortex-M4 TRM DDI 0439B 3.3.1): between 2 + 9 and 10 x 2
	RULE ldr_literal
	START
	.rept 10
	ldr r1, 1f
	.endr
	b 2f
	.balign 4
1:	.word 0x12345678
2:
	STOP

	@ 32-bit loads at addresses 2 mod 4: "32bit opcode loads (ldr.w, ldrb.w) may fail to
	@ pipeline correctly if they are not positioned at word aligned boundaries" (jnk0le)
	RULE ldrw_unaligned
	START
	nop
	.rept 10
	ldr.w r1, [r4, #0]
	.endr
	nop
	STOP

	@ the same at word-aligned addresses: 2 + 9 (TRM 3.3.1)
	RULE ldrw_aligned
	START
	.rept 10
	ldr.w r1, [r4, #0]
	.endr
	STOP

	@ post-indexed loads alternating two base registers: "post and pre indexed loads cannot
	@ be chained back to back on same register base address (alternating 2 different
	@ registers works)" (jnk0le, Cortex-M4): 2 + 9; the TRM: "any load with a base update
	@ is not normally pipelined": 10 x 2
	RULE ldr_post_alternating
	START
	.rept 5
	ldr r1, [r4], #4
	ldr r2, [r6], #-4
	.endr
	STOP

	@ a group of 8 unaligned 32-bit ALU instructions: the fetch delivers one word per cycle,
	@ 8 instructions span 9 words: 8 + 1 (compendium.i-0.nl "Alignment rules": one
	@ extra cycle for a group of three or more)
	RULE uw_group8
	START
	nop
	.rept 8
	add.w r1, r2, r3
	.endr
	nop
	STOP

	@ the same group with a 32-bit load in the middle: "a group of unaligned wide
	@ instructions consisting of a mix of memory and non-memory instructions can cause more
	@ than one delay cycle" (compendium.i-0.nl): more than 8 + 2 + 1; m4-v5 charges one cycle
	@ per change between memory and non-memory members after the third (into and out of the
	@ load): 8 + 2 + 1 + 2
	RULE uw_group_mixed
	START
	nop
	.rept 4
	add.w r1, r2, r3
	.endr
	ldr.w r8, [r4, #0]
	.rept 4
	add.w r1, r2, r3
	.endr
	nop
	STOP

	@ shifts by a register and bit-field instructions: 1 cycle each (TRM table 3-1)
	RULE shift_reg
	START
	.rept 10
	lsl.w r1, r2, r3
	.endr
	STOP

	RULE bitfield
	START
	.rept 5
	ubfx r1, r2, #3, #5
	bfi r8, r2, #4, #6
	.endr
	STOP

	@ LDM of 4 words after an ALU instruction that writes its base: 1 + 4, + 1 for the
	@ address dependency (TRM 3.3.1: no forwarding path to address generation)
	RULE ldm_after_base_write
	START
	.rept 5
	mov r8, r4
	ldm r8, {r9, r10, r11, r12}
	.endr
	STOP

	@ a load whose base register the immediately preceding load wrote: "base address and
	@ offset must be available 1 cycle earlier than normally" (jnk0le, Cortex-M3/M4, loads
	@ and stores): per pair LDR r1,[sp] (pipelined behind the previous load: 1; the first
	@ 2) and LDR r2,[r1] (not pipelined, TRM 3.3.1: 2; + 1): 5 + 4 x 4
	RULE ldr_load_base
	str r4, [sp, #0]
	nop		@ keeps the store-then-load stall off START's CYCCNT read
	START
	.rept 5
	ldr r1, [sp, #0]
	ldr r2, [r1, #0]
	.endr
	STOP

	@ the same for a store whose base the preceding load wrote: per pair LDR (2; + 1 after
	@ the STR before it, m4-v3's store-then-load rule) and STR (pipelined behind the load:
	@ 1; + 1): 4 + 4 x 5
	RULE str_load_base
	str r4, [sp, #0]
	nop		@ keeps the store-then-load stall off START's CYCCNT read
	START
	.rept 5
	ldr r1, [sp, #0]
	str r2, [r1, #0]
	.endr
	STOP

	@ STR then LDRD: "stores cannot be pipelined with following load instructions (adds
	@ extra cycle to store)" (jnk0le) and "LDRD and STRD cannot be pipelined with preceding
	@ or following instructions" (TRM 3.3.1): 5 x (1 + 3 + 1)
	RULE str_ldrd
	START
	.rept 5
	str r1, [sp, #0]
	ldrd r2, r3, [sp, #8]
	.endr
	STOP

	@ STRD then LDR: the same two sources: 5 x (3 + 2 + 1)
	RULE strd_ldr
	START
	.rept 5
	strd r2, r3, [sp, #0]
	ldr r1, [sp, #8]
	.endr
	STOP

	@ ten post-indexed stores on one base: "post and pre indexed stores cannot be chained back
	@ to back on same register base address" (jnk0le, doc/cortex_m3m4.md): 1 + 9 x 2
	RULE str_post_chain
	mov r8, r4
	.balign 4
	START
	.rept 10
	str r1, [r8], #4
	.endr
	STOP

	@ the same alternating two bases: "alternating 2 different registers works": 10 x 1
	RULE str_post_alternating
	mov r8, r4
	add r9, r4, #32
	.balign 4
	START
	.rept 5
	str r1, [r8], #4
	str r2, [r9], #4
	.endr
	STOP

	@ m4-v7, memory set-up stm32l4r5 (pqm4's NUCLEO-L4R5ZI): "stores can pipeline with
	@ preceding load (incl data forwarding) only when targeting the same memory block"
	@ (jnk0le, doc/cortex_m3m4.md). A load from .data (SRAM1) then a store to the stack
	@ (SRAM3), 5 times: 2 + 1 + 4 x (3 + 1) = 19 in one block (the load after the store
	@ stalls, m4-v3), + 1 per store = 24 in two
	RULE str_data_stack
	START
	.rept 5
	ldr r1, [r4, #0]
	str r2, [sp, #0]
	.endr
	STOP

	@ the same pairs within one block (.data): 19 with or without the set-up
	RULE str_data_data
	START
	.rept 5
	ldr r1, [r4, #0]
	str r2, [r4, #8]
	.endr
	STOP

	@ a load from the stack (SRAM3) then one from the deep stack 400 KiB below the top
	@ (SRAM2 on the board: pqm4's large stack frames), 5 times: 10 x 2 with the set-up
	RULE ldr_stack_deep
	sub r3, r6, #409600
	.balign 4
	START
	.rept 5
	ldr r1, [sp, #0]
	ldr r2, [r3, #0]
	.endr
	STOP

	.data
	.balign 8
rule_ram:
	.word 0x11111111, 0x22222222, 0x33333333, 0x44444444
	.space 48

	.section .rodata
	.balign 4
rule_const:
	.word 0x55555555, 0x66666666
