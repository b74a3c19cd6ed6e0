package library

// cufftMemory is where each pointer parameter of cuFFT points, from the
// cuFFT Library guide (docs.nvidia.com/cuda/cufft): the cufftExec*
// functions take "a pointer to the input data (in GPU memory)" and to the
// output data likewise, cufftSetWorkArea a work area in GPU memory; the
// plan functions' size arrays (n, inembed, onembed) are host arrays the
// call reads.
var cufftMemory = func() map[string]MemoryRule {
	rows := map[string]MemoryRule{}
	memoryNames(rows, MemoryRule{Memory: DeviceMemory, Why: "a transform's input or output: GPU memory (the guide's cufftExec* parameters)"}, "idata odata")
	memoryNames(rows, MemoryRule{Memory: DeviceMemory, Why: "cufftSetWorkArea: the work area is GPU memory the caller allocated"}, "workArea")
	memoryNames(rows, MemoryRule{Memory: HostMemory, Why: "a plan's sizes and embeddings: a host array the call reads (the guide's cufftPlanMany and cufftMakePlanMany)"}, "n inembed onembed")
	return rows
}()

// curandMemory is where each pointer parameter of cuRAND points, from the
// cuRAND Library guide (docs.nvidia.com/cuda/curand): a generator made by
// curandCreateGenerator writes its output to device memory, one made by
// curandCreateGeneratorHost to host memory, so the generate functions'
// outputPtr takes either, as the generator says.
var curandMemory = map[string]MemoryRule{
	"outputPtr":             {Memory: HostOrDeviceMemory, Why: "device memory for a generator of curandCreateGenerator, host memory for one of curandCreateGeneratorHost (the guide's generation functions)"},
	"discrete_distribution": {Memory: HostMemory, Why: "curandCreatePoissonDistribution writes the new distribution's handle to host memory"},
}
