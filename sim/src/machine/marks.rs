// SPDX-License-Identifier: MIT
//! Per-interval figures between the harness's begin/end marks.
//!
//! The firmware brackets a measured operation with calls of two ordinary
//! functions, `pqlab_mark_begin(const char *label)` and
//! `pqlab_mark_end(const char *label)` (harness/harness.c). They do nothing
//! architecturally visible beyond a store to a global, so the same binary runs
//! unchanged under QEMU and on a board. The simulator finds them in the ELF
//! symbol table and plants hooks in its decode cache at their first
//! instructions (no cost per executed instruction):
//!
//! - at the entry of `pqlab_mark_begin` it reads the label (r0) and plants a
//!   one-shot hook at the return address (LR); the interval starts when that
//!   hook is reached with the caller's SP, i.e. after the mark has returned;
//! - at the entry of `pqlab_mark_end` the innermost open interval ends.
//!
//! An interval therefore covers exactly the code between the two calls plus the
//! call of the end mark itself (its argument set-up and the BL, two or three
//! instructions). Its figures: cycles, instructions retired, instruction-class
//! mix and stack high-water (SP at the start minus the lowest SP inside,
//! exception frames included). Intervals may nest.

use crate::machine::elf::Symbol;
use crate::machine::run::{cstr, Guest};
use crate::machine::Machine;

pub const BEGIN_SYMBOL: &str = "pqlab_mark_begin";
pub const END_SYMBOL: &str = "pqlab_mark_end";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Hook {
    Begin,
    End,
    /// the return address of a pending begin mark
    Return,
}

#[derive(Default)]
pub struct Open {
    pub label: String,
    pub started: bool,
    pub ret: u32,
    pub sp_call: u32,
    pub c0: u64,
    pub i0: u64,
    pub mix0: [u64; 16],
    pub sp0: u32,
    pub saved_min_sp: u32,
}

pub struct Interval {
    pub label: String,
    pub depth: usize,
    pub start_cycle: u64,
    pub cycles: u64,
    pub instructions: u64,
    pub stack_high_water: u32,
    pub mix: [u64; 16],
}

#[derive(Default)]
pub struct Marks {
    /// hooked addresses (normalised with `key`)
    pub hooks: Vec<(u32, Hook)>,
    /// whether both mark functions were found in the ELF
    pub found: bool,
    pub open: Vec<Open>,
    pub done: Vec<Interval>,
    pub errors: Vec<String>,
}

/// The MPS2 machines' decode cache is shared by the code region and its alias at 0x400000
/// (the CV32E40P test bench's code region, 0x1000-0x1fffff, has no alias: unchanged).
#[inline]
pub fn key(pc: u32) -> u32 {
    if pc < 0x80_0000 {
        pc & 0x3f_ffff
    } else {
        pc
    }
}

impl Marks {
    pub fn from_symbols(funcs: &[Symbol]) -> Marks {
        let mut m = Marks::default();
        let find = |name: &str| funcs.iter().find(|f| f.name == name).map(|f| f.addr);
        if let (Some(b), Some(e)) = (find(BEGIN_SYMBOL), find(END_SYMBOL)) {
            m.hooks.push((key(b), Hook::Begin));
            m.hooks.push((key(e), Hook::End));
            m.found = true;
        }
        m
    }

    #[inline]
    pub fn hook_at(&self, pc: u32) -> Option<Hook> {
        let k = key(pc);
        self.hooks.iter().find(|h| h.0 == k).map(|h| h.1)
    }

    /// The end of the run: an interval still open is a mark error.
    pub fn finish(&mut self) {
        for p in &self.open {
            let e = format!("interval '{}' still open at the end of the run", p.label);
            self.errors.push(e);
        }
    }

    pub fn remove_return(&mut self, pc: u32) {
        let k = key(pc);
        if !self.open.iter().any(|o| !o.started && key(o.ret) == k) {
            self.hooks.retain(|h| !(h.0 == k && h.1 == Hook::Return));
        }
    }
}

/// The label argument of a mark call.
fn label<G: Guest>(g: &mut G) -> String {
    let a = g.arg0();
    String::from_utf8_lossy(&cstr(g, a, 120).unwrap_or_default()).into_owned()
}

/// Start the interval `o` now (stack pointer `sp`): the stack tracking restarts from `sp`.
fn start_interval(m: &mut Machine, sp: u32, o: &mut Open) {
    o.started = true;
    o.c0 = m.cycles;
    o.i0 = m.insns;
    o.mix0 = m.class_count;
    o.sp0 = sp;
    o.saved_min_sp = m.min_sp;
    m.min_sp = sp;
}

/// A hooked address `pc` was reached (before the instruction there executes): record the
/// mark.
pub fn on_hook<G: Guest>(g: &mut G, pc: u32) {
    let sp = g.sp();
    match g.m().marks.hook_at(pc) {
        Some(Hook::Begin) => {
            let label = label(g);
            let (ret, usable) = g.call_return();
            let mut o = Open {
                label,
                ret,
                sp_call: sp,
                ..Default::default()
            };
            if usable && g.m().marks.hook_at(ret).is_none() {
                g.m_mut().marks.hooks.push((key(ret), Hook::Return));
                g.uncache(ret);
            } else {
                // no usable return address: the interval starts here
                start_interval(g.m_mut(), sp, &mut o);
            }
            g.m_mut().marks.open.push(o);
        }
        Some(Hook::Return) => {
            let k = key(pc);
            let m = g.m_mut();
            let found = m
                .marks
                .open
                .iter()
                .rposition(|o| !o.started && key(o.ret) == k && o.sp_call == sp);
            if let Some(n) = found {
                let mut o = std::mem::take(&mut m.marks.open[n]);
                start_interval(m, sp, &mut o);
                m.marks.open[n] = o;
                m.marks.remove_return(pc);
                g.uncache(pc);
            }
        }
        Some(Hook::End) => {
            let label = label(g);
            let m = g.m_mut();
            match m.marks.open.iter().rposition(|o| o.started) {
                Some(n) => {
                    // begin marks that never returned are dropped with it
                    let o = m.marks.open.remove(n);
                    let dropped: Vec<Open> = m.marks.open.drain(n..).collect();
                    for p in dropped {
                        m.marks
                            .errors
                            .push(format!("begin mark '{}' did not return", p.label));
                    }
                    if o.label != label {
                        m.marks.errors.push(format!(
                            "end mark '{}' closes the interval '{}'",
                            label, o.label
                        ));
                    }
                    let low = m.min_sp.min(sp);
                    let mut mix = [0u64; 16];
                    for (k, x) in mix.iter_mut().enumerate() {
                        *x = m.class_count[k] - o.mix0[k];
                    }
                    m.marks.done.push(Interval {
                        label: o.label,
                        depth: n,
                        start_cycle: o.c0,
                        cycles: m.cycles - o.c0,
                        instructions: m.insns - o.i0,
                        stack_high_water: o.sp0.wrapping_sub(low),
                        mix,
                    });
                    m.min_sp = o.saved_min_sp.min(low);
                }
                None => m
                    .marks
                    .errors
                    .push(format!("end mark '{}' without an open interval", label)),
            }
        }
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_and_keys() {
        let f = |n: &str, a: u32| Symbol {
            name: n.into(),
            addr: a,
            size: 4,
        };
        let m = Marks::from_symbols(&[
            f("main", 0x100),
            f(BEGIN_SYMBOL, 0x200),
            f(END_SYMBOL, 0x210),
        ]);
        assert!(m.found);
        assert_eq!(m.hook_at(0x200), Some(Hook::Begin));
        assert_eq!(m.hook_at(0x40_0210), Some(Hook::End));
        assert_eq!(m.hook_at(0x100), None);
        assert!(!Marks::from_symbols(&[f(BEGIN_SYMBOL, 0x200)]).found);
    }
}
