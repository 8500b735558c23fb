//! Replays the public nccl-tests calibration set through the model and holds it to the targets: over the held-out
//! points of each scored group (no constant of their prediction was set from them), median |error| of the
//! large-message bus bandwidth at most 10%, none above 25%. Fitted points are printed apart and kept within 25%.

use tests::calibration::provenance::{self, Constant, PROVENANCE};
use tests::calibration::{Group, Spread, calibration_path, load, markdown_table, replay_all, subset};

const README_START: &str = "<!-- calibration-table:start -->";
const README_END: &str = "<!-- calibration-table:end -->";

#[test]
fn calibration_set_is_reproduced() {
    let path = calibration_path();
    let points = load(&path).expect("calibration file reads");
    let replays = replay_all(&points);
    let table = markdown_table(&replays);
    println!("calibration file: {}\n\n{README_START}\n{table}{README_END}", path.display());

    assert!(replays.len() >= points.len() - 1, "every point with a large-message figure is replayed");
    for g in [Group::Point, Group::TwoNodeDefault] {
        let held_out = subset(&replays, g, true);
        let spread =
            Spread::of(held_out.iter().map(|r| r.error)).unwrap_or_else(|| panic!("{g:?} has no held-out point"));
        assert!(spread.n >= 3, "{g:?}: only {} held-out points", spread.n);
        assert!(spread.median <= 0.10, "{g:?}: held-out median |error| {:.1}% > 10%", spread.median * 100.0);
        for r in held_out.iter().chain(&subset(&replays, g, false)) {
            assert!(r.error.abs() <= 0.25, "{}: error {:+.1}% beyond 25%", r.id, r.error * 100.0);
        }
    }
    for r in replays.iter().filter(|r| r.group == Group::Unhealthy) {
        // The model predicts the healthy value: an unhealthy system measures well below it.
        assert!(r.measured < 0.75 * r.predicted, "{}: measured {} vs healthy {}", r.id, r.measured, r.predicted);
    }
}

#[test]
fn readme_holds_the_current_table() {
    if std::env::var_os("CALIBRATION_FILE").is_some() {
        return; // Another file: the README documents the shipped calibration set only.
    }
    let replays = replay_all(&load(&calibration_path()).expect("calibration file reads"));
    let table = markdown_table(&replays);
    let readme_path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    let readme = std::fs::read_to_string(readme_path).expect("README.md reads");
    let start = readme.find(README_START).expect("README has the calibration start marker") + README_START.len();
    let end = readme.find(README_END).expect("README has the calibration end marker");
    assert_eq!(
        readme[start..end].trim(),
        table.trim(),
        "README's calibration table is stale: run scripts/update-calibration-table.sh"
    );
}

/// The health verdict on the calibration set: the points whose notes call them degraded or misconfigured come out
/// degraded or unhealthy; the healthy ones (Point and TwoNodeDefault groups) come out healthy. The run is read from
/// the point's raw table by estimator-core's nccl-tests reader, as `probe-cli health` reads a file.
#[test]
fn health_verdicts_follow_the_notes() {
    use estimator_core::health::{Evidence, Verdict, judge};
    use estimator_core::import::{Imported, NcclTestsRow, NcclTestsRun};
    let points = load(&calibration_path()).expect("calibration file reads");
    let mut judged = Vec::new();
    for p in &points {
        let Some((scenario, group, _)) = tests::calibration::scenario_of(p) else { continue };
        if group == Group::LowConfidence {
            continue;
        }
        // The point's own rows (a raw file may hold several runs: the point records which rows are its own).
        let run = NcclTestsRun {
            rows: p
                .rows
                .iter()
                .filter_map(|r| {
                    Some(NcclTestsRow { size_bytes: r.size_bytes, busbw_gbs: r.busbw_gbps?, ..Default::default() })
                })
                .collect(),
            ..Default::default()
        };
        let Some(h) = judge(&scenario, &run, Evidence::default()) else { continue };
        let want_healthy = group != Group::Unhealthy;
        assert_eq!(
            h.verdict == Verdict::Healthy,
            want_healthy,
            "{}: {:?} at {:.2} of expected ({:.1} measured vs {:.1} ring, {:?} tree)",
            p.id,
            h.verdict,
            h.large.ratio,
            h.large.measured_busbw_gbs,
            h.large.expected_busbw_gbs,
            h.large.expected_tree_busbw_gbs
        );
        judged.push((p.id.clone(), group, h.verdict));
    }
    for (id, group, verdict) in &judged {
        println!("{id:48} {group:?} -> {}", verdict.name());
    }
    assert!(judged.iter().filter(|j| j.1 == Group::Unhealthy).count() >= 2, "{judged:?}");
    assert!(judged.len() >= 20, "{judged:?}");
    // The reader gives the same verdict from the raw table of an unhealthy point.
    let raw = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data/nccl-tests/raw/nccl-tests-290-h100-2node-ndr-ring.txt"),
    )
    .expect("raw");
    let Some(Imported::NcclTests(run)) = estimator_core::import::import(&raw) else { panic!("not read") };
    let p = points.iter().find(|p| p.id == "nccl-tests-290-h100-2node-ndr-ring").expect("point");
    let (scenario, _, _) = tests::calibration::scenario_of(p).expect("scenario");
    let h = judge(&scenario, &run, Evidence::default()).expect("rows");
    assert_ne!(h.verdict, Verdict::Healthy, "{h:?}");
}

/// Every constant the model can use has one record, every point it names is in the shipped set, and those points
/// come out fitted.
#[test]
fn provenance_covers_the_model() {
    use estimator_core::{Fabric, IntraNodeLink, catalog};
    let mut all: Vec<Constant> =
        catalog::GPUS.iter().chain([&catalog::GENERIC_GPU]).map(|g| Constant::GpuBusbw(g.key)).collect();
    all.extend([Constant::NvlinkRingEfficiency, Constant::PcieP2pEfficiency, Constant::HostStagedBusbw]);
    for f in Fabric::ALL {
        all.extend([Constant::FabricEfficiency(f), Constant::FabricLatency(f)]);
    }
    for l in [
        IntraNodeLink::Nvswitch,
        IntraNodeLink::Nvlink,
        IntraNodeLink::Xgmi,
        IntraNodeLink::Pcie,
        IntraNodeLink::PcieHostStaged,
    ] {
        all.push(Constant::IntraNodeLatency(l));
    }
    all.extend([Constant::TcpSocketCap, Constant::NoGdrAdapterCap]);
    for c in &all {
        assert_eq!(PROVENANCE.iter().filter(|p| p.constant == *c).count(), 1, "{c:?} has one record");
    }
    assert_eq!(PROVENANCE.len(), all.len(), "no record of a constant the model does not have");
    for p in PROVENANCE {
        for v in p.via {
            assert!(provenance::provenance(*v).is_some(), "{:?} via {v:?}", p.constant);
        }
    }

    if std::env::var_os("CALIBRATION_FILE").is_some() {
        return; // The record names points of the shipped set.
    }
    let points = load(&calibration_path()).expect("calibration file reads");
    let replays = replay_all(&points);
    for p in PROVENANCE {
        for id in p.points {
            assert!(points.iter().any(|q| q.id == *id), "{:?}: no point {id}", p.constant);
        }
    }
    // Every point the record names comes out fitted: its own prediction uses a constant set from it.
    for p in PROVENANCE {
        for id in p.points {
            let r = replays.iter().find(|r| r.id == *id).expect("replayed");
            assert!(!r.held_out(), "{id} set {:?} but uses only {:?}", p.constant, r.uses);
        }
    }
}
