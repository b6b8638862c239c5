//! Arithmetic of the CPU device, lane-vectorised: each function computes all 32 lanes of a
//! register from canonical bits (see `crate::num`).
//!
//! Integer semantics (those of the PTX nvcc emits for CUDA C++):
//! - `+ - *`, negation and conversions wrap modulo 2^bits;
//! - shifts by an amount `>= bits` (the amount read as unsigned) give 0, or all sign bits for
//!   `>>` of a negative signed value (PTX clamps shift amounts);
//! - division by zero does not trap: `x / 0` is all ones (`-1` signed, `UINT_MAX` unsigned) and
//!   `x % 0` is `x`; `INT_MIN / -1` is `INT_MIN` and `INT_MIN % -1` is 0;
//! - float → integer conversions truncate toward zero and saturate, NaN gives 0 (`cvt.rzi.sat`);
//!   narrower-than-32-bit targets convert to 32 bits first, then wrap.
//!
//! Floats are IEEE binary32/binary64 with round-to-nearest-even; `f16` computes in f32 and rounds
//! back. `min`/`max` on floats return the other operand when one is NaN (`fminf`). Math functions
//! use Rust's (the host libm's) implementations — correctly rounded for `sqrt`, `fma` and the
//! rounding functions, within a few ulp of CUDA's for the transcendental ones; `erf` is `libm`'s.

use super::program::{BinK, UnK};
use crate::num::{f16_to_f32, f32_to_f16, sext, width_mask};
use gmrace_analyzer::ir::{Intrinsic, Scalar};

pub type Lanes = [u64; 32];

#[inline(always)]
fn map1(d: &mut Lanes, a: &Lanes, f: impl Fn(u64) -> u64) {
    for l in 0..32 {
        d[l] = f(a[l]);
    }
}

#[inline(always)]
fn map2(d: &mut Lanes, a: &Lanes, b: &Lanes, f: impl Fn(u64, u64) -> u64) {
    for l in 0..32 {
        d[l] = f(a[l], b[l]);
    }
}

#[inline(always)]
fn f32v(x: u64) -> f32 {
    f32::from_bits(x as u32)
}
#[inline(always)]
fn f32b(x: f32) -> u64 {
    x.to_bits() as u64
}
#[inline(always)]
fn f64v(x: u64) -> f64 {
    f64::from_bits(x)
}
#[inline(always)]
fn f64b(x: f64) -> u64 {
    x.to_bits()
}
#[inline(always)]
fn hv(x: u64) -> f32 {
    f16_to_f32(x as u16)
}
#[inline(always)]
fn hb(x: f32) -> u64 {
    f32_to_f16(x) as u64
}

macro_rules! float_bin {
    ($op:expr, $d:expr, $a:expr, $b:expr, $v:ident, $w:ident) => {
        match $op {
            BinK::Add => map2($d, $a, $b, |x, y| $w($v(x) + $v(y))),
            BinK::Sub => map2($d, $a, $b, |x, y| $w($v(x) - $v(y))),
            BinK::Mul => map2($d, $a, $b, |x, y| $w($v(x) * $v(y))),
            BinK::Div => map2($d, $a, $b, |x, y| $w($v(x) / $v(y))),
            BinK::Rem => map2($d, $a, $b, |x, y| $w($v(x) % $v(y))),
            BinK::Min => map2($d, $a, $b, |x, y| $w($v(x).min($v(y)))),
            BinK::Max => map2($d, $a, $b, |x, y| $w($v(x).max($v(y)))),
            BinK::Eq => map2($d, $a, $b, |x, y| ($v(x) == $v(y)) as u64),
            BinK::Ne => map2($d, $a, $b, |x, y| ($v(x) != $v(y)) as u64),
            BinK::Lt => map2($d, $a, $b, |x, y| ($v(x) < $v(y)) as u64),
            BinK::Le => map2($d, $a, $b, |x, y| ($v(x) <= $v(y)) as u64),
            BinK::Gt => map2($d, $a, $b, |x, y| ($v(x) > $v(y)) as u64),
            BinK::Ge => map2($d, $a, $b, |x, y| ($v(x) >= $v(y)) as u64),
            BinK::LAnd => map2($d, $a, $b, |x, y| (x != 0 && y != 0) as u64),
            BinK::LOr => map2($d, $a, $b, |x, y| (x != 0 || y != 0) as u64),
            // Bit operations on floats do not exist in C; operate on the bits.
            BinK::And => map2($d, $a, $b, |x, y| x & y),
            BinK::Or => map2($d, $a, $b, |x, y| x | y),
            BinK::Xor => map2($d, $a, $b, |x, y| x ^ y),
            BinK::Shl | BinK::Shr => map2($d, $a, $b, |x, _| x),
        }
    };
}

/// `d = a op b` in class `c` (comparisons: result 0/1, operands of class `c`).
pub fn bin(op: BinK, c: Scalar, d: &mut Lanes, a: &Lanes, b: &Lanes) {
    match c {
        Scalar::F32 => float_bin!(op, d, a, b, f32v, f32b),
        Scalar::F64 => float_bin!(op, d, a, b, f64v, f64b),
        Scalar::F16 => float_bin!(op, d, a, b, hv, hb),
        Scalar::U32 => int_bin::<false>(op, 4, d, a, b),
        Scalar::I32 => int_bin::<true>(op, 4, d, a, b),
        _ => {
            if c.is_signed() {
                int_bin::<true>(op, c.size(), d, a, b)
            } else {
                int_bin::<false>(op, c.size(), d, a, b)
            }
        }
    }
}

#[inline(always)]
fn int_bin<const S: bool>(op: BinK, size: u32, d: &mut Lanes, a: &Lanes, b: &Lanes) {
    let m = width_mask(size);
    let bits = size * 8;
    let sx = |x: u64| sext(x, size);
    match op {
        BinK::Add => map2(d, a, b, |x, y| x.wrapping_add(y) & m),
        BinK::Sub => map2(d, a, b, |x, y| x.wrapping_sub(y) & m),
        BinK::Mul => map2(d, a, b, |x, y| x.wrapping_mul(y) & m),
        BinK::Div => {
            if S {
                map2(d, a, b, |x, y| {
                    let (x, y) = (sx(x), sx(y));
                    if y == 0 {
                        m
                    } else if y == -1 {
                        (x.wrapping_neg() as u64) & m
                    } else {
                        ((x / y) as u64) & m
                    }
                })
            } else {
                map2(d, a, b, |x, y| x.checked_div(y).unwrap_or(m))
            }
        }
        BinK::Rem => {
            if S {
                map2(d, a, b, |x, y| {
                    let (xs, ys) = (sx(x), sx(y));
                    if ys == 0 {
                        x
                    } else if ys == -1 {
                        0
                    } else {
                        ((xs % ys) as u64) & m
                    }
                })
            } else {
                map2(d, a, b, |x, y| if y == 0 { x } else { x % y })
            }
        }
        BinK::Shl => map2(
            d,
            a,
            b,
            |x, y| {
                if y >= bits as u64 {
                    0
                } else {
                    (x << y) & m
                }
            },
        ),
        BinK::Shr => {
            if S {
                map2(d, a, b, |x, y| {
                    let s = y.min(bits as u64 - 1);
                    ((sx(x) >> s) as u64) & m
                })
            } else {
                map2(d, a, b, |x, y| if y >= bits as u64 { 0 } else { x >> y })
            }
        }
        BinK::And => map2(d, a, b, |x, y| x & y),
        BinK::Or => map2(d, a, b, |x, y| x | y),
        BinK::Xor => map2(d, a, b, |x, y| x ^ y),
        BinK::Min => {
            if S {
                map2(d, a, b, |x, y| if sx(x) <= sx(y) { x } else { y })
            } else {
                map2(d, a, b, |x, y| x.min(y))
            }
        }
        BinK::Max => {
            if S {
                map2(d, a, b, |x, y| if sx(x) >= sx(y) { x } else { y })
            } else {
                map2(d, a, b, |x, y| x.max(y))
            }
        }
        BinK::Eq => map2(d, a, b, |x, y| (x == y) as u64),
        BinK::Ne => map2(d, a, b, |x, y| (x != y) as u64),
        BinK::Lt => {
            if S {
                map2(d, a, b, |x, y| (sx(x) < sx(y)) as u64)
            } else {
                map2(d, a, b, |x, y| (x < y) as u64)
            }
        }
        BinK::Le => {
            if S {
                map2(d, a, b, |x, y| (sx(x) <= sx(y)) as u64)
            } else {
                map2(d, a, b, |x, y| (x <= y) as u64)
            }
        }
        BinK::Gt => {
            if S {
                map2(d, a, b, |x, y| (sx(x) > sx(y)) as u64)
            } else {
                map2(d, a, b, |x, y| (x > y) as u64)
            }
        }
        BinK::Ge => {
            if S {
                map2(d, a, b, |x, y| (sx(x) >= sx(y)) as u64)
            } else {
                map2(d, a, b, |x, y| (x >= y) as u64)
            }
        }
        BinK::LAnd => map2(d, a, b, |x, y| (x != 0 && y != 0) as u64),
        BinK::LOr => map2(d, a, b, |x, y| (x != 0 || y != 0) as u64),
    }
}

pub fn un(op: UnK, c: Scalar, d: &mut Lanes, a: &Lanes) {
    match (op, c) {
        (UnK::LNot, _) => map1(d, a, |x| (x == 0) as u64),
        (UnK::Neg, Scalar::F32) => map1(d, a, |x| f32b(-f32v(x))),
        (UnK::Neg, Scalar::F64) => map1(d, a, |x| f64b(-f64v(x))),
        (UnK::Neg, Scalar::F16) => map1(d, a, |x| x ^ 0x8000),
        (UnK::Neg, _) => {
            let m = width_mask(c.size());
            map1(d, a, |x| x.wrapping_neg() & m)
        }
        (UnK::Not, _) => {
            let m = width_mask(c.size());
            map1(d, a, |x| !x & m)
        }
    }
}

/// Converts one canonical value between classes.
#[inline(always)]
pub fn cast_bits(x: u64, from: Scalar, to: Scalar) -> u64 {
    if to == Scalar::Bool {
        return match from {
            Scalar::F32 => (f32v(x) != 0.0) as u64,
            Scalar::F64 => (f64v(x) != 0.0) as u64,
            Scalar::F16 => (hv(x) != 0.0) as u64,
            _ => (x != 0) as u64,
        };
    }
    if from.is_float() {
        let v = match from {
            Scalar::F32 => f32v(x) as f64,
            Scalar::F16 => hv(x) as f64,
            _ => f64v(x),
        };
        return match to {
            Scalar::F32 => f32b(v as f32),
            Scalar::F64 => f64b(v),
            Scalar::F16 => hb(v as f32),
            Scalar::I64 => v as i64 as u64,
            Scalar::U64 => v as u64,
            s if s.is_signed() => (v as i32 as u64) & width_mask(s.size()),
            s => (v as u32 as u64) & width_mask(s.size()),
        };
    }
    // Integer (or bool) source: its value as i64/u64.
    let signed = from.is_signed();
    let wide = if signed {
        sext(x, from.size()) as u64
    } else {
        x
    };
    match to {
        Scalar::F32 => f32b(if signed {
            wide as i64 as f32
        } else {
            wide as f32
        }),
        Scalar::F64 => f64b(if signed {
            wide as i64 as f64
        } else {
            wide as f64
        }),
        Scalar::F16 => hb(if signed {
            wide as i64 as f32
        } else {
            wide as f32
        }),
        s => wide & width_mask(s.size()),
    }
}

pub fn cast(from: Scalar, to: Scalar, d: &mut Lanes, a: &Lanes) {
    match (from, to) {
        (Scalar::I32, Scalar::F32) => map1(d, a, |x| f32b(x as u32 as i32 as f32)),
        (Scalar::U32, Scalar::F32) => map1(d, a, |x| f32b(x as u32 as f32)),
        (Scalar::F32, Scalar::I32) => map1(d, a, |x| f32v(x) as i32 as u32 as u64),
        (Scalar::F32, Scalar::F64) => map1(d, a, |x| f64b(f32v(x) as f64)),
        (Scalar::F64, Scalar::F32) => map1(d, a, |x| f32b(f64v(x) as f32)),
        (Scalar::I32, Scalar::I64) => map1(d, a, |x| x as u32 as i32 as i64 as u64),
        (Scalar::U32, Scalar::U64) => map1(d, a, |x| x),
        _ => map1(d, a, |x| cast_bits(x, from, to)),
    }
}

/// One lane of an intrinsic. `c`: result class, `ac`: first argument's class.
pub fn call1(f: Intrinsic, c: Scalar, ac: Scalar, x: u64, y: u64, z: u64, clock: u64) -> u64 {
    use Intrinsic as I;
    if ac.is_float() || (c.is_float() && !matches!(f, I::Bitcast)) {
        let fc = if ac.is_float() { ac } else { c };
        match fc {
            Scalar::F64 => {
                let (a, b, cc) = (f64v(x), f64v(y), f64v(z));
                let r = match f {
                    I::Sqrt => a.sqrt(),
                    I::Rsqrt => 1.0 / a.sqrt(),
                    I::Exp => a.exp(),
                    I::Exp2 => a.exp2(),
                    I::Log => a.ln(),
                    I::Log2 => a.log2(),
                    I::Log10 => a.log10(),
                    I::Pow => a.powf(b),
                    I::Sin => a.sin(),
                    I::Cos => a.cos(),
                    I::Tan => a.tan(),
                    I::Tanh => a.tanh(),
                    I::Asin => a.asin(),
                    I::Acos => a.acos(),
                    I::Atan => a.atan(),
                    I::Atan2 => a.atan2(b),
                    I::Sinh => a.sinh(),
                    I::Cosh => a.cosh(),
                    I::Cbrt => a.cbrt(),
                    I::Hypot => a.hypot(b),
                    I::Expm1 => a.exp_m1(),
                    I::Log1p => a.ln_1p(),
                    I::Erf => libm::erf(a),
                    I::Abs => a.abs(),
                    I::Floor => a.floor(),
                    I::Ceil => a.ceil(),
                    I::Round => a.round(),
                    I::Trunc => a.trunc(),
                    I::Rint => a.round_ties_even(),
                    I::Fma => a.mul_add(b, cc),
                    I::Fmod => a % b,
                    I::Saturate => {
                        if a.is_nan() {
                            0.0
                        } else {
                            a.clamp(0.0, 1.0)
                        }
                    }
                    I::Frexp => libm::frexp(a).0,
                    I::Ldexp => libm::ldexp(a, sext(y, 4) as i32),
                    I::IsNan => return int_result(a.is_nan(), c),
                    I::IsInf => return int_result(a.is_infinite(), c),
                    I::FrexpExp => return (libm::frexp(a).1 as u32) as u64,
                    I::Bitcast => return x & width_mask(c.size()),
                    I::Clock => return clock,
                    I::Popc
                    | I::Clz
                    | I::Ffs
                    | I::Brev
                    | I::MulHi
                    | I::Mul24
                    | I::Sad
                    | I::Usad4
                    | I::Texture
                    | I::SharedOffset
                    | I::Random => return cast_bits(x, ac, c),
                };
                cast_bits(f64b(r), Scalar::F64, c)
            }
            _ => {
                let v = |x: u64| if fc == Scalar::F16 { hv(x) } else { f32v(x) };
                let (a, b, cc) = (v(x), v(y), v(z));
                let r = match f {
                    I::Sqrt => a.sqrt(),
                    I::Rsqrt => 1.0 / a.sqrt(),
                    I::Exp => a.exp(),
                    I::Exp2 => a.exp2(),
                    I::Log => a.ln(),
                    I::Log2 => a.log2(),
                    I::Log10 => a.log10(),
                    I::Pow => a.powf(b),
                    I::Sin => a.sin(),
                    I::Cos => a.cos(),
                    I::Tan => a.tan(),
                    I::Tanh => a.tanh(),
                    I::Asin => a.asin(),
                    I::Acos => a.acos(),
                    I::Atan => a.atan(),
                    I::Atan2 => a.atan2(b),
                    I::Sinh => a.sinh(),
                    I::Cosh => a.cosh(),
                    I::Cbrt => a.cbrt(),
                    I::Hypot => a.hypot(b),
                    I::Expm1 => a.exp_m1(),
                    I::Log1p => a.ln_1p(),
                    I::Erf => libm::erff(a),
                    I::Abs => a.abs(),
                    I::Floor => a.floor(),
                    I::Ceil => a.ceil(),
                    I::Round => a.round(),
                    I::Trunc => a.trunc(),
                    I::Rint => a.round_ties_even(),
                    I::Fma => a.mul_add(b, cc),
                    I::Fmod => a % b,
                    I::Saturate => {
                        if a.is_nan() {
                            0.0
                        } else {
                            a.clamp(0.0, 1.0)
                        }
                    }
                    I::Frexp => libm::frexpf(a).0,
                    I::Ldexp => libm::ldexpf(a, sext(y, 4) as i32),
                    I::IsNan => return int_result(a.is_nan(), c),
                    I::IsInf => return int_result(a.is_infinite(), c),
                    I::FrexpExp => return (libm::frexpf(a).1 as u32) as u64,
                    I::Bitcast => return x & width_mask(c.size()),
                    I::Clock => return clock,
                    I::Popc
                    | I::Clz
                    | I::Ffs
                    | I::Brev
                    | I::MulHi
                    | I::Mul24
                    | I::Sad
                    | I::Usad4
                    | I::Texture
                    | I::SharedOffset
                    | I::Random => return cast_bits(x, ac, c),
                };
                let bits = if fc == Scalar::F16 { hb(r) } else { f32b(r) };
                cast_bits(bits, fc, c)
            }
        }
    } else {
        let size = ac.size();
        let m = width_mask(size);
        let bits = size * 8;
        let signed = ac.is_signed();
        let r = match f {
            I::Popc => (x & m).count_ones() as u64,
            I::Clz => ((x & m).leading_zeros() - (64 - bits)) as u64,
            I::Ffs => {
                if x & m == 0 {
                    0
                } else {
                    (x.trailing_zeros() + 1) as u64
                }
            }
            I::Brev => (x.reverse_bits() >> (64 - bits)) & m,
            I::Abs => {
                if signed {
                    (sext(x, size).wrapping_abs() as u64) & m
                } else {
                    x
                }
            }
            I::MulHi => {
                if size == 8 {
                    if signed {
                        ((x as i64 as i128 * y as i64 as i128) >> 64) as u64
                    } else {
                        ((x as u128 * y as u128) >> 64) as u64
                    }
                } else if signed {
                    ((sext(x, 4) * sext(y, 4)) >> 32) as u64 & 0xffff_ffff
                } else {
                    ((x & 0xffff_ffff) * (y & 0xffff_ffff)) >> 32
                }
            }
            I::Mul24 => {
                if signed {
                    (sext(x & 0xff_ffff, 3).wrapping_mul(sext(y & 0xff_ffff, 3)) as u64)
                        & 0xffff_ffff
                } else {
                    ((x & 0xff_ffff) * (y & 0xff_ffff)) & 0xffff_ffff
                }
            }
            I::Sad => {
                let diff = if signed {
                    sext(x, size).abs_diff(sext(y, size))
                } else {
                    x.abs_diff(y)
                };
                diff.wrapping_add(z) & 0xffff_ffff
            }
            I::Usad4 => {
                let byte = |v: u64, i: u32| (v >> (8 * i)) & 0xff;
                let sum: u64 = (0..4).map(|i| byte(x, i).abs_diff(byte(y, i))).sum();
                sum.wrapping_add(z) & 0xffff_ffff
            }
            I::Bitcast => x,
            I::Clock => clock,
            I::IsNan | I::IsInf => 0,
            // A float function on an integer argument: compute in the result's class.
            _ => return x,
        };
        cast_bits(r & width_mask(c.size().max(1)), ac_int_result(f, ac, c), c)
    }
}

/// The class an integer intrinsic's raw result is in before conversion to the result class.
fn ac_int_result(f: Intrinsic, ac: Scalar, c: Scalar) -> Scalar {
    match f {
        Intrinsic::Popc | Intrinsic::Clz | Intrinsic::Ffs => Scalar::U32,
        Intrinsic::Bitcast | Intrinsic::Clock => c,
        _ => ac,
    }
}

fn int_result(b: bool, c: Scalar) -> u64 {
    cast_bits(b as u64, Scalar::U32, c)
}

#[cfg(test)]
mod usad4_tests {
    use super::call1;
    use gmrace_analyzer::ir::{Intrinsic, Scalar};

    #[test]
    fn usad4_sums_byte_differences() {
        // bytes (1,2,3,250) vs (4,2,1,0): 3 + 0 + 2 + 250, plus 10.
        let a = u64::from(u32::from_le_bytes([1, 2, 3, 250]));
        let b = u64::from(u32::from_le_bytes([4, 2, 1, 0]));
        assert_eq!(
            call1(Intrinsic::Usad4, Scalar::U32, Scalar::U32, a, b, 10, 0),
            265
        );
    }
}
