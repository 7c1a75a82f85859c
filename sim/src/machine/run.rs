// SPDX-License-Identifier: MIT
//! The run loops every front end shares: the fast loop (no per-instruction hooks beyond the
//! stack tracking; device events checked only when the next one is due) and the slow loop
//! with the profiler's call tracking and the register trace, and the tracked loop of the
//! secret tracking (`run_ct`, over a `Tracked` front end). A front end is a `Frontend`: it
//! executes one instruction per `step` and reports it to its core's timing model itself;
//! each loop is compiled once per front end and timing model (generics, no dynamic
//! dispatch in the loop).

use super::profile::Profile;
use super::summary::Summaries;
use super::{Machine, Stop, R};
use std::io::Write;

pub trait Frontend {
    /// the machine has devices with events (`next_event`, `poll`); without, the fast loop
    /// checks only the budget
    const EVENTS: bool = true;
    /// the instruction-set-independent state
    fn m(&self) -> &Machine;
    fn m_mut(&mut self) -> &mut Machine;
    /// the address of the next instruction
    fn pc(&self) -> u32;
    /// Execute one instruction (Err: the run stops, the reason is in `Machine::stop`).
    fn step(&mut self) -> R<()>;
    /// Stack tracking after an instruction: lower `Machine::min_sp` to the stack pointer.
    fn track_sp(&mut self);
    /// `step` and then `track_sp` (a front end with blocks keeps its one out-of-line copy
    /// of the per-instruction path here, so that the fast loop holds no second one).
    #[inline(always)]
    fn step_tracked(&mut self) -> R<()> {
        self.step()?;
        self.track_sp();
        Ok(())
    }
    /// The fast loop's step: one or more instructions, as many `step`s each followed by
    /// `track_sp` would run them, ending at the latest after the instruction that brings
    /// the clock to `Machine::cycle_stop`; `room` (at least 1): the instructions left
    /// before `Machine::insn_stop`.
    #[inline(always)]
    fn run_block(&mut self, _room: u64) -> R<()> {
        self.step()?;
        self.track_sp();
        Ok(())
    }
    /// The cycle of the next device event (u64::MAX: none scheduled); a device that changes
    /// it calls `Machine::event_rescheduled`.
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

/// A front end's memory and calling convention as the machine's guest services see them
/// (semihosting, interval marks).
pub trait Guest: Frontend {
    fn read8(&mut self, a: u32) -> R<u32>;
    fn read32(&mut self, a: u32) -> R<u32>;
    fn write8(&mut self, a: u32, v: u32) -> R<()>;
    fn write32(&mut self, a: u32, v: u32) -> R<()>;
    /// the first argument register of a call (r0, a0)
    fn arg0(&self) -> u32;
    fn sp(&self) -> u32;
    /// at a function's entry: its return address, and whether it is one (not, e.g., an
    /// exception return value)
    fn call_return(&self) -> (u32, bool);
    /// forget the decoded instruction at `pc` (a hook is planted or removed there)
    fn uncache(&mut self, pc: u32);
    /// SYS_HEAPINFO: the base of the region the heap and stack report covers (the machine's
    /// memory map)
    fn heap_base(&self) -> u32;
    /// SYS_HEAPINFO: the size of that region (QEMU 7.2 on the MPS2 machines: 16 MiB)
    fn heap_size(&self) -> u32 {
        0x100_0000
    }
    /// SYS_CLOCK and SYS_TIME: the core clock the machine's cycles are converted with (the
    /// MPS2 boards' 25 MHz)
    fn clock_hz(&self) -> u64 {
        25_000_000
    }
}

/// The NUL-terminated string at `a` (at most `max` bytes).
pub fn cstr<G: Guest>(g: &mut G, mut a: u32, max: usize) -> R<Vec<u8>> {
    let mut v = Vec::new();
    loop {
        let c = g.read8(a)? as u8;
        if c == 0 || v.len() >= max {
            break;
        }
        v.push(c);
        a = a.wrapping_add(1);
    }
    Ok(v)
}

fn budget<C: Frontend>(c: &C) -> Stop {
    c.m().budget_error(c.pc())
}

/// The fast loop.
#[inline(never)]
pub fn run_fast<C: Frontend>(c: &mut C) -> Stop {
    if !C::EVENTS {
        let limit = c.m().max_insns;
        loop {
            if c.m().insns >= limit {
                return budget(c);
            }
            if c.step().is_err() {
                return c.take_stop();
            }
            c.track_sp();
        }
    }
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
        // one check per instruction (per block) for both the budget and a device's new
        // schedule
        let limit = c.m().max_insns;
        c.m_mut().insn_stop = limit;
        c.m_mut().cycle_stop = ev;
        // inner loop without event checks until the next device event; the first
        // instruction after a poll takes the per-instruction path (an exception entry moved
        // the stack pointer, which the tracking after that instruction records)
        if c.m().cycles < ev {
            if c.m().insns >= c.m().insn_stop {
                if c.m().insn_stop == limit {
                    return budget(c);
                }
            } else {
                if c.step_tracked().is_err() {
                    return c.take_stop();
                }
                while c.m().cycles < ev {
                    let (insns, stop) = (c.m().insns, c.m().insn_stop);
                    if insns >= stop {
                        if stop == limit {
                            return budget(c);
                        }
                        // an instruction rescheduled the next event
                        // (Machine::event_rescheduled)
                        break;
                    }
                    if c.run_block(stop - insns).is_err() {
                        return c.take_stop();
                    }
                }
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

/// A front end with its secret tracker (arm/ct.rs, rv32/ct.rs) in the shared tracked loop
/// (`run_ct`): the tracker sees each instruction before it executes, on the state it reads.
pub trait Tracked: Frontend {
    /// the front end's shadow state and tracker (machine/taint.rs inside)
    type Taint;
    /// The tracker's marks at `pc` (calls of pqlab_ct_secret / pqlab_ct_declassify).
    fn ct_hooks(&mut self, t: &mut Self::Taint, pc: u32);
    /// At the entry `pc` of the summarised function `k` (machine/summary.rs): true when the
    /// summary did the whole call (the front end is back in the caller, as after its return).
    fn ct_summary(&mut self, t: &mut Self::Taint, s: &mut Summaries, k: usize, pc: u32) -> bool;
    /// Decode the instruction at `pc` and propagate its secrets: its length, and the state
    /// `ct_events` compares after it (Arm: IPSR); Err: the fetch faulted.
    fn ct_propagate(&mut self, t: &mut Self::Taint, pc: u32) -> R<(u8, u32)>;
    /// After the instruction at `pc` (`len` bytes) executed: the tracker's call tracking
    /// and the summaries' check of a pending summarised call.
    fn ct_after(&mut self, t: &mut Self::Taint, s: &mut Summaries, pc: u32, len: u8);
    /// The end of the instruction: exception entries and returns, the stack tracking,
    /// device events and interrupts (`state`: `ct_propagate`'s).
    fn ct_events(&mut self, t: &mut Self::Taint, state: u32) -> R<()>;
}

/// The tracked loop of the secret tracking (`--ct`).
pub fn run_ct<C: Tracked>(c: &mut C, t: &mut C::Taint, s: &mut Summaries) -> Stop {
    loop {
        if c.m().insns >= c.m().max_insns {
            return budget(c);
        }
        let pc = c.pc();
        c.ct_hooks(t, pc);
        if let Some(k) = s.at(pc) {
            if c.ct_summary(t, s, k, pc) {
                continue;
            }
        }
        let (len, state) = match c.ct_propagate(t, pc) {
            Ok(x) => x,
            Err(_) => return c.take_stop(),
        };
        c.m_mut().last_link = false;
        if c.step().is_err() {
            return c.take_stop();
        }
        c.ct_after(t, s, pc, len);
        if c.ct_events(t, state).is_err() {
            return c.take_stop();
        }
    }
}
