package library

// NVML is the NVIDIA Management Library: package nvml, libnvidia-ml.so.1,
// which the driver installs (the driver's version, not CUDA's, decides its
// API; the generated package binds what the header set declares). nvml.h
// #defines the API names to their versioned symbols (nvmlInit ->
// nvmlInit_v2, nvmlDeviceGetPciInfo -> nvmlDeviceGetPciInfo_v3); the package
// binds the symbols a C program including it links, as go-nvml does.
var NVML = &Desc{
	Key:         "nvml",
	API:         "NVML",
	Title:       "NVML",
	Package:     "nvml",
	Include:     []string{"nvml.h"},
	Declare:     []string{"nvml.h"},
	Prefixes:    []string{"NVML_", "nvml"},
	Status:      "nvmlReturn_t",
	ErrorString: "nvmlErrorString",
	Load: Load{
		Name:     "NVML",
		EnvVar:   "CUGEN_LIBNVML",
		Files:    map[int][]string{0: {"libnvidia-ml.so.1"}},
		WSL:      true,
		Identify: "nvmlInit_v2",
	},
	LockLibs: []string{"libnvidia-ml1"},
}
