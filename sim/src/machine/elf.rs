// SPDX-License-Identifier: MIT
//! Minimal ELF32 little-endian reader: loadable segments, entry point and
//! function symbols. Layout from the System V ABI / "ELF for the Arm
//! Architecture" (e_machine EM_ARM = 40) and the RISC-V ELF psABI (EM_RISCV = 243), and
//! the checks of an ELF against a machine's memory map (`Elf::check`) that both front ends
//! run before loading.

use super::bus::{Kind, MemoryMap};

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

/// `[a, a + len)` and `[b, b + len2)` share a byte (empty ranges share none).
fn overlap(a: u32, len: u64, b: u32, len2: u64) -> bool {
    len > 0 && len2 > 0 && (a as u64) < b as u64 + len2 && (b as u64) < a as u64 + len
}

impl Elf {
    /// The checks of the ELF against the machine's memory map before it is loaded: the
    /// entry point (without the Thumb bit) is in a code region; the bytes of each loadable
    /// segment (at its physical address) lie in one memory region (code or RAM), and so
    /// does its run-time image (virtual address, memory size: data, bss, heap, stack); no
    /// two segments' loaded bytes overlap, nor do their run-time images.
    pub fn check(&self, map: &MemoryMap) -> Result<(), String> {
        let entry = if self.machine == EM_ARM {
            self.entry & !1
        } else {
            self.entry
        };
        if !map.region(entry).map_or(false, |r| r.kind == Kind::Code) {
            return Err(format!(
                "entry point 0x{:08x} is not in a code region of the {} memory map",
                self.entry, map.machine
            ));
        }
        for (k, s) in self.segments.iter().enumerate() {
            let len = s.data.len() as u64;
            if len > 0 && map.memory(s.paddr, len).is_none() {
                return Err(format!(
                    "ELF segment at 0x{:08x} ({} bytes) does not fit the {} memory map",
                    s.paddr, len, map.machine
                ));
            }
            let mem = s.memsz as u64;
            if mem > 0 && map.memory(s.vaddr, mem).is_none() {
                return Err(format!(
                    "ELF segment at 0x{:08x} ({} bytes in memory) does not fit the {} memory map",
                    s.vaddr, mem, map.machine
                ));
            }
            for t in &self.segments[..k] {
                if overlap(s.paddr, len, t.paddr, t.data.len() as u64) {
                    return Err(format!(
                        "ELF segments at 0x{:08x} and 0x{:08x} overlap",
                        t.paddr, s.paddr
                    ));
                }
                if overlap(s.vaddr, mem, t.vaddr, t.memsz as u64) {
                    return Err(format!(
                        "ELF segments at 0x{:08x} and 0x{:08x} overlap in memory",
                        t.vaddr, s.vaddr
                    ));
                }
            }
        }
        Ok(())
    }

    /// Statically allocated RAM: the memory size of every loadable segment whose run-time
    /// image (virtual address, memory size: .data, .bss and whatever the linker script
    /// reserves there) lies in a RAM region of the machine's memory map (not code memory;
    /// after `check`, every image lies in one memory region). Both front ends' `static_ram`
    /// and, with the stack, `peak_ram` of the JSON report.
    pub fn static_ram(&self, map: &MemoryMap) -> u64 {
        self.segments
            .iter()
            .filter(|s| s.memsz > 0)
            .filter(|s| {
                map.memory(s.vaddr, s.memsz as u64)
                    .map_or(false, |r| r.kind == Kind::Ram)
            })
            .map(|s| s.memsz as u64)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::bus::Region;

    fn seg(paddr: u32, vaddr: u32, filesz: usize, memsz: u32) -> Segment {
        Segment {
            paddr,
            vaddr,
            data: vec![0; filesz],
            memsz,
        }
    }

    #[test]
    fn checks() {
        let map = MemoryMap {
            machine: "t".into(),
            regions: vec![
                Region::new("code", 0, 0x1000, Kind::Code),
                Region::new("ram", 0x2000, 0x1000, Kind::Ram),
            ],
        };
        let mut e = Elf {
            machine: EM_ARM,
            entry: 0x101,
            segments: vec![seg(0, 0, 0x100, 0x100), seg(0x100, 0x2000, 0x10, 0x800)],
            funcs: vec![],
            objects: vec![],
        };
        assert!(e.check(&map).is_ok());
        e.entry = 0x2001;
        assert!(e.check(&map).unwrap_err().contains("entry point"));
        e.entry = 0x101;
        e.segments.push(seg(0xff0, 0xff0, 0x20, 0x20));
        assert!(e.check(&map).unwrap_err().contains("does not fit"));
        e.segments.pop();
        e.segments.push(seg(0x2800, 0x2800, 0, 0x1000));
        assert!(e.check(&map).unwrap_err().contains("in memory"));
        e.segments.pop();
        e.segments.push(seg(0x80, 0x80, 0x10, 0x10));
        assert!(e.check(&map).unwrap_err().contains("overlap"));
        e.segments.pop();
        e.segments.push(seg(0x200, 0x27f0, 0x10, 0x10));
        assert!(e.check(&map).unwrap_err().contains("overlap in memory"));
        e.segments.pop();
        // the code segment is not RAM; the data segment's run-time image is (0x800 bytes)
        assert_eq!(e.static_ram(&map), 0x800);
        e.segments.push(seg(0x110, 0x2800, 0, 0x100));
        assert_eq!(e.static_ram(&map), 0x900);
    }
}
