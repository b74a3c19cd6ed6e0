// Package doctor is cugen doctor: for every library description and CUDA
// major, which file the generated package would load and from where (or
// every place the search tried), its version, the driver's CUDA version
// and devices, and what is wrong, with advice.
//
// It loads each library as the generated package of that major does, from
// the same description (library.LoadSpec), without importing the generated
// packages, and calls the version functions, the driver and NVRTC
// through package ffi's public API only (Library.Lookup, Call, GoString;
// NVRTC and the driver's calls through internal/nvrtcffi, which uses the
// same): package ffiimpl is for generated code (TestImportsNoFFIImpl).
package doctor

import "github.com/cugen/cugen/library"

// Majors are the CUDA majors the module generates packages for
// (generated/cuda12, generated/cuda13).
var Majors = []int{12, 13}

// driverReleases is the oldest Linux driver release of each CUDA major,
// for the advice to upgrade.
var driverReleases = map[int]string{12: "525", 13: "580"}

// Options selects what Run checks.
type Options struct {
	// Majors are the CUDA majors checked; nil: all of Majors. A major named
	// here is required: a driver older than it is an error.
	Majors []int
	// Libs name the libraries checked, by key or package name ("runtime"
	// or "cudart"); nil: every description. A library named here is
	// required: not loading for a major checked is an error.
	Libs []string
	// Generated, when not nil and Libs is, are the packages a module
	// generated, by CUDA major (Generated finds them): only those
	// libraries and majors are checked, each optional as without Libs.
	Generated map[int][]string
	// Verbose prints every line: where each library loads from (or every
	// place tried), its version, the driver's devices, then every
	// problem. Without it Run prints at most MaxLines lines: the errors
	// with their advice, as many notes as fit, then one line per library
	// group (Groups).
	Verbose bool
	// Descs are the library descriptions; nil: library.All.
	Descs []*library.Desc
	// Root is put before the fixed system paths doctor reads: those of the
	// library search (ffi.LibraryDesc.Root) and those that tell WSL
	// (/proc/version, /usr/lib/wsl). Tests lay out a system in a
	// temporary directory with it; "" is this system.
	Root string
}

// MaxLines bounds what Run prints without Options.Verbose.
const MaxLines = 25

// Report is what Run found.
type Report struct {
	// Errors counts the problems that make cugen doctor fail: the driver
	// missing, without a device or older than a major of Options.Majors,
	// and a library of Options.Libs that does not load.
	Errors int
	// Notes counts the other problems (a library not asked for that is
	// absent or refused, a driver older than a major not asked for).
	Notes int
}
