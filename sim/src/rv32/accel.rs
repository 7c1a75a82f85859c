// SPDX-License-Identifier: MIT
//! pqlab's accelerators on the CV32E40P (the `cv32e40p-acc` machine, docs/accel.md): the
//! Keccak-f[1600] unit of the patched core's custom instructions (hw/accel/keccak/keccak_insn.sv;
//! decode.rs `Kxw`..`Kperm`, its state in `Hart::kinsn`) and the `Touch` every unit reports to
//! the timing model. The NTT unit on the data port is ntt_acc.rs. Their timing (a started unit
//! is busy; an access to it waits until it is free) is the timing model's
//! (timing/cv32e40p.rs, `Event::acc`).
//!
//! `Touch::slot` numbers the units for the timing model (0 meaning none): the NTT unit (slot 0
//! of tb_top.sv's data-port slots) and the instructions' Keccak unit.

use crate::machine::summary::keccak_f1600;

/// slot 0 of tb_top: the NTT unit (ntt_acc.rs, hw/accel/ntt/ntt_obi.sv), its CTRL store
/// reporting the started operation's busy cycles
pub const NTT_SLOT: u8 = 1;
/// the Keccak unit of the custom instructions (hw/accel/keccak/keccak_insn.sv inside the
/// patched core's EX stage), with the same timing rule (an instruction waits in EX until it is
/// free); its `Touch` slot
pub const KECCAK_INSN_SLOT: u8 = 2;
/// cycles the unit is busy after a start: one round per cycle (keccak_f1600.sv)
pub const KECCAK_BUSY: u64 = 24;

/// The state of the Keccak unit: 25 lanes (x + 5y), 50 words for the instructions (word 2i the
/// low half of lane i).
#[derive(Default)]
pub struct Keccak {
    state: [u64; 25],
}

/// What an instruction did to an accelerator (for the timing model): the unit (0: none), the
/// cycles it is busy when the instruction started it (0: it did not), and for a posted write
/// (the NTT unit's writes of A, B and SCALE, since h71) the cycles it stays in the unit's write
/// pipeline (0: not one). The one timing rule of every unit: the model holds the unit's later
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
}
