//go:build !cuda12

package main

import "github.com/cugen/cugen/cuda/sys/cupti"

// The activity record layouts CUPTI 13 writes: its header's newest
// versions.
type (
	kernelRecord = cupti.ActivityKernel10
	memcpyRecord = cupti.ActivityMemcpy6
	memsetRecord = cupti.ActivityMemset4
)
