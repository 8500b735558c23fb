#!/usr/bin/env python3
"""Writes the small PyTorch profiler traces and NCCL Inspector dumps the tests judge, by the formats' own
definitions (see README.md here and in ../inspector): a 7B model over 4 nodes of 8 H100 with 8 x 400 Gb/s
InfiniBand, tensor parallel 8 inside each node and data parallel 4 across the nodes (one GPU per node in each
data-parallel group). Run from this directory: python3 generate.py

The bus bandwidths are the model's own for those communicators (probe-cli estimate collective, see below) times a
share: 0.95 healthy, 0.38 for the slow network. The tests built on these files therefore check the reading, the
grouping, the verdict logic and the floors of healthy public runs, not the model's accuracy.

  TP all-reduce of 32 MiB inside a node:   probe-cli estimate collective --op all_reduce --bytes 33554432
                                            --nodes 1 --gpus-per-node 8                       -> 391.6 GB/s
  DP all-reduce of 100 MiB across 4 nodes: probe-cli estimate collective --op all_reduce --bytes 104857600
                                            --nodes 4 --gpus-per-node 1 --adapters 1 --link-gbps 400 --algo ring
                                                                                               -> 45.8 GB/s
"""
import json
import os

MIB = 1 << 20
TP_BYTES, TP_BUSBW = 32 * MIB, 391.6
DP_BYTES, DP_BUSBW = 100 * MIB, 45.8
LAYERS, BUCKETS, STEPS = 32, 17, 3
FWD_US, BWD_US, OPT_US = 900.0, 1800.0, 4000.0


def ar_us(nbytes, ranks, busbw):
    """An all-reduce's time at a bus bandwidth (nccl-tests: busbw = bytes/time x 2(n-1)/n)."""
    return nbytes * 2 * (ranks - 1) / ranks / (busbw * 1e3)


class Trace:
    def __init__(self, rank):
        self.rank, self.events, self.corr, self.ext = rank, [], 1000, 5000

    def kernel(self, name, ts, dur, stream, launch, nccl=None):
        self.corr += 1
        self.ext += 1
        self.events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 100,
                            "ts": round(launch, 3), "dur": 4.0,
                            "args": {"cbid": 211, "correlation": self.corr, "External id": self.ext}})
        args = {"External id": self.ext, "device": 0, "stream": stream, "correlation": self.corr,
                "grid": [132, 1, 1], "block": [512, 1, 1]}
        if nccl:
            args.update(nccl)
        self.events.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": stream,
                            "ts": round(ts, 3), "dur": round(dur, 3), "args": args})

    def write(self, path):
        doc = {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
               "distributedInfo": {"backend": "nccl", "rank": self.rank, "world_size": 32},
               "displayTimeUnit": "ms", "baseTimeNanoseconds": 1733300000000000000,
               "traceEvents": self.events, "traceName": path}
        with open(path, "w") as f:
            json.dump(doc, f, separators=(",", ":"))
            f.write("\n")


def meta(name, nbytes, pg, desc, ranks):
    return {"Collective name": name, "In msg nelems": nbytes // 2, "Out msg nelems": nbytes // 2,
            "Group size": len(ranks), "dtype": "BFloat16", "In split size": "[]", "Out split size": "[]",
            "Process Group Name": pg, "Process Group Description": desc,
            "Process Group Ranks": "[" + ", ".join(map(str, ranks)) + "]"}


AR_KERNEL = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"


def traces(dp_share, slow_rank=None, ranks=(0,), slower=0.0, overlap=True):
    """One trace per rank of the data-parallel group (global ranks 0, 8, 16, 24: one per node). `slow_rank`
    computes its backward `slower` longer: the others wait for it at each data-parallel all-reduce. Without
    `overlap`, every data-parallel all-reduce waits for the end of the backward (nothing hides them)."""
    out = {r: Trace(r) for r in ranks}
    tp_us = ar_us(TP_BYTES, 8, TP_BUSBW * 0.95)
    dp_us = ar_us(DP_BYTES, 4, DP_BUSBW * dp_share)
    clock = {r: 0.0 for r in ranks}
    for step in range(STEPS):
        starts = dict(clock)
        dp_ready = {}
        for r in ranks:
            t, node = clock[r], r // 8
            tp_ranks = list(range(node * 8, node * 8 + 8))
            tp = meta("allreduce", TP_BYTES, str(1 + node), "tp", tp_ranks)
            for layer in range(LAYERS):
                out[r].kernel("ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_64x3_tn", t, FWD_US, 7, t - 50)
                t += FWD_US
                out[r].kernel(AR_KERNEL, t, tp_us, 20, t - 40, tp)
                t += tp_us
            per_bucket = LAYERS // 2
            ready = []
            for layer in range(LAYERS):
                bwd = BWD_US * (1 + (slower if r == slow_rank else 0.0))
                out[r].kernel("ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_nt", t, bwd, 7, t - 50)
                t += bwd
                out[r].kernel(AR_KERNEL, t, tp_us, 20, t - 40, tp)
                t += tp_us
                if overlap and layer % 2 == 1 and len(ready) < BUCKETS:
                    ready.append(t)
            while len(ready) < BUCKETS:
                ready.append(t)
            dp_ready[r] = (ready, t)
        # The data-parallel all-reduces: each starts when every rank has launched it, on the comm stream.
        dp_ranks = [0, 8, 16, 24]
        dp = meta("allreduce", DP_BYTES, "5", "dp", dp_ranks)
        busy = {r: 0.0 for r in ranks}
        ends = []
        for b in range(BUCKETS):
            begin = max(max(dp_ready[r][0][b], busy[r]) for r in ranks)
            for r in ranks:
                start = max(dp_ready[r][0][b], busy[r])
                out[r].kernel(AR_KERNEL, start, begin - start + dp_us, 24, dp_ready[r][0][b] - 20, dp)
                busy[r] = begin + dp_us
            ends.append(begin + dp_us)
        for r in ranks:
            t = max(dp_ready[r][1], ends[-1])
            out[r].kernel("multi_tensor_apply_kernel", t, OPT_US, 7, t - 30)
            t += OPT_US
            clock[r] = t + 200.0
        end = max(clock.values())
        for r in ranks:
            out[r].events.append({"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{step + 10}",
                                  "pid": 100, "tid": 100, "ts": round(starts[r] - 100, 3),
                                  "dur": round(end - starts[r] + 100, 3), "args": {"External id": 1}})
            clock[r] = end
    return out


def inspector(dp_share, name):
    """The Inspector's records (v4.2) of the same job: each data-parallel rank's TP and DP all-reduces."""
    os.makedirs(os.path.join("..", "inspector", name), exist_ok=True)
    tp_us = round(ar_us(TP_BYTES, 8, TP_BUSBW * 0.95))
    dp_us = round(ar_us(DP_BYTES, 4, DP_BUSBW * dp_share))
    for node, r in enumerate([0, 8, 16, 24]):
        host, pid = f"node{node:02d}", 4000 + r
        lines = []
        for sn in range(1, 41):
            for comm, size, ranks, nnodes, us, cname in (
                (f"0x{0xa1b2c3d4e5f600 + node:x}", TP_BYTES, 8, 1, tp_us, "tp"),
                ("0x5d4c3b2a190807", DP_BYTES, 4, 4, dp_us, "dp"),
            ):
                algbw = size / us / 1e3
                lines.append({
                    "header": {"id": comm, "comm_name": cname, "rank": r % 8 if cname == "tp" else node,
                               "n_ranks": ranks, "nnodes": nnodes},
                    "metadata": {"inspector_output_format_version": "v4.2", "git_rev": "",
                                 "rec_mechanism": "nccl_profiler_interface",
                                 "dump_timestamp_us": 1733300000000000 + sn * 1000, "hostname": host, "pid": pid},
                    "coll_perf": {"coll": "AllReduce", "coll_algo": "RING", "coll_proto": "SIMPLE", "coll_sn": sn,
                                  "coll_msg_size_bytes": size, "coll_exec_time_us": us,
                                  "coll_timing_source": "kernel_gpu", "coll_algobw_gbs": round(algbw, 6),
                                  "coll_busbw_gbs": round(algbw * 2 * (ranks - 1) / ranks, 6)}})
        with open(os.path.join("..", "inspector", name, f"{host}-pid{pid}.log"), "w") as f:
            for line in lines:
                f.write(json.dumps(line, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    traces(0.95)[0].write("healthy-rank0.json")
    traces(0.38)[0].write("slow-network-rank0.json")
    traces(0.95, overlap=False)[0].write("no-overlap-rank0.json")
    os.makedirs("straggler", exist_ok=True)
    for r, t in traces(0.95, slow_rank=16, ranks=(0, 8, 16, 24), slower=0.25).items():
        t.write(os.path.join("straggler", f"rank{r}.json"))
    inspector(0.95, "healthy")
    inspector(0.38, "slow-network")
