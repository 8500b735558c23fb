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
fn an_old_trace_takes_sizes_from_the_nccl_ops_shapes() {
    let t = parse(TB_PLUGIN).expect("reads");
    assert_eq!(t.nccl_kernels, 2);
    let mut sizes: Vec<(Op, f64)> = t.calls.calls.iter().map(|c| (c.op, c.bytes)).collect();
    sizes.sort_by(|a, b| a.1.total_cmp(&b.1));
    assert_eq!(sizes, vec![(Op::Broadcast, 53120.0 * 4.0), (Op::AllReduce, 2049000.0 * 4.0)]);
}

#[test]
fn what_is_not_a_trace_says_why() {
    assert_eq!(parse(b""), Err(TraceError::Empty));
    assert_eq!(parse(&[0x1f, 0x8b, 8, 0]), Err(TraceError::Gzip));
    assert_eq!(parse(b"<html>"), Err(TraceError::NotJson { byte: b'<' }));
    assert_eq!(parse(b"{\"a\": 1}"), Err(TraceError::NoEvents));
    let t =
        parse(b"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": \"x\"}, 5, {\"ph\": ").expect("reads");
    assert!(t.problems.iter().any(|p| p.contains("without ts or dur")), "{:?}", t.problems);
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
    let cut = RankList { ranks: vec![0, 8, 248], cut: true };
    assert_eq!(cut.members(Some(32)).len(), 32);
    assert_eq!(RankList { ranks: vec![0, 8, 9], cut: true }.members(Some(32)), Vec::<u32>::new());
}
