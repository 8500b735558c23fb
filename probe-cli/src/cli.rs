//! The command line: clap derive structs, one per subcommand, and the value parsers they share.

use clap::{Args, Parser, Subcommand};
use estimator_core::Fabric;
use estimator_core::collective::Op;
use estimator_core::quantity::{parse_bytes, parse_count};

use crate::flags::{ComputeFlags, HardwareFlags, JobFlags};

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
    /// Print the JSON Schema of the report that `report --json` writes (or, with --profile, of the profile that
    /// `calibrate` writes).
    Schema(SchemaArgs),
    /// Fit a profile of your cluster from your nccl-tests outputs (any collective, sizes and node counts): per
    /// collective and node count measured, a correction of the model's latency, peak bus bandwidth and size ramp,
    /// validated by leaving each run out and predicting it. `--profile` then applies it to estimate, health,
    /// check-run, plan, pairs, thresholds and recipe.
    #[command(after_help = "Examples:\n  probe-cli calibrate --report node.json --out profile.json runs/\n  \
                            probe-cli calibrate --gpu h100 --gpus-per-node 8 --adapters 8 --link-gbps 400 --fabric ib \
                            --out profile.json all_reduce_2n.txt all_reduce_4n.txt all_gather_2n.txt\n  \
                            probe-cli estimate step --report node.json --nodes 8 --profile profile.json")]
    Calibrate(CalibrateArgs),
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
    /// Which node is bad? Many two-node nccl-tests runs (one file per pair, hosts from the rank lines, the NCCL
    /// log lines or the name `hostA_hostB.txt`), each judged against the model: the slow pairs, the nodes common to
    /// them with how sure that is, and the next round of pairs that would tell the remaining suspects apart.
    #[command(after_help = "Examples:\n  probe-cli pairs --report node.json pairs/\n  \
                            probe-cli pairs --gpus-per-node 8 --gpu h100 --adapters 8 --link-gbps 400 --fabric ib \
                            node03_node07.txt node01_node03.txt\n  \
                            probe-cli pairs --report node.json --json pairs/ | jq '.suspects'")]
    Pairs(PairsArgs),
    /// The nccl-tests commands that answer "is this fabric what I rented?" on this node's fabric, ready to paste:
    /// one node, two nodes and the pairwise rounds over a host list, for all_reduce, all_gather, reduce_scatter
    /// and alltoall, as mpirun and srun lines, with the environment the fabric needs (each variable with why and
    /// its source) and iterations sized by the model so that a run takes about a minute. Prints a bash script;
    /// runs nothing.
    #[command(after_help = "Examples:\n  probe-cli recipe --report node.json > nccl-tests.sh\n  \
                            probe-cli recipe --report node.json --hosts hosts.txt --launcher srun\n  \
                            probe-cli recipe --fabric roce --gpus-per-node 8 --adapters 8 --link-gbps 400 \
                            --nccl-version 2.20.5\n  \
                            probe-cli recipe --report node.json --json | jq -r '.env[] | .name + \"=\" + .value'")]
    Recipe(RecipeArgs),
    /// The bus bandwidth a health check can gate on: for a node shape and node count, each collective and size
    /// with the model's bus bandwidth and the floor under it that healthy runs clear (from the model's validated
    /// error on held-out public runs), as CSV (the default) or JSON.
    #[command(after_help = "Examples:\n  probe-cli thresholds --report node.json --nodes 2 > thresholds.csv\n  \
                            probe-cli thresholds --report node.json --nodes 1 --op all_reduce --bytes 16G\n  \
                            probe-cli thresholds --gpu h100 --gpus-per-node 8 --adapters 8 --link-gbps 400 --fabric ib \
                            --nodes 4 --json | jq '.thresholds[] | select(.size_bytes == 8589934592)'")]
    Thresholds(ThresholdsArgs),
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

/// `probe-cli schema`
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The profile's schema (`calibrate --out`) instead of the report's.
    #[arg(long)]
    pub profile: bool,
}

/// `probe-cli calibrate`
#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// nccl-tests outputs, or directories whose regular files are (a file of several runs gives each).
    #[arg(required = true, value_name = "DIR|RUN")]
    pub paths: Vec<std::path::PathBuf>,
    /// Where to write the profile.
    #[arg(long, value_name = "FILE")]
    pub out: std::path::PathBuf,
    /// A node's `probe-cli report --json`: the hardware every run was measured on.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["gpu", "gpus_per_node", "adapters", "link_gbps", "fabric", "no_gdr"])]
    pub report: Option<std::path::PathBuf>,
    /// The hardware, when there is no report; `--json` prints the profile and what was refused.
    #[command(flatten)]
    pub hardware: HardwareFlags,
    /// Print one JSON document (`profile`, `refused`) on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `probe-cli thresholds`
#[derive(Debug, Args)]
pub struct ThresholdsArgs {
    /// A node's `probe-cli report --json`: the node shape.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["gpu", "gpus_per_node", "adapters", "link_gbps", "fabric", "no_gdr"])]
    pub report: Option<std::path::PathBuf>,
    /// Nodes in the run the gate is for.
    #[arg(long, default_value_t = 2, allow_negative_numbers = true)]
    pub nodes: i64,
    /// Collectives (repeat, or a comma list); default all_reduce, all_gather, reduce_scatter and alltoall.
    #[arg(long, value_parser = parse_op, value_delimiter = ',', value_name = "COLLECTIVE")]
    pub op: Vec<Op>,
    /// Sizes (repeat, or a comma list; raw bytes or KiB/MiB/GiB, a bare G is GiB as in nccl-tests); default
    /// nccl-tests' sweep -b 8 -e 8G -f 2.
    #[arg(long, value_parser = parse_bytes_arg, value_delimiter = ',', value_name = "SIZE")]
    pub bytes: Vec<f64>,
    /// The hardware, when there is no report; `--json` for JSON instead of CSV.
    #[command(flatten)]
    pub cluster: ClusterArgs,
}

/// `probe-cli recipe`
#[derive(Debug, Args)]
pub struct RecipeArgs {
    /// The node's `probe-cli report --json`: its fabric, active ports, RoCE GID index, interfaces and NCCL version.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["gpu", "gpus_per_node", "adapters", "link_gbps", "fabric", "no_gdr"])]
    pub report: Option<std::path::PathBuf>,
    /// Hosts, one a line (a hostfile's `node01 slots=8` reads as node01): the first two for the two-node runs, all
    /// of them for the pairwise rounds.
    #[arg(long, value_name = "FILE")]
    pub hosts: Option<std::path::PathBuf>,
    /// The NCCL version the runs will use (2.21.5), when the report's environment does not name it: RoCE's GID
    /// index is set only before 2.21.5.
    #[arg(long, value_name = "X.Y.Z", value_parser = parse_version_arg)]
    pub nccl_version: Option<String>,
    /// Which launcher's lines to write.
    #[arg(long, value_enum, default_value = "both")]
    pub launcher: LauncherChoice,
    /// The hardware, when there is no report.
    #[command(flatten)]
    pub cluster: ClusterArgs,
}

/// `--launcher`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LauncherChoice {
    /// Open MPI's mpirun, then Slurm's srun.
    Both,
    /// Open MPI's mpirun.
    Mpirun,
    /// Slurm's srun.
    Srun,
}

fn parse_version_arg(s: &str) -> Result<String, String> {
    estimator_core::recipe::parse_version(s)
        .map(|_| s.trim().to_string())
        .ok_or_else(|| format!("takes an NCCL version as X.Y.Z (2.21.5), not '{s}'"))
}

/// `probe-cli pairs`
#[derive(Debug, Args)]
pub struct PairsArgs {
    /// Two-node nccl-tests outputs, or directories whose regular files are (hidden files left out).
    #[arg(required = true, value_name = "DIR|RUN")]
    pub paths: Vec<std::path::PathBuf>,
    /// A node's `probe-cli report --json`: the hardware of every node in the pairs.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["gpu", "gpus_per_node", "adapters", "link_gbps", "fabric", "no_gdr"])]
    pub report: Option<std::path::PathBuf>,
    /// Which run of a file that holds several to judge, in every file: its number from 1 or `last`.
    #[arg(long, value_name = "K|last", value_parser = parse_run_choice)]
    pub run: Option<RunChoice>,
    /// The hardware, when there is no report (GPUs per node: half the runs' ranks unless given).
    #[command(flatten)]
    pub cluster: ClusterArgs,
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
    /// How the global batch follows the node count: keep-global (the job's tokens per step on every count) or
    /// keep-per-gpu (its tokens per GPU, --tokens-per-step over --batch-gpus: more nodes, a larger batch, fewer
    /// steps).
    #[arg(long, value_parser = parse_batch_arg, default_value = "keep-global", value_name = "RULE")]
    pub batch: estimator_core::BatchRule,
    /// The GPUs --tokens-per-step is for, under --batch keep-per-gpu (default 16: two nodes of 8).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), value_name = "GPUS")]
    pub batch_gpus: Option<u32>,
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
    /// A profile of your cluster (`calibrate --out`): it corrects the offers of its hardware (say yours with
    /// --prices when no catalog offer is).
    #[arg(long, value_name = "FILE")]
    pub profile: Option<std::path::PathBuf>,
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
    /// The run's own step on one node (or one GPU) for the same per-GPU work, milliseconds: the compute. With
    /// --trace and without it: the trace's median step less its exposed communication.
    #[arg(long, allow_negative_numbers = true, value_name = "MS")]
    pub compute_ms: Option<f64>,
    /// The run's NCCL Inspector dumps (NCCL's profiler plugin): a file, or the directory of its
    /// `<host>-pid<pid>.log` files; the collectives are judged per communicator against the model.
    #[arg(long, value_name = "DIR|FILE")]
    pub inspector: Vec<std::path::PathBuf>,
    /// A PyTorch profiler trace of the run (torch.profiler's JSON, gzip or not), one per rank: the NCCL kernels
    /// judged per process group, the communication exposed and hidden per step, and with several ranks the
    /// straggler. Without a measurement flag, the trace's median step is the measured one.
    #[arg(long, value_name = "FILE")]
    pub trace: Vec<std::path::PathBuf>,
    /// The step measured on the nodes, seconds.
    #[arg(long, allow_negative_numbers = true, value_name = "S")]
    pub measured_step_s: Option<f64>,
    /// Or the throughput measured, tokens per second over all GPUs.
    #[arg(long, allow_negative_numbers = true, value_name = "TOKENS")]
    pub measured_tokens_per_s: Option<f64>,
    /// Tokens per optimizer step across all GPUs (the global batch), as in `estimate`: the micro-batches each
    /// data-parallel rank runs (unless --micro-batches or --grad-accum-steps says), and with
    /// --measured-tokens-per-s the step (default: sequence length x micro-batch size x micro-batches x
    /// data-parallel GPUs).
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

/// The hardware, shared by the model commands: its flags come from the core's table of inputs
/// (`crate::flags`).
#[derive(Debug, Args)]
pub struct ClusterArgs {
    /// The hardware and the overrides of its collectives.
    #[command(flatten)]
    pub hardware: HardwareFlags,
    /// A profile of your cluster (`probe-cli calibrate --out profile.json`): every collective's time corrected by
    /// what your own nccl-tests runs measured on this hardware.
    #[arg(long, value_name = "FILE", conflicts_with = "measured_busbw_gbs")]
    pub profile: Option<std::path::PathBuf>,
    /// Print one JSON document on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The job, whatever it runs on: what `estimate step`, `check-run` and `plan` share. Its flags come from the
/// core's table of inputs (`crate::flags`).
pub type JobArgs = JobFlags;

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
    #[arg(long, conflicts_with_all = crate::flags::reference_conflicts(&["report", "vs_link_gbps", "vs_fabric", "vs_adapters"]))]
    pub reference: bool,
    /// The job.
    #[command(flatten)]
    pub job: JobArgs,
    /// Its nodes.
    #[command(flatten)]
    pub nodes: NodesArgs,
    /// The compute per step: `--compute-ms`, or `--tokens-per-step` and `--mfu`.
    #[command(flatten)]
    pub compute: ComputeFlags,
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

fn parse_batch_arg(s: &str) -> Result<estimator_core::BatchRule, String> {
    estimator_core::BatchRule::parse(s)
        .ok_or_else(|| format!("'{s}' is not a batch rule (keep-global or keep-per-gpu)"))
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}
