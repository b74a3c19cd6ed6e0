package library

import "github.com/cugen/cugen/parser/ir"

// NVJPEG decodes and encodes JPEG images on the GPU: package nvjpeg,
// libnvjpeg.so.N (12 with CUDA 12, 13 with CUDA 13), versioned apart from
// CUDA (nvJPEG 12.3 ships with CUDA 12.4, nvJPEG 13.0 with CUDA 13.0).
// Both majors have a package, from nvjpeg.h of each toolkit.
var NVJPEG = &Desc{
	Key:      "nvjpeg",
	API:      "nvJPEG",
	Title:    "nvJPEG",
	Package:  "nvjpeg",
	Imports:  []ir.Library{ir.Runtime},
	Include:  []string{"nvjpeg.h"},
	Declare:  []string{"nvjpeg.h"},
	Prefixes: []string{"NVJPEG_", "nvjpeg"},
	Status:   "nvjpegStatus_t",
	Load: Load{
		Name:     "nvJPEG %d",
		EnvVar:   "CUGEN_LIBNVJPEG",
		Files:    map[int][]string{12: {"libnvjpeg.so.12"}, 13: {"libnvjpeg.so.13"}},
		Wheels:   map[int][]string{12: {"nvidia/nvjpeg/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "nvjpegGetProperty",
		Version:  Version{Symbol: "nvjpegGetProperty", Form: Property, Macros: [2]string{"NVJPEG_VER_MAJOR", "NVJPEG_VER_MINOR"}},
	},
	Overrides: Overrides{
		Directions: map[string]DirectionOverride{
			"nvjpegGetImageInfo.nComponents": {Dir: ir.Out, Why: `"OUT nComponent: Number of componenets of the image" (the comment misspells the name)`},
			"nvjpegGetImageInfo.subsampling": {Dir: ir.Out, Why: `"OUT subsampling: Chroma subsampling used in this JPEG"`},
			"nvjpegGetImageInfo.widths":      {Dir: ir.Out, Why: `"OUT widths: pointer to NVJPEG_MAX_COMPONENT of ints"`},
			"nvjpegGetImageInfo.heights":     {Dir: ir.Out, Why: `"OUT heights: pointer to NVJPEG_MAX_COMPONENT of ints"`},
		},
		Arrays: map[string]ArrayOverride{
			// Was a single int32 result: C wrote 16 bytes into 4.
			"nvjpegGetImageInfo.widths":  {Len: 4, Why: "NVJPEG_MAX_COMPONENT (4) widths, one per component, 0 for an absent one"},
			"nvjpegGetImageInfo.heights": {Len: 4, Why: "NVJPEG_MAX_COMPONENT (4) heights, one per component, 0 for an absent one"},
		},
	},
	LockLibs: []string{"libnvjpeg12"},
}
