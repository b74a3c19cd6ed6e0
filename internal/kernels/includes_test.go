package kernels

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/internal/bounded"
)

// writeTree writes files (path -> text) under a new directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// cugen reads the includes by its rule: quoted from the includer's
// directory then -I, angle brackets from -I, absolute as they stand;
// nested ones too, once each; a relative name it does not find is left to
// NVRTC's built-in headers, an absolute one becomes an #error.
func TestResolveIncludes(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"src/k.cu":       "#include \"local.h\"\n  #  include <lib.h>\n#include \"sub/s.h\"\n#include <cuda_fp16.h>\n#if __has_include(\"opt.h\")\n#endif\n",
		"src/local.h":    "#define LOCAL 1\n#include \"local.h\"\n",
		"src/sub/s.h":    "#include \"deep.h\"\n",
		"src/sub/deep.h": "#define DEEP 1\n",
		"src/deep.h":     "not the one sub/s.h reaches\n",
		"inc/lib.h":      "#pragma once\n",
		"inc/opt.h":      "#define OPT 1\n",
		"inc/local.h":    "shadowed by src/local.h\n",
		"elsewhere.h":    "#define ABS 1\n",
	})
	src := filepath.Join(dir, "src", "k.cu")
	data, _ := os.ReadFile(src)
	hs, err := resolveIncludes(data, src, []string{filepath.Join(dir, "inc")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hs {
		rel, _ := filepath.Rel(dir, h.Path)
		got = append(got, h.Name+"="+filepath.ToSlash(rel))
	}
	want := "local.h=src/local.h lib.h=inc/lib.h sub/s.h=src/sub/s.h opt.h=inc/opt.h deep.h=src/sub/deep.h"
	if strings.Join(got, " ") != want {
		t.Errorf("headers %s\nwant    %s", strings.Join(got, " "), want)
	}
	if hs[0].Text != "#define LOCAL 1\n#include \"local.h\"\n" {
		t.Errorf("local.h: %q", hs[0].Text)
	}

	abs := filepath.Join(dir, "elsewhere.h")
	hs, err = resolveIncludes([]byte("#include \""+abs+"\"\n#include \"/no/such/cugen/file.h\"\n"), filepath.Join(dir, "src", "abs.cu"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 2 || hs[0].Name != abs || hs[0].Text != "#define ABS 1\n" || hs[1].Path != "" || !strings.HasPrefix(hs[1].Text, "#error cugen kernels: /no/such/cugen/file.h: no such file") {
		t.Errorf("absolute includes: %+v", hs)
	}
}

// What cugen refuses, naming the file and line of the #include.
func TestResolveIncludesErrors(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a/u.h": "int a;\n", "b/u.h": "int b;\n",
		"a/x.h": "#include \"../b/y.h\"\n", "b/y.h": "#include \"u.h\"\n",
		"big.h": strings.Repeat("x", bounded.Header+1),
	})
	chain := map[string]string{}
	for i := 0; i <= maxIncludeDepth; i++ {
		chain[filepath.Join("chain", "h"+strconv.Itoa(i)+".h")] = "#include \"h" + strconv.Itoa(i+1) + ".h\"\n"
	}
	chainDir := writeTree(t, chain)
	many := ""
	for i := 0; i <= maxIncludeFiles; i++ {
		many += "#include \"m" + strconv.Itoa(i) + ".h\"\n"
		if err := os.WriteFile(filepath.Join(dir, "m"+strconv.Itoa(i)+".h"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name, src string
		dirs      []string
		want      string
	}{
		{"ambiguous", "#include \"u.h\"\n#include \"x.h\"\n", []string{filepath.Join(dir, "a")},
			`y.h:1: #include "u.h" is ` + filepath.Join(dir, "b", "u.h") + " here but " + filepath.Join(dir, "a", "u.h") + " elsewhere"},
		{"computed", "\n#include HEADER\n", nil, `k.cu:2: #include HEADER: a computed include`},
		{"has_include computed", "#if __has_include(HEADER)\n#endif\n", nil, `k.cu:1: __has_include with a computed name`},
		{"too large", "#include \"big.h\"\n", nil, `k.cu:1: #include "big.h" (` + filepath.Join(dir, "big.h") + `): ` + strconv.Itoa(bounded.Header+1) + ` bytes: larger than the 4 MiB a header may have`},
		{"too deep", "#include \"chain/h0.h\"\n", []string{chainDir}, `: includes nested more than 64 deep`},
		{"too many", many, nil, `: more than ` + strconv.Itoa(maxIncludeFiles) + ` headers included`},
	} {
		_, err := resolveIncludes([]byte(c.src), filepath.Join(dir, "k.cu"), c.dirs)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v\nwant %q", c.name, err, c.want)
		}
	}
}

// NVRTC compiles from the headers cugen hands it: nested quoted includes,
// one by -I, one under #if 0 that names no file; and an absolute include
// that names no file fails the compile with cugen's message when reached.
func TestGenerateIncludes(t *testing.T) {
	if _, err := OpenNVRTC(); err != nil {
		cugentest.NeedLibrary(t, err)
	}
	dir := writeTree(t, map[string]string{
		"src/k.cu":       "#include \"sub/s.h\"\n#include <lib.h>\n#if 0\n#include \"/no/such/cugen/file.h\"\n#endif\nextern \"C\" __global__ void k(float *y) { y[0] = DEEP + LIB; }\n",
		"src/sub/s.h":    "#include \"deep.h\"\n",
		"src/sub/deep.h": "#define DEEP 1\n",
		"inc/lib.h":      "#define LIB 2\n",
		"src/bad.cu":     "#include \"/no/such/cugen/file.h\"\nextern \"C\" __global__ void k(float *y) {}\n",
	})
	o := Options{Src: filepath.Join(dir, "src", "k.cu"), Archs: []int{90}, Includes: []string{filepath.Join(dir, "inc")}, Out: filepath.Join(dir, "out")}
	if _, err := Generate(o); err != nil {
		t.Fatal(err)
	}
	o.Src = filepath.Join(dir, "src", "bad.cu")
	if _, err := Generate(o); err == nil || !strings.Contains(err.Error(), "cugen kernels: /no/such/cugen/file.h: no such file") {
		t.Errorf("err = %v", err)
	}
}

// A macro's definition names it without using it: libcu++'s fallback
// "#define __has_include(...) 0" reaches no header, and is no error.
func TestScanIncludesDefine(t *testing.T) {
	refs, err := scanIncludes([]byte("#ifndef __has_include\n#  define __has_include(...) 0\n#endif\n#if __has_include(<x.h>)\n#define HAS_Y __has_include(\"y.h\")\n#endif\n"), "k.h")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range refs {
		got = append(got, r.name)
	}
	if strings.Join(got, ",") != "x.h,y.h" {
		t.Errorf("refs = %q, want x.h,y.h (a use in a definition's body still counts)", got)
	}
}

// Every header read from a pinned directory must be pinned there with the
// sha256 of its bytes; one read from elsewhere is not held to a pin.
func TestCheckPinned(t *testing.T) {
	dir := writeTree(t, map[string]string{"p/cub/a.cuh": "int a;\n", "p/cub/b.cuh": "int b;\n", "free/c.h": "int c;\n"})
	hs, err := resolveIncludes([]byte("#include <cub/a.cuh>\n#include <cub/b.cuh>\n#include <c.h>\n"), filepath.Join(dir, "k.cu"), []string{filepath.Join(dir, "free"), filepath.Join(dir, "p")})
	if err != nil {
		t.Fatal(err)
	}
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	p := PinnedDir{Dir: filepath.Join(dir, "p"), Entry: "headers x", Files: map[string]string{"cub/a.cuh": sum("int a;\n"), "cub/b.cuh": sum("int b;\n")}}
	if err := checkPinned(hs, []PinnedDir{p}); err != nil {
		t.Errorf("all pinned: %v", err)
	}
	p.Files["cub/b.cuh"] = sum("int B;\n")
	delete(p.Files, "cub/a.cuh")
	err = checkPinned(hs, []PinnedDir{p})
	if err == nil || !strings.Contains(err.Error(), "cub/a.cuh (<cub/a.cuh>) is not pinned in headers x") || !strings.Contains(err.Error(), "cub/b.cuh differs from its sha256 in headers x") {
		t.Errorf("unpinned and changed: err = %v", err)
	}
}
