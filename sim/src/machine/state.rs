// SPDX-License-Identifier: MIT
//! The instruction-set-independent state of a simulated machine, which each front end
//! (arm/cpu.rs, rv32/hart.rs) embeds as its field `m`: the clock and the retired-instruction
//! count, the instruction-class counts, the stack tracking, the console, the interval marks,
//! the profiler's call tracking and the reason the run stopped.

use super::marks::Marks;
use super::{Fault, Stop};
use std::io::Write;

/// The console: the guest's character output device (the MPS2 UART0, the CV32E40P test
/// bench's console register), written to the host's stdout line by line so that a run killed
/// by its host (timeout, interrupt) has shown every complete line it printed.
pub struct Console {
    out: std::io::LineWriter<std::io::Stdout>,
}

impl Default for Console {
    fn default() -> Console {
        Console {
            out: std::io::LineWriter::new(std::io::stdout()),
        }
    }
}

impl Console {
    /// One character from the guest.
    pub fn put(&mut self, c: u8) {
        let _ = self.out.write_all(&[c]);
    }
    pub fn flush(&mut self) {
        let _ = self.out.flush();
    }
}

impl Write for Console {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.out.write(b)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

pub struct Machine {
    /// the core's clock: cycles since reset, as its timing model counts them
    pub cycles: u64,
    /// instructions retired
    pub insns: u64,
    /// the instruction budget (`--max-insns`)
    pub max_insns: u64,
    /// the fast loop's one check per instruction (machine/run.rs): it leaves its inner loop
    /// when `insns` reaches this, `max_insns` or 0 after a device rescheduled its next event
    pub insn_stop: u64,
    /// the fast loop's blocks (`Frontend::run_block`) stop after the instruction that
    /// brings `cycles` to this: the next device event, or 0 after a device rescheduled it
    pub cycle_stop: u64,
    /// instructions retired per class (the front end's class names)
    pub class_count: [u64; 16],
    /// the stack pointer at reset and the lowest value it took
    pub init_sp: u32,
    pub min_sp: u32,
    pub console: Console,
    /// why the run stopped (set with the `Fault` that ends it)
    pub stop: Option<Stop>,
    /// interval marks (marks.rs)
    pub marks: Marks,
    /// the data address of the bus fault that stopped the run, if any
    pub fault_addr: Option<u32>,
    /// the profiler's call tracking: the instruction just executed was a call (a branch
    /// with link), and the return address it wrote
    pub last_link: bool,
    pub link_ret: u32,
}

impl Default for Machine {
    fn default() -> Machine {
        Machine {
            cycles: 0,
            insns: 0,
            max_insns: u64::MAX,
            insn_stop: u64::MAX,
            cycle_stop: u64::MAX,
            class_count: [0; 16],
            init_sp: 0,
            min_sp: u32::MAX,
            console: Console::default(),
            stop: None,
            marks: Marks::default(),
            fault_addr: None,
            last_link: false,
            link_ret: 0,
        }
    }
}

impl Machine {
    /// Record why the run stops; the returned `Fault` unwinds the instruction.
    pub fn fail(&mut self, s: Stop) -> Fault {
        self.stop = Some(s);
        Fault
    }

    /// The reason of the stop (`none`: the message when no reason was recorded).
    pub fn take_stop(&mut self, none: &str) -> Stop {
        self.stop
            .take()
            .unwrap_or_else(|| Stop::Error(none.to_string()))
    }

    /// A device changed the cycle of its next event (`Frontend::next_event`): the fast loop
    /// leaves its inner loop after the current instruction to look at it.
    #[inline]
    pub fn event_rescheduled(&mut self) {
        self.insn_stop = 0;
        self.cycle_stop = 0;
    }

    /// The stop of a run that used up its instruction budget.
    pub fn budget_error(&self, pc: u32) -> Stop {
        Stop::Error(format!(
            "instruction budget exceeded: {} instructions executed (--max-insns), pc=0x{:08x}",
            self.insns, pc
        ))
    }
}
