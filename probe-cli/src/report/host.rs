//! The host: CPU, memory, kernel, OS, from `/proc`, `/etc/os-release` and `/sys/devices/system/node`.

use std::collections::BTreeSet;

use estimator_core::report::{Host, REDACTED};

use super::fs::{Need, Tree};

/// Reads the host section. The hostname is redacted unless `identifiers`.
pub fn read(tree: &mut Tree, identifiers: bool) -> Host {
    let hostname = tree
        .read("/proc/sys/kernel/hostname", Need::Optional)
        .or_else(|| tree.read("/etc/hostname", Need::Optional))
        .map(|h| if identifiers { h } else { REDACTED.to_string() });
    let (cpu_model, cpus, sockets) = match tree.read("/proc/cpuinfo", Need::Expected) {
        Some(text) => cpuinfo(&text),
        None => (None, None, None),
    };
    let memory_bytes = tree.read("/proc/meminfo", Need::Expected).and_then(|m| {
        let kib =
            m.lines().find_map(|l| l.strip_prefix("MemTotal:"))?.trim().strip_suffix("kB")?.trim().parse::<u64>().ok();
        kib.map(|k| k.saturating_mul(1024))
    });
    let numa = tree.list("/sys/devices/system/node", Need::Optional);
    let numa_nodes = numa.iter().filter(|n| n.strip_prefix("node").is_some_and(|d| d.parse::<u32>().is_ok())).count();
    let os = tree
        .read("/etc/os-release", Need::Optional)
        .and_then(|t| t.lines().find_map(|l| l.strip_prefix("PRETTY_NAME=")).map(|v| v.trim_matches('"').to_string()));
    Host {
        hostname,
        cpu_model,
        cpus,
        sockets,
        numa_nodes: (numa_nodes > 0).then(|| u32::try_from(numa_nodes).unwrap_or(u32::MAX)),
        memory_bytes,
        kernel: tree.read("/proc/sys/kernel/osrelease", Need::Optional),
        os,
    }
}

/// Model name, logical CPUs and sockets from `/proc/cpuinfo` (x86 `model name`, Arm `Model name`/`CPU part` has
/// no name: `None`).
fn cpuinfo(text: &str) -> (Option<String>, Option<u32>, Option<u32>) {
    let mut model = None;
    let mut cpus = 0u32;
    let mut sockets = BTreeSet::new();
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else { continue };
        match key.trim() {
            "processor" => cpus += 1,
            "model name" if model.is_none() => model = Some(value.trim().to_string()),
            "physical id" => {
                sockets.insert(value.trim().to_string());
            }
            _ => {}
        }
    }
    let sockets = (!sockets.is_empty()).then(|| u32::try_from(sockets.len()).unwrap_or(u32::MAX));
    (model, (cpus > 0).then_some(cpus), sockets)
}

#[cfg(test)]
mod tests {
    #[test]
    fn cpuinfo_counts_processors_and_sockets() {
        let text = "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Platinum 8480+\nphysical id\t: 0\n\n\
                    processor\t: 1\nmodel name\t: Intel(R) Xeon(R) Platinum 8480+\nphysical id\t: 1\n";
        assert_eq!(super::cpuinfo(text), (Some("Intel(R) Xeon(R) Platinum 8480+".into()), Some(2), Some(2)));
        assert_eq!(super::cpuinfo("garbage"), (None, None, None));
    }
}
