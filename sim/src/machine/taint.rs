// SPDX-License-Identifier: MIT
//! The instruction-set-independent part of the secret tracking (`--ct FILE`, docs/ct.md):
//! the finding kinds, the firmware's marks, the byte-granular memory shadow's encoding, the
//! taint arithmetic of masks, the shadow call stack, the deduplicated findings and the JSON
//! report. Each front end (arm/ct.rs, rv32/ct.rs) owns its register shadow and its
//! propagation rules and records findings through a `Tracker`.

use super::elf::Symbol;
use super::{json_str, symbolize};
use std::collections::{HashMap, HashSet};

/// The firmware's marks (lib/common/ct.h with PQLAB_CT_SIM): empty functions whose first
/// instruction the tracker watches; arguments (pointer, length) in the first two argument
/// registers of the platform's calling convention (r0, r1 on Arm; a0, a1 on RISC-V).
pub const SECRET_SYMBOL: &str = "pqlab_ct_secret";
pub const DECLASSIFY_SYMBOL: &str = "pqlab_ct_declassify";

pub const KINDS: [&str; 9] = [
    "secret-branch",
    "secret-condition",
    "secret-jump",
    "secret-load-address",
    "secret-store-address",
    "secret-division",
    "secret-fp64",
    "secret-select",
    "secret-unit-operation",
];
pub const K_BRANCH: u8 = 0;
pub const K_COND: u8 = 1;
pub const K_JUMP: u8 = 2;
pub const K_LOAD: u8 = 3;
pub const K_STORE: u8 = 4;
pub const K_DIV: u8 = 5;
pub const K_FP64: u8 = 6;
pub const K_SELECT: u8 = 7;
/// a store of a secret to an accelerator register its busy time depends on (the NTT unit's
/// CTRL, or its start with a secret MODE)
pub const K_UNIT: u8 = 8;

/// Most distinct findings kept (a badly leaking program would otherwise fill memory).
const MAX_FINDINGS: usize = 20_000;
/// Most (place, call stack) pairs counted for the call-path figures.
const MAX_PATHS: usize = 1_000_000;
/// Deepest call stack recorded with a finding (innermost frames kept).
const MAX_DEPTH: usize = 48;

pub struct Finding {
    pub pc: u32,
    pub kind: u8,
    pub stack: Vec<u32>,
    pub count: u64,
    /// distinct call stacks that reached the place (counted up to MAX_PATHS in all)
    pub paths: u64,
    pub first_insn: u64,
}

struct Frame {
    call: u32,
    ret: u32,
    /// hash of the call sites of this frame and the ones below it (dedup key)
    hash: u64,
}

/// Findings (one per place and kind, with the first call stack that reached it), the shadow
/// call stack and the marks seen.
pub struct Tracker {
    pub secret_fn: u32,
    pub declassify_fn: u32,
    pub secret_calls: u64,
    pub secret_bytes: u64,
    pub declassify_calls: u64,
    /// one finding per place (pc, kind); its stack is the first call path seen
    findings: HashMap<(u32, u8), usize>,
    /// (pc, kind, call-stack hash) seen, for the number of call paths per place
    paths: HashSet<(u32, u8, u64)>,
    pub list: Vec<Finding>,
    pub dropped: u64,
    /// every finding event counted (repeats included): the summaries' check for a finding
    /// inside a verified call
    pub events: u64,
    calls: Vec<Frame>,
}

impl Tracker {
    /// The marks' functions found in the ELF's symbols (u32::MAX when absent).
    pub fn new(funcs: &[Symbol]) -> Tracker {
        let find = |name: &str| {
            funcs
                .iter()
                .find(|f| f.name == name)
                .map(|f| f.addr & !1)
                .unwrap_or(u32::MAX)
        };
        Tracker {
            secret_fn: find(SECRET_SYMBOL),
            declassify_fn: find(DECLASSIFY_SYMBOL),
            secret_calls: 0,
            secret_bytes: 0,
            declassify_calls: 0,
            findings: HashMap::new(),
            paths: HashSet::new(),
            list: Vec::new(),
            dropped: 0,
            events: 0,
            calls: Vec::new(),
        }
    }

    pub fn marks_found(&self) -> bool {
        self.secret_fn != u32::MAX && self.declassify_fn != u32::MAX
    }

    /// A mark reached at `pc` (Some(true): secret, Some(false): declassify), counted; the
    /// caller marks its shadow memory.
    #[inline(always)]
    pub fn mark_at(&mut self, pc: u32, n: u32) -> Option<bool> {
        if pc == self.secret_fn {
            self.secret_calls += 1;
            self.secret_bytes += n as u64;
            Some(true)
        } else if pc == self.declassify_fn {
            self.declassify_calls += 1;
            Some(false)
        } else {
            None
        }
    }

    #[inline(never)]
    pub fn finding(&mut self, pc: u32, kind: u8, insns: u64) {
        self.events += 1;
        let hash = self.calls.last().map_or(0, |f| f.hash);
        let key = (pc, kind);
        if let Some(&k) = self.findings.get(&key) {
            self.list[k].count += 1;
            if self.paths.len() < MAX_PATHS && self.paths.insert((pc, kind, hash)) {
                self.list[k].paths += 1;
            }
            return;
        }
        self.paths.insert((pc, kind, hash));
        if self.list.len() >= MAX_FINDINGS {
            self.dropped += 1;
            return;
        }
        let start = self.calls.len().saturating_sub(MAX_DEPTH);
        let stack: Vec<u32> = self.calls[start..].iter().map(|f| f.call).collect();
        self.list.push(Finding {
            pc,
            kind,
            stack,
            count: 1,
            paths: 1,
            first_insn: insns,
        });
        self.findings.insert(key, self.list.len() - 1);
    }

    /// Shadow call stack: after an instruction at `pc` of `len` bytes executed and the next
    /// pc is `npc`; `link`: it was a call (BL/BLX; JAL/JALR writing ra or t0).
    #[inline(always)]
    pub fn after(&mut self, pc: u32, len: u8, link: bool, npc: u32) {
        if link {
            let below = self.calls.last().map_or(0x9e37_79b9_7f4a_7c15, |f| f.hash);
            self.calls.push(Frame {
                call: pc,
                ret: pc.wrapping_add(len as u32),
                hash: (below ^ pc as u64)
                    .wrapping_mul(0x0100_0000_01b3)
                    .rotate_left(29),
            });
        } else if let Some(f) = self.calls.last() {
            if f.ret == npc {
                self.calls.pop();
            } else if self.calls.len() > 1 && npc != pc.wrapping_add(len as u32) {
                // a return past frames that did not return (longjmp-like): find it
                if let Some(k) = self.calls.iter().rposition(|f| f.ret == npc) {
                    self.calls.truncate(k);
                }
            }
        }
    }
}

/// Every bit from the lowest secret bit upward (carries of additions, low-word products).
#[inline(always)]
pub fn up(t: u32) -> u32 {
    if t == 0 {
        0
    } else {
        !((t & t.wrapping_neg()).wrapping_sub(1))
    }
}

/// Wholly secret when any bit is.
#[inline(always)]
pub fn full(t: u32) -> u32 {
    if t != 0 {
        u32::MAX
    } else {
        0
    }
}

/// Each byte wholly secret when any of its bits is.
#[inline(always)]
pub fn bytes_mask(t: u32) -> u32 {
    let mut m = 0;
    for k in 0..4 {
        if (t >> (8 * k)) & 0xff != 0 {
            m |= 0xff << (8 * k);
        }
    }
    m
}

// The memory shadow: one byte per byte of RAM, 0 public, 1 secret. A register's taint is a
// 32-bit mask; a loaded byte's 8 mask bits are all set when the byte is secret.

/// The mask of the `n` bytes (1, 2 or 4) at `shadow[off..]`; `off + 4 <= shadow.len()`.
#[inline(always)]
pub fn shadow_load4(shadow: &[u8], off: usize, n: u32) -> u32 {
    let b = &shadow[off..off + 4];
    let w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    // bytes are 0 or 1: spread each to 0xff, keep the n accessed ones
    let m = if n == 4 {
        u32::MAX
    } else {
        (1u32 << (8 * n)) - 1
    };
    w.wrapping_mul(0xff) & m
}

/// Store the mask `t` of `n` bytes to `shadow[off..off + n]` (a byte is secret when any of
/// its mask bits is).
#[inline(always)]
pub fn shadow_store(shadow: &mut [u8], off: usize, n: u32, t: u32) {
    for k in 0..n as usize {
        shadow[off + k] = ((t >> (8 * k)) & 0xff != 0) as u8;
    }
}

/// What the JSON report says about the run besides the tracker's findings.
pub struct Run<'a> {
    pub model_version: &'a str,
    pub machine: &'a str,
    pub core: &'a str,
    pub firmware: &'a str,
    pub exit_code: i32,
    pub error: Option<&'a str>,
    pub instructions: u64,
    pub cycles: u64,
    pub wall: f64,
    /// the function summaries' JSON array (machine/summary.rs), "[]" without them
    pub summaries: String,
}

/// The constant-time analysis report (`--ct`): the marks seen and the findings, each with
/// its place and call stack (call sites, outermost first) and the number of times it ran.
pub fn report_json(t: &Tracker, funcs: &[Symbol], r: &Run) -> String {
    let sym = |pc: u32| {
        symbolize(funcs, pc)
            .map(|s| json_str(s.split('+').next().unwrap_or("")))
            .unwrap_or_else(|| "null".into())
    };
    let mut fs = String::new();
    for (k, f) in t.list.iter().enumerate() {
        let stack: Vec<String> = f.stack.iter().map(|a| format!("{}", a)).collect();
        let funcs: Vec<String> = f.stack.iter().map(|a| sym(*a)).collect();
        fs.push_str(if k == 0 { "\n    " } else { ",\n    " });
        fs.push_str(&format!(
            "{{\"pc\": {}, \"kind\": {}, \"function\": {}, \"count\": {}, \"call_paths\": {}, \"first_instruction\": {}, \"stack\": [{}], \"stack_functions\": [{}]}}",
            f.pc,
            json_str(KINDS[f.kind as usize]),
            sym(f.pc),
            f.count,
            f.paths,
            f.first_insn,
            stack.join(", "),
            funcs.join(", ")
        ));
    }
    if !fs.is_empty() {
        fs.push_str("\n  ");
    }
    format!(
        "{{\n  \"checker\": \"pqlab-sim-taint\",\n  \"version\": {},\n  \"model_version\": {},\n  \"machine\": {},\n  \"core\": {},\n  \"firmware\": {},\n  \"exit_code\": {},\n  \"error\": {},\n  \"marks_found\": {},\n  \"secret_calls\": {},\n  \"secret_bytes\": {},\n  \"declassify_calls\": {},\n  \"instructions\": {},\n  \"cycles\": {},\n  \"wall_seconds\": {:.6},\n  \"mips\": {:.3},\n  \"findings_dropped\": {},\n  \"summaries\": {},\n  \"findings\": [{}]\n}}\n",
        json_str(env!("CARGO_PKG_VERSION")),
        json_str(r.model_version),
        json_str(r.machine),
        json_str(r.core),
        json_str(r.firmware),
        r.exit_code,
        r.error.map(json_str).unwrap_or_else(|| "null".into()),
        t.marks_found(),
        t.secret_calls,
        t.secret_bytes,
        t.declassify_calls,
        r.instructions,
        r.cycles,
        r.wall,
        r.instructions as f64 / r.wall.max(1e-9) / 1e6,
        t.dropped,
        r.summaries,
        fs
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(up(0), 0);
        assert_eq!(up(0x100), 0xffff_ff00);
        assert_eq!(up(0x8000_0000), 0x8000_0000);
        assert_eq!(bytes_mask(0x0001_0000), 0x00ff_0000);
        let mut s = vec![0u8; 8];
        shadow_store(&mut s, 1, 2, 0xff00);
        assert_eq!(shadow_load4(&s, 0, 4), 0x00ff_0000);
        assert_eq!(shadow_load4(&s, 1, 1), 0);
        assert_eq!(shadow_load4(&s, 2, 1), 0xff);
    }

    #[test]
    fn call_stack_and_dedup() {
        let mut t = Tracker::new(&[]);
        assert!(!t.marks_found());
        t.after(0x100, 4, true, 0x200); // call from 0x100
        t.finding(0x204, K_BRANCH, 1);
        t.finding(0x204, K_BRANCH, 2);
        t.after(0x208, 2, false, 0x104); // return
        t.finding(0x204, K_BRANCH, 3); // same place, another call path
        assert_eq!(t.list.len(), 1);
        assert_eq!(t.list[0].count, 3);
        assert_eq!(t.list[0].paths, 2);
        assert_eq!(t.list[0].stack, vec![0x100]);
    }
}
