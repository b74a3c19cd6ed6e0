package cugentest

import (
	"os"
	"strings"
	"testing"

	"github.com/cugen/cugen/ffi/ffiimpl"
)

// RequireAllEnv is the environment variable that makes a missing symbol a
// failure (cugen's own CI sets it) instead of a log line.
const RequireAllEnv = "CUGEN_REQUIRE_ALL_SYMBOLS"

// Symbols resolves every procedure of lib (lib.Procs: those the package
// made with NewProc), and the per-thread-default-stream variant of those
// that have one, and logs the counts. It
// skips the test if lib cannot be loaded.
//
// A library older than the headers may lack their newest functions, so a
// missing symbol is logged, and fails the test only when RequireAllEnv is
// "1" and version (the library's own version function, nil for a package
// that has none) reports a library at least as new as headerVersion.
//
// unexported names functions the headers declare but the library is known
// not to export (library.Desc.Unexported): their absence is logged, not
// counted as missing.
func Symbols(t testing.TB, lib *ffiimpl.Library, version func() (int32, error), headerVersion int32, unexported ...string) {
	t.Helper()
	procs := lib.Procs()
	if err := lib.Load(); err != nil {
		t.Skipf("library not found: %v", err)
	}
	known := make(map[string]bool)
	for _, n := range unexported {
		known[n] = true
	}
	var missing []string
	absent := 0
	for _, p := range procs {
		if _, err := p.Addr(); err != nil {
			if known[p.Name()] {
				absent++
				continue
			}
			missing = append(missing, err.Error())
		}
	}
	if absent > 0 {
		t.Logf("%d of the %d symbols the headers declare but the library is known not to export are absent", absent, len(unexported))
	}
	t.Logf("%d of %d symbols resolve in %s", len(procs)-len(missing)-absent, len(procs), lib.Path())
	perThread := 0
	for _, p := range procs {
		if p.PerThreadName() == "" {
			continue
		}
		perThread++
		if _, err := lib.Lookup(p.PerThreadName()); err != nil {
			missing = append(missing, err.Error())
		}
	}
	t.Logf("%d per-thread-default-stream variants checked", perThread)
	if len(missing) == 0 {
		return
	}
	report := t.Logf
	if version != nil {
		v, err := version()
		t.Logf("library version %d, headers %d (%v)", v, headerVersion, err)
		if os.Getenv(RequireAllEnv) == "1" && err == nil && v >= headerVersion {
			report = t.Errorf
		}
	}
	report("%d symbols missing:\n%s", len(missing), strings.Join(missing, "\n"))
}
