// SPDX-License-Identifier: MIT
//! The instruction-set-independent parts of the simulator: ELF loading, the per-function
//! profiler, interval marks, stack tracking, the JSON report and the instruction-set-independent
//! part of the secret tracking.

pub mod elf;
pub mod marks;
pub mod profile;
pub mod summary;
pub mod taint;

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
