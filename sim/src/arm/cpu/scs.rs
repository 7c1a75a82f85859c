// SPDX-License-Identifier: MIT
//! The device side of the MPS2 machines: the accesses that miss the memory regions go to
//! the device windows of the memory map (arm/mem.rs: UART0, arm/uart.rs, and the APB
//! peripherals that read as zero, machine/bus.rs `Device`s) or to the core's system control
//! space (SysTick B3.3, SCB B3.2, DWT C1.8, FP control B3.2.20 of the Armv7-M ARM), whose
//! registers are here: SysTick is the machine's `DownCounter` device (machine/timer.rs),
//! CYCCNT its cycle counter; the SCB, DWT control and FP registers are the core's own
//! state (exceptions, VTOR, CPACR), decoded here.

use super::*;
use crate::arm::mem::{APB, SYSTICK, UART0};
use crate::machine::bus::{Device, ReadsZero, Refused};

impl<T: CortexTiming> Cpu<T> {
    /// A read outside the memory regions: a device window (machine/bus.rs), the system
    /// control space or a bus fault.
    pub(super) fn io_read(&mut self, a: u32, size: u32) -> R<u32> {
        let r = if let Some(o) = UART0.offset(a) {
            self.uart.read(&mut self.m, o, size)
        } else if let Some(o) = APB.offset(a) {
            ReadsZero.read(&mut self.m, o, size)
        } else if a >> 20 == 0xe00 {
            return Ok(self.scs_read(a & !3) >> ((a & 3) * 8) & mask(size));
        } else {
            Err(Refused)
        };
        r.map_err(|_| self.bus_fault(a, "read"))
    }

    pub(super) fn io_write(&mut self, a: u32, v: u32, size: u32) -> R<()> {
        if a < CODE_END {
            return Err(self.code_write_fault(a, size));
        }
        let r = if let Some(o) = UART0.offset(a) {
            self.uart.write(&mut self.m, o, size, v)
        } else if let Some(o) = APB.offset(a) {
            ReadsZero.write(&mut self.m, o, size, v)
        } else if a >> 20 == 0xe00 {
            let v = if size == 4 { v } else { v << ((a & 3) * 8) };
            self.scs_write(a & !3, v);
            return Ok(());
        } else {
            Err(Refused)
        };
        r.map(|_| ()).map_err(|_| self.bus_fault(a, "write"))
    }

    // ------------------------------------------------------------ SysTick

    /// WFI: the core sleeps until the next SysTick interrupt when one is due (the clock
    /// jumps there).
    pub(super) fn wait_for_interrupt(&mut self) {
        if !self.systick.pending && self.systick.next_irq != u64::MAX && self.primask & 1 == 0 {
            self.m.cycles = self.m.cycles.max(self.systick.next_irq);
        }
    }

    /// Called when cycles reach the next SysTick event.
    #[inline(always)]
    pub fn st_tick(&mut self) {
        Device::tick(&mut self.systick, self.m.cycles);
    }

    #[inline(always)]
    pub fn next_event(&self) -> u64 {
        Device::next_event(&self.systick)
    }

    /// DWT CYCCNT: counts while DWT_CTRL.CYCCNTENA and DEMCR.TRCENA are set.
    pub(super) fn cyccnt(&self) -> u32 {
        let running = self.dwt_ctrl & 1 != 0 && self.demcr & (1 << 24) != 0;
        self.cyccnt.value(self.m.cycles, running)
    }

    pub(super) fn scs_read(&mut self, a: u32) -> u32 {
        match a {
            // COUNTFLAG clears on read
            _ if SYSTICK.offset(a).is_some() => {
                let o = a - SYSTICK.base;
                self.systick.read(&mut self.m, o, 4).unwrap_or(0)
            }
            0xe000_ed00 => match self.core {
                Core::M4 => 0x410f_c241,
                Core::M7 => 0x411f_c272,
            },
            0xe000_ed04 => {
                let mut v = self.ipsr & 0x1ff;
                if self.systick.pending {
                    v |= 1 << 26 | EXC_SYSTICK << 12;
                }
                v
            }
            0xe000_ed08 => self.vtor,
            0xe000_ed0c => 0xfa05_0000,
            0xe000_ed10 => self.scr,
            0xe000_ed14 => self.ccr,
            0xe000_ed18 => self.shpr[0],
            0xe000_ed1c => self.shpr[1],
            0xe000_ed20 => self.shpr[2],
            0xe000_ed88 => self.cpacr,
            0xe000_edfc => self.demcr,
            0xe000_ef34 => self.fpccr,
            0xe000_ef38 => self.fpcar,
            0xe000_ef3c => self.fpdscr,
            0xe000_1000 => self.dwt_ctrl,
            0xe000_1004 => self.cyccnt(),
            _ => 0,
        }
    }

    pub(super) fn scs_write(&mut self, a: u32, v: u32) {
        let next = self.systick.next_irq;
        self.scs_write_reg(a, v);
        if self.systick.next_irq != next {
            self.m.event_rescheduled();
        }
    }

    fn scs_write_reg(&mut self, a: u32, v: u32) {
        match a {
            _ if SYSTICK.offset(a).is_some() => {
                let o = a - SYSTICK.base;
                let _ = self.systick.write(&mut self.m, o, 4, v);
            }
            0xe000_ed04 => {
                if v & (1 << 25) != 0 {
                    self.systick.pending = false;
                }
                if v & (1 << 26) != 0 {
                    self.systick.pending = true;
                }
            }
            0xe000_ed08 => self.vtor = v & 0xffff_ff80,
            0xe000_ed10 => self.scr = v,
            0xe000_ed14 => self.ccr = v,
            0xe000_ed18 => self.shpr[0] = v,
            0xe000_ed1c => self.shpr[1] = v,
            0xe000_ed20 => self.shpr[2] = v,
            0xe000_ed88 => self.cpacr = v & 0x00f0_0000,
            0xe000_edfc => {
                let was = self.cyccnt();
                self.demcr = v;
                self.cyccnt.set(self.m.cycles, was);
            }
            0xe000_ef34 => self.fpccr = (v & 0xc000_0000) | (self.fpccr & 0x3fff_ffff),
            0xe000_ef38 => self.fpcar = v & !7,
            0xe000_ef3c => self.fpdscr = v & 0x07c0_0000,
            0xe000_1000 => {
                let was = self.cyccnt();
                self.dwt_ctrl = (self.dwt_ctrl & 0xf000_0000) | (v & 0x0fff_ffff);
                self.cyccnt.set(self.m.cycles, was);
            }
            0xe000_1004 => self.cyccnt.set(self.m.cycles, v),
            _ => {}
        }
    }
}
