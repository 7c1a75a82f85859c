// SPDX-License-Identifier: MIT
//! pqlab's accelerators on the data port of the CV32E40P test bench (hw/accel/, the
//! `cv32e40p-acc` machine, docs/accel.md): their registers and functions. Their timing (a
//! started unit is busy; an access to it waits until it is free) is the timing model's
//! (timing/cv32e40p.rs, `Event::acc`).
//!
//! The slots are tb_top.sv's (slot k there is `Touch::slot` k + 1 here, 0 meaning none).
//! Slot 0, the Keccak-f[1600] unit (hw/accel/keccak/keccak_obi.sv): a 256-byte window at
//! 0x10001000, word 0..49 the 200-byte state as little-endian words (lane x + 5y), word 50
//! CTRL (a write starts the permutation, a read returns 0); 32-bit accesses only.

use crate::machine::summary::keccak_f1600;

pub const KECCAK_BASE: u32 = 0x1000_1000;
pub const KECCAK_SLOT: u8 = 1;
/// slot 1 of tb_top: the NTT unit (ntt_acc.rs, hw/accel/ntt/ntt_obi.sv); the same timing rule,
/// its CTRL store reporting the started operation's busy cycles
pub const NTT_SLOT: u8 = 2;
/// the Keccak unit of the custom instructions (hw/accel/keccak/keccak_insn.sv inside the
/// patched core's EX stage; decode.rs `Kxw`..`Kperm`): a unit of its own, not slot 0's, with the
/// same timing rule (an instruction waits in EX until it is free); its `Touch` slot
pub const KECCAK_INSN_SLOT: u8 = 3;
/// cycles the unit is busy after a start: one round per cycle (keccak_f1600.sv)
pub const KECCAK_BUSY: u64 = 24;
const KECCAK_CTRL: u32 = 50;

#[derive(Default)]
pub struct Keccak {
    state: [u64; 25],
}

/// What an access to an accelerator did (for the timing model): its slot (0: none), the
/// cycles the unit is busy when the access started it (0: it did not), and for a posted write
/// (the NTT unit's writes of A, B and SCALE, since h71) the cycles it stays in the unit's write
/// pipeline (0: not one). The one timing rule of every slot: the model holds the slot's later
/// accesses until it is free; an access that is not a posted write also waits for the posted
/// writes before it.
#[derive(Clone, Copy, Default)]
pub struct Touch {
    pub slot: u8,
    pub busy: u64,
    pub posted: u64,
}

impl Keccak {
    /// Word `w` (0..63) for the custom instructions: words 50..63 read as 0.
    pub fn word(&self, w: u32) -> u32 {
        if w >= 50 {
            return 0;
        }
        let lane = self.state[(w / 2) as usize];
        (lane >> (32 * (w & 1))) as u32
    }

    /// Set word `w` (0..63) for the custom instructions: words 50..63 ignore writes.
    pub fn set_word(&mut self, w: u32, v: u32) {
        if w >= 50 {
            return;
        }
        let lane = &mut self.state[(w / 2) as usize];
        let sh = 32 * (w & 1);
        *lane = (*lane & !(0xffff_ffffu64 << sh)) | (v as u64) << sh;
    }

    /// Keccak-f[1600] on the state (kperm).
    pub fn permute(&mut self) {
        keccak_f1600(&mut self.state);
    }

    /// true when `a` is in the window
    pub fn selects(a: u32) -> bool {
        a >> 8 == KECCAK_BASE >> 8
    }

    /// A 32-bit read at offset `off` of the window; None: not a register.
    pub fn read(&self, off: u32) -> Option<u32> {
        let w = off / 4;
        if off & 3 != 0 || w > KECCAK_CTRL {
            return None;
        }
        if w == KECCAK_CTRL {
            return Some(0);
        }
        let lane = self.state[(w / 2) as usize];
        Some(if w & 1 == 0 {
            lane as u32
        } else {
            (lane >> 32) as u32
        })
    }

    /// A 32-bit write; None: not a register; Some(true): started the permutation.
    pub fn write(&mut self, off: u32, v: u32) -> Option<bool> {
        let w = off / 4;
        if off & 3 != 0 || w > KECCAK_CTRL {
            return None;
        }
        if w == KECCAK_CTRL {
            keccak_f1600(&mut self.state);
            return Some(true);
        }
        let lane = &mut self.state[(w / 2) as usize];
        *lane = if w & 1 == 0 {
            (*lane & !0xffff_ffff) | v as u64
        } else {
            (*lane & 0xffff_ffff) | (v as u64) << 32
        };
        Some(false)
    }
}

/// The unit's window in the memory map (machine/bus.rs).
pub const KECCAK_WINDOW: crate::machine::bus::Window = crate::machine::bus::Window {
    base: KECCAK_BASE,
    size: 0x100,
};

/// The unit on the bus: aligned 32-bit accesses only (a split or narrower access is refused:
/// a bus fault, as on the RTL); a write of CTRL keeps it busy for `KECCAK_BUSY` cycles.
impl crate::machine::bus::Device for Keccak {
    fn read(
        &mut self,
        _m: &mut crate::machine::Machine,
        off: u32,
        width: u32,
    ) -> Result<u32, crate::machine::bus::Refused> {
        if width != 4 {
            return Err(crate::machine::bus::Refused);
        }
        Keccak::read(self, off).ok_or(crate::machine::bus::Refused)
    }

    fn write(
        &mut self,
        _m: &mut crate::machine::Machine,
        off: u32,
        width: u32,
        v: u32,
    ) -> Result<u64, crate::machine::bus::Refused> {
        if width != 4 {
            return Err(crate::machine::bus::Refused);
        }
        match Keccak::write(self, off, v) {
            Some(started) => Ok(if started { KECCAK_BUSY } else { 0 }),
            None => Err(crate::machine::bus::Refused),
        }
    }
}
