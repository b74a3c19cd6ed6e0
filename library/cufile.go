package library

import "github.com/cugen/cugen/parser/ir"

// CuFile is GPUDirect Storage's cuFile API: package cufile, libcufile.so.0
// (the same soname with CUDA 12 and 13; built per major). cufile.h comes
// with it (Debian's libcufile-dev): headers.lock adds it to set 12.4; the
// CUDA 13 toolkit has it in include/ (set 13.0). Its functions return
// their status in a struct, CUfileError_t {err, cu_err} (StatusRecord):
// the wrappers return an error instead.
var CuFile = &Desc{
	Key:      "cufile",
	API:      "cuFile",
	Title:    "cuFile",
	Package:  "cufile",
	Imports:  []ir.Library{ir.Driver},
	Include:  []string{"cufile.h"},
	Declare:  []string{"cufile.h"},
	Prefixes: []string{"CU_FILE_", "CUFILE_", "CUfile", "cuFile"},
	Status:   "CUfileOpError",
	StatusRecord: &StatusRecord{
		Type: "CUfileError_t", Field: "err", Cause: "cu_err",
		Why: `cufile.h: "CUfileOpError err; // cufile error", "CUresult cu_err; // cuda driver error"; "on success the error code is set to CU_FILE_SUCCESS"; with CU_FILE_CUDA_DRIVER_ERROR, "cuda error can be inspected using IS_CUDA_ERR and CU_FILE_CUDA_ERR" (cu_err)`,
	},
	Load: Load{
		Name:     "cuFile (CUDA %d)",
		EnvVar:   "CUGEN_LIBCUFILE",
		Files:    map[int][]string{12: {"libcufile.so.0"}, 13: {"libcufile.so.0"}},
		Wheels:   map[int][]string{12: {"nvidia/cufile/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "cuFileDriverOpen",
	},
	Overrides: Overrides{
		Directions: map[string]DirectionOverride{
			"cuFileGetVersion.version": {Dir: ir.Out, Why: "undocumented; the library's version (1090 for cuFile 1.9.1.3?)"},
			// CUDA 13 (cuFile 1.15): one comment documents the three
			// getters, so only the first reads it.
			"cuFileGetParameterSizeT.value": {Dir: ir.Out, Why: `"The location where the value will be stored"`},
			"cuFileGetParameterBool.value":  {Dir: ir.Out, Why: `"The location where the value will be stored" (the comment of the getters before it)`},
			"cuFileGetStatsL1.stats":        {Dir: ir.Out, Why: `"Pointer to CUfileStatsLevel1_t structure to be filled"`},
			"cuFileGetStatsL2.stats":        {Dir: ir.Out, Why: `"Pointer to CUfileStatsLevel2_t structure to be filled"`},
			"cuFileGetStatsL3.stats":        {Dir: ir.Out, Why: `"Pointer to CUfileStatsLevel3_t structure to be filled"`},
		},
		Arrays: map[string]ArrayOverride{
			"cuFileGetParameterPosixPoolSlabArray.size_values":  {Param: "len", Why: `"Buffer to receive slab sizes in KB", "len Buffer size (must match the actual parameter length)"`},
			"cuFileGetParameterPosixPoolSlabArray.count_values": {Param: "len", Why: `"Buffer to receive slab counts", "len Buffer size (must match the actual parameter length)"`},
		},
	},
	LockLibs: []string{"libcufile0"},
}
