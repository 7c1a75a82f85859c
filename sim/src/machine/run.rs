// SPDX-License-Identifier: MIT
//! The run loops every front end shares: the fast loop (no per-instruction hooks beyond the
//! stack tracking; device events checked only when the next one is due) and the slow loop
//! with the profiler's call tracking and the register trace. A front end is a `Frontend`: it
//! executes one instruction per `step` and reports it to its core's timing model itself;
//! each loop is compiled once per front end and timing model (generics, no dynamic
//! dispatch in the loop).

use super::profile::Profile;
use super::{Machine, Stop, R};
use std::io::Write;

pub trait Frontend {
    /// the instruction-set-independent state
    fn m(&self) -> &Machine;
    fn m_mut(&mut self) -> &mut Machine;
    /// the address of the next instruction
    fn pc(&self) -> u32;
    /// Execute one instruction (Err: the run stops, the reason is in `Machine::stop`).
    fn step(&mut self) -> R<()>;
    /// Stack tracking after an instruction: lower `Machine::min_sp` to the stack pointer.
    fn track_sp(&mut self);
    /// The cycle of the next device event (u64::MAX: none scheduled).
    fn next_event(&self) -> u64 {
        u64::MAX
    }
    /// An interrupt is pending that could not be taken yet: `poll` after every instruction.
    fn irq_pending(&self) -> bool {
        false
    }
    /// Handle the device events due at the current cycle and take a pending interrupt when
    /// the core can.
    fn poll(&mut self) -> R<()> {
        Ok(())
    }
    /// The return address the last call wrote (read when `Machine::last_link` is set).
    fn link_ret(&self) -> u32 {
        self.m().link_ret
    }
    /// The reason of the stop.
    fn take_stop(&mut self) -> Stop;
    /// One record of the register trace (`--trace`); front ends without a trace write none.
    fn write_trace(&self, _t: &mut dyn Write) {}
}

fn budget<C: Frontend>(c: &C) -> Stop {
    c.m().budget_error(c.pc())
}

/// The fast loop.
#[inline(never)]
pub fn run_fast<C: Frontend>(c: &mut C) -> Stop {
    loop {
        // an interrupt that is pending but could not be taken yet (Arm: IT block open,
        // PRIMASK set, handler mode) is retried after every instruction, as the slow loop
        // does; the next event alone may be a whole period away (pqm4's HAL then read its
        // SysTick wrap count one wrap short)
        let ev = if c.irq_pending() {
            c.next_event().min(c.m().cycles + 1)
        } else {
            c.next_event()
        };
        let limit = c.m().max_insns;
        // inner loop without event checks until the next device event
        while c.m().cycles < ev {
            if c.m().insns >= limit {
                return budget(c);
            }
            if c.step().is_err() {
                return c.take_stop();
            }
            c.track_sp();
            if c.next_event() != ev {
                break;
            }
        }
        if c.poll().is_err() {
            return c.take_stop();
        }
    }
}

/// What the slow loop writes besides the profile: the register trace (`--trace`).
pub struct TraceOpts {
    /// records to write
    pub limit: u64,
    /// start when execution first reaches this address (None: at the first instruction)
    pub start_pc: Option<u32>,
    /// end the run (exit code 0) when the trace is complete
    pub stop: bool,
}

/// The slow loop: the profiler's call tracking and the register trace.
pub fn run_slow<C: Frontend>(
    c: &mut C,
    mut prof: Option<&mut Profile>,
    mut trace: Option<&mut dyn Write>,
    topts: &TraceOpts,
) -> Stop {
    // instructions traced so far; None until the trace starts
    let mut traced: Option<u64> = if topts.start_pc.is_none() {
        Some(0)
    } else {
        None
    };
    loop {
        if traced.is_none() && Some(c.pc()) == topts.start_pc {
            traced = Some(0);
            if let Some(t) = trace.as_deref_mut() {
                c.write_trace(t);
            }
        }
        if topts.stop && traced.map_or(false, |n| n >= topts.limit) {
            return Stop::Exit(0);
        }
        if c.m().insns >= c.m().max_insns {
            return budget(c);
        }
        let pc = c.pc();
        let c0 = c.m().cycles;
        c.m_mut().last_link = false;
        if c.step().is_err() {
            return c.take_stop();
        }
        c.track_sp();
        if c.poll().is_err() {
            return c.take_stop();
        }
        if let Some(p) = prof.as_deref_mut() {
            let m = c.m();
            p.step(
                pc,
                c.pc(),
                m.cycles - c0,
                m.cycles,
                m.last_link,
                c.link_ret(),
            );
        }
        if let Some(n) = traced.as_mut() {
            if *n < topts.limit {
                *n += 1;
                if let Some(t) = trace.as_deref_mut() {
                    c.write_trace(t);
                }
            }
        }
    }
}
