//! Units as types, so that bits and bytes, seconds and microseconds never mix.
//!
//! Conventions, as nccl-tests prints them: `GB` is 1e9 bytes, `GB/s` is 1e9 bytes per second, and link rates are
//! in gigabits per second (1e9 bit/s). Binary prefixes (`GiB`, `MiB`) appear only where a size is given in them
//! (PyTorch's 25 MiB bucket, nccl-tests' power-of-two message sizes).

use serde::{Deserialize, Serialize};

/// Bytes per gigabyte (decimal, as nccl-tests and NIC vendors use it).
pub const BYTES_PER_GB: f64 = 1e9;
/// Bytes per gibibyte.
pub const BYTES_PER_GIB: f64 = 1024.0 * 1024.0 * 1024.0;
/// Bytes per mebibyte.
pub const BYTES_PER_MIB: f64 = 1024.0 * 1024.0;

/// An amount of data in bytes. Kept as `f64` because the model multiplies it by fractional factors; written to
/// JSON as an integer when it is one (`8589934592`, not `8589934592.0`), as every count is.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Deserialize)]
#[serde(transparent)]
pub struct Bytes(f64);

/// Serializes a count kept as `f64` (parameters, tokens, bytes) as an integer when it is a whole one, for
/// `#[serde(serialize_with = "crate::units::whole")]`.
pub fn whole<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    Bytes(*v).serialize(s)
}

/// [`whole`] for an optional number: `null` when unset.
pub fn whole_opt<S: serde::Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    v.map(Bytes).serialize(s)
}

/// Whole numbers of bytes up to 2^53 (every byte count a step has) as integers; others as they are.
impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(&v) {
            s.serialize_u64(v as u64)
        } else {
            s.serialize_f64(v)
        }
    }
}

impl Bytes {
    /// Zero bytes.
    pub const ZERO: Bytes = Bytes(0.0);

    /// From a byte count.
    pub const fn new(bytes: f64) -> Bytes {
        Bytes(bytes)
    }

    /// From decimal gigabytes (1e9 bytes).
    pub fn gb(gb: f64) -> Bytes {
        Bytes(gb * BYTES_PER_GB)
    }

    /// From gibibytes.
    pub fn gib(gib: f64) -> Bytes {
        Bytes(gib * BYTES_PER_GIB)
    }

    /// From mebibytes.
    pub fn mib(mib: f64) -> Bytes {
        Bytes(mib * BYTES_PER_MIB)
    }

    /// The byte count.
    pub const fn get(self) -> f64 {
        self.0
    }

    /// In decimal gigabytes.
    pub fn as_gb(self) -> f64 {
        self.0 / BYTES_PER_GB
    }

    /// In gibibytes.
    pub fn as_gib(self) -> f64 {
        self.0 / BYTES_PER_GIB
    }

    /// Scaled by a dimensionless factor.
    pub fn scale(self, factor: f64) -> Bytes {
        Bytes(self.0 * factor)
    }
}

/// A duration in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seconds(f64);

impl Seconds {
    /// No time.
    pub const ZERO: Seconds = Seconds(0.0);

    /// From seconds.
    pub const fn new(s: f64) -> Seconds {
        Seconds(s)
    }

    /// From milliseconds.
    pub fn from_millis(ms: f64) -> Seconds {
        Seconds(ms / 1e3)
    }

    /// From microseconds.
    pub fn from_micros(us: f64) -> Seconds {
        Seconds(us / 1e6)
    }

    /// In seconds.
    pub const fn as_secs(self) -> f64 {
        self.0
    }

    /// In milliseconds.
    pub fn as_millis(self) -> f64 {
        self.0 * 1e3
    }

    /// In microseconds.
    pub fn as_micros(self) -> f64 {
        self.0 * 1e6
    }

    /// The larger of two durations.
    pub fn max(self, other: Seconds) -> Seconds {
        Seconds(self.0.max(other.0))
    }

    /// The smaller of two durations.
    pub fn min(self, other: Seconds) -> Seconds {
        Seconds(self.0.min(other.0))
    }

    /// Scaled by a dimensionless factor.
    pub fn scale(self, factor: f64) -> Seconds {
        Seconds(self.0 * factor)
    }
}

/// Human form with a unit that fits, as everywhere ([`crate::human::secs`]): `8.96 s`, `86.3 ms`, `25 µs`.
impl std::fmt::Display for Seconds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::human::secs(*self))
    }
}

impl std::ops::Add for Seconds {
    type Output = Seconds;
    fn add(self, rhs: Seconds) -> Seconds {
        Seconds(self.0 + rhs.0)
    }
}

impl std::ops::Sub for Seconds {
    type Output = Seconds;
    fn sub(self, rhs: Seconds) -> Seconds {
        Seconds(self.0 - rhs.0)
    }
}

/// A link rate in gigabits per second (1e9 bit/s), as adapters are sold: 25, 100, 400 Gb/s.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GbitPerSec(f64);

impl GbitPerSec {
    /// From Gb/s.
    pub const fn new(gbit_per_s: f64) -> GbitPerSec {
        GbitPerSec(gbit_per_s)
    }

    /// The rate in Gb/s.
    pub const fn get(self) -> f64 {
        self.0
    }

    /// The same rate in GB/s: eight bits to the byte, so 400 Gb/s is 50 GB/s.
    pub fn to_gbyte_per_s(self) -> GbytePerSec {
        GbytePerSec(self.0 / 8.0)
    }
}

/// A bandwidth in gigabytes per second (1e9 B/s), the unit of nccl-tests' algbw and busbw.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GbytePerSec(f64);

impl GbytePerSec {
    /// From GB/s.
    pub const fn new(gbyte_per_s: f64) -> GbytePerSec {
        GbytePerSec(gbyte_per_s)
    }

    /// The bandwidth in GB/s.
    pub const fn get(self) -> f64 {
        self.0
    }

    /// The same bandwidth in Gb/s.
    pub fn to_gbit_per_s(self) -> GbitPerSec {
        GbitPerSec(self.0 * 8.0)
    }

    /// The time to move `bytes` at this bandwidth. The caller guarantees a positive bandwidth (validated inputs).
    pub fn transfer_time(self, bytes: Bytes) -> Seconds {
        Seconds(bytes.get() / (self.0 * BYTES_PER_GB))
    }

    /// Scaled by a dimensionless factor.
    pub fn scale(self, factor: f64) -> GbytePerSec {
        GbytePerSec(self.0 * factor)
    }

    /// The smaller of two bandwidths.
    pub fn min(self, other: GbytePerSec) -> GbytePerSec {
        GbytePerSec(self.0.min(other.0))
    }

    /// The larger of two bandwidths.
    pub fn max(self, other: GbytePerSec) -> GbytePerSec {
        GbytePerSec(self.0.max(other.0))
    }
}

/// A compute rate in TFLOP/s (1e12 floating-point operations per second).
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TflopPerSec(f64);

impl TflopPerSec {
    /// From TFLOP/s.
    pub const fn new(tflop_per_s: f64) -> TflopPerSec {
        TflopPerSec(tflop_per_s)
    }

    /// The rate in TFLOP/s.
    pub const fn get(self) -> f64 {
        self.0
    }

    /// The rate in FLOP/s.
    pub fn flop_per_s(self) -> f64 {
        self.0 * 1e12
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_and_bytes_do_not_mix() {
        assert_eq!(GbitPerSec::new(400.0).to_gbyte_per_s().get(), 50.0);
        assert_eq!(GbitPerSec::new(25.0).to_gbyte_per_s().get(), 3.125);
        assert_eq!(GbytePerSec::new(50.0).to_gbit_per_s().get(), 400.0);
    }

    #[test]
    fn transfer_time_uses_decimal_gigabytes() {
        let t = GbytePerSec::new(50.0).transfer_time(Bytes::gb(28.0));
        assert!((t.as_secs() - 0.56).abs() < 1e-12);
        assert_eq!(Bytes::gib(1.0).get(), 1_073_741_824.0);
        assert_eq!(Seconds::from_micros(1500.0).as_millis(), 1.5);
        assert_eq!(Seconds::new(8.96).to_string(), "8.96 s");
        assert_eq!(Seconds::from_millis(86.29).to_string(), "86.3 ms");
        assert_eq!(Seconds::from_micros(25.0).to_string(), "25 µs");
    }
}
