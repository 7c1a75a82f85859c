// SPDX-License-Identifier: MIT
//! The block cache of the fast run loop (machine/run.rs `run_fast`, `Cpu::run_block`): a
//! block is a straight line of decoded instructions from the decode cache, ended by an
//! instruction that may write the PC or change the execution state (a branch, a write to
//! r15, LDM with the PC in its list, IT, SVC, BKPT, MSR, CPS, WFI) or by an instruction the
//! per-instruction path must execute (an interval-mark hook, an undefined instruction, the
//! end of the code region), which is left out. The loop runs a block without looking up
//! each instruction in the decode cache, counts its instructions and instruction classes
//! once per block, and tracks the stack pointer only in blocks that may write it.
//!
//! Blocks start only outside IT blocks and only in the code region below its alias
//! (`CODE_SIZE`). The code region is read-only for the guest (arm/mem.rs); the decoded
//! form of an address changes only when an interval-mark hook is planted or removed there
//! (`Cpu::uncache`), which drops every block holding that address.

use crate::arm::decode::{alu, Insn, Op};
use crate::arm::mem::CODE_SIZE;

/// The handler of a block's instruction (`form`, `Cpu::exec_form`): the general
/// interpreter (`Cpu::exec`), or one specialised for the decoded form, which does what
/// `exec` does for it with the operation, shift and size fixed at compile time.
pub const GENERIC: u8 = 0;
/// Data processing (DpImm, DpReg), not writing the PC: `DP + kind * 32 + op * 2 + s`,
/// kind 0 an immediate operand, 1 a register without shift, 2 + the shift type (LSL,
/// LSR, ASR, ROR, RRX) a shifted register; op the `alu` operation; s: sets the flags.
pub const DP: u8 = 1;
/// Load single with an immediate offset (any indexing), not into the PC: `LD + size`
/// (`Insn::sub`: 0 word, 1 halfword, 2 byte, 3 signed halfword, 4 signed byte).
pub const LD: u8 = 225;
/// Load single with a register offset, not into the PC: `LDR + size`.
pub const LDR: u8 = 230;
/// Store single with an immediate offset (any indexing): `ST + size` (0 word, 1
/// halfword, 2 byte).
pub const ST: u8 = 235;
/// Store single with a register offset: `STR + size`.
pub const STR: u8 = 238;

/// The form of a block's instruction; `simple`: the timing model's short path applies
/// to it (`CortexTiming::simple`), required for the data-processing forms.
pub fn form(i: &Insn, simple: bool) -> u8 {
    match i.op {
        Op::DpImm | Op::DpReg if simple && !(i.rd == 15 && i.sub < alu::TST) && i.sub < 16 => {
            let kind = if i.op == Op::DpImm {
                0
            } else if i.sh == 0 && i.st != 4 {
                1
            } else if i.st <= 4 {
                2 + i.st
            } else {
                return GENERIC;
            };
            DP + kind * 32 + i.sub * 2 + (i.sf != 0) as u8
        }
        Op::Ld if i.rd != 15 && i.sub <= 4 => LD + i.sub,
        Op::LdR if i.rd != 15 && i.sub <= 4 => LDR + i.sub,
        Op::St if i.sub <= 2 => ST + i.sub,
        Op::StR if i.sub <= 2 => STR + i.sub,
        _ => GENERIC,
    }
}

/// The longest block (instructions).
pub const MAX_LEN: usize = 256;

/// One block: its instructions are `Blocks::insns[first..first + n]`, its class counts
/// `Blocks::classes[cls..cls + ncls]`.
#[derive(Clone, Copy)]
pub struct Block {
    /// address of the first instruction and the end of the last
    pub start: u32,
    pub end: u32,
    pub first: u32,
    pub n: u32,
    pub cls: u32,
    pub ncls: u32,
    /// an instruction of the block may write the stack pointer (any register operand r13,
    /// LDM, MSR): the loop tracks the stack after each of its instructions
    pub sp: bool,
}

pub struct Blocks {
    /// per halfword of the code region: the block starting there (index + 1), 0: none
    index: Vec<u32>,
    pub list: Vec<Block>,
    pub insns: Vec<Insn>,
    /// the form of each instruction in `insns` (`form`)
    pub forms: Vec<u8>,
    /// (class, instructions of that class) of each block
    pub classes: Vec<(u32, u32)>,
}

impl Default for Blocks {
    fn default() -> Blocks {
        Blocks {
            index: vec![0; CODE_SIZE / 2],
            list: Vec::new(),
            insns: Vec::new(),
            forms: Vec::new(),
            classes: Vec::new(),
        }
    }
}

/// The decoded instruction ends a block (it is the block's last).
pub fn ends_block(i: &Insn) -> bool {
    match i.op {
        Op::B
        | Op::Bcond
        | Op::Bl
        | Op::Bx
        | Op::Blx
        | Op::Cbz
        | Op::Tbb
        | Op::Tbh
        | Op::It
        | Op::Bkpt
        | Op::Svc
        | Op::Msr
        | Op::Cps
        | Op::Wfi => true,
        Op::Ldm => i.imm & 0x8000 != 0,
        _ => i.rd == 15 || i.ra == 15,
    }
}

/// The decoded instruction cannot be part of a block (the per-instruction path runs it).
pub fn outside_block(i: &Insn) -> bool {
    matches!(
        i.op,
        Op::Undecoded | Op::Undefined | Op::FetchFault | Op::Hook
    )
}

/// The instruction may write the stack pointer (conservative: r13 in any register field,
/// LDM, MSR, SVC; except r13 as the base or offset register of the forms that only read
/// those, such as a load or store at [sp, #imm] without writeback or `add r0, sp, #8`).
/// The loop also tracks the stack after the last instruction it runs of every block, which
/// covers the exception returns of a block's last instruction.
fn may_write_sp(i: &Insn) -> bool {
    // rn and rm are only read (the destinations are rd, and ra for the two-register
    // forms): data processing, load and store single without writeback, LDRD/STRD
    // without writeback, VLDR/VSTR
    let reads_only = match i.op {
        Op::DpImm | Op::DpReg | Op::LdR | Op::StR | Op::Vldr | Op::Vstr => true,
        Op::Ld | Op::St => i.ra & 2 == 0,
        Op::Ldrd | Op::Strd => i.sh & 2 == 0,
        _ => false,
    };
    i.rd == 13
        || i.ra == 13
        || (!reads_only && (i.rn == 13 || i.rm == 13))
        || matches!(i.op, Op::Ldm | Op::Msr | Op::Svc)
}

impl Blocks {
    #[inline(always)]
    pub fn idx(pc: u32) -> usize {
        (pc >> 1) as usize & (CODE_SIZE / 2 - 1)
    }

    /// The block starting at `pc` (< CODE_SIZE): its index + 1, 0 when there is none.
    #[inline(always)]
    pub fn at(&self, pc: u32) -> u32 {
        // CODE_SIZE / 2 entries: the mask keeps the index in bounds
        self.index[Self::idx(pc)]
    }

    /// Add the block of `insns` (decoded at `start` onwards; not empty) and return its
    /// index + 1.
    pub fn add(&mut self, start: u32, insns: &[Insn], forms: &[u8]) -> u32 {
        let mut counts = [0u32; 16];
        let mut sp = false;
        let mut end = start;
        for i in insns {
            counts[i.class as usize & 15] += 1;
            sp |= may_write_sp(i);
            end += i.len as u32;
        }
        let cls = self.classes.len() as u32;
        for (k, &c) in counts.iter().enumerate() {
            if c != 0 {
                self.classes.push((k as u32, c));
            }
        }
        let b = Block {
            start,
            end,
            first: self.insns.len() as u32,
            n: insns.len() as u32,
            cls,
            ncls: self.classes.len() as u32 - cls,
            sp,
        };
        self.insns.extend_from_slice(insns);
        self.forms.extend_from_slice(forms);
        self.list.push(b);
        let id = self.list.len() as u32;
        self.index[Self::idx(start)] = id;
        id
    }

    /// The decoded instruction at `pc` changes: drop the blocks that hold it (their
    /// storage stays until the cache is rebuilt).
    pub fn drop_at(&mut self, pc: u32) {
        let pc = pc & (CODE_SIZE as u32 - 1) & !1;
        for (k, b) in self.list.iter().enumerate() {
            if b.start <= pc && pc < b.end && self.index[Self::idx(b.start)] == k as u32 + 1 {
                self.index[Self::idx(b.start)] = 0;
            }
        }
    }
}
