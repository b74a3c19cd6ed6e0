// Package sys says which CUDA major a build of the Go API uses, and its
// subpackages are the C API packages of that major under one import
// path each: cuda/sys/cu is generated/cuda13/cu in a build with no tag,
// generated/cuda12/cu in a build with -tags cuda12 (likewise cudart,
// nvrtc, nccl, cublas, curand, cufft, cusparse, cusolver and cudnn).
//
// The major is a build tag, as x/sys/unix chooses its files by GOOS and
// GOARCH: each package here holds one file per major, zcuda12.go
// (//go:build cuda12) and zcuda13.go (//go:build !cuda12). A file is the
// exported API of that major's generated package, declaration for
// declaration: every type an alias (type Context = cu.Context), every
// constant the same constant, every function a forwarder
// (func CtxGetCurrent() (Context, error) { return cu.CtxGetCurrent() }),
// which the compiler inlines, so a call costs what a call of the
// generated package costs; a var F = cu.F would be an indirect call.
// Aliases make the values one type: a Raw() handle of package cuda is a
// cu.Context of this package and of the generated one alike, and the
// error values errors.Is matches are the generated package's.
//
// The files are generated, never edited: cugen sys reads the exported
// API of the committed generated packages, which cugen gen writes from
// the IR, so the neutral API is the generated one, name for name
// (cugen sys -check and internal/sysgen's TestCommittedUpToDate fail
// when they differ). A name only one major has is in that major's file
// only: code that uses it builds with that major's tag alone. The Go
// API (package cuda and its subpackages) imports only these packages,
// and uses only what both majors have: it is vetted under both tags.
//
// [Major] is the major of this build, and [BuildFlag] how to build for
// another: package cuda names it when the driver is too old for the
// build's major.
package sys
