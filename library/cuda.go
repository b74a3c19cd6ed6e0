package library

import "github.com/cugen/cugen/parser/ir"

// Driver is the CUDA driver API: package cu, libcuda.so.1.
var Driver = &Desc{
	Key:            ir.Driver,
	Title:          "CUDA driver",
	API:            "driver",
	Package:        "cu",
	Include:        []string{"cuda.h", "cudaProfiler.h"},
	Declare:        []string{"cuda.h", "cudaProfiler.h"},
	Required:       true,
	SymbolVersions: "cudaTypedefs.h",
	Prefixes:       cudaPrefixes,
	Status:         "CUresult",
	ErrorString:    "cuGetErrorString",
	Load: Load{
		Name:     "CUDA driver",
		EnvVar:   "CUGEN_LIBCUDA",
		Files:    map[int][]string{0: {"libcuda.so.1", "libcuda.so"}},
		Identify: "cuDriverGetVersion",
		WSL:      true,
		Driver:   true,
	},
	Overrides: Overrides{
		Directions: map[string]DirectionOverride{
			"cuGetErrorString.pStr":                       {Dir: ir.Out, Why: `"Address of the string pointer": the driver stores a static string`},
			"cuGetErrorName.pStr":                         {Dir: ir.Out, Why: `"Address of the string pointer": the driver stores a static string`},
			"cuDeviceComputeCapability.major":             {Dir: ir.Out, Why: "major revision number written by the driver"},
			"cuDeviceComputeCapability.minor":             {Dir: ir.Out, Why: "minor revision number written by the driver"},
			"cuDeviceGetExecAffinitySupport.pi":           {Dir: ir.Out, Why: `"1 if ... supported": a flag written by the driver`},
			"cuDeviceGetMemPool.pool":                     {Dir: ir.Out, Why: "undocumented; the function gets the current pool"},
			"cuDeviceGetDefaultMemPool.pool_out":          {Dir: ir.Out, Why: "undocumented; the function gets the default pool"},
			"cuCtxGetApiVersion.version":                  {Dir: ir.Out, Why: `"Pointer to version": written by the driver`},
			"cuModuleGetFunctionCount.count":              {Dir: ir.Out, Why: `"Number of functions found": written by the driver`},
			"cuLibraryGetKernelCount.count":               {Dir: ir.Out, Why: `"Number of kernels found": written by the driver`},
			"cuDeviceRegisterAsyncNotification.callback":  {Dir: ir.Out, Why: "the registered callback's handle, created by the driver"},
			"cuMemPoolCreate.pool":                        {Dir: ir.Out, Why: "undocumented; the created pool"},
			"cuStreamEndCapture.phGraph":                  {Dir: ir.Out, Why: `"The captured graph": created by the driver`},
			"cuEventElapsedTime.pMilliseconds":            {Dir: ir.Out, Why: `"Time between ... in ms": written by the driver`},
			"cuTexObjectGetResourceDesc.pResDesc":         {Dir: ir.Out, Why: "a Get function filling the descriptor"},
			"cuTexObjectGetTextureDesc.pTexDesc":          {Dir: ir.Out, Why: "a Get function filling the descriptor"},
			"cuTexObjectGetResourceViewDesc.pResViewDesc": {Dir: ir.Out, Why: "a Get function filling the descriptor"},
			"cuSurfObjectGetResourceDesc.pResDesc":        {Dir: ir.Out, Why: "a Get function filling the descriptor"},
			"cuSurfRefGetArray.phArray":                   {Dir: ir.Out, Why: "documented as the surface reference by mistake; the function returns the bound array"},
		},
		Arrays: map[string]ArrayOverride{
			"cuDeviceGetLuid.luid": {Len: 8, Why: "a LUID is 8 bytes (cudaDeviceProp.luid is char[8], \"8-byte locally unique identifier\")"},
			// The description says "data ... dataSizes ... numAttributes" entries;
			// the signature also has a count (the range's bytes), so the rule
			// cannot pick.
			"cuMemRangeGetAttributes.data":       {Param: "numAttributes", Why: "one result pointer per attribute queried (the description)"},
			"cuMemRangeGetAttributes.dataSizes":  {Param: "numAttributes", Why: "one size per attribute queried (the description)"},
			"cuDevSmResourceSplitByCount.result": {Param: "nbGroups", Why: "*nbGroups elements: nbGroups is an in/out pointer"},
			// Kernel arguments: one pointer per parameter of the kernel, whose
			// signature (not this call's) gives the count.
			"cuLaunchKernel.kernelParams":            {Why: "one pointer per kernel parameter (the kernel's signature gives the count)"},
			"cuLaunchKernelEx.kernelParams":          {Why: "one pointer per kernel parameter (the kernel's signature gives the count)"},
			"cuLaunchCooperativeKernel.kernelParams": {Why: "one pointer per kernel parameter (the kernel's signature gives the count)"},
		},
		OneShotCallbacks: map[string]string{
			"cuLaunchHostFunc":    "the host function runs once when the stream reaches it",
			"cuStreamAddCallback": "the callback runs once when the stream's work completes",
			"cuUserObjectCreate":  "the destructor runs once, when the last reference is released",
		},
		RegisteredCallbacks: map[string]string{
			"cuDeviceRegisterAsyncNotification": "cuDeviceUnregisterAsyncNotification",
			"cuLogsRegisterCallback":            "cuLogsUnregisterCallback",
		},
		SynchronousCallbacks: map[string]string{
			"cuOccupancyMaxPotentialBlockSize":          "the block-size-to-shared-memory function is called during the computation",
			"cuOccupancyMaxPotentialBlockSizeWithFlags": "the block-size-to-shared-memory function is called during the computation",
		},
		DevicePointerTypes: map[string]string{
			"CUdeviceptr_v2": "a device address as an integer; runtime calls take it as void *",
		},
		AlignedValues: map[string]string{
			"tensorMap": "one CUtensorMap (64-byte aligned in C), read and rewritten on the host",
		},
	},
	Graph: &GraphAPI{
		Stream: "CUstream", Graph: "CUgraph", Exec: "CUgraphExec", Node: "CUgraphNode", ExecDestroy: "cuGraphExecDestroy",
		CaptureInfo: "cuStreamGetCaptureInfo", Active: "CU_STREAM_CAPTURE_STATUS_ACTIVE",
		Create: "cuUserObjectCreate", Retain: "cuGraphRetainUserObject", Release: "cuUserObjectRelease",
		NoSync: "CU_USER_OBJECT_NO_DESTRUCTOR_SYNC", Move: "CU_GRAPH_USER_OBJECT_MOVE",
	},
	LockLibs: []string{"libcuda1"},
}

// Runtime is the CUDA runtime API: package cudart, libcudart.so.N. It owns
// the types of the headers it includes (driver_types.h, vector_types.h, ...).
var Runtime = &Desc{
	Key:     ir.Runtime,
	Title:   "CUDA runtime",
	API:     "runtime",
	Package: "cudart",
	Imports: []ir.Library{ir.Driver},
	Include: []string{"cuda_runtime.h", "cuda_profiler_api.h"},
	Declare: []string{"cuda_runtime_api.h", "cuda_profiler_api.h"},
	// The math libraries' headers include these; their types (cuComplex,
	// __half_raw) are the runtime's whichever libraries are parsed.
	Shared:       []string{"cuComplex.h", "cuda_fp16.h", "cuda_bf16.h"},
	Owner:        true,
	Required:     true,
	Prefixes:     cudaPrefixes,
	Status:       "cudaError_t",
	ErrorString:  "cudaGetErrorString",
	VersionMacro: "CUDART_VERSION",
	Load: Load{
		Name:        "CUDA %d runtime",
		EnvVar:      "CUGEN_LIBCUDART",
		Files:       map[int][]string{11: {"libcudart.so.11.0"}, 12: {"libcudart.so.12"}, 13: {"libcudart.so.13"}},
		Wheels:      map[int][]string{12: {"nvidia/cuda_runtime/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify:    "cudaRuntimeGetVersion",
		Version:     Version{Symbol: "cudaRuntimeGetVersion", Form: Encoded},
		NeedsDriver: true,
	},
	Overrides: Overrides{
		Directions: map[string]DirectionOverride{
			"cudaDeviceRegisterAsyncNotification.callback":      {Dir: ir.Out, Why: "the registered callback's handle, created by the runtime"},
			"cudaGetDeviceProperties.prop":                      {Dir: ir.Out, Why: `"Properties for the specified device": filled by the runtime`},
			"cudaDeviceGetDefaultMemPool.memPool":               {Dir: ir.Out, Why: "undocumented; the default pool"},
			"cudaDeviceGetMemPool.memPool":                      {Dir: ir.Out, Why: "undocumented; the current pool"},
			"cudaChooseDevice.device":                           {Dir: ir.Out, Why: `"Device with best match": written by the runtime`},
			"cudaStreamEndCapture.pGraph":                       {Dir: ir.Out, Why: `"The captured graph": created by the runtime`},
			"cudaEventElapsedTime.ms":                           {Dir: ir.Out, Why: `"Time between ... in ms": written by the runtime`},
			"cudaFuncGetParamInfo.paramOffset":                  {Dir: ir.Out, Why: "a Get function's result"},
			"cudaFuncGetParamInfo.paramSize":                    {Dir: ir.Out, Why: "a Get function's result"},
			"cudaMallocPitch.pitch":                             {Dir: ir.Out, Why: `"Pitch for allocation": written by the runtime`},
			"cudaHostAlloc.pHost":                               {Dir: ir.Out, Why: `"Device pointer to allocated memory" (sic): the allocated host pointer`},
			"cudaGetSymbolSize.size":                            {Dir: ir.Out, Why: `"Size of object associated with symbol": written by the runtime`},
			"cudaMemPoolCreate.memPool":                         {Dir: ir.Out, Why: "undocumented; the created pool"},
			"cudaMemPoolImportFromShareableHandle.memPool":      {Dir: ir.Out, Why: "undocumented; the imported pool"},
			"cudaMemPoolExportPointer.exportData":               {Dir: ir.Out, Why: "undocumented; the export data written by the runtime"},
			"cudaPointerGetAttributes.attributes":               {Dir: ir.Out, Why: `"Attributes for the specified pointer": filled by the runtime`},
			"cudaGetChannelDesc.desc":                           {Dir: ir.Out, Why: `"Channel format": filled by the runtime`},
			"cudaGetTextureObjectResourceDesc.pResDesc":         {Dir: ir.Out, Why: "a Get function filling the descriptor"},
			"cudaGetTextureObjectTextureDesc.pTexDesc":          {Dir: ir.Out, Why: "a Get function filling the descriptor"},
			"cudaGetTextureObjectResourceViewDesc.pResViewDesc": {Dir: ir.Out, Why: "a Get function filling the descriptor"},
			"cudaGetSurfaceObjectResourceDesc.pResDesc":         {Dir: ir.Out, Why: "a Get function filling the descriptor"},
			"cudaGraphAddEventRecordNode.pGraphNode":            {Dir: ir.Out, Why: "undocumented; the created node, like every other cudaGraphAdd*Node"},
			"cudaGraphAddEventWaitNode.pGraphNode":              {Dir: ir.Out, Why: "undocumented; the created node, like every other cudaGraphAdd*Node"},
		},
		Arrays: map[string]ArrayOverride{
			"cudaMemRangeGetAttributes.data":      {Param: "numAttributes", Why: "one result pointer per attribute queried (the description)"},
			"cudaMemRangeGetAttributes.dataSizes": {Param: "numAttributes", Why: "one size per attribute queried (the description)"},
			"cudaLaunchKernel.args":               {Why: "one pointer per kernel parameter (the kernel's signature gives the count)"},
			"cudaLaunchKernelExC.args":            {Why: "one pointer per kernel parameter (the kernel's signature gives the count)"},
			"cudaLaunchCooperativeKernel.args":    {Why: "one pointer per kernel parameter (the kernel's signature gives the count)"},
		},
		OneShotCallbacks: map[string]string{
			"cudaLaunchHostFunc":    "the host function runs once when the stream reaches it",
			"cudaStreamAddCallback": "the callback runs once when the stream's work completes",
			"cudaUserObjectCreate":  "the destructor runs once, when the last reference is released",
		},
		RegisteredCallbacks: map[string]string{
			"cudaDeviceRegisterAsyncNotification": "cudaDeviceUnregisterAsyncNotification",
			"cudaLogsRegisterCallback":            "cudaLogsUnregisterCallback",
		},
		DefaultOneRecords: map[string]string{
			"dim3": "vector_types.h: dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1); a zero dimension is an invalid launch configuration",
		},
		KernelPointers: map[string]string{
			"cudaGetKernel.entryFuncAddr":   "the entry function address cudaGetKernel turns into a cudaKernel_t",
			"cudaGetFuncBySymbol.symbolPtr": "the entry function address cudaGetFuncBySymbol turns into a cudaFunction_t",
		},
	},
	Graph: &GraphAPI{
		Stream: "cudaStream_t", Graph: "cudaGraph_t", Exec: "cudaGraphExec_t", Node: "cudaGraphNode_t", ExecDestroy: "cudaGraphExecDestroy",
		CaptureInfo: "cudaStreamGetCaptureInfo", Active: "cudaStreamCaptureStatusActive",
		Create: "cudaUserObjectCreate", Retain: "cudaGraphRetainUserObject", Release: "cudaUserObjectRelease",
		NoSync: "cudaUserObjectNoDestructorSync", Move: "cudaGraphUserObjectMove",
	},
	LockLibs: []string{"libcudart12"},
}

// cudaPrefixes are dropped from the names of both CUDA APIs, whose headers
// share types (the runtime's cudaUUID_t is struct CUuuid_st).
var cudaPrefixes = []string{"CUDART_", "CUDA_", "CU_", "cuda", "CU", "cu"}
