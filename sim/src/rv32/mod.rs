// SPDX-License-Identifier: MIT
//! The RV32IMFC front end (with Zicsr) and the CV32E40P machine of pqlab's test bench, with
//! the secret tracking's RISC-V propagation rules (ct.rs).

pub mod accel;
pub mod ct;
pub mod decode;
pub mod hart;
pub mod lockstep;
pub mod ntt_acc;
pub mod run;
pub mod tb;
