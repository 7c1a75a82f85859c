// SPDX-License-Identifier: MIT
//! CV32E40P timing model (`cv32e40p-v2`), zero-wait-state instruction and data memories
//! (the memory timing of pqlab's test bench, docs/cv32e40p.md). It owns its pipeline state
//! and is told about each executed instruction by an `Event`; it returns the cycles the
//! instruction takes. Rules, from the CV32E40P user manual (docs/source/pipeline.rst of the
//! pythondata-cpu-cv32e40p package, OpenHW cv32e40p 360d272; "Cycle counts per instruction
//! type" and "Hazards") and, where the manual gives a range, the RTL it describes:
//!
//! - integer computational, mul, not-taken branch, load, store: 1 cycle;
//! - mulh, mulhsu, mulhu: 5 cycles;
//! - div, divu, rem, remu: 3 + s cycles, s the divider's shift count from the divisor
//!   (rs2): for divu/remu and for a non-negative divisor of div/rem the number of its
//!   leading zeros (32 for zero), for a negative divisor of div/rem the number of leading
//!   zeros of its negation minus one, modulo 64 (cv32e40p_alu.sv: div_shift from the
//!   ff_one of the reversed operand; the manual's 3..35);
//! - a word access not word aligned, a halfword access crossing a word: 2 cycles;
//! - jal, jalr: 2 cycles; taken branch: 3 cycles; one more when the target is a 32-bit
//!   instruction that is not word aligned; fence.i: as a jump; a jump right after a
//!   mulh, a division or a split load/store takes one cycle less (it leaves ID while that
//!   instruction is still in EX; measured on cv32e40p-rtl after mulh, divu, misaligned lw;
//!   not in the manual; a slow CSR access does not overlap);
//! - CSR access to mstatus, mepc, mtvec, mcause, mcycle(h), minstret(h), mhpmcounter*,
//!   mcountinhibit, mhpmevent*, dcsr, dpc, dscratch*: 4 cycles; other CSRs 1;
//! - hazards, 1 cycle each: an instruction right after a load that uses the loaded
//!   register, or that writes it through the ALU write port (an integer computational
//!   instruction, mul, mulh, a division, a CSR read; not a load, jal, jalr or an FPU
//!   instruction: measured on cv32e40p-rtl, sim/tests/fw/rv32/bench.S `*_waw`; the RTL's
//!   load stall also covers this write-after-write case); a jalr whose rs1 the instruction
//!   right before it wrote, unless that was a jal (measured on cv32e40p-rtl: jal then ret takes no hazard cycle, jalr then ret
//!   does); a jalr whose rs1 was loaded two instructions back, the one between taking a
//!   single cycle (measured on the RTL: lw, nop, jalr);
//! - FPU with FPU_ADDMUL_LAT = FPU_OTHERS_LAT = 0: 1 cycle, result forwarded; fdiv/fsqrt:
//!   the next FPU instruction or user of the result waits until 19 cycles after its issue
//!   (the manual's 1..19).
//! - accelerators on the data port (machine cv32e40p-acc, hw/accel/, docs/accel.md): an
//!   access to a unit that is busy waits (gnt low) until it is free; a store that starts a
//!   unit for n cycles makes it busy until n + 1 cycles after the store's own grant cycle,
//!   so an access right after the start waits n cycles (measured on cv32e40p-acc-rtl,
//!   sim/tests/fw/rv32/bench_acc.S).

use crate::rv32::accel::Touch;
use crate::rv32::decode::{class, Insn, Op};

pub const MODEL_VERSION: &str = "cv32e40p-v2";

/// What the front end reports about one executed instruction.
pub struct Event<'a> {
    pub i: &'a Insn,
    /// a taken branch or a jump: the next pc is not the sequential one
    pub taken: bool,
    /// the target of a taken control transfer is a 32-bit instruction at pc % 4 == 2
    pub target_split: bool,
    /// a load or store that needs two bus transactions
    pub split: bool,
    /// the divisor of a division, rs2
    pub divisor: u32,
    /// the CSR number of a CSR instruction
    pub csr: u32,
    /// the accelerator a load or store accessed (slot 0: none) and whether it started it
    pub acc: Touch,
}

#[derive(Default)]
pub struct Cv32e40p {
    /// destination of the previous instruction when it was a load (0: none)
    load_dst: u8,
    /// destination of the previous instruction (0: none)
    prev_dst: u8,
    /// fdiv/fsqrt in flight: its destination and the cycle its result is ready
    fdiv_dst: u8,
    fdiv_ready: u64,
    /// cycles so far (the model's own clock)
    now: u64,
    /// the previous instruction stayed in EX for several cycles (mulh, division, a split
    /// load or store): a jump right after it is taken in ID meanwhile (one cycle overlaps;
    /// measured on the RTL after mulh, divu and a misaligned lw)
    prev_multi: bool,
    /// destination of the load two instructions back when the instruction between took one
    /// cycle (0: none): its result reaches a jalr's address only a cycle later
    load_dst2: u8,
    /// per accelerator slot: the first cycle an access to it is granted again
    acc_ready: [u64; 4],
    /// per slot: the first cycle an access other than a posted write is granted (after the
    /// posted writes have been stored: the NTT unit's write pipeline)
    acc_wready: [u64; 4],
}

/// CSRs whose access takes 4 cycles (the manual's table).
fn slow_csr(csr: u32) -> bool {
    matches!(
        csr,
        0x300 | 0x341 | 0x305 | 0x342 | 0x320 | 0x7b0 | 0x7b1 | 0x7b2 | 0x7b3
    ) || (0xb00..=0xb1f).contains(&csr)
        || (0xb80..=0xb9f).contains(&csr)
        || (0x323..=0x33f).contains(&csr)
        || (0xc00..=0xc1f).contains(&csr)
        || (0xc80..=0xc9f).contains(&csr)
}

/// The source operands whose values the cycle count of `i` depends on, apart from control
/// flow (a taken branch, a jump's target) and addresses (a split access): bit 0 rs1, bit 1
/// rs2. The constant-time analysis (rv32/ct.rs) reports a secret in one of them. Only the
/// divider qualifies: its count comes from the divisor, rs2 (`div_cycles`); the rest of the
/// model takes no operand value (mul and the FPU fixed, fdiv/fsqrt a fixed 19 cycles).
#[inline(always)]
pub fn timing_operands(i: &Insn) -> u8 {
    if i.class == class::DIV {
        2
    } else {
        0
    }
}

/// div/rem cycles (see the module documentation).
pub fn div_cycles(signed: bool, b: u32) -> u64 {
    let shift = if signed && (b as i32) < 0 {
        (b.wrapping_neg().leading_zeros() as u64).wrapping_sub(1) & 63
    } else {
        b.leading_zeros() as u64
    };
    3 + shift
}

impl Cv32e40p {
    /// The load-use hazard cycle instruction `i` would wait before its EX stage (also what a
    /// counter read waits: hart.rs mcycle_now).
    pub fn load_use(&self, i: &Insn) -> u64 {
        let d = self.load_dst;
        let reads = i.src[0] == d || i.src[1] == d || i.src[2] == d;
        let alu_writes = i.dst == d
            && matches!(
                i.class,
                class::ALU | class::MUL | class::MULH | class::DIV | class::CSR
            );
        (d != 0 && (reads || alu_writes)) as u64
    }

    #[inline(always)]
    pub fn step(&mut self, e: &Event) -> u64 {
        let i = e.i;
        // the load stall: a use of the loaded register, or a write to it through the ALU port
        let mut c: u64 = 1 + self.load_use(i);
        let mut waited = false;
        if e.acc.slot != 0 {
            // the cycle the access would be granted, and the unit's first free cycle
            let grant = self.now + c - 1;
            let k = e.acc.slot as usize & 3;
            let ready = if e.acc.posted != 0 {
                self.acc_ready[k]
            } else {
                self.acc_ready[k].max(self.acc_wready[k])
            };
            if ready > grant {
                c += ready - grant;
                waited = true;
            }
            if e.acc.busy != 0 {
                self.acc_ready[k] = self.now + c + e.acc.busy;
            }
            if e.acc.posted != 0 {
                self.acc_wready[k] = self.now + c + e.acc.posted;
            }
        }
        match i.class {
            class::ALU | class::MUL => {}
            class::LOAD | class::STORE | class::FLOAD | class::FSTORE => {
                c += e.split as u64;
            }
            class::MULH => c += 4,
            class::DIV => c += div_cycles(matches!(i.op, Op::Div | Op::Rem), e.divisor) - 1,
            class::BRANCH if e.taken => c += 2 + e.target_split as u64,
            class::JAL | class::FENCEI => c += 1 + e.target_split as u64 - self.prev_multi as u64,
            class::JALR => {
                c += 1 + e.target_split as u64 - self.prev_multi as u64;
                if self.prev_dst != 0 && self.prev_dst == i.src[0] {
                    c += 1;
                }
                // the address loaded two instructions back (measured on the RTL: lw, nop,
                // jalr takes one cycle more; no forwarding of the load's write-back to ID)
                if self.load_dst2 != 0 && self.load_dst2 == i.src[0] {
                    c += 1;
                }
            }
            class::CSR if slow_csr(e.csr) => c += 3,
            class::FPU | class::FDIV => {
                // wait for an fdiv/fsqrt in flight
                if self.fdiv_ready > self.now {
                    c += self.fdiv_ready - self.now;
                }
                if i.class == class::FDIV {
                    self.fdiv_ready = self.now + c - 1 + 19;
                    self.fdiv_dst = i.dst;
                }
            }
            _ => {}
        }
        if i.class != class::FPU && i.class != class::FDIV && self.fdiv_ready > self.now {
            let d = self.fdiv_dst;
            if d != 0 && (i.src[0] == d || i.src[1] == d || i.src[2] == d) {
                c += self.fdiv_ready - self.now;
            }
        }
        self.load_dst2 = if c == 1 { self.load_dst } else { 0 };
        self.load_dst = if i.class == class::LOAD || i.class == class::FLOAD {
            i.dst
        } else {
            0
        };
        // jal's link register is written early enough for a jalr right after it (measured
        // on the RTL: c.jal then ret takes no hazard cycle; jalr then ret does)
        self.prev_dst = if i.class == class::JAL { 0 } else { i.dst };
        self.prev_multi = i.class == class::MULH || i.class == class::DIV || e.split || waited;
        self.now += c;
        c
    }
}
