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
    // The target: a held-out median |error| of 10% in each scored group, none above 25%.
    for g in [Group::Point, Group::TwoNodeDefault] {
        let bound = 0.10;
        let held_out = subset(&replays, g, true);
        let spread =
            Spread::of(held_out.iter().map(|r| r.error)).unwrap_or_else(|| panic!("{g:?} has no held-out point"));
        assert!(spread.n >= 3, "{g:?}: only {} held-out points", spread.n);
        assert!(spread.median <= bound, "{g:?}: held-out median |error| {:.1}% > {bound}", spread.median * 100.0);
        for r in held_out.iter() {
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
    use estimator_core::{Fabric, catalog};
    let mut all: Vec<Constant> =
        catalog::GPUS.iter().chain([&catalog::GENERIC_GPU]).map(|g| Constant::GpuBusbw(g.key)).collect();
    all.extend([Constant::NvlinkRingEfficiency, Constant::PcieP2pEfficiency, Constant::HostStagedBusbw]);
    for f in Fabric::ALL {
        all.extend([Constant::FabricEfficiency(f), Constant::FabricLatency(f)]);
    }
    all.extend([Constant::NcclModel, Constant::AutoparallelRamps]);
    all.extend([Constant::TcpSocketCap, Constant::NoGdrAdapterCap, Constant::MnnvlNvlsRamp]);
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
    let path = calibration_path();
    let points = load(&path).expect("calibration file reads");
    let replays = replay_all(&points);
    let tables = tests::calibration::curves::load_tables(&points, &path, &tests::calibration::curves::curves_path())
        .expect("tables read");
    for p in PROVENANCE {
        for id in p.points {
            assert!(
                points.iter().any(|q| q.id == *id) || tables.iter().any(|t| t.id == *id),
                "{:?}: no point or table {id}",
                p.constant
            );
        }
    }
    // Every point or table the record names comes out fitted: its own prediction uses a constant set from it.
    for p in PROVENANCE {
        for id in p.points {
            if let Some(r) = replays.iter().find(|r| r.id == *id) {
                assert!(!r.held_out(), "{id} set {:?} but uses only {:?}", p.constant, r.uses);
            } else {
                let t = tables.iter().find(|t| t.id == *id).expect("a table");
                assert!(!t.held_out, "{id} set {:?} but comes out held out", p.constant);
            }
        }
    }
}

const CURVES_START: &str = "<!-- curves-table:start -->";
const CURVES_END: &str = "<!-- curves-table:end -->";

/// Every size of every public table, of every collective: the time against the model's, by size band.
///
/// The targets over the healthy runs are a median |error| of at most 10% in each band from 64 KiB up and
/// no band above 15%. The model meets them below 64 KiB and from 64 MiB up; between, NCCL's own model is known to
/// be fast (research note §9) and the sourced ramps close only part of it. Those two bands are held to what the
/// model reaches now, so that a change that makes them worse fails, and README says so beside the table.
#[test]
fn every_size_is_replayed() {
    use tests::calibration::curves::{BANDS, band_spread, curves_path, load_tables, markdown, scored};
    let path = calibration_path();
    let points = load(&path).expect("calibration file reads");
    let tables = load_tables(&points, &path, &curves_path()).expect("tables read");
    let md = markdown(&tables);
    println!("{CURVES_START}\n{md}{CURVES_END}");
    if let Ok(ids) = std::env::var("CURVES_DETAIL") {
        for t in tables.iter().filter(|t| ids.split(',').any(|id| t.id.contains(id))) {
            println!("{}", tests::calibration::curves::detail(t));
        }
    }
    let healthy: Vec<_> = tables.iter().filter(|t| scored(t)).collect();
    assert!(healthy.len() >= 20, "{} healthy runs", healthy.len());
    let ops: std::collections::BTreeSet<&str> = healthy.iter().map(|t| t.op.name()).collect();
    assert_eq!(ops.len(), 5, "every collective has a healthy run: {ops:?}");
    // (band, bound on all healthy runs): the targets where met, the present figure plus a margin where not.
    let bounds = [0.15, 0.45, 0.30, 0.10];
    for (b, bound) in BANDS.iter().zip(bounds) {
        let spread = band_spread(healthy.iter().copied(), *b).unwrap_or_else(|| panic!("{} has rows", b.label));
        assert!(
            spread.median <= bound,
            "{}: median |error| {:.1}% > {:.0}%",
            b.label,
            spread.median * 100.0,
            bound * 100.0
        );
    }
}

/// `probe-cli thresholds` gates each size band at the floor the held-out healthy runs clear but for 5% of their
/// rows (estimator-core's `thresholds::BANDS`): the constants there must be these figures, rounded down to 0.01.
#[test]
fn threshold_floors_are_the_held_out_runs_fifth_percentile() {
    use estimator_core::thresholds::{BANDS as FLOORS, FLOOR_SHARE};
    use tests::calibration::curves::{BANDS, curves_path, load_tables, ratio_quantile, scored};
    if std::env::var_os("CALIBRATION_FILE").is_some() {
        return;
    }
    let path = calibration_path();
    let points = load(&path).expect("calibration file reads");
    let tables = load_tables(&points, &path, &curves_path()).expect("tables read");
    let held: Vec<_> = tables.iter().filter(|t| scored(t) && t.held_out).collect();
    assert_eq!(BANDS.len(), FLOORS.len());
    if std::env::var_os("FLOOR_DETAIL").is_some() {
        for t in &held {
            for r in tests::calibration::curves::replay_table(t) {
                if 1.0 + r.error < 0.6 {
                    println!("  low: {} {} {:.0} B ratio {:.2}", t.id, t.op.name(), r.size_bytes, 1.0 + r.error);
                }
            }
        }
    }
    let mut stale = Vec::new();
    for (b, f) in BANDS.iter().zip(FLOORS.iter()) {
        assert_eq!((b.from, b.to), (f.from_bytes, f.to_bytes), "{}: the same band", b.label);
        let (q, rows) = ratio_quantile(held.iter().copied(), *b, FLOOR_SHARE).expect("rows");
        let floor = (q * 100.0).floor() / 100.0;
        println!(
            "{}: 5th percentile of measured/model busbw {q:.3} over {rows} held-out rows; floor {floor:.2}",
            b.label
        );
        if (f.floor - floor).abs() >= 0.005 || f.rows != rows {
            stale.push(format!(
                "{}: thresholds says {} over {} rows, the held-out runs {floor:.2} over {rows}",
                b.label, f.floor, f.rows
            ));
        }
    }
    assert!(stale.is_empty(), "estimator-core's thresholds::BANDS is stale: {stale:#?}");
}

#[test]
fn readme_holds_the_current_curves_table() {
    use tests::calibration::curves::{curves_path, load_tables, markdown};
    if std::env::var_os("CALIBRATION_FILE").is_some() {
        return;
    }
    let path = calibration_path();
    let points = load(&path).expect("calibration file reads");
    let md = markdown(&load_tables(&points, &path, &curves_path()).expect("tables read"));
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).expect("README.md reads");
    let start = readme.find(CURVES_START).expect("README has the curves start marker") + CURVES_START.len();
    let end = readme.find(CURVES_END).expect("README has the curves end marker");
    assert_eq!(
        readme[start..end].trim(),
        md.trim(),
        "README's curves table is stale: run scripts/update-calibration-table.sh"
    );
}

const HEADLINE_START: &str = "<!-- steps-headline:start -->";
const HEADLINE_END: &str = "<!-- steps-headline:end -->";
const STEPS_START: &str = "<!-- steps-table:start -->";
const STEPS_END: &str = "<!-- steps-table:end -->";

/// Public multi-node training runs, each predicted in sample and out of source (leave one source out), with the
/// no-overlap model and the seed's arithmetic beside them.
///
/// The targets on the out-of-source figures (step median at most 5%, largest at most 15%; added time
/// within 1.5x on at least 70% of the runs above noise) are not met: README says so beside the table. The
/// figures are held to what the model reaches now, so that a change that makes them worse fails.
#[test]
fn training_runs_are_replayed() {
    use estimator_core::terms::Terms;
    use std::collections::BTreeSet;
    use tests::calibration::steps::{StepReplay, all_runs, fit_rank_variation, replay_all, table};
    let replays = replay_all().expect("every run is a valid scenario");
    let runs = all_runs().expect("runs read");
    let md = table::markdown(&replays, &runs).expect("the terms tried replay");
    println!("{STEPS_START}\n{md}{STEPS_END}");
    let later = tests::calibration::steps::load_runs(&tests::calibration::steps::later_path()).expect("later runs");
    println!("{HEADLINE_START}\n{}\n{HEADLINE_END}", table::headline(&replays, &later).expect("later runs replay"));

    assert!(replays.len() >= 60, "the set holds {} runs", replays.len());
    let sources: BTreeSet<String> = replays.iter().map(|r| r.run.source_key()).collect();
    let documents: BTreeSet<String> = replays.iter().map(|r| r.run.document_key()).collect();
    assert!(sources.len() >= 10 && documents.len() >= 15, "{} sources, {} documents", sources.len(), documents.len());
    // A source's runs name the same fitted terms: the fold leaves out what any of them names.
    for r in &replays {
        for o in replays.iter().filter(|o| o.run.source_key() == r.run.source_key()) {
            assert_eq!(o.run.fitted, r.run.fitted, "{} and {} are one source", o.run.id, r.run.id);
        }
    }
    for r in &replays {
        let id = &r.run.id;
        // Out of source is the shipped model without exactly the terms fitted to the run's source.
        for t in &r.run.fitted {
            assert_eq!(r.out_of_source.terms.without(t), Some(r.out_of_source.terms), "{id}: {t} is still on");
        }
        let n = &r.no_overlap;
        assert!(n.step_s >= n.compute_s + n.comm_s - 1e-9, "{id}: the baseline hides nothing");
        // The split's two parts add up to the whole added-time error.
        if let (Some((c, o)), Some(e)) = (r.split_errors(), r.added_error(&r.out_of_source)) {
            assert!((c + o - e).abs() < 1e-9, "{id}: {c} + {o} != {e}");
        }
    }
    let spread = |f: &dyn Fn(&StepReplay) -> f64| Spread::of(replays.iter().map(f)).expect("runs");
    let oos = spread(&|r| r.step_error(&r.out_of_source));
    let ins = spread(&|r| r.step_error(&r.in_sample));
    assert!(oos.median <= 0.055 && oos.max <= 0.80, "out of source: step {oos}");
    assert!(ins.median <= 0.03 && ins.max <= 0.60, "in sample: step {ins}");
    let (within, scored) = table::added_within(&replays, |r| &r.out_of_source);
    assert!(scored >= 40 && within >= 14, "out of source: added time within 1.5x on {within} of {scored}");

    // Each term stays only if it lowers the out-of-source error: the model against each variant without one of
    // its terms, and against each candidate it leaves out (a candidate that does better should be taken in).
    use tests::calibration::steps::fold::{VARIANTS, variant_steps};
    let median = |v| {
        let steps = variant_steps(v, &runs).expect("the variant replays");
        Spread::of(runs.iter().zip(&steps).map(|(r, (step, _))| step / r.measured_step_s - 1.0)).expect("runs").median
    };
    let model = median(&VARIANTS[0]);
    for v in &VARIANTS[1..] {
        assert!(
            model < median(v),
            "{}: out-of-source step median {:.2}% vs the model's {:.2}%",
            v.name,
            median(v) * 100.0,
            model * 100.0
        );
    }

    // The shipped per-rank variation is the fit on every run, as `terms.rs` says.
    let fit = fit_rank_variation(&runs, Terms { rank_variation: 0.0, ..Terms::SHIPPED }).expect("a fit");
    let shipped = Terms::SHIPPED.rank_variation;
    assert!((fit - shipped).abs() < 1e-9, "Terms::SHIPPED.rank_variation {shipped} but the runs give {fit}");
}

#[test]
fn readme_holds_the_current_steps_table() {
    use tests::calibration::steps::{all_runs, later_path, load_runs, replay_all, table};
    let replays = replay_all().expect("runs replay");
    let md = table::markdown(&replays, &all_runs().expect("runs read")).expect("the terms tried replay");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).expect("README");
    let start = readme.find(HEADLINE_START).expect("README has the headline start marker") + HEADLINE_START.len();
    let end = readme.find(HEADLINE_END).expect("README has the headline end marker");
    assert_eq!(
        readme[start..end].trim(),
        table::headline(&replays, &load_runs(&later_path()).expect("later runs")).expect("later runs replay").trim(),
        "README's accuracy headline is stale: run scripts/update-calibration-table.sh"
    );
    let start = readme.find(STEPS_START).expect("README has the steps start marker") + STEPS_START.len();
    let end = readme.find(STEPS_END).expect("README has the steps end marker");
    assert_eq!(
        readme[start..end].trim(),
        md.trim(),
        "README's steps table is stale: run scripts/update-calibration-table.sh"
    );
}

/// Sources kept aside to check the model on data it was not built from (the project's list of them): no collected
/// run may come from one. Each entry is a fragment of the source's address.
const KEPT_ASIDE: &[&str] = &[
    "NVIDIA/dgxc-benchmarking",
    "yanring/Megatron-MoE-ModelZoo",
    "microsoft/mscclpp",
    "horovod/horovod/issues/476",
    "NVIDIA/nccl/issues/1244",
    "NVIDIA/nccl/issues/1411",
    "NVIDIA/nccl/issues/1676",
    "NVIDIA/nccl/issues/2409",
    "NVIDIA/nccl-tests/issues/119",
    "NVIDIA/nccl-tests/issues/232",
    "NVIDIA/dgx-spark-playbooks",
    "cloud.google.com",
    "eth-cscs/cscs-docs",
    "koordinator-sh/koordinator",
    "NVIDIA/Megatron-LM",
    "bigscience-workshop/bigscience",
    "InternLM/InternLM",
    "mlfoundations/open_lm",
    "huggingface/accelerate",
    "deepinsight/insightface",
    "hiyouga/LlamaFactory",
    "cybertronai/bflm",
    // Added to the list on 2026-12-07.
    "AMD-AGI/axlearn",
    "Azure/azureml-examples",
    "cli99/llm-analysis",
    "NVIDIA-NeMo/Megatron-Bridge",
    "awslabs/awsome-distributed-ai",
    "argonne-lcf/Megatron-DeepSpeed",
    "argonne-lcf/user-guides",
    "alibaba/Megatron-LLaMA",
    "CCI-MOC/roce-testing",
    "JaneLiCC/Notes",
    "jasperzhong/read-papers-and-code/issues/261",
    "training_results_v3.1/NVIDIA",
    "horovod/horovod/issues/288",
    "horovod/horovod/issues/416",
    "horovod/horovod/issues/779",
    "NVIDIA/nccl/issues/595",
    "NVIDIA/nccl/issues/820",
    "NVIDIA/nccl/issues/1403",
    "NVIDIA/nccl/issues/1469",
    "NVIDIA/nccl/issues/1531",
    "NVIDIA/nccl/issues/1591",
    "NVIDIA/nccl/issues/2303",
    "NVIDIA/nccl-tests/issues/107",
    "NVIDIA/nccl-tests/issues/179",
    "NVIDIA/nccl-tests/issues/182",
    "NVIDIA/nccl-tests/issues/252",
    "NVIDIA/nccl-tests/issues/284",
    "NVIDIA/nccl-tests/issues/293",
    "NVIDIA/nccl-tests/pull/318",
    "ROCm/rccl-tests/pull/93",
    "aws/aws-ofi-nccl/issues/33",
    "aws/aws-ofi-nccl/issues/64",
    "aws/aws-ofi-nccl/issues/65",
    "aws/aws-k8s-tester/pull/585",
    "bottlerocket-os/bottlerocket-core-kit/pull/141",
    "bottlerocket-os/bottlerocket-kernel-kit/pull/304",
    "bottlerocket-os/bottlerocket-kernel-kit/pull/313",
    "IBM/pytorch-communication-benchmarks",
    "rapidsai/ucx-py/issues/361",
    "imbue-ai/cluster-health/issues/4",
    "areal-project/AReaL/issues/639",
    "mlc-ai/pith-train/pull/40",
    "facebookresearch/HolisticTraceAnalysis",
];

/// The runs collected for the out-of-source validation (`tests/data/steps/collected/`, scored by the step
/// replay above): at least
/// 15 from at least 5 sources, each a scenario the model takes without a warning, held out (but for a term added
/// after it was collected), with a positive step at least as long as its compute, a quote, and a source that is
/// not kept aside.
#[test]
fn collected_runs_are_held_out_scenarios() {
    use std::collections::HashSet;
    use tests::calibration::steps::load_runs;
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/steps/collected/runs.json");
    let runs = load_runs(&path).expect("collected runs read");
    assert!(runs.len() >= 15, "{} runs collected", runs.len());
    // A source is a document: the repository and the file, whatever the commit.
    let document = |url: &str| url.split('/').filter(|p| p.len() != 40).collect::<Vec<_>>().join("/");
    let sources: HashSet<String> = runs.iter().map(|r| document(&r.source)).collect();
    assert!(sources.len() >= 5, "{} sources: {sources:?}", sources.len());
    let mut ids = HashSet::new();
    for r in &runs {
        assert!(ids.insert(r.id.as_str()), "{}: id used twice", r.id);
        let s = estimator_core::Scenario::new(r.input.clone()).unwrap_or_else(|e| panic!("{}: {e}", r.id));
        assert!(s.warnings().is_empty(), "{}: {:?}", r.id, s.warnings());
        // A collected run names only terms added after it was collected, while looking at it.
        for t in &r.fitted {
            assert_eq!(t, estimator_core::terms::Terms::FRAMEWORK_OVERLAP, "{}: fitted {t}", r.id);
        }
        assert!(r.baseline_step_s > 0.0 && r.measured_step_s >= r.baseline_step_s, "{}: step below compute", r.id);
        assert!(r.source.starts_with("https://"), "{}: source {}", r.id, r.source);
        for kept in KEPT_ASIDE {
            assert!(!r.source.contains(kept), "{}: {} is kept aside", r.id, r.source);
        }
        // DLPerf's Megatron tables are kept aside; its other tables are not.
        assert!(!(r.source.contains("DLPerf") && r.source.contains("Megatron")), "{}: DLPerf Megatron", r.id);
    }
}

const LATER_START: &str = "<!-- later-runs:start -->";
const LATER_END: &str = "<!-- later-runs:end -->";

/// Runs collected after the model's terms were chosen (`tests/data/steps/later/`), scored with the model as
/// shipped and fitted on nothing: each a valid scenario from a source that is not kept aside, and not one of the
/// replay's; the shipped model's step median is below that of the model without the wait and of the baseline, so
/// the terms chosen on the replay's runs hold on these; README holds the table.
#[test]
fn later_runs_check_the_shipped_model() {
    use std::collections::HashSet;
    use tests::calibration::steps::fold::{BASELINE, VARIANTS};
    use tests::calibration::steps::{all_runs, later_path, load_runs, table};
    let runs = load_runs(&later_path()).expect("later runs read");
    assert!(runs.len() >= 15, "{} later runs", runs.len());
    let replay: HashSet<String> = all_runs().expect("runs read").iter().map(|r| r.document_key()).collect();
    let mut ids = HashSet::new();
    for r in &runs {
        assert!(ids.insert(r.id.as_str()), "{}: id used twice", r.id);
        let s = estimator_core::Scenario::new(r.input.clone()).unwrap_or_else(|e| panic!("{}: {e}", r.id));
        assert!(s.warnings().is_empty(), "{}: {:?}", r.id, s.warnings());
        assert!(r.fitted.is_empty(), "{}: fitted {:?}", r.id, r.fitted);
        assert!(r.baseline_step_s > 0.0 && r.measured_step_s >= r.baseline_step_s, "{}: step below compute", r.id);
        assert!(r.source.starts_with("https://"), "{}: source {}", r.id, r.source);
        assert!(!replay.contains(&r.document_key()), "{}: a document of the replay", r.id);
        for kept in KEPT_ASIDE {
            assert!(!r.source.contains(kept), "{}: {} is kept aside", r.id, r.source);
        }
    }
    let md = table::later_markdown(&runs).expect("later runs replay");
    println!("{LATER_START}\n{md}{LATER_END}");
    let median = |terms| {
        let steps = table::later_steps(&runs, terms).expect("replay");
        Spread::of(runs.iter().zip(&steps).map(|(r, (step, _))| step / r.measured_step_s - 1.0)).expect("runs").median
    };
    let models = table::later_models();
    let shipped = median(models[0].1);
    let without_wait = models.iter().find(|m| m.0 == VARIANTS[1].name).expect("the variant without the wait");
    let baseline = models.iter().find(|m| m.0 == BASELINE.name).expect("the baseline");
    for &(name, terms) in [without_wait, baseline] {
        assert!(shipped < median(terms), "{name}: {:.2}% vs shipped {:.2}%", median(terms) * 100.0, shipped * 100.0);
    }
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).expect("README");
    let start = readme.find(LATER_START).expect("README has the later-runs start marker") + LATER_START.len();
    let end = readme.find(LATER_END).expect("README has the later-runs end marker");
    assert_eq!(
        readme[start..end].trim(),
        md.trim(),
        "README's later-runs table is stale: run scripts/update-calibration-table.sh"
    );
}

/// The step's range ([`estimator_core::accuracy`]) is the 5th to 95th percentile of measured over predicted step
/// out of source, on every run of the replay, rounded outwards; each run's own range, taken from the other sources'
/// runs, is scored, and so are the per-regime ranges the pooled one was chosen against (the pooled one holds the
/// measured step at least as often as each, or is narrower on more runs), and the later runs as shipped.
///
/// The targets (the measured step inside the range on at least 90% of the runs, the range within +-25% of
/// the point on at least 80%) are not both met out of source: the figures are held to what the range reaches now.
#[test]
fn the_step_range_is_the_out_of_source_spread() {
    use estimator_core::accuracy::{STEP_RANGE_HIGH, STEP_RANGE_LOW, STEP_RANGE_RUNS, STEP_RANGE_SOURCES};
    use std::collections::BTreeSet;
    use tests::calibration::steps::range::{self, POOLINGS};
    use tests::calibration::steps::{later_path, load_runs, replay_all};
    let replays = replay_all().expect("runs replay");
    let (lo, hi) = range::pooled(&replays).expect("a range");
    let sources: BTreeSet<String> = replays.iter().map(|r| r.run.source_key()).collect();
    println!("pooled: {lo:.4} to {hi:.4} over {} runs, {} sources", replays.len(), sources.len());
    assert_eq!((STEP_RANGE_RUNS, STEP_RANGE_SOURCES), (replays.len(), sources.len()), "accuracy.rs's counts");
    assert!(
        (STEP_RANGE_LOW - (lo * 1000.0).floor() / 1000.0).abs() < 1e-9
            && (STEP_RANGE_HIGH - (hi * 1000.0).ceil() / 1000.0).abs() < 1e-9,
        "accuracy.rs ships {STEP_RANGE_LOW} to {STEP_RANGE_HIGH}; the runs give {lo:.4} to {hi:.4}"
    );
    let shipped = range::out_of_source_coverage(&replays, &POOLINGS[0]).expect("ranges");
    println!("{}: {shipped:?}", POOLINGS[0].name);
    for p in &POOLINGS[1..] {
        let c = range::out_of_source_coverage(&replays, p).expect("ranges");
        println!("{}: {c:?}", p.name);
        assert!(
            shipped.inside >= c.inside || shipped.narrow > c.narrow,
            "{}: {c:?} against the pooled {shipped:?}",
            p.name
        );
    }
    // 85% until issue 40: Megatron's own buckets brought its two runs, the low tail, in; the other sources'
    // ranges narrowed, and 51 of 63 (81%) now hold the measured step out of source.
    assert!(shipped.inside * 100 >= shipped.runs * 80, "out of source, the range holds {shipped:?}");
    let later = range::later_coverage(&load_runs(&later_path()).expect("later runs")).expect("later runs replay");
    println!("later runs as shipped: {later:?}");
    assert!(later.inside * 100 >= later.runs * 85 && later.narrow == later.runs, "later runs: {later:?}");
}

const SCALE_START: &str = "<!-- scale-runs:start -->";
const SCALE_END: &str = "<!-- scale-runs:end -->";

/// Issue 40's runs at scale: weak-scaling tables collected blind after its terms were set (the framework's
/// buckets), scored as shipped. The figures are held to what the model reaches now, so that a change that makes
/// them worse fails; the targets (step median 5%, max 15%, growth within 5 points at every scale, added
/// time within 1.5x on 70%) are what README says of them.
#[test]
fn scale_runs_are_scored_as_shipped() {
    use estimator_core::terms::Terms;
    use std::collections::HashSet;
    use tests::calibration::steps::scale::{figures, markdown, replay_scale, scale_path};
    use tests::calibration::steps::{all_runs, later_path, load_runs};
    let runs = load_runs(&scale_path()).expect("scale runs read");
    let earlier: HashSet<String> = all_runs()
        .expect("runs read")
        .iter()
        .chain(&load_runs(&later_path()).expect("later runs"))
        .map(|r| r.document_key())
        .collect();
    let mut ids = HashSet::new();
    for r in &runs {
        assert!(ids.insert(r.id.as_str()), "{}: id used twice", r.id);
        estimator_core::Scenario::new(r.input.clone()).unwrap_or_else(|e| panic!("{}: {e}", r.id));
        assert!(r.fitted.is_empty(), "{}: fitted {:?}", r.id, r.fitted);
        assert!(r.baseline_step_s > 0.0, "{}: no baseline", r.id);
        assert!(r.source.starts_with("https://"), "{}: source {}", r.id, r.source);
        assert!(!earlier.contains(&r.document_key()), "{}: a document of an earlier set", r.id);
        for kept in KEPT_ASIDE {
            assert!(!r.source.contains(kept), "{}: {} is kept aside", r.id, r.source);
        }
    }
    let replays = replay_scale(&runs, Terms::SHIPPED).expect("scale runs replay");
    let md = markdown(&replays).expect("a table");
    println!("{SCALE_START}\n{md}{SCALE_END}");
    let f = figures(&replays).expect("figures");
    assert!(runs.len() >= 12 && f.runs >= 12, "{} runs, {} scored", runs.len(), f.runs);
    // Held to what the model reaches now (issue 40's targets are not met: README says so).
    assert!(f.step_median <= 0.045 && f.step_max <= 1.15, "{f:?}");
    assert!(f.growth_within >= 8 && f.added_within >= 4, "{f:?}");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).expect("README");
    let start = readme.find(SCALE_START).expect("README has the scale start marker") + SCALE_START.len();
    let end = readme.find(SCALE_END).expect("README has the scale end marker");
    assert_eq!(
        readme[start..end].trim(),
        md.trim(),
        "README's scale table is stale: run scripts/update-calibration-table.sh"
    );
}
