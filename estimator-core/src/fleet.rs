//! Many nodes' reports at once: which shapes the fleet has, and which nodes differ from the rest (the one bad node
//! among many: a port down, a link trained narrow, another driver, a readiness failure).
//!
//! Each report is reduced to [`NodeFacts`], a few named values; a field's expected value is the one most nodes
//! have, and a node whose value differs is an [`Outlier`] for that field. Among values equally common, the better
//! one is expected (`better`: more GPUs, ports, rate, lanes or PCIe generation, no readiness failure), since a
//! fault takes a port or lanes away and never adds one: given ports 8, 7 and 2, the node with 8 is the healthy
//! one. Fields with no better value (a driver, a firmware) take the one that sorts first, and the fleet lists
//! every such tie in `ties`.
//! Nodes are compared within their kind (GPUs, their model, line rate and link layer): a fleet of two deliberate
//! shapes is two groups, each held to its own majority, and a node with a port down stays in its kind's group as
//! its outlier.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::human;
use crate::report::{CheckStatus, Report, ReportError, Scalar, Summary, read_fields, read_readiness};

/// The fields compared, in the order they are shown.
pub const FIELDS: [&str; 13] = [
    "gpu_model",
    "gpus",
    "rdma_ports",
    "line_rate_gbps",
    "link_layer",
    "gdr",
    "gpu_pcie_width",
    "nic_pcie_gen",
    "nic_pcie_width",
    "driver",
    "nic_firmware",
    "nvlink_domain_gpus",
    "readiness_failures",
];

/// A field of [`FIELDS`] in words, for the page and the text (`rdma_ports` is "active RDMA ports").
pub fn field_label(field: &str) -> &str {
    match field {
        "gpu_model" => "GPU model",
        "gpus" => "GPUs",
        "rdma_ports" => "active RDMA ports",
        "line_rate_gbps" => "line rate, Gb/s",
        "link_layer" => "link layer",
        "gdr" => "GPUDirect RDMA",
        "gpu_pcie_width" => "GPU PCIe width",
        "nic_pcie_gen" => "NIC PCIe generation",
        "nic_pcie_width" => "NIC PCIe width",
        "driver" => "GPU driver",
        "nic_firmware" => "NIC firmware",
        "nvlink_domain_gpus" => "NVLink domain GPUs",
        "readiness_failures" => "readiness failures",
        other => other,
    }
}

/// One node, reduced to the values a fleet compares (`FIELDS`; a missing value reads `-`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeFacts {
    /// The node's name: its report's file name without `.json`.
    pub node: String,
    /// The values, in [`FIELDS`] order.
    pub values: Vec<String>,
}

fn or_dash(v: Option<String>) -> String {
    v.unwrap_or_else(|| "-".to_string())
}

/// The narrowest of some links' current widths, and the lowest current generation.
fn narrowest(links: impl Iterator<Item = (Option<u8>, Option<u8>)>) -> (Option<u8>, Option<u8>) {
    links.fold((None, None), |(w, g), (cw, cg)| {
        (cw.map_or(w, |c| Some(w.map_or(c, |w: u8| w.min(c)))), cg.map_or(g, |c| Some(g.map_or(c, |g: u8| g.min(c)))))
    })
}

/// What a fleet reads of one report, from a [`Report`] or through a field getter (the page's worker).
struct Read {
    summary: Summary,
    /// Each GPU's current PCIe width.
    gpu_widths: Vec<Option<u8>>,
    /// Each RDMA adapter with an active port: current PCIe width and generation, firmware.
    active_nics: Vec<(Option<u8>, Option<u8>, Option<String>)>,
    /// Active RDMA ports, all adapters together.
    active_ports: usize,
    driver: Option<String>,
    /// The ids of the failed readiness checks.
    failures: Vec<String>,
}

impl NodeFacts {
    /// What a fleet compares of one report. A GPU's link speed is left out (GPUs lower it when idle, so it tells
    /// nothing about the node); its width and the NICs' speed and width are kept.
    pub fn of(node: &str, r: &Report) -> NodeFacts {
        NodeFacts::from_read(
            node,
            Read {
                summary: r.summary.clone(),
                gpu_widths: r.gpus.iter().map(|g| g.pcie.current_width).collect(),
                active_nics: r
                    .rdma_adapters
                    .iter()
                    .filter(|a| a.ports.iter().any(|p| p.active))
                    .map(|a| (a.pcie.current_width, a.pcie.current_gen, a.fw_ver.clone()))
                    .collect(),
                active_ports: r.rdma_adapters.iter().map(|a| a.ports.iter().filter(|p| p.active).count()).sum(),
                driver: r.nvml.driver_version.clone(),
                failures: r.readiness.iter().filter(|c| c.status == CheckStatus::Fail).map(|c| c.id.clone()).collect(),
            },
        )
    }

    /// The same through a field getter over a report document (`gpus.0.pcie.current_width`, as `read_fields`
    /// reads the summary): the page's worker, over the browser's `JSON.parse`. The version and the summary are
    /// checked as every reader checks them; at most 1,024 GPUs and adapters are read.
    pub fn from_fields(node: &str, get: impl Fn(&str) -> Scalar) -> Result<NodeFacts, ReportError> {
        let summary = read_fields(&get)?;
        let small = |path: String| match get(&path) {
            Scalar::Number(n) if (0.0..=255.0).contains(&n) && n.fract() == 0.0 => Some(n as u8),
            _ => None,
        };
        let text = |path: String| match get(&path) {
            Scalar::Text(t) => Some(t),
            _ => None,
        };
        let present = |path: String| !matches!(get(&path), Scalar::Missing);
        let gpu_widths = (0..1024)
            .take_while(|i| present(format!("gpus.{i}")))
            .map(|i| small(format!("gpus.{i}.pcie.current_width")))
            .collect();
        let active_nics = (0..1024)
            .take_while(|i| present(format!("rdma_adapters.{i}")))
            .filter(|i| {
                (0..64)
                    .take_while(|p| present(format!("rdma_adapters.{i}.ports.{p}")))
                    .any(|p| matches!(get(&format!("rdma_adapters.{i}.ports.{p}.active")), Scalar::Bool(true)))
            })
            .map(|i| {
                (
                    small(format!("rdma_adapters.{i}.pcie.current_width")),
                    small(format!("rdma_adapters.{i}.pcie.current_gen")),
                    text(format!("rdma_adapters.{i}.fw_ver")),
                )
            })
            .collect();
        let active_ports = (0..1024)
            .take_while(|i| present(format!("rdma_adapters.{i}")))
            .map(|i| {
                (0..64)
                    .take_while(|p| present(format!("rdma_adapters.{i}.ports.{p}")))
                    .filter(|p| matches!(get(&format!("rdma_adapters.{i}.ports.{p}.active")), Scalar::Bool(true)))
                    .count()
            })
            .sum();
        let failures =
            read_readiness(&get).into_iter().filter(|c| c.status == CheckStatus::Fail).map(|c| c.id).collect();
        let driver = text("nvml.driver_version".to_string());
        Ok(NodeFacts::from_read(node, Read { summary, gpu_widths, active_nics, active_ports, driver, failures }))
    }

    fn from_read(node: &str, r: Read) -> NodeFacts {
        let s = &r.summary;
        let (gpu_width, _) = narrowest(r.gpu_widths.iter().map(|w| (*w, None)));
        let (nic_width, nic_gen) = narrowest(r.active_nics.iter().map(|(w, g, _)| (*w, *g)));
        let mut firmware: Vec<&str> = r.active_nics.iter().filter_map(|(_, _, f)| f.as_deref()).collect();
        firmware.sort_unstable();
        firmware.dedup();
        // A report whose summary contradicts its own lists (edited, or written by a broken probe) is flagged: the
        // fleet does not take either side's word for it.
        let mut failures = r.failures.clone();
        let listed_gpus = r.gpu_widths.len();
        if (listed_gpus > 0 || s.gpus > 0) && listed_gpus != s.gpus as usize {
            failures.push(format!("report-contradicts-itself(summary {} GPUs, gpus[] {listed_gpus})", s.gpus));
        }
        // The summary counts the active ports of the fabric's own rate and link layer (a storage port apart): at
        // most the active ports the adapters list.
        if s.rdma_adapters as usize > r.active_ports {
            failures.push(format!(
                "report-contradicts-itself(summary {} RDMA ports, rdma_adapters[] {} active)",
                s.rdma_adapters, r.active_ports
            ));
        }
        let failures = &failures;
        let values = vec![
            or_dash(s.gpu_model.clone()),
            s.gpus.to_string(),
            s.rdma_adapters.to_string(),
            or_dash(s.adapter_gbps.map(|g| human::num(g, 3))),
            s.fabric.name().to_string(),
            s.gdr.name().to_string(),
            or_dash(gpu_width.map(|w| format!("x{w}"))),
            or_dash(nic_gen.map(|g| format!("Gen{g}"))),
            or_dash(nic_width.map(|w| format!("x{w}"))),
            or_dash(r.driver.clone()),
            if firmware.is_empty() { "-".to_string() } else { firmware.join(",") },
            or_dash(s.nvlink_domain_gpus.map(|d| d.to_string())),
            if failures.is_empty() { "none".to_string() } else { failures.join(",") },
        ];
        NodeFacts { node: node.to_string(), values }
    }

    /// The value of `field` (one of [`FIELDS`]).
    pub fn get(&self, field: &str) -> Option<&str> {
        FIELDS.iter().position(|f| *f == field).and_then(|i| self.values.get(i)).map(String::as_str)
    }

    /// What the node is sold as, for grouping: its GPUs and their model, and its adapters' line rate and link
    /// layer (not how many ports are up: a port down is a fault of a node of the same kind).
    pub fn kind(&self) -> String {
        let v = |f: &str| self.get(f).unwrap_or("-");
        format!("{} x {} / {} / {}", v("gpus"), v("gpu_model"), v("line_rate_gbps"), v("link_layer"))
    }

    /// The node's shape: what it is sold as (GPUs and their model, active RDMA ports, their rate and link layer).
    pub fn shape(&self) -> String {
        let v = |f: &str| self.get(f).unwrap_or("-");
        let net = match v("link_layer") {
            // EFA too: an AWS p5 is 32 x 100 Gb/s EFA, not "no network" (a stranger's try of issue 39).
            "infiniband" | "roce" | "efa" => {
                format!("{} x {} Gb/s {}", v("rdma_ports"), v("line_rate_gbps"), v("link_layer"))
            }
            "ethernet" if v("line_rate_gbps") == "-" => {
                "ethernet of unknown speed (no RDMA: a virtual NIC?)".to_string()
            }
            "ethernet" => format!("ethernet at {} Gb/s (no RDMA)", v("line_rate_gbps")),
            _ => "no network".to_string(),
        };
        format!("{} x {}, {net}", v("gpus"), v("gpu_model"))
    }
}

/// A set of nodes of one shape.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Group {
    /// The shape ([`NodeFacts::shape`]).
    pub shape: String,
    /// How many nodes.
    pub count: usize,
    /// Their names, sorted.
    pub nodes: Vec<String>,
}

/// One field of one node that differs from what most nodes have.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outlier {
    /// The node.
    pub node: String,
    /// The field (one of [`FIELDS`]).
    pub field: String,
    /// Its value.
    pub value: String,
    /// The value most nodes of its group (its kind) have.
    pub expected: String,
}

/// The fleet: `probe-cli fleet --json` (`nodes`, `groups`, `outliers`; `skipped` for files that were not reports).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fleet {
    /// How many nodes were read.
    pub nodes: usize,
    /// Their shapes, most common first.
    pub groups: Vec<Group>,
    /// Every field of every node that differs from the majority, by node then field order.
    pub outliers: Vec<Outlier>,
    /// For each field, the value most nodes have (among equally common values, the better: see the module).
    pub expected: BTreeMap<String, String>,
    /// The fields whose most common values tie with none better than the others: their `expected` is only the
    /// first in order, and its outliers say which nodes differ, not which is wrong.
    pub ties: Vec<String>,
}

/// For each field, the value most of `nodes` have (among equally common values, the better: see the module), and
/// the fields whose most common values tie with none better.
fn majority(nodes: &[&NodeFacts]) -> (Vec<String>, Vec<String>) {
    let mut top_values = Vec::with_capacity(FIELDS.len());
    let mut ties = Vec::new();
    for (i, field) in FIELDS.iter().enumerate() {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for n in nodes {
            *counts.entry(n.values.get(i).map_or("-", String::as_str)).or_default() += 1;
        }
        // The most common; among equals the better, else the first in order.
        let most = counts.values().copied().max().unwrap_or(0);
        let tied: Vec<&str> = counts.iter().filter(|(_, c)| **c == most).map(|(v, _)| *v).collect();
        let top = tied.iter().copied().reduce(|a, b| if better(field, b, a) { b } else { a }).unwrap_or_default();
        if tied.len() > 1 && !tied.iter().any(|v| *v != top && better(field, top, v)) {
            ties.push(field.to_string());
        }
        top_values.push(top.to_string());
    }
    (top_values, ties)
}

/// Compares the nodes. Nodes are grouped by what they are sold as (GPUs, their model, the adapters' line rate and
/// link layer): a node with a port down or a link trained narrow stays in its kind's group, named after what most
/// of its nodes have, and is an outlier there; each group's nodes are compared with their own group's majority, so
/// that an L40S node is never held to H100 nodes' values. `expected` and `ties` are the whole fleet's.
pub fn fleet(nodes: &[NodeFacts]) -> Fleet {
    let all: Vec<&NodeFacts> = nodes.iter().collect();
    let (fleet_top, ties) = majority(&all);
    let expected: BTreeMap<String, String> =
        FIELDS.iter().map(|f| f.to_string()).zip(fleet_top.iter().cloned()).collect();
    let mut by_kind: BTreeMap<String, Vec<&NodeFacts>> = BTreeMap::new();
    for n in nodes {
        by_kind.entry(n.kind()).or_default().push(n);
    }
    let mut outliers = Vec::new();
    let mut groups = Vec::new();
    for members in by_kind.into_values() {
        let (top, _) = majority(&members);
        let mut sorted = members;
        sorted.sort_by(|a, b| a.node.cmp(&b.node));
        for n in &sorted {
            for (i, field) in FIELDS.iter().enumerate() {
                let value = n.values.get(i).map_or("-", String::as_str);
                if value != top[i] {
                    outliers.push(Outlier {
                        node: n.node.clone(),
                        field: field.to_string(),
                        value: value.to_string(),
                        expected: top[i].clone(),
                    });
                }
            }
        }
        let shape = NodeFacts { node: String::new(), values: top }.shape();
        groups.push(Group { shape, count: sorted.len(), nodes: sorted.iter().map(|n| n.node.clone()).collect() });
    }
    groups.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.shape.cmp(&b.shape)));
    // By node, then field order.
    let order = |f: &str| FIELDS.iter().position(|x| *x == f).unwrap_or(usize::MAX);
    outliers.sort_by(|a, b| a.node.cmp(&b.node).then_with(|| order(&a.field).cmp(&order(&b.field))));
    Fleet { nodes: nodes.len(), groups, outliers, expected, ties }
}

/// Whether `a` is a better value of `field` than `b`, when a value can be better: a larger count, rate, width or
/// generation (a fault lowers them), or no readiness failure.
fn better(field: &str, a: &str, b: &str) -> bool {
    const MORE_IS_BETTER: [&str; 7] = [
        "gpus",
        "rdma_ports",
        "line_rate_gbps",
        "gpu_pcie_width",
        "nic_pcie_gen",
        "nic_pcie_width",
        "nvlink_domain_gpus",
    ];
    // `x16`, `Gen5` and plain numbers: the digits after the first.
    let number = |v: &str| crate::quantity::parse_number(v.trim_start_matches(|c: char| !c.is_ascii_digit()));
    match field {
        f if MORE_IS_BETTER.contains(&f) => matches!((number(a), number(b)), (Some(x), Some(y)) if x > y),
        "readiness_failures" => a == "none" && b != "none",
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::testing::{fixture, getter};

    #[test]
    fn an_efa_node_has_its_network_and_a_virtual_nic_no_dash() {
        assert_eq!(NodeFacts::of("p5", &fixture("aws-p5-efa")).shape(), "8 x NVIDIA H100 80GB HBM3, 32 x 100 Gb/s efa");
        let a3 = NodeFacts::of("a3", &fixture("gcp-a3mega-tcpxo")).shape();
        assert!(a3.ends_with("ethernet of unknown speed (no RDMA: a virtual NIC?)"), "{a3}");
    }

    #[test]
    fn every_field_has_words() {
        assert!(FIELDS.iter().all(|f| field_label(f) != *f && !field_label(f).contains('_')));
    }

    #[test]
    fn a_report_whose_summary_contradicts_its_lists_is_flagged() {
        let good = fixture("h100-ib-8x400");
        assert_eq!(NodeFacts::of("ok", &good).get("readiness_failures"), Some("none"), "a real report agrees");
        let mut edited = good.clone();
        edited.summary.gpus = 7;
        edited.summary.rdma_adapters = 9;
        let f = NodeFacts::of("edited", &edited);
        let failures = f.get("readiness_failures").expect("field");
        assert!(failures.contains("report-contradicts-itself(summary 7 GPUs, gpus[] 8)"), "{failures}");
        assert!(failures.contains("summary 9 RDMA ports, rdma_adapters[] 8 active"), "{failures}");
        // The page's reader says the same.
        let value = serde_json::to_value(&edited).expect("json");
        let read = NodeFacts::from_fields("edited", getter(&value)).expect("reads");
        assert_eq!(read.get("readiness_failures"), Some(failures));
    }

    #[test]
    fn the_bad_node_among_good_ones_is_named_field_by_field() {
        let good = fixture("h100-ib-8x400");
        let mut nodes: Vec<NodeFacts> = (0..7).map(|i| NodeFacts::of(&format!("node-{i:02}"), &good)).collect();
        nodes.push(NodeFacts::of("node-07", &fixture("h100-ib-port-down")));
        let f = fleet(&nodes);
        assert_eq!(f.nodes, 8);
        // Issue 39: the node with a port down is one of the fleet's kind, not a shape of its own.
        assert_eq!(f.groups.len(), 1, "{:?}", f.groups);
        assert_eq!(
            (f.groups[0].count, f.groups[0].shape.as_str()),
            (8, "8 x NVIDIA H100 80GB HBM3, 8 x 400 Gb/s infiniband")
        );
        let said: Vec<(&str, &str, &str)> =
            f.outliers.iter().map(|o| (o.field.as_str(), o.value.as_str(), o.expected.as_str())).collect();
        assert_eq!(
            said,
            [
                ("rdma_ports", "7", "8"),
                ("nic_pcie_width", "x8", "x16"),
                ("readiness_failures", "rdma-devices,memlock,nccl-env,pcie-nic", "none"),
            ]
        );
        assert!(f.outliers.iter().all(|o| o.node == "node-07"));
    }

    #[test]
    fn the_page_reader_gives_the_same_facts_as_the_report() {
        for name in ["h100-ib-8x400", "h100-ib-port-down", "roce-2x200", "eth-25g", "gb200-tray", "laptop", "garbage"] {
            let r = fixture(name);
            let doc = serde_json::to_value(&r).expect("json");
            assert_eq!(NodeFacts::from_fields(name, getter(&doc)), Ok(NodeFacts::of(name, &r)), "{name}");
        }
        let doc = serde_json::json!({"schema_version": 2, "summary": {}});
        assert!(NodeFacts::from_fields("x", getter(&doc)).is_err(), "the version is checked");
    }

    #[test]
    fn a_fleet_of_one_shape_has_no_outlier_and_ties_without_a_better_value_go_to_the_first() {
        let r = fixture("roce-2x200");
        let nodes: Vec<NodeFacts> = (0..3).map(|i| NodeFacts::of(&format!("n{i}"), &r)).collect();
        let f = fleet(&nodes);
        assert!(f.outliers.is_empty() && f.groups.len() == 1);
        let two = [NodeFacts::of("a", &fixture("eth-25g")), NodeFacts::of("b", &r)];
        let f = fleet(&two);
        assert_eq!(f.expected["link_layer"], "ethernet", "one each: the first in order");
        // Two kinds: two groups, each its own majority, so no node is held to the other's values (issue 39: an
        // L40S against H100 values).
        assert_eq!(f.groups.len(), 2, "{:?}", f.groups);
        assert!(f.outliers.is_empty(), "{:?}", f.outliers);
        assert_eq!(fleet(&[]).nodes, 0);
        assert!(f.ties.contains(&"link_layer".to_string()) && !f.ties.contains(&"rdma_ports".to_string()));
    }

    #[test]
    fn with_no_majority_the_node_with_most_ports_is_the_healthy_one() {
        let good = fixture("h100-ib-8x400");
        let ports = |name: &str, n: &str| {
            let mut f = NodeFacts::of(name, &good);
            let i = FIELDS.iter().position(|x| *x == "rdma_ports").expect("field");
            f.values[i] = n.to_string();
            f
        };
        let f = fleet(&[ports("a", "8"), ports("b", "7"), ports("c", "2")]);
        assert_eq!(f.expected["rdma_ports"], "8");
        let flagged: Vec<(&str, &str)> = f.outliers.iter().map(|o| (o.node.as_str(), o.value.as_str())).collect();
        assert_eq!(flagged, [("b", "7"), ("c", "2")], "the healthy node is not flagged");
        assert!(f.ties.is_empty(), "a better value breaks the tie: {:?}", f.ties);
        // A majority still wins over a better value: two nodes at 7 and one at 8 is a fleet of 7s.
        let f = fleet(&[ports("a", "8"), ports("b", "7"), ports("c", "7")]);
        assert_eq!(f.expected["rdma_ports"], "7");
        // Widths and generations read their digits; a readiness failure is worse than none.
        assert!(better("nic_pcie_width", "x16", "x8") && !better("nic_pcie_width", "x8", "x16"));
        assert!(better("readiness_failures", "none", "memlock") && !better("driver", "550", "535"));
    }
}
