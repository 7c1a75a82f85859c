// SPDX-License-Identifier: MIT
//! The Cortex-M timing models, one type per core (`CortexM4`, `CortexM7`), each owning its
//! state. The Thumb interpreter (arm/cpu.rs) is generic over `CortexTiming`: it lets the
//! model annotate each decoded instruction, asks it for the fetch stall before an
//! instruction executes, reports each executed one as an `Event` and each exception entry
//! and return, and adds the cycles the model returns to the clock; it computes none itself.
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
//! m4-v5 (issue 23, docs/sim.md "Model m4-v5"): a 32-bit load at an address 2 mod 4 is not
//! pipelined (`load_cycles`); a load or store whose base or offset register the preceding
//! load single loaded stalls one cycle (`agu_stall`); the store-then-load stall covers
//! STRD and LDRD (`store_load_stall`); in a group of unaligned 32-bit instructions each
//! change between memory and non-memory members after the third costs one cycle
//! (`CortexM4::fetch`, `UW_NEXT`). Sources: jnk0le's STM32F407 measurements and
//! compendium.i-0.nl's alignment rules, cited at each rule.
//! m4-v6 (issue 23, docs/sim.md "Model m4-v6"): a pre- or post-indexed store right after one
//! on the same base register stalls one cycle (`wb_store_chain`, jnk0le's STM32F407
//! measurement).
//! m4-v7 (issue 23, docs/sim.md "Model m4-v7"): with the memory set-up `stm32l4r5` (`--memory`,
//! timing/m4mem.rs: the flash and SRAM1/SRAM2/SRAM3 blocks of pqm4's NUCLEO-L4R5ZI) a load or
//! store single right after a load single in another block is not pipelined with it
//! (`block_stall`, jnk0le's STM32F407 measurement); without the set-up (the default) nothing
//! changed from m4-v6.
//! Division: 2 cycles when the dividend is smaller than the divisor, else
//! 3 + (number of quotient bits - 1) / 3, capped at 12; an approximation of the
//! documented early termination ("based on the number of leading ones and
//! zeroes in the input operands").
//!
//! Cortex-M7 (estimate, m7-estimate-v4): the per-instruction table with the M7
//! costs of loads, stores and load/store multiple, adjusted by dual issue,
//! result latencies and branch prediction in `m7_adjust` (pairing classes and
//! register masks precomputed by `m7_info`), the operand-dependent FP64
//! costs of `m7_fp64_cycles`, the FP register result latencies of
//! `CortexM7::fp_issue` (v4) and the memory set-up of `m7mem` (v4: TCM by default,
//! or an STM32F7's flash and L1 caches); sources in the "Cortex-M7 estimate"
//! section below.

use crate::arm::decode::{alu, fop, Class, Insn, Op};
use crate::timing::{m4mem, m7mem};

pub const EXC_ENTRY: u64 = 12;
pub const EXC_RETURN: u64 = 10;
pub const MODEL_VERSION: &str = "pqlab-sim timing m4-v7 / m7-estimate-v4";

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
        // Cortex-M7: "load/store pair/multiple (incl pushpop) ... takes
        // ceil(regnum/2) cycles to execute" (jnk0le, doc/cortex_m7.md)
        Op::Ldrd | Op::Strd if core == Core::M7 => 1,
        Op::Ldm | Op::Stm if core == Core::M7 => ((n + 1) / 2).max(1),
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
fn refill(core: Core, target: u32) -> u64 {
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
fn late_branch(core: Core) -> u64 {
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

/// The Cortex-M4 model: its pipeline state between instructions. It is told about each
/// executed instruction by an `Event` (`CortexTiming::step`) and returns its cycles.
/// `MEM` (m4-v7): the memory set-up `stm32l4r5` (`m4mem`: the blocks of pqm4's board, in
/// which loads and stores pipeline only within one block, `block_stall`); false (the
/// default) for the machine's memory as one block, whose copy of the run loop then has no
/// memory-block code at all.
pub struct CortexM4<const MEM: bool = false> {
    /// previous instruction: 1 load single, 2 store with immediate offset, 0 other
    /// (3: store with a register offset, 4: VSTR, neither pipelined with what follows)
    prev_ls: u8,
    /// destination of the previous load single; after a store with writeback (pre- or
    /// post-indexed, `prev_ls` 2), its base register (m4-v6, `wb_store_chain`); 255: none
    prev_load_rt: u8,
    /// length in bytes of the previous instruction
    prev_len: u8,
    /// register the previous instruction wrote if it was a data-processing instruction or
    /// (m4-v5) a load single: the address-generation stall (`agu_stall`; 255: none)
    prev_dp: u8,
    /// the fetch rule's state (`UW_NEXT`): 2 x the run of consecutive 32-bit instructions at
    /// addresses 2 mod 4 so far (at most 4) + whether its last member was a memory instruction
    uw: u8,
    /// `MEM`: the memory block (`m4mem::block`) of the last load single (LDR*, VLDR); read
    /// only while `prev_ls` is 1
    prev_blk: u8,
}

impl<const MEM: bool> Default for CortexM4<MEM> {
    fn default() -> Self {
        CortexM4 {
            prev_ls: 0,
            prev_load_rt: 255,
            prev_len: 4,
            prev_dp: 255,
            uw: 0,
            prev_blk: m4mem::OTHER,
        }
    }
}

/// Cortex-M4 LDR family: 2 cycles, 1 when pipelined behind a load single whose result
/// is not the address of this load ("LDR [any] are pipelined when possible":
/// if the next instruction is an LDR or STR and the destination of the first
/// LDR is not used to compute its address, one cycle is removed); loads into
/// PC block (2 cycles, plus the refill).
#[inline(always)]
fn load_cycles<const MEM: bool>(cpu: &CortexM4<MEM>, i: &Insn) -> u64 {
    // the load's address registers (`agu2`: its offset register, or its base again) against
    // the destination of the previous load single
    let dep = cpu.prev_load_rt == i.rn || cpu.prev_load_rt == agu2(i);
    // never pipelined (`M4_NOPIPE`, decided at decode by `load_nopipe`): 2 cycles
    if i.rmask & M4_NOPIPE == 0 && cpu.prev_ls == 1 && !dep {
        1
    } else {
        2
    }
}

/// The loads `load_cycles` never pipelines, decided once per decoded instruction:
/// loads into PC block (2 cycles, plus the refill).
/// "Any load with a base update is not normally pipelined. That is, base update
/// load is generally at least a two-cycle operation" (Cortex-M3/M4 TRM load/store
/// timings); measured on an STM32 Cortex-M4: "When a sequence of loads starts with
/// a load using writeback, this instruction will take extra cycles, each subsequent
/// load using writeback will also take extra cycles" (compendium.i-0.nl "Load
/// placement"). Pre/post-indexed LDR with writeback: 2 cycles, never pipelined.
/// m4-v5: "32bit opcode loads (ldr.w, ldrb.w) may fail to pipeline correctly if they are
/// not positioned at word aligned boundaries" (jnk0le, "pipeline cycle test",
/// doc/cortex_m3m4.md, STM32F407): a 32-bit load at an address 2 mod 4 is not pipelined.
fn load_nopipe(i: &Insn) -> bool {
    i.rd == 15 || (i.op == Op::Ld && i.ra & 2 != 0) || i.emask & UW != 0
}

/// The second register an instruction's address depends on (Cortex-M4 model, set at decode
/// in `Insn::rmask`'s low byte): the offset register of LDR/STR (register offset) and
/// TBB/TBH, else the base register again (comparing it twice changes nothing).
#[inline(always)]
fn agu2(i: &Insn) -> u8 {
    i.rmask as u8
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
/// m4-v5: the same when the base or offset register was loaded by the immediately
/// preceding load single: "base address and offset must be available 1 cycle earlier
/// than normally" (jnk0le, "pipeline cycle test", doc/cortex_m3m4.md, measured on an
/// STM32F407, for loads and stores alike); the TRM's load pipelining already gives such
/// a load its full two cycles, so the pair LDR Rx,[..]; LDR Ry,[Rx] takes 2 + 3.
/// Both cases are one register, `CortexM4::prev_dp`: the one the preceding instruction
/// wrote if it was a data-processing instruction or a load single (255: none).
#[inline(always)]
fn agu_stall(prev_dp: u8, i: &Insn) -> u64 {
    (prev_dp != 255 && (i.rn == prev_dp || agu2(i) == prev_dp)) as u64
}

/// STR: immediate offset always 1 ("STR Rx,[Ry,#imm] is always one cycle");
/// register offset 2, 1 when following a load ("STR can only be pipelined
/// when it follows an LDR").
#[inline(always)]
fn store_cycles<const MEM: bool>(cpu: &CortexM4<MEM>, i: &Insn) -> u64 {
    if i.op == Op::St || cpu.prev_ls == 1 {
        1
    } else {
        2
    }
}

/// m4-v6: a pre- or post-indexed store (STR/STRH/STRB with writeback) right after one with
/// the same base register stalls one cycle: "post and pre indexed stores cannot be chained
/// back to back on same register base address (alternating 2 different registers works)"
/// (jnk0le, "pipeline cycle test", doc/cortex_m3m4.md, measured on an STM32F407 and an
/// STM32F103; the immediate-offset store otherwise "effectively execute[s] in 1 cycle").
/// `prev_load_rt` holds the previous store's base when it had writeback (else 255).
#[inline(always)]
fn wb_store_chain<const MEM: bool>(cpu: &CortexM4<MEM>, i: &Insn) -> u64 {
    (cpu.prev_ls == 2 && i.ra & 2 != 0 && i.op == Op::St && cpu.prev_load_rt == i.rn) as u64
}

/// m4-v7, memory set-up `stm32l4r5` only (`CortexM4<true>`, `m4mem`): a load or store single
/// right after a load single in another memory block takes one more cycle: "load pipelining
/// happens only when targeting the same memory block by all loads (e.g. SRAM1 vs SRAM2 (and
/// CCM) on f407)" and "stores can pipeline with preceding load (incl data forwarding) only
/// when targeting the same memory block" (jnk0le, "pipeline cycle test", doc/cortex_m3m4.md,
/// measured with DWT CYCCNT on an STM32F407). For a load it undoes the pipelining that
/// `load_cycles` gave (a load it does not pipeline already takes 2); a store, which the model
/// charges 1 after a load, takes 2. `prev_ls == 1`: the previous instruction was a load single
/// (LDR*, VLDR), whose block is `prev_blk`. Load and store multiple, LDRD/STRD, VLDM/VSTM and
/// VSTR are not covered (no address in the event, or not measured).
#[inline(always)]
fn block_stall<const MEM: bool>(cpu: &CortexM4<MEM>, blk: u8) -> u64 {
    (MEM && cpu.prev_ls == 1 && cpu.prev_blk != blk) as u64
}

/// Cortex-M7 estimate: a load single (LDR*) takes one issue cycle, its result
/// latencies and pairing are in `m7_adjust`; LDR PC blocks (2, plus the refill).
/// (The Cortex-M4 rules are `load_cycles`, `agu_stall`, `store_load_stall`.)
#[inline(always)]
fn m7_load_cycles(i: &Insn) -> u64 {
    1 + (i.rd == 15) as u64
}

/// Cortex-M7 estimate: a store single (STR*) takes one issue cycle (pairing in
/// `m7_adjust`). (The Cortex-M4 rule is `store_cycles`.)
const M7_STORE_CYCLES: u64 = 1;

/// A load single (LDR/LDRH/LDRB/LDRSx, any addressing mode), LDRD (m4-v5) or LDM/POP right
/// after an STR/STRH/STRB with an immediate offset (also pre/post-indexed) or an STRD
/// (m4-v5) stalls one cycle:
/// "stores cannot be pipelined with following load instructions (adds extra cycle
/// to store)" and "stores can't be pipelined with following load multiple (but can
/// with stm)", measured with DWT CYCCNT on an STM32F407 (jnk0le, github.com/jnk0le/random,
/// "pipeline cycle test/doc/cortex_m3m4.md"). This is the TRM's overlap of the store's
/// data phase with the next instruction ("STR Rx,[Ry,#imm] is always one cycle ... the
/// data store is performed at the same time as the next instruction is executing"),
/// which a following load cannot share. STR with a register offset already takes two
/// cycles with nothing pipelined after it. m4-v5 extends it to LDRD and STRD: jnk0le's
/// statement is about stores and loads in general, and the TRM says "LDRD and STRD cannot
/// be pipelined with preceding or following instructions". VSTR and VLDR are not covered
/// (not measured). Cortex-M4 only.
#[inline(always)]
fn store_load_stall<const MEM: bool>(cpu: &CortexM4<MEM>) -> u64 {
    (cpu.prev_ls == 2) as u64
}

/// Cortex-M4 VLDR/VSTR: 1+N (N words), the first word pipelined behind a load. (Cortex-M7:
/// one cycle, VLDR.D/VSTR.D as a pair ceil(2/2); jnk0le, doc/cortex_m7.md: "vldm behaves
/// as regular ldm".)
fn fp_mem_cycles<const MEM: bool>(cpu: &CortexM4<MEM>, i: &Insn) -> u64 {
    let words = 1 + i.sh as u64;
    if cpu.prev_ls == 1 {
        words
    } else {
        1 + words
    }
}

/// VLDM/VSTM/VPUSH/VPOP of `words` words: 1+N on the Cortex-M4 (TRM table 7-1);
/// ceil(N/2) on the Cortex-M7 ("vldm behaves as regular ldm", whose cost is
/// ceil(regnum/2): jnk0le, doc/cortex_m7.md).
fn fp_multi_cycles(core: Core, words: u32) -> u64 {
    match core {
        Core::M4 => 1 + words as u64,
        Core::M7 => ((words as u64 + 1) / 2).max(1),
    }
}

/// What the Thumb front end (arm/cpu.rs) reports about one executed instruction; the
/// timing model takes the rest (instruction class, registers read and written, operand
/// width) from the decoded instruction, which its `annotate` prepared at decode time.
#[derive(Clone, Copy)]
pub struct Event<'a> {
    pub i: &'a Insn,
    /// address of the instruction
    pub pc: u32,
    /// address of the next instruction (a taken branch's target, an exception handler)
    pub npc: u32,
    /// the instruction transferred control (a taken branch, a write to the PC, a return
    /// from an exception): the pipeline refills from `npc`
    pub taken: bool,
    /// `taken` and the target is a 32-bit instruction at an address that is 2 mod 4 (only
    /// reported to models with `TARGET_WIDTH`)
    pub target_split: bool,
    /// data address of a load or store single (LDR*, STR*, VLDR, VSTR)
    pub addr: u32,
    /// SDIV/UDIV: dividend and divisor
    pub div: [u32; 2],
    /// double-precision data processing: the bits of the operands n, m and d
    pub fp: [u64; 3],
}

/// The base cost in `Insn::cyc`; the Cortex-M4 model marks in the bits above it the
/// instructions whose cost has a rule beyond the base cost (load and store single, the
/// general rules: branches, divisions, multiple ...); the others, most instructions, take
/// `step`'s short path.
pub const BASE: u8 = 0x1f;
/// Cortex-M4 fetch bits in `Insn::emask` (the M7 model uses the field for its own masks):
/// a 32-bit instruction at an address that is 2 mod 4, and whether it is a memory
/// instruction (mixed unaligned groups, `CortexM4::fetch`).
const UW: u16 = 1;
const UW_MEM: u16 = 2;

/// `CortexM4::fetch` as a table: entry `state << 1 | mem` (state = 2 x run + last member's
/// memory bit, run capped at 4; mem: this member is a memory instruction) holds the next
/// state << 1 | the extra cycle: 1 at the third member of a run, and after the third, 1 at
/// each change between memory and non-memory members.
const UW_NEXT: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut idx = 0;
    while idx < 20 {
        let (run, last, mem) = (idx >> 2, (idx >> 1) & 1, idx & 1);
        let run1 = if run + 1 > 4 { 4 } else { run + 1 };
        let extra = (run1 == 3 || (run1 == 4 && mem != last)) as usize;
        t[idx] = ((((run1 << 1) | mem) << 1) | extra) as u8;
        idx += 1;
    }
    t
};
const M4_LOAD: u8 = 0x20;
const M4_STORE: u8 = 0x40;
const M4_OTHER: u8 = 0x60;
/// Cortex-M4 model: `Insn::rmask` (a field of the Cortex-M7 model otherwise) holds the
/// second address register (`agu2`) in its low byte and this bit for a load that
/// `load_cycles` never pipelines (`load_nopipe`).
const M4_NOPIPE: u16 = 0x100;

/// A Cortex-M timing model: owns its state, annotates instructions at decode time and
/// returns the cycles of each executed one. The interpreter is generic over it (one copy
/// of the run loop per core, no dynamic dispatch per instruction).
pub trait CortexTiming: Default {
    const CORE: Core;
    /// the model needs `Event::target_split`
    const TARGET_WIDTH: bool;
    /// Precompute what the model reads from a decoded instruction (base cycles, register
    /// masks, pairing class): called once per decoded instruction.
    /// `pc`: the instruction's address (the decode cache holds one entry per address).
    fn annotate(i: &mut Insn, pc: u32);
    /// Cycles the fetch of the instruction at `pc` adds before it executes.
    fn fetch(&mut self, i: &Insn, pc: u32) -> u64;
    /// Cycles of an executed instruction; `now`: the clock before it.
    fn step(&mut self, e: &Event, now: u64) -> u64;
    /// The model has short paths for the block loop's specialised instructions (`simple`,
    /// `step_simple`, `step_load`, `step_store`; arm/block.rs `form`): without, the block
    /// loop runs every instruction through the general interpreter and `step`.
    const FORMS: bool = false;
    /// `step` takes its base-cost path for this instruction (no event field matters).
    fn simple(_i: &Insn) -> bool {
        false
    }
    /// `step` of an instruction `simple` accepted.
    #[inline(always)]
    fn step_simple(&mut self, e: &Event, now: u64) -> u64 {
        self.step(e, now)
    }
    /// `step` of a load single (LDR, LDRH, LDRB, LDRSH, LDRSB; not into the PC).
    #[inline(always)]
    fn step_load(&mut self, e: &Event, now: u64) -> u64 {
        self.step(e, now)
    }
    /// `step` of a store single (STR, STRH, STRB).
    #[inline(always)]
    fn step_store(&mut self, e: &Event, now: u64) -> u64 {
        self.step(e, now)
    }
    /// Cycles of an instruction skipped by its IT block (condition failed).
    fn skipped(&mut self, i: &Insn) -> u64;
    /// Cycles of an exception entry (SysTick, SVC): the stacking.
    fn exception_entry(&mut self) -> u64;
    /// Cycles of an exception return: the unstacking.
    fn exception_return(&mut self) -> u64;
    /// Select the memory set-up (`--memory`); false when the model has no such set-up
    /// (the Cortex-M7 estimate's STM32F7 set-ups, `m7mem`; the Cortex-M4's `stm32l4r5`,
    /// `m4mem`).
    fn set_memory(&mut self, s: m7mem::Setup) -> bool {
        s == m7mem::Setup::Tcm
    }
}

impl<const MEM: bool> CortexTiming for CortexM4<MEM> {
    const CORE: Core = Core::M4;
    const TARGET_WIDTH: bool = true;

    fn annotate(i: &mut Insn, pc: u32) {
        // the fetch rule's case, a 32-bit instruction at an address that is 2 mod 4, in a
        // field only the Cortex-M7 model reads otherwise
        let mem = matches!(
            i.op,
            Op::Ld
                | Op::LdR
                | Op::St
                | Op::StR
                | Op::Ldrd
                | Op::Strd
                | Op::Ldm
                | Op::Stm
                | Op::Vldr
                | Op::Vstr
                | Op::Vldm
                | Op::Vstm
        );
        i.emask = if i.len == 4 && pc & 2 != 0 {
            UW | if mem { UW_MEM } else { 0 }
        } else {
            0
        };
        // which path of `step` the instruction takes (the bits above BASE)
        let path = match i.op {
            Op::Ld | Op::LdR => M4_LOAD,
            Op::St | Op::StR => M4_STORE,
            Op::DpImm | Op::DpReg if i.rd == 15 && i.sub < alu::TST => M4_OTHER,
            Op::Sdiv | Op::Udiv | Op::Ldrd | Op::Strd | Op::Stm | Op::Ldm => M4_OTHER,
            Op::Bx | Op::Blx | Op::Tbb | Op::Tbh | Op::B | Op::Bl | Op::Bcond | Op::Cbz => M4_OTHER,
            Op::It | Op::Vldr | Op::Vstr | Op::Vldm | Op::Vstm => M4_OTHER,
            _ => 0,
        };
        i.cyc = base_cycles(Core::M4, i) | path;
        i.wr = dp_dest(i);
        let second = if matches!(i.op, Op::LdR | Op::StR | Op::Tbb | Op::Tbh) {
            i.rm
        } else {
            i.rn
        };
        i.rmask = second as u16 | if load_nopipe(i) { M4_NOPIPE } else { 0 };
    }

    /// "Groups of three or more unaligned wide instructions will take one extra cycle"
    /// (module comment). m4-v5: "A group of unaligned wide instructions consisting of a mix
    /// of memory and non-memory instructions can cause more than one delay cycle"
    /// (compendium.i-0.nl, "Alignment rules", measured on an STM32 Cortex-M4): after the
    /// third member, each change between a memory and a non-memory instruction within the
    /// group costs one more cycle.
    #[inline(always)]
    fn fetch(&mut self, i: &Insn, _pc: u32) -> u64 {
        if i.emask != 0 {
            let e = UW_NEXT[((self.uw as usize) << 1 | (i.emask as usize >> 1)) & 31];
            self.uw = e >> 1;
            return (e & 1) as u64;
        }
        self.uw = 0;
        0
    }

    const FORMS: bool = true;

    /// The instructions `annotate` gives no path bits (base cost).
    fn simple(i: &Insn) -> bool {
        i.cyc & !BASE == 0
    }

    #[inline(always)]
    fn step_simple(&mut self, e: &Event, _now: u64) -> u64 {
        let i = e.i;
        self.prev_dp = i.wr;
        self.prev_ls = 0;
        self.prev_len = i.len;
        i.cyc as u64
    }

    /// The load path of `step` (`annotate`: every LDR* has the path `M4_LOAD`).
    #[inline(always)]
    fn step_load(&mut self, e: &Event, _now: u64) -> u64 {
        let i = e.i;
        let pipelined = load_cycles(self, i);
        let mut cyc = pipelined + agu_stall(self.prev_dp, i) + store_load_stall(self);
        if MEM {
            // m4-v7 (`stm32l4r5`): a pipelined load in another block than the previous
            // load takes its two cycles
            let blk = m4mem::block(e.addr);
            cyc += (pipelined == 1) as u64 * block_stall(self, blk);
            self.prev_blk = blk;
        }
        // LDR PC blocks: 2 (load) + 3 (reload)
        if e.taken {
            self.uw = 0;
            cyc += 2 + refill(Core::M4, e.npc) + e.target_split as u64;
        }
        self.prev_load_rt = i.rd;
        // the loaded register: base or offset of the next load or store one cycle late
        self.prev_dp = i.rd;
        self.prev_ls = 1;
        self.prev_len = i.len;
        cyc
    }

    /// The store path of `step` (`annotate`: every STR* has the path `M4_STORE`).
    #[inline(always)]
    fn step_store(&mut self, e: &Event, _now: u64) -> u64 {
        let i = e.i;
        let mut cyc = store_cycles(self, i) + agu_stall(self.prev_dp, i) + wb_store_chain(self, i);
        if MEM {
            // m4-v7 (`stm32l4r5`): not pipelined with a load in another block
            cyc += block_stall(self, m4mem::block(e.addr));
        }
        self.prev_dp = i.wr;
        // the base of a store with writeback, for the next store (wb_store_chain); the
        // loads read `prev_load_rt` only after a load single
        self.prev_load_rt = if i.op == Op::St && i.ra & 2 != 0 {
            i.rn
        } else {
            255
        };
        // 2: STR with an immediate offset (store_load_stall), 3: register offset
        self.prev_ls = if i.op == Op::St { 2 } else { 3 };
        self.prev_len = i.len;
        cyc
    }

    #[inline(always)]
    fn step(&mut self, e: &Event, now: u64) -> u64 {
        let i = e.i;
        let path = i.cyc & !BASE;
        if path == 0 {
            // the base cost (the common case)
            return self.step_simple(e, now);
        }
        let mut cyc = (i.cyc & BASE) as u64;
        let mut ls: u8 = 0;
        if path == M4_LOAD {
            return self.step_load(e, now);
        }
        if path == M4_STORE {
            return self.step_store(e, now);
        }
        match i.op {
            // ALU write to PC: a late branch
            Op::DpImm | Op::DpReg => cyc += e.taken as u64 * late_branch(Core::M4),
            Op::Sdiv | Op::Udiv => {
                cyc = div_cycles(Core::M4, i.op == Op::Sdiv, e.div[0], e.div[1]);
            }
            Op::Ldrd => cyc += agu_stall(self.prev_dp, i) + store_load_stall(self),
            Op::Strd => {
                cyc += agu_stall(self.prev_dp, i);
                // a store whose data phase a following load cannot share (store_load_stall)
                ls = 2;
                // no store base for wb_store_chain: its source names single stores only
                self.prev_load_rt = 255;
            }
            Op::Stm => cyc += agu_stall(self.prev_dp, i),
            Op::Ldm => {
                cyc += agu_stall(self.prev_dp, i) + store_load_stall(self);
                cyc += e.taken as u64 * late_branch(Core::M4);
            }
            Op::Bx | Op::Blx => cyc += late_branch(Core::M4),
            // TBB/TBH: 2 (load) + 1 (add) + 3 (reload) (TRM)
            Op::Tbb | Op::Tbh => cyc += 2 + agu_stall(self.prev_dp, i),
            // folded behind a 16-bit instruction
            Op::It if self.prev_len == 2 => cyc = 0,
            Op::Vldr | Op::Vstr => {
                cyc = fp_mem_cycles(self, i) + agu_stall(self.prev_dp, i);
                if MEM && i.op == Op::Vldr {
                    // m4-v7 (`stm32l4r5`): its first word pipelined behind a load only in
                    // the same block
                    let blk = m4mem::block(e.addr);
                    cyc += block_stall(self, blk);
                    self.prev_blk = blk;
                }
                // VSTR: 4, a store that store_load_stall does not cover
                ls = if i.op == Op::Vldr { 1 } else { 4 };
                self.prev_load_rt = 255;
            }
            Op::Vldm | Op::Vstm => {
                let words = if i.sh != 0 { 2 * i.imm } else { i.imm };
                cyc = fp_multi_cycles(Core::M4, words) + agu_stall(self.prev_dp, i);
            }
            _ => {}
        }
        if e.taken {
            self.uw = 0;
            cyc += refill(Core::M4, e.npc) + e.target_split as u64;
        }
        self.prev_dp = i.wr;
        self.prev_ls = ls;
        self.prev_len = i.len;
        cyc
    }

    #[inline(always)]
    fn skipped(&mut self, i: &Insn) -> u64 {
        self.prev_ls = 0;
        self.prev_dp = 255;
        self.prev_len = i.len;
        1
    }

    fn exception_entry(&mut self) -> u64 {
        self.prev_ls = 0;
        EXC_ENTRY
    }

    fn exception_return(&mut self) -> u64 {
        EXC_RETURN
    }

    /// The copy of the model for the set-up: `CortexM4<false>` for the machine's memory as
    /// one block (`tcm`, the default), `CortexM4<true>` for `stm32l4r5` (`m4mem`).
    fn set_memory(&mut self, s: m7mem::Setup) -> bool {
        match s {
            m7mem::Setup::Tcm => !MEM,
            m7mem::Setup::Stm32l4r5 => MEM,
            _ => false,
        }
    }
}

/// The Cortex-M7 estimate: its state between instructions (dual issue, result latencies,
/// branch prediction in `M7State`, the FP register scoreboard). `MEM`: the memory set-up
/// is one of `m7mem::Setup::Stm32f7` (flash and L1 caches in `mem`); false for TCM, whose
/// copy of the run loop then has no memory-system code at all.
#[derive(Default)]
pub struct CortexM7<const MEM: bool> {
    /// length in bytes of the previous instruction
    prev_len: u8,
    st: M7State,
    /// FP register scoreboard (`fp_issue`): per S register (Dn = S2n, S2n+1), the
    /// cycle from which an instruction reading it at its issue stage finds the
    /// pending result (boxed, as `M7State::bp`: keeps the hot state compact)
    fp_ready: Box<[u64; 32]>,
    mem: Box<m7mem::Memory>,
}

impl<const MEM: bool> CortexTiming for CortexM7<MEM> {
    const CORE: Core = Core::M7;
    const TARGET_WIDTH: bool = false;

    fn annotate(i: &mut Insn, _pc: u32) {
        i.cyc = base_cycles(Core::M7, i);
        m7_info(i);
    }

    /// The instruction cache and flash (`m7mem`, `--memory stm32f7*`): a fetch that misses
    /// stalls before the instruction executes (a load of the DWT cycle counter sees it);
    /// the instruction then issues alone, every earlier result latency has passed.
    #[inline(always)]
    fn fetch(&mut self, _i: &Insn, pc: u32) -> u64 {
        if !MEM {
            return 0;
        }
        let f = self.mem.fetch(pc);
        if f != 0 {
            self.st.row = 0x1ff;
            self.st.cur = 0;
            self.st.prev = 0;
            self.st.one = false;
        }
        f
    }

    #[inline(always)]
    fn step(&mut self, e: &Event, now: u64) -> u64 {
        let i = e.i;
        let mut cyc = i.cyc as u64;
        // refill of a taken branch with an immediate target: before the instruction's
        // issue (it counts in the clock m7_adjust sees). FP register result latencies
        // (`fp_issue`) and data cache misses (`m7mem`): a stalled instruction issues alone
        let mut pre = 0;
        match i.op {
            Op::DpImm | Op::DpReg | Op::Ldm | Op::Bx | Op::Blx if e.taken => {
                cyc += refill(Core::M7, e.npc) + late_branch(Core::M7);
            }
            Op::Sdiv | Op::Udiv => {
                cyc = div_cycles(Core::M7, i.op == Op::Sdiv, e.div[0], e.div[1]);
            }
            Op::Ld | Op::LdR => {
                self.st.addr = e.addr;
                cyc = m7_load_cycles(i);
                if e.taken {
                    cyc += refill(Core::M7, e.npc);
                }
                if MEM {
                    cyc += self.mem.data(e.addr);
                }
            }
            Op::St | Op::StR => {
                cyc = M7_STORE_CYCLES;
                if MEM {
                    cyc += self.mem.data(e.addr);
                }
            }
            Op::B | Op::Bl | Op::Bcond | Op::Cbz | Op::Tbb | Op::Tbh if e.taken => {
                pre = refill(Core::M7, e.npc);
            }
            Op::It if self.prev_len == 2 => cyc = 0,
            Op::Vldr | Op::Vstr => {
                self.st.addr = e.addr;
                cyc = 1 + self.fp_issue(i, now);
                if MEM {
                    cyc += self.mem.data(e.addr);
                }
            }
            Op::Vldm | Op::Vstm => {
                let words = if i.sh != 0 { 2 * i.imm } else { i.imm };
                cyc = fp_multi_cycles(Core::M7, words);
            }
            Op::Vdp => {
                if i.sh != 0 {
                    cyc = m7_fp64_cycles(i.sub, e.fp[0], e.fp[1], e.fp[2], cyc);
                }
                cyc += self.fp_issue(i, now);
            }
            Op::VmovImm | Op::VmovS | Op::Vmov2 | Op::VmovScalar => {
                cyc += self.fp_issue(i, now);
            }
            _ => {}
        }
        self.prev_len = i.len;
        pre + m7_adjust(&mut self.st, i, cyc, now + pre, e.pc, e.npc)
    }

    #[inline(always)]
    fn skipped(&mut self, i: &Insn) -> u64 {
        self.prev_len = i.len;
        1
    }

    fn exception_entry(&mut self) -> u64 {
        EXC_ENTRY
    }

    fn exception_return(&mut self) -> u64 {
        EXC_RETURN
    }

    /// The copy of the model for the set-up: `CortexM7<false>` for TCM, `CortexM7<true>`
    /// for the STM32F7 set-ups.
    fn set_memory(&mut self, s: m7mem::Setup) -> bool {
        match s {
            m7mem::Setup::Tcm => !MEM,
            m7mem::Setup::Stm32f7 { icache, dcache } => {
                *self.mem = m7mem::Memory::new(icache, dcache);
                MEM
            }
            m7mem::Setup::Stm32l4r5 => false,
        }
    }
}

/// FP result latencies of the Cortex-M7 estimate, from Arm's LLVM scheduling model of
/// the Cortex-M7 (llvm/lib/Target/ARM/ARMScheduleM7.td, LLVM 19; the same figures from
/// `llvm-mca-19 -mcpu=cortex-m7 --instruction-info`): "Effective scheduling latency is
/// really 3 for nearly all FP operations, even if their true latency is higher"
/// (M7WriteVFPLatOverride on FP64 add/sub/mul/div/sqrt/abs/neg/convert/MAC and FP32
/// divide/square root; WriteFPALU32, WriteFPMUL32, WriteFPCVT, WriteFPMOV: 3), FP32
/// VMLA/VMLS/VNMLA/VNMLS 6 and fused VFMA/VFMS/VFNMA/VFNMS 5 (M7WriteVFPLatOverride5),
/// VLDR.64 2 (M7LoadDP), VLDR.32 1 (M7LoadSP), VCMP 0 (flags). Reads: the accumulator of
/// a MAC 3 cycles late (ReadFPMAC; fused single precision 2, M7ReadFPMAC2), the data of
/// VSTR 2 cycles late (M7Read_EX3), every other FP operand at issue.
pub const M7_FP_LAT: u64 = 3;
pub const M7_FP32_MAC_LAT: u64 = 6;
pub const M7_FP32_FMA_LAT: u64 = 5;
pub const M7_VLDR64_LAT: u64 = 2;
pub const M7_VLDR32_LAT: u64 = 1;
pub const M7_FP_ACC_ADVANCE: u64 = 3;
pub const M7_FP32_FMA_ACC_ADVANCE: u64 = 2;
pub const M7_VSTR_ADVANCE: u64 = 2;

/// S registers of FP register `r` (an S index, or a D index when `dbl`): first, count.
#[inline(always)]
fn fp_regs(r: u8, dbl: bool) -> (usize, usize) {
    if dbl {
        (2 * r as usize, 2)
    } else {
        (r as usize, 1)
    }
}

impl<const MEM: bool> CortexM7<MEM> {
    /// Cycles an FP instruction waits at issue, at clock `now`, for the FP register
    /// results it reads (`M7_FP_LAT` and the other latencies above); records when its
    /// own FP result is ready. Not modelled: the latency of an FP result moved to a core
    /// register (VMOV Rt, Sn / Rt, Rt2, Dm) for the core instruction reading it, VLDM's
    /// and VPOP's results, FPSCR flags after VCMP (VMRS issues alone).
    #[inline(always)]
    fn fp_issue(&mut self, i: &Insn, now: u64) -> u64 {
        let dbl = i.sh != 0;
        // (register, size, advance) read; (register, size) written and its latency
        let mut src: [(u8, bool, u64); 3] = [(255, false, 0); 3];
        let mut dst: (u8, bool) = (255, false);
        let mut lat = M7_FP_LAT;
        match i.op {
            Op::Vdp => {
                let (sd, ss) = match i.sub {
                    fop::VCVT_FD => (!dbl, dbl),
                    fop::VCVT_I2F => (dbl, false),
                    fop::VCVT_F2I | fop::VCVT_F2I_RM => (false, dbl),
                    _ => (dbl, dbl),
                };
                src[0] = (i.rm, ss, 0);
                match i.sub {
                    fop::VMLA | fop::VMLS | fop::VNMLA | fop::VNMLS => {
                        src[1] = (i.rn, ss, 0);
                        src[2] = (i.rd, ss, M7_FP_ACC_ADVANCE);
                        if !dbl {
                            lat = M7_FP32_MAC_LAT;
                        }
                    }
                    fop::VFMA | fop::VFMS | fop::VFNMA | fop::VFNMS => {
                        src[1] = (i.rn, ss, 0);
                        src[2] = if dbl {
                            (i.rd, ss, M7_FP_ACC_ADVANCE)
                        } else {
                            lat = M7_FP32_FMA_LAT;
                            (i.rd, ss, M7_FP32_FMA_ACC_ADVANCE)
                        };
                    }
                    fop::VMUL
                    | fop::VNMUL
                    | fop::VADD
                    | fop::VSUB
                    | fop::VDIV
                    | fop::VSEL
                    | fop::VMAXNM
                    | fop::VMINNM => src[1] = (i.rn, ss, 0),
                    fop::VCMP => {
                        // compares Dd/Sd with Dm/Sm (or zero); writes only the flags
                        src[1] = (i.rd, ss, 0);
                        if i.ra & 2 != 0 {
                            src[0].0 = 255;
                        }
                    }
                    _ => {}
                }
                if i.sub != fop::VCMP {
                    dst = (i.rd, sd);
                }
            }
            Op::VmovImm => dst = (i.rd, dbl),
            Op::Vldr => {
                dst = (i.rd, dbl);
                lat = if dbl { M7_VLDR64_LAT } else { M7_VLDR32_LAT };
            }
            Op::Vstr => src[0] = (i.rd, dbl, M7_VSTR_ADVANCE),
            Op::VmovS => {
                if i.sub != 0 {
                    src[0] = (i.rn, false, 0);
                } else {
                    dst = (i.rn, false);
                }
            }
            Op::VmovScalar => {
                if i.sub != 0 {
                    src[0] = (i.rn, true, 0);
                } else {
                    dst = (i.rn, true);
                }
            }
            Op::Vmov2 => {
                let d = i.sub & 2 != 0;
                // two S registers: Sm and Sm+1, or Dm
                let (r, dd) = if d {
                    (i.rm, true)
                } else {
                    (i.rm >> 1, i.rm & 1 == 0)
                };
                if dd {
                    if i.sub & 1 != 0 {
                        src[0] = (r, true, 0);
                    } else {
                        dst = (r, true);
                    }
                } else if i.sub & 1 != 0 {
                    src[0] = (i.rm, false, 0);
                    src[1] = (i.rm + 1, false, 0);
                } else {
                    // Sm, Sm+1 not a D pair: a one-S-register latency each
                    for k in 0..2 {
                        if let Some(x) = self.fp_ready.get_mut(i.rm as usize + k) {
                            *x = now + M7_FP_LAT;
                        }
                    }
                }
            }
            _ => return 0,
        }
        let mut need = 0;
        for &(r, d, adv) in &src {
            if r != 255 {
                let (s, n) = fp_regs(r, d);
                for k in s..(s + n).min(32) {
                    need = need.max(self.fp_ready[k].saturating_sub(adv));
                }
            }
        }
        let stall = need.saturating_sub(now);
        if dst.0 != 255 {
            let (s, n) = fp_regs(dst.0, dst.1);
            for k in s..(s + n).min(32) {
                self.fp_ready[k] = now + stall + lat;
            }
        }
        stall
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

// ------------------------------------------------------------------------
// Cortex-M7 estimate, model m7-estimate-v4 (v3 and the FP result latencies, the
// memory set-ups).
//
// Sources (each rule below names its own):
// [J] jnk0le, "pipeline cycle test", doc/cortex_m7.md (github.com/jnk0le/random),
//     measured with DWT CYCCNT on an STM32H743 (rev Y).
// [L] LLVM's Arm scheduling model of the Cortex-M7,
//     llvm/lib/Target/ARM/ARMScheduleM7.td ("MispredictPenalty = 4; Mispredict
//     cost for forward branches is 6", LoadLatency = 2).
// [T] Arm Cortex-M7 Processor Technical Reference Manual (DDI 0489): six-stage
//     in-order superscalar pipeline with dual issue; branch prediction with a
//     Branch Target Address Cache (BTAC) in the prefetch unit; DTCM as two
//     32-bit banks (D0TCM even words, D1TCM odd words).
// Code and data are taken to be in TCM (no caches, no wait states) unless the memory
// set-up says otherwise (`m7mem`, `--memory`).

/// Pairing classes (`Insn::wr & 7` on the Cortex-M7), one per instruction.
pub const K_ALU: u8 = 0;
pub const K_LD: u8 = 1;
pub const K_ST: u8 = 2;
pub const K_MUL: u8 = 3;
pub const K_DSP: u8 = 4;
pub const K_SH: u8 = 5;
pub const K_FP: u8 = 6;
pub const K_MULTI: u8 = 7;
/// flag bits of `Insn::wr` on the Cortex-M7
pub const F_FLAGS: u8 = 8; // sets the condition flags
pub const F_LDBH: u8 = 16; // byte or halfword load
pub const F_BCOND: u8 = 32; // conditional branch (B<c>, CBZ/CBNZ)
pub const F_BIND: u8 = 64; // branch to a register or loaded value, write to PC
pub const F_WB: u8 = 128; // load or store with base writeback

/// Pairs that cannot dual issue: bit `8 * older + younger` of `CONFLICT`.
/// - [J] "stores": "cannot dual issue two stores", "can be dual issued with load";
/// - [J] "multiplication, MAC": "can't dual issue wrt each other", "can't dual
///   issue with stores";
/// - [J] "bitfield and DSP instructions except multiplication": "cannot dual issue
///   wrt each other", "can't be dual issued with operand2
///   inline_shifted_reg/shifted_constant instruction"; [J] "operand2" matrix:
///   shifted constant and inline shifted register cannot pair with each other
///   (the "-(?)" cells of the shift-by-constant/register rows, "slippery", are
///   taken as pairing);
/// - [J] "fpu (single precision)": "arithmetic instructions cannot be dual
///   issued"; [J] "vstr.d, vldr.d can't dual issue with anything", "moving two
///   registers ... cannot be dual issued with anything", "load/store
///   pair/multiple (incl pushpop)": "cannot dual issue with preceeding or
///   folowing instructions" (K_MULTI).
///
/// Two loads (K_LD, K_LD) pair when they target different banks (`m7_adjust`).
const CONFLICT: u64 = {
    const M: u8 = 1 << K_MULTI;
    let mut t = [M; 8];
    t[K_ST as usize] |= 1 << K_ST | 1 << K_MUL;
    t[K_MUL as usize] |= 1 << K_MUL | 1 << K_ST;
    t[K_DSP as usize] |= 1 << K_DSP | 1 << K_SH;
    t[K_SH as usize] |= 1 << K_SH | 1 << K_DSP;
    t[K_FP as usize] |= 1 << K_FP;
    t[K_MULTI as usize] = 0xff;
    u64::from_le_bytes(t)
};

/// Result latencies by pairing class (index: class, + 8 for a byte/halfword
/// load), as 16-bit lanes of register masks: lane 0 a late-stage reader in the
/// next cycle waits one cycle, lane 1 an early-stage reader in the next cycle
/// waits, lane 2 an early-stage reader waits one cycle more. See `m7_adjust` for
/// the sources.
const LATENCY: [u64; 16] = {
    const LATE: u64 = 0xffff;
    const EARLY: u64 = 0xffff << 16;
    const EARLY2: u64 = 0xffff << 32;
    let mut t = [0u64; 16];
    t[K_LD as usize] = EARLY;
    t[K_DSP as usize] = EARLY;
    t[K_MUL as usize] = LATE | EARLY;
    t[8 + K_LD as usize] = LATE | EARLY | EARLY2;
    t
};

#[inline(always)]
fn bit(r: u8) -> u16 {
    // r0..r15; RZERO (16) and 255 (none) read or write nothing
    if r < 16 {
        1 << r
    } else {
        0
    }
}

/// Fill the Cortex-M7 fields of a decoded instruction (once, at decode time):
/// `rmask` registers read in the late stage, `emask` registers read early,
/// `wmask` registers written, `wr` pairing class and flags.
pub fn m7_info(i: &mut Insn) {
    let (mut r, mut e, mut k, mut w1, mut w2) = (0u16, 0u16, K_ALU, 255u8, 255u8);
    let mut f = 0u8;
    let dp_dest = |i: &Insn| {
        if i.sub >= alu::TST || i.rd == 15 {
            255
        } else {
            i.rd
        }
    };
    let mov = |i: &Insn| i.sub == alu::MOV || i.sub == alu::MVN;
    match i.op {
        Op::DpImm => {
            r = if mov(i) { 0 } else { bit(i.rn) };
            // [J] "operand2": a shifted (rotated) constant pairs like an inline
            // shifted register
            k = if i.st != 0 { K_SH } else { K_ALU };
            w1 = dp_dest(i);
        }
        Op::DpReg => {
            r = if mov(i) { 0 } else { bit(i.rn) } | bit(i.rm);
            let shifted = i.sh != 0 || i.st == 4;
            // [J] "operand2": an inline shifted register is consumed in the early
            // ALU and pairs neither with another one nor with a shifted constant;
            // a plain shift (MOV with shift, "shift by constant") pairs freely
            if shifted && i.sub != alu::MOV {
                k = K_SH;
                e = bit(i.rm);
            }
            w1 = dp_dest(i);
        }
        Op::DpRegReg => {
            r = if mov(i) { 0 } else { bit(i.rn) } | bit(i.rm) | bit(i.ra);
            w1 = dp_dest(i);
        }
        // [J] "overall": "movw + movt pair can dual issue with mutual dependency"
        Op::Movt => w1 = i.rd,
        Op::Ssat | Op::Usat | Op::Ssat16 | Op::Usat16 | Op::Sbfx | Op::Ubfx => {
            r = bit(i.rn);
            k = K_DSP;
            // [J] "sbfx, ubfx ... execute in early alu"
            if matches!(i.op, Op::Sbfx | Op::Ubfx) {
                e = r;
            }
            w1 = i.rd;
        }
        Op::Bfi => {
            r = bit(i.rd) | bit(i.rn);
            e = bit(i.rn); // [J] the inserted register is consumed in the early ALU
            k = K_DSP;
            w1 = i.rd;
        }
        Op::Extend | Op::Pkh => {
            r = bit(i.rn) | bit(i.rm);
            // [J] "in bfi, pkh{bt,tb} and {s,u}xta{b,h,b16} ... the extracted or
            // shifted register consume its operand in early ALU"; "pkhtb also the
            // first operand"
            e = bit(i.rm)
                | if i.op == Op::Pkh && i.sub != 0 {
                    bit(i.rn)
                } else {
                    0
                };
            k = K_DSP;
            w1 = i.rd;
        }
        Op::Par | Op::Qop | Op::Sel => {
            r = bit(i.rn) | bit(i.rm);
            k = K_DSP;
            w1 = i.rd;
        }
        Op::Rev | Op::Rev16 | Op::Revsh | Op::Rbit | Op::Clz => {
            r = bit(i.rm);
            e = if i.op == Op::Clz { 0 } else { r }; // [J] rev*, rbit: early ALU
            k = K_DSP;
            w1 = i.rd;
        }
        // [J] "multiplication, MAC": multiplications "can't consume ldr result from
        // previous cycle" (multiplicands read early); "accumulate dependency is
        // consumed cycle later in another stage" and MACs "can be chained on
        // accumulator dependency each cycle": the accumulator is not a read of
        // the issue stage
        Op::Mul
        | Op::Mla
        | Op::Mls
        | Op::Smulxy
        | Op::Smulwy
        | Op::Smuad
        | Op::Smusd
        | Op::Smmul
        | Op::Smmls
        | Op::Usad8 => {
            r = bit(i.rn) | bit(i.rm);
            e = r;
            k = K_MUL;
            w1 = i.rd;
        }
        Op::Smull
        | Op::Umull
        | Op::Smlal
        | Op::Umlal
        | Op::Umaal
        | Op::Smlalxy
        | Op::Smlald
        | Op::Smlsld => {
            r = bit(i.rn) | bit(i.rm);
            e = r;
            k = K_MUL;
            w1 = i.rd;
            w2 = i.ra;
        }
        Op::Sdiv | Op::Udiv => {
            r = bit(i.rn) | bit(i.rm);
            k = K_MUL;
            w1 = i.rd;
        }
        Op::Ld | Op::LdR => {
            r = bit(i.rn) | if i.op == Op::LdR { bit(i.rm) } else { 0 };
            e = r; // address generation
            k = K_LD;
            if i.sub != 0 {
                f |= F_LDBH;
            }
            if i.rd == 15 {
                f |= F_BIND;
            } else {
                w1 = i.rd;
            }
            // [J] "pre indexed and post indexed loads can be dual issued if there
            // is no bank conflict and resulting address is not reused in same cycle"
            if i.op == Op::Ld && i.ra & 2 != 0 {
                w2 = i.rn;
                f |= F_WB;
            }
        }
        Op::Ldrex => {
            r = bit(i.rn);
            e = r;
            k = K_LD;
            w1 = i.rd;
        }
        // [J] "stores": "can store any result in same cycle, including ldr, ldrh,
        // ldrb": the data register is not a read of the issue stage
        Op::St | Op::StR => {
            r = bit(i.rn) | if i.op == Op::StR { bit(i.rm) } else { 0 };
            e = r;
            k = K_ST;
            if i.op == Op::St && i.ra & 2 != 0 {
                w2 = i.rn;
                f |= F_WB;
            }
        }
        Op::Strex => {
            r = bit(i.rn);
            e = r;
            k = K_ST;
            w1 = i.rd;
        }
        Op::Ldrd => {
            r = bit(i.rn);
            e = r;
            k = K_MULTI;
            w1 = i.rd;
            w2 = i.ra;
        }
        Op::Ldm => {
            r = bit(i.rn);
            k = K_MULTI;
            if i.imm & 0x8000 != 0 {
                f |= F_BIND;
            }
        }
        Op::Vldr | Op::Vstr => {
            r = bit(i.rn);
            e = r;
            // [J] "vldr.f can be dual issed"; "vstr.d, vldr.d can't dual issue
            // with anything"
            k = if i.sh != 0 {
                K_MULTI
            } else if i.op == Op::Vldr {
                K_LD
            } else {
                K_ST
            };
        }
        Op::Vdp | Op::VmovImm => k = K_FP,
        Op::VmovS | Op::VmovScalar => {
            k = K_FP;
            if i.sub != 0 {
                w1 = i.rd;
            } else {
                r = bit(i.rd);
            }
        }
        Op::Vmrs => {
            k = K_FP;
            if i.rd == 15 {
                f |= F_FLAGS;
            } else {
                w1 = i.rd;
            }
        }
        Op::Vmsr => {
            k = K_FP;
            r = bit(i.rd);
        }
        Op::B | Op::It | Op::Nop => {}
        Op::Bl => w1 = 14,
        Op::Bcond => f |= F_BCOND,
        Op::Cbz => {
            r = bit(i.rn);
            f |= F_BCOND;
        }
        Op::Bx | Op::Blx => {
            r = bit(i.rm);
            f |= F_BIND;
            if i.op == Op::Blx {
                w1 = 14;
            }
        }
        Op::Tbb | Op::Tbh => {
            r = bit(i.rn) | bit(i.rm);
            k = K_MULTI;
            f |= F_BIND;
        }
        // Strd, Stm, Vldm, Vstm, Vmov2, system instructions: issue alone
        _ => k = K_MULTI,
    }
    if matches!(i.op, Op::DpImm | Op::DpReg | Op::DpRegReg) {
        if i.sf != 0 {
            f |= F_FLAGS;
        }
        if i.rd == 15 && i.sub < alu::TST {
            f |= F_BIND;
        }
    }
    if (i.op == Op::Mul && i.sf != 0) || i.op == Op::Msr {
        f |= F_FLAGS;
    }
    i.rmask = r;
    i.emask = e;
    i.wr = k | f;
    i.wmask = bit(w1) | bit(w2);
    // per-instruction parts of `m7_adjust`: the latencies its results carry
    // when it issues in one cycle (the written-back base of a load is not a
    // load result) and the classes that cannot pair after it
    let f = i.wr;
    let k = f & 7;
    let lanes = LATENCY[(k | ((f & F_LDBH) >> 1)) as usize];
    let wb = if f & F_WB != 0 { i.emask } else { 0 };
    let src = (i.wmask & !wb) as u64;
    let produced = src.wrapping_mul(0x1_0001_0001) & lanes;
    let row = (CONFLICT >> (8 * k as u32)) & 0xff;
    i.m7p = produced | row << 48;
}

/// Entries of the branch predictor, direct mapped by instruction address
/// (index: bits 6:1 of the branch address, tag: the whole address). [T] names
/// a BTAC; its size was not found in a public source: 64 entries is assumed.
pub const BP_ENTRIES: usize = 64;

#[derive(Clone, Copy)]
struct BpEntry {
    /// address of the branch (u32::MAX: empty; branch addresses are even)
    tag: u32,
    /// last target of a branch to a register value
    target: u32,
    /// 2-bit saturating counter of a conditional branch (>= 2: taken)
    ctr: u8,
}

/// Issue state of the Cortex-M7 estimate between instructions.
#[derive(Clone)]
pub struct M7State {
    /// pairing classes that cannot issue next to the previous instruction: its
    /// `CONFLICT` row, plus the load on its DTCM bank (bit 1: even, bit 8: odd
    /// words) when it is a load; 0x1ff when its cycle has no free slot
    row: u16,
    /// registers the previous instruction wrote
    wmask: u16,
    /// latency masks (lanes of `LATENCY`) of the results of the last issue cycle
    /// and of the one before it
    cur: u64,
    prev: u64,
    /// the previous instruction took at most one cycle
    one: bool,
    /// data address of the last load (set by the interpreter before
    /// `m7_adjust`; its bank is folded into `row`)
    pub addr: u32,
    /// issue cycle of the last flag-setting instruction
    flags_at: u64,
    /// (boxed: keeps the interpreter's hot state compact; measured faster on
    /// both cores)
    bp: Box<[BpEntry; BP_ENTRIES]>,
}

impl Default for M7State {
    fn default() -> Self {
        M7State {
            row: 0x1ff,
            wmask: 0,
            cur: 0,
            prev: 0,
            one: false,
            addr: 0,
            flags_at: 0,
            bp: Box::new(
                [BpEntry {
                    tag: u32::MAX,
                    target: 0,
                    ctr: 0,
                }; BP_ENTRIES],
            ),
        }
    }
}

/// Branch misprediction penalty: [J] "branching/cmp": "flag forwarding that can
/// reduce branch misprediction penalty from 8 to 6 cycles (in case of subs +
/// bne), instruction generating flags have to be placed at least 3 cycles before
/// branch". (LLVM [L] has 4, 6 for forward branches; the measured figures are
/// used.) The penalty replaces the refill of 1 that a predicted taken branch pays.
pub const M7_MISPREDICT: u64 = 8;
pub const M7_MISPREDICT_EARLY_FLAGS: u64 = 6;

impl M7State {
    /// Conditional branch at `pc` (B<c>, CBZ/CBNZ) resolved as `taken`: was it
    /// mispredicted? A BTAC hit predicts with the entry's 2-bit counter; a miss
    /// with a static rule (assumed): backward taken, forward not taken. Only taken
    /// branches are allocated (a BTAC holds branch targets [T]).
    #[inline(always)]
    fn predict_cond(&mut self, pc: u32, backward: bool, taken: bool) -> bool {
        let e = &mut self.bp[(pc >> 1) as usize & (BP_ENTRIES - 1)];
        if e.tag == pc {
            let pred = e.ctr >= 2;
            e.ctr = if taken {
                (e.ctr + 1).min(3)
            } else {
                e.ctr.saturating_sub(1)
            };
            pred != taken
        } else {
            if taken {
                *e = BpEntry {
                    tag: pc,
                    target: 0,
                    ctr: 2,
                };
            }
            backward != taken
        }
    }

    /// Branch to a register or loaded value (BX, BLX Rm, POP/LDM {pc}, LDR pc,
    /// TBB/TBH, ALU write to PC): predicted when the BTAC entry of `pc` holds
    /// `target` as its last target (assumed; no return stack is modelled).
    #[inline(always)]
    fn predict_indirect(&mut self, pc: u32, target: u32) -> bool {
        let e = &mut self.bp[(pc >> 1) as usize & (BP_ENTRIES - 1)];
        let hit = e.tag == pc && e.target == target;
        *e = BpEntry {
            tag: pc,
            target,
            ctr: 3,
        };
        !hit
    }
}

/// Cortex-M7 estimate: issue cycles of instruction `i` at `pc`, given its cost
/// `cyc` on the per-instruction table, `now` the cycle count before it (taken
/// direct branches have already added their refill) and `npc` the next pc.
///
/// Dual issue ([T] section 1.2; [J]): an instruction costing one cycle issues in
/// the same cycle as the previous one when that one issued alone in the first slot
/// of its cycle, costs one cycle, does not write a register this one reads in the
/// issue stage, and the pair is allowed by `CONFLICT`; two loads pair only on
/// different DTCM banks, bank = (address >> 2) & 1 ([J] "loads": "two loads ...
/// can be dual issued if each one is targeting different bank (even and odd
/// words)"; [T] D0TCM/D1TCM). A paired instruction costs 0.
///
/// Result latencies, against the previous issue cycle ([J]):
/// - multiply and MAC results: +1 for any reader except a MAC's accumulator and
///   a store's data ("all multiplications and multiply accumulates have 1
///   additional cycle of result latency");
/// - word loads: read by the late ALU in the next cycle; +1 for an early-stage
///   reader: address generation, inline shifted operand, multiplicand, DSP
///   operand ("word loads can be consumed by late ALU in next cycle, except
///   instructions that consume one of the operands in early ALU", "can't consume
///   ldr result from previous cycle"; the address case is taken from [L]
///   LoadLatency = 2, as [J] only says loads "stall due to address dependency");
/// - byte/halfword loads: +1 for a late reader, +2 for an early one ("byte/half
///   loads can be consumed in secend cycle by late ALU ..., or third in early
///   ALU");
/// - bitfield/DSP results: +1 for an early-stage reader ("result cannot be used as
///   index or address by load/store instructions in next cycle").
///
/// Branches: see `M7State::predict_cond` / `predict_indirect` and
/// `M7_MISPREDICT`. A not-taken, correctly predicted branch leaves the second slot
/// free for the next instruction ([J] "not-taken branch can dual issue with
/// following instruction"); a taken branch does not pair with its target (the
/// measured pairing "is highly sensitive to alignment", [J]; the refill of 1 of
/// the previous estimate is kept).
#[inline(always)]
pub fn m7_adjust(st: &mut M7State, i: &Insn, cyc: u64, now: u64, pc: u32, npc: u32) -> u64 {
    // the pairing test is written without short-circuit branches, and the
    // latency masks are 16-bit lanes of one word: 0 late reader, 1 early
    // reader, 2 early reader one cycle more. (A fully branch-free version, with
    // the selects below as masks, measured slower on the host: the outcome is
    // predicted well enough, and the branches skip work.)
    let f = i.wr;
    let k = f & 7;
    let r = i.rmask as u64;
    let e = i.emask as u64;
    let q = r | e << 16 | e << 32;
    let one_cycle = cyc == 1;
    // younger-side class: a load on the odd bank is class 8
    let bank = (st.addr >> 2) & 1;
    let y = k as u32 + if k == K_LD { 7 * bank } else { 0 };
    let conflict = (st.row >> y) & 1 != 0;
    let paired = !conflict & one_cycle & (st.wmask as u64 & r == 0) & (st.prev & q == 0);
    let taken = npc != pc.wrapping_add(i.len as u32);
    if paired & (f & (F_BCOND | F_BIND) == 0) & !taken {
        // fast path, the same as below for a paired instruction that is not a
        // branch: no cycle, its results join the cycle of the previous one
        st.cur |= i.m7p & 0xffff_ffff_ffff;
        st.one = true;
        st.row = 0x1ff;
        st.wmask = i.wmask;
        if f & F_FLAGS != 0 {
            st.flags_at = now.saturating_sub(1);
        }
        return 0;
    }
    if cyc == 0 {
        // folded IT: transparent (never paired: not one cycle)
        return 0;
    }
    // a new issue cycle: latencies of the results of the cycle before it (`cur`)
    // and of the one before that (`prev`, early2 lane)
    let lat1 = st.cur & q & 0xffff_ffff != 0;
    let lat2 = (if lat1 { st.cur } else { st.prev }) & (e << 32) != 0;
    let stall = lat1 as u64 + lat2 as u64;
    let mut out = if paired { 0 } else { cyc + stall };
    let keep = !paired & st.one & (stall == 0);
    st.prev = if paired {
        st.prev
    } else if keep {
        st.cur
    } else {
        0
    };
    // results of this instruction (`LATENCY`, precomputed by `m7_info`)
    let wall = i.wmask;
    let produced = if one_cycle {
        i.m7p & 0xffff_ffff_ffff
    } else {
        0
    };
    st.cur = if paired { st.cur | produced } else { produced };
    st.one = out <= 1;
    let mut free = !paired & one_cycle & (k != K_MULTI);
    let issue = now.saturating_sub(paired as u64);
    if f & F_FLAGS != 0 {
        st.flags_at = issue;
    }
    if (f & (F_BCOND | F_BIND) != 0) | taken {
        if f & (F_BCOND | F_BIND) != 0 {
            let miss = if f & F_BCOND != 0 {
                // CBZ/CBNZ only branch forward
                st.predict_cond(pc, i.op == Op::Bcond && i.imm <= pc, taken)
            } else {
                st.predict_indirect(pc, npc)
            };
            if miss {
                // flags set at least 3 cycles before a B<c> (the issue cycle of a
                // taken branch excludes its refill): 6; CBZ/CBNZ and branches to
                // a register: 8 (assumed, no flag forwarding involved)
                let b = issue.saturating_sub((taken && f & F_BCOND != 0) as u64);
                let pen = if i.op == Op::Bcond && b >= st.flags_at + 3 {
                    M7_MISPREDICT_EARLY_FLAGS
                } else {
                    M7_MISPREDICT
                };
                out += pen - taken as u64;
                // every latency has passed
                st.cur = 0;
                st.prev = 0;
                st.one = false;
                free = false;
            }
        }
        if taken {
            // taken branch (refill charged by the interpreter): no pairing with
            // the target, which issues two cycles after the branch
            free = false;
            st.one = false;
            st.prev = st.cur;
            st.cur = 0;
        }
    }
    if out > 2 {
        // a long instruction: every latency has passed
        st.cur = 0;
        st.prev = 0;
    }
    // classes that cannot pair with this instruction as the younger one: its
    // `CONFLICT` row, and for a load the load on the same bank
    st.row = if free {
        let row = (i.m7p >> 48) as u16;
        row | if k == K_LD { 1 << y } else { 0 }
    } else {
        0x1ff
    };
    st.wmask = wall;
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
