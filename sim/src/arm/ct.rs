// SPDX-License-Identifier: MIT
//! Secret tracking (taint) for the constant-time analysis (`--ct FILE`): the Thumb-2
//! propagation rules. The findings, call stack, marks and memory-shadow encoding shared with
//! the RV32 front end are in machine/taint.rs.
//!
//! Shadow state: one 32-bit mask per core register and per S register (bit k set:
//! bit k of the value may depend on a secret), one bit per condition flag (N, Z,
//! C, V, Q), per GE bit and for the FPSCR (its NZCV and its cumulative exception
//! flags), and one byte per byte of RAM (0 public, 1 secret). The firmware marks
//! secrets by calling two empty functions the simulator finds in the ELF symbol
//! table, `pqlab_ct_secret(p, n)` and `pqlab_ct_declassify(p, n)` (lib/common/ct.h
//! with PQLAB_CT_SIM, docs/ct.md): when execution reaches the first instruction of
//! one of them, the n bytes at p become secret or public.
//!
//! `propagate` runs before each executed instruction on the architectural state the
//! instruction reads, so that addresses and conditions are known. It records a
//! finding when a secret reaches:
//! - the condition of a conditional branch (B<c>, CBZ/CBNZ) or of an instruction in
//!   an IT block (`secret-branch`, `secret-condition`; a predicated single-cycle
//!   data-processing instruction, whose cost is the same executed or skipped, is a
//!   `secret-select`, which the host tool lists without failing);
//! - the target of an indirect branch (BX/BLX, a load or ALU write to PC, POP/LDM
//!   with PC, the index of TBB/TBH): `secret-jump`;
//! - the address of a load or store (single, dual, multiple, exclusive, FP):
//!   `secret-load-address`, `secret-store-address`;
//! - an instruction whose latency the core's timing model takes from its operands:
//!   SDIV/UDIV on both cores (timing::div_cycles), on the Cortex-M7 the
//!   double-precision operations of timing::m7_fp64_cycles: `secret-division`,
//!   `secret-fp64`.
//!
//! Propagation is value-aware where that is cheap and exact (AND with a public zero,
//! ORR with a public one, shifts, bit-field extraction, byte reversal apply the same
//! operation to the mask); additions, subtractions and low-word products taint from
//! the lowest secret bit upward; everything else taints the whole result when any
//! input is secret. An instruction whose IT condition is secret is a finding; its
//! results (executed or not) become wholly secret.

use crate::arm::cpu::{shift_c, Cpu};
use crate::arm::decode::{alu, fop, Class, Insn, Op};
use crate::machine::run::Tracked;
use crate::machine::summary::{self, Entry, Summaries};
use crate::machine::taint::{
    bytes_mask, full, shadow_load4, shadow_store, up, Tracker, K_BRANCH, K_COND, K_DIV, K_FP64,
    K_JUMP, K_LOAD, K_SELECT, K_STORE,
};
use crate::machine::R;
use crate::timing::cortex_m::{Core, CortexTiming, BASE};

pub const FN: u8 = 1;
pub const FZ: u8 = 2;
pub const FC: u8 = 4;
pub const FV: u8 = 8;
pub const FQ: u8 = 16;
const FALL: u8 = FN | FZ | FC | FV;

pub struct Taint {
    pub r: [u32; 256],
    pub s: [u32; 32],
    pub flags: u8,
    pub ge: u8,
    /// bit 0: FPSCR NZCV, bit 1: FPSCR cumulative exception flags
    pub fpscr: u8,
    sram: Vec<u8>,
    psram: Vec<u8>,
    block: Vec<u8>,
    psram_base: u32,
    has_block: bool,
    /// findings, call stack and marks (machine/taint.rs)
    pub track: Tracker,
    exc: Vec<([u32; 16], u8, u8)>,
    /// the instruction's condition is secret: its results become wholly secret
    force: bool,
}

/// Flags a condition code reads (A7.3).
#[inline(always)]
fn cond_flags(c: u32) -> u8 {
    match c >> 1 {
        0 => FZ,
        1 => FC,
        2 => FN,
        3 => FV,
        4 => FC | FZ,
        5 => FN | FV,
        6 => FN | FV | FZ,
        _ => 0,
    }
}

impl Taint {
    pub fn new(an500: bool, track: Tracker) -> Taint {
        Taint {
            r: [0; 256],
            s: [0; 32],
            flags: 0,
            ge: 0,
            fpscr: 0,
            sram: vec![0; 0x40_0000],
            psram: vec![0; 0x100_0000],
            block: vec![0; 0x4000],
            psram_base: if an500 { 0x6000_0000 } else { 0x2100_0000 },
            has_block: !an500,
            track,
            exc: Vec::new(),
            force: false,
        }
    }

    #[inline(always)]
    fn slot(&mut self, addr: u32) -> Option<&mut u8> {
        let (buf, off) = match addr >> 24 {
            0x01 if self.has_block && addr < 0x0101_0000 => {
                (&mut self.block, (addr & 0x3fff) as usize)
            }
            0x20 if addr < 0x2080_0000 => (&mut self.sram, (addr & 0x3f_ffff) as usize),
            _ if addr.wrapping_sub(self.psram_base) < 0x100_0000 => {
                (&mut self.psram, (addr - self.psram_base) as usize)
            }
            // code region (read-only: constants are public), peripherals
            _ => return None,
        };
        buf.get_mut(off)
    }

    #[inline(always)]
    fn load(&mut self, addr: u32, n: u32) -> u32 {
        // fast path: SRAM (stack, .data, .bss), the whole access inside it
        let off = (addr & 0x3f_ffff) as usize;
        if addr >> 23 == 0x20 << 1 && off + 4 <= self.sram.len() {
            return shadow_load4(&self.sram, off, n);
        }
        let mut t = 0;
        for k in 0..n {
            if let Some(b) = self.slot(addr.wrapping_add(k)) {
                if *b != 0 {
                    t |= 0xff << (8 * k);
                }
            }
        }
        t
    }

    #[inline(always)]
    fn store(&mut self, addr: u32, n: u32, t: u32) {
        let t = if self.force { u32::MAX } else { t };
        let off = (addr & 0x3f_ffff) as usize;
        if addr >> 23 == 0x20 << 1 && off + n as usize <= self.sram.len() {
            shadow_store(&mut self.sram, off, n, t);
            return;
        }
        for k in 0..n {
            if let Some(b) = self.slot(addr.wrapping_add(k)) {
                *b = ((t >> (8 * k)) & 0xff != 0) as u8;
            }
        }
    }

    pub fn mark(&mut self, addr: u32, n: u32, secret: bool) {
        for k in 0..n {
            if let Some(b) = self.slot(addr.wrapping_add(k)) {
                *b = secret as u8;
            }
        }
    }

    #[inline(always)]
    fn set(&mut self, d: u8, t: u32) {
        if d < 15 {
            self.r[d as usize] = if self.force { u32::MAX } else { t };
        }
    }

    #[inline(always)]
    fn set_s(&mut self, d: usize, t: u32) {
        if d < 32 {
            self.s[d] = if self.force { u32::MAX } else { t };
        }
    }

    #[inline(always)]
    fn set_flags(&mut self, which: u8, secret: u8) {
        let secret = if self.force { which } else { secret & which };
        self.flags = (self.flags & !which) | secret;
    }

    /// The address of a single load or store (immediate offset when `indexed` is false, the
    /// register offset shifted by `sh` when true) and the taint of the registers that form it.
    #[inline(always)]
    fn mem_address<T: CortexTiming>(&self, cpu: &Cpu<T>, i: &Insn, indexed: bool) -> (u32, u32) {
        let base = cpu.r[i.rn as usize];
        if indexed {
            (
                base.wrapping_add(cpu.r[i.rm as usize] << i.sh),
                self.r[i.rn as usize] | self.r[i.rm as usize],
            )
        } else {
            let addr = if i.ra & 1 != 0 {
                base.wrapping_add(i.imm)
            } else {
                base
            };
            (addr, self.r[i.rn as usize])
        }
    }

    #[inline(always)]
    fn finding(&mut self, pc: u32, kind: u8, insns: u64) {
        self.track.finding(pc, kind, insns);
    }

    /// Shadow call stack: after an instruction at `pc` executed; `link`: it was BL/BLX.
    #[inline(always)]
    pub fn after(&mut self, pc: u32, len: u8, link: bool, npc: u32) {
        self.track.after(pc, len, link, npc);
    }

    /// The core took an exception (ipsr became non-zero): the handler starts with
    /// public registers, the interrupted ones come back on its return.
    pub fn exception_entry(&mut self) {
        let mut regs = [0u32; 16];
        regs.copy_from_slice(&self.r[..16]);
        self.exc.push((regs, self.flags, self.ge));
        for k in 0..16 {
            self.r[k] = 0;
        }
        self.flags = 0;
        self.ge = 0;
    }

    pub fn exception_return(&mut self) {
        if let Some((regs, f, g)) = self.exc.pop() {
            self.r[..16].copy_from_slice(&regs);
            self.flags = f;
            self.ge = g;
        }
    }

    /// The marks' functions: called at every instruction fetch address.
    #[inline(always)]
    pub fn hooks<T: CortexTiming>(&mut self, cpu: &Cpu<T>, pc: u32) {
        if let Some(secret) = self.track.mark_at(pc, cpu.r[1]) {
            self.mark(cpu.r[0], cpu.r[1], secret);
        }
    }

    /// Findings and propagation of the instruction `i` at `pc` about to execute on
    /// `cpu`'s current state.
    pub fn propagate<T: CortexTiming>(&mut self, cpu: &Cpu<T>, i: &Insn, pc: u32) {
        let insns = cpu.m.insns;
        let mut executes = true;
        self.force = false;
        if cpu.it != 0 {
            let c = cpu.it >> 4;
            if self.flags & cond_flags(c) != 0 {
                // A single-cycle data-processing instruction that does not write PC costs
                // the same cycle executed or skipped (Cortex-M4 TRM; both timing models
                // charge a skipped instruction one cycle): a select, reported apart. Any
                // other predicated instruction (load, store, multi-cycle, branch, FP) is a
                // secret-dependent execution.
                let select = matches!(i.class, Class::Alu | Class::Mul)
                    && i.cyc & BASE == 1
                    && !(i.rd == 15 && matches!(i.op, Op::DpImm | Op::DpReg | Op::DpRegReg));
                self.finding(pc, if select { K_SELECT } else { K_COND }, insns);
                self.force = true;
            } else {
                executes = cpu.cond_pub(c);
            }
        }
        if !executes {
            return;
        }
        let in_it = cpu.it != 0;
        match i.op {
            Op::DpImm | Op::DpReg | Op::DpRegReg => {
                let s = i.sf == 1 || (i.sf == 2 && !in_it);
                let a = cpu.r[i.rn as usize];
                let ta = self.r[i.rn as usize];
                let tcin = (self.flags & FC != 0) as u32;
                let (b, tb, tc_shift) = match i.op {
                    Op::DpImm => (i.imm, 0, if i.cf == 0 { tcin } else { 0 }),
                    Op::DpReg => {
                        let (b, _) = shift_c(cpu.r[i.rm as usize], i.st, i.sh as u32, cpu.c);
                        let (tb, tc) = shift_c(self.r[i.rm as usize], i.st, i.sh as u32, tcin != 0);
                        (b, tb, tc as u32)
                    }
                    _ => {
                        let amt = cpu.r[i.ra as usize] & 0xff;
                        let (b, _) = shift_c(cpu.r[i.rm as usize], i.st, amt, cpu.c);
                        if self.r[i.ra as usize] & 0xff != 0 {
                            let any = full(self.r[i.rm as usize] | self.r[i.ra as usize]);
                            (b, any, any & 1)
                        } else {
                            let (tb, tc) = shift_c(self.r[i.rm as usize], i.st, amt, tcin != 0);
                            (b, tb, tc as u32)
                        }
                    }
                };
                let arith = matches!(
                    i.sub,
                    alu::ADD | alu::ADC | alu::SBC | alu::SUB | alu::RSB | alu::CMP | alu::CMN
                );
                let tr = match i.sub {
                    alu::AND | alu::TST => ta & (b | tb) | tb & (a | ta),
                    alu::BIC => ta & (!b | tb) | tb & (a | ta),
                    alu::ORR => ta & (!b | tb) | tb & (!a | ta),
                    alu::ORN => ta & (b | tb) | tb & (!a | ta),
                    alu::EOR | alu::TEQ => ta | tb,
                    alu::MOV | alu::MVN => tb,
                    alu::ADC | alu::SBC => up(ta | tb | tcin),
                    _ => up(ta | tb),
                };
                if s {
                    if arith {
                        let any = if tr != 0 { FALL } else { 0 };
                        self.set_flags(FALL, any);
                    } else {
                        let f = if tr >> 31 != 0 { FN } else { 0 }
                            | if tr != 0 { FZ } else { 0 }
                            | if tc_shift != 0 { FC } else { 0 };
                        self.set_flags(FN | FZ | FC, f);
                    }
                }
                if i.sub < alu::TST {
                    if i.rd == 15 {
                        if tr != 0 {
                            self.finding(pc, K_JUMP, insns);
                        }
                    } else {
                        self.set(i.rd, tr);
                    }
                }
            }
            Op::Movt => {
                let v = self.r[i.rd as usize] & 0xffff;
                self.set(i.rd, v);
            }
            Op::Ssat | Op::Usat | Op::Ssat16 | Op::Usat16 | Op::Qop => {
                let any = full(
                    self.r[i.rn as usize]
                        | if i.op == Op::Qop {
                            self.r[i.rm as usize]
                        } else {
                            0
                        },
                );
                self.set(i.rd, any);
                self.set_flags(FQ, if any != 0 { FQ } else { 0 } | (self.flags & FQ));
            }
            Op::Sbfx => {
                let w = i.imm;
                let v = (((self.r[i.rn as usize] >> i.sh) << (32 - w)) as i32 >> (32 - w)) as u32;
                self.set(i.rd, v);
            }
            Op::Ubfx => {
                let w = i.imm;
                let m = if w >= 32 { u32::MAX } else { (1u32 << w) - 1 };
                let v = (self.r[i.rn as usize] >> i.sh) & m;
                self.set(i.rd, v);
            }
            Op::Bfi => {
                let lsb = i.sh as u32;
                let width = i.imm - lsb + 1;
                let m = (if width >= 32 {
                    u32::MAX
                } else {
                    (1u32 << width) - 1
                }) << lsb;
                let v = (self.r[i.rd as usize] & !m) | ((self.r[i.rn as usize] << lsb) & m);
                self.set(i.rd, v);
            }
            Op::Mul | Op::Mla | Op::Mls => {
                let acc = if i.op == Op::Mul {
                    0
                } else {
                    self.r[i.ra as usize]
                };
                let v = up(self.r[i.rn as usize] | self.r[i.rm as usize]) | up(acc);
                self.set(i.rd, v);
                if i.op == Op::Mul && (i.sf == 1 || (i.sf == 2 && !in_it)) {
                    self.set_flags(FN | FZ, if v != 0 { FN | FZ } else { 0 });
                }
            }
            Op::Smulxy | Op::Smulwy | Op::Smuad | Op::Smusd | Op::Smmul | Op::Smmls | Op::Usad8 => {
                let acc = if i.ra == 15 { 0 } else { self.r[i.ra as usize] };
                let v = full(self.r[i.rn as usize] | self.r[i.rm as usize] | acc);
                self.set(i.rd, v);
                if matches!(i.op, Op::Smulxy | Op::Smulwy | Op::Smuad | Op::Smusd) && v != 0 {
                    self.flags |= FQ;
                }
            }
            Op::Smull
            | Op::Umull
            | Op::Smlal
            | Op::Umlal
            | Op::Umaal
            | Op::Smlalxy
            | Op::Smlald
            | Op::Smlsld => {
                let src = self.r[i.rn as usize] | self.r[i.rm as usize];
                let acc = if matches!(i.op, Op::Smull | Op::Umull) {
                    0
                } else {
                    self.r[i.rd as usize] | self.r[i.ra as usize]
                };
                let lo = up(src) | up(acc);
                let hi = full(src | acc);
                self.set(i.rd, lo);
                self.set(i.ra, hi);
            }
            Op::Sdiv | Op::Udiv => {
                let v = self.r[i.rn as usize] | self.r[i.rm as usize];
                if v != 0 {
                    self.finding(pc, K_DIV, insns);
                }
                self.set(i.rd, full(v));
            }
            Op::Extend => {
                let rot = self.r[i.rm as usize].rotate_right(i.sh as u32);
                let te = match i.sub {
                    0 => rot as i16 as i32 as u32,
                    1 => rot & 0xffff,
                    2 | 3 => full(rot & 0x00ff_00ff),
                    4 => rot as i8 as i32 as u32,
                    _ => rot & 0xff,
                };
                let v = if i.rn == 15 {
                    te
                } else if i.sub == 2 || i.sub == 3 {
                    full(te | self.r[i.rn as usize])
                } else {
                    up(te | self.r[i.rn as usize])
                };
                self.set(i.rd, v);
            }
            Op::Par => {
                let v = full(self.r[i.rn as usize] | self.r[i.rm as usize]);
                self.set(i.rd, v);
                // GE is written by the plain (non-saturating, non-halving) forms
                if (i.sub >> 3) % 3 == 0 {
                    self.ge = if v != 0 { 15 } else { 0 };
                }
            }
            Op::Rev => {
                let v = self.r[i.rm as usize].swap_bytes();
                self.set(i.rd, v);
            }
            Op::Rev16 => {
                let x = self.r[i.rm as usize];
                self.set(i.rd, ((x & 0x00ff_00ff) << 8) | ((x >> 8) & 0x00ff_00ff));
            }
            Op::Revsh => {
                let x = self.r[i.rm as usize];
                self.set(i.rd, ((x as u16).swap_bytes() as i16) as i32 as u32);
            }
            Op::Rbit => {
                let v = self.r[i.rm as usize].reverse_bits();
                self.set(i.rd, v);
            }
            Op::Clz => {
                let v = full(self.r[i.rm as usize]);
                self.set(i.rd, v);
            }
            Op::Sel => {
                let (ta, tb) = (self.r[i.rn as usize], self.r[i.rm as usize]);
                let mut v = 0;
                for k in 0..4 {
                    let m = 0xffu32 << (8 * k);
                    v |= if (self.ge >> k) & 1 != 0 {
                        (ta | tb) & m
                    } else if (cpu.ge >> k) & 1 != 0 {
                        ta & m
                    } else {
                        tb & m
                    };
                }
                v = bytes_mask(v);
                self.set(i.rd, v);
            }
            Op::Pkh => {
                let (tm, _) = shift_c(self.r[i.rm as usize], i.st, i.sh as u32, false);
                let tn = self.r[i.rn as usize];
                let v = if i.sub == 0 {
                    (tn & 0xffff) | (tm & 0xffff_0000)
                } else {
                    (tn & 0xffff_0000) | (tm & 0xffff)
                };
                self.set(i.rd, v);
            }
            Op::Ld | Op::LdR => {
                let (addr, ta) = self.mem_address(cpu, i, i.op == Op::LdR);
                if ta != 0 {
                    self.finding(pc, K_LOAD, insns);
                }
                let n = match i.sub {
                    0 => 4,
                    1 | 3 => 2,
                    _ => 1,
                };
                let mut v = self.load(addr, n);
                v = match i.sub {
                    3 => v as i16 as i32 as u32,
                    4 => v as i8 as i32 as u32,
                    _ => v,
                } | full(ta);
                if i.rd == 15 {
                    if v != 0 {
                        self.finding(pc, K_JUMP, insns);
                    }
                } else {
                    self.set(i.rd, v);
                }
            }
            Op::St | Op::StR => {
                let (addr, ta) = self.mem_address(cpu, i, i.op == Op::StR);
                if ta != 0 {
                    self.finding(pc, K_STORE, insns);
                }
                let n = match i.sub {
                    0 => 4,
                    1 => 2,
                    _ => 1,
                };
                let v = self.r[i.rd as usize];
                self.store(addr, n, v);
            }
            Op::Ldrd | Op::Strd => {
                let base = cpu.r[i.rn as usize];
                let addr = if i.sh & 1 != 0 {
                    base.wrapping_add(i.imm)
                } else {
                    base
                };
                let ta = self.r[i.rn as usize];
                if i.op == Op::Ldrd {
                    if ta != 0 {
                        self.finding(pc, K_LOAD, insns);
                    }
                    let a = self.load(addr, 4) | full(ta);
                    let b = self.load(addr.wrapping_add(4), 4) | full(ta);
                    self.set(i.rd, a);
                    self.set(i.ra, b);
                } else {
                    if ta != 0 {
                        self.finding(pc, K_STORE, insns);
                    }
                    let (a, b) = (self.r[i.rd as usize], self.r[i.ra as usize]);
                    self.store(addr, 4, a);
                    self.store(addr.wrapping_add(4), 4, b);
                }
            }
            Op::Ldrex | Op::Strex => {
                let addr = cpu.r[i.rn as usize].wrapping_add(i.imm);
                let ta = self.r[i.rn as usize];
                let n = [4, 2, 1][(i.sub as usize).min(2)];
                if i.op == Op::Ldrex {
                    if ta != 0 {
                        self.finding(pc, K_LOAD, insns);
                    }
                    let v = self.load(addr, n) | full(ta);
                    self.set(i.rd, v);
                } else {
                    if ta != 0 {
                        self.finding(pc, K_STORE, insns);
                    }
                    let v = self.r[i.rm as usize];
                    self.store(addr, n, v);
                    self.set(i.rd, 0);
                }
            }
            Op::Ldm | Op::Stm => {
                let base = cpu.r[i.rn as usize];
                let cnt = i.imm.count_ones();
                let start = if i.sub == 0 {
                    base
                } else {
                    base.wrapping_sub(4 * cnt)
                };
                let ta = self.r[i.rn as usize];
                if ta != 0 {
                    self.finding(pc, if i.op == Op::Ldm { K_LOAD } else { K_STORE }, insns);
                }
                let mut a = start;
                let mut vals = [0u32; 16];
                for (k, val) in vals.iter_mut().enumerate() {
                    if (i.imm >> k) & 1 != 0 {
                        if i.op == Op::Ldm {
                            *val = self.load(a, 4) | full(ta);
                        } else {
                            let v = self.r[k];
                            self.store(a, 4, v);
                        }
                        a = a.wrapping_add(4);
                    }
                }
                if i.op == Op::Ldm {
                    // A POP under a secret condition (an IT block, a finding already) restores
                    // the callee-saved registers r4-r11 and LR: by the AAPCS the caller sees
                    // the same values on either path, so they keep the stack's taint instead
                    // of becoming wholly secret (which would blame the caller's next use).
                    let forced = self.force;
                    for (k, v) in vals.iter().enumerate() {
                        if (i.imm >> k) & 1 != 0 {
                            if k == 15 {
                                if *v != 0 {
                                    self.finding(pc, K_JUMP, insns);
                                }
                            } else if !(i.sf != 0 && k == i.rn as usize) {
                                self.force =
                                    forced && !(i.rn == 13 && ((4..=11).contains(&k) || k == 14));
                                self.set(k as u8, *v);
                            }
                        }
                    }
                    self.force = forced;
                }
            }
            Op::Bcond if self.flags & cond_flags(i.sub as u32) != 0 => {
                self.finding(pc, K_BRANCH, insns);
            }
            Op::Bl => self.r[14] = 0,
            Op::Bx | Op::Blx => {
                if self.r[i.rm as usize] != 0 {
                    self.finding(pc, K_JUMP, insns);
                }
                if i.op == Op::Blx {
                    self.r[14] = 0;
                }
            }
            Op::Cbz if self.r[i.rn as usize] != 0 => {
                self.finding(pc, K_BRANCH, insns);
            }
            Op::Tbb | Op::Tbh if self.r[i.rn as usize] | self.r[i.rm as usize] != 0 => {
                self.finding(pc, K_JUMP, insns);
            }
            Op::Bkpt => self.set(0, 0),
            Op::Mrs => {
                let v = if i.imm <= 7 {
                    full((self.flags & (FALL | FQ)) as u32 | self.ge as u32)
                } else {
                    0
                };
                self.set(i.rd, v);
            }
            Op::Msr if i.imm <= 3 => {
                let any = if self.r[i.rn as usize] != 0 { 0xff } else { 0 };
                if i.sub & 2 != 0 {
                    self.set_flags(FALL | FQ, any);
                }
                if i.sub & 1 != 0 {
                    self.ge = any & 15;
                }
            }
            Op::Vldr | Op::Vstr => {
                let addr = cpu.r[i.rn as usize].wrapping_add(i.imm);
                let ta = self.r[i.rn as usize];
                let words = if i.sh != 0 { 2 } else { 1 };
                let first = if i.sh != 0 {
                    2 * i.rd as usize
                } else {
                    i.rd as usize
                };
                if ta != 0 {
                    self.finding(pc, if i.op == Op::Vldr { K_LOAD } else { K_STORE }, insns);
                }
                for k in 0..words {
                    let a = addr.wrapping_add(4 * k as u32);
                    if i.op == Op::Vldr {
                        let v = self.load(a, 4) | full(ta);
                        self.set_s(first + k, v);
                    } else {
                        let v = self.s[(first + k) & 31];
                        self.store(a, 4, v);
                    }
                }
            }
            Op::Vldm | Op::Vstm => {
                let words = if i.sh != 0 { 2 * i.imm } else { i.imm };
                let base = cpu.r[i.rn as usize];
                let start = if i.sub != 0 {
                    base.wrapping_sub(4 * words)
                } else {
                    base
                };
                let ta = self.r[i.rn as usize];
                if ta != 0 {
                    self.finding(pc, if i.op == Op::Vldm { K_LOAD } else { K_STORE }, insns);
                }
                let first = if i.sh != 0 {
                    2 * i.rd as usize
                } else {
                    i.rd as usize
                };
                for k in 0..words as usize {
                    let a = start.wrapping_add(4 * k as u32);
                    if i.op == Op::Vldm {
                        let v = self.load(a, 4) | full(ta);
                        self.set_s(first + k, v);
                    } else {
                        let v = self.s[(first + k) & 31];
                        self.store(a, 4, v);
                    }
                }
            }
            Op::VmovS => {
                if i.sub != 0 {
                    let v = self.s[i.rn as usize & 31];
                    if i.rd == 15 {
                        if v != 0 {
                            self.finding(pc, K_JUMP, insns);
                        }
                    } else {
                        self.set(i.rd, v);
                    }
                } else {
                    let v = self.r[i.rd as usize];
                    self.set_s(i.rn as usize, v);
                }
            }
            Op::Vmov2 => {
                let first = if i.sub & 2 != 0 {
                    2 * i.rm as usize
                } else {
                    i.rm as usize
                };
                if first + 1 < 32 {
                    if i.sub & 1 != 0 {
                        let (a, b) = (self.s[first], self.s[first + 1]);
                        self.set(i.rd, a);
                        self.set(i.ra, b);
                    } else {
                        let (a, b) = (self.r[i.rd as usize], self.r[i.ra as usize]);
                        self.set_s(first, a);
                        self.set_s(first + 1, b);
                    }
                }
            }
            Op::VmovScalar => {
                let idx = 2 * i.rn as usize + i.sh as usize;
                if i.sub != 0 {
                    let v = self.s[idx & 31];
                    self.set(i.rd, v);
                } else {
                    let v = self.r[i.rd as usize];
                    self.set_s(idx, v);
                }
            }
            Op::Vmrs => {
                if i.rd == 15 {
                    let f = if self.fpscr & 1 != 0 { FALL } else { 0 };
                    self.set_flags(FALL, f);
                } else {
                    let v = full(self.fpscr as u32);
                    self.set(i.rd, v);
                }
            }
            Op::Vmsr => {
                self.fpscr = if self.r[i.rd as usize] != 0 { 3 } else { 0 };
            }
            Op::VmovImm => {
                if i.sh != 0 {
                    self.set_s(2 * i.rd as usize, 0);
                    self.set_s(2 * i.rd as usize + 1, 0);
                } else {
                    self.set_s(i.rd as usize, 0);
                }
            }
            Op::Vdp => self.vdp(cpu, i, pc, insns),
            _ => {}
        }
    }

    /// Taint of an FP operand register: S register `r` (single) or D register `r`.
    #[inline(always)]
    fn ft(&self, r: u8, double: bool) -> u32 {
        if double {
            let r = (r & 15) as usize;
            self.s[2 * r] | self.s[2 * r + 1]
        } else {
            self.s[r as usize & 31]
        }
    }

    fn fset(&mut self, r: u8, double: bool, v: u32) {
        if double {
            let r = (r & 15) as usize;
            self.set_s(2 * r, v);
            self.set_s(2 * r + 1, v);
        } else {
            self.set_s(r as usize, v);
        }
    }

    fn vdp<T: CortexTiming>(&mut self, cpu: &Cpu<T>, i: &Insn, pc: u32, insns: u64) {
        let dbl = i.sh != 0;
        let mac = matches!(
            i.sub,
            fop::VMLA
                | fop::VMLS
                | fop::VNMLA
                | fop::VNMLS
                | fop::VFMA
                | fop::VFMS
                | fop::VFNMA
                | fop::VFNMS
        );
        // the operations whose Cortex-M7 cost timing::m7_fp64_cycles takes from the
        // operands (the accumulator of the MACs included)
        let timed = mac
            || matches!(
                i.sub,
                fop::VADD | fop::VSUB | fop::VMUL | fop::VNMUL | fop::VDIV
            );
        let (n, m) = (self.ft(i.rn, dbl), self.ft(i.rm, dbl));
        let acc = if mac { self.ft(i.rd, dbl) } else { 0 };
        if dbl && timed && cpu.core == Core::M7 && (n | m | acc) != 0 {
            self.finding(pc, K_FP64, insns);
        }
        let any = |x: u32| if x != 0 { u32::MAX } else { 0 };
        match i.sub {
            fop::VCMP => {
                let b = if i.ra & 2 != 0 { 0 } else { m };
                let d = self.ft(i.rd, dbl);
                if d | b != 0 {
                    self.fpscr |= 3;
                } else if !self.force {
                    self.fpscr &= !1;
                }
                if self.force {
                    self.fpscr |= 3;
                }
            }
            fop::VCVT_FD => {
                // single <-> double: sh is the source size
                let src = self.ft(i.rm, dbl);
                self.fset(i.rd, !dbl, any(src));
                if src != 0 {
                    self.fpscr |= 2;
                }
            }
            fop::VCVT_I2F => {
                let src = self.ft(i.rm, false);
                self.fset(i.rd, dbl, any(src));
                if src != 0 {
                    self.fpscr |= 2;
                }
            }
            fop::VCVT_F2I | fop::VCVT_F2I_RM => {
                self.fset(i.rd, false, any(m));
                if m != 0 {
                    self.fpscr |= 2;
                }
            }
            fop::VSEL => {
                let c = if self.flags & cond_flags(i.ra as u32) != 0 {
                    u32::MAX
                } else {
                    0
                };
                self.fset(i.rd, dbl, any(n | m | c));
            }
            fop::VMOV | fop::VABS | fop::VNEG => {
                self.fset(i.rd, dbl, m);
            }
            _ => {
                let v = any(n | m | acc);
                self.fset(i.rd, dbl, v);
                if v != 0 {
                    self.fpscr |= 2;
                }
            }
        }
    }
}

/// The Thumb front end in the shared tracked loop (machine/run.rs `run_ct`): the tracker
/// follows exception entries and returns, and SysTick ticks as in the untracked loops.
impl<T: CortexTiming> Tracked for Cpu<T> {
    type Taint = Taint;
    #[inline(always)]
    fn ct_hooks(&mut self, t: &mut Taint, pc: u32) {
        t.hooks(self, pc);
    }
    fn ct_summary(&mut self, t: &mut Taint, s: &mut Summaries, k: usize, pc: u32) -> bool {
        let (ret, sp, events, insns) = (self.r[14] & !1, self.r[13], t.track.events, self.m.insns);
        let mut target = SummaryTarget { cpu: self, t };
        if let Entry::Return(to) = s.enter(k, &mut target, ret, sp, events, insns) {
            // the call is done: back in the caller as after its BX LR
            t.after(pc, 2, false, to);
            self.pc = to;
            return true;
        }
        false
    }
    #[inline(always)]
    fn ct_propagate(&mut self, t: &mut Taint, pc: u32) -> R<(u8, u32)> {
        let i = self.fetch(pc);
        let ipsr0 = self.ipsr;
        t.propagate(self, &i, pc);
        Ok((i.len, ipsr0))
    }
    #[inline(always)]
    fn ct_after(&mut self, t: &mut Taint, s: &mut Summaries, pc: u32, len: u8) {
        t.after(pc, len, self.m.last_link, self.pc);
        if s.pending() {
            let (npc, sp, events, insns) = (self.pc, self.r[13], t.track.events, self.m.insns);
            s.check(npc, sp, &mut SummaryTarget { cpu: self, t }, events, insns);
        }
    }
    #[inline(always)]
    fn ct_events(&mut self, t: &mut Taint, ipsr0: u32) -> R<()> {
        if ipsr0 != 0 && self.ipsr != ipsr0 {
            t.exception_return();
        } else if ipsr0 == 0 && self.ipsr != 0 {
            t.exception_entry(); // SVC, a fault taken by the firmware
        }
        let sp = self.r[13];
        if sp < self.m.min_sp {
            self.m.min_sp = sp;
        }
        if self.m.cycles >= self.next_event() {
            self.st_tick();
        }
        if self.it == 0 {
            let before = self.ipsr;
            self.check_irq()?;
            if before == 0 && self.ipsr != 0 {
                t.exception_entry();
            }
        }
        Ok(())
    }
}

/// The function summaries' view of the Arm machine (machine/summary.rs): arguments in r0-r2,
/// RAM and its shadow.
pub struct SummaryTarget<'a, T: CortexTiming> {
    pub cpu: &'a mut Cpu<T>,
    pub t: &'a mut Taint,
}

impl<T: CortexTiming> summary::Target for SummaryTarget<'_, T> {
    fn arg(&self, k: usize) -> u32 {
        self.cpu.r[k]
    }
    fn arg_secret(&self, k: usize) -> bool {
        self.t.r[k] != 0
    }
    fn read(&mut self, addr: u32, buf: &mut [u8]) -> bool {
        match self.cpu.mem.slot(addr, buf.len() as u32) {
            Some((m, o)) => {
                buf.copy_from_slice(&m[o..o + buf.len()]);
                true
            }
            None => false,
        }
    }
    fn write(&mut self, addr: u32, buf: &[u8]) -> bool {
        match self.cpu.mem.slot_w(addr, buf.len() as u32) {
            Some((m, o)) => {
                m[o..o + buf.len()].copy_from_slice(buf);
                true
            }
            None => false,
        }
    }
    fn any_secret(&mut self, addr: u32, n: u32) -> bool {
        (0..n).any(|k| self.t.slot(addr.wrapping_add(k)).map_or(false, |b| *b != 0))
    }
    fn set_secret(&mut self, addr: u32, n: u32, secret: bool) {
        self.t.mark(addr, n, secret);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(cond_flags(0), FZ);
        assert_eq!(cond_flags(14), 0);
        assert_eq!(cond_flags(12), FN | FV | FZ);
    }

    #[test]
    fn memory_shadow() {
        let mut t = Taint::new(false, Tracker::new(&[]));
        t.mark(0x2000_0001, 2, true);
        assert_eq!(t.load(0x2000_0000, 4), 0x00ff_ff00);
        t.store(0x2000_0000, 4, 0xff00_0000);
        assert_eq!(t.load(0x2000_0000, 4), 0xff00_0000);
        assert_eq!(t.load(0x2000_0001, 2), 0);
        assert_eq!(t.load(0x2000_0002, 2), 0xff00);
        assert_eq!(t.load(0x2000_0003, 1), 0xff);
        assert_eq!(t.load(0x2000_0002, 1), 0);
        // the end of SRAM: the slow path, byte by byte
        t.mark(0x203f_fffe, 2, true);
        assert_eq!(t.load(0x203f_fffe, 2), 0xffff);
        assert_eq!(t.load(0x203f_fffd, 4), 0x00ff_ff00);
        // the code region is public
        t.mark(0x100, 4, true);
        assert_eq!(t.load(0x100, 4), 0);
    }
}
