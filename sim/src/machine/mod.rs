// SPDX-License-Identifier: MIT
//! The instruction-set-independent machine: the state every front end embeds (state.rs:
//! clock, counters, stack tracking, console, marks, profiler call tracking, stop reason), the
//! run loops over a front end's `Core` (run.rs), ELF loading, the per-function profiler,
//! interval marks, semihosting (semihost.rs), the cycle-clocked timers (timer.rs), the reports (report.rs) and the
//! instruction-set-independent part of the secret tracking. Each front end (arm/, rv32/)
//! keeps the decoding and execution of its instruction set and its machine's memory map;
//! each core's timing model (timing/) consumes an event per instruction.

pub mod bus;
pub mod elf;
pub mod marks;
pub mod profile;
pub mod report;
pub mod run;
pub mod semihost;
pub mod state;
pub mod summary;
pub mod taint;
pub mod timer;

pub use state::Machine;

/// Why a run stopped: the guest's exit code, or an error of the simulation.
pub enum Stop {
    Exit(i32),
    Error(String),
}

/// The error of every fallible guest operation is a zero-sized marker so that results stay
/// in registers; the reason is kept in `Machine::stop`.
#[derive(Debug)]
pub struct Fault;

pub type R<T> = Result<T, Fault>;

/// `s` as a JSON string literal (quotes, backslashes and control characters escaped), for the
/// JSON reports of every machine.
pub fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// `function+0xoffset` for a code address, from the ELF's function symbols (sorted by address).
pub fn symbolize(funcs: &[elf::Symbol], pc: u32) -> Option<String> {
    let k = funcs.partition_point(|f| f.addr <= pc);
    let f = funcs.get(k.checked_sub(1)?)?;
    let off = pc - f.addr;
    if off < f.size.max(1) {
        Some(format!("{}+0x{:x}", f.name, off))
    } else {
        None
    }
}
