// SPDX-License-Identifier: MIT
//! pqlab-sim: cycle-approximate Cortex-M4 / Cortex-M7 simulator of the
//! MPS2 AN386 / AN500 machines, and of the CV32E40P (RV32IMFC) on pqlab's test bench.

mod arm;
mod machine;
mod rv32;
mod timing;

use arm::cpu::{self, Cpu, Stop};
use arm::{ct, mem};
use machine::{elf, json_str, marks, profile, summary, symbolize, taint};
use std::io::Write;
use timing::cortex_m::{self as timing_m, Core, CortexM4, CortexM7, CortexTiming};
#[allow(unused_imports)]
use timing::cv32e40p;

const USAGE: &str =
    "usage: pqlab-sim [--machine mps2-an386|mps2-an500|cv32e40p|cv32e40p-nofpu|cv32e40p-acc] [--json REPORT] \
[--profile FILE] [--intervals FILE] [--max-insns N] [--trace FILE] [--trace-limit N]
[--trace-start-pc ADDR] [--trace-stop] [--ct FILE] [--no-summaries] [--writes FILE] FIRMWARE.elf

Runs FIRMWARE.elf like `qemu-system-arm -M <machine> -nographic -semihosting -kernel`:
UART0 goes to stdout, semihosting console output to stderr, the semihosting exit
code becomes the process exit code.
  --machine M      mps2-an386 (Cortex-M4, default), mps2-an500 (Cortex-M7, estimate),
                   cv32e40p or cv32e40p-nofpu (RV32IMFC / RV32IMC CV32E40P on pqlab's test
                   bench memory map, docs/cv32e40p.md; --trace and --intervals are not
                   available there), cv32e40p-acc (cv32e40p-nofpu with pqlab's accelerators
                   on the data port: the Keccak and NTT units, docs/accel.md); put it before
                   --version to get its timing model
  --json FILE      write a JSON report (cycles, instructions, stack, mix, model version)
  --profile FILE   write a per-function profile (inclusive/exclusive cycles, calls);
                   FILE.folded gets flame-graph stacks
  --intervals FILE write the figures of every interval between the firmware's
                   pqlab_mark_begin/pqlab_mark_end calls as a tab-separated table
                   (they are also in the JSON report)
  --max-insns N    stop with an error after N instructions
  --trace FILE     write the register state after each instruction (binary, for lockstep)
  --trace-limit N  number of instructions to trace (default 100000)
  --trace-start-pc ADDR  start the trace when execution first reaches ADDR; the
                   first record is then the state on arrival, before ADDR executes
  --trace-stop     end the run (exit code 0) when the trace is complete
  --ct FILE        constant-time analysis: track secrets (marked by the firmware's calls of
                   pqlab_ct_secret / pqlab_ct_declassify) and write to FILE, as JSON, every
                   branch, address and variable-latency instruction of this core that depends
                   on them, with its call stack (docs/ct.md); the hash permutations are
                   summarised after their first verified calls (machine/summary.rs)
  --no-summaries   --ct: track every instruction of every call (no function summaries)
  --writes FILE    RV32 machines: record every register write and every stored byte for the
                   functional lockstep against cv32e40p-rtl (binary, the test bench's
                   --writes format; `pqlab lockstep`, docs/cv32e40p.md)";

struct Opts {
    machine: String,
    json: Option<String>,
    profile: Option<String>,
    intervals: Option<String>,
    max_insns: u64,
    trace: Option<String>,
    trace_limit: u64,
    trace_start_pc: Option<u32>,
    trace_stop: bool,
    ct: Option<String>,
    no_summaries: bool,
    writes: Option<String>,
    elf: String,
}

fn parse_args() -> Result<Opts, String> {
    let mut o = Opts {
        machine: "mps2-an386".into(),
        json: None,
        profile: None,
        intervals: None,
        max_insns: u64::MAX,
        trace: None,
        trace_limit: 100_000,
        trace_start_pc: None,
        trace_stop: false,
        ct: None,
        no_summaries: false,
        writes: None,
        elf: String::new(),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut k = 0;
    let val = |k: &mut usize, name: &str| -> Result<String, String> {
        *k += 1;
        args.get(*k)
            .cloned()
            .ok_or_else(|| format!("{} needs a value", name))
    };
    while k < args.len() {
        let a = args[k].clone();
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
            _ => (a.clone(), None),
        };
        let get = |k: &mut usize| -> Result<String, String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => val(k, &name),
            }
        };
        match name.as_str() {
            "-h" | "--help" => {
                println!("{}", USAGE);
                std::process::exit(0);
            }
            "--version" => {
                // the timing model of the machine given before it (the Cortex-M models'
                // when none is)
                let model = if o.machine.starts_with("cv32e40p") {
                    timing::cv32e40p::MODEL_VERSION
                } else {
                    timing_m::MODEL_VERSION
                };
                println!("pqlab-sim {} ({})", env!("CARGO_PKG_VERSION"), model);
                std::process::exit(0);
            }
            "--machine" | "-M" => o.machine = get(&mut k)?,
            "--json" => o.json = Some(get(&mut k)?),
            "--profile" => o.profile = Some(get(&mut k)?),
            "--writes" => o.writes = Some(get(&mut k)?),
            "--intervals" => o.intervals = Some(get(&mut k)?),
            "--trace" => o.trace = Some(get(&mut k)?),
            "--ct" => o.ct = Some(get(&mut k)?),
            "--trace-start-pc" => {
                let v = get(&mut k)?;
                let t = v.trim_start_matches("0x").trim_start_matches("0X");
                let a = if t.len() != v.len() {
                    u32::from_str_radix(t, 16)
                } else {
                    v.parse()
                };
                o.trace_start_pc = Some(a.map_err(|_| "--trace-start-pc needs an address")? & !1)
            }
            "--trace-stop" => o.trace_stop = true,
            "--no-summaries" => o.no_summaries = true,
            "--trace-limit" => {
                o.trace_limit = get(&mut k)?
                    .parse()
                    .map_err(|_| "--trace-limit needs a number")?
            }
            "--max-insns" => {
                o.max_insns = get(&mut k)?
                    .parse()
                    .map_err(|_| "--max-insns needs a number")?
            }
            _ if name.starts_with('-') => return Err(format!("unknown option {}", name)),
            _ => {
                if !o.elf.is_empty() {
                    return Err("more than one firmware file given".into());
                }
                o.elf = a.clone();
            }
        }
        k += 1;
    }
    if o.elf.is_empty() {
        return Err("no firmware file given".into());
    }
    Ok(o)
}

fn main() {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("pqlab-sim: {}\n{}", e, USAGE);
            std::process::exit(2);
        }
    };
    if o.machine.starts_with("cv32e40p") {
        let fpu = match o.machine.as_str() {
            "cv32e40p" => true,
            "cv32e40p-nofpu" | "cv32e40p-acc" => false,
            m => {
                eprintln!(
                    "pqlab-sim: unknown machine '{}' (known: mps2-an386, mps2-an500, cv32e40p, cv32e40p-nofpu, cv32e40p-acc)",
                    m
                );
                std::process::exit(2);
            }
        };
        if o.trace.is_some() || o.intervals.is_some() {
            eprintln!("pqlab-sim: --trace and --intervals are not available on the RV32 machines");
            std::process::exit(2);
        }
        if o.writes.is_some() && (o.ct.is_some() || o.profile.is_some()) {
            eprintln!("pqlab-sim: --writes runs alone (not with --ct or --profile)");
            std::process::exit(2);
        }
        if o.ct.is_some() && o.profile.is_some() {
            eprintln!("pqlab-sim: --ct runs alone (not with --profile or --trace)");
            std::process::exit(2);
        }
        let bytes = std::fs::read(&o.elf).unwrap_or_else(|e| {
            eprintln!("pqlab-sim: cannot read {}: {}", o.elf, e);
            std::process::exit(2);
        });
        let e = elf::Elf::parse(&bytes).unwrap_or_else(|e| {
            eprintln!("pqlab-sim: {}: {}", o.elf, e);
            std::process::exit(2);
        });
        rv32::run::main(
            &rv32::run::Opts {
                machine: &o.machine,
                fpu,
                json: o.json.as_deref(),
                profile: o.profile.as_deref(),
                max_insns: o.max_insns,
                elf_path: &o.elf,
                ct: o.ct.as_deref(),
                no_summaries: o.no_summaries,
                writes: o.writes.as_deref(),
            },
            &e,
        );
    }
    let (core, an500) = match o.machine.as_str() {
        "mps2-an386" => (Core::M4, false),
        "mps2-an500" => (Core::M7, true),
        m => {
            eprintln!(
                "pqlab-sim: unknown machine '{}' (known: mps2-an386, mps2-an500, cv32e40p, cv32e40p-nofpu, cv32e40p-acc)",
                m
            );
            std::process::exit(2);
        }
    };
    let bytes = match std::fs::read(&o.elf) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("pqlab-sim: cannot read {}: {}", o.elf, e);
            std::process::exit(2);
        }
    };
    let elf = match elf::Elf::parse(&bytes) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("pqlab-sim: {}: {}", o.elf, e);
            std::process::exit(2);
        }
    };
    if elf.machine != elf::EM_ARM {
        eprintln!(
            "pqlab-sim: {}: not an ARM ELF (machine {} needs one)",
            o.elf, o.machine
        );
        std::process::exit(2);
    }
    match core {
        Core::M4 => run_arm::<CortexM4>(&o, &elf, an500),
        Core::M7 => run_arm::<CortexM7>(&o, &elf, an500),
    }
}

/// Run an Arm ELF on the MPS2 machine with the timing model `T` (one copy of everything
/// below per core), write the reports and exit.
fn run_arm<T: CortexTiming>(o: &Opts, elf: &elf::Elf, an500: bool) -> ! {
    let core = T::CORE;
    let mut cpu = Cpu::<T>::new(mem::Mem::new(an500));
    for seg in &elf.segments {
        if !cpu.mem.load(seg.paddr, &seg.data) {
            eprintln!(
                "pqlab-sim: ELF segment at 0x{:08x} does not fit the {} memory map",
                seg.paddr, o.machine
            );
            std::process::exit(2);
        }
    }
    // statically allocated RAM (.data, .bss, heap and stack sections as linked):
    // loadable segments whose run-time address is in the SRAM regions
    let static_ram: u64 = elf
        .segments
        .iter()
        .filter(|s| (0x2000_0000..0x2080_0000).contains(&s.vaddr) && s.memsz > 0)
        .filter(|s| s.memsz < 0x40_0000)
        .map(|s| s.memsz as u64)
        .sum();
    // QEMU's armv7m loader takes SP and PC from the vector table at 0
    if cpu.reset().is_err() {
        if let Stop::Error(e) = cpu.take_stop() {
            eprintln!("pqlab-sim: reset failed: {}", e);
        }
        std::process::exit(2);
    }
    let _ = elf.entry;
    if o.writes.is_some() {
        eprintln!(
            "pqlab-sim: --writes is for the RV32 machines (the Cortex-M lockstep uses --trace)"
        );
        std::process::exit(2);
    }
    if o.ct.is_some() && (o.profile.is_some() || o.trace.is_some()) {
        eprintln!("pqlab-sim: --ct runs alone (not with --profile or --trace)");
        std::process::exit(2);
    }
    let mut taint =
        o.ct.as_ref()
            .map(|_| Box::new(ct::Taint::new(an500, taint::Tracker::new(&elf.funcs))));
    if taint.is_none() {
        cpu.marks = marks::Marks::from_symbols(&elf.funcs);
    }
    cpu.max_insns = o.max_insns;
    let mut summaries = summary::Summaries::for_elf(&elf.funcs, !o.no_summaries);
    let start = std::time::Instant::now();
    let mut prof = o
        .profile
        .as_ref()
        .map(|_| profile::Profile::new(&elf.funcs));
    let mut trace = o.trace.as_ref().map(|p| {
        std::io::BufWriter::new(std::fs::File::create(p).unwrap_or_else(|e| {
            eprintln!("pqlab-sim: cannot create {}: {}", p, e);
            std::process::exit(2);
        }))
    });
    let topts = TraceOpts {
        limit: o.trace_limit,
        start_pc: o.trace_start_pc,
        stop: o.trace_stop,
    };
    let stop = match taint.as_deref_mut() {
        Some(t) => run_ct(&mut cpu, t, &mut summaries),
        None => run(&mut cpu, prof.as_mut(), trace.as_mut(), &topts),
    };
    if let Some(t) = trace.as_mut() {
        let _ = t.flush();
    }
    let wall = start.elapsed().as_secs_f64();
    cpu.flush();
    let (code, err) = match stop {
        Stop::Exit(c) => (c, None),
        Stop::Error(e) => (1, Some(e)),
    };
    if let Some(e) = &err {
        let place = symbolize(&elf.funcs, cpu.pc);
        if e.starts_with("HardFault") {
            // what the firmware's own fault handler prints on QEMU and on a board
            // (platforms/armv7m/startup.c): a '#fault' line on UART0, which the host's
            // protocol parser reports as the reason of the failure
            let _ = writeln!(
                cpu.stdout,
                "\n#fault sim-{} pc=0x{:08x}{}{}: {}",
                if cpu.fault_addr.is_some() {
                    "busfault"
                } else {
                    "hardfault"
                },
                cpu.pc,
                cpu.fault_addr
                    .map(|a| format!(" addr=0x{:08x}", a))
                    .unwrap_or_default(),
                place
                    .as_ref()
                    .map(|p| format!(" in {}", p))
                    .unwrap_or_default(),
                e
            );
            let _ = cpu.stdout.flush();
        }
        eprintln!("pqlab-sim: {}", e);
        eprintln!(
            "pqlab-sim: stopped after {} instructions, {} cycles; pc=0x{:08x}{} {}",
            cpu.insns,
            cpu.cycles,
            cpu.pc,
            place.map(|p| format!(" ({})", p)).unwrap_or_default(),
            regs_str(&cpu)
        );
    }
    if let (Some(p), Some(path)) = (prof.as_mut(), o.profile.as_ref()) {
        p.finish(cpu.cycles);
        if let Err(e) = p.write(path, &elf.funcs) {
            eprintln!("pqlab-sim: cannot write profile {}: {}", path, e);
        }
    }
    for p in &cpu.marks.open {
        let e = format!("interval '{}' still open at the end of the run", p.label);
        cpu.marks.errors.push(e);
    }
    if let Some(path) = &o.intervals {
        let mut t =
            String::from("label\tdepth\tstart_cycle\tcycles\tinstructions\tstack_high_water");
        for name in cpu::class_names() {
            t.push('\t');
            t.push_str(name);
        }
        t.push('\n');
        for iv in &cpu.marks.done {
            t.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\t{}",
                iv.label.replace(['\t', '\n'], " "),
                iv.depth,
                iv.start_cycle,
                iv.cycles,
                iv.instructions,
                iv.stack_high_water
            ));
            for k in 0..cpu::class_names().len() {
                t.push_str(&format!("\t{}", iv.mix[k]));
            }
            t.push('\n');
        }
        for e in &cpu.marks.errors {
            t.push_str(&format!("# error: {}\n", e));
        }
        if let Err(e) = std::fs::write(path, t) {
            eprintln!("pqlab-sim: cannot write {}: {}", path, e);
        }
    }
    if let Some(path) = &o.json {
        let mix_of = |counts: &[u64; 16]| {
            let mut mix = String::new();
            for (k, name) in cpu::class_names().iter().enumerate() {
                if k > 0 {
                    mix.push_str(", ");
                }
                mix.push_str(&format!("\"{}\": {}", name, counts[k]));
            }
            mix
        };
        let mix = mix_of(&cpu.class_count);
        let mut ivs = String::new();
        for (k, iv) in cpu.marks.done.iter().enumerate() {
            ivs.push_str(if k == 0 { "\n    " } else { ",\n    " });
            ivs.push_str(&format!(
                "{{\"label\": {}, \"depth\": {}, \"start_cycle\": {}, \"cycles\": {}, \"instructions\": {}, \"stack_high_water\": {}, \"instruction_mix\": {{{}}}}}",
                json_str(&iv.label),
                iv.depth,
                iv.start_cycle,
                iv.cycles,
                iv.instructions,
                iv.stack_high_water,
                mix_of(&iv.mix)
            ));
        }
        if !ivs.is_empty() {
            ivs.push_str("\n  ");
        }
        let errs: Vec<String> = cpu.marks.errors.iter().map(|e| json_str(e)).collect();
        let stack = cpu.init_sp.wrapping_sub(cpu.min_sp);
        let s = format!(
            "{{\n  \"simulator\": \"pqlab-sim\",\n  \"version\": {},\n  \"model_version\": {},\n  \"machine\": {},\n  \"core\": {},\n  \"simulated\": true,\n  \"estimate\": {},\n  \"firmware\": {},\n  \"exit_code\": {},\n  \"error\": {},\n  \"cycles\": {},\n  \"instructions\": {},\n  \"stack_high_water\": {},\n  \"static_ram\": {},\n  \"peak_ram\": {},\n  \"initial_sp\": {},\n  \"min_sp\": {},\n  \"instruction_mix\": {{{}}},\n  \"interval_marks\": {},\n  \"intervals\": [{}],\n  \"mark_errors\": [{}],\n  \"wall_seconds\": {:.6},\n  \"mips\": {:.3}\n}}\n",
            json_str(env!("CARGO_PKG_VERSION")),
            json_str(timing_m::MODEL_VERSION),
            json_str(&o.machine),
            json_str(if core == Core::M4 { "cortex-m4" } else { "cortex-m7" }),
            core == Core::M7,
            json_str(&o.elf),
            code,
            err.as_ref().map(|e| json_str(e)).unwrap_or_else(|| "null".into()),
            cpu.cycles,
            cpu.insns,
            stack,
            static_ram,
            static_ram + stack as u64,
            cpu.init_sp,
            cpu.min_sp,
            mix,
            cpu.marks.found,
            ivs,
            errs.join(", "),
            wall,
            cpu.insns as f64 / wall.max(1e-9) / 1e6
        );
        if let Err(e) = std::fs::write(path, s) {
            eprintln!("pqlab-sim: cannot write {}: {}", path, e);
        }
    }
    if let (Some(t), Some(path)) = (taint.as_ref(), o.ct.as_ref()) {
        let s = taint::report_json(
            &t.track,
            &elf.funcs,
            &taint::Run {
                model_version: timing_m::MODEL_VERSION,
                machine: &o.machine,
                core: if core == Core::M4 {
                    "cortex-m4"
                } else {
                    "cortex-m7"
                },
                firmware: &o.elf,
                exit_code: code,
                error: err.as_deref(),
                instructions: cpu.insns,
                cycles: cpu.cycles,
                wall,
                summaries: summaries.json(),
            },
        );
        if let Err(e) = std::fs::write(path, s) {
            eprintln!("pqlab-sim: cannot write {}: {}", path, e);
            std::process::exit(2);
        }
    }
    std::process::exit(code);
}

/// The run loop of the constant-time analysis: the tracker sees each instruction before
/// it executes (the untracked loops stay as they are).
fn run_ct<T: CortexTiming>(
    cpu: &mut Cpu<T>,
    t: &mut ct::Taint,
    s: &mut summary::Summaries,
) -> Stop {
    loop {
        if cpu.insns >= cpu.max_insns {
            return budget_error(cpu);
        }
        let pc = cpu.pc;
        t.hooks(cpu, pc);
        if let Some(k) = s.at(pc) {
            let (ret, sp, events, insns) = (cpu.r[14] & !1, cpu.r[13], t.track.events, cpu.insns);
            let mut target = ct::SummaryTarget { cpu, t };
            if let summary::Entry::Return(to) = s.enter(k, &mut target, ret, sp, events, insns) {
                // the call is done: back in the caller as after its BX LR
                t.after(pc, 2, false, to);
                cpu.pc = to;
                continue;
            }
        }
        let i = cpu.fetch(pc);
        let ipsr0 = cpu.ipsr;
        t.propagate(cpu, &i, pc);
        cpu.last_branch_link = false;
        if cpu.step().is_err() {
            return cpu.take_stop();
        }
        t.after(pc, i.len, cpu.last_branch_link, cpu.pc);
        if s.pending() {
            let (npc, sp, events, insns) = (cpu.pc, cpu.r[13], t.track.events, cpu.insns);
            s.check(npc, sp, &mut ct::SummaryTarget { cpu, t }, events, insns);
        }
        if ipsr0 != 0 && cpu.ipsr != ipsr0 {
            t.exception_return();
        } else if ipsr0 == 0 && cpu.ipsr != 0 {
            t.exception_entry(); // SVC, a fault taken by the firmware
        }
        let sp = cpu.r[13];
        if sp < cpu.min_sp {
            cpu.min_sp = sp;
        }
        if cpu.cycles >= cpu.next_event() {
            cpu.st_tick();
        }
        if cpu.it == 0 {
            let before = cpu.ipsr;
            if cpu.check_irq().is_err() {
                return cpu.take_stop();
            }
            if before == 0 && cpu.ipsr != 0 {
                t.exception_entry();
            }
        }
    }
}

fn regs_str<T: CortexTiming>(cpu: &Cpu<T>) -> String {
    let mut s = String::new();
    for k in 0..15 {
        s.push_str(&format!("r{}=0x{:08x} ", k, cpu.r[k]));
    }
    s.push_str(&format!("xpsr=0x{:08x}", cpu.xpsr()));
    s
}

fn run<T: CortexTiming>(
    cpu: &mut Cpu<T>,
    prof: Option<&mut profile::Profile>,
    trace: Option<&mut std::io::BufWriter<std::fs::File>>,
    topts: &TraceOpts,
) -> Stop {
    match (prof, trace) {
        (None, None) => run_fast(cpu),
        (p, t) => run_slow(cpu, p, t, topts),
    }
}

fn budget_error<T: CortexTiming>(cpu: &Cpu<T>) -> Stop {
    Stop::Error(format!(
        "instruction budget exceeded: {} instructions executed (--max-insns), pc=0x{:08x}",
        cpu.insns, cpu.pc
    ))
}

/// The fast loop (compiled separately for each core's timing model).
fn run_fast<T: CortexTiming>(cpu: &mut Cpu<T>) -> Stop {
    loop {
        // a SysTick that is pending but could not be taken yet (IT block open, PRIMASK set,
        // handler mode) is retried after every instruction, as the profiling loop does; the
        // next event alone is a whole period away (pqm4's HAL then read its wrap count one
        // wrap short)
        let ev = if cpu.systick_pending {
            cpu.next_event().min(cpu.cycles + 1)
        } else {
            cpu.next_event()
        };
        let limit = cpu.max_insns;
        // inner loop without event checks until the next SysTick event
        while cpu.cycles < ev {
            if cpu.insns >= limit {
                return budget_error(cpu);
            }
            if cpu.step().is_err() {
                return cpu.take_stop();
            }
            let sp = cpu.r[13];
            if sp < cpu.min_sp {
                cpu.min_sp = sp;
            }
            if cpu.next_event() != ev {
                break;
            }
        }
        cpu.st_tick();
        if cpu.it == 0 && cpu.check_irq().is_err() {
            return cpu.take_stop();
        }
    }
}

fn run_slow<T: CortexTiming>(
    cpu: &mut Cpu<T>,
    mut prof: Option<&mut profile::Profile>,
    mut trace: Option<&mut std::io::BufWriter<std::fs::File>>,
    topts: &TraceOpts,
) -> Stop {
    // instructions traced so far; None until the trace starts
    let mut traced: Option<u64> = if topts.start_pc.is_none() {
        Some(0)
    } else {
        None
    };
    loop {
        if traced.is_none() && Some(cpu.pc) == topts.start_pc {
            traced = Some(0);
            if let Some(t) = trace.as_deref_mut() {
                write_trace_rec(cpu, t);
            }
        }
        if topts.stop && traced.map_or(false, |n| n >= topts.limit) {
            return Stop::Exit(0);
        }
        if cpu.insns >= cpu.max_insns {
            return budget_error(cpu);
        }
        let pc = cpu.pc;
        let c0 = cpu.cycles;
        cpu.last_branch_link = false;
        if cpu.step().is_err() {
            return cpu.take_stop();
        }
        let sp = cpu.r[13];
        if sp < cpu.min_sp {
            cpu.min_sp = sp;
        }
        if cpu.cycles >= cpu.next_event() {
            cpu.st_tick();
        }
        if cpu.it == 0 && cpu.check_irq().is_err() {
            return cpu.take_stop();
        }
        if let Some(p) = prof.as_deref_mut() {
            p.step(
                pc,
                cpu.pc,
                cpu.cycles - c0,
                cpu.cycles,
                cpu.last_branch_link,
                cpu.r[14],
            );
        }
        if let Some(n) = traced.as_mut() {
            if *n < topts.limit {
                *n += 1;
                if let Some(t) = trace.as_deref_mut() {
                    write_trace_rec(cpu, t);
                }
            }
        }
    }
}

struct TraceOpts {
    limit: u64,
    start_pc: Option<u32>,
    stop: bool,
}

/// One trace record: r0-r14, pc, xPSR, FPSCR, s0-s31 (50 little-endian words).
fn write_trace_rec<T: CortexTiming>(cpu: &Cpu<T>, t: &mut std::io::BufWriter<std::fs::File>) {
    let mut rec = [0u32; 18];
    rec[..15].copy_from_slice(&cpu.r[..15]);
    rec[15] = cpu.pc;
    rec[16] = cpu.xpsr();
    rec[17] = cpu.fpscr;
    let mut b = Vec::with_capacity(72 + 128);
    for v in rec {
        b.extend_from_slice(&v.to_le_bytes());
    }
    for v in cpu.s {
        b.extend_from_slice(&v.to_le_bytes());
    }
    let _ = t.write_all(&b);
}
