// SPDX-License-Identifier: MIT
//! Functional lockstep against cv32e40p-rtl (`--writes FILE`): the run loop that records
//! every register write and every byte a store writes, in the test bench's record format
//! (hw/cv32e40p/tb_main.cpp `--writes`; 12 bytes, little-endian: kind 1 = register, what =
//! its number 1-63 with f0-f31 as 32-63, value; kind 2 = store byte, what = the byte, value =
//! its address; then the instruction's pc, which the test bench leaves 0). The records are
//! taken from the architectural state after each instruction: the register it names as its
//! destination, and for a store the bytes at the address it computed from registers it does
//! not write. `pqlab lockstep` (pqlab/lockstep.py) compares the two files stream by stream.

use super::decode::Op;
use super::hart::{Hart, Stop};
use std::io::Write;

pub struct Writes {
    out: std::io::BufWriter<std::fs::File>,
}

impl Writes {
    pub fn create(path: &str) -> std::io::Result<Writes> {
        Ok(Writes {
            out: std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?),
        })
    }

    fn record(&mut self, kind: u8, what: u8, value: u32, pc: u32) -> std::io::Result<()> {
        let mut r = [kind, what, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        r[4..8].copy_from_slice(&value.to_le_bytes());
        r[8..12].copy_from_slice(&pc.to_le_bytes());
        self.out.write_all(&r)
    }

    pub fn finish(mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Run like the fast loop, recording the writes of every instruction that completes.
pub fn run(h: &mut Hart, w: &mut Writes, budget: impl Fn(&Hart) -> Stop) -> Stop {
    loop {
        if h.m.insns >= h.m.max_insns {
            return budget(h);
        }
        let pc = h.pc;
        let i = match h.fetch(pc) {
            Ok(i) => i,
            Err(_) => return h.take_stop(),
        };
        // a store's address and data come from registers it does not write
        let base = h.x[i.rs1 as usize & 31].wrapping_add(i.imm);
        let (data, n) = match i.op {
            Op::Sb => (h.x[i.rs2 as usize & 31], 1),
            Op::Sh => (h.x[i.rs2 as usize & 31], 2),
            Op::Sw => (h.x[i.rs2 as usize & 31], 4),
            Op::Fsw => (h.f[i.rs2 as usize & 31], 4),
            _ => (0, 0),
        };
        if h.step().is_err() {
            // the store to the exit device ends the run: the test bench records it too
            let stop = h.take_stop();
            if matches!(stop, Stop::Exit(_)) {
                let io = (0..n).try_for_each(|k| {
                    w.record(2, (data >> (8 * k)) as u8, base.wrapping_add(k), pc)
                });
                if let Err(e) = io {
                    return Stop::Error(format!("--writes: cannot write the record file: {}", e));
                }
            }
            return stop;
        }
        let io = if i.dst != 0 {
            let d = i.dst as usize;
            let v = if d >= 32 { h.f[d - 32] } else { h.x[d] };
            w.record(1, i.dst, v, pc)
        } else {
            (0..n).try_for_each(|k| w.record(2, (data >> (8 * k)) as u8, base.wrapping_add(k), pc))
        };
        if let Err(e) = io {
            return Stop::Error(format!("--writes: cannot write the record file: {}", e));
        }
    }
}
