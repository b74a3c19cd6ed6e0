package library

// NVFatbin builds fat binaries (cubins, PTX and LTO-IR of several
// architectures in one) at run time: package nvfatbin, libnvfatbin.so.N
// (12 with CUDA 12, 13 with CUDA 13), whose nvFatbinVersion reports the
// CUDA version. Both majors have a package, from nvFatbin.h of each
// toolkit.
var NVFatbin = &Desc{
	Key:         "nvfatbin",
	API:         "nvFatbin",
	Title:       "nvFatbin",
	Package:     "nvfatbin",
	Include:     []string{"nvFatbin.h"},
	Declare:     []string{"nvFatbin.h"},
	Prefixes:    []string{"NVFATBIN_", "nvFatbin"},
	Status:      "nvFatbinResult",
	ErrorString: "nvFatbinGetErrorString",
	Load: Load{
		Name:     "nvFatbin %d",
		EnvVar:   "CUGEN_LIBNVFATBIN",
		Files:    map[int][]string{12: {"libnvfatbin.so.12"}, 13: {"libnvfatbin.so.13"}},
		Wheels:   map[int][]string{12: {"nvidia/nvfatbin/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "nvFatbinVersion",
		Version:  Version{Symbol: "nvFatbinVersion", Form: MajorMinor},
	},
	LockLibs: []string{"libnvfatbin12"},
}
