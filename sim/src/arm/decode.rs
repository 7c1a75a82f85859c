// SPDX-License-Identifier: MIT
//! Thumb / Thumb-2 decoder for ARMv7E-M (Armv7-M Architecture Reference Manual,
//! DDI 0403E, chapter A5 "The Thumb Instruction Set Encoding" and A6/A7
//! instruction details), including the DSP extension and the FP extension
//! (FPv4-SP, FPv5-D16; chapter A6 "The Floating-point Instruction Set Encoding").
//!
//! An instruction is decoded once into a flat `Insn`; the simulator caches
//! decoded instructions per halfword address. PC-relative addresses
//! (branch targets, literal pool addresses, ADR) are resolved here because the
//! cache is indexed by address.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Op {
    Undecoded,
    Undefined,
    /// the instruction fetch itself faulted (the reason is in Cpu::stop)
    FetchFault,
    /// a hooked address (interval marks, marks.rs); the instruction there is
    /// decoded again when the hook has run
    Hook,
    DpImm,
    DpReg,
    DpRegReg,
    Movt,
    Ssat,
    Usat,
    Ssat16,
    Usat16,
    Sbfx,
    Ubfx,
    Bfi,
    Mul,
    Mla,
    Mls,
    Smulxy,
    Smulwy,
    Smuad,
    Smusd,
    Smmul,
    Smmls,
    Usad8,
    Smull,
    Umull,
    Smlal,
    Umlal,
    Umaal,
    Smlalxy,
    Smlald,
    Smlsld,
    Sdiv,
    Udiv,
    Extend,
    Par,
    Qop,
    Rev,
    Rev16,
    Revsh,
    Rbit,
    Clz,
    Sel,
    Pkh,
    Ld,
    LdR,
    St,
    StR,
    Ldrd,
    Strd,
    Ldrex,
    Strex,
    Ldm,
    Stm,
    B,
    Bcond,
    Bl,
    Bx,
    Blx,
    Cbz,
    Tbb,
    Tbh,
    It,
    Nop,
    Bkpt,
    Svc,
    Mrs,
    Msr,
    Cps,
    Wfi,
    Clrex,
    Vdp,
    Vldr,
    Vstr,
    Vldm,
    Vstm,
    VmovS,
    Vmov2,
    VmovScalar,
    Vmrs,
    Vmsr,
    VmovImm,
}

/// Data-processing operation codes (`Insn::sub` of DpImm/DpReg/DpRegReg).
pub mod alu {
    pub const AND: u8 = 0;
    pub const BIC: u8 = 1;
    pub const ORR: u8 = 2;
    pub const ORN: u8 = 3;
    pub const EOR: u8 = 4;
    pub const ADD: u8 = 5;
    pub const ADC: u8 = 6;
    pub const SBC: u8 = 7;
    pub const SUB: u8 = 8;
    pub const RSB: u8 = 9;
    pub const MOV: u8 = 10;
    pub const MVN: u8 = 11;
    pub const TST: u8 = 12;
    pub const TEQ: u8 = 13;
    pub const CMP: u8 = 14;
    pub const CMN: u8 = 15;
}

/// Floating-point data-processing codes (`Insn::sub` of Vdp).
pub mod fop {
    pub const VMLA: u8 = 0;
    pub const VMLS: u8 = 1;
    pub const VNMLA: u8 = 2;
    pub const VNMLS: u8 = 3;
    pub const VMUL: u8 = 4;
    pub const VNMUL: u8 = 5;
    pub const VADD: u8 = 6;
    pub const VSUB: u8 = 7;
    pub const VDIV: u8 = 8;
    pub const VFNMA: u8 = 9;
    pub const VFNMS: u8 = 10;
    pub const VFMA: u8 = 11;
    pub const VFMS: u8 = 12;
    pub const VMOV: u8 = 13;
    pub const VABS: u8 = 14;
    pub const VNEG: u8 = 15;
    pub const VSQRT: u8 = 16;
    pub const VCMP: u8 = 17; // ra bit0: E (signal on QNaN), bit1: compare with zero
    pub const VCVT_FD: u8 = 18; // between single and double; sh = source size
    pub const VCVT_I2F: u8 = 19; // ra bit0: signed source
    pub const VCVT_F2I: u8 = 20; // ra bit0: signed, bit1: use FPSCR rounding (VCVTR)
    pub const VSEL: u8 = 21; // ra = condition
    pub const VMAXNM: u8 = 22;
    pub const VMINNM: u8 = 23;
    pub const VRINT: u8 = 24; // ra = mode 0 A,1 N,2 P,3 M,4 R(fpscr),5 Z,6 X(fpscr)
    pub const VCVT_F2I_RM: u8 = 25; // ra bit0 signed, bits 2:1 rounding 0 A,1 N,2 P,3 M
}

/// Instruction classes for the instruction mix report and the timing model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Class {
    Alu = 0,
    Mul,
    Div,
    Load,
    Store,
    LoadMulti,
    StoreMulti,
    Branch,
    Fp,
    FpMem,
    Other,
}
pub const CLASS_NAMES: [&str; 11] = [
    "alu",
    "mul",
    "div",
    "load",
    "store",
    "load_multi",
    "store_multi",
    "branch",
    "fp",
    "fp_mem",
    "other",
];

/// 8-byte aligned so that copies out of the decode cache are whole-word
/// moves (no store-forwarding stalls on partial copies).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(8))]
pub struct Insn {
    pub op: Op,
    pub sub: u8,
    pub rd: u8,
    pub rn: u8,
    pub rm: u8,
    pub ra: u8,
    /// 0: no flags, 1: set flags, 2: set flags only outside an IT block
    pub sf: u8,
    /// shift type 0 LSL, 1 LSR, 2 ASR, 3 ROR, 4 RRX
    pub st: u8,
    pub sh: u8,
    /// carry out of an immediate: 0 unchanged, 1 clear, 2 set
    pub cf: u8,
    pub len: u8,
    pub class: Class,
    /// base cycle cost filled in by the timing model (`& timing::cortex_m::BASE`; the bits
    /// above are the model's own)
    pub cyc: u8,
    /// register written by a data-processing instruction (255: none), for the
    /// address-generation interlock of the timing model; on the Cortex-M7
    /// model its pairing class and flags instead (timing::m7_info)
    pub wr: u8,
    /// Cortex-M7 model (timing::m7_info): registers read in the late stage
    /// (dual-issue dependency), as a bit mask
    pub rmask: u16,
    pub imm: u32,
    /// Cortex-M7 model: registers read in the early stage (address generation,
    /// shifted operand, multiplicands) as a bit mask; Cortex-M4 model: 1 for a 32-bit
    /// instruction at an address that is 2 mod 4 (its fetch rule)
    pub emask: u16,
    /// Cortex-M7 model: registers written, as a bit mask
    pub wmask: u16,
    /// Cortex-M7 model (timing::m7_info), precomputed for `m7_adjust`: bits
    /// 47:0 the result latencies of a one-cycle issue (`LATENCY` lanes of the
    /// registers written), bits 56:48 the `CONFLICT` row of the pairing class
    pub m7p: u64,
}

// the decode cache copies entries as four 8-byte words (measured: 32 bytes
// cost the Cortex-M4 loop nothing, 40 bytes about 6 %)
const _: () = assert!(std::mem::size_of::<Insn>() == 32);

impl Insn {
    pub const UNDECODED: Insn = Insn {
        op: Op::Undecoded,
        sub: 0,
        rd: 0,
        rn: 0,
        rm: 0,
        ra: 0,
        sf: 0,
        st: 0,
        sh: 0,
        cf: 0,
        len: 2,
        class: Class::Other,
        cyc: 1,
        wr: 255,
        rmask: 0,
        imm: 0,
        emask: 0,
        wmask: 0,
        m7p: 0,
    };
    fn new(op: Op, len: u8, raw: u32) -> Insn {
        let class = match op {
            Op::Mul
            | Op::Mla
            | Op::Mls
            | Op::Smulxy
            | Op::Smulwy
            | Op::Smuad
            | Op::Smusd
            | Op::Smmul
            | Op::Smmls
            | Op::Usad8
            | Op::Smull
            | Op::Umull
            | Op::Smlal
            | Op::Umlal
            | Op::Umaal
            | Op::Smlalxy
            | Op::Smlald
            | Op::Smlsld => Class::Mul,
            Op::Sdiv | Op::Udiv => Class::Div,
            Op::Ld | Op::LdR | Op::Ldrd | Op::Ldrex | Op::Tbb | Op::Tbh => Class::Load,
            Op::St | Op::StR | Op::Strd | Op::Strex => Class::Store,
            Op::Ldm => Class::LoadMulti,
            Op::Stm => Class::StoreMulti,
            Op::B | Op::Bcond | Op::Bl | Op::Bx | Op::Blx | Op::Cbz => Class::Branch,
            Op::Vdp
            | Op::VmovS
            | Op::Vmov2
            | Op::VmovScalar
            | Op::Vmrs
            | Op::Vmsr
            | Op::VmovImm => Class::Fp,
            Op::Vldr | Op::Vstr | Op::Vldm | Op::Vstm => Class::FpMem,
            Op::Undecoded
            | Op::Undefined
            | Op::FetchFault
            | Op::It
            | Op::Nop
            | Op::Bkpt
            | Op::Svc
            | Op::Mrs
            | Op::Msr
            | Op::Cps
            | Op::Wfi
            | Op::Clrex => Class::Other,
            _ => Class::Alu,
        };
        // the raw encoding is not kept (the cache entry stays small); error
        // messages read it from memory again
        let _ = raw;
        Insn {
            op,
            len,
            class,
            ..Insn::UNDECODED
        }
    }
}

/// Is `hw1` the first halfword of a 32-bit instruction (A5.1)?
#[inline(always)]
pub fn is32(hw1: u16) -> bool {
    (hw1 >> 11) >= 0b11101
}

fn sext(v: u32, bits: u32) -> u32 {
    let s = 32 - bits;
    (((v << s) as i32) >> s) as u32
}

/// ThumbExpandImm_C (A5.3.2): value and carry-out code for `Insn::cf`.
pub fn thumb_expand_imm(imm12: u32) -> (u32, u8) {
    let imm8 = imm12 & 0xff;
    if imm12 >> 10 == 0 {
        let v = match (imm12 >> 8) & 3 {
            0 => imm8,
            1 => imm8 << 16 | imm8,
            2 => imm8 << 24 | imm8 << 8,
            _ => imm8 * 0x0101_0101,
        };
        (v, 0)
    } else {
        let v = (0x80 | (imm12 & 0x7f)).rotate_right(imm12 >> 7);
        (v, if v >> 31 != 0 { 2 } else { 1 })
    }
}

/// DecodeImmShift (A7.4.2): (type, amount); RRX is type 4.
fn decode_imm_shift(t: u32, imm5: u32) -> (u8, u8) {
    match t {
        0 => (0, imm5 as u8),
        1 => (1, if imm5 == 0 { 32 } else { imm5 as u8 }),
        2 => (2, if imm5 == 0 { 32 } else { imm5 as u8 }),
        _ => {
            if imm5 == 0 {
                (4, 1)
            } else {
                (3, imm5 as u8)
            }
        }
    }
}

/// VFPExpandImm (A6.4.1) for single (sz=0) or double (sz=1) precision.
fn vfp_expand_imm(imm8: u32, double: bool) -> u64 {
    let sign = ((imm8 >> 7) & 1) as u64;
    let b6 = ((imm8 >> 6) & 1) as u64;
    let low6 = (imm8 & 0x3f) as u64;
    if double {
        // sign, NOT(b6), Replicate(b6, 8), imm8<5:0>, Zeros(48)
        let exp = ((b6 ^ 1) << 10) | (if b6 != 0 { 0xff << 2 } else { 0 }) | (low6 >> 4);
        (sign << 63) | (exp << 52) | ((low6 & 0xf) << 48)
    } else {
        let exp = ((b6 ^ 1) << 7) | (if b6 != 0 { 0x1f << 2 } else { 0 }) | (low6 >> 4);
        (sign << 31) | (exp << 23) | ((low6 & 0xf) << 19)
    }
}

/// Decode the instruction at `pc` given its first halfword and the following one.
pub fn decode(pc: u32, hw1: u16, hw2: u16, fp_double: bool) -> Insn {
    if is32(hw1) {
        decode32(pc, hw1 as u32, hw2 as u32, fp_double)
    } else {
        decode16(pc, hw1 as u32)
    }
}

fn dpimm(raw: u32, len: u8, sub: u8, rd: u32, rn: u32, imm: u32, sf: u8) -> Insn {
    let mut i = Insn::new(Op::DpImm, len, raw);
    i.sub = sub;
    i.rd = rd as u8;
    i.rn = rn as u8;
    i.imm = imm;
    i.sf = sf;
    i
}

#[allow(clippy::too_many_arguments)]
fn dpreg(raw: u32, len: u8, sub: u8, rd: u32, rn: u32, rm: u32, st: u8, sh: u8, sf: u8) -> Insn {
    let mut i = Insn::new(Op::DpReg, len, raw);
    i.sub = sub;
    i.rd = rd as u8;
    i.rn = rn as u8;
    i.rm = rm as u8;
    i.st = st;
    i.sh = sh;
    i.sf = sf;
    i
}

fn undef(raw: u32, len: u8) -> Insn {
    Insn::new(Op::Undefined, len, raw)
}

/// Register index 16 always reads zero: used for absolute addresses.
pub const RZERO: u8 = 16;

fn decode16(pc: u32, h: u32) -> Insn {
    let raw = h;
    let rd3 = h & 7;
    let rn3 = (h >> 3) & 7;
    match h >> 12 {
        0b0000 | 0b0001 => {
            let op = (h >> 11) & 3;
            if op != 3 {
                // LSL/LSR/ASR (immediate), A7.7.67 etc.
                let (st, sh) = decode_imm_shift(op, (h >> 6) & 31);
                dpreg(raw, 2, alu::MOV, rd3, 0, rn3, st, sh, 2)
            } else {
                let rm = (h >> 6) & 7;
                match (h >> 9) & 3 {
                    0 => dpreg(raw, 2, alu::ADD, rd3, rn3, rm, 0, 0, 2),
                    1 => dpreg(raw, 2, alu::SUB, rd3, rn3, rm, 0, 0, 2),
                    2 => dpimm(raw, 2, alu::ADD, rd3, rn3, rm, 2),
                    _ => dpimm(raw, 2, alu::SUB, rd3, rn3, rm, 2),
                }
            }
        }
        0b0010 | 0b0011 => {
            let rd = (h >> 8) & 7;
            let imm = h & 0xff;
            match (h >> 11) & 3 {
                0 => dpimm(raw, 2, alu::MOV, rd, 0, imm, 2),
                1 => dpimm(raw, 2, alu::CMP, 0, rd, imm, 1),
                2 => dpimm(raw, 2, alu::ADD, rd, rd, imm, 2),
                _ => dpimm(raw, 2, alu::SUB, rd, rd, imm, 2),
            }
        }
        0b0100 => {
            if h >> 10 == 0b010000 {
                // data processing A5.2.2
                let op = (h >> 6) & 15;
                let shreg = |st: u8| {
                    let mut i = Insn::new(Op::DpRegReg, 2, raw);
                    i.sub = alu::MOV;
                    i.rd = rd3 as u8;
                    i.rm = rd3 as u8;
                    i.ra = rn3 as u8;
                    i.st = st;
                    i.sf = 2;
                    i
                };
                match op {
                    0 => dpreg(raw, 2, alu::AND, rd3, rd3, rn3, 0, 0, 2),
                    1 => dpreg(raw, 2, alu::EOR, rd3, rd3, rn3, 0, 0, 2),
                    2 => shreg(0),
                    3 => shreg(1),
                    4 => shreg(2),
                    5 => dpreg(raw, 2, alu::ADC, rd3, rd3, rn3, 0, 0, 2),
                    6 => dpreg(raw, 2, alu::SBC, rd3, rd3, rn3, 0, 0, 2),
                    7 => shreg(3),
                    8 => dpreg(raw, 2, alu::TST, 0, rd3, rn3, 0, 0, 1),
                    9 => dpimm(raw, 2, alu::RSB, rd3, rn3, 0, 2),
                    10 => dpreg(raw, 2, alu::CMP, 0, rd3, rn3, 0, 0, 1),
                    11 => dpreg(raw, 2, alu::CMN, 0, rd3, rn3, 0, 0, 1),
                    12 => dpreg(raw, 2, alu::ORR, rd3, rd3, rn3, 0, 0, 2),
                    13 => {
                        let mut i = Insn::new(Op::Mul, 2, raw);
                        i.rd = rd3 as u8;
                        i.rn = rn3 as u8;
                        i.rm = rd3 as u8;
                        i.sf = 2;
                        i
                    }
                    14 => dpreg(raw, 2, alu::BIC, rd3, rd3, rn3, 0, 0, 2),
                    _ => dpreg(raw, 2, alu::MVN, rd3, 0, rn3, 0, 0, 2),
                }
            } else if h >> 10 == 0b010001 {
                // special data processing and branch/exchange A5.2.3
                let rdn = ((h >> 4) & 8) | rd3;
                let rm = (h >> 3) & 15;
                match (h >> 8) & 3 {
                    0 => dpreg(raw, 2, alu::ADD, rdn, rdn, rm, 0, 0, 0),
                    1 => dpreg(raw, 2, alu::CMP, 0, rdn, rm, 0, 0, 1),
                    2 => dpreg(raw, 2, alu::MOV, rdn, 0, rm, 0, 0, 0),
                    _ => {
                        let mut i = Insn::new(if h & 0x80 != 0 { Op::Blx } else { Op::Bx }, 2, raw);
                        i.rm = rm as u8;
                        i
                    }
                }
            } else {
                // LDR (literal) A7.7.43
                let mut i = Insn::new(Op::Ld, 2, raw);
                i.rd = ((h >> 8) & 7) as u8;
                i.rn = RZERO;
                i.imm = ((pc + 4) & !3) + (h & 0xff) * 4;
                i.ra = 1;
                i
            }
        }
        0b0101 => {
            let rm = (h >> 6) & 7;
            let opb = (h >> 9) & 7;
            let (op, kind) = match opb {
                0 => (Op::StR, 0),
                1 => (Op::StR, 1),
                2 => (Op::StR, 2),
                3 => (Op::LdR, 4),
                4 => (Op::LdR, 0),
                5 => (Op::LdR, 1),
                6 => (Op::LdR, 2),
                _ => (Op::LdR, 3),
            };
            let mut i = Insn::new(op, 2, raw);
            i.sub = kind;
            i.rd = rd3 as u8;
            i.rn = rn3 as u8;
            i.rm = rm as u8;
            i
        }
        0b0110..=0b1000 => {
            let load = h & 0x800 != 0;
            let imm5 = (h >> 6) & 31;
            let (kind, scale) = match h >> 12 {
                0b0110 => (0, 4),
                0b0111 => (2, 1),
                _ => (1, 2),
            };
            let mut i = Insn::new(if load { Op::Ld } else { Op::St }, 2, raw);
            i.sub = kind;
            i.rd = rd3 as u8;
            i.rn = rn3 as u8;
            i.imm = imm5 * scale;
            i.ra = 1;
            i
        }
        0b1001 => {
            let load = h & 0x800 != 0;
            let mut i = Insn::new(if load { Op::Ld } else { Op::St }, 2, raw);
            i.rd = ((h >> 8) & 7) as u8;
            i.rn = 13;
            i.imm = (h & 0xff) * 4;
            i.ra = 1;
            i
        }
        0b1010 => {
            let rd = (h >> 8) & 7;
            let imm = (h & 0xff) * 4;
            if h & 0x800 == 0 {
                // ADR
                dpimm(raw, 2, alu::MOV, rd, 0, ((pc + 4) & !3) + imm, 0)
            } else {
                dpimm(raw, 2, alu::ADD, rd, 13, imm, 0)
            }
        }
        0b1011 => decode16_misc(pc, h),
        0b1100 => {
            let mut i = Insn::new(if h & 0x800 != 0 { Op::Ldm } else { Op::Stm }, 2, raw);
            let rn = (h >> 8) & 7;
            i.rn = rn as u8;
            i.imm = h & 0xff;
            // LDM writes back unless Rn is in the list; STM always writes back
            i.sf = if h & 0x800 != 0 && (i.imm >> rn) & 1 != 0 {
                0
            } else {
                1
            };
            if i.imm == 0 {
                return undef(raw, 2);
            }
            i
        }
        0b1101 => {
            let cond = (h >> 8) & 15;
            if cond == 14 {
                undef(raw, 2)
            } else if cond == 15 {
                let mut i = Insn::new(Op::Svc, 2, raw);
                i.imm = h & 0xff;
                i
            } else {
                let mut i = Insn::new(Op::Bcond, 2, raw);
                i.sub = cond as u8;
                i.imm = pc.wrapping_add(4).wrapping_add(sext((h & 0xff) << 1, 9));
                i
            }
        }
        _ => {
            // 11100: B T2
            let mut i = Insn::new(Op::B, 2, raw);
            i.imm = pc.wrapping_add(4).wrapping_add(sext((h & 0x7ff) << 1, 12));
            i
        }
    }
}

fn decode16_misc(pc: u32, h: u32) -> Insn {
    let raw = h;
    let rd3 = h & 7;
    let rm3 = (h >> 3) & 7;
    if (h >> 8) & 15 == 0 {
        let imm = (h & 0x7f) * 4;
        return if h & 0x80 == 0 {
            dpimm(raw, 2, alu::ADD, 13, 13, imm, 0)
        } else {
            dpimm(raw, 2, alu::SUB, 13, 13, imm, 0)
        };
    }
    if h & 0x0500 == 0x0100 {
        // CBZ / CBNZ
        let mut i = Insn::new(Op::Cbz, 2, raw);
        i.sub = ((h >> 11) & 1) as u8;
        i.rn = rd3 as u8;
        let imm = (((h >> 9) & 1) << 6) | (((h >> 3) & 31) << 1);
        i.imm = pc + 4 + imm;
        return i;
    }
    match (h >> 8) & 15 {
        0b0010 => {
            let mut i = Insn::new(Op::Extend, 2, raw);
            i.sub = match (h >> 6) & 3 {
                0 => 0, // SXTH
                1 => 4, // SXTB
                2 => 1, // UXTH
                _ => 5, // UXTB
            };
            i.rd = rd3 as u8;
            i.rn = 15; // 15 = no accumulate
            i.rm = rm3 as u8;
            i
        }
        0b0100 | 0b0101 => {
            // PUSH = STMDB SP!
            let mut i = Insn::new(Op::Stm, 2, raw);
            i.rn = 13;
            i.sub = 1;
            i.sf = 1;
            i.imm = (h & 0xff) | ((h & 0x100) << 6);
            if i.imm == 0 {
                return undef(raw, 2);
            }
            i
        }
        0b1100 | 0b1101 => {
            let mut i = Insn::new(Op::Ldm, 2, raw);
            i.rn = 13;
            i.sf = 1;
            i.imm = (h & 0xff) | ((h & 0x100) << 7);
            if i.imm == 0 {
                return undef(raw, 2);
            }
            i
        }
        0b0110 => {
            if (h >> 5) & 0x7 == 0b011 && h & 0x8 == 0 {
                let mut i = Insn::new(Op::Cps, 2, raw);
                i.sub = ((h >> 4) & 1) as u8;
                i.imm = h & 3;
                i
            } else {
                undef(raw, 2)
            }
        }
        0b1010 => {
            let op = match (h >> 6) & 3 {
                0 => Op::Rev,
                1 => Op::Rev16,
                3 => Op::Revsh,
                _ => return undef(raw, 2),
            };
            let mut i = Insn::new(op, 2, raw);
            i.rd = rd3 as u8;
            i.rm = rm3 as u8;
            i
        }
        0b1110 => {
            let mut i = Insn::new(Op::Bkpt, 2, raw);
            i.imm = h & 0xff;
            i
        }
        0b1111 => {
            if h & 15 != 0 {
                let mut i = Insn::new(Op::It, 2, raw);
                i.imm = h & 0xff;
                if (h >> 4) & 15 == 15 || ((h >> 4) & 15 == 14 && (h & 15).count_ones() != 1) {
                    return undef(raw, 2);
                }
                i
            } else {
                match (h >> 4) & 15 {
                    3 => Insn::new(Op::Wfi, 2, raw),
                    _ => Insn::new(Op::Nop, 2, raw), // NOP, YIELD, WFE, SEV
                }
            }
        }
        _ => undef(raw, 2),
    }
}

fn decode32(pc: u32, h1: u32, h2: u32, fp_double: bool) -> Insn {
    let raw = h1 << 16 | h2;
    let op1 = (h1 >> 11) & 3;
    let op2 = (h1 >> 4) & 0x7f;
    match op1 {
        1 => {
            if op2 & 0x64 == 0 {
                ldm_stm(raw, h1, h2)
            } else if op2 & 0x64 == 0x04 {
                ld_dual_excl(pc, raw, h1, h2)
            } else if op2 & 0x60 == 0x20 {
                dp_shifted(raw, h1, h2)
            } else {
                coproc(pc, raw, h1, h2, fp_double)
            }
        }
        2 => {
            if h2 & 0x8000 == 0 {
                if op2 & 0x20 == 0 {
                    dp_modimm(raw, h1, h2)
                } else {
                    dp_plainimm(pc, raw, h1, h2)
                }
            } else {
                branch_misc(pc, raw, h1, h2)
            }
        }
        _ => {
            if op2 & 0x71 == 0x00 || op2 & 0x67 == 0x01 || op2 & 0x67 == 0x03 || op2 & 0x67 == 0x05
            {
                ld_st_single(pc, raw, h1, h2)
            } else if op2 & 0x70 == 0x20 {
                dp_register(raw, h1, h2)
            } else if op2 & 0x78 == 0x30 {
                mul_acc(raw, h1, h2)
            } else if op2 & 0x78 == 0x38 {
                long_mul(raw, h1, h2)
            } else if op2 & 0x40 != 0 {
                coproc(pc, raw, h1, h2, fp_double)
            } else {
                undef(raw, 4)
            }
        }
    }
}

fn ldm_stm(raw: u32, h1: u32, h2: u32) -> Insn {
    let op = (h1 >> 7) & 3;
    let l = h1 & 0x10 != 0;
    let w = h1 & 0x20 != 0;
    let rn = h1 & 15;
    if op == 0 || op == 3 {
        return undef(raw, 4); // SRS/RFE are not in M profile
    }
    let mut i = Insn::new(if l { Op::Ldm } else { Op::Stm }, 4, raw);
    i.rn = rn as u8;
    i.sub = if op == 1 { 0 } else { 1 };
    i.sf = w as u8;
    i.imm = h2 & if l { 0xdfff } else { 0x5fff };
    if rn == 15 || i.imm.count_ones() < 2 && !(l && rn == 13 && w) && !(!l && rn == 13 && w) {
        // single-register forms are PUSH/POP encodings only; be strict otherwise
        if rn == 15 || i.imm == 0 {
            return undef(raw, 4);
        }
    }
    if w && (i.imm >> rn) & 1 != 0 && l {
        return undef(raw, 4); // UNPREDICTABLE: writeback with Rn in list
    }
    i
}

fn ld_dual_excl(pc: u32, raw: u32, h1: u32, h2: u32) -> Insn {
    let op1 = (h1 >> 7) & 3;
    let op2 = (h1 >> 4) & 3;
    let rn = h1 & 15;
    let rt = (h2 >> 12) & 15;
    let rt2 = (h2 >> 8) & 15;
    if op1 == 0 && op2 == 0 {
        let mut i = Insn::new(Op::Strex, 4, raw);
        i.rd = rt2 as u8; // status register Rd is hw2[11:8]
        i.rm = rt as u8;
        i.rn = rn as u8;
        i.imm = (h2 & 0xff) * 4;
        return i;
    }
    if op1 == 0 && op2 == 1 {
        let mut i = Insn::new(Op::Ldrex, 4, raw);
        i.rd = rt as u8;
        i.rn = rn as u8;
        i.imm = (h2 & 0xff) * 4;
        return i;
    }
    if op1 == 1 && op2 == 0 {
        let op3 = (h2 >> 4) & 15;
        let mut i = Insn::new(Op::Strex, 4, raw);
        i.rd = (h2 & 15) as u8;
        i.rm = rt as u8;
        i.rn = rn as u8;
        i.sub = match op3 {
            4 => 2,
            5 => 1,
            _ => return undef(raw, 4),
        };
        return i;
    }
    if op1 == 1 && op2 == 1 {
        let op3 = (h2 >> 4) & 15;
        let mut i = match op3 {
            0 => Insn::new(Op::Tbb, 4, raw),
            1 => Insn::new(Op::Tbh, 4, raw),
            4 | 5 => {
                let mut i = Insn::new(Op::Ldrex, 4, raw);
                i.sub = if op3 == 4 { 2 } else { 1 };
                i.rd = rt as u8;
                i
            }
            _ => return undef(raw, 4),
        };
        i.rn = rn as u8;
        i.rm = (h2 & 15) as u8;
        return i;
    }
    // LDRD/STRD (immediate) A7.7.50 / A7.7.163
    let p = (h1 >> 8) & 1;
    let u = (h1 >> 7) & 1;
    let w = (h1 >> 5) & 1;
    let l = (h1 >> 4) & 1;
    let imm = (h2 & 0xff) * 4;
    let mut i = Insn::new(if l != 0 { Op::Ldrd } else { Op::Strd }, 4, raw);
    i.rd = rt as u8;
    i.ra = rt2 as u8;
    i.rn = rn as u8;
    i.imm = if u != 0 { imm } else { imm.wrapping_neg() };
    i.sh = (p | w << 1) as u8;
    if rn == 15 {
        if l == 0 || w != 0 {
            return undef(raw, 4);
        }
        i.rn = RZERO;
        i.imm = ((pc + 4) & !3).wrapping_add(i.imm);
    }
    i
}

fn dp_shifted(raw: u32, h1: u32, h2: u32) -> Insn {
    let op = (h1 >> 5) & 15;
    let s = ((h1 >> 4) & 1) as u8;
    let rn = h1 & 15;
    let rd = (h2 >> 8) & 15;
    let rm = h2 & 15;
    let imm5 = ((h2 >> 12) & 7) << 2 | ((h2 >> 6) & 3);
    let (st, sh) = decode_imm_shift((h2 >> 4) & 3, imm5);
    let sub = match op {
        0 => {
            if rd == 15 && s == 1 {
                return dpreg(raw, 4, alu::TST, 0, rn, rm, st, sh, 1);
            }
            alu::AND
        }
        1 => alu::BIC,
        2 => {
            if rn == 15 {
                return dpreg(raw, 4, alu::MOV, rd, 0, rm, st, sh, s);
            }
            alu::ORR
        }
        3 => {
            if rn == 15 {
                return dpreg(raw, 4, alu::MVN, rd, 0, rm, st, sh, s);
            }
            alu::ORN
        }
        4 => {
            if rd == 15 && s == 1 {
                return dpreg(raw, 4, alu::TEQ, 0, rn, rm, st, sh, 1);
            }
            alu::EOR
        }
        6 => {
            // PKHBT / PKHTB A7.7.93
            if s != 0 {
                return undef(raw, 4);
            }
            let mut i = Insn::new(Op::Pkh, 4, raw);
            i.rd = rd as u8;
            i.rn = rn as u8;
            i.rm = rm as u8;
            i.sub = ((h2 >> 5) & 1) as u8;
            let (st, sh) = decode_imm_shift((h2 >> 4) & 2, imm5);
            i.st = st;
            i.sh = sh;
            return i;
        }
        8 => {
            if rd == 15 && s == 1 {
                return dpreg(raw, 4, alu::CMN, 0, rn, rm, st, sh, 1);
            }
            alu::ADD
        }
        10 => alu::ADC,
        11 => alu::SBC,
        13 => {
            if rd == 15 && s == 1 {
                return dpreg(raw, 4, alu::CMP, 0, rn, rm, st, sh, 1);
            }
            alu::SUB
        }
        14 => alu::RSB,
        _ => return undef(raw, 4),
    };
    dpreg(raw, 4, sub, rd, rn, rm, st, sh, s)
}

fn dp_modimm(raw: u32, h1: u32, h2: u32) -> Insn {
    let op = (h1 >> 5) & 15;
    let s = ((h1 >> 4) & 1) as u8;
    let rn = h1 & 15;
    let rd = (h2 >> 8) & 15;
    let imm12 = ((h1 >> 10) & 1) << 11 | ((h2 >> 12) & 7) << 8 | (h2 & 0xff);
    let (imm, cf) = thumb_expand_imm(imm12);
    let mk = |sub: u8, rd: u32, rn: u32, sf: u8| {
        let mut i = dpimm(raw, 4, sub, rd, rn, imm, sf);
        i.cf = cf;
        // shift field (unused by DpImm) marks a shifted (rotated) 8-bit constant
        // for the Cortex-M7 pairing rules (timing::m7_info); patterns and plain
        // 8-bit constants (i:imm3 = 00xx) stay 0
        i.st = (imm12 >> 10 != 0) as u8;
        i
    };
    match op {
        0 => {
            if rd == 15 && s == 1 {
                mk(alu::TST, 0, rn, 1)
            } else {
                mk(alu::AND, rd, rn, s)
            }
        }
        1 => mk(alu::BIC, rd, rn, s),
        2 => {
            if rn == 15 {
                mk(alu::MOV, rd, 0, s)
            } else {
                mk(alu::ORR, rd, rn, s)
            }
        }
        3 => {
            if rn == 15 {
                mk(alu::MVN, rd, 0, s)
            } else {
                mk(alu::ORN, rd, rn, s)
            }
        }
        4 => {
            if rd == 15 && s == 1 {
                mk(alu::TEQ, 0, rn, 1)
            } else {
                mk(alu::EOR, rd, rn, s)
            }
        }
        8 => {
            if rd == 15 && s == 1 {
                mk(alu::CMN, 0, rn, 1)
            } else {
                mk(alu::ADD, rd, rn, s)
            }
        }
        10 => mk(alu::ADC, rd, rn, s),
        11 => mk(alu::SBC, rd, rn, s),
        13 => {
            if rd == 15 && s == 1 {
                mk(alu::CMP, 0, rn, 1)
            } else {
                mk(alu::SUB, rd, rn, s)
            }
        }
        14 => mk(alu::RSB, rd, rn, s),
        _ => undef(raw, 4),
    }
}

fn dp_plainimm(pc: u32, raw: u32, h1: u32, h2: u32) -> Insn {
    let op = (h1 >> 4) & 31;
    let rn = h1 & 15;
    let rd = (h2 >> 8) & 15;
    let imm12 = ((h1 >> 10) & 1) << 11 | ((h2 >> 12) & 7) << 8 | (h2 & 0xff);
    let imm16 = (h1 & 15) << 12 | imm12;
    let imm5 = ((h2 >> 12) & 7) << 2 | ((h2 >> 6) & 3);
    let bits = h2 & 31;
    match op {
        0 => {
            if rn == 15 {
                dpimm(raw, 4, alu::MOV, rd, 0, ((pc + 4) & !3) + imm12, 0)
            } else {
                dpimm(raw, 4, alu::ADD, rd, rn, imm12, 0)
            }
        }
        10 => {
            if rn == 15 {
                dpimm(
                    raw,
                    4,
                    alu::MOV,
                    rd,
                    0,
                    ((pc + 4) & !3).wrapping_sub(imm12),
                    0,
                )
            } else {
                dpimm(raw, 4, alu::SUB, rd, rn, imm12, 0)
            }
        }
        4 => dpimm(raw, 4, alu::MOV, rd, 0, imm16, 0),
        12 => {
            let mut i = Insn::new(Op::Movt, 4, raw);
            i.rd = rd as u8;
            i.imm = imm16;
            i
        }
        16 | 18 | 24 | 26 => {
            let unsigned = op >= 24;
            let sh_bit = (op >> 1) & 1;
            let op = if sh_bit == 1 && imm5 == 0 {
                if unsigned {
                    Op::Usat16
                } else {
                    Op::Ssat16
                }
            } else if unsigned {
                Op::Usat
            } else {
                Op::Ssat
            };
            let mut i = Insn::new(op, 4, raw);
            i.rd = rd as u8;
            i.rn = rn as u8;
            let (st, sh) = decode_imm_shift(sh_bit << 1, imm5);
            i.st = st;
            i.sh = sh;
            i.imm = match op {
                Op::Ssat => bits + 1,
                Op::Ssat16 => (bits & 15) + 1,
                Op::Usat16 => bits & 15,
                _ => bits,
            };
            i
        }
        20 | 28 => {
            let mut i = Insn::new(if op == 20 { Op::Sbfx } else { Op::Ubfx }, 4, raw);
            i.rd = rd as u8;
            i.rn = rn as u8;
            i.sh = imm5 as u8;
            i.imm = bits + 1;
            if imm5 + bits > 31 {
                return undef(raw, 4);
            }
            i
        }
        22 => {
            let mut i = Insn::new(Op::Bfi, 4, raw);
            i.rd = rd as u8;
            i.rn = if rn == 15 { RZERO } else { rn as u8 };
            i.sh = imm5 as u8;
            i.imm = bits;
            if bits < imm5 {
                return undef(raw, 4);
            }
            i
        }
        _ => undef(raw, 4),
    }
}

fn branch_misc(pc: u32, raw: u32, h1: u32, h2: u32) -> Insn {
    let op1 = (h2 >> 12) & 7;
    let op = (h1 >> 4) & 0x7f;
    let s = (h1 >> 10) & 1;
    let j1 = (h2 >> 13) & 1;
    let j2 = (h2 >> 11) & 1;
    if op1 & 5 == 0 {
        if op & 0x38 != 0x38 {
            // B T3 (conditional)
            let imm = s << 20 | j2 << 19 | j1 << 18 | (h1 & 0x3f) << 12 | (h2 & 0x7ff) << 1;
            let mut i = Insn::new(Op::Bcond, 4, raw);
            i.sub = ((h1 >> 6) & 15) as u8;
            i.imm = pc.wrapping_add(4).wrapping_add(sext(imm, 21));
            return i;
        }
        match op {
            0x38 | 0x39 => {
                let mut i = Insn::new(Op::Msr, 4, raw);
                i.rn = (h1 & 15) as u8;
                i.imm = h2 & 0xff;
                i.sub = ((h2 >> 10) & 3) as u8;
                i
            }
            0x3a => {
                if h2 & 0x7ff == 3 {
                    Insn::new(Op::Wfi, 4, raw)
                } else {
                    Insn::new(Op::Nop, 4, raw)
                }
            }
            0x3b => match (h2 >> 4) & 15 {
                2 => Insn::new(Op::Clrex, 4, raw),
                4..=6 => Insn::new(Op::Nop, 4, raw), // DSB, DMB, ISB
                _ => undef(raw, 4),
            },
            0x3e | 0x3f => {
                let mut i = Insn::new(Op::Mrs, 4, raw);
                i.rd = ((h2 >> 8) & 15) as u8;
                i.imm = h2 & 0xff;
                i
            }
            _ => undef(raw, 4),
        }
    } else if op1 & 5 == 1 || op1 & 5 == 5 {
        let i1 = !(j1 ^ s) & 1;
        let i2 = !(j2 ^ s) & 1;
        let imm = s << 24 | i1 << 23 | i2 << 22 | (h1 & 0x3ff) << 12 | (h2 & 0x7ff) << 1;
        let mut i = Insn::new(if op1 & 4 != 0 { Op::Bl } else { Op::B }, 4, raw);
        i.imm = pc.wrapping_add(4).wrapping_add(sext(imm, 25));
        i
    } else {
        undef(raw, 4)
    }
}

fn ld_st_single(pc: u32, raw: u32, h1: u32, h2: u32) -> Insn {
    let sign = (h1 >> 8) & 1;
    let size = (h1 >> 5) & 3;
    let load = h1 & 0x10 != 0;
    let rn = h1 & 15;
    let rt = (h2 >> 12) & 15;
    if size == 3 {
        return undef(raw, 4);
    }
    if !load && sign == 1 {
        return undef(raw, 4);
    }
    // kind: 0 word, 1 half, 2 byte, 3 signed half, 4 signed byte
    let kind: u8 = match (size, sign) {
        (2, 0) => 0,
        (1, 0) => 1,
        (0, 0) => 2,
        (1, 1) => 3,
        (0, 1) => 4,
        _ => return undef(raw, 4),
    };
    // PLD/PLI: loads of byte/halfword into PC are preload hints
    if load && rt == 15 && kind != 0 {
        return Insn::new(Op::Nop, 4, raw);
    }
    let mut i = Insn::new(if load { Op::Ld } else { Op::St }, 4, raw);
    i.sub = kind;
    i.rd = rt as u8;
    i.rn = rn as u8;
    if rn == 15 {
        if !load {
            return undef(raw, 4);
        }
        let imm = h2 & 0xfff;
        let base = (pc + 4) & !3;
        i.rn = RZERO;
        i.imm = if h1 & 0x80 != 0 {
            base + imm
        } else {
            base.wrapping_sub(imm)
        };
        i.ra = 1;
        return i;
    }
    if h1 & 0x80 != 0 {
        i.imm = h2 & 0xfff;
        i.ra = 1;
    } else if h2 & 0x800 != 0 {
        let p = (h2 >> 10) & 1;
        let u = (h2 >> 9) & 1;
        let w = (h2 >> 8) & 1;
        let imm = h2 & 0xff;
        i.imm = if u != 0 { imm } else { imm.wrapping_neg() };
        i.ra = (p | w << 1) as u8;
        if p == 0 && w == 0 {
            return undef(raw, 4);
        }
    } else if (h2 >> 6) & 0x3f == 0 {
        i.op = if load { Op::LdR } else { Op::StR };
        i.rm = (h2 & 15) as u8;
        i.sh = ((h2 >> 4) & 3) as u8;
    } else {
        return undef(raw, 4);
    }
    i
}

fn dp_register(raw: u32, h1: u32, h2: u32) -> Insn {
    let op1 = (h1 >> 4) & 15;
    let op2 = (h2 >> 4) & 15;
    let rn = h1 & 15;
    let rd = (h2 >> 8) & 15;
    let rm = h2 & 15;
    if h2 & 0xf000 != 0xf000 {
        return undef(raw, 4);
    }
    if op2 == 0 && op1 & 8 == 0 {
        // LSL/LSR/ASR/ROR (register)
        let mut i = Insn::new(Op::DpRegReg, 4, raw);
        i.sub = alu::MOV;
        i.rd = rd as u8;
        i.rm = rn as u8;
        i.ra = rm as u8;
        i.st = ((op1 >> 1) & 3) as u8;
        i.sf = (op1 & 1) as u8;
        return i;
    }
    if op1 & 8 == 0 && op2 & 8 != 0 {
        if op1 > 5 {
            return undef(raw, 4);
        }
        let mut i = Insn::new(Op::Extend, 4, raw);
        i.sub = op1 as u8;
        i.rd = rd as u8;
        i.rn = rn as u8;
        i.rm = rm as u8;
        i.sh = (((h2 >> 4) & 3) * 8) as u8;
        return i;
    }
    if op1 & 8 != 0 && op2 & 8 == 0 {
        // parallel addition and subtraction A5.3.13/A5.3.14
        let kind = op1 & 7;
        if kind == 3 || kind == 7 || op2 & 3 == 3 {
            return undef(raw, 4);
        }
        let mut i = Insn::new(Op::Par, 4, raw);
        let prefix = (op2 & 3) + if op2 & 4 != 0 { 3 } else { 0 };
        i.sub = (kind | prefix << 3) as u8;
        i.rd = rd as u8;
        i.rn = rn as u8;
        i.rm = rm as u8;
        return i;
    }
    if op1 & 0xc == 8 && op2 & 0xc == 8 {
        let o1 = op1 & 3;
        let o2 = op2 & 3;
        let mut i = Insn::new(Op::Qop, 4, raw);
        i.rd = rd as u8;
        i.rn = rn as u8;
        i.rm = rm as u8;
        match o1 {
            0 => i.sub = o2 as u8,
            1 => {
                i.op = [Op::Rev, Op::Rev16, Op::Rbit, Op::Revsh][o2 as usize];
            }
            2 if o2 == 0 => i.op = Op::Sel,
            3 if o2 == 0 => i.op = Op::Clz,
            _ => return undef(raw, 4),
        }
        return i;
    }
    undef(raw, 4)
}

fn mul_acc(raw: u32, h1: u32, h2: u32) -> Insn {
    let op1 = (h1 >> 4) & 7;
    let op2 = (h2 >> 4) & 3;
    let mut i = Insn::new(Op::Undefined, 4, raw);
    i.rn = (h1 & 15) as u8;
    i.ra = ((h2 >> 12) & 15) as u8;
    i.rd = ((h2 >> 8) & 15) as u8;
    i.rm = (h2 & 15) as u8;
    if (h2 >> 6) & 3 != 0 {
        return undef(raw, 4);
    }
    i.op = match (op1, op2) {
        (0, 0) => {
            if i.ra == 15 {
                Op::Mul
            } else {
                Op::Mla
            }
        }
        (0, 1) => Op::Mls,
        (1, _) => {
            i.sub = op2 as u8;
            Op::Smulxy
        }
        (2, 0) | (2, 1) => {
            i.sub = op2 as u8;
            Op::Smuad
        }
        (3, 0) | (3, 1) => {
            i.sub = op2 as u8;
            Op::Smulwy
        }
        (4, 0) | (4, 1) => {
            i.sub = op2 as u8;
            Op::Smusd
        }
        (5, 0) | (5, 1) => {
            i.sub = op2 as u8;
            Op::Smmul
        }
        (6, 0) | (6, 1) => {
            i.sub = op2 as u8;
            Op::Smmls
        }
        (7, 0) => Op::Usad8,
        _ => return undef(raw, 4),
    };
    let class_src = Insn::new(i.op, 4, raw);
    i.class = class_src.class;
    if i.op == Op::Mul {
        i.sf = 0;
    }
    i
}

fn long_mul(raw: u32, h1: u32, h2: u32) -> Insn {
    let op1 = (h1 >> 4) & 7;
    let op2 = (h2 >> 4) & 15;
    let op = match (op1, op2) {
        (0, 0) => Op::Smull,
        (1, 15) => Op::Sdiv,
        (2, 0) => Op::Umull,
        (3, 15) => Op::Udiv,
        (4, 0) => Op::Smlal,
        (4, 8..=11) => Op::Smlalxy,
        (4, 12) | (4, 13) => Op::Smlald,
        (5, 12) | (5, 13) => Op::Smlsld,
        (6, 0) => Op::Umlal,
        (6, 6) => Op::Umaal,
        _ => return undef(raw, 4),
    };
    let mut i = Insn::new(op, 4, raw);
    i.rn = (h1 & 15) as u8;
    i.rd = ((h2 >> 12) & 15) as u8; // RdLo (or Rd for division: see below)
    i.ra = ((h2 >> 8) & 15) as u8; // RdHi
    i.rm = (h2 & 15) as u8;
    i.sub = (op2 & 3) as u8;
    if op == Op::Sdiv || op == Op::Udiv {
        if (h2 >> 12) & 15 != 15 {
            return undef(raw, 4);
        }
        i.rd = ((h2 >> 8) & 15) as u8;
    } else if i.rd == i.ra {
        return undef(raw, 4);
    }
    i
}

fn coproc(pc: u32, raw: u32, h1: u32, h2: u32, fp_double: bool) -> Insn {
    let w = raw;
    let cp = (h2 >> 8) & 15;
    if cp != 10 && cp != 11 {
        return undef(raw, 4);
    }
    let sz = cp & 1;
    if sz == 1 && !fp_double && h1 & 0xfe00 != 0xec00 {
        // double precision data processing is not in FPv4-SP
        if !(h1 & 0xff00 == 0xee00 && w & 0x10 != 0) {
            return undef(raw, 4);
        }
    }
    let d_bit = (w >> 22) & 1;
    let vd = (w >> 12) & 15;
    let vn = (w >> 16) & 15;
    let vm = w & 15;
    let n_bit = (w >> 7) & 1;
    let m_bit = (w >> 5) & 1;
    let sreg = |v: u32, b: u32| (v << 1 | b) as u8;
    let dreg = |v: u32, b: u32| (b << 4 | v) as u8;
    let reg = |v: u32, b: u32, double: bool| if double { dreg(v, b) } else { sreg(v, b) };
    let dbl = sz == 1;
    if h1 & 0xef00 == 0xec00 || h1 & 0xef00 == 0xed00 {
        if h1 & 0x1000 != 0 {
            return undef(raw, 4); // 0xFCxx/0xFDxx: LDC2/STC2
        }
        if (h1 >> 5) & 15 == 0b0010 {
            // 64-bit transfers A6.8
            if (h2 >> 4) & 0xd != 1 {
                return undef(raw, 4);
            }
            let mut i = Insn::new(Op::Vmov2, 4, raw);
            i.rd = ((h2 >> 12) & 15) as u8;
            i.ra = (h1 & 15) as u8;
            i.rm = reg(vm, m_bit, dbl);
            i.sub = ((h1 >> 4) & 1) as u8 | (sz << 1) as u8;
            return i;
        }
        let p = (h1 >> 8) & 1;
        let u = (h1 >> 7) & 1;
        let wb = (h1 >> 5) & 1;
        let l = (h1 >> 4) & 1;
        let rn = h1 & 15;
        let imm8 = h2 & 0xff;
        if p == 1 && wb == 0 {
            let mut i = Insn::new(if l != 0 { Op::Vldr } else { Op::Vstr }, 4, raw);
            i.rd = reg(vd, d_bit, dbl);
            i.sh = sz as u8;
            i.rn = rn as u8;
            i.imm = if u != 0 {
                imm8 * 4
            } else {
                (imm8 * 4).wrapping_neg()
            };
            if rn == 15 {
                i.rn = RZERO;
                i.imm = ((pc + 4) & !3).wrapping_add(i.imm);
            }
            return i;
        }
        if p == u || (p == 0 && u == 0) {
            return undef(raw, 4);
        }
        let mut i = Insn::new(if l != 0 { Op::Vldm } else { Op::Vstm }, 4, raw);
        i.rd = reg(vd, d_bit, dbl);
        i.sh = sz as u8;
        i.rn = rn as u8;
        i.sf = wb as u8;
        i.sub = p as u8; // 1: decrement before
        i.imm = if dbl { imm8 / 2 } else { imm8 };
        let limit = if dbl { 16 } else { 32 };
        if i.imm == 0 || i.rd as u32 + i.imm > limit || rn == 15 {
            return undef(raw, 4);
        }
        return i;
    }
    if h1 & 0xff00 == 0xfe00 {
        return fpv5_uncond(raw, fp_double);
    }
    if h1 & 0xff00 != 0xee00 {
        return undef(raw, 4);
    }
    if w & 0x10 != 0 {
        // 8, 16 and 32-bit transfers A6.7
        let rt = ((h2 >> 12) & 15) as u8;
        let l = (w >> 20) & 1;
        let a = (w >> 21) & 7;
        if sz == 0 {
            if a == 0 {
                let mut i = Insn::new(Op::VmovS, 4, raw);
                i.rd = rt;
                i.rn = sreg(vn, n_bit);
                i.sub = l as u8;
                return i;
            }
            if a == 7 && vn == 1 {
                let mut i = Insn::new(if l != 0 { Op::Vmrs } else { Op::Vmsr }, 4, raw);
                i.rd = rt;
                return i;
            }
            return undef(raw, 4);
        }
        // VMOV between core register and a 32-bit half of a D register
        if (w >> 22) & 1 == 0 && (w >> 5) & 3 == 0 {
            let mut i = Insn::new(Op::VmovScalar, 4, raw);
            i.rd = rt;
            i.rn = dreg(vn, n_bit);
            i.sh = ((w >> 21) & 1) as u8;
            i.sub = l as u8;
            return i;
        }
        return undef(raw, 4);
    }
    // data processing A6.4
    let opc1 = ((w >> 20) & 3) | ((w >> 21) & 4);
    let opb = (w >> 6) & 1;
    let mut i = Insn::new(Op::Vdp, 4, raw);
    i.sh = sz as u8;
    i.rd = reg(vd, d_bit, dbl);
    i.rn = reg(vn, n_bit, dbl);
    i.rm = reg(vm, m_bit, dbl);
    i.sub = match (opc1, opb) {
        (0, 0) => fop::VMLA,
        (0, 1) => fop::VMLS,
        (1, 0) => fop::VNMLS,
        (1, 1) => fop::VNMLA,
        (2, 0) => fop::VMUL,
        (2, 1) => fop::VNMUL,
        (3, 0) => fop::VADD,
        (3, 1) => fop::VSUB,
        (4, 0) => fop::VDIV,
        (5, 0) => fop::VFNMS,
        (5, 1) => fop::VFNMA,
        (6, 0) => fop::VFMA,
        (6, 1) => fop::VFMS,
        (7, 0) => {
            i.op = Op::VmovImm;
            let imm8 = (vn << 4) | vm;
            let v = vfp_expand_imm(imm8, dbl);
            i.imm = if dbl { (v >> 32) as u32 } else { v as u32 };
            return i;
        }
        (7, 1) => {
            let op3 = n_bit; // bit 7
            match (vn, op3) {
                (0, 0) => fop::VMOV,
                (0, 1) => fop::VABS,
                (1, 0) => fop::VNEG,
                (1, 1) => fop::VSQRT,
                (4, e) | (5, e) => {
                    i.ra = e as u8 | if vn == 5 { 2 } else { 0 };
                    fop::VCMP
                }
                (6, x) => {
                    if !fp_double {
                        return undef(raw, 4);
                    }
                    i.ra = if x == 1 { 5 } else { 4 };
                    fop::VRINT
                }
                (7, 0) => {
                    if !fp_double {
                        return undef(raw, 4);
                    }
                    i.ra = 6;
                    fop::VRINT
                }
                (7, 1) => {
                    // VCVT double<->single: destination has the other size
                    i.rd = reg(vd, d_bit, !dbl);
                    fop::VCVT_FD
                }
                (8, s) => {
                    i.rm = sreg(vm, m_bit);
                    i.ra = s as u8;
                    fop::VCVT_I2F
                }
                (12, r) | (13, r) => {
                    i.rd = sreg(vd, d_bit);
                    i.ra = if vn == 13 { 1 } else { 0 } | if r == 0 { 2 } else { 0 };
                    fop::VCVT_F2I
                }
                _ => return undef(raw, 4),
            }
        }
        _ => return undef(raw, 4),
    };
    i
}

/// FPv5 additions in the unconditional space: VSEL, VMAXNM/VMINNM, VRINT{A,N,P,M},
/// VCVT{A,N,P,M} (Armv7-M ARM A7.7 "FPv5" entries).
fn fpv5_uncond(raw: u32, fp_double: bool) -> Insn {
    let w = raw;
    if !fp_double {
        return undef(raw, 4);
    }
    let sz = (w >> 8) & 1;
    let dbl = sz == 1;
    let d_bit = (w >> 22) & 1;
    let vd = (w >> 12) & 15;
    let vn = (w >> 16) & 15;
    let vm = w & 15;
    let n_bit = (w >> 7) & 1;
    let m_bit = (w >> 5) & 1;
    let reg = |v: u32, b: u32, double: bool| {
        if double {
            (b << 4 | v) as u8
        } else {
            (v << 1 | b) as u8
        }
    };
    let mut i = Insn::new(Op::Vdp, 4, raw);
    i.sh = sz as u8;
    i.rd = reg(vd, d_bit, dbl);
    i.rn = reg(vn, n_bit, dbl);
    i.rm = reg(vm, m_bit, dbl);
    if w & 0x10 != 0 {
        return undef(raw, 4);
    }
    if (w >> 23) & 1 == 0 {
        if (w >> 6) & 1 != 0 {
            return undef(raw, 4);
        }
        i.sub = fop::VSEL;
        i.ra = [0u8, 6, 10, 12][((w >> 20) & 3) as usize];
        return i;
    }
    match ((w >> 20) & 3, (w >> 16) & 0xc) {
        (0, _) => {
            i.sub = if (w >> 6) & 1 == 0 {
                fop::VMAXNM
            } else {
                fop::VMINNM
            };
            i
        }
        (3, 8) if (w >> 6) & 1 == 1 && (w >> 7) & 1 == 0 => {
            i.sub = fop::VRINT;
            i.ra = ((w >> 16) & 3) as u8;
            i
        }
        (3, 0xc) if (w >> 6) & 1 == 1 => {
            i.sub = fop::VCVT_F2I_RM;
            i.rd = ((vd << 1) | d_bit) as u8;
            i.ra = ((w >> 7) & 1) as u8 | (((w >> 16) & 3) << 1) as u8;
            i
        }
        _ => undef(raw, 4),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expand_imm() {
        // A5.3.2 examples: 0x0AB -> 0xAB, 0x1AB -> 0x00AB00AB, 0x4FF -> rotated 0xFF
        assert_eq!(thumb_expand_imm(0x0ab), (0xab, 0));
        assert_eq!(thumb_expand_imm(0x1ab).0, 0x00ab_00ab);
        assert_eq!(thumb_expand_imm(0x2ab).0, 0xab00_ab00);
        assert_eq!(thumb_expand_imm(0x3ab).0, 0xabab_abab);
        assert_eq!(thumb_expand_imm(0x4ff), (0x7f80_0000, 1));
    }

    #[test]
    fn decode_samples() {
        // adds r0, r1, r2
        let i = decode(0, 0x1888, 0, false);
        assert_eq!(
            (i.op, i.sub, i.rd, i.rn, i.rm, i.sf),
            (Op::DpReg, alu::ADD, 0, 1, 2, 2)
        );
        // bl with a negative offset: f7ff fffe at 0x100 branches to itself
        let i = decode(0x100, 0xf7ff, 0xfffe, false);
        assert_eq!((i.op, i.imm), (Op::Bl, 0x100));
        // ldr r0, [pc, #4] at 0x102: Align(0x106, 4) + 4
        let i = decode(0x102, 0x4801, 0, false);
        assert_eq!((i.op, i.imm), (Op::Ld, 0x108));
        // vadd.f64 is undefined on FPv4-SP and defined on FPv5
        assert_eq!(decode(0, 0xee30, 0x0b01, false).op, Op::Undefined);
        assert_eq!(decode(0, 0xee30, 0x0b01, true).op, Op::Vdp);
        // udf.w
        assert_eq!(decode(0, 0xf7f0, 0xa000, false).op, Op::Undefined);
    }
}
