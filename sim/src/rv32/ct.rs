// SPDX-License-Identifier: MIT
//! Secret tracking (taint) on the RV32IMFC hart (`--ct FILE` on the cv32e40p machines): the
//! RISC-V propagation rules. Findings, call stack, marks and the memory shadow's encoding
//! are the machine's (machine/taint.rs), shared with the Thumb-2 front end.
//!
//! Shadow state: a 32-bit mask per x and f register (bit k set: bit k of the value may
//! depend on a secret), one bit each for fcsr's fflags (accrued exceptions, which depend on
//! the operands) and frm, and one byte per byte of RAM (0x200000-0x7fffff; the code region
//! is read-only, so its constants are public, and device registers read public values).
//! The firmware marks secrets by calling `pqlab_ct_secret(p, n)` / `pqlab_ct_declassify(p,
//! n)` (lib/common/ct.h with PQLAB_CT_SIM): when execution reaches the first instruction of
//! one, the n bytes at p (a0, a1 by the ilp32/ilp32f calling convention) become secret or
//! public.
//!
//! `propagate` runs before each instruction on the state it reads and records a finding when
//! a secret reaches:
//! - a conditional branch's operands (beq, bne, blt, bge, bltu, bgeu): `secret-branch`;
//! - the target of jalr: `secret-jump`;
//! - the address of a load or store (lb..lw, sb..sw, flw, fsw): `secret-load-address`,
//!   `secret-store-address`; this also covers the one address-dependent cost of the
//!   CV32E40P model, a misaligned access split into two bus transactions;
//! - an operand whose value the timing model's cycle count depends on
//!   (timing::cv32e40p::timing_operands: the divisor of div, divu, rem, remu):
//!   `secret-division`. The model gives fdiv/fsqrt a fixed latency, so they are no finding.
//!
//! The accelerators of the `cv32e40p-acc` machine (accel.rs, ntt_acc.rs) have a shadow of their
//! own (`Units`): a mask per register and memory word. A word read from a unit carries the
//! union of the taint of everything written into the unit that its value depends on: the NTT
//! unit's memories A and B as written, and
//! after an operation the words of the memory it writes the union of its inputs (A and/or B
//! over the operation's n words), of MODE, SCALE and the CTRL value. A secret address into a
//! unit's window is a finding as any other address; a CTRL store with a secret value or while
//! MODE is secret starts an operation whose busy time depends on it: `secret-unit-operation`.
//! The unit of the custom Keccak instructions (kxw, ksw, klw, kperm) has 50 masks: ksw sets a word's mask, kxw ORs into it, klw reads it into rd, kperm
//! makes every word the union of all (its busy time is fixed: no finding); a secret word index
//! (rs1) is an address finding, as for a load or store.
//!
//! Propagation: logic and shifts by a public amount apply the operation to the mask (AND with
//! a public zero and OR with a public one give public bits); additions, subtractions and
//! low-word products taint from the lowest secret bit upward; comparisons (slt*, feq..) give
//! a secret bit 0, and a signed comparison with a public zero (bltz, bgez, sltz) reads only
//! the sign bit; shifts by a secret amount, high products, divisions and FP arithmetic
//! taint the whole result. Links (jal/jalr's rd), lui, auipc and CSRs other than fcsr are
//! public.

use super::decode::{Insn, Op};
use super::hart::{Hart, MEM_END, RAM_BASE};
use super::ntt_acc::{NTT_BASE, NTT_END};
use crate::machine::taint::{
    full, shadow_load4, shadow_store, up, Tracker, K_BRANCH, K_DIV, K_JUMP, K_LOAD, K_STORE, K_UNIT,
};

/// The shadow of the accelerators' registers and memories (`cv32e40p-acc`).
struct Units {
    /// the state words of the custom instructions' Keccak unit
    kinsn: [u32; 50],
    /// the NTT unit's memories and its MODE / SCALE / last CTRL value (masks), MODE's value
    a: Vec<u32>,
    b: Vec<u32>,
    mode: u32,
    scale: u32,
    ctrl: u32,
    mode_val: u32,
}

impl Units {
    fn new() -> Units {
        Units {
            kinsn: [0; 50],
            a: vec![0; 1024],
            b: vec![0; 1024],
            mode: 0,
            scale: 0,
            ctrl: 0,
            mode_val: 0,
        }
    }

    /// n of the NTT unit's current mode (ntt_unit.sv: 256, or 2^logn for FN-DSA)
    fn ntt_n(&self) -> usize {
        if self.mode_val & 3 == 2 {
            1usize << ((self.mode_val >> 8) & 15).min(10)
        } else {
            256
        }
    }

    /// Some(mask) when `addr` is a unit's register or memory word (h: which units exist)
    fn load(&self, h: &Hart, addr: u32) -> Option<u32> {
        if h.ntt.is_some() && (NTT_BASE..NTT_END).contains(&addr) {
            let off = addr - NTT_BASE;
            let i = ((off >> 2) & 1023) as usize;
            return Some(match off >> 12 {
                0 => match (off >> 2) & 7 {
                    0 => self.mode,
                    1 => self.ctrl,
                    4 => self.scale,
                    // CYCLES: the last operation's count, which MODE and CTRL decide
                    5 => full(self.mode | self.ctrl),
                    _ => 0, // STATUS, WAIT: idle when read (the access waits)
                },
                1 | 2 => self.a[i],
                _ => self.b[i],
            });
        }
        None
    }

    /// A store of mask `t` (value `v`) to `addr`; Some(finding) when it is a unit's, where
    /// finding says it started an operation with a secret operand; None: not a unit's.
    fn store(&mut self, h: &Hart, addr: u32, t: u32, v: u32) -> Option<bool> {
        if h.ntt.is_some() && (NTT_BASE..NTT_END).contains(&addr) {
            let off = addr - NTT_BASE;
            let i = ((off >> 2) & 1023) as usize;
            // the unit reduces every word written modulo q: each bit of the result depends on
            // every bit written
            match off >> 12 {
                0 => match (off >> 2) & 7 {
                    0 => {
                        self.mode = full(t);
                        self.mode_val = v;
                    }
                    1 => {
                        self.ctrl = full(t);
                        return Some(self.start(v));
                    }
                    4 => self.scale = full(t),
                    _ => {}
                },
                1 | 2 => self.a[i] = full(t),
                _ => self.b[i] = full(t),
            }
            return Some(false);
        }
        None
    }

    /// the NTT unit's operation `op`: the words it writes get the union of its inputs and
    /// operands; true when its busy time depends on a secret (the operation or MODE)
    fn start(&mut self, op: u32) -> bool {
        let n = self.ntt_n();
        let on_b = op & 8 != 0;
        let kind = op & 7;
        let union = |m: &[u32]| m[..n].iter().fold(0, |x, y| x | y);
        let mut u = self.mode | self.ctrl | self.scale;
        if kind == 3 || kind == 4 || !on_b {
            u |= union(&self.a);
        }
        if kind == 3 || kind == 4 || on_b {
            u |= union(&self.b);
        }
        let u = full(u);
        let out = if on_b && kind <= 2 {
            &mut self.b
        } else {
            &mut self.a
        };
        out[..n].iter_mut().for_each(|w| *w = u);
        self.mode != 0 || self.ctrl != 0
    }
}
use crate::machine::run::{Frontend, Tracked};
use crate::machine::summary::{self, Entry, Summaries};
use crate::machine::R;
use crate::timing::cv32e40p::timing_operands;

pub struct Taint {
    pub x: [u32; 32],
    pub f: [u32; 32],
    /// fcsr's accrued exception flags and rounding mode may depend on a secret
    fflags: bool,
    frm: bool,
    /// one byte per RAM byte, from RAM_BASE
    ram: Vec<u8>,
    units: Box<Units>,
    pub track: Tracker,
}

/// Sign extension of a loaded value's mask from bit `bits - 1`.
#[inline(always)]
fn sext(t: u32, bits: u32) -> u32 {
    let s = 32 - bits;
    (((t << s) as i32) >> s) as u32
}

impl Taint {
    pub fn new(track: Tracker) -> Taint {
        Taint {
            x: [0; 32],
            f: [0; 32],
            fflags: false,
            frm: false,
            ram: vec![0; (MEM_END - RAM_BASE) as usize],
            units: Box::new(Units::new()),
            track,
        }
    }

    #[inline(always)]
    fn load(&self, addr: u32, n: u32) -> u32 {
        let off = addr.wrapping_sub(RAM_BASE) as usize;
        if off + 4 <= self.ram.len() {
            return shadow_load4(&self.ram, off, n);
        }
        let mut t = 0;
        for k in 0..n {
            let o = addr.wrapping_add(k).wrapping_sub(RAM_BASE) as usize;
            if self.ram.get(o).map_or(false, |b| *b != 0) {
                t |= 0xff << (8 * k);
            }
        }
        t
    }

    #[inline(always)]
    fn store(&mut self, addr: u32, n: u32, t: u32) {
        let off = addr.wrapping_sub(RAM_BASE) as usize;
        if off + n as usize <= self.ram.len() {
            shadow_store(&mut self.ram, off, n, t);
        }
        // outside RAM: the code region faults, devices keep nothing
    }

    pub fn mark(&mut self, addr: u32, n: u32, secret: bool) {
        for k in 0..n {
            let o = addr.wrapping_add(k).wrapping_sub(RAM_BASE) as usize;
            if let Some(b) = self.ram.get_mut(o) {
                *b = secret as u8;
            }
        }
    }

    /// The marks' functions: called at every instruction fetch address.
    #[inline(always)]
    pub fn hooks(&mut self, h: &Hart, pc: u32) {
        if let Some(secret) = self.track.mark_at(pc, h.x[11]) {
            self.mark(h.x[10], h.x[11], secret);
        }
    }

    #[inline(always)]
    fn set(&mut self, rd: u8, t: u32) {
        self.x[rd as usize & 31] = t;
        self.x[0] = 0;
    }

    /// Findings and propagation of `i` at `pc`, about to execute on `h`'s current state.
    #[inline(always)]
    pub fn propagate(&mut self, h: &Hart, i: &Insn, pc: u32) {
        let insns = h.m.insns;
        let (a, b) = (h.x[i.rs1 as usize & 31], h.x[i.rs2 as usize & 31]);
        let (ta, tb) = (self.x[i.rs1 as usize & 31], self.x[i.rs2 as usize & 31]);
        let ops = timing_operands(i);
        if ops != 0 && ((ops & 1 != 0 && ta != 0) || (ops & 2 != 0 && tb != 0)) {
            self.track.finding(pc, K_DIV, insns);
        }
        match i.op {
            Op::Lui | Op::Auipc | Op::Jal => self.set(i.rd, 0),
            Op::Jalr => {
                if ta != 0 {
                    self.track.finding(pc, K_JUMP, insns);
                }
                self.set(i.rd, 0);
            }
            Op::Beq | Op::Bne | Op::Blt | Op::Bge | Op::Bltu | Op::Bgeu => {
                // against a public zero (bltz, bgez), a signed comparison reads only the sign
                // bit: GCC's RV32 expansion of a 64-bit shift by `n & 31` branches on the sign
                // of `(n & 31) | -32`, which is public (always negative) even for a secret n
                let t = match i.op {
                    Op::Blt | Op::Bge if tb == 0 && b == 0 => ta & 0x8000_0000,
                    _ => ta | tb,
                };
                if t != 0 {
                    self.track.finding(pc, K_BRANCH, insns);
                }
            }
            Op::Lb | Op::Lh | Op::Lw | Op::Lbu | Op::Lhu | Op::Flw => {
                if ta != 0 {
                    self.track.finding(pc, K_LOAD, insns);
                }
                let addr = a.wrapping_add(i.imm);
                let unit = if addr >= MEM_END && i.op == Op::Lw {
                    self.units.load(h, addr)
                } else {
                    None
                };
                let v = match (unit, i.op) {
                    (Some(u), _) => u,
                    (_, Op::Lb) => sext(self.load(addr, 1), 8),
                    (_, Op::Lbu) => self.load(addr, 1),
                    (_, Op::Lh) => sext(self.load(addr, 2), 16),
                    (_, Op::Lhu) => self.load(addr, 2),
                    _ => self.load(addr, 4),
                } | full(ta);
                if i.op == Op::Flw {
                    self.f[i.rd as usize & 31] = v;
                } else {
                    self.set(i.rd, v);
                }
            }
            Op::Sb | Op::Sh | Op::Sw | Op::Fsw => {
                if ta != 0 {
                    self.track.finding(pc, K_STORE, insns);
                }
                let addr = a.wrapping_add(i.imm);
                let (n, v) = match i.op {
                    Op::Sb => (1, tb),
                    Op::Sh => (2, tb),
                    Op::Sw => (4, tb),
                    _ => (4, self.f[i.rs2 as usize & 31]),
                };
                // the units take aligned words only (anything else faults)
                if addr >= MEM_END && i.op == Op::Sw {
                    if let Some(secret_op) = self.units.store(h, addr, tb, b) {
                        if secret_op {
                            self.track.finding(pc, K_UNIT, insns);
                        }
                        return;
                    }
                }
                self.store(addr, n, v);
            }
            Op::Addi => self.set(i.rd, up(ta)),
            // sign of a value (slti rd, rs, 0): its sign bit only
            Op::Slti if i.imm == 0 => self.set(i.rd, ta >> 31),
            Op::Slti | Op::Sltiu => self.set(i.rd, (ta != 0) as u32),
            Op::Xori => self.set(i.rd, ta),
            Op::Ori => self.set(i.rd, ta & !i.imm),
            Op::Andi => self.set(i.rd, ta & i.imm),
            Op::Slli => self.set(i.rd, ta << (i.imm & 31)),
            Op::Srli => self.set(i.rd, ta >> (i.imm & 31)),
            Op::Srai => self.set(i.rd, ((ta as i32) >> (i.imm & 31)) as u32),
            Op::Add | Op::Sub => self.set(i.rd, up(ta | tb)),
            Op::Sll | Op::Srl | Op::Sra => {
                let v = if tb & 31 != 0 {
                    full(ta | tb)
                } else {
                    let s = b & 31;
                    match i.op {
                        Op::Sll => ta << s,
                        Op::Srl => ta >> s,
                        _ => ((ta as i32) >> s) as u32,
                    }
                };
                self.set(i.rd, v);
            }
            Op::Slt if tb == 0 && b == 0 => self.set(i.rd, ta >> 31),
            Op::Slt | Op::Sltu => self.set(i.rd, (ta | tb != 0) as u32),
            Op::Xor => self.set(i.rd, ta | tb),
            // a public one decides an OR's bit, a public zero an AND's
            Op::Or => self.set(i.rd, (ta | tb) & !((a & !ta) | (b & !tb))),
            Op::And => self.set(i.rd, (ta | tb) & !((!a & !ta) | (!b & !tb))),
            Op::Mul => self.set(i.rd, up(ta | tb)),
            Op::Mulh | Op::Mulhsu | Op::Mulhu | Op::Div | Op::Divu | Op::Rem | Op::Remu => {
                self.set(i.rd, full(ta | tb))
            }
            Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci => {
                self.csr(i, ta)
            }
            Op::Kxw | Op::Ksw | Op::Klw | Op::Kperm => self.kinsn(h, i, a, ta, tb, pc),
            _ => self.fp(i, ta),
        }
    }

    /// The custom Keccak instructions (module documentation); on a machine without their unit
    /// they trap as illegal instructions and change no mask.
    fn kinsn(&mut self, h: &Hart, i: &Insn, a: u32, ta: u32, tb: u32, pc: u32) {
        if h.kinsn.is_none() {
            return;
        }
        if i.op != Op::Kperm && ta != 0 {
            let kind = if i.op == Op::Klw { K_LOAD } else { K_STORE };
            self.track.finding(pc, kind, h.m.insns);
        }
        let w = ((a.wrapping_add(i.imm) >> 2) & 63) as usize;
        let u = &mut self.units.kinsn;
        match i.op {
            Op::Kxw if w < 50 => u[w] |= tb,
            Op::Ksw if w < 50 => u[w] = tb,
            Op::Klw => {
                let t = u.get(w).copied().unwrap_or(0);
                self.set(i.rd, t);
            }
            Op::Kperm => {
                let all = full(u.iter().fold(0, |x, y| x | y));
                *u = [all; 50];
            }
            _ => {}
        }
    }

    fn csr(&mut self, i: &Insn, ta: u32) {
        let csr = i.imm & 0xfff;
        let (ff, rm) = (self.fflags, self.frm);
        let old = match csr {
            0x001 => full(ff as u32),
            0x002 => full(rm as u32),
            0x003 => full((ff || rm) as u32),
            _ => 0,
        };
        let imm = matches!(i.op, Op::Csrrwi | Op::Csrrsi | Op::Csrrci);
        let writes = matches!(i.op, Op::Csrrw | Op::Csrrwi) || i.rs1 != 0;
        if writes {
            let src = !imm && ta != 0;
            // csrrw replaces the value, csrrs/csrrc combine it with the old one
            let keep = !matches!(i.op, Op::Csrrw | Op::Csrrwi);
            match csr {
                0x001 => self.fflags = src || (keep && ff),
                0x002 => self.frm = src || (keep && rm),
                0x003 => {
                    self.fflags = src || (keep && ff);
                    self.frm = src || (keep && rm);
                }
                _ => {}
            }
        }
        self.set(i.rd, old);
    }

    fn fp(&mut self, i: &Insn, ta: u32) {
        let f = |r: u8| self.f[r as usize & 31];
        let (fa, fb, fc) = (f(i.rs1), f(i.rs2), f(i.rs3));
        // the dynamic rounding mode comes from frm
        let rm = full((i.rm == 7 && self.frm) as u32);
        let rd = i.rd as usize & 31;
        let arith = |s: u32| full(s | rm);
        match i.op {
            Op::Fadd | Op::Fsub | Op::Fmul | Op::Fdiv | Op::Fmin | Op::Fmax => {
                self.f[rd] = arith(fa | fb);
                self.fflags |= fa | fb != 0;
            }
            Op::Fsqrt => {
                self.f[rd] = arith(fa);
                self.fflags |= fa != 0;
            }
            Op::Fmadd | Op::Fmsub | Op::Fnmsub | Op::Fnmadd => {
                self.f[rd] = arith(fa | fb | fc);
                self.fflags |= fa | fb | fc != 0;
            }
            // sign injection: the magnitude from rs1, the sign from rs2 (and rs1 for fsgnjx)
            Op::Fsgnj | Op::Fsgnjn => {
                self.f[rd] = (fa & 0x7fff_ffff) | (fb & 0x8000_0000);
            }
            Op::Fsgnjx => self.f[rd] = fa | (fb & 0x8000_0000),
            Op::FcvtWS | Op::FcvtWuS => {
                self.set(i.rd, arith(fa));
                self.fflags |= fa != 0;
            }
            Op::FmvXW => self.set(i.rd, fa),
            Op::Feq | Op::Flt | Op::Fle => {
                self.set(i.rd, (fa | fb != 0) as u32);
                self.fflags |= fa | fb != 0;
            }
            Op::Fclass => self.set(i.rd, full(fa) & 0x3ff),
            Op::FcvtSW | Op::FcvtSWu => {
                self.f[rd] = arith(ta);
                self.fflags |= ta != 0;
            }
            Op::FmvWX => self.f[rd] = ta,
            // fence, fence.i, ecall, ebreak, mret, wfi, illegal: no register result
            _ => {}
        }
    }
}

/// The RV32 front end in the shared tracked loop (machine/run.rs `run_ct`).
impl Tracked for Hart {
    type Taint = Taint;
    #[inline(always)]
    fn ct_hooks(&mut self, t: &mut Taint, pc: u32) {
        t.hooks(self, pc);
    }
    fn ct_summary(&mut self, t: &mut Taint, s: &mut Summaries, k: usize, pc: u32) -> bool {
        let (ret, sp, events, insns) = (self.x[1], self.x[2], t.track.events, self.m.insns);
        if let Entry::Return(to) =
            s.enter(k, &mut SummaryTarget { h: self, t }, ret, sp, events, insns)
        {
            // the call is done: back in the caller as after its `ret`
            t.track.after(pc, 4, false, to);
            self.pc = to;
            return true;
        }
        false
    }
    #[inline(always)]
    fn ct_propagate(&mut self, t: &mut Taint, pc: u32) -> R<(u8, u32)> {
        let i = self.fetch(pc)?;
        t.propagate(self, &i, pc);
        Ok((i.len, 0))
    }
    #[inline(always)]
    fn ct_after(&mut self, t: &mut Taint, s: &mut Summaries, pc: u32, len: u8) {
        t.track.after(pc, len, self.m.last_link, self.pc);
        if s.pending() {
            let (npc, sp, events, insns) = (self.pc, self.x[2], t.track.events, self.m.insns);
            s.check(npc, sp, &mut SummaryTarget { h: self, t }, events, insns);
        }
    }
    #[inline(always)]
    fn ct_events(&mut self, _t: &mut Taint, _state: u32) -> R<()> {
        self.track_sp();
        Ok(())
    }
}

/// The function summaries' view of the RV32 machine (machine/summary.rs): arguments in
/// a0-a2, memory (written only from RAM_BASE: the code region is not writable) and its shadow.
pub struct SummaryTarget<'a> {
    pub h: &'a mut Hart,
    pub t: &'a mut Taint,
}

impl summary::Target for SummaryTarget<'_> {
    fn arg(&self, k: usize) -> u32 {
        self.h.x[10 + k]
    }
    fn arg_secret(&self, k: usize) -> bool {
        self.t.x[10 + k] != 0
    }
    fn read(&mut self, addr: u32, buf: &mut [u8]) -> bool {
        let a = addr as usize;
        match self.h.mem.get(a..a + buf.len()) {
            Some(m) => {
                buf.copy_from_slice(m);
                true
            }
            None => false,
        }
    }
    fn write(&mut self, addr: u32, buf: &[u8]) -> bool {
        let a = addr as usize;
        match self.h.mem.get_mut(a..a + buf.len()) {
            Some(m) if addr >= RAM_BASE => {
                m.copy_from_slice(buf);
                true
            }
            _ => false,
        }
    }
    fn any_secret(&mut self, addr: u32, n: u32) -> bool {
        (0..n).any(|k| self.t.load(addr.wrapping_add(k), 1) != 0)
    }
    fn set_secret(&mut self, addr: u32, n: u32, secret: bool) {
        self.t.mark(addr, n, secret);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rv32::decode::decode32;

    fn run(t: &mut Taint, h: &mut Hart, w: u32) {
        let i = decode32(w);
        let pc = h.pc;
        t.propagate(h, &i, pc);
    }

    #[test]
    fn memory_and_findings() {
        let mut t = Taint::new(Tracker::new(&[]));
        let mut h = Hart::new(false);
        t.mark(RAM_BASE + 1, 2, true);
        assert_eq!(t.load(RAM_BASE, 4), 0x00ff_ff00);
        assert_eq!(t.load(RAM_BASE + 2, 1), 0xff);
        // the last bytes of RAM, byte by byte; the code region is public
        t.mark(MEM_END - 2, 2, true);
        assert_eq!(t.load(MEM_END - 3, 4), 0x00ff_ff00);
        t.mark(0x1000, 4, true);
        assert_eq!(t.load(0x1000, 4), 0);
        // lb a0, 2(a1) with a1 = RAM_BASE: the sign-extended byte is wholly secret
        h.x[11] = RAM_BASE;
        run(&mut t, &mut h, 0x0025_8503);
        assert_eq!(t.x[10], u32::MAX);
        // lbu a2, 0(a1): public byte
        run(&mut t, &mut h, 0x0005_c603);
        assert_eq!(t.x[12], 0);
        // andi a3, a0, 1: one secret bit
        run(&mut t, &mut h, 0x0015_7693);
        assert_eq!(t.x[13], 1);
        // beq a3, x0: a finding; beq a2, x0: none
        run(&mut t, &mut h, 0x0006_8463);
        run(&mut t, &mut h, 0x0006_0463);
        // divu a4, a2, a3 (secret divisor) and divu a4, a3, a2 (secret dividend only)
        run(&mut t, &mut h, 0x02d6_5733);
        run(&mut t, &mut h, 0x02c6_d733);
        // lw a5, 0(a0): secret address; jalr a0: secret target
        run(&mut t, &mut h, 0x0005_2783);
        run(&mut t, &mut h, 0x0005_00e7);
        // ori a6, a3, -32; bltz a6: the sign is public (no finding); bgez a3 (secret bit 0
        // only, sign public): none either
        run(&mut t, &mut h, 0xfe06_e813);
        assert_eq!(t.x[16], 1);
        run(&mut t, &mut h, 0x0008_4463);
        run(&mut t, &mut h, 0x0006_d463);
        let kinds: Vec<u8> = t.track.list.iter().map(|f| f.kind).collect();
        assert_eq!(kinds, vec![K_BRANCH, K_DIV, K_LOAD, K_JUMP]);
        assert_eq!(t.x[14], u32::MAX);
        assert_eq!(t.x[1], 0); // the link is public
    }

    fn lw(rd: u32, rs1: u32, imm: u32) -> u32 {
        (imm & 0xfff) << 20 | rs1 << 15 | 2 << 12 | rd << 7 | 0x03
    }

    fn sw(rs2: u32, rs1: u32, imm: u32) -> u32 {
        (imm >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | 2 << 12 | (imm & 31) << 7 | 0x23
    }

    #[test]
    fn accelerator_units() {
        use crate::rv32::ntt_acc::NTT_BASE;
        let mut t = Taint::new(Tracker::new(&[]));
        let mut h = Hart::new(false);
        h.ntt = Some(Box::default());
        t.mark(RAM_BASE, 4, true);
        // a0: a secret word (lw a0, 0(a1)); a3: the NTT unit's base
        h.x[11] = RAM_BASE;
        h.x[13] = NTT_BASE;
        run(&mut t, &mut h, lw(10, 11, 0));
        assert_eq!(t.x[10], u32::MAX);
        // NTT unit (a3 + 0x1000 is A; lui-free: a4 = A, a5 = B): the secret into A[2], a public
        // NTT on A (MODE 1, CTRL 1): A secret everywhere, B public; no finding
        h.x[14] = NTT_BASE + 0x1000;
        h.x[15] = NTT_BASE + 0x3000;
        t.x[14] = 0;
        t.x[15] = 0;
        h.x[16] = 1;
        run(&mut t, &mut h, sw(10, 14, 8));
        run(&mut t, &mut h, sw(16, 13, 0));
        run(&mut t, &mut h, sw(16, 13, 4));
        run(&mut t, &mut h, lw(17, 14, 1020));
        assert_eq!(t.x[17], u32::MAX);
        run(&mut t, &mut h, lw(17, 15, 8));
        assert_eq!(t.x[17], 0);
        assert!(t.track.list.is_empty());
        // a pointwise product (CTRL 3) brings A's secret into A only; B stays public
        h.x[16] = 3;
        run(&mut t, &mut h, sw(16, 13, 4));
        run(&mut t, &mut h, lw(17, 15, 8));
        assert_eq!(t.x[17], 0);
        // a secret CTRL value: the operation's busy time depends on it
        run(&mut t, &mut h, sw(10, 13, 4));
        // a secret address into a unit's window (memory A)
        h.x[18] = NTT_BASE + 0x1000;
        t.x[18] = 4;
        run(&mut t, &mut h, lw(17, 18, 0));
        let kinds: Vec<u8> = t.track.list.iter().map(|f| f.kind).collect();
        assert_eq!(kinds, vec![K_UNIT, K_LOAD]);
    }

    #[test]
    fn keccak_instructions() {
        // kxw/ksw: S-type custom-0 funct3 0/1; klw: I-type funct3 2; kperm: funct3 3
        let ks = |f3: u32, rs2: u32, rs1: u32, imm: u32| {
            sw(rs2, rs1, imm) & !(7 << 12 | 0x7f) | f3 << 12 | 0x0b
        };
        let klw =
            |rd: u32, rs1: u32, imm: u32| lw(rd, rs1, imm) & !(7 << 12 | 0x7f) | 2 << 12 | 0x0b;
        let mut t = Taint::new(Tracker::new(&[]));
        let mut h = Hart::new(false);
        // without the unit (base machines) they trap: no mask changes
        t.x[10] = u32::MAX;
        run(&mut t, &mut h, ks(1, 10, 0, 12));
        run(&mut t, &mut h, klw(11, 0, 12));
        assert_eq!(t.x[11], 0);
        h.kinsn = Some(Box::default());
        // a secret into word 3 (ksw), a public word into word 4 xored with a secret bit
        run(&mut t, &mut h, ks(1, 10, 0, 12));
        t.x[12] = 1;
        run(&mut t, &mut h, ks(0, 12, 0, 16));
        run(&mut t, &mut h, klw(11, 0, 12));
        assert_eq!(t.x[11], u32::MAX);
        run(&mut t, &mut h, klw(13, 0, 16));
        assert_eq!(t.x[13], 1);
        run(&mut t, &mut h, klw(14, 0, 28));
        assert_eq!(t.x[14], 0);
        // ksw of a public word clears the mask; kperm spreads the secret over every word
        run(&mut t, &mut h, ks(1, 0, 0, 16));
        run(&mut t, &mut h, klw(13, 0, 16));
        assert_eq!(t.x[13], 0);
        run(&mut t, &mut h, 0x0000_300b);
        run(&mut t, &mut h, klw(14, 0, 28));
        assert_eq!(t.x[14], u32::MAX);
        assert!(t.track.list.is_empty());
        // a secret word index is an address finding
        t.x[15] = 4;
        run(&mut t, &mut h, klw(14, 15, 0));
        run(&mut t, &mut h, ks(0, 0, 15, 0));
        let kinds: Vec<u8> = t.track.list.iter().map(|f| f.kind).collect();
        assert_eq!(kinds, vec![K_LOAD, K_STORE]);
    }

    #[test]
    fn fp_registers_and_fcsr() {
        let mut t = Taint::new(Tracker::new(&[]));
        let mut h = Hart::new(true);
        t.mark(RAM_BASE, 4, true);
        h.x[11] = RAM_BASE;
        // flw f1, 0(a1); fadd.s f2, f1, f0 (dynamic rounding, public frm)
        run(&mut t, &mut h, 0x0005_a087);
        assert_eq!(t.f[1], u32::MAX);
        run(&mut t, &mut h, 0x0000_f153);
        assert_eq!(t.f[2], u32::MAX);
        // fsgnj.s f3, f0, f2: only the sign comes from the secret
        run(&mut t, &mut h, 0x2020_01d3);
        assert_eq!(t.f[3], 0x8000_0000);
        // fcvt.w.s a2, f2 (rtz): a secret integer; frflags a3: the flags are secret now
        run(&mut t, &mut h, 0xc001_1653);
        assert_eq!(t.x[12], u32::MAX);
        run(&mut t, &mut h, 0x0010_26f3);
        assert_eq!(t.x[13], u32::MAX);
        // fsflags x0 (csrrw x0, fflags, x0): public again
        run(&mut t, &mut h, 0x0010_1073);
        run(&mut t, &mut h, 0x0010_26f3);
        assert_eq!(t.x[13], 0);
        // fsw f2, 8(a1): the secret reaches memory; no finding anywhere (public addresses)
        run(&mut t, &mut h, 0x0025_a427);
        assert_eq!(t.load(RAM_BASE + 8, 4), u32::MAX);
        assert!(t.track.list.is_empty());
    }
}
