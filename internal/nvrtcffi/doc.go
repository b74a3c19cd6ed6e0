// Package nvrtcffi calls NVRTC by hand for cugen's own commands: cugen
// doctor compiles a one-line kernel to check that NVRTC works, not only
// loads; cugen kernels compiles a source's kernels at generate time (no
// GPU) and reads their lowered names and images.
//
// It calls through package ffi's public API only (Library.Lookup, Call,
// GoString), as package doctor does: package ffiimpl is for generated
// code (doctor's TestImportsNoFFIImpl covers this package, which doctor
// imports). Nor does it import the generated nvrtc packages: each of those
// is one CUDA major's, while doctor checks each major's library as it
// loads it (from the library description, under its own root) and kernels
// takes NVRTC 13, else 12, in one binary.
//
// Results are NVRTC's nvrtcResult values, as int32, with [NotCalled] for
// a call that could not be made (the symbol is missing); the callers word
// their own messages, with [Lib.ErrorText] and [Lib.ErrorString]. Every
// size NVRTC reports is trusted only up to a bound the caller gives, and
// every C string is read with one.
package nvrtcffi
