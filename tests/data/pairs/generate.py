#!/usr/bin/env python3
"""Writes the two-node nccl-tests all_reduce_perf outputs of tests/data/pairs/ from source.txt.

source.txt is one public, measured two-node run (2 x 8 H100, 8x 400 Gb/s InfiniBand per node, nccl-tests#309);
every file written here is that run with its two host names replaced by the pair's and its numbers changed:

- a healthy pair: time x 1/f, bandwidths x f, where f = 1 +/- 3% from a hash of the pair's name, times a per-row
  jitter of +/- 0.5% (hash of name, size and column);
- a pair with a degraded node (half its NICs down): on top of that, time x m(S) with
  m(S) = 1 + (1/r - 1) * S / (S + 2 MiB) and r in [0.48, 0.52] from a hash of the name, so busbw at the large sizes
  is r of the healthy value while the latency-bound rows (< 64 KiB) lose under 2%;
- algbw = size / time and busbw = algbw * 2(n-1)/n (n = 16 ranks), recomputed from the new, unrounded time;
- `# Avg bus bandwidth` = the mean busbw over all rows, out-of-place and in-place (as nccl-tests' common.cu:
  bw += busBw once per BenchTime call, then bw /= bw_count, printed with %g).

Numbers are printed with nccl-tests' own formats ("%12li  %12li  %8s  %6s  %6i" then "  %7s  %6.2f  %6.2f  %5li"
per column, time as %7.0f / %7.1f / %7.2f for >= 10000 / >= 100 / smaller); the script checks that these formats
give back the source's rows and rank lines unchanged before it writes anything.

Standard library only, deterministic (no random module), runnable from anywhere: it rewrites the folders beside
itself (one-bad/, two-bad/, none/, names-from-files/).
"""

import hashlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "source.txt")

RANKS = 16  # 2 nodes x 8 GPUs
BUS_FACTOR = 2.0 * (RANKS - 1) / RANKS  # all_reduce
HEALTHY_SPREAD = 0.03  # +/- per pair
ROW_JITTER = 0.005  # +/- per row and column
DEGRADED_RATIO = (0.48, 0.52)  # busbw of a pair with a degraded node / healthy, at large sizes
KNEE_BYTES = 2 * 1024 * 1024  # m(S) = 1 + (1/r - 1) * S / (S + KNEE_BYTES)

RANK_RE = re.compile(r"^#  Rank +(\d+) Group +(\d+) Pid +(\d+) on +(\S+) device +(\d+) (\[[^\]]*\]) (.*)$")


def unit(text):
    """A deterministic number in [0, 1) from a string."""
    return int(hashlib.sha256(text.encode()).hexdigest()[:13], 16) / float(16**13)


def fmt_time(us):
    if us >= 10000.0:
        return "%7.0f" % us
    if us >= 100.0:
        return "%7.1f" % us
    return "%7.2f" % us


def fmt_rank(rank, group, pid, host, dev, bus, name):
    return "#  Rank %2d Group %2d Pid %6d on %10s device %2d %s %s" % (rank, group, pid, host, dev, bus, name)


def fmt_row(size, count, typ, redop, root, cols):
    out = "%12li  %12li  %8s  %6s  %6i" % (size, count, typ, redop, root)
    for time_str, algbw, busbw, wrong in cols:
        out += "  %7s  %6.2f  %6.2f  %5s" % (time_str, algbw, busbw, wrong)
    return out


def load_source():
    """The nccl-tests output in source.txt, split into its parts; checks the formats round-trip."""
    with open(SOURCE) as f:
        lines = f.read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("# nThread"))
    pre, ranks, mid, header, rows, footer = [], [], [], [], [], []
    part = "pre"
    for line in lines[start:]:
        if line.startswith("["):  # mpirun's own messages (help aggregation), not nccl-tests output
            continue
        m = RANK_RE.match(line)
        fields = line.split()
        is_row = len(fields) == 13 and fields[0].isdigit()
        if m:
            part = "ranks"
            rank, group, pid, host, dev, bus, name = m.groups()
            rank, group, pid, dev = int(rank), int(group), int(pid), int(dev)
            assert fmt_rank(rank, group, pid, host, dev, bus, name) == line, "rank line format: " + line
            ranks.append((rank, group, pid, host, dev, bus, name))
        elif is_row:
            part = "rows"
            size, count = int(fields[0]), int(fields[1])
            cols = [(fields[5], float(fields[6]), float(fields[7]), fields[8]),
                    (fields[9], float(fields[10]), float(fields[11]), fields[12])]
            assert fmt_row(size, count, fields[2], fields[3], int(fields[4]), cols) == line, "row format: " + line
            for t, _, _, _ in cols:
                assert fmt_time(float(t)).strip() == t, "time format: " + t
            rows.append((size, count, fields[2], fields[3], int(fields[4]), cols))
        elif part == "pre":
            pre.append(line)
        elif part == "ranks":
            if line.startswith("#       size") or line.startswith("#        (B)") or "out-of-place" in line:
                header.append(line)
            else:
                mid.append(line)
        elif part == "rows":
            footer.append(line)
    while footer and footer[-1] == "":
        footer.pop()
    assert len(ranks) == RANKS and len(header) == 3 and rows, "unexpected source shape"
    # The source's footer is the mean busbw of both columns over all rows.
    mean = sum(c[2] for r in rows for c in r[5]) / (2 * len(rows))
    assert any(l == "# Avg bus bandwidth    : %g" % mean for l in footer), "source average"
    return pre, ranks, mid, header, rows, footer


def pair_text(src, first, second, degraded, with_ranks=True):
    """The output of one two-node run: `first` holds ranks 0-7, `second` ranks 8-15."""
    pre, ranks, mid, header, rows, footer = src
    name = "%s_%s" % (first, second)
    f_pair = 1.0 + HEALTHY_SPREAD * (2.0 * unit("pair:" + name) - 1.0)
    lo, hi = DEGRADED_RATIO
    r = lo + (hi - lo) * unit("degraded:" + name) if degraded else 1.0

    out = []
    if with_ranks:
        out += pre
        hosts = [ranks[0][3], ranks[-1][3]]
        for rank, group, pid, host, dev, bus, gpu in ranks:
            node = first if host == hosts[0] else second
            base = 1000 + int(89000 * unit("pid:%s:%s" % (name, node)))
            local = rank if node == first else rank - RANKS // 2
            out.append(fmt_rank(rank, group, base + local, node, dev, bus, gpu))
        out += mid
    out += header
    busbws = []
    for size, count, typ, redop, root, cols in rows:
        new_cols = []
        for k, (t, _, _, wrong) in enumerate(cols):
            jitter = 1.0 + ROW_JITTER * (2.0 * unit("row:%s:%d:%d" % (name, size, k)) - 1.0)
            slow = 1.0 + (1.0 / r - 1.0) * size / (size + KNEE_BYTES)
            us = float(t) / (f_pair * jitter) * slow
            algbw = size / us / 1e3  # GB/s
            busbw = algbw * BUS_FACTOR
            busbws.append(busbw)
            new_cols.append((fmt_time(us), algbw, busbw, wrong))
        out.append(fmt_row(size, count, typ, redop, root, new_cols))
    avg = sum(busbws) / len(busbws)
    for line in footer:
        out.append("# Avg bus bandwidth    : %g" % avg if line.startswith("# Avg bus bandwidth") else line)
    return "\n".join(out) + "\n"


def node(i):
    return "node%02d" % i


def ring_and_chords(n):
    """A ring over n nodes plus the n/2 chords i -- i+n/2: every node in 3 pairs, names sorted in each pair."""
    pairs = [(i, i % n + 1) for i in range(1, n + 1)] + [(i, i + n // 2) for i in range(1, n // 2 + 1)]
    return sorted((node(min(a, b)), node(max(a, b))) for a, b in pairs)


def ring(n):
    return sorted((node(min(a, b)), node(max(a, b))) for a, b in [(i, i % n + 1) for i in range(1, n + 1)])


SETS = [
    # folder, pairs, degraded nodes, rank lines kept
    ("one-bad", ring_and_chords(16), {"node07"}, True),
    ("two-bad", ring_and_chords(16), {"node03", "node12"}, True),
    ("none", ring_and_chords(16), set(), True),
    ("names-from-files", ring(4), {"node02"}, False),
]


def main():
    src = load_source()
    for folder, pairs, bad, with_ranks in SETS:
        for a, b in pairs:
            assert not (a in bad and b in bad), "two degraded nodes in one pair: %s_%s" % (a, b)
        nodes = sorted({n for p in pairs for n in p})
        for n in nodes:
            assert sum(n in p for p in pairs) >= 2, "%s in fewer than 2 pairs" % n
        path = os.path.join(HERE, folder)
        os.makedirs(path, exist_ok=True)
        for old in os.listdir(path):
            if re.fullmatch(r"node\d+_node\d+\.txt", old):
                os.remove(os.path.join(path, old))
        slow = []
        for a, b in pairs:
            degraded = a in bad or b in bad
            with open(os.path.join(path, "%s_%s.txt" % (a, b)), "w") as f:
                f.write(pair_text(src, a, b, degraded, with_ranks))
            if degraded:
                slow.append("%s_%s" % (a, b))
        print("%-17s %2d pairs, %2d nodes, degraded %s, slow pairs: %s"
              % (folder + "/", len(pairs), len(nodes), ",".join(sorted(bad)) or "-", " ".join(slow) or "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
