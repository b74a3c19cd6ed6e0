package library

// NVRTC compiles CUDA C++ to PTX, cubin or LTO-IR at run time: package
// nvrtc, libnvrtc.so.N (which opens libnvrtc-builtins.so.N.M when it
// compiles).
var NVRTC = &Desc{
	Key:         "nvrtc",
	API:         "NVRTC",
	Title:       "NVRTC",
	Package:     "nvrtc",
	Include:     []string{"nvrtc.h"},
	Declare:     []string{"nvrtc.h"},
	Prefixes:    []string{"NVRTC_", "nvrtc"},
	Status:      "nvrtcResult",
	ErrorString: "nvrtcGetErrorString",
	Load: Load{
		Name:     "NVRTC %d",
		EnvVar:   "CUGEN_LIBNVRTC",
		Files:    map[int][]string{11: {"libnvrtc.so.11.2"}, 12: {"libnvrtc.so.12"}, 13: {"libnvrtc.so.13"}},
		Wheels:   map[int][]string{12: {"nvidia/cuda_nvrtc/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "nvrtcVersion",
		Version:  Version{Symbol: "nvrtcVersion", Form: MajorMinor},
	},
	Logs:     []Log{{Func: "nvrtcCompileProgram", Log: "nvrtcGetProgramLog"}},
	LockLibs: []string{"libnvrtc12", "libnvrtc-builtins12.4"},
}
