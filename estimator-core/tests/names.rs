//! Every enum that front ends print by `name()` is written the same way by serde, and reads back from that name:
//! the CLI's flags, the page's URL and the JSON documents cannot drift apart.

use estimator_core::health::Verdict;
use estimator_core::import::Kind;
use estimator_core::report::{GdrSupport, ReportFabric};
use estimator_core::{Fabric, Field, GradDtype, SyncStrategy};
use serde::Serialize;
use serde::de::DeserializeOwned;

fn same_name<T>(all: &[T], name: impl Fn(T) -> &'static str)
where
    T: Copy + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned,
{
    for &v in all {
        let written = serde_json::to_value(v).expect("serialises");
        assert_eq!(written, serde_json::json!(name(v)), "{v:?}: serde and name() differ");
        let back: T = serde_json::from_value(serde_json::json!(name(v))).expect("its name reads back");
        assert_eq!(back, v);
    }
}

/// The lists below name every variant: each match fails to compile when a variant is added.
const VERDICTS: [Verdict; 4] = [Verdict::Healthy, Verdict::Degraded, Verdict::Unhealthy, Verdict::Mismatch];
const KINDS: [Kind; 7] = [
    Kind::NcclTests,
    Kind::NcclLog,
    Kind::NvidiaSmiTopo,
    Kind::Ibstat,
    Kind::IbvDevinfo,
    Kind::NcclInspector,
    Kind::PytorchTrace,
];

/// An error's `field` in JSON is the key the user wrote (and, with `-`, the CLI flag).
#[test]
fn a_field_serialises_as_its_key() {
    for f in Field::ALL {
        assert_eq!(serde_json::to_value(f).expect("serialises"), serde_json::json!(f.key()), "{f:?}");
    }
}

#[allow(dead_code)]
fn every_variant_is_listed(v: Verdict, k: Kind) {
    match v {
        Verdict::Healthy | Verdict::Degraded | Verdict::Unhealthy | Verdict::Mismatch => {}
    }
    match k {
        Kind::NcclTests
        | Kind::NcclLog
        | Kind::NvidiaSmiTopo
        | Kind::Ibstat
        | Kind::IbvDevinfo
        | Kind::NcclInspector
        | Kind::PytorchTrace => {}
    }
}

#[test]
fn name_is_the_serde_name() {
    same_name(&Fabric::ALL, Fabric::name);
    same_name(&GradDtype::ALL, GradDtype::name);
    same_name(&SyncStrategy::ALL, SyncStrategy::name);
    same_name(&ReportFabric::ALL, ReportFabric::name);
    same_name(&GdrSupport::ALL, GdrSupport::name);
    same_name(&VERDICTS, Verdict::name);
    same_name(&KINDS, Kind::name);
}
