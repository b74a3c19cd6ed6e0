package emit

import "testing"

func TestGoName(t *testing.T) {
	for _, c := range []struct{ c, want string }{
		// DESIGN.md's examples.
		{"cuCtxGetCurrent", "CtxGetCurrent"},
		{"CUcontext", "Context"},
		{"CUresult", "Result"},
		{"CUDA_ERROR_NOT_INITIALIZED", "ErrorNotInitialized"},
		{"cudaGetDeviceCount", "GetDeviceCount"},
		{"cudaError_t", "Error"},
		{"cudaErrorInvalidDevice", "ErrorInvalidDevice"},
		{"struct cudaDeviceProp", "DeviceProp"},
		// Suffixes: _t, _st, _enum, _union, and version suffixes kept.
		{"CUdeviceptr_v2", "DeviceptrV2"},
		{"cuMemAlloc_v2", "MemAllocV2"},
		{"cudaStream_t", "Stream"},
		{"CUctx_st", "Ctx"},
		{"cudaError_enum", "Error"},
		{"enum cudaError", "Error"},
		{"union CUstreamBatchMemOpParams_union", "StreamBatchMemOpParams"},
		{"CUipcMemHandle_v1", "IpcMemHandleV1"},
		{"cudaIpcMemHandle_st", "IpcMemHandle"},
		// Prefixes, longest first; SCREAMING_SNAKE to CamelCase.
		{"CUDART_VERSION", "Version"},
		{"CUDA_VERSION", "Version"},
		{"CU_CTX_SCHED_AUTO", "CtxSchedAuto"},
		{"CU_LAUNCH_PARAM_END", "LaunchParamEnd"},
		{"CUDA_SUCCESS", "Success"},
		{"cudaSuccess", "Success"},
		{"CUstream", "Stream"},
		{"CUhostFn", "HostFn"},
		{"cuuint64_t", "Cuuint64"}, // cu then a lower-case letter: not a prefix (and a builtin typedef anyway)
		// A letter after a digit keeps its case: 2D, 3D.
		{"CUDA_MEMCPY2D", "Memcpy2D"},
		{"CUDA_ARRAY3D_DESCRIPTOR", "Array3DDescriptor"},
		{"CUDA_MEMCPY3D_PEER_v1", "Memcpy3DPeerV1"},
		{"cudaMemcpy3DParms", "Memcpy3DParms"},
		{"CU_AD_FORMAT_UNSIGNED_INT8", "AdFormatUnsignedInt8"},
		{"CUDA_R_16F", "R16F"},
		// A prefix is dropped only at a word boundary...
		{"cube", "Cube"},
		{"current", "Current"},
		{"cudart", "Cudart"},
		{"cuda", "Cuda"},
		{"CU", "Cu"},
		// ...and only when what is left starts with a letter.
		{"CU_2D", "Cu2D"},
		{"CUDA_3D_THING", "Cuda3DThing"},
		{"CU__PRIVATE", "Private"},
		{"CUDA__", "Cuda"}, // used to panic: nothing left after the underscores
		{"CU__", "Cu"},
		{"cuda_", "Cuda"},
		// Already Go-shaped names keep their case.
		{"cuDevicePrimaryCtxRetain", "DevicePrimaryCtxRetain"},
		{"cudaGraphExecUpdateResultInfo", "GraphExecUpdateResultInfo"},
		{"cuGetProcAddress_v2", "GetProcAddressV2"},
	} {
		if got := goName(c.c); got != c.want {
			t.Errorf("goName(%q) = %q, want %q", c.c, got, c.want)
		}
	}
}

func TestFullGoName(t *testing.T) {
	for _, c := range []struct{ c, want string }{
		{"cudaErrorInvalidDevice", "CudaErrorInvalidDevice"},
		{"CU_LAUNCH_PARAM_END", "CuLaunchParamEnd"},
		{"CUlibrary", "CUlibrary"},
		{"struct CUlibrary_st", "CUlibrarySt"},
		{"CUDA_ERROR_NOT_INITIALIZED", "CudaErrorNotInitialized"},
	} {
		if got := fullGoName(c.c); got != c.want {
			t.Errorf("fullGoName(%q) = %q, want %q", c.c, got, c.want)
		}
	}
}

func TestCamel(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "X"},
		{"_", "X"},
		{"__", "X"},
		{"ERROR", "Error"},
		{"ERROR_NOT_INITIALIZED", "ErrorNotInitialized"},
		{"MEMCPY2D", "Memcpy2D"},
		{"ARRAY3D_DESCRIPTOR", "Array3DDescriptor"},
		{"2D", "X2D"},
		{"16F", "X16F"},
		{"getDeviceCount", "GetDeviceCount"},
		{"GetDeviceCount", "GetDeviceCount"},
		{"abc_DEF", "AbcDef"},
		{"a__b", "AB"},
		{"IPC", "Ipc"},
		{"x", "X"},
		{"deviceptr_v2", "DeviceptrV2"},
		{"TMA_2D_v1", "Tma2DV1"},
	} {
		if got := camel(c.in); got != c.want {
			t.Errorf("camel(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestGoParamName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "arg"},
		{"ordinal", "ordinal"},
		{"Flags", "flags"},
		{"pCtx", "pCtx"},
		// Keywords and the names generated bodies use.
		{"type", "type_"},
		{"func", "func_"},
		{"range", "range_"},
		{"len", "len_"},
		{"error", "error_"},
		{"err", "err_"},
		{"string", "string_"},
		{"frame", "frame_"},
		{"fnPtr", "fnPtr_"},
		{"lerr", "lerr_"},
		{"ferr", "ferr_"},
		{"rc", "rc_"},
		{"ret", "ret_"},
		{"hdl", "hdl_"},
		{"cbAddr", "cbAddr_"},
		{"unsafe", "unsafe_"},
		{"runtime", "runtime_"},
		{"ffi", "ffi_"},
		{"nil", "nil_"},
		{"max", "max_"},
		{"Type", "type_"},
	} {
		if got := goParamName(c.in); got != c.want {
			t.Errorf("goParamName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFieldName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "_"},
		{"x", "X"},
		{"totalGlobalMem", "TotalGlobalMem"},
		{"reserved", "Reserved"},
		{"ID", "ID"},
	} {
		if got := fieldName(c.in); got != c.want {
			t.Errorf("fieldName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
