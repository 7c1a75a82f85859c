// SPDX-License-Identifier: MIT
//! Timing models.
//!
//! Cortex-M4 (zero wait states), from the Arm Cortex-M4 Technical Reference
//! Manual r0p1 (DDI 0439B):
//! - Table 3-1 "Cortex-M4 instruction set summary": data processing 1,
//!   MUL 1, MLA/MLS 2, long multiplies (SMULL, UMULL, SMLAL, UMLAL) 1,
//!   SDIV/UDIV 2-12, LDR 2, LDRD/STRD 1+2, LDM/STM 1+N, PUSH/POP 1+N,
//!   branches 1+P, TBB/TBH 2+P, CBZ 1 or 1+P, IT 1 (0 when folded),
//!   MSR/MRS 1-2, with P the pipeline refill "from 1 to 3 cycles".
//! - Section 3.3.1 load/store timing: "Neighboring load and store single
//!   instructions can pipeline their address and data phases",
//!   "STR Rx,[Ry,#imm] is always one cycle", "Other instructions cannot be
//!   pipelined after STR with register offset. STR can only be pipelined
//!   when it follows an LDR", "LDR PC,[any] is always a blocking operation".
//! - Section 3.3.2 DSP instructions: all single cycle.
//! - Table 7-1 "FPU instruction set": VADD/VSUB/VMUL/VNMUL/VABS/VNEG/VCMP/VCVT/
//!   VMOV 1, VMLA/VMLS/VNMLA/VNMLS/VFMA/VFMS/VFNMA/VFNMS 3, VDIV/VSQRT 14,
//!   VLDR/VSTR 2 (1+N), VLDM/VSTM/VPUSH/VPOP 1+N, VMOV two core regs 2.
//! - Exceptions: 12 cycles entry latency (TRM section 5.5 "Interrupt latency"),
//!   10 cycles for the return.
//!
//! Branch refill P: the TRM gives "from 1 to 3 cycles depending on the alignment
//! and width of the target instruction, and whether the processor manages to
//! speculate the address early". P = 1 (taken branch = 2 cycles, measured on an
//! STM32 Cortex-M4, compendium.i-0.nl) for branches with an immediate target,
//! unconditional (B, BL) or conditional (B<c>, CBZ/CBNZ): the prefetch unit forms
//! PC + immediate in decode and presents a conditional branch's target
//! speculatively before the condition resolves (Cortex-M3 TRM r2p0, DDI 0337G,
//! section 1.4 "Prefetch Unit", the same pipeline front end). P = 2 for branches to
//! a register value, whose target is only known in execute (BX, BLX Rm, POP/LDM
//! with PC, ALU writes to PC) -- `late_branch`. The split was chosen by
//! calibration against pqm4's real-board figures with the sources built by the
//! reference's compiler (pqlab/data/calibration.toml, docs/sim.md
//! "Calibration"): non-hashing error of the 8 calibration points with P = 2 for
//! every conditional and register branch (m4-v3) +3.6% to +5.5%, with this rule
//! (m4-v4) +0.9% to +1.4%, with P = 1 everywhere -2.7% to -0.9%.
//! One more cycle when
//! the target is a 32-bit instruction that is not word aligned ("Branches to
//! unaligned wide instructions will take one extra cycle", measured on an
//! STM32 Cortex-M4, compendium.i-0.nl "Alignment rules"); loads into PC and
//! TBB/TBH are blocking and take at least 5 and 6 cycles ("LDR PC,[any] ...
//! at least two cycles for the load, and three cycles for the pipeline
//! reload"; TBB/TBH "at least six cycles", TRM load/store timings).
//! Fetch: "Groups of three or more unaligned wide instructions will take one
//! extra cycle" (same measurements): one cycle is added at the third
//! consecutive 32-bit instruction at an address that is 2 mod 4.
//! Address generation: a load or store whose address register was written by
//! the immediately preceding data-processing instruction stalls one cycle.
//! Store then load (m4-v3): a load single or LDM right after an STR with an
//! immediate offset stalls one cycle ("stores cannot be pipelined with following
//! load instructions (adds extra cycle to store)", measured on an STM32F407 by
//! jnk0le, "pipeline cycle test/doc/cortex_m3m4.md") -- `store_load_stall`.
//! Division: 2 cycles when the dividend is smaller than the divisor, else
//! 3 + (number of quotient bits - 1) / 3, capped at 12; an approximation of the
//! documented early termination ("based on the number of leading ones and
//! zeroes in the input operands").
//!
//! Cortex-M7 (estimate): the same per-instruction table adjusted by the
//! dual-issue pairing in `m7_pair` (Arm Cortex-M7 TRM DDI 0489, section 1.2 and
//! the Cortex-M7 Software Optimization Guide descriptions of dual issue) and
//! the FPv5 double-precision latencies of the Cortex-M7 TRM FPU chapter.

use crate::cpu::Cpu;
use crate::decode::{alu, fop, Class, Insn, Op};

pub const EXC_ENTRY: u64 = 12;
pub const EXC_RETURN: u64 = 10;
pub const MODEL_VERSION: &str = "pqlab-sim timing m4-v4 / m7-estimate-v2";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Core {
    M4,
    M7,
}

pub fn base_cycles(core: Core, i: &Insn) -> u8 {
    let n = i.imm.count_ones() as u8;
    match i.op {
        Op::Mla | Op::Mls => {
            if core == Core::M7 {
                1
            } else {
                2
            }
        }
        Op::Ldrd | Op::Strd => 3,
        Op::Ldm | Op::Stm => 1 + n,
        // TBB/TBH: two cycles for the load and one for the add (M3/M4 TRM
        // load/store timings); the refill is added when the branch is taken
        Op::Tbb | Op::Tbh => 3,
        Op::Msr => 2,
        Op::Vmov2 => 2,
        Op::Vdp => {
            let dbl = i.sh != 0;
            match i.sub {
                fop::VMLA | fop::VMLS | fop::VNMLA | fop::VNMLS => 3,
                fop::VFMA | fop::VFMS | fop::VFNMA | fop::VFNMS => 3,
                fop::VDIV | fop::VSQRT => {
                    if dbl {
                        // Cortex-M7 TRM: VDIV.F64/VSQRT.F64 29 cycles
                        29
                    } else {
                        14
                    }
                }
                fop::VMUL | fop::VNMUL if dbl => 2,
                _ => 1,
            }
        }
        Op::Vldr | Op::Vstr => 2 + i.sh,
        Op::Bkpt => 1,
        _ => 1,
    }
}

/// Pipeline refill P after a taken branch to `target`.
#[inline(always)]
pub fn refill(core: Core, target: u32) -> u64 {
    match core {
        // measured on a Cortex-M4: "Branches that are taken take two cycles and
        // branching to an unaligned wide instruction takes three cycles"
        // (compendium.i-0.nl "Branch timing"); the TRM gives P = 1..3
        Core::M4 => 1,
        // Cortex-M7: branch predictor; a correctly predicted taken branch costs
        // little. Estimate: 1 cycle.
        Core::M7 => {
            let _ = target;
            1
        }
    }
}

/// Extra refill cycle of a taken branch the M4 cannot speculate early (see the
/// module comment): branches to a register value. Calibrated choice within the
/// TRM's P = 1..3; the M7 estimate is unchanged.
#[inline(always)]
pub fn late_branch(core: Core) -> u64 {
    (core == Core::M4) as u64
}

pub fn div_cycles(core: Core, signed: bool, n: u32, m: u32) -> u64 {
    let (a, b) = if signed {
        ((n as i32).unsigned_abs(), (m as i32).unsigned_abs())
    } else {
        (n, m)
    };
    if b == 0 || a < b {
        return 2;
    }
    let qbits = (b.leading_zeros() - a.leading_zeros()) as u64; // quotient bits - 1
    let c = 3 + qbits / 3;
    match core {
        Core::M4 => c.min(12),
        // Cortex-M7 TRM: SDIV/UDIV 3-20 cycles; estimate scaled similarly
        Core::M7 => (3 + qbits / 2).min(20),
    }
}

/// LDR family: 2 cycles, 1 when pipelined behind a load single whose result
/// is not the address of this load ("LDR [any] are pipelined when possible":
/// if the next instruction is an LDR or STR and the destination of the first
/// LDR is not used to compute its address, one cycle is removed); loads into
/// PC block (2 cycles, plus the refill).
#[inline(always)]
pub fn load_cycles(cpu: &Cpu, i: &Insn) -> u64 {
    let dep = cpu.prev_load_rt() == i.rn || (i.op == Op::LdR && cpu.prev_load_rt() == i.rm);
    if i.rd == 15 {
        return 2;
    }
    // "Any load with a base update is not normally pipelined. That is, base update
    // load is generally at least a two-cycle operation" (Cortex-M3/M4 TRM load/store
    // timings); measured on an STM32 Cortex-M4: "When a sequence of loads starts with
    // a load using writeback, this instruction will take extra cycles, each subsequent
    // load using writeback will also take extra cycles" (compendium.i-0.nl "Load
    // placement"). Pre/post-indexed LDR with writeback: 2 cycles, never pipelined.
    if i.op == Op::Ld && i.ra & 2 != 0 {
        return 2;
    }
    if cpu.prev_ls() == 1 && !dep {
        1
    } else {
        2
    }
}

/// Register written by a data-processing or multiply instruction (255: none).
pub fn dp_dest(i: &Insn) -> u8 {
    match i.class {
        Class::Alu | Class::Mul | Class::Div => writes(i),
        _ => 255,
    }
}

/// "Any load or store that generates an address dependent on the result of a
/// preceding data processing operation stalls the pipeline for an additional
/// cycle whilst the register bank is updated. There is no forwarding path for
/// this scenario." (Cortex-M3/M4 TRM, load/store timings)
#[inline(always)]
pub fn agu_stall(prev_dp: u8, i: &Insn) -> u64 {
    if prev_dp == 255 {
        return 0;
    }
    let uses_rm = matches!(i.op, Op::LdR | Op::StR | Op::Tbb | Op::Tbh);
    (i.rn == prev_dp || (uses_rm && i.rm == prev_dp)) as u64
}

/// STR: immediate offset always 1 ("STR Rx,[Ry,#imm] is always one cycle");
/// register offset 2, 1 when following a load ("STR can only be pipelined
/// when it follows an LDR").
#[inline(always)]
pub fn store_cycles(cpu: &Cpu, i: &Insn) -> u64 {
    if i.op == Op::St || cpu.prev_ls() == 1 {
        1
    } else {
        2
    }
}

/// A load single (LDR/LDRH/LDRB/LDRSx, any addressing mode) or LDM/POP right after an
/// STR/STRH/STRB with an immediate offset (also pre/post-indexed) stalls one cycle:
/// "stores cannot be pipelined with following load instructions (adds extra cycle
/// to store)" and "stores can't be pipelined with following load multiple (but can
/// with stm)", measured with DWT CYCCNT on an STM32F407 (jnk0le, github.com/jnk0le/random,
/// "pipeline cycle test/doc/cortex_m3m4.md"). This is the TRM's overlap of the store's
/// data phase with the next instruction ("STR Rx,[Ry,#imm] is always one cycle ... the
/// data store is performed at the same time as the next instruction is executing"),
/// which a following load cannot share. STR with a register offset already takes two
/// cycles with nothing pipelined after it; VSTR, LDRD and VLDR are not covered (not
/// measured). Cortex-M4 only.
#[inline(always)]
pub fn store_load_stall(cpu: &Cpu) -> u64 {
    (cpu.core == Core::M4 && cpu.prev_ls() == 2) as u64
}

/// VLDR/VSTR: 1+N (N words), the first word pipelined behind a load.
pub fn fp_mem_cycles(cpu: &Cpu, i: &Insn) -> u64 {
    let words = 1 + i.sh as u64;
    if cpu.prev_ls() == 1 {
        words
    } else {
        1 + words
    }
}

pub fn it_folds(core: Core) -> bool {
    let _ = core;
    true
}

/// Registers an instruction reads (up to three; 255 = none) for the M7
/// dependency checks. Conservative where the operand fields are not used.
fn reads(i: &Insn) -> [u8; 3] {
    const N: u8 = 255;
    let acc = |r: u8| if r == 15 { N } else { r };
    match i.op {
        Op::DpImm => [i.rn, N, N],
        Op::DpReg => [i.rn, i.rm, N],
        Op::DpRegReg => [i.rm, i.ra, N],
        Op::Mul => [i.rn, i.rm, N],
        Op::Mla | Op::Mls => [i.rn, i.rm, i.ra],
        Op::Smulxy | Op::Smulwy | Op::Smuad | Op::Smusd | Op::Smmul | Op::Usad8 => {
            [i.rn, i.rm, acc(i.ra)]
        }
        Op::Smull | Op::Umull | Op::Sdiv | Op::Udiv => [i.rn, i.rm, N],
        Op::Smlal | Op::Umlal | Op::Umaal | Op::Smlalxy | Op::Smlald | Op::Smlsld => {
            [i.rn, i.rm, i.rd]
        }
        Op::Extend => [acc(i.rn), i.rm, N],
        Op::Ld | Op::Ldrd | Op::Ldrex | Op::Ldm | Op::Vldr | Op::Vldm => [i.rn, N, N],
        Op::LdR | Op::Tbb | Op::Tbh => [i.rn, i.rm, N],
        Op::St | Op::Strd => [i.rn, i.rd, N],
        Op::StR => [i.rn, i.rm, i.rd],
        Op::Bx | Op::Blx => [i.rm, N, N],
        Op::Cbz => [i.rn, N, N],
        Op::B | Op::Bl | Op::Bcond | Op::It | Op::Nop | Op::Movt => [N, N, N],
        _ => [i.rn, i.rm, N],
    }
}

/// Register an instruction writes (255 = none or several).
fn writes(i: &Insn) -> u8 {
    match i.op {
        Op::DpImm | Op::DpReg | Op::DpRegReg if i.sub >= alu::TST => 255,
        Op::Ld | Op::LdR if i.rd == 15 => 255,
        Op::St | Op::StR | Op::Strd | Op::Stm | Op::Vstr | Op::Vstm => 255,
        Op::Vdp | Op::Vldr | Op::Vldm | Op::VmovImm | Op::Vmsr | Op::Ldm => 255,
        Op::B | Op::Bcond | Op::Bl | Op::Bx | Op::Blx | Op::Cbz | Op::Tbb | Op::Tbh => 255,
        Op::It | Op::Nop | Op::Msr | Op::Cps | Op::Wfi | Op::Clrex | Op::Bkpt | Op::Svc => 255,
        _ => i.rd,
    }
}

/// Issue state of the Cortex-M7 estimate between instructions.
#[derive(Default, Clone, Copy)]
pub struct M7State {
    /// the previous instruction issued alone in the first slot of its cycle
    slot_free: bool,
    prev_dest: u8,
    prev_class: u8,
    prev_load_dest: u8,
}

/// Cortex-M7 estimate: dual issue of two single-cycle instructions when
/// they do not compete for the one load/store unit, the one MAC unit or the
/// FPU, and the second does not read the first's result (Cortex-M7 TRM
/// DDI 0489 section 1.2: "in-order superscalar, dual-issue"; pairing limits
/// from Arm's Cortex-M7 descriptions). A load result used by the next
/// instruction costs one extra cycle. Branches pair as second instruction.
pub fn m7_adjust(st: &mut M7State, i: &Insn, cyc: u64) -> u64 {
    let r = reads(i);
    let uses = |x: u8| x != 255 && r.contains(&x);
    let class = i.class as u8;
    let unit = |c: u8| -> u8 {
        match c {
            c if c == Class::Load as u8
                || c == Class::Store as u8
                || c == Class::LoadMulti as u8
                || c == Class::StoreMulti as u8
                || c == Class::FpMem as u8 =>
            {
                1
            }
            c if c == Class::Mul as u8 || c == Class::Div as u8 => 2,
            c if c == Class::Fp as u8 => 3,
            _ => 0,
        }
    };
    let mut out = cyc;
    let mut paired = false;
    if uses(st.prev_load_dest) {
        out += 1;
    } else if st.slot_free
        && cyc == 1
        && !uses(st.prev_dest)
        && (unit(class) == 0 || unit(class) != unit(st.prev_class))
    {
        out = 0;
        paired = true;
    }
    st.slot_free = !paired && cyc == 1;
    st.prev_dest = writes(i);
    st.prev_class = class;
    st.prev_load_dest = if class == Class::Load as u8 {
        writes(i)
    } else {
        255
    };
    out
}

/// Cortex-M7 double-precision cost by operand values (estimate): the cycles an
/// FP64 arithmetic instruction occupies the core, replacing `base` (the value of
/// `base_cycles`) for the operations and operand classes that were measured.
///
/// Source: measured cycles per instruction on a Cortex-M7 (STM32H743, DWT CYCCNT,
/// independent instructions, operands 1.0 and, for "different exponents", 0.25),
/// jnk0le, "pipeline cycle test", doc/cortex_m7.md section "fpu (double
/// precision)", github.com/jnk0le/random:
///
/// | instruction | same exponent | different exponents | one denormal | one zero |
/// |---|---|---|---|---|
/// | VADD.F64 | 1 | 2 | 3 | 3 |
/// | VMUL.F64 | 5 | 5 | 5 | 4 |
/// | VDIV.F64 | 30 | 30 | 30 | 2 |
/// | VFMA.F64 (first of a chain) | 7 | 8 | 10 | 6 |
/// | VMLA.F64 (first of a chain) | 8 | 9 | 10 | 7 |
///
/// (the same page: single precision is not affected by denormals). Arm's own
/// LLVM scheduling model of the Cortex-M7 (llvm/lib/Target/ARM/ARMScheduleM7.td)
/// agrees on the order of magnitude: FP64 add latency 4, multiply 7, MAC 11,
/// divide and square root 30, each occupying the FP pipe for two cycles; and Howe
/// and Westerbaan (Africacrypt 2023, eprint 2022/405) found FP64 timing
/// irregularities on four STM32 Cortex-M7 boards. Extrapolations of this
/// estimate: VSUB as VADD, VNMUL as VMUL, VFMS/VFNMA/VFNMS as VFMA,
/// VMLS/VNMLA/VNMLS as VMLA; for the MACs "different exponents" means the
/// product's exponent differs from the accumulator's and the operand classes are
/// those of the multiplicands; VDIV's zero case applies to either operand (the
/// source does not say which); VSQRT and the other FP64 instructions keep `base`;
/// chained MACs (one cycle less on the board) are not distinguished; infinities
/// and NaNs keep the same-exponent cost.
pub fn m7_fp64_cycles(op: u8, a: u64, b: u64, acc: u64, base: u64) -> u64 {
    let exp = |x: u64| (x >> 52) & 0x7ff;
    let zero = |x: u64| x << 1 == 0;
    let denormal = |x: u64| exp(x) == 0 && !zero(x);
    let any_zero = zero(a) || zero(b);
    let any_denormal = denormal(a) || denormal(b);
    // columns: same exponent, different exponents, one denormal, one zero
    let pick = |t: [u64; 4], diff: bool| {
        if any_zero {
            t[3]
        } else if any_denormal {
            t[2]
        } else if diff {
            t[1]
        } else {
            t[0]
        }
    };
    match op {
        fop::VADD | fop::VSUB => pick([1, 2, 3, 3], exp(a) != exp(b)),
        fop::VMUL | fop::VNMUL => pick([5, 5, 5, 4], false),
        fop::VDIV => pick([30, 30, 30, 2], false),
        fop::VFMA
        | fop::VFMS
        | fop::VFNMA
        | fop::VFNMS
        | fop::VMLA
        | fop::VMLS
        | fop::VNMLA
        | fop::VNMLS => {
            // exponent of the product, before normalisation
            let pe = exp(a) + exp(b);
            let diff = !zero(acc) && pe != exp(acc) + 1023;
            if matches!(op, fop::VFMA | fop::VFMS | fop::VFNMA | fop::VFNMS) {
                pick([7, 8, 10, 6], diff)
            } else {
                pick([8, 9, 10, 7], diff)
            }
        }
        _ => base,
    }
}
