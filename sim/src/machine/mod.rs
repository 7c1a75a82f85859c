// SPDX-License-Identifier: MIT
//! The instruction-set-independent parts of the simulator: ELF loading, the per-function
//! profiler, interval marks, stack tracking and the JSON report.

pub mod elf;
pub mod marks;
pub mod profile;

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
