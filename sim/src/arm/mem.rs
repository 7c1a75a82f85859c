// SPDX-License-Identifier: MIT
//! RAM regions of the MPS2 FPGA images as QEMU 7.2 models them
//! (`info mtree` of `-M mps2-an386` / `-M mps2-an500`):
//!   0x00000000 4 MiB SSRAM1 (aliased at 0x00400000)
//!   0x01000000 16 KiB block RAM aliased four times (AN386 only)
//!   0x20000000 4 MiB SSRAM2/3 (aliased at 0x20400000)
//!   0x21000000 16 MiB PSRAM (AN386) / 0x60000000 16 MiB (AN500)

//!
//! The code region (SSRAM1 and its alias, 0x00000000-0x007fffff) is RAM in QEMU
//! but stands for the flash of a real board, which does not accept plain stores:
//! the CPU's stores there are bus faults (`slot_w`); only the ELF loader writes it
//! (`load`).
//!
//! `map` gives these regions and the device windows as the machine's `MemoryMap`
//! (machine/bus.rs) for the ELF checks; `slot` decodes the memory regions inline.

use crate::machine::bus::{Kind, MemoryMap, Region, Window};

pub const CODE_SIZE: usize = 0x40_0000;
/// End of the code region including its alias: stores below this address fault.
pub const CODE_END: u32 = 0x80_0000;

/// Size of SSRAM2/3 (the data region, 0x20000000, aliased at 0x20400000).
pub const SRAM_SIZE: usize = 0x40_0000;

pub struct Mem {
    pub code: Vec<u8>,
    /// fixed size, so that the data fast path (`sram_at`) needs no length from memory
    pub sram: Box<[u8; SRAM_SIZE]>,
    pub block: Vec<u8>,
    pub psram: Vec<u8>,
    pub psram_base: u32,
    pub has_block: bool,
}

/// The UART0 window (CMSDK APB UART, arm/uart.rs).
pub const UART0: Window = Window {
    base: 0x4000_4000,
    size: 0x1000,
};
/// The APB peripherals around UART0 (0x40000000-0x4002ffff): they read as zero.
pub const APB: Window = Window {
    base: 0x4000_0000,
    size: 0x3_0000,
};
/// The SysTick window in the system control space (machine/timer.rs `DownCounter`).
pub const SYSTICK: Window = Window {
    base: 0xe000_e010,
    size: 0x10,
};

/// The memory map of the MPS2 machine (`an500`: AN500, else AN386).
pub fn map(an500: bool) -> MemoryMap {
    let r = Region::new;
    let psram_base = Mem::new_psram_base(an500);
    let mut regions = vec![r(
        "SSRAM1 (code, aliased at 0x00400000)",
        0,
        CODE_END,
        Kind::Code,
    )];
    if !an500 {
        regions.push(r(
            "block RAM (16 KiB aliased four times)",
            0x0100_0000,
            0x1_0000,
            Kind::Ram,
        ));
    }
    regions.push(r(
        "SSRAM2/3 (aliased at 0x20400000)",
        0x2000_0000,
        0x80_0000,
        Kind::Ram,
    ));
    if !an500 {
        regions.push(r("PSRAM", psram_base, 0x100_0000, Kind::Ram));
    }
    let uart_end = UART0.base + UART0.size;
    regions.push(r(
        "APB peripherals (read as zero)",
        APB.base,
        UART0.base - APB.base,
        Kind::Device,
    ));
    regions.push(UART0.region("UART0 (CMSDK)"));
    regions.push(r(
        "APB peripherals (read as zero)",
        uart_end,
        APB.base + APB.size - uart_end,
        Kind::Device,
    ));
    if an500 {
        regions.push(r("PSRAM", psram_base, 0x100_0000, Kind::Ram));
    }
    regions.push(r(
        "system control space (SCB, SysTick, DWT, FP)",
        0xe000_0000,
        0x10_0000,
        Kind::Core,
    ));
    MemoryMap {
        machine: if an500 { "mps2-an500" } else { "mps2-an386" }.to_string(),
        regions,
    }
}

impl Mem {
    fn new_psram_base(an500: bool) -> u32 {
        if an500 {
            0x6000_0000
        } else {
            0x2100_0000
        }
    }

    pub fn new(an500: bool) -> Mem {
        Mem {
            code: vec![0; CODE_SIZE],
            sram: vec![0u8; SRAM_SIZE]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!()),
            block: vec![0; 0x4000],
            psram: vec![0; 0x100_0000],
            psram_base: Mem::new_psram_base(an500),
            has_block: !an500,
        }
    }

    /// Backing slice and offset for `addr` with `n` bytes available, or None
    /// when the address is not RAM (peripheral, system or unmapped).
    #[inline(always)]
    pub fn slot(&mut self, addr: u32, n: u32) -> Option<(&mut [u8], usize)> {
        // SSRAM2/3 first, the target of most data accesses (the stack, .data, .bss): one
        // comparison instead of the walk over the regions below, the same slot; both paths
        // join before the one length check (checked before the join, the compiler no longer
        // knows the slot's length at the caller and checks every byte again)
        let o = addr.wrapping_sub(0x2000_0000);
        let (buf, off) = if o < 0x80_0000 {
            (&mut self.sram[..], (o & 0x3f_ffff) as usize)
        } else {
            match addr >> 24 {
                0x00 if addr < 0x80_0000 => (&mut self.code[..], (addr & 0x3f_ffff) as usize),
                0x01 if self.has_block && addr < 0x0101_0000 => {
                    (&mut self.block[..], (addr & 0x3fff) as usize)
                }
                _ if addr.wrapping_sub(self.psram_base) < 0x100_0000 => {
                    (&mut self.psram[..], (addr - self.psram_base) as usize)
                }
                _ => return None,
            }
        };
        if off + n as usize > buf.len() {
            return None;
        }
        Some((buf, off))
    }

    /// The data fast path: the offset in SSRAM2/3 of an `N`-byte access at `addr` that
    /// lies whole in it (the slot `slot` gives for such an access), else None (the caller
    /// then takes `slot`, whose result for every other address is unchanged).
    #[inline(always)]
    pub fn sram_at<const N: usize>(addr: u32) -> Option<usize> {
        let o = addr.wrapping_sub(0x2000_0000);
        let off = (o & 0x3f_ffff) as usize;
        if o < 0x80_0000 && off <= SRAM_SIZE - N {
            Some(off)
        } else {
            None
        }
    }

    /// Like `slot`, for a store by the CPU: the code region is not writable
    /// (None, and the caller reports the fault).
    #[inline(always)]
    pub fn slot_w(&mut self, addr: u32, n: u32) -> Option<(&mut [u8], usize)> {
        if addr < CODE_END {
            return None;
        }
        self.slot(addr, n)
    }

    /// The ELF loader's write of `data` at `addr`, the code region included;
    /// false when a byte does not fall into RAM of the machine.
    pub fn load(&mut self, addr: u32, data: &[u8]) -> bool {
        for (k, b) in data.iter().enumerate() {
            match self.slot(addr.wrapping_add(k as u32), 1) {
                Some((buf, o)) => buf[o] = *b,
                None => return false,
            }
        }
        true
    }
}
