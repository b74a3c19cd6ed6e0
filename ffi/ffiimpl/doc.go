// Package ffiimpl is the part of cugen's support code that only generated
// bindings call: loading symbols, calling C through a small assembly
// trampoline without cgo, callback tables, and the helpers wrappers are
// written with.
//
// Do not import this package yourself: it exists for the code cugen
// generates, and its API changes with the generator, without notice and
// without the compatibility promise the rest of the module makes. The
// types a user of the generated packages meets (the library, its load and
// symbol errors, CallError, Check, RunLocked) are in package ffi.
//
// Generated code and this package check each other at compile time, the
// way protobuf's runtime guards its generated code, with [Version] and
// [MinVersion]:
//
//	const _ = ffiimpl.EnforceVersion(ffiimpl.Version - 6) // ffiimpl is too old for this code
//	const _ = ffiimpl.EnforceVersion(6 - ffiimpl.MinVersion) // this code is too old for ffiimpl
//
// A failing guard is a compile error (a negative constant converted to an
// unsigned type), so version skew breaks the build, not the run. One
// version covers both packages: they live in one module and change together.
//
// The package has five parts:
//
//   - Binding: [Library] is a generated package's view of its ffi.Library,
//     and [Proc] one of its symbols, resolved lazily, once; failures are
//     the *ffi.LoadError and *ffi.SymbolError values users see, naming every
//     path tried and the CUDA version a symbol needs. [LibraryMajor] and
//     [PropertyMajor] keep a package off a library of another major.
//   - Calling: [CallInts] calls a function of up to six integer or pointer
//     arguments, which most CUDA functions are, straight from registers.
//     Every other signature goes through a [Frame], the register image of
//     one C call, built argument by argument and classified for the System
//     V AMD64 ABI (linux/amd64), AAPCS64 (linux/arm64) or the Microsoft x64
//     convention (windows/amd64), and [Call]. Both
//     run through runtime.cgocall and a small assembly trampoline; a call
//     costs no allocation. A library that needs all its calls from one OS
//     thread makes them inside its package's [Thread].
//   - Callbacks: one static C entry point per callback typedef ([Callback])
//     dispatches on a [Handle] passed as the C userData pointer, so the
//     process-wide limit of purego callbacks is never reached. A callback
//     without userData that C calls during the call (a synchronous one)
//     finds its Go func through a [CallbackSlot] in the [CallbackScope]
//     the call opened on its OS thread: such calls run concurrently from
//     several threads and may nest (a callback may call the same API
//     again). A panic in a callback never unwinds through C's frames
//     ([Recover]): on the calling thread, C returns normally and the
//     wrapper panics again with an *ffi.CallbackPanic; on a thread of C's
//     own, the process exits with status 2 after printing the panic and the
//     callback's stack. runtime.Goexit (t.FailNow) in a callback is not
//     supported: it would unwind through C.
//   - Errors: [Error] turns a result code into an *ffi.CallError, which
//     carries the C function name and unwraps to the generated result code,
//     so errors.Is works against generated constants.
//   - Launches, pointers and strings: [Extra] builds cuLaunchKernel's extra
//     array from a packed argument buffer in uintptr words; [Pointer] turns
//     a device address into the unsafe.Pointer a runtime void * takes;
//     [CString] and [GoString] cross the C string boundary.
//
// Supported: linux/amd64, linux/arm64 and windows/amd64 (the Microsoft x64
// calling convention, frame_windows_amd64.go).
package ffiimpl

// EnforceVersion is used by generated code to check, at compile time, that
// it and this package agree; see the package documentation.
type EnforceVersion uint

const (
	// Version is the version of this package's API for generated code.
	// Generated code requires Version >= the version it was generated for.
	// 2 added CallInts, 3 Scalar.Count, 4 Helper and the API method
	// Check reads, CallbackScope and Recover (CallbackSlot lost Hold and
	// Release), DriverLibrary and LibraryDesc.Identify and Driver; 5
	// Error (a Proc holds its function's errors: ErrCache and Fail are
	// gone), Proc.API, Library.Procs, and CallInts without an error result;
	// 6 split package ffi: what only generated code calls moved here
	// (Bind wraps the ffi.Library and makes the Procs), the version
	// guard with it; 7 LibraryMajor (the version check of every
	// library a package loads) and CallError.Log; 8 device memory in raw
	// signatures: ffi.DevicePtr, DeviceAddr and HostOrDevice; 9 Thread.
	Version = 9

	// MinVersion is the oldest generated code this package still supports.
	// Code older than 6 calls Frame, Proc and the rest through package ffi,
	// where they no longer are.
	MinVersion = 6
)
