#!/bin/bash
# mk/cub-bench.sh: package algo beside CUB's own C++, PyTorch and CuPy, on
# the GPU machine. Builds cuda/algo/testdata/cubbench.cu with nvcc (the
# toolkit's CUB) and runs it, algo's BenchmarkGPU and
# cuda/algo/testdata/pybench.py (torch, cupy) alternately, ROUNDS times
# (default 3), so that clocks and other load fall on all alike; prints
# every line of each, in Go's benchmark format, for mk/algo-table.py.
# The toolkit's CUB is the toolkit's version, not the CCCL 2.5 algo was
# compiled from: the comparison is with what a C++ user of that toolkit
# gets. CUB's temporary storage is allocated once a case; algo's comes from
# a caching allocator (Lib.SetAllocator), which hands each call the blocks
# the call before gave back; CuPy and PyTorch use their caching pools.
#
# The GPU machine needs no Go: the algo test binary is ALGO_TEST, else the
# bundle's (.gpu/bin/algo13.test.xz, from make gpu-build), else go test -c.
#
#	sh mk/cub-bench.sh [ROUNDS]
set -euo pipefail
rounds=${1:-3}
nvcc=${NVCC:-nvcc}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
"$nvcc" -O3 -std=c++17 -arch="sm_$arch" -o "$tmp/cubbench" "$root/cuda/algo/testdata/cubbench.cu"
algo=${ALGO_TEST:-}
if [ -z "$algo" ] && [ -e "$root/.gpu/bin/algo13.test.xz" ]; then
	algo=$tmp/algo.test
	python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$root/.gpu/bin/algo13.test.xz" "$algo"
	chmod +x "$algo"
elif [ -z "$algo" ]; then
	algo=$tmp/algo.test
	go test -c -o "$algo" "$root/cuda/algo"
fi
# libcuda.so.1 as .gpu/run.sh finds it (mk/libcuda.sh); a benchmark that
# finds no GPU fails rather than skips.
export CUGEN_REQUIRE_GPU=1
. "$root/mk/libcuda.sh"
libcuda=$(find_libcuda)
[ -n "$libcuda" ] && export CUGEN_LIBCUDA=$libcuda
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/gpu /'
echo "toolkit $("$nvcc" --version | grep -o 'release [^,]*, V[0-9.]*')"
python3 -c 'import torch, cupy; print("torch", torch.__version__, "cupy", cupy.__version__)' 2>&1 || true
for r in $(seq "$rounds"); do
	echo "round $r"
	"$tmp/cubbench"
	(cd "$root/cuda/algo" && "$algo" -test.run='^$' -test.bench=BenchmarkGPU -test.benchtime=1s)
	python3 "$root/cuda/algo/testdata/pybench.py"
done
