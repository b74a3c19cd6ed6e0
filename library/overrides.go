package library

import (
	"strings"

	"github.com/cugen/cugen/parser/ir"
)

// Overrides are a library's audited exceptions to the generator's rules,
// one row each with its reason; the audit file of the generated package
// repeats the rows that applied. They live with the library's description
// so that everything about a library is reviewed in one place.
type Overrides struct {
	// Directions, keyed by "<API name>.<parameter>", decide a parameter's
	// direction where the documentation does not say "Returned ..." (or
	// says it in words the rule cannot read) but the function clearly
	// writes a single value.
	Directions map[string]DirectionOverride
	// Arrays, keyed by "<API name>.<parameter>", give array sizes the
	// documentation does not give in words the rule can read. A fixed Len
	// with an output becomes a Go array result ([8]byte), so C never
	// writes past it.
	Arrays map[string]ArrayOverride
	// OneShotCallbacks are functions whose callback parameter C invokes
	// exactly once (or never, when the call fails): their wrappers take a
	// Go func, register it in ffiimpl's handle table for the duration, and
	// pass one static trampoline per callback type.
	OneShotCallbacks map[string]string
	// RegisteredCallbacks are functions that register a callback until an
	// explicit unregister call, mapped to that unregister function. The
	// wrapper keeps the Go func's handle in the package's ffiimpl.Registry
	// under the registration handle C returns; the unregister wrapper
	// deletes it. An empty unregister function (a logger kept until the
	// next set call, in a description file) keeps the Go func for the
	// rest of the process.
	RegisteredCallbacks map[string]string
	// SynchronousCallbacks are functions that call their callback only
	// while they run, on the calling thread, and give it no userData: the
	// Go func is held for the call by the ffiimpl.CallbackScope the wrapper
	// opens on its OS thread (calls from several threads run at once and
	// may nest).
	SynchronousCallbacks map[string]string
	// GlobalCallbacks are functions that set process-wide callbacks
	// without userData, which C keeps and calls from any thread, at any
	// time, until the next call of the function replaces them (CUPTI's
	// activity buffer callbacks): the wrapper takes Go funcs and stores
	// each in its callback typedef's package-wide slot, which the
	// typedef's one trampoline reads; nil stores nothing and passes NULL.
	GlobalCallbacks map[string]string
	// DefaultOneRecords are structs whose C++ constructor gives omitted
	// fields the value 1, which a Go composite literal (zero for omitted
	// fields) cannot do: helpers.go gets constructors with that default
	// (Dim1, Dim2).
	DefaultOneRecords map[string]string
	// KernelPointers are `const void *` parameters, besides those named
	// func (the rule), that take a kernel: the address of a kernel's host
	// entry function or a cudaKernel_t. They are typed as the Kernel
	// handle, so a cudaKernel_t passes without unsafe.
	KernelPointers map[string]string
	// DevicePointerTypes are integer typedefs that hold a device address
	// (CUdeviceptr): helpers.go gives them a Pointer method, the one
	// vet-clean way to hand the address to a runtime `void *` parameter.
	DevicePointerTypes map[string]string
	// AlignedValues are parameter names that, in every function of the
	// library, point to one value (a host or device scalar, one struct)
	// whose C type is aligned past what Go gives its Go type
	// (cuDoubleComplex and float4 at 16, CUtensorMap at 64). A Go variable
	// of that type can sit where a library's aligned host loads fault, so
	// the wrapper copies a misaligned, host-readable value to an aligned
	// buffer for the call (ffiimpl.AlignedIn). Only a one-value parameter
	// may be listed: an array copied one element long would be read past.
	AlignedValues map[string]string
	// PointerResults are functions, or name prefixes ending in "_"
	// (nppiMalloc_), whose non-const pointer result is memory the library
	// allocated (NPP's device image allocators): the wrapper returns it as
	// the typed pointer the library's functions take (*uint8 for Npp8u *),
	// not as a C string, and does not read it.
	PointerResults map[string]string
	// NonNullHandles are handle typedefs (CUpti_SubscriberHandle) the
	// library crashes on when given zero (NULL): it dereferences the
	// handle before it checks it, though its header documents a status
	// for a NULL one. Every wrapper taking such a handle as a value
	// returns that status's error for a zero handle before it loads or
	// calls anything.
	NonNullHandles map[string]NonNullHandle
	// Memory classifies pointer parameters by the memory the library's
	// documentation says they point to (memory.go), keyed by parameter
	// name, or "<C function>.<parameter>" for a function whose parameter
	// of that name differs (that row wins). A DeviceMemory parameter is
	// an ffi.DevicePtr, a HostOrDeviceMemory one an ffi.HostOrDevice; the
	// audit lists every parameter a row classified, with the row's reason.
	Memory map[string]MemoryRule
}

// NonNullHandle is what a wrapper returns for a zero handle of a
// Overrides.NonNullHandles typedef, and why.
type NonNullHandle struct {
	// Status is the library's status value the wrapper returns, the one
	// the header documents for a NULL handle: "CUPTI_ERROR_INVALID_PARAMETER".
	Status string
	// Why is the audit's reason: what the library does with zero.
	Why string
}

// PointerResult reports whether o lists fn in PointerResults, by name or
// by a prefix ending in "_".
func (o *Overrides) PointerResult(fn string) bool {
	for k := range o.PointerResults {
		if k == fn || strings.HasSuffix(k, "_") && strings.HasPrefix(fn, k) {
			return true
		}
	}
	return false
}

// OverrideReason is the reason the parser records (ir.Param.Why,
// ir.ArraySize.Source) for a direction or array size an override decided:
// DescFile.CheckAPI reads it back to tell an override that applied from
// one that did not.
func OverrideReason(why string) string { return "override: " + why }

// DirectionOverride is one audited parameter direction.
type DirectionOverride struct {
	Dir ir.Direction
	Why string
}

// ArrayOverride is one audited array size: Len a fixed element count,
// Param the parameter holding the count (neither: the count is known
// elsewhere, as a kernel's parameters).
type ArrayOverride struct {
	Len   int64
	Param string
	Why   string
}

// GraphAPI names the calls and constants with which a wrapper keeps a Go
// func alive as long as a CUDA graph: a stream-ordered callback
// (cuLaunchHostFunc) recorded by stream capture becomes a graph node that
// runs on every launch of the graph and of its execs and clones. CUDA's
// user objects exist for this: a user object retained by a graph is
// retained by every exec and clone made from it, and its destructor runs
// when the last of them is destroyed.
type GraphAPI struct {
	Stream, Graph, Exec, Node string // the stream, graph, exec and node handle typedefs
	ExecDestroy               string // releases the Go funcs an exec's host nodes were given
	CaptureInfo, Active       string // the capture query and its "capturing" status
	Create, Retain, Release   string // user object calls
	NoSync, Move              string // their flags
}

// Merged returns the union of the libraries' rows of one table (the
// type-keyed ones apply wherever the type is declared).
func Merged(descs []*Desc, table func(*Overrides) map[string]string) map[string]string {
	out := map[string]string{}
	for _, d := range descs {
		for k, v := range table(&d.Overrides) {
			out[k] = v
		}
	}
	return out
}
