// SPDX-License-Identifier: MIT
//! pqlab-sim: cycle-approximate Cortex-M4 / Cortex-M7 simulator of the
//! MPS2 AN386 / AN500 machines, and of the CV32E40P (RV32IMFC) on pqlab's test bench.

mod arm;
mod machine;
mod rv32;
mod timing;

use arm::cpu::{self, Cpu, Stop};
use arm::{ct, mem};
use machine::{elf, marks, profile, report, run, summary, symbolize, taint};
use std::io::Write;
use timing::cortex_m::{self as timing_m, Core, CortexM4, CortexM7, CortexTiming};
#[allow(unused_imports)]
use timing::cv32e40p;

const USAGE: &str =
    "usage: pqlab-sim [--machine mps2-an386|mps2-an500|cv32e40p|cv32e40p-nofpu|cv32e40p-acc] [--json REPORT] \
[--profile FILE] [--intervals FILE] [--max-insns N] [--trace FILE] [--trace-limit N]
[--trace-start-pc ADDR] [--trace-stop] [--ct FILE] [--no-summaries] [--writes FILE]
[--memory S] FIRMWARE.elf

Runs FIRMWARE.elf like `qemu-system-arm -M <machine> -nographic -semihosting -kernel`:
UART0 goes to stdout, semihosting console output to stderr, the semihosting exit
code becomes the process exit code.
  --machine M      mps2-an386 (Cortex-M4, default), mps2-an500 (Cortex-M7, estimate),
                   cv32e40p or cv32e40p-nofpu (RV32IMFC / RV32IMC CV32E40P on pqlab's test
                   bench memory map, docs/cv32e40p.md; --trace is not available there;
                   RISC-V semihosting as on the Cortex-M), cv32e40p-acc (cv32e40p-nofpu
                   with pqlab's accelerators: the Keccak instructions and the NTT unit,
                   docs/accel.md); put it before
                   --version to get its timing model, before --memory-map to get its map
  --memory-map     print the machine's memory map (code, RAM, device windows) and exit
  --memory S       mps2-an500 (Cortex-M7 estimate): memory set-up, tcm (default: code and
                   data in TCM, no caches) or stm32f7 (an STM32F76x at 216 MHz: code in flash
                   with 7 wait states behind the 16 KB I-cache, data outside the 128 KB DTCM
                   and flash constants behind the 16 KB D-cache; stm32f7-icache: D-cache off;
                   stm32f7-nocache: both off; timing/m7mem.rs); mps2-an386 (Cortex-M4):
                   stm32l4r5 (the SRAM1/SRAM2/SRAM3 and flash blocks of pqm4's NUCLEO-L4R5ZI,
                   the stack at the top of its 640 KiB: loads and stores pipeline only within
                   one block; timing/m4mem.rs); recorded in the model version (give it
                   before --version)
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
    memory: timing::m7mem::Setup,
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
        memory: timing::m7mem::Setup::Tcm,
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
                    timing::cv32e40p::MODEL_VERSION.to_string()
                } else {
                    model_version(o.memory)
                };
                println!("pqlab-sim {} ({})", env!("CARGO_PKG_VERSION"), model);
                std::process::exit(0);
            }
            "--memory-map" => {
                // the memory map of the machine given before it (machine/bus.rs)
                let map = match o.machine.as_str() {
                    "mps2-an386" => mem::map(false),
                    "mps2-an500" => mem::map(true),
                    m @ ("cv32e40p" | "cv32e40p-nofpu") => rv32::tb::map(m, false),
                    "cv32e40p-acc" => rv32::tb::map("cv32e40p-acc", true),
                    m => return Err(format!("unknown machine {}", m)),
                };
                print!("{}", map);
                std::process::exit(0);
            }
            "--machine" | "-M" => o.machine = get(&mut k)?,
            "--memory" => {
                let v = get(&mut k)?;
                o.memory = timing::m7mem::Setup::parse(&v).ok_or_else(|| {
                    format!(
                        "unknown memory set-up {} (known: {})",
                        v,
                        timing::m7mem::SETUPS
                    )
                })?
            }
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
    // the STM32F7 set-ups are the Cortex-M7 machine's, stm32l4r5 the Cortex-M4 one's
    let m4_setup = o.memory == timing::m7mem::Setup::Stm32l4r5;
    if o.memory != timing::m7mem::Setup::Tcm && !m4_setup && o.machine != "mps2-an500" {
        return Err(format!(
            "--memory {} is for the Cortex-M7 machine (mps2-an500), not {}",
            o.memory.name(),
            o.machine
        ));
    }
    if m4_setup && o.machine != "mps2-an386" {
        return Err(format!(
            "--memory {} is for the Cortex-M4 machine (mps2-an386), not {}",
            o.memory.name(),
            o.machine
        ));
    }
    Ok(o)
}

/// The Cortex-M timing model's version with the memory set-up when it is not TCM.
fn model_version(m: timing::m7mem::Setup) -> String {
    match m {
        timing::m7mem::Setup::Tcm => timing_m::MODEL_VERSION.to_string(),
        s => format!("{} (memory {})", timing_m::MODEL_VERSION, s.name()),
    }
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
        if o.trace.is_some() {
            eprintln!("pqlab-sim: --trace is not available on the RV32 machines (--writes is their lockstep record)");
            std::process::exit(2);
        }
        if o.writes.is_some() && (o.ct.is_some() || o.profile.is_some() || o.intervals.is_some()) {
            eprintln!("pqlab-sim: --writes runs alone (not with --ct, --profile or --intervals)");
            std::process::exit(2);
        }
        if o.ct.is_some() && (o.profile.is_some() || o.intervals.is_some()) {
            eprintln!("pqlab-sim: --ct runs alone (not with --profile, --intervals or --trace)");
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
                intervals: o.intervals.as_deref(),
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
        // one copy of the Cortex-M4 model per kind of memory set-up (timing/m4mem.rs)
        Core::M4 if o.memory == timing::m7mem::Setup::Stm32l4r5 => {
            run_arm::<CortexM4<true>>(&o, &elf, an500)
        }
        Core::M4 => run_arm::<CortexM4>(&o, &elf, an500),
        // one copy of the Cortex-M7 model per kind of memory set-up (timing/m7mem.rs)
        Core::M7 if o.memory == timing::m7mem::Setup::Tcm => {
            run_arm::<CortexM7<false>>(&o, &elf, an500)
        }
        Core::M7 => run_arm::<CortexM7<true>>(&o, &elf, an500),
    }
}

/// Run an Arm ELF on the MPS2 machine with the timing model `T` (one copy of everything
/// below per core), write the reports and exit.
fn run_arm<T: CortexTiming>(o: &Opts, elf: &elf::Elf, an500: bool) -> ! {
    let core = T::CORE;
    let map = mem::map(an500);
    if let Err(e) = elf.check(&map) {
        eprintln!("pqlab-sim: {}: {}", o.elf, e);
        std::process::exit(2);
    }
    let mut cpu = Cpu::<T>::new(mem::Mem::new(an500));
    if !cpu.timing_mut().set_memory(o.memory) {
        eprintln!(
            "pqlab-sim: --memory {} is not available on {}",
            o.memory.name(),
            o.machine
        );
        std::process::exit(2);
    }
    let model = model_version(o.memory);
    for seg in &elf.segments {
        if !cpu.mem.load(seg.paddr, &seg.data) {
            eprintln!(
                "pqlab-sim: ELF segment at 0x{:08x} does not fit the {} memory map",
                seg.paddr, o.machine
            );
            std::process::exit(2);
        }
    }
    // statically allocated RAM: the segments in the map's RAM regions (machine/elf.rs)
    let static_ram = elf.static_ram(&map);
    // QEMU's armv7m loader takes SP and PC from the vector table at 0
    if cpu.reset().is_err() {
        if let Stop::Error(e) = cpu.take_stop() {
            eprintln!("pqlab-sim: reset failed: {}", e);
        }
        std::process::exit(2);
    }
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
        cpu.m.marks = marks::Marks::from_symbols(&elf.funcs);
    }
    cpu.m.max_insns = o.max_insns;
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
    let topts = run::TraceOpts {
        limit: o.trace_limit,
        start_pc: o.trace_start_pc,
        stop: o.trace_stop,
    };
    let stop = match (taint.as_deref_mut(), prof.as_mut(), trace.as_mut()) {
        (Some(t), _, _) => run::run_ct(&mut cpu, t, &mut summaries),
        (None, None, None) => run::run_fast(&mut cpu),
        (None, p, t) => run::run_slow(&mut cpu, p, t.map(|t| t as &mut dyn Write), &topts),
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
                cpu.m.console,
                "\n#fault sim-{} pc=0x{:08x}{}{}: {}",
                if cpu.m.fault_addr.is_some() {
                    "busfault"
                } else {
                    "hardfault"
                },
                cpu.pc,
                cpu.m
                    .fault_addr
                    .map(|a| format!(" addr=0x{:08x}", a))
                    .unwrap_or_default(),
                place
                    .as_ref()
                    .map(|p| format!(" in {}", p))
                    .unwrap_or_default(),
                e
            );
            cpu.m.console.flush();
        }
        let place = format!(
            "{} {}",
            place.map(|p| format!(" ({})", p)).unwrap_or_default(),
            regs_str(&cpu)
        );
        report::stop_message(&cpu.m, e, cpu.pc, &place);
    }
    if let (Some(p), Some(path)) = (prof.as_mut(), o.profile.as_ref()) {
        report::write_profile(p, path, &cpu.m, &elf.funcs);
    }
    cpu.m.marks.finish();
    if let Some(path) = &o.intervals {
        report::write_file(path, &report::intervals_tsv(&cpu.m, cpu::class_names()));
    }
    let core_name = if core == Core::M4 {
        "cortex-m4"
    } else {
        "cortex-m7"
    };
    if let Some(path) = &o.json {
        let r = report::Run {
            model_version: &model,
            machine: &o.machine,
            core: core_name,
            estimate: core == Core::M7,
            firmware: &o.elf,
            exit_code: code,
            error: err.as_deref(),
            class_names: cpu::class_names(),
            init_sp: cpu.m.init_sp,
            min_sp: cpu.m.min_sp,
            static_ram,
            wall,
        };
        report::write_file(path, &report::json(&cpu.m, &r));
    }
    if let (Some(t), Some(path)) = (taint.as_ref(), o.ct.as_ref()) {
        let s = taint::report_json(
            &t.track,
            &elf.funcs,
            &taint::Run {
                model_version: &model,
                machine: &o.machine,
                core: core_name,
                firmware: &o.elf,
                exit_code: code,
                error: err.as_deref(),
                instructions: cpu.m.insns,
                cycles: cpu.m.cycles,
                wall,
                summaries: summaries.json(),
            },
        );
        if !report::write_file(path, &s) {
            std::process::exit(2);
        }
    }
    std::process::exit(code);
}

fn regs_str<T: CortexTiming>(cpu: &Cpu<T>) -> String {
    let mut s = String::new();
    for k in 0..15 {
        s.push_str(&format!("r{}=0x{:08x} ", k, cpu.r[k]));
    }
    s.push_str(&format!("xpsr=0x{:08x}", cpu.xpsr()));
    s
}
