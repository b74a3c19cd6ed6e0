//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package doctor

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/internal/nvrtcffi"
	"github.com/cugen/cugen/library"
)

// Run checks and prints to w. Its error is for bad options only; what it
// finds wrong is printed and counted in the Report.
func Run(w io.Writer, o Options) (Report, error) {
	descs := o.Descs
	if descs == nil {
		descs = library.All
	}
	majors := o.Majors
	for _, m := range majors {
		if !slices.Contains(Majors, m) {
			return Report{}, fmt.Errorf("cugen doctor: -major %d: the module generates CUDA %s", m, majorList())
		}
	}
	only := o.Generated
	if len(o.Libs) > 0 || len(only) == 0 {
		only = nil
	}
	if majors == nil {
		majors = Majors
		if only != nil {
			majors = slices.DeleteFunc(slices.Clone(Majors), func(m int) bool { return only[m] == nil })
		}
	}
	var driverDesc *library.Desc
	for _, d := range descs {
		if d.Load.Driver {
			driverDesc = d
		}
	}
	if driverDesc == nil {
		return Report{}, errors.New("cugen doctor: no driver among the library descriptions")
	}
	named := map[*library.Desc]bool{}
	for _, n := range o.Libs {
		d := find(descs, n)
		if d == nil {
			var known []string
			for _, d := range descs {
				known = append(known, string(d.Key))
			}
			return Report{}, fmt.Errorf("cugen doctor: -lib %s: no such library (known: %s; or their package names)", n, strings.Join(known, ", "))
		}
		named[d] = true
	}
	r := &run{w: w, root: o.Root, verbose: o.Verbose}

	// The driver is required unless only libraries that work without it
	// (NVRTC, nvJitLink, NVML) are named.
	driverRequired := len(named) == 0
	for d := range named {
		driverRequired = driverRequired || d.Load.Driver || d.Load.NeedsDriver
	}
	driver, driverVersion := r.driver(driverDesc, driverRequired)
	for _, major := range majors {
		if driverVersion[0] != 0 && driverVersion[0] < major {
			text := fmt.Sprintf("the driver supports CUDA %d.%d but cuda%d packages need a CUDA %d driver: upgrade the driver (>= %s)",
				driverVersion[0], driverVersion[1], major, major, driverReleases[major])
			if slices.Contains(Majors, driverVersion[0]) {
				text += fmt.Sprintf(" or use the cuda%d packages", driverVersion[0])
			}
			r.problem(driverRequired && o.Majors != nil, "driver", text)
		}
	}
	done := map[*library.Desc]bool{driverDesc: true}
	for _, major := range majors {
		for _, d := range descs {
			if done[d] || len(named) > 0 && !named[d] || only != nil && !generated(only, d, major) {
				continue
			}
			if !d.Load.PerMajor() {
				done[d] = true
			}
			r.library(d, major, driver, named[d])
		}
	}
	r.launcher()
	r.summary()
	return r.Report, nil
}

// generated says whether the module generated d's package for major
// (for a library of every major, NVML's, for any).
func generated(only map[int][]string, d *library.Desc, major int) bool {
	if !d.Load.PerMajor() {
		for _, pkgs := range only {
			if slices.Contains(pkgs, d.Package) {
				return true
			}
		}
		return false
	}
	return slices.Contains(only[major], d.Package)
}

func majorList() string {
	var s []string
	for _, m := range Majors {
		s = append(s, fmt.Sprint(m))
	}
	return strings.Join(s, " and ")
}

// find returns the description named by key or package name.
func find(descs []*library.Desc, name string) *library.Desc {
	for _, d := range descs {
		if strings.EqualFold(string(d.Key), name) || strings.EqualFold(d.Package, name) {
			return d
		}
	}
	return nil
}

type problem struct {
	error       bool
	label, text string
}

type run struct {
	w        io.Writer
	root     string // Options.Root
	verbose  bool   // Options.Verbose
	problems []problem
	groups   []*group // in the order first checked
	Report
}

// group is one line of the short report: the driver's libraries (the
// driver, NVML, NVTX) or a CUDA major's, and what each did.
type group struct {
	name          string // "driver", "cuda12"
	loaded, other []string
}

// printf prints one line with Options.Verbose, else nothing: a control
// character in it is escaped (escapeLine).
func (r *run) printf(format string, args ...any) {
	if r.verbose {
		fmt.Fprintln(r.w, escapeLine(fmt.Sprintf(format, args...)))
	}
}

// checked records for the short report what label's library did: loaded
// (what, its version where known) or not.
func (r *run) checked(label, what string, loaded bool) {
	name, pkg, ok := strings.Cut(label, "/")
	if !ok {
		name, pkg = "driver", label
	}
	var g *group
	for _, x := range r.groups {
		if x.name == name {
			g = x
		}
	}
	if g == nil {
		g = &group{name: name}
		r.groups = append(r.groups, g)
	}
	if loaded {
		g.loaded = append(g.loaded, pkg+what)
	} else {
		g.other = append(g.other, pkg)
	}
}

func (r *run) problem(isError bool, label, text string) {
	r.problems = append(r.problems, problem{isError, label, text})
	if isError {
		r.Errors++
	} else {
		r.Notes++
	}
}

// summary prints the problems, errors first; without Options.Verbose
// then as many notes as MaxLines leaves room for and a line per group.
func (r *run) summary() {
	line := func(format string, args ...any) {
		fmt.Fprintln(r.w, escapeLine(fmt.Sprintf(format, args...)))
	}
	if len(r.problems) == 0 {
		line("ok: no problems found")
	}
	// Errors first, then notes; without Verbose as many as leave a line
	// for the rest and one per group.
	ps := slices.Clone(r.problems)
	slices.SortStableFunc(ps, func(a, b problem) int {
		if a.error == b.error {
			return 0
		} else if a.error {
			return -1
		}
		return 1
	})
	room := len(ps)
	if !r.verbose {
		room = MaxLines - len(r.groups) - 1 // and cugen doctor's count of errors
	}
	for i, p := range ps {
		if room < len(ps)-i && room <= 1 {
			var left []string
			for _, p := range ps[i:] {
				left = append(left, p.label)
			}
			line("note: %d more problems, each with its advice in cugen doctor -v: %s", len(left), strings.Join(left, ", "))
			break
		}
		kind := "note"
		if p.error {
			kind = "error"
		}
		line("%s: %s: %s", kind, p.label, p.text)
		room--
	}
	if r.verbose {
		return
	}
	for _, g := range r.groups {
		text := fmt.Sprintf("%s: %d of %d load", g.name, len(g.loaded), len(g.loaded)+len(g.other))
		if len(g.loaded) > 0 {
			text += ": " + strings.Join(g.loaded, ", ")
		}
		if len(g.other) > 0 {
			text += "; not: " + strings.Join(g.other, ", ")
		}
		line("%s", text)
	}
}

// The driver's answers doctor believes. A device count above
// maxDevices is itself a problem (no machine has that many: a broken or
// fake driver); at most listDevices devices are listed, one line each.
const (
	maxDevices  = 1024
	listDevices = 64
	// maxErrorText bounds the text of a CUresult read from the driver.
	maxErrorText = 4 << 10
)

// driver checks the driver: where it loads from, its CUDA version and
// devices. It returns the loaded library (nil if it did not load) and the
// CUDA version it supports (zero if unknown).
func (r *run) driver(d *library.Desc, required bool) (*ffi.Library, [3]int) {
	const label = "driver"
	spec := d.LoadSpec(0)
	desc := spec.LibraryDesc(nil)
	desc.Root = r.root
	lib := ffi.NewLibrary(desc)
	if !r.load(label, spec, lib) {
		advice := r.advice(d, spec, 0, lib.Load())
		if w := r.wslDriver(label, spec.EnvVar, ""); w != "" { // wsl.go
			advice = w
		}
		r.problem(required, label, advice)
		r.checked(label, "", false)
		return nil, [3]int{}
	}
	if w := r.wslDriver(label, spec.EnvVar, lib.Path()); w != "" {
		r.problem(required, label, w)
	}
	v := r.driverVersion(lib, spec.Version.Symbol, required)
	r.devices(lib, required)
	r.checked(label, versionText(" CUDA ", v), true)
	return lib, v
}

// driverVersion reads and prints the CUDA version the driver supports
// (symbol is cuDriverGetVersion: 1000 × major + 10 × minor), or says why
// it cannot: the call fails, or it reports no CUDA version (major 1 to
// 99), a problem either way. The version is zero when unknown.
func (r *run) driverVersion(lib *ffi.Library, symbol string, required bool) [3]int {
	const label = "driver"
	broken := func(what string) [3]int {
		r.printf("%s: version: %s", label, what)
		r.problem(required, label, fmt.Sprintf("%s: the library at %s is broken or is no NVIDIA driver; reinstall the driver", what, quote(lib.Path())))
		return [3]int{}
	}
	fn, err := lib.Lookup(symbol)
	if err != nil {
		return broken(err.Error())
	}
	var raw int32
	if res, err := ffi.Call(fn, &raw); err != nil {
		return broken(err.Error())
	} else if int32(res) != 0 {
		return broken(fmt.Sprintf("%s failed (%d)", symbol, int32(res)))
	}
	if raw < 1000 || raw >= 100000 {
		return broken(fmt.Sprintf("%s reports %d, which is no CUDA version", symbol, raw))
	}
	v := [3]int{int(raw) / 1000, int(raw) % 1000 / 10}
	r.printf("%s: version: CUDA %d.%d (%s)", label, v[0], v[1], symbol)
	return v
}

// devices lists the driver's devices: cuInit, cuDeviceGetCount, and each
// one's name, at most listDevices of them.
func (r *run) devices(lib *ffi.Library, required bool) {
	const label = "driver"
	fail := func(call string, res int32) {
		text := fmt.Sprintf("%s failed: %s", call, errorText(lib, res))
		r.printf("%s: devices: none: %s", label, text)
		advice := "check that a GPU is present and visible (nvidia-smi; in a container, run it with the GPU runtime, e.g. docker run --gpus all) and that the kernel module matches the driver library"
		r.problem(required, label, "no CUDA device: "+text+": "+advice)
	}
	if res := nvrtcffi.Call(lib, "cuInit", 0); res != 0 {
		fail("cuInit", res)
		return
	}
	var n int32
	if res := nvrtcffi.Call(lib, "cuDeviceGetCount", &n); res != 0 {
		fail("cuDeviceGetCount", res)
		return
	}
	switch {
	case n == 0:
		r.printf("%s: devices: none", label)
		r.problem(required, label, "no CUDA device: cuDeviceGetCount reports 0")
		return
	case n < 0:
		text := fmt.Sprintf("cuDeviceGetCount reports %d, which is no device count", n)
		r.printf("%s: devices: %s", label, text)
		r.problem(required, label, text+": the driver library at "+quote(lib.Path())+" is broken or is no NVIDIA driver; reinstall the driver")
		return
	case n > maxDevices:
		r.problem(required, label, fmt.Sprintf("cuDeviceGetCount reports %d devices, more than any machine has (at most %d): the driver library at %s is broken or is no NVIDIA driver; reinstall the driver",
			n, maxDevices, quote(lib.Path())))
	}
	r.printf("%s: devices: %d", label, n)
	name := make([]byte, 256)
	for i := range int(min(n, listDevices)) {
		var dev int32
		if res := nvrtcffi.Call(lib, "cuDeviceGet", &dev, i); res != 0 {
			r.printf("%s: device %d: cuDeviceGet failed: %s", label, i, errorText(lib, res))
			continue
		}
		clear(name)
		if res := nvrtcffi.Call(lib, "cuDeviceGetName", name, len(name)-1, dev); res != 0 {
			r.printf("%s: device %d: cuDeviceGetName failed: %s", label, i, errorText(lib, res))
			continue
		}
		r.printf("%s: device %d: %s", label, i, quote(cString(name)))
	}
	if n > listDevices {
		r.printf("%s: devices: %d more not listed", label, int(n)-listDevices)
	}
}

// library checks one library for one CUDA major.
func (r *run) library(d *library.Desc, major int, driver *ffi.Library, required bool) {
	label := fmt.Sprintf("cuda%d/%s", major, d.Package)
	if !d.Load.PerMajor() {
		label = d.Package
	}
	spec := d.LoadSpec(major)
	if spec.NeedsDriver && driver == nil {
		r.printf("%s: %s: not tried: it needs the driver, which did not load", label, spec.Name)
		r.checked(label, "", false)
		if required {
			r.problem(true, label, "not loaded: it needs the driver, which did not load")
		}
		return
	}
	desc := spec.LibraryDesc(driver)
	desc.Root = r.root
	lib := ffi.NewLibrary(desc)
	if !r.load(label, spec, lib) {
		r.problem(required, label, r.advice(d, spec, major, lib.Load()))
		r.checked(label, "", false)
		return
	}
	var ver [3]int
	if v := spec.Version; v.Symbol != "" {
		var err error
		ver, err = ffi.ReadVersion(lib.Lookup, v.Symbol, int(v.Form))
		switch {
		case err != nil:
			r.printf("%s: version: %v", label, err)
		case v.Form == library.Property:
			r.printf("%s: version: %s %d.%d.%d (%s)", label, v.Prefix, ver[0], ver[1], ver[2], v.Symbol)
		default:
			r.printf("%s: version: %s %d.%d (%s)", label, v.Prefix, ver[0], ver[1], v.Symbol)
		}
	}
	r.checked(label, versionText(" ", ver), true)
	if d.Key == library.NVRTC.Key {
		r.nvrtcCompiles(label, lib, major, ver, required)
	}
}

// versionText is " 12.4" (after prefix) for a known version, else "".
func versionText(prefix string, v [3]int) string {
	if v[0] == 0 {
		return ""
	}
	return fmt.Sprintf("%s%d.%d", prefix, v[0], v[1])
}

// nvrtcSource is the kernel nvrtcCompiles compiles: one line, no
// includes, so that only NVRTC and its builtins are tested.
const nvrtcSource = "extern \"C\" __global__ void cugen_doctor(int *p) { *p = 1; }"

// nvrtcBuiltinFailure is NVRTC_ERROR_BUILTIN_OPERATION_FAILURE: NVRTC
// could not open or use libnvrtc-builtins.so.M.m, which it opens by its
// soname to compile (CUDA 11.2 and later).
const nvrtcBuiltinFailure = 7

// nvrtcCompiles checks that NVRTC works, not only loads: it compiles a
// one-line kernel (nvrtcCreateProgram, nvrtcCompileProgram). libnvrtc
// loads without its builtins library and fails every compile with
// NVRTC_ERROR_BUILTIN_OPERATION_FAILURE; that is a problem, with the fix.
func (r *run) nvrtcCompiles(label string, lib *ffi.Library, major int, ver [3]int, required bool) {
	nvrtc := nvrtcffi.New(lib)
	fail := func(call string, res int32, log string) {
		text := fmt.Sprintf("%s failed: %s", call, nvrtcErrorText(nvrtc, res))
		r.printf("%s: compile: %s", label, text)
		var advice string
		switch {
		case res == nvrtcBuiltinFailure:
			builtins := "libnvrtc-builtins.so"
			if ver[0] != 0 {
				builtins = fmt.Sprintf("libnvrtc-builtins.so.%d.%d", ver[0], ver[1])
			}
			advice = fmt.Sprintf("NVRTC loads but cannot compile: it opens %s by its soname and the loader did not find it (or it is not NVRTC %d.%d's): put the directory holding it on LD_LIBRARY_PATH (the toolkit and NVIDIA's wheel have it next to libnvrtc)",
				builtins, ver[0], ver[1])
			if major == 12 {
				advice += "; Debian's libnvrtc12 needs the package libnvrtc-builtins12.4: eval \"$(cugen libs -major 12 nvrtc)\" fetches both and sets CUGEN_LIBNVRTC and LD_LIBRARY_PATH"
			}
		case log != "":
			advice = "NVRTC loads but cannot compile a one-line kernel: " + log + ": reinstall NVRTC"
		default:
			advice = "NVRTC loads but cannot compile a one-line kernel: reinstall NVRTC"
		}
		r.problem(required, label, text+": "+advice)
	}
	prog, res := nvrtc.CreateProgram(nvrtcSource, "cugen_doctor.cu")
	if res != 0 {
		fail("nvrtcCreateProgram", res, "")
		return
	}
	defer prog.Destroy()
	if res := prog.Compile(nil); res != 0 {
		fail("nvrtcCompileProgram", res, nvrtcLog(prog))
		return
	}
	r.printf("%s: compile: ok (a one-line kernel, nvrtcCompileProgram)", label)
}

// The bounds of what nvrtcCompiles reads of a failed compile's log: a
// larger log is not read, and of its first line at most maxNVRTCLog
// bytes are shown.
const (
	maxNVRTCLogRead = 1 << 20
	maxNVRTCLog     = 4 << 10
)

// nvrtcLog is the first line of program prog's compile log, or "".
func nvrtcLog(prog *nvrtcffi.Program) string {
	buf, err := prog.Log(maxNVRTCLogRead)
	if err != nil {
		return ""
	}
	text := cString(buf)
	text, _, _ = strings.Cut(strings.TrimSpace(text), "\n")
	if len(text) > maxNVRTCLog {
		text = text[:maxNVRTCLog]
	}
	return quote(text)
}

// nvrtcErrorText is NVRTC's name of an nvrtcResult
// ("NVRTC_ERROR_BUILTIN_OPERATION_FAILURE (7)"), read with a bound.
func nvrtcErrorText(nvrtc *nvrtcffi.Lib, res int32) string {
	if s, ok := nvrtc.ErrorString(res, maxErrorText); ok {
		return quote(s) + fmt.Sprintf(" (%d)", res)
	}
	return nvrtc.ErrorText(res, maxErrorText) // "nvrtcResult 7", or the call was not made
}

// load loads lib and prints where from, or that it did not load and every
// place tried. It reports whether it loaded.
func (r *run) load(label string, spec library.LoadSpec, lib *ffi.Library) bool {
	err := lib.Load()
	if err != nil {
		r.printf("%s: %s: not loaded: %s", label, spec.Name, strings.TrimPrefix(err.Error(), "cugen: "))
		return false
	}
	from := ""
	if spec.EnvVar != "" && os.Getenv(spec.EnvVar) != "" {
		from = " (from " + spec.EnvVar + ")"
	}
	r.printf("%s: %s: %s%s", label, spec.Name, quote(lib.Path()), from)
	return true
}

// advice says what is wrong with a library that did not load, and what to
// do.
func (r *run) advice(d *library.Desc, spec library.LoadSpec, major int, err error) string {
	var le *ffi.LoadError
	if !errors.As(err, &le) {
		return err.Error()
	}
	if le.Driver != nil {
		return "not loaded: it needs the driver, which did not load"
	}
	if v := os.Getenv(spec.EnvVar); v != "" {
		reason := "cannot be loaded"
		if len(le.Tried) == 1 {
			reason = strings.TrimPrefix(le.Tried[0], v+": ")
		}
		return fmt.Sprintf("%s=%s: %s: fix or unset %s", spec.EnvVar, quote(v), reason, spec.EnvVar)
	}
	names := ffi.HostFiles(spec.Files)
	if len(names) == 0 {
		return fmt.Sprintf("not available: NVIDIA ships no %s build for %s", le.Library, runtime.GOOS)
	}
	var refused []string
	for _, t := range le.Tried {
		if _, why, _ := strings.Cut(t, ": "); !notFound(why) {
			refused = append(refused, t)
		}
	}
	if len(refused) > 0 {
		return fmt.Sprintf("%s refused: %s: remove or replace it, or set %s to the path of a right copy",
			strings.Join(names, " or "), strings.Join(refused, "; "), spec.EnvVar)
	}
	files := strings.Join(names, " or ")
	if a, ok := d.Load.NotFound[major]; ok {
		return files + " not found: " + a
	}
	switch {
	case spec.Driver:
		return files + " not found: " + ffi.DriverAdvice(spec.EnvVar)
	case spec.WSL || !d.Load.PerMajor():
		return fmt.Sprintf("%s not found: it comes with the NVIDIA driver: install or repair the driver, or set %s to its path", files, spec.EnvVar)
	}
	var ways []string
	if c := d.LibsCommand(major); c != "" {
		ways = append(ways, c+" (Debian's, fetched by cugen)")
	}
	if pip := d.Load.PipPackage(major); pip != "" {
		ways = append(ways, fmt.Sprintf("pip install %s (wheel %s)", pip, strings.Join(ffi.HostWheels(spec.Wheels), ", ")))
	}
	toolkit := fmt.Sprintf("install the CUDA %d toolkit", major)
	if d.Load.Apart != "" {
		toolkit = fmt.Sprintf("install %s built for CUDA %d", d.Load.Apart, major)
	}
	ways = append(ways, toolkit, "set "+spec.EnvVar+" to its path")
	return files + " not found: " + strings.Join(ways, " or ")
}

// notFound reports whether a LoadError's reason for one path says the file
// is not there (the search's own "no such file", the loader's for a bare
// soname; on Windows ERROR_MOD_NOT_FOUND, as Windows and wine word it), as
// opposed to a file that exists but was refused.
func notFound(why string) bool {
	return why == "no such file" || strings.Contains(why, "No such file or directory") ||
		strings.Contains(why, "module could not be found") || why == "Module not found."
}

// errorText is the driver's name and text of a CUresult:
// "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)". The
// strings are read with a bound (maxErrorText), and quoted if they hold
// control characters.
func errorText(lib *ffi.Library, res int32) string {
	if res == -1 {
		return "the call could not be made"
	}
	var p uintptr
	name := fmt.Sprintf("CUresult %d", res)
	if nvrtcffi.Call(lib, "cuGetErrorName", res, &p) == 0 && p != 0 {
		name = quote(ffi.GoString(p, maxErrorText))
	}
	p = 0
	if nvrtcffi.Call(lib, "cuGetErrorString", res, &p) == 0 && p != 0 {
		name += " (" + quote(ffi.GoString(p, maxErrorText)) + ")"
	}
	return name
}

// cString is the NUL-terminated string in b.
func cString(b []byte) string {
	if i := slices.Index(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// quote returns s, or s quoted as Go quotes it (strconv.Quote) when it
// holds a control character or is not UTF-8: a path, a variable's value
// or a driver's text with a newline must not start a line of doctor's
// own.
func quote(s string) string {
	if strings.ContainsFunc(s, unicode.IsControl) || !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	return s
}

// escapeLine escapes every control character left in a line of output
// (the text of a LoadError names paths as they are), so that each line
// printed is one line.
func escapeLine(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		if unicode.IsControl(c) {
			q := strconv.QuoteRune(c)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}
