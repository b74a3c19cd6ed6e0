package library

import (
	"strings"

	"github.com/cugen/cugen/parser/ir"
)

// NPP, NVIDIA's 2D image and signal processing primitives, is eleven
// shared objects: libnppc (the core: version, device and stream queries,
// and the types every other one uses) and ten that each need it, one per
// group of functions and header. Each is a description and a package of
// its own, named after its library (nppif is libnppif.so.N, the image
// filters), so a program loads, and compiles, only the groups it uses:
// together they declare over twelve thousand functions. Their types
// (Npp8u, NppiSize, NppStreamContext, NppStatus) are nppdefs.h's, in
// package nppc. The sonames follow the CUDA major (libnppc.so.12 with CUDA
// 12, .so.13 with CUDA 13); NPP is versioned apart (NPP 12.2.5 with CUDA
// 12.4), read with nppc.GetLibVersion.
//
// NPP 13.0's headers still declare most functions twice, with and without
// a final NppStreamContext, but its libraries export only the _Ctx form:
// the CUDA 13 packages leave the other out (CtxOnly, 3,925 functions), and
// nppc has no nppGetStreamContext there (the caller fills the context from
// the runtime's device attributes).
//
// NppStatus is negative for errors and positive for warnings (a divisor
// of zero, a region that does not intersect the image): a function that
// returns a warning has done its work, and the Go wrapper returns the
// warning as its error, a Status the caller can compare with.
var NPPC = &Desc{
	Key:     "nppc",
	API:     "NPP",
	Title:   "NPP core",
	Package: "nppc",
	Imports: []ir.Library{ir.Runtime},
	Doc: "NPP's statuses are negative for errors and positive for warnings (NPP_NO_OPERATION_WARNING, " +
		"NPP_DIVIDE_BY_ZERO_WARNING, ...): a call that returns a warning has done what it could, and its " +
		"wrapper returns the warning as the error, a Status to compare with.",
	Include:  []string{"npp.h"},
	Declare:  []string{"npp.h", "nppdefs.h", "nppcore.h", "nppi.h", "npps.h"},
	Prefixes: []string{"NPPI_", "NPPS_", "NPP_", "Nppi", "Npps", "Npp", "npp"},
	Status:   "NppStatus",
	Load: Load{
		Name:     "NPP core (CUDA %d)",
		EnvVar:   "CUGEN_LIBNPPC",
		Files:    map[int][]string{12: {"libnppc.so.12"}, 13: {"libnppc.so.13"}},
		Wheels:   map[int][]string{12: {"nvidia/npp/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "nppGetLibVersion",
		// NPP's major is CUDA's (NPP 12.2.5 with CUDA 12.4, 13.0.1
		// with 13.0): a package refuses a libnppc of another major.
		Version: Version{Symbol: "nppGetLibVersion", Form: Struct},
	},
	LockLibs:  []string{"libnppc12"},
	Overrides: Overrides{Memory: nppMemory("nppc")},
}

// nppLib describes the NPP library libKEY.so.N, whose functions the
// headers declare (NPP's nppi_*.h, npps_*.h): package KEY. identify is one
// function every copy exports.
func nppLib(key, title string, headers []string, identify string, unexported map[string]string) *Desc {
	prefixes := []string{"NPPI_", "NPPS_", "NPP_", "Nppi", "Npps", "Npp", "nppi", "npp"}
	alloc := "nppiMalloc_"
	if key == "npps" {
		prefixes = []string{"NPPI_", "NPPS_", "NPP_", "Nppi", "Npps", "Npp", "npps", "npp"}
		alloc = "nppsMalloc_"
	}
	d := &Desc{
		Key:        ir.Library(key),
		API:        "NPP",
		Title:      title,
		Package:    key,
		Imports:    []ir.Library{"nppc"},
		Doc:        NPPC.Doc + "\n\n" + nppMemoryDoc,
		Include:    headers[:1],
		Declare:    headers,
		Prefixes:   prefixes,
		Status:     "NppStatus",
		Unexported: unexported,
		Load: Load{
			Name:     title + " (CUDA %d)",
			EnvVar:   "CUGEN_LIB" + upper(key),
			Files:    map[int][]string{12: {"lib" + key + ".so.12"}, 13: {"lib" + key + ".so.13"}},
			Wheels:   map[int][]string{12: {"nvidia/npp/lib"}, 13: {"nvidia/cu13/lib"}},
			Pip:      map[int]string{12: "nvidia-npp-cu12", 13: "nvidia-npp"},
			Identify: identify,
			// The version of the libnppc it depends on, which is of its
			// major: a package refuses libnppial.so.12 for .so.13.
			Version: Version{Symbol: "nppGetLibVersion", Form: Struct, Dependency: NPPC},
		},
		LockLibs: []string{"lib" + key + "12"},
		Needs:    []ir.Library{"nppc"},
		CtxOnly:  map[int]string{13: nppCtxOnly13},
		// Device memory is an ffi.DevicePtr (npp_memory.go).
		Overrides: Overrides{Memory: nppMemory(key)},
	}
	if key == "nppisu" || key == "npps" {
		d.Overrides.PointerResults = map[string]string{
			alloc: "the allocators return device memory (cudaMalloc's, pitched for images): the ffi.DevicePtr NPP's functions take, freed with " + strings.TrimSuffix(alloc, "Malloc_") + "Free",
		}
	}
	if key == "nppisu" {
		// nppiMalloc_* return the memory (NULL on failure), nppiFree
		// nothing: no function returns NppStatus.
		d.Status, d.NoStatus = "", true
	}
	return d
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// nppCtxOnly13 is why the NPP packages of CUDA 13 leave out the form
// without a stream context of each function (CtxOnly): NPP 13.0's headers
// still declare both, its libraries export only the _Ctx one (checked
// against every libnpp*.so.13.0.1: the rule gives exactly their exports).
const nppCtxOnly13 = "NPP 13.0's headers declare each such function twice, with and without a final NppStreamContext, " +
	"and its libraries (libnpp*.so.13.0.1) export only the _Ctx form: call that one"

// nppSub32sC4 is why nppial's four 32s C4 subtractions stay unexported.
const nppSub32sC4 = "declared in nppi_arithmetic_and_logical_operations.h 12.2, not exported by libnppial.so.12.2.5 nor libnppial.so.13.0.1"

// The NPP image libraries, one per nppi_*.h group, and the signal library.
var (
	NPPIAL = nppLib("nppial", "NPP image arithmetic and logic", []string{"nppi_arithmetic_and_logical_operations.h"}, "nppiAdd_8u_C1RSfs_Ctx", map[string]string{
		"nppiSub_32s_C4RSfs":      nppSub32sC4,
		"nppiSub_32s_C4RSfs_Ctx":  nppSub32sC4,
		"nppiSub_32s_C4IRSfs":     nppSub32sC4,
		"nppiSub_32s_C4IRSfs_Ctx": nppSub32sC4,
	})
	NPPICC  = nppLib("nppicc", "NPP image color conversion", []string{"nppi_color_conversion.h"}, "nppiRGBToGray_8u_C3C1R_Ctx", nil)
	NPPIDEI = nppLib("nppidei", "NPP image data exchange and initialization", []string{"nppi_data_exchange_and_initialization.h"}, "nppiSet_8u_C1R_Ctx", nil)
	NPPIF   = nppLib("nppif", "NPP image filters", []string{"nppi_filtering_functions.h"}, "nppiFilterGauss_8u_C1R_Ctx", nil)
	NPPIG   = nppLib("nppig", "NPP image geometry transforms", []string{"nppi_geometry_transforms.h"}, "nppiResize_8u_C1R_Ctx", nil)
	NPPIM   = nppLib("nppim", "NPP image morphology", []string{"nppi_morphological_operations.h"}, "nppiDilate_8u_C1R_Ctx", nil)
	NPPIST  = nppLib("nppist", "NPP image statistics and linear transforms", []string{"nppi_statistics_functions.h", "nppi_linear_transforms.h"}, "nppiSum_8u_C1R_Ctx", map[string]string{
		"nppiEvenLevelsHost_32s_Ctx":           "declared in nppi_statistics_functions.h 12.2, not exported by libnppist.so.12.2.5 nor libnppist.so.13.0.1 (nppiEvenLevelsHost_32s is)",
		"nppiMSEBatchGetBufferHostSize_8u_C1R": "declared in nppi_statistics_functions.h 12.2, not exported by libnppist.so.12.2.5 nor libnppist.so.13.0.1 (the _Ctx form is)",
		"nppiMSEBatchGetBufferHostSize_8u_C3R": "declared in nppi_statistics_functions.h 12.2, not exported by libnppist.so.12.2.5 nor libnppist.so.13.0.1 (the _Ctx form is)",
	})
	NPPISU = nppLib("nppisu", "NPP image memory support", []string{"nppi_support_functions.h"}, "nppiMalloc_8u_C1", nil)
	NPPITC = nppLib("nppitc", "NPP image threshold and compare", []string{"nppi_threshold_and_compare_operations.h"}, "nppiThreshold_8u_C1R_Ctx", nil)
	NPPS   = nppLib("npps", "NPP signal processing", []string{"npps_arithmetic_and_logical_operations.h", "npps_support_functions.h",
		"npps_initialization.h", "npps_conversion_functions.h", "npps_statistics_functions.h", "npps_filtering_functions.h"}, "nppsAdd_32f_Ctx", nil)
)
