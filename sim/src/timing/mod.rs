// SPDX-License-Identifier: MIT
//! Timing models, one per core.

pub mod cortex_m;
pub mod cv32e40p;
pub mod m4mem;
pub mod m7mem;
