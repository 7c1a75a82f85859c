// SPDX-License-Identifier: MIT
//! The instruction-set-independent parts of the simulator: ELF loading, the per-function
//! profiler, interval marks, stack tracking and the JSON report.

pub mod elf;
pub mod marks;
pub mod profile;
