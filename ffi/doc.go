// Package ffi holds what a user of cugen's generated CUDA packages meets
// beyond the generated API itself: the shared [Library] a package calls
// (cu.SharedLibrary and cudart.SharedLibrary return it), the errors calls
// return, and the checking helpers the generated packages re-export.
//
//   - Loading: a [Library] is opened lazily, at most once, on the first call
//     into it. If no candidate path opens, every call returns a [*LoadError]
//     naming each path tried and the environment variable that selects the
//     library (errors.Is [ErrNotLoaded]); a function the loaded library
//     does not export returns a [*SymbolError] naming the CUDA version that
//     introduced it (errors.Is [ErrNoSymbol]).
//     [Library.UsePerThreadDefaultStream] (or [DefaultStreamEnv]) binds the
//     per-thread default stream.
//   - Errors: a failing CUDA function returns a [*CallError], which carries
//     the C function name and unwraps to the generated result code, so
//     errors.Is works against generated constants (cudart.ErrorInvalidDevice).
//     A Go callback that panics while C runs it makes the call panic with a
//     [*CallbackPanic] once C has returned.
//   - Checking: [Check] prints an error the way the checkRuntime macro of
//     CUDA C++ code does, passing over the functions [Helper] marks;
//     [RunLocked] runs a function on an OS thread of its own, for CUDA's
//     per-thread context. The generated packages export them as cu.Check,
//     cu.CheckHelper, cu.OnPrimaryContext and the cudart equivalents.
//
// The machinery the generated code is written with (frames, trampolines,
// callback tables, the version guard) is in package ffiimpl, which only
// generated code imports.
//
// Only linux/amd64 and linux/arm64 are supported.
package ffi
