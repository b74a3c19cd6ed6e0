#!/usr/bin/env python3
"""bench-table.py RAW [BENCHMARKS.md]: the machine-made table of the speed
claims, from the raw logs of one .gpu/run.sh run (RAW: the directory
gpu-logs.tar.gz unpacks into, or the .tar.gz itself).

Each row is one claim: a ratio a benchmark reports (ways interleaved in
one process, so the machine's drift hits both alike), its median and range
over the run's -test.count runs, its target and whether the run meets it.
With a second argument the table replaces what lies between the markers
<!-- bench-table --> and <!-- /bench-table --> in that file; without, it
goes to stdout. Nothing is typed by hand: rerun it after a GPU run.
"""
import io
import os
import re
import statistics
import sys
import tarfile

# (claim, binary, benchmark, metric, target): target is the most the ratio
# may be ("" where the row is context for another).
ROWS = [
    ("raw `cu.LaunchKernel` (generated, CUDA 12) / a C loop, blocks of 1000 launches and a wait", "e2e", "BenchmarkLaunchInterleaved/rotate", "gen/C", 1.02),
    ("typed launch (`cugen kernels`) / raw `cu.LaunchKernel`", "layer13", "BenchmarkScopeLaunch", "typed/raw", 1.01),
    ("typed launch in a scope / raw", "layer13", "BenchmarkScopeLaunch", "typed-scope/raw", 1.01),
    ("`Kernel.Launch` / raw", "layer13", "BenchmarkScopeLaunch", "layer/raw", None),
    ("`Kernel.Launch` in a scope / raw", "layer13", "BenchmarkScopeLaunch", "scope/raw", 1.02),
    ("AllocAsync + Close / raw", "layer13", "BenchmarkScopeAllocAsync", "layer/raw", None),
    ("AllocAsync + Close in a scope / raw", "layer13", "BenchmarkScopeAllocAsync", "scope/raw", 1.10),
    ("32³ SGEMM through `blas` / raw cuBLAS", "blas13", "BenchmarkSmallGemmScope", "blas/raw", None),
    ("32³ SGEMM in a scope / raw cuBLAS", "blas13", "BenchmarkSmallGemmScope", "scope/raw", 1.01),
]

BENCH = re.compile(r"^(Benchmark\S+?)(?:-\d+)?\s+(\d+)\s+(.*)$")


def read_raw(path):
    """{relative name: text} of the run's files."""
    files = {}
    if os.path.isfile(path):
        with tarfile.open(path) as tf:
            for m in tf.getmembers():
                if m.isfile():
                    name = m.name.split("/", 1)[-1] if m.name.startswith("./") else m.name
                    files[os.path.normpath(name)] = tf.extractfile(m).read().decode("utf-8", "replace")
        return files
    for d, _, names in os.walk(path):
        for n in names:
            p = os.path.join(d, n)
            with open(p, encoding="utf-8", errors="replace") as f:
                files[os.path.relpath(p, path)] = f.read()
    return files


def metrics(text, bench):
    """[values] per metric of bench in a benchmark log."""
    out = {}
    for line in text.splitlines():
        m = BENCH.match(line)
        if not m or m.group(1) != bench:
            continue
        f = m.group(3).split()
        for k in range(0, len(f) - 1, 2):
            try:
                out.setdefault(f[k + 1], []).append(float(f[k]))
            except ValueError:
                pass
    return out


def table(files):
    machine = files.get("machine.txt", "")
    commit = files.get("commit.txt", "")
    gpu = next((l[4:].split(",")[1].strip() for l in machine.splitlines() if l.startswith("gpu 0")), "unknown GPU")
    date = next((l[5:] for l in machine.splitlines() if l.startswith("date ")), "")
    sha = next((l.split()[1][:7] for l in commit.splitlines() if l.startswith("commit ")), "")
    w = [f"{gpu}, {date}, commit {sha}; written by `mk/bench-table.py` from that run's logs "
         "(each ratio interleaved in one process; median and range of the runs).", "",
         "| claim | benchmark | ratio | runs | target | met |", "| --- | --- | ---: | ---: | ---: | --- |"]
    for claim, binary, bench, metric, target in ROWS:
        text = files.get(os.path.join("logs", binary + ".bench.log"), "")
        vals = metrics(text, bench).get(metric, [])
        if not vals:
            w.append(f"| {claim} | {binary} {bench} | not in this run | 0 | {target or ''} | |")
            continue
        med = statistics.median(vals)
        rng = f"{med:.3f}" if len(vals) == 1 else f"{med:.3f} ({min(vals):.3f}-{max(vals):.3f})"
        met = "" if target is None else ("yes" if med <= target else "**no**")
        w.append(f"| {claim} | {binary} {bench} `{metric}` | {rng} | {len(vals)} | {'' if target is None else f'≤ {target}'} | {met} |")
    return "\n".join(w) + "\n"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    t = table(read_raw(sys.argv[1]))
    if len(sys.argv) == 2:
        sys.stdout.write(t)
        return
    with open(sys.argv[2], encoding="utf-8") as f:
        doc = f.read()
    begin, end = "<!-- bench-table -->\n", "<!-- /bench-table -->"
    i, j = doc.find(begin), doc.find(end)
    if i < 0 or j < i:
        sys.exit(f"bench-table: {sys.argv[2]} has no {begin.strip()} ... {end} block")
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write(doc[: i + len(begin)] + t + doc[j:])


if __name__ == "__main__":
    main()
