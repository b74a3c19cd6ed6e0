//go:build linux && (amd64 || arm64)

package doctor

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/library"
)

// doctor runs Run and returns its lines.
func doctor(t *testing.T, o Options) (Report, []string) {
	t.Helper()
	var b strings.Builder
	o.Verbose = true
	rep, err := Run(&b, o)
	if err != nil {
		t.Fatalf("Run(%+v): %v", o, err)
	}
	t.Logf("doctor %+v:\n%s", o, b.String())
	return rep, strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// hasLine fails t unless a line matches the regular expression re (anchored).
func hasLine(t *testing.T, lines []string, re string) string {
	t.Helper()
	r := regexp.MustCompile("^" + re + "$")
	for _, l := range lines {
		if r.MatchString(l) {
			return l
		}
	}
	t.Errorf("no line matches %s", re)
	return ""
}

// needDebian skips t unless CUGEN_LIBCUDA and CUGEN_LIBCUDART name files
// (make test sets them to Debian's libraries, which load without a GPU).
func needDebian(t *testing.T) {
	for _, v := range []string{"CUGEN_LIBCUDA", "CUGEN_LIBCUDART"} {
		if p := os.Getenv(v); p == "" {
			cugentest.SkipNoLib(t, "%s is not set (make test sets it to Debian's library)", v)
		} else if _, err := os.Stat(p); err != nil {
			cugentest.SkipNoLib(t, "%s: %v", v, err)
		}
	}
}

// TestDebianLibraries: with the variables make test sets (Debian's
// libraries), every library whose variable is set loads from that file for
// CUDA 12 with its version reported; the driver reports its CUDA version
// and, without a GPU, that cuInit found no device, an error; and a driver
// of CUDA 12 is an error for -major 13, with the advice to upgrade it.
func TestDebianLibraries(t *testing.T) {
	needDebian(t)
	rep, lines := doctor(t, Options{Majors: []int{12}})
	hasLine(t, lines, regexp.QuoteMeta("driver: CUDA driver: "+os.Getenv("CUGEN_LIBCUDA")+" (from CUGEN_LIBCUDA)"))
	hasLine(t, lines, `driver: version: CUDA 12\.\d+ \(cuDriverGetVersion\)`)
	gpu := hasLine(t, lines, `driver: devices: .*`)
	noGPU := strings.HasPrefix(gpu, "driver: devices: none: ")
	if noGPU {
		hasLine(t, lines, regexp.QuoteMeta("driver: devices: none: cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)"))
		hasLine(t, lines, regexp.QuoteMeta("error: driver: no CUDA device: cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected): ")+".*nvidia-smi.*")
	} else {
		hasLine(t, lines, `driver: device 0: .+`)
	}
	checked := 0
	for _, d := range library.All {
		spec := d.LoadSpec(12)
		path := os.Getenv(spec.EnvVar)
		if d.Load.Driver || path == "" {
			continue
		}
		label := "cuda12/" + d.Package
		if !d.Load.PerMajor() {
			label = d.Package
		}
		// A file the loader cannot open here (trixie's libnccl2 needs
		// glibc 2.38) is reported as not loaded, with the loader's reason,
		// and is a note: no library was named.
		var le *ffi.LoadError
		if err := ffi.NewLibrary(spec.LibraryDesc(nil)).Load(); !spec.NeedsDriver && errors.As(err, &le) {
			if _, ok := le.Unopenable(); ok {
				hasLine(t, lines, regexp.QuoteMeta(label+": "+spec.Name+": not loaded: cannot load "+spec.Name+" library: tried "+path+" (")+".+")
				hasLine(t, lines, regexp.QuoteMeta("note: "+label+": "+spec.EnvVar+"="+path+": ")+".+"+regexp.QuoteMeta(": fix or unset "+spec.EnvVar))
				continue
			}
		}
		hasLine(t, lines, regexp.QuoteMeta(label+": "+spec.Name+": "+path+" (from "+spec.EnvVar+")"))
		if v := spec.Version; v.Symbol != "" {
			hasLine(t, lines, regexp.QuoteMeta(label+": version: "+v.Prefix+" ")+`1?\d\.\d+(\.\d+)? `+regexp.QuoteMeta("("+v.Symbol+")"))
		}
		checked++
	}
	if checked == 0 {
		t.Error("no library but the driver checked")
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "cuda13/") {
			t.Errorf("-major 12 printed %q", l)
		}
	}
	if want := map[bool]int{true: 1, false: 0}[noGPU]; rep.Errors != want {
		t.Errorf("Errors = %d, want %d", rep.Errors, want)
	}

	// The CUDA 12 driver for the cuda13 packages.
	rep, lines = doctor(t, Options{Majors: []int{13}, Libs: []string{"cudart"}})
	hasLine(t, lines, regexp.QuoteMeta("error: driver: the driver supports CUDA 12.")+`\d+`+regexp.QuoteMeta(" but cuda13 packages need a CUDA 13 driver: upgrade the driver (>= 580) or use the cuda12 packages"))
	// CUGEN_LIBCUDART names the CUDA 12 runtime: the cuda13 package refuses it.
	hasLine(t, lines, regexp.QuoteMeta("cuda13/cudart: CUDA 13 runtime: not loaded: cannot load CUDA 13 runtime library: tried "+os.Getenv("CUGEN_LIBCUDART")+" (CUDA runtime 12.")+`\d+`+regexp.QuoteMeta(", this package needs CUDA runtime 13.x); the path came from CUGEN_LIBCUDART: fix or unset it"))
	hasLine(t, lines, regexp.QuoteMeta("error: cuda13/cudart: CUGEN_LIBCUDART="+os.Getenv("CUGEN_LIBCUDART")+": CUDA runtime 12.")+`\d+`+regexp.QuoteMeta(", this package needs CUDA runtime 13.x: fix or unset CUGEN_LIBCUDART"))
	if want := map[bool]int{true: 3, false: 2}[noGPU]; rep.Errors != want {
		t.Errorf("-major 13 -lib cudart: Errors = %d, want %d (device, driver, runtime)", rep.Errors, want)
	}
}

// childEnv names the test a fresh child process runs (inChild).
const childEnv = "CUGEN_DOCTOR_CHILD"

// inChild reports whether this is the fresh process running t; if not, it
// runs t in one (a library once loaded is found again by its soname, so a
// search that must find nothing needs a process that loaded nothing) and
// relays its result.
func inChild(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return true
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^"+strings.ReplaceAll(t.Name(), "/", "$/^")+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		t.Log("child: " + l)
	}
	switch {
	case err != nil:
		t.Fatalf("the fresh process failed: %v", err)
	case strings.Contains(string(out), "--- SKIP: "+t.Name()):
		t.Skip("skipped in the fresh process")
	case !strings.Contains(string(out), "--- PASS: "+t.Name()):
		t.Fatalf("the fresh process did not run %s", t.Name())
	}
	return false
}

// isolate gives the search an empty world: no override variable, no
// virtualenv, conda or user site; what stays is the system's own
// directories and the loader's path.
func isolate(t *testing.T) string {
	dir := t.TempDir()
	for _, d := range library.All {
		t.Setenv(d.Load.EnvVar, "")
	}
	for _, v := range []string{"CUDA_PATH", "CUDA_HOME", "CONDA_PREFIX", "VIRTUAL_ENV"} {
		t.Setenv(v, "")
	}
	t.Setenv("HOME", dir)
	t.Setenv("PYTHONUSERBASE", filepath.Join(dir, "user"))
	return dir
}

// standIn builds a shared library from C source at path.
func standIn(t *testing.T, path, src string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path+".c", []byte(src), 0o644)
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", path, path+".c").CombinedOutput(); err != nil {
		t.Skipf("cannot build the stand-in library with %s: %v %s", cc, err, out)
	}
}

// TestWheelStandIns: NVRTC in a virtualenv's CUDA 13 wheel directory
// (nvidia/cu13/lib): a stand-in reporting NVRTC 12.6 is refused for the
// cuda13 package, named with its path and version, with advice, an error
// since -lib named it; one reporting 13.0 loads from there with its
// version. Only NVRTC is asked for, so the driver is optional.
func TestWheelStandIns(t *testing.T) {
	for _, c := range []struct {
		minor, major int
		errors       int
	}{{12, 6, 1}, {13, 0, 0}} {
		t.Run(fmt.Sprint(c.minor), func(t *testing.T) {
			if !inChild(t) {
				return
			}
			dir := isolate(t)
			venv := filepath.Join(dir, "venv")
			t.Setenv("VIRTUAL_ENV", venv)
			lib := filepath.Join(venv, "lib", "python3.12", "site-packages", "nvidia", "cu13", "lib", "libnvrtc.so.13")
			standIn(t, lib, fmt.Sprintf("int nvrtcVersion(int *major, int *minor) { *major = %d; *minor = %d; return 0; }\n", c.minor, c.major)+
				"int nvrtcCreateProgram(void **p, const char *s, const char *n, int k, void *h, void *i) { *p = (void *)1; return 0; }\n"+
				"int nvrtcCompileProgram(void *p, int n, void *o) { return 0; }\n"+
				"int nvrtcDestroyProgram(void **p) { *p = 0; return 0; }\n")
			rep, lines := doctor(t, Options{Majors: []int{13}, Libs: []string{"nvrtc"}})
			if c.errors == 1 {
				hasLine(t, lines, regexp.QuoteMeta("cuda13/nvrtc: NVRTC 13: not loaded: cannot load NVRTC 13 library: tried libnvrtc.so.13 (")+
					".*"+regexp.QuoteMeta(lib+" (NVRTC 12.6, this package needs NVRTC 13.x)")+".*")
				hasLine(t, lines, regexp.QuoteMeta("error: cuda13/nvrtc: libnvrtc.so.13 refused: "+lib+": NVRTC 12.6, this package needs NVRTC 13.x: remove or replace it, or set CUGEN_LIBNVRTC to the path of a right copy"))
			} else {
				hasLine(t, lines, regexp.QuoteMeta("cuda13/nvrtc: NVRTC 13: "+lib))
				hasLine(t, lines, regexp.QuoteMeta("cuda13/nvrtc: version: NVRTC 13.0 (nvrtcVersion)"))
				hasLine(t, lines, regexp.QuoteMeta("cuda13/nvrtc: compile: ok (a one-line kernel, nvrtcCompileProgram)"))
			}
			if rep.Errors != c.errors {
				t.Errorf("Errors = %d, want %d", rep.Errors, c.errors)
			}
			for _, l := range lines {
				if strings.HasPrefix(l, "cuda12/") || strings.HasPrefix(l, "cuda13/") && !strings.HasPrefix(l, "cuda13/nvrtc: ") {
					t.Errorf("-lib nvrtc -major 13 printed %q", l)
				}
			}
		})
	}
}

// TestAbsent: a library found nowhere is listed with every place tried
// and the ways to install it: an error when named, a note otherwise. A
// driver the variable points to but that is not there is an error, and
// the runtime is then not tried.
func TestAbsent(t *testing.T) {
	if !inChild(t) {
		return
	}
	dir := isolate(t)
	rep, lines := doctor(t, Options{Majors: []int{12}, Libs: []string{"cufft"}})
	if l := hasLine(t, lines, `cuda12/cufft: .*`); !strings.Contains(l, "not loaded") {
		t.Skipf("the system has cuFFT 11: %s", l)
	}
	hasLine(t, lines, regexp.QuoteMeta("cuda12/cufft: cuFFT (CUDA 12): not loaded: cannot load cuFFT (CUDA 12) library: tried libcufft.so.11 (")+
		".*"+regexp.QuoteMeta(filepath.Join(dir, "user", "lib", "python3*", "site-packages"))+".*"+regexp.QuoteMeta("; set CUGEN_LIBCUFFT to its path"))
	hasLine(t, lines, regexp.QuoteMeta("error: cuda12/cufft: libcufft.so.11 not found: eval \"$(go tool cugen libs -major 12 cufft)\" (Debian's, fetched by cugen) or pip install nvidia-cufft-cu12 (wheel nvidia/cufft/lib) or install the CUDA 12 toolkit or set CUGEN_LIBCUFFT to its path"))
	if rep.Errors < 1 {
		t.Errorf("Errors = %d, want the absent cuFFT counted", rep.Errors)
	}
	// NCCL is not part of the toolkit: the advice names NCCL and its
	// cu13 wheel (not named like the toolkit's).
	_, lines = doctor(t, Options{Majors: []int{13}, Libs: []string{"nccl"}})
	if l := hasLine(t, lines, `cuda13/nccl: .*`); strings.Contains(l, "not loaded") {
		hasLine(t, lines, regexp.QuoteMeta("error: cuda13/nccl: libnccl.so.2 not found: pip install nvidia-nccl-cu13 (wheel nvidia/nccl/lib) or install NCCL (NVIDIA's libnccl2 package) built for CUDA 13 or set CUGEN_LIBNCCL to its path"))
	}
	// cuDNN comes from its own wheel, one soname for both majors: the
	// advice names the wheel of the major checked.
	_, lines = doctor(t, Options{Majors: []int{13}, Libs: []string{"cudnn"}})
	if l := hasLine(t, lines, `cuda13/cudnn: .*`); strings.Contains(l, "not loaded") {
		hasLine(t, lines, regexp.QuoteMeta("error: cuda13/cudnn: libcudnn.so.9 not found: pip install nvidia-cudnn-cu13 (wheel nvidia/cudnn/lib) or install cuDNN 9 (NVIDIA's cudnn9-cuda-12 or cudnn9-cuda-13 package) built for CUDA 13 or set CUGEN_LIBCUDNN to its path"))
	}

	missing := filepath.Join(dir, "nowhere", "libcuda.so.1")
	t.Setenv("CUGEN_LIBCUDA", missing)
	rep, lines = doctor(t, Options{Majors: []int{12}})
	hasLine(t, lines, regexp.QuoteMeta("driver: CUDA driver: not loaded: cannot load CUDA driver library: tried "+missing+" (")+".*No such file or directory"+regexp.QuoteMeta("); the path came from CUGEN_LIBCUDA: fix or unset it"))
	hasLine(t, lines, regexp.QuoteMeta("error: driver: CUGEN_LIBCUDA="+missing+": ")+".*No such file or directory"+regexp.QuoteMeta(": fix or unset CUGEN_LIBCUDA"))
	hasLine(t, lines, regexp.QuoteMeta("cuda12/cudart: CUDA 12 runtime: not tried: it needs the driver, which did not load"))
	if l := hasLine(t, lines, `cuda12/cufft: .*`); strings.Contains(l, "not loaded") {
		hasLine(t, lines, regexp.QuoteMeta("note: cuda12/cufft: libcufft.so.11 not found: ")+".*")
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "driver: version") || strings.HasPrefix(l, "driver: devices") {
			t.Errorf("a driver that did not load printed %q", l)
		}
	}
	if rep.Errors != 1 {
		t.Errorf("Errors = %d, want 1 (the driver; the libraries not named are optional)", rep.Errors)
	}
}

// TestBadOptions: an unknown library or major is an error naming it.
func TestBadOptions(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Libs: []string{"tensorrt"}}, "cugen doctor: -lib tensorrt: no such library (known: driver, runtime, "},
		{Options{Majors: []int{11}}, "cugen doctor: -major 11: the module generates CUDA 12 and 13"},
	} {
		var b strings.Builder
		_, err := Run(&b, c.o)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || b.Len() != 0 {
			t.Errorf("Run(%+v) = %v, printed %q; want %q and nothing printed", c.o, err, b.String(), c.want)
		}
	}
}

// TestFindAnyCase: -lib names a library by key or package in any case,
// as gen's -lib does (issue 40: -lib CUBLAS was refused).
func TestFindAnyCase(t *testing.T) {
	for _, n := range []string{"CUBLAS", "cuBLAS", "Runtime", "CUDART", "nvrtc"} {
		if find(library.All, n) == nil {
			t.Errorf("find(%q) = nil", n)
		}
	}
}

// TestFamily13: doctor checks the family libraries of the cuda13
// packages (issue 29: CUPTI, NVVM, cuFile, nvJPEG, cuBLASXt, cuFFTXt,
// nvFatbin, cuSOLVERMg and the eleven NPP libraries), each by the CUDA 13
// soname the package loads: here, without them, a line and a note each
// naming that file; on the GPU machine the path it found. NVTX has no
// CUDA 13 library (the root package nvtx).
func TestFamily13(t *testing.T) {
	libs := []string{"cupti", "nvvm", "cufile", "nvjpeg", "cublasxt", "cufftxt", "nvfatbin", "cusolvermg"}
	// make test names CUDA 12's copies (CUGEN_LIBCUPTI=.../libcupti.so.12):
	// the search alone, here.
	for _, v := range []string{"CUGEN_LIBCUPTI", "CUGEN_LIBNVVM", "CUGEN_LIBCUFILE", "CUGEN_LIBNVJPEG", "CUGEN_LIBCUBLAS", "CUGEN_LIBCUFFT", "CUGEN_LIBNVFATBIN", "CUGEN_LIBCUSOLVERMG"} {
		t.Setenv(v, "")
	}
	files := map[string]string{"cupti": "libcupti.so.13", "nvvm": "libnvvm.so.4", "cufile": "libcufile.so.0", "nvjpeg": "libnvjpeg.so.13",
		"cublasxt": "libcublas.so.13", "cufftxt": "libcufft.so.12", "nvfatbin": "libnvfatbin.so.13", "cusolvermg": "libcusolverMg.so.12"}
	for _, npp := range []string{"nppc", "nppial", "nppicc", "nppidei", "nppif", "nppig", "nppim", "nppist", "nppisu", "nppitc", "npps"} {
		libs = append(libs, npp)
		t.Setenv("CUGEN_LIB"+strings.ToUpper(npp), "")
		files[npp] = "lib" + npp + ".so.13"
	}
	_, lines := doctor(t, Options{Majors: []int{13}, Libs: libs})
	for _, lib := range libs {
		l := hasLine(t, lines, regexp.QuoteMeta("cuda13/"+lib+": ")+".*")
		want := files[lib]
		if !strings.Contains(l, "not loaded") {
			// Found (the loader's path, LD_LIBRARY_PATH under make test):
			// the real file, libcufile.so.1.9.1 for libcufile.so.0.
			want = want[:strings.Index(want, ".so")+len(".so")]
		}
		if !strings.Contains(l, want) {
			t.Errorf("doctor's line for cuda13/%s does not name %s: %q", lib, want, l)
		}
	}
}

// TestNVTXAdvice: libnvToolsExt.so.1 found nowhere gets advice that fits
// each major (library.Load.NotFound): for 12, that it is NVTX v2's
// library (Debian's libnvtoolsext1, the CUDA 12 toolkit, pip), which only
// generated/cuda12/nvtx loads; for 13, that CUDA 13 has none and NVTX 3
// (package nvtx) needs none. Before, both said "it comes with the NVIDIA
// driver: install or repair the driver", which is wrong for either.
func TestNVTXAdvice(t *testing.T) {
	t.Setenv("CUGEN_LIBNVTX", "") // make test names Debian's copy: the search alone, here
	for _, c := range []struct {
		major     int
		want, not []string
	}{
		{12, []string{"libnvToolsExt.so.1 not found: it is NVTX v2's library", "libnvtoolsext1", "CUDA 12 toolkit", "nvidia-nvtx-cu12", "github.com/cugen/cugen/nvtx"}, []string{"driver"}},
		{13, []string{"libnvToolsExt.so.1 not found: CUDA 13 has no NVTX v2 library", "NVTX 3 is header-only", "github.com/cugen/cugen/nvtx"}, []string{"driver", "install the CUDA 13 toolkit"}},
	} {
		_, lines := doctor(t, Options{Majors: []int{c.major}, Libs: []string{"nvtx"}})
		l := hasLine(t, lines, "nvtx: .*")
		if !strings.Contains(l, "not loaded") {
			t.Logf("-major %d: libnvToolsExt.so.1 is on this machine (%q): no advice to check", c.major, l)
			continue
		}
		advice := hasLine(t, lines, "(error|note): nvtx: .*")
		for _, w := range c.want {
			if !strings.Contains(advice, w) {
				t.Errorf("-major %d: the advice lacks %q: %q", c.major, w, advice)
			}
		}
		for _, w := range c.not {
			if strings.Contains(advice, w) {
				t.Errorf("-major %d: the advice says %q: %q", c.major, w, advice)
			}
		}
	}
}
