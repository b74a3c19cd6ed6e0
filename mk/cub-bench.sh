#!/bin/bash
# mk/cub-bench.sh: package algo beside CUB's own C++, on the GPU machine.
# Builds cuda/algo/testdata/cubbench.cu with nvcc (the toolkit's CUB) and
# runs it and algo's BenchmarkGPU alternately, ROUNDS times (default 3),
# so that clocks and other load fall on both alike; prints every line of
# both, then benchstat-style pairs are left to the reader. The toolkit's
# CUB is the toolkit's version, not the CCCL 2.5 algo was compiled from:
# the comparison is with what a C++ user of that toolkit gets. CUB's
# temporary storage is allocated once a case; algo's comes from the
# stream-ordered pool at each call, as its users get it.
#
#	sh mk/cub-bench.sh [ROUNDS]
set -euo pipefail
rounds=${1:-3}
nvcc=${NVCC:-nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
"$nvcc" -O3 -std=c++17 -arch="sm_$arch" -o "$tmp/cubbench" cuda/algo/testdata/cubbench.cu
go test -c -o "$tmp/algo.test" ./cuda/algo
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for r in $(seq "$rounds"); do
	echo "round $r"
	"$tmp/cubbench"
	"$tmp/algo.test" -test.run='^$' -test.bench=BenchmarkGPU -test.benchtime=2s
done
