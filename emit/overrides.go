package emit

import "github.com/cugen/cugen/parser/ir"

// Audited exceptions for emit, one row each with its reason. The audit file
// of each generated package repeats the rows that applied.

// oneShotCallbacks are functions whose callback parameter C invokes exactly
// once (or never, when the call fails): their wrappers take a Go func,
// register it in ffi's handle table for the duration, and pass one static
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
// keeps the Go func's handle in the package's ffi.Registry under the
// registration handle C returns; the unregister wrapper deletes it.
var registeredCallbacks = map[string]string{
	"cuDeviceRegisterAsyncNotification":   "cuDeviceUnregisterAsyncNotification",
	"cudaDeviceRegisterAsyncNotification": "cudaDeviceUnregisterAsyncNotification",
	"cuLogsRegisterCallback":              "cuLogsUnregisterCallback",
	"cudaLogsRegisterCallback":            "cudaLogsUnregisterCallback",
}

// synchronousCallbacks are functions that call their callback only while
// they run, on the calling thread, and give it no userData: the Go func is
// held for the call by the ffi.CallbackScope the wrapper opens on its OS
// thread (calls from several threads run at once and may nest).
var synchronousCallbacks = map[string]string{
	"cuOccupancyMaxPotentialBlockSize":          "the block-size-to-shared-memory function is called during the computation",
	"cuOccupancyMaxPotentialBlockSizeWithFlags": "the block-size-to-shared-memory function is called during the computation",
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
