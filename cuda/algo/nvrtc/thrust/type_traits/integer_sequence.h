// <thrust/type_traits/integer_sequence.h> for NVRTC: CCCL 2.5's
// radix_rank_sort_operations.cuh includes it for two names, used only with
// a custom key decomposer (cub.cu has none); Thrust's own header reaches
// host code. The two, over libcu++'s integer sequences.
#pragma once
#include <cuda/std/cstddef>
#include <cuda/std/utility>

#ifndef THRUST_NS_QUALIFIER
#define THRUST_NS_QUALIFIER ::thrust
#endif

namespace thrust {
template <::cuda::std::size_t... Is>
using index_sequence = ::cuda::std::index_sequence<Is...>;

template <typename Seq>
struct cugen_reversed;
template <::cuda::std::size_t... Is>
struct cugen_reversed<::cuda::std::index_sequence<Is...>> {
    using type = ::cuda::std::index_sequence<(sizeof...(Is) - 1 - Is)...>;
};

template <::cuda::std::size_t N>
using make_reversed_index_sequence = typename cugen_reversed<::cuda::std::make_index_sequence<N>>::type;
} // namespace thrust
