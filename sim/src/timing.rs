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
//! Branch refill P: 2 cycles (taken branch = 3 cycles total), 3 when the target
//! is a 32-bit instruction that is not word aligned (it needs two fetches).
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
use crate::decode::{fop, Insn, Op};

pub const EXC_ENTRY: u64 = 12;
pub const EXC_RETURN: u64 = 10;
pub const MODEL_VERSION: &str = "pqlab-sim timing m4-v1 / m7-estimate-v1";

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
        Op::Tbb | Op::Tbh => 2,
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
        Core::M4 => 2,
        // Cortex-M7: branch predictor; a correctly predicted taken branch costs
        // little. Estimate: 1 cycle.
        Core::M7 => {
            let _ = target;
            1
        }
    }
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

/// LDR family: 2 cycles, 1 when pipelined behind a load/store single whose
/// result is not the address of this load; loads into PC block.
#[inline(always)]
pub fn load_cycles(cpu: &Cpu, i: &Insn) -> u64 {
    let prev = cpu.prev_ls();
    let dep = cpu.prev_load_rt() == i.rn || (i.op == Op::LdR && cpu.prev_load_rt() == i.rm);
    if i.rd == 15 {
        return 2;
    }
    if (prev == 1 || prev == 2) && !(prev == 1 && dep) {
        1
    } else {
        2
    }
}

/// STR: immediate offset always 1; register offset 2, 1 when following a load.
#[inline(always)]
pub fn store_cycles(cpu: &Cpu, i: &Insn) -> u64 {
    if i.op == Op::St || cpu.prev_ls() == 1 {
        1
    } else {
        2
    }
}

/// VLDR/VSTR: 1+N (N words), the first word pipelined behind a load/store.
pub fn fp_mem_cycles(cpu: &Cpu, i: &Insn) -> u64 {
    let words = 1 + i.sh as u64;
    let prev = cpu.prev_ls();
    if prev == 1 || prev == 2 {
        words
    } else {
        1 + words
    }
}

pub fn it_folds(core: Core) -> bool {
    let _ = core;
    true
}
