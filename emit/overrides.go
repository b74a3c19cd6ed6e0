package emit

import "github.com/cugen/cugen/parser/ir"

// Audited exceptions for emit, one row each with its reason. The audit file
// of each generated package repeats the rows that applied.

// oneShotCallbacks are functions whose callback parameter C invokes exactly
// once (or never, when the call fails): their wrappers take a Go func,
// register it in ffiimpl's handle table for the duration, and pass one static
// trampoline per callback type. Callbacks that stay registered until an
// explicit unregister keep their C function pointer parameter (see audit).
var oneShotCallbacks = map[string]string{
	"cuLaunchHostFunc":      "the host function runs once when the stream reaches it",
	"cudaLaunchHostFunc":    "the host function runs once when the stream reaches it",
	"cuStreamAddCallback":   "the callback runs once when the stream's work completes",
	"cudaStreamAddCallback": "the callback runs once when the stream's work completes",
	"cuUserObjectCreate":    "the destructor runs once, when the last reference is released",
	"cudaUserObjectCreate":  "the destructor runs once, when the last reference is released",
}

// stringBufferLen is the buffer cugen passes for a `char *` output that is
// followed by its length (cuDeviceGetName, cuDeviceGetPCIBusId, ...): device
// names and PCI bus ids are far shorter.
const stringBufferLen = 256

// registeredCallbacks are functions that register a callback until an
// explicit unregister call, mapped to that unregister function. The wrapper
// keeps the Go func's handle in the package's ffiimpl.Registry under the
// registration handle C returns; the unregister wrapper deletes it.
var registeredCallbacks = map[string]string{
	"cuDeviceRegisterAsyncNotification":   "cuDeviceUnregisterAsyncNotification",
	"cudaDeviceRegisterAsyncNotification": "cudaDeviceUnregisterAsyncNotification",
	"cuLogsRegisterCallback":              "cuLogsUnregisterCallback",
	"cudaLogsRegisterCallback":            "cudaLogsUnregisterCallback",
}

// synchronousCallbacks are functions that call their callback only while
// they run, on the calling thread, and give it no userData: the Go func is
// held for the call by the ffiimpl.CallbackScope the wrapper opens on its OS
// thread (calls from several threads run at once and may nest).
var synchronousCallbacks = map[string]string{
	"cuOccupancyMaxPotentialBlockSize":          "the block-size-to-shared-memory function is called during the computation",
	"cuOccupancyMaxPotentialBlockSizeWithFlags": "the block-size-to-shared-memory function is called during the computation",
}

// defaultOneRecords are structs whose C++ constructor gives omitted fields
// the value 1, which a Go composite literal (zero for omitted fields) cannot
// do: helpers.go gets constructors with that default (Dim1, Dim2).
var defaultOneRecords = map[string]string{
	"dim3": "vector_types.h: dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1); a zero dimension is an invalid launch configuration",
}

// kernelPointers are the runtime's `const void *` parameters, besides those
// named func (the rule, see isKernelPointer), that take a kernel: the
// address of a kernel's host entry function or a cudaKernel_t. They are
// typed as the Kernel handle, so a cudaKernel_t passes without unsafe.
var kernelPointers = map[string]string{
	"cudaGetKernel.entryFuncAddr":   "the entry function address cudaGetKernel turns into a cudaKernel_t",
	"cudaGetFuncBySymbol.symbolPtr": "the entry function address cudaGetFuncBySymbol turns into a cudaFunction_t",
}

// devicePointerTypes are integer typedefs that hold a device address
// (CUdeviceptr): helpers.go gives them a Pointer method, the one vet-clean
// way to hand the address to a runtime `void *` parameter.
var devicePointerTypes = map[string]string{
	"CUdeviceptr_v2": "a device address as an integer; runtime calls take it as void *",
}

// graphAPIs names, per library, the calls and constants with which a
// wrapper keeps a Go func alive as long as a CUDA graph: a stream-ordered
// callback (cuLaunchHostFunc) recorded by stream capture becomes a graph
// node that runs on every launch of the graph and of its execs and clones.
// CUDA's user objects exist for this: a user object retained by a graph is
// retained by every exec and clone made from it, and its destructor runs
// when the last of them is destroyed.
var graphAPIs = map[ir.Library]graphAPI{
	ir.Driver: {
		stream: "CUstream", graph: "CUgraph", exec: "CUgraphExec", node: "CUgraphNode", execDestroy: "cuGraphExecDestroy",
		captureInfo: "cuStreamGetCaptureInfo", active: "CU_STREAM_CAPTURE_STATUS_ACTIVE",
		create: "cuUserObjectCreate", retain: "cuGraphRetainUserObject", release: "cuUserObjectRelease",
		noSync: "CU_USER_OBJECT_NO_DESTRUCTOR_SYNC", move: "CU_GRAPH_USER_OBJECT_MOVE",
	},
	ir.Runtime: {
		stream: "cudaStream_t", graph: "cudaGraph_t", exec: "cudaGraphExec_t", node: "cudaGraphNode_t", execDestroy: "cudaGraphExecDestroy",
		captureInfo: "cudaStreamGetCaptureInfo", active: "cudaStreamCaptureStatusActive",
		create: "cudaUserObjectCreate", retain: "cudaGraphRetainUserObject", release: "cudaUserObjectRelease",
		noSync: "cudaUserObjectNoDestructorSync", move: "cudaGraphUserObjectMove",
	},
}
