#!/usr/bin/env python3
"""algo-table.py LOG [BENCHMARKS.md]: the machine-made table of package
algo against CUB's C++, PyTorch and CuPy, from one run of mk/cub-bench.sh
(LOG: its output, where every round ran all four alternately).

For each algorithm and element type, each size's cell gives algo's rate
over CUB's, over PyTorch's and over CuPy's: the median over the rounds of
each, elements per second (higher is better for algo). The targets of
issue 42: at least 0.97 of CUB from 2^16 to 2^28, and at least PyTorch's
and CuPy's at every size; a cell that misses one is marked. With a second
argument the table replaces what lies between <!-- algo-table --> and
<!-- /algo-table --> in that file; without, it goes to stdout.
"""
import re
import statistics
import sys

LINE = re.compile(r"^Benchmark(GPU|CUB|Torch|CuPy)/(\w+)/(\w+)/n=(\d+)(?:-\d+)?\s+\d+\s+.*?([\d.e+]+) elems/s")
WAYS = ("GPU", "CUB", "Torch", "CuPy")
CUB_TARGET = 0.97


def parse(text):
    """{(alg, type, n): {way: [elems/s]}} and the header lines."""
    rates, head = {}, []
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            way, alg, typ, n, rate = m.groups()
            rates.setdefault((alg, typ, int(n)), {}).setdefault(way, []).append(float(rate))
        elif line.startswith(("gpu ", "toolkit ", "torch ")):
            head.append(line)
    return rates, head


def cell(ways):
    go = ways.get("GPU")
    if not go:
        return "", True
    g = statistics.median(go)
    parts, ok = [], True
    for way, target in (("CUB", CUB_TARGET), ("Torch", 1.0), ("CuPy", 1.0)):
        if way not in ways:
            parts.append("–")
            continue
        r = g / statistics.median(ways[way])
        miss = r < target
        ok = ok and not miss
        parts.append(f"**{r:.2f}**" if miss else f"{r:.2f}")
    return " · ".join(parts), ok


def table(text):
    rates, head = parse(text)
    sizes = sorted({k[2] for k in rates})
    rows = sorted({k[:2] for k in rates}, key=lambda k: (["Sum", "InclusiveSum", "SortKeys", "SortPairs"].index(k[0]) if k[0] in ("Sum", "InclusiveSum", "SortKeys", "SortPairs") else 9, k))
    rounds = max((len(v) for w in rates.values() for v in w.values()), default=0)
    machine = "; ".join(h.replace("gpu ", "", 1) for h in head)
    out = [f"algo / CUB C++ · algo / PyTorch · algo / CuPy, elements per second, median of {rounds} interleaved rounds (**bold**: below target); {machine}.", ""]
    out.append("| algorithm | type | " + " | ".join(f"2^{n.bit_length() - 1}" for n in sizes) + " | meets |")
    out.append("|---|---|" + "---|" * len(sizes) + "---|")
    for alg, typ in rows:
        cells, ok = [], True
        for n in sizes:
            c, good = cell(rates.get((alg, typ, n), {}))
            cells.append(c)
            ok = ok and good
        out.append(f"| {alg} | {typ} | " + " | ".join(cells) + f" | {'yes' if ok else 'no'} |")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: algo-table.py LOG [BENCHMARKS.md]")
    with open(sys.argv[1], encoding="utf-8") as f:
        t = table(f.read())
    if len(sys.argv) == 2:
        sys.stdout.write(t)
        return
    path = sys.argv[2]
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    start, end = "<!-- algo-table -->", "<!-- /algo-table -->"
    i, j = doc.find(start), doc.find(end)
    if i < 0 or j < i:
        sys.exit(f"algo-table.py: {path}: no {start} ... {end} markers")
    with open(path, "w", encoding="utf-8") as f:
        f.write(doc[: i + len(start)] + "\n" + t + doc[j:])


if __name__ == "__main__":
    main()
