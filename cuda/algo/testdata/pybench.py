"""pybench.py: PyTorch and CuPy at the cases of package algo's BenchmarkGPU
(Sum, InclusiveSum, SortKeys, SortPairs on float32 and int64, 2^16 to 2^28
elements), for mk/cub-bench.sh, which runs it interleaved with the Go
benchmark and CUB's C++. Prints one line per case in Go's benchmark format:

    BenchmarkTorch/Sum/float32/n=1048576  ITERS  NS ns/op  ELEMS elems/s

The nearest call of each library stands for each case: sum, cumsum, sort
(torch.sort also returns the permutation, so it stands for both sorts;
CuPy's sort is keys only, its argsort the permutation with keys left
in place). Output arrays are allocated by the call, as their users get
them, from each library's caching allocator. Times are CUDA events around
ITERS calls on the current stream, after one warm-up call.
"""
import sys


def cases():
    for n in (1 << 16, 1 << 20, 1 << 24, 1 << 28):
        iters = 2000 if n <= 1 << 20 else 200 if n <= 1 << 24 else 20
        for tname in ("float32", "int64"):
            yield n, iters, tname


def timed(name, n, iters, f, sync, event, elapsed):
    """Times iters calls of f between two events of event(); elapsed(a, b)
    is the library's milliseconds between them."""
    f()
    sync()
    a, b = event(), event()
    a.record()
    for _ in range(iters):
        f()
    b.record()
    b.synchronize()
    ns = elapsed(a, b) * 1e6 / iters
    print(f"{name}/n={n} \t{iters}\t{ns:.1f} ns/op\t{n / (ns * 1e-9):.4g} elems/s", flush=True)


def data(n, tname):
    # The inputs of cubbench.cu and the Go benchmark: element i is
    # splitmix64(i), for int64 its bits, for float32 its high 32 bits as
    # an int32 times 2^-31.
    import numpy as np
    z = np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    if tname == "int64":
        return z.view(np.int64)
    return (z >> np.uint64(32)).astype(np.uint32).view(np.int32).astype(np.float32) * np.float32(2.0**-31)


def torch_bench():
    import torch
    dev = torch.device("cuda")
    for n, iters, tname in cases():
        x = torch.from_numpy(data(n, tname)).to(dev)
        ev = lambda: torch.cuda.Event(enable_timing=True)
        for alg, f in (
            ("Sum", lambda: torch.sum(x)),
            ("InclusiveSum", lambda: torch.cumsum(x, 0)),
            ("SortPairs", lambda: torch.sort(x, stable=True)),
        ):
            timed(f"BenchmarkTorch/{alg}/{tname}", n, iters, f, torch.cuda.synchronize, ev,
                  lambda a, b: a.elapsed_time(b))
        del x
        torch.cuda.empty_cache()


def cupy_bench():
    import cupy
    for n, iters, tname in cases():
        x = cupy.asarray(data(n, tname))
        ev = cupy.cuda.Event
        for alg, f in (
            ("Sum", lambda: cupy.sum(x)),
            ("InclusiveSum", lambda: cupy.cumsum(x)),
            ("SortKeys", lambda: cupy.sort(x)),
            ("SortPairs", lambda: cupy.argsort(x)),
        ):
            timed(f"BenchmarkCuPy/{alg}/{tname}", n, iters, f, cupy.cuda.Device().synchronize, ev,
                  cupy.cuda.get_elapsed_time)
        del x
        cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    which = sys.argv[1:] or ["torch", "cupy"]
    for w in which:
        try:
            {"torch": torch_bench, "cupy": cupy_bench}[w]()
        except ImportError as e:
            print(f"pybench: {w}: {e}", file=sys.stderr)
