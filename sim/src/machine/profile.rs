// SPDX-License-Identifier: MIT
//! Per-function profile from ELF function symbols: exclusive cycles (of the
//! function whose symbol covers the PC), inclusive cycles and call counts
//! (from a shadow call stack maintained on BL/BLX and returns to the link
//! address), and folded stacks for flame graphs. A jump without link to the
//! first instruction of another function (a tail call: GCC ends a function with
//! `b.w callee` when the call is its last action) opens a child frame for the
//! callee, closed with the caller's frame when the callee returns to the caller's
//! return address; without it, the callee's cycles would stay in the caller's
//! frame of the folded stacks (its exclusive cycles are by PC either way).

use crate::machine::elf::Symbol;
use std::collections::HashMap;
use std::io::Write;

const NONE: u32 = u32::MAX;

struct Frame {
    func: u32,
    start: u64,
    ret: u32,
}

pub struct Profile {
    lookup: Vec<u32>,
    entry: Vec<u32>,
    excl: Vec<u64>,
    incl: Vec<u64>,
    calls: Vec<u64>,
    /// frames of each function on the stack (recursion: only the outermost frame adds
    /// to the inclusive cycles, so they count every cycle once)
    active: Vec<u32>,
    stack: Vec<Frame>,
    folded: HashMap<Vec<u32>, u64>,
    last_change: u64,
    started: bool,
}

impl Profile {
    pub fn new(funcs: &[Symbol]) -> Profile {
        let n = funcs.len() + 1;
        let mut lookup = vec![NONE; crate::arm::mem::CODE_SIZE / 2];
        for (k, f) in funcs.iter().enumerate() {
            if f.addr as usize >= crate::arm::mem::CODE_SIZE {
                continue;
            }
            let end = if f.size > 0 {
                f.addr + f.size
            } else {
                funcs.get(k + 1).map(|g| g.addr).unwrap_or(f.addr + 2)
            };
            let end = (end as usize).min(crate::arm::mem::CODE_SIZE);
            for a in (f.addr as usize..end).step_by(2) {
                lookup[a / 2] = k as u32;
            }
        }
        let mut entry: Vec<u32> = funcs.iter().map(|f| f.addr & !1).collect();
        entry.push(NONE);
        Profile {
            lookup,
            entry,
            excl: vec![0; n],
            incl: vec![0; n],
            calls: vec![0; n],
            active: vec![0; n],
            stack: Vec::new(),
            folded: HashMap::new(),
            last_change: 0,
            started: false,
        }
    }

    fn func(&self, pc: u32) -> u32 {
        let k = pc as usize / 2;
        let f = if k < self.lookup.len() {
            self.lookup[k]
        } else {
            NONE
        };
        if f == NONE {
            (self.excl.len() - 1) as u32
        } else {
            f
        }
    }

    fn push(&mut self, func: u32, start: u64, ret: u32) {
        self.active[func as usize] += 1;
        self.stack.push(Frame { func, start, ret });
    }

    fn pop(&mut self, now: u64) {
        let fr = self.stack.pop().unwrap();
        self.active[fr.func as usize] -= 1;
        if self.active[fr.func as usize] == 0 {
            self.incl[fr.func as usize] += now - fr.start;
        }
    }

    fn fold(&mut self, now: u64) {
        let key: Vec<u32> = self.stack.iter().map(|f| f.func).collect();
        *self.folded.entry(key).or_insert(0) += now - self.last_change;
        self.last_change = now;
    }

    pub fn step(&mut self, pc: u32, next: u32, dcyc: u64, now: u64, link: bool, lr: u32) {
        let f = self.func(pc);
        if !self.started {
            self.started = true;
            self.push(f, now - dcyc, NONE);
            self.calls[f as usize] += 1;
            self.last_change = now - dcyc;
        }
        self.excl[f as usize] += dcyc;
        if link {
            self.fold(now);
            let callee = self.func(next);
            self.calls[callee as usize] += 1;
            // return address: LR as the BL/BLX set it
            let _ = pc;
            let ret = lr & !1;
            self.push(callee, now, ret);
        } else if next != pc + 2 && next != pc + 4 {
            // a return pops every frame up to the matching return address
            if let Some(pos) = self.stack.iter().rposition(|fr| fr.ret == next) {
                self.fold(now);
                while self.stack.len() > pos {
                    self.pop(now);
                }
            } else {
                let callee = self.func(next);
                if callee != f && self.entry[callee as usize] == next {
                    // tail call: a child frame without a return address of its own; the
                    // caller's return pops it (every frame above the matching one)
                    self.fold(now);
                    self.calls[callee as usize] += 1;
                    self.push(callee, now, NONE);
                }
            }
        }
    }

    pub fn finish(&mut self, now: u64) {
        self.fold(now);
        while !self.stack.is_empty() {
            self.pop(now);
        }
    }

    pub fn write(&self, path: &str, funcs: &[Symbol]) -> std::io::Result<()> {
        let name = |k: usize| -> String {
            funcs
                .get(k)
                .map(|f| f.name.clone())
                .unwrap_or_else(|| "[unknown]".into())
        };
        let mut order: Vec<usize> = (0..self.excl.len())
            .filter(|&k| self.excl[k] > 0 || self.calls[k] > 0)
            .collect();
        order.sort_by(|&a, &b| self.excl[b].cmp(&self.excl[a]).then(a.cmp(&b)));
        let total: u64 = self.excl.iter().sum();
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        if path.ends_with(".json") {
            writeln!(out, "{{\"total_cycles\": {}, \"functions\": [", total)?;
            for (n, &k) in order.iter().enumerate() {
                writeln!(
                    out,
                    "  {{\"name\": \"{}\", \"calls\": {}, \"inclusive\": {}, \"exclusive\": {}}}{}",
                    name(k).replace('"', "'"),
                    self.calls[k],
                    self.incl[k],
                    self.excl[k],
                    if n + 1 < order.len() { "," } else { "" }
                )?;
            }
            writeln!(out, "]}}")?;
        } else {
            writeln!(
                out,
                "# pqlab-sim profile: total {} cycles\n# exclusive\tinclusive\tcalls\tfunction",
                total
            )?;
            for &k in &order {
                writeln!(
                    out,
                    "{}\t{}\t{}\t{}",
                    self.excl[k],
                    self.incl[k],
                    self.calls[k],
                    name(k)
                )?;
            }
        }
        let mut f = std::io::BufWriter::new(std::fs::File::create(format!("{}.folded", path))?);
        let mut lines: Vec<(String, u64)> = self
            .folded
            .iter()
            .filter(|(_, &c)| c > 0)
            .map(|(k, &c)| {
                (
                    k.iter()
                        .map(|&x| name(x as usize))
                        .collect::<Vec<_>>()
                        .join(";"),
                    c,
                )
            })
            .collect();
        lines.sort();
        for (k, c) in lines {
            writeln!(f, "{} {}", k, c)?;
        }
        Ok(())
    }
}
