// SPDX-License-Identifier: MIT
//! The bus of a simulated machine: its memory map (`MemoryMap`: the regions of code memory,
//! RAM and device windows, which the ELF checks of elf.rs and the loaders use) and the
//! `Device` trait of everything in a device window (the MPS2 UART, the SysTick timer, the
//! CV32E40P test bench's console register block, the accelerator units).
//!
//! The fast path stays static: each front end decodes the memory regions of its map in an
//! inlined function (arm/mem.rs `Mem::slot`, rv32/hart.rs `load_n`/`store_n`) with the map's
//! constants, so a RAM or code access is a few compares and an indexed load, with no
//! dynamic dispatch. Only an access that misses every memory region reaches the devices, on
//! a cold path: the front end finds the window (`Window::offset`) and calls its `Device`.

use super::Machine;

/// What a region of the address space holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// code memory: the core fetches and reads it, its stores there fault (flash on a
    /// board, the test bench's ROM); only the ELF loader writes it
    Code,
    /// read/write memory
    Ram,
    /// a device's register window (a `Device`)
    Device,
    /// registers of the core itself (the Armv7-M system control space on the private
    /// peripheral bus: SCB, SysTick, DWT, FP control), decoded by the front end
    Core,
}

/// One region of the address space: `size` bytes from `base` (aliases of a smaller memory
/// included: the region decodes the whole range).
#[derive(Clone, Copy, Debug)]
pub struct Region {
    pub name: &'static str,
    pub base: u32,
    pub size: u32,
    pub kind: Kind,
}

impl Region {
    pub const fn new(name: &'static str, base: u32, size: u32, kind: Kind) -> Region {
        Region {
            name,
            base,
            size,
            kind,
        }
    }

    /// The end address (exclusive), as u64 so that a region may end at 4 GiB.
    pub fn end(&self) -> u64 {
        self.base as u64 + self.size as u64
    }

    /// `len` bytes from `a` lie inside the region.
    pub fn holds(&self, a: u32, len: u64) -> bool {
        a >= self.base && a as u64 + len <= self.end()
    }
}

/// The memory map of a machine: its regions in address order (they do not overlap).
pub struct MemoryMap {
    /// the machine's name (--machine)
    pub machine: String,
    pub regions: Vec<Region>,
}

impl MemoryMap {
    /// The region holding the address `a`.
    pub fn region(&self, a: u32) -> Option<&Region> {
        self.regions.iter().find(|r| r.holds(a, 1))
    }

    /// The memory region (code or RAM) that holds all `len` bytes from `a` (len 0: the
    /// byte at `a`).
    pub fn memory(&self, a: u32, len: u64) -> Option<&Region> {
        self.regions
            .iter()
            .find(|r| matches!(r.kind, Kind::Code | Kind::Ram) && r.holds(a, len.max(1)))
    }
}

/// One line per region: its address range, kind and name.
impl std::fmt::Display for MemoryMap {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        for r in &self.regions {
            writeln!(
                f,
                "0x{:08x}-0x{:08x} {:<6} {}",
                r.base,
                r.end() - 1,
                match r.kind {
                    Kind::Code => "code",
                    Kind::Ram => "ram",
                    Kind::Device => "device",
                    Kind::Core => "core",
                },
                r.name
            )?;
        }
        Ok(())
    }
}

/// A device window: `size` bytes from `base`.
#[derive(Clone, Copy)]
pub struct Window {
    pub base: u32,
    pub size: u32,
}

impl Window {
    /// The offset of `a` in the window, if it is inside.
    #[inline]
    pub fn offset(&self, a: u32) -> Option<u32> {
        let o = a.wrapping_sub(self.base);
        if o < self.size {
            Some(o)
        } else {
            None
        }
    }

    pub fn region(&self, name: &'static str) -> Region {
        Region::new(name, self.base, self.size, Kind::Device)
    }
}

/// An access a device refuses (the front end reports its bus fault).
#[derive(Debug)]
pub struct Refused;

/// A memory-mapped device. Accesses come with the machine state (`Machine`: the clock, the
/// console, the stop reason: a device that ends the run sets `Machine::stop`, and the front
/// end checks it after the write). `off` is the offset in the device's window, `width` the
/// access's size in bytes (1, 2 or 4).
pub trait Device {
    fn read(&mut self, m: &mut Machine, off: u32, width: u32) -> Result<u32, Refused>;
    /// Ok(busy): the cycles the device is busy after this write (an accelerator's started
    /// operation; its later accesses wait that long: the core's timing model holds them),
    /// 0 when it is not.
    fn write(&mut self, m: &mut Machine, off: u32, width: u32, v: u32) -> Result<u64, Refused>;
    /// The cycle of the device's next event (u64::MAX: none scheduled).
    fn next_event(&self) -> u64 {
        u64::MAX
    }
    /// The clock reached `next_event`.
    fn tick(&mut self, _now: u64) {}
}

/// A window of registers that read as zero and ignore writes (the MPS2 APB peripherals
/// pqlab's firmware does not use).
pub struct ReadsZero;

impl Device for ReadsZero {
    fn read(&mut self, _m: &mut Machine, _off: u32, _width: u32) -> Result<u32, Refused> {
        Ok(0)
    }
    fn write(&mut self, _m: &mut Machine, _off: u32, _w: u32, _v: u32) -> Result<u64, Refused> {
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_and_windows() {
        let w = Window {
            base: 0x4000_4000,
            size: 0x1000,
        };
        assert_eq!(w.offset(0x4000_4008), Some(8));
        assert_eq!(w.offset(0x4000_3fff), None);
        assert_eq!(w.offset(0x4000_5000), None);
        let map = MemoryMap {
            machine: "t".into(),
            regions: vec![
                Region::new("code", 0, 0x1000, Kind::Code),
                w.region("uart"),
                Region::new("top", 0xffff_f000, 0x1000, Kind::Ram),
            ],
        };
        assert_eq!(map.memory(0xffc, 4).map(|r| r.name), Some("code"));
        assert!(map.memory(0xffe, 4).is_none());
        assert!(map.memory(0x4000_4000, 4).is_none());
        assert_eq!(map.region(0x4000_4000).map(|r| r.kind), Some(Kind::Device));
        assert_eq!(map.memory(0xffff_fffc, 4).map(|r| r.name), Some("top"));
    }
}
