package library

import "github.com/cugen/cugen/parser/ir"

// CUPTI is the CUDA Profiling Tools Interface: package cupti,
// libcupti.so.N (12 with CUDA 12, 13 with CUDA 13). Its headers come
// with CUPTI: Debian's libcupti-dev, which headers.lock adds to set 12.4;
// the CUDA 13.0 toolkit has them in include/ itself (no extras/CUPTI),
// pinned in set 13.0. Both majors have a package (generated/cudaN/cupti). The translation unit
// includes CUPTI's API headers one by one, not cupti.h, which also
// includes the generated_*_meta.h parameter structs of every driver and
// runtime function (thousands of types for the callback API's
// functionParams, left to a later version). cuptiGetVersion reports
// CUPTI's API version (CUPTI_API_VERSION), not CUDA's: no major is
// checked at load.
var CUPTI = &Desc{
	Key:     "cupti",
	API:     "CUPTI",
	Title:   "CUPTI",
	Package: "cupti",
	Imports: []ir.Library{ir.Driver},
	Include: []string{"cupti_result.h", "cupti_version.h", "cupti_activity.h", "cupti_callbacks.h", "cupti_events.h", "cupti_metrics.h",
		"cupti_driver_cbid.h", "cupti_runtime_cbid.h", "cupti_nvtx_cbid.h"},
	Declare: []string{"cupti_result.h", "cupti_version.h", "cupti_activity.h", "cupti_callbacks.h", "cupti_events.h", "cupti_metrics.h",
		"cupti_driver_cbid.h", "cupti_runtime_cbid.h", "cupti_nvtx_cbid.h",
		"cupti_common.h", "cupti_activity_deprecated.h", "cuda_stdint.h"},
	Prefixes:    []string{"CUPTI_", "CUpti_", "CUpti", "cupti"},
	Status:      "CUptiResult",
	ErrorString: "cuptiGetResultString",
	Load: Load{
		Name:     "CUPTI (CUDA %d)",
		EnvVar:   "CUGEN_LIBCUPTI",
		Files:    map[int][]string{12: {"libcupti.so.12"}, 13: {"libcupti.so.13"}},
		Wheels:   map[int][]string{12: {"nvidia/cuda_cupti/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "cuptiGetVersion",
	},
	Overrides: Overrides{
		Directions: map[string]DirectionOverride{
			// An output alone would hand C a NULL record every call: the
			// first record, forever.
			"cuptiActivityGetNextRecord.record": {Dir: ir.InOut, Why: `"Inputs the previous record returned by cuptiActivityGetNextRecord and returns the next activity record ... If input value is NULL, returns the first"`},
		},
		RegisteredCallbacks: map[string]string{
			"cuptiSubscribe": "cuptiUnsubscribe",
		},
		NonNullHandles: map[string]NonNullHandle{
			"CUpti_SubscriberHandle": {Status: "CUPTI_ERROR_INVALID_PARAMETER",
				Why: `the header: "CUPTI_ERROR_INVALID_PARAMETER if subscriber is NULL or not initialized" (cuptiUnsubscribe) or "invalid"; cuptiEnableDomain(1, NULL, domain) segfaults inside CUPTI instead; every function taking a subscriber is guarded alike`},
		},
		GlobalCallbacks: map[string]string{
			"cuptiActivityRegisterCallbacks": `"registers two callback functions to be used in asynchronous buffer handling": CUPTI calls them on its own threads, without userData, until the next registration`,
		},
	},
	LockLibs: []string{"libcupti12"},
}
