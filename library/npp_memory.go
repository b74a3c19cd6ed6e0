package library

// NPP's memory rule, from its guide's General API Conventions
// (docs.nvidia.com/cuda/npp, "Memory Management"): like cuFFT's and
// cuBLAS's, every pointer argument of NPP is a device pointer; the
// exceptions are host pointers, which the guide and the headers name: the
// buffer sizes the GetBufferSize functions return ("hpBufferSize is a host
// pointer"), and the fixed-size arrays of per-channel constants the
// headers declare as `T aName[N]` ("fixed size host memory array").
//
// The rule follows NPP's Hungarian notation, which every pointer
// parameter's name keeps: a "p" name is a device pointer (images, signals,
// scratch buffers, the results of reductions, device lists of batch
// descriptors), and a "p" array of pointers (a planar `const Npp8u * const
// pSrc[3]`, a per-channel `Npp32s * pHist[3]`) is a host array of device
// pointers; an "hp" name, an "a" array, an "n" number and an "r" array are
// host memory; a name that ends in "Host" says host memory itself. Each
// library's rows list the parameters that break the notation, with the
// header's words; a pointer parameter neither the notation nor a row
// classifies has a "no Memory row" line in the audit, which
// TestMemoryComplete fails on.
var (
	nppDevice = MemoryRule{Memory: DeviceMemory, Why: "NPP's general conventions: every pointer argument is a device pointer (images, signals, scratch buffers, the results of reductions); " +
		"an array of pointers (planar `const Npp8u * const pSrc[3]`, per-channel `Npp32s * pHist[3]`) is a host array of device pointers", Arrays: HostMemory}
	nppHostP     = MemoryRule{Memory: HostMemory, Why: "NPP's \"hp\" prefix: a host pointer (the headers: \"hpBufferSize is a host pointer\"), a buffer size or a host array the call reads"}
	nppHostArray = MemoryRule{Memory: HostMemory, Why: "NPP's \"a\" prefix: a fixed-size array (`T aName[N]`) of per-channel constants, coefficients, steps or corners in host memory (the headers: \"fixed size host memory array\")"}
	nppHostN     = MemoryRule{Memory: HostMemory, Why: "NPP's \"n\" prefix, a number: a host array of per-channel or per-plane values (steps, levels, bounds), or a buffer size returned to the host (the guide: buffer sizes are returned via host pointers)"}
	nppHostR     = MemoryRule{Memory: HostMemory, Why: "a fixed-size host array of per-plane steps or per-channel thresholds and values (`int rSrcStep[3]`, `const Npp8u rThresholds[3]`), read by the host"}
	nppHostName  = MemoryRule{Memory: HostMemory, Why: "the name says host memory (the headers: \"host memory pointer\")"}
)

// nppMemoryDoc is the package doc's section on memory, in each NPP image
// and signal package.
const nppMemoryDoc = `# Pointers: which memory each parameter is

No parameter in device memory is a Go pointer. NPP's guide says every
pointer argument is a device pointer unless it is named a host one, and
the names keep NPP's Hungarian notation; audit.txt lists each pointer
parameter with its memory and the reason (its "memory" lines):

  - Device memory: a p name (pSrc, pDst, pSrcDst, pDeviceBuffer, pBuffer,
    pMask, pKernel, the results of reductions: pSum, pMean, pMin, ...,
    and nppist's per-channel results aSum, aMean, aMin, ...) is an
    ffi.DevicePtr[T] (an ffi.DeviceAddr for C's void *). A pitched
    cudart.MallocPitch result p converts as
    ffi.DevicePtr[nppc.Npp8u](uintptr(p)), a cu.Deviceptr d as
    ffi.DevicePtr[nppc.Npp8u](d); the allocators (nppiMalloc_*,
    nppsMalloc_*) return one, and nppiFree and nppsFree take its Addr().
  - A host array of device pointers: the planes of a planar image
    (const Npp8u * const pSrc[3]) and per-channel lists of device arrays
    (pHist, pLevels, pValues, pTables) are a *ffi.DevicePtr[T], the first
    of a Go array: &planes[0] for planes [3]ffi.DevicePtr[nppc.Npp8u].
  - Host memory: hp names (hpBufferSize), a arrays of constants and
    coefficients (aConstants, aTwist), n and r arrays (nLevels, rSrcStep,
    rThresholds), names ending in Host, and the exceptions audit.txt names
    (nppiCompareC's pConstants, pConnectedRegion, pDstRect, pStepBytes)
    stay Go pointers.

TestMemoryComplete (package emit) holds that the rule or a row classifies
every pointer parameter; TestNPPMemory12 and TestNPPMemory13 (e2e/npp,
e2e/npp13) hold host constants, device constants and host arrays of plane
pointers on the GPU.`

// nppMemory returns the Memory rows of the NPP library key: the rule
// above, and the named exceptions of that library.
func nppMemory(key string) map[string]MemoryRule {
	host := func(why string) MemoryRule { return MemoryRule{Memory: HostMemory, Why: why} }
	rows := map[string]MemoryRule{}
	if key == "nppc" {
		// nppcore.h's queries write to host variables.
		memoryNames(rows, host("nppGetGpuDeviceProperties and nppGetStreamContext write to host variables"),
			"pNppStreamContext pMaxThreadsPerBlock pMaxThreadsPerSM pNumberOfSMs")
		return rows
	}
	rows["p*"] = nppDevice
	switch key {
	case "nppial":
		rows["a*"] = nppHostArray
	case "nppicc":
		rows["a*"], rows["n*"], rows["r*"] = nppHostArray, nppHostN, nppHostR
	case "nppidei":
		rows["a*"] = nppHostArray
		memoryNames(rows, MemoryRule{Memory: DeviceMemory, Why: "a planar image's planes: a host array of device pointers (`Npp64f * aSrc[3]`, the headers' planar image pointer array)", Arrays: HostMemory}, "aSrc aDst")
	case "nppif":
		rows["a*"], rows["hp*"], rows["n*"], rows["*Host"] = nppHostArray, nppHostP, nppHostN, nppHostName
		rows["pConnectedRegion"] = host("the flood fills' result: \"optional host memory pointer to an NppiConnectedRegion object\"")
		memoryNames(rows, host("the recommended destination sizes: \"host memory pointer to the destination image roi_specification\""), "pDstSizeROI pDstSizeROIMax pDstSizeROIMin")
		rows["pNewNumber"] = host("nppiLabelMarkersUF's count: \"pointer to host memory integer value where the maximum renumbered marker label ID will be returned\"")
		rows["oDstROI"] = host("nppiFilterHoughLineRegion's region limits: an object (\"o\"), two NppPointPolar the host passes")
	case "nppig":
		rows["a*"], rows["hp*"] = nppHostArray, nppHostP
		memoryNames(rows, MemoryRule{Memory: DeviceMemory, Why: "a planar image's planes: a host array of device pointers (`Npp64f * aSrc[3]`, the headers' planar image pointer array)", Arrays: HostMemory}, "aSrc aDst")
		rows["pDstRect"] = host("\"user supplied host memory pointer to an NppiRect structure that will be filled in by this function\"")
		rows["pNewSrcRectOffset"] = host("\"pointer to host memory NppiPoint object that will contain the new source image ROI offset\"")
		memoryNames(rows, host("the geometry helpers' quadrangle and bounding box, computed on the host (`double quad[4][2]`, `double bound[2][2]`, as their \"a\" forms)"), "quad bound")
	case "nppim":
		rows["hp*"] = nppHostP
	case "nppist":
		rows["a*"], rows["hp*"], rows["n*"] = nppHostArray, nppHostP, nppHostN
		memoryNames(rows, MemoryRule{Memory: DeviceMemory, Why: "a reduction's per-channel results (`Npp64f aSum[3]`): device memory, as every NPP result and the one-channel forms' pSum, pMean, pMin (the general conventions)"},
			"aSum aMean aMin aMax aNorm aNormDiff aNormRel aDp aIndexX aIndexY aCounts")
	case "nppitc":
		rows["r*"] = nppHostR
		rows["pConstants"] = host("nppiCompareC's per-channel constants: a host array, as the \"a\" arrays of the other libraries, though named p (the one-channel form takes nConstant by value)")
		memoryNames(rows, host("nppiFusedAbsDiff_Threshold_GTVal: one value of eSrcDstType for each channel, read on the host in place of the typed forms' nThreshold and nValue"), "pThreshold pvalue")
	case "nppisu":
		rows["pStepBytes"] = host("nppiMalloc's line step in bytes, written to a host int")
	case "npps":
		rows["hp*"] = nppHostP
	}
	return rows
}
