// SPDX-License-Identifier: MIT
//! The Thumb-2 (Armv7E-M) front end with the FPv4/FPv5 floating-point extension: decoder,
//! interpreter, the MPS2 machines' memory map and devices (UART0, the system control space), semihosting and the
//! constant-time taint tracker's Thumb propagation rules.

pub mod block;
pub mod cpu;
pub mod ct;
pub mod decode;
pub mod fpu;
pub mod mem;
pub mod uart;
