// SPDX-License-Identifier: MIT
//! Function summaries for the constant-time analysis (`--ct`, docs/ct.md "Summaries"): the
//! hash permutations that dominate hash-based signatures (Keccak-f[1600], the SHA-256 and
//! SHA-512 compression functions) and the sponge's lane conversions of the bit-interleaved
//! Keccak backends are executed natively by the simulator instead of instruction by
//! instruction, once the firmware's own code for them has been analysed.
//!
//! Per summarised function:
//! 1. Its first `VERIFY` calls run tracked as usual. At each entry the simulator computes the
//!    function's result from the inputs with its own implementation (from FIPS 202 and
//!    FIPS 180-4); at the return it compares the firmware's result with it. A difference, or
//!    a finding inside the call, turns the summary off for the rest of the run (everything
//!    stays tracked) and the report says why.
//! 2. After that, a call whose pointer and length arguments are public is not executed: the
//!    simulator writes the result and marks output bytes secret from the input bytes they
//!    depend on, then returns to the caller: for the permutations and compressions every
//!    output byte when any input byte is secret (each output bit depends on every input bit);
//!    for the lane conversions lane by lane (output lane i depends on input lane i only). A
//!    call with a secret argument register runs tracked (its addresses would be findings).
//!
//! What a summarised call does not check: the control flow and addresses of the firmware's
//! function for those inputs. The verified calls (at least `VERIFY_SECRET` of them with secret
//! inputs) saw none depend on a secret, and the functions summarised here have one path for
//! every input. The call's scratch stack below the stack pointer keeps its earlier shadow
//! (dead memory after the return). Calls are counted in the report.

/// Tracked calls of a function before it is summarised.
pub const VERIFY: u32 = 8;
/// Of those, calls with a secret input byte (a summary is never used on secret inputs before).
pub const VERIFY_SECRET: u32 = 2;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// void f(uint64_t s[25]): Keccak-f[1600] on FIPS 202 lanes (lane x + 5y, little-endian)
    Keccak,
    /// the same on a bit-interleaved state: lane i as 32-bit words 2i (even bits) and 2i + 1
    /// (odd bits) (lib/native/armv7em's layout)
    KeccakInterleaved,
    /// void f(uint32_t h[8], const uint8_t *blocks, size_t nblocks) (FIPS 180-4 6.2.2)
    Sha256,
    /// void f(uint64_t h[8], const uint8_t *blocks, size_t nblocks) (FIPS 180-4 6.4.2)
    Sha512,
    /// void f(uint64_t *s, const uint8_t *in, unsigned nlanes): s[i] ^= interleave(lane i of
    /// in), the sponge's absorb on the interleaved state (lib/native/api.h)
    XorInterleaved,
    /// void f(uint8_t *out, const uint64_t *s, unsigned nlanes): lane i of out =
    /// deinterleave(s[i]), the sponge's squeeze (lib/native/api.h)
    ExtractInterleaved,
}

/// The firmware functions summarised, by symbol (lib/common/fips202.h, sha2.h,
/// lib/native/api.h), with the kinds the function may be. A symbol with two candidates is
/// foreign code whose state layout depends on the build: mupq's `KeccakF1600_StatePermute`
/// (pqm4 and PQClean trees) permutes FIPS 202 lanes in its portable C and bit-interleaved
/// lanes in pqm4's ARMv7-M assembly. The verified calls keep the candidates whose result
/// equals the firmware's; a function is summarised only once one is left.
pub const FUNCTIONS: [(&str, &[Kind]); 7] = [
    ("pqlab_keccakf1600", &[Kind::Keccak]),
    ("pqlab_keccakf1600_native_il", &[Kind::KeccakInterleaved]),
    ("pqlab_sha256_compress", &[Kind::Sha256]),
    ("pqlab_sha512_compress", &[Kind::Sha512]),
    ("pqlab_keccak_native_xor_il", &[Kind::XorInterleaved]),
    (
        "pqlab_keccak_native_extract_il",
        &[Kind::ExtractInterleaved],
    ),
    (
        "KeccakF1600_StatePermute",
        &[Kind::Keccak, Kind::KeccakInterleaved],
    ),
];

/// What the summaries need of a machine: argument registers (the calling convention's first
/// three), their secrecy, and RAM with its shadow.
pub trait Target {
    fn arg(&self, k: usize) -> u32;
    fn arg_secret(&self, k: usize) -> bool;
    /// `buf.len()` bytes at `addr`; false when they are not all RAM
    fn read(&mut self, addr: u32, buf: &mut [u8]) -> bool;
    fn write(&mut self, addr: u32, buf: &[u8]) -> bool;
    fn any_secret(&mut self, addr: u32, n: u32) -> bool;
    fn set_secret(&mut self, addr: u32, n: u32, secret: bool);
}

pub struct Func {
    pub name: &'static str,
    /// what the function may be (the first decides arguments and regions; candidates share
    /// them); one once verified calls have told them apart
    pub kinds: Vec<Kind>,
    pub entry: u32,
    pub verified: u32,
    pub verified_secret: u32,
    pub summarised: u64,
    /// instructions of the verified calls, for the report's estimate of what was skipped
    pub verified_insns: u64,
    pub off: Option<String>,
}

struct Pending {
    func: usize,
    ret: u32,
    sp: u32,
    out_addr: u32,
    /// the result each candidate kind gives
    expect: Vec<(Kind, Vec<u8>)>,
    events: u64,
    insns: u64,
    secret: bool,
}

pub struct Summaries {
    pub funcs: Vec<Func>,
    pending: Option<Pending>,
    /// the lowest and highest entry address (`at`'s test on every tracked instruction)
    lo: u32,
    hi: u32,
}

/// What the run loop does at a function's entry.
pub enum Entry {
    /// run the call tracked
    Track,
    /// the call was summarised: return to this address
    Return(u32),
}

/// Argument registers a call reads (the first ones of the calling convention).
fn nargs(kind: Kind) -> usize {
    match kind {
        Kind::Keccak | Kind::KeccakInterleaved => 1,
        Kind::Sha256 | Kind::Sha512 | Kind::XorInterleaved | Kind::ExtractInterleaved => 3,
    }
}

/// Whether output lane i (8 bytes) depends on input lane i of each region only; otherwise
/// every output byte depends on every input byte.
fn lanewise(kind: Kind) -> bool {
    matches!(kind, Kind::XorInterleaved | Kind::ExtractInterleaved)
}

/// The memory a call reads and writes: (address, bytes) of each input region, then the
/// output region's address and length.
struct Regions {
    inputs: Vec<(u32, u32)>,
    out: u32,
    out_len: u32,
}

fn regions(kind: Kind, t: &dyn Target) -> Option<Regions> {
    match kind {
        Kind::Keccak | Kind::KeccakInterleaved => Some(Regions {
            inputs: vec![(t.arg(0), 200)],
            out: t.arg(0),
            out_len: 200,
        }),
        Kind::XorInterleaved | Kind::ExtractInterleaved => {
            let n = t.arg(2);
            if n == 0 || n > 25 {
                return None; // outside the contract (lib/native/api.h): run it tracked
            }
            let (out, src) = (t.arg(0), t.arg(1));
            Some(Regions {
                inputs: if kind == Kind::XorInterleaved {
                    vec![(out, 8 * n), (src, 8 * n)]
                } else {
                    vec![(src, 8 * n)]
                },
                out,
                out_len: 8 * n,
            })
        }
        Kind::Sha256 | Kind::Sha512 => {
            let (h, blk) = if kind == Kind::Sha256 {
                (32, 64)
            } else {
                (64, 128)
            };
            let n = t.arg(2).checked_mul(blk)?;
            Some(Regions {
                inputs: vec![(t.arg(0), h), (t.arg(1), n)],
                out: t.arg(0),
                out_len: h,
            })
        }
    }
}

/// The function's result (the output region's new bytes) from the input regions' bytes.
fn compute(kind: Kind, inputs: &[Vec<u8>]) -> Vec<u8> {
    match kind {
        Kind::Keccak | Kind::KeccakInterleaved => {
            let mut s = [0u64; 25];
            for (i, l) in s.iter_mut().enumerate() {
                let w = u64::from_le_bytes(inputs[0][8 * i..8 * i + 8].try_into().unwrap());
                *l = if kind == Kind::Keccak {
                    w
                } else {
                    deinterleave(w)
                };
            }
            keccak_f1600(&mut s);
            s.iter()
                .flat_map(|&l| {
                    let w = if kind == Kind::Keccak {
                        l
                    } else {
                        interleave(l)
                    };
                    w.to_le_bytes()
                })
                .collect()
        }
        Kind::Sha256 => {
            let mut h = [0u32; 8];
            for (i, w) in h.iter_mut().enumerate() {
                *w = u32::from_le_bytes(inputs[0][4 * i..4 * i + 4].try_into().unwrap());
            }
            for b in inputs[1].chunks_exact(64) {
                sha256_block(&mut h, b);
            }
            h.iter().flat_map(|w| w.to_le_bytes()).collect()
        }
        Kind::Sha512 => {
            let mut h = [0u64; 8];
            for (i, w) in h.iter_mut().enumerate() {
                *w = u64::from_le_bytes(inputs[0][8 * i..8 * i + 8].try_into().unwrap());
            }
            for b in inputs[1].chunks_exact(128) {
                sha512_block(&mut h, b);
            }
            h.iter().flat_map(|w| w.to_le_bytes()).collect()
        }
        Kind::XorInterleaved | Kind::ExtractInterleaved => {
            let lane =
                |b: &[u8], i: usize| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap());
            (0..inputs[0].len() / 8)
                .flat_map(|i| {
                    let w = if kind == Kind::XorInterleaved {
                        lane(&inputs[0], i) ^ interleave(lane(&inputs[1], i))
                    } else {
                        deinterleave(lane(&inputs[0], i))
                    };
                    w.to_le_bytes()
                })
                .collect()
        }
    }
}

impl Summaries {
    /// The summarised functions found among the ELF's function symbols (`(name, address)`).
    pub fn new<'a>(symbols: impl Iterator<Item = (&'a str, u32)>) -> Summaries {
        let mut funcs = Vec::new();
        for (name, addr) in symbols {
            if let Some(&(n, kinds)) = FUNCTIONS.iter().find(|(n, _)| *n == name) {
                funcs.push(Func {
                    name: n,
                    kinds: kinds.to_vec(),
                    entry: addr & !1,
                    verified: 0,
                    verified_secret: 0,
                    summarised: 0,
                    verified_insns: 0,
                    off: None,
                });
            }
        }
        let lo = funcs.iter().map(|f| f.entry).min().unwrap_or(u32::MAX);
        let hi = funcs.iter().map(|f| f.entry).max().unwrap_or(0);
        Summaries {
            funcs,
            pending: None,
            lo,
            hi,
        }
    }

    /// The summaries of an ELF's functions; none when `on` is false (`--no-summaries`).
    pub fn for_elf(funcs: &[super::elf::Symbol], on: bool) -> Summaries {
        Summaries::new(
            funcs
                .iter()
                .filter(|_| on)
                .map(|f| (f.name.as_str(), f.addr)),
        )
    }

    /// The function entered at `pc`, if it is one of them.
    #[inline(always)]
    pub fn at(&self, pc: u32) -> Option<usize> {
        if pc < self.lo || pc > self.hi {
            return None;
        }
        self.funcs.iter().position(|f| f.entry == pc)
    }

    /// Entry into function `k`; `ret`: the return address, `sp` the stack pointer, `events`
    /// the tracker's finding count, `insns` the instructions executed so far.
    pub fn enter(
        &mut self,
        k: usize,
        t: &mut dyn Target,
        ret: u32,
        sp: u32,
        events: u64,
        insns: u64,
    ) -> Entry {
        let f = &self.funcs[k];
        let kind = f.kinds[0];
        if f.off.is_some() || self.pending.is_some() || (0..nargs(kind)).any(|a| t.arg_secret(a)) {
            return Entry::Track;
        }
        let Regions {
            inputs: ins,
            out: out_addr,
            out_len,
        } = match regions(kind, t) {
            Some(r) => r,
            None => return Entry::Track,
        };
        let mut bytes = Vec::with_capacity(ins.len());
        for &(a, n) in &ins {
            let mut b = vec![0u8; n as usize];
            if !t.read(a, &mut b) {
                return Entry::Track; // not RAM: the tracked run reports what happens
            }
            bytes.push(b);
        }
        // the secrecy of each output chunk: one lane, or the whole output
        let chunk = if lanewise(kind) { 8 } else { out_len };
        let chunks: Vec<bool> = (0..out_len / chunk)
            .map(|c| {
                ins.iter().any(|&(a, n)| {
                    if chunk == out_len {
                        t.any_secret(a, n)
                    } else {
                        t.any_secret(a + c * chunk, chunk)
                    }
                })
            })
            .collect();
        let secret = chunks.iter().any(|&s| s);
        let mut expect: Vec<(Kind, Vec<u8>)> =
            f.kinds.iter().map(|&c| (c, compute(c, &bytes))).collect();
        debug_assert!(expect.iter().all(|(_, r)| r.len() == out_len as usize));
        let ready = f.verified >= VERIFY
            && f.kinds.len() == 1
            && (!secret || f.verified_secret >= VERIFY_SECRET);
        if !ready {
            self.pending = Some(Pending {
                func: k,
                ret,
                sp,
                out_addr,
                expect,
                events,
                insns,
                secret,
            });
            return Entry::Track;
        }
        let result = expect.pop().unwrap().1;
        if !t.write(out_addr, &result) {
            return Entry::Track;
        }
        for (c, &s) in chunks.iter().enumerate() {
            t.set_secret(out_addr + c as u32 * chunk, chunk, s);
        }
        self.funcs[k].summarised += 1;
        Entry::Return(ret)
    }

    /// Whether a verified call is under way (the run loop then calls `check` per instruction).
    #[inline(always)]
    pub fn pending(&self) -> bool {
        self.pending.is_some()
    }

    /// After an instruction: the verified call returned when execution is back at its return
    /// address with the entry's stack pointer; compare its result.
    pub fn check(&mut self, pc: u32, sp: u32, t: &mut dyn Target, events: u64, insns: u64) {
        let p = match &self.pending {
            Some(p) if p.ret == pc && p.sp == sp => self.pending.take().unwrap(),
            _ => return,
        };
        let f = &mut self.funcs[p.func];
        let mut got = vec![0u8; p.expect[0].1.len()];
        let read = t.read(p.out_addr, &mut got);
        let matching: Vec<Kind> = p
            .expect
            .iter()
            .filter(|(_, r)| *r == got)
            .map(|&(c, _)| c)
            .collect();
        if !read {
            f.off = Some("its output is not in RAM".into());
        } else if matching.is_empty() {
            f.off = Some(format!(
                "the firmware's result of a call differs from the summary's (output at 0x{:08x})",
                p.out_addr
            ));
        } else if events != p.events {
            f.off = Some("a finding inside a verified call".into());
        } else {
            f.kinds = matching;
            f.verified += 1;
            f.verified_secret += p.secret as u32;
            f.verified_insns += insns - p.insns;
        }
    }

    /// The report's `summaries` array.
    pub fn json(&self) -> String {
        let items: Vec<String> = self
            .funcs
            .iter()
            .map(|f| {
                let per = if f.verified > 0 {
                    f.verified_insns / f.verified as u64
                } else {
                    0
                };
                format!(
                    "{{\"function\": {}, \"verified_calls\": {}, \"verified_secret_calls\": {}, \"summarised_calls\": {}, \"instructions_per_call\": {}, \"off\": {}}}",
                    super::json_str(f.name),
                    f.verified,
                    f.verified_secret,
                    f.summarised,
                    per,
                    f.off.as_deref().map(super::json_str).unwrap_or_else(|| "null".into())
                )
            })
            .collect();
        format!("[{}]", items.join(", "))
    }
}

// ---- the functions, written from the standards ----------------------------------------------

/// Bit-interleaving of a lane: even bits to the low word, odd bits to the high word.
pub fn interleave(v: u64) -> u64 {
    let (mut e, mut o) = (0u64, 0u64);
    for i in 0..32 {
        e |= ((v >> (2 * i)) & 1) << i;
        o |= ((v >> (2 * i + 1)) & 1) << i;
    }
    e | (o << 32)
}

pub fn deinterleave(w: u64) -> u64 {
    let mut v = 0u64;
    for i in 0..32 {
        v |= ((w >> i) & 1) << (2 * i);
        v |= ((w >> (32 + i)) & 1) << (2 * i + 1);
    }
    v
}

/// FIPS 202 round constants RC[i_r] (Algorithms 5 and 6: bit 2^j - 1 of RC is rc(j + 7 i_r)),
/// computed at compile time.
const RC: [u64; 24] = round_constants();

const fn rc_bit(t: u32) -> u64 {
    let mut r: u32 = 1;
    let mut i = 0;
    while i < t % 255 {
        r <<= 1;
        if r & 0x100 != 0 {
            r ^= 0x171;
        }
        i += 1;
    }
    (r & 1) as u64
}

const fn round_constants() -> [u64; 24] {
    let mut out = [0u64; 24];
    let mut ir = 0;
    while ir < 24 {
        let mut j = 0;
        while j < 7 {
            out[ir] |= rc_bit(j + 7 * ir as u32) << ((1u32 << j) - 1);
            j += 1;
        }
        ir += 1;
    }
    out
}

/// rho offsets (FIPS 202 Algorithm 2), computed at compile time.
const RHO: [u32; 25] = rho_offsets();

const fn rho_offsets() -> [u32; 25] {
    let mut rho = [0u32; 25];
    let (mut x, mut y) = (1usize, 0usize);
    let mut t = 0u32;
    while t < 24 {
        rho[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64;
        let nx = y;
        y = (2 * x + 3 * y) % 5;
        x = nx;
        t += 1;
    }
    rho
}

/// Keccak-f[1600] (FIPS 202 Algorithm 7) on lanes x + 5y.
/// (Also the Keccak unit's function in the cv32e40p-acc machine, rv32/accel.rs.)
pub fn keccak_f1600(a: &mut [u64; 25]) {
    for r in RC.iter() {
        let mut c = [0u64; 5];
        for x in 0..5 {
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        }
        let mut b = [0u64; 25];
        for x in 0..5 {
            let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
            for y in 0..5 {
                b[y + 5 * ((2 * x + 3 * y) % 5)] = (a[x + 5 * y] ^ d).rotate_left(RHO[x + 5 * y]);
            }
        }
        for y in 0..5 {
            for x in 0..5 {
                a[x + 5 * y] = b[x + 5 * y] ^ (!b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
            }
        }
        a[0] ^= r;
    }
}

/// FIPS 180-4 section 4.2.2: the first 32 bits of the fractional parts of the cube roots of
/// the first 64 primes.
const K256: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// FIPS 180-4 section 4.2.3: the first 64 bits of the fractional parts of the cube roots of
/// the first 80 primes.
const K512: [u64; 80] = [
    0x428a2f98d728ae22,
    0x7137449123ef65cd,
    0xb5c0fbcfec4d3b2f,
    0xe9b5dba58189dbbc,
    0x3956c25bf348b538,
    0x59f111f1b605d019,
    0x923f82a4af194f9b,
    0xab1c5ed5da6d8118,
    0xd807aa98a3030242,
    0x12835b0145706fbe,
    0x243185be4ee4b28c,
    0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f,
    0x80deb1fe3b1696b1,
    0x9bdc06a725c71235,
    0xc19bf174cf692694,
    0xe49b69c19ef14ad2,
    0xefbe4786384f25e3,
    0x0fc19dc68b8cd5b5,
    0x240ca1cc77ac9c65,
    0x2de92c6f592b0275,
    0x4a7484aa6ea6e483,
    0x5cb0a9dcbd41fbd4,
    0x76f988da831153b5,
    0x983e5152ee66dfab,
    0xa831c66d2db43210,
    0xb00327c898fb213f,
    0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2,
    0xd5a79147930aa725,
    0x06ca6351e003826f,
    0x142929670a0e6e70,
    0x27b70a8546d22ffc,
    0x2e1b21385c26c926,
    0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df,
    0x650a73548baf63de,
    0x766a0abb3c77b2a8,
    0x81c2c92e47edaee6,
    0x92722c851482353b,
    0xa2bfe8a14cf10364,
    0xa81a664bbc423001,
    0xc24b8b70d0f89791,
    0xc76c51a30654be30,
    0xd192e819d6ef5218,
    0xd69906245565a910,
    0xf40e35855771202a,
    0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8,
    0x1e376c085141ab53,
    0x2748774cdf8eeb99,
    0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63,
    0x4ed8aa4ae3418acb,
    0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc,
    0x78a5636f43172f60,
    0x84c87814a1f0ab72,
    0x8cc702081a6439ec,
    0x90befffa23631e28,
    0xa4506cebde82bde9,
    0xbef9a3f7b2c67915,
    0xc67178f2e372532b,
    0xca273eceea26619c,
    0xd186b8c721c0c207,
    0xeada7dd6cde0eb1e,
    0xf57d4f7fee6ed178,
    0x06f067aa72176fba,
    0x0a637dc5a2c898a6,
    0x113f9804bef90dae,
    0x1b710b35131c471b,
    0x28db77f523047d84,
    0x32caab7b40c72493,
    0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6,
    0x597f299cfc657e2a,
    0x5fcb6fab3ad6faec,
    0x6c44198c4a475817,
];

/// FIPS 180-4 section 6.2.2, one 64-byte block.
pub fn sha256_block(h: &mut [u32; 8], block: &[u8]) {
    let mut w = [0u32; 64];
    for t in 0..16 {
        w[t] = u32::from_be_bytes(block[4 * t..4 * t + 4].try_into().unwrap());
    }
    for t in 16..64 {
        let s0 = w[t - 15].rotate_right(7) ^ w[t - 15].rotate_right(18) ^ (w[t - 15] >> 3);
        let s1 = w[t - 2].rotate_right(17) ^ w[t - 2].rotate_right(19) ^ (w[t - 2] >> 10);
        w[t] = s1
            .wrapping_add(w[t - 7])
            .wrapping_add(s0)
            .wrapping_add(w[t - 16]);
    }
    let mut v = *h;
    for t in 0..64 {
        let e = v[4];
        let a = v[0];
        let t1 = v[7]
            .wrapping_add(e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25))
            .wrapping_add((e & v[5]) ^ (!e & v[6]))
            .wrapping_add(K256[t])
            .wrapping_add(w[t]);
        let t2 = (a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22))
            .wrapping_add((a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]));
        v = [
            t1.wrapping_add(t2),
            a,
            v[1],
            v[2],
            v[3].wrapping_add(t1),
            e,
            v[5],
            v[6],
        ];
    }
    for (x, y) in h.iter_mut().zip(v) {
        *x = x.wrapping_add(y);
    }
}

/// FIPS 180-4 section 6.4.2, one 128-byte block.
pub fn sha512_block(h: &mut [u64; 8], block: &[u8]) {
    let mut w = [0u64; 80];
    for t in 0..16 {
        w[t] = u64::from_be_bytes(block[8 * t..8 * t + 8].try_into().unwrap());
    }
    for t in 16..80 {
        let s0 = w[t - 15].rotate_right(1) ^ w[t - 15].rotate_right(8) ^ (w[t - 15] >> 7);
        let s1 = w[t - 2].rotate_right(19) ^ w[t - 2].rotate_right(61) ^ (w[t - 2] >> 6);
        w[t] = s1
            .wrapping_add(w[t - 7])
            .wrapping_add(s0)
            .wrapping_add(w[t - 16]);
    }
    let mut v = *h;
    for t in 0..80 {
        let e = v[4];
        let a = v[0];
        let t1 = v[7]
            .wrapping_add(e.rotate_right(14) ^ e.rotate_right(18) ^ e.rotate_right(41))
            .wrapping_add((e & v[5]) ^ (!e & v[6]))
            .wrapping_add(K512[t])
            .wrapping_add(w[t]);
        let t2 = (a.rotate_right(28) ^ a.rotate_right(34) ^ a.rotate_right(39))
            .wrapping_add((a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]));
        v = [
            t1.wrapping_add(t2),
            a,
            v[1],
            v[2],
            v[3].wrapping_add(t1),
            e,
            v[5],
            v[6],
        ];
    }
    for (x, y) in h.iter_mut().zip(v) {
        *x = x.wrapping_add(y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A machine of 1 KiB of RAM at 0 with its shadow and three argument registers.
    struct Mock {
        ram: Vec<u8>,
        shadow: Vec<u8>,
        args: [u32; 3],
        args_secret: [bool; 3],
    }

    impl Target for Mock {
        fn arg(&self, k: usize) -> u32 {
            self.args[k]
        }
        fn arg_secret(&self, k: usize) -> bool {
            self.args_secret[k]
        }
        fn read(&mut self, addr: u32, buf: &mut [u8]) -> bool {
            let a = addr as usize;
            match self.ram.get(a..a + buf.len()) {
                Some(m) => {
                    buf.copy_from_slice(m);
                    true
                }
                None => false,
            }
        }
        fn write(&mut self, addr: u32, buf: &[u8]) -> bool {
            let a = addr as usize;
            match self.ram.get_mut(a..a + buf.len()) {
                Some(m) => {
                    m.copy_from_slice(buf);
                    true
                }
                None => false,
            }
        }
        fn any_secret(&mut self, addr: u32, n: u32) -> bool {
            self.shadow[addr as usize..(addr + n) as usize]
                .iter()
                .any(|&b| b != 0)
        }
        fn set_secret(&mut self, addr: u32, n: u32, secret: bool) {
            for b in &mut self.shadow[addr as usize..(addr + n) as usize] {
                *b = secret as u8;
            }
        }
    }

    fn mock() -> Mock {
        Mock {
            ram: vec![0; 1024],
            shadow: vec![0; 1024],
            args: [0x100, 0, 0],
            args_secret: [false; 3],
        }
    }

    /// The firmware's side of a verified call: the correct permutation of the state at 0x100
    /// (or a wrong one), then the return.
    fn firmware_call(s: &mut Summaries, m: &mut Mock, wrong: bool, findings: u64) {
        assert!(matches!(s.enter(0, m, 0x500, 0x800, 0, 0), Entry::Track));
        let mut st = [0u64; 25];
        for (i, l) in st.iter_mut().enumerate() {
            *l = u64::from_le_bytes(m.ram[0x100 + 8 * i..0x108 + 8 * i].try_into().unwrap());
        }
        keccak_f1600(&mut st);
        st[3] ^= wrong as u64;
        for (i, l) in st.iter().enumerate() {
            m.ram[0x100 + 8 * i..0x108 + 8 * i].copy_from_slice(&l.to_le_bytes());
        }
        s.check(0x400, 0x800, m, findings, 10); // not the return yet
        assert!(s.pending());
        s.check(0x500, 0x800, m, findings, 2500);
        assert!(!s.pending());
    }

    #[test]
    fn verified_then_summarised_with_secrecy() {
        let mut s = Summaries::new([("pqlab_keccakf1600", 0x1001u32)].into_iter());
        assert_eq!(s.at(0x1000), Some(0));
        let mut m = mock();
        m.ram[0x100] = 1;
        m.set_secret(0x100, 1, true);
        for _ in 0..VERIFY {
            firmware_call(&mut s, &mut m, false, 0);
        }
        assert_eq!(s.funcs[0].verified, VERIFY);
        assert_eq!(s.funcs[0].verified_secret, VERIFY);
        let mut expect = [0u64; 25];
        for (i, l) in expect.iter_mut().enumerate() {
            *l = u64::from_le_bytes(m.ram[0x100 + 8 * i..0x108 + 8 * i].try_into().unwrap());
        }
        keccak_f1600(&mut expect);
        // summarised: the result written, every state byte secret, back to the caller
        assert!(matches!(
            s.enter(0, &mut m, 0x500, 0x800, 0, 0),
            Entry::Return(0x500)
        ));
        assert_eq!(
            u64::from_le_bytes(m.ram[0x100..0x108].try_into().unwrap()),
            expect[0]
        );
        assert!(m.shadow[0x100..0x100 + 200].iter().all(|&b| b == 1));
        assert_eq!(s.funcs[0].summarised, 1);
        // a secret pointer: the call runs tracked
        m.args_secret[0] = true;
        assert!(matches!(
            s.enter(0, &mut m, 0x500, 0x800, 0, 0),
            Entry::Track
        ));
        assert!(!s.pending());
        // public inputs give public outputs
        m.args_secret[0] = false;
        m.set_secret(0x100, 200, false);
        assert!(matches!(
            s.enter(0, &mut m, 0x500, 0x800, 0, 0),
            Entry::Return(_)
        ));
        assert!(m.shadow[0x100..0x100 + 200].iter().all(|&b| b == 0));
    }

    #[test]
    fn a_wrong_result_or_a_finding_turns_the_summary_off() {
        let mut m = mock();
        let mut s = Summaries::new([("pqlab_keccakf1600", 0x1000u32)].into_iter());
        firmware_call(&mut s, &mut m, true, 0);
        assert!(s.funcs[0].off.as_deref().unwrap().contains("differs"));
        for _ in 0..VERIFY {
            assert!(matches!(
                s.enter(0, &mut m, 0x500, 0x800, 0, 0),
                Entry::Track
            ));
        }
        let mut s = Summaries::new([("pqlab_keccakf1600", 0x1000u32)].into_iter());
        firmware_call(&mut s, &mut m, false, 1); // one finding event during the call
        assert!(s.funcs[0].off.as_deref().unwrap().contains("finding"));
        // only public inputs seen: never summarised on secret ones
        let mut s = Summaries::new([("pqlab_keccakf1600", 0x1000u32)].into_iter());
        for _ in 0..VERIFY {
            firmware_call(&mut s, &mut m, false, 0);
        }
        assert!(matches!(
            s.enter(0, &mut m, 0x500, 0x800, 0, 0),
            Entry::Return(_)
        ));
        m.set_secret(0x108, 1, true);
        assert!(matches!(
            s.enter(0, &mut m, 0x500, 0x800, 0, 0),
            Entry::Track
        ));
    }

    #[test]
    fn a_foreign_permutation_is_told_apart_by_its_results() {
        // mupq's name: plain lanes (its portable C) or interleaved (pqm4's assembly)
        let mut s = Summaries::new([("KeccakF1600_StatePermute", 0x1000u32)].into_iter());
        assert_eq!(s.funcs[0].kinds.len(), 2);
        let mut m = mock();
        m.ram[0x100] = 5;
        m.ram[0x1c0] = 9;
        firmware_call(&mut s, &mut m, false, 0); // plain Keccak-f[1600]
        assert_eq!(s.funcs[0].kinds, vec![Kind::Keccak]);
        // an interleaved firmware: only that candidate matches
        let mut s = Summaries::new([("KeccakF1600_StatePermute", 0x1000u32)].into_iter());
        assert!(matches!(
            s.enter(0, &mut m, 0x500, 0x800, 0, 0),
            Entry::Track
        ));
        let mut st = [0u64; 25];
        for (i, l) in st.iter_mut().enumerate() {
            *l = deinterleave(u64::from_le_bytes(
                m.ram[0x100 + 8 * i..0x108 + 8 * i].try_into().unwrap(),
            ));
        }
        keccak_f1600(&mut st);
        for (i, l) in st.iter().enumerate() {
            m.ram[0x100 + 8 * i..0x108 + 8 * i].copy_from_slice(&interleave(*l).to_le_bytes());
        }
        s.check(0x500, 0x800, &mut m, 0, 100);
        assert_eq!(s.funcs[0].kinds, vec![Kind::KeccakInterleaved]);
        assert!(s.funcs[0].off.is_none());
        // neither: off
        let mut s = Summaries::new([("KeccakF1600_StatePermute", 0x1000u32)].into_iter());
        firmware_call(&mut s, &mut m, true, 0);
        assert!(s.funcs[0].off.is_some());
    }

    #[test]
    fn lane_conversions_keep_secrecy_per_lane() {
        // xor_il at 0x1000, extract_il at 0x1100; state at 0x100, bytes at 0x200, 3 lanes
        let mut s = Summaries::new(
            [
                ("pqlab_keccak_native_xor_il", 0x1000u32),
                ("pqlab_keccak_native_extract_il", 0x1100u32),
            ]
            .into_iter(),
        );
        let mut m = mock();
        for (i, b) in m.ram[0x100..0x300].iter_mut().enumerate() {
            *b = (i * 7 + 3) as u8;
        }
        m.set_secret(0x208, 8, true); // input lane 1 secret
        let lane = |m: &Mock, a: usize, i: usize| {
            u64::from_le_bytes(m.ram[a + 8 * i..a + 8 * i + 8].try_into().unwrap())
        };
        let xor_call = |s: &mut Summaries, m: &mut Mock| {
            m.args = [0x100, 0x200, 3];
            let expect: Vec<u64> = (0..3)
                .map(|i| lane(m, 0x100, i) ^ interleave(lane(m, 0x200, i)))
                .collect();
            (s.enter(0, m, 0x500, 0x800, 0, 0), expect)
        };
        for _ in 0..VERIFY {
            let (e, expect) = xor_call(&mut s, &mut m);
            assert!(matches!(e, Entry::Track));
            for (i, w) in expect.iter().enumerate() {
                m.ram[0x100 + 8 * i..0x108 + 8 * i].copy_from_slice(&w.to_le_bytes());
            }
            m.set_secret(0x108, 8, true); // what the tracked firmware's code does
            s.check(0x500, 0x800, &mut m, 0, 100);
        }
        assert_eq!(s.funcs[0].verified, VERIFY);
        assert_eq!(s.funcs[0].verified_secret, VERIFY);
        m.set_secret(0x100, 24, false);
        let (e, expect) = xor_call(&mut s, &mut m);
        assert!(matches!(e, Entry::Return(0x500)));
        assert_eq!(
            (0..3).map(|i| lane(&m, 0x100, i)).collect::<Vec<_>>(),
            expect
        );
        // lanes 0 and 2 public, lane 1 secret, the lane after them untouched
        assert!(m.shadow[0x100..0x108].iter().all(|&b| b == 0));
        assert!(m.shadow[0x108..0x110].iter().all(|&b| b == 1));
        assert!(m.shadow[0x110..0x118].iter().all(|&b| b == 0));
        assert_eq!(
            m.ram[0x118..0x120],
            [171, 178, 185, 192, 199, 206, 213, 220]
        );
        // extract_il: a wrong count (outside the contract) runs tracked; then round trip
        m.args = [0x300, 0x100, 26];
        assert!(matches!(
            s.enter(1, &mut m, 0x500, 0x800, 0, 0),
            Entry::Track
        ));
        assert!(!s.pending());
        m.args = [0x300, 0x100, 3];
        assert_eq!(
            compute(Kind::ExtractInterleaved, &[m.ram[0x100..0x118].to_vec()])[8..16],
            deinterleave(lane(&m, 0x100, 1)).to_le_bytes()
        );
    }

    #[test]
    fn keccak_zero_state() {
        // FIPS 202's Keccak-f[1600] on the zero state: the first lane of the result (the
        // known answer published with the Keccak reference)
        let mut s = [0u64; 25];
        keccak_f1600(&mut s);
        assert_eq!(s[0], 0xf1258f7940e1dde7);
        assert_eq!(s[24], 0xeaf1ff7b5ceca249);
    }

    #[test]
    fn sha_abc() {
        // FIPS 180-4 examples: SHA-256("abc") and SHA-512("abc"), one padded block each
        let mut b = [0u8; 64];
        b[..3].copy_from_slice(b"abc");
        b[3] = 0x80;
        b[63] = 24;
        let mut h: [u32; 8] = [
            0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
            0x5be0cd19,
        ];
        sha256_block(&mut h, &b);
        assert_eq!(h[0], 0xba7816bf);
        assert_eq!(h[7], 0xf20015ad);
        let mut b = [0u8; 128];
        b[..3].copy_from_slice(b"abc");
        b[3] = 0x80;
        b[127] = 24;
        let mut h: [u64; 8] = [
            0x6a09e667f3bcc908,
            0xbb67ae8584caa73b,
            0x3c6ef372fe94f82b,
            0xa54ff53a5f1d36f1,
            0x510e527fade682d1,
            0x9b05688c2b3e6c1f,
            0x1f83d9abfb41bd6b,
            0x5be0cd19137e2179,
        ];
        sha512_block(&mut h, &b);
        assert_eq!(h[0], 0xddaf35a193617aba);
        assert_eq!(h[7], 0x2a9ac94fa54ca49f);
    }

    #[test]
    fn interleaving_round_trip() {
        for v in [0u64, 1, 2, 0x8000_0000_0000_0000, 0x0123_4567_89ab_cdef] {
            assert_eq!(deinterleave(interleave(v)), v);
        }
        assert_eq!(interleave(1), 1);
        assert_eq!(interleave(2), 1 << 32);
    }
}
