//! Scalar encodings shared by launch specs and the CPU device.
//!
//! A scalar value is held as its *canonical bits* in a `u64`: integers (and `bool`, 0 or 1) as
//! the two's-complement bits of their width, zero-extended; `f32` as its IEEE bits in the low 32
//! bits; `f16` as its IEEE half bits in the low 16; `f64` as its bits; pointers as the 64-bit
//! address. Memory holds the low `size` bytes of the canonical bits, little-endian.

use gmrace_analyzer::ir::Scalar;

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
pub fn sext(bits: u64, size: u32) -> i64 {
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
}
