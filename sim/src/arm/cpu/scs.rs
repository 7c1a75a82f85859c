// SPDX-License-Identifier: MIT
//! Memory-mapped devices of the MPS2 machines: the system control space (SysTick
//! B3.3, SCB B3.2, DWT C1.8, FP control B3.2.20 of the Armv7-M ARM) and the CMSDK UART.
//! The register maps are here; the SysTick counter and CYCCNT are the machine's timers
//! (machine/timer.rs), the UART writes to the machine's console.

use super::*;

impl<T: CortexTiming> Cpu<T> {
    pub(super) fn io_read(&mut self, a: u32, size: u32) -> R<u32> {
        if (0x4000_0000..0x4003_0000).contains(&a) {
            if (0x4000_4000..0x4000_5000).contains(&a) {
                return Ok(match a & 0xfff {
                    0x008 => self.uart_ctrl,
                    0x010 => self.uart_bauddiv,
                    _ => 0, // DATA (no input), STATE (never full), INTSTATUS
                });
            }
            return Ok(0); // other APB/AHB peripherals: read as zero
        }
        if a >> 20 == 0xe00 {
            return Ok(self.scs_read(a & !3) >> ((a & 3) * 8) & mask(size));
        }
        Err(self.bus_fault(a, "read"))
    }

    pub(super) fn io_write(&mut self, a: u32, v: u32, size: u32) -> R<()> {
        if a < CODE_END {
            return Err(self.code_write_fault(a, size));
        }
        if (0x4000_0000..0x4003_0000).contains(&a) {
            if (0x4000_4000..0x4000_5000).contains(&a) {
                match a & 0xfff {
                    0x000 if self.uart_ctrl & 1 != 0 => {
                        self.m.console.put(v as u8);
                    }
                    0x008 => self.uart_ctrl = v & 0x7f,
                    0x010 => self.uart_bauddiv = v & 0xf_ffff,
                    _ => {}
                }
            }
            return Ok(());
        }
        if a >> 20 == 0xe00 {
            let v = if size == 4 { v } else { v << ((a & 3) * 8) };
            self.scs_write(a & !3, v);
            return Ok(());
        }
        Err(self.bus_fault(a, "write"))
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
        self.systick.tick(self.m.cycles);
    }

    #[inline(always)]
    pub fn next_event(&self) -> u64 {
        self.systick.next_irq
    }

    /// DWT CYCCNT: counts while DWT_CTRL.CYCCNTENA and DEMCR.TRCENA are set.
    pub(super) fn cyccnt(&self) -> u32 {
        let running = self.dwt_ctrl & 1 != 0 && self.demcr & (1 << 24) != 0;
        self.cyccnt.value(self.m.cycles, running)
    }

    pub(super) fn scs_read(&mut self, a: u32) -> u32 {
        match a {
            // COUNTFLAG clears on read
            0xe000_e010 => self.systick.read_csr(self.m.cycles),
            0xe000_e014 => self.systick.rvr,
            0xe000_e018 => self.systick.value(self.m.cycles),
            0xe000_e01c => 0,
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
            0xe000_e010 => self.systick.write_csr(self.m.cycles, v),
            0xe000_e014 => self.systick.write_rvr(self.m.cycles, v),
            // any write clears the counter and COUNTFLAG; reload happens on the next tick
            0xe000_e018 => self.systick.write_cvr(self.m.cycles),
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
