//! How a PyTorch profiler trace writes its fields, read leniently: an event and the arguments the reader uses,
//! numbers that may be integers, floats or strings of them, `Process Group Ranks` as a string or a list, collective
//! and element-type names, and an old trace's shapes. The writers' sources are cited in [`super`].

use std::borrow::Cow;

use serde::{Deserialize, Deserializer};

use crate::import::calls::MAX_MEMBERS;
use crate::op::Op;

/// The collective a name says: c10d's `Collective name` (`allreduce`, `_allgather_base`, `reduce_scatter`,
/// `all_to_all`, `broadcast`), an `nccl:all_reduce` op, or an NCCL kernel's (`ncclDevKernel_AllGather_RING_LL`).
pub fn op_of(name: &str) -> Option<Op> {
    let n: String = name
        .split('(')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    let n = n.strip_prefix("nccl").unwrap_or(&n);
    let n = n.strip_prefix("devkernel").or_else(|| n.strip_prefix("kernel")).unwrap_or(n);
    if n.starts_with("reducescatter") {
        Some(Op::ReduceScatter)
    } else if n.starts_with("allreduce") {
        Some(Op::AllReduce)
    } else if n.starts_with("allgather") {
        Some(Op::AllGather)
    } else if n.starts_with("alltoall") {
        Some(Op::AllToAll)
    } else if n.starts_with("broadcast") {
        Some(Op::Broadcast)
    } else {
        None
    }
}

/// Bytes of one element of a c10 scalar type, as the trace names it (`Float`, `BFloat16`) or as an old trace's
/// `Input type` does (`float`, `c10::BFloat16`): pytorch/pytorch `c10/core/ScalarType.h` @f096399.
pub fn dtype_bytes(name: &str) -> Option<f64> {
    let n = name.trim_matches('"').rsplit("::").next().unwrap_or("").to_ascii_lowercase();
    Some(match n.as_str() {
        "byte" | "char" | "bool" | "qint8" | "quint8" | "quint4x2" | "quint2x4" | "bits1x8" | "bits2x4" | "bits4x2"
        | "bits8" | "float8_e5m2" | "float8_e4m3fn" | "float8_e5m2fnuz" | "float8_e4m3fnuz" | "unsigned char"
        | "signed char" | "uint8" | "int8" => 1.0,
        "short" | "half" | "bfloat16" | "bits16" | "uint16" | "int16" => 2.0,
        "int" | "float" | "complexhalf" | "qint32" | "uint32" | "int32" => 4.0,
        "long" | "double" | "complexfloat" | "uint64" | "int64" | "long int" => 8.0,
        "complexdouble" => 16.0,
        _ => return None,
    })
}

/// A number as a trace writes it: an integer, a float, or (rarely) a string of one.
pub(crate) fn flex<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = Option<f64>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a number")
        }
        fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(v as f64))
        }
        fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(v as f64))
        }
        fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
            Ok(v.is_finite().then_some(v))
        }
        fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
            Ok(v.trim().trim_matches('"').parse::<f64>().ok().filter(|x| x.is_finite()))
        }
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(V)
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
            while a.next_element::<serde::de::IgnoredAny>()?.is_some() {}
            Ok(None)
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
            while a.next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?.is_some() {}
            Ok(None)
        }
    }
    d.deserialize_any(V)
}

pub(super) fn flex_u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Ok(flex(d)?.filter(|v| *v >= 0.0 && *v <= 9.007e15).map(|v| v as u64))
}

pub(super) fn flex_i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Ok(flex(d)?.filter(|v| v.abs() <= 9.007e15).map(|v| v as i64))
}

pub(super) fn flex_u32<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    Ok(flex(d)?.filter(|v| *v >= 0.0 && *v <= f64::from(u32::MAX)).map(|v| v as u32))
}

/// A string, or a number written for one (`Process Group Name` is `"0"`, some writers give `0`).
pub(super) fn flex_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = Option<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(v.trim_matches('"').chars().take(256).collect()))
        }
        fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }
        fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }
        fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
            while a.next_element::<serde::de::IgnoredAny>()?.is_some() {}
            Ok(None)
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
            while a.next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?.is_some() {}
            Ok(None)
        }
    }
    d.deserialize_any(V)
}

/// `Process Group Ranks`: a string `"[0, 1, 2]"` (PyTorch writes the first 30 ranks and `...` past them), or a list
/// of numbers.
pub(super) fn ranks_list<'de, D: Deserializer<'de>>(d: D) -> Result<Option<RankList>, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = Option<RankList>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a list of ranks")
        }
        fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
            let mut ranks = Vec::new();
            let mut cut = false;
            for part in v.trim().trim_start_matches('[').trim_end_matches(']').split(',') {
                let p = part.trim();
                if p.is_empty() {
                    continue;
                }
                if p.contains("...") {
                    cut = true;
                    continue;
                }
                match p.parse::<u32>() {
                    Ok(r) if ranks.len() < MAX_MEMBERS => ranks.push(r),
                    Ok(_) => cut = true,
                    Err(_) => return Ok(None),
                }
            }
            Ok(Some(RankList { ranks, cut }))
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
            let mut ranks = Vec::new();
            let mut cut = false;
            while let Some(r) = a.next_element::<u32>()? {
                if ranks.len() < MAX_MEMBERS {
                    ranks.push(r);
                } else {
                    cut = true;
                }
            }
            Ok(Some(RankList { ranks, cut }))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }
    d.deserialize_any(V)
}

/// Ranks as listed, and whether the list was cut.
#[derive(Clone, Debug, Default)]
pub(super) struct RankList {
    pub(super) ranks: Vec<u32>,
    pub(super) cut: bool,
}

impl RankList {
    /// The members, with a cut list filled in where the listed ones are evenly spaced and the size is known.
    pub(super) fn members(&self, size: Option<u32>) -> Vec<u32> {
        if !self.cut {
            return self.ranks.clone();
        }
        let (Some(n), [a, b, ..]) = (size, self.ranks.as_slice()) else { return Vec::new() };
        // Evenly spaced: every listed rank where the first two's stride puts it (a group of 4 ranks per node over
        // 16 nodes, `[0, 1, 2, 3, 8, ...]`, is not, and stays unknown).
        let stride = b.saturating_sub(*a);
        let last = u64::from(*a) + u64::from(n.saturating_sub(1)) * u64::from(stride);
        let even = stride > 0
            && last <= u64::from(u32::MAX)
            && self
                .ranks
                .iter()
                .enumerate()
                .all(|(i, r)| u64::from(*r) == u64::from(*a) + i as u64 * u64::from(stride));
        if !even || n as usize > MAX_MEMBERS {
            return Vec::new();
        }
        (0..n).map(|i| a.saturating_add(i.saturating_mul(stride))).collect()
    }
}

/// One event, the fields the reader uses.
#[derive(Deserialize)]
pub(super) struct Event<'a> {
    #[serde(default, borrow)]
    pub(super) ph: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub(super) cat: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub(super) name: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "flex")]
    pub(super) ts: Option<f64>,
    #[serde(default, deserialize_with = "flex")]
    pub(super) dur: Option<f64>,
    #[serde(default, borrow)]
    pub(super) args: Option<Args<'a>>,
}

#[derive(Default, Deserialize)]
pub(super) struct Args<'a> {
    #[serde(default, deserialize_with = "flex_i64")]
    pub(super) device: Option<i64>,
    #[serde(default, deserialize_with = "flex_u64")]
    pub(super) correlation: Option<u64>,
    #[serde(default, rename = "External id", alias = "external id", deserialize_with = "flex_u64")]
    pub(super) external: Option<u64>,
    #[serde(default, rename = "Collective name", borrow)]
    pub(super) collective: Option<Cow<'a, str>>,
    #[serde(default, rename = "In msg nelems", alias = "In msg size", deserialize_with = "flex")]
    pub(super) in_nelems: Option<f64>,
    #[serde(default, rename = "Out msg nelems", alias = "Out msg size", deserialize_with = "flex")]
    pub(super) out_nelems: Option<f64>,
    #[serde(default, rename = "Group size", deserialize_with = "flex_u32")]
    pub(super) group_size: Option<u32>,
    #[serde(default, borrow)]
    pub(super) dtype: Option<Cow<'a, str>>,
    #[serde(default, rename = "Process Group Name", deserialize_with = "flex_string")]
    pub(super) pg: Option<String>,
    #[serde(default, rename = "Process Group Description", deserialize_with = "flex_string")]
    pub(super) pg_desc: Option<String>,
    #[serde(default, rename = "Process Group Ranks", deserialize_with = "ranks_list")]
    pub(super) pg_ranks: Option<RankList>,
    #[serde(default, rename = "Rank", deserialize_with = "flex_u32")]
    pub(super) rank: Option<u32>,
    /// `Seq`: the process group's number for the call (pytorch `torch/csrc/profiler/util.h`, `kSeqNum`).
    #[serde(default, rename = "Seq", deserialize_with = "flex_u64")]
    pub(super) seq: Option<u64>,
}

/// An old trace's size from its `nccl:` op's first input (`record_shapes`: `"Input Dims": [[2049000]]`, `"Input
/// type": ["float"]`; nested for a list of tensors, `[[[11011, 6144]], []]` of type `TensorList`, which gives none):
/// elements times the type's bytes. All-gather's output is the group's inputs, unknown here: none. The shapes are
/// read from the event's bytes again, only for these ops: every other op's are skipped unread.
pub(super) fn shape_bytes(event: &[u8], op: Option<Op>) -> Option<f64> {
    use serde_json::Value;
    #[derive(Deserialize)]
    struct Shapes {
        #[serde(default, rename = "Input Dims")]
        dims: Option<Value>,
        #[serde(default, rename = "Input type")]
        types: Option<Value>,
    }
    #[derive(Deserialize)]
    struct Ev {
        args: Shapes,
    }
    if op == Some(Op::AllGather) {
        return None;
    }
    let ev: Ev = serde_json::from_slice(event).ok()?;
    let (dims, types) = (ev.args.dims.as_ref()?, ev.args.types.as_ref()?);
    let mut dims = dims.as_array()?.first()?;
    while let Some(first @ Value::Array(_)) = dims.as_array().and_then(|a| a.first()) {
        dims = first;
    }
    let n: f64 = dims.as_array()?.iter().map(Value::as_f64).product::<Option<f64>>()?;
    let mut t = types.as_array()?.first()?;
    while let Some(first) = t.as_array().and_then(|a| a.first()) {
        t = first;
    }
    Some(n * dtype_bytes(t.as_str()?)?).filter(|b| b.is_finite() && *b > 0.0)
}
