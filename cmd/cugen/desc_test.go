package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/internal/testset"
)

// mylibDir is the fixture of "Bind your own library" (docs/generating.md): a C
// library of a project's own (mylib.h, mylib.c), its description
// (mylib.json) and a test calling it through the generated package
// (use_test.go).
const mylibDir = "testdata/mylib"

// TestGenDesc: cugen gen -desc generates a package for a library cugen
// does not describe, beside cu and cudart, whose Stream it takes; built
// from mylib.c with gcc, the library is called through it on the CPU: the
// out-parameter is a result, the status an error with the library's text,
// the logger a Go func.
func TestGenDesc(t *testing.T) {
	set := testset.Set(t, "12.4")
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skipf("no gcc to build the fixture library (make deps installs it; make test runs this test): %v", err)
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	writeModule(t, mod, root)

	code, stdout, stderr := cugen(t, "gen", "-desc", filepath.Join(mylibDir, "mylib.json"),
		"-headers", set.Dir, "-with", mylibDir, "-out", filepath.Join(mod, "out"))
	if code != 0 {
		t.Fatalf("gen -desc: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "mylib 7/7 bound, 0 skipped") || !strings.Contains(stdout, "cudart ") || !strings.Contains(stdout, "cu ") {
		t.Errorf("gen -desc printed %q; want cu, cudart and mylib 7/7 bound", stdout)
	}
	// Only the three packages: the description replaces cugen's own.
	entries, err := os.ReadDir(filepath.Join(mod, "out"))
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, e := range entries {
		if e.IsDir() {
			pkgs = append(pkgs, e.Name())
		}
	}
	if strings.Join(pkgs, " ") != "cu cudart mylib" {
		t.Errorf("out holds %v; want [cu cudart mylib]", pkgs)
	}
	funcs := readFile(t, filepath.Join(mod, "out/mylib/funcs.go"))
	for _, want := range []string{
		`cudart "example.com/mylibuse/out/cudart"`,
		"func GetVersion() (version int32, err error)",
		"func Sum(x *float32, n int32) (out float32, err error)",
		"func Scale(x *float32, n int32, alpha float32, stream cudart.Stream) error",
		"func LastStream() (stream cudart.Stream, err error)",
		"func SetLogger(fn func(msg *byte)) (err error)",
		"func GetErrorString(status Status) (ret string)",
	} {
		if !strings.Contains(funcs, want) {
			t.Errorf("out/mylib/funcs.go lacks %q", want)
		}
	}
	audit := readFile(t, filepath.Join(mod, "out/mylib/audit.txt"))
	for _, want := range []string{
		`out mylibGetVersion.version: result (documented \param[out])`,
		"array mylibSum.x: n elements, a pointer to the first (count in parameter n)",
		"callback mylibSetLogger.fn: Go func through one static trampoline and ffiimpl's handle table (registered with no unregister function: the Go func is kept for the rest of the process)",
	} {
		if !strings.Contains(audit, want) {
			t.Errorf("out/mylib/audit.txt lacks %q:\n%s", want, audit)
		}
	}
	load := readFile(t, filepath.Join(mod, "out/mylib/load.go"))
	if !strings.Contains(load, `EnvVar:   "MYLIB_LIBRARY"`) || !strings.Contains(load, `Files:    []string{"libmylib.so.1", "libmylib.so"}`) {
		t.Errorf("out/mylib/load.go does not load libmylib.so.1 or libmylib.so through MYLIB_LIBRARY:\n%s", load)
	}

	so := filepath.Join(t.TempDir(), "libmylib.so.1")
	if out, err := exec.Command(gcc, "-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", so, filepath.Join(mylibDir, "mylib.c")).CombinedOutput(); err != nil {
		t.Fatalf("gcc mylib.c: %v\n%s", err, out)
	}
	if err := os.MkdirAll(filepath.Join(mod, "use"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "use/use_test.go"), []byte(readFile(t, filepath.Join(mylibDir, "use_test.go"))), 0o644); err != nil {
		t.Fatal(err)
	}
	// The generated package's own test (its symbols resolve in the
	// library) and use_test.go, with vet.
	cmd := exec.Command(gobin, "test", "-count=1", "./out/mylib", "./use")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "MYLIB_LIBRARY="+so, "CUGEN_REQUIRE_ALL_SYMBOLS=1")
	out, err := cmd.CombinedOutput()
	t.Logf("go test ./out/mylib ./use:\n%s", out)
	if err != nil {
		t.Fatalf("the generated package does not build or its use fails: %v", err)
	}
}

// writeModule writes a module example.com/mylibuse in dir that uses this
// checkout of cugen (as examples/downstream does), with its go.sum.
func writeModule(t *testing.T, dir, root string) {
	t.Helper()
	gomod := readFile(t, filepath.Join(root, "go.mod"))
	gomod = strings.Replace(gomod, "module github.com/cugen/cugen", "module example.com/mylibuse", 1)
	gomod += "\nrequire github.com/cugen/cugen v0.0.0\n\nreplace github.com/cugen/cugen => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), []byte(readFile(t, filepath.Join(root, "go.sum"))), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGenDescErrors: a description file that is broken, or does not
// match the headers, fails gen -desc with exit 1 and one line naming the
// file and the field; nothing is written.
func TestGenDescErrors(t *testing.T) {
	good := readFile(t, filepath.Join(mylibDir, "mylib.json"))
	swap := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("mylib.json lacks %q", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	// Refused before the headers are read.
	for _, c := range []struct{ name, json, want string }{
		{"unknown field", swap(`"envVar"`, `"env"`), `unknown field "env"`},
		{"bad package", swap(`"package": "mylib"`, `"package": "my/lib"`), `field package: "my/lib" is not a Go package name`},
		{"not json", good[:len(good)/2], "not JSON: the file ends inside the description"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "mylib.json")
			if err := os.WriteFile(file, []byte(c.json), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "out")
			code, _, stderr := cugen(t, "gen", "-desc", file, "-headers", "no-such-dir", "-out", out)
			if code != 1 || !strings.HasPrefix(stderr, file) || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit 1 and one line: %s: ...%s", code, stderr, file, c.want)
			}
			untouched(t, out)
		})
	}
	t.Run("with -ir", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		code, _, stderr := cugen(t, "gen", "-desc", filepath.Join(mylibDir, "mylib.json"), "-ir", "x.json", "-out", out)
		if code != 1 || !strings.Contains(stderr, "-desc goes with -headers") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
		untouched(t, out)
	})
	// Refused once the headers are parsed: the file does not describe them.
	set := testset.Set(t, "12.4")
	for _, c := range []struct{ name, json, want string }{
		{"header not found", swap(`"headers": ["mylib.h"]`, `"headers": ["mylb.h"]`), "field headers[0]: mylb.h is not in the header directories"},
		{"status not an enum", swap(`"status": "mylibStatus_t"`, `"status": "mylibLogFn"`), "field status: mylibLogFn is not an enum the headers declare"},
		{"success not 0", swap(`"success": "MYLIB_STATUS_SUCCESS"`, `"success": "MYLIB_STATUS_INVALID_VALUE"`), "field success: MYLIB_STATUS_INVALID_VALUE is 1: a generated package treats status 0, and only 0, as success"},
		{"override of no function", swap(`"mylibSetLogger": ""`, `"mylibSetLoger": ""`), "field overrides.registeredCallbacks: mylibSetLoger is not a function of mylib's headers"},
		{"no error string function", swap(`"errorString": "mylibGetErrorString"`, `"errorString": "mylibErrorString"`), "field errorString: mylibErrorString is not a function of mylib's headers"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "mylib.json")
			if err := os.WriteFile(file, []byte(c.json), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "out")
			code, _, stderr := cugen(t, "gen", "-desc", file, "-headers", set.Dir, "-with", mylibDir, "-out", out, "-importpath", "example.com/out")
			if code != 1 || !strings.HasPrefix(stderr, file+": "+strings.SplitN(c.want, ":", 2)[0]) || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit 1 and one line: %s: %s", code, stderr, file, c.want)
			}
			untouched(t, out)
		})
	}
}
