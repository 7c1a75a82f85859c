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

pub const KECCAK_BASE: u32 = 0x1000_1000;
pub const KECCAK_SLOT: u8 = 1;
/// slot 1 of tb_top: the NTT unit (ntt_acc.rs, hw/accel/ntt/ntt_obi.sv); the same timing rule,
/// its CTRL store reporting the started operation's busy cycles
pub const NTT_SLOT: u8 = 2;
/// cycles the unit is busy after a start: one round per cycle (keccak_f1600.sv)
pub const KECCAK_BUSY: u64 = 24;
const KECCAK_CTRL: u32 = 50;

/// FIPS 202 round constants RC[i_r] (Algorithms 5 and 6: bit 2^j - 1 of RC is rc(j + 7 i_r)).
fn round_constants() -> [u64; 24] {
    let rc_bit = |t: u32| -> u64 {
        let mut r: u32 = 1;
        for _ in 0..t % 255 {
            r <<= 1;
            if r & 0x100 != 0 {
                r ^= 0x171;
            }
        }
        (r & 1) as u64
    };
    let mut out = [0u64; 24];
    for (ir, o) in out.iter_mut().enumerate() {
        for j in 0..7 {
            *o |= rc_bit(j + 7 * ir as u32) << ((1u32 << j) - 1);
        }
    }
    out
}

/// Keccak-f[1600] (FIPS 202 Algorithm 7) on lanes x + 5y.
pub fn keccak_f1600(a: &mut [u64; 25]) {
    let rc = round_constants();
    // rho offsets (Algorithm 2)
    let mut rho = [0u32; 25];
    let (mut x, mut y) = (1usize, 0usize);
    for t in 0..24u32 {
        rho[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64;
        let nx = y;
        y = (2 * x + 3 * y) % 5;
        x = nx;
    }
    for r in rc.iter() {
        let mut c = [0u64; 5];
        for x in 0..5 {
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        }
        let mut b = [0u64; 25];
        for x in 0..5 {
            let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
            for y in 0..5 {
                b[y + 5 * ((2 * x + 3 * y) % 5)] = (a[x + 5 * y] ^ d).rotate_left(rho[x + 5 * y]);
            }
        }
        for y in 0..5 {
            for x in 0..5 {
                a[x + 5 * y] = b[x + 5 * y] ^ (!b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
            }
        }
        a[0] ^= r;
    }
}

#[derive(Default)]
pub struct Keccak {
    state: [u64; 25],
}

/// What an access to an accelerator did (for the timing model): its slot (0: none) and the
/// cycles the unit is busy when the access started it (0: it did not). The one timing rule of
/// every slot: the model holds the slot's later accesses until it is free.
#[derive(Clone, Copy, Default)]
pub struct Touch {
    pub slot: u8,
    pub busy: u64,
}

impl Keccak {
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

#[cfg(test)]
mod tests {
    #[test]
    fn zero_state() {
        let mut a = [0u64; 25];
        super::keccak_f1600(&mut a);
        // Keccak-f[1600] of the zero state, lanes 0 and 24 (FIPS 202 test values, XKCP)
        assert_eq!(a[0], 0xF1258F7940E1DDE7);
        assert_eq!(a[24], 0xEAF1FF7B5CECA249);
    }
}
