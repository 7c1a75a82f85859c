// SPDX-License-Identifier: MIT
//! Running an RV32 ELF on the CV32E40P machine: loading, the run loops (fast; with the
//! profiler; with the secret tracking) and the JSON reports, with the same fields as the
//! Cortex-M machines'.

use super::ct::{SummaryTarget, Taint};
use super::decode::CLASS_NAMES;
use super::hart::{Hart, Stop, MEM_END, RAM_BASE, ROM_BASE};
use super::lockstep;
use crate::machine::summary::{Entry, Summaries};
use crate::machine::{elf, json_str, profile, taint};
use crate::timing::cv32e40p::MODEL_VERSION;
use std::io::Write;

pub struct Opts<'a> {
    pub machine: &'a str,
    pub fpu: bool,
    pub json: Option<&'a str>,
    pub profile: Option<&'a str>,
    pub max_insns: u64,
    pub elf_path: &'a str,
    /// the constant-time analysis' report (`--ct`)
    pub ct: Option<&'a str>,
    /// `--ct` without the hash permutations' summaries (machine/summary.rs)
    pub no_summaries: bool,
    /// the functional lockstep's record file (`--writes`, lockstep.rs)
    pub writes: Option<&'a str>,
}

fn budget(h: &Hart) -> Stop {
    Stop::Error(format!(
        "instruction budget exceeded: {} instructions executed (--max-insns), pc=0x{:08x}",
        h.insns, h.pc
    ))
}

fn run_fast(h: &mut Hart) -> Stop {
    let limit = h.max_insns;
    loop {
        if h.insns >= limit {
            return budget(h);
        }
        if h.step().is_err() {
            return h.take_stop();
        }
        let sp = h.x[2];
        if sp < h.min_sp && sp >= RAM_BASE {
            h.min_sp = sp;
        }
    }
}

fn run_prof(h: &mut Hart, p: &mut profile::Profile) -> Stop {
    loop {
        if h.insns >= h.max_insns {
            return budget(h);
        }
        let pc = h.pc;
        let c0 = h.cycles;
        h.last_link = false;
        if h.step().is_err() {
            return h.take_stop();
        }
        let sp = h.x[2];
        if sp < h.min_sp && sp >= RAM_BASE {
            h.min_sp = sp;
        }
        p.step(pc, h.pc, h.cycles - c0, h.cycles, h.last_link, h.link_ret);
    }
}

/// The run loop of the constant-time analysis: the tracker sees each instruction before it
/// executes, on the state it reads (the untracked loops stay as they are).
fn run_ct(h: &mut Hart, t: &mut Taint, s: &mut Summaries) -> Stop {
    loop {
        if h.insns >= h.max_insns {
            return budget(h);
        }
        let pc = h.pc;
        t.hooks(h, pc);
        if let Some(k) = s.at(pc) {
            let (ret, sp, events, insns) = (h.x[1], h.x[2], t.track.events, h.insns);
            if let Entry::Return(to) =
                s.enter(k, &mut SummaryTarget { h, t }, ret, sp, events, insns)
            {
                // the call is done: back in the caller as after its `ret`
                t.track.after(pc, 4, false, to);
                h.pc = to;
                continue;
            }
        }
        let i = match h.fetch(pc) {
            Ok(i) => i,
            Err(_) => return h.take_stop(),
        };
        t.propagate(h, &i, pc);
        h.last_link = false;
        if h.step().is_err() {
            return h.take_stop();
        }
        t.track.after(pc, i.len, h.last_link, h.pc);
        if s.pending() {
            let (npc, sp, events, insns) = (h.pc, h.x[2], t.track.events, h.insns);
            s.check(npc, sp, &mut SummaryTarget { h, t }, events, insns);
        }
        let sp = h.x[2];
        if sp < h.min_sp && sp >= RAM_BASE {
            h.min_sp = sp;
        }
    }
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
    let mut h = Hart::new(o.fpu);
    if o.machine == "cv32e40p-acc" {
        // cv32e40p-nofpu with pqlab's accelerators on the data port (accel.rs): slot 0 the
        // Keccak unit, slot 1 the NTT unit (ntt_acc.rs)
        h.keccak = Some(Box::default());
        h.ntt = Some(Box::default());
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
    let static_ram: u64 = e
        .segments
        .iter()
        .filter(|s| (RAM_BASE..MEM_END).contains(&s.vaddr) && s.memsz > 0)
        .map(|s| s.memsz as u64)
        .sum();
    h.max_insns = o.max_insns;
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
        (_, Some(t), _) => run_ct(&mut h, t, &mut summaries),
        (_, None, Some(w)) => lockstep::run(&mut h, w, budget),
        (Some(p), None, None) => run_prof(&mut h, p),
        (None, None, None) => run_fast(&mut h),
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
        eprintln!("pqlab-sim: {}", msg);
        eprintln!(
            "pqlab-sim: stopped after {} instructions, {} cycles; pc=0x{:08x}",
            h.insns, h.cycles, h.pc
        );
    }
    if let (Some(p), Some(path)) = (prof.as_mut(), o.profile) {
        p.finish(h.cycles);
        if let Err(er) = p.write(path, &e.funcs) {
            eprintln!("pqlab-sim: cannot write profile {}: {}", path, er);
        }
    }
    if let Some(path) = o.json {
        let mut mix = String::new();
        for (k, name) in CLASS_NAMES.iter().enumerate() {
            if k > 0 {
                mix.push_str(", ");
            }
            mix.push_str(&format!("\"{}\": {}", name, h.class_count[k]));
        }
        // the stack pointer's first value is the top of the stack (start-up code)
        let init_sp = e
            .objects
            .iter()
            .chain(e.funcs.iter())
            .find(|s| s.name == "__stack_top")
            .map(|s| s.addr)
            .unwrap_or(MEM_END);
        let min_sp = h.min_sp.min(init_sp);
        let stack = init_sp.wrapping_sub(min_sp);
        let s = format!(
            "{{\n  \"simulator\": \"pqlab-sim\",\n  \"version\": {},\n  \"model_version\": {},\n  \"machine\": {},\n  \"core\": {},\n  \"simulated\": true,\n  \"estimate\": false,\n  \"firmware\": {},\n  \"exit_code\": {},\n  \"error\": {},\n  \"cycles\": {},\n  \"instructions\": {},\n  \"stack_high_water\": {},\n  \"static_ram\": {},\n  \"peak_ram\": {},\n  \"initial_sp\": {},\n  \"min_sp\": {},\n  \"instruction_mix\": {{{}}},\n  \"interval_marks\": false,\n  \"intervals\": [],\n  \"mark_errors\": [],\n  \"wall_seconds\": {:.6},\n  \"mips\": {:.3}\n}}\n",
            json_str(env!("CARGO_PKG_VERSION")),
            json_str(MODEL_VERSION),
            json_str(o.machine),
            json_str(if o.fpu { "cv32e40p" } else { "cv32e40p-nofpu" }),
            json_str(o.elf_path),
            code,
            err.as_ref().map(|x| json_str(x)).unwrap_or_else(|| "null".into()),
            h.cycles,
            h.insns,
            stack,
            static_ram,
            static_ram + stack as u64,
            init_sp,
            min_sp,
            mix,
            wall,
            h.insns as f64 / wall.max(1e-9) / 1e6
        );
        if let Err(er) = std::fs::write(path, s) {
            eprintln!("pqlab-sim: cannot write {}: {}", path, er);
        }
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
                instructions: h.insns,
                cycles: h.cycles,
                wall,
                summaries: summaries.json(),
            },
        );
        if let Err(er) = std::fs::write(path, s) {
            eprintln!("pqlab-sim: cannot write {}: {}", path, er);
            std::process::exit(2);
        }
    }
    let _ = std::io::stderr().flush();
    std::process::exit(code);
}
