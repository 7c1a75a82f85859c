// SPDX-License-Identifier: MIT
//! The RV32IMFC front end (with Zicsr) and the CV32E40P machine of pqlab's test bench.

pub mod accel;
pub mod decode;
pub mod hart;
pub mod run;
