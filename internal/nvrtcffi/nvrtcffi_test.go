//go:build linux && (amd64 || arm64)

package nvrtcffi

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/library"
)

// nvrtc loads NVRTC 13, else 12, as cugen kernels does, or skips t (make
// test names Debian's NVRTC 12.4 with CUGEN_LIBNVRTC and puts its
// builtins on LD_LIBRARY_PATH).
func nvrtc(t *testing.T) *Lib {
	t.Helper()
	var err error
	for _, major := range []int{13, 12} {
		lib := ffi.NewLibrary(library.NVRTC.LoadSpec(major).LibraryDesc(nil))
		if err = lib.Load(); err == nil {
			return New(lib)
		}
	}
	cugentest.NeedLibrary(t, err)
	return nil
}

// compiles skips t when NVRTC cannot compile at all on this machine: its
// builtins library is not on the loader's path (doctor's
// TestNVRTCCompiles shows that case).
func compiles(t *testing.T, l *Lib, res int32) {
	t.Helper()
	if res == 7 { // NVRTC_ERROR_BUILTIN_OPERATION_FAILURE
		t.Skipf("NVRTC cannot compile here: %s (put libnvrtc-builtins on LD_LIBRARY_PATH)", l.ErrorText(res, 256))
	}
}

const good = `template <typename T> __global__ void axpy(T a, const T *x, T *y, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) y[i] += a * x[i];
}
extern "C" __global__ void vecAdd(const float *a, const float *b, float *c, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) c[i] = a[i] + b[i];
}
`

// A program compiles with options, for a virtual architecture to PTX and
// for a real one to a cubin, and gives a template instance's lowered name.
func TestCompile(t *testing.T) {
	l := nvrtc(t)
	v, res := l.Version()
	if res != Success || v[0] < 12 {
		t.Fatalf("Version() = %v, %d", v, res)
	}
	t.Logf("NVRTC %d.%d at %s", v[0], v[1], l.Library().Path())
	for _, c := range []struct {
		arch  string
		image func(*Program, int) ([]byte, error)
		magic string
	}{
		{"compute_80", (*Program).PTX, "//"},
		{"sm_80", (*Program).CUBIN, "\x7fELF"},
	} {
		p, res := l.CreateProgram(good, "good.cu")
		if res != Success {
			t.Fatalf("CreateProgram: %s", l.ErrorText(res, 256))
		}
		if res := p.AddNameExpression("axpy<float>"); res != Success {
			t.Fatalf("AddNameExpression: %s", l.ErrorText(res, 256))
		}
		res = p.Compile([]string{"-arch=" + c.arch, "-default-device"})
		compiles(t, l, res)
		if res != Success {
			log, _ := p.Log(1 << 20)
			t.Fatalf("%s: Compile: %s\n%s", c.arch, l.ErrorText(res, 256), log)
		}
		img, err := c.image(p, 1<<30)
		if err != nil || !bytes.HasPrefix(img, []byte(c.magic)) {
			t.Errorf("%s: image of %d bytes starting %q, %v; want it to start %q", c.arch, len(img), img[:min(len(img), 8)], err, c.magic)
		}
		if c.arch == "compute_80" && !bytes.Contains(img, []byte(".entry vecAdd(")) {
			t.Errorf("the PTX has no entry vecAdd")
		}
		if name, res := p.LoweredName("axpy<float>", 4096); res != Success || name != "_Z4axpyIfEvT_PKS0_PS0_i" {
			t.Errorf("LoweredName(axpy<float>) = %q, %s", name, l.ErrorText(res, 256))
		}
		// A too small bound refuses the image rather than cutting it.
		if b, err := c.image(p, 16); b != nil || err == nil || !strings.Contains(err.Error(), "bytes, more than the 16 read") {
			t.Errorf("%s: image with bound 16: %d bytes, %v", c.arch, len(b), err)
		}
		if res := p.Destroy(); res != Success {
			t.Errorf("Destroy: %s", l.ErrorText(res, 256))
		}
	}
}

// A compile that fails gives NVRTC_ERROR_COMPILATION and its log, which
// names the file and line; a bound below the log's size is an error and
// reads nothing, for any bound (zero and negative too).
func TestCompileFails(t *testing.T) {
	l := nvrtc(t)
	p, res := l.CreateProgram("__global__ void k() { int x = ; }\n", "broken.cu")
	if res != Success {
		t.Fatalf("CreateProgram: %s", l.ErrorText(res, 256))
	}
	defer p.Destroy()
	res = p.Compile(nil)
	compiles(t, l, res)
	if res != 6 || l.ErrorText(res, 256) != "NVRTC_ERROR_COMPILATION" {
		t.Fatalf("Compile of a syntax error: %d, %q; want 6, NVRTC_ERROR_COMPILATION", res, l.ErrorText(res, 256))
	}
	log, err := p.Log(1 << 20)
	if err != nil || !bytes.Contains(log, []byte("broken.cu(1): error")) || !bytes.HasSuffix(log, []byte{0}) {
		t.Fatalf("Log = %q, %v; want broken.cu(1)'s error, NUL-terminated", log, err)
	}
	t.Logf("log (%d bytes): %s", len(log), bytes.TrimRight(log, "\x00\n"))
	for _, limit := range []int{len(log) - 1, 1, 0, -1, -1 << 62} {
		if b, err := p.Log(limit); b != nil || err == nil || !strings.HasPrefix(err.Error(), "nvrtcGetProgramLogSize reports ") {
			t.Errorf("Log(%d) = %q, %v; want an error naming the size", limit, b, err)
		}
	}
	if b, err := p.Log(len(log)); !bytes.Equal(b, log) || err != nil {
		t.Errorf("Log(%d) = %q, %v; want the whole log", len(log), b, err)
	}
	// Lowered names exist only for expressions added before the compile.
	if name, res := p.LoweredName("k", 4096); res == Success {
		t.Errorf("LoweredName of an expression never added: %q, no error", name)
	}
}

// A nil Program, one destroyed, and a nil or missing library answer with
// results, never a panic or a C call with a NULL program.
func TestBadInput(t *testing.T) {
	l := nvrtc(t)
	p, res := l.CreateProgram("__global__ void k() {}\n", "k.cu")
	if res != Success {
		t.Fatalf("CreateProgram: %s", l.ErrorText(res, 256))
	}
	if res := p.Destroy(); res != Success {
		t.Fatalf("Destroy: %d", res)
	}
	for name, p := range map[string]*Program{"nil": nil, "destroyed": p, "zero": {}} {
		if res := p.Destroy(); res != Success {
			t.Errorf("%s: Destroy = %d, want Success (nothing to do)", name, res)
		}
		if res := p.AddNameExpression("k"); res != InvalidProgram {
			t.Errorf("%s: AddNameExpression = %d, want InvalidProgram", name, res)
		}
		if res := p.Compile([]string{"-arch=sm_80"}); res != InvalidProgram {
			t.Errorf("%s: Compile = %d, want InvalidProgram", name, res)
		}
		if s, res := p.LoweredName("k", 4096); s != "" || res != InvalidProgram {
			t.Errorf("%s: LoweredName = %q, %d, want InvalidProgram", name, s, res)
		}
		for _, read := range []func(*Program, int) ([]byte, error){(*Program).Log, (*Program).PTX, (*Program).CUBIN} {
			if b, err := read(p, 1<<20); b != nil || err == nil || !strings.Contains(err.Error(), "no program (nil or destroyed)") {
				t.Errorf("%s: read = %q, %v", name, b, err)
			}
		}
	}
	if got := l.ErrorText(InvalidProgram, 256); got != "NVRTC_ERROR_INVALID_PROGRAM" {
		t.Errorf("ErrorText(InvalidProgram) = %q", got)
	}
	if got := l.ErrorText(NotCalled, 256); got != "the call could not be made" {
		t.Errorf("ErrorText(NotCalled) = %q", got)
	}
	if s, ok := l.ErrorString(NotCalled, 256); ok {
		t.Errorf("ErrorString(NotCalled) = %q, true: NotCalled is no nvrtcResult", s)
	}
	if s, _ := l.ErrorString(6, 5); s != "NVRTC" {
		t.Errorf("ErrorString(6) with bound 5 = %q, want NVRTC", s)
	}
}

// Without NVRTC (a nil library, or one that is not NVRTC) every call is
// NotCalled and the texts say so, without a panic.
func TestNoNVRTC(t *testing.T) {
	libc := ffi.NewLibrary(ffi.LibraryDesc{Name: "libc", Files: []string{"libc.so.6"}})
	if err := libc.Load(); err != nil {
		t.Skipf("libc.so.6: %v", err)
	}
	for name, l := range map[string]*Lib{"nil Lib": nil, "nil library": New(nil), "libc": New(libc)} {
		if v, res := l.Version(); res != NotCalled || v != [2]int{} {
			t.Errorf("%s: Version = %v, %d, want NotCalled", name, v, res)
		}
		if p, res := l.CreateProgram("x", "x.cu"); p != nil || res != NotCalled {
			t.Errorf("%s: CreateProgram = %v, %d, want NotCalled", name, p, res)
		}
		if got := l.ErrorText(6, 256); got != "nvrtcResult 6" {
			t.Errorf("%s: ErrorText(6) = %q, want nvrtcResult 6", name, got)
		}
		if got := l.ErrorText(NotCalled, 256); got != "the call could not be made" {
			t.Errorf("%s: ErrorText(NotCalled) = %q", name, got)
		}
	}
}

// An NVRTC that misreports (a stand-in built with gcc): a log size of
// 2^62 is refused without allocating it, a program created as NULL is
// InvalidProgram, a NULL lowered name is "".
func TestMisreportingStandIn(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "libnvrtc.so.12")
	standIn(t, lib, `int nvrtcCreateProgram(void **p, const char *s, const char *n, int k, void *h, void *i) { *p = s[0] == '0' ? (void *)0 : (void *)1; return 0; }
int nvrtcDestroyProgram(void **p) { *p = 0; return 0; }
int nvrtcGetProgramLogSize(void *p, unsigned long *n) { *n = 1UL << 62; return 0; }
int nvrtcGetProgramLog(void *p, char *b) { return 0; }
int nvrtcGetPTXSize(void *p, unsigned long *n) { *n = 0; return 0; }
int nvrtcGetLoweredName(void *p, const char *e, const char **n) { *n = 0; return 0; }
`)
	l := New(ffi.NewLibrary(ffi.LibraryDesc{Name: "NVRTC stand-in", Files: []string{lib}}))
	if p, res := l.CreateProgram("0", "null.cu"); p != nil || res != InvalidProgram {
		t.Errorf("a NULL program: %v, %d; want InvalidProgram", p, res)
	}
	p, res := l.CreateProgram("1", "one.cu")
	if res != Success {
		t.Fatalf("CreateProgram: %d", res)
	}
	defer p.Destroy()
	if b, err := p.Log(1 << 30); b != nil || err == nil || err.Error() != "nvrtcGetProgramLogSize reports 4611686018427387904 bytes, more than the 1073741824 read" {
		t.Errorf("Log of 2^62 bytes: %d bytes, %v", len(b), err)
	}
	if b, err := p.PTX(1 << 30); b != nil || err != nil {
		t.Errorf("PTX of 0 bytes: %q, %v; want nil, nil", b, err)
	}
	if b, err := p.CUBIN(1 << 30); b != nil || err == nil || err.Error() != "nvrtcGetCUBINSize: the call could not be made" {
		t.Errorf("CUBIN of a stand-in without it: %q, %v", b, err)
	}
	if s, res := p.LoweredName("k", 4096); s != "" || res != Success {
		t.Errorf("a NULL lowered name: %q, %d; want \"\", Success", s, res)
	}
}

// standIn builds a shared library from C source at path, or skips t.
func standIn(t *testing.T, path, src string) {
	t.Helper()
	if err := os.WriteFile(path+".c", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", path, path+".c").CombinedOutput(); err != nil {
		t.Skipf("cannot build the stand-in library with %s: %v %s", cc, err, out)
	}
}
