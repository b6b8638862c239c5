//! Device `printf`: C's format language over the IR's argument values.
//!
//! Supported: flags `-+ #0`, width and precision (also `*`), length modifiers `hh h l ll z j t
//! L` (they choose the integer width read), conversions `d i u o x X c f F e E g G a A p s %`.
//! Arguments are taken with their IR type: a float argument printed with `%d` is converted, an
//! integer printed with `%f` too. String arguments have no contents in the IR, so `%s` prints
//! `(string)`. A missing argument prints the conversion text unchanged.

use gmrace_ir::scalar::{f16_to_f32, sign_extend};
use gmrace_ir::Scalar;

/// One argument: canonical bits and class.
pub type ArgVal = (u64, Scalar);

fn as_f64((bits, c): ArgVal) -> f64 {
    match c {
        Scalar::F32 => f32::from_bits(bits as u32) as f64,
        Scalar::F64 => f64::from_bits(bits),
        Scalar::F16 => f16_to_f32(bits as u16) as f64,
        s if s.is_signed() => sign_extend(bits, s.size()) as f64,
        _ => bits as f64,
    }
}

/// The argument as a 64-bit integer (sign-extended from its own type).
fn as_i64((bits, c): ArgVal) -> i64 {
    if c.is_float() {
        return as_f64((bits, c)) as i64;
    }
    if c.is_signed() {
        sign_extend(bits, c.size())
    } else {
        bits as i64
    }
}

pub fn format(fmt: &str, args: &[ArgVal]) -> String {
    let mut out = String::new();
    let mut it = args.iter().copied();
    let chars: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        if ch != '%' {
            out.push(ch);
            i += 1;
            continue;
        }
        let start = i;
        let Some(spec) = Spec::parse(&chars, &mut i, &mut it) else {
            out.extend(&chars[start..]);
            break;
        };
        if spec.conv == '%' {
            out.push('%');
            continue;
        }
        match it.next().and_then(|arg| spec.convert(arg)) {
            Some((body, sign, numeric)) => spec.pad(&mut out, &sign, &body, numeric),
            // A missing argument or an unknown conversion: the text as written.
            None => out.extend(&chars[start..i]),
        }
    }
    out
}

/// One conversion specification: `%[flags][width][.precision][length]conv`.
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: Option<usize>,
    prec: Option<usize>,
    /// The integer width the length modifier reads, in bits.
    bits: u32,
    conv: char,
}

impl Spec {
    /// Parses the specification at `chars[*i]` (a `%`), taking `*` widths and precisions from
    /// `args`; `None` when the string ends first. Leaves `*i` after the conversion character.
    fn parse(
        chars: &[char],
        i: &mut usize,
        args: &mut impl Iterator<Item = ArgVal>,
    ) -> Option<Spec> {
        *i += 1;
        let mut spec = Spec {
            left: false,
            plus: false,
            space: false,
            alt: false,
            zero: false,
            width: None,
            prec: None,
            bits: 32,
            conv: '%',
        };
        while let Some(&f) = chars.get(*i) {
            match f {
                '-' => spec.left = true,
                '+' => spec.plus = true,
                ' ' => spec.space = true,
                '#' => spec.alt = true,
                '0' => spec.zero = true,
                _ => break,
            }
            *i += 1;
        }
        if chars.get(*i) == Some(&'*') {
            *i += 1;
            let w = args.next().map(as_i64).unwrap_or(0);
            if w < 0 {
                spec.left = true;
            }
            spec.width = Some(w.unsigned_abs().min(4096) as usize);
        } else {
            spec.width = digits(chars, i);
        }
        if chars.get(*i) == Some(&'.') {
            *i += 1;
            if chars.get(*i) == Some(&'*') {
                *i += 1;
                let p = args.next().map(as_i64).unwrap_or(0);
                spec.prec = (p >= 0).then_some(p.min(4096) as usize);
            } else {
                spec.prec = Some(digits(chars, i).unwrap_or(0));
            }
        }
        loop {
            match chars.get(*i) {
                Some('h') => spec.bits = if spec.bits == 16 { 8 } else { 16 },
                Some('l' | 'z' | 'j' | 't' | 'L' | 'q') => spec.bits = 64,
                _ => break,
            }
            *i += 1;
        }
        spec.conv = *chars.get(*i)?;
        *i += 1;
        Some(spec)
    }

    /// The sign or prefix, the digits or text, and whether it is a number (zero-padded);
    /// `None` for an unknown conversion.
    fn convert(&self, arg: ArgVal) -> Option<(String, String, bool)> {
        Some(match self.conv {
            'd' | 'i' => self.signed(arg),
            'u' | 'o' | 'x' | 'X' => self.unsigned(arg),
            'c' => (
                char::from_u32(as_i64(arg) as u8 as u32)
                    .unwrap_or('?')
                    .to_string(),
                String::new(),
                false,
            ),
            's' => ("(string)".to_string(), String::new(), false),
            'p' => (format!("{:#x}", arg.0), String::new(), false),
            'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => self.float(arg),
            _ => return None,
        })
    }

    fn sign(&self, negative: bool) -> &'static str {
        if negative {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        }
    }

    fn signed(&self, arg: ArgVal) -> (String, String, bool) {
        let v = as_i64(arg);
        let v = if self.bits == 64 {
            v
        } else {
            sign_extend(v as u64, self.bits / 8)
        };
        let mut digits = v.unsigned_abs().to_string();
        if let Some(p) = self.prec {
            digits = pad_digits(digits, p);
        }
        (digits, self.sign(v < 0).to_string(), true)
    }

    fn unsigned(&self, arg: ArgVal) -> (String, String, bool) {
        let v = as_i64(arg) as u64;
        let v = if self.bits == 64 {
            v
        } else {
            v & ((1u64 << self.bits) - 1)
        };
        let mut digits = match self.conv {
            'u' => v.to_string(),
            'o' => format!("{v:o}"),
            'x' => format!("{v:x}"),
            _ => format!("{v:X}"),
        };
        if let Some(p) = self.prec {
            digits = pad_digits(digits, p);
        }
        let prefix = match self.conv {
            'o' if self.alt && !digits.starts_with('0') => "0",
            'x' if self.alt && v != 0 => "0x",
            'X' if self.alt && v != 0 => "0X",
            _ => "",
        };
        (digits, prefix.to_string(), true)
    }

    fn float(&self, arg: ArgVal) -> (String, String, bool) {
        let v = as_f64(arg);
        let sign = self.sign(v.is_sign_negative() && !v.is_nan());
        let a = v.abs();
        let upper = self.conv.is_ascii_uppercase();
        let body = if !a.is_finite() {
            if a.is_nan() { "nan" } else { "inf" }.to_string()
        } else {
            let p = self.prec.unwrap_or(6);
            match self.conv.to_ascii_lowercase() {
                'f' => fixed(a, p, self.alt),
                'e' => exp(a, p, self.alt),
                'g' => general(a, p, self.alt),
                _ => hex_float(a, self.prec),
            }
        };
        let body = if upper { body.to_uppercase() } else { body };
        (body, sign.to_string(), a.is_finite())
    }

    /// Writes `sign` and `body` padded to the width: spaces on the left or right, or zeros
    /// after the sign for a number (not for an integer with a precision).
    fn pad(&self, out: &mut String, sign: &str, body: &str, numeric: bool) {
        let len = sign.chars().count() + body.chars().count();
        let w = self.width.unwrap_or(0);
        if len >= w {
            out.push_str(sign);
            out.push_str(body);
        } else if self.left {
            out.push_str(sign);
            out.push_str(body);
            out.extend(std::iter::repeat_n(' ', w - len));
        } else if self.zero && numeric && (self.prec.is_none() || !"diouxX".contains(self.conv)) {
            out.push_str(sign);
            out.extend(std::iter::repeat_n('0', w - len));
            out.push_str(body);
        } else {
            out.extend(std::iter::repeat_n(' ', w - len));
            out.push_str(sign);
            out.push_str(body);
        }
    }
}

/// A run of decimal digits at `chars[*i]` (capped at 4096), if any.
fn digits(chars: &[char], i: &mut usize) -> Option<usize> {
    let mut n = 0usize;
    let mut any = false;
    while let Some(d) = chars.get(*i).and_then(|c| c.to_digit(10)) {
        n = (n * 10 + d as usize).min(4096);
        any = true;
        *i += 1;
    }
    any.then_some(n)
}

fn pad_digits(digits: String, prec: usize) -> String {
    if prec == 0 && digits == "0" {
        return String::new();
    }
    if digits.len() >= prec {
        digits
    } else {
        "0".repeat(prec - digits.len()) + &digits
    }
}

fn fixed(a: f64, p: usize, alt: bool) -> String {
    let mut s = format!("{a:.p$}");
    if alt && p == 0 {
        s.push('.');
    }
    s
}

/// `%e`: d.ddddde±XX.
fn exp(a: f64, p: usize, alt: bool) -> String {
    let s = format!("{a:.p$e}");
    let (mant, e) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let mut mant = mant.to_string();
    if alt && p == 0 {
        mant.push('.');
    }
    format!(
        "{mant}e{}{:02}",
        if e < 0 { '-' } else { '+' },
        e.unsigned_abs()
    )
}

/// `%g`: `%e` or `%f` by the exponent, trailing zeros removed unless `#`.
fn general(a: f64, p: usize, alt: bool) -> String {
    let p = if p == 0 { 1 } else { p };
    let x = if a == 0.0 {
        0
    } else {
        let s = format!("{a:.prec$e}", prec = p - 1);
        s.split_once('e')
            .and_then(|(_, e)| e.parse::<i32>().ok())
            .unwrap_or(0)
    };
    let mut s = if (x as i64) < p as i64 && x >= -4 {
        fixed(a, (p as i64 - 1 - x as i64) as usize, alt)
    } else {
        exp(a, p - 1, alt)
    };
    if !alt {
        let (mant, tail) = match s.find('e') {
            Some(i) => (s[..i].to_string(), s[i..].to_string()),
            None => (s.clone(), String::new()),
        };
        let mant = if mant.contains('.') {
            mant.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            mant
        };
        s = mant + &tail;
    }
    s
}

/// `%a`: 0x1.hhhhp±d (exact when no precision is given).
fn hex_float(a: f64, prec: Option<usize>) -> String {
    if a == 0.0 {
        return match prec {
            Some(p) if p > 0 => format!("0x0.{}p+0", "0".repeat(p)),
            _ => "0x0p+0".to_string(),
        };
    }
    let bits = a.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i64;
    let mut m = bits & ((1 << 52) - 1);
    let lead = if e == 0 {
        // Subnormal: normalise.
        let shift = m.leading_zeros() - 11;
        m = (m << shift) & ((1 << 52) - 1);
        e = 1 - shift as i64;
        1
    } else {
        1
    };
    let e = e - 1023;
    let mut hex = format!("{m:013x}");
    match prec {
        Some(p) if p < 13 => {
            // Round the mantissa to p hex digits (to nearest even).
            let drop = (13 - p) * 4;
            let full = (1u64 << 52) | m;
            let q = full >> drop;
            let rest = full & ((1 << drop) - 1);
            let half = 1 << (drop - 1);
            let q = if rest > half || (rest == half && q & 1 == 1) {
                q + 1
            } else {
                q
            };
            let lead = q >> (p * 4);
            let frac = q & ((1u64 << (p * 4)) - 1);
            return if p == 0 {
                format!("0x{lead}p{e:+}")
            } else {
                format!("0x{lead}.{frac:0w$x}p{e:+}", w = p)
            };
        }
        Some(p) => hex.push_str(&"0".repeat(p - 13)),
        None => {
            let t = hex.trim_end_matches('0').len();
            hex.truncate(t);
        }
    }
    if hex.is_empty() {
        format!("0x{lead}p{e:+}")
    } else {
        format!("0x{lead}.{hex}p{e:+}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(v: i32) -> ArgVal {
        (v as u32 as u64, Scalar::I32)
    }
    fn d(v: f64) -> ArgVal {
        (v.to_bits(), Scalar::F64)
    }

    #[test]
    fn c_formats() {
        assert_eq!(
            format("%d|%5d|%-5d|%05d", &[i(-3), i(42), i(42), i(-42)]),
            "-3|   42|42   |-0042"
        );
        assert_eq!(
            format("%x %X %#x %o %u", &[i(255), i(255), i(255), i(8), i(-1)]),
            "ff FF 0xff 10 4294967295"
        );
        assert_eq!(format("%.3d|%+d|% d", &[i(7), i(7), i(7)]), "007|+7| 7");
        assert_eq!(
            format(
                "%f %.2f %e %E",
                &[d(1.5), d(2.345), d(12345.678), d(0.00012)]
            ),
            "1.500000 2.35 1.234568e+04 1.200000E-04"
        );
        assert_eq!(
            format(
                "%g %g %g %g %g",
                &[d(100000.0), d(1000000.0), d(0.0001), d(0.00001), d(1.5)]
            ),
            "100000 1e+06 0.0001 1e-05 1.5"
        );
        assert_eq!(
            format("%8.3f|%-8.2e|", &[d(1.23456), d(-0.5)]),
            "   1.235|-5.00e-01|"
        );
        assert_eq!(format("%f %f", &[d(f64::INFINITY), d(f64::NAN)]), "inf nan");
        assert_eq!(format("%a %a", &[d(1.0), d(0.5)]), "0x1p+0 0x1p-1");
        assert_eq!(format("100%% %c%c", &[i(104), i(105)]), "100% hi");
        assert_eq!(
            format("%lld %hhd", &[(u64::MAX, Scalar::I64), i(257)]),
            "-1 1"
        );
        assert_eq!(format("%d %d", &[i(1)]), "1 %d");
        assert_eq!(format("%*d|%.*f", &[i(4), i(7), i(1), d(2.25)]), "   7|2.2");
    }
}
