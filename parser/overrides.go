package parser

import "github.com/cugen/cugen/parser/ir"

// directionOverride is one audited exception to the documentation rule of
// direction(). Every row says why; the generated audit file repeats it.
type directionOverride struct {
	dir ir.Direction
	why string
}

// directionOverrides is keyed by "<API name>.<parameter>". Rows exist only
// where CUDA's documentation does not say "Returned ..." (or says it in
// words the rule cannot read) but the function clearly writes a single value.
var directionOverrides = map[string]directionOverride{
	"cuGetErrorString.pStr":                             {ir.Out, `"Address of the string pointer": the driver stores a static string`},
	"cuGetErrorName.pStr":                               {ir.Out, `"Address of the string pointer": the driver stores a static string`},
	"cuDeviceComputeCapability.major":                   {ir.Out, "major revision number written by the driver"},
	"cuDeviceComputeCapability.minor":                   {ir.Out, "minor revision number written by the driver"},
	"cuDeviceGetExecAffinitySupport.pi":                 {ir.Out, `"1 if ... supported": a flag written by the driver`},
	"cuDeviceGetMemPool.pool":                           {ir.Out, "undocumented; the function gets the current pool"},
	"cuDeviceGetDefaultMemPool.pool_out":                {ir.Out, "undocumented; the function gets the default pool"},
	"cuCtxGetApiVersion.version":                        {ir.Out, `"Pointer to version": written by the driver`},
	"cuModuleGetFunctionCount.count":                    {ir.Out, `"Number of functions found": written by the driver`},
	"cuLibraryGetKernelCount.count":                     {ir.Out, `"Number of kernels found": written by the driver`},
	"cuDeviceRegisterAsyncNotification.callback":        {ir.Out, "the registered callback's handle, created by the driver"},
	"cudaDeviceRegisterAsyncNotification.callback":      {ir.Out, "the registered callback's handle, created by the runtime"},
	"cuMemPoolCreate.pool":                              {ir.Out, "undocumented; the created pool"},
	"cuStreamEndCapture.phGraph":                        {ir.Out, `"The captured graph": created by the driver`},
	"cuEventElapsedTime.pMilliseconds":                  {ir.Out, `"Time between ... in ms": written by the driver`},
	"cuTexObjectGetResourceDesc.pResDesc":               {ir.Out, "a Get function filling the descriptor"},
	"cuTexObjectGetTextureDesc.pTexDesc":                {ir.Out, "a Get function filling the descriptor"},
	"cuTexObjectGetResourceViewDesc.pResViewDesc":       {ir.Out, "a Get function filling the descriptor"},
	"cuSurfObjectGetResourceDesc.pResDesc":              {ir.Out, "a Get function filling the descriptor"},
	"cuSurfRefGetArray.phArray":                         {ir.Out, "documented as the surface reference by mistake; the function returns the bound array"},
	"cudaGetDeviceProperties.prop":                      {ir.Out, `"Properties for the specified device": filled by the runtime`},
	"cudaDeviceGetDefaultMemPool.memPool":               {ir.Out, "undocumented; the default pool"},
	"cudaDeviceGetMemPool.memPool":                      {ir.Out, "undocumented; the current pool"},
	"cudaChooseDevice.device":                           {ir.Out, `"Device with best match": written by the runtime`},
	"cudaStreamEndCapture.pGraph":                       {ir.Out, `"The captured graph": created by the runtime`},
	"cudaEventElapsedTime.ms":                           {ir.Out, `"Time between ... in ms": written by the runtime`},
	"cudaFuncGetParamInfo.paramOffset":                  {ir.Out, "a Get function's result"},
	"cudaFuncGetParamInfo.paramSize":                    {ir.Out, "a Get function's result"},
	"cudaMallocPitch.pitch":                             {ir.Out, `"Pitch for allocation": written by the runtime`},
	"cudaHostAlloc.pHost":                               {ir.Out, `"Device pointer to allocated memory" (sic): the allocated host pointer`},
	"cudaGetSymbolSize.size":                            {ir.Out, `"Size of object associated with symbol": written by the runtime`},
	"cudaMemPoolCreate.memPool":                         {ir.Out, "undocumented; the created pool"},
	"cudaMemPoolImportFromShareableHandle.memPool":      {ir.Out, "undocumented; the imported pool"},
	"cudaMemPoolExportPointer.exportData":               {ir.Out, "undocumented; the export data written by the runtime"},
	"cudaPointerGetAttributes.attributes":               {ir.Out, `"Attributes for the specified pointer": filled by the runtime`},
	"cudaGetChannelDesc.desc":                           {ir.Out, `"Channel format": filled by the runtime`},
	"cudaGetTextureObjectResourceDesc.pResDesc":         {ir.Out, "a Get function filling the descriptor"},
	"cudaGetTextureObjectTextureDesc.pTexDesc":          {ir.Out, "a Get function filling the descriptor"},
	"cudaGetTextureObjectResourceViewDesc.pResViewDesc": {ir.Out, "a Get function filling the descriptor"},
	"cudaGetSurfaceObjectResourceDesc.pResDesc":         {ir.Out, "a Get function filling the descriptor"},
	"cudaGraphAddEventRecordNode.pGraphNode":            {ir.Out, "undocumented; the created node, like every other cudaGraphAdd*Node"},
	"cudaGraphAddEventWaitNode.pGraphNode":              {ir.Out, "undocumented; the created node, like every other cudaGraphAdd*Node"},
}

// arrayOverride is one audited array size the documentation does not give
// in words the rule can read: len is a fixed element count, param the
// parameter holding the count.
type arrayOverride struct {
	len   int64
	param string
	why   string
}

// arrayOverrides is keyed by "<API name>.<parameter>". A fixed len with an
// output becomes a Go array result ([8]byte), so C never writes past it.
var arrayOverrides = map[string]arrayOverride{
	"cuDeviceGetLuid.luid": {len: 8, why: "a LUID is 8 bytes (cudaDeviceProp.luid is char[8], \"8-byte locally unique identifier\")"},
	// The description says "data ... dataSizes ... numAttributes" entries;
	// the signature also has a count (the range's bytes), so the rule
	// cannot pick.
	"cuMemRangeGetAttributes.data":        {param: "numAttributes", why: "one result pointer per attribute queried (the description)"},
	"cuMemRangeGetAttributes.dataSizes":   {param: "numAttributes", why: "one size per attribute queried (the description)"},
	"cudaMemRangeGetAttributes.data":      {param: "numAttributes", why: "one result pointer per attribute queried (the description)"},
	"cudaMemRangeGetAttributes.dataSizes": {param: "numAttributes", why: "one size per attribute queried (the description)"},
	"cuDevSmResourceSplitByCount.result":  {param: "nbGroups", why: "*nbGroups elements: nbGroups is an in/out pointer"},
	// Kernel arguments: one pointer per parameter of the kernel, whose
	// signature (not this call's) gives the count.
	"cuLaunchKernel.kernelParams":            {why: "one pointer per kernel parameter (the kernel's signature gives the count)"},
	"cuLaunchKernelEx.kernelParams":          {why: "one pointer per kernel parameter (the kernel's signature gives the count)"},
	"cuLaunchCooperativeKernel.kernelParams": {why: "one pointer per kernel parameter (the kernel's signature gives the count)"},
	"cudaLaunchKernel.args":                  {why: "one pointer per kernel parameter (the kernel's signature gives the count)"},
	"cudaLaunchKernelExC.args":               {why: "one pointer per kernel parameter (the kernel's signature gives the count)"},
	"cudaLaunchCooperativeKernel.args":       {why: "one pointer per kernel parameter (the kernel's signature gives the count)"},
}
