//! How a number reads for people, one way everywhere: the page, `probe-cli`'s text and the model's own sentences
//! (reasons, warnings, error messages) all write `8.96 s`, `14 GB`, `7B`, `35%` through these functions.
//!
//! They are written with integer arithmetic rather than `format!("{:.2}")`: a binary that formats no `f64` with
//! `core::fmt` leaves out its float printing (Grisu, Dragon4 and their tables), about 8 KB of the page's gzipped
//! wasm. Rounding is half away from zero on the binary value scaled by a power of ten, so a tie such as 0.125 to
//! two decimals reads `0.13` where `format!` would print `0.12`; the two never differ by more than one unit in the
//! last digit shown (tested below).

use crate::units::{Bytes, Seconds};

/// What a number that is not finite reads as.
pub const NOT_A_NUMBER: &str = "–";

/// The most decimals [`fixed`] writes.
const MAX_DECIMALS: u32 = 9;

/// `v` with exactly `decimals` decimals (at most 9): `fixed(8.96, 3)` is `8.960`, `fixed(2.5, 0)` is `3`.
/// Magnitudes whose scaled value passes 1e18 are written in scientific form ([`sig`] with 4 digits).
pub fn fixed(v: f64, decimals: u32) -> String {
    if !v.is_finite() {
        return NOT_A_NUMBER.to_string();
    }
    let d = decimals.min(MAX_DECIMALS);
    let scale = 10u64.pow(d);
    let scaled = (v.abs() * scale as f64).round();
    if scaled >= 1e18 {
        return sig(v, 4);
    }
    // In range 0..1e18, so the cast is exact for every integer-valued f64 it can meet.
    let n = scaled as u64;
    let mut s = String::with_capacity(24);
    if v < 0.0 && n != 0 {
        s.push('-');
    }
    push_digits(&mut s, n / scale, 1);
    if d > 0 {
        s.push('.');
        push_digits(&mut s, n % scale, d as usize);
    }
    s
}

/// Appends `n` in decimal, padded with leading zeros to `width` digits, straight into `s` (no String of its
/// own: the model writes its sentences on every estimate).
fn push_digits(s: &mut String, n: u64, width: usize) {
    use std::fmt::Write as _;
    let digits = n.checked_ilog10().map_or(1, |l| l as usize + 1);
    for _ in digits..width {
        s.push('0');
    }
    // Writing into a String cannot fail.
    let _ = write!(s, "{n}");
}

/// `v` with at most `decimals` decimals and no trailing zeros: `14`, `3.125`, `0.56`.
pub fn num(v: f64, decimals: u32) -> String {
    let mut s = fixed(v, decimals);
    if s.contains('.') && !s.contains('e') {
        let kept = s.trim_end_matches('0').trim_end_matches('.').len();
        s.truncate(kept);
    }
    s
}

/// `v` with `digits` significant digits (1 to 9), trailing zeros trimmed: plain from 0.001 up to 1e7
/// (`0.00123`, `1600.5`), scientific outside (`7e9`, `1.5e21`, `2e-7`). For values echoed back in error messages.
pub fn sig(v: f64, digits: u32) -> String {
    if !v.is_finite() {
        return NOT_A_NUMBER.to_string();
    }
    if v == 0.0 {
        return "0".to_string();
    }
    let digits = digits.clamp(1, MAX_DECIMALS) as i32;
    let exp = v.abs().log10().floor() as i32;
    if (-3..7).contains(&exp) {
        let decimals = (digits - 1 - exp).clamp(0, MAX_DECIMALS as i32);
        return num(v, decimals as u32);
    }
    // Scientific: a mantissa in [1, 10) with digits - 1 decimals; rounding may carry it to 10.
    let (mut mantissa, mut exp) = (v.abs() / 10f64.powi(exp), exp);
    let unit = 10f64.powi(digits - 1);
    if (mantissa * unit).round() >= 10.0 * unit {
        mantissa /= 10.0;
        exp += 1;
    }
    let sign = if v < 0.0 { "-" } else { "" };
    format!("{sign}{}e{exp}", num(mantissa, (digits - 1) as u32))
}

/// A duration: `8.96 s`, `0.56 s`, `86.3 ms`, `25 µs`, `250 s`; minutes from 10 min, hours from 2 h.
pub fn secs(t: Seconds) -> String {
    let s = t.as_secs();
    if !s.is_finite() {
        NOT_A_NUMBER.to_string()
    } else if s >= 7200.0 {
        format!("{} h", num(s / 3600.0, 1))
    } else if s >= 600.0 {
        format!("{} min", num(s / 60.0, 1))
    } else if s >= 100.0 {
        format!("{} s", fixed(s, 0))
    } else if s >= 0.1 {
        format!("{} s", fixed(s, 2))
    } else if s >= 1e-3 {
        format!("{} ms", num(s * 1e3, 1))
    } else if s > 0.0 {
        format!("{} µs", num(s * 1e6, 1))
    } else {
        "0 s".to_string()
    }
}

/// A power of ten of seconds as an axis label: `100 s`, `1 s`, `100 ms`, `10 µs`.
pub fn decade(s: f64) -> String {
    if s >= 1.0 {
        format!("{} s", num(s, 0))
    } else if s >= 1e-3 {
        format!("{} ms", num(s * 1e3, 0))
    } else {
        format!("{} µs", num(s * 1e6, 0))
    }
}

/// Bytes in decimal units, as link rates are decimal: `14 GB`, `28 GB`, `350 MB`, `1.5 TB`.
pub fn gb(b: Bytes) -> String {
    let v = b.get();
    if v >= 1e12 {
        format!("{} TB", num(v / 1e12, 2))
    } else if v >= 1e9 {
        format!("{} GB", num(v / 1e9, 2))
    } else if v >= 1e6 {
        format!("{} MB", num(v / 1e6, 1))
    } else if v == 0.0 {
        "0 B".to_string()
    } else {
        format!("{} kB", num(v / 1e3, 1))
    }
}

/// Bytes that cross the network, in words: `3.28 GB over the network`, or `nothing over the network`.
pub fn over_network(b: Bytes) -> String {
    if b.get() == 0.0 {
        "nothing through the network adapters".to_string()
    } else {
        format!("{} through the network adapters", gb(b))
    }
}

/// Bytes in binary GiB, as GPU memory is sold: `14.0 GiB`.
pub fn gib(b: Bytes) -> String {
    format!("{} GiB", fixed(b.as_gib(), 1))
}

/// A message or buffer size in binary units, as nccl-tests and `--bytes` write them: the largest unit that keeps the
/// value from 1, to three significant digits: `8 GiB`, `128 MiB`, `954 MiB`, `1.5 KiB`, `512 B`.
pub fn binary(b: Bytes) -> String {
    let v = b.get();
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        let size = (1u64 << shift) as f64;
        if v >= size {
            // Three significant digits: "954 MiB", "25 MiB", "1.5 GiB", never "953.67 MiB".
            let x = v / size;
            return format!(
                "{} {unit}",
                num(
                    x,
                    if x >= 100.0 {
                        0
                    } else if x >= 10.0 {
                        1
                    } else {
                        2
                    }
                )
            );
        }
    }
    format!("{} B", num(v, 0))
}

/// A parameter count: `7B`, `405B`, `1.5T`, `350M`.
pub fn params(p: f64) -> String {
    if p >= 1e12 {
        format!("{}T", num(p / 1e12, 2))
    } else if p >= 1e9 {
        format!("{}B", num(p / 1e9, 2))
    } else if p >= 1e6 {
        format!("{}M", num(p / 1e6, 1))
    } else {
        num(p, 0)
    }
}

/// A large count: `4.19M`, `145k`, `1.8k`, `12.5`.
pub fn count(v: f64) -> String {
    if v >= 1e9 {
        format!("{}G", num(v / 1e9, 2))
    } else if v >= 1e6 {
        format!("{}M", num(v / 1e6, 2))
    } else if v >= 1e3 {
        // "1.8k" beside "100k", never "1764.8".
        format!("{}k", num(v / 1e3, if v >= 1e4 { 0 } else { 1 }))
    } else {
        num(v, 1)
    }
}

/// A time that may be negative: `-40 ms`, `1.20 s` (a measured step below the compute it was given).
pub fn signed_secs(t: f64) -> String {
    if t < 0.0 { format!("-{}", secs(Seconds::new(-t))) } else { secs(Seconds::new(t)) }
}

/// An amount of US dollars: `$950`, `$12.4k`, `$1.63M`, `$2.1B`.
pub fn usd(v: f64) -> String {
    if v >= 1e9 {
        format!("${}B", num(v / 1e9, 2))
    } else if v >= 1e6 {
        format!("${}M", num(v / 1e6, 2))
    } else if v >= 1e4 {
        format!("${}k", num(v / 1e3, 1))
    } else {
        format!("${}", num(v, 0))
    }
}

/// A long duration for people: `45 min`, `5.4 h`, `12.3 days`, `2.1 years`.
pub fn duration(secs: f64) -> String {
    if secs < 90.0 * 60.0 {
        format!("{} min", num(secs / 60.0, 1))
    } else if secs < 48.0 * 3600.0 {
        format!("{} h", num(secs / 3600.0, 1))
    } else if secs < 365.0 * 86_400.0 {
        format!("{} days", num(secs / 86_400.0, 1))
    } else {
        format!("{} years", num(secs / (365.0 * 86_400.0), 1))
    }
}

/// A share as a percentage: `96%`, `0.4%`.
pub fn pct(x: f64) -> String {
    let p = x * 100.0;
    if p != 0.0 && p.abs() < 1.0 { format!("{}%", num(p, 1)) } else { format!("{}%", num(p, 0)) }
}

/// A count of things: `1 bucket`, `534 buckets`, `145k buckets`.
pub fn plural(n: u64, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{} {word}s", count(n as f64)) }
}

/// A value a person gave, echoed in an error: plain for ordinary magnitudes, scientific for huge or tiny ones,
/// and said, not drawn, when it is no number (`NaN, not a number`, `infinity`): NaN is not a dash.
pub fn echoed(v: f64) -> String {
    if v.is_nan() {
        "NaN, not a number".to_string()
    } else if v.is_infinite() {
        (if v > 0.0 { "infinity" } else { "minus infinity" }).to_string()
    } else {
        sig(v, 6)
    }
}

/// A ratio: `1.9x`, `12x`.
pub fn times(r: f64) -> String {
    format!("{}x", num(r, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `fixed` against `format!` over magnitudes from 1e-6 to 1e17: the same text, or one unit of the last digit
    /// apart (at a tie, or where scaling by 10^d rounds), within the precision the f64 itself carries.
    #[test]
    fn fixed_agrees_with_format_to_the_last_digit() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for i in 0..20_000 {
            // xorshift: reproducible values spread over the magnitudes, both signs.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mantissa = (x >> 11) as f64 / (1u64 << 53) as f64;
            let v = mantissa * 10f64.powi((i % 24) - 6) * if i % 3 == 0 { -1.0 } else { 1.0 };
            for d in 0..5u32 {
                if v.abs() * 10f64.powi(d as i32) >= 1e17 {
                    continue;
                }
                let ours = fixed(v, d);
                let std = format!("{v:.0$}", d as usize);
                if ours != std {
                    let a: f64 = ours.parse().expect("ours parses");
                    let b: f64 = std.parse().expect("std parses");
                    let unit = 10f64.powi(-(d as i32));
                    let carried = v.abs() * 4.0 * f64::EPSILON;
                    assert!((a - b).abs() <= unit * 1.000_001 + carried, "{v} to {d}: {ours} vs {std}");
                }
            }
        }
    }

    #[test]
    fn fixed_and_num_read_as_people_write() {
        assert_eq!(fixed(8.96, 3), "8.960");
        assert_eq!(fixed(0.56, 2), "0.56");
        assert_eq!(fixed(-0.004, 2), "0.00");
        assert_eq!(fixed(-1.5, 1), "-1.5");
        assert_eq!(fixed(1999.999, 2), "2000.00");
        assert_eq!(num(14.0, 2), "14");
        assert_eq!(num(3.125, 3), "3.125");
        assert_eq!(num(-0.0001, 2), "0");
        assert_eq!(num(f64::NAN, 2), NOT_A_NUMBER);
        assert_eq!(num(f64::INFINITY, 2), NOT_A_NUMBER);
        assert_eq!(fixed(3e20, 2), "3e20");
    }

    #[test]
    fn sig_is_plain_for_ordinary_magnitudes_and_scientific_outside() {
        assert_eq!(sig(1600.5, 6), "1600.5");
        assert_eq!(sig(0.00123, 6), "0.00123");
        assert_eq!(sig(0.000123, 6), "1.23e-4");
        assert_eq!(sig(0.1 + 0.2, 6), "0.3");
        assert_eq!(sig(7e9, 6), "7e9");
        assert_eq!(sig(4_500_000.0, 6), "4500000");
        assert_eq!(sig(1.5e21, 6), "1.5e21");
        assert_eq!(sig(-2e-7, 6), "-2e-7");
        assert_eq!(sig(9.9999999e20, 3), "1e21");
        assert_eq!(sig(0.0, 6), "0");
        assert_eq!(sig(f64::NAN, 6), NOT_A_NUMBER);
    }

    #[test]
    fn units_pick_the_unit_that_fits() {
        assert_eq!(secs(Seconds::new(8.96)), "8.96 s");
        assert_eq!(secs(Seconds::new(0.56)), "0.56 s");
        assert_eq!(secs(Seconds::new(0.0863)), "86.3 ms");
        assert_eq!(secs(Seconds::new(25e-6)), "25 µs");
        assert_eq!(secs(Seconds::new(250.0)), "250 s");
        assert_eq!(secs(Seconds::new(900.0)), "15 min");
        assert_eq!(secs(Seconds::new(9000.0)), "2.5 h");
        assert_eq!(secs(Seconds::ZERO), "0 s");
        assert_eq!(gb(Bytes::gb(14.0)), "14 GB");
        assert_eq!(gb(Bytes::new(3.5e8)), "350 MB");
        assert_eq!(gib(Bytes::gib(14.0)), "14.0 GiB");
        assert_eq!(params(7e9), "7B");
        assert_eq!(params(1.5e12), "1.5T");
        assert_eq!(count(4_194_304.0), "4.19M");
        assert_eq!(count(145_000.0), "145k");
        assert_eq!(pct(0.96), "96%");
        assert_eq!(pct(0.004), "0.4%");
        assert_eq!(times(1.87), "1.9x");
        assert_eq!(plural(1, "node"), "1 node");
        assert_eq!(plural(534, "bucket"), "534 buckets");
        assert_eq!(decade(0.01), "10 ms");
    }

    #[test]
    fn binary_sizes_read_as_nccl_tests_writes_them() {
        assert_eq!(binary(Bytes::gib(8.0)), "8 GiB");
        assert_eq!(binary(Bytes::new(128.0 * 1024.0 * 1024.0)), "128 MiB");
        assert_eq!(binary(Bytes::new(1536.0)), "1.5 KiB");
        assert_eq!(binary(Bytes::new(1023.0)), "1023 B");
        assert_eq!(binary(Bytes::new(8.0)), "8 B");
        assert_eq!(binary(Bytes::gib(2048.0)), "2 TiB");
        // Issue 39: three significant digits, never "953.67 MiB"; counts as "1.8k", never "1764.8".
        assert_eq!(binary(Bytes::new(1e9)), "954 MiB");
        assert_eq!(binary(Bytes::new(25.5 * 1024.0 * 1024.0)), "25.5 MiB");
        assert_eq!(count(1764.8), "1.8k");
        assert_eq!(count(100_000.0), "100k");
        assert_eq!(count(535.0), "535");
    }
}
