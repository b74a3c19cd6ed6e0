package library

import "github.com/cugen/cugen/parser/ir"

// CuDNN is NVIDIA's deep neural network library, cuDNN 9: package cudnn,
// libcudnn.so.9. Its headers and libraries come apart from the toolkit
// (NVIDIA's nvidia-cudnn-cu12 and nvidia-cudnn-cu13 wheels, or the
// cudnn9-cuda-12 and -13 packages), one soname for both CUDA majors, each
// copy built for one. libcudnn.so.9 is a small front that exports the
// whole API and opens the parts by their sonames when they are first
// used (libcudnn_graph.so.9 for the backend API, libcudnn_ops.so.9,
// libcudnn_cnn.so.9, libcudnn_adv.so.9, and the engine libraries), so
// those must be where the dynamic loader finds them: beside it, as the
// wheel installs them, or on LD_LIBRARY_PATH.
//
// cudnn_graph.h, the backend API, reads nothing of CUDA but
// cudaStream_t and the library_types.h enums (cudaDataType_t,
// libraryPropertyType), which are the same in CUDA 12 and 13: the
// headers are the same for both majors, and so is the package.
var CuDNN = &Desc{
	Key:         "cudnn",
	API:         "cuDNN",
	Title:       "cuDNN",
	Package:     "cudnn",
	Imports:     []ir.Library{ir.Runtime},
	Include:     []string{"cudnn.h"},
	Declare:     []string{"cudnn.h", "cudnn_version.h", "cudnn_graph.h", "cudnn_ops.h", "cudnn_adv.h", "cudnn_cnn.h"},
	Prefixes:    []string{"CUDNN_", "cudnn"},
	Status:      "cudnnStatus_t",
	ErrorString: "cudnnGetErrorString",
	Load: Load{
		Name:     "cuDNN 9 (CUDA %d)",
		EnvVar:   "CUGEN_LIBCUDNN",
		Files:    map[int][]string{12: {"libcudnn.so.9"}, 13: {"libcudnn.so.9"}},
		Wheels:   map[int][]string{12: {"nvidia/cudnn/lib"}, 13: {"nvidia/cudnn/lib"}},
		Pip:      map[int]string{12: "nvidia-cudnn-cu12", 13: "nvidia-cudnn-cu13"},
		Apart:    "cuDNN 9 (NVIDIA's cudnn9-cuda-12 or cudnn9-cuda-13 package)",
		Identify: "cudnnGetVersion",
		Version:  Version{Symbol: "cudnnGetProperty", Form: Property, Macros: [2]string{"CUDNN_MAJOR", "CUDNN_MINOR"}},
	},
	Unlocked: "Debian packages no cuDNN library (its nvidia-cudnn only downloads NVIDIA's installer): the tests load the machine's, from the wheel or CUGEN_LIBCUDNN, or skip",
}
