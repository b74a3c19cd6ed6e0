package library

import (
	"path"
	"slices"
	"strings"
)

// A header the toolkit ships is either bound (a description declares it:
// Include, Declare, Shared or SymbolVersions; or the parse reads it for
// the types the runtime owns, Desc.Owner) or left out here, with the
// reason. TestEveryHeaderAccounted walks every header of each Debian set
// of headers.lock and of the headers entries the set reads (nccl.h's,
// CUPTI's, ...) and fails on one that is neither; docs/libraries.md
// prints this list (TestLeftOutTable).

// LeftOutHeader is a header, or a group of headers, that no description
// binds.
type LeftOutHeader struct {
	// Header is a path relative to the include directory: a name, a
	// path.Match pattern ("sm_*_intrinsics.h"), or a directory ending in
	// "/" (every file under it).
	Header string
	// Product is what ships it: "CUDA runtime", "cuRAND".
	Product string
	// Why it is not bound.
	Why string
}

// Matches says whether the entry covers header h (a slash-separated path
// relative to the include directory).
func (l LeftOutHeader) Matches(h string) bool {
	if dir, ok := strings.CutSuffix(l.Header, "/"); ok {
		return strings.HasPrefix(h, dir+"/")
	}
	ok, err := path.Match(l.Header, h)
	return err == nil && ok
}

// LeftOut is the entry of LeftOutHeaders that covers header h, nil if none.
func LeftOut(h string) *LeftOutHeader {
	for i := range LeftOutHeaders {
		if LeftOutHeaders[i].Matches(h) {
			return &LeftOutHeaders[i]
		}
	}
	return nil
}

// DeclaredBy is the description in all that names header h among its
// headers (Include, Declare, Shared, SymbolVersions), nil if none does.
func DeclaredBy(all []*Desc, h string) *Desc {
	for _, d := range all {
		if slices.Contains(d.Include, h) || slices.Contains(d.Declare, h) || slices.Contains(d.Shared, h) || d.SymbolVersions == h {
			return d
		}
	}
	return nil
}

// Reasons shared by several entries.
const (
	deviceOnly   = "device code only (__device__ functions, intrinsics and types for kernels): nothing a host program calls; cugen kernels compiles kernels that include it"
	cppOnly      = "C++ only (templates, classes, overloads): no C declaration to bind"
	interop      = "graphics interoperability: its types are the graphics API's (OpenGL, EGL, VDPAU), which Go has no binding of here"
	typedefsOnly = "PFN_ typedefs of functions another header declares (cuGetProcAddress's prototypes): nothing to call"
	compat       = "a compatibility header that includes the one bound (same declarations)"
)

// LeftOutHeaders are the headers of Debian's CUDA 11.8, 12.4 and 12.5
// toolkits (nvidia-cuda-dev) and of the headers entries their sets read
// that no description binds.
var LeftOutHeaders = []LeftOutHeader{
	{Header: "common_functions.h", Product: "CUDA runtime", Why: "nvcc's internal header (it warns when included), for device code"},
	{Header: "host_config.h", Product: "CUDA runtime", Why: "nvcc's internal header (it warns when included); crt/host_config.h, which it includes, is read by the parse"},
	{Header: "host_defines.h", Product: "CUDA runtime", Why: "nvcc's internal header (it warns when included); crt/host_defines.h, which it includes, is read by the parse"},
	{Header: "math_functions.h", Product: "CUDA runtime", Why: "nvcc's internal header (it warns when included): device math functions"},
	{Header: "device_functions.h", Product: "CUDA runtime", Why: "nvcc's internal header (it warns when included): device functions"},
	{Header: "device_double_functions.h", Product: "CUDA runtime", Why: "nvcc's internal header (it warns when included): device functions"},
	{Header: "crt/", Product: "CUDA runtime", Why: "nvcc's internals for compiled device code (device math, intrinsics, MMA, host stubs); the two the runtime's API headers include (crt/host_config.h, crt/host_defines.h) are read by the parse"},
	{Header: "device_atomic_functions.h*", Product: "CUDA runtime", Why: deviceOnly},
	{Header: "sm_*_atomic_functions.h*", Product: "CUDA runtime", Why: deviceOnly},
	{Header: "sm_*_intrinsics.h*", Product: "CUDA runtime", Why: deviceOnly},
	{Header: "surface_functions.h", Product: "CUDA runtime", Why: deviceOnly},
	{Header: "surface_indirect_functions.h", Product: "CUDA runtime", Why: deviceOnly},
	{Header: "texture_fetch_functions.h", Product: "CUDA runtime", Why: deviceOnly},
	{Header: "texture_indirect_functions.h", Product: "CUDA runtime", Why: deviceOnly},
	{Header: "device_launch_parameters.h", Product: "CUDA runtime", Why: deviceOnly},
	{Header: "cooperative_groups.h", Product: "CUDA runtime", Why: deviceOnly},
	{Header: "cooperative_groups/", Product: "CUDA runtime", Why: deviceOnly},
	{Header: "cuda_awbarrier*.h", Product: "CUDA runtime", Why: deviceOnly},
	{Header: "cuda_pipeline*.h", Product: "CUDA runtime", Why: deviceOnly},
	{Header: "mma.h", Product: "CUDA runtime", Why: deviceOnly},
	{Header: "nvfunctional", Product: "CUDA runtime", Why: deviceOnly},
	{Header: "cuda_fp8.h*", Product: "CUDA runtime", Why: "FP8 types for device code: inline conversions, no library symbol (a storage value is a byte)"},
	{Header: "cuda_surface_types.h", Product: "CUDA runtime", Why: cppOnly},
	{Header: "cuda_texture_types.h", Product: "CUDA runtime", Why: cppOnly},
	{Header: "cuda_occupancy.h", Product: "CUDA runtime", Why: "a header-only occupancy calculator (static inline functions, no library symbol); the runtime's and the driver's occupancy functions are bound"},
	{Header: "math_constants.h", Product: "CUDA runtime", Why: "macros for device math (CUDART_PI, ...); Go's math package has the constants"},
	{Header: "cudart_platform.h", Product: "CUDA runtime", Why: "one platform macro (isEglSupported) for the EGL interop headers"},
	{Header: "fatbinary_section.h", Product: "CUDA runtime", Why: "the layout of a fatbin section as nvcc writes it: no functions; cugen kernels handles fatbins"},
	{Header: "cuda_gl_interop.h", Product: "CUDA runtime", Why: interop},
	{Header: "cuda_egl_interop.h", Product: "CUDA runtime", Why: interop},
	{Header: "cuda_vdpau_interop.h", Product: "CUDA runtime", Why: interop},
	{Header: "cudaGL.h", Product: "CUDA driver", Why: interop},
	{Header: "cudaEGL.h", Product: "CUDA driver", Why: interop},
	{Header: "cudaVDPAU.h", Product: "CUDA driver", Why: interop},
	{Header: "cudaGLTypedefs.h", Product: "CUDA driver", Why: typedefsOnly},
	{Header: "cudaEGLTypedefs.h", Product: "CUDA driver", Why: typedefsOnly},
	{Header: "cudaVDPAUTypedefs.h", Product: "CUDA driver", Why: typedefsOnly},
	{Header: "cudaProfilerTypedefs.h", Product: "CUDA driver", Why: typedefsOnly},
	{Header: "cuda-gdb/", Product: "CUDA debugger", Why: "cuda-gdb's debugger API (libcudadebugger, used by debuggers through a table of entry points) and core-dump format: a tool's interface, not an application's"},
	{Header: "cublas.h", Product: "cuBLAS", Why: "the legacy cuBLAS API (no handle): its functions share their names with cublas_v2.h's, which package cublas binds"},
	{Header: "nvblas.h", Product: "NVBLAS", Why: "NVBLAS (libnvblas.so) replaces a CPU BLAS under LD_PRELOAD: Fortran BLAS entry points (sgemm_, ...) that a BLAS binding calls, not CUDA's API"},
	{Header: "cufftw.h", Product: "cuFFTW", Why: "cuFFT's FFTW-compatible interface (libcufftw.so): FFTW's API, for C programs ported from FFTW; Go programs use package cufft"},
	{Header: "curand_*.h", Product: "cuRAND", Why: "cuRAND's device API (generators and distributions inside kernels, and curand_mtgp32_host.h's header-only setup of MTGP32 states for them): inline functions, no library symbol"},
	{Header: "cusparse_v2.h", Product: "cuSPARSE", Why: compat},
	{Header: "nvPTXCompiler.h", Product: "PTX Compiler", Why: "the PTX compiler API ships only as a static library (libnvptxcompiler_static.a): no shared object to open; NVRTC and nvJitLink, bound, compile and link PTX"},
	{Header: "nv_decode.h", Product: "cu++filt", Why: "the CUDA C++ demangler (__cu_demangle) ships only as a static library (libcufilt.a): no shared object to open"},
	{Header: "nvToolsExtCuda.h", Product: "NVTX", Why: "not bound yet: NVTX v2's naming of driver objects (nvtxNameCuDeviceA, ...), whose parameters are package cu's types"},
	{Header: "nvToolsExtCudaRt.h", Product: "NVTX", Why: "not bound yet: NVTX v2's naming of runtime objects (nvtxNameCudaDeviceA, ...), whose parameters are package cudart's types"},
	{Header: "nvToolsExtOpenCL.h", Product: "NVTX", Why: "NVTX v2's naming of OpenCL objects: OpenCL's types, which Go has no binding of here"},
	{Header: "nvToolsExtSync.h", Product: "NVTX", Why: "not bound yet: NVTX v2's synchronization-object extension (nvtxDomainSyncUser*)"},
	{Header: "nvtx3/", Product: "NVTX", Why: "NVTX 3, header-only: static inline functions that call an injection library's table, no library symbol to bind; package github.com/cugen/cugen/nvtx speaks that protocol in Go"},
	{Header: "nccl_net.h", Product: "NCCL", Why: "NCCL's network plugin interface: tables of functions a plugin implements for NCCL to call, nothing an application calls"},
	{Header: "cupti.h", Product: "CUPTI", Why: "includes CUPTI's API headers, which package cupti binds one by one, and the generated_*_meta.h parameter structs"},
	{Header: "generated_*_meta.h", Product: "CUPTI", Why: "the callback API's parameter structs of every driver, runtime and NVTX function (thousands of types for CUpti_CallbackData.functionParams): not bound yet"},
	{Header: "cupti_checkpoint.h", Product: "CUPTI", Why: "not bound yet: CUPTI's checkpoint API (save and restore device state around a kernel replay)"},
	{Header: "cupti_pcsampling.h", Product: "CUPTI", Why: "not bound yet: CUPTI's PC sampling API"},
	{Header: "cupti_pcsampling_util.h", Product: "CUPTI", Why: "in libpcsamplingutil.so, a library of its own that the registry has no description of: not bound yet"},
	{Header: "cupti_profiler_target.h", Product: "CUPTI", Why: "not bound yet: CUPTI's range profiler target API, used with the host NVPW API (nvperf_*.h)"},
	{Header: "cupti_target.h", Product: "CUPTI", Why: "not bound yet: CUPTI's device-chip query for the profiler API"},
	{Header: "cupti_sass_metrics.h", Product: "CUPTI", Why: "not bound yet: CUPTI's SASS metrics API"},
	{Header: "nvperf_*.h", Product: "CUPTI", Why: "NVIDIA's Perfworks metrics API (libnvperf_host.so, libnvperf_target.so): libraries of their own that the registry has no description of"},
	{Header: "Openacc/", Product: "CUPTI", Why: "CUPTI's OpenACC tools interface: for an OpenACC runtime, not a Go program"},
	{Header: "Openmp/", Product: "CUPTI", Why: "CUPTI's OpenMP tools interface (OMPT): for an OpenMP runtime, not a Go program"},
}
