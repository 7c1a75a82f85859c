// SPDX-License-Identifier: MIT
//! The ARMv7E-M core: registers, execution of decoded instructions,
//! exceptions (Armv7-M ARM DDI 0403E chapter B1), the system control space
//! (SysTick B3.3, SCB B3.2, DWT C1.8, FP control B3.2.20), the CMSDK UART and
//! Arm semihosting (Arm "Semihosting for AArch32 and AArch64", version 2).
//! The cycles come from the core's timing model `T` (timing/cortex_m.rs), told about every
//! executed instruction by an `Event`; the interpreter computes none.

use crate::arm::block::{self, Blocks};
use crate::arm::decode::{self, alu, fop, Insn, Op};
use crate::arm::fpu::{self, Ctx};
use crate::arm::mem::{Mem, CODE_END, CODE_SIZE};
use crate::arm::uart::Uart;
use crate::machine::marks;
use crate::machine::run::{Frontend, Guest};
use crate::machine::semihost::Semihost;
use crate::machine::timer::{CycleCounter, DownCounter};
use crate::timing::cortex_m::{Core, CortexTiming, Event};

mod scs;

pub use crate::machine::{Fault, Stop};
use crate::machine::{Machine, R};

pub struct Cpu<T: CortexTiming> {
    /// r0-r15 and a constant zero at index 16; sized 256 so that a u8
    /// register index never needs a bounds check
    pub r: [u32; 256],
    pub pc: u32,
    pub n: bool,
    pub z: bool,
    pub c: bool,
    pub v: bool,
    pub q: bool,
    pub ge: u32,
    pub it: u32,
    pub s: [u32; 32],
    pub fpscr: u32,
    pub msp: u32,
    pub psp: u32,
    pub control: u32,
    pub primask: u32,
    pub faultmask: u32,
    pub basepri: u32,
    pub ipsr: u32,
    pub mem: Mem,
    pub cache: Box<[Insn; CODE_SIZE / 2]>,
    /// the fast loop's blocks of decoded instructions (arm/block.rs)
    blk: Blocks,
    pub core: Core,
    /// the instruction-set-independent machine state (machine/state.rs)
    pub m: Machine,
    /// the core's timing model (timing/cortex_m.rs), told about every executed
    /// instruction, exception entry and return
    tm: T,
    /// SysTick's counter (machine/timer.rs)
    pub systick: DownCounter,
    // DWT / SCB
    demcr: u32,
    dwt_ctrl: u32,
    /// DWT CYCCNT
    cyccnt: CycleCounter,
    vtor: u32,
    cpacr: u32,
    fpccr: u32,
    fpcar: u32,
    fpdscr: u32,
    shpr: [u32; 3],
    scr: u32,
    ccr: u32,
    /// UART0 (arm/uart.rs)
    uart: Uart,
    excl: bool,
    /// the semihosting host side (machine/semihost.rs)
    host: Semihost,
}

#[inline(always)]
fn add_with_carry(a: u32, b: u32, cin: bool) -> (u32, bool, bool) {
    let (r1, c1) = a.overflowing_add(b);
    let (r, c2) = r1.overflowing_add(cin as u32);
    (r, c1 | c2, ((a ^ r) & (b ^ r)) >> 31 != 0)
}

/// Shift_C (A7.4.2); st 4 is RRX.
#[inline(always)]
pub fn shift_c(v: u32, st: u8, n: u32, cin: bool) -> (u32, bool) {
    if n == 0 && st != 4 {
        return (v, cin);
    }
    match st {
        0 => {
            if n < 32 {
                (v << n, (v >> (32 - n)) & 1 != 0)
            } else if n == 32 {
                (0, v & 1 != 0)
            } else {
                (0, false)
            }
        }
        1 => {
            if n < 32 {
                (v >> n, (v >> (n - 1)) & 1 != 0)
            } else if n == 32 {
                (0, v >> 31 != 0)
            } else {
                (0, false)
            }
        }
        2 => {
            if n < 32 {
                (((v as i32) >> n) as u32, (v >> (n - 1)) & 1 != 0)
            } else {
                let s = ((v as i32) >> 31) as u32;
                (s, s & 1 != 0)
            }
        }
        3 => {
            let r = v.rotate_right(n & 31);
            (r, r >> 31 != 0)
        }
        _ => ((v >> 1) | ((cin as u32) << 31), v & 1 != 0),
    }
}

fn ssat(v: i64, bits: u32) -> (u32, bool) {
    let max = (1i64 << (bits - 1)) - 1;
    let min = -(1i64 << (bits - 1));
    if v > max {
        (max as u32, true)
    } else if v < min {
        (min as u32, true)
    } else {
        (v as u32, false)
    }
}

fn usat(v: i64, bits: u32) -> (u32, bool) {
    let max = (1i64 << bits) - 1;
    if v > max {
        (max as u32, true)
    } else if v < 0 {
        (0, true)
    } else {
        (v as u32, false)
    }
}

pub const EXC_SYSTICK: u32 = 15;

impl<T: CortexTiming> Cpu<T> {
    /// The core's timing model (to configure it before the run: `--memory`).
    pub fn timing_mut(&mut self) -> &mut T {
        &mut self.tm
    }

    pub fn new(mem: Mem) -> Cpu<T> {
        Cpu {
            r: [0; 256],
            pc: 0,
            n: false,
            z: false,
            c: false,
            v: false,
            q: false,
            ge: 0,
            it: 0,
            s: [0; 32],
            fpscr: 0,
            msp: 0,
            psp: 0,
            control: 0,
            primask: 0,
            faultmask: 0,
            basepri: 0,
            ipsr: 0,
            mem,
            cache: vec![Insn::UNDECODED; CODE_SIZE / 2]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!()),
            blk: Blocks::default(),
            core: T::CORE,
            m: Machine::default(),
            tm: T::default(),
            systick: DownCounter::new(),
            demcr: 0,
            dwt_ctrl: 0x4000_0000,
            cyccnt: CycleCounter::default(),
            vtor: 0,
            cpacr: 0,
            fpccr: 0xc000_0000,
            fpcar: 0,
            fpdscr: 0,
            shpr: [0; 3],
            scr: 0,
            ccr: 0x200,
            uart: Uart::default(),
            excl: false,
            host: Semihost::default(),
        }
    }

    /// Reset (B1.5.5): SP from vector 0, PC from vector 1.
    pub fn reset(&mut self) -> R<()> {
        let sp = self.read32(0)?;
        let pc = self.read32(4)?;
        self.r[13] = sp & !3;
        self.msp = self.r[13];
        self.m.init_sp = self.r[13];
        self.m.min_sp = self.r[13];
        self.pc = pc & !1;
        self.r[14] = 0xffff_ffff;
        // APSR is UNKNOWN after reset; QEMU starts with Z set, and so do we
        self.z = true;
        Ok(())
    }

    // ---------------------------------------------------------------- memory

    #[inline(always)]
    pub fn read32(&mut self, a: u32) -> R<u32> {
        if let Some(o) = Mem::sram_at::<4>(a) {
            let b = &self.mem.sram;
            return Ok(u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]));
        }
        if let Some((b, o)) = self.mem.slot(a, 4) {
            return Ok(u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]));
        }
        self.io_read(a, 4)
    }
    #[inline(always)]
    pub fn read16(&mut self, a: u32) -> R<u32> {
        if let Some(o) = Mem::sram_at::<2>(a) {
            let b = &self.mem.sram;
            return Ok(u16::from_le_bytes([b[o], b[o + 1]]) as u32);
        }
        if let Some((b, o)) = self.mem.slot(a, 2) {
            return Ok(u16::from_le_bytes([b[o], b[o + 1]]) as u32);
        }
        self.io_read(a, 2)
    }
    #[inline(always)]
    pub fn read8(&mut self, a: u32) -> R<u32> {
        if let Some(o) = Mem::sram_at::<1>(a) {
            return Ok(self.mem.sram[o] as u32);
        }
        if let Some((b, o)) = self.mem.slot(a, 1) {
            return Ok(b[o] as u32);
        }
        self.io_read(a, 1)
    }
    #[inline(always)]
    pub fn write32(&mut self, a: u32, v: u32) -> R<()> {
        if let Some(o) = Mem::sram_at::<4>(a) {
            self.mem.sram[o..o + 4].copy_from_slice(&v.to_le_bytes());
            return Ok(());
        }
        if let Some((b, o)) = self.mem.slot_w(a, 4) {
            b[o..o + 4].copy_from_slice(&v.to_le_bytes());
            return Ok(());
        }
        self.io_write(a, v, 4)
    }
    #[inline(always)]
    pub fn write16(&mut self, a: u32, v: u32) -> R<()> {
        if let Some(o) = Mem::sram_at::<2>(a) {
            self.mem.sram[o..o + 2].copy_from_slice(&(v as u16).to_le_bytes());
            return Ok(());
        }
        if let Some((b, o)) = self.mem.slot_w(a, 2) {
            b[o..o + 2].copy_from_slice(&(v as u16).to_le_bytes());
            return Ok(());
        }
        self.io_write(a, v, 2)
    }
    #[inline(always)]
    pub fn write8(&mut self, a: u32, v: u32) -> R<()> {
        if let Some(o) = Mem::sram_at::<1>(a) {
            self.mem.sram[o] = v as u8;
            return Ok(());
        }
        if let Some((b, o)) = self.mem.slot_w(a, 1) {
            b[o] = v as u8;
            return Ok(());
        }
        self.io_write(a, v, 1)
    }

    pub fn fail(&mut self, s: Stop) -> Fault {
        self.m.fail(s)
    }

    pub fn take_stop(&mut self) -> Stop {
        self.m.take_stop("internal error: fault without a reason")
    }

    fn bus_fault(&mut self, a: u32, what: &str) -> Fault {
        let s = Stop::Error(format!(
            "HardFault: bus fault on {} at address 0x{:08x} (pc=0x{:08x})",
            what, a, self.pc
        ));
        self.fail(s)
    }

    /// A store into the code region: flash on a real board, which does not
    /// accept plain stores (a write through a NULL pointer lands here).
    #[cold]
    fn code_write_fault(&mut self, a: u32, size: u32) -> Fault {
        self.m.fault_addr = Some(a);
        let s = Stop::Error(format!(
            "HardFault: bus fault on write of {} byte{} at address 0x{:08x} (pc=0x{:08x}): \
             the code region 0x00000000-0x{:08x} (vector table, code, constants; flash on \
             a board) is read-only{}",
            size,
            if size == 1 { "" } else { "s" },
            a,
            self.pc,
            CODE_END - 1,
            if a < 0x100 {
                " - a write through a NULL pointer?"
            } else {
                ""
            }
        ));
        self.fail(s)
    }

    // ----------------------------------------------------------- registers

    pub fn xpsr(&self) -> u32 {
        (self.n as u32) << 31
            | (self.z as u32) << 30
            | (self.c as u32) << 29
            | (self.v as u32) << 28
            | (self.q as u32) << 27
            | (self.it & 3) << 25
            | 1 << 24
            | self.ge << 16
            | (self.it >> 2) << 10
            | self.ipsr
    }

    fn set_apsr(&mut self, v: u32) {
        self.n = v >> 31 != 0;
        self.z = (v >> 30) & 1 != 0;
        self.c = (v >> 29) & 1 != 0;
        self.v = (v >> 28) & 1 != 0;
        self.q = (v >> 27) & 1 != 0;
    }

    #[inline(always)]
    fn cond(&self, c: u32) -> bool {
        let r = match c >> 1 {
            0 => self.z,
            1 => self.c,
            2 => self.n,
            3 => self.v,
            4 => self.c && !self.z,
            5 => self.n == self.v,
            6 => self.n == self.v && !self.z,
            _ => true,
        };
        if c & 1 != 0 && c != 15 {
            !r
        } else {
            r
        }
    }

    /// ConditionPassed for code outside the interpreter (the taint tracker, ct.rs).
    #[inline(always)]
    pub fn cond_pub(&self, c: u32) -> bool {
        self.cond(c)
    }

    #[inline(always)]
    fn nz(&mut self, r: u32) {
        self.n = r >> 31 != 0;
        self.z = r == 0;
    }

    /// BXWritePC / exception return (B1.5.8).
    fn bx_write_pc(&mut self, v: u32) -> R<()> {
        if self.ipsr != 0 && v >> 28 == 0xf {
            return self.exception_return(v);
        }
        if v & 1 == 0 {
            return Err(self.fail(Stop::Error(format!(
                "HardFault: UsageFault INVSTATE: branch to ARM state address 0x{:08x} (pc=0x{:08x})",
                v, self.pc
            ))));
        }
        self.pc = v & !1;
        Ok(())
    }

    #[inline(always)]
    fn write_rd(&mut self, d: u8, v: u32) {
        if d == 15 {
            self.pc = v & !1;
        } else {
            self.r[d as usize] = v;
        }
    }

    // ------------------------------------------------------------ exceptions

    fn sp_sel_thread(&self) -> bool {
        self.control & 2 != 0
    }

    /// PushStack + ExceptionTaken (B1.5.6).
    pub fn take_exception(&mut self, exc: u32, ret_addr: u32) -> R<()> {
        let fp_frame = self.control & 4 != 0;
        let size = if fp_frame { 0x68 } else { 0x20 };
        let sp = self.r[13];
        let align = if self.ccr & 0x200 != 0 {
            (sp >> 2) & 1
        } else {
            0
        };
        let frame = (sp.wrapping_sub(size)) & !(align << 2);
        let xpsr = (self.xpsr() & !(1 << 9)) | (align << 9);
        let regs = [
            self.r[0], self.r[1], self.r[2], self.r[3], self.r[12], self.r[14], ret_addr, xpsr,
        ];
        for (k, v) in regs.iter().enumerate() {
            self.write32(frame + 4 * k as u32, *v)?;
        }
        if fp_frame {
            // Stored eagerly; with lazy stacking (FPCCR.LSPEN) the hardware
            // stores the same values when the handler first uses the FPU.
            for k in 0..16 {
                self.write32(frame + 0x20 + 4 * k, self.s[k as usize])?;
            }
            self.write32(frame + 0x60, self.fpscr)?;
            self.fpcar = frame + 0x20;
        }
        self.r[13] = frame;
        let thread = self.ipsr == 0;
        let mut lr = 0xffff_ffe1u32;
        if !fp_frame {
            lr |= 0x10;
        }
        if thread {
            lr |= 8;
            if self.sp_sel_thread() {
                lr |= 4;
            }
        }
        // handlers run on MSP
        if thread && self.sp_sel_thread() {
            self.psp = self.r[13];
            self.r[13] = self.msp;
        }
        self.r[14] = lr;
        self.ipsr = exc;
        self.it = 0;
        self.control &= !4;
        let vec = self.read32(self.vtor + 4 * exc)?;
        self.pc = vec & !1;
        self.m.cycles += self.tm.exception_entry();
        Ok(())
    }

    fn exception_return(&mut self, exc_return: u32) -> R<()> {
        let to_thread = exc_return & 8 != 0;
        let use_psp = exc_return & 4 != 0;
        let fp_frame = exc_return & 0x10 == 0;
        if to_thread && use_psp {
            self.msp = self.r[13];
            self.r[13] = self.psp;
            self.control |= 2;
        } else if to_thread {
            self.control &= !2;
        }
        let frame = self.r[13];
        let mut regs = [0u32; 8];
        for (k, r) in regs.iter_mut().enumerate() {
            *r = self.read32(frame + 4 * k as u32)?;
        }
        if fp_frame {
            for k in 0..16 {
                self.s[k as usize] = self.read32(frame + 0x20 + 4 * k)?;
            }
            self.fpscr = self.read32(frame + 0x60)?;
            self.control |= 4;
        } else {
            self.control &= !4;
        }
        let size = if fp_frame { 0x68 } else { 0x20 };
        let xpsr = regs[7];
        self.r[13] = frame + size + (((xpsr >> 9) & 1) << 2);
        self.r[0] = regs[0];
        self.r[1] = regs[1];
        self.r[2] = regs[2];
        self.r[3] = regs[3];
        self.r[12] = regs[4];
        self.r[14] = regs[5];
        self.pc = regs[6] & !1;
        self.set_apsr(xpsr);
        self.ge = (xpsr >> 16) & 15;
        self.it = ((xpsr >> 25) & 3) | ((xpsr >> 10) & 0x3f) << 2;
        self.ipsr = if to_thread { 0 } else { xpsr & 0x1ff };
        self.m.cycles += self.tm.exception_return();
        Ok(())
    }

    /// Take a pending SysTick exception if the core can.
    pub fn check_irq(&mut self) -> R<()> {
        if self.systick.pending && self.primask & 1 == 0 && self.faultmask == 0 && self.ipsr == 0 {
            self.systick.pending = false;
            let pc = self.pc;
            self.take_exception(EXC_SYSTICK, pc)?;
        }
        Ok(())
    }

    // ---------------------------------------------------------- main loop

    /// Fetch (and cache) the decoded instruction at pc.
    #[inline(always)]
    pub fn fetch(&mut self, pc: u32) -> Insn {
        if pc < 0x80_0000 {
            let idx = ((pc & 0x3f_ffff) >> 1) as usize & (CODE_SIZE / 2 - 1);
            let i = self.cache[idx];
            if i.op != Op::Undecoded {
                return i;
            }
            return self.fetch_miss(pc, Some(idx));
        }
        self.fetch_miss(pc, None)
    }

    #[inline(never)]
    fn fetch_miss(&mut self, pc: u32, idx: Option<usize>) -> Insn {
        match self.decode_at(pc) {
            Ok(mut i) => {
                if !self.m.marks.hooks.is_empty() && self.m.marks.hook_at(pc).is_some() {
                    i.op = Op::Hook;
                }
                if let Some(idx) = idx {
                    self.cache[idx] = i;
                }
                i
            }
            Err(_) => Insn {
                op: Op::FetchFault,
                ..Insn::UNDECODED
            },
        }
    }

    fn decode_at(&mut self, pc: u32) -> R<Insn> {
        let h1 = self
            .read16(pc)
            .map_err(|_| self.bus_fault(pc, "instruction fetch"))? as u16;
        let h2 = if decode::is32(h1) {
            self.read16(pc + 2)
                .map_err(|_| self.bus_fault(pc + 2, "instruction fetch"))? as u16
        } else {
            0
        };
        let mut i = decode::decode(pc, h1, h2, self.core == Core::M7);
        T::annotate(&mut i, pc);
        Ok(i)
    }

    /// Execute one instruction.
    #[inline(always)]
    pub fn step(&mut self) -> R<()> {
        let pc = self.pc;
        let i = self.fetch(pc);
        if i.op == Op::FetchFault {
            return Err(Fault);
        }
        self.r[15] = pc.wrapping_add(4);
        self.m.insns += 1;
        let f = self.tm.fetch(&i, pc);
        if f != 0 {
            self.m.cycles += f;
        }
        if self.it != 0 {
            let cond = self.it >> 4;
            let it_before = self.it;
            self.it = if self.it & 7 == 0 {
                0
            } else {
                (self.it & 0xe0) | ((self.it << 1) & 0x1f)
            };
            if !self.cond(cond) {
                self.pc = pc + i.len as u32;
                self.m.cycles += self.tm.skipped(&i);
                self.m.class_count[i.class as usize & 15] += 1;
                return Ok(());
            }
            self.pc = pc + i.len as u32;
            self.m.class_count[i.class as usize & 15] += 1;
            let r = self.exec(&i, pc, true);
            if r.is_err() {
                self.it = it_before;
            }
            return r;
        }
        self.pc = pc + i.len as u32;
        self.m.class_count[i.class as usize & 15] += 1;
        self.exec(&i, pc, false)
    }

    /// One instruction on the per-instruction path of the fast loop (`run_block`: in an IT
    /// block, at a hook, near the instruction budget) with its stack tracking.
    #[inline(never)]
    fn step_tracked(&mut self) -> R<()> {
        self.step()?;
        self.track_sp();
        Ok(())
    }

    #[inline(always)]
    fn track_sp(&mut self) {
        let sp = self.r[13];
        if sp < self.m.min_sp {
            self.m.min_sp = sp;
        }
    }

    /// The fast loop's step (machine/run.rs `run_fast`): the block of decoded instructions
    /// starting at the PC (arm/block.rs), or one instruction where no block applies. A block
    /// runs as the per-instruction path would run its instructions (the same fetch rule,
    /// execution and timing events, in order), and stops after the instruction that
    /// reaches `Machine::cycle_stop` (the next device event, or 0 after a device
    /// rescheduled it); `room`: instructions left before `Machine::insn_stop` (at least 1),
    /// a longer block is not started.
    #[inline(always)]
    pub fn run_block(&mut self, room: u64) -> R<()> {
        let pc0 = self.pc;
        if self.it != 0 || pc0 >= CODE_SIZE as u32 {
            return self.step_tracked();
        }
        let mut id = self.blk.at(pc0);
        if id == 0 {
            id = self.build_block(pc0);
            if id == 0 {
                return self.step_tracked();
            }
        }
        let b = self.blk.list[id as usize - 1];
        if b.n as u64 > room {
            return self.step_tracked();
        }
        // the instructions leave `self` while the block runs (only `build_block` adds to them)
        let insns = std::mem::take(&mut self.blk.insns);
        let forms = std::mem::take(&mut self.blk.forms);
        let range = b.first as usize..(b.first + b.n) as usize;
        let code = &insns[range.clone()];
        let fcode = &forms[range];
        let mut pc = pc0;
        let mut k = 0;
        let mut r = Ok(());
        for (i, &form) in code.iter().zip(fcode) {
            self.r[15] = pc.wrapping_add(4);
            let f = self.tm.fetch(i, pc);
            if f != 0 {
                self.m.cycles += f;
            }
            let npc = pc + i.len as u32;
            self.pc = npc;
            k += 1;
            r = if T::FORMS {
                self.exec_form(form, i, pc)
            } else {
                self.exec(i, pc, false)
            };
            if r.is_err() {
                break;
            }
            if b.sp {
                self.track_sp();
            }
            if self.m.cycles >= self.m.cycle_stop {
                break;
            }
            pc = npc;
        }
        self.m.insns += k as u64;
        if k == code.len() {
            for &(c, n) in &self.blk.classes[b.cls as usize..(b.cls + b.ncls) as usize] {
                self.m.class_count[c as usize & 15] += n as u64;
            }
        } else {
            for i in &code[..k] {
                self.m.class_count[i.class as usize & 15] += 1;
            }
        }
        self.blk.insns = insns;
        self.blk.forms = forms;
        r?;
        self.track_sp();
        Ok(())
    }

    /// Decode the block starting at `pc` (< CODE_SIZE, outside an IT block) into the block
    /// cache: its index + 1, 0 when its first instruction is for the per-instruction path.
    #[cold]
    #[inline(never)]
    fn build_block(&mut self, pc: u32) -> u32 {
        let mut v: Vec<Insn> = Vec::new();
        let mut p = pc;
        while v.len() < block::MAX_LEN && p + 4 <= CODE_SIZE as u32 {
            let i = self.fetch(p);
            if block::outside_block(&i) {
                break;
            }
            v.push(i);
            if block::ends_block(&i) {
                break;
            }
            p += i.len as u32;
        }
        if v.is_empty() {
            return 0;
        }
        let forms: Vec<u8> = v.iter().map(|i| block::form(i, T::simple(i))).collect();
        self.blk.add(pc, &v, &forms)
    }

    /// A block's instruction (outside an IT block) by the handler of its form
    /// (arm/block.rs `form`): what `exec` does for it.
    #[inline(always)]
    fn exec_form(&mut self, form: u8, i: &Insn, pc: u32) -> R<()> {
        macro_rules! forms {
            ($($n:literal)*) => {
                match form {
                    $($n => self.dp_form::<
                        { (($n - block::DP) >> 1) & 15 },
                        { (($n - block::DP) & 1) == 1 },
                        { ($n - block::DP) >> 5 },
                    >(i, pc),)*
                    block::LD => self.ld_form::<0, false>(i, pc),
                    226 => self.ld_form::<1, false>(i, pc),
                    227 => self.ld_form::<2, false>(i, pc),
                    228 => self.ld_form::<3, false>(i, pc),
                    229 => self.ld_form::<4, false>(i, pc),
                    block::LDR => self.ld_form::<0, true>(i, pc),
                    231 => self.ld_form::<1, true>(i, pc),
                    232 => self.ld_form::<2, true>(i, pc),
                    233 => self.ld_form::<3, true>(i, pc),
                    234 => self.ld_form::<4, true>(i, pc),
                    block::ST => self.st_form::<0, false>(i, pc),
                    236 => self.st_form::<1, false>(i, pc),
                    237 => self.st_form::<2, false>(i, pc),
                    block::STR => self.st_form::<0, true>(i, pc),
                    239 => self.st_form::<1, true>(i, pc),
                    240 => self.st_form::<2, true>(i, pc),
                    _ => self.exec(i, pc, false),
                }
            };
        }
        forms!(
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
            33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60
            61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88
            89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112
            113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128 129 130 131 132 133
            134 135 136 137 138 139 140 141 142 143 144 145 146 147 148 149 150 151 152 153 154
            155 156 157 158 159 160 161 162 163 164 165 166 167 168 169 170 171 172 173 174 175
            176 177 178 179 180 181 182 183 184 185 186 187 188 189 190 191 192 193 194 195 196
            197 198 199 200 201 202 203 204 205 206 207 208 209 210 211 212 213 214 215 216 217
            218 219 220 221 222 223 224
        )
    }

    /// `exec` of DpImm / DpReg outside an IT block, not writing the PC (the form
    /// `block::DP`): `OP` the operation, `S` sets the flags, `KIND` the second operand.
    #[inline(always)]
    fn dp_form<const OP: u8, const S: bool, const KIND: u8>(&mut self, i: &Insn, pc: u32) -> R<()> {
        let a = self.r[i.rn as usize];
        let (b, carry) = match KIND {
            0 => {
                let carry = match i.cf {
                    0 => self.c,
                    1 => false,
                    _ => true,
                };
                (i.imm, carry)
            }
            // Shift_C with amount 0 (not RRX): the operand and the carry flag
            1 => (self.r[i.rm as usize], self.c),
            _ => shift_c(
                self.r[i.rm as usize],
                KIND.wrapping_sub(2),
                i.sh as u32,
                self.c,
            ),
        };
        self.alu(OP, i.rd, a, b, carry, S);
        let e = Event {
            i,
            pc,
            npc: self.pc,
            taken: false,
            target_split: false,
            addr: 0,
            div: [0; 2],
            fp: [0; 3],
        };
        self.m.cycles += self.tm.step_simple(&e, self.m.cycles);
        Ok(())
    }

    /// `exec` of a load single not into the PC (the forms `block::LD`, `block::LDR`):
    /// `SUB` the size (`Insn::sub`), `REG` a register offset.
    #[inline(always)]
    fn ld_form<const SUB: u8, const REG: bool>(&mut self, i: &Insn, pc: u32) -> R<()> {
        let base = self.r[i.rn as usize];
        let (addr, wb) = if !REG {
            let off = base.wrapping_add(i.imm);
            (if i.ra & 1 != 0 { off } else { base }, i.ra & 2 != 0)
        } else {
            (base.wrapping_add(self.r[i.rm as usize] << i.sh), false)
        };
        let v = match SUB {
            0 => self.read32(addr)?,
            1 => self.read16(addr)?,
            2 => self.read8(addr)?,
            3 => self.read16(addr)? as u16 as i16 as i32 as u32,
            _ => self.read8(addr)? as u8 as i8 as i32 as u32,
        };
        if wb {
            self.r[i.rn as usize] = base.wrapping_add(i.imm);
        }
        self.r[i.rd as usize] = v;
        let e = Event {
            i,
            pc,
            npc: self.pc,
            taken: false,
            target_split: false,
            addr,
            div: [0; 2],
            fp: [0; 3],
        };
        self.m.cycles += self.tm.step_load(&e, self.m.cycles);
        Ok(())
    }

    /// `exec` of a store single (the forms `block::ST`, `block::STR`): `SUB` the size,
    /// `REG` a register offset.
    #[inline(always)]
    fn st_form<const SUB: u8, const REG: bool>(&mut self, i: &Insn, pc: u32) -> R<()> {
        let base = self.r[i.rn as usize];
        let (addr, wb) = if !REG {
            let off = base.wrapping_add(i.imm);
            (if i.ra & 1 != 0 { off } else { base }, i.ra & 2 != 0)
        } else {
            (base.wrapping_add(self.r[i.rm as usize] << i.sh), false)
        };
        let v = self.r[i.rd as usize];
        match SUB {
            0 => self.write32(addr, v)?,
            1 => self.write16(addr, v)?,
            _ => self.write8(addr, v)?,
        }
        if wb {
            self.r[i.rn as usize] = base.wrapping_add(i.imm);
        }
        let e = Event {
            i,
            pc,
            npc: self.pc,
            taken: false,
            target_split: false,
            addr,
            div: [0; 2],
            fp: [0; 3],
        };
        self.m.cycles += self.tm.step_store(&e, self.m.cycles);
        Ok(())
    }

    /// Forget the decoded instruction at pc so that the next fetch decodes it
    /// again (and plants or drops a hook there).
    fn uncache(&mut self, pc: u32) {
        if pc < 0x80_0000 {
            let idx = ((pc & 0x3f_ffff) >> 1) as usize & (CODE_SIZE / 2 - 1);
            self.cache[idx].op = Op::Undecoded;
            self.blk.drop_at(pc);
        }
    }

    /// A hooked address was reached (interval marks, marks.rs): record the
    /// mark, then execute the instruction there as usual.
    #[cold]
    #[inline(never)]
    fn exec_hooked(&mut self, pc: u32, in_it: bool) -> R<()> {
        let i = self.on_hook(pc)?;
        self.m.class_count[i.class as usize & 15] += 1;
        self.exec(&i, pc, in_it)
    }

    fn on_hook(&mut self, pc: u32) -> R<Insn> {
        marks::on_hook(self, pc);
        let i = self.decode_at(pc)?;
        Ok(i)
    }

    fn undefined(&mut self, i: &Insn, pc: u32, why: &str) -> Fault {
        let h1 = self.read16(pc).unwrap_or(0);
        let enc = if i.len == 4 {
            let h2 = self.read16(pc.wrapping_add(2)).unwrap_or(0);
            format!("{:04x} {:04x}", h1, h2)
        } else {
            format!("{:04x}", h1)
        };
        let s = Stop::Error(format!(
            "HardFault: UsageFault UNDEFINSTR: {} instruction at 0x{:08x}, encoding {} ({})",
            why,
            pc,
            enc,
            match self.core {
                Core::M4 => "Cortex-M4",
                Core::M7 => "Cortex-M7",
            }
        ));
        self.fail(s)
    }

    fn unaligned(&mut self, a: u32) -> Fault {
        let s = Stop::Error(format!(
            "HardFault: UsageFault UNALIGNED: multi-word access at 0x{:08x} (pc=0x{:08x})",
            a, self.pc
        ));
        self.fail(s)
    }

    /// A taken branch to `target` (the event tells the timing model).
    #[inline(always)]
    fn branch_taken(&mut self, e: &mut Event, target: u32) {
        self.pc = target;
        self.transfer(e);
    }

    /// Control went to `self.pc` other than by falling through (a taken branch, a
    /// write to the PC, an exception return): for the event, whether the target is a
    /// 32-bit instruction at an address that is 2 mod 4 (when the model asks).
    #[inline(always)]
    fn transfer(&mut self, e: &mut Event) {
        e.taken = true;
        let target = self.pc;
        if T::TARGET_WIDTH && target & 2 != 0 {
            if let Some((b, o)) = self.mem.slot(target, 2) {
                e.target_split = decode::is32(u16::from_le_bytes([b[o], b[o + 1]]));
            }
        }
    }

    #[inline(always)]
    fn exec(&mut self, i: &Insn, pc: u32, in_it: bool) -> R<()> {
        let mut e = Event {
            i,
            pc,
            npc: 0,
            taken: false,
            target_split: false,
            addr: 0,
            div: [0; 2],
            fp: [0; 3],
        };
        match i.op {
            Op::DpImm => {
                let s = i.sf == 1 || (i.sf == 2 && !in_it);
                let a = self.r[i.rn as usize];
                let carry = match i.cf {
                    0 => self.c,
                    1 => false,
                    _ => true,
                };
                self.alu(i.sub, i.rd, a, i.imm, carry, s);
                if i.rd == 15 && i.sub < alu::TST {
                    self.transfer(&mut e);
                    return self.retire(&mut e);
                }
            }
            Op::DpReg => {
                let s = i.sf == 1 || (i.sf == 2 && !in_it);
                let a = self.r[i.rn as usize];
                let (b, carry) = shift_c(self.r[i.rm as usize], i.st, i.sh as u32, self.c);
                self.alu(i.sub, i.rd, a, b, carry, s);
                if i.rd == 15 && i.sub < alu::TST {
                    self.transfer(&mut e);
                    return self.retire(&mut e);
                }
            }
            Op::DpRegReg => {
                let s = i.sf == 1 || (i.sf == 2 && !in_it);
                let amt = self.r[i.ra as usize] & 0xff;
                let (b, carry) = shift_c(self.r[i.rm as usize], i.st, amt, self.c);
                let a = self.r[i.rn as usize];
                self.alu(i.sub, i.rd, a, b, carry, s);
            }
            Op::Movt => {
                let d = i.rd as usize;
                self.r[d] = (self.r[d] & 0xffff) | (i.imm << 16);
            }
            Op::Ssat | Op::Usat => {
                let (v, _) = shift_c(self.r[i.rn as usize], i.st, i.sh as u32, self.c);
                let (r, sat) = if i.op == Op::Ssat {
                    ssat(v as i32 as i64, i.imm)
                } else {
                    usat(v as i32 as i64, i.imm)
                };
                self.r[i.rd as usize] = r;
                self.q |= sat;
            }
            Op::Ssat16 | Op::Usat16 => {
                let v = self.r[i.rn as usize];
                let f = if i.op == Op::Ssat16 { ssat } else { usat };
                let (lo, s1) = f(v as i16 as i64, i.imm);
                let (hi, s2) = f((v >> 16) as i16 as i64, i.imm);
                self.r[i.rd as usize] = (lo & 0xffff) | (hi << 16);
                self.q |= s1 | s2;
            }
            Op::Sbfx => {
                let v = self.r[i.rn as usize];
                let w = i.imm;
                self.r[i.rd as usize] = (((v >> i.sh) << (32 - w)) as i32 >> (32 - w)) as u32;
            }
            Op::Ubfx => {
                let v = self.r[i.rn as usize];
                let w = i.imm;
                self.r[i.rd as usize] = (v >> i.sh) & mask_bits(w);
            }
            Op::Bfi => {
                let lsb = i.sh as u32;
                let width = i.imm - lsb + 1;
                let m = mask_bits(width) << lsb;
                let d = i.rd as usize;
                self.r[d] = (self.r[d] & !m) | ((self.r[i.rn as usize] << lsb) & m);
            }
            Op::Mul => {
                let r = self.r[i.rn as usize].wrapping_mul(self.r[i.rm as usize]);
                self.r[i.rd as usize] = r;
                if i.sf == 1 || (i.sf == 2 && !in_it) {
                    self.nz(r);
                }
            }
            Op::Mla => {
                let r = self.r[i.rn as usize]
                    .wrapping_mul(self.r[i.rm as usize])
                    .wrapping_add(self.r[i.ra as usize]);
                self.r[i.rd as usize] = r;
            }
            Op::Mls => {
                let r = self.r[i.ra as usize]
                    .wrapping_sub(self.r[i.rn as usize].wrapping_mul(self.r[i.rm as usize]));
                self.r[i.rd as usize] = r;
            }
            Op::Smulxy => {
                let a = half(self.r[i.rn as usize], i.sub & 2 != 0);
                let b = half(self.r[i.rm as usize], i.sub & 1 != 0);
                let p = a * b;
                if i.ra == 15 {
                    self.r[i.rd as usize] = p as u32;
                } else {
                    let (r, o) = p.overflowing_add(self.r[i.ra as usize] as i32);
                    self.r[i.rd as usize] = r as u32;
                    self.q |= o;
                }
            }
            Op::Smulwy => {
                let a = self.r[i.rn as usize] as i32 as i64;
                let b = half(self.r[i.rm as usize], i.sub & 1 != 0) as i64;
                let p = ((a * b) >> 16) as i32;
                if i.ra == 15 {
                    self.r[i.rd as usize] = p as u32;
                } else {
                    let (r, o) = p.overflowing_add(self.r[i.ra as usize] as i32);
                    self.r[i.rd as usize] = r as u32;
                    self.q |= o;
                }
            }
            Op::Smuad | Op::Smusd => {
                let n = self.r[i.rn as usize];
                let mut m = self.r[i.rm as usize];
                if i.sub & 1 != 0 {
                    m = m.rotate_right(16);
                }
                let p1 = (n as i16 as i64) * (m as i16 as i64);
                let p2 = ((n >> 16) as i16 as i64) * ((m >> 16) as i16 as i64);
                let mut r = if i.op == Op::Smuad { p1 + p2 } else { p1 - p2 };
                if i.ra != 15 {
                    r += self.r[i.ra as usize] as i32 as i64;
                }
                if r != r as i32 as i64 {
                    self.q = true;
                }
                self.r[i.rd as usize] = r as u32;
            }
            Op::Smmul | Op::Smmls => {
                let p =
                    (self.r[i.rn as usize] as i32 as i64) * (self.r[i.rm as usize] as i32 as i64);
                let acc = if i.ra == 15 {
                    0i64
                } else {
                    ((self.r[i.ra as usize] as u64) << 32) as i64
                };
                let mut r = if i.op == Op::Smmul {
                    acc.wrapping_add(p)
                } else {
                    acc.wrapping_sub(p)
                };
                if i.sub & 1 != 0 {
                    r = r.wrapping_add(0x8000_0000);
                }
                self.r[i.rd as usize] = (r >> 32) as u32;
            }
            Op::Usad8 => {
                let a = self.r[i.rn as usize];
                let b = self.r[i.rm as usize];
                let mut s = 0u32;
                for k in 0..4 {
                    let x = (a >> (8 * k)) & 0xff;
                    let y = (b >> (8 * k)) & 0xff;
                    s += x.abs_diff(y);
                }
                if i.ra != 15 {
                    s = s.wrapping_add(self.r[i.ra as usize]);
                }
                self.r[i.rd as usize] = s;
            }
            Op::Smull | Op::Umull | Op::Smlal | Op::Umlal | Op::Umaal => {
                let a = self.r[i.rn as usize];
                let b = self.r[i.rm as usize];
                let lo = self.r[i.rd as usize];
                let hi = self.r[i.ra as usize];
                let acc = (hi as u64) << 32 | lo as u64;
                let r: u64 = match i.op {
                    Op::Smull => ((a as i32 as i64) * (b as i32 as i64)) as u64,
                    Op::Umull => (a as u64) * (b as u64),
                    Op::Smlal => (((a as i32 as i64) * (b as i32 as i64)) as u64).wrapping_add(acc),
                    Op::Umlal => ((a as u64) * (b as u64)).wrapping_add(acc),
                    _ => (a as u64) * (b as u64) + lo as u64 + hi as u64,
                };
                self.r[i.rd as usize] = r as u32;
                self.r[i.ra as usize] = (r >> 32) as u32;
            }
            Op::Smlalxy | Op::Smlald | Op::Smlsld => {
                let a = self.r[i.rn as usize];
                let mut b = self.r[i.rm as usize];
                let acc =
                    ((self.r[i.ra as usize] as u64) << 32 | self.r[i.rd as usize] as u64) as i64;
                let p = match i.op {
                    Op::Smlalxy => {
                        (half(a, i.sub & 2 != 0) as i64) * (half(b, i.sub & 1 != 0) as i64)
                    }
                    _ => {
                        if i.sub & 1 != 0 {
                            b = b.rotate_right(16);
                        }
                        let p1 = (a as i16 as i64) * (b as i16 as i64);
                        let p2 = ((a >> 16) as i16 as i64) * ((b >> 16) as i16 as i64);
                        if i.op == Op::Smlald {
                            p1 + p2
                        } else {
                            p1 - p2
                        }
                    }
                };
                let r = acc.wrapping_add(p) as u64;
                self.r[i.rd as usize] = r as u32;
                self.r[i.ra as usize] = (r >> 32) as u32;
            }
            Op::Sdiv | Op::Udiv => {
                let n = self.r[i.rn as usize];
                let m = self.r[i.rm as usize];
                let r = if m == 0 {
                    if self.ccr & 0x10 != 0 {
                        return Err(self.fail(Stop::Error(format!(
                            "HardFault: UsageFault DIVBYZERO at 0x{:08x}",
                            pc
                        ))));
                    }
                    0
                } else if i.op == Op::Sdiv {
                    (n as i32).wrapping_div(m as i32) as u32
                } else {
                    n / m
                };
                self.r[i.rd as usize] = r;
                e.div = [n, m];
                return self.retire(&mut e);
            }
            Op::Extend => {
                let rot = self.r[i.rm as usize].rotate_right(i.sh as u32);
                let add = if i.rn == 15 { 0 } else { self.r[i.rn as usize] };
                let r = match i.sub {
                    0 => add.wrapping_add(rot as i16 as i32 as u32),
                    1 => add.wrapping_add(rot & 0xffff),
                    2 => {
                        let lo = add.wrapping_add(rot as i8 as i32 as u32) & 0xffff;
                        let hi = (add >> 16).wrapping_add((rot >> 16) as i8 as i32 as u32);
                        lo | hi << 16
                    }
                    3 => {
                        let lo = add.wrapping_add(rot & 0xff) & 0xffff;
                        let hi = (add >> 16).wrapping_add((rot >> 16) & 0xff);
                        lo | hi << 16
                    }
                    4 => add.wrapping_add(rot as i8 as i32 as u32),
                    _ => add.wrapping_add(rot & 0xff),
                };
                self.r[i.rd as usize] = r;
            }
            Op::Par => {
                let r = self.parallel(i.sub, self.r[i.rn as usize], self.r[i.rm as usize]);
                self.r[i.rd as usize] = r;
            }
            Op::Qop => {
                let m = self.r[i.rm as usize] as i32 as i64;
                let mut n = self.r[i.rn as usize] as i32 as i64;
                if i.sub & 1 != 0 {
                    let (d, s) = ssat(2 * n, 32);
                    self.q |= s;
                    n = d as i32 as i64;
                }
                let (r, s) = if i.sub & 2 == 0 {
                    ssat(m + n, 32)
                } else {
                    ssat(m - n, 32)
                };
                self.q |= s;
                self.r[i.rd as usize] = r;
            }
            Op::Rev => self.r[i.rd as usize] = self.r[i.rm as usize].swap_bytes(),
            Op::Rev16 => {
                let v = self.r[i.rm as usize];
                self.r[i.rd as usize] = ((v & 0x00ff_00ff) << 8) | ((v >> 8) & 0x00ff_00ff);
            }
            Op::Revsh => {
                let v = self.r[i.rm as usize];
                self.r[i.rd as usize] = ((v as u16).swap_bytes() as i16) as i32 as u32;
            }
            Op::Rbit => self.r[i.rd as usize] = self.r[i.rm as usize].reverse_bits(),
            Op::Clz => self.r[i.rd as usize] = self.r[i.rm as usize].leading_zeros(),
            Op::Sel => {
                let a = self.r[i.rn as usize];
                let b = self.r[i.rm as usize];
                let mut r = 0;
                for k in 0..4 {
                    let m = 0xffu32 << (8 * k);
                    r |= if (self.ge >> k) & 1 != 0 {
                        a & m
                    } else {
                        b & m
                    };
                }
                self.r[i.rd as usize] = r;
            }
            Op::Pkh => {
                let n = self.r[i.rn as usize];
                let (m, _) = shift_c(self.r[i.rm as usize], i.st, i.sh as u32, self.c);
                self.r[i.rd as usize] = if i.sub == 0 {
                    (n & 0xffff) | (m & 0xffff_0000)
                } else {
                    (n & 0xffff_0000) | (m & 0xffff)
                };
            }
            Op::Ld | Op::LdR => {
                let base = self.r[i.rn as usize];
                let (addr, wb) = if i.op == Op::Ld {
                    let off = base.wrapping_add(i.imm);
                    (if i.ra & 1 != 0 { off } else { base }, i.ra & 2 != 0)
                } else {
                    (base.wrapping_add(self.r[i.rm as usize] << i.sh), false)
                };
                e.addr = addr;
                let v = match i.sub {
                    0 => self.read32(addr)?,
                    1 => self.read16(addr)?,
                    2 => self.read8(addr)?,
                    3 => self.read16(addr)? as u16 as i16 as i32 as u32,
                    _ => self.read8(addr)? as u8 as i8 as i32 as u32,
                };
                if wb {
                    self.r[i.rn as usize] = base.wrapping_add(i.imm);
                }
                if i.rd == 15 {
                    self.bx_write_pc(v)?;
                    self.transfer(&mut e);
                } else {
                    self.r[i.rd as usize] = v;
                }
                return self.retire(&mut e);
            }
            Op::St | Op::StR => {
                let base = self.r[i.rn as usize];
                let (addr, wb) = if i.op == Op::St {
                    let off = base.wrapping_add(i.imm);
                    (if i.ra & 1 != 0 { off } else { base }, i.ra & 2 != 0)
                } else {
                    (base.wrapping_add(self.r[i.rm as usize] << i.sh), false)
                };
                let v = self.r[i.rd as usize];
                match i.sub {
                    0 => self.write32(addr, v)?,
                    1 => self.write16(addr, v)?,
                    _ => self.write8(addr, v)?,
                }
                if wb {
                    self.r[i.rn as usize] = base.wrapping_add(i.imm);
                }
                e.addr = addr;
                return self.retire(&mut e);
            }
            Op::Ldrd | Op::Strd => {
                let base = self.r[i.rn as usize];
                let off = base.wrapping_add(i.imm);
                let addr = if i.sh & 1 != 0 { off } else { base };
                if addr & 3 != 0 {
                    return Err(self.unaligned(addr));
                }
                if i.op == Op::Ldrd {
                    let a = self.read32(addr)?;
                    let b = self.read32(addr + 4)?;
                    self.r[i.rd as usize] = a;
                    self.r[i.ra as usize] = b;
                } else {
                    self.write32(addr, self.r[i.rd as usize])?;
                    self.write32(addr + 4, self.r[i.ra as usize])?;
                }
                if i.sh & 2 != 0 {
                    self.r[i.rn as usize] = off;
                }
            }
            Op::Ldrex => {
                let addr = self.r[i.rn as usize].wrapping_add(i.imm);
                let v = match i.sub {
                    0 => {
                        if addr & 3 != 0 {
                            return Err(self.unaligned(addr));
                        }
                        self.read32(addr)?
                    }
                    1 => self.read16(addr)?,
                    _ => self.read8(addr)?,
                };
                self.excl = true;
                self.r[i.rd as usize] = v;
            }
            Op::Strex => {
                let addr = self.r[i.rn as usize].wrapping_add(i.imm);
                if self.excl {
                    let v = self.r[i.rm as usize];
                    match i.sub {
                        0 => {
                            if addr & 3 != 0 {
                                return Err(self.unaligned(addr));
                            }
                            self.write32(addr, v)?
                        }
                        1 => self.write16(addr, v)?,
                        _ => self.write8(addr, v)?,
                    }
                    self.r[i.rd as usize] = 0;
                } else {
                    self.r[i.rd as usize] = 1;
                }
                self.excl = false;
            }
            Op::Clrex => self.excl = false,
            Op::Ldm => {
                let base = self.r[i.rn as usize];
                let cnt = i.imm.count_ones();
                let start = if i.sub == 0 {
                    base
                } else {
                    base.wrapping_sub(4 * cnt)
                };
                if start & 3 != 0 {
                    return Err(self.unaligned(start));
                }
                let mut a = start;
                let mut newpc = None;
                // the listed registers in ascending order (one step per set bit)
                let mut list = i.imm & 0xffff;
                while list != 0 {
                    let k = list.trailing_zeros() as usize;
                    list &= list - 1;
                    let v = self.read32(a)?;
                    if k == 15 {
                        newpc = Some(v);
                    } else {
                        self.r[k] = v;
                    }
                    a = a.wrapping_add(4);
                }
                if i.sf != 0 {
                    self.r[i.rn as usize] = if i.sub == 0 {
                        base.wrapping_add(4 * cnt)
                    } else {
                        start
                    };
                }
                if let Some(v) = newpc {
                    self.bx_write_pc(v)?;
                    self.transfer(&mut e);
                    return self.retire(&mut e);
                }
            }
            Op::Stm => {
                let base = self.r[i.rn as usize];
                let cnt = i.imm.count_ones();
                let start = if i.sub == 0 {
                    base
                } else {
                    base.wrapping_sub(4 * cnt)
                };
                if start & 3 != 0 {
                    return Err(self.unaligned(start));
                }
                let mut a = start;
                let mut list = i.imm & 0xffff;
                while list != 0 {
                    let k = list.trailing_zeros() as usize;
                    list &= list - 1;
                    self.write32(a, self.r[k])?;
                    a = a.wrapping_add(4);
                }
                if i.sf != 0 {
                    self.r[i.rn as usize] = if i.sub == 0 {
                        base.wrapping_add(4 * cnt)
                    } else {
                        start
                    };
                }
            }
            Op::B => {
                self.branch_taken(&mut e, i.imm);
                return self.retire(&mut e);
            }
            Op::Bcond => {
                if self.cond(i.sub as u32) {
                    self.branch_taken(&mut e, i.imm);
                    return self.retire(&mut e);
                }
            }
            Op::Bl => {
                self.r[14] = self.pc | 1;
                self.branch_taken(&mut e, i.imm);
                self.m.last_link = true;
                return self.retire(&mut e);
            }
            Op::Bx => {
                let t = self.r[i.rm as usize];
                self.bx_write_pc(t)?;
                self.transfer(&mut e);
                return self.retire(&mut e);
            }
            Op::Blx => {
                let t = self.r[i.rm as usize];
                self.r[14] = self.pc | 1;
                self.bx_write_pc(t)?;
                self.transfer(&mut e);
                self.m.last_link = true;
                return self.retire(&mut e);
            }
            Op::Cbz => {
                let zero = self.r[i.rn as usize] == 0;
                if zero != (i.sub != 0) {
                    self.branch_taken(&mut e, i.imm);
                    return self.retire(&mut e);
                }
            }
            Op::Tbb | Op::Tbh => {
                let base = self.r[i.rn as usize];
                let idx = self.r[i.rm as usize];
                let off = if i.op == Op::Tbb {
                    self.read8(base.wrapping_add(idx))?
                } else {
                    self.read16(base.wrapping_add(idx << 1))?
                };
                let t = pc.wrapping_add(4).wrapping_add(2 * off);
                self.branch_taken(&mut e, t);
                return self.retire(&mut e);
            }
            Op::It => self.it = i.imm,
            Op::Cps => {
                let v = if i.sub != 0 { 1 } else { 0 };
                if i.imm & 2 != 0 {
                    self.primask = v;
                }
                if i.imm & 1 != 0 {
                    self.faultmask = v;
                }
            }
            Op::Nop => {}
            Op::Wfi => self.wait_for_interrupt(),
            Op::Mrs => {
                let v = match i.imm {
                    0..=7 => {
                        let x = self.xpsr();
                        let mut v = 0;
                        if i.imm & 1 != 0 {
                            v |= x & 0x1ff;
                        }
                        if i.imm & 4 == 0 {
                            v |= x & 0xf80f_0000;
                        }
                        v
                    }
                    8 => {
                        if self.ipsr == 0 && self.sp_sel_thread() {
                            self.msp
                        } else {
                            self.r[13]
                        }
                    }
                    9 => {
                        if self.ipsr == 0 && self.sp_sel_thread() {
                            self.r[13]
                        } else {
                            self.psp
                        }
                    }
                    16 => self.primask,
                    17 | 18 => self.basepri,
                    19 => self.faultmask,
                    20 => self.control & 7,
                    _ => 0,
                };
                self.r[i.rd as usize] = v;
            }
            Op::Msr => {
                let v = self.r[i.rn as usize];
                match i.imm {
                    0..=3 => {
                        if i.sub & 2 != 0 {
                            self.set_apsr(v);
                        }
                        if i.sub & 1 != 0 {
                            self.ge = (v >> 16) & 15;
                        }
                    }
                    8 => {
                        if self.ipsr == 0 && self.sp_sel_thread() {
                            self.msp = v & !3
                        } else {
                            self.r[13] = v & !3
                        }
                    }
                    9 => {
                        if self.ipsr == 0 && self.sp_sel_thread() {
                            self.r[13] = v & !3
                        } else {
                            self.psp = v & !3
                        }
                    }
                    16 => self.primask = v & 1,
                    17 => self.basepri = v & 0xff,
                    18 if v & 0xff != 0 && (self.basepri == 0 || v & 0xff < self.basepri) => {
                        self.basepri = v & 0xff
                    }
                    19 => self.faultmask = v & 1,
                    20 => {
                        if self.ipsr == 0 {
                            let new_spsel = v & 2 != 0;
                            if new_spsel != self.sp_sel_thread() {
                                if new_spsel {
                                    self.msp = self.r[13];
                                    self.r[13] = self.psp;
                                } else {
                                    self.psp = self.r[13];
                                    self.r[13] = self.msp;
                                }
                            }
                            self.control = (self.control & !2) | (v & 2);
                        }
                        self.control = (self.control & !5) | (v & 5);
                    }
                    _ => {}
                }
            }
            Op::Bkpt => {
                if i.imm == 0xab {
                    let mut host = std::mem::take(&mut self.host);
                    let r = host.call(self, self.r[0], self.r[1]);
                    self.host = host;
                    self.r[0] = r?;
                } else {
                    return Err(self.fail(Stop::Error(format!(
                        "HardFault: BKPT #{} at 0x{:08x} without a debugger",
                        i.imm, pc
                    ))));
                }
            }
            Op::Svc => {
                let ret = self.pc;
                self.take_exception(11, ret)?;
            }
            Op::Undefined => return Err(self.undefined(i, pc, "undefined")),
            Op::Undecoded => return Err(self.undefined(i, pc, "undecoded")),
            Op::FetchFault => return Err(Fault),
            Op::Hook => {
                // a hook keeps the length and class of the instruction it
                // replaces; `step` counted it, the marks see the counts without it,
                // and the instruction is counted again once decoded (`exec_hooked`)
                self.m.class_count[i.class as usize & 15] -= 1;
                return self.exec_hooked(pc, in_it);
            }
            _ => {
                // floating point
                if self.cpacr & 0x00f0_0000 != 0x00f0_0000 {
                    return Err(self.fail(Stop::Error(format!(
                        "HardFault: UsageFault NOCP: floating-point instruction at 0x{:08x} with the FPU disabled (CPACR)",
                        pc
                    ))));
                }
                self.control |= 4; // CONTROL.FPCA, automatic with FPCCR.ASPEN
                match i.op {
                    Op::Vldr | Op::Vstr => {
                        let addr = self.r[i.rn as usize].wrapping_add(i.imm);
                        if addr & 3 != 0 {
                            return Err(self.unaligned(addr));
                        }
                        let words = if i.sh != 0 { 2 } else { 1 };
                        e.addr = addr;
                        let first = if i.sh != 0 {
                            2 * i.rd as usize
                        } else {
                            i.rd as usize
                        };
                        for k in 0..words {
                            if i.op == Op::Vldr {
                                self.s[first + k] = self.read32(addr + 4 * k as u32)?;
                            } else {
                                self.write32(addr + 4 * k as u32, self.s[first + k])?;
                            }
                        }
                        return self.retire(&mut e);
                    }
                    Op::Vldm | Op::Vstm => {
                        let words = if i.sh != 0 { 2 * i.imm } else { i.imm };
                        let base = self.r[i.rn as usize];
                        let start = if i.sub != 0 {
                            base.wrapping_sub(4 * words)
                        } else {
                            base
                        };
                        if start & 3 != 0 {
                            return Err(self.unaligned(start));
                        }
                        let first = if i.sh != 0 {
                            2 * i.rd as usize
                        } else {
                            i.rd as usize
                        };
                        for k in 0..words as usize {
                            let a = start + 4 * k as u32;
                            if i.op == Op::Vldm {
                                self.s[first + k] = self.read32(a)?;
                            } else {
                                self.write32(a, self.s[first + k])?;
                            }
                        }
                        if i.sf != 0 {
                            self.r[i.rn as usize] = if i.sub != 0 {
                                start
                            } else {
                                base.wrapping_add(4 * words)
                            };
                        }
                    }
                    Op::VmovS => {
                        if i.sub != 0 {
                            let v = self.s[i.rn as usize];
                            self.write_rd(i.rd, v);
                        } else {
                            self.s[i.rn as usize] = self.r[i.rd as usize];
                        }
                    }
                    Op::Vmov2 => {
                        let first = if i.sub & 2 != 0 {
                            2 * i.rm as usize
                        } else {
                            i.rm as usize
                        };
                        if first + 1 >= 32 {
                            return Err(self.undefined(i, pc, "unpredictable"));
                        }
                        if i.sub & 1 != 0 {
                            self.r[i.rd as usize] = self.s[first];
                            self.r[i.ra as usize] = self.s[first + 1];
                        } else {
                            self.s[first] = self.r[i.rd as usize];
                            self.s[first + 1] = self.r[i.ra as usize];
                        }
                    }
                    Op::VmovScalar => {
                        let idx = 2 * i.rn as usize + i.sh as usize;
                        if i.sub != 0 {
                            self.r[i.rd as usize] = self.s[idx];
                        } else {
                            self.s[idx] = self.r[i.rd as usize];
                        }
                    }
                    Op::Vmrs => {
                        if i.rd == 15 {
                            self.n = self.fpscr >> 31 != 0;
                            self.z = (self.fpscr >> 30) & 1 != 0;
                            self.c = (self.fpscr >> 29) & 1 != 0;
                            self.v = (self.fpscr >> 28) & 1 != 0;
                        } else {
                            self.r[i.rd as usize] = self.fpscr;
                        }
                    }
                    Op::Vmsr => self.fpscr = self.r[i.rd as usize] & 0xf7c0_009f,
                    Op::VmovImm => {
                        if i.sh != 0 {
                            self.s[2 * i.rd as usize] = 0;
                            self.s[2 * i.rd as usize + 1] = i.imm;
                        } else {
                            self.s[i.rd as usize] = i.imm;
                        }
                    }
                    Op::Vdp => {
                        if i.sh != 0 {
                            let a: f64 = self.get(i.rn);
                            let b: f64 = self.get(i.rm);
                            let d: f64 = self.get(i.rd);
                            e.fp = [a.to_bits(), b.to_bits(), d.to_bits()];
                            self.vdp::<f64>(i)?;
                            return self.retire(&mut e);
                        } else {
                            self.vdp::<f32>(i)?;
                        }
                    }
                    _ => return Err(self.undefined(i, pc, "unimplemented")),
                }
            }
        }
        self.retire(&mut e)
    }

    /// The end of an executed instruction: the timing model's event.
    #[inline(always)]
    fn retire(&mut self, e: &mut Event) -> R<()> {
        e.npc = self.pc;
        self.m.cycles += self.tm.step(e, self.m.cycles);
        Ok(())
    }

    #[inline(always)]
    fn alu(&mut self, op: u8, rd: u8, a: u32, b: u32, carry: bool, s: bool) {
        let (r, c, v, logical) = match op {
            alu::AND | alu::TST => (a & b, carry, self.v, true),
            alu::BIC => (a & !b, carry, self.v, true),
            alu::ORR => (a | b, carry, self.v, true),
            alu::ORN => (a | !b, carry, self.v, true),
            alu::EOR | alu::TEQ => (a ^ b, carry, self.v, true),
            alu::MOV => (b, carry, self.v, true),
            alu::MVN => (!b, carry, self.v, true),
            alu::ADD | alu::CMN => {
                let (r, c, v) = add_with_carry(a, b, false);
                (r, c, v, false)
            }
            alu::ADC => {
                let (r, c, v) = add_with_carry(a, b, self.c);
                (r, c, v, false)
            }
            alu::SBC => {
                let (r, c, v) = add_with_carry(a, !b, self.c);
                (r, c, v, false)
            }
            alu::SUB | alu::CMP => {
                let (r, c, v) = add_with_carry(a, !b, true);
                (r, c, v, false)
            }
            _ => {
                // RSB
                let (r, c, v) = add_with_carry(!a, b, true);
                (r, c, v, false)
            }
        };
        let _ = logical;
        if s {
            self.n = r >> 31 != 0;
            self.z = r == 0;
            self.c = c;
            self.v = v;
        }
        if op < alu::TST {
            self.write_rd(rd, r);
        }
    }

    /// Parallel add/subtract (A5.3.13, A5.3.14).
    fn parallel(&mut self, sub: u8, a: u32, b: u32) -> u32 {
        let kind = sub & 7;
        let prefix = sub >> 3;
        let unsigned = prefix >= 3;
        let mode = prefix % 3; // 0 plain (GE), 1 saturating, 2 halving
        let bytes = kind == 0 || kind == 4;
        let lanes = if bytes { 4 } else { 2 };
        let width = if bytes { 8 } else { 16 };
        let lane = |x: u32, k: u32| -> i64 {
            let v = (x >> (width * k)) & mask_bits(width);
            if unsigned {
                v as i64
            } else if bytes {
                v as u8 as i8 as i64
            } else {
                v as u16 as i16 as i64
            }
        };
        let mut out = 0u32;
        let mut ge = 0u32;
        for k in 0..lanes {
            // (is_add, index of b lane)
            let (add, bk) = match kind {
                0 => (true, k),
                4 => (false, k),
                1 => (true, k),
                5 => (false, k),
                2 => (k == 1, 1 - k), // ASX: lo = a0 - b1, hi = a1 + b0
                _ => (k == 0, 1 - k), // SAX: lo = a0 + b1, hi = a1 - b0
            };
            let x = lane(a, k);
            let y = lane(b, bk);
            let r = if add { x + y } else { x - y };
            let (val, g) = match mode {
                0 => {
                    let g = if unsigned {
                        if add {
                            r >= 1 << width
                        } else {
                            r >= 0
                        }
                    } else {
                        r >= 0
                    };
                    (r as u32, g)
                }
                1 => {
                    let (v, _) = if unsigned {
                        usat(r, width)
                    } else {
                        ssat(r, width)
                    };
                    (v, false)
                }
                _ => ((r >> 1) as u32, false),
            };
            out |= (val & mask_bits(width)) << (width * k);
            if g {
                ge |= if bytes { 1 << k } else { 3 << (2 * k) };
            }
        }
        if mode == 0 {
            self.ge = ge;
        }
        out
    }

    fn get<F: fpu::Float>(&self, r: u8) -> F {
        if F::EXP_BITS == 8 {
            F::from_u64(self.s[r as usize] as u64)
        } else {
            // operands that are S registers in mixed-size instructions are
            // read here as don't-care values: keep the index in range
            let r = (r & 15) as usize;
            let lo = self.s[2 * r] as u64;
            let hi = self.s[2 * r + 1] as u64;
            F::from_u64(hi << 32 | lo)
        }
    }

    fn set<F: fpu::Float>(&mut self, r: u8, v: F) {
        if F::EXP_BITS == 8 {
            self.s[r as usize] = v.to_u64() as u32;
        } else {
            let b = v.to_u64();
            self.s[2 * r as usize] = b as u32;
            self.s[2 * r as usize + 1] = (b >> 32) as u32;
        }
    }

    fn vdp<F: fpu::Float>(&mut self, i: &Insn) -> R<()> {
        let mut ctx = Ctx::new(self.fpscr);
        let d: F = self.get(i.rd);
        let n: F = self.get(i.rn);
        let m: F = self.get(i.rm);
        let res: Option<F> = match i.sub {
            fop::VMLA => {
                let p = ctx.mul(n, m);
                Some(ctx.add(d, p))
            }
            fop::VMLS => {
                let p = ctx.mul(n, m);
                Some(ctx.add(d, p.neg()))
            }
            fop::VNMLA => {
                let p = ctx.mul(n, m);
                Some(ctx.add(d.neg(), p.neg()))
            }
            fop::VNMLS => {
                let p = ctx.mul(n, m);
                Some(ctx.add(d.neg(), p))
            }
            fop::VMUL => Some(ctx.mul(n, m)),
            fop::VNMUL => Some(ctx.mul(n, m).neg()),
            fop::VADD => Some(ctx.add(n, m)),
            fop::VSUB => Some(ctx.sub(n, m)),
            fop::VDIV => Some(ctx.div(n, m)),
            fop::VFMA => Some(ctx.fma(d, n, m)),
            fop::VFMS => Some(ctx.fma(d, n.neg(), m)),
            fop::VFNMA => Some(ctx.fma(d.neg(), n.neg(), m)),
            fop::VFNMS => Some(ctx.fma(d.neg(), n, m)),
            fop::VMOV => Some(m),
            fop::VABS => Some(m.abs()),
            fop::VNEG => Some(m.neg()),
            fop::VSQRT => Some(ctx.sqrt(m)),
            fop::VCMP => {
                let b = if i.ra & 2 != 0 { F::zero() } else { m };
                let f = ctx.cmp(d, b, i.ra & 1 != 0);
                self.fpscr = (self.fpscr & 0x0fff_ffff) | f << 28;
                None
            }
            fop::VCVT_FD => {
                if F::EXP_BITS == 8 {
                    let x = f32::from_bits(self.s[i.rm as usize]);
                    let r = fpu::f32_to_f64(&mut ctx, x);
                    self.set::<f64>(i.rd, r);
                } else {
                    let x: f64 = self.get(i.rm);
                    let r = fpu::f64_to_f32(&mut ctx, x);
                    self.set::<f32>(i.rd, r);
                }
                None
            }
            fop::VCVT_I2F => {
                let v = self.s[i.rm as usize];
                Some(fpu::from_int::<F>(&mut ctx, v, i.ra & 1 != 0))
            }
            fop::VCVT_F2I | fop::VCVT_F2I_RM => {
                let mode = if i.sub == fop::VCVT_F2I {
                    if i.ra & 2 != 0 {
                        ctx.rmode
                    } else {
                        3
                    }
                } else {
                    [4, 0, 1, 2][((i.ra >> 1) & 3) as usize]
                };
                let r = fpu::to_int(&mut ctx, m, i.ra & 1 != 0, mode);
                self.s[i.rd as usize] = r;
                None
            }
            fop::VSEL => Some(if self.cond(i.ra as u32) { n } else { m }),
            fop::VMAXNM | fop::VMINNM => {
                let n2 = ctx.inp(n);
                let m2 = ctx.inp(m);
                // IEEE 754-2008 maxNum/minNum: a single quiet NaN is ignored
                if n2.is_nan() && !n2.is_snan() && !m2.is_nan() {
                    Some(m2)
                } else if m2.is_nan() && !m2.is_snan() && !n2.is_nan() {
                    Some(n2)
                } else if let Some(x) = ctx.nans2(n2, m2) {
                    Some(x)
                } else {
                    let max = i.sub == fop::VMAXNM;
                    Some(if n2.is_zero() && m2.is_zero() {
                        if max == n2.sign() {
                            m2
                        } else {
                            n2
                        }
                    } else if (n2 > m2) == max {
                        n2
                    } else {
                        m2
                    })
                }
            }
            fop::VRINT => {
                let (mode, exact) = match i.ra {
                    0 => (4, false),
                    1 => (0, false),
                    2 => (1, false),
                    3 => (2, false),
                    4 => (ctx.rmode, false),
                    5 => (3, false),
                    _ => (ctx.rmode, true),
                };
                Some(fpu::round_int(&mut ctx, m, mode, exact))
            }
            _ => return Err(self.fail(Stop::Error(format!("unimplemented FP op {}", i.sub)))),
        };
        if let Some(r) = res {
            self.set(i.rd, r);
        }
        self.fpscr |= ctx.flags;
        Ok(())
    }

    pub fn flush(&mut self) {
        self.m.console.flush();
    }
}

/// The Thumb front end in the shared run loops (machine/run.rs): SysTick is its device
/// event, its exception the interrupt.
impl<T: CortexTiming> Frontend for Cpu<T> {
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
        Cpu::step(self)
    }
    #[inline(always)]
    fn track_sp(&mut self) {
        Cpu::track_sp(self)
    }
    #[inline(always)]
    fn run_block(&mut self, room: u64) -> R<()> {
        Cpu::run_block(self, room)
    }
    #[inline(always)]
    fn step_tracked(&mut self) -> R<()> {
        Cpu::step_tracked(self)
    }
    #[inline(always)]
    fn next_event(&self) -> u64 {
        Cpu::next_event(self)
    }
    #[inline(always)]
    fn irq_pending(&self) -> bool {
        self.systick.pending
    }
    #[inline(always)]
    fn poll(&mut self) -> R<()> {
        self.st_tick();
        if self.it == 0 {
            self.check_irq()
        } else {
            Ok(())
        }
    }
    #[inline(always)]
    fn link_ret(&self) -> u32 {
        self.r[14]
    }
    fn take_stop(&mut self) -> Stop {
        Cpu::take_stop(self)
    }
    /// One trace record: r0-r14, pc, xPSR, FPSCR, s0-s31 (50 little-endian words).
    fn write_trace(&self, t: &mut dyn std::io::Write) {
        let mut rec = [0u32; 18];
        rec[..15].copy_from_slice(&self.r[..15]);
        rec[15] = self.pc;
        rec[16] = self.xpsr();
        rec[17] = self.fpscr;
        let mut b = Vec::with_capacity(72 + 128);
        for v in rec {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.s {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let _ = t.write_all(&b);
    }
}

impl<T: CortexTiming> Guest for Cpu<T> {
    fn read8(&mut self, a: u32) -> R<u32> {
        Cpu::read8(self, a)
    }
    fn read32(&mut self, a: u32) -> R<u32> {
        Cpu::read32(self, a)
    }
    fn write8(&mut self, a: u32, v: u32) -> R<()> {
        Cpu::write8(self, a, v)
    }
    fn write32(&mut self, a: u32, v: u32) -> R<()> {
        Cpu::write32(self, a, v)
    }
    #[inline]
    fn arg0(&self) -> u32 {
        self.r[0]
    }
    #[inline]
    fn sp(&self) -> u32 {
        self.r[13]
    }
    /// LR as a Thumb return address (not an EXC_RETURN value)
    fn call_return(&self) -> (u32, bool) {
        let lr = self.r[14];
        (lr & !1, lr & 1 == 1 && lr < 0xf000_0000)
    }
    fn uncache(&mut self, pc: u32) {
        Cpu::uncache(self, pc)
    }
    /// as QEMU 7.2: the RAM region holding SP (16 MiB from its base)
    fn heap_base(&self) -> u32 {
        let sp = self.r[13];
        if (0x2000_0000..0x2080_0000).contains(&sp) {
            sp & 0xffc0_0000
        } else if sp >= self.mem.psram_base && sp - self.mem.psram_base < 0x100_0000 {
            self.mem.psram_base
        } else {
            0
        }
    }
}

#[inline(always)]
fn mask_bits(w: u32) -> u32 {
    if w >= 32 {
        u32::MAX
    } else {
        (1u32 << w) - 1
    }
}

fn mask(size: u32) -> u32 {
    mask_bits(size * 8)
}

#[inline(always)]
fn half(v: u32, top: bool) -> i32 {
    if top {
        (v >> 16) as i16 as i32
    } else {
        v as i16 as i32
    }
}

pub fn class_names() -> &'static [&'static str] {
    &decode::CLASS_NAMES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts() {
        assert_eq!(shift_c(0x8000_0001, 0, 1, false), (2, true));
        assert_eq!(shift_c(0x8000_0000, 1, 32, false), (0, true));
        assert_eq!(shift_c(0x8000_0000, 2, 32, false), (0xffff_ffff, true));
        assert_eq!(shift_c(0x0000_0003, 3, 1, false), (0x8000_0001, true));
        assert_eq!(shift_c(0x0000_0003, 4, 1, true), (0x8000_0001, true));
        assert_eq!(shift_c(5, 0, 0, true), (5, true));
    }

    #[test]
    fn saturation() {
        assert_eq!(ssat(200, 8), (127, true));
        assert_eq!(ssat(-200, 8), ((-128i32) as u32, true));
        assert_eq!(usat(-1, 8), (0, true));
        assert_eq!(usat(255, 8), (255, false));
    }

    #[test]
    fn add_flags() {
        assert_eq!(
            add_with_carry(0x7fff_ffff, 1, false),
            (0x8000_0000, false, true)
        );
        assert_eq!(add_with_carry(0xffff_ffff, 1, false), (0, true, false));
        // SUB as ADD with NOT and carry 1: 0 - 1 borrows (C clear)
        assert_eq!(add_with_carry(0, !1, true), (0xffff_ffff, false, false));
    }
}
