package emit

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
// held in an ffi.CallbackSlot for the call (calls are serialised per
// callback type).
var synchronousCallbacks = map[string]string{
	"cuOccupancyMaxPotentialBlockSize":          "the block-size-to-shared-memory function is called during the computation",
	"cuOccupancyMaxPotentialBlockSizeWithFlags": "the block-size-to-shared-memory function is called during the computation",
}
