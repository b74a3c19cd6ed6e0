// <stdint.h> for NVRTC, which has no C standard library:
// agent_radix_sort_downsweep.cuh (the segmented sort's) includes it, but
// uses only the std:: integers nvrtc/iterator declares from libcu++.
#pragma once
#include <cuda/std/cstdint>
