// SPDX-License-Identifier: MIT
//! RV32IMFC + Zicsr decoder (RISC-V Unprivileged ISA 20191213: chapter 2 RV32I, 7 M,
//! 11 F, 16 C with its expansion table; Privileged ISA 1.11 for MRET/WFI). A compressed
//! instruction is expanded to the base instruction it stands for; `len` keeps its size.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Op {
    Undecoded,
    Illegal,
    Lui,
    Auipc,
    Jal,
    Jalr,
    Beq,
    Bne,
    Blt,
    Bge,
    Bltu,
    Bgeu,
    Lb,
    Lh,
    Lw,
    Lbu,
    Lhu,
    Sb,
    Sh,
    Sw,
    Addi,
    Slti,
    Sltiu,
    Xori,
    Ori,
    Andi,
    Slli,
    Srli,
    Srai,
    Add,
    Sub,
    Sll,
    Slt,
    Sltu,
    Xor,
    Srl,
    Sra,
    Or,
    And,
    Fence,
    FenceI,
    Ecall,
    Ebreak,
    Mret,
    Wfi,
    Csrrw,
    Csrrs,
    Csrrc,
    Csrrwi,
    Csrrsi,
    Csrrci,
    Mul,
    Mulh,
    Mulhsu,
    Mulhu,
    Div,
    Divu,
    Rem,
    Remu,
    Flw,
    Fsw,
    Fmadd,
    Fmsub,
    Fnmsub,
    Fnmadd,
    Fadd,
    Fsub,
    Fmul,
    Fdiv,
    Fsqrt,
    Fsgnj,
    Fsgnjn,
    Fsgnjx,
    Fmin,
    Fmax,
    FcvtWS,
    FcvtWuS,
    FmvXW,
    Feq,
    Flt,
    Fle,
    Fclass,
    FcvtSW,
    FcvtSWu,
    FmvWX,
    /// pqlab's custom-0 Keccak instructions (machine cv32e40p-acc; accel.rs `KECCAK_INSN`,
    /// hw/cv32e40p/keccak-insn.patch): word (rs1 + imm)[7:2] of the unit's state ^= rs2 / = rs2
    /// / read into rd; start the permutation. Illegal on the other machines.
    Kxw,
    Ksw,
    Klw,
    Kperm,
    /// a hooked address (interval marks, machine/marks.rs): the decode cache holds the
    /// instruction there with this op (its other fields kept); the hart records the mark,
    /// then executes the instruction
    Hook,
}

/// Timing class of an instruction (what the core models distinguish); also the
/// instruction mix of the JSON report (`CLASS_NAMES`).
pub mod class {
    pub const ALU: u8 = 0;
    pub const LOAD: u8 = 1;
    pub const STORE: u8 = 2;
    pub const MUL: u8 = 3;
    pub const MULH: u8 = 4;
    pub const DIV: u8 = 5;
    pub const BRANCH: u8 = 6;
    pub const JAL: u8 = 7;
    pub const JALR: u8 = 8;
    pub const CSR: u8 = 9;
    pub const FPU: u8 = 10;
    pub const FDIV: u8 = 11;
    pub const FLOAD: u8 = 12;
    pub const FSTORE: u8 = 13;
    pub const SYSTEM: u8 = 14;
    pub const FENCEI: u8 = 15;
}

pub const CLASS_NAMES: [&str; 16] = [
    "alu", "load", "store", "mul", "mulh", "div", "branch", "jal", "jalr", "csr", "fpu",
    "fdivsqrt", "fload", "fstore", "system", "fencei",
];

/// A decoded instruction. Registers: x0-x31 are 0-31, f0-f31 are 32-63 in `dst`/`src`
/// (the timing models' scoreboard index; 0 = none, x0 is never a dependency).
#[derive(Clone, Copy, Debug)]
pub struct Insn {
    pub op: Op,
    pub rd: u8,
    pub rs1: u8,
    pub rs2: u8,
    pub rs3: u8,
    pub rm: u8,
    pub len: u8,
    pub class: u8,
    pub dst: u8,
    pub src: [u8; 3],
    pub imm: u32,
}

impl Insn {
    pub const UNDECODED: Insn = Insn {
        op: Op::Undecoded,
        rd: 0,
        rs1: 0,
        rs2: 0,
        rs3: 0,
        rm: 0,
        len: 4,
        class: class::ALU,
        dst: 0,
        src: [0; 3],
        imm: 0,
    };
}

fn bits(w: u32, hi: u32, lo: u32) -> u32 {
    (w >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

fn sext(v: u32, width: u32) -> u32 {
    let s = 32 - width;
    (((v << s) as i32) >> s) as u32
}

/// Decode the 32-bit instruction `w` (a compressed one has been expanded first).
pub fn decode32(w: u32) -> Insn {
    use Op::*;
    let rd = bits(w, 11, 7) as u8;
    let rs1 = bits(w, 19, 15) as u8;
    let rs2 = bits(w, 24, 20) as u8;
    let rs3 = bits(w, 31, 27) as u8;
    let f3 = bits(w, 14, 12);
    let f7 = bits(w, 31, 25);
    let imm_i = sext(w >> 20, 12);
    let imm_s = sext((bits(w, 31, 25) << 5) | bits(w, 11, 7), 12);
    let imm_b = sext(
        (bits(w, 31, 31) << 12)
            | (bits(w, 7, 7) << 11)
            | (bits(w, 30, 25) << 5)
            | (bits(w, 11, 8) << 1),
        13,
    );
    let imm_u = w & 0xffff_f000;
    let imm_j = sext(
        (bits(w, 31, 31) << 20)
            | (bits(w, 19, 12) << 12)
            | (bits(w, 20, 20) << 11)
            | (bits(w, 30, 21) << 1),
        21,
    );
    let mut i = Insn {
        rd,
        rs1,
        rs2,
        rs3,
        rm: f3 as u8,
        ..Insn::UNDECODED
    };
    // (op, immediate, class, destination kind, sources kinds): 'x' integer, 'f' float
    let ill = Insn {
        op: Illegal,
        ..Insn::UNDECODED
    };
    let (op, imm, cls, d, s): (Op, u32, u8, u8, [u8; 3]) = match w & 0x7f {
        0x37 => (Lui, imm_u, class::ALU, b'x', [0, 0, 0]),
        0x17 => (Auipc, imm_u, class::ALU, b'x', [0, 0, 0]),
        0x6f => (Jal, imm_j, class::JAL, b'x', [0, 0, 0]),
        0x67 if f3 == 0 => (Jalr, imm_i, class::JALR, b'x', [b'x', 0, 0]),
        0x63 => {
            let op = match f3 {
                0 => Beq,
                1 => Bne,
                4 => Blt,
                5 => Bge,
                6 => Bltu,
                7 => Bgeu,
                _ => return ill,
            };
            (op, imm_b, class::BRANCH, 0, [b'x', b'x', 0])
        }
        0x03 => {
            let op = match f3 {
                0 => Lb,
                1 => Lh,
                2 => Lw,
                4 => Lbu,
                5 => Lhu,
                _ => return ill,
            };
            (op, imm_i, class::LOAD, b'x', [b'x', 0, 0])
        }
        0x23 => {
            let op = match f3 {
                0 => Sb,
                1 => Sh,
                2 => Sw,
                _ => return ill,
            };
            (op, imm_s, class::STORE, 0, [b'x', b'x', 0])
        }
        0x13 => {
            let op = match f3 {
                0 => Addi,
                2 => Slti,
                3 => Sltiu,
                4 => Xori,
                6 => Ori,
                7 => Andi,
                1 if f7 == 0 => Slli,
                5 if f7 == 0 => Srli,
                5 if f7 == 0x20 => Srai,
                _ => return ill,
            };
            let imm = if matches!(op, Slli | Srli | Srai) {
                rs2 as u32
            } else {
                imm_i
            };
            (op, imm, class::ALU, b'x', [b'x', 0, 0])
        }
        0x33 => {
            let (op, cls) = match (f7, f3) {
                (0, 0) => (Add, class::ALU),
                (0x20, 0) => (Sub, class::ALU),
                (0, 1) => (Sll, class::ALU),
                (0, 2) => (Slt, class::ALU),
                (0, 3) => (Sltu, class::ALU),
                (0, 4) => (Xor, class::ALU),
                (0, 5) => (Srl, class::ALU),
                (0x20, 5) => (Sra, class::ALU),
                (0, 6) => (Or, class::ALU),
                (0, 7) => (And, class::ALU),
                (1, 0) => (Mul, class::MUL),
                (1, 1) => (Mulh, class::MULH),
                (1, 2) => (Mulhsu, class::MULH),
                (1, 3) => (Mulhu, class::MULH),
                (1, 4) => (Div, class::DIV),
                (1, 5) => (Divu, class::DIV),
                (1, 6) => (Rem, class::DIV),
                (1, 7) => (Remu, class::DIV),
                _ => return ill,
            };
            (op, 0, cls, b'x', [b'x', b'x', 0])
        }
        0x0f => match f3 {
            0 => (Fence, 0, class::ALU, 0, [0, 0, 0]),
            1 => (FenceI, 0, class::FENCEI, 0, [0, 0, 0]),
            _ => return ill,
        },
        0x73 => {
            let csr = w >> 20;
            match f3 {
                0 => {
                    let op = match w {
                        0x0000_0073 => Ecall,
                        0x0010_0073 => Ebreak,
                        0x3020_0073 => Mret,
                        0x1050_0073 => Wfi,
                        _ => return ill,
                    };
                    (op, 0, class::SYSTEM, 0, [0, 0, 0])
                }
                1 => (Csrrw, csr, class::CSR, b'x', [b'x', 0, 0]),
                2 => (Csrrs, csr, class::CSR, b'x', [b'x', 0, 0]),
                3 => (Csrrc, csr, class::CSR, b'x', [b'x', 0, 0]),
                5 => (Csrrwi, csr, class::CSR, b'x', [0, 0, 0]),
                6 => (Csrrsi, csr, class::CSR, b'x', [0, 0, 0]),
                7 => (Csrrci, csr, class::CSR, b'x', [0, 0, 0]),
                _ => return ill,
            }
        }
        // custom-0: the Keccak instructions; the hart refuses them without the unit
        0x0b => match f3 {
            0 => (Kxw, imm_s, class::ALU, 0, [b'x', b'x', 0]),
            1 => (Ksw, imm_s, class::ALU, 0, [b'x', b'x', 0]),
            2 => (Klw, imm_i, class::ALU, b'x', [b'x', 0, 0]),
            3 if w >> 15 == 0 && rd == 0 => (Kperm, 0, class::ALU, 0, [0, 0, 0]),
            _ => return ill,
        },
        0x07 if f3 == 2 => (Flw, imm_i, class::FLOAD, b'f', [b'x', 0, 0]),
        0x27 if f3 == 2 => (Fsw, imm_s, class::FSTORE, 0, [b'x', b'f', 0]),
        0x43 | 0x47 | 0x4b | 0x4f if bits(w, 26, 25) == 0 => {
            let op = match w & 0x7f {
                0x43 => Fmadd,
                0x47 => Fmsub,
                0x4b => Fnmsub,
                _ => Fnmadd,
            };
            (op, 0, class::FPU, b'f', [b'f', b'f', b'f'])
        }
        0x53 => {
            let (op, cls, d, s) = match f7 {
                0x00 => (Fadd, class::FPU, b'f', [b'f', b'f', 0]),
                0x04 => (Fsub, class::FPU, b'f', [b'f', b'f', 0]),
                0x08 => (Fmul, class::FPU, b'f', [b'f', b'f', 0]),
                0x0c => (Fdiv, class::FDIV, b'f', [b'f', b'f', 0]),
                0x2c if rs2 == 0 => (Fsqrt, class::FDIV, b'f', [b'f', 0, 0]),
                0x10 if f3 == 0 => (Fsgnj, class::FPU, b'f', [b'f', b'f', 0]),
                0x10 if f3 == 1 => (Fsgnjn, class::FPU, b'f', [b'f', b'f', 0]),
                0x10 if f3 == 2 => (Fsgnjx, class::FPU, b'f', [b'f', b'f', 0]),
                0x14 if f3 == 0 => (Fmin, class::FPU, b'f', [b'f', b'f', 0]),
                0x14 if f3 == 1 => (Fmax, class::FPU, b'f', [b'f', b'f', 0]),
                0x60 if rs2 == 0 => (FcvtWS, class::FPU, b'x', [b'f', 0, 0]),
                0x60 if rs2 == 1 => (FcvtWuS, class::FPU, b'x', [b'f', 0, 0]),
                0x70 if rs2 == 0 && f3 == 0 => (FmvXW, class::FPU, b'x', [b'f', 0, 0]),
                0x70 if rs2 == 0 && f3 == 1 => (Fclass, class::FPU, b'x', [b'f', 0, 0]),
                0x50 if f3 == 2 => (Feq, class::FPU, b'x', [b'f', b'f', 0]),
                0x50 if f3 == 1 => (Flt, class::FPU, b'x', [b'f', b'f', 0]),
                0x50 if f3 == 0 => (Fle, class::FPU, b'x', [b'f', b'f', 0]),
                0x68 if rs2 == 0 => (FcvtSW, class::FPU, b'f', [b'x', 0, 0]),
                0x68 if rs2 == 1 => (FcvtSWu, class::FPU, b'f', [b'x', 0, 0]),
                0x78 if rs2 == 0 && f3 == 0 => (FmvWX, class::FPU, b'f', [b'x', 0, 0]),
                _ => return ill,
            };
            (op, 0, cls, d, s)
        }
        _ => return ill,
    };
    i.op = op;
    i.imm = imm;
    i.class = cls;
    let reg = |kind: u8, r: u8| -> u8 {
        match kind {
            b'x' => r,
            b'f' => 32 + r,
            _ => 0,
        }
    };
    i.dst = reg(d, rd);
    i.src = [reg(s[0], rs1), reg(s[1], rs2), reg(s[2], rs3)];
    if matches!(op, Fmadd | Fmsub | Fnmsub | Fnmadd) {
        i.src = [32 + rs1, 32 + rs2, 32 + rs3];
    }
    i
}

/// Expand the 16-bit instruction `h` to its 32-bit equivalent (C extension, RV32FC);
/// None for a reserved or illegal encoding.
pub fn expand16(h: u32) -> Option<u32> {
    let f3 = bits(h, 15, 13);
    let r = |x: u32| x + 8; // rd', rs1', rs2'
    let rd = bits(h, 11, 7);
    let rs2 = bits(h, 6, 2);
    let i_type = |imm: u32, rs1: u32, f3: u32, rd: u32, opc: u32| -> u32 {
        ((imm & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc
    };
    let s_type = |imm: u32, rs2: u32, rs1: u32, f3: u32, opc: u32| -> u32 {
        (((imm >> 5) & 0x7f) << 25)
            | (rs2 << 20)
            | (rs1 << 15)
            | (f3 << 12)
            | ((imm & 0x1f) << 7)
            | opc
    };
    let r_type = |f7: u32, rs2: u32, rs1: u32, f3: u32, rd: u32| -> u32 {
        (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | 0x33
    };
    let j_type = |imm: u32, rd: u32| -> u32 {
        (bits(imm, 20, 20) << 31)
            | (bits(imm, 10, 1) << 21)
            | (bits(imm, 11, 11) << 20)
            | (bits(imm, 19, 12) << 12)
            | (rd << 7)
            | 0x6f
    };
    let b_type = |imm: u32, rs1: u32, f3: u32| -> u32 {
        (bits(imm, 12, 12) << 31)
            | (bits(imm, 10, 5) << 25)
            | (rs1 << 15)
            | (f3 << 12)
            | (bits(imm, 4, 1) << 8)
            | (bits(imm, 11, 11) << 7)
            | 0x63
    };
    let ci_imm = sext((bits(h, 12, 12) << 5) | bits(h, 6, 2), 6);
    let cl_w = (bits(h, 12, 10) << 3) | (bits(h, 6, 6) << 2) | (bits(h, 5, 5) << 6);
    let cj = sext(
        (bits(h, 12, 12) << 11)
            | (bits(h, 11, 11) << 4)
            | (bits(h, 10, 9) << 8)
            | (bits(h, 8, 8) << 10)
            | (bits(h, 7, 7) << 6)
            | (bits(h, 6, 6) << 7)
            | (bits(h, 5, 3) << 1)
            | (bits(h, 2, 2) << 5),
        12,
    );
    let cb = sext(
        (bits(h, 12, 12) << 8)
            | (bits(h, 11, 10) << 3)
            | (bits(h, 6, 5) << 6)
            | (bits(h, 4, 3) << 1)
            | (bits(h, 2, 2) << 5),
        9,
    );
    Some(match (h & 3, f3) {
        (0, 0) => {
            // c.addi4spn
            let imm = (bits(h, 12, 11) << 4)
                | (bits(h, 10, 7) << 6)
                | (bits(h, 6, 6) << 2)
                | (bits(h, 5, 5) << 3);
            if imm == 0 {
                return None;
            }
            i_type(imm, 2, 0, r(bits(h, 4, 2)), 0x13)
        }
        (0, 2) => i_type(cl_w, r(bits(h, 9, 7)), 2, r(bits(h, 4, 2)), 0x03), // c.lw
        (0, 3) => i_type(cl_w, r(bits(h, 9, 7)), 2, r(bits(h, 4, 2)), 0x07), // c.flw
        (0, 6) => s_type(cl_w, r(bits(h, 4, 2)), r(bits(h, 9, 7)), 2, 0x23), // c.sw
        (0, 7) => s_type(cl_w, r(bits(h, 4, 2)), r(bits(h, 9, 7)), 2, 0x27), // c.fsw
        (1, 0) => i_type(ci_imm, rd, 0, rd, 0x13),                           // c.addi / c.nop
        (1, 1) => j_type(cj, 1),                                             // c.jal
        (1, 2) => i_type(ci_imm, 0, 0, rd, 0x13),                            // c.li
        (1, 3) if rd == 2 => {
            let imm = sext(
                (bits(h, 12, 12) << 9)
                    | (bits(h, 6, 6) << 4)
                    | (bits(h, 5, 5) << 6)
                    | (bits(h, 4, 3) << 7)
                    | (bits(h, 2, 2) << 5),
                10,
            );
            if imm == 0 {
                return None;
            }
            i_type(imm, 2, 0, 2, 0x13) // c.addi16sp
        }
        (1, 3) => {
            if ci_imm == 0 {
                return None;
            }
            ((ci_imm << 12) & 0xffff_f000) | (rd << 7) | 0x37 // c.lui
        }
        (1, 4) => {
            let rd = r(bits(h, 9, 7));
            let sh = (bits(h, 12, 12) << 5) | bits(h, 6, 2);
            match bits(h, 11, 10) {
                0 if sh < 32 => i_type(sh, rd, 5, rd, 0x13),
                1 if sh < 32 => i_type(sh | 0x400, rd, 5, rd, 0x13),
                2 => i_type(ci_imm, rd, 7, rd, 0x13),
                3 if bits(h, 12, 12) == 0 => {
                    let rs2 = r(bits(h, 4, 2));
                    match bits(h, 6, 5) {
                        0 => r_type(0x20, rs2, rd, 0, rd),
                        1 => r_type(0, rs2, rd, 4, rd),
                        2 => r_type(0, rs2, rd, 6, rd),
                        _ => r_type(0, rs2, rd, 7, rd),
                    }
                }
                _ => return None,
            }
        }
        (1, 5) => j_type(cj, 0),                   // c.j
        (1, 6) => b_type(cb, r(bits(h, 9, 7)), 0), // c.beqz
        (1, 7) => b_type(cb, r(bits(h, 9, 7)), 1), // c.bnez
        (2, 0) if bits(h, 12, 12) == 0 => i_type(rs2, rd, 1, rd, 0x13), // c.slli
        (2, 2) | (2, 3) if rd != 0 || f3 == 3 => {
            let imm = (bits(h, 12, 12) << 5) | (bits(h, 6, 4) << 2) | (bits(h, 3, 2) << 6);
            i_type(imm, 2, 2, rd, if f3 == 2 { 0x03 } else { 0x07 }) // c.lwsp / c.flwsp
        }
        (2, 4) => match (bits(h, 12, 12), rd, rs2) {
            (0, 0, _) => return None,
            (0, _, 0) => i_type(0, rd, 0, 0, 0x67), // c.jr
            (0, _, _) => r_type(0, rs2, 0, 0, rd),  // c.mv
            (1, 0, 0) => 0x0010_0073,               // c.ebreak
            (1, _, 0) => i_type(0, rd, 0, 1, 0x67), // c.jalr
            (1, _, _) => r_type(0, rs2, rd, 0, rd), // c.add
            _ => return None,
        },
        (2, 6) | (2, 7) => {
            let imm = (bits(h, 12, 9) << 2) | (bits(h, 8, 7) << 6);
            s_type(imm, rs2, 2, 2, if f3 == 6 { 0x23 } else { 0x27 }) // c.swsp / c.fswsp
        }
        _ => return None,
    })
}
