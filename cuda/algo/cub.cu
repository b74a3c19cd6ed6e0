// The kernels of package algo: thin __global__ wrappers around CUB's own
// agents (AgentReduce, AgentScan), with CUB's tuning policies, compiled by
// cugen kernels at generate time into the package ./internal/cubk. The
// host side (grid sizes, temporary storage, passes) is Go: dispatch.go.
//
// Each kernel takes plain pointers and numbers (__half and __nv_bfloat16
// among them, which cugen kernels binds as cuda.Float16 and
// cuda.BFloat16), so cugen kernels can prove its parameter layout
// against the cubin. CUB's by-value structs
// (GridEvenShare, ScanTileState) are rebuilt inside the kernel from them.
//
// The policies are CUB's for the architecture being compiled (sm_80:
// Policy800, sm_90 and the compute_90 PTX: Policy900). The host reads the tile sizes it needs from the
// extern "C" __device__ constants below; a CPU test reads them out of
// each embedded image and holds the Go tables to them.

// nvrtc/iterator first: the std:: names CCCL 2.5 uses without including
// what declares them, from libcu++ (NVRTC has no standard library).
#include <iterator>

#include <cub/agent/agent_reduce.cuh>
#include <cub/agent/agent_scan.cuh>
#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/agent/agent_radix_sort_histogram.cuh>
#include <cub/agent/agent_radix_sort_onesweep.cuh>
#include <cub/agent/agent_radix_sort_upsweep.cuh>
#include <cub/agent/agent_radix_sort_downsweep.cuh>
#include <cub/agent/agent_select_if.cuh>
#include <cub/agent/agent_reduce_by_key.cuh>
#include <cub/agent/agent_histogram.cuh>
#include <cub/agent/agent_scan_by_key.cuh>
#include <cub/thread/thread_search.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/grid/grid_even_share.cuh>

namespace cugen {

// ReducePolicy is CUB 2.5's DeviceReducePolicy<T, int, Op>::Policy600,
// the one its dispatch chooses on sm_60 and later (sm_80 and sm_90
// included): 256 threads, 16 items a thread for 4-byte types (scaled by
// MemBoundScaling), vector loads of 4, warp reductions, ld.global.nc.
// (dispatch_reduce.cuh itself includes Thrust, which NVRTC cannot.)
template <typename T, typename Op>
using ReducePolicy = cub::AgentReducePolicy<256, 16, T, 4, cub::BLOCK_REDUCE_WARP_REDUCTIONS, cub::LOAD_LDG>;

// The scan's tuning is CUB 2.5's DeviceScanPolicy<T, Sum>: Policy800's
// sm80_tuning on sm_80, Policy900's sm90_tuning on sm_90 and the
// compute_90 PTX, for a primitive operator and accumulator of T's size
// (tuning_scan.cuh; its header includes host-only code NVRTC cannot
// compile, so the numbers are restated here; the exported constants
// below, checked by TestPolicies, are what the host dispatch uses).
template <int Threads, int Items, int L2B, int L2W>
struct Tuning {
    static constexpr int threads = Threads;
    static constexpr int items = Items;
    using delay = cub::detail::fixed_delay_constructor_t<L2B, L2W>;
};

template <typename T, int Size = sizeof(T)> struct ScanTuning80;
template <typename T> struct ScanTuning80<T, 1> : Tuning<320, 14, 368, 725> {};
template <typename T> struct ScanTuning80<T, 2> : Tuning<352, 16, 488, 1040> {};
template <typename T> struct ScanTuning80<T, 4> : Tuning<320, 12, 268, 1180> {};
template <typename T> struct ScanTuning80<T, 8> : Tuning<288, 22, 716, 785> {};
template <> struct ScanTuning80<float, 4> : Tuning<288, 8, 724, 1050> {};
template <> struct ScanTuning80<double, 8> : Tuning<384, 12, 388, 1100> {};

template <typename T, int Size = sizeof(T)> struct ScanTuning90;
template <typename T> struct ScanTuning90<T, 1> : Tuning<192, 22, 168, 1140> {};
template <typename T> struct ScanTuning90<T, 2> : Tuning<512, 12, 376, 1125> {};
template <typename T> struct ScanTuning90<T, 4> : Tuning<128, 24, 648, 1245> {};
template <typename T> struct ScanTuning90<T, 8> : Tuning<224, 24, 632, 1290> {};
template <> struct ScanTuning90<float, 4> : Tuning<128, 24, 688, 1140> {};
template <> struct ScanTuning90<double, 8> : Tuning<224, 24, 576, 1215> {};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
template <typename T> using ScanTuning = ScanTuning90<T>;
#else
template <typename T> using ScanTuning = ScanTuning80<T>;
#endif

template <typename T>
using ScanPolicy = cub::AgentScanPolicy<ScanTuning<T>::threads, ScanTuning<T>::items, T,
                                        cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_DEFAULT,
                                        cub::BLOCK_STORE_WARP_TRANSPOSE, cub::BLOCK_SCAN_WARP_SCANS,
                                        cub::MemBoundScaling<ScanTuning<T>::threads, ScanTuning<T>::items, T>,
                                        typename ScanTuning<T>::delay>;

// reduceTiles is CUB's DeviceReduceKernel: each block reduces its even
// share of the tiles to one partial, out[blockIdx.x].
template <typename T, typename Op>
__device__ __forceinline__ void reduceTiles(const T *in, T *out, int n) {
    using P = ReducePolicy<T, Op>;
    using Agent = cub::AgentReduce<P, const T *, T *, int, Op, T>;
    __shared__ typename Agent::TempStorage tmp;
    cub::GridEvenShare<int> share;
    share.DispatchInit(n, gridDim.x, P::BLOCK_THREADS * P::ITEMS_PER_THREAD);
    T agg = Agent(tmp, in, Op()).ConsumeTiles(share);
    if (threadIdx.x == 0) {
        out[blockIdx.x] = agg;
    }
}

// reduceSingle is CUB's DeviceReduceSingleTileKernel: one block reduces
// in[0:n] and writes op(init, that) to out[0] (init alone for n == 0).
template <typename T, typename Op>
__device__ __forceinline__ void reduceSingle(const T *in, T *out, int n, T init) {
    using P = ReducePolicy<T, Op>;
    using Agent = cub::AgentReduce<P, const T *, T *, int, Op, T>;
    __shared__ typename Agent::TempStorage tmp;
    if (n == 0) {
        if (threadIdx.x == 0) {
            *out = init;
        }
        return;
    }
    T agg = Agent(tmp, in, Op()).ConsumeRange(0, n);
    if (threadIdx.x == 0) {
        *out = Op()(init, agg);
    }
}

// KV is the pair an arg-reduction carries: CUB's KeyValuePair of an int
// index and a T.
template <typename T>
using KV = cub::KeyValuePair<int, T>;

// ArgIn is CUB's ArgIndexInputIterator over a pointer (whose header
// includes Thrust, which NVRTC cannot): item i is the pair (base+i, p[i]).
template <typename T>
struct ArgIn {
    using value_type = KV<T>;
    using reference = KV<T>;
    using pointer = KV<T> *;
    using difference_type = int;
    using iterator_category = ::cuda::std::random_access_iterator_tag;
    const T *p;
    int base;
    __device__ __forceinline__ KV<T> operator[](int i) const { return KV<T>(base + i, p[i]); }
    __device__ __forceinline__ KV<T> operator*() const { return KV<T>(base, *p); }
    __device__ __forceinline__ ArgIn operator+(int n) const { return ArgIn{p + n, base + n}; }
};

// argTiles is reduceTiles of the pairs (i, in[i]) with CUB's ArgMin or
// ArgMax: the partials are pairs, in storage of KVs.
template <typename T, typename Op>
__device__ __forceinline__ void argTiles(const T *in, void *partials, int n) {
    using P = ReducePolicy<KV<T>, Op>;
    using Agent = cub::AgentReduce<P, ArgIn<T>, KV<T> *, int, Op, KV<T>>;
    __shared__ typename Agent::TempStorage tmp;
    cub::GridEvenShare<int> share;
    share.DispatchInit(n, gridDim.x, P::BLOCK_THREADS * P::ITEMS_PER_THREAD);
    KV<T> agg = Agent(tmp, ArgIn<T>{in, 0}, Op()).ConsumeTiles(share);
    if (threadIdx.x == 0) {
        static_cast<KV<T> *>(partials)[blockIdx.x] = agg;
    }
}

// argSingle reduces n pairs of in (an ArgIn, or partials) with one block
// and writes the pair's index and value; n == 0 writes -1 and empty.
template <typename T, typename Op, typename In>
__device__ __forceinline__ void argSingle(In in, int *index, T *value, int n, T empty) {
    using P = ReducePolicy<KV<T>, Op>;
    using Agent = cub::AgentReduce<P, In, KV<T> *, int, Op, KV<T>>;
    __shared__ typename Agent::TempStorage tmp;
    if (n == 0) {
        if (threadIdx.x == 0) {
            *index = -1;
            *value = empty;
        }
        return;
    }
    KV<T> agg = Agent(tmp, in, Op()).ConsumeRange(0, n);
    if (threadIdx.x == 0) {
        *index = agg.key;
        *value = agg.value;
    }
}

// scan is CUB's DeviceScanKernel with its decoupled look-back: state is
// the ScanTileState's storage for numTiles tiles (scanInit initialised it).
template <typename T, typename Init>
__device__ __forceinline__ void scan(const T *in, T *out, void *state, int numTiles, int startTile, int n, Init init) {
    using Agent = cub::AgentScan<ScanPolicy<T>, const T *, T *, cub::Sum, Init, int, T>;
    __shared__ typename Agent::TempStorage tmp;
    cub::ScanTileState<T> ts;
    ts.Init(numTiles, state, 0);
    Agent(tmp, in, out, cub::Sum(), init).ConsumeRange(n, ts, startTile);
}

// The radix sort is CUB's onesweep (DispatchRadixSort::InvokeOnesweep)
// with 8-bit digits and int offsets: a histogram of every pass's digits,
// their exclusive sums, then one kernel a pass (and a portion of at most
// 2^28 items) that ranks each tile and scatters it, chaining the tiles'
// digit counts through look-back. The policies are CUB 2.5's
// DeviceRadixSortPolicy<K, V, int>: Policy800 on sm_80, Policy900's
// large-key policy (keys of 4 and 8 bytes) or small-key policy (1 and 2)
// on sm_90 and the PTX.
constexpr int kRadixBits = 8;

template <typename K>
using HistogramPolicy = cub::AgentRadixSortHistogramPolicy<128, 16, 1, K, kRadixBits>;

// Dominant is the larger of the key and the value (none: NullType).
template <typename K, typename V>
using Dominant = cub::detail::conditional_t<(sizeof(V) > sizeof(K)), V, K>;

template <typename K, typename V>
struct OnesweepItems {
    static constexpr bool keysOnly = ::cuda::std::is_same<V, cub::NullType>::value;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    // keys under 4 bytes: sm90_small_key_tuning<sizeof(K), 0 or 4, 4>
    static constexpr int threads = sizeof(K) < 4 ? 512 : 384;
    static constexpr int value = sizeof(K) < 4 ? (keysOnly ? 19 : 17)
                                 : sizeof(K) == 4
                                     ? (keysOnly ? 20 - (::cuda::std::is_same<K, float>::value ? 1 : 0) : (sizeof(V) < 8 ? 23 : 30))
                                     : (sizeof(V) < 8 ? 30 : 24);
    static constexpr cub::BlockScanAlgorithm scan = cub::BLOCK_SCAN_RAKING_MEMOIZE;
#else
    // CUB's Policy800 sorts keys under 4 bytes with its upsweep and
    // downsweep passes, not onesweep: these use its onesweep policy
    static constexpr int threads = 384;
    static constexpr int value = 21;
    static constexpr cub::BlockScanAlgorithm scan = cub::BLOCK_SCAN_RAKING_MEMOIZE;
#endif
};

template <typename K, typename V>
using OnesweepPolicy = cub::AgentRadixSortOnesweepPolicy<OnesweepItems<K, V>::threads, OnesweepItems<K, V>::value, Dominant<K, V>, 1,
                                                         cub::RADIX_RANK_MATCH_EARLY_COUNTS_ANY, OnesweepItems<K, V>::scan,
                                                         cub::RADIX_SORT_STORE_DIRECT, kRadixBits>;

// histogram is CUB's DeviceRadixSortHistogramKernel: the digit counts of
// every pass, bins[pass*256 + digit], added atomically.
template <typename K, bool Desc>
__device__ __forceinline__ void histogram(int *bins, const K *keys, int n, int beginBit, int endBit) {
    using Agent = cub::AgentRadixSortHistogram<HistogramPolicy<K>, Desc, K, int>;
    __shared__ typename Agent::TempStorage tmp;
    Agent(tmp, bins, keys, n, beginBit, endBit).Process();
}

// onesweep is CUB's DeviceRadixSortOnesweepKernel: one pass over one
// portion.
template <typename K, typename V, bool Desc>
__device__ __forceinline__ void onesweep(int *lookback, int *ctrs, int *binsOut, const int *binsIn, K *keysOut,
                                         const K *keysIn, V *valuesOut, const V *valuesIn, int n, int bit, int bits) {
    using Agent = cub::AgentRadixSortOnesweep<OnesweepPolicy<K, V>, Desc, K, V, int, int>;
    __shared__ typename Agent::TempStorage tmp;
    Agent(tmp, lookback, ctrs, binsOut, binsIn, keysOut, keysIn, valuesOut, valuesIn, n, bit, bits).Process();
}


// The select's tuning is CUB 2.5's device_select_policy_hub<T, Flag, int,
// false, KeepRejects> (tuning_select_if.cuh, whose classification uses
// host std:: traits NVRTC lacks, so the numbers are restated here; the
// exported constants, checked by TestPolicies, are what the host uses):
// Policy800's sm80_tuning on sm_80, Policy900's sm90_tuning on sm_90 and
// the PTX, for primitive items of 4 and 8 bytes and int offsets. Three
// kinds: Unique (no flags, rejects dropped), Flagged (flags, rejects
// dropped) and Partition (flags, rejects kept); with a select op, If
// (rejects dropped) is tuned as Unique, as CUB's select_if tunings key on
// flags and rejects alone, and PartitionIf (rejects kept) has rows of its
// own.
enum SelectKind { kUnique, kFlagged, kPartition, kIf, kPartitionIf };

template <int Threads, int Items, cub::BlockLoadAlgorithm Load, typename Delay>
struct SelectTuningOf {
    static constexpr int threads = Threads;
    static constexpr int items = Items;
    static constexpr cub::BlockLoadAlgorithm load = Load;
    using delay = Delay;
};

template <int L2B, int L2W>
using Fixed = cub::detail::fixed_delay_constructor_t<L2B, L2W>;
template <int L2W>
using NoDelay = cub::detail::no_delay_constructor_t<L2W>;

template <SelectKind K, int Size> struct SelectTuning80;
template <> struct SelectTuning80<kUnique, 4> : SelectTuningOf<256, 18, cub::BLOCK_LOAD_WARP_TRANSPOSE, NoDelay<1130>> {};
template <> struct SelectTuning80<kUnique, 8> : SelectTuningOf<192, 10, cub::BLOCK_LOAD_WARP_TRANSPOSE, Fixed<832, 1165>> {};
template <> struct SelectTuning80<kFlagged, 4> : SelectTuningOf<320, 10, cub::BLOCK_LOAD_DIRECT, Fixed<124, 1115>> {};
template <> struct SelectTuning80<kFlagged, 8> : SelectTuningOf<384, 6, cub::BLOCK_LOAD_DIRECT, NoDelay<1130>> {};
template <> struct SelectTuning80<kPartition, 4> : SelectTuningOf<192, 12, cub::BLOCK_LOAD_DIRECT, Fixed<912, 1025>> {};
template <> struct SelectTuning80<kPartition, 8> : SelectTuningOf<192, 12, cub::BLOCK_LOAD_WARP_TRANSPOSE, Fixed<884, 1130>> {};
template <int Size> struct SelectTuning80<kIf, Size> : SelectTuning80<kUnique, Size> {};
template <> struct SelectTuning80<kPartitionIf, 4> : SelectTuningOf<192, 15, cub::BLOCK_LOAD_DIRECT, NoDelay<1040>> {};
template <> struct SelectTuning80<kPartitionIf, 8> : SelectTuningOf<192, 10, cub::BLOCK_LOAD_WARP_TRANSPOSE, Fixed<68, 1160>> {};

template <SelectKind K, int Size> struct SelectTuning90;
template <> struct SelectTuning90<kUnique, 4> : SelectTuningOf<384, 17, cub::BLOCK_LOAD_WARP_TRANSPOSE, Fixed<76, 1150>> {};
template <> struct SelectTuning90<kUnique, 8> : SelectTuningOf<384, 11, cub::BLOCK_LOAD_WARP_TRANSPOSE, Fixed<380, 1140>> {};
template <> struct SelectTuning90<kFlagged, 4> : SelectTuningOf<384, 15, cub::BLOCK_LOAD_DIRECT, Fixed<415, 1125>> {};
template <> struct SelectTuning90<kFlagged, 8> : SelectTuningOf<384, 11, cub::BLOCK_LOAD_DIRECT, Fixed<360, 1170>> {};
template <> struct SelectTuning90<kPartition, 4> : SelectTuningOf<256, 20, cub::BLOCK_LOAD_DIRECT, Fixed<72, 1165>> {};
template <> struct SelectTuning90<kPartition, 8> : SelectTuningOf<224, 6, cub::BLOCK_LOAD_DIRECT, Fixed<532, 1180>> {};
template <int Size> struct SelectTuning90<kIf, Size> : SelectTuning90<kUnique, Size> {};
template <> struct SelectTuning90<kPartitionIf, 4> : SelectTuningOf<256, 14, cub::BLOCK_LOAD_DIRECT, Fixed<536, 1055>> {};
template <> struct SelectTuning90<kPartitionIf, 8> : SelectTuningOf<128, 12, cub::BLOCK_LOAD_WARP_TRANSPOSE, Fixed<512, 1075>> {};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
template <typename T, SelectKind K> using SelectTuning = SelectTuning90<K, sizeof(T)>;
#else
template <typename T, SelectKind K> using SelectTuning = SelectTuning80<K, sizeof(T)>;
#endif

template <typename T, SelectKind K>
using SelectPolicy = cub::AgentSelectIfPolicy<SelectTuning<T, K>::threads, SelectTuning<T, K>::items, SelectTuning<T, K>::load,
                                              cub::LOAD_DEFAULT, cub::BLOCK_SCAN_WARP_SCANS, typename SelectTuning<T, K>::delay>;

// Flag is the select's flag: a byte, kept where it is non-zero.
using Flag = unsigned char;

// select is CUB's DeviceSelectSweepKernel (one tile a block, the tiles
// chaining their counts of selected items through look-back): Unique keeps
// the first item of each run of equal ones (cub::Equality), Flagged the
// items whose flag is non-zero, Partition writes those first and the
// others after them, from the end backwards, and with a select op If and
// PartitionIf do the same by op's value instead of a flag. The last tile writes the count. state is the
// ScanTileState<int> of numTiles tiles (selectInit initialised it).
template <typename T, SelectKind K, typename FlagIt, typename Op = cub::NullType>
__device__ __forceinline__ void select(const T *in, FlagIt flags, T *out, int *count, void *state, int numTiles, int n, Op op = Op()) {
    using Eq = cub::detail::conditional_t<K == kUnique, cub::Equality, cub::NullType>;
    using Agent = cub::AgentSelectIf<SelectPolicy<T, K>, const T *, FlagIt, T *, Op, Eq, int, K == kPartition || K == kPartitionIf>;
    static_assert(sizeof(typename Agent::TempStorage) <= 48 * 1024, "CUB's dispatch would fall back to virtual shared memory");
    __shared__ typename Agent::TempStorage tmp;
    cub::ScanTileState<int> ts;
    ts.Init(numTiles, state, 0);
    Agent(tmp, in, flags, out, op, Eq(), n).ConsumeRange(numTiles, ts, count);
}

// Compare is SelectIf's select op: x compared with a (and b), the
// comparison op chosen at run time, the same for every item (algo's Cmp:
// 0 x < a, 1 x <= a, 2 x > a, 3 x >= a, 4 x == a, 5 x != a, 6 a <= x < b,
// 7 x is not NaN). A NaN compares as in Go: false but for != and kept by
// none of the others. One kernel a type serves every comparison.
template <typename T>
struct Compare {
    int op;
    T a, b;
    __device__ __forceinline__ bool operator()(const T &x) const {
        switch (op) {
        case 0: return x < a;
        case 1: return x <= a;
        case 2: return x > a;
        case 3: return x >= a;
        case 4: return x == a;
        case 5: return x != a;
        case 6: return a <= x && x < b;
        case 7: return x == x;
        }
        return false;
    }
};

// The run-length encode is CUB 2.5's DeviceRunLengthEncode::Encode: a
// reduction by key (AgentReduceByKey) of constant ones with cub::Sum and
// cub::Equality, int lengths and offsets, tuned by
// device_run_length_encode_policy_hub<int, T> (tuning_run_length_encode.cuh,
// restated for the same reason as the select's): Policy800's
// rle::encode::sm80_tuning on sm_80, Policy900's sm90_tuning on sm_90 and
// the PTX, for primitive keys of 4 and 8 bytes.
template <int Size> struct RleTuning80;
template <> struct RleTuning80<4> : SelectTuningOf<256, 13, cub::BLOCK_LOAD_DIRECT, NoDelay<1080>> {};
template <> struct RleTuning80<8> : SelectTuningOf<224, 9, cub::BLOCK_LOAD_WARP_TRANSPOSE, NoDelay<1075>> {};

template <int Size> struct RleTuning90;
template <> struct RleTuning90<4> : SelectTuningOf<192, 14, cub::BLOCK_LOAD_WARP_TRANSPOSE, Fixed<284, 480>> {};
template <> struct RleTuning90<8> : SelectTuningOf<128, 19, cub::BLOCK_LOAD_WARP_TRANSPOSE, NoDelay<515>> {};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
template <typename T> using RleTuning = RleTuning90<sizeof(T)>;
#else
template <typename T> using RleTuning = RleTuning80<sizeof(T)>;
#endif

template <typename T>
using RlePolicy = cub::AgentReduceByKeyPolicy<RleTuning<T>::threads, RleTuning<T>::items, RleTuning<T>::load, cub::LOAD_DEFAULT,
                                              cub::BLOCK_SCAN_WARP_SCANS, typename RleTuning<T>::delay>;

// Ones is CUB's ConstantInputIterator<int, int>(1), whose header's
// operator<< needs <iostream> (nvrtc/iostream stands in for it): every
// item is 1.
struct Ones {
    using value_type = int;
    using reference = int;
    using pointer = int *;
    using difference_type = int;
    using iterator_category = ::cuda::std::random_access_iterator_tag;
    __device__ __forceinline__ int operator[](int) const { return 1; }
    __device__ __forceinline__ int operator*() const { return 1; }
    __device__ __forceinline__ Ones operator+(int) const { return *this; }
};

// RleTileState is the reduction by key's tile state: (run count, length)
// pairs of ints in one 16-byte word.
using RleTileState = cub::ReduceByKeyScanTileState<int, int>;

// rle is CUB's DeviceReduceByKeyKernel over in's runs: unique[r] is run
// r's last item (the key AgentReduceByKey scatters), counts[r] its length,
// and the last tile writes the number of runs.
template <typename T>
__device__ __forceinline__ void rle(const T *in, T *unique, int *counts, int *runs, void *state, int numTiles, int startTile, int n) {
    using Agent = cub::AgentReduceByKey<RlePolicy<T>, const T *, T *, Ones, int *, int *, cub::Equality, cub::Sum, int, int>;
    __shared__ typename Agent::TempStorage tmp;
    RleTileState ts;
    ts.Init(numTiles, state, 0);
    Agent(tmp, in, unique, Ones(), counts, runs, cub::Equality(), cub::Sum()).ConsumeRange(n, ts, startTile);
}

// The histogram is CUB 2.5's DeviceHistogram::HistogramEven and
// HistogramRange for one channel of int counters, int offsets: the
// AgentHistogram of device_histogram_policy_hub<T, int, 1, 1>, whose
// Policy500 (sm_80) is 384 threads and 16 samples a thread (8 for 8-byte
// samples), ld.global.nc, runs of equal bins counted once; its Policy900
// (sm_90, PTX) is the same but for samples of 1 byte (768 threads, 12
// samples, no run compression) and of 2 (960 threads, 10 samples, plain
// loads). Histograms are privatized in shared memory up to 256 bins and in
// global memory past that. (tuning_histogram.cuh and
// dispatch_histogram.cuh, whose transforms these restate, are host code
// NVRTC cannot compile.)
template <int Threads, int Items, cub::CacheLoadModifier Load, bool Rle>
struct HistogramTuningOf {
    static constexpr int threads = Threads;
    static constexpr int items = Items;
    static constexpr cub::CacheLoadModifier load = Load;
    static constexpr bool rle = Rle;
};

template <typename T, int Size = sizeof(T)>
struct HistogramTuning : HistogramTuningOf<384, (Size > 4 ? 8 : 16), cub::LOAD_LDG, true> {};
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
template <typename T> struct HistogramTuning<T, 1> : HistogramTuningOf<768, 12, cub::LOAD_LDG, false> {};
template <typename T> struct HistogramTuning<T, 2> : HistogramTuningOf<960, 10, cub::LOAD_DEFAULT, true> {};
#endif

template <typename T>
using HistogramSweepPolicy = cub::AgentHistogramPolicy<HistogramTuning<T>::threads, HistogramTuning<T>::items, cub::BLOCK_LOAD_DIRECT,
                                                  HistogramTuning<T>::load, HistogramTuning<T>::rle, cub::SMEM, false>;

// EvenBins is DispatchHistogram's ScaleTransform for samples and levels
// of one type T: sample s in [lower, upper) goes to bin
// (s - lower) * scale for floats (scale = bins / (upper - lower), as the
// host computed it), and (s - lower) * bins / (upper - lower) for
// integers, in CUB's IntArithmeticT: 32-bit unsigned arithmetic for
// samples of 1 and 2 bytes (their differences promoted to int), 64-bit
// for wider ones (scale and range, which the host passes as T, are not
// read: bins and upper - lower may not fit an 8- or 16-bit T).
// A bin past the last, which a float's rounding can give, is dropped, as
// CUB's shared-memory histograms drop it.
template <typename T>
struct EvenBins {
    T lower, upper, scale, range;
    int bins;
    using IntArith = cub::detail::conditional_t<(2 * sizeof(T) <= 4), unsigned int, unsigned long long>;
    template <cub::CacheLoadModifier M>
    __device__ __forceinline__ void BinSelect(T sample, int &bin, bool valid) {
        if (valid && sample >= lower && sample < upper) {
            int b;
            if (::cuda::std::is_floating_point<T>::value) {
                b = static_cast<int>((sample - lower) * scale);
            } else {
                b = static_cast<int>(static_cast<IntArith>(sample - lower) * static_cast<IntArith>(bins) /
                                     static_cast<IntArith>(upper - lower));
            }
            if (b < bins) {
                bin = b;
            }
        }
    }
};

// RangeBins is DispatchHistogram's SearchTransform: sample s goes to bin
// i where levels[i] <= s < levels[i+1] (cub::UpperBound over the
// levels - 1); below the first level, at or past the last, or NaN, no
// bin.
template <typename T>
struct RangeBins {
    const T *levels;
    int numLevels;
    template <cub::CacheLoadModifier M>
    __device__ __forceinline__ void BinSelect(T sample, int &bin, bool valid) {
        if (valid) {
            cub::CacheModifiedInputIterator<M, T, int> it(levels);
            int b = cub::UpperBound(it, numLevels, sample) - 1;
            bin = b >= numLevels - 1 ? -1 : b;
        }
    }
};

// PassThruBins is DispatchHistogram's PassThruTransform, the output
// transform: privatized bin i is output bin i.
struct PassThruBins {
    template <cub::CacheLoadModifier M, typename S>
    __device__ __forceinline__ void BinSelect(S sample, int &bin, bool valid) {
        if (valid) {
            bin = static_cast<int>(sample);
        }
    }
};

// ByteBins is DispatchHistogram's PassThruTransform for samples of one
// byte: a sample's privatized bin is its byte, 0 to 255.
struct ByteBins {
    template <cub::CacheLoadModifier M, typename S>
    __device__ __forceinline__ void BinSelect(S sample, int &bin, bool valid) {
        if (valid) {
            bin = static_cast<unsigned char>(sample);
        }
    }
};

// HistogramDecode is the agent's two transforms for samples of T: Decode
// into the privatized bins, then privatized bin i is output bin i. For
// samples of one byte it is CUB's is_byte_sample path: 256 privatized
// bins, one a byte, and Decode maps each to its output bin as the block
// stores them. The agent passes a privatized bin to the output transform
// as the sample type, which holds a byte but not a bin number: with Decode
// first, a signed char's bins from 128 and an unsigned char's from 256
// wrapped (TestGPUHistogram/int8 and uint8 at 256, 257 and 1000 bins).
template <typename T, typename Decode, bool Byte = sizeof(T) == 1>
struct HistogramDecode {
    using Priv = Decode;
    using Out = PassThruBins;
    static __device__ __forceinline__ Priv priv(Decode d) { return d; }
    static __device__ __forceinline__ Out out(Decode) { return PassThruBins(); }
    static __device__ __forceinline__ int privBins(int bins) { return bins; }
};

template <typename T, typename Decode>
struct HistogramDecode<T, Decode, true> {
    using Priv = ByteBins;
    using Out = Decode;
    static __device__ __forceinline__ Priv priv(Decode) { return ByteBins(); }
    static __device__ __forceinline__ Out out(Decode d) { return d; }
    static __device__ __forceinline__ int privBins(int) { return 256; }
};

// histogram is CUB's DeviceHistogramSweepKernel for one channel: each
// block counts its tiles' samples into its privatized histogram (Smem bins
// in shared memory, or 0: its row of privatized, a row a block), then adds
// it to hist. hist starts at zero (the host clears it). A row is bins
// ints, 256 for samples of one byte (the host plans those in shared
// memory).
template <typename T, int Smem, typename Decode>
__device__ __forceinline__ void histogram(const T *samples, int *hist, int *privatized, int bins, Decode decode, int n, int tilesPerRow) {
    using D = HistogramDecode<T, Decode>;
    using Agent = cub::AgentHistogram<HistogramSweepPolicy<T>, Smem, 1, 1, const T *, int, typename D::Priv, typename D::Out, int>;
    __shared__ typename Agent::TempStorage tmp;
    int numBins[1] = {bins};
    int privBins[1] = {D::privBins(bins)};
    int *out[1] = {hist};
    int *priv[1] = {privatized};
    typename D::Out outDecode[1] = {D::out(decode)};
    typename D::Priv privDecode[1] = {D::priv(decode)};
    Agent agent(tmp, samples, numBins, privBins, out, priv, outDecode, privDecode);
    agent.InitBinCounters();
    agent.ConsumeTiles(n, 1, n, tilesPerRow, cub::GridQueue<int>(nullptr));
    agent.StoreOutput();
}

// The scan by key is CUB 2.5's DeviceScan::InclusiveSumByKey and
// ExclusiveSumByKey with int keys (cub::Equality) and cub::Sum:
// AgentScanByKey with device_scan_by_key_policy_hub<const int *, T>'s
// Policy800 sm80_tuning (sm_80) and Policy900 sm90_tuning (sm_90, PTX)
// for keys of 4 bytes and primitive values of 4 and 8 (restated from
// tuning_scan_by_key.cuh, host code like the others).
template <int Threads, int Items, typename Delay>
struct ScanByKeyTuningOf {
    static constexpr int threads = Threads;
    static constexpr int items = Items;
    using delay = Delay;
};

template <int Size> struct ScanByKeyTuning80;
template <> struct ScanByKeyTuning80<4> : ScanByKeyTuningOf<256, 15, NoDelay<1140>> {};
template <> struct ScanByKeyTuning80<8> : ScanByKeyTuningOf<256, 9, Fixed<888, 635>> {};

template <int Size> struct ScanByKeyTuning90;
template <> struct ScanByKeyTuning90<4> : ScanByKeyTuningOf<288, 14, Fixed<700, 1005>> {};
template <> struct ScanByKeyTuning90<8> : ScanByKeyTuningOf<224, 14, Fixed<556, 1195>> {};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
template <typename T> using ScanByKeyTuning = ScanByKeyTuning90<sizeof(T)>;
#else
template <typename T> using ScanByKeyTuning = ScanByKeyTuning80<sizeof(T)>;
#endif

template <typename T>
using ScanByKeyPolicy = cub::AgentScanByKeyPolicy<ScanByKeyTuning<T>::threads, ScanByKeyTuning<T>::items, cub::BLOCK_LOAD_WARP_TRANSPOSE,
                                                  cub::LOAD_DEFAULT, cub::BLOCK_SCAN_WARP_SCANS, cub::BLOCK_STORE_WARP_TRANSPOSE,
                                                  typename ScanByKeyTuning<T>::delay>;

// ScanByKeyTileState is the tile state of (run count, partial sum) pairs.
template <typename T>
using ScanByKeyTileState = cub::ReduceByKeyScanTileState<T, int>;

// scanByKey is CUB's DeviceScanByKeyKernel: one tile a block (CUB 2.5's
// agent takes its tile from blockIdx.x alone), chaining (runs, sum)
// pairs through look-back; prevKeys[t] is the key before tile t, saved by
// scanByKeyInit before any tile is written (out may be in).
template <typename T, typename Init>
__device__ __forceinline__ void scanByKey(const int *keys, int *prevKeys, const T *in, T *out, void *state, int numTiles, int n, Init init) {
    using Agent = cub::AgentScanByKey<ScanByKeyPolicy<T>, const int *, const T *, T *, cub::Equality, cub::Sum, Init, int, T>;
    __shared__ typename Agent::TempStorage tmp;
    ScanByKeyTileState<T> ts;
    ts.Init(numTiles, state, 0);
    Agent(tmp, keys, prevKeys, in, out, cub::Equality(), cub::Sum(), init).ConsumeRange(n, ts, 0);
}

// segmentedReduce is CUB's DeviceSegmentedReduceKernel: block i reduces
// in[offsets[i] : offsets[i+1]] with ReducePolicy (the DeviceReducePolicy
// Policy600 CUB's segmented reduce uses too) into out[i], op(init, that);
// an empty segment gives init.
template <typename T, typename Op>
__device__ __forceinline__ void segmentedReduce(const T *in, T *out, const int *offsets, T init) {
    using P = ReducePolicy<T, Op>;
    using Agent = cub::AgentReduce<P, const T *, T *, int, Op, T>;
    __shared__ typename Agent::TempStorage tmp;
    int begin = offsets[blockIdx.x], end = offsets[blockIdx.x + 1];
    if (begin == end) {
        if (threadIdx.x == 0) {
            out[blockIdx.x] = init;
        }
        return;
    }
    T agg = Agent(tmp, in, Op()).ConsumeRange(begin, end);
    if (threadIdx.x == 0) {
        out[blockIdx.x] = Op()(init, agg);
    }
}

// segmentedArg is CUB's DeviceSegmentedReduce::ArgMin and ArgMax: block i
// reduces the pairs (j, in[offsets[i] + j]) of its segment with Op (the
// arg-reduction's ReducePolicy) into index[i] and value[i], the index
// relative to the segment's start as CUB's; an empty segment gives -1 and
// empty (where CUB gives 1 and T's extreme, as algo's ArgMin differs).
template <typename T, typename Op>
__device__ __forceinline__ void segmentedArg(const T *in, int *index, T *value, const int *offsets, T empty) {
    using P = ReducePolicy<KV<T>, Op>;
    using Agent = cub::AgentReduce<P, ArgIn<T>, KV<T> *, int, Op, KV<T>>;
    __shared__ typename Agent::TempStorage tmp;
    int begin = offsets[blockIdx.x], end = offsets[blockIdx.x + 1];
    if (begin == end) {
        if (threadIdx.x == 0) {
            index[blockIdx.x] = -1;
            value[blockIdx.x] = empty;
        }
        return;
    }
    KV<T> agg = Agent(tmp, ArgIn<T>{in + begin, 0}, Op()).ConsumeRange(0, end - begin);
    if (threadIdx.x == 0) {
        index[blockIdx.x] = agg.key;
        value[blockIdx.x] = agg.value;
    }
}

// The segmented sort is CUB 2.5's DeviceSegmentedRadixSort
// (DispatchSegmentedRadixSort::InvokePasses): one launch a digit pass,
// alternating between buffers, of DeviceSegmentedRadixSortKernel, one
// block a segment that counts its segment's digits (AgentRadixSortUpsweep),
// scans them and scatters the segment (AgentRadixSortDownsweep).
// dispatch_radix_sort.cuh includes Thrust, which NVRTC cannot: the kernel
// is restated below. Its policies are DeviceRadixSortPolicy<K, V, int>'s
// SegmentedPolicy and AltSegmentedPolicy, the same in Policy800 (sm_80)
// and Policy900 (sm_90, the PTX): 192 threads of 39 items and digits of
// 6 bits (5 for 1-byte keys), and 384 threads of 11 items and a bit less,
// for the first passes that make the key's bits a whole number of passes;
// both RegBoundScaling of the larger of the key and the value.
template <typename K, typename V, bool Alt>
using SegmentedSortPolicy = cub::AgentRadixSortDownsweepPolicy<Alt ? 384 : 192, Alt ? 11 : 39, Dominant<K, V>, cub::BLOCK_LOAD_TRANSPOSE,
                                                               cub::LOAD_DEFAULT, cub::RADIX_RANK_MEMOIZE, cub::BLOCK_SCAN_WARP_SCANS,
                                                               (sizeof(K) > 1 ? 6 : 5) - (Alt ? 1 : 0)>;

// segmentedSort is CUB's DeviceSegmentedRadixSortKernel: block i sorts
// keysIn[begins[i] : ends[i]] (and its values) by the bits [bit,
// bit+bits) of its keys into the same places of keysOut; an empty segment
// (end <= begin) is left alone.
template <typename K, typename V, bool Desc, bool Alt>
__device__ __forceinline__ void segmentedSort(const K *keysIn, K *keysOut, const V *valuesIn, V *valuesOut, const int *begins,
                                              const int *ends, int bit, int bits) {
    using P = SegmentedSortPolicy<K, V, Alt>;
    constexpr int kThreads = P::BLOCK_THREADS;
    constexpr int kDigits = 1 << P::RADIX_BITS;
    using Upsweep = cub::AgentRadixSortUpsweep<P, K, int>;
    using DigitScan = cub::BlockScan<int, kThreads>;
    using Downsweep = cub::AgentRadixSortDownsweep<P, Desc, K, V, int>;
    constexpr int kTracked = Downsweep::BINS_TRACKED_PER_THREAD;
    __shared__ union {
        typename Upsweep::TempStorage upsweep;
        typename Downsweep::TempStorage downsweep;
        struct {
            volatile int reverseIn[kDigits];
            volatile int reverseOut[kDigits];
            typename DigitScan::TempStorage scan;
        } digits;
    } tmp;
    int begin = begins[blockIdx.x], end = ends[blockIdx.x];
    int n = end - begin;
    if (n <= 0) {
        return;
    }
    Upsweep upsweep(tmp.upsweep, keysIn, bit, bits);
    upsweep.ProcessRegion(begin, end);
    __syncthreads();
    int count[kTracked];
    upsweep.ExtractCounts(count);
    __syncthreads();
    if (Desc) {
#pragma unroll
        for (int t = 0; t < kTracked; ++t) {
            int bin = threadIdx.x * kTracked + t;
            if (kThreads == kDigits || bin < kDigits) {
                tmp.digits.reverseIn[bin] = count[t];
            }
        }
        __syncthreads();
#pragma unroll
        for (int t = 0; t < kTracked; ++t) {
            int bin = threadIdx.x * kTracked + t;
            if (kThreads == kDigits || bin < kDigits) {
                count[t] = tmp.digits.reverseIn[kDigits - bin - 1];
            }
        }
    }
    int offset[kTracked];
    DigitScan(tmp.digits.scan).ExclusiveSum(count, offset);
#pragma unroll
    for (int t = 0; t < kTracked; ++t) {
        offset[t] += begin;
    }
    if (Desc) {
#pragma unroll
        for (int t = 0; t < kTracked; ++t) {
            int bin = threadIdx.x * kTracked + t;
            if (kThreads == kDigits || bin < kDigits) {
                tmp.digits.reverseOut[threadIdx.x] = offset[t]; // CUB's index
            }
        }
        __syncthreads();
#pragma unroll
        for (int t = 0; t < kTracked; ++t) {
            int bin = threadIdx.x * kTracked + t;
            if (kThreads == kDigits || bin < kDigits) {
                offset[t] = tmp.digits.reverseOut[kDigits - bin - 1];
            }
        }
    }
    __syncthreads();
    Downsweep downsweep(tmp.downsweep, offset, n, keysIn, keysOut, valuesIn, valuesOut, bit, bits);
    downsweep.ProcessRegion(begin, end);
}

} // namespace cugen

template <typename T>
__global__ void __launch_bounds__(256) reduceSumTiles(const T *in, T *out, int n) {
    cugen::reduceTiles<T, cub::Sum>(in, out, n);
}

template <typename T>
__global__ void __launch_bounds__(256, 1) reduceSumSingle(const T *in, T *out, int n, T init) {
    cugen::reduceSingle<T, cub::Sum>(in, out, n, init);
}

template <typename T>
__global__ void __launch_bounds__(256) reduceMinTiles(const T *in, T *out, int n) {
    cugen::reduceTiles<T, cub::Min>(in, out, n);
}

template <typename T>
__global__ void __launch_bounds__(256, 1) reduceMinSingle(const T *in, T *out, int n, T init) {
    cugen::reduceSingle<T, cub::Min>(in, out, n, init);
}

template <typename T>
__global__ void __launch_bounds__(256) reduceMaxTiles(const T *in, T *out, int n) {
    cugen::reduceTiles<T, cub::Max>(in, out, n);
}

template <typename T>
__global__ void __launch_bounds__(256, 1) reduceMaxSingle(const T *in, T *out, int n, T init) {
    cugen::reduceSingle<T, cub::Max>(in, out, n, init);
}

template <typename T>
__global__ void __launch_bounds__(256) argMinTiles(const T *in, void *partials, int n) {
    cugen::argTiles<T, cub::ArgMin>(in, partials, n);
}

template <typename T>
__global__ void __launch_bounds__(256, 1) argMinSingle(const T *in, int *index, T *value, int n, T empty) {
    cugen::argSingle<T, cub::ArgMin>(cugen::ArgIn<T>{in, 0}, index, value, n, empty);
}

template <typename T>
__global__ void __launch_bounds__(256, 1) argMinPartials(const void *partials, int *index, T *value, int n, T empty) {
    cugen::argSingle<T, cub::ArgMin>(static_cast<const cugen::KV<T> *>(partials), index, value, n, empty);
}

template <typename T>
__global__ void __launch_bounds__(256) argMaxTiles(const T *in, void *partials, int n) {
    cugen::argTiles<T, cub::ArgMax>(in, partials, n);
}

template <typename T>
__global__ void __launch_bounds__(256, 1) argMaxSingle(const T *in, int *index, T *value, int n, T empty) {
    cugen::argSingle<T, cub::ArgMax>(cugen::ArgIn<T>{in, 0}, index, value, n, empty);
}

template <typename T>
__global__ void __launch_bounds__(256, 1) argMaxPartials(const void *partials, int *index, T *value, int n, T empty) {
    cugen::argSingle<T, cub::ArgMax>(static_cast<const cugen::KV<T> *>(partials), index, value, n, empty);
}

// scanInit is CUB's DeviceScanInitKernel.
template <typename T>
__global__ void scanInit(void *state, int numTiles) {
    cub::ScanTileState<T> ts;
    ts.Init(numTiles, state, 0);
    ts.InitializeStatus(numTiles);
}

template <typename T>
__global__ void __launch_bounds__(cugen::ScanPolicy<T>::BLOCK_THREADS) scanInclusiveSum(const T *in, T *out, void *state, int numTiles, int startTile, int n) {
    cugen::scan<T, cub::NullType>(in, out, state, numTiles, startTile, n, cub::NullType());
}

template <typename T>
__global__ void __launch_bounds__(cugen::ScanPolicy<T>::BLOCK_THREADS) scanExclusiveSum(const T *in, T *out, void *state, int numTiles, int startTile, int n, T init) {
    cugen::scan<T, T>(in, out, state, numTiles, startTile, n, init);
}

template <typename K>
__global__ void __launch_bounds__(128) sortHistogramAsc(int *bins, const K *keys, int n, int beginBit, int endBit) {
    cugen::histogram<K, false>(bins, keys, n, beginBit, endBit);
}

template <typename K>
__global__ void __launch_bounds__(128) sortHistogramDesc(int *bins, const K *keys, int n, int beginBit, int endBit) {
    cugen::histogram<K, true>(bins, keys, n, beginBit, endBit);
}

// sortExclusiveSum is CUB's DeviceRadixSortExclusiveSumKernel: block p
// turns pass p's 256 digit counts into their exclusive sums.
extern "C" __global__ void __launch_bounds__(256) sortExclusiveSum(int *bins) {
    using Scan = cub::BlockScan<int, 256>;
    __shared__ typename Scan::TempStorage tmp;
    int *b = bins + blockIdx.x * 256;
    int v = b[threadIdx.x];
    Scan(tmp).ExclusiveSum(v, v);
    b[threadIdx.x] = v;
}

template <typename K>
__global__ void __launch_bounds__(cugen::OnesweepPolicy<K, cub::NullType>::BLOCK_THREADS) sortKeysAsc(int *lookback, int *ctrs, int *binsOut, const int *binsIn, K *keysOut,
                                                   const K *keysIn, int n, int bit, int bits) {
    cugen::onesweep<K, cub::NullType, false>(lookback, ctrs, binsOut, binsIn, keysOut, keysIn, nullptr, nullptr, n, bit, bits);
}

template <typename K>
__global__ void __launch_bounds__(cugen::OnesweepPolicy<K, cub::NullType>::BLOCK_THREADS) sortKeysDesc(int *lookback, int *ctrs, int *binsOut, const int *binsIn, K *keysOut,
                                                    const K *keysIn, int n, int bit, int bits) {
    cugen::onesweep<K, cub::NullType, true>(lookback, ctrs, binsOut, binsIn, keysOut, keysIn, nullptr, nullptr, n, bit, bits);
}

template <typename K>
__global__ void __launch_bounds__(cugen::OnesweepPolicy<K, int>::BLOCK_THREADS) sortPairsAsc(int *lookback, int *ctrs, int *binsOut, const int *binsIn, K *keysOut,
                                                    const K *keysIn, int *valuesOut, const int *valuesIn, int n, int bit, int bits) {
    cugen::onesweep<K, int, false>(lookback, ctrs, binsOut, binsIn, keysOut, keysIn, valuesOut, valuesIn, n, bit, bits);
}

template <typename K>
__global__ void __launch_bounds__(cugen::OnesweepPolicy<K, int>::BLOCK_THREADS) sortPairsDesc(int *lookback, int *ctrs, int *binsOut, const int *binsIn, K *keysOut,
                                                     const K *keysIn, int *valuesOut, const int *valuesIn, int n, int bit, int bits) {
    cugen::onesweep<K, int, true>(lookback, ctrs, binsOut, binsIn, keysOut, keysIn, valuesOut, valuesIn, n, bit, bits);
}

// selectInit and rleInit are CUB's DeviceCompactInitKernel: the tile
// states of numTiles tiles, and a count of 0 (what an empty input leaves).
extern "C" __global__ void selectInit(void *state, int numTiles, int *count) {
    cub::ScanTileState<int> ts;
    ts.Init(numTiles, state, 0);
    ts.InitializeStatus(numTiles);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *count = 0;
    }
}

extern "C" __global__ void rleInit(void *state, int numTiles, int *runs) {
    cugen::RleTileState ts;
    ts.Init(numTiles, state, 0);
    ts.InitializeStatus(numTiles);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *runs = 0;
    }
}

template <typename T>
__global__ void __launch_bounds__(cugen::SelectPolicy<T, cugen::kUnique>::BLOCK_THREADS) selectUnique(const T *in, T *out, int *count, void *state, int numTiles, int n) {
    cugen::select<T, cugen::kUnique, cub::NullType *>(in, nullptr, out, count, state, numTiles, n);
}

// selectIf is CUB's DeviceSelect::If with a comparison (cugen::Compare).
template <typename T>
__global__ void __launch_bounds__(cugen::SelectPolicy<T, cugen::kIf>::BLOCK_THREADS) selectIf(const T *in, T *out, int *count, void *state, int numTiles, int n, int op, T a, T b) {
    cugen::select<T, cugen::kIf, cub::NullType *>(in, nullptr, out, count, state, numTiles, n, cugen::Compare<T>{op, a, b});
}

// partitionIf is CUB's DevicePartition::If with a comparison.
template <typename T>
__global__ void __launch_bounds__(cugen::SelectPolicy<T, cugen::kPartitionIf>::BLOCK_THREADS) partitionIf(const T *in, T *out, int *count, void *state, int numTiles, int n, int op, T a, T b) {
    cugen::select<T, cugen::kPartitionIf, cub::NullType *>(in, nullptr, out, count, state, numTiles, n, cugen::Compare<T>{op, a, b});
}

template <typename T>
__global__ void __launch_bounds__(cugen::SelectPolicy<T, cugen::kFlagged>::BLOCK_THREADS) selectFlagged(const T *in, const unsigned char *flags, T *out, int *count, void *state, int numTiles, int n) {
    cugen::select<T, cugen::kFlagged, const cugen::Flag *>(in, flags, out, count, state, numTiles, n);
}

template <typename T>
__global__ void __launch_bounds__(cugen::SelectPolicy<T, cugen::kPartition>::BLOCK_THREADS) partitionFlagged(const T *in, const unsigned char *flags, T *out, int *count, void *state, int numTiles, int n) {
    cugen::select<T, cugen::kPartition, const cugen::Flag *>(in, flags, out, count, state, numTiles, n);
}

template <typename T>
__global__ void __launch_bounds__(cugen::RlePolicy<T>::BLOCK_THREADS) rleEncode(const T *in, T *unique, int *counts, int *runs, void *state, int numTiles, int startTile, int n) {
    cugen::rle<T>(in, unique, counts, runs, state, numTiles, startTile, n);
}

template <typename T>
__global__ void __launch_bounds__(cugen::HistogramSweepPolicy<T>::BLOCK_THREADS) histogramEvenSmem(const T *samples, int *hist, int *privatized, int bins, T lower, T upper, T scale, T range, int n, int tilesPerRow) {
    cugen::histogram<T, 256>(samples, hist, privatized, bins, cugen::EvenBins<T>{lower, upper, scale, range, bins}, n, tilesPerRow);
}

template <typename T>
__global__ void __launch_bounds__(cugen::HistogramSweepPolicy<T>::BLOCK_THREADS) histogramEvenGmem(const T *samples, int *hist, int *privatized, int bins, T lower, T upper, T scale, T range, int n, int tilesPerRow) {
    cugen::histogram<T, 0>(samples, hist, privatized, bins, cugen::EvenBins<T>{lower, upper, scale, range, bins}, n, tilesPerRow);
}

template <typename T>
__global__ void __launch_bounds__(cugen::HistogramSweepPolicy<T>::BLOCK_THREADS) histogramRangeSmem(const T *samples, int *hist, int *privatized, int bins, const T *levels, int n, int tilesPerRow) {
    cugen::histogram<T, 256>(samples, hist, privatized, bins, cugen::RangeBins<T>{levels, bins + 1}, n, tilesPerRow);
}

template <typename T>
__global__ void __launch_bounds__(cugen::HistogramSweepPolicy<T>::BLOCK_THREADS) histogramRangeGmem(const T *samples, int *hist, int *privatized, int bins, const T *levels, int n, int tilesPerRow) {
    cugen::histogram<T, 0>(samples, hist, privatized, bins, cugen::RangeBins<T>{levels, bins + 1}, n, tilesPerRow);
}

// scanByKeyInit is CUB's DeviceScanByKeyInitKernel: the tile states, and
// the key before each tile but the first.
template <typename T>
__global__ void scanByKeyInit(void *state, const int *keys, int *prevKeys, int tileItems, int numTiles) {
    cugen::ScanByKeyTileState<T> ts;
    ts.Init(numTiles, state, 0);
    ts.InitializeStatus(numTiles);
    const unsigned tid = threadIdx.x + blockDim.x * blockIdx.x;
    if (tid > 0 && tid < static_cast<unsigned>(numTiles)) {
        prevKeys[tid] = keys[tid * static_cast<unsigned>(tileItems) - 1];
    }
}

template <typename T>
__global__ void __launch_bounds__(cugen::ScanByKeyPolicy<T>::BLOCK_THREADS) scanByKeyInclusiveSum(const int *keys, int *prevKeys, const T *in, T *out, void *state, int numTiles, int n) {
    cugen::scanByKey<T, cub::NullType>(keys, prevKeys, in, out, state, numTiles, n, cub::NullType());
}

template <typename T>
__global__ void __launch_bounds__(cugen::ScanByKeyPolicy<T>::BLOCK_THREADS) scanByKeyExclusiveSum(const int *keys, int *prevKeys, const T *in, T *out, void *state, int numTiles, int n, T init) {
    cugen::scanByKey<T, T>(keys, prevKeys, in, out, state, numTiles, n, init);
}

template <typename T>
__global__ void __launch_bounds__(256) segmentedSum(const T *in, T *out, const int *offsets, T init) {
    cugen::segmentedReduce<T, cub::Sum>(in, out, offsets, init);
}

template <typename T>
__global__ void __launch_bounds__(256) segmentedMin(const T *in, T *out, const int *offsets, T init) {
    cugen::segmentedReduce<T, cub::Min>(in, out, offsets, init);
}

template <typename T>
__global__ void __launch_bounds__(256) segmentedMax(const T *in, T *out, const int *offsets, T init) {
    cugen::segmentedReduce<T, cub::Max>(in, out, offsets, init);
}

template <typename T>
__global__ void __launch_bounds__(256) segmentedArgMin(const T *in, int *index, T *value, const int *offsets, T empty) {
    cugen::segmentedArg<T, cub::ArgMin>(in, index, value, offsets, empty);
}

template <typename T>
__global__ void __launch_bounds__(256) segmentedArgMax(const T *in, int *index, T *value, const int *offsets, T empty) {
    cugen::segmentedArg<T, cub::ArgMax>(in, index, value, offsets, empty);
}

template <typename K>
__global__ void __launch_bounds__(cugen::SegmentedSortPolicy<K, cub::NullType, false>::BLOCK_THREADS) segmentedSortKeysAsc(const K *keysIn, K *keysOut, const int *begins, const int *ends, int bit, int bits) {
    cugen::segmentedSort<K, cub::NullType, false, false>(keysIn, keysOut, nullptr, nullptr, begins, ends, bit, bits);
}

template <typename K>
__global__ void __launch_bounds__(cugen::SegmentedSortPolicy<K, cub::NullType, true>::BLOCK_THREADS) segmentedSortKeysAscAlt(const K *keysIn, K *keysOut, const int *begins, const int *ends, int bit, int bits) {
    cugen::segmentedSort<K, cub::NullType, false, true>(keysIn, keysOut, nullptr, nullptr, begins, ends, bit, bits);
}

template <typename K>
__global__ void __launch_bounds__(cugen::SegmentedSortPolicy<K, cub::NullType, false>::BLOCK_THREADS) segmentedSortKeysDesc(const K *keysIn, K *keysOut, const int *begins, const int *ends, int bit, int bits) {
    cugen::segmentedSort<K, cub::NullType, true, false>(keysIn, keysOut, nullptr, nullptr, begins, ends, bit, bits);
}

template <typename K>
__global__ void __launch_bounds__(cugen::SegmentedSortPolicy<K, cub::NullType, true>::BLOCK_THREADS) segmentedSortKeysDescAlt(const K *keysIn, K *keysOut, const int *begins, const int *ends, int bit, int bits) {
    cugen::segmentedSort<K, cub::NullType, true, true>(keysIn, keysOut, nullptr, nullptr, begins, ends, bit, bits);
}

template <typename K>
__global__ void __launch_bounds__(cugen::SegmentedSortPolicy<K, int, false>::BLOCK_THREADS) segmentedSortPairsAsc(const K *keysIn, K *keysOut, const int *valuesIn, int *valuesOut, const int *begins, const int *ends, int bit, int bits) {
    cugen::segmentedSort<K, int, false, false>(keysIn, keysOut, valuesIn, valuesOut, begins, ends, bit, bits);
}

template <typename K>
__global__ void __launch_bounds__(cugen::SegmentedSortPolicy<K, int, true>::BLOCK_THREADS) segmentedSortPairsAscAlt(const K *keysIn, K *keysOut, const int *valuesIn, int *valuesOut, const int *begins, const int *ends, int bit, int bits) {
    cugen::segmentedSort<K, int, false, true>(keysIn, keysOut, valuesIn, valuesOut, begins, ends, bit, bits);
}

template <typename K>
__global__ void __launch_bounds__(cugen::SegmentedSortPolicy<K, int, false>::BLOCK_THREADS) segmentedSortPairsDesc(const K *keysIn, K *keysOut, const int *valuesIn, int *valuesOut, const int *begins, const int *ends, int bit, int bits) {
    cugen::segmentedSort<K, int, true, false>(keysIn, keysOut, valuesIn, valuesOut, begins, ends, bit, bits);
}

template <typename K>
__global__ void __launch_bounds__(cugen::SegmentedSortPolicy<K, int, true>::BLOCK_THREADS) segmentedSortPairsDescAlt(const K *keysIn, K *keysOut, const int *valuesIn, int *valuesOut, const int *begins, const int *ends, int bit, int bits) {
    cugen::segmentedSort<K, int, true, true>(keysIn, keysOut, valuesIn, valuesOut, begins, ends, bit, bits);
}

// The policies the host needs, per type, as this architecture's
// compilation chose them: the tile sizes and the scan's storage word
// (CUGEN_POLICY: every type), and those of the agents built only for
// types of 4 and 8 bytes (CUGEN_POLICY_WIDE).
#define CUGEN_POLICY(T, name) \
    extern "C" __device__ const int cugen_reduce_threads_##name = cugen::ReducePolicy<T, cub::Sum>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_reduce_items_##name = cugen::ReducePolicy<T, cub::Sum>::ITEMS_PER_THREAD; \
    extern "C" __device__ const int cugen_scan_threads_##name = cugen::ScanPolicy<T>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_scan_items_##name = cugen::ScanPolicy<T>::ITEMS_PER_THREAD; \
    extern "C" __device__ const int cugen_scan_word_##name = sizeof(typename cub::ScanTileState<T>::TxnWord); \
    extern "C" __device__ const int cugen_arg_items_##name = cugen::ReducePolicy<cugen::KV<T>, cub::ArgMin>::ITEMS_PER_THREAD; \
    extern "C" __device__ const int cugen_arg_pair_##name = sizeof(cugen::KV<T>); \
    extern "C" __device__ const int cugen_sort_keys_threads_##name = cugen::OnesweepPolicy<T, cub::NullType>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_sort_keys_items_##name = cugen::OnesweepPolicy<T, cub::NullType>::ITEMS_PER_THREAD; \
    extern "C" __device__ const int cugen_sort_pairs_threads_##name = cugen::OnesweepPolicy<T, int>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_sort_pairs_items_##name = cugen::OnesweepPolicy<T, int>::ITEMS_PER_THREAD; \
    extern "C" __device__ const int cugen_histogram_threads_##name = cugen::HistogramSweepPolicy<T>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_histogram_items_##name = cugen::HistogramSweepPolicy<T>::PIXELS_PER_THREAD;

#define CUGEN_POLICY_WIDE(T, name) \
    extern "C" __device__ const int cugen_unique_threads_##name = cugen::SelectPolicy<T, cugen::kUnique>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_if_threads_##name = cugen::SelectPolicy<T, cugen::kIf>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_if_items_##name = cugen::SelectPolicy<T, cugen::kIf>::ITEMS_PER_THREAD; \
    extern "C" __device__ const int cugen_partition_if_threads_##name = cugen::SelectPolicy<T, cugen::kPartitionIf>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_partition_if_items_##name = cugen::SelectPolicy<T, cugen::kPartitionIf>::ITEMS_PER_THREAD; \
    extern "C" __device__ const int cugen_unique_items_##name = cugen::SelectPolicy<T, cugen::kUnique>::ITEMS_PER_THREAD; \
    extern "C" __device__ const int cugen_flagged_threads_##name = cugen::SelectPolicy<T, cugen::kFlagged>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_flagged_items_##name = cugen::SelectPolicy<T, cugen::kFlagged>::ITEMS_PER_THREAD; \
    extern "C" __device__ const int cugen_partition_threads_##name = cugen::SelectPolicy<T, cugen::kPartition>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_partition_items_##name = cugen::SelectPolicy<T, cugen::kPartition>::ITEMS_PER_THREAD; \
    extern "C" __device__ const int cugen_rle_threads_##name = cugen::RlePolicy<T>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_rle_items_##name = cugen::RlePolicy<T>::ITEMS_PER_THREAD; \
    extern "C" __device__ const int cugen_scan_by_key_threads_##name = cugen::ScanByKeyPolicy<T>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_scan_by_key_items_##name = cugen::ScanByKeyPolicy<T>::ITEMS_PER_THREAD; \
    extern "C" __device__ const int cugen_scan_by_key_word_##name = sizeof(typename cugen::ScanByKeyTileState<T>::TxnWord);

CUGEN_POLICY(int, int32)
CUGEN_POLICY(unsigned int, uint32)
CUGEN_POLICY(long long, int64)
CUGEN_POLICY(unsigned long long, uint64)
CUGEN_POLICY(float, float32)
CUGEN_POLICY(double, float64)
CUGEN_POLICY(signed char, int8)
CUGEN_POLICY(unsigned char, uint8)
CUGEN_POLICY(short, int16)
CUGEN_POLICY(unsigned short, uint16)
CUGEN_POLICY(__half, float16)
CUGEN_POLICY(__nv_bfloat16, bfloat16)
CUGEN_POLICY_WIDE(int, int32)
CUGEN_POLICY_WIDE(unsigned int, uint32)
CUGEN_POLICY_WIDE(long long, int64)
CUGEN_POLICY_WIDE(unsigned long long, uint64)
CUGEN_POLICY_WIDE(float, float32)
CUGEN_POLICY_WIDE(double, float64)

// The segmented sort's block threads and digit bits, of keys alone and
// of pairs, SegmentedPolicy's and AltSegmentedPolicy's.
#define CUGEN_POLICY_SEGMENTED_SORT(T, name) \
    extern "C" __device__ const int cugen_segsort_keys_threads_##name = cugen::SegmentedSortPolicy<T, cub::NullType, false>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_segsort_keys_bits_##name = cugen::SegmentedSortPolicy<T, cub::NullType, false>::RADIX_BITS; \
    extern "C" __device__ const int cugen_segsort_keys_alt_threads_##name = cugen::SegmentedSortPolicy<T, cub::NullType, true>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_segsort_keys_alt_bits_##name = cugen::SegmentedSortPolicy<T, cub::NullType, true>::RADIX_BITS; \
    extern "C" __device__ const int cugen_segsort_pairs_threads_##name = cugen::SegmentedSortPolicy<T, int, false>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_segsort_pairs_bits_##name = cugen::SegmentedSortPolicy<T, int, false>::RADIX_BITS; \
    extern "C" __device__ const int cugen_segsort_pairs_alt_threads_##name = cugen::SegmentedSortPolicy<T, int, true>::BLOCK_THREADS; \
    extern "C" __device__ const int cugen_segsort_pairs_alt_bits_##name = cugen::SegmentedSortPolicy<T, int, true>::RADIX_BITS;

CUGEN_POLICY_SEGMENTED_SORT(int, int32)
CUGEN_POLICY_SEGMENTED_SORT(unsigned int, uint32)
CUGEN_POLICY_SEGMENTED_SORT(long long, int64)
CUGEN_POLICY_SEGMENTED_SORT(unsigned long long, uint64)
CUGEN_POLICY_SEGMENTED_SORT(float, float32)
CUGEN_POLICY_SEGMENTED_SORT(double, float64)

// The words of the select's and the run-length encode's tile states: the
// host sizes their storage, (tiles + 32) words.
extern "C" __device__ const int cugen_select_word = sizeof(typename cub::ScanTileState<int>::TxnWord);
extern "C" __device__ const int cugen_rle_word = sizeof(typename cugen::RleTileState::TxnWord);
