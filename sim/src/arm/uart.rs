// SPDX-License-Identifier: MIT
//! UART0 of the MPS2 machines: the CMSDK APB UART (Arm CoreLink SDK-101 TRM, "APB UART"),
//! as far as firmware that only transmits uses it: DATA (0x000) sends a character to the
//! machine's console when CTRL's transmit enable (bit 0) is set, CTRL (0x008) and BAUDDIV
//! (0x010) read back; DATA, STATE and INTSTATUS read as zero (no input, never full).

use crate::machine::bus::{Device, Refused};
use crate::machine::Machine;

#[derive(Default)]
pub struct Uart {
    ctrl: u32,
    bauddiv: u32,
}

impl Device for Uart {
    fn read(&mut self, _m: &mut Machine, off: u32, _width: u32) -> Result<u32, Refused> {
        Ok(match off {
            0x008 => self.ctrl,
            0x010 => self.bauddiv,
            _ => 0, // DATA (no input), STATE (never full), INTSTATUS
        })
    }

    fn write(&mut self, m: &mut Machine, off: u32, _width: u32, v: u32) -> Result<u64, Refused> {
        match off {
            0x000 if self.ctrl & 1 != 0 => m.console.put(v as u8),
            0x008 => self.ctrl = v & 0x7f,
            0x010 => self.bauddiv = v & 0xf_ffff,
            _ => {}
        }
        Ok(0)
    }
}
