// SPDX-License-Identifier: MIT
//! The reports of a run, with the same fields on every machine: the JSON report (`--json`),
//! the interval table (`--intervals`) and the stop message on stderr.

use super::elf::Symbol;
use super::profile::Profile;
use super::{json_str, Machine};

/// What the JSON report says about the run besides the machine's counters.
pub struct Run<'a> {
    pub model_version: &'a str,
    pub machine: &'a str,
    pub core: &'a str,
    /// the timing model is an estimate (not validated against the core)
    pub estimate: bool,
    pub firmware: &'a str,
    pub exit_code: i32,
    pub error: Option<&'a str>,
    /// the front end's instruction class names (`Machine::class_count`)
    pub class_names: &'a [&'a str],
    /// the stack pointer at reset and the lowest value it took
    pub init_sp: u32,
    pub min_sp: u32,
    /// statically allocated RAM (the ELF's data, bss, heap and stack segments)
    pub static_ram: u64,
    pub wall: f64,
}

fn mix_of(names: &[&str], counts: &[u64; 16]) -> String {
    let mut mix = String::new();
    for (k, name) in names.iter().enumerate() {
        if k > 0 {
            mix.push_str(", ");
        }
        mix.push_str(&format!("\"{}\": {}", name, counts[k]));
    }
    mix
}

/// The JSON report.
pub fn json(m: &Machine, r: &Run) -> String {
    let mix = mix_of(r.class_names, &m.class_count);
    let mut ivs = String::new();
    for (k, iv) in m.marks.done.iter().enumerate() {
        ivs.push_str(if k == 0 { "\n    " } else { ",\n    " });
        ivs.push_str(&format!(
            "{{\"label\": {}, \"depth\": {}, \"start_cycle\": {}, \"cycles\": {}, \"instructions\": {}, \"stack_high_water\": {}, \"instruction_mix\": {{{}}}}}",
            json_str(&iv.label),
            iv.depth,
            iv.start_cycle,
            iv.cycles,
            iv.instructions,
            iv.stack_high_water,
            mix_of(r.class_names, &iv.mix)
        ));
    }
    if !ivs.is_empty() {
        ivs.push_str("\n  ");
    }
    let errs: Vec<String> = m.marks.errors.iter().map(|e| json_str(e)).collect();
    let stack = r.init_sp.wrapping_sub(r.min_sp);
    format!(
        "{{\n  \"simulator\": \"pqlab-sim\",\n  \"version\": {},\n  \"model_version\": {},\n  \"machine\": {},\n  \"core\": {},\n  \"simulated\": true,\n  \"estimate\": {},\n  \"firmware\": {},\n  \"exit_code\": {},\n  \"error\": {},\n  \"cycles\": {},\n  \"instructions\": {},\n  \"stack_high_water\": {},\n  \"static_ram\": {},\n  \"peak_ram\": {},\n  \"initial_sp\": {},\n  \"min_sp\": {},\n  \"instruction_mix\": {{{}}},\n  \"interval_marks\": {},\n  \"intervals\": [{}],\n  \"mark_errors\": [{}],\n  \"wall_seconds\": {:.6},\n  \"mips\": {:.3}\n}}\n",
        json_str(env!("CARGO_PKG_VERSION")),
        json_str(r.model_version),
        json_str(r.machine),
        json_str(r.core),
        r.estimate,
        json_str(r.firmware),
        r.exit_code,
        r.error.map(json_str).unwrap_or_else(|| "null".into()),
        m.cycles,
        m.insns,
        stack,
        r.static_ram,
        r.static_ram + stack as u64,
        r.init_sp,
        r.min_sp,
        mix,
        m.marks.found,
        ivs,
        errs.join(", "),
        r.wall,
        m.insns as f64 / r.wall.max(1e-9) / 1e6
    )
}

/// The interval table (`--intervals`): one tab-separated line per closed interval, then the
/// mark errors as comments.
pub fn intervals_tsv(m: &Machine, class_names: &[&str]) -> String {
    let mut t = String::from("label\tdepth\tstart_cycle\tcycles\tinstructions\tstack_high_water");
    for name in class_names {
        t.push('\t');
        t.push_str(name);
    }
    t.push('\n');
    for iv in &m.marks.done {
        t.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}",
            iv.label.replace(['\t', '\n'], " "),
            iv.depth,
            iv.start_cycle,
            iv.cycles,
            iv.instructions,
            iv.stack_high_water
        ));
        for k in 0..class_names.len() {
            t.push_str(&format!("\t{}", iv.mix[k]));
        }
        t.push('\n');
    }
    for e in &m.marks.errors {
        t.push_str(&format!("# error: {}\n", e));
    }
    t
}

/// The stop message of a run that ended with an error (`place`: what the front end adds
/// after the PC, e.g. the function and the registers).
pub fn stop_message(m: &Machine, err: &str, pc: u32, place: &str) {
    eprintln!("pqlab-sim: {}", err);
    eprintln!(
        "pqlab-sim: stopped after {} instructions, {} cycles; pc=0x{:08x}{}",
        m.insns, m.cycles, pc, place
    );
}

/// Write `text` to `path`, saying so on stderr when it cannot.
pub fn write_file(path: &str, text: &str) -> bool {
    match std::fs::write(path, text) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("pqlab-sim: cannot write {}: {}", path, e);
            false
        }
    }
}

/// Close the profile at the end of the run and write it (`--profile`).
pub fn write_profile(p: &mut Profile, path: &str, m: &Machine, funcs: &[Symbol]) {
    p.finish(m.cycles);
    if let Err(e) = p.write(path, funcs) {
        eprintln!("pqlab-sim: cannot write profile {}: {}", path, e);
    }
}
