//! How the page writes numbers: short, with the unit that fits, and the same way everywhere.

use estimator_core::{Bytes, Seconds};

/// A number with at most `decimals` decimals and no trailing zeros: `14`, `3.125`, `0.56`.
pub fn num(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return "–".to_string();
    }
    let s = format!("{v:.decimals$}");
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
}

/// A duration the way the page shows it: `8.96 s`, `0.56 s`, `86.3 ms`, `25 µs`, `250 s`; minutes from 10 min.
pub fn secs(t: Seconds) -> String {
    let s = t.as_secs();
    if !s.is_finite() {
        "–".to_string()
    } else if s >= 7200.0 {
        format!("{} h", num(s / 3600.0, 1))
    } else if s >= 600.0 {
        format!("{} min", num(s / 60.0, 1))
    } else if s >= 100.0 {
        format!("{s:.0} s")
    } else if s >= 0.1 {
        format!("{s:.2} s")
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

/// Bytes in decimal GB (as link rates are decimal): `14 GB`, `28 GB`, `350 MB`.
pub fn gb(b: Bytes) -> String {
    let v = b.get();
    if v >= 1e12 {
        format!("{} TB", num(v / 1e12, 2))
    } else if v >= 1e9 {
        format!("{} GB", num(v / 1e9, 2))
    } else if v >= 1e6 {
        format!("{} MB", num(v / 1e6, 1))
    } else {
        format!("{} kB", num(v / 1e3, 1))
    }
}

/// Bytes in binary GiB, as GPU memory is sold: `14.0 GiB`.
pub fn gib(b: Bytes) -> String {
    format!("{:.1} GiB", b.as_gib())
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

/// A large count: `4.19M`, `145k`.
pub fn count(v: f64) -> String {
    if v >= 1e9 {
        format!("{}G", num(v / 1e9, 2))
    } else if v >= 1e6 {
        format!("{}M", num(v / 1e6, 2))
    } else if v >= 1e4 {
        format!("{}k", num(v / 1e3, 0))
    } else {
        num(v, 1)
    }
}

/// A share as a percentage: `96%`, `0.4%`.
pub fn pct(x: f64) -> String {
    let p = x * 100.0;
    if p != 0.0 && p.abs() < 1.0 { format!("{}%", num(p, 1)) } else { format!("{}%", num(p, 0)) }
}
