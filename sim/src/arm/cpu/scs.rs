// SPDX-License-Identifier: MIT
//! Memory-mapped devices of the MPS2 machines: the system control space (SysTick
//! B3.3, SCB B3.2, DWT C1.8, FP control B3.2.20 of the Armv7-M ARM) and the CMSDK UART.

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

    pub(super) fn st_enabled(&self) -> bool {
        self.st_csr & 1 != 0
    }

    /// Zero crossings of the SysTick counter in (st_base_cycle, now]. The
    /// counter holds `st_base_val` at the base cycle, steps down once per
    /// cycle and reloads from RVR on the step after 0; reloading from 0 is not
    /// a crossing.
    pub(super) fn st_zeros(&self, now: u64) -> u64 {
        if !self.st_enabled() {
            return 0;
        }
        let el = now - self.st_base_cycle;
        let first = self.st_base_val as u64;
        let period = self.st_rvr as u64 + 1;
        if first == 0 {
            if self.st_rvr == 0 {
                return 0;
            }
            // crossings at period, 2*period, ...
            return el / period;
        }
        if el < first {
            return 0;
        }
        if self.st_rvr == 0 {
            return 1;
        }
        1 + (el - first) / period
    }

    pub(super) fn st_value(&self) -> u32 {
        if !self.st_enabled() {
            return self.st_base_val;
        }
        let el = self.m.cycles - self.st_base_cycle;
        let first = self.st_base_val as u64;
        if el <= first {
            return (first - el) as u32;
        }
        if self.st_rvr == 0 {
            return 0;
        }
        let period = self.st_rvr as u64 + 1;
        let k = (el - first - 1) % period;
        self.st_rvr - k as u32
    }

    pub(super) fn st_rebase(&mut self) {
        let val = self.st_value();
        let z = self.st_zeros(self.m.cycles);
        let flag = z > self.st_flag_zeros;
        self.st_base_cycle = self.m.cycles;
        self.st_base_val = val;
        self.st_flag_zeros = 0;
        if flag {
            self.st_csr |= 1 << 16;
        }
        self.st_schedule();
    }

    pub(super) fn st_schedule(&mut self) {
        self.st_next_irq = u64::MAX;
        if self.st_enabled() && self.st_csr & 2 != 0 {
            let z = self.st_zeros(self.m.cycles);
            // time of crossing number z+1 (see st_zeros)
            let first = self.st_base_val as u64;
            let period = self.st_rvr as u64 + 1;
            if self.st_rvr == 0 && (first == 0 || z >= 1) {
                return;
            }
            let t = if first == 0 {
                (z + 1) * period
            } else {
                first + z * period
            };
            self.st_next_irq = self.st_base_cycle + t.max(1);
        }
    }

    /// WFI: the core sleeps until the next SysTick interrupt when one is due (the clock
    /// jumps there).
    pub(super) fn wait_for_interrupt(&mut self) {
        if !self.systick_pending && self.st_next_irq != u64::MAX && self.primask & 1 == 0 {
            self.m.cycles = self.m.cycles.max(self.st_next_irq);
        }
    }

    /// Called when cycles reach st_next_irq.
    pub fn st_tick(&mut self) {
        if self.m.cycles >= self.st_next_irq {
            self.systick_pending = true;
            self.st_schedule();
        }
    }

    pub fn next_event(&self) -> u64 {
        self.st_next_irq
    }

    pub(super) fn cyccnt(&self) -> u32 {
        if self.dwt_ctrl & 1 != 0 && self.demcr & (1 << 24) != 0 {
            self.cyc_base
                .wrapping_add(self.m.cycles.wrapping_sub(self.cyc_start) as u32)
        } else {
            self.cyc_base
        }
    }

    pub(super) fn scs_read(&mut self, a: u32) -> u32 {
        match a {
            0xe000_e010 => {
                let z = self.st_zeros(self.m.cycles);
                let mut v = self.st_csr;
                if z > self.st_flag_zeros {
                    v |= 1 << 16;
                }
                // COUNTFLAG clears on read
                self.st_flag_zeros = z;
                self.st_csr &= !(1 << 16);
                v
            }
            0xe000_e014 => self.st_rvr,
            0xe000_e018 => self.st_value(),
            0xe000_e01c => 0,
            0xe000_ed00 => match self.core {
                Core::M4 => 0x410f_c241,
                Core::M7 => 0x411f_c272,
            },
            0xe000_ed04 => {
                let mut v = self.ipsr & 0x1ff;
                if self.systick_pending {
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
        match a {
            0xe000_e010 => {
                self.st_rebase();
                let flag = self.st_csr & (1 << 16);
                self.st_csr = (v & 7) | flag;
                self.st_base_cycle = self.m.cycles;
                self.st_flag_zeros = 0;
                self.st_schedule();
            }
            0xe000_e014 => {
                self.st_rebase();
                self.st_rvr = v & 0xff_ffff;
                self.st_schedule();
            }
            0xe000_e018 => {
                // any write clears the counter and COUNTFLAG; reload happens on the next tick
                self.st_base_cycle = self.m.cycles;
                self.st_base_val = 0;
                self.st_flag_zeros = 0;
                self.st_csr &= !(1 << 16);
                self.st_schedule();
            }
            0xe000_ed04 => {
                if v & (1 << 25) != 0 {
                    self.systick_pending = false;
                }
                if v & (1 << 26) != 0 {
                    self.systick_pending = true;
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
                self.cyc_base = was;
                self.cyc_start = self.m.cycles;
            }
            0xe000_ef34 => self.fpccr = (v & 0xc000_0000) | (self.fpccr & 0x3fff_ffff),
            0xe000_ef38 => self.fpcar = v & !7,
            0xe000_ef3c => self.fpdscr = v & 0x07c0_0000,
            0xe000_1000 => {
                let was = self.cyccnt();
                self.dwt_ctrl = (self.dwt_ctrl & 0xf000_0000) | (v & 0x0fff_ffff);
                self.cyc_base = was;
                self.cyc_start = self.m.cycles;
            }
            0xe000_1004 => {
                self.cyc_base = v;
                self.cyc_start = self.m.cycles;
            }
            _ => {}
        }
    }
}
