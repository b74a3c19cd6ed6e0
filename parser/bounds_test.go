package parser_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cugen/cugen/internal/namedpipe"
	"github.com/cugen/cugen/internal/testset"
	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser"
	"github.com/cugen/cugen/parser/ir"
)

// The parser is bounded: each input below once crashed, hung or ran out of
// memory (issue 13). Each must now fail fast, with a *parser.Error naming
// the file (and line where there is one).

// writeHeaders writes files (name -> text) into a new header directory.
func writeHeaders(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// parseFails parses dir, which must fail within limit with a *parser.Error
// whose text starts with prefix and contains msg.
func parseFails(t *testing.T, dir string, opts parser.Options, prefix, msg string) {
	t.Helper()
	start := time.Now()
	api, err := parser.ParseWith(dir, opts)
	d := time.Since(start)
	t.Logf("%v: %v", d.Round(time.Millisecond), err)
	if err == nil || api != nil {
		t.Fatalf("Parse succeeded; want an error %q", msg)
	}
	var pe *parser.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %q is %T, want *parser.Error", err, err)
	}
	if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), msg) {
		t.Errorf("error %q; want it to start with %q and contain %q", err, prefix, msg)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error text has several lines: %q", err)
	}
	if d > hangCeiling {
		t.Errorf("took %v: a hang? (a refusal takes well under a second: BenchmarkBoundRefusals)", d)
	}
}

// hangCeiling is how long a refused parse may take before the test calls
// it a hang: generous, so that a loaded machine (load 20 on 2 cores made
// the 12.4 headers' expansion limit take 7 s) does not fail it. How fast a
// refusal is belongs to BenchmarkBoundRefusals.
const hangCeiling = 2 * time.Minute

const version = "#define CUDA_VERSION 12040\n"

// TestBoundSelfInclude: cuda.h including itself, without a guard, after a
// declaration. Was: memory grew by 200 MB/s until the process was killed.
func TestBoundSelfInclude(t *testing.T) {
	dir := writeHeaders(t, map[string]string{"cuda.h": version + "int x;\n#include \"cuda.h\"\n"})
	parseFails(t, dir, parser.Options{}, "cuda.h:3:1: ", "#include nested more than 200 deep")
	// Two headers including each other: the error is at an #include.
	dir = writeHeaders(t, map[string]string{
		"cuda.h": version + "#include \"a.h\"\n",
		"a.h":    "int a;\n#include \"b.h\"\n",
		"b.h":    "int b;\n#include \"a.h\"\n",
	})
	parseFails(t, dir, parser.Options{}, "", "#include nested more than 200 deep")
}

// TestBoundEndInsideDeclarator: headers whose text ends after a '*', a
// qualifier or an array's '[' (a truncated download, a fuzzer's "*\x84").
// Was: the C front end looped at the end of input, its error list growing
// by hundreds of MB a second. Each must fail with the one unlocated error
// for a declaration left open; a hang ends the test binary at once rather
// than let the loop take the machine's memory.
func TestBoundEndInsideDeclarator(t *testing.T) {
	for _, tail := range []string{"*", "int *", "int * const", "int x[static const", "int f(int x[const"} {
		dir := writeHeaders(t, map[string]string{"cuda.h": version + tail})
		done := make(chan error, 1)
		go func() {
			_, err := parser.Parse(dir)
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(30 * time.Second):
			panic(fmt.Sprintf("Parse of headers ending in %q did not return in 30 s", tail))
		}
		var pe *parser.Error
		if !errors.As(err, &pe) || pe.Line != 0 || !strings.Contains(pe.Msg, "end inside a declaration") {
			t.Errorf("headers ending in %q: error %v; want the unlocated error for a declaration left open", tail, err)
		}
	}
	// A '*' followed by text that is not a declarator stays a located
	// error at that text.
	dir := writeHeaders(t, map[string]string{"cuda.h": version + "int *;\n"})
	parseFails(t, dir, parser.Options{}, "cuda.h:2:6: ", "expected type qualifier")
	dir = writeHeaders(t, map[string]string{"cuda.h": version + "*\x84"})
	parseFails(t, dir, parser.Options{}, "cuda.h:2:2: ", "expected type qualifier")
}

// TestBoundFIFO: an #include of a FIFO. Was: the open blocked forever.
func TestBoundFIFO(t *testing.T) {
	dir := writeHeaders(t, map[string]string{"cuda.h": version + "#include \"fifo.h\"\n"})
	if err := namedpipe.Make(filepath.Join(dir, "fifo.h")); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	parseFails(t, dir, parser.Options{}, "cuda.h:2:10: #include of fifo.h: ", "not a regular file")
}

// TestBoundProcFile: /proc/self/pagemap is a "regular file" of size 0 that
// reads without end. Was: read until memory ran out. Reached through a
// symbolic link in the header directory (an #include climbing out of it
// with .. is refused earlier, see TestIncludeEscapes).
func TestBoundProcFile(t *testing.T) {
	if _, err := os.Stat("/proc/self/pagemap"); err != nil {
		t.Skip("no /proc/self/pagemap")
	}
	dir := writeHeaders(t, map[string]string{"cuda.h": version + "#include \"pagemap.h\"\n"})
	if err := os.Symlink("/proc/self/pagemap", filepath.Join(dir, "pagemap.h")); err != nil {
		t.Fatal(err)
	}
	parseFails(t, dir, parser.Options{}, "cuda.h:2:10: #include of pagemap.h: ", "more than the 4 MiB a header may have")
}

// TestBoundLargeFiles: a 1 GB sparse include and 100 MB of NUL bytes as
// cuda.h. Was: 7.5 GB of memory in 30 s; a fatal out of memory.
func TestBoundLargeFiles(t *testing.T) {
	dir := writeHeaders(t, map[string]string{"cuda.h": version + "#include \"big.h\"\n"})
	if err := os.Truncate(filepath.Join(dir, "big.h"), 0); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	sparse := func(name string, size int64) {
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
	}
	sparse(filepath.Join(dir, "big.h"), 1<<30)
	parseFails(t, dir, parser.Options{}, "cuda.h:2:10: #include of big.h: 1073741824 bytes", "larger than the 4 MiB a header may have")

	dir = t.TempDir()
	sparse(filepath.Join(dir, "cuda.h"), 100<<20)
	parseFails(t, dir, parser.Options{}, "cuda.h: 104857600 bytes", "larger than the 4 MiB")
}

// TestBoundNUL: a header holding NUL bytes. Was: 10 MB of them took 2.1 GB
// and 9 s before a syntax error.
func TestBoundNUL(t *testing.T) {
	dir := writeHeaders(t, map[string]string{
		"cuda.h": version + "#include \"z.h\"\n",
		"z.h":    "int a;\n/* a comment */ int b;" + strings.Repeat("\x00", 3<<20),
	})
	parseFails(t, dir, parser.Options{}, "z.h:2:23: ", "NUL byte in a header")
}

// TestBoundNesting: parentheses nested 100,000 deep in an unused macro,
// directly and built by 100,000 macros each adding a level. Was: a fatal
// goroutine stack overflow (cc parses expressions by recursion), which no
// recover can catch.
func TestBoundNesting(t *testing.T) {
	n := 100_000
	dir := writeHeaders(t, map[string]string{"cuda.h": version + "#define X " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "\n"})
	parseFails(t, dir, parser.Options{}, "cuda.h:2:267: ", "(, [ and { nested more than 256 deep")

	var b strings.Builder
	b.WriteString(version + "#define A0 1\n")
	for i := 1; i < 2_000; i++ {
		b.WriteString("#define A" + itoa(i) + " (A" + itoa(i-1) + ")\n")
	}
	dir = writeHeaders(t, map[string]string{"cuda.h": b.String()})
	// The macros are expanded in name order: A1000 is the first too deep.
	parseFails(t, dir, parser.Options{}, "cuda.h:1002:1: macro A1000: ", "nested more than 256 deep once macros are expanded")
}

func itoa(i int) string {
	return strings.TrimLeft(string([]byte{byte('0' + i/10000%10), byte('0' + i/1000%10), byte('0' + i/100%10), byte('0' + i/10%10), byte('0' + i%10)}), "0")
}

// TestBoundExpansionInUnusedMacro: an unused exponential macro appended to
// the real 12.4 headers. Was: nondeterministically "no CUDA_VERSION macro"
// (38 of 40 runs) or exit 0 with most constants missing: cc's
// EvalAllMacros stops silently at the expansion limit, in map order. Now
// the first pass expands every macro in name order and fails, the same way
// every time.
func TestBoundExpansionInUnusedMacro(t *testing.T) {
	dir := expansionHeaders(t)
	_, err := parser.Parse(dir)
	// The exact macro depends on the expansion work of the headers before it.
	if err == nil || !regexp.MustCompile(`^cuda\.h:\d+:1: macro e\d+: macro expansion limit exceeded`).MatchString(err.Error()) {
		t.Fatalf("Parse: %v; want cuda.h:LINE:1: macro eN: macro expansion limit exceeded", err)
	}
	// Once more: the same error (it was a different one nearly every run).
	parseFails(t, dir, parser.Options{}, err.Error(), "")
}

// expansionHeaders writes the 12.4 headers with an unused exponential
// macro appended to cuda.h.
func expansionHeaders(t testing.TB) string {
	t.Helper()
	src := testset.Dir(t, "12.4")
	files := map[string]string{}
	for _, f := range lockEntry(t, "12.4").Files {
		b, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		files[f.Path] = string(b)
	}
	var b strings.Builder
	b.WriteString("\n#define e0 x x\n")
	for i := 1; i < 30; i++ {
		b.WriteString("#define e" + itoa(i) + " e" + itoa(i-1) + " e" + itoa(i-1) + "\n")
	}
	files["cuda.h"] += b.String()
	return writeHeaders(t, files)
}

// TestBoundSizes: the bounds on all headers together: tokens, object-like
// macros and the preprocessed translation unit (a header included again
// and again, or macros expanding to much text).
func TestBoundSizes(t *testing.T) {
	dir := writeHeaders(t, map[string]string{"cuda.h": version + "#if 0\n" + strings.Repeat("a ", 2_010_000) + "\n#endif\n"})
	parseFails(t, dir, parser.Options{}, "cuda.h:3:", "the headers read exceed 2000000 tokens in all")

	var b strings.Builder
	b.WriteString(version)
	for i := 0; i < 17_000; i++ {
		b.WriteString("#define M" + itoa(i) + " 1\n")
	}
	dir = writeHeaders(t, map[string]string{"cuda.h": b.String()})
	parseFails(t, dir, parser.Options{}, "cuda.h:16385:1: ", "more than 16384 object-like macros")

	// A header of 2.1 MB (long names: few tokens) without a guard,
	// included 10 times.
	b.Reset()
	for i := 0; i < 10_000; i++ {
		b.WriteString("int a" + strings.Repeat("x", 200) + itoa(i) + ";\n")
	}
	dir = writeHeaders(t, map[string]string{
		"cuda.h": version + strings.Repeat("#include \"d.h\"\n", 10),
		"d.h":    b.String(),
	})
	parseFails(t, dir, parser.Options{}, dir, "the preprocessed headers exceed 16 MiB")
}

// TestIncludeEscapes: an #include may not leave the header directory.
// Was: #include "../../etc/passwd" was read.
func TestIncludeEscapes(t *testing.T) {
	for _, c := range []struct{ include, msg string }{
		{`"../../../../../../../../etc/passwd"`, `#include "../../../../../../../../etc/passwd" leaves the header directory`},
		{`<../../../../../../../../etc/passwd>`, `leaves the header directory`},
		{`"/etc/passwd"`, `#include of an absolute path "/etc/passwd"`},
		{`"sub/../../x.h"`, `leaves the header directory`},
	} {
		dir := writeHeaders(t, map[string]string{"cuda.h": version + "int a;\n#include " + c.include + "\n"})
		parseFails(t, dir, parser.Options{}, "cuda.h:3:1: ", c.msg)
	}
	// Inside the directory, .. is fine (CUDA's cooperative_groups do it).
	dir := writeHeaders(t, map[string]string{
		"cuda.h":    version + "#include \"sub/a.h\"\n",
		"sub/a.h":   "#include \"../b.h\"\n",
		"b.h":       "typedef int CUdevice;\n",
		"other.txt": "",
	})
	if _, err := parser.Parse(dir); err != nil {
		t.Errorf("an #include inside the directory: %v", err)
	}
}

// TestNoShadowedSystemHeader: a stdint.h dropped into the header
// directory would be read instead of the C library's (it comes first in
// the search, so that <cuda.h> is its own). Was: cuuint64_t became 4
// bytes and the run succeeded.
func TestNoShadowedSystemHeader(t *testing.T) {
	if _, err := os.Stat("/usr/include/stdint.h"); err != nil {
		t.Skip("no C library headers in /usr/include")
	}
	dir := writeHeaders(t, map[string]string{
		"cuda.h":   version + "#include <stdint.h>\ntypedef uint64_t cuuint64_t;\n",
		"stdint.h": "typedef unsigned int uint64_t;\n",
	})
	parseFails(t, dir, parser.Options{}, "cuda.h:2:10: #include of stdint.h: would replace the system header <stdint.h>", "may not shadow")
}

// TestPinned: with Options.Pinned (a headers.lock entry), every file read
// from the header directory must be listed with the sha256 of the bytes
// parsed; all that are not are named.
func TestPinned(t *testing.T) {
	files := map[string]string{
		"cuda.h": version + "#include \"a.h\"\n#include \"b.h\"\n#if __has_include(\"opt.h\")\n#include \"opt.h\"\n#endif\n",
		"a.h":    "typedef int CUdevice;\n",
		"b.h":    "typedef int CUcontext;\n",
	}
	dir := writeHeaders(t, files)
	pins := map[string]string{}
	for name, text := range files {
		sum := sha256.Sum256([]byte(text))
		pins[name] = hex.EncodeToString(sum[:])
	}
	opts := parser.Options{Pinned: pins, PinnedBy: "set t of test.lock"}
	if _, err := parser.ParseWith(dir, opts); err != nil {
		t.Fatalf("all files pinned: %v", err)
	}
	// Cut short: a.h and b.h unlisted.
	short := parser.Options{Pinned: map[string]string{"cuda.h": pins["cuda.h"]}, PinnedBy: "set t of test.lock"}
	parseFails(t, dir, short, "a.h: ", "the parse read 2 file(s) of the header directory that set t of test.lock does not pin: a.h, b.h")
	// A file dropped into the directory.
	if err := os.WriteFile(filepath.Join(dir, "opt.h"), []byte("typedef int CUstream;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	parseFails(t, dir, opts, "opt.h: ", "does not pin: opt.h")
	os.Remove(filepath.Join(dir, "opt.h"))
	// A file changed after the lock was verified.
	if err := os.WriteFile(filepath.Join(dir, "b.h"), []byte("typedef long CUcontext;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	parseFails(t, dir, opts, "b.h: ", "b.h (sha256 ")
}

// TestExtraDirs: Options.Extra adds header directories searched after the
// set's own (nccl.h from libnccl-dev beside the toolkit's headers). Their
// headers are included when a library includes them, named and pinned by
// their path relative to the directory they are in, and held to the pins
// like the set's own; those of Options.Own are not.
func TestExtraDirs(t *testing.T) {
	files := map[string]string{"cuda.h": version + "typedef int CUdevice;\n"}
	extra := map[string]string{
		"nccl.h": "#include <cuda.h>\ntypedef enum { ncclSuccess = 0, ncclSystemError = 2 } ncclResult_t;\n" +
			"/* Return the NCCL_VERSION_CODE of the NCCL library in the supplied integer. */\n" +
			"ncclResult_t  ncclGetVersion(int *version);\nncclResult_t pncclGetVersion(int *version);\n" +
			"/*\n * Group Start\n *\n * Start a group call.\n */\nncclResult_t  ncclGroupStart();\n",
	}
	dir, edir := writeHeaders(t, files), writeHeaders(t, extra)
	api, err := parser.ParseWith(dir, parser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(api.Functions) != 0 {
		t.Fatalf("without the extra directory: %d functions, want none", len(api.Functions))
	}
	pins := map[string]string{}
	for name, text := range map[string]string{"cuda.h": files["cuda.h"], "nccl.h": extra["nccl.h"]} {
		sum := sha256.Sum256([]byte(text))
		pins[name] = hex.EncodeToString(sum[:])
	}
	api, err = parser.ParseWith(dir, parser.Options{Extra: []string{edir}, Pinned: pins, PinnedBy: "set t of test.lock"})
	if err != nil {
		t.Fatal(err)
	}
	// The interposition twin pncclGetVersion is not bound (InterposePrefix);
	// the plain comment is the doc (PlainDocs).
	if len(api.Functions) != 2 {
		t.Fatalf("%d functions, want ncclGetVersion and ncclGroupStart", len(api.Functions))
	}
	// A plain comment's title paragraph ("Group Start") is dropped.
	if d := api.Functions[1].Doc; d == nil || len(d.Body) != 1 || d.Body[0].Text != "Start a group call." {
		t.Errorf("ncclGroupStart's doc = %+v, want the one paragraph after its title", d)
	}
	if f := api.Functions[0]; f.Symbol != "ncclGetVersion" || f.Pos.File != "nccl.h" || f.Doc == nil || len(f.Doc.Body) == 0 ||
		!strings.HasPrefix(f.Doc.Body[0].Text, "Return the NCCL_VERSION_CODE") {
		t.Fatalf("function = %+v (doc %+v), want ncclGetVersion of nccl.h with its doc", *f, f.Doc)
	}
	if !slices.Equal(api.Sources, []string{"cuda.h", "nccl.h"}) {
		t.Errorf("Sources = %v, want [cuda.h nccl.h]", api.Sources)
	}
	delete(pins, "nccl.h")
	parseFails(t, dir, parser.Options{Extra: []string{edir}, Pinned: pins, PinnedBy: "set t of test.lock"},
		"nccl.h: ", "does not pin: nccl.h")
	// Options.Own (gen -desc -set -with: a library's own headers) is
	// searched as Extra is, its files never held to the pins; the set's
	// files still are.
	api, err = parser.ParseWith(dir, parser.Options{Own: []string{edir}, Pinned: pins, PinnedBy: "set t of test.lock"})
	if err != nil || len(api.Functions) != 2 {
		t.Errorf("nccl.h unpinned in an Own directory: %v", err)
	}
	parseFails(t, dir, parser.Options{Own: []string{edir}, Pinned: map[string]string{"cuda.h": "00"}, PinnedBy: "set t of test.lock"},
		"cuda.h: ", "cuda.h (sha256 ")
	if _, err := parser.ParseWith(dir, parser.Options{Extra: []string{filepath.Join(edir, "nccl.h")}}); err == nil ||
		!strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("a file as extra directory: %v", err)
	}
}

// TestInitializers: a struct initializer macro a library names
// (library.Desc.Initializers) is evaluated as the C compiler does (sizeof,
// function-like macros, NULL) into the members it sets; members it sets to
// zero are left out. One that is not a flat list of constants fails
// naming the macro.
func TestInitializers(t *testing.T) {
	const nccl = "#include <cuda.h>\ntypedef enum { ncclSuccess = 0 } ncclResult_t;\n" +
		"#define NCCL_V(X,Y) ((X) * 10000 + (Y) * 100)\n" +
		"typedef struct ncclConfig_v1 { unsigned long size; unsigned int magic; int version; const char *netName; float f; int blocking; } ncclConfig_t;\n" +
		"#define NCCL_CONFIG_INITIALIZER { sizeof(ncclConfig_t), 0xcafebeef, NCCL_V(2, 22), ((void*)0), -1.5f, 0 }\n" +
		"ncclResult_t ncclCommInitRankConfig(int nranks, ncclConfig_t *config);\n"
	dir := writeHeaders(t, map[string]string{"cuda.h": version + "typedef int CUdevice;\n", "nccl.h": nccl})
	api, err := parser.Parse(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(api.Initializers) != 1 {
		t.Fatalf("initializers = %+v, want NCCL_CONFIG_INITIALIZER", api.Initializers)
	}
	in := api.Initializers[0]
	want := []ir.InitField{{Name: "size", Kind: ir.Int, Value: "32"}, {Name: "magic", Kind: ir.Int, Value: "3405692655"},
		{Name: "version", Kind: ir.Int, Value: "22200"}, {Name: "f", Kind: ir.Float, Value: "-1.5"}}
	if in.Name != "NCCL_CONFIG_INITIALIZER" || in.Record != "ncclConfig_t" || in.Library != "nccl" || in.Pos.File != "nccl.h" || !slices.Equal(in.Fields, want) {
		t.Errorf("initializer = %+v, want the fields %+v", in, want)
	}
	nested := strings.Replace(nccl, "sizeof(ncclConfig_t), 0xcafebeef", "{ sizeof(ncclConfig_t) }, 0xcafebeef", 1)
	dir = writeHeaders(t, map[string]string{"cuda.h": version + "typedef int CUdevice;\n", "nccl.h": nested})
	parseFails(t, dir, parser.Options{}, "nccl.h:5:1: ", "initializer macro NCCL_CONFIG_INITIALIZER: only a flat list of member values is supported")
}

// TestShadowedFamilyHeaders: a header of the header directory that a
// system directory also has is refused (it would replace the C library's),
// except a header of the CUDA library family: /usr/include has nccl.h and
// nccl_device.h where NVIDIA's libnccl-dev is installed, and a toolkit's
// headers with NCCL's wheel beside them were refused (found on the GPU
// machine).
func TestShadowedFamilyHeaders(t *testing.T) {
	sys := writeHeaders(t, map[string]string{"stdint.h": "", "nccl.h": "", "nccl_device.h": "", "nccl_device/core.h": "", "curses.h": ""})
	for rel, refused := range map[string]bool{
		"stdint.h": true, "curses.h": true, "nccl.h": false, "nccl_device.h": false, "nccl_device/core.h": false, "absent.h": false,
	} {
		got := parser.Shadowed([]string{sys}, library.All, rel)
		if (got != "") != refused {
			t.Errorf("%s: shadowed %q, want refused %v", rel, got, refused)
		}
	}
}

// pinsOf returns Options.Pinned for every regular file under dir: the
// sha256 of its bytes, as headers.lock would pin them.
func pinsOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	pins := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		sum := sha256.Sum256(b)
		pins[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pins
}

// parseWithin parses dir with opts and returns the error, failing the test
// if the parse has not returned after a generous ceiling (a regression
// runs for many seconds and gigabytes; the test must not hang on it).
func parseWithin(t *testing.T, dir string, opts parser.Options) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { _, err := parser.ParseWith(dir, opts); done <- err }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("the parse did not return within 30 s")
		return nil
	}
}

// TestPinnedParseBounds: every bound of the parse holds whatever the
// source: a header set pinned by headers.lock (cugen gen -set) fails
// exactly as the same files given with -headers. Was: the pinned parse
// skipped the bounded first pass, so a cached header that includes itself
// after 60,000 declarations, pinned by its own digest, ran 8-18 s and
// 2.4-2.6 GB (once killed at 4 GiB) before failing; with -headers 0.4 s.
func TestPinnedParseBounds(t *testing.T) {
	var decls, big, nest, expo strings.Builder
	for i := 0; i < 60_000; i++ {
		decls.WriteString("int a" + strconv.Itoa(i) + ";\n")
	}
	for i := 0; i < 10_000; i++ {
		big.WriteString("int a" + strings.Repeat("x", 200) + itoa(i) + ";\n")
	}
	nest.WriteString(version + "#define A0 1\n")
	for i := 1; i < 2_000; i++ {
		nest.WriteString("#define A" + itoa(i) + " (A" + itoa(i-1) + ")\n")
	}
	expo.WriteString(version + "#define e0 x x\n")
	for i := 1; i < 30; i++ {
		expo.WriteString("#define e" + itoa(i) + " e" + itoa(i-1) + " e" + itoa(i-1) + "\n")
	}
	for _, c := range []struct {
		name  string
		files map[string]string
		msg   string
	}{
		{"self-include-after-60000-declarations", map[string]string{"cuda.h": version + decls.String() + "#include \"cuda.h\"\n"}, ""},
		{"self-include", map[string]string{"cuda.h": version + "int x;\n#include \"cuda.h\"\n"}, "#include nested more than 200 deep"},
		{"mutual-include", map[string]string{"cuda.h": version + "#include \"a.h\"\n", "a.h": "int a;\n#include \"b.h\"\n", "b.h": "int b;\n#include \"a.h\"\n"}, "#include nested more than 200 deep"},
		{"included-10-times", map[string]string{"cuda.h": version + strings.Repeat("#include \"d.h\"\n", 10), "d.h": big.String()}, "the preprocessed headers exceed 16 MiB"},
		{"nesting-by-macros", map[string]string{"cuda.h": nest.String()}, "nested more than 256 deep once macros are expanded"},
		{"expansion-in-unused-macro", map[string]string{"cuda.h": expo.String()}, "macro expansion limit exceeded"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeHeaders(t, c.files)
			want := parseWithin(t, dir, parser.Options{})
			if want == nil || !strings.Contains(want.Error(), c.msg) {
				t.Fatalf("-headers: %v, want an error: %s", want, c.msg)
			}
			got := parseWithin(t, dir, parser.Options{Pinned: pinsOf(t, dir), PinnedBy: "set t of test.lock"})
			if got == nil || got.Error() != want.Error() {
				t.Errorf("pinned: %v\nwant the -headers error: %v", got, want)
			}
		})
	}
}

// TestPinnedParseLinks: a pinned parse reads a cache entry, whose
// symbolic links may not leave its directory (internal/lock's Verify holds
// the entry to the same rule, through the same reader); with -headers a
// link is followed. A FIFO is refused either way.
func TestPinnedParseLinks(t *testing.T) {
	outside := writeHeaders(t, map[string]string{"a.h": "typedef int CUdevice;\n"})
	dir := writeHeaders(t, map[string]string{"cuda.h": version + "#include \"a.h\"\n"})
	if err := os.Symlink(filepath.Join(outside, "a.h"), filepath.Join(dir, "a.h")); err != nil {
		t.Fatal(err)
	}
	pins := pinsOf(t, dir)
	pins["a.h"] = pinsOf(t, outside)["a.h"] // the right bytes, through a link out
	if err := parseWithin(t, dir, parser.Options{}); err != nil {
		t.Fatalf("-headers with a link out of the directory: %v", err)
	}
	opts := parser.Options{Pinned: pins, PinnedBy: "set t of test.lock"}
	parseFails(t, dir, opts, "cuda.h:2:10: #include of a.h: ", "a symbolic link to a file outside its directory")

	os.Remove(filepath.Join(dir, "a.h"))
	if err := namedpipe.Make(filepath.Join(dir, "a.h")); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := parseWithin(t, dir, opts); err == nil || !strings.Contains(err.Error(), "a.h: not a regular file") {
		t.Errorf("pinned parse of a FIFO: %v", err)
	}
}

// TestRenamedRedeclaration: a function declared, then renamed by a macro
// to a versioned symbol and declared again (cufile.h's cuFileDriverClose
// and cuFileDriverClose_v2) is one function, bound to the symbol C code
// compiled with the header calls. Was: "cuFileDriverClose declared twice"
// from the IR's validation, and no package.
func TestRenamedRedeclaration(t *testing.T) {
	dir := writeHeaders(t, map[string]string{"cuda.h": version + "typedef enum { CUDA_SUCCESS = 0 } CUresult;\n" +
		"CUresult cuCtxClose(void);\n#define cuCtxClose cuCtxClose_v2\n/** Closes it. */\nCUresult cuCtxClose(void);\n"})
	api, err := parser.Parse(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(api.Functions) != 1 || api.Functions[0].Name != "cuCtxClose" || api.Functions[0].Symbol != "cuCtxClose_v2" {
		for _, f := range api.Functions {
			t.Logf("%s -> %s", f.Name, f.Symbol)
		}
		t.Fatalf("%d functions, want cuCtxClose bound to cuCtxClose_v2", len(api.Functions))
	}
}

// TestCxxSpellingsInCHeaders: cuSPARSELt's cusparseLt.h includes C++'s
// <cstddef> and declares its opaque structs with alignas(16), also when
// compiled as C. Was: "include file not found: <cstddef>", then
// "unexpected integer constant" at alignas. Now <cstddef> is C's
// <stddef.h> (a stub header) and alignas is C11's _Alignas: the struct has
// its alignment, the function is bound.
func TestCxxSpellingsInCHeaders(t *testing.T) {
	files := map[string]string{"cuda.h": version + "typedef int CUdevice;\n",
		"nccl.h": "#include <cstddef>\ntypedef struct { alignas(16) unsigned char data[512]; } ncclHandle_t;\n" +
			"typedef enum { ncclSuccess = 0 } ncclResult_t;\nncclResult_t ncclInit(ncclHandle_t *h, size_t n);\n"}
	api, err := parser.ParseWith(writeHeaders(t, files), parser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(api.Functions) != 1 || api.Functions[0].Symbol != "ncclInit" {
		t.Fatalf("functions %v, want ncclInit", api.Functions)
	}
	found := false
	for _, r := range api.Records {
		if r.Name == "ncclHandle_t" {
			found = true
			if r.Align != 16 || r.Size != 512 {
				t.Errorf("ncclHandle_t: size %d align %d, want 512 and 16", r.Size, r.Align)
			}
		}
	}
	if !found {
		t.Error("no record ncclHandle_t")
	}
}
