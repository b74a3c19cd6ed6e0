// Package algo is device-wide algorithms over [cuda.Buffer]: reduce
// ([Sum], [Min], [Max], [ArgMin], [ArgMax]), scan ([InclusiveSum],
// [ExclusiveSum]) and radix sort ([SortKeys], [SortPairs] with int32
// values, their descending forms, [Argsort], and on it [TopK] and
// [BottomK]), from NVIDIA's CUB.
//
// The kernels are CUB's own agents (AgentReduce, AgentScan,
// AgentRadixSortHistogram and AgentRadixSortOnesweep of CCCL 2.5),
// instantiated in cub.cu for int32, uint32, int64, uint64, float32 and
// float64 and compiled at generate time by NVRTC 12.4, on the CPU, by
// cugen kernels, into cubins for sm_80 and sm_90 and PTX for compute_90
// (newer GPUs), embedded in internal/cubk. The headers are pinned in
// headers.lock (entries libcub-dev, libcu++-dev and cuda-rt-12.4), and
// regenerating gives the same bytes (cmd/cugen TestKernelsCheckAlgo). The
// host side of CUB's dispatch (grid sizes, passes, temporary storage) is
// Go: plan.go and sort.go, tested without a GPU (TestPlanReduce,
// TestPlanArg, TestPlanScan, TestPlanSort).
//
// # Tuning
//
// Reduce uses CUB's DeviceReducePolicy Policy600 (what CUB picks from
// sm_60 on): 256 threads, 16 items a thread for 4-byte types and 8 for
// 8-byte ones (8 and 4 (index, value) pairs for ArgMin and ArgMax), with
// a grid of at most 5 times the blocks the device holds at once (CUB's
// subscription factor; the blocks are counted as threads per
// multiprocessor over 256, where CUB asks the occupancy API).
// Scan uses CUB's DeviceScanPolicy tunings for the architecture of the
// image: sm80_tuning in the sm_80 cubin, sm90_tuning in the sm_90 cubin
// and the PTX. The radix sort is CUB's onesweep with 8-bit digits and
// DeviceRadixSortPolicy's Policy800 (sm_80) and Policy900 large-key
// (sm_90, PTX) onesweep policies; its histogram grid is the blocks of 128
// threads the device holds at once. The numbers the host needs are read
// from each image's constants by TestPolicies.
//
// # Streams and memory
//
// Every call only queues work on its stream: nothing synchronises, and
// results are in device memory (a reduction's in a one-element buffer).
// Temporary storage is allocated and freed in stream order
// (cuMemAllocAsync, cuMemFreeAsync on the call's stream) from the
// device's current pool or a pool of [Lib.SetPool]. Misuse is refused
// before anything is allocated or queued: a nil or closed stream, buffer
// or Lib, buffers or a Lib of another context than the stream, an output
// of the wrong length (TestMisuse). Inputs are limited to 2^31-1
// elements, CUB's int offsets.
//
// The package works with this module's package cuda; a module's copy of
// the API from cugen gen does not include it.
package algo

// The kernels: cugen kernels with CCCL's headers from the cache (fetched
// on first use, verified against headers.lock), and NVRTC 12.4 (lib
// libnvrtc12 of headers.lock: go run ./cmd/cugen libs -env prints how to
// find it).
//
//go:generate go run ../../cmd/cugen kernels -src cub.cu -arch sm_80,sm_90 -I nvrtc -headers libcub-dev -headers libcu++-dev -headers cuda-rt-12.4 -name "reduceSumTiles<int>" -name "reduceSumTiles<unsigned int>" -name "reduceSumTiles<long long>" -name "reduceSumTiles<unsigned long long>" -name "reduceSumTiles<float>" -name "reduceSumTiles<double>" -name "reduceSumSingle<int>" -name "reduceSumSingle<unsigned int>" -name "reduceSumSingle<long long>" -name "reduceSumSingle<unsigned long long>" -name "reduceSumSingle<float>" -name "reduceSumSingle<double>" -name "reduceMinTiles<int>" -name "reduceMinTiles<unsigned int>" -name "reduceMinTiles<long long>" -name "reduceMinTiles<unsigned long long>" -name "reduceMinTiles<float>" -name "reduceMinTiles<double>" -name "reduceMinSingle<int>" -name "reduceMinSingle<unsigned int>" -name "reduceMinSingle<long long>" -name "reduceMinSingle<unsigned long long>" -name "reduceMinSingle<float>" -name "reduceMinSingle<double>" -name "reduceMaxTiles<int>" -name "reduceMaxTiles<unsigned int>" -name "reduceMaxTiles<long long>" -name "reduceMaxTiles<unsigned long long>" -name "reduceMaxTiles<float>" -name "reduceMaxTiles<double>" -name "reduceMaxSingle<int>" -name "reduceMaxSingle<unsigned int>" -name "reduceMaxSingle<long long>" -name "reduceMaxSingle<unsigned long long>" -name "reduceMaxSingle<float>" -name "reduceMaxSingle<double>" -name "argMinTiles<int>" -name "argMinTiles<unsigned int>" -name "argMinTiles<long long>" -name "argMinTiles<unsigned long long>" -name "argMinTiles<float>" -name "argMinTiles<double>" -name "argMinSingle<int>" -name "argMinSingle<unsigned int>" -name "argMinSingle<long long>" -name "argMinSingle<unsigned long long>" -name "argMinSingle<float>" -name "argMinSingle<double>" -name "argMinPartials<int>" -name "argMinPartials<unsigned int>" -name "argMinPartials<long long>" -name "argMinPartials<unsigned long long>" -name "argMinPartials<float>" -name "argMinPartials<double>" -name "argMaxTiles<int>" -name "argMaxTiles<unsigned int>" -name "argMaxTiles<long long>" -name "argMaxTiles<unsigned long long>" -name "argMaxTiles<float>" -name "argMaxTiles<double>" -name "argMaxSingle<int>" -name "argMaxSingle<unsigned int>" -name "argMaxSingle<long long>" -name "argMaxSingle<unsigned long long>" -name "argMaxSingle<float>" -name "argMaxSingle<double>" -name "argMaxPartials<int>" -name "argMaxPartials<unsigned int>" -name "argMaxPartials<long long>" -name "argMaxPartials<unsigned long long>" -name "argMaxPartials<float>" -name "argMaxPartials<double>" -name "scanInit<int>" -name "scanInit<unsigned int>" -name "scanInit<long long>" -name "scanInit<unsigned long long>" -name "scanInit<float>" -name "scanInit<double>" -name "scanInclusiveSum<int>" -name "scanInclusiveSum<unsigned int>" -name "scanInclusiveSum<long long>" -name "scanInclusiveSum<unsigned long long>" -name "scanInclusiveSum<float>" -name "scanInclusiveSum<double>" -name "scanExclusiveSum<int>" -name "scanExclusiveSum<unsigned int>" -name "scanExclusiveSum<long long>" -name "scanExclusiveSum<unsigned long long>" -name "scanExclusiveSum<float>" -name "scanExclusiveSum<double>" -name "sortHistogramAsc<int>" -name "sortHistogramAsc<unsigned int>" -name "sortHistogramAsc<long long>" -name "sortHistogramAsc<unsigned long long>" -name "sortHistogramAsc<float>" -name "sortHistogramAsc<double>" -name "sortHistogramDesc<int>" -name "sortHistogramDesc<unsigned int>" -name "sortHistogramDesc<long long>" -name "sortHistogramDesc<unsigned long long>" -name "sortHistogramDesc<float>" -name "sortHistogramDesc<double>" -name "sortKeysAsc<int>" -name "sortKeysAsc<unsigned int>" -name "sortKeysAsc<long long>" -name "sortKeysAsc<unsigned long long>" -name "sortKeysAsc<float>" -name "sortKeysAsc<double>" -name "sortKeysDesc<int>" -name "sortKeysDesc<unsigned int>" -name "sortKeysDesc<long long>" -name "sortKeysDesc<unsigned long long>" -name "sortKeysDesc<float>" -name "sortKeysDesc<double>" -name "sortPairsAsc<int>" -name "sortPairsAsc<unsigned int>" -name "sortPairsAsc<long long>" -name "sortPairsAsc<unsigned long long>" -name "sortPairsAsc<float>" -name "sortPairsAsc<double>" -name "sortPairsDesc<int>" -name "sortPairsDesc<unsigned int>" -name "sortPairsDesc<long long>" -name "sortPairsDesc<unsigned long long>" -name "sortPairsDesc<float>" -name "sortPairsDesc<double>" -out internal/cubk
