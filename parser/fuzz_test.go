package parser

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cugen/cugen/emit"
)

// fuzzRuntime is the fixed runtime side of a fuzzed header set: a tiny
// cuda_runtime.h that includes cuda_runtime_api.h, the way the toolkit's do.
// It is written beside the fuzzed cuda.h when the input asks for it.
var fuzzRuntime = map[string]string{
	"cuda_runtime.h": "#ifndef CUDA_RUNTIME_H\n#define CUDA_RUNTIME_H\n#include \"cuda_runtime_api.h\"\n#endif\n",
	"cuda_runtime_api.h": `#ifndef CUDA_RUNTIME_API_H
#define CUDA_RUNTIME_API_H
#define CUDART_VERSION 12040
#define __CUDART_API_PTDS(api) api ## _ptds
typedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1 } cudaError_t;
typedef struct CUstream_st *cudaStream_t;
/**
 * \brief Returns the number of devices.
 * \param count - Returns the number of devices
 */
extern cudaError_t cudaGetDeviceCount(int *count);
extern cudaError_t cudaStreamSynchronize(cudaStream_t stream);
extern const char *cudaGetErrorString(cudaError_t error);
#endif
`,
}

// fuzzSeeds are small driver headers written for the fuzzer: every shape
// the parser handles (enums, records, bit-fields, unions, callbacks,
// aliases, per-thread variants, doc comments, macros) plus broken
// fragments. None is NVIDIA's text.
var fuzzSeeds = []string{
	"",
	"#define CUDA_VERSION 12040\n",
	"#define CUDA_VERSION 12040\ntypedef int CUdevice;\n",
	`#define CUDA_VERSION 12040
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
/**
 * \brief Returns a handle to a compute device
 * \param device  - Returned device handle
 * \param ordinal - Device number to get handle for
 */
CUresult cuDeviceGet(CUdevice *device, int ordinal);
#define cuCtxCreate cuCtxCreate_v2
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
`,
	`#define CUDA_VERSION 12040
#define __CUDA_API_PTDS(api) api ## _ptds
#define cuMemcpy __CUDA_API_PTDS(cuMemcpy)
typedef unsigned long long CUdeviceptr;
typedef enum { CUDA_SUCCESS } CUresult;
CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, unsigned long size);
`,
	`#define CUDA_VERSION 12040
typedef struct CUipc_st { char reserved[64]; } CUipcMemHandle;
typedef union { unsigned int u; float f; struct { unsigned a:3, b:5; unsigned long long c:40; } bits; } CUmix;
typedef struct { int x; double y; CUmix m; } CUrec;
typedef enum { CUDA_SUCCESS } CUresult;
CUresult cuUse(CUrec r, CUipcMemHandle h, CUmix *out);
`,
	`#define CUDA_VERSION 12040
typedef enum { CUDA_SUCCESS } CUresult;
typedef struct CUstream_st *CUstream;
typedef void (*CUhostFn)(void *userData);
typedef void (*CUstreamCallback)(CUstream hStream, CUresult status, void *userData);
CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);
CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags);
`,
	`#define CUDA_VERSION 11080
#define CU_LAUNCH_PARAM_END ((void*)0x00)
#define CU_MEMHOSTALLOC_PORTABLE 0x01
#define CU_TRSF_READ_AS_INTEGER 0x01
#define CUDA_ARRAY3D_LAYERED 0x01
#define CU_PI 3.14159f
#define CU_STR "text"
typedef enum CUjit_option_enum { CU_JIT_MAX_REGISTERS = 0, CU_JIT_THREADS_PER_BLOCK = CU_JIT_MAX_REGISTERS + 1 } CUjit_option;
`,
	`#define CUDA_VERSION 12040
typedef enum { CUDA_SUCCESS } CUresult;
/** \deprecated use cuNew */
__attribute__((deprecated)) CUresult cuOld(void);
static inline int make_int(int x) { return x; }
CUresult cuNew(float f, double d, int i, const char *name, void **p);
`,
	`#define CUDA_VERSION 12040
typedef enum { CUDA_SUCCESS } CUresult;
typedef CUresult (*PFN_cuInit_v2000)(unsigned int Flags);
CUresult cuInit(unsigned int Flags);
`,
	"#define CUDA_VERSION 12040\n#include \"cuda_runtime_api.h\"\n",
	// Broken fragments: each must be a located error, never a panic.
	"#define CUDA_VERSION 12040\ntypedef struct { int x; CUresult;\n",
	"#define CUDA_VERSION 12040\nCUresult cuF(int x,\n",
	"#define CUDA_VERSION\n",
	"#define CUDA_VERSION \"12\"\n",
	"#if 1\n#define CUDA_VERSION 12040\n",
	"#error stop here\n",
	"#include \"missing.h\"\n",
	"#include \"cuda.h\"\n#define CUDA_VERSION 1\n",
	"#include <../../../../../../../../dev/zero>\n",
	"#include \"../../../../../../../../dev/stdin\"\n",
	"#define CUDA_VERSION 12040\nenum E { A = 1/0 };\n",
	"#define CUDA_VERSION 12040\nstruct S { char c[-1]; };\n",
	"#define CUDA_VERSION 12040\ntypedef struct S S; S cuF(S s);\n",
	"#define CUDA_VERSION 12040\nint cuF(int (*)[]);\nint cuG(void (*)(void (*)(int)));\n",
	"/** unterminated doc\n#define CUDA_VERSION 12040\n",
	"#define CUDA_VERSION 12040\n#define cuA cuB\n#define cuB cuA\nint cuA(void);\n",
	// Exponential macro expansion: stopped by the expansion limit.
	"#define a0 x x\n#define a1 a0 a0\n#define a2 a1 a1\n#define a3 a2 a2\n#define a4 a3 a3\n#define a5 a4 a4\n#define a6 a5 a5\n#define a7 a6 a6\n#define a8 a7 a7\n#define a9 a8 a8\n#define b0 a9 a9\n#define b1 b0 b0\n#define b2 b1 b1\n#define b3 b2 b2\n#define b4 b3 b3\n#define b5 b4 b4\n#define b6 b5 b5\n#define b7 b6 b6\n#define b8 b7 b7\n#define b9 b8 b8\nb9\n",
	"\x00\xff\xfe#define CUDA_VERSION 12040\n",
	// Issue 13: each was a crash, a hang or unbounded memory.
	"#define CUDA_VERSION 12040\nint x;\n#include \"cuda.h\"\n",
	"#define CUDA_VERSION 12040\n#include \"../../../../../../../../../proc/self/pagemap\"\n",
	"#define CUDA_VERSION 12040\n#define X " + strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300) + "\n",
	"#define CUDA_VERSION 12040\n#include \"/etc/passwd\"\n",
}

// FuzzParse writes the input as cuda.h (with a fixed tiny runtime header
// set beside it when withRuntime) and parses it. Parse must never panic or
// hang; it either returns an IR that encodes and that emit accepts without
// panicking, or a *Error that names a header-relative file and, for
// everything except a whole-file condition of cuda.h (no CUDA_VERSION), a
// line. The seed corpus runs in every `go test`; `make fuzz` runs the
// fuzzer for a bounded time.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, false)
		if !strings.Contains(s, `#include "cuda.h"`) { // a second slow seed adds nothing
			f.Add(s, true)
		}
	}
	// Fuzz inputs are a few hundred bytes: a limit just above what the
	// real headers need (~170,000) stops runaway expansion 25 times
	// sooner, which is most of the fuzzer's time otherwise.
	defer func(l int) { expansionLimit = l }(expansionLimit)
	expansionLimit = 200_000
	f.Fuzz(func(t *testing.T, src string, withRuntime bool) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "cuda.h"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if withRuntime {
			for name, text := range fuzzRuntime {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		type result struct {
			err   error
			panic any
		}
		done := make(chan result, 1)
		go func() {
			var r result
			defer func() {
				r.panic = recover()
				done <- r
			}()
			api, err := Parse(dir)
			if err != nil {
				r.err = err
				return
			}
			if _, err := json.Marshal(api); err != nil {
				r.err = errors.New("IR does not encode: " + err.Error())
				r.panic = r.err
				return
			}
			// Whatever parses must not crash the emitter either.
			_, _ = emit.Generate(api, emit.Options{Origin: "fuzz", ImportPath: "example.com/fuzz"})
		}()
		var r result
		select {
		case r = <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("Parse did not return in 20 s on %q", src)
		}
		if r.panic != nil {
			t.Fatalf("panic: %v\ninput %q", r.panic, src)
		}
		if r.err == nil {
			return
		}
		var pe *Error
		if !errors.As(r.err, &pe) {
			t.Fatalf("error %T %q is not a *Error", r.err, r.err)
		}
		// The contract: a located error names a header-relative file (or
		// a system header) with a line; only two whole-input conditions are
		// unlocated: cuda.h without CUDA_VERSION (File "cuda.h") and a
		// translation-unit failure without a position, such as a
		// declaration still open at end of input (File is the directory).
		abs, _ := filepath.Abs(dir)
		switch {
		case pe.File == "" || pe.Msg == "":
			t.Fatalf("error %#v lacks a file or a message", pe)
		case pe.Line < 0 || pe.Col < 0:
			t.Fatalf("error %#v has a negative position", pe)
		case pe.Line == 0 && pe.File != "cuda.h" && pe.File != abs:
			t.Fatalf("error %q has no line", pe)
		case pe.Line > 0 && strings.HasPrefix(pe.File, abs):
			t.Fatalf("error %q names a machine path inside the header directory", pe)
		case pe.Line > 0 && !strings.HasPrefix(pe.Error(), pe.File+":"):
			t.Fatalf("error text %q does not start with file:line:col", pe)
		}
	})
}
