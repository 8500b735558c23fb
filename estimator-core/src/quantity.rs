//! Reading the quantities people type: `7B` parameters, `4M` tokens, `8GiB` messages. Shared by the CLI and the
//! page so both accept the same spellings.

/// Why a quantity could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QuantityError {
    /// Nothing was given.
    #[error("empty value")]
    Empty,
    /// The number part is not a number.
    #[error("'{0}' is not a number (examples: 7e9, 7B, 1.5T)")]
    NotANumber(String),
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
    /// NaN, infinity or negative.
    #[error("'{0}' must be a finite number of at least 0")]
    OutOfRange(String),
}

fn split(s: &str) -> Result<(f64, String, String), QuantityError> {
    let t: String = s.trim().chars().filter(|c| *c != ',' && *c != '_').collect();
    if t.is_empty() {
        return Err(QuantityError::Empty);
    }
    // The longest prefix that parses as a number (handles 7e9 as well as 7B and 1.5GiB).
    let mut best = None;
    // `get` rather than indexing: no panic path (and none of its formatting code in the page's wasm).
    for (i, _) in t.char_indices().chain(std::iter::once((t.len(), ' '))) {
        if let Some(Ok(v)) = t.get(..i).map(str::parse::<f64>) {
            best = Some((v, i));
        }
    }
    let Some((v, end)) = best else {
        return Err(QuantityError::NotANumber(s.trim().to_string()));
    };
    if !v.is_finite() || v < 0.0 {
        return Err(QuantityError::OutOfRange(s.trim().to_string()));
    }
    Ok((v, t.get(end..).unwrap_or_default().trim().to_string(), t))
}

/// A count with an optional decimal suffix: `7e9`, `7B`, `70b`, `1.5T`, `4M`, `500k`. (B or G = 1e9.)
pub fn parse_count(s: &str) -> Result<f64, QuantityError> {
    let (v, suffix, input) = split(s)?;
    let mult = match suffix.to_ascii_lowercase().as_str() {
        "" => 1.0,
        "k" => 1e3,
        "m" => 1e6,
        "b" | "g" | "bn" => 1e9,
        "t" => 1e12,
        _ => {
            return Err(QuantityError::UnknownSuffix { input, suffix, allowed: "k, M, B (or G), T; or 7e9" });
        }
    };
    Ok(v * mult)
}

/// A duration in seconds: `30d`, `2w`, `36h`, `90min`, `3600s` (a unit is required: a bare number could be any
/// of them).
pub fn parse_duration(s: &str) -> Result<f64, QuantityError> {
    let (v, suffix, input) = split(s)?;
    let mult = match suffix.to_ascii_lowercase().as_str() {
        "s" | "sec" | "secs" | "second" | "seconds" => 1.0,
        "min" | "mins" | "minute" | "minutes" => 60.0,
        "h" | "hr" | "hrs" | "hour" | "hours" => 3600.0,
        "d" | "day" | "days" => 86_400.0,
        "w" | "wk" | "week" | "weeks" => 604_800.0,
        _ => return Err(QuantityError::UnknownSuffix { input, suffix, allowed: "s, min, h, d or w: 30d, 36h" }),
    };
    Ok(v * mult)
}

/// A size in bytes: raw (`1073741824`), decimal (`KB`, `MB`, `GB`, `TB`) or binary (`KiB`, `MiB`, `GiB`, `TiB`).
/// A bare `K`, `M`, `G` is binary, as nccl-tests reads `-e 8G`.
pub fn parse_bytes(s: &str) -> Result<f64, QuantityError> {
    let (v, suffix, input) = split(s)?;
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
        assert!(matches!(parse_count("seven"), Err(QuantityError::NotANumber(_))));
        assert_eq!(parse_count(""), Err(QuantityError::Empty));
        assert!(matches!(parse_count("-7B"), Err(QuantityError::OutOfRange(_))));
        assert!(matches!(parse_count("NaN"), Err(QuantityError::OutOfRange(_))));
        assert!(matches!(parse_count("inf"), Err(QuantityError::OutOfRange(_))));
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
}
