#!/bin/sh
# mk/stubbench.sh: the layer's own cost per launch and per stream-ordered
# allocation, without a GPU. It builds cuda/testdata/stubcuda (a libcuda
# whose every entry point returns CUDA_SUCCESS at once) and runs the
# layer's interleaved GPU benchmarks against it: the layer's column minus
# the raw cu package's is what the layer adds, in ns on this CPU.
#
# BenchmarkLaunchOverhead and BenchmarkAllocAsyncOverhead run blocks of
# 1,000 calls (default 300 of each way, alternating), and report the
# median and the fastest block of each way; BenchmarkAllocAsyncMixed is
# issue 27's mixed-size loop.
#
#	sh mk/stubbench.sh [count] [blocks]
set -eu
GO=${GO:-go}
count=${1:-3}
blocks=${2:-300}x
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
gcc -O2 -shared -fPIC -o "$dir/libcuda.so.1" cuda/testdata/stubcuda/stubcuda.c
# TAGS=cuda12 measures the API's CUDA 12 build (the stub reports CUDA 13,
# which either build accepts).
$GO test -c -tags="${TAGS:-}" -o "$dir/layer.test" ./cuda
cd "$dir"
export CUGEN_LIBCUDA="$dir/libcuda.so.1"
./layer.test -test.run '^$' -test.bench 'Overhead$' -test.v \
	-test.benchtime="$blocks" -test.count="$count" | grep -v '^=== RUN'
./layer.test -test.run '^$' -test.bench 'AllocAsyncMixed$' -test.count="$count"
