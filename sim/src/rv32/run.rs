// SPDX-License-Identifier: MIT
//! Running an RV32 ELF on the CV32E40P machine: loading, the run loops (fast; with the
//! profiler; with the secret tracking) and the JSON reports, with the same fields as the
//! Cortex-M machines'.

use super::ct::Taint;
use super::decode::CLASS_NAMES;
use super::hart::{Hart, Stop, MEM_END, ROM_BASE};
use super::lockstep;
use crate::machine::run::{self, TraceOpts};
use crate::machine::summary::Summaries;
use crate::machine::{elf, marks, profile, report, taint};
use crate::timing::cv32e40p::MODEL_VERSION;
use std::io::Write;

/// The profiling loop writes no register trace on RV32 (`--writes` is its lockstep record).
const NO_TRACE: TraceOpts = TraceOpts {
    limit: 0,
    start_pc: None,
    stop: false,
};

pub struct Opts<'a> {
    pub machine: &'a str,
    pub fpu: bool,
    pub json: Option<&'a str>,
    pub profile: Option<&'a str>,
    /// the interval table (`--intervals`; the intervals are in the JSON report as well)
    pub intervals: Option<&'a str>,
    pub max_insns: u64,
    pub elf_path: &'a str,
    /// the constant-time analysis' report (`--ct`)
    pub ct: Option<&'a str>,
    /// `--ct` without the hash permutations' summaries (machine/summary.rs)
    pub no_summaries: bool,
    /// the functional lockstep's record file (`--writes`, lockstep.rs)
    pub writes: Option<&'a str>,
}

/// Run the firmware and exit the process with its exit code.
pub fn main(o: &Opts, e: &elf::Elf) -> ! {
    if e.machine != elf::EM_RISCV {
        eprintln!(
            "pqlab-sim: {}: not a RISC-V ELF (machine {} needs one)",
            o.elf_path, o.machine
        );
        std::process::exit(2);
    }
    if e.entry != ROM_BASE {
        eprintln!(
            "pqlab-sim: {}: entry point 0x{:08x} is not the boot address 0x{:08x}",
            o.elf_path, e.entry, ROM_BASE
        );
        std::process::exit(2);
    }
    let acc = o.machine == "cv32e40p-acc";
    let map = super::tb::map(o.machine, acc);
    if let Err(er) = e.check(&map) {
        eprintln!("pqlab-sim: {}: {}", o.elf_path, er);
        std::process::exit(2);
    }
    let mut h = Hart::new(o.fpu);
    if acc {
        // cv32e40p-nofpu with pqlab's accelerator on the data port: the NTT unit (ntt_acc.rs)
        h.ntt = Some(Box::default());
        // the patched core's custom Keccak instructions (hw/cv32e40p/keccak-insn.patch)
        h.kinsn = Some(Box::default());
    }
    for s in &e.segments {
        if s.data.is_empty() {
            continue;
        }
        if !h.load(s.paddr, &s.data) {
            eprintln!(
                "pqlab-sim: ELF segment at 0x{:08x} does not fit the {} memory map",
                s.paddr, o.machine
            );
            std::process::exit(2);
        }
    }
    // statically allocated RAM: the segments in the map's RAM regions (machine/elf.rs)
    let static_ram = e.static_ram(&map);
    h.m.max_insns = o.max_insns;
    // the interval marks' hooks (machine/marks.rs) in the decode cache: not under the
    // secret tracking and the lockstep record, whose loops read the decoded instruction
    if o.ct.is_none() && o.writes.is_none() {
        h.m.marks = marks::Marks::from_symbols(&e.funcs);
    }
    let start = std::time::Instant::now();
    let mut prof = o.profile.map(|_| profile::Profile::new(&e.funcs));
    let mut ct =
        o.ct.map(|_| Box::new(Taint::new(taint::Tracker::new(&e.funcs))));
    let mut summaries = Summaries::for_elf(&e.funcs, !o.no_summaries);
    let mut writes = match o.writes.map(lockstep::Writes::create).transpose() {
        Ok(w) => w,
        Err(er) => {
            eprintln!("pqlab-sim: --writes: cannot create the record file: {}", er);
            std::process::exit(2);
        }
    };
    let stop = match (prof.as_mut(), ct.as_deref_mut(), writes.as_mut()) {
        (_, Some(t), _) => run::run_ct(&mut h, t, &mut summaries),
        (_, None, Some(w)) => lockstep::run(&mut h, w, |h| h.m.budget_error(h.pc)),
        (Some(p), None, None) => run::run_slow(&mut h, Some(p), None, &NO_TRACE),
        (None, None, None) => run::run_fast(&mut h),
    };
    let stop = match writes.map(lockstep::Writes::finish) {
        Some(Err(er)) => Stop::Error(format!("--writes: cannot write the record file: {}", er)),
        _ => stop,
    };
    let wall = start.elapsed().as_secs_f64();
    h.flush();
    let (code, err) = match stop {
        Stop::Exit(c) => (c, None),
        Stop::Error(e) => (1, Some(e)),
    };
    if let Some(msg) = &err {
        report::stop_message(&h.m, msg, h.pc, "");
    }
    if let (Some(p), Some(path)) = (prof.as_mut(), o.profile) {
        report::write_profile(p, path, &h.m, &e.funcs);
    }
    h.m.marks.finish();
    if let Some(path) = o.intervals {
        report::write_file(path, &report::intervals_tsv(&h.m, &CLASS_NAMES));
    }
    if let Some(path) = o.json {
        // the stack pointer's first value is the top of the stack (start-up code)
        let init_sp = e
            .objects
            .iter()
            .chain(e.funcs.iter())
            .find(|s| s.name == "__stack_top")
            .map(|s| s.addr)
            .unwrap_or(MEM_END);
        let r = report::Run {
            model_version: MODEL_VERSION,
            machine: o.machine,
            core: if o.fpu { "cv32e40p" } else { "cv32e40p-nofpu" },
            estimate: false,
            firmware: o.elf_path,
            exit_code: code,
            error: err.as_deref(),
            class_names: &CLASS_NAMES,
            init_sp,
            min_sp: h.m.min_sp.min(init_sp),
            static_ram,
            wall,
        };
        report::write_file(path, &report::json(&h.m, &r));
    }
    if let (Some(t), Some(path)) = (ct.as_ref(), o.ct) {
        let s = taint::report_json(
            &t.track,
            &e.funcs,
            &taint::Run {
                model_version: MODEL_VERSION,
                machine: o.machine,
                core: if o.fpu { "cv32e40p" } else { "cv32e40p-nofpu" },
                firmware: o.elf_path,
                exit_code: code,
                error: err.as_deref(),
                instructions: h.m.insns,
                cycles: h.m.cycles,
                wall,
                summaries: summaries.json(),
            },
        );
        if !report::write_file(path, &s) {
            std::process::exit(2);
        }
    }
    let _ = std::io::stderr().flush();
    std::process::exit(code);
}
