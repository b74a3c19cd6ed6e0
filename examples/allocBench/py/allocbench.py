# The CuPy reference of examples/allocBench: the same 100,000 allocations
# and frees of the same sizes (256 B to 64 MiB), 16 live, on one stream,
# through CuPy's MemoryPool (its own arena over cudaMalloc) and its
# MemoryAsyncPool (cudaMallocFromPoolAsync on the device's current pool,
# release threshold at the maximum as in the Go and C programs); a warm-up
# round, then --rounds timed rounds of each, alternating, each ending in a
# stream synchronisation. A buffer is freed by dropping its MemoryPointer,
# as CuPy code does.
#
#	python3 allocbench.py [--rounds 5]
import argparse
import statistics
import time

import cupy as cp

PAIRS = 100_000
LIVE = 16
MASK = (1 << 64) - 1


def sizes():
    out = []
    x = 1
    for _ in range(PAIRS):
        x = (x * 6364136223846793005 + 1442695040888963407) & MASK
        out.append(256 << ((x >> 33) % 19))  # Go's x >> 33 % 19
    return out


def one_round(malloc, sz, stream):
    ring = [None] * LIVE
    for i, n in enumerate(sz):
        ring[i % LIVE] = None  # the free comes first, as in the Go and C loops
        ring[i % LIVE] = malloc(n)
    ring = None
    stream.synchronize()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    sz = sizes()
    dev = cp.cuda.Device(0)
    dev.use()
    rt = cp.cuda.runtime
    try:
        pool = rt.deviceGetDefaultMemPool(0)
        rt.memPoolSetAttribute(pool, rt.cudaMemPoolAttrReleaseThreshold, MASK)
    except Exception as e:  # older CuPy: the default threshold (0)
        print("note: release threshold not set:", e)
    stream = cp.cuda.Stream(non_blocking=False)
    ways = {
        "MemoryPool": cp.cuda.MemoryPool(),
        "MemoryAsyncPool": cp.cuda.MemoryAsyncPool(),
    }
    name = rt.getDeviceProperties(0)["name"].decode()
    print(f"allocbench (CuPy {cp.__version__}): {PAIRS} alloc/free pairs of 256 B to 64 MiB, {LIVE} live, on one stream of {name}")
    times = {k: [] for k in ways}
    with stream:
        for k, p in ways.items():  # warm-up
            one_round(p.malloc, sz, stream)
        names = list(ways)
        for r in range(args.rounds):
            line = f"round {r + 1}:"
            for j in range(len(names)):
                k = names[(j + r) % len(names)]
                t0 = time.perf_counter_ns()
                one_round(ways[k].malloc, sz, stream)
                ns = (time.perf_counter_ns() - t0) / PAIRS
                times[k].append(ns)
                line += f"  {k} {ns:.0f} ns/pair"
            print(line)
    print("median: " + ", ".join(f"{k} {statistics.median(v):.0f} ns/pair" for k, v in times.items()))


if __name__ == "__main__":
    main()
