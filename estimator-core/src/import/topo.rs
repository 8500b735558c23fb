//! `nvidia-smi topo -m`: the GPU/NIC matrix (space- or tab-separated), its legends, and each GPU's nearest NIC.

use serde::{Deserialize, Serialize};

use super::strip_launcher;

/// Connection classes, nearest first, as the legend defines them.
const CLASSES: [&str; 5] = ["PIX", "PXB", "PHB", "NODE", "SYS"];

/// One GPU's nearest NIC.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NearestNic {
    /// `GPU0`.
    pub gpu: String,
    /// The NIC's name (`mlx5_0` from the NIC legend, else the column label).
    pub nic: String,
    /// `PIX`, `PXB`, `PHB`, `NODE` or `SYS`.
    pub class: String,
    /// NCCL's default GDR level (PXB) allows GPUDirect RDMA over this class.
    pub gdr_distance_ok: bool,
}

/// A parsed `nvidia-smi topo -m`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Topology {
    /// Column labels of the devices (`GPU0`, ..., `NIC0`, ...).
    pub columns: Vec<String>,
    /// GPUs (rows labelled `GPU<n>`).
    pub gpus: u32,
    /// NIC names, by column order (from the legend when there is one).
    pub nics: Vec<String>,
    /// The matrix: `(row label, cells)`, each cell as printed (`X`, `NV18`, `PIX`, ...).
    pub rows: Vec<(String, Vec<String>)>,
    /// Each GPU's nearest NIC.
    pub nearest: Vec<NearestNic>,
    /// GPU pairs joined by NVLink (`NV#` cells), counted once.
    pub nvlink_pairs: u32,
    /// The matrix ended before every device's row: the output was cut.
    pub truncated: bool,
}

/// Reads `nvidia-smi topo -m`.
pub fn parse(text: &str) -> Topology {
    let text = super::strip_ansi(text);
    let mut t = Topology::default();
    let mut legend: Vec<(String, String)> = Vec::new();
    for raw in text.lines() {
        let line = strip_launcher(raw);
        let tokens: Vec<&str> = line.split_whitespace().take(1100).collect();
        let Some(first) = tokens.first() else { continue };
        if t.columns.is_empty() && *first == "GPU0" && tokens.get(1) != Some(&"X") {
            // The header: device labels up to the affinity columns.
            t.columns = tokens
                .iter()
                .take_while(|c| !matches!(**c, "CPU" | "NUMA" | "GPU" | "Affinity"))
                .take(512)
                .map(|c| c.to_string())
                .collect();
            continue;
        }
        // `NIC0: mlx5_0` in the NIC legend.
        if tokens.len() == 2
            && let Some(label) = first.strip_suffix(':')
            && label.starts_with("NIC")
        {
            legend.push((label.to_string(), tokens[1].to_string()));
            continue;
        }
        if !t.columns.is_empty() && t.columns.iter().any(|c| c == first) && t.rows.len() < 512 {
            let cells: Vec<String> = tokens[1..].iter().take(t.columns.len()).map(|c| c.to_string()).collect();
            t.rows.push((first.to_string(), cells));
        }
    }
    let name = |label: &str| legend.iter().find(|(l, _)| l == label).map_or(label.to_string(), |(_, n)| n.clone());
    let nic_cols: Vec<usize> = (0..t.columns.len()).filter(|&i| !t.columns[i].starts_with("GPU")).collect();
    t.nics = nic_cols.iter().map(|&i| name(&t.columns[i])).collect();
    t.gpus = u32::try_from(t.rows.iter().filter(|(l, _)| l.starts_with("GPU")).count()).unwrap_or(u32::MAX);
    for (i, (label, cells)) in t.rows.iter().enumerate() {
        if !label.starts_with("GPU") {
            continue;
        }
        let best = nic_cols
            .iter()
            .filter_map(|&c| {
                let cell = cells.get(c)?;
                Some((CLASSES.iter().position(|k| k == cell)?, c))
            })
            .min();
        if let Some((rank, c)) = best {
            t.nearest.push(NearestNic {
                gpu: label.clone(),
                nic: name(&t.columns[c]),
                class: CLASSES[rank].to_string(),
                gdr_distance_ok: rank <= 1,
            });
        }
        // NVLink pairs: cells right of the diagonal among the GPU columns.
        for (j, cell) in cells.iter().enumerate().skip(i + 1) {
            if t.columns.get(j).is_some_and(|c| c.starts_with("GPU")) && cell.starts_with("NV") {
                t.nvlink_pairs += 1;
            }
        }
    }
    t.truncated = !t.columns.is_empty() && t.rows.len() < t.columns.len();
    t
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_matrix_reads_with_tabs_or_spaces_and_its_legend() {
        let text = "\tGPU0\tGPU1\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\n\
                    GPU0\t X \tNV18\tPIX\tSYS\t0-47\t0\n\
                    GPU1\tNV18\t X \tSYS\tPXB\t48-95\t1\n\
                    NIC0\tPIX\tSYS\t X \tSYS\n\
                    NIC1\tSYS\tPXB\tSYS\t X\n\nNIC Legend:\n\n  NIC0: mlx5_0\n  NIC1: mlx5_1\n";
        let t = super::parse(text);
        assert_eq!(
            (t.gpus, t.nics.as_slice(), t.nvlink_pairs, t.truncated),
            (2, ["mlx5_0".to_string(), "mlx5_1".to_string()].as_slice(), 1, false)
        );
        assert_eq!((t.nearest[0].nic.as_str(), t.nearest[0].class.as_str()), ("mlx5_0", "PIX"));
        assert_eq!(
            (t.nearest[1].nic.as_str(), t.nearest[1].class.as_str(), t.nearest[1].gdr_distance_ok),
            ("mlx5_1", "PXB", true)
        );
    }
}
