//! `probe-cli gather --output node.tar.gz`: runs the probe and archives exactly what it read (every file and
//! symbolic link, at its path in the tree) plus NVML's and libibverbs' answers under `probe-cli/`, so that
//! `probe-cli report --root <extracted>` reproduces the report on another machine.
//!
//! Identifiers are scrubbed by default, keeping each value's format so the parsers still see a real shape: GUIDs
//! and MACs become zeros, a GID keeps its prefix and the `::ffff:` of an IPv4-mapped address, the hostname becomes
//! `redacted`, and NVML's UUIDs and serials likewise.

use std::path::Path;

use anyhow::Context as _;
use flate2::Compression;
use flate2::write::GzEncoder;

use estimator_core::report::REDACTED;

use crate::cli::GatherArgs;
use crate::outcome::{Failure, Outcome};
use crate::output::diag;
use crate::report::fs::Captured;
use crate::report::libraries::{NVML_CAPTURE, VERBS_CAPTURE};
use crate::report::probe_root;

/// The scrubbed form of an identifier file, or the bytes as they were.
fn scrub(path: &Path, bytes: &[u8]) -> Vec<u8> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let parent = path.parent().and_then(|p| p.file_name()).and_then(|n| n.to_str()).unwrap_or("");
    let text = String::from_utf8_lossy(bytes);
    let zero_hex = |s: &str| s.chars().map(|c| if c.is_ascii_hexdigit() { '0' } else { c }).collect::<String>();
    let out = match (parent, name) {
        (_, "hostname") => "redacted\n".to_string(),
        (_, "node_guid" | "sys_image_guid" | "address" | "node_desc") => zero_hex(&text),
        ("gids", _) => {
            // Keep the first four groups (subnet prefix / fe80) and an IPv4-mapped marker; zero the rest.
            let groups: Vec<&str> = text.trim().split(':').collect();
            if groups.len() == 8 {
                let keep_ffff = groups[..5].iter().all(|g| g.trim_start_matches('0').is_empty()) && groups[5] == "ffff";
                let mut g: Vec<String> = groups[..4].iter().map(|s| s.to_string()).collect();
                g.push("0000".into());
                g.push(if keep_ffff { "ffff".into() } else { "0000".into() });
                g.push("0000".into());
                g.push(if text.trim().chars().all(|c| c == '0' || c == ':') { "0000".into() } else { "0001".into() });
                format!("{}\n", g.join(":"))
            } else {
                zero_hex(&text)
            }
        }
        _ => return bytes.to_vec(),
    };
    out.into_bytes()
}

fn scrub_nvml(facts: &mut crate::report::gpu::NvmlFacts) {
    for g in &mut facts.gpus {
        g.uuid = g.uuid.as_ref().map(|_| REDACTED.to_string());
        g.serial = g.serial.as_ref().map(|_| REDACTED.to_string());
    }
}

type Archive = tar::Builder<GzEncoder<std::fs::File>>;

/// A header for one entry, with a fixed time so the same tree always archives the same.
fn header(kind: tar::EntryType, size: u64, mode: u32) -> tar::Header {
    let mut h = tar::Header::new_gnu();
    h.set_entry_type(kind);
    h.set_size(size);
    h.set_mode(mode);
    h.set_mtime(0);
    h
}

/// The entry's path in the archive: relative, as `tar -xzf ... -C DIR` wants it.
fn relative(path: &Path) -> &Path {
    path.strip_prefix("/").unwrap_or(path)
}

fn append(builder: &mut Archive, path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut h = header(tar::EntryType::Regular, bytes.len() as u64, 0o644);
    builder.append_data(&mut h, relative(path), bytes).with_context(|| format!("adding {}", path.display()))
}

/// Runs `gather`. Like `report`, a capture that was written is a clean outcome; an archive that cannot be written
/// is a failure naming `--output`.
pub fn gather(a: &GatherArgs) -> Result<Outcome, Failure> {
    let mut p = probe_root(a.root.as_deref(), a.include_identifiers)?;
    let file = std::fs::File::create(&a.output)
        .map_err(|e| Failure::input(format!("--output {}: {e}", a.output.display())))?;
    let mut builder = tar::Builder::new(GzEncoder::new(file, Compression::default()));
    let mut files = 0usize;
    for (path, entry) in &p.captured {
        if path.starts_with("/probe-cli") {
            continue;
        }
        match entry {
            Captured::File(bytes) => {
                let bytes = if a.include_identifiers { bytes.clone() } else { scrub(path, bytes) };
                append(&mut builder, path, &bytes)?;
            }
            Captured::Dir if relative(path).as_os_str().is_empty() => continue,
            Captured::Dir => {
                let mut h = header(tar::EntryType::Directory, 0, 0o755);
                builder
                    .append_data(&mut h, relative(path), std::io::empty())
                    .with_context(|| format!("adding {}", path.display()))?;
            }
            Captured::Link(target) => {
                let mut h = header(tar::EntryType::Symlink, 0, 0o777);
                builder
                    .append_link(&mut h, relative(path), target)
                    .with_context(|| format!("adding link {}", path.display()))?;
            }
        }
        files += 1;
    }
    if let Some(facts) = &mut p.nvml {
        if !a.include_identifiers {
            scrub_nvml(facts);
        }
        append(&mut builder, Path::new(NVML_CAPTURE), &serde_json::to_vec_pretty(facts).context("NVML facts")?)?;
    }
    if let Some(devices) = &mut p.verbs {
        if !a.include_identifiers {
            crate::report::verbs::redact_gids(devices);
        }
        append(&mut builder, Path::new(VERBS_CAPTURE), &serde_json::to_vec_pretty(devices).context("verbs")?)?;
    }
    // What only the live process saw (already redacted unless identifiers were asked for).
    let env = &p.report.environment;
    let live = crate::report::environment::LiveFacts {
        dev_infiniband: env.dev_infiniband.clone(),
        fabric_env: env.fabric_env.clone(),
    };
    if live != crate::report::environment::LiveFacts::default() {
        let json = serde_json::to_vec_pretty(&live).context("environment")?;
        append(&mut builder, Path::new(crate::report::environment::ENVIRONMENT_CAPTURE), &json)?;
    }
    let encoder = builder.into_inner().context("finishing the archive")?;
    encoder.finish().context("finishing the archive")?;
    diag(&format!(
        "wrote {} ({files} files and links{}{}); read it back with: mkdir node && tar -xzf {} -C node && \
         probe-cli report --root node",
        a.output.display(),
        if p.nvml.is_some() { ", NVML's answer" } else { "" },
        if p.verbs.is_some() { ", libibverbs' answer" } else { "" },
        a.output.display()
    ));
    Ok(Outcome::Clean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_scrubbed_keeping_their_shape() {
        let p = |s: &str| Path::new(s).to_path_buf();
        assert_eq!(
            scrub(&p("/sys/class/infiniband/mlx5_0/node_guid"), b"b83f:d203:002d:6502\n"),
            b"0000:0000:0000:0000\n"
        );
        assert_eq!(scrub(&p("/sys/class/net/eth0/address"), b"0c:42:a1:00:00:01\n"), b"00:00:00:00:00:00\n");
        assert_eq!(
            scrub(&p("/sys/class/infiniband/mlx5_0/ports/1/gids/3"), b"0000:0000:0000:0000:0000:ffff:0a0c:0015\n"),
            b"0000:0000:0000:0000:0000:ffff:0000:0001\n"
        );
        assert_eq!(
            scrub(&p("/sys/class/infiniband/mlx5_0/ports/1/gids/0"), b"fe80:0000:0000:0000:8ae9:a4ff:fe9c:7f1a\n"),
            b"fe80:0000:0000:0000:0000:0000:0000:0001\n"
        );
        assert_eq!(scrub(&p("/proc/sys/kernel/hostname"), b"gpu-node-17\n"), b"redacted\n");
        assert_eq!(scrub(&p("/sys/class/net/eth0/speed"), b"25000\n"), b"25000\n");
    }
}
