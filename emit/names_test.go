package emit

import (
	"github.com/cugen/cugen/library"
	"strings"
	"testing"
)

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
		if got := goNameDropping(c.c, library.Driver.Prefixes); got != c.want {
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
		{"pCtx", "ctx"},
		// The renames table: err is the wrapper's error result.
		{"error", "errorCode"},
		{"err", "errorCode"},
		{"type", "typ"},
		{"Type", "typ"},
		{"func", "fn"},
		{"len", "length"},
		{"map", "m"},
		// Other keywords and predeclared identifiers.
		{"range", "rangeArg"},
		{"string", "stringArg"},
		{"nil", "nilArg"},
		{"max", "maxArg"},
		// Names the generated bodies use.
		{"sym", "symArg"},
		{"frame", "frameArg"},
		{"r", "rArg"},
		{"ret", "retArg"},
		{"hdl", "hdlArg"},
		{"cbAddr", "cbAddrArg"},
		{"unsafe", "unsafeArg"},
		{"runtime", "runtimeArg"},
		{"ffi", "ffiArg"},
		// The _out marker of an output.
		{"captureStatus_out", "captureStatus"},
		{"_out", "_out"},
		// C's Hungarian pointer prefixes.
		{"phStream", "stream"},
		{"pMilliseconds", "milliseconds"},
		{"pCount", "count"},
		{"ppData", "data"},
		{"pUUID", "uuid"},
		{"pCUBINSize", "cubinSize"},
		{"pCount_out", "count"},
		{"pi", "pi"},           // no prefix: nothing after it
		{"pool", "pool"},       // a word that starts with p
		{"pType", "typ"},       // type is a keyword: its rename
		{"pFunc", "fn"},        // func too
		{"pCopy", "pCopy"},     // copy is predeclared
		{"phRet", "phRet"},     // ret is the body's
		{"p_value", "p_value"}, // no upper-case letter after it
	} {
		if got := goParamName(c.in); got != c.want {
			t.Errorf("goParamName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestGoParamNamesClash: a rename or a dropped _out never takes the name
// of another parameter of the same function.
func TestGoParamNamesClash(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"graph_out", "graph"}, []string{"graphOut", "graph"}},
		{[]string{"graph", "graph_out"}, []string{"graph", "graphOut"}},
		{[]string{"func", "fn"}, []string{"kernel", "fn"}},
		{[]string{"len", "length"}, []string{"n", "length"}},
		{[]string{"type", "typ", "typeArg"}, []string{"typeArg0", "typ", "typeArg"}},
		{[]string{"error", "errorCode"}, []string{"errorArg", "errorCode"}},
		{[]string{"pCount", "count"}, []string{"pCount", "count"}},
		{[]string{"count", "pCount"}, []string{"count", "pCount"}},
		{[]string{"phStream", "pStream"}, []string{"stream", "pStream"}},
		{[]string{"pGraph_out", "graph"}, []string{"pGraph", "graph"}},
		// Found by probing names an IR may hold (issue 24): "_" cannot be
		// used as a value, and a parameter named like a package the body
		// uses shadows it; the package did not build.
		{[]string{"_", "ffiimpl", "cudart", "cu"}, []string{"_Arg", "ffiimplArg", "cudartArg", "cuArg"}},
	} {
		got := goParamNames(c.in)
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("goParamNames(%q) = %q, want %q", c.in, got, c.want)
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
