//! A two-node run's two hosts: from its rank lines (`#  Rank  0 Group  0 Pid 123 on node07 device 0 ...`), else from
//! the NCCL_DEBUG=INFO lines inside the output (`node07:123:123 [0] NCCL INFO ...`), else from the file's name
//! (`node03_node07.txt`).

use serde::{Deserialize, Serialize};

use crate::import::NcclTestsRun;

/// Where a pair's host names came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum HostsFrom {
    /// nccl-tests' rank lines.
    RankLines,
    /// The prefixes of the NCCL_DEBUG=INFO lines in the output.
    NcclLog,
    /// The file's name, `hostA_hostB.txt`.
    FileName,
}

impl HostsFrom {
    /// In words.
    pub fn describe(self) -> &'static str {
        match self {
            HostsFrom::RankLines => "rank lines",
            HostsFrom::NcclLog => "NCCL log",
            HostsFrom::FileName => "file name",
        }
    }
}

/// The longest host name taken (DNS's limit for a whole name).
const MAX_HOST: usize = 253;

/// The run's two hosts and where they came from, or why it has not two. `file_name` is the file's name without its
/// directories.
pub fn hosts(file_name: &str, run: &NcclTestsRun) -> Result<([String; 2], HostsFrom), String> {
    let mut ranked: Vec<&str> = Vec::new();
    for h in run.devices.iter().filter_map(|d| d.host.as_deref()) {
        if !ranked.contains(&h) {
            ranked.push(h);
        }
    }
    match ranked.as_slice() {
        [a, b] => return Ok(([a.to_string(), b.to_string()], HostsFrom::RankLines)),
        [] => {}
        [one] => {
            return Err(format!("its rank lines are all on {}: a pair run has ranks on two nodes", clip(one)));
        }
        many => {
            return Err(format!("its rank lines name {} hosts: a pair run has two", many.len()));
        }
    }
    if let Some(log) = run.nccl_log.as_deref()
        && let [a, b] = log.host_names.as_slice()
    {
        return Ok(([a.clone(), b.clone()], HostsFrom::NcclLog));
    }
    from_name(file_name).map(|h| (h, HostsFrom::FileName)).ok_or_else(|| {
        format!(
            "cannot tell its two hosts: no rank line or NCCL log line names them, and its name is not hostA_hostB \
             (as in node03_node07.txt), not {}",
            clip(file_name)
        )
    })
}

/// `hostA_hostB.txt` (or `hostA_hostB`, `hostA_hostB.log`, `node1.example.com_node2.example.com.txt`): the two
/// names around the one `_`, once a tool output's extension is taken off (host names may hold dots).
fn from_name(name: &str) -> Option<[String; 2]> {
    let stem = match name.rsplit_once('.') {
        Some((s, ext)) if ["txt", "log", "out"].contains(&ext) => s,
        _ => name,
    };
    let (a, b) = stem.split_once('_')?;
    let ok = |h: &str| !h.is_empty() && h.len() <= MAX_HOST && !h.contains('_');
    (ok(a) && ok(b)).then(|| [a.to_string(), b.to_string()])
}

fn clip(s: &str) -> String {
    s.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::nccl_tests::RankDevice;

    fn run_on(hosts: &[&str]) -> NcclTestsRun {
        let devices = hosts
            .iter()
            .enumerate()
            .map(|(i, h)| RankDevice { rank: i as u32, host: Some(h.to_string()), device: Some(0), gpu: None })
            .collect();
        NcclTestsRun { devices, ..NcclTestsRun::default() }
    }

    #[test]
    fn rank_lines_beat_the_file_name() {
        let r = run_on(&["a", "a", "b", "b"]);
        assert_eq!(hosts("x_y.txt", &r), Ok((["a".into(), "b".into()], HostsFrom::RankLines)));
    }

    #[test]
    fn file_name_when_the_run_does_not_say() {
        let r = NcclTestsRun::default();
        assert_eq!(hosts("node03_node07.txt", &r), Ok((["node03".into(), "node07".into()], HostsFrom::FileName)));
        assert_eq!(hosts("gpu-a_gpu-b", &r), Ok((["gpu-a".into(), "gpu-b".into()], HostsFrom::FileName)));
        let dotted = hosts("n1.example.com_10.0.0.2.log", &r).expect("dots");
        assert_eq!(dotted.0, ["n1.example.com".to_string(), "10.0.0.2".to_string()]);
        for bad in ["node03.txt", "a_b_c.txt", "_b.txt", "a_.txt", ""] {
            let e = hosts(bad, &r).expect_err(bad);
            assert!(e.contains("hostA_hostB"), "{e}");
        }
    }

    #[test]
    fn one_or_three_hosts_are_no_pair() {
        assert!(hosts("a_b.txt", &run_on(&["a", "a"])).expect_err("one").contains("all on a"));
        assert!(hosts("a_b.txt", &run_on(&["a", "b", "c"])).expect_err("three").contains("3 hosts"));
    }
}
