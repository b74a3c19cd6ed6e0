//go:build linux && (amd64 || arm64)

package doctor

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// fakeDriver is a stand-in libcuda whose answers the defines choose:
// VERSION (cuDriverGetVersion), INIT (cuInit's result), COUNT
// (cuDeviceGetCount), NAME (every device's name) and, with EDGE, a
// cuGetErrorString whose text has no NUL before an unreadable page.
const fakeDriver = `#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
int cuDriverGetVersion(int *v) { *v = VERSION; return 0; }
int cuInit(unsigned flags) { return INIT; }
int cuDeviceGetCount(int *n) { *n = COUNT; return 0; }
int cuDeviceGet(int *d, int i) { *d = i; return 0; }
int cuDeviceGetName(char *name, int len, int dev) { snprintf(name, len, NAME, dev); return 0; }
int cuGetErrorName(int r, const char **s) { *s = r == 100 ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_UNKNOWN"; return 0; }
static const char *edge(void) {
	static char *p;
	if (!p) {
		long pg = sysconf(_SC_PAGESIZE);
		char *m = mmap(0, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		memset(m, 'X', pg);
		mprotect(m + pg, pg, PROT_NONE);
		p = m + pg - 16;
	}
	return p;
}
int cuGetErrorString(int r, const char **s) {
#ifdef EDGE
	*s = edge();
#else
	*s = "no CUDA-capable device is detected";
#endif
	return 0;
}
`

// driverStandIn builds the stand-in driver with the defines and points
// CUGEN_LIBCUDA at it.
func driverStandIn(t *testing.T, defines map[string]string) {
	t.Helper()
	def := map[string]string{"VERSION": "12040", "INIT": "0", "COUNT": "2", "NAME": `"Fake GPU %d"`}
	for k, v := range defines {
		def[k] = v
	}
	src := ""
	for k, v := range def {
		src += "#define " + k + " " + v + "\n"
	}
	lib := filepath.Join(t.TempDir(), "libcuda.so.1")
	standIn(t, lib, src+fakeDriver)
	t.Setenv("CUGEN_LIBCUDA", lib)
}

// TestFakeDriver: the driver's answers doctor must not believe. A version
// of 0 or -1 (no CUDA version), a device count of -5 or 2^31-1 (more than
// any machine has) are errors, with the driver's path; at most 64 devices
// are listed, then how many more. Before, doctor printed "CUDA 0.0",
// "devices: -5" and "ok: no problems found", exit 0; and for 2^31-1
// devices a line each. A sane driver is "ok".
func TestFakeDriver(t *testing.T) {
	for _, c := range []struct {
		name    string
		defines map[string]string
		lines   []string // regular expressions, each matching a line
		errors  int
	}{
		{"sane", nil, []string{`driver: version: CUDA 12\.4 \(cuDriverGetVersion\)`, `driver: devices: 2`, `driver: device 1: Fake GPU 1`, `ok: no problems found`}, 0},
		{"version0", map[string]string{"VERSION": "0"}, []string{
			`driver: version: cuDriverGetVersion reports 0, which is no CUDA version`,
			`error: driver: cuDriverGetVersion reports 0, which is no CUDA version: the library at .*/libcuda\.so\.1 is broken or is no NVIDIA driver; reinstall the driver`}, 1},
		{"version-1", map[string]string{"VERSION": "-1"}, []string{`driver: version: cuDriverGetVersion reports -1, which is no CUDA version`}, 1},
		{"count-5", map[string]string{"COUNT": "-5"}, []string{
			`driver: devices: cuDeviceGetCount reports -5, which is no device count`,
			`error: driver: cuDeviceGetCount reports -5, which is no device count: the driver library at .* is broken or is no NVIDIA driver; reinstall the driver`}, 1},
		{"countMax", map[string]string{"COUNT": "2147483647"}, []string{
			`driver: devices: 2147483647`, `driver: device 63: Fake GPU 63`, `driver: devices: 2147483583 more not listed`,
			`error: driver: cuDeviceGetCount reports 2147483647 devices, more than any machine has \(at most 1024\): .*`}, 1},
		// A device name that would forge a line of doctor's own is quoted.
		{"nameNewline", map[string]string{"NAME": `"GPU\nok: no problems found"`}, []string{`driver: device 0: "GPU\\nok: no problems found"`, `ok: no problems found`}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			driverStandIn(t, c.defines)
			rep, lines := doctor(t, Options{Majors: []int{12}, Libs: []string{"driver"}})
			for _, re := range c.lines {
				hasLine(t, lines, re)
			}
			if rep.Errors != c.errors {
				t.Errorf("Errors = %d, want %d", rep.Errors, c.errors)
			}
			if c.errors > 0 {
				for _, l := range lines {
					if l == "ok: no problems found" {
						t.Error(`an implausible driver is "ok"`)
					}
				}
			}
			if len(lines) > 80 {
				t.Errorf("%d lines printed", len(lines))
			}
		})
	}
}

// TestErrorTextAtUnreadablePage: a driver whose cuGetErrorString text has
// no NUL before an unreadable page: doctor prints the text up to the page
// (16 bytes). Before, it died with "fatal error: fault" in cStrlen. In a
// fresh process, which such a fault would kill.
func TestErrorTextAtUnreadablePage(t *testing.T) {
	if !inChild(t) {
		return
	}
	driverStandIn(t, map[string]string{"INIT": "100", "EDGE": "1"})
	rep, lines := doctor(t, Options{Majors: []int{12}, Libs: []string{"driver"}})
	hasLine(t, lines, regexp.QuoteMeta("driver: devices: none: cuInit failed: CUDA_ERROR_NO_DEVICE ("+strings.Repeat("X", 16)+")"))
	if rep.Errors != 1 {
		t.Errorf("Errors = %d, want 1 (no device)", rep.Errors)
	}
}

// TestControlCharsQuoted: a CUDA_PATH and a CUGEN_LIBCUDA holding a
// newline are printed quoted or escaped: every line printed is one of
// doctor's (a label, then ": "), none forged. Before, the values were
// printed raw, and "ok: no problems found" could be made to appear.
func TestControlCharsQuoted(t *testing.T) {
	if !inChild(t) {
		return
	}
	dir := isolate(t)
	forged := "\nok: no problems found\n"
	t.Setenv("CUDA_PATH", filepath.Join(dir, "cuda"+forged))
	t.Setenv("CUGEN_LIBCUDA", filepath.Join(dir, "nowhere"+forged+"libcuda.so.1"))
	_, lines := doctor(t, Options{Majors: []int{12}, Libs: []string{"nvrtc", "driver"}})
	label := regexp.MustCompile(`^(driver|cuda12/nvrtc|launcher|error|note): `)
	for _, l := range lines {
		if !label.MatchString(l) {
			t.Errorf("a line not of doctor's: %q", l)
		}
	}
	hasLine(t, lines, regexp.QuoteMeta(`error: driver: CUGEN_LIBCUDA="`+dir+`/nowhere\nok: no problems found\nlibcuda.so.1": `)+".*")
	hasLine(t, lines, `cuda12/nvrtc: .*`+regexp.QuoteMeta(dir+`/cuda\nok: no problems found\n/lib64`)+".*")
}

// TestImportsNoFFIImpl: package ffiimpl is for generated code only:
// neither library nor doctor depends on it (they call C through package
// ffi's public API). Before, library/ffi.go imported it for the version
// checks and doctor called C through its Frames by hand.
func TestImportsNoFFIImpl(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		if goTool, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command")
		}
	}
	out, err := exec.Command(goTool, "list", "-deps", "github.com/cugen/cugen/library", "github.com/cugen/cugen/internal/doctor").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "github.com/cugen/cugen/ffi\n") {
		t.Fatalf("go list -deps does not list package ffi:\n%s", out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasSuffix(p, "/ffiimpl") {
			t.Errorf("library or internal/doctor depends on %s", p)
		}
	}
}
