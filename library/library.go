// Package library describes the CUDA libraries cugen binds, one declarative
// description each: the headers that declare it, the Go package it becomes,
// its status type and error text, and the shared object it is loaded from
// per CUDA major. The parser reads the headers every description names in
// one translation unit and attributes each declaration to the library whose
// header declares it; the emitter writes one package per description that
// has functions in a header set.
//
// Adding a library is one more file here: its Desc, appended to All. What a
// library does not fit in the generic rules (a parameter the documentation
// gets wrong, a buffer length) is an audited override listed in its Desc,
// next to everything else about it.
//
// docs/libraries.md's table of the family is written from All (its test
// TestDocTable fails when the two differ; -update rewrites the table), so
// a new description is documented by running that test.
package library

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cugen/cugen/parser/ir"
)

// Desc describes one library.
type Desc struct {
	// Key names the library in the IR (ir.Function.Library).
	Key ir.Library
	// Title names the library in messages and docs: "NVRTC".
	Title string
	// Package is the Go package name: "nvrtc".
	Package string
	// Imports are the other libraries (by Key) whose generated packages
	// this library's package imports: the owners of the C types its API
	// uses (cublas.SetStream takes a cudart.Stream), and cu for cudart's
	// context demo. Each comes before this library in All. -lib selects
	// by them before anything is emitted (Select); emit refuses a package
	// that would import a library its Imports leave out
	// (TestImportsMatchEmit holds them to what emit writes).
	Imports []ir.Library
	// API names the API in an error check's report ("runtime error at
	// main.go:12"): "driver", "runtime", "NVRTC".
	API string
	// Doc is what the package documentation says about using the library
	// from Go beyond the generic rules (cuBLAS's pointer modes), if anything.
	Doc string
	// Include are the headers the translation unit includes for this
	// library, in order, when the header set has them.
	Include []string
	// Shared are headers that other libraries' headers include (cuComplex.h
	// from cublas_api.h) and whose declarations belong to this library,
	// the Owner: the translation unit includes them last (Headers), so
	// a parse of some libraries (-lib)
	// gives this library's package what a parse of all gives it.
	Shared []string
	// Declare are the headers whose extern functions, types and macros
	// belong to the library (an included header may include others that
	// belong to it, as cuda_runtime.h includes cuda_runtime_api.h).
	Declare []string
	// Owner makes the library the owner of the declarations of every CUDA
	// header no description declares (driver_types.h, vector_types.h, ...):
	// the runtime's, which includes them.
	Owner bool
	// Required libraries are generated from every header set; a set that
	// lacks one fails. The main header (Include[0]) of the first is the
	// one a directory must have to be a CUDA include directory at all.
	// Other libraries get a package when the set declares functions of
	// theirs (nvJitLink has none before CUDA 12).
	Required bool
	// SymbolVersions names a header that declares only PFN_ typedefs
	// giving the CUDA version each symbol appeared in (cudaTypedefs.h).
	SymbolVersions string
	// Prefixes are the C prefixes dropped from Go names, longest first:
	// nvrtcCompileProgram is nvrtc.CompileProgram.
	Prefixes []string
	// Status is the C type of the status every function returns
	// (nvrtcResult); Go's package makes it an error.
	Status string
	// StatusRecord, for a library whose functions return their status in
	// a struct by value (cuFile's CUfileError_t {err, cu_err}), names that
	// struct: a wrapper of a function returning it returns an error, nil
	// when the status member is zero, and the struct's Go type is the
	// error's Code (an error itself, unwrapping to both statuses).
	StatusRecord *StatusRecord
	// NoStatus: the library's functions return no status (NVTX's return
	// void, a range id or a nesting level): Status is empty, no call is
	// turned into an error and errors.go declares nothing.
	NoStatus bool
	// ErrorString is the function that gives a status's text, if the
	// library has one; without it the header's comment on each value is
	// the text.
	ErrorString string
	// VersionMacro is the header macro holding the version the package is
	// generated from (CUDART_VERSION); empty: the set's CUDA_VERSION.
	VersionMacro string
	// Load says where and how the shared library is opened.
	Load Load
	// Since, if set, reads the library version a linked symbol needs from
	// the symbol itself (nvJitLink's __nvJitLinkCreate_12_4 needs 12.4):
	// the text before the version in messages ("nvJitLink").
	Since string
	// PlainDocs: the headers document declarations with plain /* */
	// comments, not Doxygen's /** */ (nccl.h); the plain comment right
	// before a declaration is its doc, its one-line title paragraph
	// ("Reduce", the function's name) dropped.
	PlainDocs bool
	// InterposePrefix marks the second entry point a library exports for
	// every function, for profilers and tools that interpose on the first
	// (NCCL's pncclAllReduce beside ncclAllReduce, like MPI's PMPI_
	// names): a declared function named it followed by one of Prefixes is
	// not bound.
	InterposePrefix string
	// Initializers are the header's struct initializer macros, each with
	// the C type it initializes (NCCL_CONFIG_INITIALIZER: ncclConfig_t).
	// The parser evaluates each as a C compiler would; the package gets a
	// function returning the value (nccl.ConfigInitializer).
	Initializers map[string]string
	// Logs are the functions whose failure is explained by a log the
	// library keeps: the wrapper returns the log with the error.
	Logs []Log
	// OneThread, when set, says why the library must get all its calls
	// from one OS thread: every wrapper makes its C call inside the
	// package's ffiimpl.Thread, so calls from any goroutine reach C from
	// the one thread (a goroutine changes threads whenever it blocks or
	// is preempted). Calls from several goroutines take turns. The reason
	// goes into the package documentation and the audit; a library with
	// Go callbacks is refused (emit's TestOneThread and
	// TestOneThreadRefusesCallbacks).
	OneThread string
	// Overrides are the library's audited exceptions to the rules.
	Overrides Overrides
	// File is the description file (gen -desc) the description was read
	// from, empty for cugen's own: every override of such a description
	// must apply (one that cannot is an error naming the file), where
	// cugen's own tables also serve header sets that lack a function.
	File string
	// Graph, for a library with CUDA graphs, names its graph and user
	// object API (see GraphAPI).
	Graph *GraphAPI
	// Unexported lists, with the reason, functions the headers declare
	// but the library does not export, in every CUDA major whose headers
	// declare them (checked against the locked Debian libraries and the
	// CUDA 13.0 toolkit's): they stay bound, fail with ffi.ErrNoSymbol
	// when called, and the symbol test expects them missing instead of
	// failing on them.
	Unexported map[string]string
	// CtxOnly, per CUDA major, is why that major's library exports only
	// the _Ctx form of a function its headers declare in two forms
	// (nppiAdd_8u_C1RSfs and nppiAdd_8u_C1RSfs_Ctx: NPP 13.0 declares
	// both, exports the second): a function whose name with _Ctx
	// appended the headers declare too is not bound in that major (a call
	// could only fail), unless that _Ctx twin is itself Unexported.
	// Unbound says which; it is the rule, not a list, because NPP 13.0
	// has about 3,900 such functions.
	CtxOnly map[int]string
	// LockLibs are the headers.lock library entries (Debian's packages)
	// holding what the library needs at run time for CUDA 12, its own
	// files: the first holds its shared object (Load.Files[12][0]), the
	// others what that object opens itself when it runs (NVRTC's
	// libnvrtc-builtins, which libnvrtc.so.12 opens by its soname to
	// compile). Together with Needs, this is the one place that maps a
	// library to Debian packages: `cugen libs -major 12 NAME` fetches them,
	// the tests load them (TestLockLibs, TestNeedsMatchesELF).
	LockLibs []string
	// Unlocked, for a library Debian does not package (cuDNN), says why
	// LockLibs is empty: its tests load the library the machine has, or
	// skip.
	Unlocked string
	// Needs are the other libraries (by Key) whose shared objects this
	// library's shared object lists as NEEDED (readelf -d): the dynamic
	// loader must find them, by soname, when it loads this one (libcublas
	// needs libcublasLt). TestNeedsMatchesELF checks the list against
	// the locked Debian libraries.
	Needs []ir.Library
	// Summaries say in one line what each routine of a family computes,
	// for a library whose headers document nothing (cuBLAS): the lead
	// sentence of a wrapper the header gives no brief.
	Summaries *Summaries
}

// StatusRecord is a struct a library returns its status in (Desc.StatusRecord).
type StatusRecord struct {
	// Type is the struct's C typedef: "CUfileError_t".
	Type string
	// Field is its member of the library's status type (Desc.Status):
	// "err"; zero is success.
	Field string
	// Cause, if set, is a member holding another library's status that
	// explains Field's failure: "cu_err", the driver's CUresult when err
	// is CU_FILE_CUDA_DRIVER_ERROR. It is in the error's text where not
	// zero, and the error unwraps to it.
	Cause string
	// Why is the audit's reason.
	Why string
}

// Summaries is a table of routine families and what each computes, and
// the rule that finds a function's family (Family).
type Summaries struct {
	// Source is where the texts come from, for audit.txt.
	Source string
	// Types are the element type prefixes of the C names, for Family:
	// "S" of cublasSgemm, "Sc" of cublasScasum, "Is" of cublasIsamax.
	Types []string
	// Families maps a family to what its routines do, said after the Go
	// name ("computes y = alpha*x + y"). A family of typed routines is
	// the name after its type prefix ("gemm" of cublasSgemm); one without
	// a type prefix is the whole name ("GemmEx" of cublasGemmEx).
	Families map[string]string
}

// Family is the family of the C function cname and what it does: cname
// without the library's prefix (Prefixes) and version suffixes (_v2,
// _64), the family if the table has it, else that name without one of
// Types (the first that leaves a family of the table). ok is false for a
// function of no family.
func (s *Summaries) Family(prefixes []string, cname string) (family, text string, ok bool) {
	if s == nil {
		return "", "", false
	}
	n := cname
	for _, p := range prefixes {
		if strings.HasPrefix(n, p) {
			n = n[len(p):]
			break
		}
	}
	for {
		t := strings.TrimSuffix(strings.TrimSuffix(n, "_64"), "_v2")
		if t == n {
			break
		}
		n = t
	}
	if text, ok := s.Families[n]; ok {
		return n, text, true
	}
	for _, t := range s.Types {
		if f, ok := strings.CutPrefix(n, t); ok {
			if text, ok := s.Families[f]; ok {
				return f, text, true
			}
		}
	}
	return "", "", false
}

// Load describes how the package finds and checks its shared library.
type Load struct {
	// Name names the library in load errors, with %d for the CUDA major
	// of a per-major library: "CUDA %d runtime", "NVRTC %d".
	Name string
	// EnvVar, when set in the environment, is the only path tried.
	EnvVar string
	// Files are the shared object names per CUDA major, in the order
	// tried; the key 0 serves every major (the driver's libcuda.so.1).
	// Not every library's soname follows the CUDA major: cuFFT of CUDA 12
	// is libcufft.so.11.
	Files map[int][]string
	// Wheels are the directories, under a Python site-packages directory,
	// where NVIDIA's pip wheels of a CUDA major put the library
	// (nvidia/cuda_runtime/lib for CUDA 12; nvidia/cu13/lib, shared by all
	// of CUDA 13's wheels); the key 0 serves every major.
	Wheels map[int][]string
	// Pip names the pip package per CUDA major where it does not follow
	// the toolkit wheels' naming (PipPackage): nvidia-nccl-cu13.
	Pip map[int]string
	// ToolkitDirs are where a CUDA toolkit keeps the library besides lib64,
	// relative to its root: libNVVM is in nvvm/lib64 (ffi.LibraryDesc).
	ToolkitDirs []string
	// Apart, for a library the CUDA toolkit does not include (NCCL), says
	// how to install it ("NCCL (NVIDIA's libnccl2 package)"): doctor's
	// advice names it instead of the toolkit.
	Apart string
	// NotFound, per CUDA major, is cugen doctor's advice for the library
	// found nowhere, where the generic one (the driver for a library every
	// major shares, else the toolkit or pip) would be wrong: NVTX v2's
	// libnvToolsExt.so.1 comes with CUDA 12, not the driver, and CUDA 13
	// has none and needs none.
	NotFound map[int]string
	// WSL: also look in WSL's driver directory (the driver only).
	WSL bool
	// Identify is a symbol every genuine copy of the library exports.
	Identify string
	// Version is how the loaded library's major version is read and
	// checked, so a package never calls a library of another major.
	Version Version
	// Driver marks the CUDA driver: one library per process, whatever
	// package loads it.
	Driver bool
	// NeedsDriver loads the driver before this library (the runtime opens
	// libcuda.so.1 by its soname and must be handed the same copy).
	NeedsDriver bool
}

// Version names a function that reports the library's version at run time.
type Version struct {
	Symbol string
	// Form is how the function reports it.
	Form VersionForm
	// Macros, for a library versioned apart from CUDA (cuBLAS 12.4.5,
	// cuFFT 11.2), name the header's major and minor version macros
	// (CUBLAS_VER_MAJOR, CUBLAS_VER_MINOR): the symbol test compares the
	// loaded library's version with them.
	Macros [2]string
	// Dependency is the library whose function Symbol is, when it is not
	// this one's own: NPP's image and signal libraries are checked through
	// nppGetLibVersion of the libnppc they depend on, cuSOLVERMg through
	// cublasGetProperty of its libcublas. The check and the version read
	// are that library's: its title, the major of its soname.
	Dependency *Desc
}

// VersionForm is how a version function reports the version.
type VersionForm int

const (
	// NoVersionCheck: any copy that has Identify is accepted.
	NoVersionCheck VersionForm = iota
	// Encoded: f(int *v) writes 1000*major + 10*minor (cudaRuntimeGetVersion).
	Encoded
	// MajorMinor: f(int *major, int *minor) (nvrtcVersion, nvJitLinkVersion).
	MajorMinor
	// Property: f(libraryPropertyType MAJOR_VERSION (0), int *major)
	// (cublasGetProperty, curandGetProperty, ...).
	Property
	// Struct: f(void) returns a pointer to {int major, minor, build}
	// (nppGetLibVersion).
	Struct
)

// Log says how a failed call's log is read: Func is the failing function,
// Log the function (the buffer half of a size-then-buffer pair) that reads
// the log of the handle the failing call took as its first parameter.
type Log struct {
	Func string
	Log  string
}

// FilesFor returns the shared object names for a CUDA major.
func (l Load) FilesFor(major int) []string {
	if f, ok := l.Files[major]; ok {
		return f
	}
	return l.Files[0]
}

// WheelsFor returns the wheel directories for a CUDA major.
func (l Load) WheelsFor(major int) []string {
	if w, ok := l.Wheels[major]; ok {
		return w
	}
	return l.Wheels[0]
}

// All lists every library cugen binds, in the order packages are
// generated. The driver comes first: its header is the one a CUDA include
// directory must have, and CUDA_VERSION is read from it.
var All = []*Desc{Driver, Runtime, NVRTC, NVJitLink, CuBLAS, CuBLASLt, CuRAND, CuFFT, CuSPARSE, CuSOLVER, NVML, NCCL, NVVM, NVFatbin, CUPTI, CuFile, NVTX, NVJPEG, CuBLASXt, CuFFTXt, CuDNN, CuSPARSELt, CuSOLVERMg, CuSOLVERSp, CuSOLVERRf,
	NPPC, NPPIAL, NPPICC, NPPIDEI, NPPIF, NPPIG, NPPIM, NPPIST, NPPISU, NPPITC, NPPS}

// Named is the description in all whose Go package name is name, in any
// case (-lib CUBLAS is cublas); nil if none is.
func Named(all []*Desc, name string) *Desc {
	for _, d := range all {
		if strings.EqualFold(d.Package, name) {
			return d
		}
	}
	return nil
}

// Packages are the Go package names of all, in order: the names -lib
// takes.
func Packages(all []*Desc) []string {
	var names []string
	for _, d := range all {
		names = append(names, d.Package)
	}
	return names
}

// Select returns the descriptions in all of the Go packages names (-lib's
// names, Named) and of every library they import (Imports, transitively),
// each once, in the order of all: what is parsed and emitted for them. An
// unknown name is an error, one line naming the known ones.
func Select(all []*Desc, names []string) ([]*Desc, error) {
	want := map[ir.Library]bool{}
	var visit func(d *Desc) error
	visit = func(d *Desc) error {
		if want[d.Key] {
			return nil
		}
		want[d.Key] = true
		for _, k := range d.Imports {
			i := slices.IndexFunc(all, func(n *Desc) bool { return n.Key == k })
			if i < 0 {
				return fmt.Errorf("library %s imports %s, which no description is", d.Key, k)
			}
			if err := visit(all[i]); err != nil {
				return err
			}
		}
		return nil
	}
	for _, n := range names {
		d := Named(all, n)
		if d == nil {
			return nil, fmt.Errorf("unknown library %q (cugen's libraries: %s)", n, strings.Join(Packages(all), ", "))
		}
		if err := visit(d); err != nil {
			return nil, err
		}
	}
	var out []*Desc
	for _, d := range all {
		if want[d.Key] {
			out = append(out, d)
		}
	}
	return out, nil
}

// LibsCommand is the shell line that fetches what d needs at run time
// for CUDA major from the Debian packages cugen locks, and points a
// generated package at it: no GPU, toolkit or pip needed (cugen libs).
// It is "" where there is none: no package locked for d, a major Debian
// does not package (13), or a library that comes with the driver.
func (d *Desc) LibsCommand(major int) string {
	if major != 12 || len(d.LockLibs) == 0 || !d.Load.PerMajor() {
		return ""
	}
	return fmt.Sprintf(`eval "$(go tool cugen libs -major %d %s)"`, major, d.Package)
}

// RunTime returns d and the libraries it needs at run time (Needs,
// transitively), each once, in the order of all; a key in Needs that is
// not in all is an error.
func (d *Desc) RunTime(all []*Desc) ([]*Desc, error) {
	want := map[*Desc]bool{}
	var visit func(d *Desc) error
	visit = func(d *Desc) error {
		if want[d] {
			return nil
		}
		want[d] = true
		for _, k := range d.Needs {
			i := slices.IndexFunc(all, func(n *Desc) bool { return n.Key == k })
			if i < 0 {
				return fmt.Errorf("library %s needs %s, which no description is", d.Key, k)
			}
			if err := visit(all[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if err := visit(d); err != nil {
		return nil, err
	}
	var out []*Desc
	if !slices.Contains(all, d) {
		out = append(out, d)
	}
	for _, n := range all {
		if want[n] {
			out = append(out, n)
		}
	}
	return out, nil
}

// Unbound says whether, and why, the package of CUDA major leaves out the
// function sym its headers declare (CtxOnly); declared reports whether
// they declare a function of another symbol. Unexported functions are
// bound: Unbound is false for them.
func (d *Desc) Unbound(major int, sym string, declared func(string) bool) (string, bool) {
	why, ok := d.CtxOnly[major]
	if !ok || strings.HasSuffix(sym, "_Ctx") || !declared(sym+"_Ctx") {
		return "", false
	}
	if _, gone := d.Unexported[sym+"_Ctx"]; gone {
		return "", false
	}
	return why, true
}

// Interposer reports whether sym is the interposition twin of another
// function of the library (InterposePrefix).
func (d *Desc) Interposer(sym string) bool {
	if d == nil || d.InterposePrefix == "" {
		return false
	}
	rest, ok := strings.CutPrefix(sym, d.InterposePrefix)
	if !ok {
		return false
	}
	for _, p := range d.Prefixes {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}

// ByKey returns the description of a library key, or nil.
func ByKey(descs []*Desc, key ir.Library) *Desc {
	for _, d := range descs {
		if d.Key == key {
			return d
		}
	}
	return nil
}

// Headers returns every header the translation unit includes, in order:
// each description's Include, then its SymbolVersions header, then its
// Shared headers. headers.lock
// pins them and everything they include.
func Headers(descs []*Desc) []string {
	var out []string
	for _, d := range descs {
		for _, h := range d.Include {
			if !slices.Contains(out, h) {
				out = append(out, h)
			}
		}
	}
	for _, d := range descs {
		if d.SymbolVersions != "" && !slices.Contains(out, d.SymbolVersions) {
			out = append(out, d.SymbolVersions)
		}
	}
	// Last: included again where a library's headers included them, a
	// no-op then, a doc comment of theirs reaches no declaration.
	for _, d := range descs {
		for _, h := range d.Shared {
			if !slices.Contains(out, h) {
				out = append(out, h)
			}
		}
	}
	return out
}

// Check reports a description that cannot work: an empty field the
// generator needs, or two descriptions claiming one header or package.
func Check(descs []*Desc) error {
	headers := map[string]ir.Library{}
	pkgs := map[string]ir.Library{}
	owners, required := 0, 0
	for _, d := range descs {
		switch {
		case d.Key == "" || d.Package == "" || d.Title == "" || d.API == "":
			return fmt.Errorf("library %q: Key, Package, Title and API are required", d.Key)
		case len(d.Include) == 0 || len(d.Declare) == 0:
			return fmt.Errorf("library %s: no headers", d.Key)
		case d.Status == "" && !d.NoStatus:
			return fmt.Errorf("library %s: no status type", d.Key)
		case d.Status != "" && d.NoStatus:
			return fmt.Errorf("library %s: a status type and NoStatus", d.Key)
		case d.StatusRecord != nil && (d.Status == "" || d.StatusRecord.Type == "" || d.StatusRecord.Field == "" || d.StatusRecord.Why == ""):
			return fmt.Errorf("library %s: a StatusRecord needs Status, its Type, Field and Why", d.Key)
		case len(d.Load.Files) == 0 || d.Load.Identify == "" || d.Load.Name == "":
			return fmt.Errorf("library %s: no shared object files, Identify symbol or load Name", d.Key)
		}
		for _, h := range d.Declare {
			if other, ok := headers[h]; ok {
				return fmt.Errorf("header %s declared by both %s and %s", h, other, d.Key)
			}
			headers[h] = d.Key
		}
		for _, k := range d.Imports {
			if k == d.Key {
				return fmt.Errorf("library %s imports itself", d.Key)
			}
		}
		if other, ok := pkgs[d.Package]; ok {
			return fmt.Errorf("package %s of both %s and %s", d.Package, other, d.Key)
		}
		pkgs[d.Package] = d.Key
		if d.Owner {
			owners++
		}
		if d.Required {
			required++
		}
	}
	drivers, needDriver := 0, ""
	for _, d := range descs {
		if d.Load.Driver {
			drivers++
		}
		if d.Load.NeedsDriver {
			needDriver = string(d.Key)
		}
	}
	if drivers > 1 || drivers == 0 && needDriver != "" {
		return fmt.Errorf("library descriptions: %d driver libraries (at most 1, and one when %s needs it)", drivers, needDriver)
	}
	if owners > 1 || required == 0 {
		return fmt.Errorf("library descriptions: %d owners of undeclared headers (at most 1) and %d required libraries (at least 1)", owners, required)
	}
	return nil
}
