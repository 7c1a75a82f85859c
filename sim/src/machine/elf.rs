// SPDX-License-Identifier: MIT
//! Minimal ELF32 little-endian reader: loadable segments, entry point and
//! function symbols. Layout from the System V ABI / "ELF for the Arm
//! Architecture" (e_machine EM_ARM = 40) and the RISC-V ELF psABI (EM_RISCV = 243).

pub const EM_ARM: u16 = 40;
pub const EM_RISCV: u16 = 243;

pub struct Segment {
    pub paddr: u32,
    pub vaddr: u32,
    pub data: Vec<u8>,
    pub memsz: u32,
}

#[derive(Clone, Debug)]
pub struct Symbol {
    pub name: String,
    pub addr: u32,
    pub size: u32,
}

#[allow(dead_code)]
pub struct Elf {
    /// e_machine: EM_ARM or EM_RISCV
    pub machine: u16,
    pub entry: u32,
    pub segments: Vec<Segment>,
    pub funcs: Vec<Symbol>,
    pub objects: Vec<Symbol>,
}

fn u16le(b: &[u8], o: usize) -> Result<u16, String> {
    b.get(o..o + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]))
        .ok_or_else(|| "truncated ELF".to_string())
}
fn u32le(b: &[u8], o: usize) -> Result<u32, String> {
    b.get(o..o + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| "truncated ELF".to_string())
}

impl Elf {
    pub fn parse(b: &[u8]) -> Result<Elf, String> {
        if b.len() < 52 || &b[0..4] != b"\x7fELF" {
            return Err("not an ELF file".into());
        }
        if b[4] != 1 || b[5] != 1 {
            return Err("not a 32-bit little-endian ELF".into());
        }
        let machine = u16le(b, 18)?;
        if machine != EM_ARM && machine != EM_RISCV {
            return Err("ELF machine is neither ARM (EM_ARM) nor RISC-V (EM_RISCV)".into());
        }
        let entry = u32le(b, 24)?;
        let phoff = u32le(b, 28)? as usize;
        let shoff = u32le(b, 32)? as usize;
        let phentsize = u16le(b, 42)? as usize;
        let phnum = u16le(b, 44)? as usize;
        let shentsize = u16le(b, 46)? as usize;
        let shnum = u16le(b, 48)? as usize;
        let mut segments = Vec::new();
        for i in 0..phnum {
            let p = phoff + i * phentsize;
            let ptype = u32le(b, p)?;
            if ptype != 1 {
                continue; // PT_LOAD only
            }
            let off = u32le(b, p + 4)? as usize;
            let vaddr = u32le(b, p + 8)?;
            let paddr = u32le(b, p + 12)?;
            let filesz = u32le(b, p + 16)? as usize;
            let memsz = u32le(b, p + 20)?;
            let data = b
                .get(off..off + filesz)
                .ok_or("ELF segment outside file")?
                .to_vec();
            segments.push(Segment {
                paddr,
                vaddr,
                data,
                memsz,
            });
        }
        let mut funcs = Vec::new();
        let mut objects = Vec::new();
        for i in 0..shnum {
            let s = shoff + i * shentsize;
            if u32le(b, s + 4)? != 2 {
                continue; // SHT_SYMTAB
            }
            let off = u32le(b, s + 16)? as usize;
            let size = u32le(b, s + 20)? as usize;
            let link = u32le(b, s + 24)? as usize;
            let entsize = (u32le(b, s + 36)? as usize).max(16);
            let strs = shoff + link * shentsize;
            let stroff = u32le(b, strs + 16)? as usize;
            for k in 0..size / entsize {
                let e = off + k * entsize;
                let name_off = u32le(b, e)? as usize;
                let value = u32le(b, e + 4)?;
                let sz = u32le(b, e + 8)?;
                let info = b[e + 12];
                let typ = info & 0xf;
                if typ != 2 && typ != 1 {
                    continue;
                }
                let start = stroff + name_off;
                let end = b[start..].iter().position(|&c| c == 0).unwrap_or(0) + start;
                let name = String::from_utf8_lossy(&b[start..end]).into_owned();
                if typ == 2 {
                    funcs.push(Symbol {
                        name,
                        addr: value & !1,
                        size: sz,
                    });
                } else {
                    objects.push(Symbol {
                        name,
                        addr: value,
                        size: sz,
                    });
                }
            }
        }
        funcs.sort_by_key(|f| f.addr);
        funcs.dedup_by_key(|f| f.addr);
        Ok(Elf {
            machine,
            entry,
            segments,
            funcs,
            objects,
        })
    }
}
