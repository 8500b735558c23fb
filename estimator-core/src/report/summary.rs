//! The report's [`Summary`]: the part that maps onto the estimator's cluster inputs, its plausibility check
//! ([`Summary::validate`]) and [`Summary::apply`], which fills a [`ScenarioInput`] from it and says what it took.

use serde::{Deserialize, Deserializer, Serialize};

use super::error::{Problem, ReportError};
use crate::catalog;
use crate::fabric::Fabric;
use crate::human;
use crate::scenario::ScenarioInput;
use crate::scenario::limits::{
    MAX_ADAPTERS_PER_NODE, MAX_GPUS_PER_NODE, MAX_LINK_GBPS, MAX_NVLINK_DOMAIN_GPUS, MIN_LINK_GBPS,
};

/// The fabric a node offers, as the summary names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ReportFabric {
    /// At least one active InfiniBand port.
    Infiniband,
    /// Active RDMA ports on Ethernet (RoCE), no InfiniBand.
    Roce,
    /// Active AWS EFA devices (RDMA devices of the `efa` driver), through libfabric and aws-ofi-nccl.
    Efa,
    /// No active RDMA port, but an Ethernet interface that is up.
    Ethernet,
    /// No network interface that could carry a multi-node job.
    None,
}

impl ReportFabric {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            ReportFabric::Infiniband => "infiniband",
            ReportFabric::Roce => "roce",
            ReportFabric::Efa => "efa",
            ReportFabric::Ethernet => "ethernet",
            ReportFabric::None => "none",
        }
    }

    /// An RDMA fabric: InfiniBand, RoCE or EFA.
    pub fn is_rdma(self) -> bool {
        matches!(self, ReportFabric::Infiniband | ReportFabric::Roce | ReportFabric::Efa)
    }

    /// All values, in the order the schema lists them.
    pub const ALL: [ReportFabric; 5] =
        [ReportFabric::Infiniband, ReportFabric::Roce, ReportFabric::Efa, ReportFabric::Ethernet, ReportFabric::None];

    /// The estimator's fabric class for it (EFA's first generation: [`Summary::apply`] tells the later ones from
    /// their ports); `None` when there is no network at all.
    pub fn to_fabric(self) -> Option<Fabric> {
        match self {
            ReportFabric::Infiniband => Some(Fabric::Infiniband),
            ReportFabric::Roce => Some(Fabric::Roce),
            ReportFabric::Efa => Some(Fabric::Efa),
            ReportFabric::Ethernet => Some(Fabric::Tcp),
            ReportFabric::None => None,
        }
    }
}

/// Whether GPUDirect RDMA can work on the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum GdrSupport {
    /// A peer-memory module is loaded and the GPUs sit close enough to their NICs for NCCL's default GDR level.
    Supported,
    /// Known not to work: no RDMA adapter, no NVIDIA GPU, no peer-memory module and no DMA-BUF, or every GPU too far
    /// from every NIC.
    NotSupported,
    /// The probe could not tell (for example DMA-BUF could only be checked through libibverbs, which is missing).
    Unknown,
}

impl GdrSupport {
    /// All values.
    pub const ALL: [GdrSupport; 3] = [GdrSupport::Supported, GdrSupport::NotSupported, GdrSupport::Unknown];

    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            GdrSupport::Supported => "supported",
            GdrSupport::NotSupported => "not-supported",
            GdrSupport::Unknown => "unknown",
        }
    }
}

/// The part of the report that maps onto the estimator's cluster inputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Summary {
    /// The fabric for a multi-node job from this node.
    pub fabric: ReportFabric,
    /// Active RDMA ports (each one is an adapter to the estimator).
    #[serde(deserialize_with = "whole")]
    pub rdma_adapters: u32,
    /// Line rate of one of those ports in Gb/s (the slowest, if they differ); for `ethernet`, of the Ethernet
    /// interfaces that are up. `null` when there is none.
    pub adapter_gbps: Option<f64>,
    /// Physical Ethernet interfaces that are up (what NCCL's socket transport would use when `fabric` is
    /// `ethernet`).
    #[serde(default, deserialize_with = "whole")]
    pub ethernet_ports: u32,
    /// GPUs in the node.
    #[serde(deserialize_with = "whole")]
    pub gpus: u32,
    /// The GPU model as NVML names it, or from the PCI ID database without a driver; `null` with no GPU.
    pub gpu_model: Option<String>,
    /// GPUDirect RDMA.
    pub gdr: GdrSupport,
    /// GPUs in the NVLink domain the node's GPUs have joined (NVML's fabric state `completed`): 72 on a GB200/GB300
    /// NVL72 rack. `null` when the node is its own NVLink domain, or NVML did not say.
    #[serde(default)]
    pub nvlink_domain_gpus: Option<u32>,
}

/// A count written as any JSON number that is a whole one (`8` or `8.0`): the page reads JSON with the browser's
/// `JSON.parse`, which cannot tell the two apart, so the CLI must not either (found by the `report_json` fuzz target).
fn whole<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    count(f64::deserialize(d)?).map_err(serde::de::Error::custom)
}

/// A JSON number as a count: a whole number from 0 to `u32::MAX`.
pub(super) fn count(v: f64) -> Result<u32, Problem> {
    if v.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&v) { Ok(v as u32) } else { Err(Problem::NotWhole(v)) }
}

impl Summary {
    /// Rejects values no real node has (the estimator's own input limits), naming the field.
    pub fn validate(&self) -> Result<(), ReportError> {
        if i64::from(self.gpus) > MAX_GPUS_PER_NODE {
            return Err(ReportError::new("summary.gpus", Problem::TooManyGpus(self.gpus)));
        }
        for (field, n) in
            [("summary.rdma_adapters", self.rdma_adapters), ("summary.ethernet_ports", self.ethernet_ports)]
        {
            if i64::from(n) > MAX_ADAPTERS_PER_NODE {
                return Err(ReportError::new(field, Problem::TooManyPorts(n)));
            }
        }
        if let Some(g) = self.adapter_gbps
            && !(MIN_LINK_GBPS..=MAX_LINK_GBPS).contains(&g)
        {
            return Err(ReportError::new("summary.adapter_gbps", Problem::NotALineRate(g)));
        }
        if let Some(m) = &self.gpu_model
            && (m.len() > 200 || m.chars().any(char::is_control))
        {
            return Err(ReportError::new("summary.gpu_model", Problem::NotAGpuName));
        }
        if let Some(d) = self.nvlink_domain_gpus
            && (i64::from(d) > MAX_NVLINK_DOMAIN_GPUS || d < self.gpus.max(1) || d % self.gpus.max(1) != 0)
        {
            return Err(ReportError::new(
                "summary.nvlink_domain_gpus",
                Problem::NotADomain { domain: d, gpus: self.gpus },
            ));
        }
        let rdma = self.fabric.is_rdma();
        if rdma && self.rdma_adapters == 0 {
            return Err(ReportError::new("summary.rdma_adapters", Problem::NoActivePort(self.fabric)));
        }
        // A virtual machine's NIC often has no known speed: only RDMA ports must state theirs.
        if rdma && self.adapter_gbps.is_none() {
            return Err(ReportError::new("summary.adapter_gbps", Problem::NoLineRate(self.fabric)));
        }
        Ok(())
    }

    /// Fills the cluster part of `input` from the summary (GPU model, GPUs per node, adapters, line rate, fabric,
    /// GPUDirect RDMA) and says, one line each, what it took and what it left as it was. The model, its size, the
    /// node count and the compute stay the user's.
    pub fn apply(&self, input: &mut ScenarioInput) -> Vec<String> {
        let mut said = Vec::new();
        match (&self.gpu_model, self.gpus) {
            (Some(model), n) if n > 0 => {
                let lookup = catalog::lookup(model);
                let spec = lookup.spec();
                input.gpu =
                    if matches!(lookup, catalog::Lookup::Unknown) { model.clone() } else { spec.key.to_string() };
                input.gpus_per_node = i64::from(n);
                if matches!(lookup, catalog::Lookup::Unknown) {
                    said.push(format!(
                        "GPU: {n} x \"{model}\", which the catalog does not know: generic figures are used"
                    ));
                } else {
                    said.push(format!("GPU: {n} x {} (reported as \"{model}\")", spec.name));
                }
            }
            _ => said.push("GPU: the report lists no GPU, so the GPU and GPUs per node are kept".to_string()),
        }
        match self.fabric {
            ReportFabric::Infiniband | ReportFabric::Roce | ReportFabric::Efa => {
                input.adapters_per_node = i64::from(self.rdma_adapters);
                if let Some(g) = self.adapter_gbps {
                    input.link_gbps = g;
                }
                input.fabric = match self.fabric {
                    // EFA's generation from its devices, as AWS sells them (the offer catalog's sources): p4d 4 x
                    // 100 Gb/s (v1), p5 32 x 100 (v2), p5en 16 x 200 and p6 8 x 400 (v3).
                    ReportFabric::Efa if self.adapter_gbps.is_some_and(|g| g >= 200.0) => Fabric::EfaV3,
                    ReportFabric::Efa if self.rdma_adapters >= 16 => Fabric::EfaV2,
                    f => f.to_fabric().unwrap_or(Fabric::Infiniband),
                };
                said.push(format!(
                    "Network: {} active {} port{} at {} Gb/s",
                    self.rdma_adapters,
                    match self.fabric {
                        ReportFabric::Infiniband => "InfiniBand",
                        ReportFabric::Roce => "RoCE",
                        _ => "EFA",
                    },
                    if self.rdma_adapters == 1 { "" } else { "s" },
                    self.adapter_gbps.map_or_else(|| "?".to_string(), |g| human::num(g, 3))
                ));
            }
            ReportFabric::Ethernet => {
                input.fabric = Fabric::Tcp;
                input.adapters_per_node = i64::from(self.ethernet_ports.max(1));
                let ports = format!(
                    "Network: no RDMA port; {} Ethernet port{} up",
                    self.ethernet_ports,
                    if self.ethernet_ports == 1 { "" } else { "s" }
                );
                match self.adapter_gbps {
                    Some(g) => {
                        input.link_gbps = g;
                        said.push(format!("{ports} at {} Gb/s, so NCCL would use TCP sockets", human::num(g, 3)));
                    }
                    None => said.push(format!(
                        "{ports} at a speed the kernel does not know (a virtual NIC?): kept {} Gb/s, set it to what \
                         the provider sells; NCCL would use TCP sockets",
                        human::num(input.link_gbps, 3)
                    )),
                }
            }
            ReportFabric::None => {
                input.nodes = 1;
                input.adapters_per_node = 0;
                said.push("Network: none that could carry a multi-node job, so the scenario is one node".to_string());
            }
        }
        match self.nvlink_domain_gpus.filter(|d| *d > self.gpus && self.gpus > 0) {
            Some(d) => {
                input.nvlink_domain_gpus = Some(i64::from(d));
                said.push(format!(
                    "NVLink domain: {d} GPUs ({} nodes of {}): the GPUs have joined a multi-node NVLink fabric, so \
                     traffic between those nodes runs over NVLink",
                    d / self.gpus,
                    self.gpus
                ));
            }
            None => input.nvlink_domain_gpus = None,
        }
        match self.gdr {
            GdrSupport::Supported => {
                input.gdr = true;
                said.push("GPUDirect RDMA: supported".to_string());
            }
            GdrSupport::NotSupported => {
                input.gdr = false;
                said.push("GPUDirect RDMA: not supported, so the NICs go through host memory".to_string());
            }
            GdrSupport::Unknown => said.push(format!(
                "GPUDirect RDMA: the report could not tell; kept as {}",
                if input.gdr { "on" } else { "off" }
            )),
        }
        said
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A node of 8x H100 with 8x 400G InfiniBand and GPUDirect RDMA.
    pub(in crate::report) fn h100() -> Summary {
        Summary {
            fabric: ReportFabric::Infiniband,
            rdma_adapters: 8,
            adapter_gbps: Some(400.0),
            ethernet_ports: 0,
            gpus: 8,
            gpu_model: Some("NVIDIA H100 80GB HBM3".to_string()),
            gdr: GdrSupport::Supported,
            nvlink_domain_gpus: None,
        }
    }

    #[test]
    fn a_summary_fills_the_cluster_and_keeps_the_job() {
        let mut input = ScenarioInput { params: 70e9, nodes: 4, link_gbps: 25.0, ..Default::default() };
        let said = h100().apply(&mut input);
        assert_eq!(input.gpu, "h100-sxm");
        assert_eq!((input.gpus_per_node, input.adapters_per_node, input.link_gbps), (8, 8, 400.0));
        assert_eq!((input.fabric, input.gdr, input.params, input.nodes), (Fabric::Infiniband, true, 70e9, 4));
        assert!(said[0].contains("H100"), "{said:?}");
        assert_eq!(said[1], "Network: 8 active InfiniBand ports at 400 Gb/s");
    }

    #[test]
    fn ethernet_and_none_map_to_tcp_and_one_node() {
        let mut input = ScenarioInput::default();
        let eth = Summary {
            fabric: ReportFabric::Ethernet,
            rdma_adapters: 0,
            adapter_gbps: Some(25.0),
            ethernet_ports: 2,
            gdr: GdrSupport::NotSupported,
            ..h100()
        };
        eth.validate().expect("test setup");
        eth.apply(&mut input);
        assert_eq!((input.fabric, input.adapters_per_node, input.link_gbps, input.gdr), (Fabric::Tcp, 2, 25.0, false));
        let none = Summary { fabric: ReportFabric::None, adapter_gbps: None, ethernet_ports: 0, ..eth };
        none.validate().expect("test setup");
        none.apply(&mut input);
        assert_eq!((input.nodes, input.adapters_per_node), (1, 0));
    }

    #[test]
    fn absurd_values_name_their_field() {
        let cases = [
            (Summary { gpus: 100_000, ..h100() }, "summary.gpus", "100000 GPUs in one node"),
            (Summary { rdma_adapters: 1000, ..h100() }, "summary.rdma_adapters", "1000 ports"),
            (Summary { adapter_gbps: Some(1e9), ..h100() }, "summary.adapter_gbps", "1e9 Gb/s is not a line rate"),
            (Summary { adapter_gbps: Some(f64::NAN), ..h100() }, "summary.adapter_gbps", "is not a line rate"),
            (Summary { adapter_gbps: None, ..h100() }, "summary.adapter_gbps", "is missing"),
            (Summary { rdma_adapters: 0, ..h100() }, "summary.rdma_adapters", "\"infiniband\""),
            (Summary { gpu_model: Some("x\u{0}".into()), ..h100() }, "summary.gpu_model", "not a GPU name"),
        ];
        for (s, field, words) in cases {
            let e = s.validate().expect_err("an error");
            assert_eq!(e.field, field);
            assert!(e.reason.contains(words), "{e}");
        }
    }

    #[test]
    fn a_count_is_any_whole_json_number() {
        for (v, want) in [(8.0, Some(8)), (0.0, Some(0)), (8.5, None), (-1.0, None), (1e300, None), (f64::NAN, None)] {
            assert_eq!(count(v).ok(), want, "{v}");
        }
        let full: Summary = serde_json::from_value(serde_json::json!({
            "fabric": "roce", "rdma_adapters": 2.0, "adapter_gbps": 200, "gpus": 4, "gpu_model": null, "gdr": "unknown"
        }))
        .expect("8.0 reads as 8");
        assert_eq!((full.rdma_adapters, full.ethernet_ports, full.gpus), (2, 0, 4));
        let e = serde_json::from_value::<Summary>(serde_json::json!({"fabric": "roce", "rdma_adapters": 2.5}))
            .expect_err("not whole");
        assert!(e.to_string().contains("expected a whole number from 0, found 2.5"), "{e}");
    }

    #[test]
    fn unknown_gpu_is_kept_by_name_and_no_gpu_keeps_the_inputs() {
        let mut input = ScenarioInput::default();
        let said = Summary { gpu_model: Some("Mystery X9".into()), ..h100() }.apply(&mut input);
        assert_eq!(input.gpu, "Mystery X9");
        assert!(said[0].contains("does not know"));
        let mut input = ScenarioInput::default();
        Summary { gpus: 0, gpu_model: None, ..h100() }.apply(&mut input);
        assert_eq!((input.gpu.as_str(), input.gpus_per_node), ("h100-sxm", 8));
    }
}
