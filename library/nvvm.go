package library

import "github.com/cugen/cugen/parser/ir"

// NVVM compiles NVVM IR (LLVM IR with NVVM's annotations, as text or
// bitcode) to PTX: package nvvm, libnvvm.so.4. libNVVM is versioned apart
// from CUDA: CUDA 12 and CUDA 13 both ship libnvvm.so.4, which a toolkit
// keeps in nvvm/lib64 (Load.ToolkitDirs: the search looks there). nvvmVersion reports NVVM's own version (2.0
// in CUDA 12.4), not CUDA's, so no version is checked against the major.
// nvvm.h is in no package of the CUDA 12 headers Debian ships with the
// set: headers.lock reads it from Debian's nvidia-cuda-toolkit. The CUDA
// 13 toolkit has it in nvvm/include, outside include: set 13.0 reads it
// through the toolkit headers entry cuda-nvvm-13.0.
var NVVM = &Desc{
	Key:         "nvvm",
	API:         "NVVM",
	Title:       "NVVM",
	Package:     "nvvm",
	Include:     []string{"nvvm.h"},
	Declare:     []string{"nvvm.h"},
	Prefixes:    []string{"NVVM_", "nvvm"},
	Status:      "nvvmResult",
	ErrorString: "nvvmGetErrorString",
	Load: Load{
		Name:   "NVVM (CUDA %d)",
		EnvVar: "CUGEN_LIBNVVM",
		// NVIDIA's wheels install an unversioned libnvvm.so.
		Files:       map[int][]string{12: {"libnvvm.so.4", "libnvvm.so"}, 13: {"libnvvm.so.4", "libnvvm.so"}},
		Wheels:      map[int][]string{12: {"nvidia/cuda_nvcc/nvvm/lib64"}, 13: {"nvidia/cu13/nvvm/lib64"}},
		ToolkitDirs: []string{"nvvm/lib64"},
		Pip:         map[int]string{12: "nvidia-cuda-nvcc-cu12", 13: "nvidia-cuda-nvcc"},
		Identify:    "nvvmVersion",
	},
	Overrides: Overrides{
		Directions: map[string]DirectionOverride{
			"nvvmCreateProgram.prog": {Dir: ir.Out, Why: `documented [in] by mistake: "Create a program, and set the value of its handle to *prog"`},
		},
	},
	Logs: []Log{
		{Func: "nvvmCompileProgram", Log: "nvvmGetProgramLog"},
		{Func: "nvvmVerifyProgram", Log: "nvvmGetProgramLog"},
	},
	LockLibs: []string{"libnvvm4"},
}
