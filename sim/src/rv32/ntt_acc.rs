// SPDX-License-Identifier: MIT
//! The NTT unit of hw/accel/ntt/ntt_unit.sv in slot 0 of the `cv32e40p-acc` machine (accel.rs,
//! docs/accel.md "NTT unit"): the same registers, memories, results and refusals, and the same
//! timing (the RTL's pipeline: `PIPE_DW`, `layer_gap`). An operation's results are computed when CTRL is written; the unit is then busy
//! for `op_cycles` cycles from the cycle after the CTRL store, which the write reports (the
//! hart puts it in `Touch::busy`), and the slots' one timing rule (timing/cv32e40p.rs,
//! `acc_ready`, as for the Keccak instructions) holds every access to the window until then: nothing
//! observes the unit busy (STATUS reads 0, CYCLES the last operation's count), and the unit's
//! busy refusals of ntt_unit.sv cannot happen on the bus (ntt_obi.sv). A store of A, B or SCALE
//! is a posted write (since h71, `posted_cycles`): stored by the RTL's write pipeline
//! `WRITE_PIPE` cycles after its grant; the timing model (`Touch::posted`) holds any other
//! access to the slot until then. Cycle agreement with the RTL: tests/test_sim_ntt_acc.py.

use crate::machine::bus::{Device, Window};
use crate::machine::Machine;

pub const NTT_BASE: u32 = 0x1001_0000;
pub const NTT_END: u32 = NTT_BASE + 0x4000;

const QS: [u64; 3] = [3329, 8380417, 12289];
/// twiddle table of each mode: (generator root of order 2N, N)
const ROOTS: [(u64, usize); 3] = [(17, 128), (1753, 256), (0, 1024)];

fn powmod(mut b: u64, mut e: u64, q: u64) -> u64 {
    let mut r = 1 % q;
    b %= q;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % q;
        }
        b = b * b % q;
        e >>= 1;
    }
    r
}

/// ntt_unit.sv's addmod / submod on its 24-bit words: one conditional subtraction or addition
/// (canonical for canonical inputs; a word left by another modulus, >= q, stays out of range
/// as on the RTL: the memories keep what a previous mode wrote)
fn addmod(a: u64, b: u64, q: u64) -> u64 {
    let s = a + b;
    if s >= q {
        (s - q) & 0xff_ffff
    } else {
        s
    }
}

fn submod(a: u64, b: u64, q: u64) -> u64 {
    if a >= b {
        a - b
    } else {
        (a + q - b) & 0xff_ffff
    }
}

/// ntt_unit.sv's ntt_mulmod: a b mod q by Barrett's reduction (HAC Algorithm 14.42, b = 2,
/// k = K bits of q: 12, 23, 14), step by step with the RTL's widths: a K+1-bit quotient
/// estimate, a K+2-bit remainder and two corrections. Exact for canonical inputs; for words >= q
/// (left by another mode) it gives the RTL's value (pqlab/accel_ntt.py `mulmod_hw` is the same
/// function). Since h82 ML-DSA takes the same steps (before: special-form folds).
fn mulmod(a: u64, b: u64, q: u64) -> u64 {
    let p = (a & 0xff_ffff) * (b & 0xff_ffff);
    let k: u32 = match q {
        3329 => 12,
        8380417 => 23,
        _ => 14,
    };
    let mu = (1u64 << (2 * k)) / q;
    let q1 = (p >> (k - 1)) & ((1u64 << (k + 1)) - 1);
    let q3 = (q1 * mu) >> (k + 1);
    let mut r = p.wrapping_sub(q3 * q) & ((1u64 << (k + 2)) - 1);
    for _ in 0..2 {
        if r >= q {
            r -= q;
        }
    }
    r & 0xff_ffff
}

/// ntt_unit.sv's pipeline: cycles from a step's issue to its write (1 read + 4 the product on
/// its one multiplier)
const PIPE_DW: u64 = 5;

/// steps per ML-KEM base-multiplication pair (ntt_unit.sv: a1 b1, a0 b1, a1 b0, a0 b0, then
/// (a1 b1) zeta on the one multiplier)
const BM_STEPS: u64 = 5;

/// ntt_unit.sv's write pipeline (since h71): a bus write of A, B or SCALE is reduced by the
/// multiplier and stored this many cycles after the cycle it is granted; until then the slot
/// holds every access but another such write (ntt_obi.sv).
pub const WRITE_PIPE: u64 = 4;

/// The cycles a granted store at offset `off` stays in the write pipeline: WRITE_PIPE for A, B
/// (0x1000-0x3fff) and SCALE (0x010), 0 for the others.
pub fn posted_cycles(off: u32) -> u64 {
    if off >= 0x1000 || off == 0x010 {
        WRITE_PIPE
    } else {
        0
    }
}

/// idle issue cycles between two layers of an n-point transform (ntt_unit.sv's `gap`)
fn layer_gap(n: u64) -> u64 {
    (PIPE_DW + 1).saturating_sub(n / 4)
}

/// idle issue cycles before the scale pass (ntt_unit.sv's `gap_s`): its step p reads the word
/// the inverse's last-layer step p mod n/2 (`half`) or the product's step p wrote
fn scale_gap(first_writer_lag: u64) -> u64 {
    (PIPE_DW + 1).saturating_sub(first_writer_lag)
}

fn brv(k: usize, bits: u32) -> usize {
    if bits == 0 {
        0
    } else {
        k.reverse_bits() >> (usize::BITS - bits)
    }
}

/// FN-DSA's psi: g^((q-1)/2048), g the smallest generator of Z_q^* (lib/fndsa/gen_tables.py)
fn falcon_psi() -> u64 {
    let q = 12289u64;
    let g = (2..q)
        .find(|&a| powmod(a, (q - 1) / 2, q) != 1 && powmod(a, (q - 1) / 3, q) != 1)
        .unwrap();
    powmod(g, (q - 1) / 2048, q)
}

pub struct NttAcc {
    a: Vec<u64>,
    b: Vec<u64>,
    zetas: [Vec<u64>; 3],
    izetas: [Vec<u64>; 3],
    mode_sel: u32,
    mode_logn: u32,
    scale: u64,
    op: u32,
    /// busy cycles of the last operation
    last_cycles: u64,
    pub ops: u64,
    pub busy_cycles: u64,
}

/// A request the unit refuses (the test bench reports a bus fault).
pub use crate::machine::bus::Refused;

/// The unit's window in the memory map (machine/bus.rs).
pub const NTT_WINDOW: Window = Window {
    base: NTT_BASE,
    size: NTT_END - NTT_BASE,
};

/// The unit on the bus: aligned 32-bit accesses only; a CTRL store that starts an operation
/// reports its busy cycles.
impl Device for NttAcc {
    fn read(&mut self, _m: &mut Machine, off: u32, width: u32) -> Result<u32, Refused> {
        if width != 4 || off & 3 != 0 {
            return Err(Refused);
        }
        NttAcc::read(self, off)
    }

    fn write(&mut self, _m: &mut Machine, off: u32, width: u32, v: u32) -> Result<u64, Refused> {
        if width != 4 || off & 3 != 0 {
            return Err(Refused);
        }
        NttAcc::write(self, off, v)
    }
}

impl NttAcc {
    pub fn new() -> NttAcc {
        let mut zetas: [Vec<u64>; 3] = Default::default();
        let mut izetas: [Vec<u64>; 3] = Default::default();
        for m in 0..3 {
            let q = QS[m];
            let (root, n) = ROOTS[m];
            let root = if root == 0 { falcon_psi() } else { root };
            let bits = n.trailing_zeros();
            zetas[m] = (0..n)
                .map(|k| powmod(root, brv(k, bits) as u64, q))
                .collect();
            izetas[m] = zetas[m].iter().map(|&z| powmod(z, q - 2, q)).collect();
        }
        NttAcc {
            a: vec![0; 1024],
            b: vec![0; 1024],
            zetas,
            izetas,
            mode_sel: 0,
            mode_logn: 0,
            scale: 1,
            op: 0,
            last_cycles: 0,
            ops: 0,
            busy_cycles: 0,
        }
    }

    fn q(&self) -> u64 {
        QS[(self.mode_sel as usize).min(2)]
    }

    fn logn(&self) -> u32 {
        if self.mode_sel == 2 {
            self.mode_logn
        } else {
            8
        }
    }

    fn min_lg(&self) -> u32 {
        if self.mode_sel == 0 {
            1
        } else {
            0
        }
    }

    fn reduce(&self, v: u32) -> u64 {
        let q = self.q() as i64;
        (v as i32 as i64).rem_euclid(q) as u64
    }

    /// a load at offset `off` (the unit is idle: the timing rule held the access until then)
    pub fn read(&mut self, off: u32) -> Result<u32, Refused> {
        match off >> 12 {
            0 => {
                if off & 0xfe0 != 0 || (off >> 2) & 7 > 5 {
                    return Err(Refused);
                }
                Ok(match (off >> 2) & 7 {
                    0 => (self.mode_logn << 8) | self.mode_sel,
                    1 => self.op,
                    2 | 3 => 0, // STATUS (idle), WAIT
                    4 => self.scale as u32,
                    _ => self.last_cycles as u32,
                })
            }
            1 => Ok(self.a[((off >> 2) & 1023) as usize] as u32),
            2 => {
                let v = self.a[((off >> 2) & 1023) as usize] as i64;
                let q = self.q() as i64;
                Ok((if v > q >> 1 { v - q } else { v }) as i32 as u32)
            }
            _ => Ok(self.b[((off >> 2) & 1023) as usize] as u32),
        }
    }

    /// a store at offset `off` (the unit is idle); Ok(busy cycles of the operation it started,
    /// 0 for none)
    pub fn write(&mut self, off: u32, v: u32) -> Result<u64, Refused> {
        match off >> 12 {
            0 => {
                if off & 0xfe0 != 0 || (off >> 2) & 7 > 5 {
                    return Err(Refused);
                }
                match (off >> 2) & 7 {
                    0 => {
                        self.mode_sel = v & 3;
                        self.mode_logn = (v >> 8) & 15;
                    }
                    1 => {
                        let kind = v & 7;
                        let op_ok = (1..=4).contains(&kind)
                            && !(kind == 4 && self.mode_sel != 0)
                            && !(v & 8 != 0 && kind > 2)
                            && v >> 4 == 0;
                        let mode_ok = self.mode_sel != 3
                            && (self.mode_sel != 2 || (1..=10).contains(&self.mode_logn));
                        if !op_ok || !mode_ok {
                            return Err(Refused);
                        }
                        self.op = v;
                        let d = self.execute(v);
                        self.last_cycles = d;
                        self.ops += 1;
                        self.busy_cycles += d;
                        return Ok(d);
                    }
                    4 => self.scale = self.reduce(v),
                    _ => {}
                }
                Ok(0)
            }
            3 => {
                self.b[((off >> 2) & 1023) as usize] = self.reduce(v);
                Ok(0)
            }
            _ => {
                self.a[((off >> 2) & 1023) as usize] = self.reduce(v);
                Ok(0)
            }
        }
    }

    /// Run operation `op` on the memories; returns its busy cycles.
    fn execute(&mut self, op: u32) -> u64 {
        let q = self.q();
        let m = self.mode_sel as usize;
        let logn = self.logn();
        let n = 1usize << logn;
        let min_lg = self.min_lg();
        let scale = self.scale;
        let on_b = op & 8 != 0;
        let layers = (logn - min_lg) as u64;
        match op & 7 {
            1 | 2 => {
                let zs = if op & 7 == 1 {
                    &self.zetas[m]
                } else {
                    &self.izetas[m]
                };
                let mem = if on_b { &mut self.b } else { &mut self.a };
                if op & 7 == 1 {
                    for lg in (min_lg..logn).rev() {
                        let len = 1usize << lg;
                        let base = n >> (lg + 1);
                        for p in 0..n / 2 {
                            let (blk, j) = (p >> lg, p & (len - 1));
                            let i0 = (blk << (lg + 1)) | j;
                            let t = mulmod(zs[base + blk], mem[i0 + len], q);
                            let x0 = mem[i0];
                            mem[i0 + len] = submod(x0, t, q);
                            mem[i0] = addmod(x0, t, q);
                        }
                    }
                } else {
                    for lg in min_lg..logn {
                        let len = 1usize << lg;
                        let base = n >> (lg + 1);
                        for p in 0..n / 2 {
                            let (blk, j) = (p >> lg, p & (len - 1));
                            let i0 = (blk << (lg + 1)) | j;
                            let (x0, x1) = (mem[i0], mem[i0 + len]);
                            mem[i0] = addmod(x0, x1, q);
                            mem[i0 + len] = mulmod(zs[base + blk], submod(x0, x1, q), q);
                        }
                    }
                    // the scale pass: every word times SCALE
                    for x in mem[..n].iter_mut() {
                        *x = mulmod(scale, *x, q);
                    }
                }
                let nn = n as u64;
                let main = layers * (nn / 2) + (layers - 1) * layer_gap(nn);
                if op & 7 == 1 {
                    main + PIPE_DW
                } else {
                    main + scale_gap(nn / 2) + nn + PIPE_DW
                }
            }
            3 => {
                // the product pass, then the scale pass
                for i in 0..n {
                    self.a[i] = mulmod(mulmod(self.a[i], self.b[i], q), scale, q);
                }
                let nn = n as u64;
                nn + scale_gap(nn) + nn + PIPE_DW
            }
            _ => {
                // ML-KEM base multiplication of the 128 pairs, as ntt_unit.sv computes it on
                // its one multiplier (24-bit operands): five products per pair, the odd word
                // a0 b1 + a1 b0, the even word a0 b0 + (a1 b1) zeta for an even pair and
                // a0 b0 - (a1 b1) zeta for an odd one (gamma = -zeta), then the scale pass
                let z = &self.zetas[0];
                for i in 0..128 {
                    let zeta = z[64 + i / 2];
                    let (a0, a1) = (self.a[2 * i], self.a[2 * i + 1]);
                    let (b0, b1) = (self.b[2 * i], self.b[2 * i + 1]);
                    let t = mulmod(zeta, mulmod(a1, b1, q), q);
                    let e = mulmod(a0, b0, q);
                    let u = addmod(mulmod(a0, b1, q), mulmod(a1, b0, q), q);
                    self.a[2 * i] = if i & 1 == 1 {
                        submod(e, t, q)
                    } else {
                        addmod(e, t, q)
                    };
                    self.a[2 * i + 1] = u;
                }
                for x in self.a[..256].iter_mut() {
                    *x = mulmod(scale, *x, q);
                }
                BM_STEPS * 128 + 256 + PIPE_DW
            }
        }
    }
}

impl Default for NttAcc {
    fn default() -> Self {
        Self::new()
    }
}
