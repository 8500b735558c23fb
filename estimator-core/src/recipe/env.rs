//! The environment each fabric needs for nccl-tests, each variable with why and where that comes from (NCCL's
//! source by version, file and line; the plugin vendors' own scripts by commit and line). Values the node decides
//! (its HCAs, its GID index, its interfaces) come from [`Detected`].

use serde::{Deserialize, Serialize};

use super::detect::{Detected, RecipeFabric};

/// nccl-tests' default warm-up iterations, `-w` (NVIDIA/nccl-tests `src/common.cu` @d2d40cc8 L61-72:
/// `warmup_iters = 5`).
pub const NCCL_TESTS_DEFAULT_WARMUP: u32 = 5;
/// nccl-tests' default data-check iterations per pass, `-c` (same lines: `datacheck = 1`).
pub const NCCL_TESTS_DEFAULT_CHECK: u32 = 1;

/// gVNICs on an a3-highgpu-8g: one primary plus four for GPU traffic (GoogleCloudPlatform/cluster-toolkit
/// `examples/machine-learning/a3-highgpu-8g/nccl-tests/run-nccl-tests.sh` @7174ca3e L46-48).
pub const A3_HIGH_GVE: usize = 5;
/// On an a3-megagpu-8g: one primary plus eight (same repository,
/// `examples/machine-learning/a3-megagpu-8g/nccl-tests/run-nccl-tests.sh` @2452d0dc L35-37).
pub const A3_MEGA_GVE: usize = 9;

/// The first NCCL release that finds the RoCE v2 GID itself: `NCCL_IB_GID_INDEX` defaults to -1 (auto) in 2.21.5
/// (NVIDIA/nccl @ab2b89c4 = v2.21.5-1, `src/transport/net_ib.cc` L80-81, `ncclIbGetGidIndex` L292-309), and to 0
/// in 2.20.5 (@48bb7fec = v2.20.5-1, same file L80).
pub const GID_AUTO_SINCE: (u32, u32, u32) = (2, 21, 5);

/// One variable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EnvVar {
    /// The name.
    pub name: String,
    /// The value, as the shell should see it (the script quotes it).
    pub value: String,
    /// Why, in one line.
    pub why: String,
    /// Where that comes from.
    pub source: String,
}

/// A shell line that must run before the tests (a vendor's environment profile).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SetupLine {
    /// The line.
    pub line: String,
    /// Why.
    pub why: String,
    /// Where it comes from.
    pub source: String,
}

/// What a fabric's runs need besides the command.
pub(super) struct FabricEnv {
    pub setup: Vec<SetupLine>,
    pub vars: Vec<EnvVar>,
    /// `mpirun` options (binding, Open MPI's transports).
    pub mpirun_extra: &'static str,
    pub notes: Vec<String>,
}

const NCCL_ENV_DOC: &str =
    "NCCL's environment variables, https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html";
const IB_HCA_SRC: &str = "NVIDIA/nccl v2.21.5-1 src/transport/net_ib.cc L412-419 (^ excludes, = exact), \
                          v2.22.3-1 src/misc/utils.cc L170-174 (no = matches by prefix)";
const SOCKET_IF_SRC: &str = "NVIDIA/nccl v2.22.3-1 src/misc/socket.cc L323-357 (ncclFindInterfaces: ib* first, \
                             then anything but docker and lo)";
const AWS_AMI: &str =
    "aws-samples/awsome-distributed-training micro-benchmarks/nccl-tests/slurm/nccl-tests-ami.sbatch @0162aacd";
const OFI_DOC: &str = "aws/aws-ofi-nccl doc/efa-env-var.md @518f4c6a";
const TCPX_RUN: &str = "GoogleCloudPlatform/cluster-toolkit examples/machine-learning/a3-highgpu-8g/nccl-tests/run-nccl-tests.sh @7174ca3e";
const TCPXO_RUN: &str = "GoogleCloudPlatform/cluster-toolkit examples/machine-learning/a3-megagpu-8g/nccl-tests/run-nccl-tests.sh @2452d0dc";

fn var(name: &str, value: impl Into<String>, why: impl Into<String>, source: impl Into<String>) -> EnvVar {
    EnvVar { name: name.to_string(), value: value.into(), why: why.into(), source: source.into() }
}

/// A version's leading three numbers (`2.21.5`, `2.21.5-1`, `2.18.5+cuda12.2`).
pub fn parse_version(v: &str) -> Option<(u32, u32, u32)> {
    let core = v.trim().trim_start_matches(['v', 'V']);
    let mut parts = core.split(|c: char| !c.is_ascii_digit()).filter(|p| !p.is_empty());
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    let patch = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    Some((major, minor, patch))
}

/// The environment for the detected fabric and NCCL version (`None`: unknown).
pub(super) fn fabric_env(d: &Detected, version: Option<(u32, u32, u32)>) -> FabricEnv {
    let mut e = FabricEnv { setup: Vec::new(), vars: Vec::new(), mpirun_extra: "--bind-to numa", notes: Vec::new() };
    e.vars.push(var(
        "NCCL_DEBUG",
        "INFO",
        "prints which network each rank uses (NET/IB, NET/OFI, NET/Socket, the plugin) and its channels, so the \
         output shows the run used the fabric; probe-cli health reads these lines",
        NCCL_ENV_DOC,
    ));
    let bootstrap = |e: &mut FabricEnv, why: &str| {
        if let Some(i) = &d.socket_ifname {
            e.vars.push(var("NCCL_SOCKET_IFNAME", format!("={i}"), why, SOCKET_IF_SRC));
        }
    };
    match d.fabric {
        Some(RecipeFabric::Infiniband) | Some(RecipeFabric::Roce) => {
            if !d.hcas.is_empty() {
                e.vars.push(var(
                    "NCCL_IB_HCA",
                    format!("={}", d.hcas.join(",")),
                    "the active ports the probe counted, by exact name ('=': without it mlx5_1 also matches \
                     mlx5_10 and up); unset, NCCL takes every active port, a storage or front-end one too",
                    IB_HCA_SRC,
                ));
            } else {
                e.notes.push(
                    "NCCL_IB_HCA is left unset: NCCL takes every active port (give --report to pin the ports the \
                     probe counted)."
                        .into(),
                );
            }
            bootstrap(
                &mut e,
                "bootstrap and NET/IB's out-of-band connection on a routable interface; unset, NCCL prefers ib* \
                 (IPoIB) interfaces, then the first that is not docker or lo",
            );
            if d.fabric == Some(RecipeFabric::Roce) {
                roce_gid(&mut e, d, version);
            }
        }
        Some(RecipeFabric::Efa) => efa(&mut e),
        Some(RecipeFabric::Tcpx) => tcpx(&mut e, d),
        Some(RecipeFabric::Tcpxo) => tcpxo(&mut e, d),
        Some(RecipeFabric::Socket) => bootstrap(
            &mut e,
            "the interface NCCL's sockets carry the data over, by exact name: unset, NCCL takes the first that is not \
             docker or lo, which may be a slow management port or a virtual bridge",
        ),
        None => {}
    }
    e
}

fn roce_gid(e: &mut FabricEnv, d: &Detected, version: Option<(u32, u32, u32)>) {
    let auto = version.is_some_and(|v| v >= GID_AUTO_SINCE);
    let since = format!("{}.{}.{}", GID_AUTO_SINCE.0, GID_AUTO_SINCE.1, GID_AUTO_SINCE.2);
    match (d.gid_index, auto) {
        (Some(_), true) => e.notes.push(format!(
            "NCCL_IB_GID_INDEX is left unset: NCCL {since} and later pick the RoCE v2 GID with an IPv4 address \
             themselves (set it only to override)."
        )),
        (Some(g), false) => {
            let why = match version {
                Some(_) => format!(
                    "the RoCE v2 GID with an IPv4 address; this NCCL is older than {since} and uses index 0 (often \
                     RoCE v1 or link-local) unless told"
                ),
                None => format!(
                    "the RoCE v2 GID with an IPv4 address: NCCL before {since} uses index 0 unless told; {since} and \
                     later find it themselves, and this value agrees with what they find"
                ),
            };
            e.vars.push(var(
                "NCCL_IB_GID_INDEX",
                g.to_string(),
                why,
                "NVIDIA/nccl v2.20.5-1 src/transport/net_ib.cc L80 (default 0); v2.21.5-1 L80-81 and \
                 ncclIbGetGidIndex L292-309 (default -1: auto)",
            ));
        }
        (None, _) => e.notes.push(
            "No RoCE v2 GID with an IPv4 address was found: configure an IP address on the RoCE interfaces (NCCL \
             needs one), then run probe-cli report again."
                .into(),
        ),
    }
    e.notes.push(
        "RoCE needs a lossless (PFC/ECN) traffic class on the switches; if yours uses one, set NCCL_IB_TC to it (a \
         site value NCCL cannot find: Oracle's OCI uses 41, oracle-quickstart/oci-hpc \
         samples/gpu/nccl_run_allreduce_H100.sbatch @2a1cff25 L52)."
            .into(),
    );
}

fn efa(e: &mut FabricEnv) {
    e.mpirun_extra =
        "--bind-to none --mca pml ^ucx --mca btl tcp,self --mca btl_tcp_if_exclude lo,docker0,veth_def_agent";
    e.vars.push(var(
        "LD_LIBRARY_PATH",
        "/opt/amazon/efa/lib:/opt/amazon/openmpi/lib:/opt/amazon/ofi-nccl/lib:$LD_LIBRARY_PATH",
        "libfabric, Open MPI and the aws-ofi-nccl plugin where AWS's AMIs install them: NCCL loads the plugin from \
         the loader's path, and without it falls back to sockets",
        format!("{AWS_AMI} L37; aws/aws-ofi-nccl README.md @c2aba3c0 (Running nccl-perf tests)"),
    ));
    e.vars.push(var(
        "FI_PROVIDER",
        "efa",
        "keeps libfabric on EFA rather than its tcp provider; required by aws-ofi-nccl 1.5.0 and older, harmless \
         later, and what AWS's own nccl-tests script sets",
        format!("{OFI_DOC} L41-42; {AWS_AMI} L35"),
    ));
    e.vars.push(var(
        "NCCL_SOCKET_IFNAME",
        "^docker,lo,veth",
        "bootstrap on the ENA interface, not a container's bridge or veth pair",
        format!("{AWS_AMI} L39"),
    ));
    e.notes.push(format!(
        "With aws-ofi-nccl 1.6.x, or libfabric older than 1.18, on p4d or p5 also set FI_EFA_USE_DEVICE_RDMA=1 \
         (GPUDirect RDMA); with aws-ofi-nccl 1.5.0 or older also NCCL_PROTO=simple. Newer stacks need neither \
         ({OFI_DOC} L29-30, L47-48, L115-123)."
    ));
    e.notes.push(
        "A plugin built without the libnccl-net.so link (newer aws-ofi-nccl builds install libnccl-net-ofi.so) needs \
         NCCL_NET_PLUGIN=ofi, or NCCL runs over sockets: check the log for NET/OFI (aws/aws-ofi-nccl src/Makefile.am \
         @02d5160a L72-81; NVIDIA/nccl v2.22.3-1 src/net.cc openNetPluginLib)."
            .into(),
    );
}

fn tcpx(e: &mut FabricEnv, d: &Detected) {
    let ctrl = d.socket_ifname.clone().unwrap_or_else(|| "eth0".into());
    let l = |lines: &str| format!("{TCPX_RUN} {lines}");
    e.vars.push(var("NCCL_NET", "GPUDirectTCPX_v7", "selects the GPUDirect-TCPX plugin by name", l("L43")));
    e.vars.push(var("NCCL_SOCKET_IFNAME", format!("={ctrl}"), "bootstrap on the primary gVNIC", l("L46")));
    e.vars.push(var(
        "NCCL_GPUDIRECTTCPX_CTRL_DEV",
        ctrl,
        "the plugin's control traffic on the primary gVNIC",
        l("L47"),
    ));
    e.vars.push(var(
        "NCCL_GPUDIRECTTCPX_SOCKET_IFNAME",
        d.gpu_nics.join(","),
        "the gVNICs that carry GPU data",
        l("L48"),
    ));
    for (name, value, line) in [
        ("NCCL_CROSS_NIC", "0", "L49"),
        ("NCCL_ALGO", "Ring", "L50"),
        ("NCCL_PROTO", "Simple", "L51"),
        ("NCCL_NSOCKS_PERTHREAD", "4", "L52"),
        ("NCCL_SOCKET_NTHREADS", "1", "L53"),
        ("NCCL_DYNAMIC_CHUNK_SIZE", "524288", "L54"),
        ("NCCL_P2P_NET_CHUNKSIZE", "524288", "L55"),
        ("NCCL_P2P_PCI_CHUNKSIZE", "524288", "L56"),
        ("NCCL_P2P_NVL_CHUNKSIZE", "1048576", "L57"),
        ("NCCL_BUFFSIZE", "4194304", "L58"),
        ("NCCL_NET_GDR_LEVEL", "PIX", "L60"),
        ("NCCL_P2P_PXN_LEVEL", "0", "L61"),
    ] {
        e.vars.push(var(name, value, "Google's setting for the plugin on A3 High (not to be changed)", l(line)));
    }
    e.vars.push(var(
        "NCCL_GPUDIRECTTCPX_UNIX_CLIENT_PREFIX",
        "/run/tcpx",
        "where the receive-datapath manager (RxDM) listens: it must run on every node for the job's lifetime \
         (Google's Slurm prolog starts it; the path is that prolog's, /run/tcpx-$SLURM_JOB_ID under Slurm)",
        format!("{} L35, L62; cluster-toolkit examples/machine-learning/a3-highgpu-8g/README.md @061f7c55", TCPX_RUN),
    ));
    e.vars.push(var(
        "NCCL_GPUDIRECTTCPX_PROGRAM_FLOW_STEERING_WAIT_MICROS",
        "500000",
        "Google's setting for the plugin on A3 High",
        l("L63"),
    ));
    e.vars.push(var(
        "LD_LIBRARY_PATH",
        "/var/lib/tcpx/lib64:$LD_LIBRARY_PATH",
        "the plugin's library, installed by Google's prolog",
        l("L67"),
    ));
    e.notes.push(format!(
        "Google's script also binds each gVNIC's TX and RX to CPU cores (NCCL_GPUDIRECTTCPX_TX_BINDINGS and \
         _RX_BINDINGS, {TCPX_RUN} L64-65): copy them from there for your image."
    ));
}

fn tcpxo(e: &mut FabricEnv, d: &Detected) {
    let ctrl = d.socket_ifname.clone().unwrap_or_else(|| "eth0".into());
    let l = |lines: &str| format!("{TCPXO_RUN} {lines}");
    e.setup.push(SetupLine {
        line: "NCCL_LIB_DIR=/var/lib/tcpxo/lib64 source /var/lib/tcpxo/lib64/nccl-env-profile.sh".into(),
        why: "Google's environment profile for the TCPXO (FasTrak) plugin on A3 Mega: its algorithm, protocol, \
              chunk and tuner settings (\"should not be modified\")"
            .into(),
        source: l("L33-34"),
    });
    e.vars.push(var(
        "NCCL_FASTRAK_CTRL_DEV",
        ctrl.clone(),
        "the plugin's control traffic on the primary gVNIC",
        l("L35"),
    ));
    e.vars.push(var("NCCL_FASTRAK_IFNAME", d.gpu_nics.join(","), "the gVNICs that carry GPU data", l("L36")));
    e.vars.push(var("NCCL_SOCKET_IFNAME", format!("={ctrl}"), "bootstrap on the primary gVNIC", l("L37")));
    e.vars.push(var(
        "NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY",
        "/dev/aperture_devices",
        "the devices the plugin maps GPU memory through",
        l("L38"),
    ));
    e.vars.push(var(
        "LD_LIBRARY_PATH",
        "/var/lib/tcpxo/lib64:$LD_LIBRARY_PATH",
        "the plugin's library, installed with the receive-datapath manager",
        l("L65"),
    ));
    e.notes.push(
        "The receive-datapath manager (RxDM) must run on every node for the job's lifetime (Google's Slurm prolog or \
         GKE's sidecar starts it): without it the plugin cannot receive."
            .into(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_read_as_nccl_prints_them() {
        assert_eq!(parse_version("2.21.5"), Some((2, 21, 5)));
        assert_eq!(parse_version("2.21.5-1"), Some((2, 21, 5)));
        assert_eq!(parse_version("2.18.5+cuda12.2"), Some((2, 18, 5)));
        assert_eq!(parse_version("v2.20"), Some((2, 20, 0)));
        assert_eq!(parse_version("two"), None);
    }

    #[test]
    fn the_gid_index_is_set_only_where_nccl_needs_it() {
        let d = Detected { fabric: Some(RecipeFabric::Roce), gid_index: Some(3), ..Detected::default() };
        let has = |v| fabric_env(&d, v).vars.iter().any(|x| x.name == "NCCL_IB_GID_INDEX" && x.value == "3");
        assert!(has(Some((2, 20, 5))));
        assert!(has(None), "an unknown version gets it, with why");
        assert!(!has(Some((2, 21, 5))));
        assert!(!has(Some((2, 28, 3))));
    }
}
