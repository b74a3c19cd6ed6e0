package cugentest

import (
	_ "embed"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cugen/cugen/ffi"
)

// standinSource is the stand-in driver: testdata/cudastandin.c.
//
//go:embed testdata/cudastandin.c
var standinSource []byte

// StandinEnv names the stand-in driver built for a platform whose test
// binaries cannot run a C compiler (make test-windows sets it: the tests
// run under wine): a path, or "search" when the stand-in lies where the
// platform's search finds the driver (nvcuda.dll beside the test binary).
const StandinEnv = "CUGEN_STANDIN_DRIVER"

// StandinMarker is the symbol only the stand-in driver exports.
const StandinMarker = "cugen_standin"

// StandinDriver returns the environment ("NAME=value", for [RunChild])
// under which a fresh test process loads the stand-in CUDA driver of
// testdata/cudastandin.c: one device, contexts, and memory kept in host
// memory, with the driver's rules for them (its comment lists them). It
// builds it with cc as libcuda.so.1 and names it by CUGEN_LIBCUDA, or
// takes it from [StandinEnv]. It skips tb without a C compiler (and on
// Windows, where the test cannot build it, unless StandinEnv is set).
func StandinDriver(tb testing.TB) []string {
	tb.Helper()
	switch v := os.Getenv(StandinEnv); v {
	case "search":
		return []string{"CUGEN_LIBCUDA="}
	case "":
	default:
		return []string{"CUGEN_LIBCUDA=" + v}
	}
	if runtime.GOOS != "linux" {
		tb.Skipf("no stand-in driver: set %s to one built from cugentest/testdata/cudastandin.c (make test-windows does)", StandinEnv)
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		tb.Skipf("no C compiler (%s) to build the stand-in driver", cc)
	}
	dir := tb.TempDir()
	src, lib := filepath.Join(dir, "cudastandin.c"), filepath.Join(dir, "libcuda.so.1")
	if err := os.WriteFile(src, standinSource, 0o644); err != nil {
		tb.Fatal(err)
	}
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-O1", "-o", lib, src).CombinedOutput(); err != nil {
		tb.Fatalf("building the stand-in driver: %v\n%s", err, out)
	}
	return []string{"CUGEN_LIBCUDA=" + lib}
}

// NeedStandin fails tb unless lib, loaded, is the stand-in driver: a test
// that asserts the stand-in's answers must never run them against a real
// driver. With StandinEnv "search" on Windows, it must have loaded as
// nvcuda.dll, found by the search.
func NeedStandin(tb testing.TB, lib *ffi.Library) {
	tb.Helper()
	if err := lib.Load(); err != nil {
		tb.Fatalf("the stand-in driver did not load: %v", err)
	}
	if _, err := lib.Lookup(StandinMarker); err != nil {
		tb.Fatalf("the driver loaded from %s is not the stand-in (no %s)", lib.Path(), StandinMarker)
	}
	if os.Getenv(StandinEnv) == "search" && runtime.GOOS == "windows" && !strings.EqualFold(filepath.Base(lib.Path()), "nvcuda.dll") {
		tb.Fatalf("the stand-in loaded from %s, not as nvcuda.dll by the Windows search", lib.Path())
	}
	tb.Logf("stand-in driver: %s", lib.Path())
}
