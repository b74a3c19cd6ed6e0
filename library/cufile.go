package library

import "github.com/cugen/cugen/parser/ir"

// CuFile is GPUDirect Storage's cuFile API: package cufile, libcufile.so.0
// (the same soname with CUDA 12 and 13; built per major). cufile.h comes
// with it (Debian's libcufile-dev): headers.lock adds it to set 12.4.
var CuFile = &Desc{
	Key:      "cufile",
	API:      "cuFile",
	Title:    "cuFile",
	Package:  "cufile",
	Include:  []string{"cufile.h"},
	Declare:  []string{"cufile.h"},
	Prefixes: []string{"CU_FILE_", "CUFILE_", "CUfile", "cuFile"},
	Status:   "CUfileOpError",
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
		},
	},
	LockLibs: []string{"libcufile0"},
}
