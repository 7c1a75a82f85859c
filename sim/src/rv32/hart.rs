// SPDX-License-Identifier: MIT
//! The RV32IMFC hart of the CV32E40P machine: registers, the Zicsr CSRs CV32E40P has
//! (machine mode only; mcycle/minstret and mcountinhibit; the counters run from reset on
//! the test bench's RTL, mcycle 4 cycles ahead of the first instruction: `BOOT_CYCLES`),
//! traps (mtvec direct mode, mepc, mcause; mtval reads 0 as on CV32E40P), and the
//! memory and devices of pqlab's CV32E40P test bench (hw/cv32e40p/tb_top.sv,
//! docs/cv32e40p.md): code 0x1000-0x1fffff read-only, RAM 0x200000-0x7fffff,
//! console/exit/input/stack guard at 0x10000000. Misaligned loads and stores are done
//! in hardware, as on CV32E40P (two bus transactions).
//!
//! Each executed instruction is reported to the core's timing model as an `Event`
//! (timing/cv32e40p.rs); the interpreter adds no cycles itself.

use super::accel::{Keccak, Touch, KECCAK_BUSY, KECCAK_INSN_SLOT, NTT_SLOT};
use super::decode::{self, class, Insn, Op};
use super::ntt_acc::{self, NttAcc, NTT_WINDOW};
use super::tb::{TestBench, TB};
use crate::arm::fpu::{self, Ctx};
use crate::machine::bus::{Device, Refused};
use crate::machine::marks;
use crate::machine::run::{Frontend, Guest};
use crate::machine::semihost::Semihost;
use crate::timing::cv32e40p::{Cv32e40p, Event};
use std::io::Write;

pub const ROM_BASE: u32 = 0x1000;
pub const RAM_BASE: u32 = 0x20_0000;
pub const MEM_END: u32 = 0x80_0000;

pub use crate::machine::{Fault, Stop};
use crate::machine::{Machine, R};

/// mcycle when the first instruction executes. Measured on cv32e40p-rtl and
/// cv32e40p-nofpu-rtl with the functional lockstep (`--writes`): their counters are not
/// inhibited after reset (the first `csrr mcycle` of the micro-benchmark program, after the
/// start-up code, reads 7,695 there), and the core fetches for 4 cycles before its first
/// instruction completes.
pub const BOOT_CYCLES: u64 = 4;

pub struct Hart {
    pub x: [u32; 32],
    pub f: [u32; 32],
    pub pc: u32,
    pub mem: Vec<u8>,
    cache: Vec<Insn>,
    pub fpu: bool,
    // CSRs
    mstatus: u32,
    mtvec: u32,
    mepc: u32,
    mcause: u32,
    mscratch: u32,
    mie: u32,
    mcountinhibit: u32,
    pub mcycle: u64,
    pub minstret: u64,
    frm: u32,
    fflags: u32,
    /// the instruction-set-independent machine state (machine/state.rs); `m.last_link`:
    /// the previous instruction was a call (jal/jalr writing ra), for the profiler
    pub m: Machine,
    /// the test bench's register block (rv32/tb.rs: console, exit, input, stack guard)
    pub tb: TestBench,
    pub timing: Cv32e40p,
    /// the instruction executed last (a fetch fault reports it)
    last_pc: u32,
    /// pqlab's accelerator on the data port (machine cv32e40p-acc, docs/accel.md): the NTT
    /// unit (ntt_acc.rs); None on the base machines
    pub ntt: Option<Box<NttAcc>>,
    /// the Keccak unit of the custom-0 instructions (patched core; None: they are illegal)
    pub kinsn: Option<Box<Keccak>>,
    /// the accelerator the current instruction accessed (for its Event)
    touch: Touch,
    /// the CSR instruction being executed (a counter read asks the timing model about it)
    cur: Insn,
    /// the semihosting host side (machine/semihost.rs)
    host: Semihost,
}

/// The RISC-V semihosting call (RISC-V Semihosting, riscv-non-isa/riscv-semihosting,
/// binary-interface.adoc): `ebreak` between the two uncompressed no-ops `slli x0, x0, 0x1f`
/// before it and `srai x0, x0, 7` after it, the operation in a0, its parameter (RV32: the
/// 32-bit fields of AArch32 semihosting) in a1, the result in a0.
pub const SEMIHOST_ENTRY: u32 = 0x01f0_1013;
pub const SEMIHOST_EBREAK: u32 = 0x0010_0073;
pub const SEMIHOST_EXIT: u32 = 0x4070_5013;

/// RISC-V fflags from the Arm cumulative flags of fpu.rs (NV DZ OF UF NX).
fn rv_flags(arm: u32) -> u32 {
    let mut f = 0;
    if arm & fpu::IOC != 0 {
        f |= 16;
    }
    if arm & fpu::DZC != 0 {
        f |= 8;
    }
    if arm & fpu::OFC != 0 {
        f |= 4;
    }
    if arm & fpu::UFC != 0 {
        f |= 2;
    }
    if arm & fpu::IXC != 0 {
        f |= 1;
    }
    f
}

/// The device window holding `a` (machine/bus.rs; the units are there on the cv32e40p-acc
/// machine only): the device, the offset in its window and its accelerator slot (0: not an
/// accelerator).
fn device<'a>(
    ntt: &'a mut Option<Box<NttAcc>>,
    tb: &'a mut TestBench,
    a: u32,
) -> Option<(&'a mut dyn Device, u32, u8)> {
    if let (Some(u), Some(o)) = (ntt.as_deref_mut(), NTT_WINDOW.offset(a)) {
        return Some((u, o, NTT_SLOT));
    }
    if let Some(o) = TB.offset(a) {
        return Some((tb, o, 0));
    }
    None
}

impl Hart {
    pub fn new(fpu: bool) -> Hart {
        Hart {
            x: [0; 32],
            f: [0; 32],
            pc: ROM_BASE,
            mem: vec![0; MEM_END as usize],
            cache: vec![Insn::UNDECODED; (RAM_BASE / 2) as usize],
            fpu,
            mstatus: 0x1800, // MPP = M
            mtvec: 0,
            mepc: 0,
            mcause: 0,
            mscratch: 0,
            mie: 0,
            mcountinhibit: 0,
            mcycle: BOOT_CYCLES,
            minstret: 0,
            frm: 0,
            fflags: 0,
            m: Machine::default(),
            tb: TestBench::default(),
            timing: Cv32e40p::default(),
            last_pc: 0,
            ntt: None,
            kinsn: None,
            touch: Touch::default(),
            cur: Insn::UNDECODED,
            host: Semihost::default(),
        }
    }

    /// The ELF loader's write (the code region included); false outside the memory.
    pub fn load(&mut self, addr: u32, data: &[u8]) -> bool {
        let a = addr as usize;
        if addr < ROM_BASE || a + data.len() > MEM_END as usize {
            return false;
        }
        self.mem[a..a + data.len()].copy_from_slice(data);
        true
    }

    fn fail(&mut self, s: Stop) -> Fault {
        self.m.fail(s)
    }

    pub fn take_stop(&mut self) -> Stop {
        self.m.take_stop("stopped without a reason")
    }

    /// A test bench fault: the '#fault' line tb_main.cpp prints, exit code 3.
    fn tb_fault(&mut self, kind: &str, pc: u32, addr: u32) -> Fault {
        let _ = write!(
            self.m.console,
            "\n#fault {} pc=0x{:08x} addr=0x{:08x}\n",
            kind, pc, addr
        );
        self.fail(Stop::Exit(3))
    }

    // ------------------------------------------------------------ memory

    #[inline(always)]
    fn load_n(&mut self, a: u32, n: u32, pc: u32) -> R<u32> {
        if a >= ROM_BASE && a.wrapping_add(n) <= MEM_END && a < MEM_END {
            let k = a as usize;
            let b = &self.mem[k..k + n as usize];
            return Ok(match n {
                1 => b[0] as u32,
                2 => u16::from_le_bytes([b[0], b[1]]) as u32,
                _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            });
        }
        self.dev_read(a, n, pc)
    }

    /// mcycle as the reading instruction sees it in EX: after the load stall it waited in ID
    /// (measured on the RTL: `lw t5; csrr t5, mcycle` reads one more than with another
    /// destination), unless mcountinhibit stops the counter.
    fn mcycle_now(&self) -> u64 {
        let stalled = if self.mcountinhibit & 1 == 0 {
            self.timing.load_use(&self.cur)
        } else {
            0
        };
        self.mcycle.wrapping_add(stalled)
    }

    /// An access outside the memory (a load when `v` is None): the device of its window, or
    /// a bus fault. An accelerator's access goes to the timing model as the instruction's
    /// `Touch` (its slot, and the busy cycles of an operation it started).
    #[cold]
    fn dev_access(&mut self, a: u32, n: u32, v: Option<u32>, pc: u32) -> R<u32> {
        let r = match device(&mut self.ntt, &mut self.tb, a) {
            Some((d, off, slot)) => {
                let r = match v {
                    None => d.read(&mut self.m, off, n).map(|x| (x, 0)),
                    Some(v) => d.write(&mut self.m, off, n, v).map(|busy| (0, busy)),
                };
                let posted = if slot == NTT_SLOT && v.is_some() {
                    ntt_acc::posted_cycles(off)
                } else {
                    0
                };
                r.map(|(x, busy)| (x, Touch { slot, busy, posted }))
            }
            None => Err(Refused),
        };
        match r {
            Ok((x, t)) => {
                if t.slot != 0 {
                    self.touch = t;
                }
                if self.m.stop.is_some() {
                    return Err(Fault); // the device ended the run (the exit register)
                }
                Ok(x)
            }
            Err(Refused) => Err(self.tb_fault("bus", pc, a & !3)),
        }
    }

    #[cold]
    fn dev_read(&mut self, a: u32, n: u32, pc: u32) -> R<u32> {
        self.dev_access(a, n, None, pc)
    }

    #[inline(always)]
    fn store_n(&mut self, a: u32, v: u32, n: u32, pc: u32) -> R<()> {
        if a >= RAM_BASE && a.wrapping_add(n) <= MEM_END && a < MEM_END {
            if a < self.tb.guard_hi && a.wrapping_add(n) > self.tb.guard_lo {
                return Err(self.tb_fault("stack-overflow", pc, a & !3));
            }
            let k = a as usize;
            let b = v.to_le_bytes();
            self.mem[k..k + n as usize].copy_from_slice(&b[..n as usize]);
            return Ok(());
        }
        self.dev_write(a, v, n, pc)
    }

    #[cold]
    fn dev_write(&mut self, a: u32, v: u32, n: u32, pc: u32) -> R<()> {
        if (ROM_BASE..RAM_BASE).contains(&a) {
            return Err(self.tb_fault("code-write", pc, a & !3));
        }
        self.dev_access(a, n, Some(v), pc).map(|_| ())
    }

    // ------------------------------------------------------------ fetch

    #[inline(always)]
    pub fn fetch(&mut self, pc: u32) -> R<Insn> {
        let idx = (pc >> 1) as usize;
        if (ROM_BASE..RAM_BASE).contains(&pc) && pc & 1 == 0 {
            let i = self.cache[idx];
            if i.op != Op::Undecoded {
                return Ok(i);
            }
            let i = self.fetch_miss(pc);
            self.cache[idx] = i;
            return Ok(i);
        }
        Err(self.tb_fault("fetch", self.last_pc, pc))
    }

    /// Decode the instruction at `pc` for the cache, as a hook where the interval marks
    /// hook one.
    #[inline(never)]
    fn fetch_miss(&self, pc: u32) -> Insn {
        let mut i = self.decode_at(pc);
        if !self.m.marks.hooks.is_empty() && self.m.marks.hook_at(pc).is_some() {
            i.op = Op::Hook;
        }
        i
    }

    /// Forget the decoded instruction at `pc` (a hook is planted or removed there).
    fn uncache(&mut self, pc: u32) {
        if (ROM_BASE..RAM_BASE).contains(&pc) {
            self.cache[(pc >> 1) as usize] = Insn::UNDECODED;
        }
    }

    /// A hooked address was reached (interval marks, machine/marks.rs): record the mark,
    /// then execute the instruction there as usual (decoded into the cache for that step;
    /// the hook is planted again after it unless the mark removed it).
    #[cold]
    #[inline(never)]
    fn exec_hooked(&mut self, pc: u32) -> R<()> {
        marks::on_hook(self, pc);
        let idx = (pc >> 1) as usize;
        self.cache[idx] = self.decode_at(pc);
        let r = self.step();
        if self.m.marks.hook_at(pc).is_some() {
            self.cache[idx].op = Op::Hook;
        }
        r
    }

    /// Is the ebreak at `pc` a semihosting call (between the entry and exit no-ops, all three
    /// uncompressed, in the code region)?
    fn semihosting_call_at(&self, pc: u32) -> bool {
        let word = |a: u32| {
            let k = a as usize;
            u32::from_le_bytes([
                self.mem[k],
                self.mem[k + 1],
                self.mem[k + 2],
                self.mem[k + 3],
            ])
        };
        pc >= ROM_BASE + 4
            && pc + 8 <= RAM_BASE
            && word(pc) == SEMIHOST_EBREAK
            && word(pc - 4) == SEMIHOST_ENTRY
            && word(pc + 4) == SEMIHOST_EXIT
    }

    /// The semihosting call of the ebreak at `pc` (machine/semihost.rs): a0 = operation,
    /// a1 = parameter; the result goes to a0 (Err: the run stops, e.g. SYS_EXIT).
    #[cold]
    #[inline(never)]
    fn semihost(&mut self) -> R<()> {
        let mut host = std::mem::take(&mut self.host);
        let r = host.call(self, self.x[10], self.x[11]);
        self.host = host;
        self.x[10] = r?;
        Ok(())
    }

    fn decode_at(&self, pc: u32) -> Insn {
        let k = pc as usize;
        let h = u16::from_le_bytes([self.mem[k], self.mem[k + 1]]) as u32;
        if h & 3 != 3 {
            let mut i = match decode::expand16(h) {
                Some(w) => decode::decode32(w),
                None => Insn {
                    op: Op::Illegal,
                    ..Insn::UNDECODED
                },
            };
            i.len = 2;
            return i;
        }
        if pc + 2 >= RAM_BASE {
            return Insn {
                op: Op::Illegal,
                ..Insn::UNDECODED
            };
        }
        let w = h | (u16::from_le_bytes([self.mem[k + 2], self.mem[k + 3]]) as u32) << 16;
        decode::decode32(w)
    }

    /// Is the instruction at `a` a 32-bit one at a halfword (not word) address?
    #[inline(always)]
    fn split_target(&self, a: u32) -> bool {
        a & 2 != 0 && (a as usize) < self.mem.len() && self.mem[a as usize] & 3 == 3
    }

    // ------------------------------------------------------------ traps, CSRs

    fn trap(&mut self, cause: u32, pc: u32) {
        self.mepc = pc;
        self.mcause = cause;
        // MPIE = MIE, MIE = 0, MPP = M
        let mie = (self.mstatus >> 3) & 1;
        self.mstatus = (self.mstatus & !0x88) | (mie << 7) | 0x1800;
        self.pc = self.mtvec & !0xff;
    }

    fn csr_read(&mut self, csr: u32) -> Option<u32> {
        Some(match csr {
            0x001 if self.fpu && self.fs_on() => self.fflags,
            0x002 if self.fpu && self.fs_on() => self.frm,
            0x003 if self.fpu && self.fs_on() => self.frm << 5 | self.fflags,
            0x300 => self.mstatus,
            0x301 => 0x4000_1104 | if self.fpu { 0x20 } else { 0 }, // RV32 I M C (F)
            0x304 => self.mie,
            0x305 => self.mtvec,
            0x320 => self.mcountinhibit,
            0x340 => self.mscratch,
            0x341 => self.mepc,
            0x342 => self.mcause,
            0x343 => 0,
            0x344 => 0,
            0xb00 | 0xc00 => self.mcycle_now() as u32,
            0xb02 | 0xc02 => self.minstret as u32,
            0xb80 | 0xc80 => (self.mcycle_now() >> 32) as u32,
            0xb82 | 0xc82 => (self.minstret >> 32) as u32,
            0xb03..=0xb1f | 0xb83..=0xb9f | 0x323..=0x33f => 0,
            0xf11 => 0x602, // mvendorid: OpenHW Group
            0xf12 => 4,     // marchid: CV32E40P
            0xf13 | 0xf14 => 0,
            _ => return None,
        })
    }

    fn csr_write(&mut self, csr: u32, v: u32) -> bool {
        match csr {
            0x001 if self.fpu && self.fs_on() => self.fflags = v & 0x1f,
            0x002 if self.fpu && self.fs_on() => self.frm = v & 7,
            0x003 if self.fpu && self.fs_on() => {
                self.fflags = v & 0x1f;
                self.frm = (v >> 5) & 7;
            }
            0x300 => {
                let fs = if self.fpu { 0x6000 } else { 0 };
                self.mstatus = (v & (0x88 | fs)) | 0x1800;
            }
            0x304 => self.mie = v,
            0x305 => self.mtvec = (v & !0xff) | (v & 1), // 256-byte aligned base, mode
            0x320 => self.mcountinhibit = v & 0x5,
            0x340 => self.mscratch = v,
            0x341 => self.mepc = v & !1,
            0x342 => self.mcause = v,
            0x343 | 0x344 => {}
            0xb00 => self.mcycle = (self.mcycle & !0xffff_ffff) | v as u64,
            0xb02 => self.minstret = (self.minstret & !0xffff_ffff) | v as u64,
            0xb80 => self.mcycle = (self.mcycle & 0xffff_ffff) | (v as u64) << 32,
            0xb82 => self.minstret = (self.minstret & 0xffff_ffff) | (v as u64) << 32,
            0xb03..=0xb1f | 0xb83..=0xb9f | 0x323..=0x33f => {}
            _ => return false,
        }
        true
    }

    #[inline(always)]
    fn fs_on(&self) -> bool {
        self.mstatus & 0x6000 != 0
    }

    // ------------------------------------------------------------ execution

    #[inline(always)]
    fn wx(&mut self, rd: u8, v: u32) {
        self.x[rd as usize & 31] = v;
        self.x[0] = 0;
    }

    fn ctx(&self, rm: u8) -> Option<Ctx> {
        let rm = if rm == 7 { self.frm } else { rm as u32 };
        let rmode = match rm {
            0 => 0,
            1 => 3,
            2 => 2,
            3 => 1,
            4 => 4,
            _ => return None,
        };
        Some(Ctx {
            dn: true,
            fz: false,
            rmode,
            flags: 0,
        })
    }

    /// Execute one instruction and account its cycles.
    #[inline(always)]
    pub fn step(&mut self) -> R<()> {
        let pc = self.pc;
        let i = self.fetch(pc)?;
        let mut npc = pc.wrapping_add(i.len as u32);
        let mut ev = Event {
            i: &i,
            taken: false,
            target_split: false,
            split: false,
            divisor: 0,
            csr: 0,
            acc: Touch::default(),
        };
        self.touch = Touch::default();
        let a = self.x[i.rs1 as usize & 31];
        let b = self.x[i.rs2 as usize & 31];
        let inhibit = self.mcountinhibit;
        match i.op {
            Op::Lui => self.wx(i.rd, i.imm),
            Op::Auipc => self.wx(i.rd, pc.wrapping_add(i.imm)),
            Op::Jal => {
                self.wx(i.rd, npc);
                npc = pc.wrapping_add(i.imm);
                ev.taken = true;
                self.m.last_link = i.rd == 1 || i.rd == 5;
                self.m.link_ret = pc.wrapping_add(i.len as u32);
            }
            Op::Jalr => {
                let t = a.wrapping_add(i.imm) & !1;
                self.wx(i.rd, npc);
                npc = t;
                ev.taken = true;
                self.m.last_link = i.rd == 1 || i.rd == 5;
                self.m.link_ret = pc.wrapping_add(i.len as u32);
            }
            Op::Beq | Op::Bne | Op::Blt | Op::Bge | Op::Bltu | Op::Bgeu => {
                let t = match i.op {
                    Op::Beq => a == b,
                    Op::Bne => a != b,
                    Op::Blt => (a as i32) < (b as i32),
                    Op::Bge => (a as i32) >= (b as i32),
                    Op::Bltu => a < b,
                    _ => a >= b,
                };
                if t {
                    npc = pc.wrapping_add(i.imm);
                    ev.taken = true;
                }
            }
            Op::Lb | Op::Lh | Op::Lw | Op::Lbu | Op::Lhu | Op::Flw => {
                let addr = a.wrapping_add(i.imm);
                let v = match i.op {
                    Op::Lb => self.load_n(addr, 1, pc)? as i8 as i32 as u32,
                    Op::Lbu => self.load_n(addr, 1, pc)?,
                    Op::Lh => {
                        ev.split = addr & 3 == 3;
                        self.load_n(addr, 2, pc)? as i16 as i32 as u32
                    }
                    Op::Lhu => {
                        ev.split = addr & 3 == 3;
                        self.load_n(addr, 2, pc)?
                    }
                    _ => {
                        ev.split = addr & 3 != 0;
                        self.load_n(addr, 4, pc)?
                    }
                };
                if i.op == Op::Flw {
                    if !self.fpu || !self.fs_on() {
                        return self.illegal(&i, pc);
                    }
                    self.f[i.rd as usize & 31] = v;
                } else {
                    self.wx(i.rd, v);
                }
            }
            Op::Sb | Op::Sh | Op::Sw | Op::Fsw => {
                let addr = a.wrapping_add(i.imm);
                match i.op {
                    Op::Sb => self.store_n(addr, b, 1, pc)?,
                    Op::Sh => {
                        ev.split = addr & 3 == 3;
                        self.store_n(addr, b, 2, pc)?
                    }
                    Op::Sw => {
                        ev.split = addr & 3 != 0;
                        self.store_n(addr, b, 4, pc)?
                    }
                    _ => {
                        if !self.fpu || !self.fs_on() {
                            return self.illegal(&i, pc);
                        }
                        ev.split = addr & 3 != 0;
                        let v = self.f[i.rs2 as usize & 31];
                        self.store_n(addr, v, 4, pc)?
                    }
                }
            }
            Op::Addi => self.wx(i.rd, a.wrapping_add(i.imm)),
            Op::Slti => self.wx(i.rd, ((a as i32) < (i.imm as i32)) as u32),
            Op::Sltiu => self.wx(i.rd, (a < i.imm) as u32),
            Op::Xori => self.wx(i.rd, a ^ i.imm),
            Op::Ori => self.wx(i.rd, a | i.imm),
            Op::Andi => self.wx(i.rd, a & i.imm),
            Op::Slli => self.wx(i.rd, a << i.imm),
            Op::Srli => self.wx(i.rd, a >> i.imm),
            Op::Srai => self.wx(i.rd, ((a as i32) >> i.imm) as u32),
            Op::Add => self.wx(i.rd, a.wrapping_add(b)),
            Op::Sub => self.wx(i.rd, a.wrapping_sub(b)),
            Op::Sll => self.wx(i.rd, a << (b & 31)),
            Op::Slt => self.wx(i.rd, ((a as i32) < (b as i32)) as u32),
            Op::Sltu => self.wx(i.rd, (a < b) as u32),
            Op::Xor => self.wx(i.rd, a ^ b),
            Op::Srl => self.wx(i.rd, a >> (b & 31)),
            Op::Sra => self.wx(i.rd, ((a as i32) >> (b & 31)) as u32),
            Op::Or => self.wx(i.rd, a | b),
            Op::And => self.wx(i.rd, a & b),
            Op::Mul => self.wx(i.rd, a.wrapping_mul(b)),
            Op::Mulh => self.wx(i.rd, ((a as i32 as i64 * b as i32 as i64) >> 32) as u32),
            Op::Mulhsu => self.wx(i.rd, ((a as i32 as i64 * b as i64) >> 32) as u32),
            Op::Mulhu => self.wx(i.rd, ((a as u64 * b as u64) >> 32) as u32),
            Op::Div | Op::Divu | Op::Rem | Op::Remu => {
                ev.divisor = b;
                let v = match i.op {
                    Op::Div => {
                        if b == 0 {
                            u32::MAX
                        } else {
                            (a as i32).wrapping_div(b as i32) as u32
                        }
                    }
                    Op::Divu => a.checked_div(b).unwrap_or(u32::MAX),
                    Op::Rem => {
                        if b == 0 {
                            a
                        } else {
                            (a as i32).wrapping_rem(b as i32) as u32
                        }
                    }
                    _ => a.checked_rem(b).unwrap_or(a),
                };
                self.wx(i.rd, v);
            }
            Op::Fence => {}
            Op::FenceI => ev.taken = true,
            Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci => {
                let csr = i.imm & 0xfff;
                ev.csr = csr;
                let src = if matches!(i.op, Op::Csrrw | Op::Csrrs | Op::Csrrc) {
                    a
                } else {
                    i.rs1 as u32
                };
                let writes = matches!(i.op, Op::Csrrw | Op::Csrrwi) || i.rs1 != 0;
                let reads = !matches!(i.op, Op::Csrrw | Op::Csrrwi) || i.rd != 0;
                // a counter read sees the load stall this instruction waited (mcycle_now)
                self.cur = i;
                let old = if reads || writes {
                    match self.csr_read(csr) {
                        Some(v) => v,
                        None => return self.illegal(&i, pc),
                    }
                } else {
                    0
                };
                if writes {
                    let v = match i.op {
                        Op::Csrrw | Op::Csrrwi => src,
                        Op::Csrrs | Op::Csrrsi => old | src,
                        _ => old & !src,
                    };
                    if csr >> 10 == 3 || !self.csr_write(csr, v) {
                        return self.illegal(&i, pc);
                    }
                }
                self.wx(i.rd, old);
            }
            Op::Ecall => {
                self.trap(11, pc);
                npc = self.pc;
                ev.taken = true;
            }
            Op::Ebreak => {
                if i.len == 4 && self.semihosting_call_at(pc) {
                    // the call; execution goes on with the exit no-op
                    self.semihost()?;
                } else {
                    // a breakpoint (mcause 3) to the firmware's trap handler, as on the RTL
                    self.trap(3, pc);
                    npc = self.pc;
                    ev.taken = true;
                }
            }
            Op::Mret => {
                let mpie = (self.mstatus >> 7) & 1;
                self.mstatus = (self.mstatus & !0x8) | (mpie << 3) | 0x80;
                npc = self.mepc;
                ev.taken = true;
            }
            Op::Wfi => {
                // no interrupt source: the test bench reports the sleeping core
                let _ = write!(
                    self.m.console,
                    "\n#fault sleep cycles={} pc=0x{:08x}\n",
                    self.m.cycles, pc
                );
                return Err(self.fail(Stop::Exit(3)));
            }
            Op::Kxw | Op::Ksw | Op::Klw | Op::Kperm => {
                let k = match self.kinsn.as_deref_mut() {
                    Some(k) => k,
                    None => return self.illegal(&i, pc),
                };
                // the word index is (rs1 + imm) bits 7..2, as the ALU computes it in the core
                let w = (a.wrapping_add(i.imm) >> 2) & 63;
                let mut busy = 0;
                match i.op {
                    Op::Kxw => k.set_word(w, k.word(w) ^ b),
                    Op::Ksw => k.set_word(w, b),
                    Op::Klw => {
                        let v = k.word(w);
                        self.wx(i.rd, v);
                    }
                    _ => {
                        k.permute();
                        busy = KECCAK_BUSY;
                    }
                }
                self.touch = Touch {
                    slot: KECCAK_INSN_SLOT,
                    busy,
                    posted: 0,
                };
            }
            Op::Hook => return self.exec_hooked(pc),
            Op::Illegal | Op::Undecoded => return self.illegal(&i, pc),
            _ => {
                if !self.fpu || !self.fs_on() {
                    return self.illegal(&i, pc);
                }
                if !self.exec_fp(&i) {
                    return self.illegal(&i, pc);
                }
            }
        }
        if ev.taken {
            ev.target_split = self.split_target(npc);
        }
        self.pc = npc;
        self.last_pc = pc;
        ev.acc = self.touch;
        let c = self.timing.step(&ev);
        self.m.cycles += c;
        self.m.insns += 1;
        self.m.class_count[i.class as usize & 15] += 1;
        if inhibit & 1 == 0 {
            self.mcycle = self.mcycle.wrapping_add(c);
        }
        if inhibit & 4 == 0 {
            self.minstret = self.minstret.wrapping_add(1);
        }
        Ok(())
    }

    /// An illegal instruction: trap (mcause 2) to the firmware's handler, which reports it.
    #[cold]
    fn illegal(&mut self, i: &Insn, pc: u32) -> R<()> {
        let _ = i;
        if self.mtvec & !0xff == 0 {
            return Err(self.tb_fault("fetch", pc, 0));
        }
        self.trap(2, pc);
        let c = self.timing.step(&Event {
            i: &Insn {
                class: class::JAL,
                ..Insn::UNDECODED
            },
            taken: true,
            target_split: false,
            split: false,
            divisor: 0,
            csr: 0,
            acc: Touch::default(),
        });
        self.m.cycles += c;
        self.m.insns += 1;
        if self.mcountinhibit & 1 == 0 {
            self.mcycle = self.mcycle.wrapping_add(c);
        }
        Ok(())
    }

    fn fr(&self, r: u8) -> f32 {
        f32::from_bits(self.f[r as usize & 31])
    }

    fn exec_fp(&mut self, i: &Insn) -> bool {
        let (a, b, c) = (self.fr(i.rs1), self.fr(i.rs2), self.fr(i.rs3));
        let rd = i.rd as usize & 31;
        let needs_rm = !matches!(
            i.op,
            Op::Fsgnj
                | Op::Fsgnjn
                | Op::Fsgnjx
                | Op::Fmin
                | Op::Fmax
                | Op::FmvXW
                | Op::Fclass
                | Op::Feq
                | Op::Flt
                | Op::Fle
                | Op::FmvWX
        );
        let mut ctx = match self.ctx(if needs_rm { i.rm } else { 0 }) {
            Some(c) => c,
            None => return false,
        };
        let canon = |v: f32| -> u32 {
            if v.is_nan() {
                0x7fc0_0000
            } else {
                v.to_bits()
            }
        };
        match i.op {
            Op::Fadd => self.f[rd] = canon(ctx.add(a, b)),
            Op::Fsub => self.f[rd] = canon(ctx.sub(a, b)),
            Op::Fmul => self.f[rd] = canon(ctx.mul(a, b)),
            Op::Fdiv => self.f[rd] = canon(ctx.div(a, b)),
            Op::Fsqrt => self.f[rd] = canon(ctx.sqrt(a)),
            Op::Fmadd => self.f[rd] = canon(ctx.fma(c, a, b)),
            Op::Fmsub => {
                self.f[rd] = canon(ctx.fma(f32::from_bits(c.to_bits() ^ 0x8000_0000), a, b))
            }
            Op::Fnmsub => {
                self.f[rd] = canon(ctx.fma(c, f32::from_bits(a.to_bits() ^ 0x8000_0000), b))
            }
            Op::Fnmadd => {
                self.f[rd] = canon(ctx.fma(
                    f32::from_bits(c.to_bits() ^ 0x8000_0000),
                    f32::from_bits(a.to_bits() ^ 0x8000_0000),
                    b,
                ))
            }
            Op::Fsgnj => self.f[rd] = (a.to_bits() & 0x7fff_ffff) | (b.to_bits() & 0x8000_0000),
            Op::Fsgnjn => self.f[rd] = (a.to_bits() & 0x7fff_ffff) | (!b.to_bits() & 0x8000_0000),
            Op::Fsgnjx => self.f[rd] = a.to_bits() ^ (b.to_bits() & 0x8000_0000),
            Op::Fmin | Op::Fmax => {
                let is_snan = |v: f32| v.is_nan() && v.to_bits() & 0x0040_0000 == 0;
                if is_snan(a) || is_snan(b) {
                    ctx.flags |= fpu::IOC;
                }
                let max = i.op == Op::Fmax;
                self.f[rd] = if a.is_nan() && b.is_nan() {
                    0x7fc0_0000
                } else if a.is_nan() {
                    b.to_bits()
                } else if b.is_nan() {
                    a.to_bits()
                } else if a == b {
                    // -0 < +0
                    if max {
                        a.to_bits() & b.to_bits()
                    } else {
                        a.to_bits() | b.to_bits()
                    }
                } else if (a < b) ^ max {
                    a.to_bits()
                } else {
                    b.to_bits()
                };
            }
            Op::FcvtWS | Op::FcvtWuS => {
                let signed = i.op == Op::FcvtWS;
                let v = if a.is_nan() {
                    ctx.flags |= fpu::IOC;
                    if signed {
                        i32::MAX as u32
                    } else {
                        u32::MAX
                    }
                } else {
                    {
                        let rmode = ctx.rmode;
                        fpu::to_int(&mut ctx, a, signed, rmode)
                    }
                };
                self.wx(i.rd, v);
            }
            Op::FmvXW => self.wx(i.rd, a.to_bits()),
            Op::Fclass => {
                let bits = a.to_bits();
                let neg = bits >> 31 != 0;
                let exp = (bits >> 23) & 0xff;
                let frac = bits & 0x7f_ffff;
                let k = if exp == 0xff {
                    if frac == 0 {
                        if neg {
                            0
                        } else {
                            7
                        }
                    } else if frac & 0x40_0000 != 0 {
                        9
                    } else {
                        8
                    }
                } else if exp == 0 {
                    if frac == 0 {
                        if neg {
                            3
                        } else {
                            4
                        }
                    } else if neg {
                        2
                    } else {
                        5
                    }
                } else if neg {
                    1
                } else {
                    6
                };
                self.wx(i.rd, 1 << k);
            }
            Op::Feq | Op::Flt | Op::Fle => {
                let is_snan = |v: f32| v.is_nan() && v.to_bits() & 0x0040_0000 == 0;
                let r = if a.is_nan() || b.is_nan() {
                    if i.op != Op::Feq || is_snan(a) || is_snan(b) {
                        ctx.flags |= fpu::IOC;
                    }
                    false
                } else {
                    match i.op {
                        Op::Feq => a == b,
                        Op::Flt => a < b,
                        _ => a <= b,
                    }
                };
                self.wx(i.rd, r as u32);
            }
            Op::FcvtSW | Op::FcvtSWu => {
                let v = self.x[i.rs1 as usize & 31];
                let r: f32 = if ctx.rmode == 0 {
                    fpu::from_int(&mut ctx, v, i.op == Op::FcvtSW)
                } else {
                    // directed rounding: from the exact value in f64
                    let e = if i.op == Op::FcvtSW {
                        v as i32 as f64
                    } else {
                        v as f64
                    };
                    let n = e as f32;
                    let back = n as f64;
                    if back == e {
                        n
                    } else {
                        ctx.flags |= fpu::IXC;
                        let up = back < e;
                        let toward_up = match ctx.rmode {
                            1 => true,
                            2 => false,
                            3 => e < 0.0,
                            _ => up,
                        };
                        if toward_up == up {
                            n
                        } else if up {
                            // n is below e; step up
                            f32::from_bits(if n >= 0.0 {
                                n.to_bits() + 1
                            } else {
                                n.to_bits() - 1
                            })
                        } else {
                            f32::from_bits(if n > 0.0 {
                                n.to_bits() - 1
                            } else {
                                n.to_bits() + 1
                            })
                        }
                    }
                };
                self.f[rd] = r.to_bits();
            }
            Op::FmvWX => self.f[rd] = self.x[i.rs1 as usize & 31],
            _ => return false,
        }
        self.fflags |= rv_flags(ctx.flags);
        true
    }

    pub fn flush(&mut self) {
        self.m.console.flush();
    }
}

/// The RV32 front end in the shared run loops (machine/run.rs): no device events; the
/// stack tracking counts the stack pointer only while it points into RAM.
impl Frontend for Hart {
    const EVENTS: bool = false;
    #[inline(always)]
    fn m(&self) -> &Machine {
        &self.m
    }
    #[inline(always)]
    fn m_mut(&mut self) -> &mut Machine {
        &mut self.m
    }
    #[inline(always)]
    fn pc(&self) -> u32 {
        self.pc
    }
    #[inline(always)]
    fn step(&mut self) -> R<()> {
        Hart::step(self)
    }
    #[inline(always)]
    fn track_sp(&mut self) {
        let sp = self.x[2];
        if sp < self.m.min_sp && sp >= RAM_BASE {
            self.m.min_sp = sp;
        }
    }
    fn take_stop(&mut self) -> Stop {
        Hart::take_stop(self)
    }
}

/// The RV32 hart as the machine's guest (machine/run.rs): semihosting and the interval marks
/// through its memory and the ilp32 calling convention (argument a0, return address ra, stack
/// pointer sp = x2).
impl Guest for Hart {
    fn read8(&mut self, a: u32) -> R<u32> {
        let pc = self.pc;
        self.load_n(a, 1, pc)
    }
    fn read32(&mut self, a: u32) -> R<u32> {
        let pc = self.pc;
        self.load_n(a, 4, pc)
    }
    fn write8(&mut self, a: u32, v: u32) -> R<()> {
        let pc = self.pc;
        self.store_n(a, v, 1, pc)
    }
    fn write32(&mut self, a: u32, v: u32) -> R<()> {
        let pc = self.pc;
        self.store_n(a, v, 4, pc)
    }
    #[inline]
    fn arg0(&self) -> u32 {
        self.x[10]
    }
    #[inline]
    fn sp(&self) -> u32 {
        self.x[2]
    }
    /// ra, a return address when it points into the code region
    fn call_return(&self) -> (u32, bool) {
        let ra = self.x[1];
        (ra, (ROM_BASE..RAM_BASE).contains(&ra) && ra & 1 == 0)
    }
    fn uncache(&mut self, pc: u32) {
        Hart::uncache(self, pc)
    }
    /// SYS_HEAPINFO, by the same rule as on the MPS2 machines: the RAM region (the test
    /// bench's 6 MiB from 0x200000)
    fn heap_base(&self) -> u32 {
        RAM_BASE
    }
    fn heap_size(&self) -> u32 {
        MEM_END - RAM_BASE
    }
    /// the clock `pqlab` scales the test bench's cycles with (platform.toml `clock_hz`)
    fn clock_hz(&self) -> u64 {
        100_000_000
    }
}
