// SPDX-License-Identifier: MIT
//! Timers clocked by the core's cycles, kept as formulas of the clock rather than ticked
//! per instruction: a down-counting timer with reload, count flag and interrupt (the
//! Armv7-M SysTick, B3.3 of the Armv7-M ARM, has exactly this behaviour) and a free-running
//! cycle counter with an enable (the DWT's CYCCNT, C1.8). The front end maps their
//! registers (arm/cpu/scs.rs) and takes the interrupt; the run loops ask for the next event
//! (machine/run.rs). The down counter is a `Device` (machine/bus.rs) with SysTick's registers.

use super::bus::{Device, Refused};
use super::Machine;

/// A down counter stepping once per cycle from `base_val` at `base_cycle`, reloading from
/// `rvr` on the step after 0.
#[derive(Default)]
pub struct DownCounter {
    /// control: bit 0 enable, bit 1 interrupt enable, bit 2 clock source, bit 16 the count
    /// flag (SysTick CSR layout)
    pub csr: u32,
    /// reload value (24 bits)
    pub rvr: u32,
    base_cycle: u64,
    base_val: u32,
    /// zero crossings up to the last read of the count flag
    flag_zeros: u64,
    /// the cycle of the next interrupt (u64::MAX: none)
    pub next_irq: u64,
    /// the interrupt is pending
    pub pending: bool,
}

impl DownCounter {
    pub fn new() -> DownCounter {
        DownCounter {
            next_irq: u64::MAX,
            ..Default::default()
        }
    }

    pub fn enabled(&self) -> bool {
        self.csr & 1 != 0
    }

    /// Zero crossings of the counter in (base_cycle, now]. The counter holds `base_val` at
    /// the base cycle, steps down once per cycle and reloads from RVR on the step after 0;
    /// reloading from 0 is not a crossing.
    fn zeros(&self, now: u64) -> u64 {
        if !self.enabled() {
            return 0;
        }
        let el = now - self.base_cycle;
        let first = self.base_val as u64;
        let period = self.rvr as u64 + 1;
        if first == 0 {
            if self.rvr == 0 {
                return 0;
            }
            // crossings at period, 2*period, ...
            return el / period;
        }
        if el < first {
            return 0;
        }
        if self.rvr == 0 {
            return 1;
        }
        1 + (el - first) / period
    }

    /// The counter's value at `now`.
    pub fn value(&self, now: u64) -> u32 {
        if !self.enabled() {
            return self.base_val;
        }
        let el = now - self.base_cycle;
        let first = self.base_val as u64;
        if el <= first {
            return (first - el) as u32;
        }
        if self.rvr == 0 {
            return 0;
        }
        let period = self.rvr as u64 + 1;
        let k = (el - first - 1) % period;
        self.rvr - k as u32
    }

    fn rebase(&mut self, now: u64) {
        let val = self.value(now);
        let z = self.zeros(now);
        let flag = z > self.flag_zeros;
        self.base_cycle = now;
        self.base_val = val;
        self.flag_zeros = 0;
        if flag {
            self.csr |= 1 << 16;
        }
        self.schedule(now);
    }

    fn schedule(&mut self, now: u64) {
        self.next_irq = u64::MAX;
        if self.enabled() && self.csr & 2 != 0 {
            let z = self.zeros(now);
            // time of crossing number z+1 (see zeros)
            let first = self.base_val as u64;
            let period = self.rvr as u64 + 1;
            if self.rvr == 0 && (first == 0 || z >= 1) {
                return;
            }
            let t = if first == 0 {
                (z + 1) * period
            } else {
                first + z * period
            };
            self.next_irq = self.base_cycle + t.max(1);
        }
    }

    /// Read of the control register: the count flag clears on read.
    pub fn read_csr(&mut self, now: u64) -> u32 {
        let z = self.zeros(now);
        let mut v = self.csr;
        if z > self.flag_zeros {
            v |= 1 << 16;
        }
        self.flag_zeros = z;
        self.csr &= !(1 << 16);
        v
    }

    pub fn write_csr(&mut self, now: u64, v: u32) {
        self.rebase(now);
        let flag = self.csr & (1 << 16);
        self.csr = (v & 7) | flag;
        self.base_cycle = now;
        self.flag_zeros = 0;
        self.schedule(now);
    }

    pub fn write_rvr(&mut self, now: u64, v: u32) {
        self.rebase(now);
        self.rvr = v & 0xff_ffff;
        self.schedule(now);
    }

    /// Any write of the current value clears it and the count flag; the reload happens on
    /// the next step.
    pub fn write_cvr(&mut self, now: u64) {
        self.base_cycle = now;
        self.base_val = 0;
        self.flag_zeros = 0;
        self.csr &= !(1 << 16);
        self.schedule(now);
    }

    /// Called when the clock reaches `next_irq`: the interrupt becomes pending.
    #[inline]
    pub fn tick(&mut self, now: u64) {
        if now >= self.next_irq {
            self.pending = true;
            self.schedule(now);
        }
    }
}

/// SysTick's registers (B3.3.2: CSR, RVR, CVR, CALIB at offsets 0, 4, 8, 12 of its window;
/// word accesses, the system control space aligns them) on the machine's clock.
impl Device for DownCounter {
    fn read(&mut self, m: &mut Machine, off: u32, _width: u32) -> Result<u32, Refused> {
        Ok(match off {
            // COUNTFLAG clears on read
            0 => self.read_csr(m.cycles),
            4 => self.rvr,
            8 => self.value(m.cycles),
            _ => 0, // CALIB: no reference clock, no calibration value
        })
    }

    fn write(&mut self, m: &mut Machine, off: u32, _width: u32, v: u32) -> Result<u64, Refused> {
        match off {
            0 => self.write_csr(m.cycles, v),
            4 => self.write_rvr(m.cycles, v),
            // any write clears the counter and COUNTFLAG; reload happens on the next tick
            8 => self.write_cvr(m.cycles),
            _ => {}
        }
        Ok(0)
    }

    fn next_event(&self) -> u64 {
        self.next_irq
    }

    fn tick(&mut self, now: u64) {
        DownCounter::tick(self, now)
    }
}

/// A 32-bit cycle counter that runs while enabled: `base` at cycle `start`.
#[derive(Default)]
pub struct CycleCounter {
    base: u32,
    start: u64,
}

impl CycleCounter {
    pub fn value(&self, now: u64, running: bool) -> u32 {
        if running {
            self.base.wrapping_add(now.wrapping_sub(self.start) as u32)
        } else {
            self.base
        }
    }

    /// Restart from `v` at `now` (a write of the counter, or a change of its enables with
    /// `v` its value before the change).
    pub fn set(&mut self, now: u64, v: u32) {
        self.base = v;
        self.start = now;
    }
}
