//go:build linux && (amd64 || arm64)

package reliability

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/generated/cuda12/cu"
)

// fakeDriverEdge is a stand-in driver whose cuGetErrorString text has no
// NUL before an unreadable (PROT_NONE) page: 16 bytes of 'X' at the end of
// a readable page.
const fakeDriverEdge = `#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
int cuDriverGetVersion(int *v) { *v = 12040; return 0; }
int cuInit(unsigned flags) { return 100; }
int cuGetErrorString(int r, const char **s) {
	static char *p;
	if (!p) {
		long pg = sysconf(_SC_PAGESIZE);
		char *m = mmap(0, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		memset(m, 'X', pg);
		mprotect(m + pg, pg, PROT_NONE);
		p = m + pg - 16;
	}
	*s = p;
	return 0;
}
`

// TestErrorStringAtUnreadablePage: the generated Result.Error (through
// cuGetErrorString and ffiimpl.GoString) of a driver whose text runs into
// an unreadable page returns the text up to the page. Before, the process
// died: "fatal error: fault" in ffiimpl's cStrlen.
func TestErrorStringAtUnreadablePage(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "libcuda.so.1")
	if !isChild(t) {
		src := lib + ".c"
		os.WriteFile(src, []byte(fakeDriverEdge), 0o644)
		cc := os.Getenv("CC")
		if cc == "" {
			cc = "gcc"
		}
		if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
			t.Skipf("cannot build the stand-in library with %s: %v %s", cc, err, out)
		}
		runChild(t, "CUGEN_LIBCUDA="+lib)
		return
	}
	err := cu.Init(0)
	want := "cuInit: CUDA_ERROR_NO_DEVICE: " + strings.Repeat("X", 16)
	if err == nil || err.Error() != want {
		t.Fatalf("cu.Init = %v, want %q", err, want)
	}
	if got := cu.ErrorNoDevice.Error(); got != "CUDA_ERROR_NO_DEVICE: "+strings.Repeat("X", 16) {
		t.Errorf("Result.Error = %q", got)
	}
}

// fakeDriverBadPointers is a stand-in driver whose cuGetErrorString hands
// out pointers no string can be read from: 0x10 for
// CUDA_ERROR_INVALID_VALUE (1), the start of a PROT_NONE page for
// CUDA_ERROR_OUT_OF_MEMORY (2), the start of an unmapped page for
// CUDA_ERROR_NOT_INITIALIZED (3).
const fakeDriverBadPointers = `#include <sys/mman.h>
#include <unistd.h>
int cuDriverGetVersion(int *v) { *v = 12040; return 0; }
int cuInit(unsigned flags) { return 1; }
int cuGetErrorString(int r, const char **s) {
	long pg = sysconf(_SC_PAGESIZE);
	char *m;
	switch (r) {
	case 1:
		*s = (const char *)0x10;
		return 0;
	case 2:
		m = mmap(0, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		*s = m;
		return 0;
	case 3:
		m = mmap(0, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		munmap(m, pg);
		*s = m;
		return 0;
	}
	*s = "ok";
	return 0;
}
`

// TestErrorStringBadPointer: the generated Result.Error of a driver whose
// error-string function returns 0x10, a PROT_NONE page or an unmapped page
// falls back to the header's text, with no panic or fault. Was (issue
// 37): cu.Result.Error() panicked, a nil dereference in ffi.CStringLen,
// which trusted the page a string starts in.
func TestErrorStringBadPointer(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "libcuda.so.1")
	if !isChild(t) {
		src := lib + ".c"
		os.WriteFile(src, []byte(fakeDriverBadPointers), 0o644)
		cc := os.Getenv("CC")
		if cc == "" {
			cc = "gcc"
		}
		if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
			t.Skipf("cannot build the stand-in library with %s: %v %s", cc, err, out)
		}
		runChild(t, "CUGEN_LIBCUDA="+lib)
		return
	}
	if err := cu.Init(0); err == nil || !strings.HasPrefix(err.Error(), "cuInit: CUDA_ERROR_INVALID_VALUE: This indicates that one or more of the parameters") {
		t.Errorf("cu.Init = %v, want CUDA_ERROR_INVALID_VALUE with the header's text", err)
	}
	for _, r := range []cu.Result{cu.ErrorInvalidValue, cu.ErrorOutOfMemory, cu.ErrorNotInitialized} {
		if got, want := r.Error(), r.String()+": "+r.Message(); got != want || !strings.Contains(got, "This indicates") && !strings.Contains(got, "The API call") {
			t.Errorf("Result(%d).Error() = %q, want the header's text", int(r), got)
		} else {
			t.Log(got)
		}
	}
}
