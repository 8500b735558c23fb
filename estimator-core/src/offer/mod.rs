//! Node offers: the catalog of what people rent (`catalog.rs`), and one offer as the plan uses it, from the catalog
//! or from a user's file ([`NodeOffer`]).

use serde::{Deserialize, Serialize};

mod catalog;

pub use catalog::{AZURE_ND128ISR_GB300_V6, GCP_A4X_HIGHGPU_4G, OFFERS, Offer, lookup, nearest_id};

use crate::fabric::Fabric;
use crate::scenario::ScenarioInput;

/// One node offer, owned: a catalog entry or one the user describes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeOffer {
    /// Stable id.
    pub id: String,
    /// The vendor's name.
    pub name: String,
    /// The catalog GPU key (or a name the catalog resolves).
    pub gpu: String,
    /// GPUs per node.
    pub gpus_per_node: u32,
    /// GPUs in one NVLink domain when NVLink switches join the nodes (72 for GB200/GB300 NVL72); `None`: the node.
    #[serde(default)]
    pub nvlink_domain_gpus: Option<u32>,
    /// Adapters that carry GPU traffic.
    pub adapters: u32,
    /// Line rate of one, Gb/s.
    pub link_gbps: f64,
    /// Fabric.
    pub fabric: Fabric,
    /// GPUDirect RDMA.
    pub gdr: bool,
    /// Where its figures come from: the vendor's page, `generic`, or the user's file.
    pub source: String,
    /// What the figures are, from that source.
    pub source_note: String,
}

impl From<&Offer> for NodeOffer {
    fn from(o: &Offer) -> NodeOffer {
        NodeOffer {
            id: o.id.to_string(),
            name: o.name.to_string(),
            gpu: o.gpu.to_string(),
            gpus_per_node: o.gpus_per_node,
            nvlink_domain_gpus: (o.nvlink_domain_gpus > o.gpus_per_node).then_some(o.nvlink_domain_gpus),
            adapters: o.adapters,
            link_gbps: o.link_gbps,
            fabric: o.fabric,
            gdr: o.gdr,
            source: if o.url.is_empty() { "generic".to_string() } else { o.url.to_string() },
            source_note: o.source.to_string(),
        }
    }
}

impl NodeOffer {
    /// Puts this node's hardware into `input` (the intra-node link: the GPU's usual one).
    pub fn apply(&self, input: &mut ScenarioInput) {
        input.gpu.clone_from(&self.gpu);
        input.gpus_per_node = i64::from(self.gpus_per_node);
        input.intra_node = None;
        input.nvlink_domain_gpus = self.nvlink_domain_gpus.filter(|d| *d > self.gpus_per_node).map(i64::from);
        input.adapters_per_node = i64::from(self.adapters);
        input.link_gbps = self.link_gbps;
        input.fabric = self.fabric;
        input.gdr = self.gdr;
        input.measured_busbw_gbs = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{self, Lookup};
    use crate::scenario::Scenario;

    #[test]
    fn every_offer_is_a_catalog_gpu_a_valid_two_node_scenario_and_cites_its_source() {
        let mut ids = std::collections::BTreeSet::new();
        for o in &OFFERS {
            assert!(ids.insert(o.id), "{} twice", o.id);
            assert!(matches!(catalog::lookup(o.gpu), Lookup::Exact(_)), "{}: GPU {}", o.id, o.gpu);
            assert!(!o.source.is_empty(), "{}", o.id);
            assert_eq!(o.url.is_empty(), o.vendor == "generic", "{}: a vendor's offer has a page", o.id);
            let mut input = ScenarioInput { nodes: 2, ..ScenarioInput::default() };
            NodeOffer::from(o).apply(&mut input);
            Scenario::new(input).unwrap_or_else(|e| panic!("{}: {e}", o.id));
            assert_eq!(lookup(&o.id.to_uppercase()).map(|x| x.id), Some(o.id));
        }
        assert!(lookup("no-such-offer").is_none());
    }
}
