package library

// NVTX is the NVIDIA Tools Extension, version 2: package nvtx,
// libnvToolsExt.so.1, for ranges and marks that profilers (Nsight
// Systems, CUPTI's NVTX callbacks) see. Without a profiler's injection
// library (NVTX_INJECTION64_PATH) every call returns at once: a push or
// pop returns -2 (NVTX_NO_PUSH_POP_TRACKING).
//
// CUDA 12's toolkit ships libnvToolsExt.so.1 and nvToolsExt.h (v2, which
// the package is generated from); CUDA 13 ships only NVTX 3, a
// header-only API whose static inline functions call through a table an
// injection library fills. Package github.com/cugen/cugen/nvtx speaks
// that protocol in Go and serves every major with no library: it is the
// one to use; this binding is the raw v2 API for programs that have the
// library.
var NVTX = &Desc{
	Key:      "nvtx",
	API:      "NVTX",
	Title:    "NVTX",
	Package:  "nvtx",
	Include:  []string{"nvToolsExt.h"},
	Declare:  []string{"nvToolsExt.h"},
	Prefixes: []string{"NVTX_", "nvtx"},
	NoStatus: true,
	Load: Load{
		Name:     "NVTX",
		EnvVar:   "CUGEN_LIBNVTX",
		Files:    map[int][]string{0: {"libnvToolsExt.so.1"}},
		Wheels:   map[int][]string{12: {"nvidia/nvtx/lib"}},
		Identify: "nvtxRangePushA",
		NotFound: map[int]string{
			12: "it is NVTX v2's library, which only package generated/cuda12/nvtx loads (package github.com/cugen/cugen/nvtx speaks NVTX 3 and needs no library): " +
				"install Debian's libnvtoolsext1 or the CUDA 12 toolkit, or pip install nvidia-nvtx-cu12, or set CUGEN_LIBNVTX to its path",
			13: "CUDA 13 has no NVTX v2 library and no package of it: NVTX 3 is header-only, and package github.com/cugen/cugen/nvtx speaks it from Go with no library; " +
				"only generated/cuda12/nvtx needs libnvToolsExt.so.1 (Debian's libnvtoolsext1, the CUDA 12 toolkit)",
		},
	},
	Unexported: map[string]string{
		"nvtxInitialize": "declared in nvToolsExt.h 12.4, not exported by libnvToolsExt.so.1 (NVTX 3 defines it in its headers)",
	},
	LockLibs: []string{"libnvtoolsext1"},
}
