//! The command line: clap derive structs, one per subcommand, and the value parsers they share.

use clap::{Args, Parser, Subcommand};
use estimator_core::collective::Op;
use estimator_core::quantity::{parse_bytes, parse_count};
use estimator_core::{Algorithm, Fabric, GradDtype, IntraNodeLink, SyncStrategy};

/// RDMA step-time estimator: does a training job need a fast fabric, and what does a slow one cost per step?
#[derive(Debug, Parser)]
#[command(name = "probe-cli", version, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Exit 0 when the command ran but found something (a degraded, unhealthy or mismatched run), for those who
    /// only want the output; errors still exit 2.
    #[arg(long, global = true)]
    pub exit_zero: bool,
}

/// Top-level commands. (Parsed once at start-up, so the size of the largest variant does not matter.)
#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Run the step-time model in the terminal.
    #[command(subcommand)]
    Estimate(EstimateCommand),
    /// Read this node's GPUs, RDMA adapters, network, GPUDirect RDMA and GPU-NIC affinity (unprivileged, read-only).
    #[command(after_help = "Examples:\n  probe-cli report\n  probe-cli report --json > node.json\n  \
                            probe-cli report --root ./captured-node --json")]
    Report(ReportArgs),
    /// Capture exactly the files `report` reads (and NVML's and libibverbs' answers) as a .tar.gz for a bug report.
    #[command(after_help = "Example:\n  probe-cli gather --output node.tar.gz\n  \
                            mkdir node && tar -xzf node.tar.gz -C node && probe-cli report --root node")]
    Gather(GatherArgs),
    /// Print the JSON Schema of the report that `report --json` writes.
    Schema,
    /// Read nccl-tests output, NCCL_DEBUG=INFO logs, `nvidia-smi topo -m`, `ibstat` or `ibv_devinfo` and say
    /// what each file holds (the kind is detected).
    #[command(after_help = "Examples:\n  probe-cli import all_reduce.log nccl-debug.log topo.txt\n  \
                            probe-cli import --json all_reduce.log | jq '.[0].peak_busbw_gbs'")]
    Import(ImportArgs),
    /// Judge a measured nccl-tests run against what the model expects for this hardware: healthy, degraded or
    /// unhealthy, with likely causes (from an NCCL log, nvidia-smi topo -m or the report's attachments).
    #[command(after_help = "Examples:\n  probe-cli health --report node.json all_reduce.log nccl-debug.log\n  \
                            probe-cli health --gpus-per-node 8 --gpu h100 --adapters 8 --link-gbps 400 --fabric ib \
                            all_reduce.log")]
    Health(HealthArgs),
    /// Is a slow training run the network's fault? The step measured on N nodes against the model's step for the
    /// same job and hardware, with the run's own single-node step as the compute: the verdict, the communication
    /// and bus bandwidth it implies, and the likely causes (confirmed or ruled out by an NCCL log, nvidia-smi topo
    /// -m, a nccl-tests run or the node's report).
    #[command(after_help = "Examples:\n  probe-cli check-run --model llama-3.1-8b --sync fsdp --nodes 2 --adapters 8 \
                            --link-gbps 400 --fabric ib --compute-ms 2850 --measured-step-s 6.1\n  \
                            probe-cli check-run --report node.json --params 7B --nodes 4 --compute-ms 1200 \
                            --measured-tokens-per-s 310000 --tokens-per-step 4M nccl-debug.log all_reduce.log")]
    CheckRun(CheckRunArgs),
    /// What should I rent? The job on every node offer of the catalog (and yours): the smallest node count that
    /// fits, the one that meets a deadline, step, exposed communication, time to train, GPU-hours and cost from
    /// the prices you give; ranked by cost when prices are given, else by time to train.
    #[command(after_help = "Examples:\n  probe-cli plan --model llama-3.1-70b --sync fsdp --activation-checkpointing \
                            --tokens 1T --deadline 30d --price aws-p5.48xlarge=3.9 --price azure-nd96isr-h100-v5=6.98\n  \
                            probe-cli plan --params 7B --tokens 300B --best-layout --prices quotes.csv --json\n  \
                            probe-cli plan --list")]
    Plan(PlanArgs),
    /// Compare many nodes' reports (`report --json`, one file per node): the shapes the fleet has, and every node
    /// that differs from the majority in GPUs, ports, line rate, link layer, GDR, PCIe links, driver or firmware,
    /// or fails a readiness check.
    #[command(
        after_help = "Examples:\n  srun --ntasks-per-node=1 sh -c 'probe-cli report --json > reports/$(hostname).json'\n  \
                            probe-cli fleet reports/\n  \
                            probe-cli fleet --json reports/*.json | jq '.outliers'"
    )]
    Fleet(FleetArgs),
    /// Print a shell completion script for bash, zsh, fish, elvish or powershell.
    #[command(
        after_help = "Examples:\n  probe-cli completions bash > ~/.local/share/bash-completion/completions/probe-cli\n  \
                            probe-cli completions zsh > ~/.zfunc/_probe-cli\n  \
                            probe-cli completions fish > ~/.config/fish/completions/probe-cli.fish"
    )]
    Completions(CompletionsArgs),
    /// Print this manual page (roff), with every command and flag.
    #[command(after_help = "Example:\n  probe-cli man | man -l -")]
    Man,
}

/// `probe-cli fleet`
#[derive(Debug, Args)]
pub struct FleetArgs {
    /// Report files, or directories whose `*.json` files are reports; a node is named after its file.
    #[arg(required = true, value_name = "DIR|FILE")]
    pub paths: Vec<std::path::PathBuf>,
    /// Print one JSON document (`nodes`, `groups`, `outliers`, `expected`, `skipped`) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `probe-cli completions`
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `probe-cli plan`
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// Tokens to train on: 1T, 300B, 2e12.
    #[arg(long, value_parser = parse_count_arg, value_name = "COUNT", required_unless_present = "list")]
    pub tokens: Option<f64>,
    /// The time to train allowed: 30d, 2w, 36h.
    #[arg(long, value_parser = parse_duration_arg, value_name = "DURATION")]
    pub deadline: Option<f64>,
    /// The most nodes to try per offer.
    #[arg(long, default_value_t = 64, allow_negative_numbers = true)]
    pub max_nodes: i64,
    /// Try every synchronisation (DDP, ZeRO-1/2/3, HSDP; --tp, --pp and --ep kept) and keep the fastest that fits.
    #[arg(long)]
    pub best_layout: bool,
    /// A price in USD per GPU-hour: OFFER=USD (repeat the flag; `--list` shows the ids).
    #[arg(long, value_name = "OFFER=USD")]
    pub price: Vec<String>,
    /// A CSV (header `id,usd_per_gpu_hour`) or JSON (`{"OFFER": USD}`, or a list of objects) file of prices; a row
    /// with `gpu,gpus_per_node,adapters,link_gbps,fabric` describes an offer of your own.
    #[arg(long, value_name = "FILE")]
    pub prices: Option<std::path::PathBuf>,
    /// Only these offers (ids, comma-separated); offers of your own are always in.
    #[arg(long, value_delimiter = ',', value_name = "ID,...")]
    pub only: Vec<String>,
    /// Tokens per optimizer step across all GPUs (the global batch): 4Mi, 1e6 (default 4Mi = 4,194,304, 1024
    /// sequences of 4096; 4M is 4,000,000).
    #[arg(long, value_parser = parse_count_arg, default_value_t = estimator_core::scenario::DEFAULT_TOKENS_PER_STEP, value_name = "COUNT")]
    pub tokens_per_step: f64,
    /// Model FLOPs utilisation, 0..1 (compute = 6 x active params x tokens / (GPUs x peak x MFU)).
    #[arg(long, default_value_t = 0.4, allow_negative_numbers = true)]
    pub mfu: f64,
    /// List the offers (id, GPU, network, source) instead of planning.
    #[arg(long)]
    pub list: bool,
    /// Print one JSON document on stdout instead of text.
    #[arg(long)]
    pub json: bool,
    /// The job.
    #[command(flatten)]
    pub job: JobArgs,
}

/// `probe-cli check-run`
#[derive(Debug, Args)]
pub struct CheckRunArgs {
    /// Evidence, optional: the run's NCCL_DEBUG=INFO log, `nvidia-smi topo -m` of a node, a nccl-tests run on the
    /// same nodes (the report's attachments count too).
    #[arg(value_name = "FILE")]
    pub files: Vec<std::path::PathBuf>,
    /// Which run of a nccl-tests file that holds several is the evidence: its number from 1 or `last`
    #[arg(long, value_name = "K|last", value_parser = parse_run_choice)]
    pub run: Option<RunChoice>,
    /// The run's own step on one node (or one GPU) for the same per-GPU work, milliseconds: the compute.
    #[arg(long, allow_negative_numbers = true, value_name = "MS")]
    pub compute_ms: f64,
    /// The step measured on the nodes, seconds.
    #[arg(long, allow_negative_numbers = true, value_name = "S")]
    pub measured_step_s: Option<f64>,
    /// Or the throughput measured, tokens per second over all GPUs.
    #[arg(long, allow_negative_numbers = true, value_name = "TOKENS")]
    pub measured_tokens_per_s: Option<f64>,
    /// Tokens per optimizer step for --measured-tokens-per-s (default: sequence length x micro-batch size x
    /// micro-batches x data-parallel GPUs).
    #[arg(long, value_parser = parse_count_arg, value_name = "COUNT")]
    pub tokens_per_step: Option<f64>,
    /// Or the throughput measured, samples per second over all GPUs (with --samples-per-step).
    #[arg(long, allow_negative_numbers = true, value_name = "SAMPLES")]
    pub measured_samples_per_s: Option<f64>,
    /// Samples per optimizer step (the global batch), for --measured-samples-per-s.
    #[arg(long, allow_negative_numbers = true, value_name = "COUNT")]
    pub samples_per_step: Option<f64>,
    /// The job.
    #[command(flatten)]
    pub job: JobArgs,
    /// Its nodes.
    #[command(flatten)]
    pub nodes: NodesArgs,
}

/// `probe-cli health`
#[derive(Debug, Args)]
pub struct HealthArgs {
    /// The files: one nccl-tests output (all_reduce_perf), and optionally the run's NCCL_DEBUG=INFO log and
    /// `nvidia-smi topo -m` of a node.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<std::path::PathBuf>,
    /// The node's `probe-cli report --json` (its hardware, and its attachments as evidence).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["gpu", "gpus_per_node", "adapters", "link_gbps", "fabric", "no_gdr"])]
    pub report: Option<std::path::PathBuf>,
    /// Nodes in the run (default: its ranks / GPUs per node, else the log's nNodes, else 2).
    #[arg(long, allow_negative_numbers = true)]
    pub nodes: Option<i64>,
    /// Which run of a nccl-tests file that holds several to judge: its number from 1 (`probe-cli import` lists
    /// them) or `last`
    #[arg(long, value_name = "K|last", value_parser = parse_run_choice)]
    pub run: Option<RunChoice>,
    /// The hardware, when there is no report.
    #[command(flatten)]
    pub cluster: ClusterArgs,
}

/// `--run`: a run of a file by its number, or the last one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunChoice {
    /// The K-th run, from 1.
    Number(u32),
    /// The last run.
    Last,
}

fn parse_run_choice(s: &str) -> Result<RunChoice, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("last") {
        return Ok(RunChoice::Last);
    }
    match t.parse::<u32>() {
        Ok(k) if k >= 1 => Ok(RunChoice::Number(k)),
        _ => Err(format!("takes a run's number from 1 (probe-cli import lists a file's runs) or 'last', not '{s}'")),
    }
}

/// `probe-cli import`
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The files (`-` for standard input).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<std::path::PathBuf>,
    /// Print one JSON array, one object per file, instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `probe-cli report`
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Print the JSON document (the input of the page and of `estimate step --report`) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Read a captured tree (from `gather`, or a copy of /sys and /proc) instead of this machine.
    #[arg(long, value_name = "DIR")]
    pub root: Option<std::path::PathBuf>,
    /// Keep hostnames, GUIDs, MAC and IP addresses, serial numbers and UUIDs (redacted by default).
    #[arg(long)]
    pub include_identifiers: bool,
    /// Put these tool outputs into the report (nccl-tests output, NCCL_DEBUG=INFO logs, nvidia-smi topo -m,
    /// ibstat, ibv_devinfo), read as `probe-cli import` reads them.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub attach: Vec<std::path::PathBuf>,
}

/// `probe-cli gather`
#[derive(Debug, Args)]
pub struct GatherArgs {
    /// Where to write the archive.
    #[arg(long, short, value_name = "FILE", default_value = "node.tar.gz")]
    pub output: std::path::PathBuf,
    /// Capture from a tree instead of this machine.
    #[arg(long, value_name = "DIR")]
    pub root: Option<std::path::PathBuf>,
    /// Keep identifiers in the captured files (by default hostnames, GUIDs, GIDs, MACs, UUIDs and serials are
    /// zeroed or replaced, keeping their format).
    #[arg(long)]
    pub include_identifiers: bool,
}

/// `probe-cli estimate ...`
#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)]
pub enum EstimateCommand {
    /// Estimate one training step: gradient sync, compute, overlap, memory fit and a single- vs multi-node answer.
    #[command(after_help = "Example:\n  probe-cli estimate step --params 7B --dtype bf16 --nodes 2 --gpus-per-node 8 \
                            --gpu \"NVIDIA H100 80GB HBM3\" --adapters 8 --link-gbps 400 --fabric ib --overlap 0.5 \
                            --tokens-per-step 4M")]
    Step(StepArgs),
    /// The expected nccl-tests all_reduce_perf result (time, algbw, busbw) for a message size on this hardware.
    #[command(after_help = "Example:\n  probe-cli estimate allreduce --bytes 8GiB --nodes 2 --gpus-per-node 8 \
                            --gpu h100 --adapters 8 --link-gbps 400 --fabric ib")]
    Allreduce(AllreduceArgs),
    /// The expected nccl-tests result of any collective (all_reduce, all_gather, reduce_scatter, broadcast,
    /// alltoall) for a message size: time, algbw, busbw, and the algorithm, protocol and channels NCCL picks.
    #[command(after_help = "Examples:\n  probe-cli estimate collective --op all_gather --bytes 1GiB --nodes 4 \
                            --adapters 8 --link-gbps 400 --fabric ib\n  probe-cli estimate collective --op alltoall \
                            --bytes 8G --table --nodes 2 --adapters 8 --link-gbps 400 --json")]
    Collective(CollectiveArgs),
    /// List the GPU catalog (keys for --gpu, memory, peak BF16, intra-node link and bus bandwidth, sources)
    /// and the fabric priors.
    #[command(after_help = "Example:\n  probe-cli estimate catalog --json")]
    Catalog(CatalogArgs),
}

/// `probe-cli estimate catalog`
#[derive(Debug, Args)]
pub struct CatalogArgs {
    /// Print one JSON document on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The hardware, shared by both subcommands.
#[derive(Debug, Args)]
pub struct ClusterArgs {
    /// GPU model: a catalog key (h100-sxm), a name NVML reports ("NVIDIA H100 80GB HBM3") or a fragment (h100).
    #[arg(long, default_value = "h100-sxm")]
    pub gpu: String,
    /// GPUs per node.
    #[arg(long, default_value_t = 8, allow_negative_numbers = true)]
    pub gpus_per_node: i64,
    /// Intra-node link, when it differs from the GPU's usual one.
    #[arg(long, value_parser = parse_intra_node, value_name = "nvswitch|nvlink|xgmi|pcie|pcie-host-staged")]
    pub intra_node: Option<IntraNodeLink>,
    /// GPUs in one NVLink domain, whole nodes of them: 72 for a GB200/GB300 NVL72 rack of 18 trays of 4 GPUs,
    /// whose traffic between trays runs over NVLink, not the adapters. Default: the node, or the domain a report's
    /// NVML fabric information gives (this flag wins over it).
    #[arg(long, allow_negative_numbers = true, value_name = "N")]
    pub nvlink_domain_gpus: Option<i64>,
    /// Network adapters per node (RDMA NICs, or Ethernet ports for tcp).
    #[arg(long, allow_negative_numbers = true)]
    pub adapters: Option<i64>,
    /// Line rate of one adapter, Gb/s (25, 100, 200, 400, ...; 400G, 400Gb/s and 100GbE read too).
    #[arg(long, allow_hyphen_values = true, value_parser = parse_gbps_arg, value_name = "GBPS")]
    pub link_gbps: Option<f64>,
    /// Fabric: ib (infiniband), roce, efa, rdma (other RDMA/plugin fabric), tcp (Ethernet without RDMA).
    #[arg(long, value_parser = parse_fabric, default_value = "ib",
          value_name = "ib|roce|efa|efa-v2|efa-v3|tcpx|tcpxo|rdma|tcp")]
    pub fabric: Fabric,
    /// GPUDirect RDMA is off: the NICs go through host memory.
    #[arg(long)]
    pub no_gdr: bool,
    /// All-reduce algorithm: auto (NCCL's default: NVLS on one NVSwitch node) or ring (NCCL_ALGO=Ring).
    #[arg(long, value_parser = parse_algorithm, default_value = "auto", value_name = "auto|ring")]
    pub algo: Algorithm,
    /// Override: bus bandwidth per adapter as a share of line rate (0..1).
    #[arg(long, allow_negative_numbers = true)]
    pub link_efficiency: Option<f64>,
    /// Override: latency of one all-reduce, microseconds.
    #[arg(long, allow_negative_numbers = true)]
    pub latency_us: Option<f64>,
    /// Override: the all-reduce bus bandwidth you measured with nccl-tests on this hardware and node count, GB/s;
    /// it replaces the modelled one (`probe-cli import run.log` prints it).
    #[arg(long, allow_negative_numbers = true, value_name = "GBS")]
    pub measured_busbw_gbs: Option<f64>,
    /// Print one JSON document on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The job, whatever it runs on: what `estimate step`, `check-run` and `plan` share.
#[derive(Debug, Args)]
pub struct JobArgs {
    /// Parameter count: 7e9, 7B, 70B, 1.5T (default 7B; --model brings its own).
    #[arg(long, allow_hyphen_values = true, value_parser = parse_count_arg, value_name = "COUNT", conflicts_with = "model")]
    pub params: Option<f64>,
    /// A model from the shape catalog (`estimate catalog` lists them): llama-3.1-70b, mixtral-8x7b,
    /// deepseek-v3, ...; its parameter count, layers, hidden size and experts size the traffic and the
    /// activations.
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// Gradient element type: fp32, bf16, fp16, fp8.
    #[arg(long, value_parser = parse_dtype, default_value = "bf16", value_name = "fp32|bf16|fp16|fp8")]
    pub dtype: GradDtype,
    /// Gradient sync: ddp (all-reduce), zero1 or zero2 (sharded optimizer states, and gradients for zero2:
    /// reduce-scatter, then the parameters gathered after the optimizer), zero3 or fsdp (parameters gathered per
    /// layer, 1.5x the volume), hsdp (FSDP inside a shard group, a node by default; only the gradient shards'
    /// all-reduce crosses groups).
    /// Not given: `estimate step` and `plan` choose the fastest layout that fits and say so; `check-run` takes
    /// ddp.
    #[arg(long, value_parser = parse_sync, value_name = "ddp|zero1|zero2|zero3|fsdp|hsdp")]
    pub sync: Option<SyncStrategy>,
    /// HSDP's shard group in GPUs (default: one node's data-parallel GPUs).
    #[arg(long, allow_negative_numbers = true, value_name = "GPUS")]
    pub shard_group: Option<i64>,
    /// Tensor-parallel degree (inside a node unless larger than a node).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub tp: i64,
    /// Pipeline stages.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub pp: i64,
    /// Micro-batches per optimizer step in each pipeline (default: tokens per step / (seq len x micro-batch size
    /// x data-parallel GPUs), or --grad-accum-steps).
    #[arg(long, allow_negative_numbers = true)]
    pub micro_batches: Option<i64>,
    /// Expert-parallel degree (a mixture-of-experts --model): the routed experts over this many of a pipeline
    /// stage's tensor x data-parallel ranks, as megatron-core folds them (it may exceed the data-parallel degree)
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub ep: i64,
    /// Expert tensor-parallel degree: each routed expert split over this many ranks (megatron-core's
    /// --expert-tensor-parallel-size; default: --tp, as megatron-core's). ETP 1 keeps EP 8 beside TP 2 in an
    /// 8-GPU node
    #[arg(long, allow_negative_numbers = true)]
    pub etp: Option<i64>,
    /// Tokens per sequence.
    #[arg(long, default_value_t = 4096, allow_negative_numbers = true)]
    pub seq_len: i64,
    /// Sequences per micro-batch on each GPU.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub micro_batch_size: i64,
    /// Activation checkpointing: blocks keep their input and recompute the rest in the backward pass.
    #[arg(long)]
    pub activation_checkpointing: bool,
    /// The framework overlaps tensor-parallel communication with compute (Megatron --tp-comm-overlap).
    #[arg(long)]
    pub tp_overlap: bool,
    /// The framework overlaps the expert-parallel all-to-all with compute.
    #[arg(long)]
    pub ep_overlap: bool,
    /// ZeRO-1/2: the gradient reduce-scatter runs bucket by bucket behind the backward (Megatron
    /// --overlap-grad-reduce, on in its recipes). false: one reduce-scatter after the backward, exposed
    /// (megatron-core's own default).
    #[arg(
        long,
        default_value_t = true,
        action = clap::ArgAction::Set,
        num_args = 0..=1,
        default_missing_value = "true",
        value_name = "true|false"
    )]
    pub overlap_grad_reduce: bool,
    /// ZeRO-1/2: the parameter all-gather after the optimizer step overlaps the next forward (Megatron
    /// --overlap-param-gather, on in its recipes). false (default): exposed, as DeepSpeed's ZeRO-1/2 and
    /// megatron-core's own default run it.
    #[arg(
        long,
        default_value_t = false,
        action = clap::ArgAction::Set,
        num_args = 0..=1,
        default_missing_value = "true",
        value_name = "true|false"
    )]
    pub overlap_param_gather: bool,
    /// Override: share of the communication hidden behind compute, 0..1 (default: what the frameworks'
    /// schedule hides: DDP's buckets behind the backward pass, FSDP's prefetched gathers, ...).
    #[arg(long, allow_negative_numbers = true)]
    pub overlap: Option<f64>,
    /// Override the ring factor 2(N-1)/N (2 gives the many-participants bound of the reference arithmetic).
    #[arg(long, allow_negative_numbers = true)]
    pub ring_factor: Option<f64>,
    /// Gradient-accumulation micro-steps per optimizer step (one sync per optimizer step).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub grad_accum_steps: i64,
    /// Gradient bucket size (raw bytes or KiB/MiB/GiB/KB/MB/GB); each bucket pays the latency.
    #[arg(long, value_parser = parse_bytes_arg, default_value = "25MiB", value_name = "SIZE")]
    pub bucket_bytes: f64,
}

/// The nodes a job runs on: what `estimate step` and `check-run` share.
#[derive(Debug, Args)]
pub struct NodesArgs {
    /// Number of nodes (above 1, --adapters and --link-gbps are required).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub nodes: i64,
    /// The hardware.
    #[command(flatten)]
    pub cluster: ClusterArgs,
    /// Take the hardware (GPU, GPUs per node, adapters, line rate, fabric, GPUDirect RDMA) from a
    /// `probe-cli report --json` file instead of the hardware flags.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["gpu", "gpus_per_node", "adapters", "link_gbps", "fabric", "no_gdr"])]
    pub report: Option<std::path::PathBuf>,
}

/// `probe-cli estimate step`
#[derive(Debug, Args)]
pub struct StepArgs {
    /// The reference question, as the page's first load asks it: 7B BF16 ZeRO-1 on 2 nodes of 8 H100, one 25 GbE
    /// port per node (no RDMA) against 8 x 400 Gb/s InfiniBand (scenario B), at 262,144 tokens per step and MFU
    /// 35%. The job and hardware flags do not apply with it.
    #[arg(long, conflicts_with_all = ["params", "model", "sync", "nodes", "gpu", "gpus_per_node", "adapters",
          "link_gbps", "fabric", "no_gdr", "report", "compute_ms", "tokens_per_step", "mfu", "vs_link_gbps",
          "vs_fabric", "vs_adapters", "tp", "pp", "ep", "etp", "seq_len", "micro_batch_size", "micro_batches",
          "dtype", "shard_group", "grad_accum_steps"])]
    pub reference: bool,
    /// The job.
    #[command(flatten)]
    pub job: JobArgs,
    /// Its nodes.
    #[command(flatten)]
    pub nodes: NodesArgs,
    /// Compute time per optimizer step in milliseconds (instead of deriving it from tokens).
    #[arg(long, conflicts_with_all = ["tokens_per_step", "mfu"], allow_negative_numbers = true)]
    pub compute_ms: Option<f64>,
    /// Tokens per optimizer step across all GPUs (4Mi, 1e6; default 4Mi = 4,194,304, and 4M is 4,000,000);
    /// compute = 6 x params x tokens / (GPUs x peak x MFU).
    #[arg(long, value_parser = parse_count_arg, value_name = "COUNT")]
    pub tokens_per_step: Option<f64>,
    /// Model FLOPs utilisation for the derived compute time, 0..1.
    #[arg(long, allow_negative_numbers = true)]
    pub mfu: Option<f64>,
    /// Activation memory per GPU to add to the memory fit (bytes or KiB/MiB/GiB/KB/MB/GB); 0 with --model:
    /// from the model's shape.
    #[arg(long, value_parser = parse_bytes_arg, default_value = "0", value_name = "SIZE")]
    pub activation_bytes_per_gpu: f64,
    /// Exposed communication allowed as a share of the step when recommending a fabric.
    #[arg(long, default_value_t = 0.10, allow_negative_numbers = true)]
    pub target_exposed_share: f64,
    /// Also print step time for these node counts, e.g. 1,2,4,8,16.
    #[arg(long, value_delimiter = ',', value_name = "N,N,...")]
    pub sweep_nodes: Vec<u32>,
    /// Also print step time for these line rates in Gb/s, e.g. 25,100,400.
    #[arg(long, value_delimiter = ',', value_parser = parse_gbps_arg, value_name = "GBPS,...")]
    pub sweep_link_gbps: Vec<f64>,
    /// Compare with the same job at this line rate per adapter (scenario B), e.g. 25 against 400.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_gbps_arg, value_name = "GBPS")]
    pub vs_link_gbps: Option<f64>,
    /// Compare with the same job on this fabric (scenario B).
    #[arg(long, value_parser = parse_fabric, value_name = "ib|roce|efa|efa-v2|efa-v3|tcpx|tcpxo|rdma|tcp")]
    pub vs_fabric: Option<Fabric>,
    /// Compare with the same job with this many adapters per node (scenario B).
    #[arg(long, allow_negative_numbers = true, value_name = "N")]
    pub vs_adapters: Option<i64>,
}

/// `probe-cli estimate allreduce`
#[derive(Debug, Args)]
pub struct AllreduceArgs {
    /// Message size (raw bytes or KiB/MiB/GiB/KB/MB/GB; a bare G is GiB as in nccl-tests' -e 8G).
    #[arg(long, value_parser = parse_bytes_arg, value_name = "SIZE")]
    pub bytes: f64,
    /// Number of nodes (above 1, --adapters and --link-gbps are required).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub nodes: i64,
    /// The hardware.
    #[command(flatten)]
    pub cluster: ClusterArgs,
    /// Print a table from 8 bytes to --bytes, doubling, like nccl-tests' -b 8 -e SIZE -f 2.
    #[arg(long)]
    pub table: bool,
    /// Take the hardware (GPU, GPUs per node, adapters, line rate, fabric, GPUDirect RDMA) from a
    /// `probe-cli report --json` file instead of the hardware flags.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["gpu", "gpus_per_node", "adapters", "link_gbps", "fabric", "no_gdr"])]
    pub report: Option<std::path::PathBuf>,
}

/// `probe-cli estimate collective`
#[derive(Debug, Args)]
pub struct CollectiveArgs {
    /// The collective, as nccl-tests names its binaries: all_reduce, all_gather, reduce_scatter, broadcast,
    /// alltoall.
    #[arg(long, value_parser = parse_op, default_value = "all_reduce",
          value_name = "all_reduce|all_gather|reduce_scatter|broadcast|alltoall")]
    pub op: Op,
    /// The common part: size, nodes, hardware, --table, --report.
    #[command(flatten)]
    pub common: AllreduceArgs,
}

fn parse_gbps_arg(s: &str) -> Result<f64, String> {
    estimator_core::quantity::parse_gbps(s).map_err(|e| e.to_string())
}

fn parse_count_arg(s: &str) -> Result<f64, String> {
    parse_count(s).map_err(|e| e.to_string())
}

fn parse_duration_arg(s: &str) -> Result<f64, String> {
    estimator_core::quantity::parse_duration(s).map_err(|e| e.to_string())
}

fn parse_bytes_arg(s: &str) -> Result<f64, String> {
    parse_bytes(s).map_err(|e| e.to_string())
}

fn parse_op(s: &str) -> Result<Op, String> {
    Op::parse(s).ok_or_else(|| {
        format!("unknown collective '{s}' (use all_reduce, all_gather, reduce_scatter, broadcast or alltoall)")
    })
}

fn parse_fabric(s: &str) -> Result<Fabric, String> {
    Fabric::parse(s)
        .ok_or_else(|| format!("unknown fabric '{s}' (use ib, roce, efa, efa-v2, efa-v3, tcpx, tcpxo, rdma or tcp)"))
}

fn parse_dtype(s: &str) -> Result<GradDtype, String> {
    GradDtype::parse(s).ok_or_else(|| format!("unknown gradient type '{s}' (use fp32, bf16, fp16 or fp8)"))
}

fn parse_sync(s: &str) -> Result<SyncStrategy, String> {
    SyncStrategy::parse(s).ok_or_else(|| format!("unknown sync '{s}' (use ddp, zero1, zero2 or zero3)"))
}

fn parse_algorithm(s: &str) -> Result<Algorithm, String> {
    Algorithm::parse(s).ok_or_else(|| format!("unknown algorithm '{s}' (use auto or ring)"))
}

fn parse_intra_node(s: &str) -> Result<IntraNodeLink, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "nvswitch" => Ok(IntraNodeLink::Nvswitch),
        "nvlink" => Ok(IntraNodeLink::Nvlink),
        "xgmi" | "infinity-fabric" => Ok(IntraNodeLink::Xgmi),
        "pcie" => Ok(IntraNodeLink::Pcie),
        "pcie-host-staged" | "no-p2p" | "host-staged" => Ok(IntraNodeLink::PcieHostStaged),
        _ => Err(format!("unknown intra-node link '{s}' (use nvswitch, nvlink, xgmi, pcie or pcie-host-staged)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}
