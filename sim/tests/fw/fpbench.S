@ SPDX-License-Identifier: MIT
@ Floating-point operand-dependence micro-benchmarks: each function loads its two
@ operands (and the accumulator) from the array in r0, then returns the DWT
@ CYCCNT difference around a body of FP instructions on them; each body also
@ comes twice as long (_x2), so that the difference is the cost of the added
@ instructions alone (dual issue at the edges cancels). fpbench_main.c
@ runs every body with operands of the same exponent, different exponents, one
@ denormal and one zero; tests/test_sim_fp64.py checks the cycles.
	.syntax unified
	.thumb
	.text

	.macro BENCH name
	.balign 4
	.global fpbench_\name
	.type fpbench_\name, %function
	.thumb_func
fpbench_\name:
	push {r4-r7, lr}
	movw r7, #0x1004
	movt r7, #0xE000
	.endm

	.macro START
	ldr r0, [r7]
	nop
	.endm

	.macro STOP
	nop
	ldr r1, [r7]
	subs r0, r1, r0
	pop {r4-r7, pc}
	.endm

	@ single precision: operands s2, s4 from floats ops[0], ops[1]
	.macro LOAD32
	vldr s2, [r0]
	vldr s4, [r0, #4]
	vldr s6, [r0, #8]
	@ keeps the CYCCNT load of START from pairing with the last VLDR, which on
	@ the Cortex-M7 model depends on the DTCM bank of the operand array
	nop
	.endm

	BENCH empty
	START
	STOP

	BENCH vadd_f32
	LOAD32
	START
	.rept 10
	vadd.f32 s0, s2, s4
	.endr
	STOP

	BENCH vadd_f32_x2
	LOAD32
	START
	.rept 20
	vadd.f32 s0, s2, s4
	.endr
	STOP

	BENCH vmul_f32
	LOAD32
	START
	.rept 10
	vmul.f32 s0, s2, s4
	.endr
	STOP

	BENCH vmul_f32_x2
	LOAD32
	START
	.rept 20
	vmul.f32 s0, s2, s4
	.endr
	STOP

	BENCH vdiv_f32
	LOAD32
	START
	vdiv.f32 s0, s2, s4
	STOP

	BENCH vdiv_f32_x2
	LOAD32
	START
	vdiv.f32 s0, s2, s4
	vdiv.f32 s0, s2, s4
	STOP

#if defined(FP64)
	@ double precision: operands d1, d2 and accumulator d3 from doubles ops[0..2]
	.macro LOAD64
	vldr d1, [r0]
	vldr d2, [r0, #8]
	vldr d3, [r0, #16]
	.endm

	BENCH vadd_f64
	LOAD64
	START
	.rept 10
	vadd.f64 d0, d1, d2
	.endr
	STOP

	BENCH vadd_f64_x2
	LOAD64
	START
	.rept 20
	vadd.f64 d0, d1, d2
	.endr
	STOP

	BENCH vmul_f64
	LOAD64
	START
	.rept 10
	vmul.f64 d0, d1, d2
	.endr
	STOP

	BENCH vmul_f64_x2
	LOAD64
	START
	.rept 20
	vmul.f64 d0, d1, d2
	.endr
	STOP

	BENCH vdiv_f64
	LOAD64
	START
	vdiv.f64 d0, d1, d2
	STOP

	@ accumulator restored before every round, as in the measurement
	BENCH vdiv_f64_x2
	LOAD64
	START
	vdiv.f64 d0, d1, d2
	vdiv.f64 d0, d1, d2
	STOP

	@ accumulator restored before every round, as in the measurement
	BENCH vfma_f64
	LOAD64
	START
	.rept 10
	vfma.f64 d3, d1, d2
	.endr
	STOP
	BENCH vfma_f64_x2
	LOAD64
	START
	.rept 20
	vfma.f64 d3, d1, d2
	.endr
	STOP
	@ FP result latencies (Cortex-M7 estimate, LLVM's ARMScheduleM7.td): chains of
	@ dependent instructions, operands as above (r2: the operand array)
	.macro DEPBENCH name, n
	BENCH \name
	LOAD64
	mov r2, r0
	START
	.rept \n
	DEPBODY_\name
	.endr
	STOP
	.endm

	.macro DEPBODY_vabs_f64_dep
	vabs.f64 d1, d1
	.endm
	.macro DEPBODY_vabs_f64_dep_x2
	vabs.f64 d1, d1
	.endm
	DEPBENCH vabs_f64_dep, 10
	DEPBENCH vabs_f64_dep_x2, 20

	.macro DEPBODY_vldr_vadd_f64
	vldr d1, [r2]
	vadd.f64 d0, d1, d2
	.endm
	.macro DEPBODY_vldr_vadd_f64_x2
	vldr d1, [r2]
	vadd.f64 d0, d1, d2
	.endm
	DEPBENCH vldr_vadd_f64, 10
	DEPBENCH vldr_vadd_f64_x2, 20

	.macro DEPBODY_vadd_f32_dep
	vadd.f32 s2, s2, s7
	.endm
	.macro DEPBODY_vadd_f32_dep_x2
	vadd.f32 s2, s2, s7
	.endm
	DEPBENCH vadd_f32_dep, 10
	DEPBENCH vadd_f32_dep_x2, 20
	.macro DEPBODY_vmla_vadd_f32
	vmla.f32 s0, s2, s4
	vadd.f32 s6, s0, s4
	.endm
	.macro DEPBODY_vmla_vadd_f32_x2
	vmla.f32 s0, s2, s4
	vadd.f32 s6, s0, s4
	.endm
	DEPBENCH vmla_vadd_f32, 10
	DEPBENCH vmla_vadd_f32_x2, 20

	.macro DEPBODY_vadd_vstr_f64
	vadd.f64 d0, d1, d2
	vstr d0, [sp, #-8]
	.endm
	.macro DEPBODY_vadd_vstr_f64_x2
	vadd.f64 d0, d1, d2
	vstr d0, [sp, #-8]
	.endm
	DEPBENCH vadd_vstr_f64, 10
	DEPBENCH vadd_vstr_f64_x2, 20
#endif


