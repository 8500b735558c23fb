//! `probe-cli estimate catalog`: the GPUs the model knows, its fabric priors and the model shapes (`--model`), as
//! tables or JSON (with each entry's source).

use std::fmt::Write as _;

use estimator_core::catalog::GPUS;
use estimator_core::fabric::FabricPrior;
use estimator_core::shape::{MODELS, ModelShape};
use estimator_core::{Fabric, GpuSpec, human};
use serde::Serialize;

use crate::cli::CatalogArgs;
use crate::outcome::{Failure, Outcome};
use crate::output::{print_json, print_text};

/// `estimate catalog --json`.
#[derive(Serialize)]
struct CatalogDocument {
    gpus: Vec<GpuEntry>,
    fabrics: Vec<FabricEntry>,
    models: Vec<ModelEntry>,
}

/// One GPU and where its numbers come from.
#[derive(Serialize)]
struct GpuEntry {
    #[serde(flatten)]
    spec: &'static GpuSpec,
    /// `memory_mib` / 1024: the key kept from before issue 39, when it was the board's size as sold.
    memory_gib: f64,
    /// 2 (Volta) to 5 (Blackwell); null without NVLink.
    nvlink_generation: Option<u8>,
    source: &'static str,
}

/// One model shape and where its numbers come from.
#[derive(Serialize)]
struct ModelEntry {
    #[serde(flatten)]
    shape: &'static ModelShape,
    source: &'static str,
}

/// One fabric class and its prior (efficiency, latency, source).
#[derive(Serialize)]
struct FabricEntry {
    fabric: Fabric,
    #[serde(flatten)]
    prior: &'static FabricPrior,
}

/// Runs `estimate catalog`.
pub fn catalog(a: &CatalogArgs) -> Result<Outcome, Failure> {
    let fabrics: Vec<FabricEntry> = Fabric::ALL.iter().map(|&f| FabricEntry { fabric: f, prior: f.prior() }).collect();
    if a.json {
        let models =
            MODELS.iter().map(|m| ModelEntry { shape: m, source: estimator_core::shape::source(m.key) }).collect();
        let gpus = GPUS
            .iter()
            .map(|g| GpuEntry {
                spec: g,
                memory_gib: g.memory_gib(),
                nvlink_generation: g.nvlink_generation(),
                source: g.source(),
            })
            .collect();
        print_json(&CatalogDocument { gpus, fabrics, models })?;
        return Ok(Outcome::Clean);
    }
    print_text(&text(GPUS, &fabrics))?;
    Ok(Outcome::Clean)
}

/// The catalog as two tables.
fn text(gpus: &[GpuSpec], fabrics: &[FabricEntry]) -> String {
    let link = |g: &GpuSpec| {
        g.nvlink_generation().map_or_else(
            || g.intra_node.label().to_string(),
            |n| g.intra_node.label().replacen("NVLink", &format!("NVLink {n}"), 1),
        )
    };
    // Each column as wide as its longest entry: no name runs into the next column.
    let wk = gpus.iter().map(|g| g.key.len()).max().unwrap_or(3).max(3);
    let wn = gpus.iter().map(|g| g.name.chars().count()).max().unwrap_or(4).max(4);
    let wl = gpus.iter().map(|g| link(g).chars().count()).max().unwrap_or(10).max(10);
    let mut t = format!(
        "  {:<wk$} {:<wn$} {:>10} {:>15}  {:<wl$} {:>10}\n",
        "key", "name", "memory", "dense TF/s", "intra-node", "busbw GB/s"
    );
    for g in gpus {
        // A part without BF16 shows the precision its figure is for.
        let tflops = format!("{} {}", human::num(g.bf16_dense_tflops.get(), 2), g.training_precision());
        let _ = writeln!(
            t,
            "  {:<wk$} {:<wn$} {:>6} GiB {:>15}  {:<wl$} {:>10}",
            g.key,
            g.name,
            human::num(g.memory_gib(), 1),
            tflops,
            link(g),
            human::fixed(g.allreduce_busbw.get(), 1)
        );
    }
    let _ = writeln!(t, "\n  {:<24} {:>10} {:>12}", "fabric", "efficiency", "latency");
    for f in fabrics {
        let latency = human::secs(estimator_core::Seconds::new(f.prior.latency_us * 1e-6));
        let _ = writeln!(t, "  {:<24} {:>10} {:>12}", f.fabric.label(), human::num(f.prior.efficiency, 2), latency);
    }
    let _ = writeln!(
        t,
        "\n  {:<16} {:>8} {:>8} {:>7} {:>7} {:>6} {:>8}  experts",
        "model (--model)", "params", "active", "layers", "hidden", "heads", "vocab"
    );
    for m in MODELS {
        let experts = m.moe.map_or_else(|| "dense".to_string(), |e| format!("{} (top {})", e.experts, e.top_k));
        let _ = writeln!(
            t,
            "  {:<16} {:>8} {:>8} {:>7} {:>7} {:>6} {:>8}  {experts}",
            m.key,
            human::params(m.params),
            human::params(m.active_params),
            m.layers,
            m.hidden,
            m.heads,
            m.vocab
        );
    }
    t.push_str("\n  Sources: probe-cli estimate catalog --json (field `source`).\n");
    t
}
