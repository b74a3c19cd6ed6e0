// Package ffi is the small hand-written support package that cugen's
// generated CUDA bindings call C through, without cgo.
//
// It should only be imported by generated code; its API changes together with
// the generator, guarded by [Version] and [MinVersion] the way protobuf's
// runtime guards its generated code:
//
//	const _ = ffi.EnforceVersion(ffi.Version - 5) // ffi is too old for this code
//	const _ = ffi.EnforceVersion(5 - ffi.MinVersion) // this code is too old for ffi
//
// A failing guard is a compile error (a negative constant converted to an
// unsigned type), so version skew breaks the build, not the run.
//
// The package has four parts:
//
//   - Loading: [Library] and [Proc] open a shared library and resolve symbols
//     lazily, once, and report failures as [*LoadError] and [*SymbolError]
//     values naming every path tried and the CUDA version a symbol needs.
//   - Calling: [CallInts] calls a function of up to six integer or pointer
//     arguments, which most CUDA functions are, straight from registers.
//     Every other signature goes through a [Frame], the register image of
//     one C call, built argument by argument and classified for the System
//     V AMD64 ABI (linux/amd64) or AAPCS64 (linux/arm64), and [Call]. Both
//     run through runtime.cgocall and a small assembly trampoline; a call
//     costs no allocation.
//   - Callbacks: one static C entry point per callback typedef ([Callback])
//     dispatches on a [Handle] passed as the C userData pointer, so the
//     process-wide limit of purego callbacks is never reached. A callback
//     without userData that C calls during the call (a synchronous one)
//     finds its Go func through a [CallbackSlot] in the [CallbackScope]
//     the call opened on its OS thread: such calls run concurrently from
//     several threads and may nest (a callback may call the same API
//     again). A panic in a callback never unwinds through C's frames
//     ([Recover]): on the calling thread, C returns normally and the
//     wrapper panics again with a [*CallbackPanic]; on a thread of C's own,
//     the process exits with status 2 after printing the panic and the
//     callback's stack. runtime.Goexit (t.FailNow) in a callback is not
//     supported: it would unwind through C.
//   - Errors: [Error] turns a result code into a [CallError], which carries
//     the C function name and unwraps to the generated result code, so
//     errors.Is works against generated constants.
//     [Check] prints them the way the checkRuntime macro of CUDA C++ code
//     does, passing over the functions [Helper] marks.
//   - Launches and pointers: [Extra] builds cuLaunchKernel's extra array
//     from a packed argument buffer in uintptr words; [Pointer] turns a
//     device address into the unsafe.Pointer a runtime void * takes.
//
// Only linux/amd64 and linux/arm64 are supported.
package ffi

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
	// gone), Proc.API, Library.Procs, and CallInts without an error result.
	Version = 5

	// MinVersion is the oldest generated code this package still supports.
	// Code older than 5 declares an ErrCache per function and reads an
	// error from CallInts.
	MinVersion = 5
)
