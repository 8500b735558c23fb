//! Reading the quantities people type: `7B` parameters, `4M` tokens, `8GiB` messages. Shared by the CLI and the
//! page so both accept the same spellings.

/// Why a quantity could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QuantityError {
    /// Nothing was given.
    #[error("empty value")]
    Empty,
    /// The number part is not a number: the input, and examples of what the field takes.
    #[error("'{0}' is not a number (examples: {1})")]
    NotANumber(String, &'static str),
    /// The suffix is unknown.
    #[error("unknown suffix '{suffix}' in '{input}' (use {allowed})")]
    UnknownSuffix {
        /// The whole input.
        input: String,
        /// The suffix.
        suffix: String,
        /// What is accepted.
        allowed: &'static str,
    },
    /// A rate in bytes per second where a line rate in bits is wanted.
    #[error("'{input}' is bytes per second: a link is sold in bits, and that is {bits} {}b/s (give 400, 400G or 400Gb/s)", unit.get(..1).unwrap_or_default())]
    BytesNotBits {
        /// The whole input.
        input: String,
        /// The rate in bits, written out.
        bits: String,
        /// The suffix given.
        unit: String,
    },
    /// NaN, infinity or negative.
    #[error("'{0}' must be a finite number of at least 0")]
    OutOfRange(String),
}

/// Exact powers of ten: every one up to 1e22 is a whole f64.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// Reads a decimal number as `str::parse::<f64>` does, with the same spellings (`7`, `-0.5`, `.5`, `5.`, `7e9`,
/// `1.5E-3`, `inf`, `infinity`, `NaN`, any case), but without the standard library's float parser: its tables and
/// code are about 12 KB of the page's first load, which only ever reads what people type.
///
/// The result is correctly rounded (the same f64 as the standard library's) whenever the digits, without their
/// point, form an integer below 2^53 and the decimal exponent is within ±22: every number a person types or a
/// share link holds that has at most 15 significant digits. Beyond that (16 or more digits, or exponents past
/// ±22) it is within a few units in the last place; digits after the 19th are dropped.
pub fn parse_number(s: &str) -> Option<f64> {
    let (negative, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, s.get(1..)?),
        Some(b'+') => (false, s.get(1..)?),
        _ => (false, s),
    };
    let magnitude = match rest.to_ascii_lowercase().as_str() {
        "inf" | "infinity" => Some(f64::INFINITY),
        "nan" => Some(f64::NAN),
        _ => decimal(rest.as_bytes()),
    }?;
    Some(if negative { -magnitude } else { magnitude })
}

/// An unsigned decimal: digits with an optional point, at least one digit, then an optional exponent.
fn decimal(b: &[u8]) -> Option<f64> {
    let mut mantissa: u64 = 0;
    // The power of ten the mantissa is to be multiplied by.
    let mut exponent: i64 = 0;
    let mut digits = 0usize;
    let mut i = 0;
    let mut seen_point = false;
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => {
                digits += 1;
                if mantissa < 1_000_000_000_000_000_000 {
                    mantissa = mantissa * 10 + u64::from(c - b'0');
                    if seen_point {
                        exponent -= 1;
                    }
                } else if !seen_point {
                    // A 20th or later integer digit: dropped, its place kept.
                    exponent += 1;
                }
            }
            b'.' if !seen_point => seen_point = true,
            _ => break,
        }
        i += 1;
    }
    if digits == 0 {
        return None;
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        let negative = match b.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let start = i;
        let mut e: i64 = 0;
        while let Some(&c) = b.get(i).filter(|c| c.is_ascii_digit()) {
            // Saturates far past where every f64 is infinite or zero.
            e = (e * 10 + i64::from(c - b'0')).min(100_000);
            i += 1;
        }
        if i == start {
            return None;
        }
        exponent += if negative { -e } else { e };
    }
    if i != b.len() {
        return None;
    }
    if mantissa == 0 {
        return Some(0.0);
    }
    // u64 to f64 rounds to nearest; below 2^53 it is exact.
    let mut v = mantissa as f64;
    // One rounding when both the mantissa and the power of ten are exact (Clinger's fast path).
    let mut e = exponent.clamp(-400, 400);
    while e > 22 {
        v *= POW10[22];
        e -= 22;
    }
    while e < -22 {
        v /= POW10[22];
        e += 22;
    }
    let p = POW10[usize::try_from(e.unsigned_abs()).unwrap_or(0)];
    Some(if e < 0 { v / p } else { v * p })
}

fn split(s: &str, examples: &'static str) -> Result<(f64, String, String), QuantityError> {
    let t: String = s.trim().chars().filter(|c| *c != ',' && *c != '_').collect();
    if t.is_empty() {
        return Err(QuantityError::Empty);
    }
    // The longest prefix that parses as a number (handles 7e9 as well as 7B and 1.5GiB).
    let mut best = None;
    // `get` rather than indexing: no panic path (and none of its formatting code in the page's wasm).
    for (i, _) in t.char_indices().chain(std::iter::once((t.len(), ' '))) {
        if let Some(v) = t.get(..i).and_then(parse_number) {
            best = Some((v, i));
        }
    }
    let Some((v, end)) = best else {
        return Err(QuantityError::NotANumber(s.trim().to_string(), examples));
    };
    if !v.is_finite() || v < 0.0 {
        return Err(QuantityError::OutOfRange(s.trim().to_string()));
    }
    Ok((v, t.get(end..).unwrap_or_default().trim().to_string(), t))
}

/// A finite plain number as a person types it (`0.4`, `1e3`, ` 25 `), read by [`parse_number`]; the error says why
/// in words (the form's and the flags' readers both use it).
pub fn parse_finite(s: &str) -> Result<f64, String> {
    let t = s.trim();
    match parse_number(t) {
        Some(v) if v.is_finite() => Ok(v),
        Some(v) => Err(format!("must be a finite number (got {})", crate::human::echoed(v))),
        None => Err(format!("'{t}' is not a number")),
    }
}

/// A whole number (`8`, `4e3`), at most 1e15 in size, so that it converts to `i64` exactly.
pub fn parse_whole(s: &str) -> Result<i64, String> {
    let v = parse_finite(s)?;
    let t = s.trim();
    if v.fract() != 0.0 {
        return Err(format!("must be a whole number (got {t})"));
    }
    if v.abs() > 1e15 {
        return Err(format!("must be at most 1e15 (got {t})"));
    }
    Ok(v as i64)
}

/// A count with an optional decimal suffix: `7e9`, `7B`, `70b`, `1.5T`, `4M`, `500k` (B or G = 1e9), or a
/// binary one, as token budgets are often powers of two: `4Mi` = 4,194,304 = 2^22 (the default tokens per step),
/// `512Ki`, `1Gi`.
pub fn parse_count(s: &str) -> Result<f64, QuantityError> {
    let (v, suffix, input) = split(s, "7e9, 7B, 1.5T, 512Ki")?;
    let mult = match suffix.to_ascii_lowercase().as_str() {
        "" => 1.0,
        "k" => 1e3,
        "m" => 1e6,
        "b" | "g" | "bn" => 1e9,
        "t" => 1e12,
        "ki" => 1024.0,
        "mi" => 1024.0 * 1024.0,
        "gi" => 1024.0 * 1024.0 * 1024.0,
        _ => {
            return Err(QuantityError::UnknownSuffix {
                input,
                suffix,
                allowed: "k, M, B (or G), T; Ki, Mi, Gi (binary: 4Mi = 4,194,304); or 7e9",
            });
        }
    };
    Ok(v * mult)
}

/// Seconds in one of a time's units as people type them (`us` to `w`), `None` for anything else. One table for
/// [`parse_time`] and [`parse_duration`], which differ only in what a bare number means and what they suggest.
fn seconds_per(unit: &str) -> Option<f64> {
    Some(match unit.to_ascii_lowercase().as_str() {
        "us" | "µs" => 1e-6,
        "ms" | "msec" => 1e-3,
        "s" | "sec" | "secs" | "second" | "seconds" => 1.0,
        "min" | "mins" | "minute" | "minutes" => 60.0,
        "h" | "hr" | "hrs" | "hour" | "hours" => 3600.0,
        "d" | "day" | "days" => 86_400.0,
        "w" | "wk" | "week" | "weeks" => 604_800.0,
        _ => return None,
    })
}

/// A step-sized time in seconds as people type it: `1.2`, `1.2 s`, `850 ms`, `850ms`, `120 us`, `2 min`; a bare
/// number is in `bare` seconds (1.0 for a field in seconds, 1e-3 for one in milliseconds).
pub fn parse_time(s: &str, bare: f64) -> Result<f64, QuantityError> {
    let (v, suffix, input) = split(s, "1.2 s, 850 ms")?;
    let mult = if suffix.is_empty() { Some(bare) } else { seconds_per(&suffix) };
    let allowed = "s, ms, us, min or h: 1.2 s, 850 ms";
    mult.map(|m| v * m).ok_or(QuantityError::UnknownSuffix { input, suffix, allowed })
}

/// A duration in seconds: `30d`, `2w`, `36h`, `90min`, `3600s` (a unit is required: a bare number could be any
/// of them).
pub fn parse_duration(s: &str) -> Result<f64, QuantityError> {
    let (v, suffix, input) = split(s, "30d, 36h")?;
    let allowed = "s, min, h, d or w: 30d, 36h";
    seconds_per(&suffix).map(|m| v * m).ok_or(QuantityError::UnknownSuffix { input, suffix, allowed })
}

/// A line rate in Gb/s: a number (`400`), or with its unit as a port is sold (`400G`, `400Gb/s`, `400 Gbps`,
/// `100GbE`, `1.6T`, `1.6Tb/s`, `800Mb/s`). Bytes per second (`50GB/s`) are refused with the rate in bits they
/// would be: a link is sold in bits.
pub fn parse_gbps(s: &str) -> Result<f64, QuantityError> {
    let (v, suffix, input) = split(s, "400, 400G, 100GbE")?;
    let bytes = suffix.starts_with(['G', 'T', 'M'])
        && suffix.get(1..2) == Some("B")
        && !suffix.get(1..4).is_some_and(|b| b.eq_ignore_ascii_case("bit"));
    if bytes {
        return Err(QuantityError::BytesNotBits { input, bits: crate::human::num(v * 8.0, 3), unit: suffix });
    }
    let unit = suffix.to_ascii_lowercase().replace(' ', "");
    let mult = match unit.as_str() {
        "" | "g" | "gb/s" | "gbps" | "gbit/s" | "gbit" | "gbe" | "gb" | "gig" => 1.0,
        "t" | "tb/s" | "tbps" | "tbit/s" | "tbe" => 1e3,
        "m" | "mb/s" | "mbps" | "mbit/s" => 1e-3,
        _ => {
            return Err(QuantityError::UnknownSuffix {
                input,
                suffix,
                allowed: "Gb/s as a number, or with its unit: 400, 400G, 400Gb/s, 100GbE, 1.6T",
            });
        }
    };
    Ok(v * mult)
}

/// A size in bytes: raw (`1073741824`), decimal (`KB`, `MB`, `GB`, `TB`) or binary (`KiB`, `MiB`, `GiB`, `TiB`).
/// A bare `K`, `M`, `G` is binary, as nccl-tests reads `-e 8G`.
pub fn parse_bytes(s: &str) -> Result<f64, QuantityError> {
    let (v, suffix, input) = split(s, "25MiB, 1GB, 8G")?;
    let k = 1024.0_f64;
    let mult = match suffix.to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        "k" | "kib" => k,
        "m" | "mib" => k * k,
        "g" | "gib" => k * k * k,
        "t" | "tib" => k * k * k * k,
        _ => {
            return Err(QuantityError::UnknownSuffix {
                input,
                suffix,
                allowed: "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB",
            });
        }
    };
    Ok(v * mult)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_rates_read_with_or_without_their_unit() {
        for (t, want) in [("400", 400.0), ("400G", 400.0), ("400Gb/s", 400.0), ("400 Gbps", 400.0), ("100GbE", 100.0)] {
            assert_eq!(parse_gbps(t), Ok(want), "{t}");
        }
        assert_eq!(parse_gbps("1.6T"), Ok(1600.0));
        assert_eq!(parse_gbps("800Mb/s"), Ok(0.8));
        let bytes = parse_gbps("50GB/s").expect_err("bytes");
        assert!(bytes.to_string().contains("400 Gb/s"), "{bytes}");
        let bytes = parse_gbps("25GB/s").expect_err("bytes");
        assert!(bytes.to_string().contains("200 Gb/s"), "{bytes}");
        assert_eq!(parse_gbps("400GBit/s"), Ok(400.0), "bits spelled with a capital");
        assert!(parse_gbps("fast").is_err() && parse_gbps("-25").is_err() && parse_gbps("").is_err());
    }

    #[test]
    fn counts() {
        for (s, v) in [("30d", 2_592_000.0), ("2w", 1_209_600.0), ("36h", 129_600.0), ("90min", 5400.0), ("1 s", 1.0)] {
            assert_eq!(parse_duration(s), Ok(v), "{s}");
        }
        assert!(matches!(parse_duration("30"), Err(QuantityError::UnknownSuffix { .. })));
        assert!(matches!(parse_duration("-3d"), Err(QuantityError::OutOfRange(_))));
        for (s, v) in [("7e9", 7e9), ("7B", 7e9), ("70b", 70e9), ("1.5T", 1.5e12), ("4M", 4e6), ("500k", 5e5)] {
            assert_eq!(parse_count(s), Ok(v), "{s}");
        }
        assert_eq!(parse_count(" 7,000,000 "), Ok(7e6));
        assert!(matches!(parse_count("7Q"), Err(QuantityError::UnknownSuffix { .. })));
        assert!(matches!(parse_count("seven"), Err(QuantityError::NotANumber(..))));
        assert_eq!(parse_count(""), Err(QuantityError::Empty));
        assert!(matches!(parse_count("-7B"), Err(QuantityError::OutOfRange(_))));
        assert!(matches!(parse_count("NaN"), Err(QuantityError::OutOfRange(_))));
        assert!(matches!(parse_count("inf"), Err(QuantityError::OutOfRange(_))));
    }

    #[test]
    fn numbers_read_as_the_standard_library_reads_them() {
        for t in [
            "0",
            "7",
            "-0.5",
            "+3",
            ".5",
            "5.",
            "5.e3",
            "7e9",
            "1.5E-3",
            "0.35",
            "400",
            "25",
            "1e22",
            "1e-22",
            "123456789012345",
            "0.000001",
            "9007199254740992",
            "1E+5",
            "00012.5000",
            "3.125",
            "0.1",
            "0.2",
            "0.3",
        ] {
            assert_eq!(parse_number(t), t.parse::<f64>().ok(), "{t}");
        }
        for t in ["", ".", "-", "+", "e5", "1e", "1e+", "1.2.3", "7B", " 7", "7 ", "--1", "0x10", "1_000", "infinite"] {
            assert_eq!(parse_number(t), None, "{t}");
            assert!(t.parse::<f64>().is_err(), "the standard library reads {t}");
        }
        for t in ["inf", "-Infinity", "INF"] {
            assert_eq!(parse_number(t), t.parse::<f64>().ok(), "{t}");
        }
        assert!(parse_number("NaN").is_some_and(f64::is_nan));
        assert_eq!(parse_number("1e400"), Some(f64::INFINITY));
        assert_eq!(parse_number("1e-400"), Some(0.0));
        assert_eq!(parse_number("1e99999999999999999999"), Some(f64::INFINITY));
    }

    proptest::proptest! {
        /// Up to 15 significant digits and exponents within ±22 (what people type): the very same f64.
        #[test]
        fn short_numbers_are_exact(m in 0u64..1_000_000_000_000_000, point in 0usize..16, e in -22i32..=22) {
            let digits = m.to_string();
            let point = point.min(digits.len());
            let t = format!("{}.{}e{e}", &digits[..digits.len() - point], &digits[digits.len() - point..]);
            let shift = i32::try_from(point).unwrap_or(i32::MAX);
            if (e - shift).abs() <= 22 {
                proptest::prop_assert_eq!(parse_number(&t), t.parse::<f64>().ok(), "{}", t);
            }
        }

        /// Any other number: within a few units in the last place of the standard library's.
        #[test]
        fn long_numbers_are_close(m in 0u64..u64::MAX, tail in 0u64..1_000_000, e in -300i32..300) {
            let t = format!("{m}{tail}e{e}");
            let std = t.parse::<f64>().unwrap_or(f64::NAN);
            let close = |a: Option<f64>| a.is_some_and(|a| a == std || (a - std).abs() <= std.abs() * 1e-15);
            proptest::prop_assert!(close(parse_number(&t)), "{} {:?} {}", t, parse_number(&t), std);
            let shortest = std.to_string();
            proptest::prop_assert!(close(parse_number(&shortest)), "{}", shortest);
        }
    }

    #[test]
    fn sizes() {
        for (s, v) in [
            ("8GiB", 8.0 * 1073741824.0),
            ("25MiB", 25.0 * 1048576.0),
            ("14GB", 14e9),
            ("512", 512.0),
            ("1KiB", 1024.0),
            ("8G", 8.0 * 1073741824.0),
            ("1e9", 1e9),
            ("2 kb", 2000.0),
        ] {
            assert_eq!(parse_bytes(s), Ok(v), "{s}");
        }
        assert!(parse_bytes("8 parsecs").is_err());
    }

    #[test]
    fn a_step_time_reads_with_or_without_its_unit() {
        for (text, bare, want) in [
            ("1.2", 1.0, 1.2),
            ("1.2 s", 1.0, 1.2),
            ("850 ms", 1.0, 0.85),
            ("850ms", 1.0, 0.85),
            ("850", 1e-3, 0.85),
            ("2 min", 1.0, 120.0),
            ("120 us", 1.0, 120e-6),
        ] {
            let got = parse_time(text, bare).unwrap_or(f64::NAN);
            assert!((got - want).abs() < 1e-12, "{text}: {got}");
        }
        let e = parse_time("1.2 parsecs", 1.0).expect_err("no such unit").to_string();
        assert!(e.contains("s, ms, us, min or h"), "{e}");
    }
}
