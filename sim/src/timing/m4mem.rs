// SPDX-License-Identifier: MIT
//! Memory set-up of the Cortex-M4 model (`pqlab-sim --machine mps2-an386 --memory stm32l4r5`):
//! the memory blocks of pqm4's benchmark board, a NUCLEO-L4R5ZI (STM32L4R5ZI), for the rule
//! that loads and stores pipeline only within one block (m4-v7, `CortexM4<true>` in
//! timing/cortex_m.rs; docs/sim.md "Model m4-v7").
//!
//! The board's blocks:
//! - flash, read by the core's I-code/D-code bus through the ART accelerator: the machine's
//!   code region below 0x2000_0000 (vector table, code, constants);
//! - SRAM1 (192 KiB at 0x2000_0000), SRAM2 (64 KiB at 0x2003_0000), SRAM3 (384 KiB at
//!   0x2004_0000), one contiguous range of 640 KiB: pqm4's `ldscripts/nucleo-l4r5zi-ramtest.ld`
//!   (regions `ram`, `ram2`, `ram3`) and `ldscripts/devices.data` (`stm32l4r5zi ... RAM=256K
//!   RAM3=384K`), pqm4-cc2c1b9; pqm4 pull request #193 ("The board has three SRAMs, all in one
//!   continuous address space: SRAM1: 192KB, SRAM2: 64KB, SRAM3: 384KB"). That they are three
//!   slaves of the bus matrix is taken from ST's reference manuals of the same family (RM0351,
//!   STM32L47x/49x: "Internal SRAM1" and "Internal SRAM2" are separate slaves of the
//!   multilayer AHB bus matrix); RM0432 (STM32L4R/S) itself was not available here;
//! - everything else (peripherals, the MPS2's other memories): one more block.
//!
//! Where the machine's RAM holds the board's: pqm4's board linker script
//! (`ldscripts/nucleo-l4r5zi.ld`) puts .data and .bss at the bottom of the 640 KiB and the
//! stack at its top (`_stack = ORIGIN(ram) + LENGTH(ram)`, 0x200A_0000); pqm4's (and pqlab's)
//! MPS2 linker scripts put .data and .bss at 0x2000_0000 too and the stack at the top of the
//! 4 MiB RAM (0x2040_0000). So an address in the 640 KiB below 0x2040_0000 is a stack address
//! and lies on the board as far below 0x200A_0000 (SRAM3 for the first 384 KiB, then SRAM2,
//! then SRAM1); any other RAM address is where it is (SRAM1 from 0x2000_0000, ...).

/// Blocks (`block`): the board's flash, its three SRAMs, anything else.
pub const FLASH: u8 = 0;
pub const SRAM1: u8 = 1;
pub const SRAM2: u8 = 2;
pub const SRAM3: u8 = 3;
pub const OTHER: u8 = 4;

/// The board's RAM: SRAM1, SRAM2, SRAM3 back to back from 0x2000_0000.
const RAM: u32 = 0x2000_0000;
const SRAM2_AT: u32 = RAM + (192 << 10);
const SRAM3_AT: u32 = RAM + (256 << 10);
const RAM_END: u32 = RAM + (640 << 10);
/// The machine's stack top (top of the MPS2's 4 MiB RAM) and the window below it that holds
/// the board's 640 KiB counted from the top.
const STACK_TOP: u32 = 0x2040_0000;
const STACK_WINDOW: u32 = STACK_TOP - (640 << 10);

/// The board block of a data address on the machine.
#[inline(always)]
pub fn block(a: u32) -> u8 {
    if a < RAM {
        return FLASH;
    }
    // a stack address: its place below the board's stack top
    let b = if (STACK_WINDOW..STACK_TOP).contains(&a) {
        a - STACK_WINDOW + RAM
    } else {
        a
    };
    if b < SRAM2_AT {
        SRAM1
    } else if b < SRAM3_AT {
        SRAM2
    } else if b < RAM_END {
        SRAM3
    } else {
        OTHER
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_of_the_board() {
        // code region: flash
        assert_eq!(block(0x0000_1234), FLASH);
        // .data/.bss from the bottom of RAM
        assert_eq!(block(0x2000_0000), SRAM1);
        assert_eq!(block(0x2002_ffff), SRAM1);
        assert_eq!(block(0x2003_0000), SRAM2);
        assert_eq!(block(0x2004_0000), SRAM3);
        assert_eq!(block(0x2009_ffff), SRAM3);
        // beyond the board's 640 KiB, below the stack window
        assert_eq!(block(0x200a_0000), OTHER);
        assert_eq!(block(0x2035_ffff), OTHER);
        // the stack: 384 KiB of SRAM3 below the top, then 64 KiB of SRAM2, then SRAM1
        assert_eq!(block(0x203f_fffc), SRAM3);
        assert_eq!(block(0x203a_0000), SRAM3);
        assert_eq!(block(0x2039_ffff), SRAM2);
        assert_eq!(block(0x2039_0000), SRAM2);
        assert_eq!(block(0x2038_ffff), SRAM1);
        assert_eq!(block(0x2036_0000), SRAM1);
        // the RAM alias, PSRAM, peripherals
        assert_eq!(block(0x2040_0000), OTHER);
        assert_eq!(block(0x4000_4000), OTHER);
    }
}
