// SPDX-License-Identifier: MIT
//! Semihosting (Arm "Semihosting for AArch32 and AArch64", version 2; the RISC-V semihosting
//! specification uses the same operations): the guest's calls of the host's console, files,
//! clock and exit. The operations need only the guest's memory (`Guest`); how the call is
//! made (Arm: BKPT 0xAB with the operation in r0 and the argument in r1) is the front end's.

use super::run::{cstr, Guest};
use super::{Stop, R};
use std::io::Write;

enum HostFile {
    Stdin,
    Stdout,
    Stderr,
    File(std::fs::File),
    /// ":semihosting-features" (semihosting v2): the magic "SHFB" and one
    /// feature byte, EXIT_EXTENDED and STDOUT_STDERR, as QEMU 7.2 reports;
    /// the value is the read position
    Features(usize),
}

const SH_FEATURES: [u8; 5] = [b'S', b'H', b'F', b'B', 0x03];

/// The host side: the files the guest opened.
#[derive(Default)]
pub struct Semihost {
    files: Vec<Option<HostFile>>,
}

impl Semihost {
    /// The semihosting call `op` with its argument `arg`; the result goes to the guest's
    /// r0 / a0 (Err: the run stops, e.g. SYS_EXIT).
    pub fn call<G: Guest>(&mut self, g: &mut G, op: u32, arg: u32) -> R<u32> {
        let stderr = |b: &[u8]| {
            let mut e = std::io::stderr();
            let _ = e.write_all(b);
        };
        match op {
            0x01 => {
                let name_ptr = g.read32(arg)?;
                let mode = g.read32(arg + 4)?;
                let len = g.read32(arg + 8)? as usize;
                let mut name = Vec::new();
                for k in 0..len.min(4096) {
                    name.push(g.read8(name_ptr + k as u32)? as u8);
                }
                let f = if name == b":semihosting-features" {
                    if mode & !1 == 0 {
                        Some(HostFile::Features(0))
                    } else {
                        None
                    }
                } else if name == b":tt" {
                    Some(match mode {
                        0..=3 => HostFile::Stdin,
                        4..=7 => HostFile::Stdout,
                        _ => HostFile::Stderr,
                    })
                } else {
                    let path = String::from_utf8_lossy(&name).into_owned();
                    let mut o = std::fs::OpenOptions::new();
                    match mode & !1 {
                        0 => o.read(true),
                        2 => o.read(true).write(true),
                        4 => o.write(true).create(true).truncate(true),
                        6 => o.read(true).write(true).create(true).truncate(true),
                        8 => o.append(true).create(true),
                        _ => o.read(true).append(true).create(true),
                    };
                    o.open(path).ok().map(HostFile::File)
                };
                match f {
                    Some(f) => {
                        self.files.push(Some(f));
                        Ok(self.files.len() as u32)
                    }
                    None => Ok(u32::MAX),
                }
            }
            0x02 => {
                let h = g.read32(arg)? as usize;
                if h >= 1 && h <= self.files.len() {
                    self.files[h - 1] = None;
                    Ok(0)
                } else {
                    Ok(u32::MAX)
                }
            }
            0x03 => {
                let c = g.read8(arg)? as u8;
                g.m_mut().console.flush();
                stderr(&[c]);
                // QEMU 7.2 returns this marker for calls without a result
                Ok(0xdead_beef)
            }
            0x04 => {
                let s = cstr(g, arg, 1 << 20)?;
                g.m_mut().console.flush();
                stderr(&s);
                Ok(0xdead_beef)
            }
            0x05 => {
                let h = g.read32(arg)? as usize;
                let buf = g.read32(arg + 4)?;
                let len = g.read32(arg + 8)?;
                let mut data = Vec::with_capacity(len as usize);
                for k in 0..len {
                    data.push(g.read8(buf + k)? as u8);
                }
                match self.files.get_mut(h.wrapping_sub(1)) {
                    Some(Some(HostFile::Stdout)) | Some(Some(HostFile::Stderr)) => {
                        // QEMU sends semihosting console output to stderr
                        g.m_mut().console.flush();
                        stderr(&data);
                        Ok(0)
                    }
                    Some(Some(HostFile::File(f))) => {
                        Ok(if f.write_all(&data).is_ok() { 0 } else { len })
                    }
                    _ => Ok(len),
                }
            }
            0x06 => {
                let h = g.read32(arg)? as usize;
                let buf = g.read32(arg + 4)?;
                let len = g.read32(arg + 8)? as usize;
                let mut data = vec![0u8; len];
                let got = match self.files.get_mut(h.wrapping_sub(1)) {
                    Some(Some(HostFile::File(f))) => {
                        use std::io::Read;
                        let mut tot = 0;
                        while tot < len {
                            match f.read(&mut data[tot..]) {
                                Ok(0) | Err(_) => break,
                                Ok(k) => tot += k,
                            }
                        }
                        tot
                    }
                    Some(Some(HostFile::Stdin)) => {
                        use std::io::Read;
                        std::io::stdin().read(&mut data).unwrap_or(0)
                    }
                    Some(Some(HostFile::Features(pos))) => {
                        let avail = &SH_FEATURES[(*pos).min(SH_FEATURES.len())..];
                        let n = avail.len().min(len);
                        data[..n].copy_from_slice(&avail[..n]);
                        *pos += n;
                        n
                    }
                    _ => return Ok(u32::MAX),
                };
                for (k, b) in data[..got].iter().enumerate() {
                    g.write8(buf + k as u32, *b as u32)?;
                }
                Ok((len - got) as u32)
            }
            0x09 => {
                let h = g.read32(arg)? as usize;
                Ok(match self.files.get(h.wrapping_sub(1)) {
                    Some(Some(HostFile::File(_))) | Some(Some(HostFile::Features(_))) => 0,
                    Some(Some(_)) => 1,
                    _ => u32::MAX,
                })
            }
            0x0a => {
                use std::io::Seek;
                let h = g.read32(arg)? as usize;
                let pos = g.read32(arg + 4)?;
                match self.files.get_mut(h.wrapping_sub(1)) {
                    Some(Some(HostFile::File(f))) => {
                        Ok(if f.seek(std::io::SeekFrom::Start(pos as u64)).is_ok() {
                            0
                        } else {
                            u32::MAX
                        })
                    }
                    Some(Some(HostFile::Features(p))) => {
                        *p = pos as usize;
                        Ok(0)
                    }
                    _ => Ok(u32::MAX),
                }
            }
            0x0c => {
                let h = g.read32(arg)? as usize;
                match self.files.get(h.wrapping_sub(1)) {
                    Some(Some(HostFile::File(f))) => {
                        Ok(f.metadata().map(|m| m.len() as u32).unwrap_or(u32::MAX))
                    }
                    Some(Some(HostFile::Features(_))) => Ok(SH_FEATURES.len() as u32),
                    _ => Ok(u32::MAX),
                }
            }
            // centiseconds and seconds of the machine's clock (MPS2: 25 MHz)
            0x10 => Ok((g.m().cycles / (g.clock_hz() / 100)) as u32),
            0x11 => Ok((g.m().cycles / g.clock_hz()) as u32),
            0x13 => Ok(0),
            0x15 => {
                let buf = g.read32(arg)?;
                g.write8(buf, 0)?;
                g.write32(arg + 4, 0)?;
                Ok(0)
            }
            0x16 => {
                // as QEMU 7.2: based on the RAM region holding SP and its size (MPS2: 16 MiB)
                let block = g.read32(arg)?;
                let base = g.heap_base();
                let limit = g.heap_size();
                g.write32(block, base + limit / 2)?;
                g.write32(block + 4, base + limit)?;
                g.write32(block + 8, base + limit)?;
                g.write32(block + 12, base)?;
                Ok(0)
            }
            0x18 => {
                let code = if arg == 0x20026 { 0 } else { 1 };
                Err(g.m_mut().fail(Stop::Exit(code)))
            }
            0x20 => {
                let reason = g.read32(arg)?;
                let sub = g.read32(arg + 4)?;
                Err(g
                    .m_mut()
                    .fail(Stop::Exit(if reason == 0x20026 { sub as i32 } else { 1 })))
            }
            _ => {
                let e = format!(
                    "unsupported semihosting call 0x{:x} at pc=0x{:08x}",
                    op,
                    g.pc()
                );
                Err(g.m_mut().fail(Stop::Error(e)))
            }
        }
    }
}
