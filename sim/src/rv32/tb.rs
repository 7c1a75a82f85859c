// SPDX-License-Identifier: MIT
//! The register block of pqlab's CV32E40P test bench at 0x10000000 (hw/cv32e40p/tb_top.sv,
//! docs/cv32e40p.md), a `Device` (machine/bus.rs) of the rv32 machines' memory map: word 0
//! console (a store prints its low byte), 1 exit (a store ends the run with its low byte as
//! the exit code), 2 input (a load returns the next byte of `pqlab.in` in the working
//! directory, 0x100 at its end, 0x200 when there is none), 3 and 4 the stack guard's low and
//! high bound (the hart's stores into [low, high) fault: rv32/hart.rs `store_n`). The other
//! words of the block refuse (bus fault).

use super::ntt_acc::NTT_WINDOW;
use crate::machine::bus::{Device, Kind, MemoryMap, Refused, Region, Window};
use crate::machine::{Machine, Stop};
use std::io::Read;

pub const TB: Window = Window {
    base: 0x1000_0000,
    size: 0x20,
};

#[derive(Default)]
pub struct TestBench {
    pub guard_lo: u32,
    pub guard_hi: u32,
    /// `pqlab.in`, opened at the first read of the input register (None inside: no file)
    input: Option<Option<std::fs::File>>,
}

impl TestBench {
    fn input_byte(&mut self) -> u32 {
        let f = self
            .input
            .get_or_insert_with(|| std::fs::File::open("pqlab.in").ok());
        match f {
            None => 0x200,
            Some(f) => {
                let mut b = [0u8; 1];
                match f.read(&mut b) {
                    Ok(1) => b[0] as u32,
                    _ => 0x100,
                }
            }
        }
    }
}

impl Device for TestBench {
    fn read(&mut self, _m: &mut Machine, off: u32, _width: u32) -> Result<u32, Refused> {
        match off >> 2 {
            2 => Ok(self.input_byte()),
            0..=4 => Ok(0), // write-only registers
            _ => Err(Refused),
        }
    }

    fn write(&mut self, m: &mut Machine, off: u32, _width: u32, v: u32) -> Result<u64, Refused> {
        match off >> 2 {
            0 => m.console.put(v as u8),
            1 => {
                m.console.flush();
                m.stop = Some(Stop::Exit((v & 0xff) as i32));
            }
            2 => {}
            3 => self.guard_lo = v,
            4 => self.guard_hi = v,
            _ => return Err(Refused),
        }
        Ok(0)
    }
}

/// The memory map of the test bench (`acc`: with the accelerator units of cv32e40p-acc):
/// code (ROM) 0x1000-0x1fffff, RAM 0x200000-0x7fffff, the register block, the units.
pub fn map(machine: &str, acc: bool) -> MemoryMap {
    use super::hart::{MEM_END, RAM_BASE, ROM_BASE};
    let r = Region::new;
    let mut regions = vec![
        r("code (ROM)", ROM_BASE, RAM_BASE - ROM_BASE, Kind::Code),
        r("RAM", RAM_BASE, MEM_END - RAM_BASE, Kind::Ram),
        TB.region("test bench registers (console, exit, input, stack guard)"),
    ];
    if acc {
        regions.push(NTT_WINDOW.region("NTT unit (slot 0)"));
    }
    MemoryMap {
        machine: machine.to_string(),
        regions,
    }
}
