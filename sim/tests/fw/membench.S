@ SPDX-License-Identifier: MIT
@ Memory set-up micro-benchmarks of the Cortex-M7 estimate (pqlab-sim --memory,
@ timing/m7mem.rs): each function returns the DWT CYCCNT difference around its body;
@ membench_main.c calls each twice (cold, then warm caches) and
@ tests/test_sim_m7mem.py checks the difference on every memory set-up.
	.syntax unified
	.thumb
	.text

	.macro BENCH name
	.balign 32
	.global membench_\name
	.type membench_\name, %function
	.thumb_func
membench_\name:
	push {r4-r7, lr}
	movw r7, #0x1004
	movt r7, #0xE000
	.endm

	.macro STOP
	nop
	ldr r1, [r7]
	subs r0, r1, r0
	pop {r4-r7, pc}
	.endm

	@ code: START at the start of a 32-byte line (fetched before the first CYCCNT
	@ read), 60 NOPs, STOP's NOP and CYCCNT load at the end of the fourth line: the
	@ timed part fetches three new lines
	BENCH code
	b 1f
	.balign 32
1:	ldr r0, [r7]
	nop
	.rept 60
	nop
	.endr
	STOP

	@ data: four loads, one per 32-byte line, from the address in r0 (a 32-byte
	@ aligned block; loads to even words do not pair, one per cycle)
	BENCH data
	mov r6, r0
	ldr r0, [r7]
	nop
	ldr r1, [r6]
	ldr r1, [r6, #32]
	ldr r1, [r6, #64]
	ldr r1, [r6, #96]
	STOP

	.section .rodata
	.balign 32
	.global membench_table
membench_table:
	.rept 32
	.word 1
	.endr
