// SPDX-License-Identifier: MIT
//! Floating-point arithmetic with the Arm semantics of the Armv7-M ARM
//! (DDI 0403E) section A2.5 "Floating-point data types and arithmetic":
//! NaN propagation (FPProcessNaNs), default NaN, flush-to-zero, the
//! cumulative exception flags and the four rounding modes.
//!
//! Rust's f32/f64 `+ - * / sqrt mul_add` are correctly rounded
//! (round-to-nearest-even) IEEE 754 operations. For the directed rounding
//! modes the exact error of the round-to-nearest result is computed with an
//! error-free transformation (TwoSum, FMA residual), and the result is
//! stepped by one ulp when the error points the other way.

pub const IOC: u32 = 1;
pub const DZC: u32 = 2;
pub const OFC: u32 = 4;
pub const UFC: u32 = 8;
pub const IXC: u32 = 16;
pub const IDC: u32 = 128;

pub trait Float: Copy + PartialEq + PartialOrd {
    const EXP_BITS: u32;
    const FRAC_BITS: u32;
    fn to_u64(self) -> u64;
    fn from_u64(v: u64) -> Self;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    fn sqrt(self) -> Self;
    fn fma(self, a: Self, b: Self) -> Self;
    fn zero() -> Self;
    fn is_zero(self) -> bool {
        self.to_u64() & !Self::sign_mask() == 0
    }
    fn sign_mask() -> u64 {
        1u64 << (Self::EXP_BITS + Self::FRAC_BITS)
    }
    fn exp_field(self) -> u64 {
        (self.to_u64() >> Self::FRAC_BITS) & ((1 << Self::EXP_BITS) - 1)
    }
    fn frac_field(self) -> u64 {
        self.to_u64() & ((1 << Self::FRAC_BITS) - 1)
    }
    fn is_nan(self) -> bool {
        self.exp_field() == (1 << Self::EXP_BITS) - 1 && self.frac_field() != 0
    }
    fn is_inf(self) -> bool {
        self.exp_field() == (1 << Self::EXP_BITS) - 1 && self.frac_field() == 0
    }
    fn is_snan(self) -> bool {
        self.is_nan() && (self.frac_field() >> (Self::FRAC_BITS - 1)) == 0
    }
    fn is_denormal(self) -> bool {
        self.exp_field() == 0 && self.frac_field() != 0
    }
    fn quiet(self) -> Self {
        Self::from_u64(self.to_u64() | 1 << (Self::FRAC_BITS - 1))
    }
    fn default_nan() -> Self {
        Self::from_u64(((1u64 << (Self::EXP_BITS + 1)) - 1) << (Self::FRAC_BITS - 1))
    }
    fn neg(self) -> Self {
        Self::from_u64(self.to_u64() ^ Self::sign_mask())
    }
    fn abs(self) -> Self {
        Self::from_u64(self.to_u64() & !Self::sign_mask())
    }
    fn sign(self) -> bool {
        self.to_u64() & Self::sign_mask() != 0
    }
    fn max_finite(neg: bool) -> Self {
        let v = ((((1u64 << Self::EXP_BITS) - 2) << Self::FRAC_BITS)
            | ((1 << Self::FRAC_BITS) - 1))
            | if neg { Self::sign_mask() } else { 0 };
        Self::from_u64(v)
    }
    fn inf(neg: bool) -> Self {
        Self::from_u64(
            (((1u64 << Self::EXP_BITS) - 1) << Self::FRAC_BITS)
                | if neg { Self::sign_mask() } else { 0 },
        )
    }
    /// next representable value toward +inf (finite, non-NaN input)
    fn next_up(self) -> Self {
        let b = self.to_u64();
        if self.is_zero() {
            Self::from_u64(1)
        } else if self.sign() {
            Self::from_u64(b - 1)
        } else {
            Self::from_u64(b + 1)
        }
    }
    fn next_down(self) -> Self {
        self.neg().next_up().neg()
    }
}

impl Float for f32 {
    const EXP_BITS: u32 = 8;
    const FRAC_BITS: u32 = 23;
    fn to_u64(self) -> u64 {
        self.to_bits() as u64
    }
    fn from_u64(v: u64) -> Self {
        f32::from_bits(v as u32)
    }
    fn add(self, o: Self) -> Self {
        self + o
    }
    fn sub(self, o: Self) -> Self {
        self - o
    }
    fn mul(self, o: Self) -> Self {
        self * o
    }
    fn div(self, o: Self) -> Self {
        self / o
    }
    fn sqrt(self) -> Self {
        f32::sqrt(self)
    }
    fn fma(self, a: Self, b: Self) -> Self {
        f32::mul_add(a, b, self)
    }
    fn zero() -> Self {
        0.0
    }
}

impl Float for f64 {
    const EXP_BITS: u32 = 11;
    const FRAC_BITS: u32 = 52;
    fn to_u64(self) -> u64 {
        self.to_bits()
    }
    fn from_u64(v: u64) -> Self {
        f64::from_bits(v)
    }
    fn add(self, o: Self) -> Self {
        self + o
    }
    fn sub(self, o: Self) -> Self {
        self - o
    }
    fn mul(self, o: Self) -> Self {
        self * o
    }
    fn div(self, o: Self) -> Self {
        self / o
    }
    fn sqrt(self) -> Self {
        f64::sqrt(self)
    }
    fn fma(self, a: Self, b: Self) -> Self {
        f64::mul_add(a, b, self)
    }
    fn zero() -> Self {
        0.0
    }
}

/// FPSCR-derived context of one operation and the flags it raises.
pub struct Ctx {
    pub dn: bool,
    pub fz: bool,
    pub rmode: u32,
    pub flags: u32,
}

impl Ctx {
    pub fn new(fpscr: u32) -> Ctx {
        Ctx {
            dn: fpscr & (1 << 25) != 0,
            fz: fpscr & (1 << 24) != 0,
            rmode: (fpscr >> 22) & 3,
            flags: 0,
        }
    }

    /// FPUnpack's flush-to-zero of denormal inputs.
    pub fn inp<T: Float>(&mut self, x: T) -> T {
        if self.fz && x.is_denormal() {
            self.flags |= IDC;
            if x.sign() {
                T::zero().neg()
            } else {
                T::zero()
            }
        } else {
            x
        }
    }

    fn nan_result<T: Float>(&mut self, x: T) -> T {
        if x.is_snan() {
            self.flags |= IOC;
        }
        if self.dn {
            T::default_nan()
        } else {
            x.quiet()
        }
    }

    /// FPProcessNaNs for two operands.
    pub fn nans2<T: Float>(&mut self, a: T, b: T) -> Option<T> {
        if !a.is_nan() && !b.is_nan() {
            return None;
        }
        if a.is_snan() || b.is_snan() {
            self.flags |= IOC;
        }
        let pick = if a.is_snan() {
            a
        } else if b.is_snan() {
            b
        } else if a.is_nan() {
            a
        } else {
            b
        };
        Some(if self.dn {
            T::default_nan()
        } else {
            pick.quiet()
        })
    }

    /// FPProcessNaNs3 (order: addend, op1, op2).
    pub fn nans3<T: Float>(&mut self, a: T, b: T, c: T) -> Option<T> {
        if !a.is_nan() && !b.is_nan() && !c.is_nan() {
            return None;
        }
        if a.is_snan() || b.is_snan() || c.is_snan() {
            self.flags |= IOC;
        }
        let pick = if a.is_snan() {
            a
        } else if b.is_snan() {
            b
        } else if c.is_snan() {
            c
        } else if a.is_nan() {
            a
        } else if b.is_nan() {
            b
        } else {
            c
        };
        Some(if self.dn {
            T::default_nan()
        } else {
            pick.quiet()
        })
    }

    fn invalid<T: Float>(&mut self) -> T {
        self.flags |= IOC;
        T::default_nan()
    }

    /// Round a round-to-nearest result `r` whose exact value is r + err
    /// (sign of `err` is what matters) into the current rounding mode, and
    /// raise inexact/overflow/underflow.
    fn finish<T: Float>(&mut self, r: T, err_sign: i32, ops_finite: bool) -> T {
        let mut r = r;
        if r.is_inf() && ops_finite {
            // overflow: the exact result is finite but beyond the range
            self.flags |= OFC | IXC;
            let neg = r.sign();
            return match self.rmode {
                0 => r,
                1 => {
                    if neg {
                        T::max_finite(true)
                    } else {
                        T::inf(false)
                    }
                }
                2 => {
                    if neg {
                        T::inf(true)
                    } else {
                        T::max_finite(false)
                    }
                }
                _ => T::max_finite(neg),
            };
        }
        // tininess is judged on the exact value (before rounding): the RN
        // result is below the smallest normal, or equal to it with the exact
        // value of smaller magnitude
        let min_normal = T::from_u64(1u64 << T::FRAC_BITS);
        let tiny = (r.is_denormal() || (r.is_zero() && err_sign != 0))
            || (r.abs() == min_normal && err_sign != 0 && (err_sign < 0) != r.sign());
        if self.fz && tiny {
            self.flags |= UFC;
            return if r.sign() { T::zero().neg() } else { T::zero() };
        }
        if err_sign != 0 {
            self.flags |= IXC;
            if tiny {
                self.flags |= UFC;
            }
            match self.rmode {
                1 if err_sign > 0 => r = r.next_up(),
                2 if err_sign < 0 => r = r.next_down(),
                3 if (err_sign > 0) == r.sign() && !r.is_zero() => {
                    r = if r.sign() { r.next_up() } else { r.next_down() };
                }
                _ => {}
            }
            if r.is_inf() {
                // stepping past the largest finite value is an overflow
                self.flags |= OFC;
            }
        }
        r
    }

    fn sign_of(e: f64) -> i32 {
        if e == 0.0 || e.is_nan() {
            0
        } else if e < 0.0 {
            -1
        } else {
            1
        }
    }

    fn zero_sign_fix<T: Float>(&self, r: T, exact_zero: bool) -> T {
        // an exact zero sum of opposite signs is -0 only when rounding toward -inf
        if exact_zero && r.is_zero() && self.rmode == 2 {
            T::zero().neg()
        } else {
            r
        }
    }

    pub fn add<T: Float>(&mut self, a: T, b: T) -> T {
        let a = self.inp(a);
        let b = self.inp(b);
        if let Some(n) = self.nans2(a, b) {
            return n;
        }
        if a.is_inf() && b.is_inf() && a.sign() != b.sign() {
            return self.invalid();
        }
        let s = a.add(b);
        if s.is_inf() {
            return self.finish(s, 0, !a.is_inf() && !b.is_inf());
        }
        // TwoSum (Knuth): err = (a + b) - s exactly
        let bb = s.sub(a);
        let err = a.sub(s.sub(bb)).add(b.sub(bb));
        let opposite_zero = a.sign() != b.sign();
        // x + (-x) and (+0) + (-0) are +0, except -0 when rounding toward -inf
        let s = if s.is_zero() && opposite_zero {
            self.zero_sign_fix(s, true)
        } else {
            s
        };
        self.finish(s, Self::sign_of(to_f64(err)), true)
    }

    pub fn sub<T: Float>(&mut self, a: T, b: T) -> T {
        let a = self.inp(a);
        let b = self.inp(b);
        if let Some(n) = self.nans2(a, b) {
            return n;
        }
        self.add(a, b.neg())
    }

    pub fn mul<T: Float>(&mut self, a: T, b: T) -> T {
        let a = self.inp(a);
        let b = self.inp(b);
        if let Some(n) = self.nans2(a, b) {
            return n;
        }
        if (a.is_inf() && b.is_zero()) || (a.is_zero() && b.is_inf()) {
            return self.invalid();
        }
        let p = a.mul(b);
        if p.is_inf() {
            return self.finish(p, 0, !a.is_inf() && !b.is_inf());
        }
        let err = residual_mul(a, b, p);
        self.finish(p, Self::sign_of(err), true)
    }

    pub fn div<T: Float>(&mut self, a: T, b: T) -> T {
        let a = self.inp(a);
        let b = self.inp(b);
        if let Some(n) = self.nans2(a, b) {
            return n;
        }
        if (a.is_inf() && b.is_inf()) || (a.is_zero() && b.is_zero()) {
            return self.invalid();
        }
        if b.is_zero() && !a.is_inf() {
            self.flags |= DZC;
            return T::inf(a.sign() != b.sign());
        }
        let q = a.div(b);
        if q.is_inf() {
            return self.finish(q, 0, !a.is_inf());
        }
        if a.is_inf() || b.is_inf() {
            return q;
        }
        // residual a - q*b has the sign of (exact - q) times sign(b)
        // residual a - q*b has the sign of (exact - q) times sign(b)
        let res = residual_div(a, b, q);
        let mut s = Self::sign_of(res);
        if b.sign() {
            s = -s;
        }
        self.finish(q, s, true)
    }

    pub fn sqrt<T: Float>(&mut self, a: T) -> T {
        let a = self.inp(a);
        if a.is_nan() {
            return self.nan_result(a);
        }
        if a.sign() && !a.is_zero() {
            return self.invalid();
        }
        let r = a.sqrt();
        if a.is_inf() || a.is_zero() {
            return r;
        }
        let res = residual_sqrt(a, r); // a - r*r
        self.finish(r, Self::sign_of(res), true)
    }

    /// FPMulAdd: addend + op1*op2 with a single rounding.
    pub fn fma<T: Float>(&mut self, addend: T, a: T, b: T) -> T {
        let addend = self.inp(addend);
        let a = self.inp(a);
        let b = self.inp(b);
        if let Some(n) = self.nans3(addend, a, b) {
            // an invalid product with a quiet NaN addend still signals
            if (a.is_inf() && b.is_zero()) || (a.is_zero() && b.is_inf()) {
                self.flags |= IOC;
            }
            return n;
        }
        let inf_prod = a.is_inf() || b.is_inf();
        if (a.is_inf() && b.is_zero()) || (a.is_zero() && b.is_inf()) {
            return self.invalid();
        }
        if inf_prod && addend.is_inf() && (a.sign() != b.sign()) != addend.sign() {
            return self.invalid();
        }
        let r = addend.fma(a, b);
        if r.is_inf() {
            return self.finish(r, 0, !inf_prod && !addend.is_inf());
        }
        // The exact residual of a fused operation is not cheaply available;
        // inexactness is detected for the common cases only: compare with the
        // higher-precision evaluation where the product is exact.
        let err_sign = fma_err_sign(addend, a, b, r);
        let r = if r.is_zero() && err_sign == 0 {
            let prod_neg = a.sign() != b.sign();
            if addend.is_zero() && prod_neg == addend.sign() {
                r
            } else {
                self.zero_sign_fix(r, true)
            }
        } else {
            r
        };
        if self.rmode != 0 && err_sign == 2 {
            // unknown residual sign in a directed mode: refuse to guess
            self.flags |= IXC;
            return r;
        }
        self.finish(r, if err_sign == 2 { 1 } else { err_sign }, true)
    }

    pub fn cmp<T: Float>(&mut self, a: T, b: T, signal_qnan: bool) -> u32 {
        let a = self.inp(a);
        let b = self.inp(b);
        if a.is_nan() || b.is_nan() {
            if a.is_snan() || b.is_snan() || signal_qnan {
                self.flags |= IOC;
            }
            return 0b0011;
        }
        if a == b {
            0b0110
        } else if a < b {
            0b1000
        } else {
            0b0010
        }
    }
}

fn to_f64<T: Float>(x: T) -> f64 {
    if T::EXP_BITS == 8 {
        f32::from_bits(x.to_u64() as u32) as f64
    } else {
        f64::from_bits(x.to_u64())
    }
}

/// a*b - p as a value whose sign is that of the exact residual. Single
/// precision is evaluated exactly in f64; double precision scales operands
/// below 2^-200 by 2^600 (exact) so that the residual does not underflow.
fn residual_mul<T: Float>(a: T, b: T, p: T) -> f64 {
    if T::EXP_BITS == 8 {
        let af = f32::from_bits(a.to_u64() as u32) as f64;
        let bf = f32::from_bits(b.to_u64() as u32) as f64;
        let pf = f32::from_bits(p.to_u64() as u32) as f64;
        af * bf - pf
    } else {
        let mut af = f64::from_bits(a.to_u64());
        let mut bf = f64::from_bits(b.to_u64());
        let mut pf = f64::from_bits(p.to_u64());
        if pf.abs() < 2f64.powi(-900) {
            // the residual may underflow: scale the small operand(s); the
            // product is tiny so neither scaled operand overflows
            let small = 2f64.powi(-200);
            let sc = 2f64.powi(600);
            if af.abs() < small {
                af *= sc;
                pf *= sc;
            }
            if bf.abs() < small {
                bf *= sc;
                pf *= sc;
            }
        }
        af.mul_add(bf, -pf)
    }
}

/// a - r*r with the same conventions as `residual_mul`.
fn residual_sqrt<T: Float>(a: T, r: T) -> f64 {
    if T::EXP_BITS == 8 {
        let af = f32::from_bits(a.to_u64() as u32) as f64;
        let rf = f32::from_bits(r.to_u64() as u32) as f64;
        af - rf * rf
    } else {
        let mut af = f64::from_bits(a.to_u64());
        let mut rf = f64::from_bits(r.to_u64());
        if af < 2f64.powi(-900) {
            // scale a by 2^600 and r by 2^300 (both exact)
            af *= 2f64.powi(600);
            rf *= 2f64.powi(300);
        }
        (-rf).mul_add(rf, af)
    }
}

/// a - q*b with the same conventions as `residual_mul`.
fn residual_div<T: Float>(a: T, b: T, q: T) -> f64 {
    if T::EXP_BITS == 8 {
        let af = f32::from_bits(a.to_u64() as u32) as f64;
        let bf = f32::from_bits(b.to_u64() as u32) as f64;
        let qf = f32::from_bits(q.to_u64() as u32) as f64;
        af - qf * bf
    } else {
        let mut af = f64::from_bits(a.to_u64());
        let bf = f64::from_bits(b.to_u64());
        let mut qf = f64::from_bits(q.to_u64());
        if qf.abs() < 2f64.powi(-200) {
            let sc = 2f64.powi(600);
            qf *= sc;
            af *= sc;
        }
        (-qf).mul_add(bf, af)
    }
}

/// Sign of (exact - r) for r = round(addend + a*b), or 2 when unknown.
fn fma_err_sign<T: Float>(addend: T, a: T, b: T, r: T) -> i32 {
    if T::EXP_BITS == 8 {
        // single precision: the product is exact in f64 and the sum of an
        // exact 48-bit product and a 24-bit addend is evaluated with one more
        // rounding in f64 at most; use the double-double TwoSum.
        let af = f32::from_bits(a.to_u64() as u32) as f64;
        let bf = f32::from_bits(b.to_u64() as u32) as f64;
        let cf = f32::from_bits(addend.to_u64() as u32) as f64;
        let rf = f32::from_bits(r.to_u64() as u32) as f64;
        let prod = af * bf; // exact
                            // exact = prod + cf; compute (prod + cf) - rf exactly via TwoSum chain
        let s = prod + cf;
        let bb = s - prod;
        let e1 = (prod - (s - bb)) + (cf - bb);
        let d = s - rf; // exact: s and rf are close (Sterbenz) in practice
        let tot = d + e1;
        if tot == 0.0 {
            0
        } else if tot > 0.0 {
            1
        } else {
            -1
        }
    } else {
        // double precision: err(product) + err(sum) with FMA residuals
        let af = f64::from_bits(a.to_u64());
        let bf = f64::from_bits(b.to_u64());
        let cf = f64::from_bits(addend.to_u64());
        let rf = f64::from_bits(r.to_u64());
        fma_err_sign_f64(af, bf, cf, rf, 0)
    }
}

fn fma_err_sign_f64(af: f64, bf: f64, cf: f64, rf: f64, depth: u32) -> i32 {
    let p = af * bf;
    let tiny = 2f64.powi(-900);
    if af != 0.0 && bf != 0.0 && p.abs() < tiny {
        // the product's residual would underflow
        if cf.abs() >= 2f64.powi(-800) {
            let d = cf - rf;
            return if d == 0.0 {
                if (af < 0.0) != (bf < 0.0) {
                    -1
                } else {
                    1
                }
            } else if d > 0.0 {
                1
            } else {
                -1
            };
        }
        if depth > 0 || af.abs() > 2f64.powi(700) || bf.abs() > 2f64.powi(700) {
            return 2;
        }
        let s3 = 2f64.powi(300);
        let s6 = 2f64.powi(600);
        return fma_err_sign_f64(af * s3, bf * s3, cf * s6, rf * s6, depth + 1);
    }
    let pe = af.mul_add(bf, -p);
    let s = p + cf;
    if !p.is_finite() || !s.is_finite() {
        return 2;
    }
    let bb = s - p;
    let se = (p - (s - bb)) + (cf - bb);
    let d = s - rf;
    // sign of d + se + pe, summed with TwoSum to keep it exact enough
    let t1 = d + se;
    let bb2 = t1 - d;
    let t2 = (d - (t1 - bb2)) + (se - bb2);
    let tot = t1 + (t2 + pe);
    if tot == 0.0 && t1 == 0.0 && t2 == 0.0 && pe == 0.0 {
        0
    } else if tot == 0.0 {
        2
    } else if tot > 0.0 {
        1
    } else {
        -1
    }
}

/// Round half to even (f64::round_ties_even needs Rust 1.77; the crate
/// builds with Debian 12's Rust 1.63).
fn round_even(x: f64) -> f64 {
    let r = x.round();
    if (r - x).abs() == 0.5 {
        2.0 * (x / 2.0).round()
    } else {
        r
    }
}

/// FPToFixed for 32-bit results (A2.5 / VCVT): rounding `rmode`
/// (0 RN, 1 RP, 2 RM, 3 RZ, 4 ties-away), saturating, NaN -> 0 with IOC.
pub fn to_int<T: Float>(ctx: &mut Ctx, x: T, signed: bool, rmode: u32) -> u32 {
    let x = ctx.inp(x);
    if x.is_nan() {
        ctx.flags |= IOC;
        return 0;
    }
    let v = if T::EXP_BITS == 8 {
        f32::from_bits(x.to_u64() as u32) as f64
    } else {
        f64::from_bits(x.to_u64())
    };
    let r = match rmode {
        0 => round_even(v),
        1 => v.ceil(),
        2 => v.floor(),
        3 => v.trunc(),
        _ => v.round(),
    };
    let (lo, hi) = if signed {
        (i32::MIN as f64, i32::MAX as f64)
    } else {
        (0.0, u32::MAX as f64)
    };
    if r < lo || r > hi {
        ctx.flags |= IOC;
        return if r < lo {
            if signed {
                i32::MIN as u32
            } else {
                0
            }
        } else if signed {
            i32::MAX as u32
        } else {
            u32::MAX
        };
    }
    if r != v {
        ctx.flags |= IXC;
    }
    if signed {
        (r as i64) as i32 as u32
    } else {
        r as u32
    }
}

/// FPRoundInt (VRINT): round to an integral value in floating point.
pub fn round_int<T: Float>(ctx: &mut Ctx, x: T, rmode: u32, exact: bool) -> T {
    let x = ctx.inp(x);
    if x.is_nan() {
        return ctx.nan_result(x);
    }
    if x.is_inf() || x.is_zero() {
        return x;
    }
    let v = if T::EXP_BITS == 8 {
        f32::from_bits(x.to_u64() as u32) as f64
    } else {
        f64::from_bits(x.to_u64())
    };
    let r = match rmode {
        0 => round_even(v),
        1 => v.ceil(),
        2 => v.floor(),
        3 => v.trunc(),
        _ => v.round(),
    };
    if exact && r != v {
        ctx.flags |= IXC;
    }
    let out = if T::EXP_BITS == 8 {
        T::from_u64((r as f32).to_bits() as u64)
    } else {
        T::from_u64(r.to_bits())
    };
    if out.is_zero() && x.sign() {
        out.abs().neg()
    } else {
        out
    }
}

/// FPConvert between single and double precision.
pub fn f32_to_f64(ctx: &mut Ctx, x: f32) -> f64 {
    let x = ctx.inp(x);
    if x.is_nan() {
        if x.is_snan() {
            ctx.flags |= IOC;
        }
        if ctx.dn {
            return f64::default_nan();
        }
        let b = x.to_bits() as u64;
        let sign = (b >> 31) << 63;
        let frac = (b & 0x7f_ffff) << 29;
        return f64::from_bits(sign | 0x7ff8_0000_0000_0000 | frac);
    }
    x as f64
}

pub fn f64_to_f32(ctx: &mut Ctx, x: f64) -> f32 {
    let x = ctx.inp(x);
    if x.is_nan() {
        if x.is_snan() {
            ctx.flags |= IOC;
        }
        if ctx.dn {
            return f32::default_nan();
        }
        let b = x.to_bits();
        let sign = ((b >> 63) as u32) << 31;
        let frac = ((b >> 29) & 0x7f_ffff) as u32;
        return f32::from_bits(sign | 0x7fc0_0000 | frac);
    }
    let r = x as f32;
    if r.is_infinite() && x.is_finite() {
        return ctx.finish(r, 0, true);
    }
    if x.is_infinite() {
        return r;
    }
    let back = r as f64;
    let e = if back == x {
        0
    } else if x > back {
        1
    } else {
        -1
    };
    ctx.finish(r, e, true)
}

/// int -> float conversion with rounding.
pub fn from_int<T: Float>(ctx: &mut Ctx, v: u32, signed: bool) -> T {
    let exact: i64 = if signed { v as i32 as i64 } else { v as i64 };
    if T::EXP_BITS == 8 {
        let r = exact as f32; // RN
        let back = r as f64 as i64;
        let e = (exact - back).signum() as i32;
        let r = T::from_u64(r.to_bits() as u64);
        ctx.finish(r, e, true)
    } else {
        T::from_u64((exact as f64).to_bits())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directed_rounding() {
        // 1 + 2^-30 in single precision: RN and RM give 1.0, RP gives next_up(1.0)
        let tiny = f32::from_bits(0x3080_0000);
        for (mode, want) in [
            (0u32, 0x3f80_0000u32),
            (1, 0x3f80_0001),
            (2, 0x3f80_0000),
            (3, 0x3f80_0000),
        ] {
            let mut c = Ctx::new(mode << 22);
            assert_eq!(c.add(1.0f32, tiny).to_bits(), want, "mode {}", mode);
            assert_eq!(c.flags & IXC, IXC);
        }
    }

    #[test]
    fn nan_rules() {
        let mut c = Ctx::new(0);
        let snan = f32::from_bits(0x7f80_0001);
        let qnan = f32::from_bits(0xffc0_0002);
        // the first signalling NaN wins, quietened, with Invalid Operation
        assert_eq!(c.add(qnan, snan).to_bits(), 0x7fc0_0001);
        assert_eq!(c.flags, IOC);
        // inf - inf is the default NaN
        let mut c = Ctx::new(0);
        assert_eq!(c.sub(f32::INFINITY, f32::INFINITY).to_bits(), 0x7fc0_0000);
        // default NaN mode
        let mut c = Ctx::new(1 << 25);
        assert_eq!(c.mul(qnan, 1.0).to_bits(), 0x7fc0_0000);
    }

    #[test]
    fn underflow_and_flush() {
        let mut c = Ctx::new(0);
        let d = f32::from_bits(3);
        assert_eq!(c.mul(d, 1.5).to_bits(), 4); // 4.5 ulp -> 4 (ties to even)
        assert_eq!(c.flags, UFC | IXC);
        let mut c = Ctx::new(1 << 24); // FZ: denormal input flushed
        assert_eq!(c.add(d, 0.0).to_bits(), 0);
        assert_eq!(c.flags & IDC, IDC);
    }

    #[test]
    fn conversions() {
        let mut c = Ctx::new(0);
        assert_eq!(to_int(&mut c, 2.5f32, true, 0), 2);
        assert_eq!(to_int(&mut c, -2.5f32, true, 3), (-2i32) as u32);
        assert_eq!(to_int(&mut c, 3e9f32, true, 3), i32::MAX as u32);
        assert_eq!(c.flags & IOC, IOC);
        assert_eq!(round_even(3.5), 4.0);
        assert_eq!(round_even(-2.5), -2.0);
    }
}
