package library

// NVJitLink links cubin, PTX and LTO-IR at run time: package nvjitlink,
// libnvJitLink.so.N. Its API is static inline functions calling a symbol
// per library version (nvJitLinkCreate calls __nvJitLinkCreate_12_4); the
// package binds the symbol the headers' inline body calls.
var NVJitLink = &Desc{
	Key:      "nvjitlink",
	API:      "nvJitLink",
	Title:    "nvJitLink",
	Package:  "nvjitlink",
	Include:  []string{"nvJitLink.h"},
	Declare:  []string{"nvJitLink.h"},
	Prefixes: []string{"NVJITLINK_", "nvJitLink"},
	Status:   "nvJitLinkResult",
	Load: Load{
		Name:     "nvJitLink %d",
		EnvVar:   "CUGEN_LIBNVJITLINK",
		Files:    map[int][]string{12: {"libnvJitLink.so.12"}, 13: {"libnvJitLink.so.13"}},
		Wheels:   map[int][]string{12: {"nvidia/nvjitlink/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "nvJitLinkVersion",
		Version:  Version{Symbol: "nvJitLinkVersion", Form: MajorMinor},
	},
	Since:    "nvJitLink",
	Logs:     []Log{{Func: "nvJitLinkComplete", Log: "nvJitLinkGetErrorLog"}},
	LockLibs: []string{"libnvjitlink12"},
	// Held by e2e's TestNVJitLinkFromSeveralThreads, which crashes the
	// test binary without it.
	OneThread: "nvJitLink corrupts its state when a handle is created and destroyed on different OS threads (seen with 12.4, and with 13.0 on an H100, where a C program doing so aborts): a later call crashes the process (a SIGSEGV in nvJitLinkComplete, or an abort)",
}
