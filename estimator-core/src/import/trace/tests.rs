//! The trace reader on real public files (Kineto's own output; the tb_plugin's distributed fixture) and on the
//! files `tests/data/traces/generate.py` writes by the format's definition.

use super::*;

const HEALTHY: &[u8] = include_bytes!("../../../../tests/data/traces/healthy-rank0.json");
const KINETO: &[u8] = include_bytes!("../../../../tests/data/traces/kineto-docs-before-fix-trace.json");
const TB_PLUGIN: &[u8] = include_bytes!("../../../../tests/data/traces/tbplugin-distributed-nccl-worker0.json");

#[test]
fn a_trace_gives_its_rank_groups_calls_and_steps() {
    let t = parse(HEALTHY).expect("reads");
    assert_eq!((t.rank, t.world_size), (Some(0), Some(32)));
    assert_eq!((t.nccl_kernels, t.calls.calls.len(), t.unreadable_events), (243, 243, 0));
    let dp = t.calls.comms.iter().find(|c| c.id == "5").expect("the dp group");
    assert_eq!((dp.label.as_deref(), dp.ranks, dp.members.as_slice()), (Some("dp"), 4, &[0, 8, 16, 24][..]));
    let call = t.calls.calls.iter().find(|c| t.calls.comms[c.comm as usize].id == "5").expect("a dp call");
    assert_eq!((call.op, call.bytes), (Op::AllReduce, 100.0 * 1024.0 * 1024.0), "In msg nelems x BFloat16");
    assert_eq!(t.steps.steps.len(), 3);
    for s in &t.steps.steps {
        assert!((s.comm_s - s.exposed_comm_s - s.hidden_comm_s).abs() < 1e-12, "communication = exposed + hidden");
        assert!(s.exposed_comm_s > 0.0 && s.hidden_comm_s > 0.0 && s.compute_busy_s > 0.0);
    }
    let (step, exposed) = (t.steps.median_step_s.expect("steps"), t.steps.median_exposed_comm_s.expect("steps"));
    let compute = t.steps.median_compute_s.expect("steps");
    // Three steps of the same shape: the medians are one step's, so the compute is its step less its exposed part.
    assert!((compute - (step - exposed)).abs() < 1e-9);
    assert_eq!(t.steps.outside_steps, 0, "every kernel's launch falls in a step");
}

#[test]
fn chunks_of_any_size_read_the_same() {
    let whole = parse(HEALTHY).expect("reads");
    for chunk in [1usize << 16, 4093, 7] {
        let slice = if chunk == 7 { &HEALTHY[..HEALTHY.len().min(200_000)] } else { HEALTHY };
        let mut r = TraceReader::new();
        for c in slice.chunks(chunk) {
            r.feed(c);
        }
        let t = r.finish().expect("reads");
        if chunk != 7 {
            assert_eq!(t, whole, "chunk {chunk}");
        } else {
            assert!(t.problems.iter().any(|p| p.contains("cut at byte 200000")), "{:?}", t.problems);
            assert!(t.calls.calls.len() < whole.calls.calls.len() && !t.calls.calls.is_empty());
        }
    }
}

#[test]
fn kinetos_own_output_reads_without_a_problem() {
    let t = parse(KINETO).expect("reads");
    assert!(t.kernels > 0 && t.nccl_kernels == 0 && t.problems.is_empty(), "{t:?}");
    assert!(looks_like(std::str::from_utf8(KINETO).expect("utf-8")));
}

#[test]
fn an_old_trace_without_group_sizes_is_read_but_not_judged() {
    let t = parse(TB_PLUGIN).expect("reads");
    assert_eq!((t.nccl_kernels, t.calls.calls.len()), (2, 0));
    assert!(
        t.calls.coverage.iter().any(|c| c.starts_with("2 NCCL kernels belong to a process group whose size")),
        "{:?}",
        t.calls.coverage
    );
}

/// Sizes from an old trace's `nccl:` op shapes by `External id`; nested shapes (a list of tensors, as `record_shapes`
/// writes them, its type `TensorList`) are read without a problem and give no size.
#[test]
fn shapes_give_sizes_and_nested_ones_are_read() {
    let doc = br#"[
      {"ph": "X", "cat": "cpu_op", "name": "nccl:broadcast", "ts": 0, "dur": 5,
       "args": {"External id": 1, "Input Dims": [[53120]], "Input type": ["float"], "Group size": 2}},
      {"ph": "X", "cat": "cpu_op", "name": "nccl:all_reduce", "ts": 10, "dur": 5,
       "args": {"External id": 2, "Input Dims": [[2049000]], "Input type": ["float"], "Group size": 2}},
      {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "ts": 15, "dur": 5,
       "args": {"External id": 4, "Input Dims": [[[11011, 6144]], [], []], "Input type": ["TensorList", "Int", "Int"],
                "Group size": 2, "Process Group Name": "0", "Process Group Description": "default_pg", "Rank": 1}},
      {"ph": "X", "cat": "cpu_op", "name": "aten::cat", "ts": 20, "dur": 5,
       "args": {"External id": 3, "Input Dims": [[[704], [704]], []], "Input type": ["TensorList", "Scalar"]}},
      {"ph": "X", "cat": "Kernel", "name": "ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclWorkElem)", "ts": 1, "dur": 16,
       "args": {"device": 0, "external id": 1}},
      {"ph": "X", "cat": "Kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", "ts": 12, "dur": 1556,
       "args": {"device": 0, "external id": 2}}
    ]"#;
    let t = parse(doc).expect("reads");
    assert_eq!(t.unreadable_events, 0, "nested shapes are read: {:?}", t.problems);
    let mut sizes: Vec<(Op, f64)> = t.calls.calls.iter().map(|c| (c.op, c.bytes)).collect();
    sizes.sort_by(|a, b| a.1.total_cmp(&b.1));
    assert_eq!(sizes, vec![(Op::Broadcast, 53120.0 * 4.0), (Op::AllReduce, 2049000.0 * 4.0)]);
    assert_eq!(t.rank, Some(1), "the default group's Rank is the global rank");
}

/// `Seq`, when the trace has it, numbers a call the same on every rank whatever its place in the window.
#[test]
fn seq_numbers_the_calls_when_present() {
    let doc = br#"{"distributedInfo": {"rank": 3}, "traceEvents": [
      {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(x)", "ts": 5, "dur": 10,
       "args": {"Collective name": "allreduce", "In msg nelems": 1048576, "Out msg nelems": 1048576, "Group size": 4,
                "dtype": "BFloat16", "Process Group Name": "7", "Seq": 41}},
      {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(x)", "ts": 1, "dur": 10,
       "args": {"Collective name": "allreduce", "In msg nelems": 1048576, "Out msg nelems": 1048576, "Group size": 4,
                "dtype": "BFloat16", "Process Group Name": "7", "Seq": 40}}
    ]}"#;
    let t = parse(doc).expect("reads");
    let mut seqs: Vec<u64> = t.calls.calls.iter().map(|c| c.seq).collect();
    seqs.sort();
    assert_eq!(seqs, vec![40, 41]);
    assert_eq!(t.calls.ranks, vec![3]);
}

#[test]
fn what_is_not_a_trace_says_why() {
    assert_eq!(parse(b""), Err(TraceError::Empty));
    assert_eq!(parse(&[0x1f, 0x8b, 8, 0]), Err(TraceError::Gzip));
    assert_eq!(parse(b"<html>"), Err(TraceError::NotJson { byte: b'<' }));
    assert_eq!(parse(b"{\"a\": 1}"), Err(TraceError::NoEvents));
    let t =
        parse(b"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": \"x\"}, 5, {\"ph\": ").expect("reads");
    assert!(t.problems.iter().any(|p| p.contains("without a ts or dur in range")), "{:?}", t.problems);
    assert!(t.problems.iter().any(|p| p.contains("cut at byte")), "{:?}", t.problems);
    let t = parse(b"{\"traceEvents\": [{\"ph\": \"X\", \"dur\": [}]}").expect("reads");
    assert!(t.problems[0].starts_with("event 0 (at byte 17)"), "{:?}", t.problems);
}

#[test]
fn names_read_as_collectives_and_types_as_bytes() {
    for (name, op) in [
        ("allreduce", Some(Op::AllReduce)),
        ("_allgather_base", Some(Op::AllGather)),
        ("_reduce_scatter_base", Some(Op::ReduceScatter)),
        ("all_to_all", Some(Op::AllToAll)),
        ("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", Some(Op::AllGather)),
        ("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", Some(Op::AllReduce)),
        ("ncclDevKernel_SendRecv(x)", None),
        ("barrier", None),
    ] {
        assert_eq!(op_of(name), op, "{name}");
    }
    assert_eq!(dtype_bytes("BFloat16"), Some(2.0));
    assert_eq!(dtype_bytes("c10::Half"), Some(2.0));
    assert_eq!(dtype_bytes("float"), Some(4.0));
    assert_eq!(dtype_bytes("Nonsense"), None);
    // PyTorch's cut list: the first 30 ranks, then `...`.
    let cut = RankList { ranks: (0..30).map(|i| i * 8).collect(), cut: true };
    let members = cut.members(Some(32));
    assert_eq!((members.len(), members[31]), (32, 248));
    // Four ranks per node over 16 nodes: not evenly spaced, so not filled in.
    let four: Vec<u32> = (0..30).map(|i| i / 4 * 8 + i % 4).collect();
    assert_eq!(RankList { ranks: four, cut: true }.members(Some(64)), Vec::<u32>::new());
}
