package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cugen/cugen/internal/testset"
)

// tinyIR is parser/ir's tiny real IR (cugen ir of a few lines of headers).
func tinyIR(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../../parser/ir/testdata/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// editIR applies edit to the tiny IR as generic JSON values.
func editIR(t *testing.T, edit func(d map[string]any)) []byte {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(tinyIR(t), &d); err != nil {
		t.Fatal(err)
	}
	edit(d)
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func jsonAt(v any, path ...any) map[string]any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v.(map[string]any)
}

func namedType(name string) map[string]any {
	return map[string]any{"kind": "named", "c": name, "name": name, "size": 8, "align": 4}
}

// cugenChild runs this test binary as cugen (TestMain) in a process of its
// own, so that a crash (a stack overflow, running out of memory) fails the
// case instead of the test binary; 60 s is a hang ceiling.
func cugenChild(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "CUGEN_TEST_AS_CUGEN=1")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("cugen %s: still running after 60 s", strings.Join(args, " "))
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), o.String(), e.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, o.String(), e.String()
}

// TestGenBadIR: cugen gen -ir of a hostile IR (issue 24) is exit 1 and one
// line naming the file and the entry, with nothing written to -out. Before:
// out of memory (the 240 MB bomb, /dev/zero, a 5 GB sparse file), nil
// pointer panics (nulls), fatal stack overflow (a struct containing
// itself), exit 0 with a package that does not build (a typedef cycle) or
// that runs the IR's code (a macro value), exit 0 with the function dropped
// (an unknown library key), an 85 KB gofmt error holding the whole file (a
// name with a slash).
func TestGenBadIR(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(`{"functions":[`))
	zw.Write(bytes.Repeat([]byte("{},"), 1_000_000))
	zw.Write([]byte("{}]}"))
	zw.Close()
	sparse := filepath.Join(dir, "sparse.json")
	if err := os.WriteFile(sparse, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 5<<30); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, file, want string }{
		{"empty-functions", file("bomb.json.gz", z.Bytes()), "more than 50000 functions"},
		{"dev-zero", "/dev/zero", "/dev/zero: not a regular file"},
		{"sparse", sparse, "5368709120 bytes: larger than the 64 MiB an IR file may have"},
		{"param-type-null", file("a.json", editIR(t, func(d map[string]any) { jsonAt(d, "functions", 0, "params", 0)["type"] = nil })),
			"function cuDeviceGetCount: parameter 1 (count): type is null"},
		{"result-null", file("b.json", editIR(t, func(d map[string]any) { jsonAt(d, "functions", 0)["result"] = nil })),
			"function cuDeviceGetCount: result is null"},
		{"elem-null", file("c.json", editIR(t, func(d map[string]any) { jsonAt(d, "functions", 0, "params", 0, "type")["elem"] = nil })),
			"function cuDeviceGetCount: parameter 1 (count): int *: pointer element is null"},
		{"struct-self", file("d.json", editIR(t, func(d map[string]any) {
			r := jsonAt(d, "records", 0)
			r["size"] = 12
			jsonAt(r, "fields", 1)["type"] = namedType("CUpair")
		})), "record CUpair: contains itself by value: struct CUpair_st -> CUpair (field b) -> struct CUpair_st"},
		{"typedef-cycle", file("e.json", editIR(t, func(d map[string]any) {
			jsonAt(d, "typedefs", 3)["type"] = namedType("CUpair3")
			d["typedefs"] = append(d["typedefs"].([]any), map[string]any{"name": "CUpair3", "type": namedType("CUpair2"), "library": "driver", "pos": map[string]any{"file": "cuda.h", "line": 5}})
		})), "typedef CUpair2: contains itself by value: CUpair2 -> CUpair3 -> CUpair2"},
		{"name-slash", file("f.json", editIR(t, func(d map[string]any) { jsonAt(d, "functions", 0)["name"] = "cuDevice/GetCount" })),
			`function 1: name: "cuDevice/GetCount" is not a C identifier`},
		{"unknown-library", file("g.json", editIR(t, func(d map[string]any) { jsonAt(d, "functions", 1)["library"] = "bogus" })),
			`function cuPairGet: library "bogus" is not one cugen describes (driver, runtime,`},
		{"macro-code", file("h.json", editIR(t, func(d map[string]any) {
			jsonAt(d, "macros", 1)["value"] = `8 ); func init() { panic("code from the IR") }; const ( y = 2`
		})),
			`macro CU_PAIR_SIZE: value "8 ); func init() { panic(\"code from the ": not a literal of kind int`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, _, stderr := cugenChild(t, "gen", "-ir", c.file, "-out", out, "-importpath", "example.com/out")
			if code != 1 {
				t.Fatalf("exit %d, want 1; stderr %.500q", code, stderr)
			}
			want := c.want
			if !strings.HasPrefix(want, c.file) {
				want = c.file + ": " + want
			}
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr %.500q, want %q", stderr, want)
			}
			if n := strings.Count(stderr, "\n"); n != 1 || len(stderr) > 400 {
				t.Errorf("stderr of %d lines, %d bytes; want one short line: %.500q", n, len(stderr), stderr)
			}
			untouched(t, out)
		})
	}
	t.Run("params-null", func(t *testing.T) {
		// "params": null is a function without parameters, what Encode
		// writes for one (cuda13's IR has one): valid.
		f := file("i.json", editIR(t, func(d map[string]any) { jsonAt(d, "functions", 1)["params"] = nil }))
		out := filepath.Join(t.TempDir(), "out")
		if code, _, stderr := cugenChild(t, "gen", "-ir", f, "-out", out, "-importpath", "example.com/out"); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	})
}

// TestGenSparseManifest: a 5 GB sparse api.txt in a package of -out (the
// API diff reads it) is a warning naming it, refused by its size before it
// is read; the run goes on. Before: out of memory in 0.1 s (the 64 MB
// bound was checked after the read).
func TestGenSparseManifest(t *testing.T) {
	f := filepath.Join(t.TempDir(), "ir.json")
	if err := os.WriteFile(f, tinyIR(t), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := cugenChild(t, "gen", "-ir", f, "-out", out, "-importpath", "example.com/out"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	api := filepath.Join(out, "cu", "api.txt")
	if err := os.Truncate(api, 5<<30); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := cugenChild(t, "gen", "-ir", f, "-out", out, "-importpath", "example.com/out")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := api + ": 5368709120 bytes, more than an API manifest can be"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	if st, err := os.Stat(api); err != nil || st.Size() > 1<<20 {
		t.Errorf("api.txt not rewritten: %v, %v", st.Size(), err)
	}
}

// TestIRLib: ir -lib parses only the named libraries' headers beside the
// driver's and the runtime's (the IR of cuDNN beside a set's own); an
// unknown name is a usage error.
func TestIRLib(t *testing.T) {
	set := testset.Set(t, "12.4")
	nccl := ""
	for i, h := range set.With {
		if h.Name == "libnccl-dev" {
			nccl = set.WithDirs[i]
		}
	}
	code, stdout, stderr := cugen(t, "ir", "-headers", set.Dir, "-with", nccl, "-lib", "nccl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for name, want := range map[string]bool{`"ncclAllReduce"`: true, `"cuInit"`: true, `"cudaMalloc"`: true, `"cublasCreate_v2"`: false, `"nvrtcVersion"`: false} {
		if strings.Contains(stdout, name) != want {
			t.Errorf("ir -lib nccl: %s in the IR: %v, want %v", name, !want, want)
		}
	}
	if code, _, stderr := cugen(t, "ir", "-headers", set.Dir, "-lib", "nosuch"); code != 2 || !strings.Contains(stderr, `unknown library "nosuch"`) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("ir -lib nosuch: exit %d, %q", code, stderr)
	}
}
