package cugentest

import (
	"debug/elf"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/ffi/ffiimpl"
)

// RequireAllEnv is the environment variable that makes a missing symbol a
// failure (cugen's own CI sets it) instead of a log line.
const RequireAllEnv = "CUGEN_REQUIRE_ALL_SYMBOLS"

// Symbols resolves every procedure of lib (lib.Procs: those the package
// made with NewProc), and the per-thread-default-stream variant of those
// that have one, and logs the counts. If lib cannot be loaded it skips
// the test, or fails it, as [NeedLibrary] decides.
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
		var le *ffi.LoadError
		file, ok := "", false
		if errors.As(err, &le) {
			file, ok = le.Unopenable()
		}
		if !ok {
			NeedLibrary(t, err)
		}
		t.Logf("cannot open the library (%v): reading the dynamic symbol table of %s instead", err, file)
		exportedFuncs(t, file, procs, unexported)
		return
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

// exportedFuncs checks that every procedure is a function the ELF shared
// object file exports (a defined, global or weak, function symbol of its
// dynamic symbol table: a plain or GNU indirect function), except those
// known to be absent.
func exportedFuncs(t testing.TB, file string, procs []*ffiimpl.Proc, unexported []string) {
	t.Helper()
	f, err := elf.Open(file)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	exported := map[string]bool{}
	for _, s := range syms {
		bind := elf.ST_BIND(s.Info)
		// STT_LOOS is STT_GNU_IFUNC: a function resolved at load (libm's cos).
		if typ := elf.ST_TYPE(s.Info); (typ == elf.STT_FUNC || typ == elf.STT_LOOS) && s.Section != elf.SHN_UNDEF && (bind == elf.STB_GLOBAL || bind == elf.STB_WEAK) {
			name, _, _ := strings.Cut(s.Name, "@") // versioned: sym@@VER
			exported[name] = true
		}
	}
	var missing []string
	for _, p := range procs {
		if !exported[p.Name()] && !slices.Contains(unexported, p.Name()) {
			missing = append(missing, p.Name())
		}
	}
	t.Logf("%d of %d symbols are functions %s exports", len(procs)-len(missing), len(procs), file)
	if len(missing) > 0 {
		t.Errorf("%d symbols not exported by %s: %s", len(missing), file, strings.Join(missing, ", "))
	}
}
