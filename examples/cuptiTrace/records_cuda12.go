//go:build cuda12

package main

import "github.com/cugen/cugen/cuda/sys/cupti"

// The activity record layouts CUPTI 12 writes: its header's newest
// versions.
type (
	kernelRecord = cupti.ActivityKernel9
	memcpyRecord = cupti.ActivityMemcpy5
	memsetRecord = cupti.ActivityMemset4
)
