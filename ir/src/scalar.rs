//! The one semantics of CUDA scalar arithmetic: what the CPU device computes, what the
//! analyzer's replay of a witness computes, bit for bit. A value is held as its *canonical bits*
//! in a `u64`: integers (and `bool`, 0 or 1) as the two's-complement bits of their width,
//! zero-extended; `f32` as its IEEE bits in the low 32 bits; `f16` as its IEEE half bits in the
//! low 16; `f64` as its bits; pointers as the 64-bit address (`PtrAdd`/`PtrDiff` are 64-bit
//! integer `+`/`-`). Memory holds the low `size` bytes of the canonical bits, little-endian.
//!
//! The operations are written once, over `N` lanes (`*_lanes`): the device maps them over a
//! warp's 32 lanes with the dispatch outside the lane loop, the replay calls the one-lane
//! wrappers (`binary`, `unary`, `cast`).
//!
//! Integer semantics (those of the PTX nvcc emits for CUDA C++):
//! - `+ - *`, negation and conversions wrap modulo 2^bits;
//! - shifts by an amount `>= bits` (the amount read as unsigned) give 0, or all sign bits for
//!   `>>` of a negative signed value (PTX clamps shift amounts);
//! - division by zero does not trap: `x / 0` is all ones (`-1` signed, `UINT_MAX` unsigned) and
//!   `x % 0` is `x`; `INT_MIN / -1` is `INT_MIN` and `INT_MIN % -1` is 0 (C++ leaves these
//!   undefined; the replay refuses to rely on them, the device gives the GPU's value);
//! - float → integer conversions truncate toward zero and saturate, NaN gives 0 (`cvt.rzi.sat`);
//!   narrower-than-32-bit targets convert to 32 bits first, then wrap.
//!
//! Floats are IEEE binary32/binary64 with round-to-nearest-even, each operation rounded to its
//! type; `f16` computes in f32 and rounds back. `min`/`max` on floats return the other operand
//! when one is NaN (`fminf`). Math functions use Rust's (the host libm's) implementations —
//! correctly rounded for `sqrt`, `fma` and the rounding functions, within a few ulp of CUDA's
//! for the transcendental ones; `erf` is `libm`'s.

use crate::{BinOp, Intrinsic, Scalar, UnOp};

/// All-ones mask of a scalar's width.
#[inline(always)]
pub fn width_mask(size: u32) -> u64 {
    if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (size * 8)) - 1
    }
}

/// Sign-extends canonical bits of `size` bytes.
#[inline(always)]
pub fn sign_extend(bits: u64, size: u32) -> i64 {
    let shift = 64 - size * 8;
    ((bits << shift) as i64) >> shift
}

/// IEEE half → single (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: normalise.
            let mut e: i32 = -14;
            let mut m = m;
            while m & 0x400 == 0 {
                m <<= 1;
                e -= 1;
            }
            sign | (((e + 127) as u32) << 23) | ((m & 0x3ff) << 13)
        }
        (0x1f, 0) => sign | 0x7f80_0000,
        (0x1f, m) => sign | 0x7fc0_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// Single → IEEE half, rounding to nearest even (as `__float2half_rn`).
pub fn f32_to_f16(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let man = x & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        // Subnormal half: shift the full mantissa (with its implicit bit) into place.
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rest = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let round = rest > mid || (rest == mid && half & 1 == 1);
        return sign | (half + round as u32) as u16;
    }
    let half = ((e as u32) << 10) | (man >> 13);
    let rest = man & 0x1fff;
    let round = rest > 0x1000 || (rest == 0x1000 && half & 1 == 1);
    // A carry out of the mantissa correctly bumps the exponent (up to infinity).
    sign | (half + round as u32) as u16
}

/// Canonical bits of an integer for an integer (or bool) element type, if it fits.
pub fn int_bits(v: i128, s: Scalar) -> Option<u64> {
    let (lo, hi) = s.int_range()?;
    if v < lo || v > hi {
        return None;
    }
    Some((v as u64) & width_mask(s.size()))
}

/// Canonical bits of a float for a float element type (rounded to nearest).
pub fn float_bits(v: f64, s: Scalar) -> u64 {
    match s {
        Scalar::F16 => f32_to_f16(v as f32) as u64,
        Scalar::F32 => (v as f32).to_bits() as u64,
        _ => v.to_bits(),
    }
}

/// A float element's value as f64.
pub fn float_value(bits: u64, s: Scalar) -> f64 {
    match s {
        Scalar::F16 => f16_to_f32(bits as u16) as f64,
        Scalar::F32 => f32::from_bits(bits as u32) as f64,
        _ => f64::from_bits(bits),
    }
}

#[inline(always)]
fn map1<const N: usize>(d: &mut [u64; N], a: &[u64; N], f: impl Fn(u64) -> u64) {
    for l in 0..N {
        d[l] = f(a[l]);
    }
}

#[inline(always)]
fn map2<const N: usize>(d: &mut [u64; N], a: &[u64; N], b: &[u64; N], f: impl Fn(u64, u64) -> u64) {
    for l in 0..N {
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
fn half_value(x: u64) -> f32 {
    f16_to_f32(x as u16)
}
#[inline(always)]
fn half_bits(x: f32) -> u64 {
    f32_to_f16(x) as u64
}

macro_rules! float_bin {
    ($op:expr, $d:expr, $a:expr, $b:expr, $v:ident, $w:ident) => {
        match $op {
            BinOp::Add => map2($d, $a, $b, |x, y| $w($v(x) + $v(y))),
            BinOp::Sub => map2($d, $a, $b, |x, y| $w($v(x) - $v(y))),
            BinOp::Mul => map2($d, $a, $b, |x, y| $w($v(x) * $v(y))),
            BinOp::Div => map2($d, $a, $b, |x, y| $w($v(x) / $v(y))),
            BinOp::Rem => map2($d, $a, $b, |x, y| $w($v(x) % $v(y))),
            BinOp::Min => map2($d, $a, $b, |x, y| $w($v(x).min($v(y)))),
            BinOp::Max => map2($d, $a, $b, |x, y| $w($v(x).max($v(y)))),
            BinOp::Eq => map2($d, $a, $b, |x, y| ($v(x) == $v(y)) as u64),
            BinOp::Ne => map2($d, $a, $b, |x, y| ($v(x) != $v(y)) as u64),
            BinOp::Lt => map2($d, $a, $b, |x, y| ($v(x) < $v(y)) as u64),
            BinOp::Le => map2($d, $a, $b, |x, y| ($v(x) <= $v(y)) as u64),
            BinOp::Gt => map2($d, $a, $b, |x, y| ($v(x) > $v(y)) as u64),
            BinOp::Ge => map2($d, $a, $b, |x, y| ($v(x) >= $v(y)) as u64),
            BinOp::LAnd => map2($d, $a, $b, |x, y| (x != 0 && y != 0) as u64),
            BinOp::LOr => map2($d, $a, $b, |x, y| (x != 0 || y != 0) as u64),
            // Bit operations on floats do not exist in C; operate on the bits.
            BinOp::And => map2($d, $a, $b, |x, y| x & y),
            BinOp::Or => map2($d, $a, $b, |x, y| x | y),
            BinOp::Xor => map2($d, $a, $b, |x, y| x ^ y),
            BinOp::Shl | BinOp::Shr | BinOp::PtrAdd | BinOp::PtrDiff => map2($d, $a, $b, |x, _| x),
        }
    };
}

/// `d = a op b` in class `c` (comparisons: result 0/1, operands of class `c`).
pub fn binary_lanes<const N: usize>(
    op: BinOp,
    c: Scalar,
    d: &mut [u64; N],
    a: &[u64; N],
    b: &[u64; N],
) {
    match c {
        Scalar::F32 => float_bin!(op, d, a, b, f32v, f32b),
        Scalar::F64 => float_bin!(op, d, a, b, f64v, f64b),
        Scalar::F16 => float_bin!(op, d, a, b, half_value, half_bits),
        Scalar::U32 => int_bin::<false, N>(op, 4, d, a, b),
        Scalar::I32 => int_bin::<true, N>(op, 4, d, a, b),
        _ => {
            if c.is_signed() {
                int_bin::<true, N>(op, c.size(), d, a, b)
            } else {
                int_bin::<false, N>(op, c.size(), d, a, b)
            }
        }
    }
}

#[inline(always)]
fn int_bin<const S: bool, const N: usize>(
    op: BinOp,
    size: u32,
    d: &mut [u64; N],
    a: &[u64; N],
    b: &[u64; N],
) {
    let m = width_mask(size);
    let bits = size * 8;
    let sx = |x: u64| sign_extend(x, size);
    match op {
        BinOp::Add | BinOp::PtrAdd => map2(d, a, b, |x, y| x.wrapping_add(y) & m),
        BinOp::Sub | BinOp::PtrDiff => map2(d, a, b, |x, y| x.wrapping_sub(y) & m),
        BinOp::Mul => map2(d, a, b, |x, y| x.wrapping_mul(y) & m),
        BinOp::Div => {
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
        BinOp::Rem => {
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
        BinOp::Shl => map2(
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
        BinOp::Shr => {
            if S {
                map2(d, a, b, |x, y| {
                    let s = y.min(bits as u64 - 1);
                    ((sx(x) >> s) as u64) & m
                })
            } else {
                map2(d, a, b, |x, y| if y >= bits as u64 { 0 } else { x >> y })
            }
        }
        BinOp::And => map2(d, a, b, |x, y| x & y),
        BinOp::Or => map2(d, a, b, |x, y| x | y),
        BinOp::Xor => map2(d, a, b, |x, y| x ^ y),
        BinOp::Min => {
            if S {
                map2(d, a, b, |x, y| if sx(x) <= sx(y) { x } else { y })
            } else {
                map2(d, a, b, |x, y| x.min(y))
            }
        }
        BinOp::Max => {
            if S {
                map2(d, a, b, |x, y| if sx(x) >= sx(y) { x } else { y })
            } else {
                map2(d, a, b, |x, y| x.max(y))
            }
        }
        BinOp::Eq => map2(d, a, b, |x, y| (x == y) as u64),
        BinOp::Ne => map2(d, a, b, |x, y| (x != y) as u64),
        BinOp::Lt => {
            if S {
                map2(d, a, b, |x, y| (sx(x) < sx(y)) as u64)
            } else {
                map2(d, a, b, |x, y| (x < y) as u64)
            }
        }
        BinOp::Le => {
            if S {
                map2(d, a, b, |x, y| (sx(x) <= sx(y)) as u64)
            } else {
                map2(d, a, b, |x, y| (x <= y) as u64)
            }
        }
        BinOp::Gt => {
            if S {
                map2(d, a, b, |x, y| (sx(x) > sx(y)) as u64)
            } else {
                map2(d, a, b, |x, y| (x > y) as u64)
            }
        }
        BinOp::Ge => {
            if S {
                map2(d, a, b, |x, y| (sx(x) >= sx(y)) as u64)
            } else {
                map2(d, a, b, |x, y| (x >= y) as u64)
            }
        }
        BinOp::LAnd => map2(d, a, b, |x, y| (x != 0 && y != 0) as u64),
        BinOp::LOr => map2(d, a, b, |x, y| (x != 0 || y != 0) as u64),
    }
}

/// `d = op a` in class `c`.
pub fn unary_lanes<const N: usize>(op: UnOp, c: Scalar, d: &mut [u64; N], a: &[u64; N]) {
    match (op, c) {
        (UnOp::LNot, _) => map1(d, a, |x| (x == 0) as u64),
        (UnOp::Neg, Scalar::F32) => map1(d, a, |x| f32b(-f32v(x))),
        (UnOp::Neg, Scalar::F64) => map1(d, a, |x| f64b(-f64v(x))),
        (UnOp::Neg, Scalar::F16) => map1(d, a, |x| x ^ 0x8000),
        (UnOp::Neg, _) => {
            let m = width_mask(c.size());
            map1(d, a, |x| x.wrapping_neg() & m)
        }
        (UnOp::Not, _) => {
            let m = width_mask(c.size());
            map1(d, a, |x| !x & m)
        }
    }
}

/// Converts one canonical value between classes.
#[inline(always)]
pub fn cast(x: u64, from: Scalar, to: Scalar) -> u64 {
    if to == Scalar::Bool {
        return match from {
            Scalar::F32 => (f32v(x) != 0.0) as u64,
            Scalar::F64 => (f64v(x) != 0.0) as u64,
            Scalar::F16 => (half_value(x) != 0.0) as u64,
            _ => (x != 0) as u64,
        };
    }
    if from.is_float() {
        let v = match from {
            Scalar::F32 => f32v(x) as f64,
            Scalar::F16 => half_value(x) as f64,
            _ => f64v(x),
        };
        return match to {
            Scalar::F32 => f32b(v as f32),
            Scalar::F64 => f64b(v),
            Scalar::F16 => half_bits(v as f32),
            Scalar::I64 => v as i64 as u64,
            Scalar::U64 => v as u64,
            s if s.is_signed() => (v as i32 as u64) & width_mask(s.size()),
            s => (v as u32 as u64) & width_mask(s.size()),
        };
    }
    // Integer (or bool) source: its value as i64/u64.
    let signed = from.is_signed();
    let wide = if signed {
        sign_extend(x, from.size()) as u64
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
        Scalar::F16 => half_bits(if signed {
            wide as i64 as f32
        } else {
            wide as f32
        }),
        s => wide & width_mask(s.size()),
    }
}

/// `d = (to) a`, with the common conversions spelled out for speed.
pub fn cast_lanes<const N: usize>(from: Scalar, to: Scalar, d: &mut [u64; N], a: &[u64; N]) {
    match (from, to) {
        (Scalar::I32, Scalar::F32) => map1(d, a, |x| f32b(x as u32 as i32 as f32)),
        (Scalar::U32, Scalar::F32) => map1(d, a, |x| f32b(x as u32 as f32)),
        (Scalar::F32, Scalar::I32) => map1(d, a, |x| f32v(x) as i32 as u32 as u64),
        (Scalar::F32, Scalar::F64) => map1(d, a, |x| f64b(f32v(x) as f64)),
        (Scalar::F64, Scalar::F32) => map1(d, a, |x| f32b(f64v(x) as f32)),
        (Scalar::I32, Scalar::I64) => map1(d, a, |x| x as u32 as i32 as i64 as u64),
        (Scalar::U32, Scalar::U64) => map1(d, a, |x| x),
        _ => map1(d, a, |x| cast(x, from, to)),
    }
}

/// The float functions of the intrinsics in one float type (computed in it, as CUDA's `f`
/// variants are); `None` for an intrinsic that is not one.
macro_rules! float_math {
    ($name:ident, $t:ty, $erf:path, $frexp:path, $ldexp:path) => {
        fn $name(f: Intrinsic, a: $t, b: $t, cc: $t, y: u64) -> Option<$t> {
            use Intrinsic as I;
            Some(match f {
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
                I::Erf => $erf(a),
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
                I::Frexp => $frexp(a).0,
                I::Ldexp => $ldexp(a, sign_extend(y, 4) as i32),
                _ => return None,
            })
        }
    };
}

float_math!(math_f64, f64, libm::erf, libm::frexp, libm::ldexp);
float_math!(math_f32, f32, libm::erff, libm::frexpf, libm::ldexpf);

/// A pure intrinsic of up to three arguments (`c`: result class, `ac`: first argument's
/// class). What is not a function of its arguments (`clock`, textures, random numbers, shared
/// offsets) is the device's: here it converts its first argument.
pub fn intrinsic(f: Intrinsic, c: Scalar, ac: Scalar, x: u64, y: u64, z: u64) -> u64 {
    use Intrinsic as I;
    if ac.is_float() || (c.is_float() && !matches!(f, I::Bitcast)) {
        let fc = if ac.is_float() { ac } else { c };
        let math = match fc {
            Scalar::F64 => math_f64(f, f64v(x), f64v(y), f64v(z), y).map(f64b),
            Scalar::F16 => {
                math_f32(f, half_value(x), half_value(y), half_value(z), y).map(half_bits)
            }
            _ => math_f32(f, f32v(x), f32v(y), f32v(z), y).map(f32b),
        };
        if let Some(bits) = math {
            return cast(bits, fc, c);
        }
        // Widening to f64 is exact: the class of the value and its binary exponent are kept.
        let a = float_value(x, fc);
        match f {
            I::IsNan => int_result(a.is_nan(), c),
            I::IsInf => int_result(a.is_infinite(), c),
            I::FrexpExp => (libm::frexp(a).1 as u32) as u64,
            I::Bitcast => x & width_mask(c.size()),
            _ => cast(x, ac, c),
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
                    (sign_extend(x, size).wrapping_abs() as u64) & m
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
                    ((sign_extend(x, 4) * sign_extend(y, 4)) >> 32) as u64 & 0xffff_ffff
                } else {
                    ((x & 0xffff_ffff) * (y & 0xffff_ffff)) >> 32
                }
            }
            I::Mul24 => {
                if signed {
                    (sign_extend(x & 0xff_ffff, 3).wrapping_mul(sign_extend(y & 0xff_ffff, 3))
                        as u64)
                        & 0xffff_ffff
                } else {
                    ((x & 0xff_ffff) * (y & 0xff_ffff)) & 0xffff_ffff
                }
            }
            I::Sad => {
                let diff = if signed {
                    sign_extend(x, size).abs_diff(sign_extend(y, size))
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
            I::Bitcast | I::Clock => x,
            I::IsNan | I::IsInf => 0,
            // A float function on an integer argument: compute in the result's class.
            _ => return x,
        };
        cast(r & width_mask(c.size().max(1)), ac_int_result(f, ac, c), c)
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
    cast(b as u64, Scalar::U32, c)
}

/// One lane of `binary_lanes`.
pub fn binary(op: BinOp, c: Scalar, x: u64, y: u64) -> u64 {
    let mut d = [0];
    binary_lanes(op, c, &mut d, &[x], &[y]);
    d[0]
}

/// One lane of `unary_lanes`.
pub fn unary(op: UnOp, c: Scalar, x: u64) -> u64 {
    let mut d = [0];
    unary_lanes(op, c, &mut d, &[x]);
    d[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_round_trips() {
        for h in 0u16..=0xffff {
            let f = f16_to_f32(h);
            if f.is_nan() {
                assert!(f16_to_f32(f32_to_f16(f)).is_nan());
            } else {
                assert_eq!(f32_to_f16(f), h, "half {h:#x}");
            }
        }
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(1.0 + 1.0 / 4096.0), 0x3c00);
    }

    #[test]
    fn int_ranges() {
        assert_eq!(int_bits(-1, Scalar::I32), Some(0xffff_ffff));
        assert_eq!(int_bits(-1, Scalar::U32), None);
        assert_eq!(int_bits(256, Scalar::U8), None);
        assert_eq!(int_bits(2, Scalar::Bool), None);
    }

    #[test]
    fn usad4_sums_byte_differences() {
        // bytes (1,2,3,250) vs (4,2,1,0): 3 + 0 + 2 + 250, plus 10.
        let a = u64::from(u32::from_le_bytes([1, 2, 3, 250]));
        let b = u64::from(u32::from_le_bytes([4, 2, 1, 0]));
        assert_eq!(
            intrinsic(Intrinsic::Usad4, Scalar::U32, Scalar::U32, a, b, 10),
            265
        );
    }

    #[test]
    fn mul24_multiplies_the_low_24_bits_extended_by_the_operand_type() {
        let mul24 = |x, y, s| intrinsic(Intrinsic::Mul24, s, s, x, y, 0);
        // Bits above 24 are ignored.
        assert_eq!(mul24(0x0100_0002, 3, Scalar::U32), 6);
        // Bit 23 is a sign bit for `__mul24`, not for `__umul24`.
        let minus_two = 0xff_fffe;
        assert_eq!(mul24(minus_two, 3, Scalar::I32), (-6i32) as u32 as u64);
        assert_eq!(
            mul24(minus_two, 3, Scalar::U32),
            (0xff_fffe_u64 * 3) & 0xffff_ffff
        );
    }

    #[test]
    fn float_intrinsics_compute_in_their_own_type() {
        let f32b = |v: f32| u64::from(v.to_bits());
        let sqrt2 = intrinsic(Intrinsic::Sqrt, Scalar::F32, Scalar::F32, f32b(2.0), 0, 0);
        assert_eq!(sqrt2, f32b(2f32.sqrt()));
        let sqrt2 = intrinsic(
            Intrinsic::Sqrt,
            Scalar::F64,
            Scalar::F64,
            2f64.to_bits(),
            0,
            0,
        );
        assert_eq!(sqrt2, 2f64.sqrt().to_bits());
        // A half is computed in f32 and rounded back: sqrt(2) as a half is 0x3da8.
        let two = u64::from(f32_to_f16(2.0));
        assert_eq!(
            intrinsic(Intrinsic::Sqrt, Scalar::F16, Scalar::F16, two, 0, 0),
            0x3da8
        );
        // frexp's exponent of an f32 subnormal, 2^-140 = 0.5 * 2^-139.
        let tiny = f32b(f32::from_bits(1 << 9));
        assert_eq!(
            intrinsic(Intrinsic::FrexpExp, Scalar::I32, Scalar::F32, tiny, 0, 0),
            (-139i32) as u32 as u64
        );
        let nan = u64::from(f32_to_f16(f32::NAN));
        assert_eq!(
            intrinsic(Intrinsic::IsNan, Scalar::I32, Scalar::F16, nan, 0, 0),
            1
        );
        // Bits reinterpreted, not converted.
        assert_eq!(
            intrinsic(
                Intrinsic::Bitcast,
                Scalar::U32,
                Scalar::F32,
                f32b(1.0),
                0,
                0
            ),
            0x3f80_0000
        );
    }
}
